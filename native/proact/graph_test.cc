// native/proact/graph_test.cc — seeded generators and the CPU reference math
// the GPU workloads are checked against.
#include "native/proact/graph.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <queue>

#include "native/proact/workload_math.h"

namespace xferlab::proact {
namespace {

TEST(Rmat, SeededAndDeterministic) {
  Result<RmatGraph> a = make_rmat(10, 8, 7), b = make_rmat(10, 8, 7), c = make_rmat(10, 8, 8);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->in.cols, b->in.cols);
  EXPECT_EQ(a->in.offsets, b->in.offsets);
  EXPECT_NE(a->in.cols, c->in.cols);
  EXPECT_EQ(a->in.rows, 1024u);
  EXPECT_EQ(a->in.cols.size(), 8u * 1024u);
  EXPECT_EQ(a->in.offsets.back(), 8u * 1024u);
  // Skewed: the hub (the a-quadrant corner) has far more in-edges than average...
  EXPECT_GT(a->in.offsets[a->hub + 1] - a->in.offsets[a->hub], 8u * 8u);
  // ...but scrambled labels spread the edges evenly over vertex ranges.
  const double first_half = double(a->in.offsets[512]) / a->in.offsets.back();
  EXPECT_NEAR(first_half, 0.5, 0.1);
  for (uint32_t v = 0; v < a->in.rows; ++v) {
    EXPECT_TRUE(std::is_sorted(a->in.cols.begin() + a->in.offsets[v],
                               a->in.cols.begin() + a->in.offsets[v + 1]));
  }
  EXPECT_FALSE(make_rmat(0, 8, 1).ok());
}

TEST(Rmat, ScrambleIsABijection) {
  for (int scale : {1, 5, 10}) {
    std::vector<bool> seen(1u << scale);
    for (uint32_t v = 0; v < (1u << scale); ++v) {
      const uint32_t w = scramble_vertex(v, scale, 42);
      ASSERT_LT(w, 1u << scale);
      EXPECT_FALSE(seen[w]) << "scale " << scale << " vertex " << v;
      seen[w] = true;
    }
  }
}

TEST(Ratings, TransposeMatches) {
  Result<Ratings> r = make_ratings(100, 40, 5, 3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->by_item.cols.size(), 500u);
  // Every (user, item, value) appears in the transpose.
  for (uint32_t u = 0; u < 100; ++u) {
    for (uint64_t e = r->by_user.offsets[u]; e < r->by_user.offsets[u + 1]; ++e) {
      const uint32_t i = r->by_user.cols[e];
      bool found = false;
      for (uint64_t f = r->by_item.offsets[i]; f < r->by_item.offsets[i + 1]; ++f) {
        found |= r->by_item.cols[f] == u && r->item_values[f] == r->user_values[e];
      }
      EXPECT_TRUE(found) << "user " << u << " item " << i;
    }
  }
  EXPECT_FALSE(make_ratings(10, 4, 5, 1).ok());
}

TEST(Reference, SsspBellmanFordMatchesDijkstra) {
  Result<RmatGraph> g = make_rmat(9, 8, 11);
  ASSERT_TRUE(g.ok());
  const uint32_t n = g->in.rows;
  std::vector<uint32_t> d(n, math::kInfDistance), next(n);
  d[g->hub] = 0;
  for (uint32_t it = 0; it < n; ++it) {
    for (uint32_t v = 0; v < n; ++v)
      next[v] = math::sssp_row(g->in.offsets.data(), g->in.cols.data(), d.data(), v);
    if (next == d) break;
    d.swap(next);
  }
  // Dijkstra on the out-edge view.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> out(n);
  for (uint32_t v = 0; v < n; ++v) {
    for (uint64_t e = g->in.offsets[v]; e < g->in.offsets[v + 1]; ++e) {
      const uint32_t u = g->in.cols[e];
      out[u].push_back({v, math::sssp_weight(u, v)});
    }
  }
  std::vector<uint64_t> ref(n, UINT64_MAX);
  using Item = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  ref[g->hub] = 0;
  pq.push({0, g->hub});
  while (!pq.empty()) {
    auto [du, u] = pq.top();
    pq.pop();
    if (du != ref[u]) continue;
    for (auto [v, w] : out[u]) {
      if (du + w < ref[v]) pq.push({ref[v] = du + w, v});
    }
  }
  for (uint32_t v = 0; v < n; ++v) {
    EXPECT_EQ(d[v] == math::kInfDistance ? UINT64_MAX : d[v], ref[v]) << "vertex " << v;
  }
}

TEST(Reference, PageRankOnACycleIsUniform) {
  // Directed cycle: every vertex has in-degree 1 and out-degree 1.
  const uint32_t n = 16;
  std::vector<uint64_t> off(n + 1);
  std::vector<uint32_t> src(n), deg(n, 1);
  for (uint32_t v = 0; v < n; ++v) {
    off[v + 1] = v + 1;
    src[v] = (v + n - 1) % n;
  }
  std::vector<float> pr(n, 0.0f), next(n);
  pr[3] = 1.0f;
  for (int it = 0; it < 200; ++it) {
    for (uint32_t v = 0; v < n; ++v)
      next[v] = math::pagerank_row(off.data(), src.data(), deg.data(), pr.data(), v, n);
    pr.swap(next);
  }
  for (float p : pr) EXPECT_NEAR(p, 1.0f / n, 1e-6f);
}

TEST(Reference, JacobiConverges) {
  const uint64_t n = 200, seed = 5;
  const int k = 3;
  std::vector<float> band(n * (2 * k + 1)), x(n, 0.0f), next(n);
  for (uint64_t i = 0; i < n; ++i) {
    for (int d = -k; d <= k; ++d)
      band[i * (2 * k + 1) + d + k] = math::jacobi_entry(seed, i, d, k, n);
  }
  for (int it = 0; it < 60; ++it) {
    for (uint64_t i = 0; i < n; ++i)
      next[i] = math::jacobi_row(band.data(), x.data(), math::jacobi_rhs(seed, i), i, k, n);
    x.swap(next);
  }
  for (uint64_t i = 0; i < n; ++i) {  // residual of A x = b
    double ax = 0;
    for (int d = -k; d <= k; ++d) {
      const int64_t j = static_cast<int64_t>(i) + d;
      if (j >= 0 && j < static_cast<int64_t>(n)) ax += band[i * (2 * k + 1) + d + k] * x[j];
    }
    EXPECT_NEAR(ax, math::jacobi_rhs(seed, i), 1e-4) << "row " << i;
  }
}

TEST(Reference, AlsStepsReduceTheError) {
  Result<Ratings> r = make_ratings(64, 32, 8, 2);
  ASSERT_TRUE(r.ok());
  constexpr int K = math::kAlsRank;
  std::vector<float> u(64 * K), v(32 * K), tmp(std::max(64, 32) * K);
  for (int i = 0; i < 64 * K; ++i) u[i] = math::als_init(1, i / K, i % K);
  for (int i = 0; i < 32 * K; ++i) v[i] = math::als_init(2, i / K, i % K);
  auto sse = [&] {
    double s = 0;
    for (uint32_t a = 0; a < 64; ++a) {
      for (uint64_t e = r->by_user.offsets[a]; e < r->by_user.offsets[a + 1]; ++e) {
        double dot = 0;
        for (int f = 0; f < K; ++f) dot += u[a * K + f] * v[r->by_user.cols[e] * K + f];
        s += (r->user_values[e] - dot) * (r->user_values[e] - dot);
      }
    }
    return s;
  };
  const double before = sse();
  for (int it = 0; it < 20; ++it) {
    for (uint32_t a = 0; a < 64; ++a)
      math::als_row(&u[a * K], r->by_user.offsets.data(), r->by_user.cols.data(),
                    r->user_values.data(), v.data(), a, &tmp[a * K]);
    std::copy(tmp.begin(), tmp.begin() + 64 * K, u.begin());
    for (uint32_t b = 0; b < 32; ++b)
      math::als_row(&v[b * K], r->by_item.offsets.data(), r->by_item.cols.data(),
                    r->item_values.data(), u.data(), b, &tmp[b * K]);
    std::copy(tmp.begin(), tmp.begin() + 32 * K, v.begin());
  }
  EXPECT_LT(sse(), 0.5 * before);
}

TEST(Reference, MicroValueDependsOnSeedIndexAndWork) {
  const math::U32x4 a = math::micro_value(1, 10, 100), b = math::micro_value(1, 10, 100);
  EXPECT_EQ(a.x, b.x);
  EXPECT_NE(a.x, math::micro_value(2, 10, 100).x);
  EXPECT_NE(a.x, math::micro_value(1, 11, 100).x);
  EXPECT_NE(a.x, math::micro_value(1, 10, 101).x);
}

}  // namespace
}  // namespace xferlab::proact
