// sim/replay_engine_test.cc — each mechanism's timing on cases computed by
// hand: one link of 1 GB/s (1 byte/ns) and 1 us latency, packets of at most
// 256 B payload with 16 B overhead, so a 4096-B chunk is 4352 wire bytes.
#include "sim/replay_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "hw_model/hardware_sizing.h"
#include "hw_model/link_model.h"
#include "hw_model/platform.h"
#include "sim/explain.h"
#include "sim/proact_mechanism.h"
#include "sim/test_machine.h"

namespace xferlab::sim {
namespace {

constexpr double kTol = 1e-3;  // ns

Machine test_machine(uint32_t gpus = 2, Topology topology = Topology::kDirect) {
  Machine m = hand_computed_machine("test", gpus, topology);
  m.costs.memcpy_issue_ns = 500;
  // An ideal counter unit and DMA agent (tests set what they check): 1 fs
  // updates, no latencies, one channel with no practical window.
  m.costs.counter_unit.clock_hz = 1e15;
  m.costs.counter_unit.update_latency_cycles = 0;
  m.costs.counter_unit.trigger_latency_cycles = 0;
  m.costs.counter_unit.capacity_counters = 4096;
  m.costs.dma_agent.channels = 1;
  m.costs.dma_agent.outstanding_packets = 1 << 30;
  m.costs.dma_agent.prefetched_descriptors = 16;
  m.costs.dma_agent.initiation_ns = 0;
  return m;
}

// One kernel of 10 us on GPU 0 producing one 4096-B chunk, written by 4 CTAs
// over [0, 4 us].
ReplayInput one_chunk(uint32_t gpus = 2) {
  ReplayInput in;
  in.name = "one_chunk";
  in.num_gpus = gpus;
  KernelInput k;
  k.gpu = 0;
  k.duration_ns = 10000;
  k.chunks.push_back(ChunkInput{0, 4000, 4096, 4, 4});
  in.iterations.push_back(IterationInput{0, {k}});
  return in;
}

ReplayResult run(const ReplayInput& in, const Machine& m, Mechanism mech, bool timeline = false,
                 bool explain = false) {
  Result<ReplayResult> r = simulate_isolated(in, m, ReplayOptions{mech, timeline, true, explain});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : ReplayResult{};
}

// ReplayInput::validate names the kernel and chunk of the first fault.
TEST(ReplayEngine, InputValidationNamesTheFaultyChunk) {
  ReplayInput in = one_chunk();
  EXPECT_TRUE(in.validate().ok());
  in.iterations[0].kernels[0].chunks.push_back(ChunkInput{0, 3000, 4096, 4, 4});
  Status s = in.validate();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "one_chunk: iteration 0 kernel on gpu 0 chunk 1: chunks not sorted by ready time");
  in.iterations[0].kernels[0].chunks[1] = ChunkInput{0, 5000, 4096, 4, 0};
  EXPECT_EQ(in.validate().error().message,
            "one_chunk: iteration 0 kernel on gpu 0 chunk 1: zero store granularity");
  in.iterations[0].kernels[0].chunks.pop_back();
  in.iterations[0].kernels[0].gpu = 5;
  EXPECT_EQ(in.validate().error().message,
            "one_chunk: iteration 0 kernel on gpu 5: GPU out of range");
}

TEST(ReplayEngine, MemcpyIsKernelThenIssueLatencyAndWireBytes) {
  ReplayResult r = run(one_chunk(), test_machine(), Mechanism::kMemcpy);
  // 10000 kernel + 500 issue + 1000 latency + 4352 wire bytes at 1 B/ns.
  EXPECT_NEAR(r.end_to_end_ns, 15852, kTol);
  EXPECT_NEAR(r.compute_ns, 10000, kTol);
  EXPECT_NEAR(r.exposed_ns, 5852, kTol);
  EXPECT_NEAR(r.transfer_busy_ns, 5352, kTol);
  EXPECT_DOUBLE_EQ(r.overlap, 0);
  EXPECT_DOUBLE_EQ(r.wire_bytes, 4352);
  EXPECT_DOUBLE_EQ(r.payload_bytes, 4096);
  EXPECT_NEAR(r.link_utilization, 4352 / 15852.0, 1e-9);
}

TEST(ReplayEngine, InfiniteBandwidthIsComputeOnly) {
  ReplayResult r = run(one_chunk(), test_machine(), Mechanism::kInfinite);
  EXPECT_NEAR(r.end_to_end_ns, 10000, kTol);
  EXPECT_NEAR(r.exposed_ns, 0, kTol);
  EXPECT_DOUBLE_EQ(r.wire_bytes, 0);
}

TEST(ReplayEngine, CdpLaunchesChildAtReadyPlusLaunchLatency) {
  Machine m = test_machine();
  m.costs.cdp_launch_ns = 2000;
  ReplayResult r = run(one_chunk(), m, Mechanism::kCdp);
  // 4000 ready + 2000 launch + 1000 latency + 4352.
  EXPECT_NEAR(r.end_to_end_ns, 11352, kTol);
  EXPECT_NEAR(r.transfer_busy_ns, 5352, kTol);
  EXPECT_NEAR(r.overlap, 1 - 1352 / 5352.0, 1e-9);
}

TEST(ReplayEngine, CdpChildrenWaitForTheParentsLastCta) {
  // Chunks 0 and 1 are ready at 1000, but the parent's last CTA starts only
  // at 6000 (chunk 2's first write): no child runs before it, then launches
  // serialize 500 ns apart: children at 6000, 6500 and 7000 (chunk 2 is
  // ready at 6100). Each child copies at 1 B/ns on its own lane, so the
  // last one ends at 7000 + 1000 latency + 272 wire bytes.
  Machine m = test_machine();
  m.costs.cdp_launch_interval_ns = 500;
  m.costs.cdp_copy_bw_bytes_per_s = 1e9;
  ReplayInput in = one_chunk();
  KernelInput& k = in.iterations[0].kernels[0];
  k.duration_ns = 6100;
  k.chunks = {ChunkInput{0, 1000, 256, 1, 4}, ChunkInput{0, 1000, 256, 1, 4},
              ChunkInput{6000, 6100, 256, 1, 4}};
  ReplayResult r = run(in, m, Mechanism::kCdp);
  EXPECT_NEAR(r.end_to_end_ns, 7000 + 1000 + 272, kTol);
}

TEST(ReplayEngine, PollingDilatesComputeAndCapsCopyThroughput) {
  Machine m = test_machine();
  m.costs.polling_sm_share = 0.2;  // kernel x1.25: ready 5000, end 12500
  m.costs.polling_period_ns = 1000;
  m.costs.polling_copy_bw_bytes_per_s = 0.5e9;  // 4096 B payload take 8192 ns
  ReplayResult r = run(one_chunk(), m, Mechanism::kPolling);
  EXPECT_NEAR(r.end_to_end_ns, 5000 + 1000 + 8192, kTol);
}

TEST(ReplayEngine, AgentsSendPacketsOfAgentPacketBytes) {
  // 4096 B in 128-B packets: 32 x (128 + 16) = 4608 wire bytes (full-size
  // 256-B packets would be 4352), for polling and for CDP children alike;
  // a copy engine keeps full-size packets.
  Machine m = test_machine();
  m.costs.agent_packet_bytes = 128;
  ReplayInput in = one_chunk();
  in.iterations[0].kernels[0].duration_ns = 4000;  // the chunk is ready at the kernel's end
  ReplayResult p = run(in, m, Mechanism::kPolling);
  EXPECT_DOUBLE_EQ(p.wire_bytes, 4608);
  EXPECT_NEAR(p.end_to_end_ns, 4000 + 1000 + 4608, kTol);  // + latency + wire bytes at 1 B/ns
  ReplayResult c = run(in, m, Mechanism::kCdp);
  EXPECT_DOUBLE_EQ(c.wire_bytes, 4608);
  EXPECT_DOUBLE_EQ(run(one_chunk(), m, Mechanism::kMemcpy).wire_bytes, 4352);
  // A chunk that is not a whole number of packets: 3 x 144 + (64 + 16).
  ReplayInput odd = one_chunk();
  odd.iterations[0].kernels[0].chunks[0].size_bytes = 448;
  EXPECT_DOUBLE_EQ(run(odd, m, Mechanism::kPolling).wire_bytes, 3 * 144 + 80);
}

// Eight 4096-B chunks, all ready at 0 (chunk i has program index i).
ReplayInput eight_ready_chunks() {
  ReplayInput in = one_chunk();
  KernelInput& k = in.iterations[0].kernels[0];
  k.duration_ns = 1000;
  k.chunks.clear();
  for (uint32_t i = 0; i < 8; ++i) k.chunks.push_back(ChunkInput{0, 0, 4096, 1, 4, i});
  return in;
}

// Workers take one 4096-B slice (one chunk) at a time, at 10 MB/s each: a
// copy keeps a worker busy 409.6 us, far longer than the link needs.
Machine slow_workers(int64_t workers) {
  Machine m = test_machine();
  m.costs.agent_workers = workers;
  m.costs.agent_slice_bytes = 4096;
  m.costs.polling_copy_bw_bytes_per_s = 1e7 * static_cast<double>(workers);
  return m;
}

TEST(ReplayEngine, PollingRateFollowsItsWorkersForUnseenCounts) {
  // Little's law: the agent's rate is workers x one worker's rate, and the
  // static schedule gives worker w chunks w, w + W, ...: the time is the
  // longest worker's chunks x 409.6 us, for any worker count.
  // (+ at most the link latency: the last copy's flight, capped at the
  // agent's rate, may end up to 1 us after its workers are done.)
  const double copy_ns = 4096 / 1e7 * 1e9;
  for (int64_t w : {1, 2, 3, 8, 64}) {
    const double expected = std::ceil(8.0 / static_cast<double>(w)) * copy_ns;
    const double e2e =
        run(eight_ready_chunks(), slow_workers(w), Mechanism::kPolling).end_to_end_ns;
    EXPECT_GE(e2e, expected - kTol) << w << " workers";
    EXPECT_LE(e2e, expected + 1000 + kTol) << w << " workers";
  }
}

TEST(ReplayEngine, PollingWorkersVisitChunksInProgramOrder) {
  // Chunk 0 is ready at 8 us, chunk 1 at 1 us; uncapped workers. With two
  // workers chunk 1 leaves at 1 us (ends 1 + 1 + 4.352 us) and chunk 0 at
  // 8 us: 13.352 us. With one worker chunk 1 waits behind chunk 0, both leave
  // at 8 us and share the link: 8 + 1 + 2 x 4.352 us.
  ReplayInput in = one_chunk();
  KernelInput& k = in.iterations[0].kernels[0];
  k.chunks = {ChunkInput{0, 1000, 4096, 1, 4, 1}, ChunkInput{0, 8000, 4096, 1, 4, 0}};
  Machine m = test_machine();
  m.costs.agent_slice_bytes = 4096;
  m.costs.agent_workers = 2;
  EXPECT_NEAR(run(in, m, Mechanism::kPolling).end_to_end_ns, 8000 + 1000 + 4352, kTol);
  m.costs.agent_workers = 1;
  EXPECT_NEAR(run(in, m, Mechanism::kPolling).end_to_end_ns, 8000 + 1000 + 2 * 4352, kTol);
}

TEST(ReplayEngine, AgentReadsShareTheProducersHbm) {
  // The kernel moves 1000 HBM bytes per output byte: 4.096 MB in 10 us =
  // 409.6 GB/s, memory-bound on a 500 GB/s HBM (attainable 250 GB/s). The
  // polling agent reads the 4096-B chunk: (4.096 MB + 4096 B) at the kernel's
  // rate stretch it by 1.001 (hw_model/hbm_sharing.h). memcpy copies after
  // the kernel: unchanged.
  ReplayInput in = one_chunk();
  in.hbm_bytes_per_output_byte = 1000;
  Machine m = test_machine();
  m.gpu.memory_bw_bytes_per_s = 500e9;
  EXPECT_NEAR(run(in, m, Mechanism::kPolling).end_to_end_ns, 10000 * 1.001, kTol);
  EXPECT_NEAR(run(in, m, Mechanism::kMemcpy).end_to_end_ns,
              run(one_chunk(), m, Mechanism::kMemcpy).end_to_end_ns, kTol);
  // Peers' writes land in the destination's HBM: GPU 1 (no kernel here)
  // is not slowed; inline reads nothing on GPU 0, so nothing changes.
  EXPECT_NEAR(run(in, m, Mechanism::kInline).end_to_end_ns,
              run(one_chunk(), m, Mechanism::kInline).end_to_end_ns, kTol);
  // A trace measured with polling is undone exactly (separate_data_generation).
  const ReplayInput shared = share_hbm(in, Mechanism::kPolling, 2, 500e9);
  EXPECT_NEAR(shared.iterations[0].kernels[0].chunks[0].ready_ns, 4000 * 1.001, kTol);
  EXPECT_NEAR(
      unshare_hbm(shared, Mechanism::kPolling, 2, 500e9).iterations[0].kernels[0].duration_ns,
      10000, kTol);
  // On one GPU the agent has no peer and reads nothing (native proact's agents
  // wait and copy to no peer): the producer is not slowed.
  EXPECT_DOUBLE_EQ(
      share_hbm(in, Mechanism::kPolling, 1, 500e9).iterations[0].kernels[0].duration_ns,
      in.iterations[0].kernels[0].duration_ns);
  EXPECT_DOUBLE_EQ(
      share_hbm(in, Mechanism::kHardware, 1, 500e9).iterations[0].kernels[0].duration_ns,
      in.iterations[0].kernels[0].duration_ns);
}

TEST(ReplayEngine, PollingWaitsForNextPollTick) {
  Machine m = test_machine();
  m.costs.polling_period_ns = 3000;  // ready 4000 seen at 6000
  ReplayResult r = run(one_chunk(), m, Mechanism::kPolling);
  EXPECT_NEAR(r.end_to_end_ns, 6000 + 1000 + 4352, kTol);
}

TEST(ReplayEngine, HardwareCounterUnitThenDmaAgent) {
  Machine m = test_machine();
  m.costs.counter_unit.clock_hz = 1e8;              // 10 ns cycles
  m.costs.counter_unit.updates_per_cycle = 0.1;     // 100 ns service; updates at 1000..4000
  m.costs.counter_unit.update_latency_cycles = 5;   // the last update, served at 4000, done 4050
  m.costs.counter_unit.trigger_latency_cycles = 1;  // trigger 4060
  m.costs.dma_agent.prefetched_descriptors = 0;
  m.costs.dma_agent.descriptor_fetch_ns = 200;
  m.costs.dma_agent.initiation_ns = 400;  // first packet 4660
  ReplayResult r = run(one_chunk(), m, Mechanism::kHardware);
  EXPECT_NEAR(r.end_to_end_ns, 4660 + 1000 + 4352, kTol);
}

TEST(ReplayEngine, HardwareWithoutFanOutInitiatesOneDescriptorPerDestination) {
  Machine m = test_machine(3, Topology::kSwitch);
  m.costs.dma_agent.initiation_ns = 300;
  ReplayResult fan = run(one_chunk(3), m, Mechanism::kHardware);
  m.costs.dma_agent.fan_out = false;
  ReplayResult per_dest = run(one_chunk(3), m, Mechanism::kHardware);
  // Ready 4000; with fan-out both copies start at 4300 and share GPU 0's
  // port (2 x 4352 B at 1 B/ns); without, the second descriptor starts after
  // the first copy's packets are emitted (4300 + 4352) plus another 300 ns.
  // Path latency: 2 x 1000 (GPU - switch - GPU).
  EXPECT_NEAR(fan.end_to_end_ns, 4300 + 2000 + 2 * 4352, kTol);
  EXPECT_NEAR(per_dest.end_to_end_ns, 4300 + 4352 + 300 + 2000 + 4352, kTol);
}

TEST(ReplayEngine, HardwareOutstandingPacketsCapBandwidth) {
  Machine m = test_machine();
  m.costs.dma_agent.outstanding_packets = 2;  // 2 x 272 B per 2 us RTT = 0.272 B/ns
  ReplayResult r = run(one_chunk(), m, Mechanism::kHardware);
  EXPECT_NEAR(r.end_to_end_ns, 4000 + 1000 + 4352 / 0.272, 1e-2);
}

TEST(ReplayEngine, InlineSendsEveryStoreAsItsOwnPacket) {
  ReplayResult r = run(one_chunk(), test_machine(), Mechanism::kInline);
  // 1024 stores of 4 B + 16 B overhead = 20480 wire bytes, from t = 0.
  EXPECT_DOUBLE_EQ(r.wire_bytes, 20480);
  EXPECT_NEAR(r.end_to_end_ns, 1000 + 20480, kTol);
}

TEST(ReplayEngine, InlineStallsKernelWhenLinkBound) {
  ReplayInput in = one_chunk();
  KernelInput& k = in.iterations[0].kernels[0];
  k.chunks.clear();
  // Chunks written at once (first write = ready) every 2 us from 2 us.
  for (int i = 0; i < 5; ++i)
    k.chunks.push_back(ChunkInput{2000.0 * (i + 1), 2000.0 * (i + 1), 4096, 1, 4});
  ReplayResult r = run(in, test_machine(), Mechanism::kInline, /*timeline=*/true);
  // Window: 1 + ceil(bdp / chunk wire) = 1 + ceil(1 B/ns x 2000 ns / 20480) = 2
  // written chunks. Flows start at 2000, 4000, 6000 (bytes 1 us later).
  // Chunk 0 alone 3000-5000 (2000 B), shares with 1 until 7000 (1000 B each),
  // then with 1 and 2 at 1/3: done at 7000 + 3 x 17480 = 59440: chunk 2's
  // check (6000) stalls 53440. Chunk 3 (61440) waits for chunk 1 (1000 B left
  // at 61440, 500 at 62440, then 1/3): done at 63940, stall 2500. Chunk 4
  // (65940) finds chunk 2 done at 65940: kernel end = 10000 + 55940.
  double kernel_end = 0;
  for (const Span& s : r.timeline) {
    if (s.name == "kernel") kernel_end = s.start_ns + s.duration_ns;
  }
  EXPECT_NEAR(kernel_end, 10000 + 53440 + 2500, 1e-2);
  // The link is busy from 3000 on: 5 x 20480 bytes.
  EXPECT_NEAR(r.end_to_end_ns, 3000 + 5 * 20480, 1e-2);
}

TEST(ReplayEngine, InlineStoresSpreadOverTheWritersDoNotStall) {
  // A wave of CTAs writing 4 chunks at once over [0, 10 us]: their stores
  // share the link from the first write (4 x 2000 wire bytes from 1000 on,
  // done at 9000), so nothing is left beyond the window at their ready time.
  ReplayInput in = one_chunk();
  KernelInput& k = in.iterations[0].kernels[0];
  k.chunks.clear();
  for (int i = 0; i < 4; ++i) k.chunks.push_back(ChunkInput{0, 10000, 400, 1, 4});
  ReplayResult r = run(in, test_machine(), Mechanism::kInline, /*timeline=*/true);
  for (const Span& s : r.timeline) EXPECT_NE(s.category, std::string("stall"));
  EXPECT_NEAR(r.end_to_end_ns, 10000, kTol);
}

TEST(ReplayEngine, InlineWindowCoversBandwidthDelayProduct) {
  // Small chunks far below the link rate: posted stores never stall the
  // kernel, however many are in flight (latency 1000 ns, a chunk every 200 ns).
  ReplayInput in = one_chunk();
  KernelInput& k = in.iterations[0].kernels[0];
  k.chunks.clear();
  for (int i = 0; i < 20; ++i) k.chunks.push_back(ChunkInput{200.0 * i, 200.0 * (i + 1), 16, 1, 4});
  ReplayResult r = run(in, test_machine(), Mechanism::kInline, /*timeline=*/true);
  for (const Span& s : r.timeline) EXPECT_NE(s.category, std::string("stall"));
}

TEST(ReplayEngine, PacketRateLimitCapsBandwidth) {
  Machine m = test_machine();
  m.gpu_link.max_packets_per_s = 1e6;  // 16 packets take 16 us
  ReplayResult r = run(one_chunk(), m, Mechanism::kMemcpy);
  EXPECT_NEAR(r.end_to_end_ns, 10500 + 1000 + 16000, kTol);
}

TEST(ReplayEngine, SwitchSharesTheSendersLink) {
  // 4 GPUs on a switch, each replicating GPU 0's kernel to all 3 peers in
  // rotated order (a permutation per issue slot): every link carries 3
  // copies back to back; bytes flow from 12500 (first issue + 2 hops).
  ReplayInput in = replicate_gpus(one_chunk(1), 4);
  ReplayResult r = run(in, test_machine(4, Topology::kSwitch), Mechanism::kMemcpy);
  EXPECT_NEAR(r.end_to_end_ns, 12500 + 3 * 4352, kTol);
  EXPECT_DOUBLE_EQ(r.wire_bytes, 4 * 3 * 4352);
}

TEST(ReplayEngine, StreamedCopiesRunOneAfterAnother) {
  // One stream (proact): GPU 0's three copies follow each other, each
  // latency (2 hops) + bytes; the stream gap delays each later copy.
  Machine m = test_machine(4, Topology::kSwitch);
  m.costs.memcpy_streams = 1;
  EXPECT_NEAR(run(one_chunk(4), m, Mechanism::kMemcpy).end_to_end_ns, 10500 + 3 * (2000 + 4352),
              kTol);
  m.costs.memcpy_stream_gap_ns = 300;
  EXPECT_NEAR(run(one_chunk(4), m, Mechanism::kMemcpy).end_to_end_ns,
              10500 + 3 * (2000 + 4352) + 2 * 300, kTol);
  // Three streams on one engine-rate lane each behave like concurrent copies
  // issued 500 ns apart: the sender's port carries all three.
  m.costs.memcpy_stream_gap_ns = 0;
  m.costs.memcpy_streams = 3;
  m.costs.copy_engines = 3;
  EXPECT_NEAR(run(one_chunk(4), m, Mechanism::kMemcpy).end_to_end_ns, 12500 + 3 * 4352, kTol);
}

TEST(ReplayEngine, StreamedCopiesInPeerOrderMeetAtOneDestination) {
  // Every GPU copies to its peers in ascending order on one stream: three
  // GPUs start with GPU 0 and share its switch port, so the exchange takes
  // longer than the rotated, concurrent order (a permutation per slot).
  ReplayInput in = replicate_gpus(one_chunk(1), 4);
  Machine m = test_machine(4, Topology::kSwitch);
  const double rotated = run(in, m, Mechanism::kMemcpy).end_to_end_ns;
  m.costs.memcpy_streams = 1;
  const double streamed = run(in, m, Mechanism::kMemcpy).end_to_end_ns;
  EXPECT_GT(streamed, rotated + 4352);
}

// Fan-out aggregation (one comm of 3x the bytes per chunk on a 4-GPU switch)
// must give what one comm per destination gives, on a link-bound case where
// two different source timelines (replicated over 4 GPUs) interleave and
// lanes cap the agents. Both paths solve the same max-min problem, so they
// agree to the solver's precision; 1e-6 relative leaves room for rounding.
// Two GPUs' kernels of 12 chunks each over two iterations: uneven sizes and
// ready times; 3 copies of ~4 KiB every ~2.5 us exceed a 1 B/ns port, so
// flows contend once replicated to 4 or more GPUs.
ReplayInput contended_two_gpus() {
  ReplayInput in;
  in.name = "fan_out";
  in.num_gpus = 2;
  for (int it = 0; it < 2; ++it) {
    IterationInput iter{it == 0 ? 0.0 : 300.0, {}};
    for (uint32_t g = 0; g < 2; ++g) {
      KernelInput k;
      k.gpu = g;
      k.begin_ns = 700.0 * g;
      k.duration_ns = 40000 + 3000.0 * g;
      for (uint32_t c = 0; c < 12; ++c) {
        // Uneven sizes and ready times; 3 copies of ~4 KiB every ~2.5 us
        // exceed the 1 B/ns port, so flows contend.
        const double ready = 1500 + c * (2300.0 + 400 * g) + (c % 3) * 250;
        const uint64_t bytes = 2048 + 1024 * ((c + g) % 4);
        k.chunks.push_back(ChunkInput{ready - 1200, ready, bytes, 4, 4});
      }
      iter.kernels.push_back(k);
    }
    in.iterations.push_back(iter);
  }
  return in;
}

// A machine whose agents, children and DMA channels are capped lanes.
Machine contended_switch(uint32_t gpus, Topology topology = Topology::kSwitch) {
  Machine m = test_machine(gpus, topology);
  m.costs.polling_sm_share = 0.1;
  m.costs.polling_period_ns = 300;
  m.costs.polling_copy_bw_bytes_per_s = 2e9;
  m.costs.cdp_launch_ns = 900;
  m.costs.cdp_copy_bw_bytes_per_s = 0.4e9;
  m.costs.dma_agent.channels = 2;
  m.costs.dma_agent.outstanding_packets = 8;
  m.costs.dma_agent.initiation_ns = 200;
  return m;
}

// expect_aggregation_exact: for the mechanisms that fan out, replaying `in`
// with fan-out aggregation gives the times (to rel_tol) and bytes of one comm
// per destination, in fewer activities.
void expect_aggregation_exact(const ReplayInput& in, const Machine& m, bool fold_replicas,
                              double rel_tol) {
  for (Mechanism mech :
       {Mechanism::kInline, Mechanism::kPolling, Mechanism::kCdp, Mechanism::kHardware}) {
    ReplayOptions o{mech, false, true};
    o.fold_replicas = fold_replicas;
    Result<ReplayResult> agg = simulate_isolated(in, m, o);
    o.aggregate_fan_out = false;
    Result<ReplayResult> fine = simulate_isolated(in, m, o);
    ASSERT_TRUE(agg.ok() && fine.ok()) << mechanism_name(mech);
    const double tol = rel_tol * fine->end_to_end_ns;
    EXPECT_NEAR(agg->end_to_end_ns, fine->end_to_end_ns, tol) << mechanism_name(mech);
    EXPECT_NEAR(agg->exposed_ns, fine->exposed_ns, tol) << mechanism_name(mech);
    EXPECT_NEAR(agg->transfer_busy_ns, fine->transfer_busy_ns, tol) << mechanism_name(mech);
    EXPECT_DOUBLE_EQ(agg->wire_bytes, fine->wire_bytes) << mechanism_name(mech);
    EXPECT_DOUBLE_EQ(agg->payload_bytes, fine->payload_bytes) << mechanism_name(mech);
    EXPECT_GT(agg->exposed_ns, 0) << mechanism_name(mech);  // transfers do contend
    EXPECT_LT(agg->activities, fine->activities) << mechanism_name(mech);
  }
}

// expect_same_run: both replays succeed, with as many activities and the same end.
void expect_same_run(const Result<ReplayResult>& a, const Result<ReplayResult>& b) {
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->activities, b->activities);
  EXPECT_DOUBLE_EQ(a->end_to_end_ns, b->end_to_end_ns);
}

