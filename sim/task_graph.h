// sim/task_graph.h — TaskGraph: a dependency graph of timed tasks (with gates
// and in-order links for transfers), and
// run_task_graph(), which executes it on SimGrid.
//
// The replay core shared by the designs (ARCHITECTURE.md, "Next shape of
// sim/"): a design maps a trace to tasks — work on an executor (GPU SMs, a CPU
// thread, a NIC engine), bytes over a route of links (copies, MPI messages,
// RDMA), and pure latencies (flag visibility, launch latency, doorbells) —
// joined by dependencies. SimGrid runs the graph itself, each task started
// when its last predecessor ends (work: an Exec; a transfer: a mailbox comm
// put by an issuer actor on its source; a delay: a kernel timer): work and
// transfers share hosts and links with every other running task in the
// max-min solver. The
// graph is plain data, so a mapping can be tested without SimGrid. PROACT
// traces (sim/proact_graph.h), halo exchange and GPUDirect Async
// (sim/halo_model.h) map onto it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace xferlab::sim {

enum class TaskKind : uint8_t {
  kDelay,     ///< a latency: takes amount ns whatever else runs.
  kWork,      ///< amount ns of one core's work on an executor (shared when oversubscribed).
  kTransfer,  ///< amount bytes from one endpoint to another over its route's links.
};

struct Task {
  TaskKind kind = TaskKind::kDelay;
  uint32_t where =
      0;  ///< executor (kWork, kDelay: the one it is accounted near), route (kTransfer).
  double amount = 0;  ///< ns (kDelay, kWork) or bytes (kTransfer).
};

struct GraphExecutor {
  std::string name;
  uint32_t cores = 1;  ///< concurrent tasks at full speed (1: a CPU thread; SM count: a GPU).
};

struct GraphLink {
  std::string name;
  double bw_bytes_per_s = 0;
  double latency_ns = 0;
  /// Serves its transfers in the order they became ready: a transfer moves
  /// on it only while no transfer that became ready strictly earlier, and is
  /// not held by a gate, is still moving there; transfers ready at the same
  /// instant share it (max-min). false: max-min among all.
  bool in_order = false;
};

// GateWindow: gate `gate` is open from the end of task opens_after until the
// end of task closes_after (never, if closes_after ends first).
struct GateWindow {
  uint32_t gate = 0, opens_after = 0, closes_after = 0;
};

// GraphRoute: a path from endpoint src to endpoint dst (endpoints are plain
// ids; a route is its own platform host, so a pair may have several).
struct GraphRoute {
  uint32_t src = 0, dst = 0;
  std::vector<uint32_t> links;
};

class TaskGraph {
 public:
  uint32_t add_executor(std::string name, uint32_t cores);
  uint32_t add_link(std::string name, double bw_bytes_per_s, double latency_ns,
                    bool in_order = false);
  uint32_t add_endpoint() { return num_endpoints_++; }
  // add_route: the path from src to dst (one direction).
  uint32_t add_route(uint32_t src_endpoint, uint32_t dst_endpoint, std::vector<uint32_t> links);

  uint32_t delay(uint32_t near_executor, double ns);
  uint32_t work(uint32_t executor, double ns);
  uint32_t transfer(uint32_t route, double bytes);
  // join: a zero-length task that ends when all its predecessors have.
  uint32_t join(uint32_t near_executor) { return delay(near_executor, 0); }
  // after: `task` starts only once `predecessor` has ended.
  void after(uint32_t task, uint32_t predecessor);

  // Gates: a gated transfer moves only while every gate it waits on is open
  // (suspended where it is otherwise); a gate is open while one of its
  // windows is. add_gate: a gate, closed until a window opens it.
  uint32_t add_gate() { return num_gates_++; }
  void gate_window(uint32_t gate, uint32_t opens_after, uint32_t closes_after);
  // gate_transfer: `transfer` (a kTransfer task) moves only while `gate` is open.
  void gate_transfer(uint32_t transfer, uint32_t gate);

  const std::vector<Task>& tasks() const { return tasks_; }
  const std::vector<std::pair<uint32_t, uint32_t>>& edges() const { return edges_; }
  const std::vector<GraphExecutor>& executors() const { return executors_; }
  const std::vector<GraphLink>& links() const { return links_; }
  const std::vector<GraphRoute>& routes() const { return routes_; }
  uint32_t num_endpoints() const { return num_endpoints_; }
  uint32_t num_gates() const { return num_gates_; }
  const std::vector<GateWindow>& gate_windows() const { return gate_windows_; }
  const std::vector<std::pair<uint32_t, uint32_t>>& gated() const { return gated_; }

  // validate: ids in range, amounts finite and >= 0, no cycle; gated tasks
  // are transfers.
  Status validate() const;

 private:
  std::vector<Task> tasks_;
  std::vector<std::pair<uint32_t, uint32_t>> edges_;  ///< (predecessor, task)
  std::vector<GraphExecutor> executors_;
  std::vector<GraphLink> links_;
  std::vector<GraphRoute> routes_;
  uint32_t num_endpoints_ = 0;
  uint32_t num_gates_ = 0;
  std::vector<GateWindow> gate_windows_;
  std::vector<std::pair<uint32_t, uint32_t>> gated_;  ///< (transfer, gate)
};

struct TaskTimes {
  std::vector<double> start_ns, end_ns;  ///< per task.
  double makespan_ns = 0;
};

// run_task_graph: executes the graph on SimGrid in this process (one engine
// per process: call at most once).
Result<TaskTimes> run_task_graph(const TaskGraph& graph);

// run_task_graph_isolated: run_task_graph in a forked child, so one process
// can run many graphs.
Result<TaskTimes> run_task_graph_isolated(const TaskGraph& graph);

}  // namespace xferlab::sim
