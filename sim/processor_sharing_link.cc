// sim/processor_sharing_link.cc — egalitarian processor sharing with a
// per-flow latency (see the header).
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
    : bytes_per_ns_(bw_bytes_per_s / 1e9), latency_ns_(latency_ns) {}

size_t ProcessorSharingLink::add(double t_ns, double bytes) {
  advance(t_ns);
  const size_t id = bytes_.size();
  bytes_.push_back(bytes);
  end_ns_.push_back(std::nan(""));
  // One latency for every flow, so flows join in the order they start.
  f_.latent.emplace_back(t_ns + latency_ns_, id);
  return id;
}

double ProcessorSharingLink::next_event(const InFlight& f) const {
  const double n = static_cast<double>(f.sharing.size());
  const double end =
      f.sharing.empty() ? kInf : f.now_ns + (f.sharing.top().first - f.served) * n / bytes_per_ns_;
  const double join = f.latent.empty() ? kInf : f.latent.front().first;
  return std::min(end, join);
}

size_t ProcessorSharingLink::apply(InFlight& f, double next) const {
  const double n = static_cast<double>(f.sharing.size());
  const double join = f.latent.empty() ? kInf : f.latent.front().first;
  if (join <= next) {
    // (A flow added a hair before the clock, SimGrid's wake-up rounding,
    // joins now.)
    if (n > 0 && join > f.now_ns) f.served += (join - f.now_ns) * bytes_per_ns_ / n;
    f.now_ns = std::max(f.now_ns, join);
    const size_t id = f.latent.front().second;
    f.latent.pop_front();
    f.sharing.emplace(f.served + bytes_[id], id);
    return kJoined;
  }
  const auto [tag, id] = f.sharing.top();
  f.sharing.pop();
  f.served = tag;
  f.now_ns = next;
  return id;
}

double ProcessorSharingLink::next_event_ns() const {
  return next_event(f_);
}

double ProcessorSharingLink::earliest_end_ns(size_t id) const {
  if (ended(id)) return end_ns_[id];
  InFlight f = f_;  // the flows in flight only
  while (true) {
    const double next = next_event(f);
    if (next == kInf) return kInf;  // only a bug: a flow added always ends
    if (apply(f, next) == id) return next;
  }
}

bool ProcessorSharingLink::ended(size_t id) const {
  return !std::isnan(end_ns_[id]);
}

bool ProcessorSharingLink::step(double limit_ns) {
  const double next = next_event(f_);
  if (next > limit_ns || next == kInf) return false;
  const size_t id = apply(f_, next);
  if (id != kJoined) end_ns_[id] = next;
  return true;
}

void ProcessorSharingLink::advance(double t_ns) {
  while (step(t_ns)) {
  }
  if (t_ns > f_.now_ns) {
    if (!f_.sharing.empty()) {
      f_.served += (t_ns - f_.now_ns) * bytes_per_ns_ / static_cast<double>(f_.sharing.size());
    }
    f_.now_ns = t_ns;
  }
}

double ProcessorSharingLink::end_ns(size_t id) {
  while (std::isnan(end_ns_[id])) {
    if (!step(kInf)) {  // a flow added always ends: only a bug gets here
      std::fprintf(stderr, "%s:%d: flow %zu never ends\n", __FILE__, __LINE__, id);
      std::abort();
    }
  }
  return end_ns_[id];
}

}  // namespace xferlab::sim
