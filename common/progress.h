// common/progress.h — ProgressLine: "done/total, elapsed, ETA" on one
// rewritten terminal line, for long commands (validate, sweep). Shown only
// when the stream is a terminal, so logs and pipes stay clean.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace xferlab {

class ProgressLine {
 public:
  // ProgressLine: draws on `out` only if `enabled` (callers pass isatty(2)).
  ProgressLine(std::ostream& out, std::string label, bool enabled);

  // update: done of total units; the ETA assumes the remaining units take
  // as long as the finished ones did on average. The line ends at done == total.
  void update(size_t done, size_t total);

  // format: the line's text (exposed for tests).
  static std::string format(const std::string& label, size_t done, size_t total, double elapsed_s);

 private:
  std::ostream& out_;
  std::string label_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
};

// stderr_is_terminal: whether progress lines should be drawn on stderr.
bool stderr_is_terminal();

}  // namespace xferlab
