// sim/replay_command.cc — the replay, validate and sweep subcommands.
#include "sim/replay_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "common/number.h"
#include "common/output_path.h"
#include "common/progress.h"
#include "common/table.h"
#include "common/units.h"
#include "sim/api.h"
#include "sim/halo_command.h"
#include "sim/halo_trace.h"
#include "sim/mpi_world.h"

namespace xferlab::sim {

namespace {

int fail(std::ostream& err, const Error& e) {
  err << "xferlab: " << e.message << "\n";
  return e.exit_code();
}

// ArgReader: flags with values, repeated flags and positionals.
struct ArgReader {
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> flags;

  static Result<ArgReader> parse(const cli::Args& args, const std::vector<std::string>& known) {
    ArgReader r;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a.size() > 1 && a[0] == '-') {
        if (std::find(known.begin(), known.end(), a) == known.end()) {
          return make_error("unknown option '" + a + "'" + did_you_mean(a, known));
        }
        if (i + 1 >= args.size()) return make_error("option " + a + " needs a value");
        r.flags[a].push_back(args[++i]);
      } else {
        r.positional.push_back(a);
      }
    }
    return r;
  }
  std::string get(const std::string& f, const std::string& def = "") const {
    auto it = flags.find(f);
    return it == flags.end() ? def : it->second.back();
  }
  std::vector<std::string> all(const std::string& f) const {
    auto it = flags.find(f);
    return it == flags.end() ? std::vector<std::string>{} : it->second;
  }
};

}  // namespace

int run_replay(const cli::Args& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << "usage: xferlab replay TRACE [--platform PRESET] [--mechanism M|all] [--gpus N]\n"
           "         [--chunk-size SIZE] [--set key=value]... [--format table|csv|json]\n"
           "         [--timeline out.json] [--fan-out aggregate|fine]\n"
           "Replays TRACE on a platform preset with each transfer mechanism (memcpy, inline,\n"
           "polling, cdp, hardware, infinite) and prints simulated vs measured times.\n"
           "Halo / GPUDirect Async traces (halo_exchange, gdasync_bench; docs/halo_sim.md):\n"
           "  xferlab replay HALO_TRACE [--ranks N] [--ranks-per-node K] [--variant V|all]\n"
           "         [--model replay|kmodel] [--mode measured|hw-doorbell|nic] [--platform P]\n"
           "         [--format table|csv|json]\n";
    return cli::kExitOk;
  }
  if (!args.empty() && !args[0].empty() && args[0][0] != '-' && is_halo_trace(args[0])) {
    return run_halo_replay(args, out, err);
  }
  Result<ArgReader> a =
      ArgReader::parse(args, {"--platform", "--mechanism", "--gpus", "--set", "--format",
                              "--timeline", "--chunk-size", "--fan-out"});
  if (!a.ok()) return fail(err, a.error());
  if (a->positional.size() != 1) {
    return fail(err, make_error("replay: expected one TRACE (try `xferlab replay --help`)"));
  }
  Result<OutputFormat> format = parse_output_format(a->get("--format", "table"));
  if (!format.ok()) return fail(err, format.error());
  ReplayRequest req;
  req.trace = a->positional[0];
  req.platform = a->get("--platform");
  req.mechanism = a->get("--mechanism", "all");
  if (!a->get("--gpus").empty()) {
    Result<uint32_t> g = parse_count("--gpus", a->get("--gpus"));
    if (!g.ok()) return fail(err, g.error());
    req.gpus = *g;
  }
  const std::string fan_out = a->get("--fan-out", "aggregate");
  if (fan_out != "aggregate" && fan_out != "fine") {
    return fail(err, make_error("--fan-out '" + fan_out + "': expected aggregate or fine" +
                                did_you_mean(fan_out, {"aggregate", "fine"})));
  }
  req.aggregate_fan_out = fan_out == "aggregate";
  if (!a->get("--chunk-size").empty()) {
    Result<double> c = parse_quantity(a->get("--chunk-size"), Unit::kSizeBytes);
    if (!c.ok() || *c < 1) {
      return fail(err,
                  make_error("--chunk-size '" + a->get("--chunk-size") + "': expected a size"));
    }
    req.chunk_bytes = static_cast<uint64_t>(*c);
  }
  req.sets = a->all("--set");
  const std::string timeline = a->get("--timeline");
  req.record_timeline = !timeline.empty();
  if (!timeline.empty()) {
    if (Status s = check_output_path(timeline, "replay --timeline"); !s.ok())
      return fail(err, s.error());
  }
  Result<ReplayOutput> r = replay(req);
  if (!r.ok()) return fail(err, r.error());
  r->table.write(out, *format);
  if (*format == OutputFormat::kTable) out << r->note;
  for (const std::string& w : r->warnings) err << "warning: " << w << "\n";
  if (!timeline.empty()) {
    std::ofstream f(timeline);
    write_timeline(f, r->results);
    if (!f) return fail(err, make_runtime_error("replay: cannot write " + timeline));
  }
  return cli::kExitOk;
}

