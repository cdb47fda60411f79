// sim/commands.cc — registers the subcommands implemented across sim/.
#include "sim/commands.h"

namespace xferlab::cli {

std::span<const Command> commands() {
  static const Command kCommands[] = {
      {"version", "print version and source revision",
       [](const Args&, std::ostream& out, std::ostream&) {
         out << version_string() << "\n";
         return kExitOk;
       }},
  };
  return kCommands;
}

}  // namespace xferlab::cli
