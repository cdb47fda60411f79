// native/proact/proact_main.cc — `proact`: runs a PROACT workload on 1..N GPUs
// over a grid of mechanism x chunk size x transfer threads, with baselines
// (1 GPU, cudaMemcpy, no transfer = infinite bandwidth, tracking only),
// verification, one trace per configuration and a result table/CSV. With
// --profile it is the brute-force profiler and writes the fastest choice per
// workload and GPU count (Table II analogue) for --config.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "common/flags.h"
#include "common/number.h"
#include "common/units.h"
#include "native/cuda_check.h"
#include "native/proact/footprint.h"
#include "native/proact/graph.h"
#include "native/proact/micro_workload.h"
#include "native/proact/region.h"
#include "native/proact/results.h"
#include "native/proact/runner.h"

namespace xferlab::proact {
namespace {

using xferlab::FlagSet;

Result<std::vector<uint32_t>> parse_thread_list(const std::string& text) {
  std::vector<uint32_t> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const Result<uint64_t> v = parse_uint(item);
    if (!v.ok() || *v > UINT32_MAX) return make_error("--threads: '" + item + "' is not a number");
    out.push_back(static_cast<uint32_t>(*v));
  }
  if (out.empty()) return make_error("--threads: empty list");
  return out;
}

int fail(const Error& e) {
  std::fprintf(stderr, "proact: %s\n", e.message.c_str());
  return e.exit_code();
}

std::string size_name(uint64_t b) {
  if (b % (1 << 20) == 0) return std::to_string(b >> 20) + "MiB";
  if (b % 1024 == 0) return std::to_string(b >> 10) + "KiB";
  return std::to_string(b) + "B";
}

// declare_flags: proact's flags (docs/cli.md is generated from them).
void declare_flags(FlagSet& f) {
  f.add_string("workload", "micro", {"micro", "jacobi", "pagerank", "sssp", "als", "xray_ct"},
               "workload to run")
      .add_int("gpus", 0, 0, kMaxGpus, "GPUs to use (0: all visible)")
      .add_string("mechanism", "polling,polling_tma,cdp,inline,memcpy", {},
                  "comma list of none,track,inline,polling,polling_tma,cdp,cdp_tail,memcpy,um "
                  "or 'all' (baselines none/track/memcpy are always measured)")
      .add_size_list("chunk", "64KiB", 16, 1ull << 40, "chunk sizes (comma list)")
      .add_string("threads", "1024", {}, "transfer threads (comma list, multiples of 32)")
      .add_int("reps", 5, 1, 1000, "timed repetitions (median reported)")
      .add_int("warmup", 1, 0, 100, "untimed repetitions first")
      .add_int("iterations", 10, 1, 100000, "iterations of iterative workloads")
      .add_size("bytes", "256MiB", 4096, 1ull << 40, "micro: bytes produced")
      .add_int("work", 0, 0, 1 << 30, "micro: rounds per 16 B (0: calibrate to cudaMemcpy)")
      .add_time("compute-time", "1ms", "micro: producer time target when there is no peer")
      .add_int("graph-scale", 22, 4, 28, "pagerank/sssp: R-MAT scale (2^scale vertices)")
      .add_int("edge-factor", 16, 1, 256, "pagerank/sssp: edges per vertex")
      .add_int("jacobi-rows", 1 << 25, 1024, 1ll << 31, "jacobi: matrix rows")
      .add_int("jacobi-half-band", 8, 1, 64, "jacobi: half bandwidth")
      .add_int("als-users", 1 << 21, 256, 1 << 28, "als: users")
      .add_int("als-items", 1 << 17, 256, 1 << 28, "als: items")
      .add_int("als-per-user", 32, 1, 4096, "als: ratings per user")
      .add_int("ct-size", 1024, 8, 16384, "xray_ct: image side (pixels)")
      .add_int("ct-views", 720, 2, 100000, "xray_ct: parallel-beam views over [0, pi)")
      .add_int("seed", 1, 0, 1ll << 62, "generator seed")
      .add_time("timeout", "5s", "agent bound on each wait for a chunk to become ready")
      .add_size("slice", "16KiB", 16, 1ull << 30, "agent copy unit (per warp / TMA CTA)")
      .add_int("counter-bits", 32, 1, 32, "data-ready counter width (writers per chunk limit)")
      .add_string("out", "", {}, "output directory for traces ('' = no traces)")
      .add_string("csv", "", {}, "write the result table as CSV to this file")
      .add_int("trace-cta-sample", 1, 1, 1 << 20, "trace every n-th producer CTA")
      .add_int("trace-agent-sample", 1, 0, 1 << 20,
               "trace every n-th agent copy (polling slice, CDP child); 0 = none: the "
               "records perturb the run they measure (docs/validation.md)")
      .add_string("trace-chunks", "all", {},
                  "chunk sizes that get a trace (comma list, 'all' or 'none'); only the "
                  "first --threads value of a mechanism is traced")
      .add_int("trace-capacity", 0, 0, kMaxTraceCapacity,
               "trace events per GPU; 0 = sized from the run (re-traced once if it overflows)")
      .add_bool("profile", false, "profiler: sweep the grid, write the fastest choice")
      .add_bool("full", false, "profiler: full grid (default: coarse grid)")
      .add_string("profile-out", "proact_choices.csv", {}, "profiler: choice file to update")
      .add_string("config", "", {}, "load mechanism/chunk/threads from a choice file")
      .add_string("format", "table", {"table", "csv", "json"}, "stdout format");
}

WorkloadParams workload_params(const FlagSet& f) {
  WorkloadParams wp;
  wp.micro_bytes = static_cast<uint64_t>(f.get_size("bytes"));
  wp.micro_work = static_cast<uint32_t>(f.get_int("work"));
  wp.micro_compute_ms = f.get_time_ns("compute-time") / 1e6;
  wp.graph_scale = static_cast<int>(f.get_int("graph-scale"));
  wp.graph_edge_factor = static_cast<int>(f.get_int("edge-factor"));
  wp.jacobi_rows = static_cast<uint64_t>(f.get_int("jacobi-rows"));
  wp.jacobi_half_band = static_cast<int>(f.get_int("jacobi-half-band"));
  wp.iterations = static_cast<int>(f.get_int("iterations"));
  wp.als_users = static_cast<uint32_t>(f.get_int("als-users"));
  wp.als_items = static_cast<uint32_t>(f.get_int("als-items"));
  wp.als_ratings_per_user = static_cast<uint32_t>(f.get_int("als-per-user"));
  wp.ct_size = static_cast<uint32_t>(f.get_int("ct-size"));
  wp.ct_views = static_cast<uint32_t>(f.get_int("ct-views"));
  wp.seed = static_cast<uint64_t>(f.get_int("seed"));
  return wp;
}

// Grid: the configurations to measure.
struct Grid {
  std::vector<Mechanism> mechanisms;
  std::vector<uint64_t> chunks;
  std::vector<uint32_t> threads;
  // On one GPU the mechanisms that move data have nothing to move: they are
  // skipped unless --mechanism names them (then the agents wait for every
  // chunk and copy to no peer: the tracking and agent cost alone).
  bool run_movers_on_one_gpu = false;
};

// grid_from_flags: the flags, or the profiler's grid (--profile).
Result<Grid> grid_from_flags(const FlagSet& f) {
  Grid g;
  Result<std::vector<Mechanism>> mechs = parse_mechanism_list(f.get_string("mechanism"));
  if (!mechs.ok()) return mechs.error();
  g.mechanisms = *mechs;
  g.run_movers_on_one_gpu = f.was_set("mechanism");
  Result<std::vector<uint32_t>> threads = parse_thread_list(f.get_string("threads"));
  if (!threads.ok()) return threads.error();
  g.threads = *threads;
  for (double c : f.get_size_list("chunk")) g.chunks.push_back(static_cast<uint64_t>(c));
  if (f.get_bool("profile")) {
    const bool full = f.get_bool("full");
    if (!f.was_set("mechanism")) {
      g.mechanisms = {Mechanism::kInline, Mechanism::kPolling, Mechanism::kPollingTma,
                      Mechanism::kCdp};
    }
    if (!f.was_set("chunk")) {
      g.chunks = full ? std::vector<uint64_t>{4 << 10, 16 << 10, 64 << 10, 256 << 10,
                                              1 << 20, 4 << 20,  16 << 20}
                      : std::vector<uint64_t>{16 << 10, 256 << 10, 4 << 20};
    }
    if (!f.was_set("threads")) {
      // The copy agents need thousands of threads to fill NVLink (docs/proact.md).
      g.threads = full ? std::vector<uint32_t>{32, 128, 512, 2048, 8192}
                       : std::vector<uint32_t>{1024, 8192};
    }
  }
  return g;
}

// apply_choice_file: --config: the choice file's entry for this workload and
// GPU count replaces the grid.
Status apply_choice_file(const FlagSet& f, const std::string& workload, int gpus, Grid& g) {
  if (f.get_string("config").empty()) return Status::Ok();
  Result<std::vector<ProfileChoice>> cs = read_choices(f.get_string("config"));
  if (!cs.ok()) return cs.error();
  Result<ProfileChoice> c = find_choice(*cs, workload, gpus, f.get_string("config"));
  if (!c.ok()) return c.error();
  g.mechanisms = {c->mechanism};
  g.chunks = {c->chunk_bytes};
  g.threads = {std::max<uint32_t>(c->threads, 32)};
  return Status::Ok();
}

// trace_bytes_per_gpu: the device trace buffers a traced run allocates at first.
uint64_t trace_bytes_per_gpu(const FlagSet& f) {
  if (f.get_string("out").empty() || f.get_string("trace-chunks") == "none") return 0;
  const uint64_t capacity = f.get_int("trace-capacity") == 0
                                ? kAutoTraceCapacityStart
                                : static_cast<uint64_t>(f.get_int("trace-capacity"));
  return capacity * sizeof(traces::Event);
}

Result<Footprint> footprint(const FlagSet& f, const std::string& workload, const WorkloadParams& wp,
                            const Grid& grid) {
  FootprintInput in;
  in.workload = workload;
  in.params = wp;
  in.max_chunk_bytes = *std::max_element(grid.chunks.begin(), grid.chunks.end());
  in.trace_bytes_per_gpu = trace_bytes_per_gpu(f);
  return estimate_footprint(in);
}

// check_footprint_host: before any CUDA call (so it is tested without a GPU):
// refuse what cannot fit in host memory, and say what generation will cost.
Status check_footprint_host(const Footprint& fp, const WorkloadParams& wp,
                            const std::string& workload) {
  Result<uint64_t> available = read_mem_available();
  if (available.ok()) XF_RETURN_IF_ERROR(check_host_fits(fp, *available));
  if (workload == "pagerank" || workload == "sssp") {
    std::fprintf(stderr,
                 "proact: %s: generating %llu edges: about %s of host memory, %s per GPU, "
                 "%.1f s or more\n",
                 workload.c_str(), static_cast<unsigned long long>(fp.generated_items),
                 gib_text(fp.host_bytes).c_str(), gib_text(fp.gpu_bytes).c_str(),
                 estimate_rmat_seconds(wp.graph_scale, wp.graph_edge_factor, wp.seed));
  }
  return Status::Ok();
}

// check_footprint_gpus: every GPU of the run has the estimated memory free.
Status check_footprint_gpus(const Footprint& fp, const std::vector<int>& devices) {
  for (int d : devices) {
    size_t free_bytes = 0, total = 0;
    XF_CUDA_CHECK(cudaSetDevice(d));
    XF_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    XF_RETURN_IF_ERROR(check_gpu_fits(fp, d, free_bytes));
  }
  return Status::Ok();
}

// select_devices: the first --gpus visible GPUs (0: all), peer access enabled.
Result<std::vector<int>> select_devices(const FlagSet& f) {
  int available = 0;
  if (cudaGetDeviceCount(&available) != cudaSuccess || available == 0) {
    return make_runtime_error("no CUDA device available");
  }
  const int want = static_cast<int>(f.get_int("gpus"));
  const int G = want == 0 ? std::min(available, kMaxGpus) : want;
  if (G > available) {
    return make_error("--gpus " + std::to_string(G) + " needs " + std::to_string(G) +
                      " GPUs but only " + std::to_string(available) + " are visible");
  }
  std::vector<int> devices;
  for (int d = 0; d < G; ++d) devices.push_back(d);
  if (G > 1) XF_RETURN_IF_ERROR(enable_peer_access(devices));
  return devices;
}

Result<RunnerOptions> runner_options(const FlagSet& f, const std::vector<int>& devices, int argc,
                                     char** argv) {
  RunnerOptions ro;
  ro.devices = devices;
  ro.warmup = static_cast<int>(f.get_int("warmup"));
  ro.reps = static_cast<int>(f.get_int("reps"));
  ro.slice_bytes = static_cast<uint64_t>(f.get_size("slice"));
  ro.timeout_ns = static_cast<uint64_t>(f.get_time_ns("timeout"));
  ro.counter_bits = static_cast<int>(f.get_int("counter-bits"));
  ro.trace_capacity_events = static_cast<uint32_t>(f.get_int("trace-capacity"));
  if (ro.trace_capacity_events != 0 && ro.trace_capacity_events < 1024)
    return make_error("--trace-capacity " + std::to_string(ro.trace_capacity_events) +
                      ": use 0 (sized from the run) or at least 1024 events");
  ro.trace_cta_sample = static_cast<uint32_t>(f.get_int("trace-cta-sample"));
  ro.trace_agent_sample = static_cast<uint32_t>(f.get_int("trace-agent-sample"));
  ro.parameters = f.values();
  ro.program = "proact";
  ro.argc = argc;
  ro.argv = argv;
  return ro;
}

// TracePlan: which configurations get a trace, and its file name. Traces are
// large (32 B per event): a sweep traces a representative subset.
class TracePlan {
 public:
  static Result<TracePlan> from_flags(const FlagSet& f, const std::string& workload, int gpus,
                                      uint32_t first_threads) {
    TracePlan p;
    p.out_dir_ = f.get_string("out");
    p.workload_ = workload;
    p.gpus_ = gpus;
    p.first_threads_ = first_threads;
    p.chunks_text_ = f.get_string("trace-chunks");
    if (p.chunks_text_ != "all" && p.chunks_text_ != "none") {
      Result<std::vector<double>> tc = parse_size_list(p.chunks_text_);
      if (!tc.ok()) return make_error("--trace-chunks: " + tc.error().message);
      for (double c : *tc) p.chunks_.push_back(static_cast<uint64_t>(c));
    }
    if (!p.out_dir_.empty()) std::filesystem::create_directories(p.out_dir_ + "/traces");
    return p;
  }
  // path: "" when this configuration is not traced.
  std::string path(const RunConfig& c) const {
    if (out_dir_.empty() || !traced(c)) return std::string();
    return out_dir_ + "/traces/" + workload_ + "_g" + std::to_string(gpus_) + "_" +
           mechanism_name(c.mechanism) + "_c" + size_name(c.chunk_bytes) + "_t" +
           std::to_string(c.threads) + ".xft";
  }

