// sim/main.cc — the `xferlab` command: dispatches to subcommands.
#include <malloc.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "common/phase_log.h"
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

namespace {

// The executable's preinit functions run after the dynamic loader has mapped
// and relocated every library and before any library's initialisers: the
// split between loading and static initialisers (XFERLAB_PHASES).
double preinit_cpu_ms = 0;
void at_preinit() {
  preinit_cpu_ms = xferlab::process_cpu_ms();
}
[[gnu::section(".preinit_array"), gnu::used]] void (*const preinit)() = at_preinit;

}  // namespace

int main(int argc, char** argv) {
  xferlab::phase_mark_at("exec and dynamic loading", preinit_cpu_ms);
  xferlab::phase_mark("static initializers");
  // glibc serves blocks of 128 KiB and more with mmap until one is freed, and
  // trims the heap's top past 128 KiB: the trace's tables (and their copies
  // as they grow) are fresh pages each time, a page fault per 4 KiB. Kept in
  // the heap up to 32 MiB (the most glibc's own adaptive threshold reaches),
  // freed memory is reused: the quick-start trace's replay 2,255 -> 1,800
  // page faults, ~1 ms (docs/performance.md, "Fixed cost per replay").
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  int rc = xferlab::cli::main_impl(argc, argv);
  // Output still in stdio's buffer (all of a small one) is written here: a
  // full disk or a closed pipe loses it, and the exit status says so where
  // the command had not already failed and said why.
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int error = errno;
    if (rc == xferlab::cli::kExitOk) {
      std::fprintf(stderr, "xferlab: writing standard output: %s\n", std::strerror(error));
      rc = xferlab::cli::kExitRuntime;
    }
  }
#ifndef __SANITIZE_ADDRESS__
  // The command has written and closed all it makes; tearing the process
  // down (its tables freed, static destructors, SimGrid's exit handlers)
  // changes nothing outside it and costs ~0.2 ms of a small replay. (Under
  // AddressSanitizer the leak check runs at exit: a normal exit there.)
  std::fflush(nullptr);
  std::_Exit(rc);
#endif
  return rc;
}
