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
  EXPECT_EQ(SoftwareMechanisms::create(c)->tma_copy_bw_bytes_per_s(1 << 20), 0);  // not fitted
  c.tma_slice_turnaround_ns = 2000;
  c.transfer_threads = 2048;  // 64 CTAs of 32 threads, one 16 KiB slice each per 2 us
  SoftwareMechanisms s = *SoftwareMechanisms::create(c);
  EXPECT_DOUBLE_EQ(s.tma_copy_bw_bytes_per_s(1 << 20), 64 * 16384 / 2e-6);
  EXPECT_DOUBLE_EQ(s.tma_copy_bw_bytes_per_s(4096), 64 * 4096 / 2e-6);  // chunk < slice
  c.transfer_threads = 4096;
  EXPECT_DOUBLE_EQ(SoftwareMechanisms::create(c)->tma_copy_bw_bytes_per_s(1 << 20),
                   2 * s.tma_copy_bw_bytes_per_s(1 << 20));
  c.agent_slice_bytes = 8;
  EXPECT_FALSE(SoftwareMechanisms::create(c).ok());
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