 private:
  bool traced(const RunConfig& c) const {
    if (chunks_text_ == "none") return false;
    if (c.mechanism == Mechanism::kMemcpy) return true;  // measured once per invocation.
    if (uses_agent_threads(c.mechanism) && c.threads != first_threads_) return false;
    return chunks_text_ == "all" ||
           std::find(chunks_.begin(), chunks_.end(), c.chunk_bytes) != chunks_.end();
  }
  std::string out_dir_, workload_, chunks_text_;
  int gpus_ = 0;
  uint32_t first_threads_ = 0;
  std::vector<uint64_t> chunks_;
};

// GridRun: measures the baselines and the grid of one workload on G GPUs and
// collects one ResultRow per configuration. A configuration that fails at
// run time (agent timeout, failed verification) is a result: its row says
// so and the grid goes on; a usage error ends the run.
class GridRun {
 public:
  GridRun(Workload& w, const RunnerOptions& ro, const TracePlan& plan)
      : w_(w), ro_(ro), plan_(plan), G_(static_cast<int>(ro.devices.size())) {}

  Status run(const Grid& grid, const WorkloadParams& wp) {
    XF_RETURN_IF_ERROR(w_.setup({ro_.devices[0]}));
    micro_ = dynamic_cast<MicroWorkload*>(&w_);
    // 1-GPU reference time (applications only: the microbenchmark has no 1-GPU form).
    if (!micro_) {
      XF_RETURN_IF_ERROR(measure_one_gpu(grid.chunks[0]));
      XF_RETURN_IF_ERROR(w_.setup(ro_.devices));
    }
    Runner runner(w_, ro_);
    if (micro_ && wp.micro_work == 0) XF_RETURN_IF_ERROR(calibrate_micro(runner, wp));
    return measure_grid(runner, grid);
  }
  const std::vector<ResultRow>& rows() const { return rows_; }
  int failed_configs() const { return failed_; }

