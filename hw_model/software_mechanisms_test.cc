// Tests for SoftwareMechanisms: compute slowdown, detection costs and copy
// throughput of polling, CDP, inline and memcpy.
#include "hw_model/software_mechanisms.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

LinkModel nvlink2() {
  return *LinkModel::create(*builtin_link_format("nvlink2"));
}

TEST(SoftwareMechanisms, ComputeSlowdown) {
  SoftwareMechanisms s = *SoftwareMechanisms::create(SoftwareConfig{});
  GpuShape v100{80, 64};
  // 4 polling warps + 1024 copy threads (32 warps) of 5120 warp slots.
  EXPECT_DOUBLE_EQ(s.compute_slowdown(Mechanism::kPolling, v100), 36.0 / 5120);
  EXPECT_DOUBLE_EQ(s.compute_slowdown(Mechanism::kCdp, v100), 32.0 / 5120);
  EXPECT_DOUBLE_EQ(s.compute_slowdown(Mechanism::kInline, v100), 0);
  EXPECT_DOUBLE_EQ(s.compute_slowdown(Mechanism::kMemcpy, v100), 0);
}

TEST(SoftwareMechanisms, ChunkCosts) {
  SoftwareMechanisms s = *SoftwareMechanisms::create(SoftwareConfig{});
  LinkModel link = nvlink2();
  double chunk = 1 << 20;
  ChunkCost poll = s.chunk(Mechanism::kPolling, chunk, link, 1);
  EXPECT_DOUBLE_EQ(poll.detect_ns, 300 + 500);
  // SM copies: 1024 threads x 0.5 GB/s = 512 GB/s, so one link (128-B
  // packets: 25 GB/s x 128/144) limits.
  EXPECT_NEAR(poll.throughput_bytes_per_s, 25e9 * 128 / 144, 1);
  EXPECT_DOUBLE_EQ(poll.wire.packets, chunk / 128);
  ChunkCost cdp = s.chunk(Mechanism::kCdp, chunk, link, 1);
  EXPECT_DOUBLE_EQ(cdp.detect_ns, 300 + NotificationConfig{}.cdp_launch_ns);
  NotificationConfig late;
  late.cdp_launch_ns = 9000;
  EXPECT_DOUBLE_EQ(SoftwareMechanisms::create(SoftwareConfig{}, late)
                       ->chunk(Mechanism::kCdp, chunk, link, 1)
                       .detect_ns,
                   300 + 9000);
  ChunkCost memcpy = s.chunk(Mechanism::kMemcpy, chunk, link, 1);
  EXPECT_DOUBLE_EQ(memcpy.detect_ns, 8000);
  EXPECT_GT(memcpy.throughput_bytes_per_s, poll.throughput_bytes_per_s);  // 256-B packets
  EXPECT_DOUBLE_EQ(memcpy.total_ns, memcpy.detect_ns + memcpy.copy_ns);
  // Few threads: the SM side limits.
  SoftwareConfig few;
  few.transfer_threads = 32;
  ChunkCost slow = SoftwareMechanisms::create(few)->chunk(Mechanism::kPolling, chunk, link, 6);
  EXPECT_DOUBLE_EQ(slow.throughput_bytes_per_s, 32 * 0.5e9);
  EXPECT_EQ(s.chunk(Mechanism::kPolling, 0, link, 1).total_ns, 0);
}

