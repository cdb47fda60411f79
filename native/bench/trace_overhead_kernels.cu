// native/bench/trace_overhead_kernels.cu — recording-cost kernels (see
// trace_overhead_kernels.h).
#include "native/bench/trace_overhead_kernels.h"
#include "native/cuda_check.h"
#include "native/trace_device.cuh"

namespace xferlab::native::bench {
namespace {

__global__ void record_burst(DeviceTrace trace, uint32_t events_per_thread) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  for (uint32_t i = 0; i < events_per_thread; ++i) record_chunk_write(trace, id, i, 16);
}

template <bool kRecord>
__global__ void workload(uint4* dst, uint64_t chunk16, uint32_t passes, DeviceTrace trace) {
  if constexpr (kRecord) cta_begin(trace, blockIdx.x, chunk16 * 16, 16);
  uint4* chunk = dst + blockIdx.x * chunk16;
  for (uint32_t p = 0; p < passes; ++p) {
    const uint4 v = make_uint4(p, blockIdx.x, threadIdx.x, p ^ blockIdx.x);
    for (uint64_t i = threadIdx.x; i < chunk16; i += blockDim.x) chunk[i] = v;
  }
  if constexpr (kRecord) {
    if (threadIdx.x % 32 == 0)
      record_chunk_write(trace, blockIdx.x, chunk16 * 16 / (blockDim.x / 32), 16);
    cta_end(trace, blockIdx.x, chunk16 * 16, 16);
  }
}

}  // namespace

void launch_record_burst(const DeviceTrace& trace, int ctas, int threads,
                         uint32_t events_per_thread, cudaStream_t stream) {
  record_burst<<<ctas, threads, 0, stream>>>(trace, events_per_thread);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_workload(void* dst, uint64_t chunk_bytes, int ctas, int threads, uint32_t passes,
                     WorkloadRecording recording, const DeviceTrace& trace, cudaStream_t stream) {
  uint4* d = static_cast<uint4*>(dst);
  if (recording == WorkloadRecording::kOn) {
    workload<true><<<ctas, threads, 0, stream>>>(d, chunk_bytes / 16, passes, trace);
  } else {
    workload<false><<<ctas, threads, 0, stream>>>(d, chunk_bytes / 16, passes, trace);
  }
  XF_CUDA_CHECK_LAUNCH();
}

}  // namespace xferlab::native::bench