int run_validate(const cli::Args& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << "usage: xferlab validate [TRACES|DIRS...] [--dir DIR] [--platform PRESET] [--tolerance "
           "PCT]\n"
           "         [--set key=value]... [--format table|csv|json] [--captures current|all]\n"
           "Replays each trace with its measured mechanism; prints simulated vs measured time,\n"
           "median and max error; exits 1 if a case exceeds the tolerance (default 10%).\n"
           "Default traces: every *.xft[race][.zst] (recursively) under $XFERLAB_REAL_TRACES,\n"
           "traces/real, or an installed copy (PREFIX/share/xferlab/traces/real).\n"
           "Agent runs traced after a host gap (older proact traces) are skipped unless named\n"
           "or --captures all: they are not samples of the untraced median (docs/validation.md).\n";
    return cli::kExitOk;
  }
  Result<ArgReader> a = ArgReader::parse(
      args, {"--dir", "--platform", "--tolerance", "--format", "--set", "--captures"});
  if (!a.ok()) return fail(err, a.error());
  const std::string captures = a->get("--captures", "current");
  if (captures != "current" && captures != "all") {
    return fail(err, make_error("--captures '" + captures + "': expected current or all"));
  }
  ValidateRequest req;
  req.paths = a->positional;
  req.dir = a->get("--dir");
  req.platform = a->get("--platform");
  req.sets = a->all("--set");
  req.all_captures = captures == "all";
  if (const std::string text = a->get("--tolerance"); !text.empty()) {
    const Result<double> pct = parse_double(text);
    req.tolerance_pct = pct.ok() ? *pct : -1;
    if (!(req.tolerance_pct >= 0)) {
      return fail(err,
                  make_error("--tolerance '" + a->get("--tolerance") + "': expected a percentage"));
    }
  }
  Result<OutputFormat> format = parse_output_format(a->get("--format", "table"));
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
int write_sweep(const Table& table, size_t num_params, const std::string& first_key,
                const std::string& out_path, const std::string& plot, std::ostream& out,
                std::ostream& err) {
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
  // x = first parameter, y = simulated time, one line per mechanism.
  const size_t time_col = num_params + 5;  // trace,platform,gpus,mechanism,sim_time_us
  const size_t mech_col = num_params + 4;
  std::ostringstream gp;
  gp << "set datafile separator ','\nset terminal "
     << (plot.size() > 4 && plot.substr(plot.size() - 4) == ".svg" ? "svg" : "pngcairo")
     << " size 900,600\nset output '" << plot << "'\nset key outside\nset xlabel '" << first_key
     << "'\nset ylabel 'simulated time (us)'\nset logscale y\n"
     << "plot for [m in 'memcpy inline polling cdp hardware infinite'] '" << data
     << "' using (strcol(" << mech_col << ") eq m ? $1 : NaN):" << time_col
     << " with linespoints title m\n";
  const std::string script = tmp + ".gp";
  std::ofstream(script) << gp.str();
  const int rc = std::system(("gnuplot '" + script + "' 2>/dev/null").c_str());
  std::filesystem::remove(script);
  if (out_path.empty()) std::filesystem::remove(data);
  if (rc != 0) return fail(err, make_runtime_error("sweep: gnuplot failed to render " + plot));
  return cli::kExitOk;
}

}  // namespace

