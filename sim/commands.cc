// sim/commands.cc — registers the `xferlab` subcommands (all in sim/).
#include "sim/commands.h"

#include "sim/micro_trace.h"
#include "sim/model_commands.h"
#include "sim/replay_command.h"
#include "sim/trace_command.h"

namespace xferlab::cli {

std::span<const Command> commands() {
  static const Command kCommands[] = {
      {"replay", "replay a trace on a platform with each transfer mechanism", sim::run_replay},
      {"validate", "replay measured traces with their mechanism; report the error",
       sim::run_validate},
      {"explain", "where the simulated time goes: critical path by cause, parameter elasticities",
       sim::run_explain},
      {"sweep", "grid of replays over platform parameters, CSV + plot", sim::run_sweep},
      {"trace", "inspect, check, export (Perfetto) and generate trace files",
       sim::run_trace_generating_workloads},
      {"link", sim::kLinkSummary, sim::run_link},
      {"platform", sim::kPlatformSummary, sim::run_platform},
      {"calibrate", sim::kCalibrateSummary, sim::run_calibrate},
      {"version", "print version and source revision",
       [](const Args&, std::ostream& out, std::ostream&) {
         out << version_string() << "\n";
         return kExitOk;
       }},
  };
  return kCommands;
}

}  // namespace xferlab::cli
