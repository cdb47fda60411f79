// native/proact/workload_math.h — the per-element math of the workloads, shared
// by the GPU kernels and the CPU references (host and device), so both compute
// the same thing in the same order.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define XF_HD __host__ __device__ __forceinline__
#else
#define XF_HD inline
#endif

namespace xferlab::proact::math {

// splitmix64: a fast, well-mixed 64-bit hash (also the generators' RNG step).
XF_HD uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
// unit_float: hash -> [0, 1).
XF_HD float unit_float(uint64_t h) {
  return static_cast<float>(h >> 40) * (1.0f / 16777216.0f);
}

// --- Microbenchmark: 16 bytes per thread after `work` dependent xorshift rounds.
struct U32x4 {
  uint32_t x, y, z, w;
};
XF_HD U32x4 micro_value(uint64_t seed, uint64_t index16, uint32_t work) {
  uint32_t x = static_cast<uint32_t>(splitmix64(seed ^ (index16 * 0x100000001b3ull))) | 1u;
  for (uint32_t i = 0; i < work; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return {x, x ^ 0xa5a5a5a5u, x + static_cast<uint32_t>(index16), ~x};
}

// --- Jacobi on a banded, strictly diagonally dominant matrix (half band k).
// band[i*(2k+1) + (d+k)] = A[i][i+d]; zero outside the matrix.
XF_HD float jacobi_entry(uint64_t seed, uint64_t i, int d, int k, uint64_t n) {
  const int64_t j = static_cast<int64_t>(i) + d;
  if (j < 0 || j >= static_cast<int64_t>(n)) return 0.0f;
  if (d == 0) return static_cast<float>(2 * k + 1);  // > sum of |off-diagonal| (< 1 each).
  return unit_float(splitmix64(seed ^ (i * 131 + static_cast<uint64_t>(d + k)))) - 0.5f;
}
XF_HD float jacobi_rhs(uint64_t seed, uint64_t i) {
  return unit_float(splitmix64(~seed ^ i)) * 10.0f;
}
// jacobi_row: x_new[i] = (b_i - sum_{d != 0} A[i][i+d] x[i+d]) / A[i][i].
XF_HD float jacobi_row(const float* band, const float* x, float b, uint64_t i, int k, uint64_t n) {
  const float* a = band + i * (2 * k + 1);
  float sum = b;
  for (int d = -k; d <= k; ++d) {
    const int64_t j = static_cast<int64_t>(i) + d;
    if (d == 0 || j < 0 || j >= static_cast<int64_t>(n)) continue;
    sum -= a[d + k] * x[j];
  }
  return sum / a[k];
}

// --- PageRank (pull, damping 0.85; dangling mass dropped).
inline constexpr float kDamping = 0.85f;
XF_HD float pagerank_row(const uint64_t* in_offsets, const uint32_t* in_src,
                         const uint32_t* out_degree, const float* pr, uint32_t v, uint32_t n) {
  float sum = 0.0f;
  for (uint64_t e = in_offsets[v]; e < in_offsets[v + 1]; ++e) {
    const uint32_t u = in_src[e];
    sum += pr[u] / static_cast<float>(out_degree[u]);
  }
  return (1.0f - kDamping) / static_cast<float>(n) + kDamping * sum;
}

// --- SSSP, synchronous Bellman-Ford relaxation (pull); weights 1..64 from the edge.
inline constexpr uint32_t kInfDistance = 0xffffffffu;
XF_HD uint32_t sssp_weight(uint32_t u, uint32_t v) {
  return 1u + static_cast<uint32_t>(splitmix64((uint64_t{u} << 32) | v) % 64);
}
XF_HD uint32_t sssp_row(const uint64_t* in_offsets, const uint32_t* in_src, const uint32_t* dist,
                        uint32_t v) {
  uint32_t best = dist[v];
  for (uint64_t e = in_offsets[v]; e < in_offsets[v + 1]; ++e) {
    const uint32_t u = in_src[e];
    if (dist[u] == kInfDistance) continue;
    const uint32_t cand = dist[u] + sssp_weight(u, v);
    best = cand < best ? cand : best;
  }
  return best;
}

// --- ALS-style matrix factorization: one full-gradient step per row
// (deterministic, unlike Hogwild SGD), rank kAlsRank.
inline constexpr int kAlsRank = 16;
inline constexpr float kAlsRate = 0.01f;
inline constexpr float kAlsLambda = 0.05f;
// als_row: row_new = row + rate * (sum_j (r_j - row . other_j) other_j - lambda row).
XF_HD void als_row(const float* row, const uint64_t* offsets, const uint32_t* cols,
                   const float* ratings, const float* other, uint64_t r, float* out) {
  float grad[kAlsRank];
  for (int f = 0; f < kAlsRank; ++f) grad[f] = -kAlsLambda * row[f];
  for (uint64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
    const float* o = other + uint64_t{cols[e]} * kAlsRank;
    float dot = 0.0f;
    for (int f = 0; f < kAlsRank; ++f) dot += row[f] * o[f];
    const float err = ratings[e] - dot;
    for (int f = 0; f < kAlsRank; ++f) grad[f] += err * o[f];
  }
  for (int f = 0; f < kAlsRank; ++f) out[f] = row[f] + kAlsRate * grad[f];
}
XF_HD float als_init(uint64_t seed, uint64_t row, int f) {
  return 0.1f + 0.2f * unit_float(splitmix64(seed ^ (row * kAlsRank + static_cast<uint64_t>(f))));
}

}  // namespace xferlab::proact::math
