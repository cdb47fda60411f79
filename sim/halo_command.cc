// sim/halo_command.cc — halo / GPUDirect Async replay, prediction and validation.
#include "sim/halo_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "common/flags.h"
#include "common/number.h"
#include "common/table.h"
#include "common/units.h"
#include "hw_model/link_model.h"
#include "hw_model/platform.h"
#include "sim/halo_bound.h"
#include "sim/halo_model.h"
#include "sim/host_memory_fit.h"
#include "traces/reader.h"

namespace xferlab::sim {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// measured_source of halo rows: measured_us is, averaged over ranks, the
// traced iterations' median "total" phase, or for sa/ki the median period of
// the proxy's recv_all store (HaloRun::iteration_ns); not a CSV median.
constexpr const char* kHaloMeasuredSource = "trace_iterations";
constexpr const char* kProxyMeasuredSource = "trace_recv_all_period";
const char* measured_source(const HaloRun& run) {
  return run.proxy_driven() ? kProxyMeasuredSource : kHaloMeasuredSource;
}
using cli::fail;

// Case: one run (all ranks) and its workload.
struct Case {
  std::string path;  ///< rank-0 trace
  HaloRun run;
  HaloWorkload w;
  std::string place, size;  ///< label "gpus2_200" -> place "gpus2", size "200"
  bool box = false;
  double model_only_ns = 0;  ///< replay before the residual was calibrated.
};

// host_memory_of: the host-memory capacity of the machine that recorded
// `trace`: fitted to its run's bench/interference_bench.csv (beside
// halo/traces/) when there is one, with the GPU writing pinned memory at the
// host link's payload bandwidth; else the preset's [cpu] memory_bw.
Result<HostMemoryFit> host_memory_of(const std::string& trace, const hw_model::Platform& p) {
  const std::filesystem::path csv =
      std::filesystem::path(trace).parent_path().parent_path().parent_path() / "bench" /
      "interference_bench.csv";
  HostMemoryFit none;
  none.bw_bytes_per_s = p.cpu.memory_bw_bytes_per_s;
  if (!std::filesystem::exists(csv)) return none;
  Result<hw_model::LinkModel> host = hw_model::LinkModel::create(p.host_link);
  if (!host.ok()) return host.error();
  Result<std::vector<InterferencePoint>> points =
      read_interference_points(csv.string(), host->payload_bandwidth_bytes_per_s());
  if (!points.ok()) return points.error();
  return fit_host_memory(*points, p.cpu.memory_bw_bytes_per_s);
}

// network_of: the preset's network, NIC and notification costs, after
// `sets` (--set); host memory from host_memory_of(trace) on the trace's own
// machine unless --set cpu.memory_bw says otherwise, else the preset's.
Result<std::pair<HaloNetwork, NicCosts>> network_of(const std::string& preset,
                                                    const std::string& trace,
                                                    const std::vector<std::string>& sets = {}) {
  Result<hw_model::Platform> p = hw_model::load_platform(preset);
  if (!p.ok()) return p.error();
  if (Status s = hw_model::set_parameters(*p, sets); !s.ok()) return s.error();
  if (Status s = p->validate(); !s.ok()) return make_error(preset + ": " + s.error().message);
  Result<hw_model::LinkModel> link = hw_model::LinkModel::create(p->network_link);
  if (!link.ok()) return link.error();
  HaloNetwork net;
  net.nic_bw_bytes_per_s =
      link->payload_bandwidth_bytes_per_s() * static_cast<double>(p->topology.nics_per_node);
  net.nic_latency_ns = link->one_way_latency_ns();
  net.gpu_sms = static_cast<int>(p->gpu.sm_count);
  net.ranks_per_node = static_cast<int>(p->gpus_per_node());
  net.host_memory_bw_bytes_per_s = p->cpu.memory_bw_bytes_per_s;
  net.mpi_node = p->mpi_node;
  const bool memory_set = std::any_of(sets.begin(), sets.end(), [](const std::string& kv) {
    return kv.rfind("cpu.memory_bw=", 0) == 0;
  });
  if (preset == kHaloTracePlatform && !memory_set) {
    Result<HostMemoryFit> fit = host_memory_of(trace, *p);
    if (!fit.ok()) return fit.error();
    net.host_memory_bw_bytes_per_s = fit->bw_bytes_per_s;
  }
  NicCosts nic;
  nic.doorbell_ns = p->notification.doorbell_ns;
  // WQE fetch: one read of the descriptor over the host link; CQ polling: one
  // GPU poll period plus a read of host/NIC memory (preset [notification]).
  Result<hw_model::LinkModel> host = hw_model::LinkModel::create(p->host_link);
  nic.wqe_ns = host.ok() ? 2 * host->one_way_latency_ns() : 1000;
  nic.cq_poll_ns = p->notification.gpu_poll_period_ns / 2 + p->notification.gpu_poll_read_ns;
  return std::make_pair(net, nic);
}

HaloGeometry geometry_of(const HaloRankTrace& t) {
  HaloGeometry g;
  g.procs = t.procs;
  g.per_rank = t.per_rank;
  g.vars = t.vars;
  g.pattern = t.pattern;
  return g;
}

// The committed traces' machine: its rates drive the interpolation.
WorkRates trace_rates() {
  WorkRates r;
  Result<hw_model::Platform> p = hw_model::load_platform(kHaloTracePlatform);
  if (!p.ok()) return r;
  r.gpu_memory_bw_bytes_per_s = p->gpu.memory_bw_bytes_per_s;
  Result<hw_model::LinkModel> host = hw_model::LinkModel::create(p->host_link);
  if (host.ok()) r.host_link_bw_bytes_per_s = host->payload_bandwidth_bytes_per_s();
  return r;
}

// place_and_size: a trace label "gpus2_200" -> {"gpus2", "200"}.
std::pair<std::string, std::string> place_and_size(const std::string& label) {
  const size_t us = label.rfind('_');
  if (us == std::string::npos) return {"", label};
  return {label.substr(0, us), label.substr(us + 1)};
}

// run_engine_ns_per_byte: the MPI progress engine's cost per byte of the run
// in rank-0 trace `path`'s directory at placement `place` (e.g. "gpus2"):
// the mean over baseline and host of the own cost (workload_of) at that
// variant's largest paper size (boxes excluded; a fitted size in every
// family). Their receives all complete at the end of one MPI_Testall, so
// their latency line is the engine's busy time (engine_ns_per_byte). 0 when
// neither is there (a trace replayed alone). Once per directory and place.
double run_engine_ns_per_byte(const std::string& path, const std::string& place) {
  static std::map<std::string, double> cache;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const std::string key = dir.string() + "|" + place;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  double sum_ns_per_byte = 0;
  int variants = 0;
  for (const std::string v : {"baseline", "host"}) {
    double largest_cells = 0, own_ns_per_byte = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(v + "_" + place + "_", 0) != 0 || name.find("_rank0.") == std::string::npos)
        continue;
      Result<HaloRun> run = load_halo_run(e.path().string());
      if (!run.ok() || place_and_size(run->r0().label).second.rfind("box", 0) == 0) continue;
      Result<HaloWorkload> w = workload_of(*run, trace_rates());
      if (w.ok() && w->cells > largest_cells) {
        largest_cells = w->cells;
        own_ns_per_byte = w->progress_ns_per_byte;
      }
    }
    if (own_ns_per_byte > 0) {
      sum_ns_per_byte += own_ns_per_byte;
      ++variants;
    }
  }
  const double run_ns_per_byte = variants > 0 ? sum_ns_per_byte / variants : 0;
  cache.emplace(key, run_ns_per_byte);
  return run_ns_per_byte;
}

