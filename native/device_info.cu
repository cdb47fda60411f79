// native/device_info.cu — smoke kernel: proves the nvcc rule, the static CUDA
// runtime and relocatable device code link (used by tools/gpu_smoke).
#include "native/device_info.h"

namespace xferlab::native {
namespace {

__global__ void write_sm_id(unsigned* d_out) {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  d_out[blockIdx.x] = sm + 1;
}

}  // namespace

void launch_write_sm_id(unsigned* d_out, int blocks, cudaStream_t stream) {
  write_sm_id<<<blocks, 1, 0, stream>>>(d_out);
}

}  // namespace xferlab::native
