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

int run_main(int argc, char** argv) {
  FlagSet f("proact", "PROACT multi-GPU fine-grained transfers: workloads, mechanisms, profiler");
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
      .add_time("timeout", "5s", "agent deadline for a chunk to become ready")
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
  parse_flags_or_exit(f, argc, argv);

  int available = 0;
  if (cudaGetDeviceCount(&available) != cudaSuccess || available == 0) {
    return fail(make_runtime_error("no CUDA device available"));
  }
  const int want = static_cast<int>(f.get_int("gpus"));
  const int G = want == 0 ? std::min(available, kMaxGpus) : want;
  if (G > available) {
    return fail(make_error("--gpus " + std::to_string(G) + " needs " + std::to_string(G) +
                           " GPUs but only " + std::to_string(available) + " are visible"));
  }
  std::vector<int> devices;
  for (int d = 0; d < G; ++d) devices.push_back(d);
  if (G > 1) {
    Status s = enable_peer_access(devices);
    if (!s.ok()) return fail(s.error());
  }

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
  const std::string wname = f.get_string("workload");
  Result<std::unique_ptr<Workload>> wl = make_workload(wname, wp);
  if (!wl.ok()) return fail(wl.error());
  Workload& w = **wl;

  // Grid: flags, or the profiler's grid, or a choice file.
  Result<std::vector<Mechanism>> mechs = parse_mechanism_list(f.get_string("mechanism"));
  if (!mechs.ok()) return fail(mechs.error());
  Result<std::vector<uint32_t>> threads = parse_thread_list(f.get_string("threads"));
  if (!threads.ok()) return fail(threads.error());
  std::vector<uint64_t> chunks;
  for (double c : f.get_size_list("chunk")) chunks.push_back(static_cast<uint64_t>(c));
  const bool profile = f.get_bool("profile");
  if (profile) {
    const bool full = f.get_bool("full");
    if (!f.was_set("mechanism")) {
      *mechs = {Mechanism::kInline, Mechanism::kPolling, Mechanism::kPollingTma, Mechanism::kCdp};
    }
    if (!f.was_set("chunk")) {
      chunks = full ? std::vector<uint64_t>{4 << 10, 16 << 10, 64 << 10, 256 << 10,
                                            1 << 20, 4 << 20,  16 << 20}
                    : std::vector<uint64_t>{16 << 10, 256 << 10, 4 << 20};
    }
    if (!f.was_set("threads")) {
      // The copy agents need thousands of threads to fill NVLink (docs/proact.md).
      *threads = full ? std::vector<uint32_t>{32, 128, 512, 2048, 8192}
                      : std::vector<uint32_t>{1024, 8192};
    }
  }
  if (!f.get_string("config").empty()) {
    Result<std::vector<ProfileChoice>> cs = read_choices(f.get_string("config"));
    if (!cs.ok()) return fail(cs.error());
    Result<ProfileChoice> c = find_choice(*cs, wname, G, f.get_string("config"));
    if (!c.ok()) return fail(c.error());
    *mechs = {c->mechanism};
    chunks = {c->chunk_bytes};
    *threads = {std::max<uint32_t>(c->threads, 32)};
  }

  RunnerOptions ro;
  ro.devices = devices;
  ro.warmup = static_cast<int>(f.get_int("warmup"));
  ro.reps = static_cast<int>(f.get_int("reps"));
  ro.slice_bytes = static_cast<uint64_t>(f.get_size("slice"));
  ro.timeout_ns = static_cast<uint64_t>(f.get_time_ns("timeout"));
  ro.counter_bits = static_cast<int>(f.get_int("counter-bits"));
  ro.trace_capacity_events = static_cast<uint32_t>(f.get_int("trace-capacity"));
  if (ro.trace_capacity_events != 0 && ro.trace_capacity_events < 1024)
    return fail(make_error("--trace-capacity " + std::to_string(ro.trace_capacity_events) +
                           ": use 0 (sized from the run) or at least 1024 events"));
  ro.trace_cta_sample = static_cast<uint32_t>(f.get_int("trace-cta-sample"));
  ro.trace_agent_sample = static_cast<uint32_t>(f.get_int("trace-agent-sample"));
  ro.parameters = f.values();
  ro.program = "proact";
  ro.argc = argc;
  ro.argv = argv;
  const std::string out_dir = f.get_string("out");
  if (!out_dir.empty()) std::filesystem::create_directories(out_dir + "/traces");
  // Traces are large (32 B per event): a sweep traces a representative subset.
  const std::string trace_chunks_text = f.get_string("trace-chunks");
  std::vector<uint64_t> trace_chunks;
  if (trace_chunks_text != "all" && trace_chunks_text != "none") {
    Result<std::vector<double>> tc = parse_size_list(trace_chunks_text);
    if (!tc.ok()) return fail(make_error("--trace-chunks: " + tc.error().message));
    for (double c : *tc) trace_chunks.push_back(static_cast<uint64_t>(c));
  }
  auto traced = [&](Mechanism m, uint64_t chunk, uint32_t t) {
    if (trace_chunks_text == "none") return false;
    if (m == Mechanism::kMemcpy) return true;  // measured once per invocation.
    if (uses_agent_threads(m) && t != threads->front()) return false;
    return trace_chunks_text == "all" ||
           std::find(trace_chunks.begin(), trace_chunks.end(), chunk) != trace_chunks.end();
  };
  auto trace_path = [&](Mechanism m, uint64_t chunk, uint32_t t) {
    if (out_dir.empty() || !traced(m, chunk, t)) return std::string();
    return out_dir + "/traces/" + wname + "_g" + std::to_string(G) + "_" + mechanism_name(m) +
           "_c" + size_name(chunk) + "_t" + std::to_string(t) + ".xft";
  };

  Baselines base;
  Status st = w.setup({devices[0]});
  if (!st.ok()) return fail(st.error());
  std::vector<ResultRow> rows;
  int failed_configs = 0;
  auto record = [&](Runner& runner, const RunConfig& c, int gpus) -> Result<ResultRow> {
    std::fprintf(stderr, "proact: %s gpus=%d %s chunk=%s threads=%u ...", wname.c_str(), gpus,
                 mechanism_name(c.mechanism), size_name(c.chunk_bytes).c_str(), c.threads);
    Result<RunResult> r =
        runner.run(c, gpus == G ? trace_path(c.mechanism, c.chunk_bytes, c.threads) : "");
    ResultRow row;
    if (!r.ok()) {
      // A runtime failure (agent timeout, failed verification) is a result of
      // this configuration: record it and go on with the grid.
      std::fprintf(stderr, " failed: %s\n", r.error().message.c_str());
      if (r.error().usage) return r.error();
      row.workload = wname;
      row.gpus = gpus;
      row.mechanism = c.mechanism;
      row.chunk_bytes = c.chunk_bytes;
      row.threads = c.threads;
      row.time_ms = row.p10_ms = row.p90_ms = std::nan("");
      row.check = "FAILED: " + r.error().message;
      row.verified = Verified::kNo;
      ++failed_configs;
      return row;
    }
    std::fprintf(stderr, " %.4f ms\n", r->time_ms);
    row.workload = wname;
    row.gpus = gpus;
    row.mechanism = c.mechanism;
    row.chunk_bytes = c.chunk_bytes;
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
  };

  // 1-GPU reference time (applications only: the microbenchmark has no 1-GPU form).
  auto* micro = dynamic_cast<MicroWorkload*>(&w);
  if (!micro) {
    RunnerOptions one = ro;
    one.devices = {devices[0]};
    Runner r1(w, one);
    Result<ResultRow> row = record(r1, {Mechanism::kNone, chunks[0], 32}, 1);
    if (!row.ok()) return fail(row.error());
    base.one_gpu_ms = row->time_ms;
    if (G > 1) rows.push_back(*row);
    st = w.setup(devices);
    if (!st.ok()) return fail(st.error());
  }
  Runner runner(w, ro);

  // Microbenchmark calibration: producer time = cudaMemcpy duplication time.
  if (micro && wp.micro_work == 0) {
    const uint64_t cal_chunk = wp.micro_bytes;
    auto time_of = [&](Mechanism m, uint32_t work) -> Result<double> {
      micro->set_work(work);
      Result<RunResult> r = runner.run({m, cal_chunk, 32}, "");
      if (!r.ok()) return r.error();
      return r->time_ms;
    };
    double target = wp.micro_compute_ms;
    if (G > 1) {
      Result<double> mc = time_of(Mechanism::kMemcpy, 0), n0 = time_of(Mechanism::kNone, 0);
      if (!mc.ok()) return fail(mc.error());
      if (!n0.ok()) return fail(n0.error());
      target = *mc - *n0;
    }
    Result<double> a = time_of(Mechanism::kNone, 64), b = time_of(Mechanism::kNone, 1024);
    if (!a.ok()) return fail(a.error());
    if (!b.ok()) return fail(b.error());
    const double per_round = (*b - *a) / (1024 - 64);
    const double work = 64 + (target - *a) / std::max(per_round, 1e-9);
    micro->set_work(static_cast<uint32_t>(std::clamp(work, 1.0, 1e8)));
    std::fprintf(stderr, "proact: micro calibrated: copy %.4f ms -> work %u rounds\n", target,
                 micro->work());
  }

  // Baselines, then the grid.
  std::map<uint64_t, Baselines> per_chunk;
  if (G > 1) {
    Result<ResultRow> mc = record(runner, {Mechanism::kMemcpy, chunks[0], 32}, G);
    if (!mc.ok()) return fail(mc.error());
    base.memcpy_ms = mc->time_ms;
    rows.push_back(*mc);
  }
  bool any_tracking = false;
  for (Mechanism m : *mechs) any_tracking |= uses_tracking(m);
  const size_t first_measured = rows.size();
  for (uint64_t chunk : chunks) {
    Baselines b = base;
    Result<ResultRow> none = record(runner, {Mechanism::kNone, chunk, 32}, G);
    if (!none.ok()) return fail(none.error());
    b.none_ms = none->time_ms;
    if (G == 1 && micro == nullptr) b.one_gpu_ms = base.one_gpu_ms;
    rows.push_back(*none);
    if (any_tracking) {
      Result<ResultRow> tr = record(runner, {Mechanism::kTrack, chunk, 32}, G);
      if (!tr.ok()) return fail(tr.error());
      b.track_ms = tr->time_ms;
      rows.push_back(*tr);
    }
    for (Mechanism m : *mechs) {
      if (m == Mechanism::kNone || m == Mechanism::kTrack || m == Mechanism::kMemcpy) continue;
      // Nothing to move on one GPU; UM still runs (its data lives in managed memory).
      if (G == 1 && moves_data(m) && m != Mechanism::kUnified) continue;
      const std::vector<uint32_t> ts = uses_agent_threads(m) ? *threads : std::vector<uint32_t>{32};
      for (uint32_t t : ts) {
        if ((m == Mechanism::kCdp || m == Mechanism::kCdpTail) && t > 1024) continue;
        Result<ResultRow> row = record(runner, {m, chunk, t}, G);
        if (!row.ok()) return fail(row.error());
        rows.push_back(*row);
      }
    }
    for (size_t i = first_measured; i < rows.size(); ++i) {
      if (rows[i].chunk_bytes == chunk && rows[i].gpus == G) per_chunk[chunk] = b;
    }
  }
  for (ResultRow& r : rows) {
    Baselines b = base;
    if (auto it = per_chunk.find(r.chunk_bytes); it != per_chunk.end() && r.gpus == G)
      b = it->second;
    if (r.gpus == 1 && G > 1) b = Baselines{base.one_gpu_ms, 0, 0, 0};
    derive(b, r);
  }

  const Table table = results_table(rows);
  Result<OutputFormat> fmt = parse_output_format(f.get_string("format"));
  table.write(std::cout, *fmt);
  if (!f.get_string("csv").empty()) {
    std::ofstream csv(f.get_string("csv"));
    table.write_csv(csv);
    if (!csv) return fail(make_runtime_error(f.get_string("csv") + ": cannot write"));
  }
  if (failed_configs > 0) {
    std::fprintf(stderr, "proact: %d configuration(s) failed (see the check column)\n",
                 failed_configs);
  }
  if (profile) {
    std::optional<ProfileChoice> best = pick_best(rows);
    if (!best) return fail(make_runtime_error("profiler: no verified PROACT configuration"));
    Status s = write_choices(f.get_string("profile-out"), {*best});
    if (!s.ok()) return fail(s.error());
    std::printf("profile: %s gpus=%d -> %s chunk=%s threads=%u (%.4f ms) written to %s\n",
                wname.c_str(), G, mechanism_name(best->mechanism),
                size_name(best->chunk_bytes).c_str(), best->threads, best->time_ms,
                f.get_string("profile-out").c_str());
  }
  return failed_configs > 0 ? 1 : 0;
}

}  // namespace
}  // namespace xferlab::proact

int main(int argc, char** argv) {
  return xferlab::proact::run_main(argc, argv);
}
