// hw_model/hw_model_cli_main.cc — `hw_model_cli link|platform|calibrate ...`: the
// hw_model subcommands without the simulator, for scripts that only need the
// models (tools/plot_efficiency.sh). `xferlab link` is the same function.
#include <iostream>
#include <string>
#include <vector>

#include "hw_model/cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  namespace hw = xferlab::hw_model;
  if (args.empty() || (args[0] != "link" && args[0] != "platform" && args[0] != "calibrate")) {
    std::cerr << "usage: hw_model_cli link|platform|calibrate [args...]\n";
    return 2;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "calibrate") return hw::run_calibrate(rest, std::cout, std::cerr);
  return args[0] == "link" ? hw::run_link(rest, std::cout, std::cerr)
                           : hw::run_platform(rest, std::cout, std::cerr);
}
