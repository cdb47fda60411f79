// sim/halo_model_test.cc — halo geometry, trace reduction and replay on a
// synthetic 2-rank host-driven exchange with known timings.
#include "sim/halo_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hw_model/mpi_progress.h"
#include "traces/event.h"
#include "traces/writer.h"

namespace xferlab::sim {
namespace {

using traces::Event;
using traces::EventKind;

// expect_switch: an opt-in switch's reader: unset, `unset`; each choice's
// name, its value; anything else an error naming the variable, the value
// and the choices ("VAR='x' is not " + names).
template <typename T>
void expect_switch(const char* var, Result<T> (*read)(), T unset,
                   const std::vector<std::pair<const char*, T>>& choices,
                   const std::string& names) {
  ASSERT_EQ(unsetenv(var), 0);
  ASSERT_TRUE(read().ok()) << var;
  EXPECT_EQ(*read(), unset) << var;
  for (const auto& [name, value] : choices) {
    ASSERT_EQ(setenv(var, name, 1), 0);
    ASSERT_TRUE(read().ok()) << var << "=" << name;
    EXPECT_EQ(*read(), value) << var << "=" << name;
  }
  for (const char* bad : {"", "2", "Other", "bytes "}) {
    ASSERT_EQ(setenv(var, bad, 1), 0);
    Result<T> r = read();
    ASSERT_FALSE(r.ok()) << var << "=" << bad;
    EXPECT_EQ(r.error().message, std::string(var) + "='" + bad + "' is not " + names);
  }
  ASSERT_EQ(unsetenv(var), 0);
}

TEST(HaloGeometry, PaperMessageSizesAndSplits) {
  // Elis et al. Table 2: 200^3 over 64 ranks (4x4x4): face 60000, edge 1200, vertex 24 B.
  Result<HaloGeometry> g = split_cube(200, 64, 3, 27);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->procs, (std::array<int, 3>{4, 4, 4}));
  std::map<int, std::set<double>> by_kind;
  const std::vector<GeoMessage> m = messages_of(*g, 5);
  EXPECT_EQ(m.size(), 26u);
  for (const GeoMessage& x : m) by_kind[x.kind].insert(x.bytes);
  EXPECT_EQ(by_kind[1], std::set<double>{60000});
  EXPECT_EQ(by_kind[2], std::set<double>{1200});
  EXPECT_EQ(by_kind[3], std::set<double>{24});
  // 800^3 over 1024 ranks: 16x8x8, blocks 50x100x100.
  Result<HaloGeometry> big = split_cube(800, 1024, 3, 27);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->procs, (std::array<int, 3>{16, 8, 8}));
  EXPECT_EQ(big->per_rank, (std::array<int, 3>{50, 100, 100}));
  // Faces only (HPGMG-like boxes): 6 messages; a neighbour's neighbour is us.
  HaloGeometry box;
  box.procs = {2, 1, 1};
  box.per_rank = {16, 16, 16};
  box.vars = 1;
  box.pattern = 7;
  const std::vector<GeoMessage> f = messages_of(box, 0);
  ASSERT_EQ(f.size(), 6u);
  for (const GeoMessage& x : f) EXPECT_EQ(x.bytes, 16 * 16 * 8);
  EXPECT_FALSE(split_cube(200, 1 << 20, 3, 27).ok());
}

// The machine calibration of the on-node MPI step (preset [mpi_node]):
// added when a trace of <= 2 ranks is replayed with > 2 ranks on a node,
// at the rank's rendezvous payload; never at 2 ranks per node, never to a
// trace that already ran > 2 ranks on its node, never without calibration.
TEST(HaloModel, NodeStepOnlyFromTwoRankTracesToMoreRanksPerNode) {
  HaloGeometry g;  // box 64^3 at 2x2x1: 4 faces of 32 KiB to other ranks
  g.procs = {2, 2, 1};
  g.per_rank = {64, 64, 64};
  g.vars = 1;
  g.pattern = 7;
  EXPECT_DOUBLE_EQ(rendezvous_payload_bytes_per_rank(g), 4 * (32768.0 - kEagerLimitBytes));
  HaloNetwork net;
  net.ranks_per_node = 4;
  EXPECT_EQ(node_step_ns(g, net, 2), 0);  // no calibration: as before
  net.mpi_node.step_at_1mib_ns = 20000;
  net.mpi_node.step_per_doubling_ns = 2000;
  const double p = rendezvous_payload_bytes_per_rank(g);
  EXPECT_DOUBLE_EQ(node_step_ns(g, net, 2), 20000 + 2000 * std::log2(p / (1024.0 * 1024.0)));
  EXPECT_GT(node_step_ns(g, net, 2), 0);
  EXPECT_EQ(node_step_ns(g, net, 4), 0);  // a 4-rank trace holds it already
  net.ranks_per_node = 2;
  EXPECT_EQ(node_step_ns(g, net, 2), 0);  // 2 ranks per node: never
  net.ranks_per_node = 4;
  g.per_rank = {16, 16, 16};  // 2 KiB faces: every message eager, P = 0
  EXPECT_EQ(node_step_ns(g, net, 2), 0);
}

// Across nodes P is the payload to rank 0's own node only: at 2x2x2 with 4
// ranks per node the z faces go to the other node (the NIC's), so P is the
// 2x2x1 plane's, as on the one-node runs the step was fitted on.
TEST(HaloModel, NodeStepCountsTheOnNodePayloadOnly) {
  HaloGeometry g;
  g.procs = {2, 2, 2};
  g.per_rank = {64, 64, 64};
  g.vars = 1;
  g.pattern = 7;
  const double face = 32768.0 - kEagerLimitBytes;
  EXPECT_DOUBLE_EQ(rendezvous_payload_bytes_per_rank(g), 6 * face);
  EXPECT_DOUBLE_EQ(on_node_rendezvous_payload_bytes(g, 4), 4 * face);
  EXPECT_DOUBLE_EQ(on_node_rendezvous_payload_bytes(g, 8), 6 * face);
  HaloNetwork net;
  net.ranks_per_node = 4;
  net.mpi_node.step_at_1mib_ns = 20000;
  net.mpi_node.step_per_doubling_ns = 2000;
  EXPECT_DOUBLE_EQ(node_step_ns(g, net, 2), 20000 + 2000 * std::log2(4 * face / (1024.0 * 1024.0)));
}

// The MPI latency steps at the eager limit (box 16^3 -> 24^3, run 4), so a
// held-out size must not be interpolated across it when a fitted size on its
// side can be had, and a held-out size must remain.
TEST(HaloModel, FittedSizesTakeTheFirstRendezvousSizeAndKeepAHeldOutOne) {
  auto box = [](int n) {
    HaloGeometry g;
    g.procs = {2, 1, 1};
    g.per_rank = {n, n, n};
    g.vars = 1;
    g.pattern = 7;
    return g;
  };
  EXPECT_EQ(rendezvous_kinds(box(16)), 0);  // 2048 B faces: eager
  EXPECT_EQ(rendezvous_kinds(box(22)), 0);  // 3872 B
  EXPECT_EQ(rendezvous_kinds(box(23)), 1);  // 4232 B > 4096 B
  EXPECT_EQ(rendezvous_kinds(box(64)), 1);
  // Paper cubes at 2 ranks: faces always rendezvous; 800^3's 4800 B edges too.
  auto cube = [](int n) {
    HaloGeometry g;
    g.procs = {2, 1, 1};
    g.per_rank = {n, n, n};
    return g;
  };
  EXPECT_EQ(rendezvous_kinds(cube(50)), 1);
  EXPECT_EQ(rendezvous_kinds(cube(100)), 1);
  EXPECT_EQ(rendezvous_kinds(cube(200)), 3);
  // A rank's messages to itself never count (1 rank: all self).
  HaloGeometry alone = box(64);
  alone.procs = {1, 1, 1};
  EXPECT_EQ(rendezvous_kinds(alone), 0);

  using V = std::vector<bool>;
  // Boxes 16/24/32/64 (run 4): 24 fitted, 32 held out between 24 and 64.
  const V four = fitted_in_family({0, 1, 1, 1});
  EXPECT_EQ(four, (V{true, true, false, true}));
  EXPECT_EQ(fitted_bracket(four, 2), (std::pair<size_t, size_t>{1, 3}));
  EXPECT_EQ(fitted_bracket(four, 1), (std::pair<size_t, size_t>{1, 1}));
  // Boxes 16/32/64 (runs 1, 2, 4 ranks): 32 stays held out (nothing else would be).
  const V three = fitted_in_family({0, 1, 1});
  EXPECT_EQ(three, (V{true, false, true}));
  EXPECT_EQ(fitted_bracket(three, 1), (std::pair<size_t, size_t>{0, 2}));
  // Paper cubes 200/400/800: the ends, as before.
  EXPECT_EQ(fitted_in_family({1, 1, 3}), (V{true, false, true}));
  EXPECT_EQ(fitted_in_family({5}), (V{true}));
  EXPECT_EQ(fitted_in_family({}), V{});
}

