// sim/critical_path.h — CriticalPath: what the replay engine notifies so that
// `xferlab explain` can attribute the simulated time. Every step an actor
// takes becomes a node (time, cause, the node it waited on); the end of the
// run walks back through the last-arriving dependency of each node, and the
// intervals along that path tile [0, end] exactly, each with one cause.
// No SimGrid here: the engine passes the acting actor's id.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace xferlab::sim {

// Cause: why time passed on the critical path.
enum class Cause : uint8_t {
  kCompute,            ///< producer kernels (dilated by an agent's SM share).
  kLaunch,             ///< host copy issue, CDP child launches.
  kTracking,           ///< software readiness detection (poll period).
  kCounterUnit,        ///< counter updates, zero detection, trigger, counter stalls.
  kDescriptor,         ///< DMA descriptor fetch and initiation.
  kWindowStall,        ///< a window caps the rate: DMA/copy-engine outstanding packets,
                       ///< a producer waiting for undelivered chunks.
  kAgentCopy,          ///< an SM copy agent's own copy throughput.
  kLinkSerialization,  ///< payload bytes at link rate (and sharing the link).
  kPacketOverhead,     ///< headers, encoding and padding bytes at link rate.
  kLinkLatency,        ///< propagation over the path.
  kGap,                ///< host time between iterations.
};
inline constexpr size_t kCauseCount = 11;
const char* cause_name(Cause c);  ///< "compute", "launch", ..., "gap".

// Attribution: the critical path summed per cause.
struct Attribution {
  std::array<double, kCauseCount> ns{};       ///< per cause.
  std::array<double, kCauseCount> tail_ns{};  ///< part after the last compute ended.
  double total_ns = 0;                        ///< end of the path (the simulated e2e).
  double compute_end_ns = 0;                  ///< last kernel end on the path's iteration.
  // Critical-path segments (for the timeline), when kept.
  struct Segment {
    double start_ns, end_ns;
    Cause cause;
    uint32_t gpu;
  };
  std::vector<Segment> segments;

  double sum_ns() const;
};

class CriticalPath {
 public:
  using Node = int64_t;
  static constexpr Node kNone = -1;

  // add: a node at t_ns reached from `pred` (kNone = time 0), the interval
  // between them caused by `cause`; t is clamped to pred's time.
  Node add(double t_ns, Node pred, Cause cause, uint32_t gpu);
  // later: whichever of two nodes happens later (the last-arriving dependency).
  Node later(Node a, Node b) const;
  double time_ns(Node n) const { return n < 0 ? 0 : nodes_[static_cast<size_t>(n)].t_ns; }

  // Per-actor cursor: where each actor's own chain stands.
  Node cursor(int64_t actor) const;
  void set_cursor(int64_t actor, Node n) { cursor_[actor] = n; }
  // step: the actor advances to t_ns for `cause`.
  Node step(int64_t actor, double t_ns, Cause cause, uint32_t gpu);
  // join: the actor waited for `event`; its chain continues from whichever came later.
  Node join(int64_t actor, Node event);

  // flight: a transfer from `start` that ended at end_ns over a path of
  // latency_ns, `wire_bytes` (payload_bytes of them payload) at link rate
  // bw_bytes_per_s; a lane cap cap_bytes_per_s (0 = none) below it makes the
  // excess a window stall (or agent copy when `agent`). The rest is link
  // sharing (serialization). Returns the end node.
  Node flight(Node start, double end_ns, double latency_ns, double payload_bytes, double wire_bytes,
              double bw_bytes_per_s, double cap_bytes_per_s, bool agent, uint32_t gpu);

  // add_iteration: the driver's iteration began at start_ns and its last
  // kernel ended at compute_end_ns (what follows is the tail).
  void add_iteration(double start_ns, double compute_end_ns);

  // attribute: walks back from `end`.
  Attribution attribute(Node end, bool keep_segments) const;

 private:
  struct N {
    double t_ns;
    Node pred;
    Cause cause;
    uint32_t gpu;
  };
  std::vector<N> nodes_;
  std::unordered_map<int64_t, Node> cursor_;
  std::vector<std::pair<double, double>> iterations_;  // (start, compute end), in order
};

}  // namespace xferlab::sim
