// native/cuda_check.cc — failure reporting for XF_CUDA_CHECK.
#include "native/cuda_check.h"

#include <cstdlib>
#include <cstring>

namespace xferlab::native {

void use_eager_module_loading() {
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);
}

namespace {
// Before main: no CUDA call can precede it, whatever main does first.
[[maybe_unused]] const bool kEagerLoading = (use_eager_module_loading(), true);
}  // namespace

bool cuda_debug_sync() {
  static const bool enabled = [] {
    const char* v = std::getenv("XFERLAB_CUDA_DEBUG");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return enabled;
}

void cuda_fail(cudaError_t err, const char* expr, const char* file, int line) {
  std::fprintf(stderr, "CUDA error: %s failed at %s:%d: %s (%s)\n", expr, file, line,
               cudaGetErrorString(err), cudaGetErrorName(err));
  std::exit(1);
}

}  // namespace xferlab::native
