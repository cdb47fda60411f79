// native/bench/bench_util_kernels.cu — the spin-latch kernel (bench_util.h).
#include "native/bench/bench_util.h"
#include "native/trace_device.cuh"

namespace xferlab::native::bench::detail {
namespace {

__global__ void spin_latch(volatile uint32_t* mailbox, uint32_t generation, uint64_t timeout_ns) {
  const uint64_t start = globaltimer_ns();
  while (mailbox[0] != generation) {
    if (globaltimer_ns() - start > timeout_ns) {
      mailbox[1] = generation;
      return;
    }
  }
}

}  // namespace

void launch_spin_latch(uint32_t* mailbox, uint32_t generation, uint64_t timeout_ns,
                       cudaStream_t stream) {
  spin_latch<<<1, 1, 0, stream>>>(mailbox, generation, timeout_ns);
}

}  // namespace xferlab::native::bench::detail
