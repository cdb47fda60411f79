// sim/command.h — the shape of an `xferlab` subcommand.
//
// Each subcommand is a function taking its arguments (after the subcommand
// name) and the two output streams, returning the process exit code:
// 0 ok, 1 runtime error, 2 usage / bad input. Errors are one line on `err`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

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

// version_string: "xferlab VERSION (rev REVISION)".
std::string version_string();

// source_revision: the git revision the binary was built from ("unknown" if none).
std::string source_revision();

}  // namespace xferlab::cli
