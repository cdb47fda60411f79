// native/proact/graph.h — seeded, deterministic generators of the workloads'
// inputs: R-MAT (Kronecker) graphs as in-edge CSR, and sparse rating matrices.
// Output depends only on the parameters and seed, never on the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"

namespace xferlab::proact {

// Csr: row r's entries are cols[offsets[r] .. offsets[r+1]) (sorted per row).
struct Csr {
  uint32_t rows = 0;
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> cols;
};

// RmatGraph: in-edge CSR (row = destination, cols = sources) plus out-degrees
// (at least 1, so PageRank never divides by zero: vertices without out-edges
// count as degree 1 and their mass is dropped).
struct RmatGraph {
  Csr in;
  std::vector<uint32_t> out_degree;
  uint32_t hub = 0;  ///< the R-MAT corner vertex (highest degree), label-scrambled.
};

// make_rmat: 2^scale vertices, edge_factor * 2^scale directed edges drawn with
// R-MAT probabilities (0.57, 0.19, 0.19, 0.05); self loops kept, duplicates kept.
// Vertex labels are scrambled by a seeded bijection (as Graph500 does), so that
// contiguous vertex ranges carry equal shares of the edges: unscrambled, the
// first half of the vertices holds 76% of the in-edges and a 2-GPU split by
// rows cannot balance.
Result<RmatGraph> make_rmat(int scale, int edge_factor, uint64_t seed);

// estimate_rmat_seconds: expected wall time of make_rmat's edge drawing on
// this machine, extrapolated from drawing a 64 Ki-edge sample (the CSR build
// and sort add to it).
double estimate_rmat_seconds(int scale, int edge_factor, uint64_t seed);

// Ratings: users x items sparse matrix, by user (csr) and by item (its transpose).
struct Ratings {
  uint32_t users = 0;
  uint32_t items = 0;
  Csr by_user;
  std::vector<float> user_values;
  Csr by_item;
  std::vector<float> item_values;
};

// scramble_vertex: the bijection of [0, 2^scale) make_rmat applies to labels.
uint32_t scramble_vertex(uint32_t v, int scale, uint64_t seed);

// make_ratings: each user rates `per_user` distinct-ish items (hashed), values
// in [1, 5].
Result<Ratings> make_ratings(uint32_t users, uint32_t items, uint32_t per_user, uint64_t seed);

// transpose: CSR of the transpose (cols become rows), carrying `values`.
void transpose(const Csr& a, const std::vector<float>& values, uint32_t cols, Csr& out,
               std::vector<float>& out_values);

}  // namespace xferlab::proact
