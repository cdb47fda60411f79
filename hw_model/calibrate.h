// hw_model/calibrate.h — fitting a Platform's unpublished constants to GPU
// measurements (native/ link_bench, notify_bench, PROACT micro CSVs): link
// packet formats by a deterministic grid + golden-section least-squares fit of
// predicted vs measured goodput, copy-engine and notification latencies by
// closed-form fits, polling/CDP agent rates from the PROACT microbenchmark.
// Method and results: docs/calibration.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "hw_model/link_model.h"
#include "hw_model/platform.h"
#include "hw_model/write_coalescer.h"

namespace xferlab::hw_model {

// LinkBenchRow: one row of link_bench.csv (docs/native.md; read by sim/bench_csv.h).
struct LinkBenchRow {
  std::string test;     ///< sm_write | sm_read | ce_write | ce_read.
  std::string target;   ///< peer | host.
  std::string pattern;  ///< contiguous | scattered | single | batch.
  double write_bytes = 0;
  double stride_bytes = 0;
  double accesses = 0;
  double payload_bytes = 0;
  double time_ns = 0;  ///< median.
  double payload_bw_bytes_per_s = 0;
  int line = 0;  ///< line in the CSV (for messages).
};

// NotifyBenchRow: one row of notify_bench.csv.
struct NotifyBenchRow {
  std::string test;
  std::string variant;
  double median_ns = 0;
  int line = 0;
};

// ProactMicroRow: one row of PROACT's micro_gN.csv.
struct ProactMicroRow {
  std::string mechanism;  ///< none | memcpy | polling | polling_tma | cdp | inline | track.
  double chunk_bytes = 0;
  int64_t threads = 0;
  double time_ms = 0;
  int line = 0;
};

// predict_link_bw_bytes_per_s: payload bandwidth the model gives for a
// link_bench SM or copy-engine row (steady state, latency excluded) over
// `links` links. SM rows: a warp's contiguous stores/loads become one packet
// per touched line (warp_threads × size, at most a line); scattered ones one
// packet each; loads fetch at least a sector. Copy-engine rows: max-size packets.
double predict_link_bw_bytes_per_s(const LinkModel& link, int64_t links,
                                   const CoalescingConfig& coalescing, const LinkBenchRow& row);

// LinkFit: the fitted format and its error over the rows used.
struct LinkFit {
  LinkFormat format;
  double rms_log_error = 0;  ///< sqrt(mean(ln(model / measured)^2)).
  size_t rows = 0;
  /// One standard error of each continuous value (0: unconstrained by the
  /// rows, e.g. a rate limit no row reaches): the distance either way, the
  /// others held, at which the summed squared log error rises by the residual
  /// variance (sum / (rows - fitted values)); the larger side.
  double link_efficiency_se = 0;
  double max_packets_per_s_se = 0;
  double partial_line_writes_per_s_se = 0;
};
// fit_link_format: starting from `base`, fit header, data granule,
// full-write granule, partial-write extra, max payload and completion header
// (grid search) and link_efficiency, max_packet_rate and (if partial_line > 0)
// partial_line_write_rate (golden-section search) to SM rows and the copy-engine
// rows of ≥ 256 MiB in `rows`. Deterministic; ties keep the earlier candidate.
Result<LinkFit> fit_link_format(const LinkFormat& base, int64_t links,
                                const CoalescingConfig& coalescing,
                                std::span<const LinkBenchRow> rows);

// Comparison: one line of the model-vs-measurement table.
struct Comparison {
  std::string group;  ///< "nvlink sm_write scattered/128", "latency", ...
  std::string name;   ///< case within the group ("8 B", "flag one-way gpu->cpu").
  std::string unit;   ///< "B/s", "ns", "ms".
  double measured = 0;
  double model = 0;
  bool fitted = true;  ///< false: a check the fit did not use.
  double error() const { return measured != 0 ? model / measured - 1 : 0; }
};

// CalibrationInputs: the measurement files (texts already read) and names.
struct CalibrationInputs {
  std::vector<LinkBenchRow> link_bench;
  std::string link_bench_file;
  std::vector<NotifyBenchRow> notify_bench;  ///< optional (empty: latencies kept).
  std::string notify_bench_file;
  std::vector<ProactMicroRow> proact_micro;  ///< optional (empty: agent rates kept).
  std::string proact_micro_file;
  double proact_bytes_per_gpu = 256.0 * 1024 * 1024;  ///< bytes each GPU sends in the micro run.
};

struct CalibrationResult {
  Platform platform;  ///< base with the fitted values and their source notes.
  std::vector<Comparison> comparisons;
  LinkFit gpu_link_fit;
  LinkFit host_link_fit;
};

// calibrate: fit `base` to the inputs. Each fitted value is rounded to the
// digits its standard error leaves (round_to_uncertainty; 4 significant
// digits where the fit gives none: medians, single rows) and the error is
// recorded in Platform::uncertainties. The GPU link is fitted to the `peer`
// rows (over topology.links_per_gpu_pair links), the host link to the `host`
// rows. Errors: missing rows needed for a fit, or a fit that fails validation.
Result<CalibrationResult> calibrate(const Platform& base, const CalibrationInputs& inputs);

}  // namespace xferlab::hw_model
