// native/proact/reference_test.cc — the float workloads against independent
// double-precision references: the float results (the CPU emulation of the
// GPU, and an FMA-contracted variant as another compiler could produce) lie
// within the derived rounding bounds, and a wrong input does not.
#include "native/proact/reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "native/proact/graph.h"
#include "native/proact/workload_math.h"

namespace xferlab::proact {
namespace {

// ---- Jacobi
struct JacobiSystem {
  uint64_t n = 4096;
  int k = 8;
  uint64_t seed = 3;
  std::vector<float> band, x;
  JacobiSystem() : band(n * (2 * k + 1)), x(n) {
    for (uint64_t i = 0; i < n; ++i) {
      for (int d = -k; d <= k; ++d)
        band[i * (2 * k + 1) + d + k] = math::jacobi_entry(seed, i, d, k, n);
      x[i] = math::jacobi_rhs(seed + 1, i) / 17.0f - 0.2f;  // mixed signs: cancellation.
    }
  }
  float fma_row(uint64_t i) const {  // what an FMA-contracting compiler computes.
    const float* a = &band[i * (2 * k + 1)];
    float sum = math::jacobi_rhs(seed, i);
    for (int d = -k; d <= k; ++d) {
      const int64_t j = static_cast<int64_t>(i) + d;
      if (d != 0 && j >= 0 && j < static_cast<int64_t>(n)) sum = std::fmaf(-a[d + k], x[j], sum);
    }
    return sum / a[k];
  }
};

TEST(Reference, JacobiFloatResultsLieWithinTheBound) {
  JacobiSystem s;
  FloatCheck same, fma, stale;
  for (uint64_t i = 0; i < s.n; ++i) {
    const float b = math::jacobi_rhs(s.seed, i);
    const float want = math::jacobi_row(s.band.data(), s.x.data(), b, i, s.k, s.n);
    const Bounded ref = jacobi_reference(&s.band[i * (2 * s.k + 1)], s.x.data(), b, i, s.k, s.n);
    same.add(i, want, want, ref);
    fma.add(i, s.fma_row(i), want, ref);
    stale.add(i, s.x[i], want, ref);  // the previous iterate instead of the new one.
  }
  EXPECT_TRUE(same.result("jacobi", s.n).ok());
  EXPECT_EQ(same.exact(), s.n);
  Result<std::string> r = fma.result("jacobi", s.n);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LT(fma.exact(), s.n);      // FMA changes some roundings...
  EXPECT_LE(fma.max_ratio(), 0.5);  // ...by less than the worst-case bound.
  EXPECT_FALSE(stale.result("jacobi", s.n).ok());
}

// ---- PageRank
TEST(Reference, PageRankFloatResultsLieWithinTheBound) {
  Result<RmatGraph> g = make_rmat(13, 16, 5);
  ASSERT_TRUE(g.ok());
  const uint32_t n = g->in.rows;
  // The hub needs the CTA-wide reduction: exercise both reduction shapes.
  ASSERT_GT(g->in.offsets[g->hub + 1] - g->in.offsets[g->hub], math::kHeavyDegree);
  std::vector<float> pr(n);
  for (uint32_t v = 0; v < n; ++v) pr[v] = math::unit_float(math::splitmix64(v)) / n;
  FloatCheck same, sequential, wrong;
  for (uint32_t v = 0; v < n; ++v) {
    const auto* off = g->in.offsets.data();
    const auto* src = g->in.cols.data();
    const auto* deg = g->out_degree.data();
    const float want = math::pagerank_row(off, src, deg, pr.data(), v, n);
    const Bounded ref = pagerank_reference(off, src, deg, pr.data(), v, n);
    same.add(v, want, want, ref);
    float sum = 0;  // one thread, edge order, FMA at the end: another valid rounding.
    for (uint64_t e = off[v]; e < off[v + 1]; ++e) sum += pr[src[e]] / deg[src[e]];
    sequential.add(v, std::fmaf(math::kDamping, sum, (1.0f - math::kDamping) / n), want, ref);
    wrong.add(v, pr[v], want, ref);
  }
  EXPECT_TRUE(same.result("pagerank", n).ok());
  Result<std::string> r = sequential.result("pagerank", n);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LT(sequential.exact(), n);  // the lane tree really differs from one thread's order.
  EXPECT_FALSE(wrong.result("pagerank", n).ok());
}

TEST(Reference, GraphRowEmulatesTheWarpAndCtaLanes) {
  // SSSP's min is order-independent: the lane emulation must equal a plain scan.
  Result<RmatGraph> g = make_rmat(13, 16, 9);
  ASSERT_TRUE(g.ok());
  const uint32_t n = g->in.rows;
  std::vector<uint32_t> dist(n);
  for (uint32_t v = 0; v < n; ++v) dist[v] = v % 7 == 0 ? math::kInfDistance : v % 1000;
  for (uint32_t v = 0; v < n; ++v) {
    uint32_t best = dist[v];
    for (uint64_t e = g->in.offsets[v]; e < g->in.offsets[v + 1]; ++e) {
      const uint32_t u = g->in.cols[e];
      if (dist[u] != math::kInfDistance) best = std::min(best, dist[u] + math::sssp_weight(u, v));
    }
    ASSERT_EQ(math::sssp_row(g->in.offsets.data(), g->in.cols.data(), dist.data(), v), best)
        << "vertex " << v;
  }
}

// ---- ALS at the production density (32 ratings per user, 512 per item).
TEST(Reference, AlsStaysFiniteDecreasesAndMatchesTheBound) {
  constexpr int K = math::kAlsRank;
  const uint32_t users = 1u << 12, items = 1u << 8;
  Result<Ratings> r = make_ratings(users, items, 32, 1);
  ASSERT_TRUE(r.ok());
  std::vector<float> u(users * K), v(items * K), tmp(users * K);
  for (uint64_t i = 0; i < u.size(); ++i) u[i] = math::als_init(1, i / K, i % K);
  for (uint64_t i = 0; i < v.size(); ++i) v[i] = math::als_init(2, i / K, i % K);
  auto objective = [&] {
    double s = 0;
    for (uint32_t a = 0; a < users; ++a) {
      for (uint64_t e = r->by_user.offsets[a]; e < r->by_user.offsets[a + 1]; ++e) {
        double dot = 0;
        for (int f = 0; f < K; ++f) dot += double{u[a * K + f]} * v[r->by_user.cols[e] * K + f];
        s += 0.5 * (r->user_values[e] - dot) * (r->user_values[e] - dot);
      }
      for (int f = 0; f < K; ++f) s += 0.5 * math::kAlsLambda * u[a * K + f] * u[a * K + f];
    }
    for (float x : v) s += 0.5 * math::kAlsLambda * x * x;
    return s;
  };
  const double start = objective();
  double last = start;
  FloatCheck check, stale;
  for (int it = 0; it < 5; ++it) {
    for (uint32_t a = 0; a < users; ++a)
      math::als_row(&u[a * K], r->by_user.offsets.data(), r->by_user.cols.data(),
                    r->user_values.data(), v.data(), a, &tmp[a * K]);
    std::copy(tmp.begin(), tmp.begin() + users * K, u.begin());
    EXPECT_LE(objective(), last * (1 + 1e-6)) << "user step of iteration " << it;
    last = objective();
    for (uint32_t b = 0; b < items; ++b) {
      const Csr& m = r->by_item;
      math::als_row(&v[b * K], m.offsets.data(), m.cols.data(), r->item_values.data(), u.data(), b,
                    &tmp[b * K]);
      Bounded ref[K];
      als_reference(&v[b * K], m.offsets.data(), m.cols.data(), r->item_values.data(), u.data(), b,
                    ref);
      for (int f = 0; f < K; ++f) {
        check.add(b, tmp[b * K + f], tmp[b * K + f], ref[f]);  // exact by construction...
        // ...and the bound covers it too, with a wide margin.
        EXPECT_LE(std::fabs(tmp[b * K + f] - ref[f].value), 0.1 * ref[f].bound) << b << " " << f;
        // A stale row (the previous value) is outside it (for nearly every
        // value: the worst-case bound on the 8192-term norm is loose; the
        // GPU check relies on bit-exactness first).
        if (it == 0) stale.add(b, v[b * K + f], tmp[b * K + f], ref[f]);
      }
    }
    std::copy(tmp.begin(), tmp.begin() + items * K, v.begin());
    EXPECT_LE(objective(), last * (1 + 1e-6)) << "item step of iteration " << it;
    last = objective();
  }
  for (float x : u) ASSERT_TRUE(std::isfinite(x));
  EXPECT_LT(last, 0.5 * start);
  EXPECT_TRUE(check.result("als", items).ok());
  EXPECT_FALSE(stale.result("als", items).ok());
  EXPECT_EQ(stale.exact(), 0u);
}

}  // namespace
}  // namespace xferlab::proact