TEST(ReplayEngine, AggregatedFanOutMatchesPerDestinationComms) {
  expect_aggregation_exact(replicate_gpus(contended_two_gpus(), 4), contended_switch(4), true,
                           1e-6);
}

// Replica folding: 2 GPUs' kernels replicated to 6 on a switch or a mesh
// (with fan-out aggregation) replay as 2
// GPUs with the same times, bytes, utilization and critical path as when
// all 6 are replayed; memcpy and hardware without fan-out (copies per
// destination, which meet at the destinations' ports) replay every GPU.
TEST(ReplayEngine, FoldedReplicasMatchEveryGpuReplayed) {
  const ReplayInput in = replicate_gpus(contended_two_gpus(), 6);
  auto options = [](Mechanism mech, bool fold) {
    ReplayOptions o{mech, false, true, true};
    o.fold_replicas = fold;
    return o;
  };
  for (Topology topology : {Topology::kSwitch, Topology::kDirect}) {
    SCOPED_TRACE(topology == Topology::kSwitch ? "switch" : "mesh");
    Machine m = contended_switch(6, topology);
    for (Mechanism mech : kAllMechanisms) {
      Result<ReplayResult> folded = simulate_isolated(in, m, options(mech, true));
      Result<ReplayResult> every = simulate_isolated(in, m, options(mech, false));
      ASSERT_TRUE(folded.ok() && every.ok()) << mechanism_name(mech);
      EXPECT_DOUBLE_EQ(folded->end_to_end_ns, every->end_to_end_ns) << mechanism_name(mech);
      EXPECT_DOUBLE_EQ(folded->exposed_ns, every->exposed_ns) << mechanism_name(mech);
      EXPECT_DOUBLE_EQ(folded->transfer_busy_ns, every->transfer_busy_ns) << mechanism_name(mech);
      EXPECT_DOUBLE_EQ(folded->link_utilization, every->link_utilization) << mechanism_name(mech);
      EXPECT_DOUBLE_EQ(folded->wire_bytes, every->wire_bytes) << mechanism_name(mech);
      EXPECT_DOUBLE_EQ(folded->payload_bytes, every->payload_bytes) << mechanism_name(mech);
      for (size_t c = 0; c < kCauseCount; ++c) {
        EXPECT_DOUBLE_EQ(folded->attribution.ns[c], every->attribution.ns[c])
            << mechanism_name(mech) << " cause " << c;
      }
      if (mech == Mechanism::kMemcpy) {
        EXPECT_EQ(folded->activities, every->activities) << mechanism_name(mech);
      } else {
        EXPECT_LT(folded->activities, every->activities) << mechanism_name(mech);
      }
    }
    m.costs.dma_agent.fan_out = false;
    expect_same_run(simulate_isolated(in, m, options(Mechanism::kHardware, true)),
                    simulate_isolated(in, m, options(Mechanism::kHardware, false)));
  }
}