Result<Case> load_case_uncached(const std::string& path) {
  Result<HaloRun> run = load_halo_run(path);
  if (!run.ok()) return run.error();
  Result<HaloWorkload> w = workload_of(*run, trace_rates());
  if (!w.ok()) return w.error();
  Case c{path, std::move(*run), std::move(*w), "", "", false, 0};
  std::tie(c.place, c.size) = place_and_size(c.run.r0().label);
  c.box = c.size.rfind("box", 0) == 0;
  // The engine's cost is the run's, not the variant's (engine_ns_per_byte);
  // set before the residual is calibrated on top of it.
  c.w.run_progress_ns_per_byte = run_engine_ns_per_byte(path, c.place);
  c.w.progress_ns_per_byte =
      engine_ns_per_byte(c.w.variant, c.w.progress_ns_per_byte, c.w.run_progress_ns_per_byte);
  // The residual per received message is fitted to this run's iteration.
  Result<std::pair<HaloNetwork, NicCosts>> netnic = network_of(kHaloTracePlatform, path);
  if (!netnic.ok()) return netnic.error();
  HaloNetwork net = netnic->first;
  net.ranks_per_node = c.run.r0().ranks;
  HaloWorkload bare = c.w;
  Result<HaloPhases> p0 =
      simulate_halo(bare, geometry_of(c.run.r0()), net, HaloMode::kMeasured, netnic->second);
  if (!p0.ok()) return p0.error();
  c.model_only_ns = p0->iteration_ns;
  Result<HaloPhases> p =
      calibrate_residual(c.w, geometry_of(c.run.r0()), net, c.run.iteration_ns());
  if (!p.ok()) return p.error();
  return c;
}

// load_case: one run, calibrated; each run is loaded once per process.
Result<Case> load_case(const std::string& path) {
  static std::map<std::string, Case> cache;
  const std::string key = std::filesystem::weakly_canonical(path).string();
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  Result<Case> c = load_case_uncached(path);
  if (c.ok()) cache.emplace(key, *c);
  return c;
}

// family: the rank-0 traces of the same variant, placement and kind (paper
// sizes or boxes) in path's directory, sorted by cells per rank.
Result<std::vector<Case>> load_family(const Case& c) {
  std::vector<Case> out;
  const std::filesystem::path dir = std::filesystem::path(c.path).parent_path();
  const std::string prefix = c.run.r0().variant + "_" + c.place + "_";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.find("_rank0.") == std::string::npos) continue;
    if (e.path() == std::filesystem::path(c.path)) {
      out.push_back(c);
      continue;
    }
    Result<Case> s = load_case(e.path().string());
    if (!s.ok()) return s.error();
    if (s->box == c.box) out.push_back(std::move(*s));
  }
  std::sort(out.begin(), out.end(),
            [](const Case& a, const Case& b) { return a.w.cells < b.w.cells; });
  return out;
}

// workload_at: a family's components at `cells` (interpolated between the two
// bracketing sizes, or the nearest two; as measured when only one size). When
// interpolated, *hi is the upper end's index (the lower one's is *hi - 1), else 0.
HaloWorkload workload_at(const std::vector<Case>& fam, const HaloGeometry& g, ProxyDrivers drivers,
                         std::string* data_from, size_t* hi_out) {
  const double cells = g.cells();
  *hi_out = 0;
  if (fam.size() == 1) {
    *data_from = fam[0].size + " (as measured)";
    return fam[0].w;
  }
  size_t hi = 1;
  while (hi + 1 < fam.size() && fam[hi].w.cells < cells) ++hi;
  for (const Case& c : fam) {
    if (c.w.cells == cells) {
      *data_from = c.size + " (as measured)";
      return c.w;
    }
  }
  *data_from = "interpolated " + fam[hi - 1].size + "-" + fam[hi].size;
  *hi_out = hi;
  return interpolate(fam[hi - 1].w, fam[hi].w, g, trace_rates(), drivers);
}