int run_sweep(const cli::Args& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << "usage: xferlab sweep TRACE --param key=v1,v2,... [--param ...] [--mechanism M|all]\n"
           "         [--platform PRESET] [--set key=value]... [--jobs N] [-o out.csv]\n"
           "         [--plot out.png] [--shard I/N]\n"
           "Grid over platform parameters (any `xferlab platform keys` key), chunk_size and\n"
           "gpus; one replay process per point; tidy CSV (stdout or -o) and a gnuplot plot.\n"
           "Under `mpirun -np N` or `srun` the points are split over the ranks and rank 0\n"
           "writes the same CSV as a serial run. --shard I/N replays only block I of N\n"
           "(e.g. one Slurm array task); the shards' CSVs, concatenated in order without\n"
           "repeated headers, are the serial CSV (docs/python.md, \"Sweeps on clusters\").\n";
    return cli::kExitOk;
  }
  Result<ArgReader> a = ArgReader::parse(
      args, {"--param", "--mechanism", "--platform", "--set", "--jobs", "-o", "--plot", "--shard"});
  if (!a.ok()) return fail(err, a.error());
  if (a->positional.size() != 1) return fail(err, make_error("sweep: expected one TRACE"));
  SweepRequest req;
  req.trace = a->positional[0];
  req.mechanism = a->get("--mechanism", "all");
  req.platform = a->get("--platform");
  req.sets = a->all("--set");
  for (const std::string& p : a->all("--param")) {
    Result<SweepParam> sp = parse_sweep_param(p);
    if (!sp.ok()) return fail(err, sp.error());
    req.params.push_back(*sp);
  }
  if (!a->get("--jobs").empty()) {
    Result<uint32_t> j = parse_count("--jobs", a->get("--jobs"));
    if (!j.ok()) return fail(err, j.error());
    req.jobs = *j;
  }
  if (!a->get("--shard").empty()) {
    Result<std::pair<uint32_t, uint32_t>> s = parse_shard(a->get("--shard"));
    if (!s.ok()) return fail(err, s.error());
    std::tie(req.shard_index, req.shard_count) = *s;
  }
  // Outputs are checked before the work, so a long sweep never loses its result.
  for (const auto& [path, what] :
       {std::pair{a->get("-o"), "sweep -o"}, {a->get("--plot"), "sweep --plot"}}) {
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
  size_t failed = s->failed_points;
  std::string first_failure = s->first_failure;
  if (*world) {
    Result<std::vector<std::string>> rows = (*world)->gather(encode_rows(s->table));
    Result<std::vector<std::string>> fails =
        (*world)->gather(std::to_string(s->failed_points) + "\n" + s->first_failure);
    if (!rows.ok() || !fails.ok())
      (*world)->abort(fail(err, rows.ok() ? fails.error() : rows.error()));
    if (!root) return cli::kExitOk;
    Table all(s->table.columns());
    for (const std::string& part : *rows) {
      if (Status st = append_rows(all, part); !st.ok()) return fail(err, st.error());
    }
    s->table = std::move(all);
    failed = 0;
    for (const std::string& f : *fails) {
      const size_t n = std::stoul(f);
      if (n > 0 && failed == 0) first_failure = f.substr(f.find('\n') + 1);
      failed += n;
    }
  }
  if (failed > 0) {
    err << "xferlab: sweep: " << failed << " point(s) failed, e.g.: " << first_failure
        << " (rerun one with `xferlab replay`)\n";
  }
  const int rc = write_sweep(s->table, req.params.size(), req.params[0].key, a->get("-o"),
                             a->get("--plot"), out, err);
  return rc != cli::kExitOk ? rc : failed > 0 ? cli::kExitRuntime : cli::kExitOk;
}

}  // namespace xferlab::sim
