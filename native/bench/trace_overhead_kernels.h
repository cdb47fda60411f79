// native/bench/trace_overhead_kernels.h — kernels that measure what device
// trace recording costs (native/trace_device.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "native/device_trace.h"

namespace xferlab::native::bench {

// launch_record_burst: every thread records `events_per_thread` kChunkWrite
// events back to back (throughput under contention on one cursor).
void launch_record_burst(const DeviceTrace& trace, int ctas, int threads,
                         uint32_t events_per_thread, cudaStream_t stream);

// WorkloadRecording: how the workload kernel records.
enum class WorkloadRecording : int {
  kCompiledOut = 0,  ///< no record calls in the kernel at all.
  kOn = 1,           ///< record calls present; DeviceTrace::enabled decides.
};

// launch_workload: a PROACT-like producer: each CTA writes its `chunk_bytes`
// chunk of dst with 16-byte stores `passes` times, recording CTA begin/end and
// one kChunkWrite per warp (3 + warps events per CTA).
void launch_workload(void* dst, uint64_t chunk_bytes, int ctas, int threads, uint32_t passes,
                     WorkloadRecording recording, const DeviceTrace& trace, cudaStream_t stream);

}  // namespace xferlab::native::bench
