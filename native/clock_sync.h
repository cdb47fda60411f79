// native/clock_sync.h — GPU <-> host clock synchronization: samples, the fit
// of offset and drift, and the measurement on a device.
//
// A sample is one round trip: the host reads its clock (before), a spinning
// kernel reads %globaltimer when it sees the host's request, the host reads its
// clock again when it sees the answer (after). The device reading happened
// between before and after, so mid = (before + after) / 2 estimates the host
// time of the device reading within +-(after - before) / 2.
//
// A batch is a burst of round trips (one sync_clocks call). Offset comes from
// the tightest round trip of each batch; drift needs batches far apart in time
// (e.g. one before and one after the measured work): within one burst of a few
// hundred microseconds a ppm-level drift is far below the round-trip jitter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace xferlab::native {

// ClockSample: one round trip (host times in the host steady clock, ns).
struct ClockSample {
  uint64_t host_before_ns = 0;
  uint64_t device_ns = 0;  ///< %globaltimer read by the kernel.
  uint64_t host_after_ns = 0;
  uint32_t batch = 0;  ///< which sync burst the sample belongs to.

  uint64_t rtt_ns() const { return host_after_ns - host_before_ns; }
};

// ClockFit: host_ns = device_ns + offset_ns + drift_ppb * 1e-9 * (device_ns - reference_ns)
// (the same form as traces::ClockDomain).
struct ClockFit {
  int64_t offset_ns = 0;
  double drift_ppb = 0;
  uint64_t reference_ns = 0;  ///< device time of the first batch's best sample.
  double uncertainty_ns = 0;  ///< largest half round trip used + largest fit residual.
  uint32_t samples = 0;       ///< round trips measured (all batches).
  uint32_t batches = 0;
  uint64_t min_rtt_ns = 0;  ///< tightest round trip seen.
  std::string method;       ///< "pingpong-min-rtt" (1 batch) or "pingpong-min-rtt-linear" (>1).

  // device_to_host_ns: a device timestamp on the host steady clock.
  int64_t device_to_host_ns(uint64_t device_ns) const;
};

// fit_clock_sync: the fit described above. Errors (usage): no samples, or a
// sample whose after < before.
Result<ClockFit> fit_clock_sync(const std::vector<ClockSample>& samples);

// measure_clock_samples: `rounds` round trips against a kernel on `device`
// (current device is restored), appended to `out` with the given batch index.
// Each wait is bounded (1 s); a timeout returns a runtime error naming it.
// Needs CUDA; defined in clock_sync_gpu.cu.
Status measure_clock_samples(int device, uint32_t rounds, uint32_t batch,
                             std::vector<ClockSample>& out);

// measure_globaltimer_step_ns: the smallest non-zero increment of
// %globaltimer seen over consecutive reads on `device` (its update period:
// a timestamp is only as fine as this). Needs CUDA (clock_sync_gpu.cu).
Result<uint64_t> measure_globaltimer_step_ns(int device);

// host_steady_ns: the host clock used for samples and host events
// (CLOCK_MONOTONIC, ns).
uint64_t host_steady_ns();
// host_realtime_ns: CLOCK_REALTIME, ns since the Unix epoch.
uint64_t host_realtime_ns();

// RealtimeOffset: realtime - steady, read with the tightest of several
// back-to-back bracketed readings.
struct RealtimeOffset {
  int64_t offset_ns = 0;
  double uncertainty_ns = 0;
};
RealtimeOffset measure_realtime_offset();

}  // namespace xferlab::native
