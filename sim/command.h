// sim/command.h — the shape of an `xferlab` subcommand.
//
// Each subcommand is a function taking its arguments (after the subcommand
// name) and the two output streams, returning the process exit code:
// 0 ok, 1 runtime error, 2 usage / bad input. Errors are one line on `err`.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/flags.h"
#include "common/result.h"

namespace xferlab::cli {

using Args = std::vector<std::string>;

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Args& args, std::ostream& out, std::ostream& err);
};

// Exit codes shared by all subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

// fail: prints "xferlab: MESSAGE" (one line) on `err`; returns the error's
// exit code (2 for bad input, 1 for a failed run).
int fail(std::ostream& err, const Error& e);

// parse_command_flags: `args` into `flags` (declared with program
// "xferlab COMMAND"). nullopt to go on; otherwise the exit code: 0 after
// printing the generated help (then `more_help`) on `out`, 2 after a one-line
// error "xferlab: COMMAND: PROBLEM" on `err`.
std::optional<int> parse_command_flags(FlagSet& flags, const Args& args, std::ostream& out,
                                       std::ostream& err, const std::string& more_help = "");

// version_string: "xferlab VERSION (rev REVISION)".
std::string version_string();

// source_revision: the git revision the binary was built from ("unknown" if none).
std::string source_revision();

}  // namespace xferlab::cli
