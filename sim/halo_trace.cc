// sim/halo_trace.cc — reduces halo / GPUDirect Async traces to replay components.
#include "sim/halo_trace.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <regex>
#include <sstream>

#include "common/csv.h"
#include "common/number.h"
#include "traces/event.h"
#include "traces/reader.h"

namespace xferlab::sim {

namespace {

using traces::Event;
using traces::EventKind;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Flags the GPU stores and a CPU thread observes; every other flag goes the
// other way (docs/halo.md, "Variants").
bool gpu_sets(const std::string& array) {
  return array == "send_ready" || array == "doorbell";
}

std::string flag_array(const std::string& name) {
  return name.substr(0, name.find('['));
}

Result<std::array<int, 3>> parse_triple(const std::string& text, const std::string& what,
                                        const std::string& path) {
  std::array<int, 3> v{};
  if (std::sscanf(text.c_str(), "%dx%dx%d", &v[0], &v[1], &v[2]) != 3 || v[0] < 1 || v[1] < 1 ||
      v[2] < 1) {
    return make_error(path + ": metadata parameter decomposition: bad " + what + " '" + text + "'");
  }
  return v;
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {

// SizeSums: the least-squares sums over the per-size medians of samples
// (table_by_size: one point per message size), which both line fits below
// start from.
struct SizeSums {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
};

SizeSums size_sums(const std::vector<Sample>& samples) {
  SizeSums t;
  for (const auto& [x, y] : table_by_size(samples).points) {
    t.n += 1, t.sx += x, t.sy += y, t.sxx += x * x, t.sxy += x * y;
  }
  return t;
}

LinearFit line_of(const SizeSums& t) {
  if (t.n == 0) return {};
  if (t.n == 1) return {t.sy, 0};
  const double b = (t.n * t.sxy - t.sx * t.sy) / (t.n * t.sxx - t.sx * t.sx);
  return {(t.sy - b * t.sx) / t.n, b};
}

}  // namespace

LinearFit fit_by_size(const std::vector<Sample>& samples) {
  return line_of(size_sums(samples));
}

LinearFit nonnegative_fit_by_size(const std::vector<Sample>& samples) {
  const SizeSums t = size_sums(samples);
  const LinearFit f = line_of(t);
  if (f.a_ns >= 0 && f.b_ns_per_byte >= 0) return f;
  // The least-squares optimum on the boundary that the unconstrained one
  // crossed: b = 0 -> the flat line through the medians' mean; a = 0 -> the
  // line through the origin; both -> 0.
  if (f.b_ns_per_byte < 0) return {std::max(0.0, t.sy / t.n), 0};
  return {0, t.sxx > 0 ? std::max(0.0, t.sxy / t.sxx) : 0};
}

SizeTable table_by_size(const std::vector<Sample>& samples) {
  std::map<double, std::vector<double>> by;
  for (const Sample& s : samples) by[s.bytes].push_back(s.ns);
  SizeTable t;
  for (auto& [b, ns] : by) t.points.emplace_back(b, median(ns));
  return t;
}

SizeTable merge_tables(const SizeTable& a, const SizeTable& b) {
  std::map<double, std::vector<double>> by;
  for (const auto& [x, y] : a.points) by[x].push_back(y);
  for (const auto& [x, y] : b.points) by[x].push_back(y);
  SizeTable t;
  for (auto& [x, ys] : by) t.points.emplace_back(x, (ys.front() + ys.back()) / 2);
  return t;
}

double SizeTable::at(double bytes) const {
  if (points.empty()) return kNaN;
  if (points.size() == 1) return points[0].second;
  size_t hi = 1;
  while (hi + 1 < points.size() && points[hi].first < bytes) ++hi;
  const auto [x0, y0] = points[hi - 1];
  const auto [x1, y1] = points[hi];
  return std::max(0.0, y0 + (bytes - x0) * (y1 - y0) / (x1 - x0));
}

void SizeTable::scale(double factor) {
  for (auto& p : points) p.second *= factor;
}

bool is_halo_trace(const traces::TraceReader& reader) {
  const std::string& p = reader.metadata().producer.program;
  return p == "halo_exchange" || p == "gdasync_bench";
}

ReplayTrace open_replay_trace(const std::string& path) {
  Result<traces::TraceReader> r = traces::TraceReader::open(path);
  if (!r.ok()) return {.halo = false, .reader = std::nullopt, .error = r.error()};
  if (is_halo_trace(*r)) return {.halo = true, .reader = std::nullopt, .error = std::nullopt};
  return {.halo = false, .reader = std::move(*r), .error = std::nullopt};
}

Result<std::vector<std::string>> halo_rank0_traces(const std::vector<std::string>& paths) {
  std::vector<std::string> traces;
  for (const std::string& a : paths) {
    if (std::filesystem::is_directory(a)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(a)) {
        const std::string name = e.path().filename().string();
        if (!e.is_regular_file() || name.find("_rank0.xft") == std::string::npos) continue;
        // A rank-0 trace the reader rejects (damaged, or a newer format) is
        // an error, not "not a halo trace": skipping it would drop a run
        // from the table without a word.
        Result<traces::TraceReader> r = traces::TraceReader::open(e.path().string());
        if (!r.ok()) return r.error();
        if (is_halo_trace(*r)) traces.push_back(e.path().string());
      }
    } else if (std::filesystem::exists(a)) {
      traces.push_back(a);
    } else {
      return make_error(a + ": no such file or folder");
    }
  }
  return traces;
}

namespace {

// read_halo_parameters: the rank's variant, geometry and message table from
// the trace's metadata parameters (one-line errors naming the parameter).
Status read_halo_parameters(const std::string& path, const traces::Metadata& md, HaloRankTrace& t) {
  auto param = [&](const char* key) -> Result<std::string> {
    std::optional<std::string> v = md.parameter(key);
    if (!v) return make_error(path + ": metadata parameter '" + key + "' is missing");
    return *v;
  };
  for (const char* key : {"variant", "label", "rank", "ranks", "decomposition", "messages"}) {
    if (!param(key).ok()) return param(key).error();
  }
  t.variant = *param("variant");
  if (std::optional<std::string> v = md.parameter("stacked-long")) {
    Result<double> bytes = parse_double(*v);
    t.stacked_long_bytes = bytes.ok() ? *bytes : 0;
    if (!(t.stacked_long_bytes > 0)) {
      return make_error(path + ": metadata parameter stacked-long '" + *v + "' is not a size");
    }
  }
  t.label = *param("label");
  Result<int64_t> rank = parse_int(*param("rank")), ranks = parse_int(*param("ranks"));
  if (!rank.ok() || !ranks.ok()) {
    return make_error(
        path + ": metadata parameters rank/ranks: " + (rank.ok() ? ranks : rank).error().message);
  }
  if (*ranks < 1 || *ranks > (1 << 24) || *rank < 0 || *rank >= *ranks) {
    return make_error(path + ": metadata parameters rank/ranks are out of range");
  }
  t.rank = static_cast<int>(*rank);
  t.ranks = static_cast<int>(*ranks);
  {
    // "global 100x50x50, procs 2x1x1, per-rank 50x50x50, vars 3, 27-point"
    const std::string d = *param("decomposition");
    std::smatch m;
    static const std::regex re(R"(procs (\S+), per-rank (\S+), vars (\d+), (\d+)-point)");
    if (!std::regex_search(d, m, re)) {
      return make_error(path + ": metadata parameter decomposition '" + d + "' is not understood");
    }
    Result<std::array<int, 3>> procs = parse_triple(m[1], "procs", path);
    if (!procs.ok()) return procs.error();
    Result<std::array<int, 3>> per = parse_triple(m[2], "per-rank", path);
    if (!per.ok()) return per.error();
    t.procs = *procs;
    t.per_rank = *per;
    Result<int64_t> vars = parse_int(m[3].str()), pattern = parse_int(m[4].str());
    if (!vars.ok() || !pattern.ok() || *vars > 1024 || *pattern > 1024) {
      return make_error(path + ": metadata parameter decomposition '" + d +
                        "': vars / stencil points out of range");
    }
    t.vars = static_cast<int>(*vars);
    t.pattern = static_cast<int>(*pattern);
  }
  {
    // "index:direction:kind:peer:bytes;..."
    std::stringstream ss(*param("messages"));
    std::string item;
    while (std::getline(ss, item, ';')) {
      HaloMessage msg;
      char kind[16] = {};
      if (std::sscanf(item.c_str(), "%d:%d:%15[a-z]:%d:%lf", &msg.index, &msg.direction, kind,
                      &msg.peer, &msg.bytes) != 5 ||
          msg.bytes < 0 || msg.peer < 0 || msg.peer >= t.ranks) {
        return make_error(path + ": metadata parameter messages: bad entry '" + item + "'");
      }
      msg.kind = kind;
      t.messages.push_back(msg);
    }
    if (t.messages.empty()) return make_error(path + ": metadata parameter messages is empty");
  }

  return Status::Ok();
}

// HaloEvents: a rank's events in time order, times relative to the first
// (absolute ns, ~1.8e18, exceed a double's 53 bits), with the metadata's names.
struct HaloEvents {
  const traces::Metadata& md;
  std::vector<Event> ev;
  uint64_t origin_ns = 0;

