// sim/halo_bound.cc — issue #15's bound over the halo validation's 2-rank
// held-out cases of median-of-N runs, and the repeats.csv it trusts.
#include "sim/halo_bound.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string_view>

#include "common/csv.h"
#include "common/table.h"
#include "sim/halo_trace.h"

namespace xferlab::sim {

namespace {

using Config = std::pair<std::string, std::string>;  // (variant, label)

// Repeat: one row of repeats.csv.
struct Repeat {
  std::string name;
  double wall_ns = 0;
  bool kept = false;
  int line = 0;
};

// RunLaunches: a kept directory's name and repeats, read once.
struct RunLaunches {
  std::string run;
  LaunchRepeats repeats;
  bool two_rank_held_out = false;  ///< it has 2-rank held-out cases.
};

}  // namespace

Result<LaunchRepeats> read_launch_repeats(const std::string& dir) {
  LaunchRepeats out;
  const std::filesystem::path path = std::filesystem::path(dir) / "repeats.csv";
  if (!std::filesystem::exists(path)) return out;
  Result<CsvTable> csv = read_csv_file(path.string());
  if (!csv.ok()) return csv.error();
  out.file = path.string();
  XF_RETURN_IF_ERROR(csv->require({"variant", "label", "repeat", "iteration_wall_avg_ns", "kept"}));
  std::map<Config, std::vector<Repeat>> configs;
  std::vector<Config> order;
  for (size_t i = 0; i < csv->rows.size(); ++i) {
    const CsvRow row(*csv, i);
    Config c;
    for (const auto& [column, field] :
         {std::pair<const char*, std::string*>{"variant", &c.first}, {"label", &c.second}}) {
      Result<std::string> t = row.text(column);
      if (!t.ok()) return t.error();
      if (t->empty()) return row.error(column, "empty");
      *field = *t;
    }
    Repeat r;
    r.line = row.line();
    Result<std::string> name = row.text("repeat");
    if (!name.ok()) return name.error();
    if (name->empty()) return row.error("repeat", "empty");
    r.name = *name;
    Result<double> wall = row.number("iteration_wall_avg_ns");
    if (!wall.ok()) return wall.error();
    if (!(*wall > 0)) return row.error("iteration_wall_avg_ns", "must be > 0");
    r.wall_ns = *wall;
    Result<std::string> kept = row.text("kept");
    if (!kept.ok()) return kept.error();
    if (*kept != "yes" && *kept != "no") {
      return row.error("kept", "'" + *kept + "': expected yes or no");
    }
    r.kept = *kept == "yes";
    std::vector<Repeat>& reps = configs[c];
    if (reps.empty()) order.push_back(c);
    for (const Repeat& o : reps) {
      if (o.name == r.name) {
        return row.error("repeat", "'" + r.name + "' of " + c.first + " " + c.second +
                                       " again (first: line " + std::to_string(o.line) + ")");
      }
      if (o.kept && r.kept) {
        return row.error("kept", "a second kept repeat of " + c.first + " " + c.second +
                                     " (first: line " + std::to_string(o.line) + ")");
      }
    }
    reps.push_back(r);
  }
  if (order.empty()) return make_error(out.file + ": no repeats (header only)");
  out.launches = static_cast<int>(csv->rows.size());
  for (const Config& c : order) {
    const std::vector<Repeat>& reps = configs[c];
    out.launches = std::min(out.launches, static_cast<int>(reps.size()));
    const auto kept =
        std::find_if(reps.begin(), reps.end(), [](const Repeat& r) { return r.kept; });
    if (kept == reps.end()) {
      return make_error(out.file + ":" + std::to_string(reps.front().line) +
                        ": column 'kept': no repeat of " + c.first + " " + c.second + " is kept");
    }
    std::vector<double> walls;
    for (const Repeat& r : reps) walls.push_back(r.wall_ns);
    std::sort(walls.begin(), walls.end());
    const double median_wall = walls[(walls.size() - 1) / 2];
    out.spread_pct[c] = 100.0 * (walls.back() - walls.front()) / median(walls);
    if (kept->wall_ns != median_wall) {
      return make_error(out.file + ":" + std::to_string(kept->line) +
                        ": column 'kept': " + kept->name + " of " + c.first + " " + c.second +
                        " is not the median of its " + std::to_string(reps.size()) +
                        " iteration_wall_avg_ns");
    }
    out.kept_line[c] = kept->line;
  }
  return out;
}

namespace {
// natural_less: text order, but digit runs compare as numbers ("run9" <
// "run11"; "2026-11-27_h100x2_run9" < "2026-11-27_h100x2_run11").
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string_view da = std::string_view(a).substr(i, ie - i);
      const std::string_view db = std::string_view(b).substr(j, je - j);
      const size_t za = da.find_first_not_of('0'), zb = db.find_first_not_of('0');
      const std::string_view na = za == std::string_view::npos ? "" : da.substr(za);
      const std::string_view nb = zb == std::string_view::npos ? "" : db.substr(zb);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie, j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}
}  // namespace

