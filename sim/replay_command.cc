// sim/replay_command.cc — the replay, validate and sweep subcommands.
#include "sim/replay_command.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "common/output_path.h"
#include "common/table.h"
#include "common/units.h"
#include "sim/machine.h"
#include "sim/replay_engine.h"
#include "sim/trace_adapter.h"

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

Result<uint32_t> parse_count(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > 64) {
    return make_error(flag + " '" + text + "': expected an integer 1..64");
  }
  return static_cast<uint32_t>(v);
}

Result<std::vector<Mechanism>> parse_mechanisms(const std::string& text) {
  if (text == "all")
    return std::vector<Mechanism>(std::begin(kAllMechanisms), std::end(kAllMechanisms));
  Result<Mechanism> m = parse_mechanism(text);
  if (!m.ok()) return m.error();
  return std::vector<Mechanism>{*m};
}

// Prepared: a trace turned into a compute-only input on a machine.
struct Prepared {
  ReplayInput input;
  Machine machine;
  std::string preset;
};

// With `measured_only`, a trace without a replayable measured mechanism is
// returned as read, without a machine (validate skips it; benchmark traces
// may not even fit the preset).
Result<Prepared> prepare(const std::string& trace, std::string preset,
                         const std::vector<std::string>& sets, uint32_t gpus, uint64_t chunk_bytes,
                         bool measured_only = false) {
  Result<ReplayInput> in = load_replay_input(trace);
  if (!in.ok()) return in.error();
  if (measured_only && !in->measured) return Prepared{std::move(*in), Machine{}, preset};
  if (preset.empty()) preset = in->platform_hint.empty() ? kDefaultPreset : in->platform_hint;
  const uint32_t n = std::max(gpus, in->num_gpus);
  // A polling trace's agent ran with its own thread count; user --set wins.
  std::vector<std::string> all_sets;
  if (in->measured && in->measured->mechanism == Mechanism::kPolling && in->agent_threads) {
    all_sets.push_back("software.transfer_threads=" + std::to_string(*in->agent_threads));
  }
  all_sets.insert(all_sets.end(), sets.begin(), sets.end());
  Result<Machine> m = load_machine(preset, all_sets, n);
  if (!m.ok()) return m.error();
  Prepared p{separate_data_generation(*in, *m), *m, preset};
  if (n > p.input.num_gpus) p.input = replicate_gpus(p.input, n);
  if (chunk_bytes > 0) {
    Result<ReplayInput> r = rechunk(p.input, chunk_bytes);
    if (!r.ok()) return r.error();
    p.input = std::move(*r);
  }
  return p;
}

double error_pct(double sim, double measured) {
  return measured > 0 ? 100.0 * (sim - measured) / measured : NAN;
}

void write_timeline(std::ostream& os, const std::vector<ReplayResult>& results) {
  os << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&] {
    if (!first) os << ",\n";
    first = false;
  };
  for (size_t r = 0; r < results.size(); ++r) {
    std::map<uint32_t, bool> gpus;
    for (const Span& s : results[r].timeline) {
      const uint32_t pid = static_cast<uint32_t>(r) * 1000 + s.gpu;
      if (!gpus[s.gpu]) {
        gpus[s.gpu] = true;
        sep();
        os << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" << pid << ",\"args\":{\"name\":\""
           << mechanism_name(results[r].mechanism) << " gpu" << s.gpu << "\"}}";
      }
      sep();
      os << "{\"name\":\"" << json_escape(s.name) << "\",\"cat\":\"" << s.category
         << "\",\"ph\":\"X\",\"pid\":" << pid << ",\"tid\":" << s.lane
         << ",\"ts\":" << format_number(s.start_ns / 1000, 12)
         << ",\"dur\":" << format_number(s.duration_ns / 1000, 12) << "}";
    }
  }
  os << "\n]}\n";
}

