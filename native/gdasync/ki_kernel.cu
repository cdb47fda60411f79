// native/gdasync/ki_kernel.cu — kernel-initiated GPUDirect Async emulation.
#include "native/cuda_check.h"
#include "native/gdasync/ki_kernel.h"
#include "native/halo/halo_device.cuh"
#include "native/halo/notify_device.cuh"

namespace xferlab::gdasync {
namespace {

using namespace xferlab::halo;  // NOLINT: kernel code over the halo geometry.

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t load_acquire_gpu(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

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
      while ((seen = load_acquire_sys(&a.recv_complete[m])) < epoch) {
        if ((++polls & 1023u) == 0) {
          const uint64_t waited = xferlab::native::globaltimer_ns() - start;
          if (load_acquire_sys(&a.fault->code) != 0) return;
          if (waited > a.timeout_ns) {
            a.fault->flag_array = static_cast<uint32_t>(FlagArray::kRecvComplete);
            a.fault->message = m;
            a.fault->expected = epoch;
            a.fault->seen = seen;
            a.fault->block = blockIdx.x;
            a.fault->waited_ns = waited;
            __threadfence_system();
            store_release_sys(&a.fault->code, 1);
            return;
          }
        }
      }
      xferlab::native::record_flag_observed(
          a.trace, static_cast<uint32_t>(FlagArray::kRecvComplete) * kFlagsPerArray + m, seen, m);
      // Release at GPU scope: the unpackers then read the host buffer the
      // proxy filled before it wrote recv_complete.
      asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(&a.device_ready[m]), "r"(epoch)
                   : "memory");
    }
    return;
  }
  if (role <= static_cast<unsigned int>(a.senders)) {
    const int s = role - 1;
    for (int m = s; m < a.send.count; m += a.senders) {
      pack_range(a.send.msg[m], a.layout, a.field, a.send_buffer, threadIdx.x, blockDim.x);
      publish_flag(&a.doorbell[m], epoch, FlagArray::kDoorbell, m, a.trace);
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
    __shared__ int ok;
    if (threadIdx.x == 0) {
      ok = 1;
      const uint64_t start = xferlab::native::globaltimer_ns();
      uint32_t polls = 0;
      while (load_acquire_gpu(&a.device_ready[m]) < epoch) {
        if ((++polls & 1023u) == 0 && (load_acquire_sys(&a.fault->code) != 0 ||
                                       xferlab::native::globaltimer_ns() - start > a.timeout_ns)) {
          ok = 0;  // the receiver CTA reports the lost message.
          break;
        }
      }
    }
    __syncthreads();
    if (!ok) return;
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
