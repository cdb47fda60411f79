// common/command_line.h — the command line that traces and result files
// record: shell-quoted, with every path made relative to the repository, so
// that no host path (checkout location, home or temporary directory) is
// recorded and the line reads the same on every machine (issue #21 item 10).
#pragma once

#include <string>
#include <vector>

namespace xferlab {

// shell_quote: `arg` as one shell word (quoted only when needed).
std::string shell_quote(const std::string& arg);

// find_repository_root: the nearest of `dir` (absolute) and its ancestors
// that holds the repository's WORKSPACE file; "" when none does.
std::string find_repository_root(const std::string& dir);

// portable_path: `path` (relative to `cwd` unless absolute), lexically
// normalized: relative to `repo_root` when inside it ("dist/bin/proact");
// outside it (or with no root) only its file name, after ".../" unless
// `bare_name` (".../micro_g2.csv"; argv[0]: "proact").
std::string portable_path(const std::string& path, const std::string& repo_root,
                          const std::string& cwd, bool bare_name = false);

// portable_command_line: `argv` as one shell-quoted line, paths through
// portable_path: argv[0] (bare name outside the repository), every argument
// that is a path, and the value of `--flag=PATH`. An argument is a path when
// it is absolute, starts with ./ or ../, or contains '/' and its first
// component exists in `cwd` (so "1/4" or "KiB/s" stay as they are).
std::string portable_command_line(const std::vector<std::string>& argv,
                                  const std::string& repo_root, const std::string& cwd);

// portable_command_line: the same for this process's argv, with the
// repository found from the working directory, else from the executable.
std::string portable_command_line(int argc, char** argv);

}  // namespace xferlab