// The residual search: a smooth f converges; an f that steps up past its
// root (run 10 stream 200^3, 2x H100: -2.4 us at a 0.68 us residual, +51 us
// at 3.1 us) ends on the near side, never worse than no residual at all (the
// plain secant it replaced oscillated across the step and returned +51 us).
TEST(HaloModel, ResidualSearchConvergesAndNeverEndsWorseThanZero) {
  int calls = 0;
  auto linear = [&](double x) -> Result<double> {
    ++calls;
    return 2 * x - 1000;
  };
  Result<ResidualSearch> s = search_residual(linear, -1000, 10, 0.5, 12);
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(s->x, 500, 0.25);
  EXPECT_EQ(s->evaluations, calls);
  EXPECT_LE(calls, 12);

  auto step = [](double x) -> Result<double> { return x < 1000 ? x - 3000 : x + 50000; };
  s = search_residual(step, -3000, 3000, 1, 12);
  ASSERT_TRUE(s.ok());
  EXPECT_LT(s->x, 1000);
  EXPECT_LT(s->f, 0);
  EXPECT_GT(s->f, -2100);  // approaches the step from below
  EXPECT_EQ(s->evaluations, 12);

  // Flat at first (a residual hidden under another wait), then rising.
  auto flat = [](double x) -> Result<double> { return x < 5000 ? -800.0 : (x - 5000) - 800; };
  s = search_residual(flat, -800, 100, 1, 12);
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(s->x, 5800, 2);

  // Already slower (or equal): nothing to search.
  s = search_residual(linear, 0, 10, 1, 12);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->x, 0);
  EXPECT_EQ(s->evaluations, 0);

  auto failing = [](double) -> Result<double> { return make_runtime_error("replay failed"); };
  EXPECT_FALSE(search_residual(failing, -10, 1, 0.1, 12).ok());
}

TEST(HaloModel, KModelGrowsWithSizeAndOffNodeShare) {
  Result<HaloGeometry> s = split_cube(200, 64, 3, 27), l = split_cube(800, 64, 3, 27);
  ASSERT_TRUE(s.ok() && l.ok());
  const double small = kmodel_iteration_ns(*s, 4, 0), large = kmodel_iteration_ns(*l, 4, 0);
  // SP(24 B) + LUP(60000 B) alone are 1.75 + 12.00 us (Table 3).
  EXPECT_GT(small, (1.75 + 12.0) * 1e3);
  EXPECT_GT(large, small);
  // All ranks on one node: no inter-node term, faster.
  EXPECT_LT(kmodel_iteration_ns(*s, 64, 0), small);
}

TEST(HaloModel, SizeTablesAndPerMessageComponents) {
  SizeTable t = table_by_size({{24, 100}, {24, 300}, {24, 200}, {1200, 500}, {60000, 3500}});
  ASSERT_EQ(t.points.size(), 3u);
  EXPECT_DOUBLE_EQ(t.at(24), 200);                                      // median at a measured size
  EXPECT_DOUBLE_EQ(t.at(30600), 500 + 0.5 * 3000);                      // linear between two
  EXPECT_DOUBLE_EQ(t.at(118800), 3500 + 3000);                          // last segment extended
  EXPECT_DOUBLE_EQ(t.at(0), 200 - 24 * 300.0 / 1176);                   // first segment extended
  EXPECT_DOUBLE_EQ((SizeTable{{{1000, 100}, {2000, 1100}}}.at(0)), 0);  // clamped at 0
  const SizeTable m = merge_tables(t, SizeTable{{{24, 400}, {4800, 900}}});
  ASSERT_EQ(m.points.size(), 4u);
  EXPECT_DOUBLE_EQ(m.at(24), 300);  // a size in both: the mean
  EXPECT_DOUBLE_EQ(m.at(4800), 900);
  EXPECT_TRUE(std::isnan(SizeTable{}.at(24)));

  // Self and peer Isends have their own tables; a workload without one kind
  // uses the other.
  HaloWorkload w;
  w.variant = "stream";
  w.isend_self.points = {{60000, 3500}};
  w.isend_peer.points = {{60000, 700}};
  EXPECT_EQ(isend_ns(w, GeoMessage{3, 3, 4, 1, 60000}), 3500);
  EXPECT_EQ(isend_ns(w, GeoMessage{3, 5, 4, 1, 60000}), 700);
  w.isend_self = {};
  EXPECT_EQ(isend_ns(w, GeoMessage{3, 3, 4, 1, 60000}), 700);
  // stream: each message ready after its own pack; stacked: long messages
  // (>= stacked_long_bytes) all at once, short ones as in stream.
  w.ready_base_ns = 4000;
  w.pack_ready.points = {{24, 0}, {60024, 18000}};
  w.ready_long_ns = 25000;
  EXPECT_DOUBLE_EQ(ready_ns(w, GeoMessage{0, 1, 4, 1, 30024}), 4000 + 9000);
  w.variant = "stacked";
  EXPECT_DOUBLE_EQ(ready_ns(w, GeoMessage{0, 1, 4, 1, 30024}), 4000 + 25000);
  EXPECT_DOUBLE_EQ(ready_ns(w, GeoMessage{0, 1, 0, 3, 24}), 4000);
  Result<HaloGeometry> g = split_cube(200, 64, 3, 27);
  ASSERT_TRUE(g.ok());
  EXPECT_DOUBLE_EQ(long_bytes_of(*g, 4096), 6 * 60000.0);  // faces only; edges are 1200 B
}

// A workload of every design with distinct, non-zero components, so a wrong
// dependency or a message routed to the wrong rank changes the result.
HaloWorkload synthetic(const std::string& variant) {
  HaloWorkload w;
  w.variant = variant;
  w.irecv_ns = 150;
  w.isend_self.points = {{24, 400}, {60000, 3500}};
  w.isend_peer.points = {{24, 300}, {60000, 700}};
  w.mpi = {2000, 0.02};
  w.pack_phase_ns = 9000;
  w.unpack_phase_ns = 7000;
  w.wait_send_ns = 500;
  w.unphased_ns = 800;
  w.ready_base_ns = 4000;
  w.pack_ready.points = {{24, 0}, {60000, 18000}};
  w.ready_long_ns = 25000;
  w.notify_gpu_to_cpu_ns = 1200;
  w.proxy_front_ns = 15000;
  w.proxy_complete_ns = 90;
  w.proxy_irecv_ns = 130;
  w.residual_per_recv_ns = 250;
  w.progress_ns_per_byte = 0.05;  // 20 GB/s per rank's MPI progress engine
  return w;
}

// A paper cube's block at 2 ranks (2x1x1, 3 variables, 27-point pattern).
HaloGeometry cube(int n) {
  return HaloGeometry{.procs = {2, 1, 1}, .per_rank = {n, n, n}, .vars = 3, .pattern = 27};
}

// synthetic(variant) with the geometry-derived fields of a trace of g, as a
// fitted end (or held-out size) carries them into interpolate().
HaloWorkload sized(const std::string& variant, const HaloGeometry& g) {
  HaloWorkload w = synthetic(variant);
  w.cells = g.cells();
  w.bytes = bytes_per_rank(g);
  w.work_ns = work_driver_ns(g, WorkRates{});
  w.procs = g.procs;
  return w;
}

// A rank's rendezvous payload (bytes beyond the eager part) moves through
// its own and its peer's MPI progress engine, each shared by that rank's
// messages in flight; ranks do not share engines. Faces of 32*32*8 = 8192 B
// (4096 B of payload), 7-point pattern, one node, the latency line flat at
// 1 us and an engine of 10 ns/B (4096 B alone: 40.96 us).
// The diagnosis switch XFERLAB_HALO_LATE_START_NS (docs/halo_sim_log.md, "2 -> 4
// ranks: the ranks run out of step"): a malformed value is an error naming
// the variable, not a silent 0; a valid one is accepted.
TEST(HaloModel, LateStartSwitchRejectsMalformedValues) {
  HaloWorkload w = synthetic("baseline");
  const HaloGeometry g{.procs = {2, 2, 1}, .per_rank = {32, 32, 32}, .vars = 1, .pattern = 7};
  HaloNetwork net;
  net.ranks_per_node = g.ranks();
  auto run = [&] { return simulate_halo(w, g, net, HaloMode::kMeasured, NicCosts{}); };
  ASSERT_EQ(unsetenv("XFERLAB_HALO_LATE_START_NS"), 0);
  Result<HaloPhases> base = run();
  ASSERT_TRUE(base.ok());
  for (const char* bad : {"abc", "-5", "1e400", "12us", ""}) {
    ASSERT_EQ(setenv("XFERLAB_HALO_LATE_START_NS", bad, 1), 0);
    Result<HaloPhases> p = run();
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_NE(p.error().message.find("XFERLAB_HALO_LATE_START_NS='"), std::string::npos) << bad;
  }
  ASSERT_EQ(setenv("XFERLAB_HALO_LATE_START_NS", "50000", 1), 0);
  Result<HaloPhases> late = run();
  // The residual's calibration fits ranks in step: the switch leaves it alone.
  const HaloGeometry two{.procs = {2, 1, 1}, .per_rank = {32, 32, 32}, .vars = 1, .pattern = 7};
  HaloWorkload calibrated = w, calibrated_unset = w;
  const double measured_ns = 1.05 * base->iteration_ns;
  Result<HaloPhases> c = calibrate_residual(calibrated, g, net, measured_ns);
  ASSERT_EQ(unsetenv("XFERLAB_HALO_LATE_START_NS"), 0);
  Result<HaloPhases> c_unset = calibrate_residual(calibrated_unset, g, net, measured_ns);
  EXPECT_TRUE(late.ok());
  ASSERT_TRUE(c.ok() && c_unset.ok());
  EXPECT_EQ(calibrated.residual_per_recv_ns, calibrated_unset.residual_per_recv_ns);
  EXPECT_EQ(c->iteration_ns, c_unset->iteration_ns);
  // On a grid of one row the ranks at odd x start late.
  HaloMarks m;
  const TaskGraph tg =
      build_halo_graph(w, two, net, HaloMode::kMeasured, NicCosts{}, &m, HaloDetail::kFine, 50e3);
  Result<TaskTimes> t = run_task_graph_isolated(tg);
  ASSERT_TRUE(t.ok());
  EXPECT_NEAR(t->end_ns[m.start[1]] - t->end_ns[m.start[0]], 50e3, 1e-6);
}

