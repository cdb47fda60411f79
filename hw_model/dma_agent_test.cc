// Tests for DmaAgent and CopyEngine: start costs, Little's-law bound,
// fan-out over shared and separate links, 2-D descriptors.
#include "hw_model/dma_agent.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

LinkModel nvlink2() {
  return *LinkModel::create(*builtin_link_format("nvlink2"));
}

TEST(DmaAgent, StartCostsAndLinkBound) {
  LinkModel link = nvlink2();
  DmaAgent agent = *DmaAgent::create(DmaAgentConfig{});
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
  DmaAgentConfig c;
  c.channels = 1;
  c.outstanding_packets = 8;
  DmaAgent agent = *DmaAgent::create(c);
  double little = 8 * 256 / 1400e-9;  // packets x bytes / round trip
  EXPECT_NEAR(agent.outstanding_bound_bytes_per_s(link), little, 1e-3);
  Descriptor d;
  d.row_bytes = 1 << 20;
  DmaTiming t = agent.transfer(d, {&link, 6, false});
  EXPECT_EQ(t.bound, DmaBound::kOutstanding);
  EXPECT_NEAR(t.throughput_bytes_per_s, little, 1e-3);
}

TEST(DmaAgent, FanOutSharedLinksDivideTheRate) {
  LinkModel link = nvlink2();
  DmaAgentConfig c;
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
  DmaAgent agent = *DmaAgent::create(DmaAgentConfig{});
  Descriptor d;
  d.row_bytes = 300;
  d.rows = 10;
  d.stride_bytes = 4096;
  DmaTiming t = agent.transfer(d, {&link, 1, false});
  EXPECT_DOUBLE_EQ(t.wire.packets, 20);
  EXPECT_DOUBLE_EQ(t.wire.data_bytes, 10 * (272 + 80));
  // Smaller packets than the link allows.
  DmaAgentConfig small;
  small.packet_bytes = 64;
  EXPECT_DOUBLE_EQ(DmaAgent::create(small)->transfer(d, {&link, 1, false}).wire.packets, 10 * 5);
}

TEST(DmaAgent, EmptyDescriptorStillSignals) {
  LinkModel link = nvlink2();
  DmaAgent agent = *DmaAgent::create(DmaAgentConfig{});
  DmaTiming t = agent.transfer(Descriptor{}, {&link, 1, false});
  EXPECT_DOUBLE_EQ(t.completion_ns, 100 + 200);
  EXPECT_EQ(t.wire.packets, 0);
}

TEST(CopyEngine, HostInitiationDominatesSmallCopies) {
  LinkModel link = nvlink2();
  CopyEngine ce = *CopyEngine::create(CopyEngineConfig{});
  DmaAgent agent = *DmaAgent::create(DmaAgentConfig{});
  Descriptor d;
  d.row_bytes = 4096;
  DmaTiming host = ce.copy(4096, link);
  DmaTiming dma = agent.transfer(d, {&link, 1, false});
  EXPECT_DOUBLE_EQ(host.start_ns, 6000);
  EXPECT_GT(host.completion_ns, 5 * dma.completion_ns);
  CopyEngineConfig bad;
  bad.engines = 0;
  EXPECT_EQ(bad.validate().error().message, "key 'engines': must be >= 1");
}

}  // namespace
}  // namespace xferlab::hw_model
