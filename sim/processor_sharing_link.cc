// sim/processor_sharing_link.cc — egalitarian processor sharing with a
// per-flow latency, per capped lane (see the header).
#include "sim/processor_sharing_link.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace xferlab::sim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

ProcessorSharingLink::ProcessorSharingLink(double bw_bytes_per_s, double latency_ns)
    : ProcessorSharingLink(bw_bytes_per_s, latency_ns, 1, kInf) {}

ProcessorSharingLink::ProcessorSharingLink(double bw_bytes_per_s, double latency_ns, uint32_t lanes,
                                           double lane_cap_bytes_per_s)
    : bytes_per_ns_(bw_bytes_per_s / 1e9),
      latency_ns_(latency_ns),
      lane_cap_bytes_per_ns_(lane_cap_bytes_per_s / 1e9) {
  f_.lanes.resize(std::max<uint32_t>(lanes, 1));
}

size_t ProcessorSharingLink::add(double t_ns, double bytes, uint32_t lane) {
  advance(t_ns);
  const size_t id = bytes_.size();
  bytes_.push_back(bytes);
  lane_.push_back(lane);
  end_ns_.push_back(std::nan(""));
  // One latency for every flow, so flows join in the order they start.
  f_.latent.emplace_back(t_ns + latency_ns_, id);
  return id;
}

void ProcessorSharingLink::share(InFlight& f) const {
  if (f.lanes.size() == 1 && lane_cap_bytes_per_ns_ == kInf) {  // one queue
    f.lanes[0].rate = bytes_per_ns_;
    f.lanes[0].share = static_cast<double>(f.lanes[0].sharing.size());
  } else {
    share_lanes(f);
  }
}

void ProcessorSharingLink::share_lanes(InFlight& f) const {
  double flows = 0;  // flows left once bound lanes are taken out
  for (const Lane& l : f.lanes) flows += static_cast<double>(l.sharing.size());
  double rest = bytes_per_ns_;  // the link's bandwidth left for them
  // Progressive filling: the lane with the most flows binds first, when its
  // cap over its flows is below the link's level (rest / flows). Caps are
  // equal, so once the fullest lane left does not bind, none does.
  order_.clear();
  size_t bound = 0;
  if (lane_cap_bytes_per_ns_ < kInf) {
    for (size_t j = 0; j < f.lanes.size(); ++j) {
      if (!f.lanes[j].sharing.empty()) order_.push_back(j);
    }
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      return f.lanes[a].sharing.size() > f.lanes[b].sharing.size();
    });
    for (size_t j : order_) {
      const double n = static_cast<double>(f.lanes[j].sharing.size());
      if (!(lane_cap_bytes_per_ns_ * flows < rest * n)) break;
      rest -= lane_cap_bytes_per_ns_;
      flows -= n;
      ++bound;
    }
  }
  for (Lane& l : f.lanes) {
    l.rate = rest;
    l.share = flows;
  }
  for (size_t b = 0; b < bound; ++b) {
    Lane& l = f.lanes[order_[b]];
    l.rate = lane_cap_bytes_per_ns_;
    l.share = static_cast<double>(l.sharing.size());
  }
}

void ProcessorSharingLink::serve(InFlight& f, double t_ns, size_t except) {
  if (!(t_ns > f.now_ns)) return;
  for (size_t j = 0; j < f.lanes.size(); ++j) {
    Lane& l = f.lanes[j];
    if (j != except && l.share > 0) l.served += (t_ns - f.now_ns) * l.rate / l.share;
  }
}

ProcessorSharingLink::Event ProcessorSharingLink::next_event(const InFlight& f) {
  Event end{kInf, 0};
  size_t id = 0;
  for (size_t j = 0; j < f.lanes.size(); ++j) {
    const Lane& l = f.lanes[j];
    if (l.sharing.empty()) continue;
    const double t = f.now_ns + (l.sharing.top().first - l.served) * l.share / l.rate;
    if (t < end.t_ns || (t == end.t_ns && l.sharing.top().second < id)) {
      end = Event{t, j};
      id = l.sharing.top().second;
    }
  }
  const double join = f.latent.empty() ? kInf : f.latent.front().first;
  return join <= end.t_ns && join < kInf ? Event{join, kJoin} : end;
}

size_t ProcessorSharingLink::apply(InFlight& f, const Event& e) const {
  if (e.lane == kJoin) {
    // (A flow added a hair before the clock, SimGrid's wake-up rounding,
    // joins now.)
    serve(f, e.t_ns);
    f.now_ns = std::max(f.now_ns, e.t_ns);
    const size_t id = f.latent.front().second;
    f.latent.pop_front();
    Lane& l = f.lanes[lane_[id]];
    l.sharing.emplace(l.served + bytes_[id], id);
    share(f);
    return kJoined;
  }
  Lane& l = f.lanes[e.lane];
  const auto [tag, id] = l.sharing.top();
  l.sharing.pop();
  serve(f, e.t_ns, e.lane);
  l.served = tag;
  f.now_ns = e.t_ns;
  share(f);
  return id;
}

bool ProcessorSharingLink::ended(size_t id) const {
  return !std::isnan(end_ns_[id]);
}

size_t ProcessorSharingLink::step(double limit_ns) {
  const Event e = next_event(f_);
  if (e.t_ns > limit_ns || e.t_ns == kInf) return kNone;
  const size_t id = apply(f_, e);
  if (id != kJoined) end_ns_[id] = e.t_ns;
  return id;
}

void ProcessorSharingLink::advance(double t_ns) {
  while (step(t_ns) != kNone) {
  }
  serve(f_, t_ns);
  f_.now_ns = std::max(f_.now_ns, t_ns);
}

double ProcessorSharingLink::end_ns(size_t id) {
  while (std::isnan(end_ns_[id])) {
    if (step(kInf) == kNone) {  // a flow added always ends: only a bug gets here
      std::fprintf(stderr, "%s:%d: flow %zu never ends\n", __FILE__, __LINE__, id);
      std::abort();
    }
  }
  return end_ns_[id];
}

std::optional<size_t> ProcessorSharingLink::next_end(double limit_ns) {
  while (true) {
    const size_t id = step(limit_ns);
    if (id == kNone) return std::nullopt;
    if (id != kJoined) return id;
  }
}

size_t ProcessorSharingLink::next_end() {
  const std::optional<size_t> id = next_end(kInf);
  if (!id) {  // the caller waits for a flow in flight: only a bug gets here
    std::fprintf(stderr, "%s:%d: no flow in flight\n", __FILE__, __LINE__);
    std::abort();
  }
  return *id;
}

}  // namespace xferlab::sim
