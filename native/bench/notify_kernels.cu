// native/bench/notify_kernels.cu — notification benchmark kernels (see
// notify_kernels.h).
#include "native/bench/notify_kernels.h"
#include "native/cuda_check.h"
#include "native/trace_device.cuh"

namespace xferlab::native::bench {
namespace {

__global__ void flag_pingpong(uint32_t* to_cpu, const volatile uint32_t* to_gpu, uint32_t rounds,
                              GpuFlagStore store, uint64_t* t_set, uint64_t* t_seen,
                              uint32_t* status, uint64_t timeout_ns, DeviceTrace trace) {
  for (uint32_t i = 1; i <= rounds; ++i) {
    const uint64_t set = globaltimer_ns();
    if (store == GpuFlagStore::kAtomic) {
      atomicExch_system(to_cpu, i);
    } else {
      *reinterpret_cast<volatile uint32_t*>(to_cpu) = i;
    }
    uint64_t seen;
    while (true) {
      seen = globaltimer_ns();
      if (static_cast<int32_t>(*to_gpu - i) >= 0) break;
      if (seen - set > timeout_ns) {
        *reinterpret_cast<volatile uint32_t*>(status) = i;
        return;
      }
    }
    t_set[i - 1] = set;
    t_seen[i - 1] = seen;
    // Recorded after the round's timestamps so recording is not measured.
    record_event_at(trace, set, traces::EventKind::kFlagSet, 0, 0, 0, i, i);
    record_event_at(trace, seen, traces::EventKind::kFlagObserved, 0, 0, 1, i, i);
  }
}

__global__ void gpu_read_write(const volatile uint32_t* in, uint32_t* out, uint32_t n,
                               uint32_t iters, GpuReadWrite kind, uint64_t* total_ns) {
  const uint64_t start = globaltimer_ns();
  for (uint32_t i = 0; i < iters; ++i) {
    const uint32_t v = in[i % n];
    if (kind == GpuReadWrite::kAtomic) {
      atomicExch_system(out + i % n, v + 1);
    } else {
      reinterpret_cast<volatile uint32_t*>(out)[i % n] = v + 1;
      if (kind == GpuReadWrite::kVolatileFence) __threadfence_system();
    }
  }
  *total_ns = globaltimer_ns() - start;
}

__global__ void timestamp_kernel(uint64_t* d_start, uint64_t* d_end, uint32_t index,
                                 DeviceTrace trace) {
  if (threadIdx.x != 0) return;
  const uint64_t start = globaltimer_ns();
  d_start[index] = start;
  const uint64_t end = globaltimer_ns();
  d_end[index] = end;
  record_event_at(trace, start, traces::EventKind::kKernelBegin, 0, 0, index, 1, blockDim.x);
  record_event_at(trace, end, traces::EventKind::kKernelEnd, 0, 0, index, 1, blockDim.x);
}

}  // namespace

void launch_flag_pingpong(uint32_t* to_cpu, const uint32_t* to_gpu, uint32_t rounds,
                          GpuFlagStore store, uint64_t* d_t_set, uint64_t* d_t_seen,
                          uint32_t* status, uint64_t timeout_ns, const DeviceTrace& trace,
                          cudaStream_t stream) {
  flag_pingpong<<<1, 1, 0, stream>>>(to_cpu, to_gpu, rounds, store, d_t_set, d_t_seen, status,
                                     timeout_ns, trace);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_gpu_read_write(const uint32_t* in, uint32_t* out, uint32_t n, uint32_t iters,
                           GpuReadWrite kind, uint64_t* d_total_ns, cudaStream_t stream) {
  gpu_read_write<<<1, 1, 0, stream>>>(in, out, n, iters, kind, d_total_ns);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_timestamp_kernel(uint64_t* d_start, uint64_t* d_end, uint32_t index,
                             const DeviceTrace& trace, cudaStream_t stream) {
  timestamp_kernel<<<1, 32, 0, stream>>>(d_start, d_end, index, trace);
  XF_CUDA_CHECK_LAUNCH();
}

}  // namespace xferlab::native::bench
