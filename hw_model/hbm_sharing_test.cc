// Tests for the HBM shared by a kernel and transfers (hbm_sharing.h), on
// numbers computed by hand.
#include "hw_model/hbm_sharing.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

TEST(HbmSharing, MemoryBoundKernelSlowsByTheTransferBytes) {
  // 4x H200 Jacobi: 0.64 GB per step in 200 us (3.2 TB/s of 4.8, above the
  // attainable 2.4 TB/s); 134 MB of agent reads and peer writes: x 1.21.
  const HbmShare s{0.64e9, 0.134e9, 4.8e12, 0.5};
  EXPECT_NEAR(shared_kernel_ns(200e3, s), 200e3 * 0.774 / 0.64, 1e-6);
  EXPECT_NEAR(unshared_kernel_ns(shared_kernel_ns(200e3, s), s), 200e3, 1e-6);
}

TEST(HbmSharing, ComputeBoundKernelHasHeadroom) {
  // 256 MB in 680 us (0.39 TB/s): 0.8 GB in all fit in 680 us at 2.4 TB/s.
  const HbmShare s{0.256e9, 0.512e9, 4.8e12, 0.5};
  EXPECT_DOUBLE_EQ(shared_kernel_ns(680e3, s), 680e3);
  // 10 GB of transfers do not: 10.256 GB / 2.4 TB/s.
  const HbmShare big{0.256e9, 10e9, 4.8e12, 0.5};
  EXPECT_NEAR(shared_kernel_ns(680e3, big), 10.256e9 / 2.4e12 * 1e9, 1e-6);
}

TEST(HbmSharing, InverseRoundTripsAndNothingWithoutTraffic) {
  const HbmShare s{1e9, 0.3e9, 4.8e12, 0.5};
  for (double t : {100e3, 300e3, 416e3, 417e3, 541e3, 542e3, 1e6}) {
    EXPECT_NEAR(shared_kernel_ns(unshared_kernel_ns(t, s), s), t, 1e-6) << t;
  }
  EXPECT_DOUBLE_EQ(shared_kernel_ns(100, HbmShare{1e9, 0, 4.8e12, 0.5}), 100);
  EXPECT_DOUBLE_EQ(shared_kernel_ns(100, HbmShare{1e9, 1e9, 0, 0.5}), 100);
}

}  // namespace
}  // namespace xferlab::hw_model
