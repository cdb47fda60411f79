// sim/commands.h — the table of `xferlab` subcommands.
#pragma once

#include <span>

#include "sim/command.h"

namespace xferlab::cli {

// commands: every subcommand, in the order `xferlab --help` lists them.
std::span<const Command> commands();

}  // namespace xferlab::cli
