// native/proact/results.cc — derived metrics, result tables, choice files.
#include "native/proact/results.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "common/csv.h"

namespace xferlab::proact {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kChoiceHeader = "workload,gpus,mechanism,chunk_bytes,threads,time_ms";
}  // namespace

const char* verified_name(Verified v) {
  switch (v) {
    case Verified::kYes: return "yes";
    case Verified::kNotApplicable: return "n/a";
    default: return "no";
  }
}

void derive(const Baselines& b, ResultRow& r) {
  const double t = r.time_ms;
  r.speedup_vs_1gpu = b.one_gpu_ms > 0 ? b.one_gpu_ms / t : kNaN;
  r.speedup_vs_memcpy = b.memcpy_ms > 0 && r.gpus > 1 ? b.memcpy_ms / t : kNaN;
  r.frac_inf_bw = b.none_ms > 0 && r.gpus > 1 ? b.none_ms / t : kNaN;
  const bool tracks = uses_tracking(r.mechanism);
  r.tracking_overhead =
      tracks && b.none_ms > 0 && b.track_ms > 0 ? b.track_ms / b.none_ms - 1 : kNaN;
  const double base = tracks && b.track_ms > 0 ? b.track_ms : b.none_ms;
  const double copy = b.memcpy_ms - b.none_ms;
  r.overlap = r.gpus > 1 && moves_data(r.mechanism) && copy > 0 && base > 0
                  ? 1.0 - (t - base) / copy
                  : kNaN;
}

Table results_table(const std::vector<ResultRow>& rows) {
  Table t({{"workload"},
           {"gpus"},
           {"mechanism"},
           {"chunk_bytes"},
           {"threads"},
           {"time_ms", 4},
           {"time_p10_ms", 4},
           {"time_p90_ms", 4},
           {"speedup_vs_1gpu", 3},
           {"speedup_vs_memcpy", 3},
           {"frac_inf_bw", 3},
           {"overlap", 3},
           {"tracking_overhead", 3},
           {"verified"},
           {"check"},
           {"trace"}});
  for (const ResultRow& r : rows) {
    t.add_row({r.workload, int64_t{r.gpus}, std::string(mechanism_name(r.mechanism)),
               static_cast<int64_t>(r.chunk_bytes), int64_t{r.threads}, r.time_ms, r.p10_ms,
               r.p90_ms, r.speedup_vs_1gpu, r.speedup_vs_memcpy, r.frac_inf_bw, r.overlap,
               r.tracking_overhead, std::string(verified_name(r.verified)), r.check, r.trace});
  }
  return t;
}

std::optional<ProfileChoice> pick_best(const std::vector<ResultRow>& rows) {
  std::optional<ProfileChoice> best;
  for (const ResultRow& r : rows) {
    const bool proact = r.mechanism == Mechanism::kInline || r.mechanism == Mechanism::kPolling ||
                        r.mechanism == Mechanism::kPollingTma || r.mechanism == Mechanism::kCdp ||
                        r.mechanism == Mechanism::kCdpTail;
    if (!proact || r.verified != Verified::kYes) continue;
    if (!best || r.time_ms < best->time_ms) {
      best = ProfileChoice{r.workload, r.gpus, r.mechanism, r.chunk_bytes, r.threads, r.time_ms};
    }
  }
  return best;
}

Result<std::vector<ProfileChoice>> parse_choices(const std::string& text,
                                                 const std::string& source) {
  Result<CsvTable> csv = parse_csv(text, source);
  if (!csv.ok()) return csv.error();
  XF_RETURN_IF_ERROR(
      csv->require({"workload", "gpus", "mechanism", "chunk_bytes", "threads", "time_ms"}));
  std::vector<ProfileChoice> out;
  for (size_t i = 0; i < csv->rows.size(); ++i) {
    const CsvRow row(*csv, i);
    Result<std::string> workload = row.text("workload");
    if (!workload.ok()) return workload.error();
    Result<std::string> mech = row.text("mechanism");
    if (!mech.ok()) return mech.error();
    Result<Mechanism> m = parse_mechanism(*mech);
    if (!m.ok()) return row.error("mechanism", m.error().message);
    Result<uint64_t> gpus = row.count("gpus");
    if (!gpus.ok()) return gpus.error();
    if (*gpus < 1) return row.error("gpus", "must be >= 1");
    Result<uint64_t> chunk = row.count("chunk_bytes");
    if (!chunk.ok()) return chunk.error();
    if (*chunk == 0) return row.error("chunk_bytes", "must be > 0");
    Result<uint64_t> threads = row.count("threads");
    if (!threads.ok()) return threads.error();
    Result<double> time_ms = row.number("time_ms");
    if (!time_ms.ok()) return time_ms.error();
    const ProfileChoice c{*workload, static_cast<int>(*gpus),         *m,
                          *chunk,    static_cast<uint32_t>(*threads), *time_ms};
    out.push_back(c);
  }
  return out;
}

Result<std::vector<ProfileChoice>> read_choices(const std::string& path) {
  std::ifstream in(path);
  if (!in) return make_error(path + ": cannot open the profile choice file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_choices(ss.str(), path);
}

Status write_choices(const std::string& path, const std::vector<ProfileChoice>& choices) {
  std::vector<ProfileChoice> all;
  if (std::ifstream(path).good()) {
    Result<std::vector<ProfileChoice>> old = read_choices(path);
    if (!old.ok()) return old.error();
    all = std::move(*old);
  }
  for (const ProfileChoice& c : choices) {
    bool replaced = false;
    for (ProfileChoice& o : all) {
      if (o.workload == c.workload && o.gpus == c.gpus) {
        o = c;
        replaced = true;
      }
    }
    if (!replaced) all.push_back(c);
  }
  std::ofstream out(path);
  if (!out) return make_runtime_error(path + ": cannot write the profile choice file");
  out << kChoiceHeader << "\n";
  for (const ProfileChoice& c : all) {
    out << c.workload << "," << c.gpus << "," << mechanism_name(c.mechanism) << "," << c.chunk_bytes
        << "," << c.threads << "," << c.time_ms << "\n";
  }
  return out ? Status::Ok() : Status(make_runtime_error(path + ": write failed"));
}

Result<ProfileChoice> find_choice(const std::vector<ProfileChoice>& choices,
                                  const std::string& workload, int gpus,
                                  const std::string& source) {
  for (const ProfileChoice& c : choices) {
    if (c.workload == workload && c.gpus == gpus) return c;
  }
  return make_error(source + ": no entry for workload '" + workload + "' on " +
                    std::to_string(gpus) + " GPU(s); run the profiler (--profile) first");
}

}  // namespace xferlab::proact