// The MPI chain (docs/halo_sim_log.md, "The chain in the replay"; switch
// XFERLAB_HALO_MPI_CHAIN): host-driven ranks 2x2x1, faces of 4096 B of
// payload on engines of 10 ns/B, the ranks at odd y (2, 3) started 200 us
// late, an unpack of 1 ms (longer than an engine's whole load, 8 payloads:
// 328 us). An early rank's
// receives from the late ranks complete, it leaves MPI (wait_end) for its
// unpack with payloads to the late ranks still open, and
// those move again only once it is back (unpack_end): no payload of an
// early rank ends while it is outside MPI, some end after it is back, and
// its end (wait_send) waits for all. Without the chain its payloads move
// while it is out.
TEST(HaloModel, MpiChainPayloadMovesOnlyWhileBothRanksAreInsideMpi) {
  HaloWorkload w = synthetic("baseline");
  w.mpi = {1000, 0};
  w.residual_per_recv_ns = 0;
  w.progress_ns_per_byte = 10;
  w.unpack_phase_ns = 1e6;
  const HaloGeometry g{.procs = {2, 2, 1}, .per_rank = {32, 32, 32}, .vars = 1, .pattern = 7};
  HaloNetwork net;
  net.ranks_per_node = g.ranks();
  for (const bool chain : {true, false}) {
    HaloMarks m;
    const TaskGraph tg = build_halo_graph(w, g, net, HaloMode::kMeasured, NicCosts{}, &m,
                                          HaloDetail::kFine, 200e3, chain);
    Result<TaskTimes> t = run_task_graph_isolated(tg);
    ASSERT_TRUE(t.ok()) << t.error().message;
    const auto& end = t->end_ns;
    int moved_outside = 0, after_return = 0;
    for (int early : {0, 1}) {
      const double left = end[m.wait_end[early]], back = end[m.unpack_end[early]];
      ASSERT_LT(left + 1000, back);
      double last_ns = 0;
      for (const auto& [p, dst] : m.payloads[early]) {
        moved_outside += end[p] > left + 1e-6 && end[p] < back - 1e-6;
        after_return += end[p] > back + 1e-6;
        last_ns = std::max(last_ns, end[p]);
      }
      if (chain) {
        EXPECT_GE(end[m.end[early]], last_ns);
      }
    }
    if (chain) {
      EXPECT_EQ(moved_outside, 0);
      EXPECT_GT(after_return, 0);
    } else {
      EXPECT_GT(moved_outside, 0);
    }
  }
}

// Ranks in step (every rank at 0; 2 ranks, and 4): each rank's receives and
// sends end together, so the gate never holds a payload and the chain
// changes nothing; and the switch: a malformed value is an error naming
// the variable, 0 and 1 are accepted, and with ranks out of step 1 makes
// the late ranks' wait longer.
TEST(HaloModel, MpiChainChangesNothingInStepAndItsSwitchIsChecked) {
  HaloWorkload w = synthetic("baseline");
  w.mpi = {1000, 0};
  w.progress_ns_per_byte = 10;
  ASSERT_EQ(unsetenv("XFERLAB_HALO_LATE_START_NS"), 0);
  for (std::array<int, 3> procs : {std::array<int, 3>{2, 1, 1}, std::array<int, 3>{2, 2, 1}}) {
    const HaloGeometry g{.procs = procs, .per_rank = {32, 32, 32}, .vars = 1, .pattern = 27};
    HaloNetwork net;
    net.ranks_per_node = g.ranks();
    auto run = [&](const char* chain) {
      EXPECT_EQ(setenv("XFERLAB_HALO_MPI_CHAIN", chain, 1), 0);
      return simulate_halo(w, g, net, HaloMode::kMeasured, NicCosts{});
    };
    Result<HaloPhases> off = run("0"), on = run("1");
    ASSERT_TRUE(off.ok() && on.ok());
    EXPECT_NEAR(on->iteration_ns, off->iteration_ns, 1e-6);
    EXPECT_NEAR(on->wait_ns, off->wait_ns, 1e-6);
    for (const char* bad : {"2", "yes", "", "1 "}) {
      Result<HaloPhases> p = run(bad);
      ASSERT_FALSE(p.ok()) << bad;
      EXPECT_NE(p.error().message.find("XFERLAB_HALO_MPI_CHAIN='"), std::string::npos) << bad;
    }
    if (procs[1] == 1) continue;
    ASSERT_EQ(setenv("XFERLAB_HALO_LATE_START_NS", "100000", 1), 0);
    Result<HaloPhases> late_off = run("0"), late_on = run("1");
    ASSERT_EQ(unsetenv("XFERLAB_HALO_LATE_START_NS"), 0);
    ASSERT_TRUE(late_off.ok() && late_on.ok());
    EXPECT_GT(late_on->wait_ns, late_off->wait_ns + 1000);
  }
  ASSERT_EQ(unsetenv("XFERLAB_HALO_MPI_CHAIN"), 0);
}

TEST(HaloModel, RendezvousPayloadSharesEachRanksProgressEngine) {
  HaloWorkload w = synthetic("baseline");
  w.mpi = {1000, 0};
  w.residual_per_recv_ns = 0;
  w.progress_ns_per_byte = 10;
  const double alone_ns = 4096 * 10.0;
  auto wait_at = [&](std::array<int, 3> procs, const HaloWorkload& wl) {
    const HaloGeometry g{.procs = procs, .per_rank = {32, 32, 32}, .vars = 1, .pattern = 7};
    HaloNetwork net;
    net.ranks_per_node = g.ranks();
    Result<HaloPhases> p = simulate_halo(wl, g, net, HaloMode::kMeasured, NicCosts{});
    EXPECT_TRUE(p.ok());
    return p.ok() ? p->wait_ns : 0.0;
  };
  // 2 ranks (2x1x1): both x faces go to the other rank and both come back,
  // so 4 payloads share each engine: 4x one alone.
  const double two = wait_at({2, 1, 1}, w);
  EXPECT_NEAR(two, 4 * alone_ns, 1);
  EXPECT_NEAR(two, hw_model::processor_shared_finish_ns({4096, 4096, 4096, 4096}, 10)[0], 1);
  // 4 ranks (2x2x1): 4 faces out and 4 in per engine: twice the 2-rank
  // time, not 4x (the other ranks' messages use their own engines).
  const double four = wait_at({2, 2, 1}, w);
  EXPECT_NEAR(four, 8 * alone_ns, 1);
  // Without the engines every message takes its latency alone, whatever
  // the rank count (the model before: 1 us at 2 and at 4 ranks).
  HaloWorkload independent = w;
  independent.progress_ns_per_byte = 0;
  EXPECT_NEAR(wait_at({2, 1, 1}, independent), 1000, 1);
  EXPECT_NEAR(wait_at({2, 2, 1}, independent), 1000, 1);
  // The cost per byte derived from a 2-rank latency line gives that latency
  // back at 2 ranks: a flat 200 us line -> 200 us / (2 x 8192 B) per byte.
  w.mpi = {200000, 0};
  const HaloGeometry g2{.procs = {2, 1, 1}, .per_rank = {32, 32, 32}, .vars = 1, .pattern = 7};
  w.progress_ns_per_byte = progress_ns_per_byte_of(w.mpi, g2);
  EXPECT_DOUBLE_EQ(w.progress_ns_per_byte, 200000 / (2 * 2 * 4096.0));
  EXPECT_NEAR(wait_at({2, 1, 1}, w), 200000, 1);
  EXPECT_NEAR(wait_at({2, 2, 1}, w), 400000, 1);
  // Eager faces (16^3 of one double: 2048 B) never enter an engine.
  const HaloGeometry eager{.procs = {2, 2, 1}, .per_rank = {16, 16, 16}, .vars = 1, .pattern = 7};
  EXPECT_EQ(progress_ns_per_byte_of(w.mpi, eager), 0);
}