TEST(SoftwareMechanisms, TmaRateFollowsCtasAndSlice) {
  SoftwareConfig c;
  EXPECT_EQ(SoftwareMechanisms::create(c)->agent_copy_bw_bytes_per_s(true, 1 << 20),
            0);  // not fitted
  c.tma_slice_turnaround_ns = 2000;
  c.transfer_threads = 2048;  // 64 CTAs of 32 threads, one 16 KiB slice each per 2 us
  SoftwareMechanisms s = *SoftwareMechanisms::create(c);
  EXPECT_DOUBLE_EQ(s.agent_copy_bw_bytes_per_s(true, 1 << 20), 64 * 16384 / 2e-6);
  EXPECT_DOUBLE_EQ(s.agent_copy_bw_bytes_per_s(true, 4096), 64 * 4096 / 2e-6);  // chunk < slice
  c.transfer_threads = 4096;
  EXPECT_DOUBLE_EQ(SoftwareMechanisms::create(c)->agent_copy_bw_bytes_per_s(true, 1 << 20),
                   2 * s.agent_copy_bw_bytes_per_s(true, 1 << 20));
  c.agent_slice_bytes = 8;
  EXPECT_FALSE(SoftwareMechanisms::create(c).ok());
}

// Total slices copied, over all groups and their workers.
int64_t slices_copied(const std::vector<AgentGroup>& groups) {
  int64_t n = 0;
  for (const AgentGroup& g : groups) {
    for (const AgentItem& i : g.items) n += g.workers * i.slices;
  }
  return n;
}

// A worker's slice: a fixed cost plus a per-byte rate (docs/calibration.md:
// a polling warp ≈ 0.67 µs + 0.18 µs per KiB). Without the new keys the old
// model holds: per byte only (polling), one turnaround per slice (TMA).
TEST(SoftwareMechanisms, AgentSliceCostHasFixedAndPerBytePart) {
  SoftwareConfig c;
  c.transfer_threads = 1024;  // 32 warps / 32 CTAs
  c.copy_bw_per_thread_bytes_per_s = 175e6;
  SoftwareMechanisms old = *SoftwareMechanisms::create(c);
  EXPECT_EQ(old.agent_slice_cost(false, 4096).fixed_ns, 0);
  EXPECT_DOUBLE_EQ(old.agent_slice_cost(false, 4096).ns(4096), 4096 / (32 * 175e6) * 1e9);
  c.polling_slice_overhead_ns = 670;
  SoftwareMechanisms poll = *SoftwareMechanisms::create(c);
  const AgentSliceCost warp = poll.agent_slice_cost(false, 4096);
  EXPECT_DOUBLE_EQ(warp.fixed_ns, 670);
  EXPECT_DOUBLE_EQ(warp.bw_bytes_per_s, 32 * 175e6);
  EXPECT_NEAR(warp.ns(4096), 670 + 731.4, 0.1);
  EXPECT_NEAR(warp.ns(16384), 670 + 2925.7, 0.1);
  // TMA: one turnaround whatever the slice, as before ...
  c.tma_slice_turnaround_ns = 1862;
  SoftwareMechanisms tma_old = *SoftwareMechanisms::create(c);
  EXPECT_DOUBLE_EQ(tma_old.agent_slice_cost(true, 4096).ns(4096), 1862);
  EXPECT_DOUBLE_EQ(tma_old.agent_slice_cost(true, 16384).ns(16384), 1862);
  // ... or a fixed part plus a per-byte rate.
  c.tma_slice_turnaround_ns = 880;
  c.tma_slice_bw_bytes_per_s = 16.4e9;
  SoftwareMechanisms tma = *SoftwareMechanisms::create(c);
  EXPECT_NEAR(tma.agent_slice_cost(true, 4096).ns(4096), 880 + 249.8, 0.1);
  EXPECT_NEAR(tma.agent_slice_cost(true, 16384).ns(16384), 880 + 999.0, 0.1);
  c.agent_slice_bytes = 4096;  // 32 CTAs x 4 KiB per turnaround
  EXPECT_NEAR(SoftwareMechanisms::create(c)->agent_copy_bw_bytes_per_s(true, 1 << 20),
              32 * 4096 / ((880 + 249.756) * 1e-9), 1e6);
  EXPECT_FALSE(AgentSliceCost{}.bounds());
  c.tma_slice_bw_bytes_per_s = -1;
  EXPECT_FALSE(SoftwareMechanisms::create(c).ok());
  c.tma_slice_bw_bytes_per_s = 0;
  c.polling_slice_overhead_ns = -1;
  EXPECT_FALSE(SoftwareMechanisms::create(c).ok());
}