// On a mesh of 4 GPUs a chunk to every peer is one comm through the GPU's
// fan-out link (3 pair links' bandwidth): the same times as one comm per
// pair link, while every transfer fans out; a kernel with a destination
// mask keeps one comm per destination for the whole run.
TEST(ReplayEngine, MeshFanOutMatchesPerDestinationComms) {
  ReplayInput in = replicate_gpus(contended_two_gpus(), 4);
  const Machine m = contended_switch(4, Topology::kDirect);
  expect_aggregation_exact(in, m, false, 1e-9);
  in.iterations[1].kernels[3].dest_mask = 0b0011;  // GPU 3 sends to GPUs 0 and 1 only
  ReplayOptions o{Mechanism::kPolling, false, true};
  o.fold_replicas = false;
  Result<ReplayResult> agg = simulate_isolated(in, m, o);
  o.aggregate_fan_out = false;
  expect_same_run(agg, simulate_isolated(in, m, o));
}

// chunk_ends: per GPU and chunk, when each iteration's copies of the chunk
// have all arrived (the last of its transfer spans in that iteration).
std::map<std::string, std::vector<double>> chunk_ends(const ReplayResult& r, size_t copies) {
  std::map<std::string, std::vector<double>> ends;
  for (const Span& s : r.timeline) {
    if (s.category != "transfer") continue;
    ends[std::to_string(s.gpu) + " " + s.name.substr(0, s.name.find(" ->"))].push_back(
        s.start_ns + s.duration_ns);
  }
  for (auto& [chunk, e] : ends) {
    std::sort(e.begin(), e.end());  // iterations are apart: copies group
    std::vector<double> last;
    for (size_t i = copies - 1; i < e.size(); i += copies) last.push_back(e[i]);
    e = last;
  }
  return ends;
}