// sa / ki: the proxy thread is its rank's progress engine (its MPI_Test
// calls copy the rendezvous fragments in and out), so its own work (the
// Irsend calls, a self message's whole copy among them, and the completion
// work) shares the engine with the copies: they add up on one thread instead
// of overlapping. Faces of 32^3 of one double (8192 B, 4096 B of payload:
// 40.96 us alone at 10 ns/B), a self Irsend 20 us, a peer one 1 us, GPU
// front 15 us, no completion work. From the end of the front the engine is
// never idle, so the iteration is the front plus the engine's whole work:
//   2 ranks (2x1x1): 4 self x 20 + 2 peer x 1 + 4 payloads x 40.96 = 245.84 us
//   4 ranks (2x2x1): 2 self x 20 + 4 peer x 1 + 8 payloads x 40.96 = 371.68 us
// (the model before, the proxy's work beside the engine: 219.84 / 363.68
// us). The latency line is no floor (at 2 ranks it holds the proxy's work
// and the copies): a 100 us line changes nothing. The NIC mode has no proxy
// and is unchanged.
TEST(HaloModel, ProxyWorkSharesItsRanksProgressEngine) {
  HaloWorkload w = synthetic("sa");
  w.mpi = {1000, 0};
  w.isend_self.points = {{24, 20000}, {8192, 20000}};
  w.isend_peer.points = {{24, 1000}, {8192, 1000}};
  w.proxy_front_ns = 15000;
  w.proxy_complete_ns = 0;
  w.proxy_irecv_ns = 0;
  w.residual_per_recv_ns = 0;
  w.progress_ns_per_byte = 10;
  const double payload_ns = 4096 * 10.0;
  auto run = [&](std::array<int, 3> procs, const HaloWorkload& wl, HaloMode mode) {
    const HaloGeometry g{.procs = procs, .per_rank = {32, 32, 32}, .vars = 1, .pattern = 7};
    HaloNetwork net;
    net.ranks_per_node = g.ranks();
    Result<HaloPhases> p = simulate_halo(wl, g, net, mode, NicCosts{});
    EXPECT_TRUE(p.ok());
    return p.ok() ? p->iteration_ns : 0.0;
  };
  const double two = run({2, 1, 1}, w, HaloMode::kMeasured);
  const double four = run({2, 2, 1}, w, HaloMode::kMeasured);
  EXPECT_NEAR(two, 15000 + 4 * 20000 + 2 * 1000 + 4 * payload_ns, 10);
  EXPECT_NEAR(four, 15000 + 2 * 20000 + 4 * 1000 + 8 * payload_ns, 10);
  HaloWorkload slow_line = w;
  slow_line.mpi = {100000, 0};
  EXPECT_NEAR(run({2, 1, 1}, slow_line, HaloMode::kMeasured), two, 10);
  EXPECT_NEAR(run({2, 2, 1}, slow_line, HaloMode::kMeasured), four, 10);
  // The completion work is on the engine too: 6 received messages x 5 us.
  HaloWorkload busy = w;
  busy.proxy_complete_ns = 5000;
  EXPECT_NEAR(run({2, 1, 1}, busy, HaloMode::kMeasured), two + 6 * 5000, 10);
  // No engine (eager faces): as before, the proxy's sends and then the
  // last message's 1 us line.
  HaloWorkload eager = w;
  eager.progress_ns_per_byte = 0;
  EXPECT_NEAR(run({2, 1, 1}, eager, HaloMode::kMeasured), 15000 + 4 * 20000 + 2 * 1000 + 1000, 10);
  // The NIC mode: no proxy, the same with or without the engine cost.
  EXPECT_NEAR(run({2, 2, 1}, w, HaloMode::kNic), run({2, 2, 1}, eager, HaloMode::kNic), 1);
}

// The engine's cost per byte is the run's (measured by its host-driven
// variants), not the variant's: stream / stacked / sa / ki take the larger of
// their own and the run's, baseline / host keep their own; without a run cost
// (a trace replayed alone) or without rendezvous payload the own cost stays.
// A held-out size derives its own cost from the interpolated line and then
// gets the same rule.
TEST(HaloModel, EngineCostIsTheRunsForTheOneAtATimeReceivers) {
  for (const char* v : {"stream", "stacked", "sa", "ki"}) {
    EXPECT_EQ(engine_ns_per_byte(v, 0.05, 0.12), 0.12) << v;
    EXPECT_EQ(engine_ns_per_byte(v, 0.2, 0.12), 0.2) << v;
    EXPECT_EQ(engine_ns_per_byte(v, 0.05, 0), 0.05) << v;
    EXPECT_EQ(engine_ns_per_byte(v, 0, 0.12), 0) << v;
  }
  for (const char* v : {"baseline", "host"}) {
    EXPECT_EQ(engine_ns_per_byte(v, 0.05, 0.12), 0.05) << v;
    EXPECT_EQ(engine_ns_per_byte(v, 0.2, 0.12), 0.2) << v;
  }
  // Fitted 32^3 and 64^3 blocks (faces only, one double), a flat 200 us
  // line; held out: 48^3 (18 432-B faces, own cost 200 us / (4 x 14 336 B)).
  auto block = [](int n) {
    return HaloGeometry{.procs = {2, 1, 1}, .per_rank = {n, n, n}, .vars = 1, .pattern = 7};
  };
  auto fitted = [&](const std::string& v, int n, double run_ns_per_byte) {
    const HaloGeometry g = block(n);
    HaloWorkload w = sized(v, g);
    w.mpi = {200000, 0};
    w.run_progress_ns_per_byte = run_ns_per_byte;
    w.progress_ns_per_byte =
        engine_ns_per_byte(v, progress_ns_per_byte_of(w.mpi, g), run_ns_per_byte);
    return w;
  };
  auto held_out = [&](const std::string& v, double run_ns_per_byte) {
    return interpolate(fitted(v, 32, run_ns_per_byte), fitted(v, 64, run_ns_per_byte), block(48),
                       WorkRates{})
        .progress_ns_per_byte;
  };
  const double own = progress_ns_per_byte_of({200000, 0}, block(48));
  EXPECT_DOUBLE_EQ(own, 200000 / (4 * 14336.0));
  EXPECT_EQ(held_out("stream", 10), 10);
  EXPECT_DOUBLE_EQ(held_out("stream", 1), own);
  EXPECT_DOUBLE_EQ(held_out("stream", 0), own);
  EXPECT_DOUBLE_EQ(held_out("baseline", 10), own);
}

// The host-driven pack / unpack phases hold the fused kernels; for boxes
// (one 256-thread CTA per message up to 45^3) their time follows the busiest
// thread's element count, 3 / 4 / 8 at box 24^3 / 32^3 / 64^3, so a held-out
// 32^3 sits 1/5 of the way from 24^3 to 64^3, not where the work driver puts
// it (docs/halo_sim_log.md, "Host box 32^3: the fused kernels' elements per
// thread"). The paper cubes' grids grow with the message (8 elements at every
// size) and sa / ki have no fused kernels: the work driver stays for them.
TEST(HaloModel, HostBoxPhasesFollowTheFusedKernelsElementsPerThread) {
  auto box = [](int n) {
    return HaloGeometry{.procs = {2, 1, 1}, .per_rank = {n, n, n}, .vars = 1, .pattern = 7};
  };
  EXPECT_EQ(fused_elements_per_thread(box(16)), 1);
  EXPECT_EQ(fused_elements_per_thread(box(24)), 3);
  EXPECT_EQ(fused_elements_per_thread(box(32)), 4);
  EXPECT_EQ(fused_elements_per_thread(box(64)), 8);
  for (int n : {50, 100, 200}) EXPECT_EQ(fused_elements_per_thread(cube(n)), 8) << n;
  auto fitted = [](const std::string& v, const HaloGeometry& g, double pack_ns, double unpack_ns) {
    HaloWorkload w = sized(v, g);
    w.fused_elements = fused_elements_per_thread(g);
    w.pack_phase_ns = pack_ns;
    w.unpack_phase_ns = unpack_ns;
    w.proxy_front_ns = pack_ns;
    return w;
  };
  const WorkRates rates;
  const double fw = (work_driver_ns(box(32), rates) - work_driver_ns(box(24), rates)) /
                    (work_driver_ns(box(64), rates) - work_driver_ns(box(24), rates));
  EXPECT_LT(fw, 0.15);
  const HaloWorkload host = interpolate(fitted("host", box(24), 20000, 17000),
                                        fitted("host", box(64), 30000, 27000), box(32), rates);
  EXPECT_DOUBLE_EQ(host.fused_elements, 4);
  EXPECT_NEAR(host.pack_phase_ns, 22000, 1e-6);
  EXPECT_NEAR(host.unpack_phase_ns, 19000, 1e-6);
  // wait_send / unphased keep the work driver (equal ends: unchanged).
  EXPECT_DOUBLE_EQ(host.wait_send_ns, 500);
  // sa with the work drivers (the model before session 14): its GPU front
  // stays on the work driver.
  const HaloWorkload sa =
      interpolate(fitted("sa", box(24), 20000, 17000), fitted("sa", box(64), 30000, 27000), box(32),
                  rates, ProxyDrivers::kWorkAndBytes);
  EXPECT_NEAR(sa.proxy_front_ns, 20000 + fw * 10000, 1e-6);
  // Paper cubes: equal element counts, the work driver.
  const double fc = (work_driver_ns(cube(100), rates) - work_driver_ns(cube(50), rates)) /
                    (work_driver_ns(cube(200), rates) - work_driver_ns(cube(50), rates));
  const HaloWorkload base =
      interpolate(fitted("baseline", cube(50), 40000, 30000),
                  fitted("baseline", cube(200), 500000, 140000), cube(100), rates);
  EXPECT_NEAR(base.pack_phase_ns, 40000 + fc * 460000, 1e-6);
  EXPECT_NEAR(base.unpack_phase_ns, 30000 + fc * 110000, 1e-6);
}

