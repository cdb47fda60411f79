// sim/halo_bound.h — issue #15's bound on the halo / GDA validation: per
// held-out variant and size of the 2-rank runs that are medians of N >= 3
// launches, median |error| <= 5 % and max |error| <= 10 % (docs/halo_sim.md,
// "Validation"). A single launch is not a measurement here: one launch of a
// configuration varies 15-30 % from the next on the lent machines
// (docs/halo_sim_log.md, "Runs 9 and 10"), so the bound counts only kept
// directories of native/halo/run_repeats.sh + tools/halo_median_repeat.py,
// whose repeats.csv says how many launches each configuration's median is of.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"

namespace xferlab::sim {

inline constexpr int kBoundMinLaunches = 3;        ///< launches a run's median must be of.
inline constexpr double kBoundMedianAbsPct = 5.0;  ///< median |error| per variant and size, %.
inline constexpr double kBoundMaxAbsPct = 10.0;    ///< max |error| per variant and size, %.
inline constexpr int kBoundRanks = 2;              ///< the rank count the bound is stated for.

// LaunchRepeats: what a kept directory's repeats.csv says (read_launch_repeats).
struct LaunchRepeats {
  /// Launches per configuration (the fewest over the file's configurations);
  /// 1 when the directory has no repeats.csv (a single launch).
  int launches = 1;
  std::string file;  ///< the repeats.csv read ("" without one).
  /// (variant, label) of each configuration -> line of its kept repeat.
  std::map<std::pair<std::string, std::string>, int> kept_line;
  /// (variant, label) -> its launches' spread, (max - min) / median of their
  /// iteration_wall_avg_ns (the mean of the two middle ones for an even
  /// count, as docs/halo_sim/bind_study.py), in %. Empty without repeats.csv.
  std::map<std::pair<std::string, std::string>, double> spread_pct;
};

// read_launch_repeats: `dir`/repeats.csv (tools/halo_median_repeat.py), checked:
// columns variant, label, repeat, iteration_wall_avg_ns (> 0) and kept (yes |
// no); per configuration (variant, label) distinct repeats, exactly one kept,
// and the kept one's iteration_wall_avg_ns the median of the configuration's
// (the lower middle for an even count); each configuration's launch spread.
// Errors "FILE:LINE: column 'NAME': ..." (exit 2). No repeats.csv: launches 1,
// no spreads.
Result<LaunchRepeats> read_launch_repeats(const std::string& dir);

// HaloBoundCase: one validate_halo case as the bound needs it.
struct HaloBoundCase {
  std::string dir;      ///< the kept directory (.../RUN/KEPT, holding traces/).
  std::string run;      ///< its name as printed: RUN/KEPT.
  std::string variant;  ///< baseline, stream, ..., sa, ki.
  std::string label;    ///< trace label, e.g. gpus2_400 (repeats.csv's).
  std::string size;     ///< e.g. 400, box32.
  bool held_out = false;
  int ranks = 0;         ///< the trace's rank count.
  double error_pct = 0;  ///< (sim - measured) / measured.
};

// halo_bound_text: the bound block of `xferlab validate` (table format) over
// `cases`: per held-out (variant, size) of the 2-rank runs whose repeats.csv
// says launches >= kBoundMinLaunches, each run's error, median and max
// |error| and met / not met, and beside them, for information only (it
// decides nothing), each run's launch spread of that configuration
// (LaunchRepeats::spread_pct; "-" where a run has none) and its median over
// the runs; a count "bound: K of M variant/sizes met over R
// median-of-N runs"; and the 2-rank runs with held-out cases left out (single
// launches, or medians of fewer launches) with the reason. "" when no case is
// a 2-rank held-out one. Errors: a malformed repeats.csv in any case's
// directory, or a bound case whose configuration its run's repeats.csv does
// not list.
Result<std::string> halo_bound_text(const std::vector<HaloBoundCase>& cases);

}  // namespace xferlab::sim
