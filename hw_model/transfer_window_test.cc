// hw_model/transfer_window_test.cc — TransferWindow on hand-computed links.
#include "hw_model/transfer_window.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

TEST(TransferWindow, PostedWritesCoverTheBandwidthDelayProduct) {
  // 400 GB/s x 2 us = 800 kB in flight; 16 kB transfers: 50 of them, plus one.
  EXPECT_EQ(TransferWindow::posted_writes(400e9, 2000, 16e3), 51);
  // Not a whole number of transfers: round up.
  EXPECT_EQ(TransferWindow::posted_writes(400e9, 2000, 15e3), 1 + 54);
  // A transfer larger than the product: the one in flight plus the next.
  EXPECT_EQ(TransferWindow::posted_writes(400e9, 2000, 1e9), 2);
  // No latency: one at a time is enough; no bytes: one.
  EXPECT_EQ(TransferWindow::posted_writes(400e9, 0, 16e3), 1);
  EXPECT_EQ(TransferWindow::posted_writes(400e9, 2000, 0), 1);
}

}  // namespace
}  // namespace xferlab::hw_model