// XFERLAB_HALO_PROXY_DRIVERS=surface (docs/halo_sim_log.md, "Sa / ki 400^3: the
// front is surface work, the residual volume work"; the default since session
// 14): a held-out sa / ki size's proxy front follows the bytes a rank sends
// and its residual the cells; `work` (the model before) keeps the work driver
// and the bytes; other variants never change.
TEST(HaloModel, ProxyDriversSurfaceMovesOnlyTheProxysFrontAndResidual) {
  auto fitted = [](const std::string& v, const HaloGeometry& g, double front_ns,
                   double residual_ns) {
    HaloWorkload w = sized(v, g);
    w.proxy_front_ns = front_ns;
    w.residual_per_recv_ns = residual_ns;
    return w;
  };
  const WorkRates rates;
  auto frac = [](double x, double x0, double x1) { return (x - x0) / (x1 - x0); };
  const double fw = frac(work_driver_ns(cube(100), rates), work_driver_ns(cube(50), rates),
                         work_driver_ns(cube(200), rates));
  const double fb =
      frac(bytes_per_rank(cube(100)), bytes_per_rank(cube(50)), bytes_per_rank(cube(200)));
  const double fc = frac(cube(100).cells(), cube(50).cells(), cube(200).cells());
  EXPECT_NEAR(fc, 7.0 / 63.0, 1e-12);
  EXPECT_GT(fb, fw);
  EXPECT_GT(fw, fc);
  for (const std::string v : {"sa", "ki", "stacked", "host"}) {
    const HaloWorkload a = fitted(v, cube(50), 20000, 1000), b = fitted(v, cube(200), 80000, 7000);
    const HaloWorkload def = interpolate(a, b, cube(100), rates);
    const HaloWorkload work = interpolate(a, b, cube(100), rates, ProxyDrivers::kWorkAndBytes);
    const HaloWorkload surf = interpolate(a, b, cube(100), rates, ProxyDrivers::kSurfaceAndVolume);
    EXPECT_NEAR(work.proxy_front_ns, 20000 + fw * 60000, 1e-6) << v;
    EXPECT_NEAR(work.residual_per_recv_ns, 1000 + fb * 6000, 1e-6) << v;
    EXPECT_EQ(surf.proxy_front_ns, def.proxy_front_ns) << v;
    EXPECT_EQ(surf.residual_per_recv_ns, def.residual_per_recv_ns) << v;
    const bool proxy = v == "sa" || v == "ki";
    EXPECT_NEAR(surf.proxy_front_ns, 20000 + (proxy ? fb : fw) * 60000, 1e-6) << v;
    EXPECT_NEAR(surf.residual_per_recv_ns, 1000 + (proxy ? fc : fb) * 6000, 1e-6) << v;
    EXPECT_EQ(surf.pack_phase_ns, work.pack_phase_ns) << v;
    EXPECT_EQ(surf.notify_gpu_to_cpu_ns, work.notify_gpu_to_cpu_ns) << v;
  }
  // The switch: unset and "surface" the default, "work" the model before.
  expect_switch(
      "XFERLAB_HALO_PROXY_DRIVERS", proxy_drivers_from_env, ProxyDrivers::kSurfaceAndVolume,
      {{"work", ProxyDrivers::kWorkAndBytes}, {"surface", ProxyDrivers::kSurfaceAndVolume}},
      "work or surface");
}

// XFERLAB_HALO_END_CLASSES=matched (docs/halo_sim_log.md, "Stacked / stream
// 400^3: the intercept places the residual"; tried, opt-in): an end lends
// a latency line and notification over the kinds whose protocol the target
// shares. 2 ranks, 3 vars: edges are 8 n vars B, eager at n = 100 (2400 B),
// rendezvous at n = 200 (4800 B); corners 24 B and faces stay on their side.
TEST(HaloModel, EndClassesMatchedLeavesOutKindsThatChangeProtocol) {
  const std::vector<Sample> at200 = {{24, 1000}, {4800, 300000}, {4800, 280000}, {960000, 220000}};
  const std::vector<Sample> kept = same_protocol(at200, cube(200), cube(100));
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].bytes, 24);
  EXPECT_EQ(kept[1].bytes, 960000);
  // The other way (a 100 end for a 200 target) leaves out 100's 2400 B edges;
  // between two sizes whose kinds keep their protocol nothing is left out.
  const std::vector<Sample> at100 = {{24, 5000}, {2400, 8000}, {240000, 50000}};
  EXPECT_EQ(same_protocol(at100, cube(100), cube(200)).size(), 2u);
  EXPECT_EQ(same_protocol(at100, cube(100), cube(50)).size(), 3u);
  // match_protocol: the line and notification over the kept samples, the
  // residual 0 for the caller to calibrate again; other variants untouched.
  HaloRun run;
  run.ranks.resize(1);
  run.ranks[0].notify_gpu_to_cpu = {{24, 8000}, {4800, 130000}, {4800, 140000}, {960000, 60000}};
  run.mpi_latency = at200;
  for (const std::string v : {"stacked", "stream", "baseline", "sa"}) {
    HaloWorkload w = synthetic(v);
    w.mpi = nonnegative_fit_by_size(at200);
    w.notify_gpu_to_cpu_ns = 70000;
    w.residual_per_recv_ns = 12000;
    const HaloWorkload before = w;
    const bool matched = match_protocol(w, run, cube(200), cube(100));
    const bool loop = v == "stacked" || v == "stream";
    EXPECT_EQ(matched, loop) << v;
    if (!loop) {
      EXPECT_EQ(w.mpi.a_ns, before.mpi.a_ns) << v;
      EXPECT_EQ(w.residual_per_recv_ns, 12000) << v;
      continue;
    }
    const LinearFit want = nonnegative_fit_by_size(kept);
    EXPECT_EQ(w.mpi.a_ns, want.a_ns) << v;
    EXPECT_EQ(w.mpi.b_ns_per_byte, want.b_ns_per_byte) << v;
    EXPECT_LT(w.mpi.a_ns, before.mpi.a_ns) << v;
    EXPECT_EQ(w.notify_gpu_to_cpu_ns, 34000) << v;  // median of 8000 and 60000
    EXPECT_EQ(w.residual_per_recv_ns, 0) << v;
  }
  HaloWorkload same = synthetic("stacked");
  same.residual_per_recv_ns = 12000;
  EXPECT_FALSE(match_protocol(same, run, cube(200), cube(180)));  // 4320 B edges: rendezvous
  EXPECT_EQ(same.residual_per_recv_ns, 12000);
  // The switch: unset and "pooled" the default, "matched" the opt-in.
  expect_switch("XFERLAB_HALO_END_CLASSES", end_classes_from_env, EndClasses::kPooled,
                {{"pooled", EndClasses::kPooled}, {"matched", EndClasses::kMatched}},
                "pooled or matched");
}

// XFERLAB_HALO_RESIDUAL_PLACEMENT=payload (docs/halo_sim_log.md, "Stacked /
// stream 400^3: the intercept places the residual"; the default since session
// 14, "Runs 29-31"): stream /
// stacked's residual goes to the received messages by rendezvous payload,
// the same total per rank; other variants and placements keep the even split.
TEST(HaloModel, ResidualPlacementPayloadSharesTheResidualByRendezvousPayload) {
  const HaloGeometry g{.procs = {2, 1, 1}, .per_rank = {100, 100, 100}, .vars = 3, .pattern = 27};
  const std::vector<GeoMessage> mine = messages_of(g, 0);
  ASSERT_EQ(mine.size(), 26u);
  for (const std::string v : {"stacked", "stream", "baseline", "sa"}) {
    HaloWorkload w = synthetic(v);
    w.residual_per_recv_ns = 3000;
    double total = 0;
    for (const GeoMessage& m : mine) {
      EXPECT_EQ(residual_ns(w, g, m, ResidualPlacement::kMessage), 3000) << v;
      const double p = residual_ns(w, g, m, ResidualPlacement::kPayload);
      total += p;
      const bool loop = v == "stacked" || v == "stream";
      // 100^3 x 3 vars: faces 240000 B (rendezvous), edges 2400 B, corners 24 B.
      const bool peer_face = m.kind == 1 && m.dst != m.src;
      if (!loop) {
        EXPECT_EQ(p, 3000) << v;
      } else if (!peer_face) {
        EXPECT_EQ(p, 0) << v << " kind " << m.kind << " self " << (m.dst == m.src);
      } else {
        EXPECT_NEAR(p, 26 * 3000 / 2.0, 1e-6) << v;  // the two peer faces share it
      }
    }
    EXPECT_NEAR(total, 26 * 3000, 1e-6) << v;
  }
  // A geometry without rendezvous payload (a 4^3 box: 384 B faces) keeps
  // the even split.
  const HaloGeometry tiny{.procs = {2, 1, 1}, .per_rank = {4, 4, 4}, .vars = 3, .pattern = 27};
  HaloWorkload w = synthetic("stacked");
  w.residual_per_recv_ns = 3000;
  for (const GeoMessage& m : messages_of(tiny, 0))
    EXPECT_EQ(residual_ns(w, tiny, m, ResidualPlacement::kPayload), 3000);
  // The switch: unset and "payload" the default, "message" the model before.
  expect_switch(
      "XFERLAB_HALO_RESIDUAL_PLACEMENT", residual_placement_from_env, ResidualPlacement::kPayload,
      {{"message", ResidualPlacement::kMessage}, {"payload", ResidualPlacement::kPayload}},
      "message or payload");
}

