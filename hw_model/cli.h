// hw_model/cli.h — the `xferlab link` and `xferlab platform` subcommands
// (registered by sim/commands.cc; hw_model does not depend on sim).
//
// Exit codes: 0 ok, 1 runtime error, 2 usage / bad input (one line on `err`).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace xferlab::hw_model {

// run_link: xferlab link [--interconnect KIND|all | --platform PRESET] [--links N]
//   [--sizes 1,2,4,...] [--pattern contiguous|scattered] [--op write|read]
//   [--count N] [--set key=value]... [--format table|csv|json]
// One row per (interconnect, size): payload, wire bytes, efficiency, time, bound.
int run_link(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// run_platform: xferlab platform list | show PRESET [--set key=value]... | keys [--format F]
int run_platform(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// run_calibrate: xferlab calibrate --link-bench FILE [--notify-bench FILE]
//   [--proact-micro FILE] [--proact-bytes SIZE] [--preset PRESET] [-o FILE]
//   [--format table|csv|json]
// Fits the preset's unpublished constants to the measurements, writes the
// fitted preset to FILE (default: none) and prints model vs measurement.
int run_calibrate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

inline constexpr const char* kLinkSummary = "wire bytes, efficiency and time per write size";
inline constexpr const char* kPlatformSummary = "list, show or describe machine presets";
inline constexpr const char* kCalibrateSummary = "fit a preset to link/notification measurements";

}  // namespace xferlab::hw_model