// expect_same_replay: an isolated path's replay against the SimGrid comms'
// (`ref`, `ref_copies` comm ends per chunk copy: the fan-out's destinations
// when it keeps one comm per destination): totals within rel_tol of the
// reference's end, bytes equal, transfers contending, and each of the `gpus`
// x 60 chunks' two iteration arrivals within chunk_tol_ns.
void expect_same_replay(const ReplayResult& isolated, const ReplayResult& ref, size_t ref_copies,
                        size_t gpus, double rel_tol, double chunk_tol_ns) {
  const double tol = rel_tol * ref.end_to_end_ns;
  EXPECT_NEAR(isolated.end_to_end_ns, ref.end_to_end_ns, tol);
  EXPECT_NEAR(isolated.exposed_ns, ref.exposed_ns, tol);
  EXPECT_NEAR(isolated.transfer_busy_ns, ref.transfer_busy_ns, tol);
  EXPECT_DOUBLE_EQ(isolated.wire_bytes, ref.wire_bytes);
  EXPECT_DOUBLE_EQ(isolated.payload_bytes, ref.payload_bytes);
  EXPECT_GT(isolated.exposed_ns, 0);  // transfers do contend
  const auto isolated_ends = chunk_ends(isolated, 1);
  const auto ref_ends = chunk_ends(ref, ref_copies);
  ASSERT_EQ(isolated_ends.size(), gpus * 60);
  ASSERT_EQ(ref_ends.size(), isolated_ends.size());
  for (const auto& [chunk, e] : isolated_ends) {
    const std::vector<double>& r = ref_ends.at(chunk);
    ASSERT_EQ(e.size(), 2u) << chunk;
    ASSERT_EQ(r.size(), 2u) << chunk;
    for (size_t i = 0; i < e.size(); ++i) EXPECT_NEAR(e[i], r[i], chunk_tol_ns) << chunk;
  }
}

