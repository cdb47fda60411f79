// sim/critical_path.cc — critical-path nodes and their attribution.
#include "sim/critical_path.h"

#include <algorithm>

namespace xferlab::sim {

const char* cause_name(Cause c) {
  switch (c) {
    case Cause::kCompute: return "compute";
    case Cause::kLaunch: return "launch";
    case Cause::kTracking: return "tracking";
    case Cause::kCounterUnit: return "counter_unit";
    case Cause::kDescriptor: return "descriptor";
    case Cause::kWindowStall: return "window_stall";
    case Cause::kAgentCopy: return "agent_copy";
    case Cause::kLinkSerialization: return "link_serialization";
    case Cause::kPacketOverhead: return "packet_overhead";
    case Cause::kLinkLatency: return "link_latency";
    case Cause::kGap: return "gap";
  }
  return "?";
}

double Attribution::sum_ns() const {
  double s = 0;
  for (double v : ns) s += v;
  return s;
}

CriticalPath::Node CriticalPath::add(double t_ns, Node pred, Cause cause, uint32_t gpu) {
  nodes_.push_back(N{std::max(t_ns, time_ns(pred)), pred, cause, gpu});
  return static_cast<Node>(nodes_.size()) - 1;
}

CriticalPath::Node CriticalPath::later(Node a, Node b) const {
  if (a < 0) return b;
  if (b < 0) return a;
  return time_ns(b) > time_ns(a) ? b : a;
}

CriticalPath::Node CriticalPath::cursor(int64_t actor) const {
  auto it = cursor_.find(actor);
  return it == cursor_.end() ? kNone : it->second;
}

CriticalPath::Node CriticalPath::step(int64_t actor, double t_ns, Cause cause, uint32_t gpu) {
  const Node c = cursor(actor);
  if (t_ns <= time_ns(c) && c >= 0) return c;
  return cursor_[actor] = add(t_ns, c, cause, gpu);
}

CriticalPath::Node CriticalPath::join(int64_t actor, Node event) {
  return cursor_[actor] = later(cursor(actor), event);
}

CriticalPath::Node CriticalPath::flight(Node start, double end_ns, double latency_ns,
                                        double payload_bytes, double wire_bytes,
                                        double bw_bytes_per_s, double cap_bytes_per_s, bool agent,
                                        uint32_t gpu) {
  const double s = time_ns(start);
  double left = std::max(0.0, end_ns - s);
  // Each part takes what is left, in the order the bytes experience them.
  auto take = [&](double want) {
    const double got = std::clamp(want, 0.0, left);
    left -= got;
    return got;
  };
  const double at_link = bw_bytes_per_s > 0 ? 1e9 / bw_bytes_per_s : 0;
  const double lat = take(latency_ns);
  const double ser = take(payload_bytes * at_link);
  const double ovh = take((wire_bytes - payload_bytes) * at_link);
  const double capped = cap_bytes_per_s > 0 && cap_bytes_per_s < bw_bytes_per_s
                            ? take(wire_bytes * (1e9 / cap_bytes_per_s - at_link))
                            : 0;
  Node n = add(s + lat, start, Cause::kLinkLatency, gpu);
  n = add(time_ns(n) + ser, n, Cause::kLinkSerialization, gpu);
  n = add(time_ns(n) + ovh, n, Cause::kPacketOverhead, gpu);
  n = add(time_ns(n) + capped, n, agent ? Cause::kAgentCopy : Cause::kWindowStall, gpu);
  return add(end_ns, n, Cause::kLinkSerialization, gpu);  // the rest: sharing the link
}

void CriticalPath::add_iteration(double start_ns, double compute_end_ns) {
  iterations_.emplace_back(start_ns, compute_end_ns);
}

Attribution CriticalPath::attribute(Node end, bool keep_segments) const {
  Attribution a;
  a.total_ns = time_ns(end);
  for (Node n = end; n >= 0; n = nodes_[static_cast<size_t>(n)].pred) {
    const N& node = nodes_[static_cast<size_t>(n)];
    const double from = time_ns(node.pred), to = node.t_ns;
    if (to <= from) continue;
    const size_t c = static_cast<size_t>(node.cause);
    a.ns[c] += to - from;
    // Tail: after the last kernel of the iteration this interval belongs to.
    auto it = std::upper_bound(iterations_.begin(), iterations_.end(), from,
                               [](double t, const auto& i) { return t < i.first; });
    if (it != iterations_.begin()) {
      const double compute_end = std::prev(it)->second;
      a.tail_ns[c] += std::max(0.0, to - std::max(from, compute_end));
    }
    if (keep_segments) a.segments.push_back({from, to, node.cause, node.gpu});
  }
  if (!iterations_.empty()) a.compute_end_ns = iterations_.back().second;
  std::reverse(a.segments.begin(), a.segments.end());
  return a;
}

}  // namespace xferlab::sim