// parse_rank_counts: "--ranks 8" or "--ranks 8,64,512" (empty: none given).
Result<std::vector<int>> parse_rank_counts(const std::string& text) {
  std::vector<int> counts;
  std::stringstream ss(text);
  for (std::string item; !text.empty() && std::getline(ss, item, ',');) {
    Result<int64_t> n = parse_int(item);
    if (!n.ok() || *n < 1 || *n > kMaxHaloRanks) {
      return make_error("replay: --ranks '" + item + "': expected an integer 1.." +
                        std::to_string(kMaxHaloRanks));
    }
    counts.push_back(static_cast<int>(*n));
  }
  return counts;
}

HaloMode halo_mode(const std::string& text) {
  if (text == "hw-doorbell") return HaloMode::kHwDoorbell;
  if (text == "nic") return HaloMode::kNic;
  return HaloMode::kMeasured;
}

// The values of HaloReplayRequest's choice fields: the flags' choices and
// check_choices' lists.
const std::vector<std::string> kModels{"replay", "kmodel"};
const std::vector<std::string> kModes{"measured", "hw-doorbell", "nic"};
const std::vector<std::string> kGraphs{"reduced", "fine"};
const std::vector<std::string> kScalings{"strong", "weak"};

}  // namespace

FlagSet& add_halo_variant_flags(FlagSet& f) {
  const HaloReplayRequest d;
  return f
      .add_string("model", d.model, kModels, "task-graph replay, or the paper's analytic k-model")
      .add_string("mode", d.mode, kModes,
                  "GDA doorbell as measured, rung by hardware, or by the NIC")
      .add_string("variant", d.variant, {},
                  "another variant traced beside it, or all (default: the trace's)");
}

FlagSet halo_replay_flags() {
  const HaloReplayRequest d;
  FlagSet f("xferlab replay",
            "Halo-exchange and GPUDirect Async traces (halo_exchange, gdasync_bench;\n"
            "docs/halo_sim.md) replay on the task-graph core, at the trace's geometry or\n"
            "rescaled to --ranks.");
  f.set_positionals("HALO_TRACE", 1, 1, "a halo or GDA rank-0 trace")
      .add_string("ranks", "", {},
                  "rank count(s) to rescale to, e.g. 8,64,512 (default: the trace's)")
      .add_int("ranks-per-node", d.ranks_per_node, 0, kMaxHaloRanks,
               "ranks sharing a node's NICs (0: the trace's, or the platform's when rescaled)")
      .add_string("platform", d.platform, {}, "platform preset (network and NICs)")
      .add_repeated("set", "key=value",
                    "override a preset key (`xferlab platform keys`; those the halo model reads: "
                    "docs/halo_sim.md, \"Sweeps\")")
      .add_string("format", "table", {"table", "csv", "json"}, "output format");
  return add_halo_variant_flags(f)
      .add_string("graph", d.graph, kGraphs,
                  "reduced: node 0 alone when nodes tile the rank grid (exact); fine: every rank")
      .add_string("scaling", d.scaling, kScalings,
                  "what --ranks keeps of a paper cube: strong = the paper's global cube (split "
                  "over the ranks), weak = the trace's block per rank (native --paper at any "
                  "rank count); boxes always keep their block");
}

namespace {

// variant_cases: the variants to replay: the trace's, or (--variant NAME|all)
// every such variant traced at its size and placement in its directory.
Result<std::vector<Case>> variant_cases(const std::string& trace, const Case& c,
                                        const std::string& variant_sel) {
  const HaloRankTrace& t = c.run.r0();
  if (variant_sel.empty() || variant_sel == t.variant) return std::vector<Case>{c};
  std::vector<Case> cases;
  const std::filesystem::path dir = std::filesystem::path(trace).parent_path();
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.find("_" + t.label + "_rank0.") == std::string::npos) continue;
    if (variant_sel != "all" && name.rfind(variant_sel + "_", 0) != 0) continue;
    Result<Case> s = load_case(e.path().string());
    if (!s.ok()) return s.error();
    cases.push_back(std::move(*s));
  }
  if (cases.empty()) {
    return make_error("replay: no '" + variant_sel + "' traces at " + t.label + " in " +
                      dir.string());
  }
  std::sort(cases.begin(), cases.end(),
            [](const Case& a, const Case& b) { return a.run.r0().variant < b.run.r0().variant; });
  return cases;
}

// geometry_at: the trace's own geometry at its rank count; at another, the
// paper's global cube split over `ranks` (strong scaling) or, for boxes
// (no or an empty `paper` parameter) and with `weak`, the trace's block per
// rank on the split's rank grid (weak scaling).
Result<HaloGeometry> geometry_at(const std::string& trace, const HaloRankTrace& t, int ranks,
                                 bool weak) {
  HaloGeometry g = geometry_of(t);
  if (ranks == t.ranks) return g;
  Result<traces::TraceReader> r = traces::TraceReader::open(trace);
  if (!r.ok()) return r.error();
  std::optional<std::string> paper = r->metadata().parameter("paper");
  if (paper && (paper->empty() || weak)) paper.reset();  // boxes write it empty
  int64_t cube = 1 << 20;  // boxes, weak: only the rank grid comes from the split
  if (paper) {
    Result<int64_t> n = parse_int(*paper);
    if (!n.ok() || *n < 1)
      return make_error(trace + ": parameter 'paper': " +
                        (n.ok() ? "'" + *paper + "' must be >= 1" : n.error().message));
    cube = *n;
  }
  Result<HaloGeometry> s = split_cube(cube, ranks, t.vars, t.pattern);
  if (!s.ok()) return s.error();
  if (!paper) {
    g.procs = s->procs;
    return g;
  }
  return *s;
}

}  // namespace

