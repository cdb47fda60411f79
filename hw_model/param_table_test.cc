// Tests for the parameter text forms: quantities print with readable units
// and parse back to the same value.
#include "hw_model/param_table.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

TEST(ParamTable, FormatQuantity) {
  EXPECT_EQ(format_quantity(700, Unit::kTimeNs), "700ns");
  EXPECT_EQ(format_quantity(1500, Unit::kTimeNs), "1.5us");
  EXPECT_EQ(format_quantity(25e9, Unit::kBandwidthBytesPerS), "25GBps");
  EXPECT_EQ(format_quantity(4096, Unit::kSizeBytes), "4KiB");
  EXPECT_EQ(format_quantity(16e9, Unit::kSizeBytes), "16GB");
  EXPECT_EQ(format_quantity(400, Unit::kSizeBytes), "400B");
  EXPECT_EQ(format_quantity(1.98e9, Unit::kFrequencyHz), "1.98GHz");
  EXPECT_EQ(format_quantity(200e6, Unit::kRatePerS), "200M/s");
  EXPECT_EQ(format_quantity(0, Unit::kTimeNs), "0ns");
  EXPECT_EQ(format_plain(400), "400");
}

TEST(ParamTable, RoundTrip) {
  for (Unit unit : {Unit::kTimeNs, Unit::kSizeBytes, Unit::kBandwidthBytesPerS, Unit::kFrequencyHz,
                    Unit::kRatePerS}) {
    for (double v :
         {1.0, 3.0, 16.5, 700.0, 1e3, 1234.5678, 3.125e9, 25.78125e9 / 8, 1e12, 0.3, 7.0 / 3}) {
      std::string text = format_quantity(v, unit);
      Result<double> back = parse_quantity(text, unit);
      ASSERT_TRUE(back.ok()) << text;
      EXPECT_EQ(*back, v) << text;
    }
  }
}

TEST(ParamTable, PlainValues) {
  EXPECT_EQ(*parse_count("42"), 42);
  EXPECT_FALSE(parse_count("4.5").ok());
  EXPECT_FALSE(parse_count("").ok());
  EXPECT_TRUE(*parse_bool("true"));
  EXPECT_FALSE(parse_bool("yes").ok());
  EXPECT_DOUBLE_EQ(*parse_plain_number("0.25"), 0.25);
}

}  // namespace
}  // namespace xferlab::hw_model
