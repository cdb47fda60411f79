// native/clock_sync_test.cc — the clock-sync fit recovers a known offset and
// drift from synthetic round trips with noise and asymmetric delays.
#include "native/clock_sync.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace xferlab::native {
namespace {

// synth: device clock = host clock - offset - drift*(host - host0); each round
// trip has a random request delay and reply delay (exponential-ish jitter).
std::vector<ClockSample> synth(int64_t offset_ns, double drift_ppb, uint64_t host0,
                               std::vector<uint64_t> batch_starts, int rounds, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint64_t> jitter(0, 3000);
  std::vector<ClockSample> out;
  for (size_t b = 0; b < batch_starts.size(); ++b) {
    uint64_t host = batch_starts[b];
    for (int r = 0; r < rounds; ++r) {
      const uint64_t before = host;
      const uint64_t seen = before + 400 + jitter(rng);  // host time of the device reading
      const uint64_t after = seen + 500 + jitter(rng);
      // Invert host = dev + offset + drift*(dev - ref) approximately (drift tiny).
      const double drift = drift_ppb * 1e-9;
      const uint64_t dev = static_cast<uint64_t>(
          static_cast<int64_t>(seen) - offset_ns -
          std::llround(drift * static_cast<double>(static_cast<int64_t>(seen - host0))));
      out.push_back(ClockSample{before, dev, after, static_cast<uint32_t>(b)});
      host = after + 1000;
    }
  }
  return out;
}

TEST(ClockSyncTest, OneBatchRecoversOffsetWithinHalfRtt) {
  const int64_t offset = 1'700'000'000'000'000'000 - 5'000'000'000;  // epoch-sized
  const uint64_t host0 = 5'000'000'000;
  auto samples = synth(-offset, 0, host0, {host0}, 64, 1);
  auto fit = fit_clock_sync(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_EQ(fit->method, "pingpong-min-rtt");
  EXPECT_EQ(fit->samples, 64u);
  EXPECT_EQ(fit->batches, 1u);
  EXPECT_DOUBLE_EQ(fit->drift_ppb, 0);
  EXPECT_LE(std::fabs(static_cast<double>(fit->offset_ns + offset)), fit->uncertainty_ns);
  EXPECT_LE(fit->uncertainty_ns, (900 + 6000) / 2.0);
  EXPECT_GE(fit->min_rtt_ns, 900u);
}

TEST(ClockSyncTest, TwoBatchesRecoverDrift) {
  const int64_t offset = 123'456'789;
  const double drift_ppb = 2500;  // 2.5 ppm
  const uint64_t host0 = 10'000'000'000;
  auto samples = synth(offset, drift_ppb, host0, {host0, host0 + 10'000'000'000ull}, 256, 7);
  auto fit = fit_clock_sync(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_EQ(fit->method, "pingpong-min-rtt-linear");
  EXPECT_EQ(fit->batches, 2u);
  // Over 10 s a 2.5 ppm drift is 25 us; min-RTT picks within ~1 us.
  EXPECT_NEAR(fit->drift_ppb, drift_ppb, 300);
  // Mapping any device time in the run lands within the stated uncertainty.
  for (const ClockSample& s : samples) {
    const double mid = s.host_before_ns / 2.0 + s.host_after_ns / 2.0;
    EXPECT_LE(std::fabs(fit->device_to_host_ns(s.device_ns) - mid),
              s.rtt_ns() / 2.0 + 2 * fit->uncertainty_ns);
  }
}

TEST(ClockSyncTest, PicksTightestRoundTrip) {
  std::vector<ClockSample> s = {
      {1000, 600, 3000, 0}, {5000, 4600, 5200, 0}, {9000, 8000, 12000, 0}};
  auto fit = fit_clock_sync(s);
  ASSERT_TRUE(fit.ok());
  EXPECT_EQ(fit->offset_ns, 5100 - 4600);
  EXPECT_DOUBLE_EQ(fit->uncertainty_ns, 100);
  EXPECT_EQ(fit->min_rtt_ns, 200u);
  EXPECT_EQ(fit->device_to_host_ns(4600), 5100);
}

TEST(ClockSyncTest, RejectsBadInput) {
  EXPECT_FALSE(fit_clock_sync({}).ok());
  auto r = fit_clock_sync({{2000, 1, 1000, 0}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("sample 0"), std::string::npos);
}

TEST(ClockSyncTest, RealtimeOffsetIsTight) {
  const RealtimeOffset r = measure_realtime_offset();
  EXPECT_LT(r.uncertainty_ns, 1e6);
  const int64_t direct =
      static_cast<int64_t>(host_realtime_ns()) - static_cast<int64_t>(host_steady_ns());
  EXPECT_LT(std::llabs(direct - r.offset_ns), 10'000'000);
}

}  // namespace
}  // namespace xferlab::native
