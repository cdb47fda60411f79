// sim/halo_command.h — `xferlab replay` and `xferlab validate` for halo-exchange
// and GPUDirect Async traces (halo_exchange, gdasync_bench): replay on the
// task-graph core, rescaled to N ranks, and the 2-rank validation table.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "common/flags.h"
#include "common/result.h"
#include "common/table.h"
#include "sim/command.h"

namespace xferlab::sim {

// The committed halo traces' machine: the default preset of their replay.
inline constexpr const char* kHaloTracePlatform = "h200x2_nvlink4";

// Largest rank count a halo replay rescales to (--ranks).
inline constexpr int64_t kMaxHaloRanks = 1 << 20;

// HaloReplayRequest: what `xferlab replay HALO_TRACE` replays (its flags).
struct HaloReplayRequest {
  std::string trace;                          ///< a halo or GDA rank-0 trace.
  std::string platform = kHaloTracePlatform;  ///< preset of the network, NICs, notification.
  /// Platform overrides "key=value" (--set), validated as the PROACT replay's;
  /// the keys the halo model reads: docs/halo_sim.md, "Sweeps".
  std::vector<std::string> sets;
  std::vector<int> ranks;          ///< rank counts to rescale to; empty: the trace's.
  int ranks_per_node = 0;          ///< 0: the trace's, or the platform's when rescaled.
  std::string model = "replay";    ///< replay | kmodel.
  std::string mode = "measured";   ///< measured | hw-doorbell | nic.
  std::string variant;             ///< another variant traced beside it, or all; "": the trace's.
  std::string graph = "reduced";   ///< reduced | fine.
  std::string scaling = "strong";  ///< what `ranks` keeps: strong | weak.
  /// The wall_s column (host seconds per replay): left out by sweeps, whose
  /// CSV is the same on every run and for any split of the points.
  bool wall_time = true;
};

// add_halo_variant_flags: --model, --mode, --variant (replay and sweep of a
// halo trace), defaults from HaloReplayRequest.
FlagSet& add_halo_variant_flags(FlagSet& f);

// halo_replay_flags: the flags of `xferlab replay HALO_TRACE` (its --help is
// appended to replay's).
FlagSet halo_replay_flags();

// HaloReplayOutput: the replay's rows (halo_replay_table) and one line per
// variant skipped (a --mode that does not apply to it).
struct HaloReplayOutput {
  Table table;
  std::vector<std::string> skipped;
};

// halo_replay_table: the columns of halo_replay (wall_s when `wall_time`).
Table halo_replay_table(bool wall_time);

// check_halo_request: model, mode, graph and scaling are among their flags'
// values, the trace loads and the platform with the request's sets loads
// and validates (a sweep checks each point before replaying any).
Status check_halo_request(const HaloReplayRequest& request);

// halo_replay: one row per rank count and variant (a choice field's bad
// value: an error naming the field, as check_halo_request).
Result<HaloReplayOutput> halo_replay(const HaloReplayRequest& request);

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
// workload (its error is the calibration's, <= 0.1 %). Stream / stacked cases
// add "lower_end_triple" and "upper_end_triple": the two replays that
// XFERLAB_HALO_PAIR_MIX=output (the default) mixes (replay_held_out); every
// other row, "none" included, is the single replay of the component-wise
// interpolation (XFERLAB_HALO_PAIR_MIX=components). Columns: run, variant,
// size, substituted, measured_us, sim_us, error_pct.
Result<Table> halo_substitution(const std::vector<std::string>& traces);

}  // namespace xferlab::sim
