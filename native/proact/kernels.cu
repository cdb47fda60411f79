// native/proact/kernels.cu — the workloads' producer kernels. The math lives
// in workload_math.h (shared with the CPU references); these add the PROACT
// calls: trace the CTA, store through the region, signal the chunks.
#include <algorithm>

#include "native/cuda_check.h"
#include "native/proact/kernels.h"
#include "native/proact/proact_device.cuh"
#include "native/proact/workload_math.h"

namespace xferlab::proact {

static_assert(kBlockThreads == math::kCtaLanes, "the CTA-wide graph reduction uses every thread");

namespace {

__device__ __forceinline__ uint64_t cta_rows(uint64_t row_begin, uint64_t row_end) {
  const uint64_t first = row_begin + uint64_t{blockIdx.x} * blockDim.x;
  return min(uint64_t{blockDim.x}, row_end - first);
}

__global__ void micro_kernel(DeviceRegion out, uint64_t row_begin, uint64_t row_end, uint64_t seed,
                             uint32_t work) {
  const uint64_t bytes = cta_rows(row_begin, row_end) * 16;
  proact_cta_begin(out, bytes);
  const uint64_t i = row_begin + uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < row_end) {
    const math::U32x4 v = math::micro_value(seed, i, work);
    proact_store(out, i * 16, make_uint4(v.x, v.y, v.z, v.w));
  }
  proact_cta_done(out, bytes);
}

__global__ void jacobi_band_kernel(float* band, uint64_t row_begin, uint64_t row_end, int k,
                                   uint64_t n, uint64_t seed) {
  const uint64_t i = row_begin + uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= row_end) return;
  float* row = band + (i - row_begin) * (2 * k + 1);
  for (int d = -k; d <= k; ++d) row[d + k] = math::jacobi_entry(seed, i, d, k, n);
}

// jacobi_kernel: CTA b computes rows [row_begin + b * kJacobiRowsPerCta, ...),
// thread t the rows t, t + 256, ... of them (coalesced stores). One row per
// thread (1 KiB per CTA) made the per-CTA fence + counter atomic cost ~50% of
// this memory-bound kernel's time; 16 KiB per CTA amortizes it.
__global__ void jacobi_kernel(DeviceRegion out, const float* band, const float* x,
                              uint64_t row_begin, uint64_t row_end, int k, uint64_t n,
                              uint64_t seed) {
  const uint64_t first = row_begin + uint64_t{blockIdx.x} * kJacobiRowsPerCta;
  const uint64_t end = min(first + kJacobiRowsPerCta, row_end);
  const uint64_t bytes = (end - first) * 4;
  proact_cta_begin(out, bytes);
  // band holds this GPU's rows only: shift so that row i is at band[i*(2k+1)].
  const float* shifted = band - row_begin * (2 * k + 1);
  for (uint64_t i = first + threadIdx.x; i < end; i += blockDim.x) {
    proact_store(out, i * 4, math::jacobi_row(shifted, x, math::jacobi_rhs(seed, i), i, k, n));
  }
  proact_cta_done(out, bytes);
}

// graph_rows: CTA b computes rows [row_begin + 256 b, +256) of a pull-based
// graph kernel: warp w the 32 rows from 32 w (one row at a time, the lanes
// striding over its in-edges, then a butterfly reduction), the whole CTA the
// rows with more than math::kHeavyDegree in-edges. The fold order is the one
// math::graph_row emulates on the CPU. Results are stored coalesced (lane j
// stores row j of its warp).
template <typename Op, typename T>
__device__ __forceinline__ T warp_combine(T s) {
  for (int o = 16; o > 0; o /= 2) s = Op::combine(s, __shfl_xor_sync(0xffffffffu, s, o));
  return s;
}

