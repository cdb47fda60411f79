// sim/trace_command.cc — `xferlab trace` subcommands (see trace_command.h).
#include "sim/trace_command.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "common/flags.h"
#include "common/number.h"
#include "common/output_path.h"
#include "common/table.h"
#include "common/units.h"
#include "traces/check.h"
#include "traces/compact.h"
#include "traces/event_names.h"
#include "traces/generator.h"
#include "traces/perfetto.h"
#include "traces/reader.h"

namespace xferlab::sim {
namespace {

using namespace traces;
using cli::fail;
using cli::kExitOk;
using cli::kExitUsage;

// parse_time_ns: "123456" (ns) or a quantity with a unit ("1.5us").
Result<uint64_t> parse_time_ns(const std::string& text, const std::string& what) {
  if (Result<uint64_t> v = parse_uint(text); v.ok()) return v;
  Result<double> q = parse_quantity(text, Unit::kTimeNs);
  if (!q.ok() || *q < 0) {
    return make_error("trace dump: " + what + " '" + text + "' is not a time (e.g. 1500, 1.5us)");
  }
  return uint64_t(*q);
}

std::string mask_text(uint32_t mask) {
  std::string s;
  for (uint32_t d = 0; d < 32; ++d) {
    if (mask >> d & 1) s += (s.empty() ? "" : ",") + std::to_string(d);
  }
  return s.empty() ? "-" : s;
}

// details: the kind-specific fields with their meaning (event.h / FORMAT.md).
std::string details(const Event& e, const Metadata& m) {
  auto u = [](uint64_t v) { return std::to_string(v); };
  switch (EventKind(e.kind)) {
    case EventKind::kKernelLaunch:
    case EventKind::kKernelBegin:
    case EventKind::kKernelEnd: {
      const KernelInfo* k = m.find_kernel(e.id);
      return "kernel=" + (k ? k->name : u(e.id)) + " grid=" + u(e.aux) + " block=" + u(e.value);
    }
    case EventKind::kCtaBegin:
    case EventKind::kCtaEnd:
      return std::string(e.flags & kFlagWarp ? "warp=" : "cta=") + u(e.id) + " sm=" + u(e.stream) +
             " chunk=" + (e.aux == kNoId ? "-" : u(e.aux)) + " bytes=" + u(e.value) +
             " store=" + u(e.flags & ~kFlagWarp) + "B";
    case EventKind::kCounterDecrement:
    case EventKind::kCounterZero: return "chunk=" + u(e.id) + " remaining=" + u(e.value);
    case EventKind::kTransferBegin:
    case EventKind::kTransferEnd:
      return "transfer=" + u(e.id) + " mechanism=" + mechanism_name(e.flags) +
             " lane=" + u(e.stream) + " to=" + mask_text(e.aux) + " bytes=" + u(e.value);
    case EventKind::kFlagSet:
    case EventKind::kFlagObserved: {
      const FlagInfo* f = m.find_flag(e.id);
      return "flag=" + (f ? f->name : u(e.id)) + " message=" + u(e.aux) + " value=" + u(e.value);
    }
    case EventKind::kStreamWriteValue:
    case EventKind::kStreamWaitValue: return "flag=" + u(e.id) + " value=" + u(e.value);
    case EventKind::kMpiPost:
    case EventKind::kMpiComplete:
      return std::string("op=") + mpi_op_name(e.flags) + " peer=" + u(e.id) + " tag=" + u(e.aux) +
             " bytes=" + u(e.value);
    case EventKind::kPhaseBegin:
    case EventKind::kPhaseEnd: {
      const NamedId* p = m.find_phase(e.id);
      return "phase=" + (p ? p->name : u(e.id)) + " iteration=" + u(e.aux);
    }
    case EventKind::kIteration: return "iteration=" + u(e.id);
    case EventKind::kChunkWrite:
      return "chunk=" + u(e.id) + " bytes=" + u(e.value) + " store=" + u(e.flags) + "B";
    default: return "";
  }
}

// open_trace: the one FILE argument, opened; the reader's warning (an old
// file without checksums) goes to `err`.
Result<TraceReader> open_trace(const FlagSet& flags, std::ostream& err) {
  Result<TraceReader> r = TraceReader::open(flags.positionals()[0]);
  if (r.ok())
    for (const std::string& w : r->warnings()) err << "warning: " << w << "\n";
  return r;
}

FlagSet& add_file(FlagSet& f) {
  return f.set_positionals("FILE", 1, 1, "a trace file (.xft, .xftrace, optionally .zst)");
}

FlagSet info_flags() {
  FlagSet f("xferlab trace info", "Metadata, event counts per kind and time span of FILE.");
  add_file(f).add_string("format", "table", {"table", "csv", "json"}, "output format");
  return f;
}

int run_info(const FlagSet& flags, std::ostream& out, std::ostream& err) {
  Result<OutputFormat> format = parse_output_format(flags.get_string("format"));
  Result<TraceReader> r = open_trace(flags, err);
  if (!r.ok()) return fail(err, r.error());
  const Metadata& m = r->metadata();
  if (*format == OutputFormat::kTable) {
    out << "file:        " << r->path() << "\n"
        << "format:      " << m.format_major << "." << m.format_minor << "\n"
        << "producer:    " << m.producer.program << " " << m.producer.version
        << (m.producer.revision.empty() ? "" : " (rev " + m.producer.revision + ")") << "\n";
    if (!m.producer.command_line.empty()) out << "command:     " << m.producer.command_line << "\n";
    if (!m.machine.hostname.empty()) out << "host:        " << m.machine.hostname << "\n";
    out << "gpus:        " << m.gpus.size();
    if (!m.gpus.empty()) out << " x " << m.gpus[0].model;
    out << "\n";
    if (!m.machine.driver_version.empty() || !m.machine.cuda_version.empty()) {
      out << "driver/cuda: " << m.machine.driver_version << " / " << m.machine.cuda_version << "\n";
    }
    for (const Parameter& param : m.parameters) {
      out << "param:       " << param.first << " = " << param.second << "\n";
    }
    out << "time base:   " << m.time_base << " (" << m.clocks.size() << " clock domain(s))\n"
        << "tables:      " << m.kernels.size() << " kernels, " << m.chunks.size() << " chunks, "
        << m.flags.size() << " flags, " << m.phases.size() << " phases\n"
        << "events:      " << r->num_events() << " in " << r->num_blocks() << " blocks\n";
    if (r->num_events() > 0) {
      out << "time span:   " << r->min_time_ns() << " .. " << r->max_time_ns() << " ns ("
          << format_number(double(r->max_time_ns() - r->min_time_ns()) * 1e-3, 6) << " us)\n";
    }
    out << "\n";
  }
  Table counts({{"kind"}, {"events", 12}});
  const std::vector<uint64_t>& kc = r->kind_counts();
  for (size_t k = 1; k < kc.size(); ++k) {
    if (kc[k] == 0) continue;
    const std::string name = is_known_kind(uint16_t(k)) ? event_kind_name(uint16_t(k))
                                                        : "unknown(" + std::to_string(k) + ")";
    counts.add_row({name, int64_t(kc[k])});
  }
  counts.write(out, *format);
  return kExitOk;
}

FlagSet dump_flags() {
  FlagSet f("xferlab trace dump",
            "The events of FILE, one a line (with their meaning), in time order.");
  add_file(f)
      .add_string("kind", "", {}, "only events of this kind (e.g. kernel_begin; default: all)")
      .add_string("gpu", "", {}, "only this GPU's events: an id or host (default: all)")
      .add_string("from", "", {}, "window start: ns, or a time with unit (1.5us)")
      .add_string("to", "", {}, "window end: ns, or a time with unit")
      .add_int("limit", 0, 0, 1000000000000000, "at most this many events (0: all)")
      .add_bool("csv", false, "CSV: raw fields instead of the readable columns");
  return f;
}

// DumpFilter: which events `trace dump` shows.
struct DumpFilter {
  std::optional<uint16_t> kind, gpu;
  uint64_t from = 0, to = UINT64_MAX, limit = UINT64_MAX;
};

Result<DumpFilter> dump_filter(const FlagSet& flags) {
  DumpFilter f;
  if (const std::string& k = flags.get_string("kind"); !k.empty()) {
    std::optional<EventKind> parsed = parse_event_kind(k);
    if (!parsed) {
      return make_error("trace dump: unknown kind '" + k + "'" +
                        did_you_mean(k, event_kind_names()));
    }
    f.kind = uint16_t(*parsed);
  }
  if (const std::string& g = flags.get_string("gpu"); g == "host") {
    f.gpu = kHostGpu;
  } else if (!g.empty()) {
    Result<uint64_t> v = parse_uint(g);
    if (!v.ok() || *v >= kHostGpu)
      return make_error("trace dump: --gpu '" + g + "' is not a GPU id or 'host'");
    f.gpu = uint16_t(*v);
  }
  for (auto [flag, target] : {std::pair{"from", &f.from}, std::pair{"to", &f.to}}) {
    if (flags.get_string(flag).empty()) continue;
    XF_ASSIGN(*target, parse_time_ns(flags.get_string(flag), std::string("--") + flag));
  }
  if (f.from >= f.to) return make_error("trace dump: --from must be before --to");
  if (flags.get_int("limit") > 0) f.limit = uint64_t(flags.get_int("limit"));
  return f;
}

int run_dump(const FlagSet& flags, std::ostream& out, std::ostream& err) {
  Result<DumpFilter> filter = dump_filter(flags);
  if (!filter.ok()) return fail(err, filter.error());
  const auto [kind, gpu, from, to, limit] = *filter;
  Result<TraceReader> r = open_trace(flags, err);
  if (!r.ok()) return fail(err, r.error());
  const bool csv = flags.get_bool("csv");
  out << (csv ? "time_ns,kind,gpu,stream,id,aux,value,flags\n"
              : "             time_ns  kind                gpu  stream  details\n");
  uint64_t shown = 0;
  const Metadata& m = r->metadata();
  auto show = [&](const Event& e) {
    if (shown >= limit || (kind && e.kind != *kind) || (gpu && e.gpu != *gpu)) return;
    ++shown;
    const std::string g = e.gpu == kHostGpu ? "host" : std::to_string(e.gpu);
    if (csv) {
      out << e.time_ns << "," << event_kind_name(e.kind) << "," << g << "," << e.stream << ","
          << e.id << "," << e.aux << "," << e.value << "," << e.flags << "\n";
      return;
    }
    char line[96];
    std::snprintf(line, sizeof(line), "%20llu  %-18s %4s  %6u  ",
                  static_cast<unsigned long long>(e.time_ns), event_kind_name(e.kind), g.c_str(),
                  unsigned(e.stream));
    out << line << details(e, m) << "\n";
  };
  Status s =
      (from > 0 || to < UINT64_MAX) ? r->for_each_in_window(from, to, show) : r->for_each(show);
  if (!s.ok()) return fail(err, s.error());
  return kExitOk;
}

FlagSet check_flags() {
  FlagSet f("xferlab trace check",
            "Semantic validation of FILE (traces/FORMAT.md's rules); exit 2 if it has errors.");
  add_file(f);
  return f;
}

int run_check(const FlagSet& flags, std::ostream& out, std::ostream& err) {
  Result<TraceReader> r = open_trace(flags, err);
  if (!r.ok()) return fail(err, r.error());
  Result<CheckReport> report = check_trace(*r);
  if (!report.ok()) return fail(err, report.error());
  for (const CheckIssue& i : report->issues) {
    out << r->path() << ": " << (i.error ? "error: " : "warning: ") << i.message << "\n";
  }
  const uint64_t shown = report->issues.size(), total = report->errors + report->warnings;
  if (shown < total) out << "(" << total - shown << " more issues not shown)\n";
  out << r->path() << ": " << report->events_checked << " events checked, " << report->errors
      << " errors, " << report->warnings << " warnings\n";
  return report->ok() ? kExitOk : kExitUsage;
}

FlagSet export_flags() {
  FlagSet f("xferlab trace export",
            "FILE as Chrome/Perfetto trace JSON (open it in ui.perfetto.dev).");
  add_file(f)
      .add_bool("perfetto", false, "the format (required; the only one)")
      .add_string("o", "", {}, "write to this file (default: stdout)");
  return f;
}

int run_export(const FlagSet& flags, std::ostream& out, std::ostream& err) {
  if (!flags.get_bool("perfetto")) {
    return fail(err, make_error("trace export: choose a format: --perfetto"));
  }
  const std::string path = flags.get_string("o");
  if (!path.empty()) {
    Status s = check_output_path(path, "trace export -o");
    if (!s.ok()) return fail(err, s.error());
  }
  Result<TraceReader> r = open_trace(flags, err);
  if (!r.ok()) return fail(err, r.error());
  if (path.empty()) {
    Status s = export_perfetto(*r, out);
    if (!out) return fail(err, make_runtime_error("trace export: writing standard output failed"));
    return s.ok() ? kExitOk : fail(err, s.error());
  }
  std::ofstream file(path);
  if (!file) return fail(err, make_runtime_error("trace export: cannot create " + path));
  Status s = export_perfetto(*r, file);
  const bool written = static_cast<bool>(file);
  file.close();
  if (!written || !file) {
    return fail(err, make_runtime_error("trace export: writing " + path + " failed"));
  }
  if (!s.ok()) return fail(err, s.error());
  out << "wrote " << path << " (open it in ui.perfetto.dev)\n";
  return kExitOk;
}

FlagSet generate_flags() {
  const GenerateOptions d;
  FlagSet f("xferlab trace generate",
            "Writes a synthetic PROACT-like trace to OUT (deterministic for a seed): GPUs\n"
            "running producer kernels whose chunks are sent to every other GPU.\n"
            "With --workload micro --platform P [--match-copy]: the PROACT microbenchmark for\n"
            "a preset (`xferlab trace generate --workload micro --help`, docs/scaling.md).");
  f.set_positionals("OUT", 1, 1, "the trace file to write")
      .add_int("gpus", d.gpus, 0, UINT32_MAX, "GPUs (1.." + std::to_string(kMaxGeneratedGpus) + ")")
      .add_int("chunks", d.chunks, 0, UINT32_MAX, "chunks per GPU per iteration")
      .add_int("ctas", d.ctas, 0, UINT32_MAX, "CTAs per producer kernel (>= chunks)")
      .add_int("iterations", d.iterations, 0, UINT32_MAX, "iterations")
      .add_int("sms", d.sms, 0, UINT32_MAX, "SMs per GPU (CTAs run in waves of this size)")
      .add_size("chunk-size", std::to_string(d.chunk_bytes), 0, 1e15, "bytes per chunk")
      .add_int("seed", static_cast<int64_t>(d.seed), 0, INT64_MAX, "random seed")
      .add_string("mechanism", mechanism_name(uint16_t(d.mechanism)), {}, "transfer mechanism")
      .add_bool("compress", false, "zstd-compress the event blocks");
  return f;
}

int run_generate(const FlagSet& flags, std::ostream& out, std::ostream& err) {
  GenerateOptions o;
  o.gpus = uint32_t(flags.get_int("gpus"));
  o.chunks = uint32_t(flags.get_int("chunks"));
  o.ctas = uint32_t(flags.get_int("ctas"));
  o.iterations = uint32_t(flags.get_int("iterations"));
  o.sms = uint32_t(flags.get_int("sms"));
  o.chunk_bytes = uint64_t(flags.get_size("chunk-size"));
  o.seed = uint64_t(flags.get_int("seed"));
  const std::string& mech = flags.get_string("mechanism");
  std::optional<TransferMechanism> parsed = parse_mechanism(mech);
  if (!parsed) {
    return fail(err, make_error("trace generate: unknown mechanism '" + mech + "'" +
                                did_you_mean(mech, mechanism_names())));
  }
  o.mechanism = *parsed;
  WriterOptions w;
  if (flags.get_bool("compress")) w.compression = Compression::kZstd;
  const std::string& path = flags.positionals()[0];
  Status s = generate_trace(path, o, w);
  if (!s.ok()) return fail(err, s.error());
  out << "wrote " << path << "\n";
  return kExitOk;
}

FlagSet compact_flags() {
  const CompactOptions d;
  FlagSet f("xferlab trace compact",
            "Rewrites each FILE with its event blocks in codec 2 (time deltas, byte-plane\n"
            "shuffle, zstd: the smallest; traces/FORMAT.md), in place or to -o: same\n"
            "blocks, metadata and events, whole-file zstd kept when FILE had it. The\n"
            "output is read back and compared with FILE event by event before it\n"
            "replaces anything. Readers older than format 2.1 cannot read the result.");
  f.set_positionals("FILE", 1, SIZE_MAX, "trace files (.xft, .xftrace, optionally .zst)")
      .add_int("level", d.zstd_level, 1, 22, "zstd level of the blocks and the whole-file zstd")
      .add_string("o", "", {}, "write to this file instead of in place (one FILE only)");
  return f;
}

int run_compact(const FlagSet& flags, std::ostream& out, std::ostream& err) {
  const std::vector<std::string>& files = flags.positionals();
  const std::string& to = flags.get_string("o");
  if (!to.empty() && files.size() != 1) {
    return fail(
        err, make_error("trace compact: -o takes one FILE, got " + std::to_string(files.size())));
  }
  CompactOptions options;
  options.zstd_level = int(flags.get_int("level"));
  uint64_t before = 0, after = 0;
  for (const std::string& file : files) {
    Result<CompactResult> r = compact_trace(file, to.empty() ? file : to, options);
    if (!r.ok()) return fail(err, r.error());
    for (const std::string& w : r->warnings) err << "warning: " << w << "\n";
    before += r->bytes_before;
    after += r->bytes_after;
    out << (to.empty() ? file : to) << ": " << r->events << " events, " << r->bytes_before << " -> "
        << r->bytes_after << " bytes\n";
  }
  if (files.size() > 1) {
    out << "total: " << files.size() << " files, " << before << " -> " << after << " bytes\n";
  }
  return kExitOk;
}

// The subcommands, in the order `xferlab trace --help` lists them.
struct TraceSubcommand {
  const char* name;
  const char* summary;
  FlagSet (*flags)();
  int (*run)(const FlagSet& flags, std::ostream& out, std::ostream& err);
};
const TraceSubcommand kTraceSubcommands[] = {
    {"info", "metadata, counts per kind, time span", info_flags, run_info},
    {"dump", "events, one per line", dump_flags, run_dump},
    {"check", "semantic validation", check_flags, run_check},
    {"export", "Chrome/Perfetto trace JSON", export_flags, run_export},
    {"generate", "a synthetic PROACT-like trace", generate_flags, run_generate},
    {"compact", "re-encode the event blocks in codec 2", compact_flags, run_compact},
};

}  // namespace

int run_trace(const cli::Args& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    return fail(
        err,
        make_error("trace: missing subcommand (info, dump, check, export, generate, compact)"));
  }
  const std::string& sub = args[0];
  if (sub == "--help" || sub == "-h" || sub == "help") {
    out << "usage: xferlab trace SUBCOMMAND [flags] ...\n"
           "Inspect, check, export, generate and compact trace files (traces/FORMAT.md).\n\n"
           "subcommands:\n";
    for (const TraceSubcommand& c : kTraceSubcommands)
      out << "  " << c.name << std::string(10 - std::string_view(c.name).size(), ' ') << c.summary
          << "\n";
    out << "\n`xferlab trace SUBCOMMAND --help` describes one.\n";
    return kExitOk;
  }
  std::vector<std::string> names;
  for (const TraceSubcommand& c : kTraceSubcommands) {
    names.push_back(c.name);
    if (sub != c.name) continue;
    FlagSet flags = c.flags();
    const cli::Args rest(args.begin() + 1, args.end());
    if (std::optional<int> rc = cli::parse_command_flags(flags, rest, out, err)) return *rc;
    return c.run(flags, out, err);
  }
  return fail(err,
              make_error("trace: unknown subcommand '" + sub + "'" + did_you_mean(sub, names)));
}

}  // namespace xferlab::sim