Table halo_replay_table(bool wall_time) {
  std::vector<Table::Column> columns({{"variant"},
                                      {"model"},
                                      {"mode"},
                                      {"ranks"},
                                      {"ranks_per_node"},
                                      {"per_rank"},
                                      {"iteration_us", 6},
                                      {"pack_us", 5},
                                      {"post_us", 5},
                                      {"wait_us", 5},
                                      {"unpack_us", 5},
                                      {"measured_us", 6},
                                      {"data"},
                                      {"tasks"}});
  if (wall_time) columns.push_back({"wall_s", 3});
  columns.push_back({"measured_source"});
  return Table(std::move(columns));
}

namespace {

// HaloReplay: what one `replay HALO_TRACE` run replays each case with.
struct HaloReplay {
  std::string mode_text;  ///< --mode as given (the table's column).
  HaloMode mode = HaloMode::kMeasured;
  HaloDetail detail = HaloDetail::kReduced;
  bool wall_time = true;  ///< HaloReplayRequest::wall_time.
  NicCosts nic;
  int trace_ranks = 0;  ///< the trace's rank count (a reproduction needs it).
  ProxyDrivers drivers = kProxyDriversDefault;  ///< XFERLAB_HALO_PROXY_DRIVERS.
  PairMix pair = kPairMixDefault;               ///< XFERLAB_HALO_PAIR_MIX.
};

// replay_row: case `cs` replayed at geometry `g` on `net` (rescaled: its
// components interpolated from its family), as one table row.
Status replay_row(const HaloReplay& h, const Case& cs, const HaloGeometry& g,
                  const HaloNetwork& net, bool rescaled, const std::string& per_rank,
                  Table& table) {
  std::string data_from;
  HaloWorkload w;
  std::vector<Case> fam;
  size_t hi = 0;  // interpolated between fam[hi - 1] and fam[hi] when > 0
  if (rescaled) {
    Result<std::vector<Case>> fam_or = load_family(cs);
    if (!fam_or.ok()) return fam_or.error();
    fam = std::move(*fam_or);
    w = workload_at(fam, g, h.drivers, &data_from, &hi);
    data_from = "prediction, components " + data_from;
  } else {
    w = cs.w;
    data_from = h.mode == HaloMode::kMeasured && net.ranks_per_node == h.trace_ranks
                    ? "reproduction"
                    : "prediction (mode / placement)";
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto run = [&](const HaloWorkload& x) {
    return simulate_halo(x, g, net, h.mode, h.nic, h.detail);
  };
  // An interpolated size replays as validate's held-out sizes do (the pair
  // mix for stream / stacked, replay_held_out), so what `--ranks` predicts is
  // the model validate checks; the triples are the traced design's, so the
  // other modes replay the interpolation once.
  Result<HaloPhases> p =
      hi > 0 && h.mode == HaloMode::kMeasured
          ? replay_held_out(fam[hi - 1].w, fam[hi].w, w, g, trace_rates(), h.drivers, h.pair, run)
          : run(w);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!p.ok()) return p.error();
  // The machine's on-node MPI step: a time per iteration in the wait, where
  // the 4-rank runs have it (docs/halo_sim.md, "2 -> 4 ranks from a machine
  // calibration"); 0 unless rescaled from <= 2 ranks to > 2 ranks per node.
  if (const double step = rescaled ? node_step_ns(g, net, h.trace_ranks) : 0; step > 0) {
    p->iteration_ns += step;
    p->wait_ns += step;
    char note[128];
    std::snprintf(
        note, sizeof note,
        "; on-node MPI step +%.3f us (preset [mpi_node], %.1f KiB on-node payload per rank)",
        step / 1000, on_node_rendezvous_payload_bytes(g, net.ranks_per_node) / 1024);
    data_from += note;
  }
  const bool same = data_from == "reproduction";
  if (p->ranks_simulated < static_cast<size_t>(g.ranks())) {
    data_from += "; graph: node 0 (" + std::to_string(p->ranks_simulated) + " of " +
                 std::to_string(g.ranks()) + " ranks; nodes are its translates)";
  }
  std::vector<Table::Cell> row{cs.run.r0().variant,
                               std::string("replay"),
                               h.mode_text,
                               int64_t{g.ranks()},
                               int64_t{net.ranks_per_node},
                               per_rank,
                               p->iteration_ns / 1000,
                               p->pack_ns / 1000,
                               p->post_ns / 1000,
                               p->wait_ns / 1000,
                               p->unpack_ns / 1000,
                               same ? cs.run.iteration_ns() / 1000 : kNaN,
                               data_from,
                               static_cast<int64_t>(p->tasks)};
  if (h.wall_time) row.emplace_back(wall);
  row.emplace_back(std::string(same ? measured_source(cs.run) : ""));
  table.add_row(std::move(row));
  return Status::Ok();
}

// kmodel_row: the paper's analytic k-model at geometry `g` (its slowest rank).
void kmodel_row(const std::string& variant, const HaloGeometry& g, int ranks_per_node,
                const std::string& per_rank, bool wall_time, Table& table) {
  double worst = 0;
  for (int r = 0; r < g.ranks(); ++r) {
    worst = std::max(worst, kmodel_iteration_ns(g, std::max(1, ranks_per_node), r));
  }
  std::vector<Table::Cell> row{variant,
                               std::string("kmodel"),
                               std::string("-"),
                               int64_t{g.ranks()},
                               int64_t{ranks_per_node},
                               per_rank,
                               worst / 1000,
                               kNaN,
                               kNaN,
                               kNaN,
                               kNaN,
                               kNaN,
                               std::string("Elis et al. Eq. 1-4, Power9+V100 calibration"),
                               int64_t{0}};
  if (wall_time) row.emplace_back(0.0);
  row.emplace_back(std::string());
  table.add_row(std::move(row));
}

}  // namespace

