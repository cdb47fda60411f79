// sim/command.cc — what every `xferlab` subcommand does alike: one-line
// errors and flag parsing with generated help.
#include "sim/command.h"

namespace xferlab::cli {

int fail(std::ostream& err, const Error& e) {
  err << "xferlab: " << e.message << "\n";
  return e.exit_code();
}

std::optional<int> parse_command_flags(FlagSet& flags, const Args& args, std::ostream& out,
                                       std::ostream& err, const std::string& more_help) {
  Result<bool> r = flags.parse(args);
  if (!r.ok()) {
    // "xferlab replay" -> "replay: ..."
    const std::string& program = flags.program();
    const std::string command = program.substr(program.find(' ') + 1);
    return fail(err, make_error(command + ": " + r.error().message));
  }
  if (!*r) {
    out << flags.help() << more_help;
    return kExitOk;
  }
  return std::nullopt;
}

}  // namespace xferlab::cli
