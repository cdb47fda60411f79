// sim/explain.h — where the simulated time goes (`xferlab explain`): the
// critical-path attribution of a replay (sim/critical_path.h) as a table,
// the elasticity of end-to-end time to every numeric platform parameter, and
// the one-line reason why hardware PROACT loses to a software mechanism.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "common/table.h"
#include "sim/replay_engine.h"

namespace xferlab::sim {

struct Prepared;

// attribution_table: one row per cause with time on the critical path
// (mechanism, cause, time_us, share, tail_us), then a "total" row; rows of
// all `results` recorded with ReplayOptions::explain. The total row of the
// `measured` run's mechanism also carries measured_us and measured_source
// (Measured::reference_source); no measured run (scaled replay): empty.
Table attribution_table(const std::vector<ReplayResult>& results,
                        const std::optional<Measured>& measured);

// attribution_error: |sum of causes - e2e| / e2e (0 for an empty run).
double attribution_error(const ReplayResult& result);

// why_hardware_slower: "" unless the hardware row is slower than the best
// software mechanism (memcpy, inline, polling, cdp) among `results`; then one
// line naming the cause whose critical-path time exceeds the software's most,
// with what to change. Needs attribution in both results.
std::string why_hardware_slower(const std::vector<ReplayResult>& results);

// Sensitivity: d ln(e2e) / d ln(parameter), by a forward difference.
struct Sensitivity {
  std::string key;
  std::string value;      ///< as the preset has it (sized values for "auto").
  std::string perturbed;  ///< the value replayed.
  double elasticity = 0;
  double sim_us = 0;  ///< e2e at the perturbed value.
};

// sensitivities: for `mechanism`, every numeric platform parameter of
// prepared's preset (text, bool, enum and zero values skipped; auto sizes use
// their sized values) raised by `step` (relative; counts by at least 1), the
// data generation held fixed; replayed on `core`; sorted by |elasticity|,
// largest first.
Result<std::vector<Sensitivity>> sensitivities(const Prepared& prepared, Mechanism mechanism,
                                               double base_e2e_ns, ReplayCore core,
                                               double step = 0.1);

}  // namespace xferlab::sim
