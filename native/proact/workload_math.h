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
// checksum_word: one 4-byte word's share of an order-independent checksum
// (summed mod 2^64), as the UM verification computes it on every GPU and the CPU.
XF_HD uint64_t checksum_word(uint32_t word, uint64_t index) {
  return splitmix64((index << 32) ^ word);
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

// --- Rounding: every float operation of the workloads goes through these, so
// the GPU never contracts a multiply-add into an FMA (the __f*_rn intrinsics
// are never fused) and the CPU (built with -ffp-contract=off) performs the same
// IEEE single-precision operations in the same order: the CPU references
// reproduce the GPU results bit for bit.
#ifdef __CUDA_ARCH__
XF_HD float fadd(float a, float b) {
  return __fadd_rn(a, b);
}
XF_HD float fsub(float a, float b) {
  return __fsub_rn(a, b);
}
XF_HD float fmul(float a, float b) {
  return __fmul_rn(a, b);
}
XF_HD float fdiv(float a, float b) {
  return __fdiv_rn(a, b);
}
#else
XF_HD float fadd(float a, float b) {
  return a + b;
}
XF_HD float fsub(float a, float b) {
  return a - b;
}
XF_HD float fmul(float a, float b) {
  return a * b;
}
XF_HD float fdiv(float a, float b) {
  return a / b;
}
#endif

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
// jacobi_row: x_new[i] = (b_i - sum_{d != 0} A[i][i+d] x[i+d]) / A[i][i], d ascending.
XF_HD float jacobi_row(const float* band, const float* x, float b, uint64_t i, int k, uint64_t n) {
  const float* a = band + i * (2 * k + 1);
  float sum = b;
  for (int d = -k; d <= k; ++d) {
    const int64_t j = static_cast<int64_t>(i) + d;
    if (d == 0 || j < 0 || j >= static_cast<int64_t>(n)) continue;
    sum = fsub(sum, fmul(a[d + k], x[j]));
  }
  return fdiv(sum, a[k]);
}

// --- Pull-based graph rows (PageRank, SSSP). Row v folds one term per in-edge
// with `lanes` parallel lanes: lane l folds edges begin+l, begin+l+lanes, ...
// in order; the lanes are then combined by a tree within each warp of 32
// (p[i] = p[i] (+) p[i+s], s = 16..1) and a tree over the warps' results
// (s = lanes/64..1). A warp handles a row (32 lanes) unless its in-degree
// exceeds kHeavyDegree, then the whole CTA does (kCtaLanes lanes): R-MAT hubs
// have ~10^5 in-edges, which a single thread or warp would serialize.
inline constexpr int kWarpLanes = 32;
inline constexpr int kCtaLanes = 256;  // the producer CTA size (kernels.h kBlockThreads).
inline constexpr uint64_t kHeavyDegree = 1024;
XF_HD int graph_lanes(uint64_t degree) {
  return degree > kHeavyDegree ? kCtaLanes : kWarpLanes;
}

// lane_partial: lane `lane`'s fold; four terms are loaded before they are
// folded (memory-level parallelism) without changing the fold order.
template <typename Op>
XF_HD auto lane_partial(const Op& op, uint64_t begin, uint64_t end, uint32_t v, uint32_t lane,
                        uint32_t lanes) {
  auto acc = op.identity();
  uint64_t e = begin + lane;
  for (; e + 3ull * lanes < end; e += 4ull * lanes) {
    const auto t0 = op.term(e, v), t1 = op.term(e + lanes, v), t2 = op.term(e + 2ull * lanes, v),
               t3 = op.term(e + 3ull * lanes, v);
    acc = Op::combine(Op::combine(Op::combine(Op::combine(acc, t0), t1), t2), t3);
  }
  for (; e < end; e += lanes) acc = Op::combine(acc, op.term(e, v));
  return acc;
}

// graph_row: the value the GPU computes for row v (CPU emulation of the lanes).
template <typename Op>
XF_HD auto graph_row(const Op& op, const uint64_t* offsets, uint32_t v) {
  const uint64_t b = offsets[v], e = offsets[v + 1];
  const int lanes = graph_lanes(e - b);
  decltype(op.identity()) p[kCtaLanes];
  for (int l = 0; l < lanes; ++l) p[l] = lane_partial(op, b, e, v, l, lanes);
  for (int w = 0; w < lanes / kWarpLanes; ++w) {
    for (int s = kWarpLanes / 2; s > 0; s /= 2) {
      for (int i = 0; i < s; ++i) p[w * 32 + i] = Op::combine(p[w * 32 + i], p[w * 32 + i + s]);
    }
  }
  for (int s = lanes / (2 * kWarpLanes); s > 0; s /= 2) {
    for (int i = 0; i < s; ++i) p[32 * i] = Op::combine(p[32 * i], p[32 * (i + s)]);
  }
  return op.finish(v, p[0]);
}

// --- PageRank (pull, damping 0.85; dangling mass dropped).
inline constexpr float kDamping = 0.85f;
struct PageRankOp {
  const uint32_t* src;
  const uint32_t* out_degree;
  const float* pr;
  uint32_t n;
  XF_HD float identity() const { return 0.0f; }
  XF_HD float term(uint64_t e, uint32_t) const {
    const uint32_t u = src[e];
    return fdiv(pr[u], static_cast<float>(out_degree[u]));
  }
  XF_HD static float combine(float a, float b) { return fadd(a, b); }
  XF_HD float finish(uint32_t, float sum) const {
    return fadd(fdiv(1.0f - kDamping, static_cast<float>(n)), fmul(kDamping, sum));
  }
};
XF_HD float pagerank_row(const uint64_t* in_offsets, const uint32_t* in_src,
                         const uint32_t* out_degree, const float* pr, uint32_t v, uint32_t n) {
  return graph_row(PageRankOp{in_src, out_degree, pr, n}, in_offsets, v);
}

// --- SSSP, synchronous Bellman-Ford relaxation (pull); weights 1..64 from the edge.
inline constexpr uint32_t kInfDistance = 0xffffffffu;
XF_HD uint32_t sssp_weight(uint32_t u, uint32_t v) {
  return 1u + static_cast<uint32_t>(splitmix64((uint64_t{u} << 32) | v) % 64);
}
struct SsspOp {
  const uint32_t* src;
  const uint32_t* dist;
  XF_HD uint32_t identity() const { return kInfDistance; }
  XF_HD uint32_t term(uint64_t e, uint32_t v) const {
    const uint32_t u = src[e];
    return dist[u] == kInfDistance ? kInfDistance : dist[u] + sssp_weight(u, v);
  }
  XF_HD static uint32_t combine(uint32_t a, uint32_t b) { return a < b ? a : b; }
  XF_HD uint32_t finish(uint32_t v, uint32_t best) const { return combine(dist[v], best); }
};
XF_HD uint32_t sssp_row(const uint64_t* in_offsets, const uint32_t* in_src, const uint32_t* dist,
                        uint32_t v) {
  return graph_row(SsspOp{in_src, dist}, in_offsets, v);
}

// --- ALS-style matrix factorization: one deterministic gradient step per row
// (users, then items), rank kAlsRank, minimizing
//   f(row) = 1/2 sum_j (r_j - row . o_j)^2 + lambda/2 |row|^2
// with the step 1 / (lambda + sum_j |o_j|^2). That denominator bounds the
// largest eigenvalue of f's Hessian (lambda I + sum_j o_j o_j^T) by its trace,
// so every step decreases f: the iteration cannot diverge whatever the number
// of ratings per row (a fixed rate did, to inf, with 512 ratings per item).
inline constexpr int kAlsRank = 16;
inline constexpr float kAlsLambda = 0.05f;
XF_HD void als_row(const float* row, const uint64_t* offsets, const uint32_t* cols,
                   const float* ratings, const float* other, uint64_t r, float* out) {
  float grad[kAlsRank];
  for (int f = 0; f < kAlsRank; ++f) grad[f] = fmul(-kAlsLambda, row[f]);
  float norm = kAlsLambda;
  for (uint64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
    const float* o = other + uint64_t{cols[e]} * kAlsRank;
    float dot = 0.0f;
    for (int f = 0; f < kAlsRank; ++f) dot = fadd(dot, fmul(row[f], o[f]));
    const float err = fsub(ratings[e], dot);
    for (int f = 0; f < kAlsRank; ++f) {
      grad[f] = fadd(grad[f], fmul(err, o[f]));
      norm = fadd(norm, fmul(o[f], o[f]));
    }
  }
  for (int f = 0; f < kAlsRank; ++f) out[f] = fadd(row[f], fdiv(grad[f], norm));
}
XF_HD float als_init(uint64_t seed, uint64_t row, int f) {
  return 0.1f + 0.2f * unit_float(splitmix64(seed ^ (row * kAlsRank + static_cast<uint64_t>(f))));
}

}  // namespace xferlab::proact::math
