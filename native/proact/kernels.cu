// native/proact/kernels.cu — the workloads' producer kernels. The math lives
// in workload_math.h (shared with the CPU references); these add the PROACT
// calls: trace the CTA, store through the region, signal the chunks.
#include "native/cuda_check.h"
#include "native/proact/kernels.h"
#include "native/proact/proact_device.cuh"
#include "native/proact/workload_math.h"

namespace xferlab::proact {

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

__global__ void jacobi_kernel(DeviceRegion out, const float* band, const float* x,
                              uint64_t row_begin, uint64_t row_end, int k, uint64_t n,
                              uint64_t seed) {
  const uint64_t bytes = cta_rows(row_begin, row_end) * 4;
  proact_cta_begin(out, bytes);
  const uint64_t i = row_begin + uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < row_end) {
    // band holds this GPU's rows only: shift so that row i is at band[i*(2k+1)].
    const float* shifted = band - row_begin * (2 * k + 1);
    proact_store(out, i * 4, math::jacobi_row(shifted, x, math::jacobi_rhs(seed, i), i, k, n));
  }
  proact_cta_done(out, bytes);
}

__global__ void pagerank_kernel(DeviceRegion out, const uint64_t* in_offsets,
                                const uint32_t* in_src, const uint32_t* out_degree, const float* pr,
                                uint64_t row_begin, uint64_t row_end, uint32_t n) {
  const uint64_t bytes = cta_rows(row_begin, row_end) * 4;
  proact_cta_begin(out, bytes);
  const uint64_t v = row_begin + uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (v < row_end) {
    proact_store(
        out, v * 4,
        math::pagerank_row(in_offsets, in_src, out_degree, pr, static_cast<uint32_t>(v), n));
  }
  proact_cta_done(out, bytes);
}

__global__ void sssp_kernel(DeviceRegion out, const uint64_t* in_offsets, const uint32_t* in_src,
                            const uint32_t* dist, uint64_t row_begin, uint64_t row_end) {
  const uint64_t bytes = cta_rows(row_begin, row_end) * 4;
  proact_cta_begin(out, bytes);
  const uint64_t v = row_begin + uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (v < row_end) {
    proact_store(out, v * 4, math::sssp_row(in_offsets, in_src, dist, static_cast<uint32_t>(v)));
  }
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

uint32_t grid_for(uint64_t row_begin, uint64_t row_end) {
  return static_cast<uint32_t>((row_end - row_begin + kBlockThreads - 1) / kBlockThreads);
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
  jacobi_kernel<<<grid_for(row_begin, row_end), kBlockThreads, 0, stream>>>(out, band, x, row_begin,
                                                                            row_end, k, n, seed);
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

}  // namespace xferlab::proact
