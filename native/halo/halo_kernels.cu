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

constexpr int kThreads = 256;  // per CTA for every kernel here.

__global__ void compute_kernel(FieldLayout layout, RankOrigin origin, Region region,
                               const double* __restrict__ in, double* __restrict__ result,
                               double* __restrict__ next, uint32_t iteration) {
  const int n[3] = {layout.n[0], layout.n[1], layout.n[2]};
  const int64_t cells = region_cells(n, region);
  for (int64_t c = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; c < cells;
       c += int64_t{gridDim.x} * blockDim.x) {
    compute_cell(layout, origin, region, c, in, result, next, iteration);
  }
}

__global__ void pack_fused_kernel(MessageTable send, FieldLayout layout, const double* field,
                                  double* buffer) {
  pack_range(send.msg[blockIdx.x], layout, field, buffer, threadIdx.x, blockDim.x);
}

__global__ void unpack_fused_kernel(MessageTable recv, FieldLayout layout, const double* buffer,
                                    double* field) {
  unpack_range(recv.msg[blockIdx.x], layout, buffer, field, threadIdx.x, blockDim.x);
}

__global__ void pack_notify_kernel(MessageTable send, FieldLayout layout, const double* field,
                                   double* buffer, NotifyArgs a) {
  const int m = blockIdx.x;
  xferlab::native::cta_begin(a.trace, m, send.msg[m].doubles * 8);
  pack_range(send.msg[m], layout, field, buffer, threadIdx.x, blockDim.x);
  publish_flag(&a.send_ready[m], a.epoch, FlagArray::kSendReady, m, a.trace);
  xferlab::native::cta_end(a.trace, m, send.msg[m].doubles * 8);
}

__global__ void unpack_notify_kernel(MessageTable recv, FieldLayout layout, const double* buffer,
                                     double* field, NotifyArgs a) {
  const int m = blockIdx.x;
  if (!wait_flag_geq(&a.unpack_ready[m], a.epoch, FlagArray::kUnpackReady, m, a.timeout_ns, a.fault,
                     a.trace))
    return;
  xferlab::native::cta_begin(a.trace, m, recv.msg[m].doubles * 8);
  unpack_range(recv.msg[m], layout, buffer, field, threadIdx.x, blockDim.x);
  xferlab::native::cta_end(a.trace, m, recv.msg[m].doubles * 8);
}

__global__ void stacked_kernel(MessageTable send, MessageTable recv, FieldLayout layout,
                               double* field, double* send_buffer, const double* recv_buffer,
                               int64_t long_doubles, NotifyArgs a) {
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
    publish_flag(&a.send_ready[m], a.epoch, FlagArray::kSendReady, m, a.trace);
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
          publish_flag(&a.send_ready[m], a.epoch, FlagArray::kSendReady, m, a.trace);
    }
  }
  // 3. Unpack short messages (same CTA assignment), then 4. long ones: every
  //    CTA waits for the flag itself and unpacks its share (no grid sync).
  s = 0;
  for (int m = 0; m < recv.count; ++m) {
    if (recv.msg[m].doubles >= long_doubles) continue;
    if (s++ % gridDim.x != blockIdx.x) continue;
    if (!wait_flag_geq(&a.unpack_ready[m], a.epoch, FlagArray::kUnpackReady, m, a.timeout_ns,
                       a.fault, a.trace))
      return;
    unpack_range(recv.msg[m], layout, recv_buffer, field, threadIdx.x, blockDim.x);
  }
  for (int m = 0; m < recv.count; ++m) {
    if (recv.msg[m].doubles < long_doubles) continue;
    if (!wait_flag_geq(&a.unpack_ready[m], a.epoch, FlagArray::kUnpackReady, m, a.timeout_ns,
                       a.fault, a.trace))
      return;
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

}  // namespace

void launch_compute(const FieldLayout& layout, const RankOrigin& origin, Region region,
                    const double* d_in, double* d_result, double* d_next, uint32_t iteration,
                    cudaStream_t stream) {
  const int n[3] = {layout.n[0], layout.n[1], layout.n[2]};
  compute_kernel<<<grid_for(region_cells(n, region)), kThreads, 0, stream>>>(
      layout, origin, region, d_in, d_result, d_next, iteration);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_pack_fused(const MessageTable& send, const FieldLayout& layout, const double* d_field,
                       double* d_buffer, cudaStream_t stream) {
  pack_fused_kernel<<<send.count, kThreads, 0, stream>>>(send, layout, d_field, d_buffer);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_unpack_fused(const MessageTable& recv, const FieldLayout& layout,
                         const double* d_buffer, double* d_field, cudaStream_t stream) {
  unpack_fused_kernel<<<recv.count, kThreads, 0, stream>>>(recv, layout, d_buffer, d_field);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_pack_notify(const MessageTable& send, const FieldLayout& layout, const double* d_field,
                        double* d_buffer, const NotifyArgs& args, cudaStream_t stream) {
  pack_notify_kernel<<<send.count, kThreads, 0, stream>>>(send, layout, d_field, d_buffer, args);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_unpack_notify(const MessageTable& recv, const FieldLayout& layout,
                          const double* d_buffer, double* d_field, const NotifyArgs& args,
                          cudaStream_t stream) {
  unpack_notify_kernel<<<recv.count, kThreads, 0, stream>>>(recv, layout, d_buffer, d_field, args);
  XF_CUDA_CHECK_LAUNCH();
}

int launch_stacked(const MessageTable& send, const MessageTable& recv, const FieldLayout& layout,
                   double* d_field, double* d_send_buffer, const double* d_recv_buffer,
                   int64_t long_bytes, const NotifyArgs& args, cudaStream_t stream) {
  int device = 0, sms = 0, per_sm = 0;
  XF_CUDA_CHECK(cudaGetDevice(&device));
  XF_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  XF_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stacked_kernel, kThreads, 0));
  // One CTA per SM: the whole GPU, and every CTA co-resident (grid sync).
  const int grid = sms * (per_sm > 0 ? 1 : 0);
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
