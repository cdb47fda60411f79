// sim/replay_command.cc — the replay, validate and sweep subcommands.
#include "sim/replay_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "common/flags.h"
#include "common/number.h"
#include "common/output_path.h"
#include "common/phase_log.h"
#include "common/progress.h"
#include "common/table.h"
#include "common/units.h"
#include "sim/api.h"
#include "sim/explain.h"
#include "sim/halo_command.h"
#include "sim/halo_trace.h"
#include "sim/mpi_world.h"

namespace xferlab::sim {

namespace {

using cli::fail;
using cli::parse_command_flags;

FlagSet& add_platform_flags(FlagSet& f) {
  return f.add_string("platform", "", {}, "platform preset (default: chosen from the trace)")
      .add_repeated("set", "key=value", "override a preset key (`xferlab platform keys`)");
}

// add_replay_flags: TRACE and the flags replay and explain share.
FlagSet& add_replay_flags(FlagSet& f, const std::string& timeline_help) {
  f.set_positionals("TRACE", 1, 1, "a trace file (.xft, .xftrace, optionally .zst)");
  return add_platform_flags(f)
      .add_string("mechanism", "all", {}, "memcpy|inline|polling|cdp|hardware|infinite|all")
      .add_int("gpus", 0, 0, kMaxGpus, "scale out to this many GPUs (0: the trace's)")
      .add_string("scaling", scaling_name(kDefaultScaling), {"weak", "strong"},
                  "what --gpus keeps: weak = the work per GPU (each GPU replays a traced GPU's "
                  "compute), strong = the problem (each GPU computes 1/N of it; docs/scaling.md)")
      .add_size("chunk-size", "0", 0, 1e15, "re-chunk each kernel's output (0: the trace's chunks)")
      .add_string("format", "table", {"table", "csv", "json"}, "output format")
      .add_string("timeline", "", {}, timeline_help)
      .add_string("timeline-measured", "auto", {"auto", "yes", "no"},
                  "put the trace's own tracks (\"measured: GPU0\") beside the simulated ones "
                  "(\"simulated MECH: GPU0\") in the --timeline file, on one time axis; auto: "
                  "when the replay is comparable with the measured run (no --gpus/--chunk-size)");
}

// add_core_flag: --core, the PROACT replay core (ReplayOptions::core).
FlagSet& add_core_flag(FlagSet& f) {
  return f.add_string("core", replay_core_name(ReplayOptions{}.core), {"actors", "graph"},
                      "PROACT replay core: actors (S4U actors per producer and agent) or graph "
                      "(the task-graph core halo replay runs on; docs/sim.md, \"Two replay "
                      "cores\")");
}

// add_core_and_jobs_flags: --core and --jobs (`what`: the unit each process
// replays; 0 = the CPUs this process may use).
FlagSet& add_core_and_jobs_flags(FlagSet& f, const std::string& what) {
  return add_core_flag(f).add_int(
      "jobs", 0, 0, kMaxJobs,
      what + " at once, one process each (0: the CPUs this process may use)");
}

// core_of: --core's value (the flag admits actors|graph only).
ReplayCore core_of(const FlagSet& flags) {
  return *parse_replay_core(flags.get_string("core"));
}

// replay_request: the request fields of add_replay_flags.
ReplayRequest replay_request(const FlagSet& flags) {
  ReplayRequest req;
  req.trace = flags.positionals()[0];
  req.platform = flags.get_string("platform");
  req.mechanism = flags.get_string("mechanism");
  req.gpus = static_cast<uint32_t>(flags.get_int("gpus"));
  req.chunk_bytes = static_cast<uint64_t>(flags.get_size("chunk-size"));
  req.scaling = *parse_scaling(flags.get_string("scaling"));  // the flag admits weak|strong only
  req.sets = flags.get_all("set");
  req.record_timeline = !flags.get_string("timeline").empty();
  return req;
}

// check_timeline: the --timeline path is writable before any work starts.
Status check_timeline(const FlagSet& flags, const std::string& what) {
  const std::string timeline = flags.get_string("timeline");
  if (timeline.empty()) return Status::Ok();
  return check_output_path(timeline, what + " --timeline");
}

// write_timeline_file: the --timeline file of a replay, with the measured
// tracks as --timeline-measured says.
Status write_timeline_file(const FlagSet& flags, const ReplayOutput& output,
                           const std::string& what) {
  const std::string path = flags.get_string("timeline");
  const std::string measured = flags.get_string("timeline-measured");
  // Streamed: a measured trace's tracks can be large.
  std::ofstream file(path);
  if (!file) return make_runtime_error(what + " --timeline: cannot create " + path);
  Status s = write_timeline(file, flags.positionals()[0], output,
                            measured == "yes" || (measured == "auto" && output.measured));
  const bool written = static_cast<bool>(file);
  file.close();
  if (!written || !file)
    return make_runtime_error(what + " --timeline: writing " + path + " failed");
  return s;
}

}  // namespace

static FlagSet replay_flags() {
  FlagSet f("xferlab replay",
            "Replays TRACE on a platform preset with each transfer mechanism (memcpy, inline,\n"
            "polling, cdp, hardware, infinite) and prints simulated vs measured times.\n"
            "Halo / GPUDirect Async traces take other flags (below).");
  add_replay_flags(f, "write a Perfetto/Chrome timeline JSON to this file")
      .add_string("fan-out", "aggregate", {"aggregate", "fine"},
                  "switches and meshes: one comm per chunk to all peers and scale-out replicas "
                  "replayed once (exact, docs/sim.md), or one comm per destination and GPU");
  return add_core_and_jobs_flags(f, "mechanisms simulated");
}

int run_replay(const cli::Args& args, std::ostream& out, std::ostream& err) {
  // TRACE (the first positional, when it comes first) is opened once, for the
  // halo check and the replay (open_replay_trace).
  ReplayTrace opened;
  if (!args.empty() && !args[0].empty() && args[0][0] != '-') opened = open_replay_trace(args[0]);
  // Halo / GPUDirect Async traces have their own replay (sim/halo_command.h).
  if (opened.halo) return run_halo_replay(args, out, err);
  // A trace that does not open is said before a flag error (a halo flag is
  // unknown here: "unknown flag --ranks" would hide the missing file); --help
  // still prints the help.
  if (opened.error) {
    Result<bool> parsed = replay_flags().parse(args);
    if (!parsed.ok() || *parsed) return fail(err, *opened.error);
  }
  phase_mark("trace opened (halo check)");
  FlagSet flags = replay_flags();
  if (std::optional<int> rc =
          parse_command_flags(flags, args, out, err, "\n" + halo_replay_flags().help()))
    return *rc;
  Result<OutputFormat> format = parse_output_format(flags.get_string("format"));
  if (!format.ok()) return fail(err, format.error());
  ReplayRequest req = replay_request(flags);
  req.aggregate_fan_out = flags.get_string("fan-out") == "aggregate";
  req.core = core_of(flags);
  req.jobs = static_cast<uint32_t>(flags.get_int("jobs"));
  req.in_this_process = true;  // this process replays once and exits
  if (Status s = check_timeline(flags, "replay"); !s.ok()) return fail(err, s.error());
  Result<ReplayOutput> r = replay(req, std::move(opened.reader));
  if (!r.ok()) return fail(err, r.error());
  r->table.write(out, *format);
  if (*format == OutputFormat::kTable) out << r->note;
  // CSV and JSON stay machine-readable: how the compute was scaled goes to stderr.
  if (*format != OutputFormat::kTable) err << r->model_note;
  for (const std::string& w : r->warnings) err << "warning: " << w << "\n";
  // sim/bench_replay.sh's work measure (docs/performance.md).
  if (std::getenv("XFERLAB_REPLAY_WORK") != nullptr) {
    err << "work: " << r->chunk_transfers << " chunk transfers\n";
  }
  if (req.record_timeline) {
    if (Status s = write_timeline_file(flags, *r, "replay"); !s.ok()) return fail(err, s.error());
  }
  phase_mark("output");
  return cli::kExitOk;
}

static FlagSet validate_flags() {
  FlagSet f("xferlab validate",
            "Replays each trace with its measured mechanism; prints simulated vs measured time,\n"
            "median and max error; exits 1 if a case exceeds the tolerance.\n"
            "Default traces: every *.xft[race][.zst] (recursively) under $XFERLAB_REAL_TRACES,\n"
            "traces/real, or an installed copy (PREFIX/share/xferlab/traces/real).\n"
            "Agent runs traced after a host gap (older proact traces) are skipped unless named\n"
            "or --captures all: they are not samples of the untraced median (docs/validation.md).\n"
            "Halo / GDA traces (table format): after the summaries, issue #15's bound per\n"
            "held-out variant and size over the 2-rank runs that are medians of >= 3 launches\n"
            "(their repeats.csv says so), with each run's launch spread beside its error\n"
            "(information only); single launches are named, not counted: one launch\n"
            "differs from the next by more than the bound (docs/halo_sim.md, \"Validation\").\n"
            "A malformed repeats.csv is an error (exit 2).");
  f.set_positionals("TRACES|DIRS", 0, SIZE_MAX, "traces, or directories searched recursively");
  add_platform_flags(f)
      .add_string("dir", "", {}, "directory of traces (default: the committed real traces)")
      .add_number("tolerance", ValidateRequest{}.tolerance_pct, 0, 1e9,
                  "percent error beyond which a case fails")
      .add_string("format", "table", {"table", "csv", "json"}, "output format")
      .add_string("captures", "current", {"current", "all"},
                  "all: include agent runs traced after a host gap");
  return add_core_and_jobs_flags(f, "traces replayed");
}

int run_validate(const cli::Args& args, std::ostream& out, std::ostream& err) {
  FlagSet flags = validate_flags();
  if (std::optional<int> rc = parse_command_flags(flags, args, out, err)) return *rc;
  ValidateRequest req;
  req.paths = flags.positionals();
  req.dir = flags.get_string("dir");
  req.platform = flags.get_string("platform");
  req.sets = flags.get_all("set");
  req.all_captures = flags.get_string("captures") == "all";
  req.core = core_of(flags);
  req.jobs = static_cast<uint32_t>(flags.get_int("jobs"));
  req.tolerance_pct = flags.get_number("tolerance");
  Result<OutputFormat> format = parse_output_format(flags.get_string("format"));
  if (!format.ok()) return fail(err, format.error());
  ProgressLine progress(err, "validate", stderr_is_terminal());
  req.progress = [&](size_t done, size_t total) { progress.update(done, total); };
  Result<ValidateOutput> v = validate(req);
  if (!v.ok()) return fail(err, v.error());
  if (v->table.num_rows() > 0 || !v->halo_table) v->table.write(out, *format);
  if (v->halo_table) {
    if (v->table.num_rows() > 0 && *format == OutputFormat::kTable) out << "\n";
    v->halo_table->write(out, *format);
  }
  for (const std::string& line : v->skipped) err << "validate: " << line << "\n";
  for (const std::string& w : v->warnings) err << "warning: " << w << "\n";
  if (*format == OutputFormat::kTable) out << validate_summary(*v, req.tolerance_pct);
  if (v->beyond_tolerance > 0) {
    err << "xferlab: validate: " << v->beyond_tolerance << " case(s) beyond "
        << format_number(req.tolerance_pct, 3) << "%\n";
    return cli::kExitRuntime;
  }
  return cli::kExitOk;
}

// ---- sweep -----------------------------------------------------------------

namespace {

// parse_shard: "I/N" (0 <= I < N), e.g. $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT.
Result<std::pair<uint32_t, uint32_t>> parse_shard(const std::string& text) {
  unsigned i = 0, n = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%u/%u%c", &i, &n, &extra) != 2 || n == 0 || i >= n) {
    return make_error("--shard '" + text + "': expected I/N with 0 <= I < N");
  }
  return std::pair<uint32_t, uint32_t>{i, n};
}

// write_sweep: the CSV (stdout or -o) and the optional gnuplot plot.
int write_sweep(const SweepOutput& sweep, size_t num_params, const std::string& first_key,
                const std::string& out_path, const std::string& plot, std::ostream& out,
                std::ostream& err) {
  const Table& table = sweep.table;
  if (out_path.empty()) {
    table.write_csv(out);
  } else {
    std::ostringstream csv;
    table.write_csv(csv);
    if (Status s = write_file_checked(out_path, csv.str(), "sweep -o"); !s.ok()) {
      return fail(err, s.error());
    }
  }
  if (plot.empty()) return cli::kExitOk;
  const std::string tmp =
      (std::filesystem::temp_directory_path() / ("xferlab-sweep-" + std::to_string(::getpid())))
          .string();
  const std::string data = out_path.empty() ? tmp + ".csv" : out_path;
  if (out_path.empty()) {
    std::ofstream f(data);
    table.write_csv(f);
  }
  // x = first parameter, y = simulated time, one line per mechanism (halo: per
  // variant); noenhanced keeps the underscores of keys
  // (dma_agent.outstanding_packets) as text, not subscripts. The other lines'
  // rows are NaN, read as missing (skipped) rather than undefined (which
  // would break each line between its points: rows interleave by point).
  size_t time_col = num_params + 5;  // trace,platform,gpus,mechanism,sim_time_us
  size_t line_col = num_params + 4;
  std::string lines = "memcpy inline polling cdp hardware infinite";
  std::string y_label = "simulated time";
  if (sweep.halo) {
    time_col = num_params + 7;  // variant,model,mode,ranks,ranks_per_node,per_rank,iteration_us
    line_col = num_params + 1;
    y_label = "simulated iteration";
    std::set<std::string> variants;
    for (const std::vector<Table::Cell>& row : table.rows()) {
      variants.insert(std::get<std::string>(row[line_col - 1]));
    }
    lines.clear();
    for (const std::string& v : variants) lines += (lines.empty() ? "" : " ") + v;
  }
  std::ostringstream gp;
  gp << "set datafile separator ','\nset datafile missing NaN\nset terminal "
     << (plot.size() > 4 && plot.substr(plot.size() - 4) == ".svg" ? "svg" : "pngcairo")
     << " size 900,600 noenhanced\nset output '" << plot << "'\nset key outside\nset xlabel '"
     << first_key << "'\nset ylabel '" << y_label << " (us)'\nset logscale y\n"
     << "plot for [m in '" << lines << "'] '" << data << "' using (strcol(" << line_col
     << ") eq m ? $1 : NaN):" << time_col << " with linespoints title m\n";
  const std::string script = tmp + ".gp";
  std::ofstream(script) << gp.str();
  const int rc = std::system(("gnuplot '" + script + "' 2>/dev/null").c_str());
  std::filesystem::remove(script);
  if (out_path.empty()) std::filesystem::remove(data);
  if (rc != 0) return fail(err, make_runtime_error("sweep: gnuplot failed to render " + plot));
  return cli::kExitOk;
}

}  // namespace

