// sim/proact_graph.h — a PROACT replay as a TaskGraph (sim/task_graph.h): the
// task-graph core's mapping of a ReplayInput on a Machine, for every
// mechanism, and the ReplayResult read back from the graph's task times.
//
// The same model as the actor core (sim/replay_engine.cc; shared costs and
// orders in sim/proact_mechanism.h): traced times become delays pinned to
// the iteration's start, each transfer a kTransfer on the route the actors'
// platform gives it (source lanes behind their cap link, the links'
// packet-rate bandwidth), and every wait of an actor a dependency: a window
// of flights (inline, DMA channels), a polling group's program order and its
// one copy in flight, copy-engine streams one copy after another. The one
// decision the actors make at run time, which DMA channel takes the next
// counter trigger, is made here before the run from the channels' static
// costs (docs/sim.md, "Two replay cores").
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "sim/replay_engine.h"
#include "sim/simgrid_platform.h"
#include "sim/task_graph.h"

namespace xferlab::sim {

// ProactGraph: the graph and what the result needs besides its task times.
struct ProactGraph {
  TaskGraph graph;
  Mechanism mechanism = Mechanism::kMemcpy;
  std::vector<uint32_t> iteration_end;  ///< per iteration: its barrier (a join).
  // Transfer: a transfer task, for busy time, the timeline and explain.
  struct Transfer {
    uint32_t task, iteration, src, dst, chunk, copies;
    double payload_bytes, wire_bytes;  ///< all copies
  };
  std::vector<Transfer> transfers;
  // Kernel: a producer kernel, for the timeline.
  struct Kernel {
    uint32_t iteration_start;  ///< task ending at its iteration's start.
    double begin_ns;           ///< the kernel's begin after that.
    uint32_t end_task;         ///< ends with the kernel (stalls included).
    uint32_t gpu;
  };
  std::vector<Kernel> kernels;
  // Critical path (ReplayOptions::explain only): what each actor of the
  // actor core records (sim/replay_engine.cc), in the same order, with the
  // times read from the run's task times (proact_graph_attribution).
  struct CpOp {
    enum class Kind : uint8_t {
      kStep,     ///< the actor's own time passes until `task`'s end + offset_ns for `cause`
                 ///< (task kNoTask: the iteration's start).
      kStart,    ///< transfer `task` starts from the actor's position.
      kFinish,   ///< the actor waits for transfer `task`.
      kTrigger,  ///< the actor waits for the kernel's counter trigger number `task`.
    };
    Kind kind;
    Cause cause;
    uint32_t task;
    double offset_ns;
  };
  static constexpr uint32_t kNoTask = UINT32_MAX;
  struct CpKernel {
    uint32_t gpu;
    double begin_ns;                                  ///< after the iteration's start
    std::vector<std::pair<double, double>> triggers;  ///< hardware: (ready, trigger) after it
    std::vector<std::vector<CpOp>> actors;  ///< [0]: the kernel's; others start at its begin
  };
  struct CpIteration {
    uint32_t start_task;    ///< ends at the iteration's start
    double compute_end_ns;  ///< its last kernel's end after the start
    std::vector<CpKernel> kernels;
  };
  std::vector<CpIteration> cp;
  SourceLanes lanes;
  double compute_ns = 0;  ///< as ReplayResult::compute_ns (static: from the input).
  double payload_bytes = 0, wire_bytes = 0;
  std::vector<double> egress_bytes;  ///< wire bytes per source GPU.
};

// build_proact_graph: the graph of replaying `input` on `machine` with
// options.mechanism (input and machine validated, the input's GPUs on the
// machine). options.aggregate_fan_out as in the actor core; with
// options.explain, also ProactGraph::cp.
Result<ProactGraph> build_proact_graph(const ReplayInput& input, const Machine& machine,
                                       const ReplayOptions& options);

// proact_graph_result: the ReplayResult of a run of `g` (task times `t`).
ReplayResult proact_graph_result(const ProactGraph& g, const Machine& machine, const TaskTimes& t,
                                 bool record_timeline);

// proact_graph_attribution: the critical path of a run of `g` (built with
// explain; task times `t`) attributed as the actor core does: the same
// CriticalPath steps, with the graph's times.
Attribution proact_graph_attribution(const ProactGraph& g, const Machine& machine,
                                     const TaskTimes& t, bool keep_segments);

// simulate_graph: build_proact_graph + run_task_graph in this process (one
// SimGrid engine per process) + proact_graph_result.
Result<ReplayResult> simulate_graph(const ReplayInput& input, const Machine& machine,
                                    const ReplayOptions& options);

}  // namespace xferlab::sim