// XFERLAB_HALO_PAIR_MIX=output (docs/halo_sim_log.md, "Stacked / stream
// 400^3: consistent pairs mixed at the output"; the default since session
// 13): a held-out stream / stacked size is replayed once with each end's
// (latency line, notification, residual) triple, every other component
// interpolated, and the two replays' phases are mixed at the residual's
// weight; other variants, and `components`, replay the interpolated workload
// once.
TEST(HaloModel, PairMixOutputMixesTheReplaysOfTheEndTriples) {
  auto fitted = [](const std::string& v, const HaloGeometry& g, LinearFit mpi, double notify_ns,
                   double residual_ns, double ready_base_ns) {
    HaloWorkload w = sized(v, g);
    w.mpi = mpi;
    w.notify_gpu_to_cpu_ns = notify_ns;
    w.residual_per_recv_ns = residual_ns;
    w.ready_base_ns = ready_base_ns;
    return w;
  };
  // A stand-in replay whose iteration is not linear in the triple (the
  // intercept times the residual), so mixing the outputs and mixing the
  // components differ; each phase shows one component.
  auto phases_of = [](const HaloWorkload& w) {
    HaloPhases p;
    p.iteration_ns = w.mpi.a_ns * w.residual_per_recv_ns / 1000 + w.notify_gpu_to_cpu_ns;
    p.pack_ns = w.ready_base_ns;
    p.post_ns = w.mpi.b_ns_per_byte * 1e6;
    p.wait_ns = w.residual_per_recv_ns;
    p.unpack_ns = w.notify_gpu_to_cpu_ns;
    return p;
  };
  std::vector<HaloWorkload> seen;
  auto replay = [&](const HaloWorkload& w) -> Result<HaloPhases> {
    seen.push_back(w);
    return phases_of(w);
  };
  auto expect_phases = [](const HaloPhases& got, const HaloPhases& want, const std::string& what) {
    EXPECT_NEAR(got.iteration_ns, want.iteration_ns, 1e-6) << what;
    EXPECT_NEAR(got.pack_ns, want.pack_ns, 1e-6) << what;
    EXPECT_NEAR(got.post_ns, want.post_ns, 1e-6) << what;
    EXPECT_NEAR(got.wait_ns, want.wait_ns, 1e-6) << what;
    EXPECT_NEAR(got.unpack_ns, want.unpack_ns, 1e-6) << what;
  };
  const WorkRates rates;
  const double fb = (bytes_per_rank(cube(100)) - bytes_per_rank(cube(50))) /
                    (bytes_per_rank(cube(200)) - bytes_per_rank(cube(50)));
  for (const std::string v : {"stacked", "stream", "baseline", "sa"}) {
    const HaloWorkload a = fitted(v, cube(50), {20000, 0.01}, 1000, 1500, 4000);
    const HaloWorkload b = fitted(v, cube(200), {120000, 0.002}, 9000, 12000, 20000);
    const bool loop = v == "stacked" || v == "stream";
    for (const int n : {50, 100, 200}) {
      const std::string what = v + " " + std::to_string(n);
      const HaloGeometry g = cube(n);
      const double f = residual_weight(a, b, g, ProxyDrivers::kWorkAndBytes);
      EXPECT_NEAR(f, n == 50 ? 0 : n == 200 ? 1 : fb, 1e-12) << what;
      // The weight is the residual's in the interpolation with the same drivers.
      const HaloWorkload mixed = interpolate(a, b, g, rates, ProxyDrivers::kWorkAndBytes);
      EXPECT_NEAR(mixed.residual_per_recv_ns, 1500 + f * 10500, 1e-6) << what;
      seen.clear();
      Result<HaloPhases> def = replay_held_out(a, b, mixed, g, rates, ProxyDrivers::kWorkAndBytes,
                                               PairMix::kComponents, replay);
      ASSERT_TRUE(def.ok()) << what;
      ASSERT_EQ(seen.size(), 1u) << what;
      expect_phases(*def, phases_of(mixed), what + " default");
      seen.clear();
      Result<HaloPhases> out = replay_held_out(a, b, mixed, g, rates, ProxyDrivers::kWorkAndBytes,
                                               PairMix::kOutput, replay);
      ASSERT_TRUE(out.ok()) << what;
      if (!loop) {
        ASSERT_EQ(seen.size(), 1u) << what;
        expect_phases(*out, *def, what + " output, not stream / stacked");
        continue;
      }
      ASSERT_EQ(seen.size(), 2u) << what;
      const std::vector<HaloWorkload> ends = seen;
      for (size_t e = 0; e < 2; ++e) {
        const HaloWorkload& end = e == 0 ? a : b;
        const HaloWorkload& w = ends[e];
        const std::string which = what + (e == 0 ? " lower" : " upper");
        EXPECT_EQ(w.mpi.a_ns, end.mpi.a_ns) << which;
        EXPECT_EQ(w.mpi.b_ns_per_byte, end.mpi.b_ns_per_byte) << which;
        EXPECT_EQ(w.notify_gpu_to_cpu_ns, end.notify_gpu_to_cpu_ns) << which;
        EXPECT_EQ(w.residual_per_recv_ns, end.residual_per_recv_ns) << which;
        EXPECT_EQ(w.progress_ns_per_byte,
                  engine_ns_per_byte(v, progress_ns_per_byte_of(end.mpi, g), 0))
            << which;
        // Everything else as the default interpolates it.
        EXPECT_EQ(w.ready_base_ns, mixed.ready_base_ns) << which;
        EXPECT_EQ(w.pack_phase_ns, mixed.pack_phase_ns) << which;
        EXPECT_EQ(w.irecv_ns, mixed.irecv_ns) << which;
        EXPECT_EQ(w.isend_peer.points, mixed.isend_peer.points) << which;
        EXPECT_EQ(w.pack_ready.points, mixed.pack_ready.points) << which;
        EXPECT_EQ(w.bytes, mixed.bytes) << which;
      }
      const HaloPhases lower = phases_of(ends[0]), upper = phases_of(ends[1]);
      HaloPhases want = lower;
      want.iteration_ns += f * (upper.iteration_ns - lower.iteration_ns);
      want.pack_ns += f * (upper.pack_ns - lower.pack_ns);
      want.post_ns += f * (upper.post_ns - lower.post_ns);
      want.wait_ns += f * (upper.wait_ns - lower.wait_ns);
      want.unpack_ns += f * (upper.unpack_ns - lower.unpack_ns);
      expect_phases(*out, want, what + " output");
      // At the ends the output is that end's triple's replay.
      if (n == 50) expect_phases(*out, lower, what + " weight 0");
      if (n == 200) expect_phases(*out, upper, what + " weight 1");
      if (n == 100) {
        EXPECT_GT(std::fabs(out->iteration_ns - def->iteration_ns), 1000) << what;
      }
    }
  }
  // The switch: unset and "output" the default, "components" the model before.
  expect_switch("XFERLAB_HALO_PAIR_MIX", pair_mix_from_env, PairMix::kOutput,
                {{"components", PairMix::kComponents}, {"output", PairMix::kOutput}},
                "components or output");
}

TEST(HaloModel, SelfCopyCostPerByteIsInterpolatedNotItsTime) {
  // 2 ranks on 2x1x1: the y / z faces and edges go to the rank itself.
  auto fitted = [](const HaloGeometry& g, SizeTable self) {
    HaloWorkload w = sized("baseline", g);
    w.fused_elements = fused_elements_per_thread(g);
    w.isend_self = self;
    return w;
  };
  // 200^3 / 800^3 blocks (50^3, 200^3): edges 1200 / 4800 B, faces 60000 /
  // 960000 B; the face copy slower per byte at 960000 B (run 9's baseline:
  // 18.0 / 11.8 GB/s net of the 1200 B call).
  const SizeTable s50{{{1200, 700}, {60000, 4000}}}, s200{{{4800, 1400}, {960000, 82000}}};
  const HaloWorkload w =
      interpolate(fitted(cube(50), s50), fitted(cube(200), s200), cube(100), WorkRates{});
  const double r0 = (4000.0 - 700) / (60000 - 1200), r1 = (82000.0 - 700) / (960000 - 1200);
  const double r = r0 + (240000.0 - 60000) / (960000 - 60000) * (r1 - r0);
  // 400^3's 240000 B face: cost per byte 0.2 of the way, not the time (the
  // line 4000 + 0.2 * 78000 = 19600 ns puts it at 0.8 of the way).
  EXPECT_NEAR(isend_ns(w, GeoMessage{0, 0, 10, 1, 240000}), 700 + (240000 - 1200) * r, 1e-6);
  EXPECT_LT(isend_ns(w, GeoMessage{0, 0, 10, 1, 240000}), 15600);
  // Measured sizes and the edges (2400 B: between the smallest two) as before.
  EXPECT_DOUBLE_EQ(isend_ns(w, GeoMessage{0, 0, 10, 1, 60000}), 4000);
  EXPECT_DOUBLE_EQ(isend_ns(w, GeoMessage{0, 0, 1, 2, 2400}), 700 + 1200 * 700.0 / 3600);
  // Peer Isends keep their table; an equal cost per byte is the line.
  EXPECT_DOUBLE_EQ(
      isend_ns(w, GeoMessage{0, 1, 12, 1, 240000}),
      merge_tables(fitted(cube(50), s50).isend_peer, fitted(cube(200), s200).isend_peer)
          .at(240000));
  const SizeTable flat{{{1200, 700}, {60000, 700 + 58800 * 0.05}, {960000, 700 + 958800 * 0.05}}};
  EXPECT_NEAR(self_copy_table(flat, cube(100)).at(240000), flat.at(240000), 1e-6);
}