 private:
  Result<ResultRow> record(Runner& runner, const RunConfig& c, int gpus) {
    std::fprintf(stderr, "proact: %s gpus=%d %s chunk=%s threads=%u ...", w_.name().c_str(), gpus,
                 mechanism_name(c.mechanism), size_name(c.chunk_bytes).c_str(), c.threads);
    Result<RunResult> r = runner.run(c, gpus == G_ ? plan_.path(c) : "");
    ResultRow row;
    row.workload = w_.name();
    row.gpus = gpus;
    row.mechanism = c.mechanism;
    row.chunk_bytes = c.chunk_bytes;
    if (!r.ok()) {
      std::fprintf(stderr, " failed: %s\n", r.error().message.c_str());
      if (r.error().usage) return r.error();
      row.threads = c.threads;
      row.time_ms = row.p10_ms = row.p90_ms = std::nan("");
      row.check = "FAILED: " + r.error().message;
      row.verified = Verified::kNo;
      ++failed_;
      return row;
    }
    std::fprintf(stderr, " %.4f ms\n", r->time_ms);
    row.threads = uses_agent_threads(c.mechanism) ? c.threads : 0;
    row.time_ms = r->time_ms;
    row.p10_ms = r->p10_ms;
    row.p90_ms = r->p90_ms;
    row.verified = r->verified                            ? Verified::kYes
                   : gpus > 1 && !moves_data(c.mechanism) ? Verified::kNotApplicable
                                                          : Verified::kNo;
    row.check = r->check;
    row.trace = r->trace_path;
    return row;
  }

