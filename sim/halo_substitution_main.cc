// sim/halo_substitution_main.cc — halo_substitution: which interpolated
// component a held-out halo / GDA validation error comes from.
//
//   bazel run //sim:halo_substitution -- [--csv] DIR_OR_TRACE...
//
// Each argument is a halo / GDA trace or a folder searched for them (as
// `xferlab validate` takes them); for every held-out case it prints the
// replay with the interpolated components and with one group at a time
// replaced by the case's own (sim/halo_command.h, docs/halo_sim.md).
#include <iostream>
#include <string>
#include <vector>

#include "common/flags.h"
#include "common/table.h"
#include "sim/halo_command.h"
#include "sim/halo_trace.h"

int main(int argc, char** argv) {
  using namespace xferlab;
  FlagSet flags("halo_substitution",
                "For every held-out halo / GDA case among the traces: the replay with the\n"
                "interpolated components and with one group at a time replaced by the case's own.");
  flags
      .set_positionals("DIR_OR_TRACE", 1, SIZE_MAX,
                       "halo / GDA rank-0 traces, or folders searched for them")
      .add_bool("csv", false, "CSV instead of a text table");
  parse_flags_or_exit(flags, argc, argv);
  Result<std::vector<std::string>> found = sim::halo_rank0_traces(flags.positionals());
  if (!found.ok()) {
    std::cerr << "halo_substitution: " << found.error().message << "\n";
    return 2;
  }
  const std::vector<std::string>& traces = *found;
  if (traces.empty()) {
    std::cerr << "halo_substitution: no halo traces in the given folders\n";
    return 2;
  }
  Result<Table> t = sim::halo_substitution(traces);
  if (!t.ok()) {
    std::cerr << "halo_substitution: " << t.error().message << "\n";
    return 1;
  }
  if (flags.get_bool("csv")) {
    t->write_csv(std::cout);
  } else {
    t->write_text(std::cout);
  }
  return 0;
}
