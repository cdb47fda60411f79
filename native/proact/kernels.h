// native/proact/kernels.h — launchers of the workloads' producer kernels
// (kernels.cu). Every producer uses kBlockThreads threads per CTA, CTA b
// writing rows [row_begin + b*R, ...) of `out` through proact_store and then
// calling proact_cta_done; R = kBlockThreads (one row per thread), except
// Jacobi: R = kJacobiRowsPerCta.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "native/proact/ct_math.h"
#include "native/proact/device_region.h"

namespace xferlab::proact {

inline constexpr uint32_t kBlockThreads = 256;
// Jacobi rows per CTA (16 per thread: 16 KiB of output per CTA).
inline constexpr uint32_t kJacobiRowsPerCta = 16 * kBlockThreads;

// Microbenchmark: 16-B rows (so 4 kB per CTA); `work` xorshift rounds per row.
void launch_micro(const DeviceRegion& out, uint64_t row_begin, uint64_t row_end, uint64_t seed,
                  uint32_t work, cudaStream_t stream);
// Jacobi: band rows [row_begin, row_end) are stored at band[(i - row_begin)*(2k+1)].
void launch_jacobi_band_init(float* band, uint64_t row_begin, uint64_t row_end, int k, uint64_t n,
                             uint64_t seed, cudaStream_t stream);
void launch_jacobi(const DeviceRegion& out, const float* band, const float* x, uint64_t row_begin,
                   uint64_t row_end, int k, uint64_t n, uint64_t seed, cudaStream_t stream);
void launch_pagerank(const DeviceRegion& out, const uint64_t* in_offsets, const uint32_t* in_src,
                     const uint32_t* out_degree, const float* pr, uint64_t row_begin,
                     uint64_t row_end, uint32_t n, cudaStream_t stream);
void launch_sssp(const DeviceRegion& out, const uint64_t* in_offsets, const uint32_t* in_src,
                 const uint32_t* dist, uint64_t row_begin, uint64_t row_end, cudaStream_t stream);
// ALS: rows of math::kAlsRank floats; `self` is the previous factor matrix.
void launch_als(const DeviceRegion& out, const float* self, const uint64_t* offsets,
                const uint32_t* cols, const float* ratings, const float* other, uint64_t row_begin,
                uint64_t row_end, cudaStream_t stream);

// X-ray CT (ct_math.h), one ray / pixel per thread. Setup: rinv[i] = 1 / (A 1)_i
// for every ray, cinv[j] = 1 / (A^T 1)_j for every pixel (0 where the sum is 0).
void launch_ct_weights(const ct::Geometry& g, const float* cosv, const float* sinv, float* rinv,
                       float* cinv, cudaStream_t stream);
// Forward step: rays [row_begin, row_end) of resid = R (b - A x); adds this
// GPU's share of 1/2 |b - A x|_R^2 to *objective (double).
void launch_ct_forward(const DeviceRegion& out, const ct::Geometry& g, const float* cosv,
                       const float* sinv, const float* x, const float* b, const float* rinv,
                       double* objective, uint64_t row_begin, uint64_t row_end,
                       cudaStream_t stream);
// Back-projection step: pixels [row_begin, row_end) of x + C A^T resid.
void launch_ct_back(const DeviceRegion& out, const ct::Geometry& g, const float* cosv,
                    const float* sinv, const float* x, const float* resid, const float* cinv,
                    uint64_t row_begin, uint64_t row_end, cudaStream_t stream);

// Unified Memory check: *sum += sum of math::checksum_word over the 4-byte
// words of `data`, read by the GPU of `stream` (*sum zeroed by the caller).
void launch_checksum(const void* data, uint64_t bytes, unsigned long long* sum,
                     cudaStream_t stream);

}  // namespace xferlab::proact
