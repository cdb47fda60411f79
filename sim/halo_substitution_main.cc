// sim/halo_substitution_main.cc — halo_substitution: which interpolated
// component a held-out halo / GDA validation error comes from.
//
//   bazel run //sim:halo_substitution -- [--csv] DIR_OR_TRACE...
//
// Each argument is a halo / GDA trace or a folder searched for them (as
// `xferlab validate` takes them); for every held-out case it prints the
// replay with the interpolated components and with one group at a time
// replaced by the case's own (sim/halo_command.h, docs/halo_sim.md).
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "common/table.h"
#include "sim/halo_command.h"
#include "sim/halo_trace.h"

int main(int argc, char** argv) {
  using namespace xferlab;
  bool csv = false;
  std::vector<std::string> traces;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--csv") {
      csv = true;
      continue;
    }
    if (std::filesystem::is_directory(a)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(a)) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && name.find("_rank0.xft") != std::string::npos &&
            sim::is_halo_trace(e.path().string())) {
          traces.push_back(e.path().string());
        }
      }
    } else if (std::filesystem::exists(a)) {
      traces.push_back(a);
    } else {
      std::cerr << "halo_substitution: " << a << ": no such file or folder\n";
      return 2;
    }
  }
  if (traces.empty()) {
    std::cerr << "usage: halo_substitution [--csv] DIR_OR_TRACE... (no halo traces given)\n";
    return 2;
  }
  Result<Table> t = sim::halo_substitution(traces);
  if (!t.ok()) {
    std::cerr << "halo_substitution: " << t.error().message << "\n";
    return 1;
  }
  if (csv) {
    t->write_csv(std::cout);
  } else {
    t->write_text(std::cout);
  }
  return 0;
}