TEST(HaloModel, NodeSymmetricGraphMatchesTheFineGraph) {
  // (global cube, ranks, ranks per node): k splits x; k covers x rows; k
  // covers xy planes; 4 ranks of 2 per node where a rank's x-neighbours on
  // both sides are the same rank.
  const struct {
    int global, ranks, per_node;
  } cases[] = {{48, 32, 4}, {48, 16, 8}, {48, 32, 16}, {24, 4, 2}};
  for (const auto& c : cases) {
    Result<HaloGeometry> g = split_cube(c.global, c.ranks, 3, 27);
    ASSERT_TRUE(g.ok());
    ASSERT_TRUE(node_symmetric(*g, c.per_node)) << c.ranks << " / " << c.per_node;
    HaloNetwork net;
    net.ranks_per_node = c.per_node;
    net.nic_bw_bytes_per_s = 2e9;  // slow enough that NIC links are shared
    for (const char* v : {"baseline", "host", "stream", "stacked", "sa", "ki"}) {
      const std::string variant = v;
      const bool gda = variant == "sa" || variant == "ki";
      for (HaloMode mode : {HaloMode::kMeasured, gda ? HaloMode::kNic : HaloMode::kHwDoorbell}) {
        const HaloWorkload w = synthetic(variant);
        Result<HaloPhases> fine = simulate_halo(w, *g, net, mode, NicCosts{}, HaloDetail::kFine);
        Result<HaloPhases> red = simulate_halo(w, *g, net, mode, NicCosts{}, HaloDetail::kReduced);
        ASSERT_TRUE(fine.ok() && red.ok());
        const std::string where = variant + " at " + std::to_string(c.ranks) + " ranks, " +
                                  std::to_string(c.per_node) + " per node";
        EXPECT_EQ(fine->ranks_simulated, static_cast<size_t>(c.ranks)) << where;
        EXPECT_EQ(red->ranks_simulated, static_cast<size_t>(c.per_node)) << where;
        EXPECT_LT(red->tasks, fine->tasks) << where;
        const double tol = 1e-9 * fine->iteration_ns;
        EXPECT_NEAR(red->iteration_ns, fine->iteration_ns, tol) << where;
        EXPECT_NEAR(red->pack_ns, fine->pack_ns, tol) << where;
        EXPECT_NEAR(red->post_ns, fine->post_ns, tol) << where;
        EXPECT_NEAR(red->wait_ns, fine->wait_ns, tol) << where;
        EXPECT_NEAR(red->unpack_ns, fine->unpack_ns, tol) << where;
      }
    }
  }
  // Nodes that are no box of the grid, a rank count the node size does not
  // divide, and a single node: no reduction.
  Result<HaloGeometry> g = split_cube(48, 16, 3, 27);  // 4x2x2
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE(node_symmetric(*g, 3));
  EXPECT_FALSE(node_symmetric(*g, 16));
  EXPECT_FALSE(node_symmetric(*g, 6));
  HaloNetwork net;
  net.ranks_per_node = 3;
  Result<HaloPhases> p =
      simulate_halo(synthetic("stream"), *g, net, HaloMode::kMeasured, NicCosts{});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->ranks_simulated, 16u);
}

TEST(HaloModel, HostMemorySlowsTheCopyPartOnly) {
  // 2 ranks on 2 nodes (one rank per host memory), 6 faces of 8*8*3*8 =
  // 1536 B: x faces to the other rank, y/z faces to the rank itself.
  const HaloGeometry g{.procs = {2, 1, 1}, .per_rank = {8, 8, 8}, .pattern = 7};
  HaloNetwork net;
  net.ranks_per_node = 1;
  for (const char* v : {"baseline", "stream", "stacked"}) {
    const HaloWorkload w = synthetic(v);
    Result<HaloPhases> off = simulate_halo(w, g, net, HaloMode::kMeasured, NicCosts{});
    // Room for every flow: the copies and packs take their measured times,
    // nothing is added to the calls.
    net.host_memory_bw_bytes_per_s = 1e15;
    Result<HaloPhases> roomy = simulate_halo(w, g, net, HaloMode::kMeasured, NicCosts{});
    net.host_memory_bw_bytes_per_s = 0;
    ASSERT_TRUE(off.ok() && roomy.ok());
    EXPECT_NEAR(roomy->iteration_ns, off->iteration_ns, 1e-6 * off->iteration_ns) << v;
    EXPECT_NEAR(roomy->post_ns, off->post_ns, 1e-6 * off->post_ns) << v;
  }
  // 1 GB/s of host memory: in the baseline the calls run one after another,
  // so each copy flow gets the whole capacity and takes bytes / 1 GB/s
  // instead of its own time; the call grows by exactly the difference.
  const HaloWorkload w = synthetic("baseline");
  Result<HaloPhases> off = simulate_halo(w, g, net, HaloMode::kMeasured, NicCosts{});
  net.host_memory_bw_bytes_per_s = 1e9;
  Result<HaloPhases> slow = simulate_halo(w, g, net, HaloMode::kMeasured, NicCosts{});
  ASSERT_TRUE(off.ok() && slow.ok());
  double excess = 0;
  for (const GeoMessage& m : messages_of(g, 0)) {
    const IsendCopy c = isend_copy(w, m);
    ASSERT_EQ(c.bytes, 1536);
    ASSERT_GT(c.ns, 0);
    excess += c.bytes / 1e9 * 1e9 - c.ns;
  }
  EXPECT_NEAR(slow->post_ns - off->post_ns, excess, 1);
  EXPECT_GT(slow->iteration_ns, off->iteration_ns + excess / 2);
}

// rank_metadata: a synthetic run's rank: 2 ranks (procs 2x1x1), per-rank
// 4x4x4 of `vars` doubles, 7-point pattern, label gpus2_box4.
traces::Metadata rank_metadata(const char* program, const char* variant, int rank, int vars) {
  traces::Metadata md;
  md.producer.program = program;
  md.set_parameter("variant", variant);
  md.set_parameter("label", "gpus2_box4");
  md.set_parameter("rank", std::to_string(rank));
  md.set_parameter("ranks", "2");
  md.set_parameter("decomposition", "global 8x4x4, procs 2x1x1, per-rank 4x4x4, vars " +
                                        std::to_string(vars) + ", 7-point");
  return md;
}

// A synthetic host-driven (baseline) run: 2 ranks, per-rank 4x4x4, pattern
// 7 (6 faces of 4*4*3*8 = 384 B). Per iteration (ns): post_recv 600, pack
// 10000, post_send 6 x 500, wait_recv until every message has arrived
// 2000 ns after the later of its send and the receiver's wait, unpack 8000,
// wait_send 400.
void write_rank(const std::string& path, int rank) {
  traces::Metadata md = rank_metadata("halo_exchange", "baseline", rank, 3);
  // Directions of the 6 faces; x-faces go to the other rank, the rest to self.
  const int dirs[6] = {4, 10, 12, 14, 16, 22};
  std::string msgs;
  for (int m = 0; m < 6; ++m) {
    const int peer = (dirs[m] == 12 || dirs[m] == 14) ? 1 - rank : rank;
    msgs += (m ? ";" : "") + std::to_string(m) + ":" + std::to_string(dirs[m]) +
            ":face:" + std::to_string(peer) + ":384";
  }
  md.set_parameter("messages", msgs);
  const char* phases[] = {"total",     "post_recv", "pack",     "post_send",
                          "wait_recv", "unpack",    "wait_send"};
  for (uint32_t i = 0; i < 7; ++i) md.phases.push_back({i, phases[i]});
  traces::TraceWriter w;
  ASSERT_TRUE(w.open(path, md).ok());
  auto host = [&](uint64_t t, EventKind k, uint16_t flags, uint32_t id, uint32_t aux, uint64_t v) {
    Event e{t, static_cast<uint16_t>(k), flags, static_cast<uint16_t>(rank), 0, id, aux, v};
    ASSERT_TRUE(w.append(e).ok());
  };
  const uint64_t base = 1'000'000;
  for (int it = 0; it < 12; ++it) {
    const uint64_t t0 = base + it * 100'000ull;
    if (it == 2) host(t0 - 10, EventKind::kIteration, 0, 0, 0, 2);  // timed from here
    uint64_t t = t0;
    host(t, EventKind::kPhaseBegin, 0, 0, 0, 0);
    host(t, EventKind::kPhaseBegin, 0, 1, 0, 0);
    for (int m = 0; m < 6; ++m) {
      t += 100;
      const int peer = (dirs[m] == 12 || dirs[m] == 14) ? 1 - rank : rank;
      host(t, EventKind::kMpiPost, 2, peer, dirs[m], 384);
    }
    host(t, EventKind::kPhaseEnd, 0, 1, 0, 0);
    host(t, EventKind::kPhaseBegin, 0, 2, 0, 0);
    t += 10'000;
    host(t, EventKind::kPhaseEnd, 0, 2, 0, 0);
    host(t, EventKind::kPhaseBegin, 0, 3, 0, 0);
    for (int m = 0; m < 6; ++m) {
      t += 500;
      const int peer = (dirs[m] == 12 || dirs[m] == 14) ? 1 - rank : rank;
      host(t, EventKind::kMpiPost, 1, peer, dirs[m], 384);
    }
    const uint64_t last_send = t;
    host(t, EventKind::kPhaseEnd, 0, 3, 0, 0);
    host(t, EventKind::kPhaseBegin, 0, 4, 0, 0);
    // Both ranks run the same schedule; MPI progresses only in the wait, so
    // every message completes 2000 ns after the wait began.
    t = last_send + 2000;
    for (int m = 0; m < 6; ++m) {
      const int peer = (dirs[m] == 12 || dirs[m] == 14) ? 1 - rank : rank;
      host(t, EventKind::kMpiComplete, 2, peer, dirs[m], 384);
    }
    host(t, EventKind::kPhaseEnd, 0, 4, 0, 0);
    host(t, EventKind::kPhaseBegin, 0, 5, 0, 0);
    t += 8000;
    host(t, EventKind::kPhaseEnd, 0, 5, 0, 0);
    host(t, EventKind::kPhaseBegin, 0, 6, 0, 0);
    t += 400;
    host(t, EventKind::kPhaseEnd, 0, 6, 0, 0);
    host(t, EventKind::kPhaseEnd, 0, 0, 0, 0);
  }
  ASSERT_TRUE(w.close().ok());
}

// write_run: a two-rank run's traces, `write`(path, rank) for ranks 0 and 1,
// as <TempDir>/<name>/halo/traces/<stem>_rank<N>.xft; returns the folder.
std::string write_run(const std::string& name, const std::string& stem,
                      void (*write)(const std::string&, int)) {
  const std::string dir = ::testing::TempDir() + "/" + name + "/halo/traces";
  std::filesystem::create_directories(dir);
  for (int rank = 0; rank < 2; ++rank)
    write(dir + "/" + stem + "_rank" + std::to_string(rank) + ".xft", rank);
  return dir;
}

