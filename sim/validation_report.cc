// sim/validation_report.cc — in-sample labels and summary lines for validate.
#include "sim/validation_report.h"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>

#include "common/table.h"

namespace xferlab::sim {

namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

}  // namespace

bool in_sample(std::string_view fitted_on, std::string_view trace_path) {
  const std::vector<std::string> parts = split(trace_path, '/');
  for (const std::string& p : parts) {
    if (p.find("heldout") != std::string::npos) return false;
  }
  for (const std::string& raw : split(fitted_on, ';')) {
    const std::string glob = trim(raw);
    if (glob.empty()) continue;
    const size_t depth = split(glob, '/').size();
    if (depth > parts.size()) continue;
    std::string tail;
    for (size_t i = parts.size() - depth; i < parts.size(); ++i) {
      tail += (tail.empty() ? "" : "/") + parts[i];
    }
    if (::fnmatch(glob.c_str(), tail.c_str(), FNM_PATHNAME) == 0) return true;
  }
  return false;
}

double comm_error_pct(double sim_ns, double measured_ns, double compute_only_ns) {
  const double comm = measured_ns - compute_only_ns;
  if (!(compute_only_ns > 0) || !(comm > 0)) return NAN;
  return 100.0 * (sim_ns - measured_ns) / comm;
}

void ErrorSummaries::add(const std::string& group, double abs_error_pct) {
  if (std::isnan(abs_error_pct)) return;
  auto [it, fresh] = groups_.try_emplace(group);
  if (fresh) order_.push_back(group);
  it->second.push_back(abs_error_pct);
}

const std::vector<double>* ErrorSummaries::group(const std::string& name) const {
  auto it = groups_.find(name);
  return it == groups_.end() ? nullptr : &it->second;
}

void ErrorSummaries::write(std::ostream& out, double tolerance_pct) const {
  for (const std::string& name : order_) {
    std::vector<double> v = groups_.at(name);
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    const auto beyond =
        std::count_if(v.begin(), v.end(), [&](double e) { return e > tolerance_pct; });
    out << name << ": cases " << n << ", median |error| " << format_number(median, 3)
        << "%, max |error| " << format_number(v.back(), 3) << "%, beyond tolerance " << beyond
        << "\n";
  }
}

}  // namespace xferlab::sim
