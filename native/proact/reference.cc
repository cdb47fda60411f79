// native/proact/reference.cc — see reference.h. Each bound follows the
// operation count of the float algorithm in workload_math.h.
#include "native/proact/reference.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace xferlab::proact {

double float_gamma(uint64_t n) {
  const double nu = static_cast<double>(n) * 0x1p-24;
  return nu / (1.0 - nu);
}

Bounded jacobi_reference(const float* a, const float* x, float b, uint64_t i, int k, uint64_t n) {
  // s = b - sum a_d x_{i+d} (<= 2k products and subtractions, then a division):
  // |fl - exact| <= gamma_{2k+2} (|b| + sum |a_d x|) / |a_ii| + u |x_new|.
  double s = b, mag = std::fabs(static_cast<double>(b));
  for (int d = -k; d <= k; ++d) {
    const int64_t j = static_cast<int64_t>(i) + d;
    if (d == 0 || j < 0 || j >= static_cast<int64_t>(n)) continue;
    const double t = static_cast<double>(a[d + k]) * x[j];
    s -= t;
    mag += std::fabs(t);
  }
  const double diag = std::fabs(static_cast<double>(a[k]));
  Bounded r;
  r.value = s / a[k];
  r.bound = float_gamma(2 * static_cast<uint64_t>(k) + 4) * (mag / diag + std::fabs(r.value));
  return r;
}

Bounded pagerank_reference(const uint64_t* off, const uint32_t* src, const uint32_t* deg,
                           const float* pr, uint32_t v, uint32_t n) {
  // N positive quotients (rounded once each) summed in any tree (N - 1
  // additions), a product and an addition: relative error <= gamma_{N+2}.
  double sum = 0;
  for (uint64_t e = off[v]; e < off[v + 1]; ++e) sum += double{pr[src[e]]} / deg[src[e]];
  const double c = (1.0 - double{math::kDamping}) / n;  // 1 - 0.85f is exact in float.
  Bounded r;
  r.value = c + double{math::kDamping} * sum;
  r.bound = float_gamma(off[v + 1] - off[v] + 4) * r.value;
  return r;
}

void als_reference(const float* row, const uint64_t* offsets, const uint32_t* cols,
                   const float* ratings, const float* other, uint64_t r, Bounded out[]) {
  // Per rating j: dot_j (16 products, 15 sums), err_j = r_j - dot_j has error
  // <= gamma_18 E_j, E_j = |r_j| + sum_f |row_f o_jf|. grad_f accumulates n
  // products err_j o_jf onto -lambda row_f: error <= gamma_{n+19} G_f with
  // G_f = lambda |row_f| + sum_j E_j |o_jf|. norm sums N = 16 n + 1 positive
  // terms: relative error <= gamma_{N+1}. out = row + grad / norm adds a
  // division and an addition. Altogether (Higham lemma 3.3, gamma_a + gamma_b
  // + gamma_a gamma_b <= gamma_{a+b}):
  //   |fl(out_f) - out_f| <= gamma_{N+n+24} ((G_f + |grad_f|) / norm + |out_f|).
  constexpr int K = math::kAlsRank;
  const double lambda = math::kAlsLambda;
  double grad[K], mag[K];
  for (int f = 0; f < K; ++f) {
    grad[f] = -lambda * row[f];
    mag[f] = lambda * std::fabs(double{row[f]});
  }
  double norm = lambda;
  const uint64_t count = offsets[r + 1] - offsets[r];
  for (uint64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
    const float* o = other + uint64_t{cols[e]} * K;
    double dot = 0, dmag = 0;
    for (int f = 0; f < K; ++f) {
      dot += double{row[f]} * o[f];
      dmag += std::fabs(double{row[f]} * o[f]);
    }
    const double err = ratings[e] - dot;
    const double emag = std::fabs(double{ratings[e]}) + dmag;
    for (int f = 0; f < K; ++f) {
      grad[f] += err * o[f];
      mag[f] += emag * std::fabs(double{o[f]});
      norm += double{o[f]} * o[f];
    }
  }
  const double g = float_gamma(16 * count + count + 26);
  for (int f = 0; f < K; ++f) {
    out[f].value = row[f] + grad[f] / norm;
    out[f].bound = g * ((mag[f] + std::fabs(grad[f])) / norm + std::fabs(out[f].value));
  }
}

void FloatCheck::add(uint64_t row, float got, float same, const Bounded& ref) {
  ++values_;
  if (std::memcmp(&got, &same, sizeof got) == 0 && std::isfinite(got)) {
    ++exact_;
    return;
  }
  double ratio = std::fabs(got - ref.value) / ref.bound;
  if (ref.bound == 0) ratio = got == ref.value ? 0 : std::numeric_limits<double>::infinity();
  if (!std::isfinite(got) || std::isnan(ratio)) ratio = std::numeric_limits<double>::infinity();
  if (ratio > max_ratio_ || (values_ - exact_ == 1 && ratio >= max_ratio_)) {
    max_ratio_ = ratio;
    worst_row_ = row;
    worst_got_ = got;
    worst_want_ = ref.value;
  }
}

Result<std::string> FloatCheck::result(const char* what, uint64_t rows) const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "bit-exact %llu/%llu values of %llu sampled rows; max |err|/bound %.2g",
                static_cast<unsigned long long>(exact_), static_cast<unsigned long long>(values_),
                static_cast<unsigned long long>(rows), max_ratio_);
  if (max_ratio_ > 1.0) {
    char w[160];
    std::snprintf(w, sizeof w, " at row %llu (got %.9g want %.9g)",
                  static_cast<unsigned long long>(worst_row_), double{worst_got_}, worst_want_);
    return make_runtime_error(std::string(what) + " differs from the CPU reference beyond the " +
                              "float rounding bound: " + buf + w);
  }
  return std::string("cpu ") + buf;
}

}  // namespace xferlab::proact
