// traces/trace_command.h — `xferlab trace ...`: inspect, validate, export and
// generate trace files. Registered in sim/commands.cc.
//
//   xferlab trace info FILE
//   xferlab trace dump FILE [--kind K] [--gpu G] [--from NS --to NS] [--limit N]
//   xferlab trace check FILE
//   xferlab trace export --perfetto FILE [-o OUT.json]
//   xferlab trace generate OUT [--gpus N --chunks N --ctas N --iterations N
//                               --seed S --mechanism M --compress]
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace xferlab::traces {

// run_trace: args after "trace". Exit codes: 0 ok, 1 runtime error (I/O),
// 2 usage or bad input (unreadable or semantically invalid trace).
int run_trace(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace xferlab::traces
