// native/gdasync/ki_kernel.cu — kernel-initiated GPUDirect Async emulation.
#include "native/cuda_check.h"
#include "native/gdasync/ki_kernel.h"
#include "native/halo/halo_device.cuh"
#include "native/halo/notify_device.cuh"

namespace xferlab::gdasync {
namespace {

using namespace xferlab::halo;  // NOLINT: kernel code over the halo geometry.

constexpr int kThreads = 256;

__global__ void ki_kernel(KiArgs a) {
  __shared__ unsigned int role;
  const unsigned int ctas = 1 + a.senders + a.unpackers;
  if (threadIdx.x == 0) role = atomicAdd(a.ticket, 1u) - a.iteration * ctas;
  __syncthreads();
  const uint32_t epoch = a.iteration + 1;
  if (role == 0) {
    // Receiver: thread m watches message m's completion.
    const int m = threadIdx.x;
    if (m < a.recv.count) {
      const uint64_t start = xferlab::native::globaltimer_ns();
      uint32_t seen;
      uint32_t polls = 0;
      while ((seen = load_acquire_sys(flag_slot(a.recv_complete, m))) < epoch) {
        if ((++polls & 1023u) == 0 &&
            should_give_up(start, a.timeout_ns, a.fault, FlagArray::kRecvComplete, m, epoch, seen))
          return;
      }
      xferlab::native::record_flag_observed(
          a.trace, static_cast<uint32_t>(FlagArray::kRecvComplete) * kFlagsPerArray + m, seen, m);
      // Release at GPU scope: the unpackers then read the host buffer the
      // proxy filled before it wrote recv_complete.
      store_release_gpu(flag_slot(a.device_ready, m), epoch);
    }
    return;
  }
  if (role <= static_cast<unsigned int>(a.senders)) {
    const int s = role - 1;
    for (int m = s; m < a.send.count; m += a.senders) {
      pack_range(a.send.msg[m], a.layout, a.field, a.send_buffer, threadIdx.x, blockDim.x);
      publish_flag(flag_slot(a.doorbell, m), epoch, FlagArray::kDoorbell, m, a.trace);
    }
    const int n[3] = {a.layout.n[0], a.layout.n[1], a.layout.n[2]};
    const int64_t cells = region_cells(n, Region::kInterior);
    for (int64_t c = s * int64_t{blockDim.x} + threadIdx.x; c < cells;
         c += int64_t{a.senders} * blockDim.x) {
      compute_cell(a.layout, a.origin, Region::kInterior, c, a.in, a.result, a.field, a.iteration);
    }
    return;
  }
  const int u = role - 1 - a.senders;
  for (int m = u; m < a.recv.count; m += a.unpackers) {
    // The receiver CTA reports a lost message; unpackers only stop waiting.
    if (!wait_device_flag_geq(flag_slot(a.device_ready, m), epoch, a.timeout_ns, a.fault)) return;
    unpack_range(a.recv.msg[m], a.layout, a.recv_buffer, a.field, threadIdx.x, blockDim.x);
  }
}

}  // namespace

int ki_default_senders(int messages, int unpackers) {
  int device = 0, sms = 0;
  XF_CUDA_CHECK(cudaGetDevice(&device));
  XF_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int fill = 2 * sms - 1 - unpackers;
  return fill > messages ? fill : messages;
}

void launch_ki(const KiArgs& args, cudaStream_t stream) {
  ki_kernel<<<1 + args.senders + args.unpackers, kThreads, 0, stream>>>(args);
  XF_CUDA_CHECK_LAUNCH();
}

}  // namespace xferlab::gdasync