TEST(HaloTrace, ReducesAndReplaysAHostDrivenRun) {
  const std::string dir = write_run("halo_synth", "baseline_gpus2_box4", write_rank);
  Result<HaloRun> run = load_halo_run(dir + "/baseline_gpus2_box4_rank0.xft");
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->ranks.size(), 2u);
  EXPECT_EQ(run->r0().timed_iterations, 10);
  EXPECT_EQ(run->r0().messages.size(), 6u);
  const double total = 600 + 10000 + 3000 + 2000 + 8000 + 400;
  EXPECT_NEAR(run->total_ns(), total, 1);
  EXPECT_FALSE(run->proxy_driven());
  EXPECT_NEAR(run->iteration_ns(), total, 1);
  EXPECT_NEAR(run->phase_ns("pack"), 10000, 1);
  EXPECT_NEAR(run->phase_ns("post_send"), 3000, 1);
  // 10 timed iterations x 2 ranks: 2 faces to the other rank, 4 to self.
  ASSERT_EQ(run->mpi_latency.size(), 120u);
  const auto to_self = std::count_if(run->mpi_latency.begin(), run->mpi_latency.end(),
                                     [](const Sample& s) { return s.self; });
  EXPECT_EQ(to_self, 80);
  Result<HaloWorkload> w = workload_of(*run, WorkRates{});
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_NEAR(w->irecv_ns, 100, 1);
  // Messages to the rank itself and to the other rank have their own tables.
  EXPECT_NEAR(isend_ns(*w, GeoMessage{0, 0, 4, 1, 384}), 500, 1);
  EXPECT_NEAR(isend_ns(*w, GeoMessage{0, 1, 12, 1, 384}), 500, 1);
  // The replay of the run's own geometry reproduces the iteration: every
  // phase is serial in the baseline design.
  const HaloGeometry g{.procs = {2, 1, 1}, .per_rank = {4, 4, 4}, .pattern = 7};
  HaloNetwork net;
  net.ranks_per_node = 2;
  Result<HaloPhases> p = simulate_halo(*w, g, net, HaloMode::kMeasured, NicCosts{});
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_NEAR(p->pack_ns, 10000, 1);
  EXPECT_NEAR(p->post_ns, 3000, 1);
  EXPECT_NEAR(p->unpack_ns, 8000, 1);
  EXPECT_NEAR(p->wait_ns, 2000, 1);
  EXPECT_NEAR(p->iteration_ns, total, 1);
  // Across nodes the NIC replaces the intra-node latency: a slow NIC shows.
  net.ranks_per_node = 1;
  net.nic_bw_bytes_per_s = 1e6;  // 384 B take 384 us
  Result<HaloPhases> slow = simulate_halo(*w, g, net, HaloMode::kMeasured, NicCosts{});
  ASSERT_TRUE(slow.ok());
  EXPECT_GT(slow->iteration_ns, total + 300'000);
  // The run's boxes.csv (beside halo/traces/, read with common/csv) gives
  // phases the trace lacks; a malformed number is an error naming file and
  // line, not a 0.
  const std::string csv = ::testing::TempDir() + "/halo_synth/halo/boxes.csv";
  {
    std::ofstream f(csv);
    f << "variant,size,ranks,gpus_per_node,iterations,phase,min_ns,avg_ns,max_ns\n"
         "baseline,gpus2_box4,2,2,10,host_only,1,1234.5,2\n"
         "stream,gpus2_box4,2,2,10,host_only,1,99,2\n";
  }
  Result<HaloRun> with_csv = load_halo_run(dir + "/baseline_gpus2_box4_rank0.xft");
  ASSERT_TRUE(with_csv.ok()) << with_csv.error().message;
  EXPECT_EQ(with_csv->phase_ns("host_only"), 1234.5);
  {
    std::ofstream f(csv);
    f << "variant,size,ranks,gpus_per_node,iterations,phase,min_ns,avg_ns,max_ns\n"
         "baseline,gpus2_box4,2,2,10,host_only,1,12x,2\n";
  }
  Result<HaloRun> bad_csv = load_halo_run(dir + "/baseline_gpus2_box4_rank0.xft");
  ASSERT_FALSE(bad_csv.ok());
  EXPECT_EQ(bad_csv.error().message, csv + ":2: column 'avg_ns': '12x' is not a number");
  std::filesystem::remove(csv);
  // The folder search finds the run; a damaged rank-0 trace beside it is an
  // error naming that file, not a run silently left out.
  Result<std::vector<std::string>> found = halo_rank0_traces({dir});
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_EQ(found->size(), 1u);
  {
    std::ofstream f(dir + "/stream_gpus2_box4_rank0.xft");
    f << "not a trace";
  }
  found = halo_rank0_traces({dir});
  ASSERT_FALSE(found.ok());
  EXPECT_NE(found.error().message.find("stream_gpus2_box4_rank0.xft"), std::string::npos);
  std::filesystem::remove(dir + "/stream_gpus2_box4_rank0.xft");
  // A missing sibling rank is a one-line error naming the file.
  std::filesystem::remove(dir + "/baseline_gpus2_box4_rank1.xft");
  Result<HaloRun> bad = load_halo_run(dir + "/baseline_gpus2_box4_rank0.xft");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("rank 1"), std::string::npos);
}

// The latency line is the least-squares line with a, b >= 0, not the free
// line with its negative coefficient set to 0. Stream 200^3 (run 9) pools
// peer messages of ~70 us at every size with self faces of ~10 us (4 of the 6
// faces at 60000 B are to the rank itself): the free slope is negative, and
// zeroing it kept the intercept (63.5 us) for every message, 10.3 % slower
// than measured with no residual (docs/halo_sim_log.md, "Stream 200^3: the
// latency line's clamp").
TEST(HaloTrace, LatencyLineIsTheNonnegativeLeastSquaresLine) {
  const std::string dir = write_run("halo_line", "baseline_gpus2_box4", write_rank);
  Result<HaloRun> run = load_halo_run(dir + "/baseline_gpus2_box4_rank0.xft");
  ASSERT_TRUE(run.ok()) << run.error().message;
  // Every 384 B message takes 2000 ns; add faster large messages (self).
  for (int i = 0; i < 3; ++i) run->mpi_latency.push_back({60000, 500, true});
  const LinearFit free = fit_by_size(run->mpi_latency);
  ASSERT_LT(free.b_ns_per_byte, 0);
  EXPECT_GT(free.a_ns, 2000);
  Result<HaloWorkload> w = workload_of(*run, WorkRates{});
  ASSERT_TRUE(w.ok()) << w.error().message;
  // Flat at the mean of the per-size medians (2000, 500), not at 2009.7.
  EXPECT_NEAR(w->mpi.a_ns, 1250, 1e-6);
  EXPECT_EQ(w->mpi.b_ns_per_byte, 0);
  // A negative intercept: the line through the origin.
  const LinearFit origin = nonnegative_fit_by_size({{1000, 100}, {2000, 1100}, {3000, 2100}});
  EXPECT_EQ(origin.a_ns, 0);
  EXPECT_NEAR(origin.b_ns_per_byte, 8.6e6 / 14e6, 1e-12);
  // Both coefficients >= 0: the free line.
  const LinearFit ok = nonnegative_fit_by_size({{1000, 1100}, {2000, 1200}});
  EXPECT_NEAR(ok.a_ns, 1000, 1e-9);
  EXPECT_NEAR(ok.b_ns_per_byte, 0.1, 1e-12);
}

// A synthetic SA run: the CPU only enqueues (a 5 us "total" span every
// 8 us, running ahead of the GPU), the proxy stores recv_all every 30 us.
// The iteration a replay is compared with is the recv_all period.
void write_proxy_rank(const std::string& path, int rank) {
  traces::Metadata md = rank_metadata("gdasync_bench", "sa", rank, 1);
  md.set_parameter("messages", "0:12:face:" + std::to_string(1 - rank) + ":128");
  md.phases.push_back({0, "total"});
  md.flags.push_back({7, "recv_all[0]", "host_pinned"});
  traces::TraceWriter w;
  ASSERT_TRUE(w.open(path, md).ok());
  auto host = [&](uint64_t t, EventKind k, uint16_t stream, uint32_t id, uint64_t v) {
    Event e{t, static_cast<uint16_t>(k), 0, static_cast<uint16_t>(rank), stream, id, 0, v};
    ASSERT_TRUE(w.append(e).ok());
  };
  const uint64_t base = 1'000'000;
  host(base - 10, EventKind::kIteration, 0, 0, 0);
  for (int it = 0; it < 12; ++it) {
    host(base + it * 8'000ull, EventKind::kPhaseBegin, 0, 0, 0);
    host(base + it * 8'000ull + 5'000, EventKind::kPhaseEnd, 0, 0, 0);
  }
  for (int it = 0; it < 12; ++it) {
    host(base + 40'000 + it * 30'000ull, EventKind::kFlagSet, 1, 7, it + 1);
  }
  ASSERT_TRUE(w.close().ok());
}

TEST(HaloTrace, ProxyDrivenIterationIsTheRecvAllPeriod) {
  const std::string dir = write_run("halo_proxy", "sa_gpus2_box4", write_proxy_rank);
  Result<HaloRun> run = load_halo_run(dir + "/sa_gpus2_box4_rank0.xft");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_TRUE(run->proxy_driven());
  EXPECT_NEAR(run->total_ns(), 5000, 1);
  EXPECT_NEAR(run->iteration_ns(), 30000, 1);
}

}  // namespace
}  // namespace xferlab::sim