// compute_only_sibling: the `none` trace of the same proact configuration
// (file name with _inline_ -> _none_), if it exists.
std::optional<std::string> compute_only_sibling(const std::string& trace) {
  const std::filesystem::path path(trace);
  std::string name = path.filename().string();
  const size_t at = name.find("_inline_");
  if (at == std::string::npos) return std::nullopt;
  name.replace(at, 8, "_none_");
  const std::filesystem::path sib = path.parent_path() / name;
  if (!std::filesystem::is_regular_file(sib)) return std::nullopt;
  return sib.string();
}

// replay_note: which row was measured and what "measured" is, for tables.
std::string replay_note(const ReplayInput& in, bool unscaled) {
  if (!in.measured) return "note: the trace has no replayable measured mechanism.\n";
  const Measured& m = *in.measured;
  std::string s = "note: measured row = " + std::string(mechanism_name(m.mechanism)) +
                  (m.trace_mechanism.empty() ? "" : " (trace: " + m.trace_mechanism + ")");
  if (!unscaled) return s + "; not compared (scaled or re-chunked replay).\n";
  s += m.host_median_ns > 0
           ? "; measured_us = median host time of untraced runs (" + m.host_median_source +
                 "), traced device span " + format_number(m.end_to_end_ns / 1000, 6) + " us"
           : "; measured_us = traced device span (no results CSV found)";
  s += ".\n";
  if (m.mechanism == Mechanism::kInfinite) {
    s += "note: a compute-only trace ('" + m.trace_mechanism +
         "'): its row checks the data-generation timeline, not a transfer model.\n";
  }
  s += "note: hardware = projected counter unit + DMA agent (not measurable today); "
       "other rows without measured_us are projections of the same data generation.\n";
  return s;
}

}  // namespace

