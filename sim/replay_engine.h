// sim/replay_engine.h — replay a ReplayInput on a Machine with one transfer
// mechanism, in SimGrid, and report what happened.
//
// SimGrid allows one engine per process: simulate() may run only once in a
// process; simulate_isolated() forks a child for each simulation (used by
// the CLI and tests to run many simulations from one process).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "sim/critical_path.h"
#include "sim/machine.h"
#include "sim/replay_input.h"
#include "traces/timeline_writer.h"

namespace xferlab::sim {

// The timeline's track families (traces/timeline_writer.h): the simulated
// and the measured run are drawn with one layout.
using traces::TimelineTrack;

// Span: one interval of the simulated run, on GPU `gpu`'s track (track,
// index): kernels and their stalls on stream 0, a transfer on the link to its
// destination (index = GPU), agent copies and DMA descriptors on agent N
// (index = DMA channel), explain's critical path on the critical-path track.
struct Span {
  std::string name;      ///< "kernel", "chunk 12 -> gpu1", "stall", ...
  std::string category;  ///< "compute" | "transfer" | "stall" | "agent" | "critical_path".
  uint32_t gpu = 0;
  TimelineTrack track = TimelineTrack::kStream;
  uint32_t index = 0;
  double start_ns = 0;
  double duration_ns = 0;
};

// ReplayCore: which engine replays a PROACT trace: the S4U actors of
// sim/replay_engine.cc, or the dependency graph of timed tasks that halo and
// GPUDirect Async replay on too (sim/proact_graph.h; docs/sim.md, "Two
// replay cores"). Same model, same results columns.
enum class ReplayCore { kActors, kGraph };

// replay_core_name: "actors", "graph"; parse_replay_core: its inverse.
const char* replay_core_name(ReplayCore core);
Result<ReplayCore> parse_replay_core(std::string_view text);

struct ReplayOptions {
  Mechanism mechanism = Mechanism::kMemcpy;
  bool record_timeline = false;
  /// On a switch, send a chunk that goes to every peer at once as one comm
  /// of (peers x wire bytes) on the source's port instead of one comm per
  /// peer; on a mesh the same through a link standing for all the GPU's pair
  /// links, when every transfer fans out: exact (docs/sim.md, "Fan-out
  /// aggregation") and much faster at 16 GPUs. false = one comm per
  /// destination everywhere, SimGrid comms also where a GPU's flows have a
  /// link of their own (docs/sim.md, "Isolated inline links"; 2 GPUs too).
  bool aggregate_fan_out = true;
  /// Record the critical path and attribute the time (ReplayResult::attribution).
  /// Actor core only.
  bool explain = false;
  ReplayCore core = ReplayCore::kActors;
  /// Replay GPUs whose transfers meet no other GPU's and whose kernels are
  /// the same (scale-out replicas) once, counting their bytes for each:
  /// exact (docs/sim.md, "Replica folding"); needs aggregate_fan_out and
  /// no timeline. Actor core only. false = every GPU replayed.
  bool fold_replicas = true;
};

// ReplayResult: one mechanism's simulated run.
struct ReplayResult {
  Mechanism mechanism = Mechanism::kMemcpy;
  double end_to_end_ns = 0;     ///< start of the first iteration to the last barrier.
  double compute_ns = 0;        ///< same run with compute only (infinite bandwidth, no agent).
  double exposed_ns = 0;        ///< end_to_end - compute: transfer time not hidden.
  double transfer_busy_ns = 0;  ///< union of intervals with a transfer in flight.
  double overlap = 0;           ///< hidden share of transfer_busy (1 = fully overlapped).
  double payload_bytes = 0;     ///< bytes delivered (each destination counted).
  double wire_bytes = 0;        ///< bytes on the GPUs' egress links, packet overhead included.
  double link_utilization = 0;  ///< wire bytes / (egress bandwidth of sending GPUs × e2e).
  uint64_t chunks = 0;
  uint64_t activities = 0;     ///< SimGrid activities started (comms + sleeps).
  std::vector<Span> timeline;  ///< when ReplayOptions::record_timeline.
  Attribution attribution;     ///< when ReplayOptions::explain (segments with the timeline).
};

// check_replayable: machine and input valid, the input's GPUs on the machine.
Status check_replayable(const ReplayInput& input, const Machine& machine);

// simulate: runs the replay in this process's SimGrid engine (once per
// process), on options.core.
Result<ReplayResult> simulate(const ReplayInput& input, const Machine& machine,
                              const ReplayOptions& options);

// simulate_isolated: simulate() in a forked child; the result comes back
// through a pipe. Safe to call many times.
Result<ReplayResult> simulate_isolated(const ReplayInput& input, const Machine& machine,
                                       const ReplayOptions& options);

// simulate_many: one simulate_isolated per options entry, at most `jobs`
// processes at once; results in the order of `options` (identical to
// running them one after another).
Result<std::vector<ReplayResult>> simulate_many(const ReplayInput& input, const Machine& machine,
                                                const std::vector<ReplayOptions>& options,
                                                uint32_t jobs);

}  // namespace xferlab::sim