TEST(SoftwareMechanisms, StaticScheduleGroupsWorkersBySequence) {
  // 128 warps, 16 slices per chunk (256 KiB chunks, 16 KiB slices): 8 groups
  // of 16 warps; group g copies chunks g, g + 8, ... one slice per warp.
  std::vector<AgentGroup> g = static_agent_schedule(128, 128, 16);
  ASSERT_EQ(g.size(), 8u);
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(g[i].workers, 16);
    ASSERT_EQ(g[i].items.size(), 16u);
    EXPECT_EQ(g[i].items[0].chunk, i);
    EXPECT_EQ(g[i].items[1].chunk, i + 8);
    EXPECT_EQ(g[i].items[1].slices, 1);
  }
  // Chunks larger than all workers' slices: one group, each warp takes 4
  // slices of every chunk (16 MiB chunks, 256 warps).
  g = static_agent_schedule(256, 16, 1024);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].workers, 256);
  EXPECT_EQ(g[0].items.size(), 16u);
  EXPECT_EQ(g[0].items[3].slices, 4);
  // More workers than items: the extra ones stay idle.
  g = static_agent_schedule(256, 4, 1);
  EXPECT_EQ(g.size(), 4u);
  EXPECT_EQ(slices_copied(g), 4);
  // Neither divides the other: 3 workers, 2 slices per chunk, 3 chunks:
  // w0 = (c0 s0, c1 s1), w1 = (c0 s1, c2 s0), w2 = (c1 s0, c2 s1).
  g = static_agent_schedule(3, 3, 2);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].items[0].chunk, 0u);
  EXPECT_EQ(g[2].items[0].chunk, 1u);
  EXPECT_EQ(slices_copied(g), 6);
  EXPECT_EQ(slices_copied(static_agent_schedule(96, 50, 64)), 50 * 64);
  EXPECT_TRUE(static_agent_schedule(0, 4, 1).empty());
}

TEST(SoftwareMechanisms, AgentWorkers) {
  SoftwareConfig c;
  c.transfer_threads = 4096;
  EXPECT_EQ(SoftwareMechanisms::create(c)->agent_workers(false), 128);  // warps
  EXPECT_EQ(SoftwareMechanisms::create(c)->agent_workers(true), 128);   // 32-thread CTAs
  c.transfer_threads = 100;  // one CTA of 100 threads: 4 warps (the last partial)
  EXPECT_EQ(SoftwareMechanisms::create(c)->agent_workers(false), 4);
  EXPECT_EQ(SoftwareMechanisms::create(c)->agent_workers(true), 3);
  c.transfer_threads = 16;
  EXPECT_EQ(SoftwareMechanisms::create(c)->agent_workers(true), 1);
}

TEST(SoftwareMechanisms, InlineWireDependsOnCoalescing) {
  SoftwareMechanisms s = *SoftwareMechanisms::create(SoftwareConfig{});
  WriteCoalescer c = *WriteCoalescer::create(CoalescingConfig{});
  LinkModel link = nvlink2();
  WireBytes contiguous = s.inline_wire(c, link, {32, 4, 4}, 100);
  WireBytes scattered = s.inline_wire(c, link, {32, 4, 4096}, 100);
  EXPECT_DOUBLE_EQ(contiguous.payload_bytes, scattered.payload_bytes);
  EXPECT_NEAR(scattered.data_bytes / contiguous.data_bytes, 32 * 48 / 144.0, 1e-9);
  EXPECT_EQ(*parse_mechanism("cdp"), Mechanism::kCdp);
  EXPECT_FALSE(parse_mechanism("dma").ok());
}

}  // namespace
}  // namespace xferlab::hw_model
