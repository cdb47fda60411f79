// native/proact/results.h — ResultRow: one measured configuration, the derived
// metrics of the PROACT paper, and the profiler's choice file (Table II
// analogue) that workloads load with --config.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "common/table.h"
#include "native/proact/mechanism.h"

namespace xferlab::proact {

// Baselines: times of the same workload/GPUs/chunk (NaN when not measured).
struct Baselines {
  double one_gpu_ms = 0;  ///< same workload on 1 GPU (no transfers).
  double memcpy_ms = 0;   ///< bulk cudaMemcpyPeer duplication after the producer.
  double none_ms = 0;     ///< no transfers: the infinite-bandwidth limit.
  double track_ms = 0;    ///< tracking, no transfers.
};

// Verified: "yes" (identical on every GPU and matching the CPU reference),
// "no" (failed or not checked), "n/a" (none/track on several GPUs: nothing is
// moved, so peers hold stale parts by design and there is nothing to verify).
enum class Verified { kNo, kYes, kNotApplicable };
const char* verified_name(Verified v);

struct ResultRow {
  std::string workload;
  int gpus = 1;
  Mechanism mechanism = Mechanism::kNone;
  uint64_t chunk_bytes = 0;
  uint32_t threads = 0;  ///< 0 when the mechanism has no thread parameter.
  double time_ms = 0, p10_ms = 0, p90_ms = 0;
  Verified verified = Verified::kNo;
  std::string check;
  std::string trace;
  // Derived (NaN when not applicable).
  double speedup_vs_1gpu = 0;
  double speedup_vs_memcpy = 0;
  double frac_inf_bw = 0;
  double overlap = 0;
  double tracking_overhead = 0;
};

// derive: fill the derived metrics of `row` from `b` (non-positive baseline
// values count as not measured). overlap = 1 - exposed / bulk copy time, with
// exposed = time - (track for tracking mechanisms, else none) and bulk copy
// time = memcpy - none; tracking_overhead = track / none - 1.
void derive(const Baselines& b, ResultRow& row);

// results_table: one table row per ResultRow (columns documented in docs/proact.md).
Table results_table(const std::vector<ResultRow>& rows);

// ProfileChoice: the profiler's pick for one workload on one GPU count.
struct ProfileChoice {
  std::string workload;
  int gpus = 0;
  Mechanism mechanism = Mechanism::kPolling;
  uint64_t chunk_bytes = 0;
  uint32_t threads = 0;
  double time_ms = 0;
};

// pick_best: the fastest verified row among the PROACT mechanisms (inline,
// polling, polling_tma, cdp, cdp_tail); nullopt if none.
std::optional<ProfileChoice> pick_best(const std::vector<ResultRow>& rows);

// Choice file: CSV "workload,gpus,mechanism,chunk_bytes,threads,time_ms".
// write_choices merges into an existing file (same workload+gpus replaced).
Status write_choices(const std::string& path, const std::vector<ProfileChoice>& choices);
Result<std::vector<ProfileChoice>> read_choices(const std::string& path);
// parse_choices: `text` of a choice file; `source` names it in errors.
Result<std::vector<ProfileChoice>> parse_choices(const std::string& text,
                                                 const std::string& source);
// find_choice: the entry for workload on gpus, or a one-line error.
Result<ProfileChoice> find_choice(const std::vector<ProfileChoice>& choices,
                                  const std::string& workload, int gpus, const std::string& source);

}  // namespace xferlab::proact