static FlagSet sweep_flags() {
  FlagSet f("xferlab sweep",
            "Grid over platform parameters (any `xferlab platform keys` key), chunk_size and\n"
            "gpus; one replay process per point; tidy CSV (stdout or -o) and a gnuplot plot.\n"
            "A halo / GDA trace sweeps its halo replay (`xferlab replay HALO_TRACE`) over\n"
            "platform keys, ranks and ranks_per_node, with --model/--mode/--variant; its CSV\n"
            "has the replay's columns but wall_s; chunk_size, gpus and --mechanism are\n"
            "refused (docs/halo_sim.md, \"Sweeps\").\n"
            "Under `mpirun -np N` or `srun` the points are split over the ranks and rank 0\n"
            "writes the same CSV as a serial run. --shard I/N replays only block I of N\n"
            "(e.g. one Slurm array task); the shards' CSVs, concatenated in order without\n"
            "repeated headers, are the serial CSV (docs/python.md, \"Sweeps on clusters\").");
  f.set_positionals("TRACE", 1, 1, "a trace file");
  f.add_repeated("param", "key=v1,v2,...",
                 "a swept parameter (platform key, chunk_size, gpus; halo: platform key, ranks, "
                 "ranks_per_node)")
      .add_string("mechanism", "all", {}, "memcpy|inline|polling|cdp|hardware|infinite|all")
      .add_string("scaling", scaling_name(kDefaultScaling), {"weak", "strong"},
                  "what the gpus parameter keeps (as replay --scaling); for a halo trace, what "
                  "ranks keeps (strong unless given, as replay HALO_TRACE)");
  add_halo_variant_flags(f);
  add_platform_flags(f)
      .add_int("jobs", SweepRequest{}.jobs, 1, kMaxJobs,
               "points replayed at once (one process each)")
      .add_string("o", "", {}, "write the CSV to this file (default: stdout)")
      .add_string("plot", "", {}, "render a gnuplot PNG to this file")
      .add_string("shard", "", {}, "I/N: replay only block I of N of the points");
  return f;
}

