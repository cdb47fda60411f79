// sim/trace_command.h — `xferlab trace ...`: inspect, validate, export and
// generate trace files (the trace library is //traces). Registered in
// sim/commands.cc; flags declared with common/flags.h (docs/cli.md).
//
//   xferlab trace info|dump|check|export|generate ... (`xferlab trace SUB --help`)
#pragma once

#include <ostream>

#include "sim/command.h"

namespace xferlab::sim {

// run_trace: args after "trace". Exit codes: 0 ok, 1 runtime error (I/O),
// 2 usage or bad input (unreadable or semantically invalid trace).
int run_trace(const cli::Args& args, std::ostream& out, std::ostream& err);

}  // namespace xferlab::sim
