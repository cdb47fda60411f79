// native/halo/halo_kernels.cu — CUDA kernels of the halo exchange (see
// halo_kernels.h for the contracts).
#include <cooperative_groups.h>

#include "native/cuda_check.h"
#include "native/halo/halo_device.cuh"
#include "native/halo/halo_kernels.h"
#include "native/halo/notify_device.cuh"

namespace xferlab::halo {
namespace {

namespace cg = cooperative_groups;
using xferlab::native::DeviceTrace;

constexpr int kThreads = 256;  // per CTA, except the notify kernels (kNotifyThreads).

// Per kernel id: CTAs finished in the current launch (kernel_span_end).
__device__ unsigned int g_blocks_done[kNumKernelIds];

__device__ __forceinline__ uint32_t compute_kernel_id(Region region) {
  return region == Region::kAll
             ? kKernelCompute
             : (region == Region::kBoundary ? kKernelComputeBoundary : kKernelComputeInterior);
}

__global__ void compute_kernel(FieldLayout layout, RankOrigin origin, Region region,
                               const double* __restrict__ in, double* __restrict__ result,
                               double* __restrict__ next, uint32_t iteration, DeviceTrace trace) {
  const uint32_t id = compute_kernel_id(region);
  xferlab::native::kernel_span_begin(trace, id);
  const int n[3] = {layout.n[0], layout.n[1], layout.n[2]};
  const int64_t cells = region_cells(n, region);
  for (int64_t c = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; c < cells;
       c += int64_t{gridDim.x} * blockDim.x) {
    compute_cell(layout, origin, region, c, in, result, next, iteration);
  }
  xferlab::native::kernel_span_end(trace, id, &g_blocks_done[id]);
}

// Fused kernels: blockIdx.y = message, blockIdx.x = share of it.
__global__ void pack_fused_kernel(MessageTable send, FieldLayout layout, const double* field,
                                  double* buffer, DeviceTrace trace) {
  xferlab::native::kernel_span_begin(trace, kKernelPackFused);
  pack_range(send.msg[blockIdx.y], layout, field, buffer, blockIdx.x * blockDim.x + threadIdx.x,
             gridDim.x * blockDim.x);
  xferlab::native::kernel_span_end(trace, kKernelPackFused, &g_blocks_done[kKernelPackFused]);
}

__global__ void unpack_fused_kernel(MessageTable recv, FieldLayout layout, const double* buffer,
                                    double* field, DeviceTrace trace) {
  xferlab::native::kernel_span_begin(trace, kKernelUnpackFused);
  unpack_range(recv.msg[blockIdx.y], layout, buffer, field, blockIdx.x * blockDim.x + threadIdx.x,
               gridDim.x * blockDim.x);
  xferlab::native::kernel_span_end(trace, kKernelUnpackFused, &g_blocks_done[kKernelUnpackFused]);
}

__global__ void __launch_bounds__(kNotifyThreads)
    pack_notify_kernel(MessageTable send, FieldLayout layout, const double* field, double* buffer,
                       NotifyArgs a) {
  const int m = blockIdx.x;
  xferlab::native::cta_begin(a.trace, m, send.msg[m].doubles * 8);
  pack_range(send.msg[m], layout, field, buffer, threadIdx.x, blockDim.x);
  publish_flag(flag_slot(a.send_ready, m), a.epoch, FlagArray::kSendReady, m, a.trace);
  xferlab::native::cta_end(a.trace, m, send.msg[m].doubles * 8);
}

__global__ void __launch_bounds__(kNotifyThreads)
    unpack_notify_kernel(MessageTable recv, FieldLayout layout, const double* buffer, double* field,
                         NotifyArgs a) {
  const int m = blockIdx.x;
  if (!wait_flag_geq(flag_slot(a.unpack_ready, m), a.epoch, FlagArray::kUnpackReady, m,
                     a.timeout_ns, a.fault, a.trace))
    return;
  xferlab::native::cta_begin(a.trace, m, recv.msg[m].doubles * 8);
  unpack_range(recv.msg[m], layout, buffer, field, threadIdx.x, blockDim.x);
  xferlab::native::cta_end(a.trace, m, recv.msg[m].doubles * 8);
}

// forward_long_flags: one thread polls the host unpack_ready flags of every
// long message (in arrival order, not message order) and forwards each to
// its device_ready flag. Every CTA polling host memory itself (132 PCIe
// readers on the same flags) made the stacked exchange 10x slower.
__device__ void forward_long_flags(const MessageTable& recv, int64_t long_doubles,
                                   const NotifyArgs& a) {
  uint32_t pending = 0;  // bit m: long message m not forwarded yet (kMaxMessages <= 32).
  for (int m = 0; m < recv.count; ++m)
    if (recv.msg[m].doubles >= long_doubles) pending |= 1u << m;
  const uint64_t start = xferlab::native::globaltimer_ns();
  uint32_t polls = 0;
  while (pending != 0) {
    for (uint32_t left = pending; left != 0; left &= left - 1) {
      const int m = __ffs(static_cast<int>(left)) - 1;
      const uint32_t seen = load_acquire_sys(flag_slot(a.unpack_ready, m));
      if (seen >= a.epoch) {
        xferlab::native::record_flag_observed(
            a.trace, static_cast<uint32_t>(FlagArray::kUnpackReady) * kFlagsPerArray + m, seen, m,
            static_cast<uint16_t>(blockIdx.x));
        store_release_gpu(flag_slot(a.device_ready, m), a.epoch);
        pending &= ~(1u << m);
      } else if ((++polls & 1023u) == 0 &&
                 should_give_up(start, a.timeout_ns, a.fault, FlagArray::kUnpackReady, m, a.epoch,
                                seen)) {
        return;  // the waiting CTAs see the fault and stop.
      }
    }
  }
}

__global__ void stacked_kernel(MessageTable send, MessageTable recv, FieldLayout layout,
                               double* field, double* send_buffer, const double* recv_buffer,
                               int64_t long_doubles, NotifyArgs a) {
  static_assert(kMaxMessages <= 32, "forward_long_flags keeps a 32-bit pending mask");
  cg::grid_group grid = cg::this_grid();
  const int64_t gthread = blockIdx.x * int64_t{blockDim.x} + threadIdx.x;
  const int64_t gstride = int64_t{gridDim.x} * blockDim.x;
  // 1. Short messages first, one CTA each (round robin), flagged at once so the
  //    CPU can send them while the long ones are still being packed.
  int s = 0;
  for (int m = 0; m < send.count; ++m) {
    if (send.msg[m].doubles >= long_doubles) continue;
    if (s++ % gridDim.x != blockIdx.x) continue;
    pack_range(send.msg[m], layout, field, send_buffer, threadIdx.x, blockDim.x);
    publish_flag(flag_slot(a.send_ready, m), a.epoch, FlagArray::kSendReady, m, a.trace);
  }
  // 2. Long messages by the whole grid; one grid sync covers all of them.
  bool any_long = false;
  for (int m = 0; m < send.count; ++m) {
    if (send.msg[m].doubles < long_doubles) continue;
    any_long = true;
    pack_range(send.msg[m], layout, field, send_buffer, gthread, gstride);
  }
  if (any_long) {
    __threadfence_system();
    grid.sync();
    if (blockIdx.x == 0) {
      for (int m = 0; m < send.count; ++m)
        if (send.msg[m].doubles >= long_doubles)
          publish_flag(flag_slot(a.send_ready, m), a.epoch, FlagArray::kSendReady, m, a.trace);
    }
  }
  // 3. Unpack short messages (same CTA assignment), then 4. long ones: the
  //    last CTA forwards their host flags to device flags, every CTA waits on
  //    those and unpacks its share (no grid sync).
  s = 0;
  for (int m = 0; m < recv.count; ++m) {
    if (recv.msg[m].doubles >= long_doubles) continue;
    if (s++ % gridDim.x != blockIdx.x) continue;
    if (!wait_flag_geq(flag_slot(a.unpack_ready, m), a.epoch, FlagArray::kUnpackReady, m,
                       a.timeout_ns, a.fault, a.trace))
      return;
    unpack_range(recv.msg[m], layout, recv_buffer, field, threadIdx.x, blockDim.x);
  }
  if (blockIdx.x == gridDim.x - 1) {  // the CTA waits for its thread 0, as in wait_flag_geq.
    if (threadIdx.x == 0) forward_long_flags(recv, long_doubles, a);
    __syncthreads();
  }
  for (int m = 0; m < recv.count; ++m) {
    if (recv.msg[m].doubles < long_doubles) continue;
    if (!wait_device_flag_geq(flag_slot(a.device_ready, m), a.epoch, a.timeout_ns, a.fault)) return;
    unpack_range(recv.msg[m], layout, recv_buffer, field, gthread, gstride);
  }
}

__global__ void verify_kernel(MessageTable recv, FieldLayout layout, RankOrigin origin,
                              const double* field, uint32_t iteration, VerifyReport* report) {
  const MessageDesc& m = recv.msg[blockIdx.y];
  for (int64_t e = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; e < m.doubles;
       e += int64_t{gridDim.x} * blockDim.x) {
    const CellRef c = message_cell(m, e);
    const double got = field[layout.index(c.v, c.i, c.j, c.k)];
    const double want = owner_value(origin, iteration, c.v, c.i, c.j, c.k);
    if (got != want) {
      atomicAdd(&report->mismatches, 1ull);
      if (atomicCAS(&report->claimed, 0, 1) == 0) {
        report->iteration = iteration;
        report->message = blockIdx.y;
        report->var = c.v;
        report->i = c.i;
        report->j = c.j;
        report->k = c.k;
        report->got = got;
        report->want = want;
      }
    }
  }
}

int grid_for(int64_t items) {
  const int64_t blocks = (items + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 65536 ? (blocks > 0 ? blocks : 1) : 65536);
}

// fused_grid: CTAs per message so that each thread copies at most one batch
// of the largest message (capped), times one row per message.
dim3 fused_grid(const MessageTable& table) {
  int64_t largest = 0;
  for (int m = 0; m < table.count; ++m)
    largest = largest > table.msg[m].doubles ? largest : table.msg[m].doubles;
  constexpr int64_t kPerCta = int64_t{kThreads} * kCopyBatch;
  const int64_t per_message = (largest + kPerCta - 1) / kPerCta;
  return dim3(static_cast<unsigned>(per_message < 1 ? 1 : (per_message > 128 ? 128 : per_message)),
              static_cast<unsigned>(table.count));
}

}  // namespace

void launch_compute(const FieldLayout& layout, const RankOrigin& origin, Region region,
                    const double* d_in, double* d_result, double* d_next, uint32_t iteration,
                    cudaStream_t stream, const DeviceTrace& trace) {
  const int n[3] = {layout.n[0], layout.n[1], layout.n[2]};
  compute_kernel<<<grid_for(region_cells(n, region)), kThreads, 0, stream>>>(
      layout, origin, region, d_in, d_result, d_next, iteration, trace);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_pack_fused(const MessageTable& send, const FieldLayout& layout, const double* d_field,
                       double* d_buffer, cudaStream_t stream, const DeviceTrace& trace) {
  pack_fused_kernel<<<fused_grid(send), kThreads, 0, stream>>>(send, layout, d_field, d_buffer,
                                                               trace);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_unpack_fused(const MessageTable& recv, const FieldLayout& layout,
                         const double* d_buffer, double* d_field, cudaStream_t stream,
                         const DeviceTrace& trace) {
  unpack_fused_kernel<<<fused_grid(recv), kThreads, 0, stream>>>(recv, layout, d_buffer, d_field,
                                                                 trace);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_pack_notify(const MessageTable& send, const FieldLayout& layout, const double* d_field,
                        double* d_buffer, const NotifyArgs& args, cudaStream_t stream) {
  pack_notify_kernel<<<send.count, kNotifyThreads, 0, stream>>>(send, layout, d_field, d_buffer,
                                                                args);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_unpack_notify(const MessageTable& recv, const FieldLayout& layout,
                          const double* d_buffer, double* d_field, const NotifyArgs& args,
                          cudaStream_t stream) {
  unpack_notify_kernel<<<recv.count, kNotifyThreads, 0, stream>>>(recv, layout, d_buffer, d_field,
                                                                  args);
  XF_CUDA_CHECK_LAUNCH();
}

int launch_stacked(const MessageTable& send, const MessageTable& recv, const FieldLayout& layout,
                   double* d_field, double* d_send_buffer, const double* d_recv_buffer,
                   int64_t long_bytes, const NotifyArgs& args, cudaStream_t stream) {
  int device = 0;
  XF_CUDA_CHECK(cudaGetDevice(&device));
  // One CTA per SM: the whole GPU, and every CTA co-resident (grid sync).
  // Queried once per device: these calls cost microseconds per iteration.
  static int grid_device = -1, grid = 0;
  if (grid_device != device) {
    int sms = 0, per_sm = 0;
    XF_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    XF_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stacked_kernel, kThreads, 0));
    grid = sms * (per_sm > 0 ? 1 : 0);
    grid_device = device;
  }
  MessageTable s = send, r = recv;
  FieldLayout l = layout;
  int64_t long_doubles = long_bytes / 8;
  NotifyArgs a = args;
  void* params[] = {&s, &r, &l, &d_field, &d_send_buffer, &d_recv_buffer, &long_doubles, &a};
  XF_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(stacked_kernel), grid, kThreads,
                                            params, 0, stream));
  XF_CUDA_CHECK_LAUNCH();
  return grid;
}

void launch_verify(const MessageTable& recv, const FieldLayout& layout, const RankOrigin& origin,
                   const double* d_field, uint32_t iteration, VerifyReport* d_report,
                   cudaStream_t stream) {
  int64_t largest = 0;
  for (int m = 0; m < recv.count; ++m)
    largest = largest > recv.msg[m].doubles ? largest : recv.msg[m].doubles;
  dim3 grid(static_cast<unsigned>(grid_for(largest) < 64 ? grid_for(largest) : 64), recv.count);
  verify_kernel<<<grid, kThreads, 0, stream>>>(recv, layout, origin, d_field, iteration, d_report);
  XF_CUDA_CHECK_LAUNCH();
}

}  // namespace xferlab::halo
