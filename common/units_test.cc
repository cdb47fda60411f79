// Tests for common/units: every unit family, bad spellings, suggestions.
#include "common/units.h"

#include <gtest/gtest.h>

namespace xferlab {
namespace {

double must(Result<double> r) {
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : -1;
}

TEST(Units, Time) {
  EXPECT_DOUBLE_EQ(must(parse_quantity("700ns", Unit::kTimeNs)), 700);
  EXPECT_DOUBLE_EQ(must(parse_quantity("1.5us", Unit::kTimeNs)), 1500);
  EXPECT_DOUBLE_EQ(must(parse_quantity(" 2 ms ", Unit::kTimeNs)), 2e6);
  EXPECT_DOUBLE_EQ(must(parse_quantity("3s", Unit::kTimeNs)), 3e9);
}

TEST(Units, Bandwidth) {
  EXPECT_DOUBLE_EQ(must(parse_quantity("25GBps", Unit::kBandwidthBytesPerS)), 25e9);
  EXPECT_DOUBLE_EQ(must(parse_quantity("25 GB/s", Unit::kBandwidthBytesPerS)), 25e9);
  EXPECT_DOUBLE_EQ(must(parse_quantity("200Gbps", Unit::kBandwidthBytesPerS)), 25e9);
}

TEST(Units, SizeAndOthers) {
  EXPECT_DOUBLE_EQ(must(parse_quantity("4KiB", Unit::kSizeBytes)), 4096);
  EXPECT_DOUBLE_EQ(must(parse_quantity("4kB", Unit::kSizeBytes)), 4000);
  EXPECT_DOUBLE_EQ(must(parse_quantity("1.98GHz", Unit::kFrequencyHz)), 1.98e9);
  EXPECT_DOUBLE_EQ(must(parse_quantity("2.5G/s", Unit::kRatePerS)), 2.5e9);
  EXPECT_DOUBLE_EQ(must(parse_quantity("42", Unit::kNone)), 42);
}

TEST(Units, RejectsMissingOrWrongUnit) {
  auto r = parse_quantity("700", Unit::kTimeNs);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("has no unit"), std::string::npos);
  auto w = parse_quantity("25GHz", Unit::kBandwidthBytesPerS);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("unknown bandwidth unit 'GHz'"), std::string::npos);
  EXPECT_FALSE(parse_quantity("abc", Unit::kTimeNs).ok());
  EXPECT_FALSE(parse_quantity("", Unit::kTimeNs).ok());
  EXPECT_FALSE(parse_quantity("12x", Unit::kNone).ok());
}

TEST(Units, SizeList) {
  auto r = parse_size_list("1,2,4KiB");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->size(), 3u);
  EXPECT_DOUBLE_EQ((*r)[2], 4096);
  EXPECT_FALSE(parse_size_list("1,,2").ok());
  EXPECT_FALSE(parse_size_list("1,-2").ok());
}

TEST(Units, Suggestions) {
  std::vector<std::string> keys = {"latency_ns", "bw_bytes_per_s", "max_payload_bytes"};
  EXPECT_EQ(closest_match("latency_n", keys), "latency_ns");
  EXPECT_EQ(closest_match("max_paylod_bytes", keys), "max_payload_bytes");
  EXPECT_EQ(closest_match("zzzzzzzz", keys), "");
  EXPECT_EQ(did_you_mean("latncy_ns", keys), "; did you mean 'latency_ns'?");
}

}  // namespace
}  // namespace xferlab
