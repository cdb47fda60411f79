// native/clock_sync_gpu.cu — the GPU side of clock synchronization: a
// one-thread kernel answers host round trips through pinned host memory with
// its %globaltimer reading (see clock_sync.h for the method).
#include <cuda_runtime.h>

#include <atomic>
#include <string>

#include "native/clock_sync.h"
#include "native/cuda_check.h"
#include "native/trace_device.cuh"

namespace xferlab::native {
namespace {

constexpr uint64_t kTimeoutNs = 1000000000ull;  // per wait, host and device.

// Mailbox in pinned host memory, written by both sides.
struct Mailbox {
  uint32_t request;      ///< host -> GPU: round number (1-based).
  uint32_t reply_round;  ///< GPU -> host: round answered.
  uint64_t reply_ns;     ///< GPU -> host: %globaltimer when the request was seen.
  uint32_t timed_out;    ///< GPU -> host: round the kernel gave up on (0 = none).
};

__global__ void clock_pingpong(volatile Mailbox* box, uint32_t rounds) {
  for (uint32_t i = 1; i <= rounds; ++i) {
    const uint64_t start = globaltimer_ns();
    while (box->request != i) {
      if (globaltimer_ns() - start > kTimeoutNs) {
        box->timed_out = i;
        return;
      }
    }
    box->reply_ns = globaltimer_ns();
    __threadfence_system();  // reply_ns visible before reply_round.
    box->reply_round = i;
  }
}

__global__ void globaltimer_step(unsigned long long* d_min_step) {
  uint64_t prev = globaltimer_ns();
  uint64_t min_step = UINT64_MAX;
  for (int i = 0; i < 4096; ++i) {
    const uint64_t now = globaltimer_ns();
    if (now != prev && now - prev < min_step) min_step = now - prev;
    prev = now;
  }
  *d_min_step = min_step;
}

// DeviceScope: makes `device` current and restores the previous one.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    XF_CUDA_CHECK(cudaGetDevice(&previous_));
    XF_CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceScope() { cudaSetDevice(previous_); }

 private:
  int previous_ = 0;
};

}  // namespace

Status measure_clock_samples(int device, uint32_t rounds, uint32_t batch,
                             std::vector<ClockSample>& out) {
  if (rounds == 0) return make_error("clock sync: rounds must be at least 1");
  DeviceScope scope(device);
  Mailbox* box = nullptr;
  XF_CUDA_CHECK(cudaHostAlloc(&box, sizeof(Mailbox), cudaHostAllocMapped));
  *box = Mailbox{};
  Mailbox* d_box = nullptr;
  XF_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_box), box, 0));
  // Non-blocking stream: the kernel must not wait behind the legacy stream.
  cudaStream_t stream;
  XF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  clock_pingpong<<<1, 1, 0, stream>>>(d_box, rounds);
  XF_CUDA_CHECK_LAUNCH();

  volatile Mailbox* vbox = box;
  std::string timeout;  // non-empty: what the host gave up waiting for.
  for (uint32_t i = 1; i <= rounds && timeout.empty(); ++i) {
    const uint64_t before = host_steady_ns();
    vbox->request = i;
    uint64_t after = before;
    while (vbox->reply_round != i) {
      after = host_steady_ns();
      if (after - before > kTimeoutNs || vbox->timed_out != 0) {
        timeout = "clock sync: timed out after 1 s waiting for GPU " + std::to_string(device) +
                  " to answer round trip " + std::to_string(i) +
                  " (is the device busy with a kernel?)";
        break;
      }
    }
    if (!timeout.empty()) break;
    after = host_steady_ns();
    std::atomic_thread_fence(std::memory_order_acquire);
    out.push_back(ClockSample{before, vbox->reply_ns, after, batch});
  }
  // On a host-side timeout the kernel gives up on its own within 1 s.
  XF_CUDA_CHECK(cudaStreamSynchronize(stream));
  XF_CUDA_CHECK(cudaStreamDestroy(stream));
  XF_CUDA_CHECK(cudaFreeHost(box));
  if (!timeout.empty()) return make_runtime_error(timeout);
  return Status::Ok();
}

Result<uint64_t> measure_globaltimer_step_ns(int device) {
  DeviceScope scope(device);
  unsigned long long* d_step = nullptr;
  XF_CUDA_CHECK(cudaMalloc(&d_step, sizeof(*d_step)));
  globaltimer_step<<<1, 1>>>(d_step);
  XF_CUDA_CHECK_LAUNCH();
  unsigned long long step = 0;
  XF_CUDA_CHECK(cudaMemcpy(&step, d_step, sizeof(step), cudaMemcpyDeviceToHost));
  XF_CUDA_CHECK(cudaFree(d_step));
  if (step == UINT64_MAX)
    return make_runtime_error("clock sync: %globaltimer did not advance on GPU " +
                              std::to_string(device) + " over 4096 reads");
  return static_cast<uint64_t>(step);
}

}  // namespace xferlab::native
