// native/proact/kernels.h — launchers of the workloads' producer kernels
// (kernels.cu). Every producer uses kBlockThreads threads per CTA, CTA b
// writing rows [row_begin + b*R, ...) of `out` through proact_store and then
// calling proact_cta_done; R = kBlockThreads (one row per thread), except
// Jacobi: R = kJacobiRowsPerCta.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

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

}  // namespace xferlab::proact
