// native/stats.cc — median and percentiles of repeated measurements.
#include "native/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace xferlab::native {

double percentile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  q = std::clamp(q, 0.0, 1.0);
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

Summary summarize(std::vector<double> values) {
  Summary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.n = values.size();
  s.min = values.front();
  s.max = values.back();
  s.p10 = percentile_sorted(values, 0.10);
  s.median = percentile_sorted(values, 0.50);
  s.p90 = percentile_sorted(values, 0.90);
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(s.n);
  return s;
}

}  // namespace xferlab::native