namespace {

// check_choices: the request's choice fields hold one of the flags' values
// (the CLI's FlagSet checks them; a library caller is told, not replayed
// with a fallback).
Status check_choices(const HaloReplayRequest& req) {
  struct Choice {
    const char* field;
    const std::string& value;
    const std::vector<std::string>& allowed;
  };
  const Choice choices[] = {
      {"model", req.model, kModels},
      {"mode", req.mode, kModes},
      {"graph", req.graph, kGraphs},
      {"scaling", req.scaling, kScalings},
  };
  for (const Choice& c : choices) {
    if (std::find(c.allowed.begin(), c.allowed.end(), c.value) != c.allowed.end()) continue;
    std::string list;
    for (const std::string& a : c.allowed) list += (list.empty() ? "" : ", ") + a;
    return make_error(std::string("halo replay: ") + c.field + " '" + c.value +
                      "': expected one of " + list);
  }
  return Status::Ok();
}

}  // namespace

Status check_halo_request(const HaloReplayRequest& req) {
  XF_RETURN_IF_ERROR(check_choices(req));
  Result<Case> c = load_case(req.trace);
  if (!c.ok()) return c.error();
  XF_RETURN_IF_ERROR(network_of(req.platform, req.trace, req.sets));
  return Status::Ok();
}

Result<HaloReplayOutput> halo_replay(const HaloReplayRequest& req) {
  XF_RETURN_IF_ERROR(check_choices(req));
  Result<Case> c = load_case(req.trace);
  if (!c.ok()) return c.error();
  Result<std::pair<HaloNetwork, NicCosts>> netnic = network_of(req.platform, req.trace, req.sets);
  if (!netnic.ok()) return netnic.error();
  const HaloRankTrace& t = c->run.r0();
  Result<std::vector<Case>> cases = variant_cases(req.trace, *c, req.variant);
  if (!cases.ok()) return cases.error();
  HaloReplay h;
  h.mode_text = req.mode;
  h.mode = halo_mode(h.mode_text);
  h.detail = req.graph == "fine" ? HaloDetail::kFine : HaloDetail::kReduced;
  h.wall_time = req.wall_time;
  h.nic = netnic->second;
  h.trace_ranks = t.ranks;
  Result<ProxyDrivers> drivers = proxy_drivers_from_env();
  if (!drivers.ok()) return drivers.error();
  h.drivers = *drivers;
  Result<PairMix> pair = pair_mix_from_env();
  if (!pair.ok()) return pair.error();
  h.pair = *pair;
  const std::vector<int> rank_counts = req.ranks.empty() ? std::vector<int>{t.ranks} : req.ranks;
  HaloReplayOutput out{halo_replay_table(req.wall_time), {}};
  for (const int ranks : rank_counts) {
    Result<HaloGeometry> g = geometry_at(req.trace, t, ranks, req.scaling == "weak");
    if (!g.ok()) return g.error();
    const bool rescaled = ranks != t.ranks;
    HaloNetwork net = netnic->first;
    net.ranks_per_node =
        req.ranks_per_node > 0 ? req.ranks_per_node : (rescaled ? net.ranks_per_node : t.ranks);
    const std::string per_rank = std::to_string(g->per_rank[0]) + "x" +
                                 std::to_string(g->per_rank[1]) + "x" +
                                 std::to_string(g->per_rank[2]);
    for (const Case& cs : *cases) {
      const std::string& v = cs.run.r0().variant;
      const bool gda = v == "sa" || v == "ki";
      if (req.model == "kmodel") {
        kmodel_row(v, *g, net.ranks_per_node, per_rank, req.wall_time, out.table);
      } else if ((h.mode == HaloMode::kNic && !gda) || (h.mode == HaloMode::kHwDoorbell && gda)) {
        out.skipped.push_back("--mode " + h.mode_text + " does not apply to " + v + "; skipped");
      } else {
        XF_RETURN_IF_ERROR(replay_row(h, cs, *g, net, rescaled, per_rank, out.table));
      }
    }
  }
  return out;
}