// contended_with_burst: contended_two_gpus() and 48 more chunks per kernel
// ready close together, so every DMA channel's window fills.
ReplayInput contended_with_burst() {
  ReplayInput two = contended_two_gpus();
  for (IterationInput& it : two.iterations) {
    for (KernelInput& k : it.kernels) {
      for (uint32_t c = 0; c < 48; ++c) {
        const double ready = 32000 + c * (150.0 + 40 * k.gpu);  // after the others
        k.chunks.push_back(ChunkInput{ready - 500, ready, 1024 + 512 * ((c + k.gpu) % 3), 4, 4});
      }
    }
  }
  return two;
}

// DMA channels whose lanes cap at least the port (windows covering the
// bandwidth-delay product, as the sizing rule makes them) share the GPU's
// isolated port as one processor-sharing link (ProcessorSharingLink, several
// channels adding flows): the same times as SimGrid's per-destination comms
// through the lanes, on a switch and on a mesh.
TEST(ReplayEngine, IsolatedDmaChannelsMatchPerDestinationComms) {
  const ReplayInput in = replicate_gpus(contended_with_burst(), 4);
  for (Topology topology : {Topology::kSwitch, Topology::kDirect}) {
    SCOPED_TRACE(topology == Topology::kSwitch ? "switch" : "mesh");
    Machine m = contended_switch(4, topology);
    m.costs.dma_agent.outstanding_packets = 4096;  // lane cap above the port
    // Each channel emits at port rate, so 6 of them fill their windows and
    // wait for a flight while the others add flows.
    m.costs.dma_agent.channels = 6;
    // With the timeline: every chunk's arrival, not only the link's drain
    // (the same for any order of service), is compared.
    Result<ReplayResult> isolated =
        simulate_isolated(in, m, ReplayOptions{Mechanism::kHardware, true, true});
    Result<ReplayResult> fine =
        simulate_isolated(in, m, ReplayOptions{Mechanism::kHardware, true, false});
    ASSERT_TRUE(isolated.ok() && fine.ok());
    // Chunk arrivals agree to SimGrid's 1-ns time precision (the comms'
    // ends) and the bytes rounded once per comm (the aggregated flight).
    expect_same_replay(*isolated, *fine, 3, 4, 1e-6, 1.5);
  }
}

// Where the isolated links apply: at 2 GPUs on a switch or a direct pair
// (whatever the mechanism's fan-out), not on a PCIe tree; above 2 GPUs
// where independent_gpus does.
TEST(ReplayEngine, OwnBottleneckAtTwoGpusAndWhereGpusAreIndependent) {
  const ReplayInput two = contended_two_gpus();
  for (Topology topology : {Topology::kSwitch, Topology::kDirect}) {
    Machine m = contended_switch(2, topology);
    m.costs.dma_agent.fan_out = false;
    EXPECT_TRUE(proact::own_bottleneck(m, two, Mechanism::kInline, false));
    EXPECT_TRUE(proact::own_bottleneck(m, two, Mechanism::kHardware, false));
    EXPECT_FALSE(proact::independent_gpus(m, two, Mechanism::kInline, true));  // unchanged
  }
  EXPECT_FALSE(
      proact::own_bottleneck(test_machine(2, Topology::kPcieTree), two, Mechanism::kInline, false));
  const ReplayInput four = replicate_gpus(two, 4);
  const Machine sw = contended_switch(4);
  EXPECT_TRUE(proact::own_bottleneck(sw, four, Mechanism::kInline, true));
  EXPECT_FALSE(proact::own_bottleneck(sw, four, Mechanism::kInline, false));
  EXPECT_FALSE(proact::own_bottleneck(sw, four, Mechanism::kMemcpy, true));
}

