// native/halo/halo_kernels.h — launchers of the halo exchange kernels (CUDA
// code in halo_kernels.cu): 27-point stencil update, fused pack/unpack
// (baseline), notification pack/unpack (stream approach), the cooperative
// stacked kernel, and ghost verification.
//
// Buffers are pinned host memory (MPI here is not CUDA-aware): kernels write
// and read them directly through their mapped device addresses.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "native/device_trace.h"
#include "native/halo/halo_geometry.h"
#include "native/halo/notify_types.h"

namespace xferlab::halo {

// Kernel ids in trace metadata ("kernels").
enum KernelId : uint32_t {
  kKernelCompute = 1,
  kKernelPackFused = 2,
  kKernelUnpackFused = 3,
  kKernelPackNotify = 4,
  kKernelUnpackNotify = 5,
  kKernelStacked = 6,
  kKernelVerify = 7,
  kKernelGdasyncKi = 8,
  kKernelComputeBoundary = 9,  ///< compute of Region::kBoundary (kKernelCompute: kAll).
  kKernelComputeInterior = 10,
  kNumKernelIds = 11,
};

// launch_compute: the application iteration over `region`: result = 27-point
// stencil of d_in (owned + ghost cells of the previous exchange), and the owned
// cells of d_next = owner_value(iteration), the values the next exchange sends.
void launch_compute(const FieldLayout& layout, const RankOrigin& origin, Region region,
                    const double* d_in, double* d_result, double* d_next, uint32_t iteration,
                    cudaStream_t stream, const xferlab::native::DeviceTrace& trace = {});

// Fused (baseline) pack / unpack: one launch for all messages, enough CTAs per
// message (grid y = message) that each thread copies one batch (kCopyBatch).
// With `trace` enabled, compute and fused kernels record their span
// (kernel_begin / kernel_end; halo_exchange --trace-dir).
void launch_pack_fused(const MessageTable& send, const FieldLayout& layout, const double* d_field,
                       double* d_buffer, cudaStream_t stream,
                       const xferlab::native::DeviceTrace& trace = {});
void launch_unpack_fused(const MessageTable& recv, const FieldLayout& layout,
                         const double* d_buffer, double* d_field, cudaStream_t stream,
                         const xferlab::native::DeviceTrace& trace = {});

// NotifyArgs: what the notification kernels share. Flag arrays and the fault
// record are pinned host memory (device addresses).
struct NotifyArgs {
  uint32_t* send_ready;    ///< flag per message (flag_slot), set to `epoch` when packed.
  uint32_t* unpack_ready;  ///< flag per message (flag_slot), set to `epoch` by the CPU.
  uint32_t* device_ready;  ///< device memory, flag per message: stacked's forwarded unpack_ready.
  uint32_t epoch;          ///< iteration + 1 (flags only grow; no reset needed).
  uint64_t timeout_ns;     ///< bound of every GPU spin-wait.
  DeviceFault* fault;
  xferlab::native::DeviceTrace trace;
};

// Stream approach: pack kernel (CTA m packs message m, then sets send_ready[m])
// and unpack kernel (CTA m waits for unpack_ready[m], then unpacks), launched
// on two streams. kNotifyThreads per CTA: one pass over a 50^3 face.
inline constexpr int kNotifyThreads = 1024;
void launch_pack_notify(const MessageTable& send, const FieldLayout& layout, const double* d_field,
                        double* d_buffer, const NotifyArgs& args, cudaStream_t stream);
void launch_unpack_notify(const MessageTable& recv, const FieldLayout& layout,
                          const double* d_buffer, double* d_field, const NotifyArgs& args,
                          cudaStream_t stream);

// Stacked approach: one cooperative kernel on all SMs. Messages of at least
// long_bytes are packed / unpacked by every CTA (grid sync before their flags
// are set), shorter ones by a single CTA each. Only one thread polls the host
// flags of the long messages and forwards them to args.device_ready, which the
// other CTAs poll. Returns the grid size used.
int launch_stacked(const MessageTable& send, const MessageTable& recv, const FieldLayout& layout,
                   double* d_field, double* d_send_buffer, const double* d_recv_buffer,
                   int64_t long_bytes, const NotifyArgs& args, cudaStream_t stream);

// launch_verify: counts ghost cells of `recv`'s boxes that differ from their
// owner's value at `iteration` (into d_report; the first one is kept).
void launch_verify(const MessageTable& recv, const FieldLayout& layout, const RankOrigin& origin,
                   const double* d_field, uint32_t iteration, VerifyReport* d_report,
                   cudaStream_t stream);

}  // namespace xferlab::halo
