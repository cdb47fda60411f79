// native/stats_test.cc — median/percentile conventions used by all benchmarks.
#include "native/stats.h"

#include <gtest/gtest.h>

namespace xferlab::native {
namespace {

TEST(StatsTest, OddAndEvenMedians) {
  EXPECT_DOUBLE_EQ(summarize({3, 1, 2}).median, 2);
  EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median, 2.5);
}

TEST(StatsTest, PercentilesInterpolate) {
  std::vector<double> v;
  for (int i = 0; i <= 100; ++i) v.push_back(100 - i);  // unsorted on purpose
  const Summary s = summarize(v);
  EXPECT_EQ(s.n, 101u);
  EXPECT_DOUBLE_EQ(s.min, 0);
  EXPECT_DOUBLE_EQ(s.p10, 10);
  EXPECT_DOUBLE_EQ(s.median, 50);
  EXPECT_DOUBLE_EQ(s.p90, 90);
  EXPECT_DOUBLE_EQ(s.max, 100);
  EXPECT_DOUBLE_EQ(s.mean, 50);
  EXPECT_DOUBLE_EQ(percentile_sorted({0, 10}, 0.25), 2.5);
}

TEST(StatsTest, EmptyAndSingle) {
  EXPECT_EQ(summarize({}).n, 0u);
  const Summary one = summarize({7});
  EXPECT_DOUBLE_EQ(one.p10, 7);
  EXPECT_DOUBLE_EQ(one.p90, 7);
}

}  // namespace
}  // namespace xferlab::native