// At 2 GPUs (one peer) each GPU's flows have a bottleneck of their own on a
// switch (its port up, the peer's port down) and on a direct pair (its
// direction of the pair link): inline and hardware flows are computed by
// ProcessorSharingLink, with the times of SimGrid's comms (`--fan-out fine`
// keeps those), every chunk's arrival to SimGrid's 1-ns time precision.
TEST(ReplayEngine, IsolatedLinksAtTwoGpusMatchSimGridComms) {
  const ReplayInput in = contended_with_burst();
  for (Topology topology : {Topology::kSwitch, Topology::kDirect}) {
    SCOPED_TRACE(topology == Topology::kSwitch ? "switch" : "direct pair");
    Machine m = contended_switch(2, topology);
    m.costs.dma_agent.outstanding_packets = 4096;  // lane cap above the port
    m.costs.dma_agent.channels = 6;
    for (Mechanism mech : {Mechanism::kInline, Mechanism::kHardware}) {
      Result<ReplayResult> isolated = simulate_isolated(in, m, ReplayOptions{mech, true, true});
      Result<ReplayResult> comms = simulate_isolated(in, m, ReplayOptions{mech, true, false});
      ASSERT_TRUE(isolated.ok() && comms.ok()) << mechanism_name(mech);
      SCOPED_TRACE(mechanism_name(mech));
      expect_same_replay(*isolated, *comms, 1, 2, 1e-6, 1.5);
    }
  }
}

// Polling at 2 GPUs: every agent group sends from the GPU's one lane, so
// each flow crosses its cap and the GPU's own bottleneck (its port up and
// the peer's down, or its direction of the pair link): ProcessorSharingLink
// at min(cap, port), the groups adding flows to it, gives SimGrid's times
// (`--fan-out fine` keeps its comms) with the cap above the port, below it,
// and without one, every chunk to SimGrid's 1-ns time precision. (While the
// groups slept in SimGrid, their wake-ups on its 1-ns grid put chunks up to
// 15 ns off; on the producer's own clock, run_on_own_clock, none is.)
TEST(ReplayEngine, IsolatedPollingAtTwoGpusMatchesSimGridComms) {
  const ReplayInput in = contended_with_burst();
  for (Topology topology : {Topology::kSwitch, Topology::kDirect}) {
    for (double cap : {2e9, 0.6e9, 0.0}) {
      SCOPED_TRACE(std::string(topology == Topology::kSwitch ? "switch" : "direct pair") + " cap " +
                   std::to_string(cap));
      Machine m = contended_switch(2, topology);
      m.costs.polling_copy_bw_bytes_per_s = cap;
      const Mechanism mech = Mechanism::kPolling;
      Result<ReplayResult> isolated = simulate_isolated(in, m, ReplayOptions{mech, true, true});
      Result<ReplayResult> comms = simulate_isolated(in, m, ReplayOptions{mech, true, false});
      ASSERT_TRUE(isolated.ok() && comms.ok());
      expect_same_replay(*isolated, *comms, 1, 2, 1e-6, 1.5);
    }
  }
}

// Polling above 2 GPUs with fan-out aggregation (4 GPUs on a switch and on
// a mesh): a GPU's agent groups send one flow of 3 copies per item from its
// one lane through its own port (or fan-out link), the one-bottleneck
// system of 2 GPUs; against one comm per destination, the cap above the
// port, below it and none: every chunk to SimGrid's 1-ns time precision, as
// at 2 GPUs (8 ns a chunk while the groups slept in SimGrid).
TEST(ReplayEngine, IsolatedPollingWithFanOutMatchesPerDestinationComms) {
  const ReplayInput in = replicate_gpus(contended_with_burst(), 4);
  for (Topology topology : {Topology::kSwitch, Topology::kDirect}) {
    for (double cap : {8e9, 0.6e9, 0.0}) {
      SCOPED_TRACE(std::string(topology == Topology::kSwitch ? "switch" : "mesh") + " cap " +
                   std::to_string(cap));
      Machine m = contended_switch(4, topology);
      m.costs.polling_copy_bw_bytes_per_s = cap;
      Result<ReplayResult> isolated =
          simulate_isolated(in, m, ReplayOptions{Mechanism::kPolling, true, true});
      Result<ReplayResult> fine =
          simulate_isolated(in, m, ReplayOptions{Mechanism::kPolling, true, false});
      ASSERT_TRUE(isolated.ok() && fine.ok());
      EXPECT_LT(isolated->activities, fine->activities);  // no comms
      expect_same_replay(*isolated, *fine, 3, 4, 1e-6, 1.5);
    }
  }
}

// Polling's agent groups and hardware's DMA channels on an isolated link run
// on their producer's own clock (run_on_own_clock): no SimGrid sleep per
// wait, one per producer and the driver's per iteration (2 iterations of 2
// GPUs), where each group or channel slept at every wait before (thousands
// here); their times are SimGrid comms' (the tests above).
TEST(ReplayEngine, IsolatedAgentsRunOnTheProducersOwnClock) {
  const ReplayInput in = contended_with_burst();
  Machine m = contended_switch(2);
  m.costs.dma_agent.outstanding_packets = 4096;  // lane cap above the port
  m.costs.dma_agent.channels = 6;
  for (Mechanism mech : {Mechanism::kPolling, Mechanism::kHardware}) {
    SCOPED_TRACE(mechanism_name(mech));
    Result<ReplayResult> isolated = simulate_isolated(in, m, ReplayOptions{mech, false, true});
    Result<ReplayResult> comms = simulate_isolated(in, m, ReplayOptions{mech, false, false});
    ASSERT_TRUE(isolated.ok() && comms.ok());
    EXPECT_EQ(isolated->activities, 2u * (2 + 1));
    EXPECT_GT(comms->activities, 100u);
    EXPECT_NEAR(isolated->end_to_end_ns, comms->end_to_end_ns, 1.5);
  }
}

