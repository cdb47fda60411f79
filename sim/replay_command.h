// sim/replay_command.h — `xferlab replay`, `xferlab validate`, `xferlab sweep`
// (registered in sim/commands.cc). Exit codes: 0 ok, 1 runtime error (or a
// validation case beyond tolerance), 2 usage / bad trace, preset or key.
//
//   xferlab replay TRACE [--platform PRESET] [--mechanism M|all] [--gpus N]
//                  [--chunk-size SIZE] [--set key=value]... [--format table|csv|json]
//                  [--timeline out.json]
//   xferlab validate [TRACES...] [--dir DIR] [--platform PRESET] [--tolerance PCT]
//   xferlab sweep TRACE --param key=v1,v2,... [--param ...] [--mechanism M|all]
//                 [--platform PRESET] [--jobs N] [-o out.csv] [--plot out.png]
#pragma once

#include "sim/command.h"

namespace xferlab::sim {

int run_replay(const cli::Args& args, std::ostream& out, std::ostream& err);
int run_validate(const cli::Args& args, std::ostream& out, std::ostream& err);
int run_sweep(const cli::Args& args, std::ostream& out, std::ostream& err);

// Default preset when neither --platform nor the trace's "platform" parameter names one.
inline constexpr const char* kDefaultPreset = "h200x2_nvlink4";
// Default directory of committed real traces for `validate` (overridden by
// --dir or $XFERLAB_REAL_TRACES).
inline constexpr const char* kDefaultRealTraceDir = "traces/real";

}  // namespace xferlab::sim
