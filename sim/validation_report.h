// sim/validation_report.h — what `xferlab validate` reports beside each case:
// whether the case was in the preset's fitting set (in-sample) or not
// (held-out), and summary lines per group (docs/validation.md).
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace xferlab::sim {

// in_sample: `trace_path` matches one of `fitted_on`'s "; "-separated globs
// (hw_model::Platform::fitted_on), compared with the path's last components
// (as many as the glob has), and no folder of the path names a held-out
// campaign ("heldout"): such runs are never fitting data.
bool in_sample(std::string_view fitted_on, std::string_view trace_path);

// comm_error_pct: the error relative to the communication time alone:
// (sim - measured) / (measured - compute_only); NaN without a compute-only
// time or when the measured run is not slower than it.
double comm_error_pct(double sim_ns, double measured_ns, double compute_only_ns);

// ErrorSummaries: |error| per named group; write() prints one line per
// group that has cases, in the order groups were first added.
class ErrorSummaries {
 public:
  void add(const std::string& group, double abs_error_pct);
  void write(std::ostream& out, double tolerance_pct) const;
  const std::vector<double>* group(const std::string& name) const;

 private:
  std::vector<std::string> order_;
  std::map<std::string, std::vector<double>> groups_;
};

}  // namespace xferlab::sim