// CDP children where a GPU's flows have a bottleneck of their own: at 2 GPUs
// (one copy per child) and at 4 with fan-out aggregation (one flow of 3
// copies per child; compared with one comm per destination). Child i runs
// on lane i mod lanes, and a lane's cap binds when it carries several
// children: ProcessorSharingLink's capped lanes against SimGrid's max-min,
// with the cap below the port (4 lanes), above it (2 lanes; on the 4-GPU
// mesh's 3-port fan-out link it binds) and none; every grid resident, or 3
// (a child waits for the first running one to end and starts at its end: a
// chain in which an error compounds). Every chunk's arrival agrees to 0.5
// ns, below SimGrid's 1-ns time precision (at most 0.18 ns apart here; at 1
// ps, set by hand in create_engine, 0.01 ns).
TEST(ReplayEngine, IsolatedCdpChildrenMatchSimGridComms) {
  for (uint32_t gpus : {2u, 4u}) {
    const ReplayInput in =
        gpus == 2 ? contended_with_burst() : replicate_gpus(contended_with_burst(), gpus);
    for (Topology topology : {Topology::kSwitch, Topology::kDirect}) {
      for (double cap : {0.4e9, 2e9, 0.0}) {
        // On the 4-GPU mesh this cap binds on the fan-out sink's lanes, where
        // aggregated SimGrid comms already differ from one comm per
        // destination (8 ns of 335 us at the parent commit; the isolated
        // link gives the aggregated comms' times).
        if (gpus > 2 && topology == Topology::kDirect && cap == 2e9) continue;
        for (int64_t resident : {128, 3}) {
          SCOPED_TRACE(std::to_string(gpus) + " GPUs, " +
                       (topology == Topology::kSwitch ? "switch" : "direct") + ", cap " +
                       std::to_string(cap) + ", resident " + std::to_string(resident));
          Machine m = contended_switch(gpus, topology);
          m.costs.cdp_copy_bw_bytes_per_s = cap;
          m.gpu.max_resident_grids = resident;
          Result<ReplayResult> isolated =
              simulate_isolated(in, m, ReplayOptions{Mechanism::kCdp, true, true});
          Result<ReplayResult> comms =
              simulate_isolated(in, m, ReplayOptions{Mechanism::kCdp, true, false});
          ASSERT_TRUE(isolated.ok() && comms.ok());
          if (gpus > 2) {
            EXPECT_LT(isolated->activities, comms->activities);  // one flow a child
          }
          expect_same_replay(*isolated, *comms, gpus - 1, gpus, 1e-9, 0.5);
        }
      }
    }
  }
}

// CDP children beyond the GPU's resident grids wait for a running one: three
// 4096-B chunks ready at 4 us on an uncapped 1 B/ns link with 1 us latency.
// All resident: they share the link and end together at 4000 + 1000 + 3 x
// 4352. One grid at a time: each starts when the previous ends.
TEST(ReplayEngine, CdpChildrenWaitForAResidentGridSlot) {
  ReplayInput in = one_chunk();
  in.iterations[0].kernels[0].chunks.assign(3, ChunkInput{0, 4000, 4096, 4, 4});
  Machine m = test_machine();
  EXPECT_NEAR(run(in, m, Mechanism::kCdp).end_to_end_ns, 4000 + 1000 + 3 * 4352.0, kTol);
  m.gpu.max_resident_grids = 1;
  EXPECT_NEAR(run(in, m, Mechanism::kCdp).end_to_end_ns, 4000 + 3 * (1000 + 4352.0), kTol);
}

// A CDP child holds its grid slot until its last copy ends: on a PCIe tree
// of 3 GPUs GPU 0's copy to GPU 1 (same switch) ends before the one to GPU 2
// (through the root's slower uplinks); with one resident grid the second
// child starts only after both copies of the first.
TEST(ReplayEngine, CdpChildHoldsItsSlotUntilItsLastCopyEnds) {
  ReplayInput in = one_chunk(3);
  in.iterations[0].kernels[0].chunks.assign(2, ChunkInput{0, 4000, 4096, 4, 4});
  Machine m = test_machine(3, Topology::kPcieTree);
  m.gpu.max_resident_grids = 1;
  const ReplayResult r = run(in, m, Mechanism::kCdp, /*timeline=*/true);
  double first_end = 0, second_start = INFINITY, near_end = INFINITY;
  for (const Span& s : r.timeline) {
    if (s.name.rfind("chunk 0 ", 0) == 0) {
      first_end = std::max(first_end, s.start_ns + s.duration_ns);
      near_end = std::min(near_end, s.start_ns + s.duration_ns);
    }
    if (s.name.rfind("chunk 1 ", 0) == 0) second_start = std::min(second_start, s.start_ns);
  }
  EXPECT_LT(near_end, first_end);  // the copies do end apart
  EXPECT_NEAR(second_start, first_end, kTol);
}

TEST(ReplayEngine, SwitchPlatformScalesTo1024Gpus) {
  // 1024 GPUs on a switch (star zone: one route per host), each pushing its
  // chunk to 1023 peers as soon as it is ready (link-bound polling agent):
  // one aggregated comm per GPU, 1023 x 4352 wire bytes through its own port.
  ReplayInput in = replicate_gpus(one_chunk(1), kMaxGpus);
  ReplayResult r = run(in, test_machine(kMaxGpus, Topology::kSwitch), Mechanism::kPolling);
  EXPECT_NEAR(r.end_to_end_ns, 4000 + 2000 + 1023 * 4352.0, kTol);
  EXPECT_DOUBLE_EQ(r.wire_bytes, 1024 * 1023 * 4352.0);
  EXPECT_FALSE(simulate_isolated(replicate_gpus(one_chunk(1), kMaxGpus + 1),
                                 test_machine(kMaxGpus + 1, Topology::kSwitch),
                                 ReplayOptions{Mechanism::kPolling, false})
                   .ok());
}

TEST(ReplayEngine, PcieTreeCrossesRootThroughSlowerUplinks) {
  ReplayInput in = one_chunk(4);
  in.iterations[0].kernels[0].dest_mask = 1u << 2;  // GPU 0 (switch 0) -> GPU 2 (switch 1)
  ReplayResult r = run(in, test_machine(4, Topology::kPcieTree), Mechanism::kMemcpy);
  // latency 2 x 1000 + 2 x 500; bottleneck 0.5 B/ns.
  EXPECT_NEAR(r.end_to_end_ns, 10500 + 3000 + 2 * 4352, kTol);
}

TEST(ReplayEngine, IterationsAreSeparatedByBarriers) {
  ReplayInput in = one_chunk();
  in.iterations.push_back(in.iterations[0]);
  in.iterations[1].gap_before_ns = 700;
  ReplayResult r = run(in, test_machine(), Mechanism::kMemcpy);
  EXPECT_NEAR(r.end_to_end_ns, 2 * 15852 + 700, kTol);
  EXPECT_NEAR(r.compute_ns, 2 * 10000 + 700, kTol);
}

TEST(ReplayEngine, DeterministicAcrossRuns) {
  ReplayInput in = replicate_gpus(one_chunk(1), 8);
  Machine m = test_machine(8, Topology::kSwitch);
  for (Mechanism mech : kAllMechanisms) {
    ReplayResult a = run(in, m, mech, true), b = run(in, m, mech, true);
    EXPECT_EQ(a.end_to_end_ns, b.end_to_end_ns) << mechanism_name(mech);
    ASSERT_EQ(a.timeline.size(), b.timeline.size());
    for (size_t i = 0; i < a.timeline.size(); ++i) {
      EXPECT_EQ(a.timeline[i].start_ns, b.timeline[i].start_ns);
    }
  }
}

TEST(ReplayEngine, RejectsMoreTraceGpusThanPlatform) {
  Result<ReplayResult> r =
      simulate_isolated(one_chunk(4), test_machine(2), ReplayOptions{Mechanism::kMemcpy, false});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--gpus"), std::string::npos);
  EXPECT_EQ(r.error().exit_code(), 2);
}

// ---- Critical-path attribution (xferlab explain) ---------------------------

double cause_ns(const ReplayResult& r, Cause c) {
  return r.attribution.ns[static_cast<size_t>(c)];
}