template <typename Op>
__device__ __forceinline__ void graph_rows(const DeviceRegion& out, const Op& op,
                                           const uint64_t* offsets, uint64_t row_begin,
                                           uint64_t row_end) {
  using T = decltype(op.identity());
  static_assert(sizeof(T) == 4, "graph rows are 4-B values");
  __shared__ uint32_t heavy[kBlockThreads];
  __shared__ uint32_t num_heavy;
  __shared__ T warp_part[kBlockThreads / 32];
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const uint64_t cta_first = row_begin + uint64_t{blockIdx.x} * kBlockThreads;
  const uint64_t warp_first = cta_first + warp * 32;
  if (threadIdx.x == 0) num_heavy = 0;
  __syncthreads();
  const uint64_t my_row = warp_first + lane;
  uint64_t my_b = 0, my_e = 0;
  if (my_row < row_end) {
    my_b = offsets[my_row];
    my_e = offsets[my_row + 1];
  }
  T mine = op.identity();
  bool store = my_row < row_end;
  for (uint32_t j = 0; j < 32 && warp_first + j < row_end; ++j) {
    const uint64_t b = __shfl_sync(0xffffffffu, my_b, j), e = __shfl_sync(0xffffffffu, my_e, j);
    const uint32_t v = static_cast<uint32_t>(warp_first + j);
    if (math::graph_lanes(e - b) != math::kWarpLanes) {
      if (lane == 0) heavy[atomicAdd(&num_heavy, 1u)] = warp * 32 + j;
      if (lane == j) store = false;
      continue;
    }
    const T s = warp_combine<Op>(math::lane_partial(op, b, e, v, lane, math::kWarpLanes));
    if (lane == j) mine = op.finish(v, s);
  }
  if (store) proact_store(out, my_row * sizeof(T), mine);
  __syncthreads();
  const uint32_t nh = num_heavy;
  for (uint32_t h = 0; h < nh; ++h) {
    const uint32_t v = static_cast<uint32_t>(cta_first + heavy[h]);
    const T s = warp_combine<Op>(
        math::lane_partial(op, offsets[v], offsets[v + 1], v, threadIdx.x, kBlockThreads));
    if (lane == 0) warp_part[warp] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
      T p[kBlockThreads / 32];
      for (uint32_t w = 0; w < kBlockThreads / 32; ++w) p[w] = warp_part[w];
      for (uint32_t st = kBlockThreads / 64; st > 0; st /= 2) {
        for (uint32_t i = 0; i < st; ++i) p[i] = Op::combine(p[i], p[i + st]);
      }
      proact_store(out, uint64_t{v} * sizeof(T), op.finish(v, p[0]));
    }
    __syncthreads();
  }
}

__global__ void pagerank_kernel(DeviceRegion out, const uint64_t* in_offsets,
                                const uint32_t* in_src, const uint32_t* out_degree, const float* pr,
                                uint64_t row_begin, uint64_t row_end, uint32_t n) {
  const uint64_t bytes = cta_rows(row_begin, row_end) * 4;
  proact_cta_begin(out, bytes);
  graph_rows(out, math::PageRankOp{in_src, out_degree, pr, n}, in_offsets, row_begin, row_end);
  proact_cta_done(out, bytes);
}

__global__ void sssp_kernel(DeviceRegion out, const uint64_t* in_offsets, const uint32_t* in_src,
                            const uint32_t* dist, uint64_t row_begin, uint64_t row_end) {
  const uint64_t bytes = cta_rows(row_begin, row_end) * 4;
  proact_cta_begin(out, bytes);
  graph_rows(out, math::SsspOp{in_src, dist}, in_offsets, row_begin, row_end);
  proact_cta_done(out, bytes);
}

__global__ void als_kernel(DeviceRegion out, const float* self, const uint64_t* offsets,
                           const uint32_t* cols, const float* ratings, const float* other,
                           uint64_t row_begin, uint64_t row_end) {
  constexpr int kRank = math::kAlsRank;
  const uint64_t bytes = cta_rows(row_begin, row_end) * kRank * 4;
  proact_cta_begin(out, bytes);
  const uint64_t r = row_begin + uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (r < row_end) {
    float row[kRank], next[kRank];
    const float4* src = reinterpret_cast<const float4*>(self + r * kRank);
#pragma unroll
    for (int q = 0; q < kRank / 4; ++q) {
      const float4 v = src[q];
      row[4 * q] = v.x;
      row[4 * q + 1] = v.y;
      row[4 * q + 2] = v.z;
      row[4 * q + 3] = v.w;
    }
    math::als_row(row, offsets, cols, ratings, other, r, next);
#pragma unroll
    for (int q = 0; q < kRank / 4; ++q) {
      proact_store(out, (r * kRank + 4 * q) * 4,
                   make_float4(next[4 * q], next[4 * q + 1], next[4 * q + 2], next[4 * q + 3]));
    }
  }
  proact_cta_done(out, bytes);
}

