// sim/halo_command.h — `xferlab replay` and `xferlab validate` for halo-exchange
// and GPUDirect Async traces (halo_exchange, gdasync_bench): replay on the
// task-graph core, rescaled to N ranks, and the 2-rank validation table.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "common/flags.h"
#include "common/result.h"
#include "common/table.h"
#include "sim/command.h"

namespace xferlab::sim {

// halo_replay_flags: the flags of `xferlab replay HALO_TRACE` (its --help is
// appended to replay's).
FlagSet halo_replay_flags();

// run_halo_replay: `xferlab replay HALO_TRACE [--ranks N] ...` (args as given
// to replay; the first positional is a halo trace).
int run_halo_replay(const cli::Args& args, std::ostream& out, std::ostream& err);

// HaloValidation: what validate_halo found.
struct HaloValidation {
  Table table;  ///< one row per run (variant and size).
  /// |error| per case with its summary group ("halo/GDA fitted", "halo/GDA held-out").
  std::vector<std::pair<std::string, double>> cases;
  size_t beyond_tolerance = 0;
  /// issue #15's bound over the 2-rank held-out cases of median-of-N runs
  /// (sim/halo_bound.h, halo_bound_text); "" when there is no 2-rank held-out case.
  std::string bound;
};

// validate_halo: replays each run (rank-0 trace named or found; siblings are
// loaded) at its own geometry: the sizes fitted_in_family picks (the ends of
// each variant's range, and the first rendezvous-side size where another
// one is left to hold out) are fitted (their own components), the others are
// held out (components interpolated from the nearest fitted sizes around).
// Errors also: a malformed repeats.csv in a run's directory (read_launch_repeats).
Result<HaloValidation> validate_halo(const std::vector<std::string>& traces, double tolerance_pct);

// halo_substitution: for each held-out case among `traces` (as validate_halo
// splits them), the replay with the interpolated components and with one
// group of them at a time replaced by the case's own (fitted to its trace, as
// if it were a fitted size): which interpolated component a held-out error
// comes from (docs/halo_sim.md, "Validation"). Group "all" is the case's own
// workload (its error is the calibration's, <= 0.1 %). Columns: run, variant,
// size, substituted, measured_us, sim_us, error_pct.
Result<Table> halo_substitution(const std::vector<std::string>& traces);

}  // namespace xferlab::sim