int run_halo_replay(const cli::Args& args, std::ostream& out, std::ostream& err) {
  FlagSet flags = halo_replay_flags();
  if (std::optional<int> rc = cli::parse_command_flags(flags, args, out, err)) return *rc;
  HaloReplayRequest req;
  req.trace = flags.positionals()[0];
  req.platform = flags.get_string("platform");
  req.sets = flags.get_all("set");
  req.ranks_per_node = static_cast<int>(flags.get_int("ranks-per-node"));
  req.model = flags.get_string("model");
  req.mode = flags.get_string("mode");
  req.variant = flags.get_string("variant");
  req.graph = flags.get_string("graph");
  req.scaling = flags.get_string("scaling");
  const OutputFormat format = parse_output_format(flags.get_string("format")).value();
  Result<std::vector<int>> rank_counts = parse_rank_counts(flags.get_string("ranks"));
  if (!rank_counts.ok()) return fail(err, rank_counts.error());
  req.ranks = std::move(*rank_counts);
  Result<HaloReplayOutput> r = halo_replay(req);
  if (!r.ok()) return fail(err, r.error());
  for (const std::string& line : r->skipped) err << "replay: " << line << "\n";
  r->table.write(out, format);
  return cli::kExitOk;
}

namespace {

// families_of: one rank-0 trace per family (directory, variant, placement,
// paper sizes | boxes) of the named traces, keyed in a fixed order.
Result<std::map<std::string, std::string>> families_of(const std::vector<std::string>& traces) {
  std::map<std::string, std::string> families;  // key -> one rank-0 path
  for (const std::string& t : traces) {
    const std::string name = std::filesystem::path(t).filename().string();
    const size_t pos = name.rfind("_rank");
    if (pos == std::string::npos)
      return make_error(t + ": halo trace name must end in _rankN.xft[.zst]");
    const std::string rank0 = (std::filesystem::path(t).parent_path() /
                               (name.substr(0, pos) + "_rank0" + name.substr(name.find('.', pos))))
                                  .string();
    Result<Case> c = load_case(rank0);
    if (!c.ok()) return c.error();
    const std::string key = std::filesystem::path(rank0).parent_path().string() + "|" +
                            c->run.r0().variant + "|" + c->place + "|" + (c->box ? "box" : "paper");
    families.emplace(key, rank0);
  }
  return families;
}

// replay_at_own_geometry: one iteration of workload w on case k's 2-rank
// geometry and machine (the run's host-memory fit), as validate compares it.
Result<HaloPhases> replay_at_own_geometry(const Case& k, const HaloWorkload& w) {
  Result<std::pair<HaloNetwork, NicCosts>> netnic = network_of(kHaloTracePlatform, k.path);
  if (!netnic.ok()) return netnic.error();
  HaloNetwork net = netnic->first;
  net.ranks_per_node = k.run.r0().ranks;
  return simulate_halo(w, geometry_of(k.run.r0()), net, HaloMode::kMeasured, netnic->second);
}

// run_dir: the run's folder name (.../RUN/halo/traces/x.xft.zst -> RUN).
std::string run_dir(const Case& k) {
  return std::filesystem::path(k.path)
      .parent_path()
      .parent_path()
      .parent_path()
      .filename()
      .string();
}

// lent_by: what fitted size `end` lends a held-out size on `target`: its
// own workload, or with EndClasses::kMatched (stream / stacked, where a
// kind changes protocol between them) its latency line and notification over
// the kinds whose protocol the target shares and its residual calibrated
// again with them, so that `end` replayed with what it lends still matches
// its measured time (docs/halo_sim_log.md, "Stacked / stream 400^3: the
// intercept places the residual").
Result<HaloWorkload> lent_by(const Case& end, const HaloGeometry& target, EndClasses classes) {
  HaloWorkload w = end.w;
  const HaloGeometry g = geometry_of(end.run.r0());
  if (classes == EndClasses::kPooled || !match_protocol(w, end.run, g, target)) return w;
  Result<std::pair<HaloNetwork, NicCosts>> netnic = network_of(kHaloTracePlatform, end.path);
  if (!netnic.ok()) return netnic.error();
  HaloNetwork net = netnic->first;
  net.ranks_per_node = end.run.r0().ranks;
  Result<HaloPhases> p = calibrate_residual(w, g, net, end.run.iteration_ns());
  if (!p.ok()) return p.error();
  return w;
}

// FamilySplit: validate's fitted / held-out split of a family
// (fitted_in_family over the sizes' MPI protocols) and each size's workload:
// a fitted size its own, a held-out one interpolated between what the
// nearest fitted sizes below and above lend it (lent_by).
struct FamilySplit {
  std::vector<bool> fitted;
  const std::vector<Case>* fam = nullptr;
  // No defaults here: split_family sets all three from the environment,
  // where each switch's default lives (*_from_env, sim/halo_model.h).
  ProxyDrivers drivers;
  EndClasses classes;
  PairMix pair;
  std::pair<size_t, size_t> bracket(size_t i) const { return fitted_bracket(fitted, i); }
  // Lent: what held-out size i's ends lend it (a below, b above) and w, their
  // interpolation.
  struct Lent {
    HaloWorkload a, b, w;
  };
  Result<Lent> lent(size_t i) const {
    const auto [lo, hi] = bracket(i);
    const HaloGeometry g = geometry_of((*fam)[i].run.r0());
    Result<HaloWorkload> a = lent_by((*fam)[lo], g, classes);
    if (!a.ok()) return a.error();
    Result<HaloWorkload> b = lent_by((*fam)[hi], g, classes);
    if (!b.ok()) return b.error();
    HaloWorkload w = interpolate(*a, *b, g, trace_rates(), drivers);
    return Lent{std::move(*a), std::move(*b), std::move(w)};
  }
  // replay: size i's workload and its replay as validate compares it (a
  // held-out size's by replay_held_out, as `pair` says).
  Result<std::pair<HaloWorkload, HaloPhases>> replay(size_t i) const {
    const Case& k = (*fam)[i];
    auto own = [&k](const HaloWorkload& w) { return replay_at_own_geometry(k, w); };
    if (fitted[i]) {
      Result<HaloPhases> p = own(k.w);
      if (!p.ok()) return p.error();
      return std::make_pair(k.w, *p);
    }
    Result<Lent> l = lent(i);
    if (!l.ok()) return l.error();
    Result<HaloPhases> p = replay_held_out(l->a, l->b, l->w, geometry_of(k.run.r0()), trace_rates(),
                                           drivers, pair, own);
    if (!p.ok()) return p.error();
    return std::make_pair(std::move(l->w), *p);
  }
};
Result<FamilySplit> split_family(const std::vector<Case>& fam, ProxyDrivers drivers) {
  Result<EndClasses> classes = end_classes_from_env();
  if (!classes.ok()) return classes.error();
  Result<PairMix> pair = pair_mix_from_env();
  if (!pair.ok()) return pair.error();
  std::vector<int> protocol;
  for (const Case& k : fam) protocol.push_back(rendezvous_kinds(geometry_of(k.run.r0())));
  return FamilySplit{fitted_in_family(protocol), &fam, drivers, *classes, *pair};
}

}  // namespace

