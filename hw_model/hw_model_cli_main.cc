// hw_model/hw_model_cli_main.cc — `hw_model_cli link|platform ...`: the
// hw_model subcommands without the simulator, for scripts that only need the
// models (tools/plot_efficiency.sh). `xferlab link` is the same function.
#include <iostream>
#include <string>
#include <vector>

#include "hw_model/cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || (args[0] != "link" && args[0] != "platform")) {
    std::cerr << "usage: hw_model_cli link|platform [args...]\n";
    return 2;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  return args[0] == "link" ? xferlab::hw_model::run_link(rest, std::cout, std::cerr)
                           : xferlab::hw_model::run_platform(rest, std::cout, std::cerr);
}
