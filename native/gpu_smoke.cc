// native/gpu_smoke.cc — checks a GPU machine can run xferlab's native binaries:
// lists devices and peer access, runs one kernel and verifies its output.
#include <cstdio>
#include <vector>

#include "native/cuda_check.h"
#include "native/device_info.h"

int main() {
  xferlab::native::use_eager_module_loading();  // before any CUDA call.
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::fprintf(stderr, "gpu_smoke: no CUDA device available (%s)\n",
                 err == cudaSuccess ? "0 devices" : cudaGetErrorString(err));
    return 1;
  }
  int driver = 0, runtime = 0;
  XF_CUDA_CHECK(cudaDriverGetVersion(&driver));
  XF_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  std::printf("devices %d driver_api %d runtime %d\n", count, driver, runtime);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    XF_CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
    std::printf("gpu %d: %s sm_%d%d sms %d mem_bytes %zu\n", d, prop.name, prop.major, prop.minor,
                prop.multiProcessorCount, prop.totalGlobalMem);
    for (int p = 0; p < count; ++p) {
      if (p == d) continue;
      int can = 0;
      XF_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, d, p));
      std::printf("  peer %d -> %d: %s\n", d, p, can ? "yes" : "no");
    }
  }
  const int blocks = 64;
  unsigned* d_out = nullptr;
  XF_CUDA_CHECK(cudaSetDevice(0));
  XF_CUDA_CHECK(cudaMalloc(&d_out, blocks * sizeof(unsigned)));
  XF_CUDA_CHECK(cudaMemset(d_out, 0, blocks * sizeof(unsigned)));
  xferlab::native::launch_write_sm_id(d_out, blocks, nullptr);
  XF_CUDA_CHECK_LAUNCH();
  std::vector<unsigned> h_out(blocks);
  XF_CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
  XF_CUDA_CHECK(cudaFree(d_out));
  for (int b = 0; b < blocks; ++b) {
    if (h_out[b] == 0) {
      std::fprintf(stderr, "gpu_smoke: block %d did not write its output\n", b);
      return 1;
    }
  }
  std::printf("gpu_smoke: ok (%d blocks verified)\n", blocks);
  return 0;
}