Result<HaloValidation> validate_halo(const std::vector<std::string>& traces, double tolerance) {
  Result<std::map<std::string, std::string>> families = families_of(traces);
  if (!families.ok()) return families.error();
  Result<ProxyDrivers> drivers = proxy_drivers_from_env();
  if (!drivers.ok()) return drivers.error();
  HaloValidation v{Table({{"run"},
                          {"variant"},
                          {"size"},
                          {"set"},
                          {"measured_us", 6},
                          {"sim_us", 6},
                          {"error_pct", 3},
                          {"within_tolerance"},
                          {"pack_meas_us", 5},
                          {"pack_sim_us", 5},
                          {"post_meas_us", 5},
                          {"post_sim_us", 5},
                          {"wait_meas_us", 5},
                          {"wait_sim_us", 5},
                          {"unpack_meas_us", 5},
                          {"unpack_sim_us", 5},
                          {"model_only_error_pct", 3},
                          {"residual_per_recv_us", 3},
                          {"components"},
                          {"measured_source"}}),
                   {},
                   0,
                   ""};
  std::vector<HaloBoundCase> bound_cases;
  for (const auto& [key, rank0] : *families) {
    Result<Case> c = load_case(rank0);
    if (!c.ok()) return c.error();
    Result<std::vector<Case>> fam = load_family(*c);
    if (!fam.ok()) return fam.error();
    Result<FamilySplit> split_or = split_family(*fam, *drivers);
    if (!split_or.ok()) return split_or.error();
    const FamilySplit& split = *split_or;
    for (size_t i = 0; i < fam->size(); ++i) {
      const Case& k = (*fam)[i];
      const bool fitted = split.fitted[i];
      Result<std::pair<HaloWorkload, HaloPhases>> r = split.replay(i);
      if (!r.ok()) return r.error();
      const HaloWorkload& w = r->first;
      const HaloPhases& phases = r->second;
      const auto [lo, hi] = split.bracket(i);
      const double meas = k.run.iteration_ns();
      const double e = 100 * (phases.iteration_ns - meas) / meas;
      v.cases.emplace_back(fitted ? "halo/GDA fitted" : "halo/GDA held-out", std::fabs(e));
      if (std::fabs(e) > tolerance) ++v.beyond_tolerance;
      const std::filesystem::path kept_dir =
          std::filesystem::path(k.path).parent_path().parent_path();
      bound_cases.push_back({kept_dir.string(), run_dir(k) + "/" + kept_dir.filename().string(),
                             w.variant, k.run.r0().label, k.size, !fitted, k.run.r0().ranks, e});
      const bool gda = w.variant == "sa" || w.variant == "ki";
      auto meas_phase = [&](const char* ph) { return gda ? kNaN : k.run.phase_ns(ph) / 1000; };
      v.table.add_row({run_dir(k),
                       w.variant,
                       k.size,
                       std::string(fitted ? "fitted" : "held-out"),
                       meas / 1000,
                       phases.iteration_ns / 1000,
                       e,
                       std::string(std::fabs(e) <= tolerance ? "yes" : "no"),
                       meas_phase("pack"),
                       phases.pack_ns / 1000,
                       meas_phase("post_send"),
                       phases.post_ns / 1000,
                       meas_phase("wait_recv"),
                       phases.wait_ns / 1000,
                       meas_phase("unpack"),
                       gda ? kNaN : phases.unpack_ns / 1000,
                       fitted ? 100 * (k.model_only_ns - meas) / meas : kNaN,
                       w.residual_per_recv_ns / 1000,
                       fitted ? std::string("own trace")
                              : "interpolated " + (*fam)[lo].size + "-" + (*fam)[hi].size,
                       std::string(measured_source(k.run))});
    }
  }
  Result<std::string> bound = halo_bound_text(bound_cases);
  if (!bound.ok()) return bound.error();
  v.bound = std::move(*bound);
  return v;
}