namespace {

// sweep_request: the request of sweep's flags (parameters and shard parsed).
Result<SweepRequest> sweep_request(const FlagSet& flags) {
  SweepRequest req;
  req.trace = flags.positionals()[0];
  req.mechanism = flags.get_string("mechanism");
  req.platform = flags.get_string("platform");
  req.sets = flags.get_all("set");
  req.scaling = *parse_scaling(flags.get_string("scaling"));  // the flag admits weak|strong only
  // A halo trace's own default (strong) unless given.
  if (flags.was_set("scaling")) req.halo.scaling = flags.get_string("scaling");
  req.halo.model = flags.get_string("model");
  req.halo.mode = flags.get_string("mode");
  req.halo.variant = flags.get_string("variant");
  for (const std::string& p : flags.get_all("param")) {
    Result<SweepParam> sp = parse_sweep_param(p);
    if (!sp.ok()) return sp.error();
    req.params.push_back(*sp);
  }
  req.jobs = static_cast<uint32_t>(flags.get_int("jobs"));
  if (!flags.get_string("shard").empty()) {
    Result<std::pair<uint32_t, uint32_t>> s = parse_shard(flags.get_string("shard"));
    if (!s.ok()) return s.error();
    std::tie(req.shard_index, req.shard_count) = *s;
  }
  return req;
}

// gather_points: rank 0 collects every rank's rows and failed points, in
// rank order, into `s`. nullopt on rank 0 to go on; otherwise the exit code.
std::optional<int> gather_points(MpiWorld& world, SweepOutput& s, std::ostream& err) {
  Result<std::vector<std::string>> rows = world.gather(encode_rows(s.table));
  Result<std::vector<std::string>> fails =
      world.gather(std::to_string(s.failed_points) + "\n" + s.first_failure);
  if (!rows.ok() || !fails.ok()) world.abort(fail(err, rows.ok() ? fails.error() : rows.error()));
  if (world.rank() != 0) return cli::kExitOk;
  Table all(s.table.columns());
  for (const std::string& part : *rows) {
    if (Status st = append_rows(all, part); !st.ok()) return fail(err, st.error());
  }
  s.table = std::move(all);
  s.failed_points = 0;
  for (const std::string& f : *fails) {
    // Each rank sent "COUNT\nFIRST_FAILURE".
    Result<uint64_t> n = parse_uint(f.substr(0, f.find('\n')));
    if (!n.ok()) return fail(err, make_runtime_error("sweep: corrupt failure count from a rank"));
    if (*n > 0 && s.failed_points == 0) s.first_failure = f.substr(f.find('\n') + 1);
    s.failed_points += *n;
  }
  return std::nullopt;
}

}  // namespace