  double at(const Event& e) const {
    return static_cast<double>(static_cast<int64_t>(e.time_ns - origin_ns));
  }
  std::string phase_name(uint32_t id) const {
    const traces::NamedId* p = md.find_phase(id);
    return p ? p->name : std::to_string(id);
  }
  std::string kernel_name(uint32_t id) const {
    for (const auto& k : md.kernels)
      if (k.id == id) return k.name;
    return std::to_string(id);
  }
  std::string flag_name(uint32_t id) const {
    const traces::FlagInfo* f = md.find_flag(id);
    return f ? f->name : std::string();
  }
};

// Window: one timed iteration's "total" span [begin, end].
using Windows = std::vector<std::pair<double, double>>;

// time_phases: first pass: the timed region, the iteration windows and the
// median phase and kernel times per iteration.
Result<Windows> time_phases(const std::string& path, const HaloEvents& h, HaloRankTrace& t) {
  // First pass: the timed region and the iteration windows ("total" spans).
  t.timed_from_t = kNaN;
  for (const Event& e : h.ev) {
    if (e.kind == static_cast<uint16_t>(EventKind::kIteration)) {
      t.timed_from_t = h.at(e);
      break;
    }
  }
  if (std::isnan(t.timed_from_t)) return make_error(path + ": no iteration markers");
  std::map<uint32_t, std::vector<double>> open_phase;
  Windows windows;                                                   // timed totals
  std::vector<std::tuple<std::string, double, double>> phase_spans;  // all, timed
  std::map<uint32_t, double> kernel_open;
  std::map<std::string, std::vector<double>> kernel_spans;
  for (const Event& e : h.ev) {
    const double x = h.at(e);
    if (e.kind == static_cast<uint16_t>(EventKind::kPhaseBegin)) {
      open_phase[e.id].push_back(x);
    } else if (e.kind == static_cast<uint16_t>(EventKind::kPhaseEnd)) {
      auto& st = open_phase[e.id];
      if (st.empty()) continue;
      const double b = st.back();
      st.pop_back();
      const std::string name = h.phase_name(e.id);
      if (name == "wait_recv") t.wait_begin_t.push_back(b);
      if (b < t.timed_from_t) continue;
      if (name == "total") windows.emplace_back(b, x);
      phase_spans.emplace_back(name, b, x);
    } else if (e.kind == static_cast<uint16_t>(EventKind::kKernelBegin)) {
      kernel_open[e.id] = x;
    } else if (e.kind == static_cast<uint16_t>(EventKind::kKernelEnd)) {
      auto it = kernel_open.find(e.id);
      if (it == kernel_open.end() || it->second < t.timed_from_t) continue;
      kernel_spans[h.kernel_name(e.id)].push_back(x - it->second);
      kernel_open.erase(it);
    }
  }
  if (windows.empty()) return make_error(path + ": no timed iteration has a 'total' phase");
  t.timed_iterations = static_cast<int>(windows.size());
  std::map<std::string, std::vector<double>> per_iter;
  std::vector<double> unphased, wait_offsets;
  for (const auto& [wb, we] : windows) {
    std::map<std::string, double> sum;
    double sub = 0;
    for (const auto& [name, b, e] : phase_spans) {
      if (b < wb || e > we) continue;
      sum[name] += e - b;
      if (name != "total") sub += e - b;
      if (name == "wait_recv") wait_offsets.push_back(b - wb);
    }
    for (auto& [name, v] : sum) per_iter[name].push_back(v);
    unphased.push_back((we - wb) - sub);
  }
  for (auto& [name, v] : per_iter) t.phase_ns[name] = median(v);
  for (auto& [name, v] : kernel_spans) t.kernel_ns[name] = median(v);
  t.unphased_ns = std::max(0.0, median(unphased));
  t.wait_begin_ns = wait_offsets.empty() ? 0 : median(wait_offsets);

  return windows;
}

// read_calls_and_flags: second pass: MPI call costs and completions, flag
// sets and observations (notification latencies), the GDA proxy's cycle.
// FlagTimes: when each flag (id, value) was set and seen on either side,
// and the GDA proxy's recv_all stores and first doorbell observations.
struct FlagTimes {
  std::map<std::pair<uint32_t, uint64_t>, double> gpu_set, cpu_seen, cpu_set, gpu_seen;
  std::map<uint64_t, double> recv_all_set, first_doorbell_seen;
  std::vector<double> complete_costs;  ///< the proxy's recv_complete store after its last call
};

// flag_latencies: notification latencies (a flag set on one side and seen on
// the other) and the proxy's cycle from the flag times.
void flag_latencies(const HaloEvents& h, const FlagTimes& f, HaloRankTrace& t) {
  for (const auto& [key, set_t] : f.gpu_set) {
    auto it = f.cpu_seen.find(key);
    if (it != f.cpu_seen.end() && set_t >= t.timed_from_t && it->second >= set_t) {
      const HaloMessage* m = nullptr;
      for (const HaloMessage& mm : t.messages)
        if (h.flag_name(key.first).find("[" + std::to_string(mm.index) + "]") != std::string::npos)
          m = &mm;
      t.notify_gpu_to_cpu.push_back({m ? m->bytes : 0, it->second - set_t});
    }
  }
  for (const auto& [key, set_t] : f.cpu_set) {
    if (flag_array(h.flag_name(key.first)) != "unpack_ready") continue;
    auto it = f.gpu_seen.find(key);
    if (it != f.gpu_seen.end() && set_t >= t.timed_from_t && it->second >= set_t) {
      t.notify_cpu_to_gpu.push_back({0, it->second - set_t});
    }
  }
  std::vector<double> fronts;
  for (const auto& [v, rt] : f.recv_all_set) {
    auto it = f.first_doorbell_seen.find(v + 1);
    if (rt >= t.timed_from_t && it != f.first_doorbell_seen.end())
      fronts.push_back(it->second - rt);
  }
  t.proxy_cycle_front_ns = fronts.empty() ? kNaN : median(fronts);
  t.proxy_complete_ns = f.complete_costs.empty() ? 0 : median(f.complete_costs);
  std::vector<double> periods;
  for (const auto& [v, rt] : f.recv_all_set) {
    auto next = f.recv_all_set.find(v + 1);
    if (rt >= t.timed_from_t && next != f.recv_all_set.end()) periods.push_back(next->second - rt);
  }
  t.proxy_cycle_ns = periods.empty() ? kNaN : median(periods);
}

void read_calls_and_flags(const HaloEvents& h, const Windows& windows, HaloRankTrace& t) {
  auto window_start = [&](double x) {
    auto it = std::upper_bound(windows.begin(), windows.end(), std::make_pair(x, 1e300));
    return it == windows.begin() ? kNaN : std::prev(it)->first;
  };
  std::map<uint16_t, double> last_on_lane;  // host lanes
  FlagTimes f;
  std::map<uint32_t, double> msg_bytes;
  for (const HaloMessage& m : t.messages) msg_bytes[m.index] = m.bytes;
  for (const Event& e : h.ev) {
    const double x = h.at(e);
    const bool timed = x >= t.timed_from_t;
    const auto kind = static_cast<EventKind>(e.kind);
    bool host = false;
    switch (kind) {
      case EventKind::kMpiPost: {
        host = true;
        const double call = last_on_lane.count(e.stream) ? x - last_on_lane[e.stream] : kNaN;
        const auto op = static_cast<traces::MpiOp>(e.flags);
        const double bytes = static_cast<double>(e.value);
        if (op == traces::MpiOp::kIsend) {
          t.send_post_t[{static_cast<int>(e.id), static_cast<int>(e.aux)}].push_back(x);
          if (timed && !std::isnan(call)) {
            (e.stream == 0 ? t.isend_call : t.proxy_isend_call)
                .push_back({bytes, call, static_cast<int>(e.id) == t.rank});
          }
        } else if (op == traces::MpiOp::kIrecv && timed && !std::isnan(call)) {
          (e.stream == 0 ? t.irecv_call : t.proxy_irecv_call).push_back({bytes, call});
        }
        break;
      }
      case EventKind::kMpiComplete:
        host = true;
        if (static_cast<traces::MpiOp>(e.flags) == traces::MpiOp::kIrecv) {
          t.recv_complete_t[{static_cast<int>(e.id), static_cast<int>(e.aux)}].push_back(x);
        }
        break;
      case EventKind::kPhaseBegin:
      case EventKind::kPhaseEnd:
      case EventKind::kIteration: host = true; break;
      case EventKind::kFlagSet:
      case EventKind::kFlagObserved: {
        const std::string array = flag_array(h.flag_name(e.id));
        const bool set = kind == EventKind::kFlagSet;
        host = set != gpu_sets(array);
        const std::pair<uint32_t, uint64_t> key{e.id, e.value};
        if (set && !host) {
          f.gpu_set[key] = x;
          const double ws = window_start(x);
          if (array == "send_ready" && timed && !std::isnan(ws)) {
            t.ready_offset.push_back({msg_bytes[e.aux], x - ws});
          }
        } else if (!set && host) {
          f.cpu_seen.emplace(key, x);
          if (array == "doorbell" && !f.first_doorbell_seen.count(e.value))
            f.first_doorbell_seen[e.value] = x;
        } else if (set && host) {
          f.cpu_set[key] = x;
          if (array == "recv_all") f.recv_all_set[e.value] = x;
          if (array == "recv_complete" && timed && last_on_lane.count(e.stream))
            f.complete_costs.push_back(x - last_on_lane[e.stream]);
        } else {
          f.gpu_seen.emplace(key, x);
        }
        break;
      }
      default: break;
    }
    if (host) last_on_lane[e.stream] = x;
  }
  flag_latencies(h, f, t);
}

}  // namespace

Result<HaloRankTrace> load_halo_trace(const std::string& path) {
  Result<traces::TraceReader> reader = traces::TraceReader::open(path);
  if (!reader.ok()) return reader.error();
  const traces::Metadata& md = reader->metadata();
  HaloRankTrace t;
  t.path = path;
  t.program = md.producer.program;
  if (t.program != "halo_exchange" && t.program != "gdasync_bench") {
    return make_error(path + ": not a halo_exchange / gdasync_bench trace (producer '" + t.program +
                      "')");
  }
  XF_RETURN_IF_ERROR(read_halo_parameters(path, md, t));
  HaloEvents h{md, {}, 0};
  XF_RETURN_IF_ERROR(reader->for_each([&](const Event& e) { h.ev.push_back(e); }));
  std::stable_sort(h.ev.begin(), h.ev.end(),
                   [](const Event& a, const Event& b) { return a.time_ns < b.time_ns; });
  if (h.ev.empty()) return make_error(path + ": the trace has no events");
  t.origin_ns = h.ev.front().time_ns;
  h.origin_ns = t.origin_ns;
  Result<Windows> windows = time_phases(path, h, t);
  if (!windows.ok()) return windows.error();
  read_calls_and_flags(h, *windows, t);
  return t;
}

double HaloRun::total_ns() const {
  double s = 0;
  for (const HaloRankTrace& r : ranks) s += r.phase_ns.at("total");
  return s / static_cast<double>(ranks.size());
}

bool HaloRun::proxy_driven() const {
  for (const HaloRankTrace& r : ranks)
    if (std::isnan(r.proxy_cycle_ns)) return false;
  return true;
}

double HaloRun::iteration_ns() const {
  if (!proxy_driven()) return total_ns();
  double s = 0;
  for (const HaloRankTrace& r : ranks) s += r.proxy_cycle_ns;
  return s / static_cast<double>(ranks.size());
}

double HaloRun::phase_ns(const std::string& p) const {
  double s = 0;
  for (const HaloRankTrace& r : ranks) {
    auto it = r.phase_ns.find(p);
    if (it == r.phase_ns.end()) {
      auto c = csv_phase_ns.find(p);
      return c == csv_phase_ns.end() ? kNaN : c->second;
    }
    s += it->second;
  }
  return s / static_cast<double>(ranks.size());
}

namespace {

// load_csv_phases: avg_ns of every phase row of (variant, label) in the
// run's halo.csv / boxes.csv (columns variant,size,...,phase,min_ns,avg_ns,max_ns).
Result<std::map<std::string, double>> load_csv_phases(const std::filesystem::path& dir,
                                                      const std::string& variant,
                                                      const std::string& label) {
  std::map<std::string, double> out;
  for (const char* name : {"halo.csv", "boxes.csv"}) {
    const std::filesystem::path file = dir / name;
    if (!std::filesystem::exists(file)) continue;  // a run may have only one of them
    Result<CsvTable> csv = read_csv_file(file.string());
    if (!csv.ok()) return csv.error();
    XF_RETURN_IF_ERROR(csv->require({"variant", "size", "phase", "avg_ns"}));
    for (size_t i = 0; i < csv->rows.size(); ++i) {
      const CsvRow row(*csv, i);
      Result<std::string> v = row.text("variant"), size = row.text("size");
      if (!v.ok()) return v.error();
      if (!size.ok()) return size.error();
      if (*v != variant || *size != label) continue;
      Result<std::string> phase = row.text("phase");
      if (!phase.ok()) return phase.error();
      Result<double> avg = row.number("avg_ns");
      if (!avg.ok()) return avg.error();
      out[*phase] = *avg;
    }
  }
  return out;
}

}  // namespace

double HaloRun::kernel_ns(const std::string& k) const {
  double s = 0;
  for (const HaloRankTrace& r : ranks) {
    auto it = r.kernel_ns.find(k);
    if (it == r.kernel_ns.end()) return kNaN;
    s += it->second;
  }
  return s / static_cast<double>(ranks.size());
}

Result<HaloRun> load_halo_run(const std::string& path) {
  Result<HaloRankTrace> first = load_halo_trace(path);
  if (!first.ok()) return first.error();
  HaloRun run;
  const std::string name = std::filesystem::path(path).filename().string();
  const size_t pos = name.rfind("_rank");
  if (pos == std::string::npos) return make_error(path + ": name does not end in _rankN.xft[.zst]");
  const size_t dot = name.find('.', pos);
  const std::string suffix = dot == std::string::npos ? "" : name.substr(dot);
  run.ranks.resize(static_cast<size_t>(first->ranks));
  for (int r = 0; r < first->ranks; ++r) {
    if (r == first->rank) {
      run.ranks[r] = *first;
      continue;
    }
    const std::filesystem::path p = std::filesystem::path(path).parent_path() /
                                    (name.substr(0, pos) + "_rank" + std::to_string(r) + suffix);
    Result<HaloRankTrace> t = load_halo_trace(p.string());
    if (!t.ok())
      return make_error(path + ": rank " + std::to_string(r) + "'s trace: " + t.error().message);
    if (t->variant != first->variant || t->label != first->label || t->ranks != first->ranks) {
      return make_error(p.string() + ": not the same run as " + path);
    }
    run.ranks[r] = std::move(*t);
  }
  Result<std::map<std::string, double>> phases = load_csv_phases(
      std::filesystem::path(path).parent_path().parent_path(), first->variant, first->label);
  if (!phases.ok()) return phases.error();
  run.csv_phase_ns = std::move(*phases);
  // MPI latency: receiver's completion - max(sender's post, receiver's wait start).
  for (int r = 0; r < first->ranks; ++r) {
    const HaloRankTrace& recv = run.ranks[r];
    for (const auto& [key, completes] : recv.recv_complete_t) {
      const auto [peer, tag] = key;
      if (peer < 0 || peer >= first->ranks) continue;
      auto sit = run.ranks[peer].send_post_t.find({r, tag});
      if (sit == run.ranks[peer].send_post_t.end()) continue;
      double bytes = 0;
      for (const HaloMessage& m : run.ranks[peer].messages)
        if (m.direction == tag && m.peer == r) bytes = m.bytes;
      // The sender's times in the receiver's frame (one host clock for both).
      const double shift =
          static_cast<double>(static_cast<int64_t>(run.ranks[peer].origin_ns - recv.origin_ns));
      const size_t n = std::min(completes.size(), sit->second.size());
      for (size_t k = 0; k < n; ++k) {
        const double post = sit->second[k] + shift, done = completes[k];
        if (sit->second[k] < run.ranks[peer].timed_from_t) continue;
        auto w = std::upper_bound(recv.wait_begin_t.begin(), recv.wait_begin_t.end(), done);
        const double wait = w == recv.wait_begin_t.begin() ? -1e300 : *std::prev(w);
        const double from = std::max(post, wait);
        if (done >= from) run.mpi_latency.push_back({bytes, done - from, peer == r});
      }
    }
  }
  return run;
}

}  // namespace xferlab::sim