Result<Table> halo_substitution(const std::vector<std::string>& traces) {
  Result<std::map<std::string, std::string>> families = families_of(traces);
  if (!families.ok()) return families.error();
  Result<ProxyDrivers> drivers = proxy_drivers_from_env();
  if (!drivers.ok()) return drivers.error();
  // Component groups as the workload holds them (sim/halo_model.h); a group
  // is listed for the variants whose graph uses it.
  struct Group {
    const char* name;
    bool (*applies)(const std::string& variant);
    void (*take)(HaloWorkload& w, const HaloWorkload& own);
  };
  static const Group kGroups[] = {
      {"none", [](const std::string&) { return true; }, [](HaloWorkload&, const HaloWorkload&) {}},
      {"residual", [](const std::string&) { return true; },
       [](HaloWorkload& w, const HaloWorkload& o) {
         w.residual_per_recv_ns = o.residual_per_recv_ns;
       }},
      {"mpi_latency", [](const std::string&) { return true; },
       [](HaloWorkload& w, const HaloWorkload& o) { w.mpi = o.mpi; }},
      // stream / stacked, diagnosis of the latency line's intercept: it
      // places each received message's residual work on the CPU
      // (docs/halo_sim_log.md, "Stacked / stream 400^3: the intercept places the
      // residual").
      {"line_intercept", [](const std::string& v) { return v == "stream" || v == "stacked"; },
       [](HaloWorkload& w, const HaloWorkload& o) { w.mpi.a_ns = o.mpi.a_ns; }},
      {"residual_zero", [](const std::string& v) { return v == "stream" || v == "stacked"; },
       [](HaloWorkload& w, const HaloWorkload&) { w.residual_per_recv_ns = 0; }},
      {"line_intercept_residual_zero",
       [](const std::string& v) { return v == "stream" || v == "stacked"; },
       [](HaloWorkload& w, const HaloWorkload& o) {
         w.mpi.a_ns = o.mpi.a_ns;
         w.residual_per_recv_ns = 0;
       }},
      {"mpi_latency_residual", [](const std::string& v) { return v == "stream" || v == "stacked"; },
       [](HaloWorkload& w, const HaloWorkload& o) {
         w.mpi = o.mpi;
         w.residual_per_recv_ns = o.residual_per_recv_ns;
       }},
      {"mpi_calls", [](const std::string&) { return true; },
       [](HaloWorkload& w, const HaloWorkload& o) {
         w.isend_self = o.isend_self;
         w.isend_peer = o.isend_peer;
         w.irecv_ns = o.irecv_ns;
         w.proxy_irecv_ns = o.proxy_irecv_ns;
         w.proxy_complete_ns = o.proxy_complete_ns;
       }},
      {"gpu_front", [](const std::string& v) { return v == "sa" || v == "ki"; },
       [](HaloWorkload& w, const HaloWorkload& o) { w.proxy_front_ns = o.proxy_front_ns; }},
      {"ready", [](const std::string& v) { return v == "stream" || v == "stacked"; },
       [](HaloWorkload& w, const HaloWorkload& o) {
         w.ready_base_ns = o.ready_base_ns;
         w.pack_ready = o.pack_ready;
         w.ready_long_ns = o.ready_long_ns;
         w.notify_gpu_to_cpu_ns = o.notify_gpu_to_cpu_ns;
       }},
      {"phases", [](const std::string& v) { return v != "sa" && v != "ki"; },
       [](HaloWorkload& w, const HaloWorkload& o) {
         w.pack_phase_ns = o.pack_phase_ns;
         w.unpack_phase_ns = o.unpack_phase_ns;
         w.wait_send_ns = o.wait_send_ns;
         w.unphased_ns = o.unphased_ns;
       }},
      {"all", [](const std::string&) { return true; },
       [](HaloWorkload& w, const HaloWorkload& o) { w = o; }},
  };
  Table table({{"run"},
               {"variant"},
               {"size"},
               {"substituted"},
               {"measured_us", 6},
               {"sim_us", 6},
               {"error_pct", 3}});
  for (const auto& [key, rank0] : *families) {
    Result<Case> c = load_case(rank0);
    if (!c.ok()) return c.error();
    Result<std::vector<Case>> fam = load_family(*c);
    if (!fam.ok()) return fam.error();
    Result<FamilySplit> split_or = split_family(*fam, *drivers);
    if (!split_or.ok()) return split_or.error();
    const FamilySplit& split = *split_or;
    for (size_t i = 0; i < fam->size(); ++i) {
      if (split.fitted[i]) continue;
      const Case& k = (*fam)[i];
      Result<FamilySplit::Lent> lent = split.lent(i);
      if (!lent.ok()) return lent.error();
      const double meas = k.run.iteration_ns();
      auto add = [&](const std::string& name, const HaloWorkload& w) -> Status {
        Result<HaloPhases> p = replay_at_own_geometry(k, w);
        if (!p.ok()) return p.error();
        table.add_row({run_dir(k), k.w.variant, k.size, name, meas / 1000, p->iteration_ns / 1000,
                       100 * (p->iteration_ns - meas) / meas});
        return Status::Ok();
      };
      for (const Group& g : kGroups) {
        if (!g.applies(k.w.variant)) continue;
        HaloWorkload w = lent->w;
        g.take(w, k.w);
        XF_RETURN_IF_ERROR(add(g.name, w));
      }
      // stream / stacked: the two replays XFERLAB_HALO_PAIR_MIX=output mixes,
      // each with one end's (latency line, notification, residual), nothing
      // of the case's own (docs/halo_sim_log.md, "Stacked / stream 400^3:
      // consistent pairs mixed at the output").
      if (k.w.variant != "stream" && k.w.variant != "stacked") continue;
      const HaloGeometry g = geometry_of(k.run.r0());
      for (const auto& [triple, name] : {std::pair{EndTriple::kLower, "lower_end_triple"},
                                         std::pair{EndTriple::kUpper, "upper_end_triple"}}) {
        XF_RETURN_IF_ERROR(
            add(name, interpolate(lent->a, lent->b, g, trace_rates(), split.drivers, triple)));
      }
    }
  }
  return table;
}

}  // namespace xferlab::sim
