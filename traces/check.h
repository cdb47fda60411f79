// traces/check.h — semantic validation of a trace (`xferlab trace check`):
// what the reader's structural checks cannot see. Ordering per stream,
// begin/end pairing (kernels, CTAs, transfers, phases, MPI), references to
// GPUs/kernels/chunks/flags/phases declared in the metadata, counter
// sequences, and timestamps within the footer's span. Memory grows with the
// number of things open at once, not with trace length.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "traces/reader.h"

namespace xferlab::traces {

// CheckIssue: one finding; `message` is a one-line description naming the
// event index.
struct CheckIssue {
  bool error = true;  ///< false: a warning (suspicious but possible).
  uint64_t record = 0;
  std::string message;
};

// CheckReport: totals and the first `max_issues` findings.
struct CheckReport {
  uint64_t events_checked = 0;
  uint64_t errors = 0;
  uint64_t warnings = 0;
  std::vector<CheckIssue> issues;

  bool ok() const { return errors == 0; }
};

// check_trace: streams the whole trace from the start. A read error (corrupt
// file) is returned as Error; semantic problems are in the report.
Result<CheckReport> check_trace(TraceReader& reader, size_t max_issues = 50);

}  // namespace xferlab::traces