Result<std::string> halo_bound_text(const std::vector<HaloBoundCase>& cases) {
  // Every run's repeats are read (a malformed repeats.csv is an error
  // wherever it is); those with 2-rank held-out cases are the bound's.
  std::vector<RunLaunches> runs;
  std::map<std::string, size_t> run_index;  // dir -> runs[]
  auto in_bound_set = [](const HaloBoundCase& c) { return c.held_out && c.ranks == kBoundRanks; };
  for (const HaloBoundCase& c : cases) {
    if (!run_index.count(c.dir)) {
      Result<LaunchRepeats> r = read_launch_repeats(c.dir);
      if (!r.ok()) return r.error();
      run_index[c.dir] = runs.size();
      runs.push_back({c.run, std::move(*r), false});
    }
    if (in_bound_set(c)) runs[run_index[c.dir]].two_rank_held_out = true;
  }
  // Bound runs (launches >= kBoundMinLaunches) get a column each, in the
  // runs' natural order (run9 before run11), which is how a reader counts them.
  std::vector<size_t> column_of(runs.size(), SIZE_MAX);
  std::vector<size_t> bound_runs;
  int min_launches = 0, max_launches = 0;
  bool any = false;
  for (size_t r = 0; r < runs.size(); ++r) {
    any = any || runs[r].two_rank_held_out;
    const int n = runs[r].repeats.launches;
    if (!runs[r].two_rank_held_out || n < kBoundMinLaunches) continue;
    bound_runs.push_back(r);
    min_launches = bound_runs.size() == 1 ? n : std::min(min_launches, n);
    max_launches = std::max(max_launches, n);
  }
  std::stable_sort(bound_runs.begin(), bound_runs.end(),
                   [&](size_t a, size_t b) { return natural_less(runs[a].run, runs[b].run); });
  for (size_t i = 0; i < bound_runs.size(); ++i) column_of[bound_runs[i]] = i;
  if (!any) return std::string();
  // Per held-out (variant, size): the error of each bound run, and the
  // spread of the launches its median is of (information beside the error).
  std::vector<std::pair<std::string, std::string>> order;  // (variant, size)
  std::map<std::pair<std::string, std::string>, std::vector<double>> errors, spreads;
  for (const HaloBoundCase& c : cases) {
    if (!in_bound_set(c)) continue;
    const size_t r = run_index.at(c.dir);
    if (column_of[r] == SIZE_MAX) continue;
    const LaunchRepeats& rep = runs[r].repeats;
    if (!rep.kept_line.count({c.variant, c.label})) {
      return make_error(rep.file + ": no repeats of " + c.variant + " " + c.label +
                        ", whose traces are in " + c.dir + "/traces");
    }
    const std::pair<std::string, std::string> key{c.variant, c.size};
    auto [it, added] = errors.try_emplace(key, bound_runs.size(), std::nan(""));
    if (added) order.push_back(key);
    it->second[column_of[r]] = c.error_pct;
    const auto spread = rep.spread_pct.find({c.variant, c.label});
    spreads.try_emplace(key, bound_runs.size(), std::nan("")).first->second[column_of[r]] =
        spread == rep.spread_pct.end() ? std::nan("") : spread->second;
  }
  Table table({{"variant"},
               {"size"},
               {"error_per_run_pct"},
               {"launch_spread_per_run_pct"},
               {"median_abs_error_pct", 3},
               {"max_abs_error_pct", 3},
               {"median_launch_spread_pct", 3},
               {"bound"}});
  // per_run: "v1 / v2 / ..." ("-" for a run without a value) and the values.
  auto per_run = [](const std::vector<double>& values, const char* format) {
    std::pair<std::string, std::vector<double>> out;
    for (const double v : values) {
      char buf[32];
      std::snprintf(buf, sizeof buf, format, v);
      out.first += (out.first.empty() ? "" : " / ") + (std::isnan(v) ? "-" : std::string(buf));
      if (!std::isnan(v)) out.second.push_back(v);
    }
    return out;
  };
  size_t met = 0;
  for (const auto& key : order) {
    auto [error_text, errs] = per_run(errors.at(key), "%+.1f");
    auto [spread_text, spread_values] = per_run(spreads.at(key), "%.0f");
    std::vector<double> abs;
    for (const double e : errs) abs.push_back(std::fabs(e));
    const double med = median(abs);
    const double max = *std::max_element(abs.begin(), abs.end());
    const bool ok = med <= kBoundMedianAbsPct && max <= kBoundMaxAbsPct;
    met += ok;
    table.add_row({key.first, key.second, error_text, spread_text, med, max, median(spread_values),
                   std::string(ok ? "met" : "not met")});
  }
  std::ostringstream os;
  os << "issue #15 bound (2-rank held-out, per variant and size, over runs that are "
     << "medians of N >= " << kBoundMinLaunches << " launches):\n";
  const std::string n_text = min_launches == max_launches ? std::to_string(min_launches)
                                                          : std::to_string(min_launches) + ".." +
                                                                std::to_string(max_launches);
  if (!bound_runs.empty()) {
    os << "runs (error_per_run_pct and launch_spread_per_run_pct in this order):";
    for (size_t i = 0; i < bound_runs.size(); ++i) {
      const RunLaunches& r = runs[bound_runs[i]];
      os << (i ? ", " : " ") << r.run << " (median of " << r.repeats.launches << ")";
    }
    os << "\n";
    table.write_text(os);
  }
  os << "bound: " << met << " of " << order.size() << " variant/sizes met over "
     << bound_runs.size() << " median-of-" << (bound_runs.empty() ? "N" : n_text)
     << " runs (median |error| <= " << format_number(kBoundMedianAbsPct, 2)
     << "%, max |error| <= " << format_number(kBoundMaxAbsPct, 2) << "%)\n";
  std::string left_out;
  for (size_t r = 0; r < runs.size(); ++r) {
    if (!runs[r].two_rank_held_out || column_of[r] != SIZE_MAX) continue;
    const int n = runs[r].repeats.launches;
    left_out += (left_out.empty() ? "" : ", ") + runs[r].run +
                (n == 1 ? std::string(" (single launch)")
                        : " (median of " + std::to_string(n) + " launches)");
  }
  if (!left_out.empty()) {
    os << "not in the bound (their 2-rank held-out cases are in the tables above): " << left_out
       << ": fewer than " << kBoundMinLaunches
       << " launches per configuration, and one launch of a configuration differs from the next "
          "by more than the bound allows (launch-to-launch spread: docs/halo_sim_log.md, \"Runs 9 "
          "and 10\")\n";
  }
  return os.str();
}

}  // namespace xferlab::sim
