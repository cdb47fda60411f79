// hw_model/mpi_node_test.cc — the on-node MPI step calibration: none by
// default, the log-linear step with its clamp, bad values refused.
#include "hw_model/mpi_node.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace xferlab::hw_model {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

TEST(MpiNode, DefaultIsNoCalibration) {
  const MpiNodeConfig c;
  EXPECT_FALSE(c.calibrated());
  EXPECT_TRUE(c.validate().ok());
  EXPECT_EQ(c.step_ns(4 * kMiB), 0);
}

TEST(MpiNode, StepIsLogLinearInThePayloadAndClampedAtZero) {
  MpiNodeConfig c;
  c.step_at_1mib_ns = 30000;
  c.step_per_doubling_ns = 4000;
  EXPECT_TRUE(c.calibrated());
  EXPECT_DOUBLE_EQ(c.step_ns(kMiB), 30000);
  EXPECT_DOUBLE_EQ(c.step_ns(4 * kMiB), 38000);
  EXPECT_DOUBLE_EQ(c.step_ns(kMiB / 8), 18000);
  EXPECT_EQ(c.step_ns(kMiB / 1024), 0);  // 30 - 40 us: clamped
  EXPECT_EQ(c.step_ns(0), 0);            // every message eager
}

TEST(MpiNode, BadValuesAreRefused) {
  MpiNodeConfig c;
  c.step_at_1mib_ns = -1;
  EXPECT_EQ(c.validate().error().message, "key 'step_at_1MiB': must be >= 0 and <= 1ms");
  c = MpiNodeConfig{};
  c.step_per_doubling_ns = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(c.validate().error().message, "key 'step_per_doubling': must be >= 0 and <= 1ms");
  c.step_per_doubling_ns = 2e6;
  EXPECT_FALSE(c.validate().ok());
}

}  // namespace
}  // namespace xferlab::hw_model
