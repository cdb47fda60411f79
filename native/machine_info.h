// native/machine_info.h — collects the provenance of a GPU run: host, CPU,
// OS, NVIDIA driver, CUDA runtime, GPUs and `nvidia-smi topo -m`.
#pragma once

#include <string>
#include <vector>

#include "traces/metadata.h"

namespace xferlab::native {

// collect_machine_info: hostname, CPU model/cores (/proc/cpuinfo), OS
// (/etc/os-release + uname), driver version (NVML-free: cudaDriverGetVersion
// and `nvidia-smi --query-gpu=driver_version` when available), CUDA runtime
// version and the verbatim `nvidia-smi topo -m` output ("" when nvidia-smi is
// missing). `mpi` is left empty: MPI programs set it (native/mpi_check.h).
traces::MachineInfo collect_machine_info();

// collect_gpu_info: one GpuInfo per device; gpu_ids[i] (or the ordinal when
// gpu_ids is empty) becomes GpuInfo::id.
std::vector<traces::GpuInfo> collect_gpu_info(const std::vector<int>& devices,
                                              const std::vector<uint16_t>& gpu_ids = {});

// run_command_output: stdout of a shell command (popen), "" if it fails.
std::string run_command_output(const std::string& command);

}  // namespace xferlab::native
