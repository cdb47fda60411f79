// sim/bench_csv_test.cc — the native benchmarks' CSVs read into calibration
// rows; bad CSVs give one-line errors naming file, line and column.
#include "sim/bench_csv.h"

#include <gtest/gtest.h>

#include <string>

namespace xferlab::sim {
namespace {

constexpr const char* kHeader =
    "test,target,pattern,write_bytes,stride_bytes,accesses,payload_bytes,ctas,"
    "threads_per_cta,reps,time_ns_median,time_ns_p10,time_ns_p90,payload_bw_bytes_per_s,"
    "accesses_per_s,efficiency,mismatches\n";

TEST(BenchCsvTest, ReadsLinkNotifyAndMicroRows) {
  auto link =
      parse_link_bench(std::string(kHeader) +
                           "# comment\n"
                           "sm_write,peer,contiguous,4,4,10,40,528,512,5,100,0,0,4e8,0,0,0\n",
                       "lb.csv");
  ASSERT_TRUE(link.ok()) << link.error().message;
  ASSERT_EQ(link->size(), 1u);
  EXPECT_EQ((*link)[0].test, "sm_write");
  EXPECT_EQ((*link)[0].target, "peer");
  EXPECT_EQ((*link)[0].write_bytes, 4);
  EXPECT_EQ((*link)[0].time_ns, 100);
  EXPECT_EQ((*link)[0].payload_bw_bytes_per_s, 4e8);
  EXPECT_EQ((*link)[0].line, 3);

  auto notify = parse_notify_bench("test,variant,median_ns\nflag,gpu_volatile,812.5\n", "nb.csv");
  ASSERT_TRUE(notify.ok()) << notify.error().message;
  EXPECT_EQ((*notify)[0].variant, "gpu_volatile");
  EXPECT_EQ((*notify)[0].median_ns, 812.5);

  auto micro =
      parse_proact_micro("mechanism,chunk_bytes,threads,time_ms\npolling,4096,1024,2.5\n", "m.csv");
  ASSERT_TRUE(micro.ok()) << micro.error().message;
  EXPECT_EQ((*micro)[0].threads, 1024);
  EXPECT_EQ((*micro)[0].time_ms, 2.5);
}

TEST(BenchCsvTest, MalformedCsvNamesFileLineAndColumn) {
  std::string text = std::string(kHeader) +
                     "sm_write,peer,contiguous,1,1,10,10,528,512,5,100,0,0,1e8,0,0,0\n"
                     "sm_write,peer,contiguous,2,2,10,20,528,512,5,abc,0,0,1e8,0,0,0\n";
  auto rows = parse_link_bench(text, "lb.csv");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.error().message, "lb.csv:3: column 'time_ns_median': 'abc' is not a number");
  EXPECT_EQ(rows.error().message.find('\n'), std::string::npos);

  auto zero = parse_link_bench(
      std::string(kHeader) + "sm_write,peer,contiguous,1,1,10,10,528,512,5,100,0,0,0,0,0,0\n",
      "lb.csv");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message,
            "lb.csv:2: column 'payload_bw_bytes_per_s': sizes and bandwidth must be > 0");

  auto negative = parse_notify_bench("test,variant,median_ns\nflag,v,-3\n", "nb.csv");
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.error().message.find("nb.csv:2: column 'median_ns':"), std::string::npos);

  auto missing = parse_notify_bench("test,median_ns\n", "nb.csv");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "nb.csv:1: missing column 'variant' in the header");

  auto short_row =
      parse_proact_micro("mechanism,chunk_bytes,threads,time_ms\npolling,4096\n", "m.csv");
  ASSERT_FALSE(short_row.ok());
  EXPECT_EQ(short_row.error().message, "m.csv:2: column 'threads': missing (row has 2 fields)");

  auto absent = read_link_bench("/nonexistent/lb.csv");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.error().message, "/nonexistent/lb.csv: cannot open");
}

}  // namespace
}  // namespace xferlab::sim
