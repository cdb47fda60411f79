// native/bench/notify_cdp.cu — dynamic-parallelism (CDP2) child launch
// latency: fire-and-forget and tail launch. Built with relocatable device code.
#include "native/bench/notify_kernels.h"
#include "native/cuda_check.h"
#include "native/trace_device.cuh"

namespace xferlab::native::bench {
namespace {

__global__ void cdp_child(uint64_t* t_child, uint32_t index) {
  t_child[index] = globaltimer_ns();
}

__global__ void cdp_parent(uint64_t* t_parent, uint64_t* t_child, uint32_t index, CdpMode mode) {
  const uint64_t t = globaltimer_ns();
  t_parent[index] = t;
  if (mode == CdpMode::kTailLaunch) {
    cdp_child<<<1, 1, 0, cudaStreamTailLaunch>>>(t_child, index);
  } else {
    cdp_child<<<1, 1, 0, cudaStreamFireAndForget>>>(t_child, index);
  }
}

}  // namespace

void launch_cdp_parent(uint64_t* d_t_parent, uint64_t* d_t_child, uint32_t index, CdpMode mode,
                       cudaStream_t stream) {
  cdp_parent<<<1, 1, 0, stream>>>(d_t_parent, d_t_child, index, mode);
  XF_CUDA_CHECK_LAUNCH();
}

}  // namespace xferlab::native::bench
