// native/bench/link_results.h — turns link-benchmark measurements into the
// CSV tables (derived columns: bandwidth, accesses/s, efficiency) and the
// per-path summary (copy-engine peak and initiation cost, SM vs CE).
// Pure C++ so the arithmetic is tested without a GPU. Columns: docs/native.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/table.h"
#include "native/stats.h"

namespace xferlab::native::bench {

// LinkMeasurement: one measured point (all `reps` timings summarized).
struct LinkMeasurement {
  std::string test;           ///< sm_write | sm_read | ce_write | ce_read.
  std::string target;         ///< peer | host.
  std::string pattern;        ///< contiguous | scattered (SM); single | batch (CE).
  uint64_t write_bytes = 0;   ///< bytes per access (SM) or per copy (CE).
  uint64_t stride_bytes = 0;  ///< distance between accesses (SM); = write_bytes for CE.
  uint64_t accesses = 0;      ///< accesses (SM) or copies (CE) per timed run.
  uint32_t ctas = 0;          ///< SM kernels; 0 for CE.
  uint32_t threads_per_cta = 0;
  Summary time_ns;          ///< per timed run.
  uint64_t mismatches = 0;  ///< data verification: values that were wrong.

  uint64_t payload_bytes() const { return accesses * write_bytes; }
  bool is_sm() const { return test.rfind("sm_", 0) == 0; }
  std::string op() const { return test.substr(3); }  ///< write | read.
};

// link_table: one row per measurement. Efficiency = payload bandwidth / the
// best contiguous SM bandwidth of the same op and target (SM rows), or / the
// peak copy-engine bandwidth of the same op and target (CE rows).
Table link_table(const std::vector<LinkMeasurement>& m);

// LinkPathSummary: one op x target path.
struct LinkPathSummary {
  std::string op, target;
  double sm_best_contiguous_bw_bytes_per_s = 0;
  double ce_peak_bw_bytes_per_s = 0;
  double sm_over_ce = 0;          ///< 0 when either is missing.
  double ce_initiation_ns = 0;    ///< smallest single copy: time - size / peak.
  double ce_back_to_back_ns = 0;  ///< smallest batched copy: time per copy.
  uint64_t ce_smallest_bytes = 0;
};

// summarize_paths: one entry per (op, target) seen, in first-seen order.
std::vector<LinkPathSummary> summarize_paths(const std::vector<LinkMeasurement>& m);

// link_summary_table: summarize_paths as a table; the sm_write/peer row's
// "goal" column says whether SM stores reach 95% of the copy-engine peak.
Table link_summary_table(const std::vector<LinkMeasurement>& m);

}  // namespace xferlab::native::bench