int run_sweep(const cli::Args& args, std::ostream& out, std::ostream& err) {
  FlagSet flags = sweep_flags();
  if (std::optional<int> rc = parse_command_flags(flags, args, out, err)) return *rc;
  Result<SweepRequest> request = sweep_request(flags);
  if (!request.ok()) return fail(err, request.error());
  SweepRequest& req = *request;
  // Outputs are checked before the work, so a long sweep never loses its result.
  for (const auto& [path, what] :
       {std::pair{flags.get_string("o"), "sweep -o"}, {flags.get_string("plot"), "sweep --plot"}}) {
    if (path.empty()) continue;
    if (Status s = check_output_path(path, what); !s.ok()) return fail(err, s.error());
  }
  Result<std::unique_ptr<MpiWorld>> world = MpiWorld::join_if_launched();
  if (!world.ok()) return fail(err, world.error());
  if (*world) {
    if (req.shard_count > 1) {
      return fail(err, make_error("sweep: --shard and an MPI launch both split the grid; use one"));
    }
    req.shard_index = static_cast<uint32_t>((*world)->rank());
    req.shard_count = static_cast<uint32_t>((*world)->size());
  }
  const bool root = !*world || (*world)->rank() == 0;
  ProgressLine progress(err, *world ? "sweep (rank 0)" : "sweep", root && stderr_is_terminal());
  req.progress = [&](size_t done, size_t total) { progress.update(done, total); };
  Result<SweepOutput> s = sweep(req);
  if (!s.ok()) {
    // Input errors are the same on every rank: said once, every rank exits.
    // A rank that fails alone ends the others (they would wait in gather).
    if (!*world) return fail(err, s.error());
    if (!s.error().usage) (*world)->abort(fail(err, s.error()));
    return root ? fail(err, s.error()) : s.error().exit_code();
  }
  if (*world) {
    if (std::optional<int> rc = gather_points(**world, *s, err)) return *rc;
  }
  const size_t failed = s->failed_points;
  if (failed > 0) {
    err << "xferlab: sweep: " << failed << " point(s) failed, e.g.: " << s->first_failure
        << " (rerun one with `xferlab replay`)\n";
  }
  const int rc = write_sweep(*s, req.params.size(), req.params[0].key, flags.get_string("o"),
                             flags.get_string("plot"), out, err);
  return rc != cli::kExitOk ? rc : failed > 0 ? cli::kExitRuntime : cli::kExitOk;
}

}  // namespace xferlab::sim

