// native/proact/graph.cc — R-MAT and rating generators (parallel, deterministic).
#include "native/proact/graph.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "native/proact/workload_math.h"

namespace xferlab::proact {

namespace {

// parallel_for: [0, n) in contiguous blocks on all cores.
template <typename F>
void parallel_for(uint64_t n, F f) {
  const uint64_t threads = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (uint64_t t = 0; t < threads; ++t) {
    const uint64_t b = n * t / threads, e = n * (t + 1) / threads;
    pool.emplace_back([=] {
      for (uint64_t i = b; i < e; ++i) f(i);
    });
  }
  for (auto& th : pool) th.join();
}

// build_csr: rows from (row, col) pairs, stable by edge index then sorted per row.
void build_csr(uint32_t rows, const std::vector<uint32_t>& row_of,
               const std::vector<uint32_t>& col_of, Csr& out, std::vector<uint64_t>* order) {
  out.rows = rows;
  out.offsets.assign(uint64_t{rows} + 1, 0);
  for (uint32_t r : row_of) ++out.offsets[r + 1];
  for (uint32_t r = 0; r < rows; ++r) out.offsets[r + 1] += out.offsets[r];
  out.cols.resize(row_of.size());
  std::vector<uint64_t> fill(out.offsets.begin(), out.offsets.end() - 1);
  if (order) order->resize(row_of.size());
  for (uint64_t e = 0; e < row_of.size(); ++e) {
    const uint64_t pos = fill[row_of[e]]++;
    out.cols[pos] = col_of[e];
    if (order) (*order)[pos] = e;
  }
}

// draw_rmat_edge: edge e of the R-MAT graph (labels scrambled).
void draw_rmat_edge(uint64_t e, int scale, uint64_t seed, uint32_t& src, uint32_t& dst) {
  uint64_t h = math::splitmix64(seed * 0x2545f4914f6cdd1dull + e);
  uint32_t u = 0, v = 0;
  for (int level = 0; level < scale; ++level) {
    h = math::splitmix64(h);
    const float p = math::unit_float(h);
    // quadrants a=0.57 (0,0), b=0.19 (0,1), c=0.19 (1,0), d=0.05 (1,1)
    const uint32_t bu = p >= 0.76f, bv = (p >= 0.57f && p < 0.76f) || p >= 0.95f;
    u = (u << 1) | bu;
    v = (v << 1) | bv;
  }
  src = scramble_vertex(u, scale, seed);
  dst = scramble_vertex(v, scale, seed);
}

}  // namespace

uint32_t scramble_vertex(uint32_t v, int scale, uint64_t seed) {
  // Odd multipliers and xor-shifts are bijections modulo 2^scale.
  const uint64_t mask = (uint64_t{1} << scale) - 1;
  const uint64_t m1 = (math::splitmix64(seed ^ 0x5ca1ab1eull) | 1) & mask;
  const uint64_t m2 = (math::splitmix64(seed ^ 0xdecafbadull) | 1) & mask;
  const int shift = scale / 2 > 0 ? scale / 2 : 1;
  uint64_t x = (v * m1) & mask;
  x ^= x >> shift;
  x = (x * m2) & mask;
  x ^= x >> shift;
  return static_cast<uint32_t>(x);
}

double estimate_rmat_seconds(int scale, int edge_factor, uint64_t seed) {
  constexpr uint64_t kSample = 1u << 16;
  const uint64_t m = (uint64_t{1} << scale) * static_cast<uint64_t>(edge_factor);
  const uint64_t n = std::min(m, kSample);
  std::vector<uint32_t> src(n), dst(n);
  const auto t0 = std::chrono::steady_clock::now();
  parallel_for(n, [&](uint64_t e) { draw_rmat_edge(e, scale, seed, src[e], dst[e]); });
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s * static_cast<double>(m) / static_cast<double>(n);
}

Result<RmatGraph> make_rmat(int scale, int edge_factor, uint64_t seed) {
  if (scale < 1 || scale > 30) return make_error("--graph-scale must be in 1..30");
  if (edge_factor < 1 || edge_factor > 256) return make_error("--edge-factor must be in 1..256");
  const uint32_t n = 1u << scale;
  const uint64_t m = uint64_t{n} * edge_factor;
  std::vector<uint32_t> src(m), dst(m);
  parallel_for(m, [&](uint64_t e) { draw_rmat_edge(e, scale, seed, src[e], dst[e]); });
  RmatGraph g;
  g.hub = scramble_vertex(0, scale, seed);
  g.out_degree.assign(n, 0);
  for (uint32_t u : src) ++g.out_degree[u];
  for (uint32_t& d : g.out_degree) d = std::max(d, 1u);
  build_csr(n, dst, src, g.in, nullptr);
  parallel_for(n, [&](uint64_t r) {
    std::sort(g.in.cols.begin() + g.in.offsets[r], g.in.cols.begin() + g.in.offsets[r + 1]);
  });
  return g;
}

void transpose(const Csr& a, const std::vector<float>& values, uint32_t cols, Csr& out,
               std::vector<float>& out_values) {
  std::vector<uint32_t> row_of(a.cols.size());
  for (uint32_t r = 0; r < a.rows; ++r) {
    for (uint64_t e = a.offsets[r]; e < a.offsets[r + 1]; ++e) row_of[e] = r;
  }
  std::vector<uint64_t> order;
  build_csr(cols, a.cols, row_of, out, &order);
  out_values.resize(order.size());
  for (uint64_t i = 0; i < order.size(); ++i) out_values[i] = values[order[i]];
}

Result<Ratings> make_ratings(uint32_t users, uint32_t items, uint32_t per_user, uint64_t seed) {
  if (users == 0 || items == 0 || per_user == 0 || per_user > items) {
    return make_error("ratings: need users, items > 0 and 0 < ratings per user <= items");
  }
  Ratings r;
  r.users = users;
  r.items = items;
  r.by_user.rows = users;
  r.by_user.offsets.resize(uint64_t{users} + 1);
  for (uint64_t u = 0; u <= users; ++u) r.by_user.offsets[u] = u * per_user;
  r.by_user.cols.resize(uint64_t{users} * per_user);
  r.user_values.resize(r.by_user.cols.size());
  parallel_for(users, [&](uint64_t u) {
    for (uint32_t j = 0; j < per_user; ++j) {
      const uint64_t h = math::splitmix64(seed ^ (u * per_user + j) * 0x9e3779b97f4a7c15ull);
      r.by_user.cols[u * per_user + j] = static_cast<uint32_t>(h % items);
      r.user_values[u * per_user + j] = 1.0f + 4.0f * math::unit_float(math::splitmix64(h));
    }
  });
  transpose(r.by_user, r.user_values, items, r.by_item, r.item_values);
  return r;
}

}  // namespace xferlab::proact
