// Tests for DmaAgent and CopyEngine: start costs, Little's-law bound,
// fan-out over shared and separate links, 2-D descriptors.
#include "hw_model/dma_agent.h"

#include <gtest/gtest.h>

#include <cmath>

namespace xferlab::hw_model {
namespace {

LinkModel nvlink2() {
  return *LinkModel::create(*builtin_link_format("nvlink2"));
}

// sized: an agent with explicit sizes (the defaults are "auto", sized per
// platform by hardware_sizing.h).
DmaAgentConfig sized() {
  DmaAgentConfig c;
  c.channels = 4;
  c.outstanding_packets = 64;
  c.prefetched_descriptors = 16;
  return c;
}

// windowed: a sized agent of `channels` channels with `outstanding_packets` each.
DmaAgent windowed(int64_t channels, int64_t outstanding_packets) {
  DmaAgentConfig c = sized();
  c.channels = channels;
  c.outstanding_packets = outstanding_packets;
  return *DmaAgent::create(c);
}

TEST(DmaAgent, AutoSizesMustBeResolvedFirst) {
  EXPECT_TRUE(DmaAgentConfig{}.validate().ok());
  EXPECT_FALSE(DmaAgent::create(DmaAgentConfig{}).ok());
  EXPECT_TRUE(DmaAgent::create(sized()).ok());
}

TEST(DmaAgent, StartCostsAndLinkBound) {
  LinkModel link = nvlink2();
  DmaAgent agent = *DmaAgent::create(sized());
  Descriptor d;
  d.row_bytes = 1 << 20;
  DmaTiming t = agent.transfer(d, {&link, 1, false});
  EXPECT_DOUBLE_EQ(t.start_ns, 100);  // prefetched: initiation only
  d.prefetched = false;
  EXPECT_DOUBLE_EQ(agent.transfer(d, {&link, 1, false}).start_ns, 600);
  // 4 channels x 64 x 256 B over a 1.4 us round trip (47 GB/s) exceed one
  // link's 23.5 GB/s of payload: link-bound.
  EXPECT_EQ(t.bound, DmaBound::kLink);
  EXPECT_NEAR(t.throughput_bytes_per_s, 25e9 * 256 / 272, 1);
  EXPECT_NEAR(t.data_ns, (1 << 20) / t.throughput_bytes_per_s * 1e9 + 700, 1e-6);
  EXPECT_DOUBLE_EQ(t.completion_ns, t.start_ns + t.data_ns + 200);
  EXPECT_DOUBLE_EQ(t.wire.packets, (1 << 20) / 256);
}

TEST(DmaAgent, OutstandingPacketsBoundOverManyLinks) {
  LinkModel link = nvlink2();
  DmaAgent agent = windowed(1, 8);
  double little = 8 * 256 / 1400e-9;  // packets x bytes / round trip
  EXPECT_NEAR(agent.outstanding_bound_bytes_per_s({&link, 1, false}), little, 1e-3);
  Descriptor d;
  d.row_bytes = 1 << 20;
  DmaTiming t = agent.transfer(d, {&link, 6, false});
  EXPECT_EQ(t.bound, DmaBound::kOutstanding);
  EXPECT_NEAR(t.throughput_bytes_per_s, little, 1e-3);
}

// The window's round trip is the path's: switches crossed count both ways
// (NVSwitch: link + switch + link), and the same equation gives a wire rate
// when given wire bytes per packet (the simulator's lanes carry wire bytes).
TEST(DmaAgent, WindowRoundTripIsThePathsAndUnitsFollowTheBytes) {
  LinkModel link = nvlink2();
  DmaAgent agent = windowed(2, 8);
  DestinationPath via_switch{&link, 1, false, 300};
  EXPECT_DOUBLE_EQ(via_switch.one_way_latency_ns(), 1000);
  EXPECT_NEAR(agent.outstanding_bound_bytes_per_s(via_switch), 2 * 8 * 256 / 2000e-9, 1e-3);
  EXPECT_NEAR(agent.channel_window_bytes_per_s(272, 2000), 8 * 272 / 2000e-9, 1e-3);
  EXPECT_EQ(agent.channel_window_bytes_per_s(272, 0), INFINITY);
  Descriptor d;
  d.row_bytes = 1 << 20;
  EXPECT_NEAR(agent.transfer(d, via_switch).data_ns,
              (1 << 20) / (2 * 8 * 256 / 2000e-9) * 1e9 + 1000, 1e-6);
}

TEST(DmaAgent, WithoutFanOutEachDestinationNeedsADescriptor) {
  LinkModel link = nvlink2();
  DmaAgentConfig c = sized();
  c.fan_out = false;
  c.prefetched_descriptors = 0;
  DmaAgent agent = *DmaAgent::create(c);
  EXPECT_EQ(agent.descriptors(3), 3);
  EXPECT_DOUBLE_EQ(agent.descriptor_start_ns(), 600);  // not prefetched: fetch + initiation
  Descriptor d;
  d.row_bytes = 4096;
  d.destinations = 3;
  EXPECT_DOUBLE_EQ(agent.transfer(d, {&link, 1, false}).start_ns, 3 * 100);
  c.fan_out = true;
  EXPECT_EQ(DmaAgent::create(c)->descriptors(3), 1);
  EXPECT_EQ(agent.packet_payload_bytes(256), 256);
  c.packet_bytes = 64;
  EXPECT_EQ(DmaAgent::create(c)->packet_payload_bytes(256), 64);
}

TEST(DmaAgent, FanOutSharedLinksDivideTheRate) {
  LinkModel link = nvlink2();
  DmaAgentConfig c = sized();
  c.outstanding_packets = 1024;  // keep Little's law out of the way
  DmaAgent agent = *DmaAgent::create(c);
  Descriptor d;
  d.row_bytes = 1 << 20;
  d.destinations = 3;
  double separate = agent.transfer(d, {&link, 1, false}).throughput_bytes_per_s;
  double shared = agent.transfer(d, {&link, 1, true}).throughput_bytes_per_s;
  EXPECT_NEAR(separate / shared, 3, 1e-9);
}

TEST(DmaAgent, TwoDimensionalRowsAreSeparatePackets) {
  LinkModel link = nvlink2();
  DmaAgent agent = *DmaAgent::create(sized());
  Descriptor d;
  d.row_bytes = 300;
  d.rows = 10;
  d.stride_bytes = 4096;
  DmaTiming t = agent.transfer(d, {&link, 1, false});
  EXPECT_DOUBLE_EQ(t.wire.packets, 20);
  EXPECT_DOUBLE_EQ(t.wire.data_bytes, 10 * (272 + 80));
  // Smaller packets than the link allows.
  DmaAgentConfig small = sized();
  small.packet_bytes = 64;
  EXPECT_DOUBLE_EQ(DmaAgent::create(small)->transfer(d, {&link, 1, false}).wire.packets, 10 * 5);
}

TEST(DmaAgent, EmptyDescriptorStillSignals) {
  LinkModel link = nvlink2();
  DmaAgent agent = *DmaAgent::create(sized());
  DmaTiming t = agent.transfer(Descriptor{}, {&link, 1, false});
  EXPECT_DOUBLE_EQ(t.completion_ns, 100 + 200);
  EXPECT_EQ(t.wire.packets, 0);
}

TEST(CopyEngine, HostInitiationDominatesSmallCopies) {
  LinkModel link = nvlink2();
  CopyEngine ce = *CopyEngine::create(CopyEngineConfig{});
  DmaAgent agent = *DmaAgent::create(sized());
  Descriptor d;
  d.row_bytes = 4096;
  DmaTiming host = ce.copy(4096, link);
  DmaTiming dma = agent.transfer(d, {&link, 1, false});
  EXPECT_DOUBLE_EQ(host.start_ns, 6000);
  EXPECT_DOUBLE_EQ(ce.issue_ns(), 6000);
  // Steady rate: 128 outstanding x 256 B per 1.4 us round trip (23.4 GB/s)
  // just below one link's 23.5 GB/s of payload; 4 links do not help.
  EXPECT_NEAR(ce.throughput_bytes_per_s(link), 128 * 256 / 1400e-9, 1e-3);
  EXPECT_NEAR(ce.throughput_bytes_per_s(link, 4), 128 * 256 / 1400e-9, 1e-3);
  CopyEngineConfig narrow;
  narrow.outstanding_packets = 2;
  EXPECT_NEAR(CopyEngine::create(narrow)->throughput_bytes_per_s(link, 4), 2 * 256 / 1400e-9, 1e-3);
  EXPECT_GT(host.completion_ns, 5 * dma.completion_ns);
  CopyEngineConfig bad;
  bad.engines = 0;
  EXPECT_EQ(bad.validate().error().message, "key 'engines': must be >= 1");
}

}  // namespace
}  // namespace xferlab::hw_model
