// hw_model/hardware_sizing_test.cc — the sizing rules on numbers computable by hand.
#include "hw_model/hardware_sizing.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

LinkModel nvlink2() {
  return *LinkModel::create(*builtin_link_format("nvlink2"));  // 256-B packets, 272 B on the wire
}

TEST(HardwareSizing, RulesOnOneNvlink2Link) {
  const SizingPath path{25e9, 1400};  // 25 GB/s, 1.4 us round trip: 35000 B in flight
  const SizingRegion region{64 * 1024, 4096};
  HardwareSizing s = size_hardware(DmaAgentConfig{}, CounterUnitConfig{}, nvlink2(), path, region);
  EXPECT_DOUBLE_EQ(s.packet_wire_bytes, 272);
  EXPECT_DOUBLE_EQ(s.bdp_bytes, 35000);
  EXPECT_EQ(s.outstanding_packets.value, 129);  // ceil(35000 / 272)
  EXPECT_TRUE(s.outstanding_packets.derived);
  // 64 KiB = 256 packets = 69632 wire B = 2785.28 ns; start = initiation 100 ns.
  EXPECT_NEAR(s.chunk_time_ns, 2785.28, 1e-9);
  EXPECT_DOUBLE_EQ(s.start_ns, 100);
  EXPECT_EQ(s.channels.value, 2);                // 1 + ceil(100 / 2785.28)
  EXPECT_EQ(s.prefetched_descriptors.value, 3);  // 2 + ceil(500 / 2785.28)
  EXPECT_EQ(s.capacity_counters.value, 4096);
  EXPECT_EQ(s.window_entries(), 2 * 129);
}

TEST(HardwareSizing, SmallChunksNeedChannelsAndNoPrefetchPaysTheFetch) {
  DmaAgentConfig dma;
  dma.prefetched_descriptors = 0;  // explicit: every descriptor is fetched
  // 4 KiB = 16 packets = 4352 wire B = 174.08 ns; start = 500 + 100 ns.
  HardwareSizing s = size_hardware(dma, CounterUnitConfig{}, nvlink2(), {25e9, 1400}, {4096, 0});
  EXPECT_DOUBLE_EQ(s.start_ns, 600);
  EXPECT_EQ(s.channels.value, 1 + 4);  // ceil(600 / 174.08) = 4
  EXPECT_FALSE(s.prefetched_descriptors.derived);
  EXPECT_EQ(s.prefetched_descriptors.value, 0);
  EXPECT_EQ(s.capacity_counters.value, kAutoCount);  // region unknown
}

TEST(HardwareSizing, ExplicitValuesWinAndApplyFillsOnlyAuto) {
  DmaAgentConfig dma;
  dma.channels = 7;
  CounterUnitConfig cu;
  HardwareSizing s = size_hardware(dma, cu, nvlink2(), {25e9, 1400}, {65536, 10});
  EXPECT_EQ(s.channels.value, 7);
  EXPECT_FALSE(s.channels.derived);
  apply_sizing(s, dma, cu);
  EXPECT_EQ(dma.channels, 7);
  EXPECT_EQ(dma.outstanding_packets, 129);
  EXPECT_EQ(cu.capacity_counters, 10);
  EXPECT_TRUE(dma.sized());
  EXPECT_TRUE(DmaAgent::create(dma).ok());
  EXPECT_NE(describe_sizing(s).find("dma_agent.channels = 7  (explicit)"), std::string::npos);
}

}  // namespace
}  // namespace xferlab::hw_model