__global__ void ct_weights_kernel(ct::Geometry g, const float* cosv, const float* sinv, float* rinv,
                                  float* cinv) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < g.rays()) {
    const uint32_t v = static_cast<uint32_t>(i / g.bins), k = static_cast<uint32_t>(i % g.bins);
    rinv[i] = ct::inverse_or_zero(ct::ray_sum(g, cosv[v], sinv[v], k, ct::OnesImage{}));
  }
  if (i < g.pixels()) {
    const uint32_t ix = static_cast<uint32_t>(i % g.n), iy = static_cast<uint32_t>(i / g.n);
    cinv[i] = ct::inverse_or_zero(ct::pixel_backproject(g, cosv, sinv, ix, iy, ct::OnesSino{}));
  }
}

// ct_forward_kernel: thread = ray (bins of a view are adjacent threads, so the
// image reads of row-driven views are nearly coalesced; the image stays in L2).
__global__ void ct_forward_kernel(DeviceRegion out, ct::Geometry g, const float* cosv,
                                  const float* sinv, const float* x, const float* b,
                                  const float* rinv, double* objective, uint64_t row_begin,
                                  uint64_t row_end) {
  const uint64_t bytes = cta_rows(row_begin, row_end) * 4;
  proact_cta_begin(out, bytes);
  const uint64_t i = row_begin + uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  double f = 0;
  if (i < row_end) {
    const uint32_t v = static_cast<uint32_t>(i / g.bins), k = static_cast<uint32_t>(i % g.bins);
    const float ax = ct::ray_sum(g, cosv[v], sinv[v], k, ct::ImageRef{x, g.n});
    proact_store(out, i * 4, ct::residual_entry(b[i], ax, rinv[i]));
    const double d = static_cast<double>(b[i]) - ax;
    f = 0.5 * d * d * rinv[i];
  }
  for (int o = 16; o > 0; o /= 2) f += __shfl_xor_sync(0xffffffffu, f, o);
  if (threadIdx.x % 32 == 0 && f != 0) atomicAdd(objective, f);
  proact_cta_done(out, bytes);
}

// ct_back_kernel: thread = pixel, a gather over views (exact A^T, no atomics).
__global__ void ct_back_kernel(DeviceRegion out, ct::Geometry g, const float* cosv,
                               const float* sinv, const float* x, const float* resid,
                               const float* cinv, uint64_t row_begin, uint64_t row_end) {
  const uint64_t bytes = cta_rows(row_begin, row_end) * 4;
  proact_cta_begin(out, bytes);
  const uint64_t j = row_begin + uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j < row_end) {
    const uint32_t ix = static_cast<uint32_t>(j % g.n), iy = static_cast<uint32_t>(j / g.n);
    const float bp = ct::pixel_backproject(g, cosv, sinv, ix, iy, ct::SinoRef{resid, g.bins});
    proact_store(out, j * 4, ct::sirt_update(x[j], cinv[j], bp));
  }
  proact_cta_done(out, bytes);
}

__global__ void checksum_kernel(const uint32_t* words, uint64_t n, unsigned long long* sum) {
  uint64_t s = 0;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += uint64_t{gridDim.x} * blockDim.x) {
    s += math::checksum_word(words[i], i);
  }
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, static_cast<unsigned long long>(s));
}

uint32_t grid_for(uint64_t row_begin, uint64_t row_end, uint64_t rows_per_cta = kBlockThreads) {
  return static_cast<uint32_t>((row_end - row_begin + rows_per_cta - 1) / rows_per_cta);
}

}  // namespace

