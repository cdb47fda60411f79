// common/output_path.h — check an output file can be written before the work
// that produces it starts, so a long run never ends with its result lost (or,
// worse, silently not written).
#pragma once

#include <string_view>

#include "common/result.h"

namespace xferlab {

// check_output_path: `path` can be created or overwritten: its directory
// exists and is writable, and the path is not a directory. Creates and removes
// the file when it did not exist (the only test that covers read-only file
// systems and permissions alike). `what` names the flag ("sweep -o"); the
// error is one line: "sweep -o '/x/y.csv': directory '/x' does not exist".
Status check_output_path(std::string_view path, std::string_view what);

// write_file_checked: writes `text` to `path` and reports a failure (disk
// full, I/O error) as a runtime error naming the file.
Status write_file_checked(std::string_view path, std::string_view text, std::string_view what);

}  // namespace xferlab
