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
#pragma once

#include <cstddef>
#include <deque>
#include <queue>
#include <utility>
#include <vector>

namespace xferlab::sim {

class ProcessorSharingLink {
 public:
  // A link of `bw_bytes_per_s` (> 0) whose flows start sharing it
  // `latency_ns` after they start.
  ProcessorSharingLink(double bw_bytes_per_s, double latency_ns);

  // add: a flow of `bytes` started at `t_ns`, no earlier than any time
  // asked of this link before; returns its id (0, 1, ...).
  size_t add(double t_ns, double bytes);

  // end_ns: when flow `id` ends, provided no flow is added before then
  // (its producer waits for it).
  double end_ns(size_t id);

  // With several producers a flow's end is not known while another may
  // still add flows; these let a waiter step to it instead (wait_ns):
  // next_event_ns is the next join or end given the flows added so far
  // (infinity if none); a flow added later only delays ends, so it is never
  // after the true next event. advance processes every event up to `t_ns`
  // and moves the clock there; ended says whether flow `id` has ended.
  double next_event_ns() const;
  // earliest_end_ns: when flow `id` ends if no flow is added (a flow added
  // later only delays it, so it never ends before): a waiter may sleep
  // until then rather than to every next event (O(flows in flight)).
  double earliest_end_ns(size_t id) const;
  void advance(double t_ns);
  bool ended(size_t id) const;

 private:
  using Tag = std::pair<double, size_t>;  // served at which the flow ends, id
  // InFlight: the clock and the flows not ended yet, which earliest_end_ns
  // copies to look ahead with the same arithmetic as step.
  struct InFlight {
    double now_ns = 0;
    double served = 0;  // bytes each sharing flow received since the first flow
    std::priority_queue<Tag, std::vector<Tag>, std::greater<Tag>> sharing;
    std::deque<std::pair<double, size_t>> latent;  // join time, id (in start order)
  };
  static constexpr size_t kJoined = static_cast<size_t>(-1);

  // next_event: the next join or end of `f` (infinity if none).
  double next_event(const InFlight& f) const;
  // apply: the event of `f` at `next` (next_event(f)): a flow joins the
  // sharing (returns kJoined) or ends (returns its id).
  size_t apply(InFlight& f, double next) const;
  // step: processes the next event if it is at most `limit_ns`; false when
  // there is none.
  bool step(double limit_ns);

  double bytes_per_ns_;
  double latency_ns_;
  InFlight f_;
  std::vector<double> bytes_;
  std::vector<double> end_ns_;  // NaN until the flow ended
};

}  // namespace xferlab::sim