void launch_micro(const DeviceRegion& out, uint64_t row_begin, uint64_t row_end, uint64_t seed,
                  uint32_t work, cudaStream_t stream) {
  micro_kernel<<<grid_for(row_begin, row_end), kBlockThreads, 0, stream>>>(out, row_begin, row_end,
                                                                           seed, work);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_jacobi_band_init(float* band, uint64_t row_begin, uint64_t row_end, int k, uint64_t n,
                             uint64_t seed, cudaStream_t stream) {
  jacobi_band_kernel<<<grid_for(row_begin, row_end), kBlockThreads, 0, stream>>>(
      band, row_begin, row_end, k, n, seed);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_jacobi(const DeviceRegion& out, const float* band, const float* x, uint64_t row_begin,
                   uint64_t row_end, int k, uint64_t n, uint64_t seed, cudaStream_t stream) {
  jacobi_kernel<<<grid_for(row_begin, row_end, kJacobiRowsPerCta), kBlockThreads, 0, stream>>>(
      out, band, x, row_begin, row_end, k, n, seed);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_pagerank(const DeviceRegion& out, const uint64_t* in_offsets, const uint32_t* in_src,
                     const uint32_t* out_degree, const float* pr, uint64_t row_begin,
                     uint64_t row_end, uint32_t n, cudaStream_t stream) {
  pagerank_kernel<<<grid_for(row_begin, row_end), kBlockThreads, 0, stream>>>(
      out, in_offsets, in_src, out_degree, pr, row_begin, row_end, n);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_sssp(const DeviceRegion& out, const uint64_t* in_offsets, const uint32_t* in_src,
                 const uint32_t* dist, uint64_t row_begin, uint64_t row_end, cudaStream_t stream) {
  sssp_kernel<<<grid_for(row_begin, row_end), kBlockThreads, 0, stream>>>(out, in_offsets, in_src,
                                                                          dist, row_begin, row_end);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_als(const DeviceRegion& out, const float* self, const uint64_t* offsets,
                const uint32_t* cols, const float* ratings, const float* other, uint64_t row_begin,
                uint64_t row_end, cudaStream_t stream) {
  als_kernel<<<grid_for(row_begin, row_end), kBlockThreads, 0, stream>>>(
      out, self, offsets, cols, ratings, other, row_begin, row_end);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_ct_weights(const ct::Geometry& g, const float* cosv, const float* sinv, float* rinv,
                       float* cinv, cudaStream_t stream) {
  ct_weights_kernel<<<grid_for(0, std::max(g.rays(), g.pixels())), kBlockThreads, 0, stream>>>(
      g, cosv, sinv, rinv, cinv);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_ct_forward(const DeviceRegion& out, const ct::Geometry& g, const float* cosv,
                       const float* sinv, const float* x, const float* b, const float* rinv,
                       double* objective, uint64_t row_begin, uint64_t row_end,
                       cudaStream_t stream) {
  ct_forward_kernel<<<grid_for(row_begin, row_end), kBlockThreads, 0, stream>>>(
      out, g, cosv, sinv, x, b, rinv, objective, row_begin, row_end);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_ct_back(const DeviceRegion& out, const ct::Geometry& g, const float* cosv,
                    const float* sinv, const float* x, const float* resid, const float* cinv,
                    uint64_t row_begin, uint64_t row_end, cudaStream_t stream) {
  ct_back_kernel<<<grid_for(row_begin, row_end), kBlockThreads, 0, stream>>>(
      out, g, cosv, sinv, x, resid, cinv, row_begin, row_end);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_checksum(const void* data, uint64_t bytes, unsigned long long* sum,
                     cudaStream_t stream) {
  checksum_kernel<<<1024, kBlockThreads, 0, stream>>>(static_cast<const uint32_t*>(data), bytes / 4,
                                                      sum);
  XF_CUDA_CHECK_LAUNCH();
}

}  // namespace xferlab::proact
