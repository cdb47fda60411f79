// native/machine_info.cc — provenance of a GPU run (see machine_info.h).
#include "native/machine_info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <thread>

#include "native/cuda_check.h"

namespace xferlab::native {
namespace {

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t\r\n\"");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n\"");
  return s.substr(first, last - first + 1);
}

// value_after: the text after "key" and the next ':' or '=' on the first
// line of `path` that starts with key ("" if none).
std::string value_after(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto sep = line.find_first_of(":=", key.size());
    if (sep != std::string::npos) return trim(line.substr(sep + 1));
  }
  return "";
}

std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

std::string run_command_output(const std::string& command) {
  std::FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  return pclose(pipe) == 0 ? out : "";
}

traces::MachineInfo collect_machine_info() {
  traces::MachineInfo m;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) m.hostname = host;
  m.cpu_model = value_after("/proc/cpuinfo", "model name");
  m.cpu_cores = std::thread::hardware_concurrency();
  utsname u{};
  const std::string os = value_after("/etc/os-release", "PRETTY_NAME");
  m.os = os + (uname(&u) == 0 ? std::string(os.empty() ? "" : ", ") + u.sysname + " " + u.release
                              : std::string());
  // The driver's own version string is only available through nvidia-smi
  // (no NVML dependency); the driver API version is the fallback.
  std::string driver =
      trim(run_command_output("nvidia-smi --query-gpu=driver_version --format=csv,noheader -i 0"));
  int driver_api = 0, runtime = 0;
  XF_CUDA_CHECK(cudaDriverGetVersion(&driver_api));
  XF_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  m.driver_version = (driver.empty() ? "" : driver + " ") + "(CUDA driver API " +
                     cuda_version_text(driver_api) + ")";
  m.cuda_version = cuda_version_text(runtime);
  m.topology = run_command_output("nvidia-smi topo -m");
  return m;
}

std::vector<traces::GpuInfo> collect_gpu_info(const std::vector<int>& devices,
                                              const std::vector<uint16_t>& gpu_ids) {
  std::vector<traces::GpuInfo> gpus;
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  for (size_t i = 0; i < devices.size(); ++i) {
    cudaDeviceProp prop{};
    XF_CUDA_CHECK(cudaGetDeviceProperties(&prop, devices[i]));
    traces::GpuInfo g;
    g.id = gpu_ids.empty() ? static_cast<uint32_t>(devices[i]) : gpu_ids[i];
    g.model = prop.name;
    char bus[32] = {};
    XF_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof(bus), devices[i]));
    g.pci_bus_id = bus;
    std::string u = "GPU-";
    static const char* kHex = "0123456789abcdef";
    for (int b = 0; b < 16; ++b) {
      const auto byte = static_cast<unsigned char>(prop.uuid.bytes[b]);
      if (b == 4 || b == 6 || b == 8 || b == 10) u += '-';
      u += kHex[byte >> 4];
      u += kHex[byte & 15];
    }
    g.uuid = u;
    g.memory_bytes = prop.totalGlobalMem;
    g.sm_count = static_cast<uint32_t>(prop.multiProcessorCount);
    g.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    g.host = host;
    gpus.push_back(std::move(g));
  }
  return gpus;
}

}  // namespace xferlab::native
