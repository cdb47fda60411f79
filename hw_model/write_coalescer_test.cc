// Tests for WriteCoalescer: contiguous warp stores fill lines, scattered ones
// become one partial transaction per thread, merge windows widen them.
#include "hw_model/write_coalescer.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

WriteCoalescer coalescer(int64_t window = 1) {
  CoalescingConfig c;
  c.merge_window_instructions = window;
  return *WriteCoalescer::create(c);
}

LinkModel nvlink2() {
  return *LinkModel::create(*builtin_link_format("nvlink2"));
}

TEST(WriteCoalescer, ContiguousWarpFillsOneLine) {
  StoreTransactions t = coalescer().coalesce({32, 4, 4});
  EXPECT_DOUBLE_EQ(t.transactions, 1);
  EXPECT_DOUBLE_EQ(t.bytes_per_transaction, 128);
  EXPECT_FALSE(t.partial);
  // 8 B per thread: 256 B, two lines.
  EXPECT_DOUBLE_EQ(coalescer().coalesce({32, 8, 8}).transactions, 2);
}

TEST(WriteCoalescer, ScatteredStoresReproduceTheNvlinkAnchor) {
  StoreTransactions t = coalescer().coalesce({32, 4, 4096});
  EXPECT_DOUBLE_EQ(t.transactions, 32);
  EXPECT_DOUBLE_EQ(t.bytes_per_transaction, 4);
  EXPECT_TRUE(t.partial);
  WireBytes w = coalescer().wire(nvlink2(), {32, 4, 4096});
  EXPECT_DOUBLE_EQ(w.data_bytes, 32 * 48);
  EXPECT_NEAR(w.efficiency(), 0.0833, 1e-3);
}

TEST(WriteCoalescer, StridedStoresLeaveHoles) {
  // Stride 8, 4 B each: 16 threads per line, 124-B span with holes.
  StoreTransactions t = coalescer().coalesce({32, 4, 8});
  EXPECT_DOUBLE_EQ(t.transactions, 2);
  EXPECT_DOUBLE_EQ(t.bytes_per_transaction, 124);
  EXPECT_TRUE(t.partial);
  EXPECT_DOUBLE_EQ(t.useful_bytes, 128);
  WireBytes w = coalescer().wire(nvlink2(), {32, 4, 8});
  EXPECT_DOUBLE_EQ(w.payload_bytes, 128);
  EXPECT_DOUBLE_EQ(w.data_bytes, 2 * (16 + 128 + 16));
}

TEST(WriteCoalescer, MergeWindowWidensScatteredStores) {
  // Without merging, 8 instructions of scattered 4-B stores: 256 transactions.
  EXPECT_DOUBLE_EQ(coalescer(1).coalesce({32, 4, 4096}, 8).transactions, 256);
  // A window of 8 merges each thread's 8 consecutive stores into one 32-B write.
  StoreTransactions t = coalescer(8).coalesce({32, 4, 4096}, 8);
  EXPECT_DOUBLE_EQ(t.transactions, 32);
  EXPECT_DOUBLE_EQ(t.bytes_per_transaction, 32);
  EXPECT_FALSE(t.partial);
  EXPECT_DOUBLE_EQ(t.useful_bytes, 32 * 4 * 8);
}

TEST(WriteCoalescer, EdgeCases) {
  EXPECT_DOUBLE_EQ(coalescer().coalesce({0, 4, 4}).transactions, 0);
  EXPECT_DOUBLE_EQ(coalescer().coalesce({32, 4, 4}, 0).transactions, 0);
  EXPECT_EQ(coalescer().wire(nvlink2(), {32, 4, 4}, 0).data_bytes, 0);
  // Partial warp: 5 threads contiguous -> one 20-B partial transaction.
  StoreTransactions t = coalescer().coalesce({5, 4, 4});
  EXPECT_DOUBLE_EQ(t.transactions, 1);
  EXPECT_DOUBLE_EQ(t.bytes_per_transaction, 20);
  EXPECT_TRUE(t.partial);
  CoalescingConfig bad;
  bad.sector_bytes = 48;
  EXPECT_EQ(bad.validate().error().message, "key 'sector': line is not a whole number of sectors");
}

}  // namespace
}  // namespace xferlab::hw_model
