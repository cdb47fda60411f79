// sim/processor_sharing_link.h — ProcessorSharingLink: flows on a link that
// carries nothing else, computed exactly without SimGrid.
//
// SimGrid's CM02 model (sim/simgrid_platform.cc settings) moves a flow of S
// bytes over a route with latency L and bandwidth B as: L of latency, then
// a max-min fair share of B. When every flow on the route shares one
// bottleneck and nothing else, that share is B / (flows past their latency):
// egalitarian processor sharing. This class computes it event by event in
// O(log n) per flow (each flow's finish tag in per-flow service; the least
// tag ends first), where SimGrid's solver pays for every flow at every event
// (docs/sim.md, "Isolated inline links"). No SimGrid here.
//
// Capped lanes: flows may also come from `lanes` source lanes, each a link
// of `lane_cap` (latency 0) in front of this one and carrying only its
// lane's flows (CDP children, docs/sim.md "Isolated CDP children"). Max-min
// then fills progressively: the lane with the most flows binds first (each
// of its n flows at lane_cap / n) while that is below the link's level (its
// bandwidth left over the flows left), and so on; the flows of lanes that do
// not bind share the rest equally. Within a lane every flow gets the same
// rate, so each lane is a processor-sharing queue of its own (O(lanes log
// lanes) per event). With one lane, or caps that never bind, it is the
// single queue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace xferlab::sim {

class ProcessorSharingLink {
 public:
  // A link of `bw_bytes_per_s` (> 0) whose flows start sharing it
  // `latency_ns` after they start.
  ProcessorSharingLink(double bw_bytes_per_s, double latency_ns);
  // The same link fed by `lanes` (>= 1) lanes, each capped at
  // `lane_cap_bytes_per_s` (> 0; infinity: uncapped).
  ProcessorSharingLink(double bw_bytes_per_s, double latency_ns, uint32_t lanes,
                       double lane_cap_bytes_per_s);

  // add: a flow of `bytes` started at `t_ns` from lane `lane` (< lanes),
  // no earlier than any time asked of this link before; returns its id
  // (0, 1, ...).
  size_t add(double t_ns, double bytes, uint32_t lane = 0);
  uint32_t lanes() const { return static_cast<uint32_t>(f_.lanes.size()); }

  // end_ns: when flow `id` ends, provided no flow is added before then
  // (its producer waits for it).
  double end_ns(size_t id);

  // With several producers a flow's end is not known while another may
  // still add flows (polling's agent groups, hardware's DMA channels); the
  // scheduler that runs them takes the link's events in time order instead:
  // next_end(limit_ns) processes the events no later than `limit_ns` until
  // one more flow ends and returns its id, or nullopt once none is left up
  // to `limit_ns` (the clock then at the last event processed). A flow
  // added later, at or after that limit, only delays later ends.
  // advance processes every event up to `t_ns` and moves the clock there;
  // ended says whether flow `id` has ended.
  std::optional<size_t> next_end(double limit_ns);
  void advance(double t_ns);
  bool ended(size_t id) const;
  // next_end: processes events until one more flow ends, provided no flow
  // is added before then; returns its id (a CDP parent waiting for the
  // first of its children; aborts, a bug, when no flow is in flight).
  size_t next_end();

 private:
  using Tag = std::pair<double, size_t>;  // served at which the flow ends, id
  // Lane: its flows past their latency, each served `rate / share` bytes
  // per ns (every lane: the link's bandwidth over all flows, unless caps bind).
  struct Lane {
    double served = 0;  // bytes each of its flows received since the first flow
    std::priority_queue<Tag, std::vector<Tag>, std::greater<Tag>> sharing;
    double rate = 0;   // bytes per ns
    double share = 0;  // flows `rate` is divided among (0: none)
  };
  // InFlight: the clock and the flows not ended yet.
  struct InFlight {
    double now_ns = 0;
    std::vector<Lane> lanes;
    std::deque<std::pair<double, size_t>> latent;  // join time, id (in start order)
  };
  static constexpr size_t kJoined = static_cast<size_t>(-1);

  // share: each lane's rate and share after an event (max-min, above);
  // share_lanes: the same where there are lanes or a cap.
  void share(InFlight& f) const;
  void share_lanes(InFlight& f) const;
  // Event: the next join (lane kJoin) or end (its flow's lane) of a state,
  // at t_ns (infinity if none).
  static constexpr size_t kJoin = static_cast<size_t>(-1);
  struct Event {
    double t_ns;
    size_t lane;
  };
  static Event next_event(const InFlight& f);
  // serve: every sharing flow's service from the clock to `t_ns`, but for
  // lane `except` (whose flow ends then, setting its service).
  static void serve(InFlight& f, double t_ns, size_t except = kJoin);
  // apply: event `e` (next_event(f)) of `f`: a flow joins the sharing
  // (returns kJoined) or ends (returns its id).
  size_t apply(InFlight& f, const Event& e) const;
  // step: processes the next event if it is at most `limit_ns`; kJoined
  // for a join, the id of a flow that ended, or kNone when there is none.
  static constexpr size_t kNone = static_cast<size_t>(-2);
  size_t step(double limit_ns);

  double bytes_per_ns_;
  double latency_ns_;
  double lane_cap_bytes_per_ns_;
  InFlight f_;
  std::vector<double> bytes_;
  std::vector<uint32_t> lane_;         // per flow
  std::vector<double> end_ns_;         // NaN until the flow ended
  mutable std::vector<size_t> order_;  // share's scratch: lanes by flows
};

}  // namespace xferlab::sim
