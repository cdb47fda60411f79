// sim/model_commands.h — the subcommands that front hw_model without the
// simulator: `xferlab link`, `xferlab platform` and `xferlab calibrate`.
// Flags are declared with common/flags.h (help and docs/cli.md generated);
// hw_model holds the models and presets, these only parse, call and print.
//
// Exit codes: 0 ok, 1 runtime error, 2 usage / bad input (one line on `err`).
#pragma once

#include <ostream>

#include "sim/command.h"

namespace xferlab::sim {

// run_link: one row per (interconnect, size): payload, wire bytes,
// efficiency, time and what bounds it.
int run_link(const cli::Args& args, std::ostream& out, std::ostream& err);

// run_platform: `list`, `show PRESET|FILE` (every parameter resolved, then the
// 'auto' hardware sizes) or `keys` (the parameter reference).
int run_platform(const cli::Args& args, std::ostream& out, std::ostream& err);

// run_calibrate: fits the preset's unpublished constants to the native
// benchmarks' CSVs, writes the fitted preset to -o FILE and prints model vs
// measurement (docs/calibration.md).
int run_calibrate(const cli::Args& args, std::ostream& out, std::ostream& err);

inline constexpr const char* kLinkSummary = "wire bytes, efficiency and time per write size";
inline constexpr const char* kPlatformSummary = "list, show or describe machine presets";
inline constexpr const char* kCalibrateSummary = "fit a preset to link/notification measurements";

}  // namespace xferlab::sim