int run_replay(const cli::Args& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << "usage: xferlab replay TRACE [--platform PRESET] [--mechanism M|all] [--gpus N]\n"
           "         [--chunk-size SIZE] [--set key=value]... [--format table|csv|json]\n"
           "         [--timeline out.json] [--fan-out aggregate|fine]\n"
           "Replays TRACE on a platform preset with each transfer mechanism (memcpy, inline,\n"
           "polling, cdp, hardware, infinite) and prints simulated vs measured times.\n";
    return cli::kExitOk;
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
  Result<std::vector<Mechanism>> mechs = parse_mechanisms(a->get("--mechanism", "all"));
  if (!mechs.ok()) return fail(err, mechs.error());
  uint32_t gpus = 0;
  if (!a->get("--gpus").empty()) {
    Result<uint32_t> g = parse_count("--gpus", a->get("--gpus"));
    if (!g.ok()) return fail(err, g.error());
    gpus = *g;
  }
  const std::string fan_out = a->get("--fan-out", "aggregate");
  if (fan_out != "aggregate" && fan_out != "fine") {
    return fail(err, make_error("--fan-out '" + fan_out + "': expected aggregate or fine" +
                                did_you_mean(fan_out, {"aggregate", "fine"})));
  }
  uint64_t chunk_bytes = 0;
  if (!a->get("--chunk-size").empty()) {
    Result<double> c = parse_quantity(a->get("--chunk-size"), Unit::kSizeBytes);
    if (!c.ok() || *c < 1) {
      return fail(err,
                  make_error("--chunk-size '" + a->get("--chunk-size") + "': expected a size"));
    }
    chunk_bytes = static_cast<uint64_t>(*c);
  }
  const std::string timeline = a->get("--timeline");
  if (!timeline.empty()) {
    if (Status s = check_output_path(timeline, "replay --timeline"); !s.ok())
      return fail(err, s.error());
  }
  Result<Prepared> p =
      prepare(a->positional[0], a->get("--platform"), a->all("--set"), gpus, chunk_bytes);
  if (!p.ok()) return fail(err, p.error());

  Table table({{"trace"},
               {"platform"},
               {"gpus"},
               {"mechanism"},
               {"sim_time_us", 6},
               {"exposed_us", 5},
               {"overlap", 3},
               {"link_util", 3},
               {"wire_bytes", 6},
               {"measured_us", 6},
               {"error_pct", 3}});
  std::vector<ReplayResult> results;
  const std::optional<Measured>& measured = p->input.measured;
  for (Mechanism m : *mechs) {
    Result<ReplayResult> r = simulate_isolated(
        p->input, p->machine, ReplayOptions{m, !timeline.empty(), fan_out == "aggregate"});
    if (!r.ok()) return fail(err, r.error());
    const bool has_measured = measured && measured->mechanism == m &&
                              p->input.num_gpus == p->machine.num_gpus && gpus == 0 &&
                              chunk_bytes == 0;
    const double sim_us = r->end_to_end_ns / 1000;
    table.add_row({p->input.name, p->preset, static_cast<int64_t>(p->machine.num_gpus),
                   std::string(mechanism_name(m)), sim_us, r->exposed_ns / 1000, r->overlap,
                   r->link_utilization, r->wire_bytes,
                   has_measured ? measured->reference_ns() / 1000 : NAN,
                   has_measured ? error_pct(r->end_to_end_ns, measured->reference_ns()) : NAN});
    results.push_back(std::move(*r));
  }
  table.write(out, *format);
  if (*format == OutputFormat::kTable) {
    out << replay_note(p->input, gpus == 0 && chunk_bytes == 0);
  }
  if (!timeline.empty()) {
    std::ofstream f(timeline);
    write_timeline(f, results);
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
           "Default traces: every *.xft[race][.zst] (recursively) under $XFERLAB_REAL_TRACES or "
           "traces/real.\n"
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
  double tolerance = 10;
  if (!a->get("--tolerance").empty()) {
    char* end = nullptr;
    tolerance = std::strtod(a->get("--tolerance").c_str(), &end);
    if (*end != '\0' || !(tolerance >= 0)) {
      return fail(err,
                  make_error("--tolerance '" + a->get("--tolerance") + "': expected a percentage"));
    }
  }
  Result<OutputFormat> format = parse_output_format(a->get("--format", "table"));
  if (!format.ok()) return fail(err, format.error());
  // Traces found in directories may be other programs' traces (halo
  // exchange, link benchmarks): those are skipped and counted; a trace named
  // on the command line must be replayable.
  std::vector<std::string> traces;
  std::vector<bool> named;
  for (const std::string& t : a->positional) {
    if (std::filesystem::is_directory(t)) {
      for (std::string& f : find_traces(t)) traces.push_back(std::move(f)), named.push_back(false);
    } else {
      traces.push_back(t), named.push_back(true);
    }
  }
  if (traces.empty() && !a->positional.empty()) {
    return fail(err, make_error("validate: no trace files (*.xft, *.xftrace, *.zst) in " +
                                a->positional[0]));
  }
  if (traces.empty()) {
    const char* env = std::getenv("XFERLAB_REAL_TRACES");
    const std::string dir = a->get("--dir", env ? env : kDefaultRealTraceDir);
    traces = find_traces(dir);
    named.assign(traces.size(), false);
    if (traces.empty()) {
      return fail(err, make_error("validate: no real traces (*.xft, *.xftrace, *.zst) found in " +
                                  dir + "; pass TRACES or --dir"));
    }
  }
  Table table({{"trace"},
               {"platform"},
               {"mechanism"},
               {"kind"},
               {"measured_us", 6},
               {"measured_source"},
               {"traced_span_us", 6},
               {"sim_us", 6},
               {"error_pct", 3},
               {"within_tolerance"},
               {"data_from"},
               {"file"}});
  std::vector<double> errors, transfer_errors;
  std::map<std::string, std::pair<size_t, std::string>> skipped;  // reason -> count, example
  for (size_t ti = 0; ti < traces.size(); ++ti) {
    const std::string& t = traces[ti];
    Result<Prepared> p = prepare(t, a->get("--platform"), a->all("--set"), 0, 0, true);
    if (!p.ok() && (named[ti] || !p.error().message.ends_with(kNoProducerKernels))) {
      return fail(err, p.error());
    }
    if (!p.ok() || !p->input.measured) {
      // Not a producer/transfer trace (halo exchange, benchmarks), or a
      // mechanism the engine does not model (proact's "um").
      const std::string why =
          !p.ok() ? "no producer kernels (not a proact trace)" : "no replayable measured mechanism";
      if (named[ti]) {
        err << "validate: skipped " << t << ": " << why << "\n";
      } else {
        auto& [n, example] = skipped[why];
        if (n++ == 0) example = t;
      }
      continue;
    }
    if (p->input.measured->traced_after_gap && !named[ti] && captures == "current") {
      auto& [n, example] = skipped
          ["agent run traced after a host gap, not a sample of the untraced median "
           "(--captures all includes it)"];
      if (n++ == 0) example = t;
      continue;
    }
    const Mechanism m = p->input.measured->mechanism;
    // Inline traces carry their own link stalls in the kernel timeline (and
    // their tracing slows the stores); replay the compute-only sibling's data
    // generation instead, when one of the same configuration is committed.
    std::string data_from = "self";
    if (m == Mechanism::kInline) {
      if (std::optional<std::string> sib = compute_only_sibling(t)) {
        Result<Prepared> q = prepare(*sib, a->get("--platform"), a->all("--set"), 0, 0);
        if (q.ok() && q->input.measured && !q->input.measured->truncated &&
            !p->input.measured->truncated) {
          q->input.measured = p->input.measured;
          q->input.name = p->input.name;
          p = std::move(q);
          data_from = std::filesystem::path(*sib).filename().string();
        }
      }
    }
    Result<ReplayResult> r = simulate_isolated(p->input, p->machine, ReplayOptions{m, false});
    if (!r.ok()) return fail(err, r.error());
    const Measured& meas = *p->input.measured;
    const double e = error_pct(r->end_to_end_ns, meas.reference_ns());
    errors.push_back(std::fabs(e));
    // Compute-only traces check the data-generation timeline; the others a
    // transfer mechanism's model too: summarized separately.
    const bool transfer = m != Mechanism::kInfinite;
    if (transfer) transfer_errors.push_back(std::fabs(e));
    const std::string& variant = meas.trace_mechanism;
    table.add_row({p->input.name, p->preset, variant.empty() ? mechanism_name(m) : variant,
                   std::string(transfer ? "transfer" : "compute-only"), meas.reference_ns() / 1000,
                   meas.host_median_ns > 0 ? meas.host_median_source : std::string("trace span"),
                   meas.end_to_end_ns / 1000, r->end_to_end_ns / 1000, e,
                   std::string(std::fabs(e) <= tolerance ? "yes" : "no"), data_from, t});
  }
  table.write(out, *format);
  for (const auto& [why, ne] : skipped) {
    err << "validate: skipped " << ne.first << " trace(s): " << why << " (e.g. " << ne.second
        << ")\n";
  }
  if (errors.empty()) return fail(err, make_error("validate: no trace had a replayable mechanism"));
  auto summary = [&](const char* what, std::vector<double> v) {
    if (v.empty()) return;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    out << what << ": cases " << n << ", median |error| " << format_number(median, 3)
        << "%, max |error| " << format_number(v.back(), 3) << "% (tolerance "
        << format_number(tolerance, 3) << "%)\n";
  };
  const double max = *std::max_element(errors.begin(), errors.end());
  if (*format == OutputFormat::kTable) {
    summary("all", errors);
    summary("transfer mechanisms", transfer_errors);
  }
  if (max > tolerance) {
    err << "xferlab: validate: "
        << std::count_if(errors.begin(), errors.end(), [&](double e) { return e > tolerance; })
        << " case(s) beyond " << format_number(tolerance, 3) << "%\n";
    return cli::kExitRuntime;
  }
  return cli::kExitOk;
}

// ---- sweep -----------------------------------------------------------------

namespace {

struct SweepParam {
  std::string key;
  std::vector<std::string> values;
};

// run_point: `xferlab replay` of one grid point in a child process (one
// SimGrid engine per process), CSV to `out_path`. Returns the pid.
pid_t spawn_point(const std::vector<std::string>& argv, const std::string& out_path) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) ::_exit(1);
  ::dup2(fd, 1);
  std::vector<char*> cargv;
  for (const std::string& s : argv) cargv.push_back(const_cast<char*>(s.c_str()));
  cargv.push_back(nullptr);
  ::execv("/proc/self/exe", cargv.data());
  ::_exit(127);
}

