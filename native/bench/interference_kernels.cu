// native/bench/interference_kernels.cu — GPU writer for the interference
// benchmark (see interference_kernels.h).
#include "native/bench/interference_kernels.h"
#include "native/cuda_check.h"
#include "native/trace_device.cuh"

namespace xferlab::native::bench {
namespace {

constexpr uint64_t kStopPollNs = 2000;

__global__ void interference_writer(uint4* dst, uint64_t n16, uint32_t value, uint32_t once,
                                    WriterControl* control, uint64_t timeout_ns,
                                    DeviceTrace trace) {
  __shared__ uint32_t stop;
  cta_begin(trace, traces::kNoId, n16 * 16, 16);
  volatile WriterControl* ctl = control;
  if (threadIdx.x == 0) {
    stop = 0;
    if (blockIdx.x == 0) ctl->running = 1;
  }
  __syncthreads();
  const uint64_t start = globaltimer_ns();
  uint64_t last_poll = start;
  const uint4 v = make_uint4(value, value, value, value);
  const uint64_t grid = uint64_t{gridDim.x} * blockDim.x;
  while (true) {
    for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n16; i += grid)
      dst[i] = v;
    if (once) break;
    if (threadIdx.x == 0) {
      const uint64_t now = globaltimer_ns();
      if (now - last_poll > kStopPollNs) {
        last_poll = now;
        if (ctl->stop) stop = 1;
        if (now - start > timeout_ns) {
          ctl->timed_out = 1;
          stop = 1;
        }
      }
    }
    __syncthreads();
    if (stop) break;
    __syncthreads();
  }
  cta_end(trace, traces::kNoId, n16 * 16, 16);
}

}  // namespace

Result<int> launch_interference_writer(void* dst, uint64_t bytes, uint32_t value, bool once,
                                       bool cooperative, WriterControl* control,
                                       uint64_t timeout_ns, const DeviceTrace& trace,
                                       cudaStream_t stream) {
  if (bytes % 16 != 0)
    return make_error("interference writer: " + std::to_string(bytes) +
                      " bytes is not a multiple of 16");
  int device = 0;
  XF_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  XF_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const int threads = prop.maxThreadsPerBlock;
  uint4* d = static_cast<uint4*>(dst);
  uint64_t n16 = bytes / 16;
  uint32_t once_flag = once ? 1 : 0;
  if (!cooperative) {
    interference_writer<<<1, threads, 0, stream>>>(d, n16, value, once_flag, control, timeout_ns,
                                                   trace);
    XF_CUDA_CHECK_LAUNCH();
    return 1;
  }
  int per_sm = 0;
  XF_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, interference_writer, threads, 0));
  const int grid = per_sm * prop.multiProcessorCount;
  DeviceTrace t = trace;
  void* args[] = {&d, &n16, &value, &once_flag, &control, &timeout_ns, &t};
  XF_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(interference_writer), grid,
                                            threads, args, 0, stream));
  XF_CUDA_CHECK_LAUNCH();
  return grid;
}

}  // namespace xferlab::native::bench
