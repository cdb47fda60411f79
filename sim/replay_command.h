// sim/replay_command.h — `xferlab replay`, `xferlab validate`, `xferlab sweep`
// (registered in sim/commands.cc). Exit codes: 0 ok, 1 runtime error (or a
// validation case beyond tolerance), 2 usage / bad trace, preset or key.
//
//   xferlab replay TRACE [--platform PRESET] [--mechanism M|all] [--gpus N]
//                  [--chunk-size SIZE] [--set key=value]... [--format table|csv|json]
//                  [--timeline out.json]
//   xferlab validate [TRACES...] [--dir DIR] [--platform PRESET] [--tolerance PCT]
//   xferlab sweep TRACE --param key=v1,v2,... [--param ...] [--mechanism M|all]
//                 [--platform PRESET] [--jobs N] [-o out.csv] [--plot out.png] [--shard I/N]
// The work itself is sim/api.h (shared with the Python package); these parse
// flags and render its tables.
#pragma once

#include "sim/command.h"

namespace xferlab::sim {

int run_replay(const cli::Args& args, std::ostream& out, std::ostream& err);
int run_validate(const cli::Args& args, std::ostream& out, std::ostream& err);
int run_sweep(const cli::Args& args, std::ostream& out, std::ostream& err);
// run_explain: critical-path attribution and sensitivities (sim/explain.h).
int run_explain(const cli::Args& args, std::ostream& out, std::ostream& err);

}  // namespace xferlab::sim