void progress(std::ostream& err, size_t done, size_t total) {
  const int width = 40;
  const int filled = static_cast<int>(width * done / std::max<size_t>(total, 1));
  err << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] " << done
      << "/" << total << std::flush;
  if (done == total) err << "\n";
}

}  // namespace

int run_sweep(const cli::Args& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << "usage: xferlab sweep TRACE --param key=v1,v2,... [--param ...] [--mechanism M|all]\n"
           "         [--platform PRESET] [--set key=value]... [--jobs N] [-o out.csv]\n"
           "         [--plot out.png]\n"
           "Grid over platform parameters (any `xferlab platform keys` key), chunk_size and\n"
           "gpus; one replay process per point; tidy CSV (stdout or -o) and a gnuplot plot.\n";
    return cli::kExitOk;
  }
  Result<ArgReader> a = ArgReader::parse(
      args, {"--param", "--mechanism", "--platform", "--set", "--jobs", "-o", "--plot"});
  if (!a.ok()) return fail(err, a.error());
  if (a->positional.size() != 1) return fail(err, make_error("sweep: expected one TRACE"));
  const std::string trace = a->positional[0];
  std::vector<SweepParam> params;
  for (const std::string& p : a->all("--param")) {
    const size_t eq = p.find('=');
    if (eq == std::string::npos || eq + 1 >= p.size()) {
      return fail(err, make_error("--param '" + p + "': expected key=v1,v2,..."));
    }
    SweepParam sp{p.substr(0, eq), {}};
    std::stringstream ss(p.substr(eq + 1));
    for (std::string v; std::getline(ss, v, ',');) sp.values.push_back(v);
    params.push_back(sp);
  }
  if (params.empty()) return fail(err, make_error("sweep: give at least one --param key=v1,v2"));
  uint32_t jobs = 2;
  if (!a->get("--jobs").empty()) {
    Result<uint32_t> j = parse_count("--jobs", a->get("--jobs"));
    if (!j.ok()) return fail(err, j.error());
    jobs = *j;
  }
  // Check the outputs, trace, preset and every key/value once, up front, so a
  // bad grid fails with one line instead of one per point.
  const std::string out_path = a->get("-o");
  const std::string plot = a->get("--plot");
  for (const auto& [path, what] : {std::pair{out_path, "sweep -o"}, {plot, "sweep --plot"}}) {
    if (path.empty()) continue;
    if (Status s = check_output_path(path, what); !s.ok()) return fail(err, s.error());
  }
  const std::string mechanism = a->get("--mechanism", "all");
  if (Result<std::vector<Mechanism>> m = parse_mechanisms(mechanism); !m.ok()) {
    return fail(err, m.error());
  }
  std::vector<std::vector<std::string>> points{{}};
  for (const SweepParam& p : params) {
    std::vector<std::vector<std::string>> next;
    for (const auto& pt : points) {
      for (const std::string& v : p.values) {
        auto q = pt;
        q.push_back(v);
        next.push_back(q);
      }
    }
    points = next;
  }
  auto point_args = [&](const std::vector<std::string>& pt) {
    std::vector<std::string> argv{"xferlab", "replay",      trace,    "--format",
                                  "csv",     "--mechanism", mechanism};
    if (!a->get("--platform").empty())
      argv.insert(argv.end(), {"--platform", a->get("--platform")});
    for (const std::string& s : a->all("--set")) argv.insert(argv.end(), {"--set", s});
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i].key == "chunk_size") {
        argv.insert(argv.end(), {"--chunk-size", pt[i]});
      } else if (params[i].key == "gpus") {
        argv.insert(argv.end(), {"--gpus", pt[i]});
      } else {
        argv.insert(argv.end(), {"--set", params[i].key + "=" + pt[i]});
      }
    }
    return argv;
  };
  for (const auto& pt : points) {  // validate each point's inputs without simulating
    std::vector<std::string> sets;
    uint32_t gpus = 0;
    uint64_t chunk_bytes = 0;
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i].key == "gpus") {
        Result<uint32_t> g = parse_count("gpus", pt[i]);
        if (!g.ok()) return fail(err, g.error());
        gpus = *g;
      } else if (params[i].key == "chunk_size") {
        Result<double> c = parse_quantity(pt[i], Unit::kSizeBytes);
        if (!c.ok() || *c < 1) {
          return fail(err, make_error("--param chunk_size: '" + pt[i] + "' is not a size"));
        }
        chunk_bytes = static_cast<uint64_t>(*c);
      } else {
        sets.push_back(params[i].key + "=" + pt[i]);
      }
    }
    for (const std::string& s : a->all("--set")) sets.push_back(s);
    Result<Prepared> p = prepare(trace, a->get("--platform"), sets, gpus, chunk_bytes);
    if (!p.ok()) return fail(err, p.error());
  }

  const std::filesystem::path tmp =
      std::filesystem::temp_directory_path() / ("xferlab-sweep-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  const bool tty = ::isatty(2);
  std::map<pid_t, size_t> running;
  size_t next = 0, done = 0;
  int worst = 0;
  while (done < points.size()) {
    while (running.size() < jobs && next < points.size()) {
      running[spawn_point(point_args(points[next]), tmp / (std::to_string(next) + ".csv"))] = next;
      ++next;
    }
    int status = 0;
    const pid_t pid = ::wait(&status);
    if (pid < 0) break;
    if (running.erase(pid) == 0) continue;
    ++done;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) worst = cli::kExitRuntime;
    if (tty) progress(err, done, points.size());
  }
  // Tidy CSV: the point's parameters, then replay's columns.
  std::ostringstream csv;
  for (const SweepParam& p : params) csv << p.key << ",";
  bool header = false;
  for (size_t i = 0; i < points.size(); ++i) {
    std::ifstream f(tmp / (std::to_string(i) + ".csv"));
    std::string line;
    bool first = true;
    while (std::getline(f, line)) {
      if (first) {
        first = false;
        if (!header) csv << line << "\n";
        header = true;
        continue;
      }
      for (const std::string& v : points[i]) csv << v << ",";
      csv << line << "\n";
    }
  }
  std::filesystem::remove_all(tmp);
  if (worst != 0) err << "xferlab: sweep: some points failed (rerun one with `xferlab replay`)\n";
  if (out_path.empty()) {
    out << csv.str();
  } else if (Status s = write_file_checked(out_path, csv.str(), "sweep -o"); !s.ok()) {
    return fail(err, s.error());
  }
  if (!plot.empty()) {
    const std::string data = out_path.empty() ? (tmp.string() + ".csv") : out_path;
    if (out_path.empty()) std::ofstream(data) << csv.str();
    // x = first parameter, y = simulated time, one line per mechanism.
    const size_t time_col = params.size() + 5;  // trace,platform,gpus,mechanism,sim_time_us
    const size_t mech_col = params.size() + 4;
    std::ostringstream gp;
    gp << "set datafile separator ','\nset terminal "
       << (plot.size() > 4 && plot.substr(plot.size() - 4) == ".svg" ? "svg" : "pngcairo")
       << " size 900,600\nset output '" << plot << "'\nset key outside\nset xlabel '"
       << params[0].key << "'\nset ylabel 'simulated time (us)'\nset logscale y\n"
       << "plot for [m in 'memcpy inline polling cdp hardware infinite'] '" << data
       << "' using (strcol(" << mech_col << ") eq m ? $1 : NaN):" << time_col
       << " with linespoints title m\n";
    const std::string script = tmp.string() + ".gp";
    std::ofstream(script) << gp.str();
    const int rc = std::system(("gnuplot '" + script + "' 2>/dev/null").c_str());
    std::filesystem::remove(script);
    if (out_path.empty()) std::filesystem::remove(data);
    if (rc != 0) return fail(err, make_runtime_error("sweep: gnuplot failed to render " + plot));
  }
  return worst;
}

}  // namespace xferlab::sim
