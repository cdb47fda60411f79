// sim/proact_graph_test.cc — the task-graph core's PROACT mapping: the graph
// of a tiny trace (task counts, dependencies, pinned times, computed without
// SimGrid) and, for every mechanism and topology, the same end-to-end time
// as the actor core on small synthetic traces.
#include "sim/proact_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/proact_mechanism.h"
#include "sim/test_machine.h"

namespace xferlab::sim {
namespace {

// A machine with every mechanism's limits in play: 1 GB/s links (1 byte/ns),
// 1 us latency, 256-B packets with 16 B overhead; capped copy engines,
// agents and CDP children (source lanes), two DMA channels with a window.
Machine machine(uint32_t gpus, Topology topology, int64_t memcpy_streams = 0) {
  Machine m = hand_computed_machine("graph_test", gpus, topology);
  m.gpus_per_pcie_switch = 2;
  m.switch_latency_ns = 200;
  MechanismCosts& c = m.costs;
  c.memcpy_issue_ns = 500;
  c.copy_engine_bw_bytes_per_s = 0.7e9;
  c.copy_engines = 2;
  c.memcpy_streams = memcpy_streams;
  c.memcpy_stream_gap_ns = 300;
  c.agent_packet_bytes = 128;
  c.polling_sm_share = 0.1;
  c.polling_period_ns = 250;
  c.polling_copy_bw_bytes_per_s = 0.6e9;
  c.agent_workers = 4;
  c.agent_slice_bytes = 1024;
  c.cdp_launch_ns = 2000;
  c.cdp_launch_interval_ns = 400;
  c.cdp_copy_bw_bytes_per_s = 0.4e9;
  // CDP children wait for a free slot. The actors take the first to end,
  // the graph the oldest: the same child on a mesh or switch (one path,
  // equal chunks), not on a PCIe tree (peers at different distances).
  if (topology != Topology::kPcieTree) m.gpu.max_resident_grids = 4;
  c.counter_unit.clock_hz = 1e9;
  c.counter_unit.update_latency_cycles = 20;
  c.counter_unit.trigger_latency_cycles = 10;
  c.counter_unit.capacity_counters = 8;
  c.dma_agent.channels = 2;
  c.dma_agent.outstanding_packets = 16;
  c.dma_agent.prefetched_descriptors = 4;
  c.dma_agent.initiation_ns = 100;
  return m;
}

// Two iterations; every GPU's kernel produces `chunks` chunks of 4 KiB,
// written by 4 CTAs, ready every 1.5 us (jittered), in a program order that
// is not the ready order.
ReplayInput synthetic(uint32_t gpus, uint32_t chunks) {
  ReplayInput in;
  in.name = "synthetic";
  in.num_gpus = gpus;
  for (int it = 0; it < 2; ++it) {
    IterationInput iteration{it == 0 ? 0.0 : 3000.0, {}};
    for (uint32_t g = 0; g < gpus; ++g) {
      KernelInput k;
      k.gpu = g;
      k.begin_ns = 200.0 * g;
      for (uint32_t i = 0; i < chunks; ++i) {
        const double ready = 1500.0 * (i + 1) + 300.0 * ((i * 7 + g) % 3);
        ChunkInput ch{ready - 1200, ready, 4096, 4, 4, (i * 5 + 3) % chunks};
        k.chunks.push_back(ch);
      }
      k.duration_ns = k.chunks.back().ready_ns + 2000;
      iteration.kernels.push_back(k);
    }
    in.iterations.push_back(iteration);
  }
  return in;
}

ReplayResult run(const ReplayInput& in, const Machine& m, Mechanism mech, ReplayCore core,
                 bool explain = false) {
  ReplayOptions o{mech};
  o.core = core;
  o.explain = explain;
  o.record_timeline = explain;  // keeps the critical path's segments
  Result<ReplayResult> r = simulate_isolated(in, m, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : ReplayResult{};
}

// static_end_ns: each task's end if transfers took no time (a longest path
// over the plain-data graph, no SimGrid): when each pinned time falls.
std::vector<double> static_end_ns(const TaskGraph& g) {
  const size_t n = g.tasks().size();
  std::vector<double> start(n, 0), end(n, 0);
  std::vector<std::vector<uint32_t>> succ(n);
  std::vector<uint32_t> waiting(n, 0), order;
  for (const auto& [p, t] : g.edges()) succ[p].push_back(t), ++waiting[t];
  for (uint32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) order.push_back(i);
  }
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t i = order[k];
    const Task& t = g.tasks()[i];
    end[i] = start[i] + (t.kind == TaskKind::kTransfer ? 0 : t.amount);
    for (uint32_t s : succ[i]) {
      start[s] = std::max(start[s], end[i]);
      if (--waiting[s] == 0) order.push_back(s);
    }
  }
  EXPECT_EQ(order.size(), n);
  return end;
}

std::vector<uint32_t> predecessors(const TaskGraph& g, uint32_t task) {
  std::vector<uint32_t> out;
  for (const auto& [p, t] : g.edges()) {
    if (t == task) out.push_back(p);
  }
  return out;
}

TEST(ProactGraph, CdpGraphOfATinyTrace) {
  ReplayInput in;
  in.name = "tiny";
  in.num_gpus = 2;
  KernelInput k;
  k.duration_ns = 10000;
  k.chunks = {ChunkInput{0, 3000, 4096, 4, 4, 0}, ChunkInput{1000, 5000, 4096, 4, 4, 1}};
  in.iterations.push_back(IterationInput{0, {k}});
  const Machine m = machine(2, Topology::kDirect);
  Result<ProactGraph> g = build_proact_graph(in, m, ReplayOptions{Mechanism::kCdp});
  ASSERT_TRUE(g.ok()) << g.error().message;
  const TaskGraph& t = g->graph;
  // Iteration start, 3 pins (2 child starts, the kernel's end) each a join
  // behind one chain delay, each child's start (a join: launch time, the
  // previous child, a free grid slot), the barrier; one transfer per chunk.
  EXPECT_EQ(t.tasks().size(), 1u + 3 * 2 + 2 + 1 + 2);
  ASSERT_EQ(g->transfers.size(), 2u);
  EXPECT_EQ(g->iteration_end.size(), 1u);
  // Each child transfer waits on exactly one task, ending at its launch.
  const std::vector<double> starts = proact::cdp_child_starts(m.costs, k, 0);
  EXPECT_DOUBLE_EQ(starts[0], 3000 + 2000);  // ready + launch latency
  EXPECT_DOUBLE_EQ(starts[1], 5000 + 2000);
  const std::vector<double> end = static_end_ns(t);
  for (uint32_t i = 0; i < 2; ++i) {
    const uint32_t x = g->transfers[i].task;
    const std::vector<uint32_t> p = predecessors(t, x);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_DOUBLE_EQ(end[p[0]], starts[i]);
    EXPECT_EQ(t.tasks()[x].kind, TaskKind::kTransfer);
    EXPECT_EQ(t.routes()[t.tasks()[x].where].dst, 1u);
  }
  // The barrier waits for both transfers and the kernel's end.
  const std::vector<uint32_t> barrier = predecessors(t, g->iteration_end[0]);
  for (const ProactGraph::Transfer& x : g->transfers) {
    EXPECT_NE(std::find(barrier.begin(), barrier.end(), x.task), barrier.end());
  }
  EXPECT_DOUBLE_EQ(end[g->iteration_end[0]], 10000);
  // CDP children copy on capped lanes: the route starts with a lane's cap.
  const GraphRoute& r = t.routes()[t.tasks()[g->transfers[0].task].where];
  EXPECT_EQ(r.links.size(), 2u);
  EXPECT_NE(t.links()[r.links[0]].name.find("_cap"), std::string::npos);
}

TEST(ProactGraph, InlineWindowWaitsAreDependencies) {
  // 16 chunks on a slow link: the kernel chain must wait on undelivered
  // chunks once the window is full, i.e. on transfer tasks.
  const ReplayInput in = synthetic(2, 16);
  const Machine m = machine(2, Topology::kDirect);
  Result<ProactGraph> g = build_proact_graph(in, m, ReplayOptions{Mechanism::kInline});
  ASSERT_TRUE(g.ok()) << g.error().message;
  const TaskGraph& t = g->graph;
  size_t waits_on_transfer = 0;
  for (const auto& [p, x] : t.edges()) {
    if (t.tasks()[p].kind == TaskKind::kTransfer && x != g->iteration_end[0] &&
        x != g->iteration_end[1]) {
      ++waits_on_transfer;
    }
  }
  EXPECT_GT(waits_on_transfer, 0u);
  EXPECT_EQ(g->transfers.size(), 2u * 2 * 16);  // iterations x GPUs x chunks, one peer each
  EXPECT_TRUE(t.validate().ok());
}

// reaches: whether task `to` depends, directly or not, on task `from`.
bool reaches(const TaskGraph& g, uint32_t from, uint32_t to) {
  std::vector<std::vector<uint32_t>> succ(g.tasks().size());
  for (const auto& [p, t] : g.edges()) succ[p].push_back(t);
  std::vector<uint32_t> stack{from};
  std::vector<bool> seen(g.tasks().size(), false);
  while (!stack.empty()) {
    const uint32_t i = stack.back();
    stack.pop_back();
    if (i == to) return true;
    for (uint32_t s : succ[i]) {
      if (!seen[s]) seen[s] = true, stack.push_back(s);
    }
  }
  return false;
}

TEST(ProactGraph, StreamedCopiesWaitForTheirStreamsPreviousCopy) {
  // 4 GPUs, 2 streams: GPU 0's copies to peers 1, 2, 3 go to streams 0, 1,
  // 0; the third waits for the first (same stream), not for the second.
  ReplayInput in = synthetic(4, 2);
  in.iterations.resize(1);
  in.iterations[0].kernels.resize(1);
  const Machine m = machine(4, Topology::kSwitch, 2);
  Result<ProactGraph> g = build_proact_graph(in, m, ReplayOptions{Mechanism::kMemcpy});
  ASSERT_TRUE(g.ok()) << g.error().message;
  ASSERT_EQ(g->transfers.size(), 3u);
  const uint32_t t0 = g->transfers[0].task, t1 = g->transfers[1].task, t2 = g->transfers[2].task;
  EXPECT_EQ(g->transfers[0].dst, 1u);
  EXPECT_EQ(g->transfers[2].dst, 3u);
  EXPECT_TRUE(reaches(g->graph, t0, t2));
  EXPECT_FALSE(reaches(g->graph, t1, t2));
  EXPECT_FALSE(reaches(g->graph, t0, t1));
}

TEST(ProactGraph, PollingVisitsItemsOfAGroupInProgramOrder) {
  const ReplayInput in = synthetic(2, 8);
  const Machine m = machine(2, Topology::kDirect);
  Result<ProactGraph> g = build_proact_graph(in, m, ReplayOptions{Mechanism::kPolling});
  ASSERT_TRUE(g.ok()) << g.error().message;
  // One transfer per group item and destination.
  const proact::PollingPlan plan = proact::polling_plan(m, in.iterations[0].kernels[0]);
  size_t items = 0;
  for (const hw_model::AgentGroup& group : plan.groups) items += group.items.size();
  EXPECT_EQ(g->transfers.size(), 2u * 2 * items);
}

// The two cores replay the same model: the end-to-end time agrees for every
// mechanism on a mesh, a switch and a PCIe tree.
void expect_cores_agree(const ReplayInput& in, const Machine& m, const std::string& where) {
  for (Mechanism mech : kAllMechanisms) {
    const ReplayResult a = run(in, m, mech, ReplayCore::kActors);
    const ReplayResult g = run(in, m, mech, ReplayCore::kGraph);
    ASSERT_GT(a.end_to_end_ns, 0) << where;
    EXPECT_NEAR(g.end_to_end_ns, a.end_to_end_ns, 0.005 * a.end_to_end_ns)
        << where << " " << mechanism_name(mech);
    EXPECT_NEAR(g.payload_bytes, a.payload_bytes, 1e-9 * a.payload_bytes + 1e-9)
        << where << " " << mechanism_name(mech);
    EXPECT_NEAR(g.wire_bytes, a.wire_bytes, 1e-9 * a.wire_bytes + 1e-9)
        << where << " " << mechanism_name(mech);
    EXPECT_NEAR(g.compute_ns, a.compute_ns, 1e-9 * a.compute_ns)
        << where << " " << mechanism_name(mech);
  }
}

TEST(ProactGraph, AgreesWithActorsOnAMesh) {
  expect_cores_agree(synthetic(2, 24), machine(2, Topology::kDirect), "2 GPUs direct");
}

TEST(ProactGraph, AgreesWithActorsOnASwitch) {
  expect_cores_agree(synthetic(4, 12), machine(4, Topology::kSwitch), "4 GPUs switch");
}

TEST(ProactGraph, AgreesWithActorsOnAPcieTreeWithStreamedCopies) {
  expect_cores_agree(synthetic(4, 12), machine(4, Topology::kPcieTree, 2), "4 GPUs PCIe");
}

// causes: the critical path's causes in time order, consecutive repeats
// and intervals under 1 ps dropped.
std::vector<std::string> causes(const Attribution& a) {
  std::vector<std::string> out;
  for (const Attribution::Segment& s : a.segments) {
    if (s.end_ns - s.start_ns < 1e-3) continue;
    if (out.empty() || out.back() != cause_name(s.cause)) out.push_back(cause_name(s.cause));
  }
  return out;
}

// The graph core's critical path (explain) is the actors': the same total,
// the same causes in the same order and, with `per_cause`, the same time per
// cause. Where GPUs end at the same time, the barrier's path may go through
// either: the actors take the one SimGrid ran first, the graph the first in
// kernel order (a path of the same length and causes through another GPU).
void expect_same_critical_path(const ReplayInput& in, const Machine& m, const std::string& where,
                               bool per_cause = true) {
  for (Mechanism mech : kAllMechanisms) {
    const std::string what = where + " " + mechanism_name(mech);
    const Attribution a = run(in, m, mech, ReplayCore::kActors, true).attribution;
    const Attribution g = run(in, m, mech, ReplayCore::kGraph, true).attribution;
    ASSERT_GT(a.total_ns, 0) << what;
    EXPECT_NEAR(g.total_ns, a.total_ns, 1e-6 * a.total_ns) << what;
    EXPECT_NEAR(g.sum_ns(), g.total_ns, 1e-6 * g.total_ns) << what;
    EXPECT_EQ(causes(g), causes(a)) << what;
    for (size_t c = 0; per_cause && c < kCauseCount; ++c) {
      EXPECT_NEAR(g.ns[c], a.ns[c], 1e-6 * a.total_ns) << what << " " << cause_name(Cause(c));
      EXPECT_NEAR(g.tail_ns[c], a.tail_ns[c], 1e-6 * a.total_ns)
          << what << " " << cause_name(Cause(c));
    }
  }
}

TEST(ProactGraph, CriticalPathIsTheActorsOnAMesh) {
  expect_same_critical_path(synthetic(2, 24), machine(2, Topology::kDirect), "2 GPUs direct");
}

TEST(ProactGraph, CriticalPathIsTheActorsOnASwitch) {
  // Inline: every GPU's last flight ends at the same time (GPU 3's path in
  // the actors, GPU 2's in the graph: 1 us more compute, 1 us less link).
  expect_same_critical_path(synthetic(4, 12), machine(4, Topology::kSwitch), "4 GPUs switch",
                            false);
}

TEST(ProactGraph, CriticalPathIsTheActorsOnAPcieTreeWithStreamedCopies) {
  expect_same_critical_path(synthetic(4, 12), machine(4, Topology::kPcieTree, 2), "4 GPUs PCIe");
}

}  // namespace
}  // namespace xferlab::sim
