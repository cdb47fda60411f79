// sim/main.cc — the `xferlab` command: dispatches to subcommands.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "sim/command.h"
#include "sim/commands.h"

namespace xferlab::cli {
namespace {

void print_usage(std::ostream& out) {
  out << "usage: xferlab [--help] [--version] <command> [args...]\n\n"
         "Replay GPU communication traces on a model of the machine and explore\n"
         "proposed hardware (PROACT counter unit + DMA agent, notifications).\n\n"
         "commands:\n";
  for (const Command& c : commands()) {
    std::string name = c.name;
    out << "  " << name << std::string(name.size() < 10 ? 10 - name.size() : 1, ' ') << c.summary
        << "\n";
  }
  out << "\n`xferlab <command> --help` describes a command.\n";
}

int main_impl(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << "xferlab: missing command (try `xferlab --help`)\n";
    return kExitUsage;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    print_usage(std::cout);
    return kExitOk;
  }
  if (first == "--version" || first == "version") {
    std::cout << version_string() << "\n";
    return kExitOk;
  }
  for (const Command& c : commands()) {
    if (first == c.name) {
      return c.run(Args(args.begin() + 1, args.end()), std::cout, std::cerr);
    }
  }
  std::cerr << "xferlab: unknown command '" << first << "' (try `xferlab --help`)\n";
  return kExitUsage;
}

}  // namespace
}  // namespace xferlab::cli

int main(int argc, char** argv) {
  return xferlab::cli::main_impl(argc, argv);
}
