// native/proact/reference.h — double-precision references with rigorous
// rounding-error bounds for the float workloads, and FloatCheck, which judges
// GPU results against them (host only).
//
// The GPU and the CPU run the same float operations in the same order
// (workload_math.h), so results are expected bit-exact. The bound is the
// fallback that stays justified if they are not (another compiler, FMA): the
// float result of the same algorithm, in any rounding of its operations,
// lies within `bound` of the exact result (Higham, "Accuracy and Stability of
// Numerical Algorithms", §3: gamma_n = n u / (1 - n u), u = 2^-24), which the
// double reference approximates to ~1e-16 relative (covered by an extra
// operation in each gamma). A wrong input (stale chunk, wrong row) moves the
// result by O(|value|), far beyond the bound.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"
#include "native/proact/workload_math.h"

namespace xferlab::proact {

struct Bounded {
  double value = 0;  ///< exact-arithmetic result (computed in double).
  double bound = 0;  ///< |float result - value| <= bound for any rounding order.
};

// gamma: gamma_n for IEEE single precision.
double float_gamma(uint64_t n);

// jacobi_reference: row i; band_row holds A[i][i-k..i+k] (zero outside the matrix).
Bounded jacobi_reference(const float* band_row, const float* x, float b, uint64_t i, int k,
                         uint64_t n);
// pagerank_reference: vertex v (positive terms: the bound holds for any summation tree).
Bounded pagerank_reference(const uint64_t* in_offsets, const uint32_t* in_src,
                           const uint32_t* out_degree, const float* pr, uint32_t v, uint32_t n);
// als_reference: out[f] for row r of math::als_row.
void als_reference(const float* row, const uint64_t* offsets, const uint32_t* cols,
                   const float* ratings, const float* other, uint64_t r,
                   Bounded out[math::kAlsRank]);

// FloatCheck: every value must equal the CPU float computation bit for bit
// (`same`) or, failing that, lie within the bound of the double reference.
class FloatCheck {
 public:
  void add(uint64_t row, float got, float same, const Bounded& ref);
  // result: "cpu bit-exact 65536/65536 values of 4096 sampled rows; max |err|/bound 0"
  // or a one-line error naming the worst row.
  Result<std::string> result(const char* what, uint64_t rows) const;
  uint64_t values() const { return values_; }
  uint64_t exact() const { return exact_; }
  double max_ratio() const { return max_ratio_; }

 private:
  uint64_t values_ = 0, exact_ = 0;
  double max_ratio_ = 0;  ///< max |got - value| / bound (NaN/inf count as infinite).
  uint64_t worst_row_ = 0;
  float worst_got_ = 0;
  double worst_want_ = 0;
};

}  // namespace xferlab::proact
