// common/progress.cc — ProgressLine (progress.h).
#include "common/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace xferlab {
namespace {

std::string duration_text(double s) {
  char buf[32];
  const long t = std::lround(std::max(0.0, s));
  if (t >= 3600) {
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
  } else if (t >= 60) {
    std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lds", t);
  }
  return buf;
}

}  // namespace

ProgressLine::ProgressLine(std::ostream& out, std::string label, bool enabled)
    : out_(out),
      label_(std::move(label)),
      enabled_(enabled),
      start_(std::chrono::steady_clock::now()) {}

std::string ProgressLine::format(const std::string& label, size_t done, size_t total,
                                 double elapsed_s) {
  constexpr int kWidth = 30;
  const size_t t = std::max<size_t>(total, 1);
  const int filled = static_cast<int>(kWidth * std::min(done, t) / t);
  std::string s = label + " [" + std::string(filled, '#') + std::string(kWidth - filled, ' ') +
                  "] " + std::to_string(done) + "/" + std::to_string(total) + "  " +
                  duration_text(elapsed_s);
  if (done > 0 && done < total) {
    s += ", ETA " +
         duration_text(elapsed_s / static_cast<double>(done) * static_cast<double>(total - done));
  }
  return s;
}

void ProgressLine::update(size_t done, size_t total) {
  if (!enabled_) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // \033[K clears what a longer previous line left behind.
  out_ << "\r" << format(label_, done, total, elapsed) << "\033[K" << (done >= total ? "\n" : "")
       << std::flush;
}

bool stderr_is_terminal() {
  return ::isatty(2) == 1;
}

}  // namespace xferlab
