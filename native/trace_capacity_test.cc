// Tests for grown_trace_capacity.
#include "native/trace_capacity.h"

#include <gtest/gtest.h>

namespace xferlab::native {
namespace {

TEST(TraceCapacity, HeadroomRoundingAndLimit) {
  EXPECT_EQ(grown_trace_capacity(4096, 1u << 26), 5120u);         // +25%
  EXPECT_EQ(grown_trace_capacity(5000, 1u << 26), 7168u);         // 6250 -> 7 Ki
  EXPECT_EQ(grown_trace_capacity(60000000, 1u << 26), 1u << 26);  // clamped to the flag's max
  EXPECT_EQ(grown_trace_capacity((1u << 26) + 1, 1u << 26), 0u);  // cannot hold the run
  EXPECT_GE(grown_trace_capacity(3000000, 1u << 26), 3000000u);
}

}  // namespace
}  // namespace xferlab::native
