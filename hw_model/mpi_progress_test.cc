// hw_model/mpi_progress_test.cc — the progress engine's equations.
#include "hw_model/mpi_progress.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

TEST(MpiProgress, OnlyTheRendezvousPartMovesInProgress) {
  EXPECT_EQ(rendezvous_payload_bytes(2048, 4096), 0);
  EXPECT_EQ(rendezvous_payload_bytes(4096, 4096), 0);
  EXPECT_EQ(rendezvous_payload_bytes(960000, 4096), 960000 - 4096);
}

TEST(MpiProgress, CostPerByteCountsBothDirections) {
  // 2 ranks, baseline 800^3: two 960 000-B faces each way through one engine.
  const double p = 2 * (960000.0 - 4096);
  EXPECT_DOUBLE_EQ(progress_ns_per_byte(p, p, 491000), 491000 / (2 * p));
  EXPECT_EQ(progress_ns_per_byte(0, 0, 100), 0);
}

TEST(MpiProgress, SharedPayloadsFinishInSizeOrder) {
  // Two equal payloads take twice one alone; a small one beside a large one
  // ends after twice its own time, the large one after both.
  const std::vector<double> two = processor_shared_finish_ns({1000, 1000}, 1.0);
  EXPECT_DOUBLE_EQ(two[0], 2000);
  EXPECT_DOUBLE_EQ(two[1], 2000);
  const std::vector<double> mixed = processor_shared_finish_ns({5000, 1000}, 2.0);
  EXPECT_DOUBLE_EQ(mixed[1], 4000);
  EXPECT_DOUBLE_EQ(mixed[0], 12000);
  // The inverse: the latency of the last of a rank's payloads gives back
  // the cost per byte (out + in share the engine).
  const std::vector<double> all = processor_shared_finish_ns({300, 300, 100, 100}, 0.5);
  EXPECT_DOUBLE_EQ(progress_ns_per_byte(400, 400, all[0]), 0.5);
}

}  // namespace
}  // namespace xferlab::hw_model
