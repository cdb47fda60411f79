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
  latent_.emplace_back(t_ns + latency_ns_, id);
  return id;
}

double ProcessorSharingLink::next_event_ns() const {
  const double n = static_cast<double>(sharing_.size());
  const double end =
      sharing_.empty() ? kInf : now_ns_ + (sharing_.top().first - served_) * n / bytes_per_ns_;
  const double join = latent_.empty() ? kInf : latent_.front().first;
  return std::min(end, join);
}

double ProcessorSharingLink::earliest_end_ns(size_t id) const {
  if (ended(id)) return end_ns_[id];
  // step() on copies of the flows in flight (the same arithmetic).
  auto sharing = sharing_;
  auto latent = latent_;
  double served = served_;
  double now = now_ns_;
  while (true) {
    const double n = static_cast<double>(sharing.size());
    const double end =
        sharing.empty() ? kInf : now + (sharing.top().first - served) * n / bytes_per_ns_;
    const double join = latent.empty() ? kInf : latent.front().first;
    const double next = std::min(end, join);
    if (next == kInf) return kInf;  // only a bug: a flow added always ends
    if (join <= next) {
      if (n > 0 && join > now) served += (join - now) * bytes_per_ns_ / n;
      now = std::max(now, join);
      const size_t j = latent.front().second;
      latent.pop_front();
      sharing.emplace(served + bytes_[j], j);
    } else {
      const auto [tag, j] = sharing.top();
      if (j == id) return next;
      sharing.pop();
      served = tag;
      now = next;
    }
  }
}

bool ProcessorSharingLink::ended(size_t id) const {
  return !std::isnan(end_ns_[id]);
}

bool ProcessorSharingLink::step(double limit_ns) {
  const double n = static_cast<double>(sharing_.size());
  const double next = next_event_ns();
  if (next > limit_ns || next == kInf) return false;
  const double join = latent_.empty() ? kInf : latent_.front().first;
  if (join <= next) {
    // (A flow added a hair before the clock, SimGrid's wake-up rounding,
    // joins now.)
    if (n > 0 && join > now_ns_) served_ += (join - now_ns_) * bytes_per_ns_ / n;
    now_ns_ = std::max(now_ns_, join);
    const size_t id = latent_.front().second;
    latent_.pop_front();
    sharing_.emplace(served_ + bytes_[id], id);
  } else {
    const auto [tag, id] = sharing_.top();
    sharing_.pop();
    served_ = tag;
    now_ns_ = next;
    end_ns_[id] = next;
  }
  return true;
}

void ProcessorSharingLink::advance(double t_ns) {
  while (step(t_ns)) {
  }
  if (t_ns > now_ns_) {
    if (!sharing_.empty()) {
      served_ += (t_ns - now_ns_) * bytes_per_ns_ / static_cast<double>(sharing_.size());
    }
    now_ns_ = t_ns;
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
