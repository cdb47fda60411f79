// native/gdasync/ki_kernel.h — the kernel-initiated (KI) GPUDirect Async
// kernel: one launch per iteration whose CTAs take roles by atomic ticket
// (CTA scheduling order is not guaranteed, ticket order is):
//   ticket 0            receiver: polls the proxy's recv_complete flags and
//                       forwards each to the unpackers (device-memory flag);
//   tickets 1..N        senders: pack their messages, ring their doorbells,
//                       then compute their share of the interior;
//   tickets N+1..N+M    unpackers: wait for their messages, unpack.
// Deadlock rule: senders never wait on anything, and get lower tickets than
// the unpackers, so whatever subset of CTAs is resident, a sender can always
// progress while the receiver and unpackers wait.
#pragma once

#include <cuda_runtime.h>

#include "native/halo/halo_kernels.h"

namespace xferlab::gdasync {

struct KiArgs {
  xferlab::halo::MessageTable send;
  xferlab::halo::MessageTable recv;
  xferlab::halo::FieldLayout layout;
  xferlab::halo::RankOrigin origin;
  const double* in;     ///< field of the previous exchange (read by the interior compute).
  double* field;        ///< field of this exchange (packed, ghosts unpacked).
  double* result;       ///< stencil output.
  double* send_buffer;  ///< pinned, this iteration's parity.
  const double* recv_buffer;
  uint32_t* doorbell;             ///< pinned, one per message.
  const uint32_t* recv_complete;  ///< pinned, one per message (written by the proxy).
  uint32_t* device_ready;         ///< device memory, one per message.
  unsigned int* ticket;           ///< device memory; monotonically increasing across launches.
  uint32_t iteration;
  int senders;    ///< N.
  int unpackers;  ///< M.
  uint64_t timeout_ns;
  xferlab::halo::DeviceFault* fault;
  xferlab::native::DeviceTrace trace;
};

// launch_ki: 1 + senders + unpackers CTAs on `stream`.
void launch_ki(const KiArgs& args, cudaStream_t stream);

// ki_default_senders: N so that the interior compute fills the GPU.
int ki_default_senders(int messages, int unpackers);

}  // namespace xferlab::gdasync
