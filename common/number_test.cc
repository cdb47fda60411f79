// Tests for the full-string number parsers: trailing junk, empty text and
// out-of-range values are errors, never a silent 0.
#include "common/number.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace xferlab {
namespace {

TEST(Number, IntegersAreWholeStrings) {
  EXPECT_EQ(*parse_int("-12"), -12);
  EXPECT_EQ(*parse_uint("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_int("12x").error().message, "'12x' is not an integer");
  EXPECT_FALSE(parse_int("").ok());
  EXPECT_FALSE(parse_int(" 3").ok());
  EXPECT_FALSE(parse_int("1.5").ok());
  EXPECT_FALSE(parse_int("99999999999999999999").ok());  // out of range
  EXPECT_EQ(parse_uint("-1").error().message, "'-1' is not a non-negative integer");
}

TEST(Number, DoublesAreWholeFiniteStrings) {
  EXPECT_DOUBLE_EQ(*parse_double("2.5e-3"), 2.5e-3);
  EXPECT_DOUBLE_EQ(*parse_double("5"), 5);
  EXPECT_EQ(parse_double("5%").error().message, "'5%' is not a number");
  EXPECT_FALSE(parse_double("").ok());
  EXPECT_FALSE(parse_double("inf").ok());
  EXPECT_FALSE(parse_double("nan").ok());
}

TEST(Number, RoundTripFormatIsShortestFromMinDigits) {
  EXPECT_EQ(format_round_trip(0.1, 1), "0.1");
  EXPECT_EQ(format_round_trip(400, 1), "4e+02");
  EXPECT_EQ(format_round_trip(400, 3), "400");
  EXPECT_EQ(format_round_trip(1e7, 6), "1e+07");
  EXPECT_EQ(format_round_trip(1234567, 6), "1234567");
  EXPECT_EQ(format_round_trip(1.0 / 3, 6), "0.3333333333333333");
  for (double v : {0.0, -2.5, 1e-300, 6.02214076e23, 0.7, 123456.789})
    EXPECT_EQ(std::strtod(format_round_trip(v, 1).c_str(), nullptr), v);
}

TEST(Number, RoundsToTheDigitsAValueCarries) {
  EXPECT_EQ(round_significant(0.9135392861129966, 4), 0.9135);
  EXPECT_EQ(format_round_trip(round_significant(692934822.2071469, 4), 1), "6.929e+08");
  EXPECT_EQ(round_significant(-2.6e-7, 1), -3e-7);
  EXPECT_EQ(round_significant(0, 3), 0);
  EXPECT_EQ(round_to_uncertainty(5622.26969781312, 31.4), 5622);
  EXPECT_EQ(round_to_uncertainty(0.9135392861129966, 0.0012), 0.9135);
  EXPECT_EQ(round_to_uncertainty(0.9135392861129966, 0.00012), 0.91354);
  EXPECT_EQ(round_to_uncertainty(130.48185908019062e6, 2.1e6), 130.5e6);
  EXPECT_EQ(round_to_uncertainty(3, 100), 3);                      // below its noise: one digit
  EXPECT_EQ(round_to_uncertainty(0.9684295654296875, 0), 0.9684);  // no uncertainty: 4 digits
  EXPECT_EQ(format_round_trip(round_to_uncertainty(1.8621894531250003e3, 40), 1), "1862");
}

}  // namespace
}  // namespace xferlab