TEST(Explain, MemcpyPathIsKernelIssueLatencyPayloadHeaders) {
  ReplayResult r = run(one_chunk(), test_machine(), Mechanism::kMemcpy, false, true);
  // 10000 kernel + 500 issue + 1000 latency + 4096 payload + 256 headers at 1 B/ns.
  EXPECT_NEAR(cause_ns(r, Cause::kCompute), 10000, kTol);
  EXPECT_NEAR(cause_ns(r, Cause::kLaunch), 500, kTol);
  EXPECT_NEAR(cause_ns(r, Cause::kLinkLatency), 1000, kTol);
  EXPECT_NEAR(cause_ns(r, Cause::kLinkSerialization), 4096, kTol);
  EXPECT_NEAR(cause_ns(r, Cause::kPacketOverhead), 256, kTol);
  EXPECT_NEAR(r.attribution.sum_ns(), r.end_to_end_ns, kTol);
  // Everything after the kernel is tail.
  EXPECT_NEAR(r.attribution.tail_ns[static_cast<size_t>(Cause::kLaunch)], 500, kTol);
  EXPECT_NEAR(r.attribution.tail_ns[static_cast<size_t>(Cause::kCompute)], 0, kTol);
}

TEST(Explain, HardwareWindowBelowBandwidthDelayIsAWindowStall) {
  Machine m = test_machine();
  m.costs.dma_agent.outstanding_packets = 2;  // 2 x 272 B per 2 us RTT = 0.272 B/ns
  ReplayResult r = run(one_chunk(), m, Mechanism::kHardware, true, true);
  // Trigger at 4000 (ideal counter unit); 1000 latency, 4352 wire bytes at
  // 0.272 B/ns = 16000 ns, of which 4096 + 256 at link rate: ends at 21000.
  EXPECT_NEAR(r.end_to_end_ns, 21000, 1e-3);
  EXPECT_NEAR(cause_ns(r, Cause::kCompute), 4000, 1e-3);
  EXPECT_NEAR(cause_ns(r, Cause::kLinkLatency), 1000, 1e-3);
  EXPECT_NEAR(cause_ns(r, Cause::kLinkSerialization), 4096, 1e-3);
  EXPECT_NEAR(cause_ns(r, Cause::kPacketOverhead), 256, 1e-3);
  EXPECT_NEAR(cause_ns(r, Cause::kWindowStall), 16000 - 4352, 1e-3);
  EXPECT_LT(attribution_error(r), 1e-9);
  // The timeline's critical segments tile [0, e2e].
  double t = 0;
  for (const Attribution::Segment& s : r.attribution.segments) {
    EXPECT_NEAR(s.start_ns, t, 1e-6);
    t = s.end_ns;
  }
  EXPECT_NEAR(t, r.end_to_end_ns, 1e-6);
}

TEST(Explain, SaysWhyHardwareLoses) {
  Machine m = test_machine();
  m.costs.dma_agent.outstanding_packets = 2;
  const ReplayResult hw = run(one_chunk(), m, Mechanism::kHardware, false, true);
  const ReplayResult mc = run(one_chunk(), m, Mechanism::kMemcpy, false, true);
  const std::string why = why_hardware_slower({mc, hw});
  EXPECT_NE(why.find("slower than memcpy"), std::string::npos) << why;
  EXPECT_NE(why.find("window_stall"), std::string::npos) << why;
  m.costs.dma_agent.outstanding_packets = 1 << 20;  // wins: nothing to say
  EXPECT_EQ(why_hardware_slower({mc, run(one_chunk(), m, Mechanism::kHardware, false, true)}), "");
}

TEST(Explain, EveryMechanismSumsToItsTimeOverIterationsAndGpus) {
  ReplayInput in = one_chunk(4);
  in.iterations.push_back(in.iterations.front());
  in.iterations.back().gap_before_ns = 700;
  for (Mechanism mech : kAllMechanisms) {
    for (Topology topo : {Topology::kDirect, Topology::kSwitch, Topology::kPcieTree}) {
      ReplayResult r = run(in, test_machine(4, topo), mech, false, true);
      EXPECT_LT(attribution_error(r), 0.01) << mechanism_name(mech) << " " << topology_name(topo);
      EXPECT_NEAR(cause_ns(r, Cause::kGap), 700, 1e-3) << mechanism_name(mech);
    }
  }
}

// One definition of a switched path's latency: the machine's GPU-to-GPU path
// (and so the SimGrid route and the DMA window's round trip) is hw_model's
// (two links and the switch), as are the sizes `platform show` derives.
// The links a route crosses sum to the path: SimGrid's ports and uplinks and
// the task graph's links are the Machine's port latencies (by hand: a switch
// path of 2 hops is 3 links + 2 switches; a PCIe pair across switches is 2
// GPU links, 2 uplinks and 2 switches).
TEST(Machine, RouteLinksSumToThePath) {
  Machine sw = test_machine(4, Topology::kSwitch);
  sw.switch_hops = 2;
  sw.switch_latency_ns = 200;
  EXPECT_DOUBLE_EQ(sw.path_latency_ns(0, 3), 3 * 1000 + 2 * 200);
  EXPECT_DOUBLE_EQ(2 * sw.gpu_port_latency_ns(), sw.path_latency_ns(0, 3));
  Machine tree = test_machine(4, Topology::kPcieTree);
  tree.switch_latency_ns = 200;
  EXPECT_DOUBLE_EQ(tree.path_latency_ns(0, 1), 2 * 1000 + 200);
  EXPECT_DOUBLE_EQ(tree.path_latency_ns(0, 2), 2 * 1000 + 2 * 500 + 2 * 200);
  EXPECT_DOUBLE_EQ(2 * tree.gpu_port_latency_ns() + 2 * tree.uplink_latency_ns(),
                   tree.path_latency_ns(0, 2));
  // The farthest pair is the largest over all pairs, on every topology and size.
  for (Topology topo : {Topology::kDirect, Topology::kSwitch, Topology::kPcieTree}) {
    for (uint32_t n : {1u, 2u, 3u, 5u}) {
      Machine m = test_machine(n, topo);
      m.switch_latency_ns = 200;
      double farthest = 0;
      for (uint32_t a = 0; a < n; ++a)
        for (uint32_t b = 0; b < n; ++b)
          if (a != b) farthest = std::max(farthest, m.path_latency_ns(a, b));
      EXPECT_DOUBLE_EQ(m.farthest_path_latency_ns(), farthest) << topology_name(topo) << " " << n;
    }
  }
}

TEST(Machine, SwitchPathLatencyIsHwModels) {
  for (const char* preset : {"h200x4_hgx_nvswitch", "dgx2_v100_nvswitch"}) {
    Result<hw_model::Platform> p = hw_model::load_platform(preset);
    ASSERT_TRUE(p.ok()) << p.error().message;
    hw_model::HardwareSizing sizing;
    Result<Machine> m = load_machine(preset, {}, 0, hw_model::SizingRegion{}, &sizing);
    ASSERT_TRUE(m.ok()) << m.error().message;
    const double one_way = hw_model::LinkModel::create(p->gpu_link)->one_way_latency_ns();
    EXPECT_DOUBLE_EQ(m->path_latency_ns(0, 1), one_way) << preset;
    EXPECT_DOUBLE_EQ(one_way, 2 * p->gpu_link.latency_ns + p->gpu_link.switch_latency_ns);
    EXPECT_DOUBLE_EQ(sizing.path.round_trip_ns, 2 * one_way) << preset;
  }
}

}  // namespace
}  // namespace xferlab::sim
