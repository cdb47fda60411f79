// native/bench/link_results_test.cc — derived columns of the link benchmark:
// bandwidth, access rate, efficiency references and copy-engine summaries.
#include "native/bench/link_results.h"

#include <gtest/gtest.h>

#include <sstream>

namespace xferlab::native::bench {
namespace {

LinkMeasurement point(std::string test, std::string target, std::string pattern, uint64_t bytes,
                      uint64_t stride, uint64_t accesses, double median_ns) {
  LinkMeasurement m;
  m.test = std::move(test);
  m.target = std::move(target);
  m.pattern = std::move(pattern);
  m.write_bytes = bytes;
  m.stride_bytes = stride;
  m.accesses = accesses;
  m.time_ns = summarize({median_ns * 0.9, median_ns, median_ns * 1.2});
  return m;
}

std::vector<LinkMeasurement> sample() {
  return {
      // 1 GB of 16-B stores in 2.5 ms = 400 GB/s; 4-B scattered 1/8 of that.
      point("sm_write", "peer", "contiguous", 16, 16, 62'500'000, 2.5e6),
      point("sm_write", "peer", "scattered", 4, 128, 1'000'000, 80'000),
      point("ce_write", "peer", "single", 4096, 4096, 1, 2'010.24),
      point("ce_write", "peer", "batch", 4096, 4096, 16, 16'000),
      point("ce_write", "peer", "single", 1'000'000'000, 1'000'000'000, 1, 2.5e6 / 0.96),
  };
}

TEST(LinkResultsTest, TableDerivesBandwidthRateAndEfficiency) {
  const Table t = link_table(sample());
  ASSERT_EQ(t.num_rows(), 5u);
  const auto& cols = t.columns();
  auto col = [&](const std::string& name) {
    for (size_t i = 0; i < cols.size(); ++i)
      if (cols[i].name == name) return i;
    ADD_FAILURE() << "no column " << name;
    return size_t{0};
  };
  const auto& contig = t.rows()[0];
  EXPECT_DOUBLE_EQ(std::get<double>(contig[col("payload_bw_bytes_per_s")]), 4e11);
  EXPECT_DOUBLE_EQ(std::get<double>(contig[col("efficiency")]), 1.0);
  EXPECT_EQ(std::get<int64_t>(contig[col("reps")]), 3);
  const auto& scattered = t.rows()[1];
  EXPECT_DOUBLE_EQ(std::get<double>(scattered[col("payload_bw_bytes_per_s")]), 4e6 / 80e-6);
  EXPECT_DOUBLE_EQ(std::get<double>(scattered[col("accesses_per_s")]), 1e6 / 80e-6);
  EXPECT_NEAR(std::get<double>(scattered[col("efficiency")]), 0.125, 1e-12);
  // CE rows are relative to the CE peak (the 1 GB copy).
  EXPECT_NEAR(std::get<double>(t.rows()[4][col("efficiency")]), 1.0, 1e-12);
  std::ostringstream csv;
  t.write_csv(csv);
  EXPECT_EQ(csv.str().substr(0, csv.str().find('\n')),
            "test,target,pattern,write_bytes,stride_bytes,accesses,payload_bytes,ctas,"
            "threads_per_cta,reps,time_ns_median,time_ns_p10,time_ns_p90,payload_bw_bytes_per_s,"
            "accesses_per_s,efficiency,mismatches");
}

TEST(LinkResultsTest, SummaryGivesPeakInitiationAndGoal) {
  const auto paths = summarize_paths(sample());
  ASSERT_EQ(paths.size(), 1u);
  const LinkPathSummary& s = paths[0];
  EXPECT_EQ(s.op, "write");
  EXPECT_EQ(s.target, "peer");
  EXPECT_DOUBLE_EQ(s.sm_best_contiguous_bw_bytes_per_s, 4e11);
  EXPECT_DOUBLE_EQ(s.ce_peak_bw_bytes_per_s, 4e11 * 0.96);
  EXPECT_NEAR(s.sm_over_ce, 1 / 0.96, 1e-12);
  EXPECT_EQ(s.ce_smallest_bytes, 4096u);
  // 4096 B at 384 GB/s is 10.67 ns of transfer; the rest is initiation.
  EXPECT_NEAR(s.ce_initiation_ns, 2010.24 - 4096 / 384.0, 1e-6);
  EXPECT_DOUBLE_EQ(s.ce_back_to_back_ns, 1000);
  const Table t = link_summary_table(sample());
  EXPECT_EQ(std::get<std::string>(t.rows()[0].back()), "sm>=95%ce:ok");
}

TEST(LinkResultsTest, GoalMissedWhenSmIsSlow) {
  auto m = sample();
  m[0].time_ns = summarize({3e6});  // 333 GB/s vs 384 GB/s CE
  const Table t = link_summary_table(m);
  EXPECT_EQ(std::get<std::string>(t.rows()[0].back()), "sm>=95%ce:MISSED");
}

}  // namespace
}  // namespace xferlab::native::bench
