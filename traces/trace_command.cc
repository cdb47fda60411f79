// traces/trace_command.cc — `xferlab trace` subcommands (see trace_command.h).
#include "traces/trace_command.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "common/number.h"
#include "common/output_path.h"
#include "common/table.h"
#include "common/units.h"
#include "traces/check.h"
#include "traces/event_names.h"
#include "traces/generator.h"
#include "traces/perfetto.h"
#include "traces/reader.h"

namespace xferlab::traces {
namespace {

constexpr int kOk = 0, kRuntime = 1, kUsage = 2;

const char kUsageText[] =
    "usage: xferlab trace <info|dump|check|export|generate> ...\n"
    "  trace info FILE [--format table|csv|json]   metadata, counts per kind, time span\n"
    "  trace dump FILE [--kind K] [--gpu G|host] [--from T --to T] [--limit N] [--csv]\n"
    "                                               events, one per line (T: ns or 1.5us...)\n"
    "  trace check FILE                             semantic validation\n"
    "  trace export --perfetto FILE [-o OUT.json]   Chrome/Perfetto trace JSON (stdout without "
    "-o)\n"
    "  trace generate OUT [--gpus N] [--chunks N] [--ctas N] [--iterations N] [--sms N]\n"
    "                 [--chunk-size SIZE] [--seed S] [--mechanism M] [--compress]\n";

// Options: "--name value" pairs and positionals, checked against a list.
struct Parsed {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;
  std::map<std::string, bool> switches;
};

Result<Parsed> parse(const std::vector<std::string>& args, size_t first,
                     const std::vector<std::string>& with_value,
                     const std::vector<std::string>& switches, const std::string& command) {
  Parsed p;
  for (size_t i = first; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 1 && a[0] == '-') {
      if (std::find(switches.begin(), switches.end(), a) != switches.end()) {
        p.switches[a] = true;
      } else if (std::find(with_value.begin(), with_value.end(), a) != with_value.end()) {
        if (i + 1 >= args.size())
          return make_error("trace " + command + ": " + a + " needs a value");
        p.values[a] = args[++i];
      } else {
        std::vector<std::string> all = with_value;
        all.insert(all.end(), switches.begin(), switches.end());
        return make_error("trace " + command + ": unknown option '" + a + "'" +
                          did_you_mean(a, all));
      }
    } else {
      p.positional.push_back(a);
    }
  }
  return p;
}

// count_arg: a non-negative integer argument, the error naming `what`.
Result<uint64_t> count_arg(const std::string& text, const std::string& what) {
  Result<uint64_t> v = parse_uint(text);
  if (!v.ok()) return make_error("trace: " + what + " " + v.error().message);
  return v;
}

// parse_time_ns: "123456" (ns) or a quantity with a unit ("1.5us").
Result<uint64_t> parse_time_ns(const std::string& text, const std::string& what) {
  if (Result<uint64_t> v = count_arg(text, what); v.ok()) return v;
  Result<double> q = parse_quantity(text, Unit::kTimeNs);
  if (!q.ok() || *q < 0) {
    return make_error("trace: " + what + " '" + text + "' is not a time (e.g. 1500, 1.5us)");
  }
  return uint64_t(*q);
}

int fail(std::ostream& err, const Error& e) {
  err << "xferlab trace: " << e.message << "\n";
  return e.exit_code();
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
Result<TraceReader> open_trace(const Parsed& p, const std::string& command, std::ostream& err) {
  if (p.positional.size() != 1) {
    return make_error("trace " + command + ": expected one FILE (see `xferlab trace --help`)");
  }
  Result<TraceReader> r = TraceReader::open(p.positional[0]);
  if (r.ok())
    for (const std::string& w : r->warnings()) err << "warning: " << w << "\n";
  return r;
}

int run_info(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<Parsed> p = parse(args, 1, {"--format"}, {}, "info");
  if (!p.ok()) return fail(err, p.error());
  Result<OutputFormat> format = parse_output_format(
      p->values.count("--format") ? p->values.at("--format") : std::string("table"));
  if (!format.ok()) return fail(err, format.error());
  Result<TraceReader> r = open_trace(*p, "info", err);
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
  return kOk;
}

int run_dump(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<Parsed> p =
      parse(args, 1, {"--kind", "--gpu", "--from", "--to", "--limit"}, {"--csv"}, "dump");
  if (!p.ok()) return fail(err, p.error());
  std::optional<uint16_t> kind, gpu;
  uint64_t from = 0, to = UINT64_MAX, limit = UINT64_MAX;
  if (p->values.count("--kind")) {
    const std::string& k = p->values.at("--kind");
    std::optional<EventKind> parsed = parse_event_kind(k);
    if (!parsed) {
      return fail(err, make_error("trace dump: unknown kind '" + k + "'" +
                                  did_you_mean(k, event_kind_names())));
    }
    kind = uint16_t(*parsed);
  }
  if (p->values.count("--gpu")) {
    const std::string& g = p->values.at("--gpu");
    if (g == "host") {
      gpu = kHostGpu;
    } else {
      Result<uint64_t> v = count_arg(g, "--gpu");
      if (!v.ok() || *v >= kHostGpu) {
        return fail(err, make_error("trace dump: --gpu '" + g + "' is not a GPU id or 'host'"));
      }
      gpu = uint16_t(*v);
    }
  }
  for (auto [flag, target] : {std::pair{"--from", &from}, std::pair{"--to", &to}}) {
    if (!p->values.count(flag)) continue;
    Result<uint64_t> t = parse_time_ns(p->values.at(flag), flag);
    if (!t.ok()) return fail(err, t.error());
    *target = *t;
  }
  if (from >= to) return fail(err, make_error("trace dump: --from must be before --to"));
  if (p->values.count("--limit")) {
    Result<uint64_t> v = count_arg(p->values.at("--limit"), "--limit");
    if (!v.ok()) return fail(err, v.error());
    limit = *v;
  }
  Result<TraceReader> r = open_trace(*p, "dump", err);
  if (!r.ok()) return fail(err, r.error());
  const bool csv = p->switches.count("--csv") > 0;
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
  return kOk;
}

int run_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<Parsed> p = parse(args, 1, {}, {}, "check");
  if (!p.ok()) return fail(err, p.error());
  Result<TraceReader> r = open_trace(*p, "check", err);
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
  return report->ok() ? kOk : kUsage;
}

int run_export(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<Parsed> p = parse(args, 1, {"-o"}, {"--perfetto"}, "export");
  if (!p.ok()) return fail(err, p.error());
  if (!p->switches.count("--perfetto")) {
    return fail(err, make_error("trace export: choose a format: --perfetto"));
  }
  if (p->values.count("-o")) {
    Status s = check_output_path(p->values.at("-o"), "trace export -o");
    if (!s.ok()) return fail(err, s.error());
  }
  Result<TraceReader> r = open_trace(*p, "export", err);
  if (!r.ok()) return fail(err, r.error());
  if (!p->values.count("-o")) {
    Status s = export_perfetto(*r, out);
    return s.ok() ? kOk : fail(err, s.error());
  }
  const std::string& path = p->values.at("-o");
  std::ofstream file(path);
  if (!file) return fail(err, make_runtime_error("trace export: cannot create " + path));
  Status s = export_perfetto(*r, file);
  file.close();
  if (!s.ok()) return fail(err, s.error());
  if (!file) return fail(err, make_runtime_error("trace export: writing " + path + " failed"));
  out << "wrote " << path << " (open it in ui.perfetto.dev)\n";
  return kOk;
}

int run_generate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<Parsed> p = parse(args, 1,
                           {"--gpus", "--chunks", "--ctas", "--iterations", "--sms", "--seed",
                            "--mechanism", "--chunk-size"},
                           {"--compress"}, "generate");
  if (!p.ok()) return fail(err, p.error());
  if (p->positional.size() != 1) return fail(err, make_error("trace generate: expected one OUT"));
  GenerateOptions o;
  for (auto [flag, target] :
       {std::pair{"--gpus", &o.gpus}, std::pair{"--chunks", &o.chunks},
        std::pair{"--ctas", &o.ctas}, std::pair{"--iterations", &o.iterations},
        std::pair{"--sms", &o.sms}}) {
    if (!p->values.count(flag)) continue;
    Result<uint64_t> v = count_arg(p->values.at(flag), flag);
    if (!v.ok()) return fail(err, v.error());
    if (*v > UINT32_MAX)
      return fail(err, make_error(std::string("trace generate: ") + flag + " too large"));
    *target = uint32_t(*v);
  }
  if (p->values.count("--seed")) {
    Result<uint64_t> v = count_arg(p->values.at("--seed"), "--seed");
    if (!v.ok()) return fail(err, v.error());
    o.seed = *v;
  }
  if (p->values.count("--chunk-size")) {
    const std::string& text = p->values.at("--chunk-size");
    Result<uint64_t> plain = count_arg(text, "--chunk-size");
    Result<double> q = parse_quantity(text, Unit::kSizeBytes);
    if (!plain.ok() && !q.ok())
      return fail(err, make_error("trace generate: --chunk-size " + q.error().message));
    o.chunk_bytes = plain.ok() ? *plain : uint64_t(*q);
  }
  if (p->values.count("--mechanism")) {
    const std::string& mech = p->values.at("--mechanism");
    std::optional<TransferMechanism> parsed = parse_mechanism(mech);
    if (!parsed) {
      return fail(err, make_error("trace generate: unknown mechanism '" + mech + "'" +
                                  did_you_mean(mech, mechanism_names())));
    }
    o.mechanism = *parsed;
  }
  WriterOptions w;
  if (p->switches.count("--compress")) w.compression = Compression::kZstd;
  const std::string& path = p->positional[0];
  Status s = generate_trace(path, o, w);
  if (!s.ok()) return fail(err, s.error());
  out << "wrote " << path << "\n";
  return kOk;
}

}  // namespace

int run_trace(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << "xferlab trace: missing subcommand (info, dump, check, export, generate)\n";
    return kUsage;
  }
  const std::string& sub = args[0];
  if (sub == "--help" || sub == "-h" || sub == "help") {
    out << kUsageText;
    return kOk;
  }
  if (sub == "info") return run_info(args, out, err);
  if (sub == "dump") return run_dump(args, out, err);
  if (sub == "check") return run_check(args, out, err);
  if (sub == "export") return run_export(args, out, err);
  if (sub == "generate") return run_generate(args, out, err);
  err << "xferlab trace: unknown subcommand '" << sub << "'"
      << did_you_mean(sub, {"info", "dump", "check", "export", "generate"}) << "\n";
  return kUsage;
}

}  // namespace xferlab::traces