  Status measure_one_gpu(uint64_t chunk) {
    RunnerOptions one = ro_;
    one.devices = {ro_.devices[0]};
    Runner r1(w_, one);
    Result<ResultRow> row = record(r1, {Mechanism::kNone, chunk, 32}, 1);
    if (!row.ok()) return row.error();
    base_.one_gpu_ms = row->time_ms;
    if (G_ > 1) rows_.push_back(*row);
    return Status::Ok();
  }

  // calibrate_micro: producer time = the cudaMemcpy duplication time.
  Status calibrate_micro(Runner& runner, const WorkloadParams& wp) {
    const uint64_t cal_chunk = wp.micro_bytes;
    auto time_of = [&](Mechanism m, uint32_t work) -> Result<double> {
      micro_->set_work(work);
      Result<RunResult> r = runner.run({m, cal_chunk, 32}, "");
      if (!r.ok()) return r.error();
      return r->time_ms;
    };
    double target = wp.micro_compute_ms;
    if (G_ > 1) {
      Result<double> mc = time_of(Mechanism::kMemcpy, 0), n0 = time_of(Mechanism::kNone, 0);
      if (!mc.ok()) return mc.error();
      if (!n0.ok()) return n0.error();
      target = *mc - *n0;
    }
    Result<double> a = time_of(Mechanism::kNone, 64), b = time_of(Mechanism::kNone, 1024);
    if (!a.ok()) return a.error();
    if (!b.ok()) return b.error();
    const double per_round = (*b - *a) / (1024 - 64);
    const double work = 64 + (target - *a) / std::max(per_round, 1e-9);
    micro_->set_work(static_cast<uint32_t>(std::clamp(work, 1.0, 1e8)));
    std::fprintf(stderr, "proact: micro calibrated: copy %.4f ms -> work %u rounds\n", target,
                 micro_->work());
    return Status::Ok();
  }

