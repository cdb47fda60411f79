// native/cuda_check.h — error checking for CUDA and MPI calls in native code.
//
// Every CUDA/MPI call in native/ goes through these macros: on failure they
// print the expression, file:line and the library's error string on one line
// and exit(1) (native programs fail fast; see STYLE: example programs fail fast).
// XF_CUDA_CHECK_LAUNCH() after each kernel launch catches launch errors, and
// with XFERLAB_CUDA_DEBUG=1 in the environment also synchronizes to catch
// asynchronous faults at the launch that caused them.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace xferlab::native {

// cuda_debug_sync: true when XFERLAB_CUDA_DEBUG=1 (read once).
bool cuda_debug_sync();

// use_eager_module_loading: sets CUDA_MODULE_LOADING=EAGER for this process;
// call first thing in main, before any CUDA call. With lazy loading (the
// default since CUDA 12.2) the first launch of a kernel whose module is not
// loaded yet blocks until the device is idle, so it deadlocks against a
// spin-latch or a persistent kernel that waits for the host (the launch only
// returns after the spin-wait times out). cuda_check.cc also calls it from a
// static initializer, so every native program linking this library is covered.
void use_eager_module_loading();

[[noreturn]] void cuda_fail(cudaError_t err, const char* expr, const char* file, int line);

}  // namespace xferlab::native

#define XF_CUDA_CHECK(expr)                                                                       \
  do {                                                                                            \
    cudaError_t xf_err_ = (expr);                                                                 \
    if (xf_err_ != cudaSuccess) ::xferlab::native::cuda_fail(xf_err_, #expr, __FILE__, __LINE__); \
  } while (0)

#define XF_CUDA_CHECK_LAUNCH()                                                        \
  do {                                                                                \
    XF_CUDA_CHECK(cudaGetLastError());                                                \
    if (::xferlab::native::cuda_debug_sync()) XF_CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)