namespace xferlab::sim {

static FlagSet explain_flags() {
  FlagSet f("xferlab explain",
            "Where the simulated time goes: the critical path of each mechanism's replay split\n"
            "into causes (compute, launch, tracking, counter_unit, descriptor, window_stall,\n"
            "agent_copy, link_serialization, packet_overhead, link_latency, gap; tail_us = the\n"
            "part after the compute-only end), summing to the simulated time; then the\n"
            "elasticity of the time to every numeric platform parameter (+10%, one replay\n"
            "each), top N. --timeline adds a \"critical path\" track per GPU. docs/hardware.md.");
  add_replay_flags(f, "write a Perfetto/Chrome timeline JSON with the path")
      .add_string("sensitivity", "", {},
                  "mechanism whose elasticities to compute, or none (default: hardware, or the "
                  "one --mechanism)")
      .add_int("top", 10, 1, 1000000, "elasticities shown, largest |elasticity| first");
  return add_core_flag(f);
}

int run_explain(const cli::Args& args, std::ostream& out, std::ostream& err) {
  FlagSet flags = explain_flags();
  if (std::optional<int> rc = parse_command_flags(flags, args, out, err)) return *rc;
  Result<OutputFormat> format = parse_output_format(flags.get_string("format"));
  if (!format.ok()) return fail(err, format.error());
  ReplayRequest req = replay_request(flags);
  req.explain = true;
  req.core = core_of(flags);
  const size_t top = static_cast<size_t>(flags.get_int("top"));
  std::string sens = flags.get_string("sensitivity");
  if (sens.empty()) sens = req.mechanism == "all" ? "hardware" : req.mechanism;
  std::optional<Mechanism> sens_mech;
  if (sens != "none") {
    Result<Mechanism> m = parse_mechanism(sens);
    if (!m.ok()) return fail(err, make_error("explain: --sensitivity: " + m.error().message));
    sens_mech = *m;
  }
  if (Status s = check_timeline(flags, "explain"); !s.ok()) return fail(err, s.error());
  Result<ReplayOutput> r = replay(req);
  if (!r.ok()) return fail(err, r.error());
  attribution_table(r->results, r->measured).write(out, *format);
  for (const ReplayResult& res : r->results) {
    if (attribution_error(res) > 0.01) {
      return fail(err,
                  make_runtime_error(std::string("explain: ") + mechanism_name(res.mechanism) +
                                     " attribution misses the simulated time by more than 1%"));
    }
  }
  const std::string why = why_hardware_slower(r->results);
  if (*format == OutputFormat::kTable && !why.empty()) out << "note: " << why << "\n";
  if (sens_mech) {
    const ReplayResult* base = nullptr;
    for (const ReplayResult& res : r->results) {
      if (res.mechanism == *sens_mech) base = &res;
    }
    if (!base) {
      return fail(err, make_error("--sensitivity " + sens + ": not among the replayed mechanisms"));
    }
    Result<Prepared> p =
        prepare(req.trace, req.platform, req.sets, req.gpus, req.chunk_bytes, false, req.scaling);
    if (!p.ok()) return fail(err, p.error());
    Result<std::vector<Sensitivity>> s =
        sensitivities(*p, *sens_mech, base->end_to_end_ns, req.core);
    if (!s.ok()) return fail(err, s.error());
    Table t({{"mechanism"}, {"key"}, {"value"}, {"perturbed"}, {"elasticity", 3}, {"sim_us", 6}});
    for (size_t i = 0; i < std::min(top, s->size()); ++i) {
      const Sensitivity& v = (*s)[i];
      t.add_row({std::string(mechanism_name(*sens_mech)), v.key, v.value, v.perturbed, v.elasticity,
                 v.sim_us});
    }
    if (*format == OutputFormat::kTable) out << "\n";
    t.write(out, *format);
  }
  if (req.record_timeline) {
    for (ReplayResult& res : r->results) {
      for (const Attribution::Segment& seg : res.attribution.segments) {
        res.timeline.push_back(Span{std::string("critical: ") + cause_name(seg.cause),
                                    "critical_path", seg.gpu, TimelineTrack::kCriticalPath, 0,
                                    seg.start_ns, seg.end_ns - seg.start_ns});
      }
    }
    if (Status s = write_timeline_file(flags, *r, "explain"); !s.ok()) return fail(err, s.error());
  }
  return cli::kExitOk;
}

}  // namespace xferlab::sim