  // measure: one configuration; its row is kept.
  Result<double> measure(Runner& runner, const RunConfig& c) {
    Result<ResultRow> row = record(runner, c, G_);
    if (!row.ok()) return row.error();
    rows_.push_back(*row);
    return row->time_ms;
  }

  // measure_grid: memcpy once, then per chunk size the none/track baselines
  // and every mechanism x threads; finally the derived metrics of every row.
  Status measure_grid(Runner& runner, const Grid& grid) {
    if (G_ > 1) {
      Result<double> mc = measure(runner, {Mechanism::kMemcpy, grid.chunks[0], 32});
      if (!mc.ok()) return mc.error();
      base_.memcpy_ms = *mc;
    }
    bool any_tracking = false;
    for (Mechanism m : grid.mechanisms) any_tracking |= uses_tracking(m);
    std::map<uint64_t, Baselines> per_chunk;
    for (uint64_t chunk : grid.chunks) {
      Baselines b = base_;
      Result<double> none = measure(runner, {Mechanism::kNone, chunk, 32});
      if (!none.ok()) return none.error();
      b.none_ms = *none;
      if (any_tracking) {
        Result<double> tr = measure(runner, {Mechanism::kTrack, chunk, 32});
        if (!tr.ok()) return tr.error();
        b.track_ms = *tr;
      }
      for (Mechanism m : grid.mechanisms) {
        if (m == Mechanism::kNone || m == Mechanism::kTrack || m == Mechanism::kMemcpy) continue;
        // Nothing to move on one GPU (Grid); UM still runs (its data lives in managed memory).
        if (G_ == 1 && moves_data(m) && m != Mechanism::kUnified && !grid.run_movers_on_one_gpu)
          continue;
        const std::vector<uint32_t> ts =
            uses_agent_threads(m) ? grid.threads : std::vector<uint32_t>{32};
        for (uint32_t t : ts) {
          if ((m == Mechanism::kCdp || m == Mechanism::kCdpTail) && t > 1024) continue;
          Result<double> r = measure(runner, {m, chunk, t});
          if (!r.ok()) return r.error();
        }
      }
      per_chunk[chunk] = b;
    }
    for (ResultRow& r : rows_) {
      Baselines b = base_;
      if (auto it = per_chunk.find(r.chunk_bytes); it != per_chunk.end() && r.gpus == G_)
        b = it->second;
      if (r.gpus == 1 && G_ > 1) b = Baselines{base_.one_gpu_ms, 0, 0, 0};
      derive(b, r);
    }
    return Status::Ok();
  }

