// Tests for the full-string number parsers: trailing junk, empty text and
// out-of-range values are errors, never a silent 0.
#include "common/number.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace xferlab
