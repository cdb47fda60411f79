// native/clock_sync.cc — fit of GPU <-> host clock offset and drift, host clocks.
#include "native/clock_sync.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace xferlab::native {

int64_t ClockFit::device_to_host_ns(uint64_t device_ns) const {
  const double dt = static_cast<double>(static_cast<int64_t>(device_ns - reference_ns));
  return static_cast<int64_t>(device_ns) + offset_ns + std::llround(drift_ppb * 1e-9 * dt);
}

Result<ClockFit> fit_clock_sync(const std::vector<ClockSample>& samples) {
  if (samples.empty()) return make_error("clock sync: no samples to fit");
  // Tightest round trip of each batch: its midpoint error is the smallest.
  std::map<uint32_t, const ClockSample*> best;
  for (size_t i = 0; i < samples.size(); ++i) {
    const ClockSample& s = samples[i];
    if (s.host_after_ns < s.host_before_ns)
      return make_error("clock sync: sample " + std::to_string(i) +
                        " has host_after_ns < host_before_ns");
    auto [it, inserted] = best.emplace(s.batch, &s);
    if (!inserted && s.rtt_ns() < it->second->rtt_ns()) it->second = &s;
  }
  ClockFit fit;
  fit.samples = static_cast<uint32_t>(samples.size());
  fit.batches = static_cast<uint32_t>(best.size());
  fit.reference_ns = best.begin()->second->device_ns;
  fit.min_rtt_ns = UINT64_MAX;
  // y = host midpoint - device time (the offset at x), x = device - reference.
  // Differences are taken in int64 before converting so that ns precision
  // survives epoch-sized timestamps.
  std::vector<double> xs;
  std::vector<int64_t> offsets;
  double max_half_rtt = 0;
  for (const auto& [batch, s] : best) {
    const int64_t mid_minus_dev = static_cast<int64_t>(s->host_before_ns - s->device_ns) +
                                  static_cast<int64_t>(s->rtt_ns() / 2);
    xs.push_back(static_cast<double>(static_cast<int64_t>(s->device_ns - fit.reference_ns)));
    offsets.push_back(mid_minus_dev);
    max_half_rtt = std::max(max_half_rtt, s->rtt_ns() / 2.0);
    fit.min_rtt_ns = std::min(fit.min_rtt_ns, s->rtt_ns());
  }
  // Center on the first offset (in integers: offsets can be epoch-sized) so
  // the regression works on small doubles.
  const int64_t y0 = offsets[0];
  std::vector<double> ys;
  for (int64_t y : offsets) ys.push_back(static_cast<double>(y - y0));
  double intercept = 0, slope = 0;
  if (xs.size() == 1) {
    fit.method = "pingpong-min-rtt";
  } else {
    fit.method = "pingpong-min-rtt-linear";
    double mx = 0, my = 0;
    for (size_t i = 0; i < xs.size(); ++i) mx += xs[i], my += ys[i];
    mx /= xs.size();
    my /= ys.size();
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      sxx += (xs[i] - mx) * (xs[i] - mx);
      sxy += (xs[i] - mx) * (ys[i] - my);
    }
    // Batches taken at the same device time cannot give a slope.
    slope = sxx > 0 ? sxy / sxx : 0;
    intercept = my - slope * mx;
  }
  double max_residual = 0;
  for (size_t i = 0; i < xs.size(); ++i)
    max_residual = std::max(max_residual, std::fabs(ys[i] - (intercept + slope * xs[i])));
  fit.offset_ns = y0 + std::llround(intercept);
  fit.drift_ppb = slope * 1e9;
  fit.uncertainty_ns = max_half_rtt + max_residual;
  return fit;
}

namespace {
uint64_t read_clock(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}
}  // namespace

uint64_t host_steady_ns() {
  return read_clock(CLOCK_MONOTONIC);
}
uint64_t host_realtime_ns() {
  return read_clock(CLOCK_REALTIME);
}

RealtimeOffset measure_realtime_offset() {
  RealtimeOffset best{0, 1e18};
  for (int i = 0; i < 32; ++i) {
    const uint64_t before = host_steady_ns();
    const uint64_t real = host_realtime_ns();
    const uint64_t after = host_steady_ns();
    const double half = (after - before) / 2.0;
    if (half < best.uncertainty_ns) {
      best.uncertainty_ns = half;
      best.offset_ns =
          static_cast<int64_t>(real) - static_cast<int64_t>(before + (after - before) / 2);
    }
  }
  return best;
}

}  // namespace xferlab::native