  Workload& w_;
  const RunnerOptions& ro_;
  const TracePlan& plan_;
  const int G_;
  MicroWorkload* micro_ = nullptr;
  Baselines base_;
  std::vector<ResultRow> rows_;
  int failed_ = 0;
};

// report: the table on stdout, the CSV, and the profiler's choice.
Status report(const FlagSet& f, const GridRun& run, const std::string& workload, int gpus) {
  const Table table = results_table(run.rows());
  Result<OutputFormat> fmt = parse_output_format(f.get_string("format"));
  if (!fmt.ok()) return fmt.error();
  table.write(std::cout, *fmt);
  if (!f.get_string("csv").empty()) {
    std::ofstream csv(f.get_string("csv"));
    table.write_csv(csv);
    if (!csv) return make_runtime_error(f.get_string("csv") + ": cannot write");
  }
  if (run.failed_configs() > 0) {
    std::fprintf(stderr, "proact: %d configuration(s) failed (see the check column)\n",
                 run.failed_configs());
  }
  if (!f.get_bool("profile")) return Status::Ok();
  std::optional<ProfileChoice> best = pick_best(run.rows());
  if (!best) return make_runtime_error("profiler: no verified PROACT configuration");
  XF_RETURN_IF_ERROR(write_choices(f.get_string("profile-out"), {*best}));
  std::printf("profile: %s gpus=%d -> %s chunk=%s threads=%u (%.4f ms) written to %s\n",
              workload.c_str(), gpus, mechanism_name(best->mechanism),
              size_name(best->chunk_bytes).c_str(), best->threads, best->time_ms,
              f.get_string("profile-out").c_str());
  return Status::Ok();
}

int run_main(int argc, char** argv) {
  FlagSet f("proact", "PROACT multi-GPU fine-grained transfers: workloads, mechanisms, profiler");
  declare_flags(f);
  parse_flags_or_exit(f, argc, argv);
  const std::string workload = f.get_string("workload");
  const WorkloadParams wp = workload_params(f);
  Result<Grid> grid = grid_from_flags(f);
  if (!grid.ok()) return fail(grid.error());
  Result<Footprint> fp = footprint(f, workload, wp, *grid);
  if (!fp.ok()) return fail(fp.error());
  Status st = check_footprint_host(*fp, wp, workload);
  if (!st.ok()) return fail(st.error());

  Result<std::vector<int>> devices = select_devices(f);
  if (!devices.ok()) return fail(devices.error());
  const int G = static_cast<int>(devices->size());
  st = apply_choice_file(f, workload, G, *grid);
  if (!st.ok()) return fail(st.error());
  fp = footprint(f, workload, wp, *grid);
  if (!fp.ok()) return fail(fp.error());
  st = check_footprint_gpus(*fp, *devices);
  if (!st.ok()) return fail(st.error());
  Result<std::unique_ptr<Workload>> w = make_workload(workload, wp);
  if (!w.ok()) return fail(w.error());
  Result<RunnerOptions> ro = runner_options(f, *devices, argc, argv);
  if (!ro.ok()) return fail(ro.error());
  Result<TracePlan> plan = TracePlan::from_flags(f, workload, G, grid->threads.front());
  if (!plan.ok()) return fail(plan.error());

  GridRun run(**w, *ro, *plan);
  st = run.run(*grid, wp);
  if (!st.ok()) return fail(st.error());
  st = report(f, run, workload, G);
  if (!st.ok()) return fail(st.error());
  return run.failed_configs() > 0 ? 1 : 0;
}

}  // namespace
}  // namespace xferlab::proact

int main(int argc, char** argv) {
  return xferlab::proact::run_main(argc, argv);
}
