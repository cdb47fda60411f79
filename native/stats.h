// native/stats.h — summary statistics of repeated measurements (median and
// spread as p10/p90), as every benchmark reports them.
#pragma once

#include <cstddef>
#include <vector>

namespace xferlab::native {

// Summary: of n samples; all zero when n == 0.
struct Summary {
  size_t n = 0;
  double min = 0;
  double p10 = 0;
  double median = 0;
  double p90 = 0;
  double max = 0;
  double mean = 0;
};

// percentile: q in [0, 1] of ascending-sorted values, linear interpolation
// between closest ranks (q = 0.5 of an even count is the mean of the middle
// two). Empty input gives 0.
double percentile_sorted(const std::vector<double>& sorted, double q);

// summarize: sorts a copy of `values` and fills every field.
Summary summarize(std::vector<double> values);

}  // namespace xferlab::native
