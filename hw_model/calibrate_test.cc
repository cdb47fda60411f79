// hw_model/calibrate_test.cc — the fit recovers known constants from
// synthetic link_bench rows, and the calibrated platform dumps to a loadable
// preset. (Reading the CSVs: sim/bench_csv_test.cc.)
#include "hw_model/calibrate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "common/number.h"

namespace xferlab::hw_model {
namespace {

// synthetic_link_bench: the rows link_bench measures, with bandwidths the
// model predicts for `peer` over `links` links and `host` over one link.
std::vector<LinkBenchRow> synthetic_link_bench(const LinkFormat& peer, int64_t links,
                                               const LinkFormat& host) {
  CoalescingConfig coalescing;
  std::vector<LinkBenchRow> rows;
  auto emit = [&](const LinkFormat& f, int64_t n, const char* target) {
    LinkModel m = *LinkModel::create(f);
    auto row = [&](const char* test, const char* pattern, double size, double stride,
                   double accesses) {
      LinkBenchRow r{test, target, pattern, size, stride, accesses, size * accesses, 0, 0};
      r.payload_bw_bytes_per_s = predict_link_bw_bytes_per_s(m, n, coalescing, r);
      r.time_ns = r.payload_bytes / r.payload_bw_bytes_per_s * 1e9;
      r.line = static_cast<int>(rows.size()) + 2;
      rows.push_back(r);
    };
    for (const char* test : {"sm_write", "sm_read"}) {
      for (double s = 1; s <= 256; s *= 2) row(test, "contiguous", s, s, 268435456 / s);
      for (double s = 1; s <= 64; s *= 2) row(test, "scattered", s, 128, 2097152);
      for (double s = 1; s <= 128; s *= 2) row(test, "scattered", s, 256, 1048576);
    }
    row("ce_write", "single", 1073741824, 1073741824, 1);
    row("ce_read", "single", 1073741824, 1073741824, 1);
  };
  emit(peer, links, "peer");
  emit(host, 1, "host");
  return rows;
}

LinkFormat truth_nvlink() {
  LinkFormat f = *builtin_link_format("nvlink4");
  f.header_bytes = 16;
  f.full_write_granule_bytes = 8;
  f.partial_write_bytes = 16;
  f.link_efficiency = 0.92;
  f.max_packets_per_s = 0.7e9;
  return f;
}

LinkFormat truth_pcie() {
  LinkFormat f = *builtin_link_format("pcie5");
  f.header_bytes = 20;
  f.link_efficiency = 0.95;
  f.max_packets_per_s = 0.8e9;
  f.partial_line_bytes = 64;
  f.partial_line_writes_per_s = 0.45e9;
  return f;
}

// synthetic_inputs: link_bench rows of truth_nvlink over 18 links and truth_pcie.
CalibrationInputs synthetic_inputs() {
  CalibrationInputs in;
  in.link_bench = synthetic_link_bench(truth_nvlink(), 18, truth_pcie());
  in.link_bench_file = "synthetic.csv";
  return in;
}

// add_copy_engine_rows: T = 9 us + size / 390 GB/s at 4 KiB, 1 MiB and 64 MiB.
void add_copy_engine_rows(CalibrationInputs& in) {
  for (double s : {4096.0, 1048576.0, 67108864.0}) {
    in.link_bench.push_back(
        {"ce_write", "peer", "single", s, s, 1, s, 9000 + s / 390e9 * 1e9, s / 1e-6, 0});
  }
}

// calibrate_from: calibrate `in` starting from h200x2_nvlink4 with `settings`
// (by default the builtin link formats: the committed preset is itself calibrated).
Result<CalibrationResult> calibrate_from(
    const CalibrationInputs& in,
    const std::vector<std::pair<const char*, const char*>>& settings = {
        {"gpu_link.format", "nvlink4"}, {"host_link.format", "pcie5"}}) {
  Platform base = *load_platform("h200x2_nvlink4");
  for (const auto& [key, value] : settings) XF_RETURN_IF_ERROR(set_parameter(base, key, value));
  return calibrate(base, in);
}

TEST(CalibrateTest, FitRecoversKnownLinkConstants) {
  std::vector<LinkBenchRow> peer;
  for (const LinkBenchRow& r : synthetic_link_bench(truth_nvlink(), 18, truth_pcie()))
    if (r.target == "peer") peer.push_back(r);
  // Start from the unfitted builtin (header 16, full granule 32, no rate limit).
  LinkFormat start = *builtin_link_format("nvlink4");
  start.header_bytes = 24;
  Result<LinkFit> fit = fit_link_format(start, 18, CoalescingConfig{}, peer);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_LT(fit->rms_log_error, 1e-3);
  EXPECT_EQ(fit->format.header_bytes, 16);
  EXPECT_EQ(fit->format.full_write_granule_bytes, 8);
  EXPECT_EQ(fit->format.partial_write_bytes, 16);
  EXPECT_EQ(fit->format.max_payload_bytes, 256);
  EXPECT_NEAR(fit->format.link_efficiency, 0.92, 0.002);
  EXPECT_NEAR(fit->format.max_packets_per_s, 0.7e9, 0.01e9);
}

TEST(CalibrateTest, CalibrateFitsBothLinksAndWritesLoadablePreset) {
  CalibrationInputs in = synthetic_inputs();
  add_copy_engine_rows(in);
  Result<CalibrationResult> r = calibrate_from(in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NEAR(r->host_link_fit.format.partial_line_writes_per_s, 0.45e9, 0.01e9);
  EXPECT_NEAR(r->host_link_fit.format.link_efficiency, 0.95, 0.005);
  EXPECT_NEAR(r->platform.software.memcpy_initiation_ns, 9000, 10);
  for (const Comparison& c : r->comparisons)
    if (c.unit == "B/s") {
      EXPECT_NEAR(c.error(), 0, 1e-3) << c.group << " " << c.name;
    }
  // The dump loads back to the same fitted values.
  Result<Platform> again = parse_platform(dump_platform(r->platform), "calibrated.toml");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->gpu_link.header_bytes, 16);
  EXPECT_DOUBLE_EQ(again->gpu_link.link_efficiency, r->platform.gpu_link.link_efficiency);
  EXPECT_NE(again->sources.at("gpu_link.header").find("xferlab calibrate"), std::string::npos);
  // What validate labels in-sample: the base's fitting set (constants kept) + this file.
  EXPECT_TRUE(again->fitted_on.ends_with("; synthetic.csv")) << again->fitted_on;
}

// PROACT micro rows generated from known agent costs: 256 MiB per GPU, none
// 0.7 ms at every chunk size, the agent starting when the first chunk is
// written and copying B / (slice × workers) slices of fixed + slice / bw.
std::vector<ProactMicroRow> synthetic_agent_rows(const std::string& mechanism, int64_t threads,
                                                 double fixed_ns, double worker_bw) {
  const double bytes = 256.0 * 1024 * 1024, none_ms = 0.7;
  std::vector<ProactMicroRow> rows;
  for (double chunk = 4096; chunk < bytes; chunk *= 4) {
    const double slice = std::min(16384.0, chunk), workers = static_cast<double>(threads) / 32;
    const double ms = chunk / bytes * none_ms +
                      bytes / slice / workers * (fixed_ns + slice / worker_bw * 1e9) * 1e-6;
    rows.push_back({mechanism, chunk, threads, ms, static_cast<int>(rows.size()) + 2});
  }
  return rows;
}

// The agents' costs per slice, a fixed part and a per-byte rate, come back
// from their multi-chunk rows; the single-chunk rows (copied after the
// kernel; at many threads link-bound) and the link-bound thread counts do
// not count. Before, the per-thread rate was B / (threads × T) over every
// row with T >= 2 × none, single-chunk ones included, and the TMA
// turnaround one constant from the single-chunk rows.
TEST(CalibrateTest, AgentSliceCostsFromMultiChunkRows) {
  CalibrationInputs in = synthetic_inputs();
  add_copy_engine_rows(in);
  const double bytes = 256.0 * 1024 * 1024;
  std::vector<ProactMicroRow> rows;
  for (double chunk = 4096; chunk <= bytes; chunk *= 4) rows.push_back({"none", chunk, 0, 0.7, 2});
  for (const auto& r : synthetic_agent_rows("polling", 1024, 670, 32 * 175e6)) rows.push_back(r);
  for (const auto& r : synthetic_agent_rows("polling_tma", 1024, 880, 16e9)) rows.push_back(r);
  // Single chunks: copied after the kernel (faster per byte than the model,
  // as measured), and link-bound at 8192 threads: must not count.
  rows.push_back({"polling", bytes, 1024, 0.7 + 1.5, 90});
  rows.push_back({"polling", bytes, 8192, 0.7 + bytes / 345e9 * 1e3, 91});
  rows.push_back({"polling_tma", bytes, 1024, 0.7 + 0.5, 92});
  // Many threads at the link, slower than the agents would be: not agent-bound.
  rows.push_back({"polling_tma", 1048576, 8192, 0.95, 93});
  rows.push_back({"polling", 4096, 8192, 0.8, 94});
  in.proact_micro = rows;
  in.proact_micro_file = "traces/real/x/micro.csv";
  Result<CalibrationResult> r = calibrate_from(
      in, {{"gpu_link.format", "nvlink4"}, {"software.tma_slice_turnaround", "0ns"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const SoftwareConfig& sw = r->platform.software;
  EXPECT_NEAR(sw.polling_slice_overhead_ns, 670, 1);
  EXPECT_NEAR(sw.copy_bw_per_thread_bytes_per_s, 175e6, 0.2e6);
  EXPECT_NEAR(sw.tma_slice_turnaround_ns, 880, 1);
  EXPECT_NEAR(sw.tma_slice_bw_bytes_per_s, 16e9, 0.02e9);
  for (const char* key : {"software.polling_slice_overhead", "software.copy_bw_per_thread",
                          "software.tma_slice_turnaround", "software.tma_slice_bw"}) {
    EXPECT_NE(r->platform.sources.at(key).find("x/micro.csv"), std::string::npos) << key;
  }
  // Every multi-chunk agent row at 1024 threads is reproduced in-sample.
  for (const Comparison& c : r->comparisons) {
    if (c.group.find("1024 threads") != std::string::npos && c.name != "256 MiB chunks" &&
        c.group.find("cdp") == std::string::npos) {
      EXPECT_NEAR(c.error(), 0, 1e-3) << c.group << " " << c.name;
    }
  }
  EXPECT_NE(r->platform.fitted_on.find("x/micro.csv"), std::string::npos) << r->platform.fitted_on;
  // The dump loads back with the new keys.
  Result<Platform> again = parse_platform(dump_platform(r->platform), "calibrated.toml");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->software.polling_slice_overhead_ns, sw.polling_slice_overhead_ns);
  EXPECT_EQ(again->software.tma_slice_bw_bytes_per_s, sw.tma_slice_bw_bytes_per_s);
}

// Noisy copy-engine rows (T = 9 us + size / 390 GB/s, +-2 % alternately):
// the fit's standard errors are recorded, the values rounded to the digits
// they leave, and both survive the preset's text.
TEST(CalibrateTest, FittedValuesCarryTheirStandardError) {
  CalibrationInputs in = synthetic_inputs();
  int i = 0;
  for (double s : {4096.0, 65536.0, 1048576.0, 16777216.0, 67108864.0, 268435456.0}) {
    const double t = (9000 + s / 390e9 * 1e9) * (i++ % 2 ? 1.02 : 0.98);
    in.link_bench.push_back({"ce_write", "peer", "single", s, s, 1, s, t, s / t * 1e9, 0});
  }
  Result<CalibrationResult> r = calibrate_from(in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Platform& p = r->platform;
  // 2 % scatter on 9 us: an intercept error of the order of 100 ns.
  const double se = p.uncertainties.at("software.memcpy_initiation");
  EXPECT_GT(se, 20);
  EXPECT_LT(se, 500);
  EXPECT_EQ(se, round_significant(se, 2));
  EXPECT_EQ(p.software.memcpy_initiation_ns,
            round_to_uncertainty(p.software.memcpy_initiation_ns, se));
  EXPECT_NEAR(p.software.memcpy_initiation_ns, 9000, 3 * se);
  EXPECT_EQ(p.uncertainties.at("copy_engine.engine_start"), se);
  EXPECT_GT(p.uncertainties.at("copy_engine.outstanding_packets"), 0);
  // host_initiation comes from no row here (no batch rows): untouched, no error.
  EXPECT_EQ(p.uncertainties.count("copy_engine.host_initiation"), 0u);
  // Exact link rows: the packet rate limit is recovered and bounded.
  EXPECT_GT(p.uncertainties.at("gpu_link.max_packet_rate"), 0);
  const std::string text = dump_platform(p);
  EXPECT_NE(text.find("memcpy_initiation = { value = \""), std::string::npos);
  EXPECT_NE(text.find(", uncertainty = \""), std::string::npos);
  Result<Platform> again = parse_platform(text, "calibrated.toml");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->uncertainties, p.uncertainties);
  EXPECT_EQ(dump_platform(*again), text);
}

}  // namespace
}  // namespace xferlab::hw_model
