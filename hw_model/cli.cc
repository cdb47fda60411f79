// hw_model/cli.cc — `xferlab link` and `xferlab platform`.
#include "hw_model/cli.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "common/output_path.h"
#include "common/table.h"
#include "common/units.h"
#include "hw_model/calibrate.h"
#include "hw_model/hardware_sizing.h"
#include "hw_model/platform.h"

namespace xferlab::hw_model {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;

constexpr const char* kLinkUsage =
    "usage: xferlab link [--interconnect KIND|all | --platform PRESET [--set key=value]...]\n"
    "                    [--links N] [--sizes 1,2,4,...] [--pattern contiguous|scattered]\n"
    "                    [--op write|read] [--count N] [--format table|csv|json]\n\n"
    "Bytes on the wire, efficiency (payload / wire bytes in the data direction) and\n"
    "time for COUNT writes (or reads) of each size. Defaults: --interconnect all,\n"
    "--sizes 1,2,4,...,4096, --pattern scattered, --op write, --count 1048576, --links 1\n"
    "(with --platform: the links between GPU 0 and GPU 1). `bound` says whether link\n"
    "bytes, the packet rate or reverse-direction traffic limits the time.\n";

constexpr const char* kPlatformUsage =
    "usage: xferlab platform list [--format table|csv|json]\n"
    "       xferlab platform show PRESET|FILE [--set key=value]... [--chunk-size SIZE]\n"
    "       xferlab platform keys [--format table|csv|json]\n\n"
    "Presets are built in (hw_model/presets/NAME.toml); $XFERLAB_PRESETS dirs override.\n"
    "`show` prints the preset with every parameter resolved, then the hardware sizes\n"
    "left 'auto' as the design rules derive them (for --chunk-size, default 1MiB;\n"
    "replay sizes them from the trace's chunks); `keys` lists every parameter with its\n"
    "unit, default and description.\n";

constexpr const char* kCalibrateUsage =
    "usage: xferlab calibrate --link-bench FILE [--notify-bench FILE] [--proact-micro FILE]\n"
    "                         [--proact-bytes SIZE] [--preset PRESET] [-o FILE]\n"
    "                         [--format table|csv|json]\n\n"
    "Fits the unpublished constants of PRESET (default h200x2_nvlink4) to native/\n"
    "measurements: GPU-link and host-link packet formats, efficiency and rate limits\n"
    "(link_bench.csv), copy-engine initiation, notification latencies\n"
    "(notify_bench.csv), polling copy rate, polling SM share and CDP launch interval\n"
    "(PROACT micro_g2.csv; --proact-bytes: bytes each GPU sends, default 256MiB).\n"
    "Writes the fitted preset to -o FILE and prints model vs measurement with the\n"
    "error of each. Method: docs/calibration.md.\n";

int usage_error(std::ostream& err, std::string_view command, const std::string& message) {
  err << "xferlab " << command << ": " << message << "\n";
  return kExitUsage;
}

int report(std::ostream& err, std::string_view command, const Error& e) {
  err << "xferlab " << command << ": " << e.message << "\n";
  return e.exit_code();
}

// Options: "--name value" pairs and positional words, parsed against a list of
// known flags (unknown flags get a suggestion).
struct Options {
  std::vector<std::pair<std::string, std::string>> flags;
  std::vector<std::string> words;
  bool help = false;

  std::optional<std::string> get(std::string_view name) const {
    std::optional<std::string> v;
    for (const auto& [k, value] : flags)
      if (k == name) v = value;
    return v;
  }
};

Result<Options> parse_options(const std::vector<std::string>& args,
                              const std::vector<std::string>& known) {
  Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) {
      o.words.push_back(a);
      continue;
    }
    std::string name = a, value;
    size_t eq = a.find('=');
    bool inline_value = eq != std::string::npos && a.rfind("--set", 0) != 0;
    if (inline_value) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    if (std::find(known.begin(), known.end(), name) == known.end())
      return make_error("unknown option '" + name + "'" + did_you_mean(name, known));
    if (!inline_value) {
      if (i + 1 >= args.size()) return make_error("option '" + name + "' needs a value");
      value = args[++i];
    }
    o.flags.emplace_back(name, value);
  }
  return o;
}

Status apply_sets(Platform& platform, const Options& o) {
  for (const auto& [k, v] : o.flags) {
    if (k != "--set") continue;
    size_t eq = v.find('=');
    if (eq == std::string::npos) return make_error("--set '" + v + "': expected key=value");
    XF_RETURN_IF_ERROR(set_parameter(platform, v.substr(0, eq), v.substr(eq + 1)));
  }
  return platform.validate();
}

Result<int64_t> parse_positive_count(const std::optional<std::string>& text, const char* flag,
                                     int64_t fallback) {
  if (!text) return fallback;
  Result<int64_t> v = parse_count(*text);
  if (!v.ok() || *v < 1) return make_error(std::string(flag) + ": '" + *text + "' is not >= 1");
  return *v;
}

struct LinkChoice {
  LinkFormat format;
  int64_t links;
};

}  // namespace

int run_link(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<Options> parsed =
      parse_options(args, {"--interconnect", "--platform", "--set", "--links", "--sizes",
                           "--pattern", "--op", "--count", "--format"});
  if (!parsed.ok()) return usage_error(err, "link", parsed.error().message);
  const Options& o = *parsed;
  if (o.help) {
    out << kLinkUsage;
    return kExitOk;
  }
  if (!o.words.empty()) return usage_error(err, "link", "unexpected argument '" + o.words[0] + "'");
  auto interconnect = o.get("--interconnect");
  auto preset = o.get("--platform");
  if (interconnect && preset)
    return usage_error(err, "link", "give --interconnect or --platform, not both");
  if (!preset && o.get("--set")) return usage_error(err, "link", "--set needs --platform");

  Result<OutputFormat> format = parse_output_format(o.get("--format").value_or("table"));
  if (!format.ok()) return usage_error(err, "link", format.error().message);
  Result<Pattern> pattern = parse_pattern(o.get("--pattern").value_or("scattered"));
  if (!pattern.ok()) return usage_error(err, "link", pattern.error().message);
  Result<LinkOp> op = parse_link_op(o.get("--op").value_or("write"));
  if (!op.ok()) return usage_error(err, "link", op.error().message);
  Result<int64_t> count = parse_positive_count(o.get("--count"), "--count", 1048576);
  if (!count.ok()) return usage_error(err, "link", count.error().message);
  std::vector<double> sizes;
  if (auto text = o.get("--sizes")) {
    Result<std::vector<double>> v = parse_size_list(*text);
    if (!v.ok()) return usage_error(err, "link", "--sizes: " + v.error().message);
    sizes = *v;
  } else {
    for (double s = 1; s <= 4096; s *= 2) sizes.push_back(s);
  }

  std::vector<LinkChoice> choices;
  if (preset) {
    Result<Platform> platform = load_platform(*preset);
    if (!platform.ok()) return report(err, "link", platform.error());
    Status set = apply_sets(*platform, o);
    if (!set.ok()) return usage_error(err, "link", set.error().message);
    GpuPairPath path = gpu_pair_path(*platform, 0, platform->gpu.count > 1 ? 1 : 0);
    choices.push_back({path.bottleneck ? *path.bottleneck : platform->gpu_link,
                       std::max<int64_t>(1, path.links)});
  } else if (!interconnect || *interconnect == "all") {
    for (const std::string& name : builtin_link_format_names())
      choices.push_back({*builtin_link_format(name), 1});
  } else {
    Result<LinkFormat> f = builtin_link_format(*interconnect);
    if (!f.ok()) return usage_error(err, "link", "--interconnect: " + f.error().message);
    choices.push_back({*f, 1});
  }
  Result<int64_t> links = parse_positive_count(o.get("--links"), "--links", 0);
  if (!links.ok()) return usage_error(err, "link", links.error().message);

  Table table({{"interconnect"},
               {"links"},
               {"size_bytes"},
               {"count"},
               {"payload_bytes", 6},
               {"wire_bytes", 6},
               {"reverse_bytes", 6},
               {"packets", 6},
               {"efficiency", 4},
               {"time_ns", 6},
               {"goodput_bytes_per_s", 4},
               {"bound"}});
  for (const LinkChoice& c : choices) {
    Result<LinkModel> model = LinkModel::create(c.format);
    if (!model.ok()) return report(err, "link", model.error());
    int64_t n_links = *links > 0 ? *links : c.links;
    for (double size : sizes) {
      WireBytes w = model->transfer(*op, static_cast<double>(*count), size, *pattern);
      LinkTime t = model->time(w, n_links);
      double goodput = t.time_ns > 0 ? w.payload_bytes / t.time_ns * 1e9 : 0;
      table.add_row({c.format.name, n_links, size, *count, w.payload_bytes, w.data_bytes,
                     w.reverse_bytes, w.packets, w.efficiency(), t.time_ns, goodput,
                     std::string(link_bound_name(t.bound))});
    }
  }
  table.write(out, *format);
  return kExitOk;
}

int run_platform(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<Options> parsed = parse_options(args, {"--set", "--format", "--chunk-size"});
  if (!parsed.ok()) return usage_error(err, "platform", parsed.error().message);
  const Options& o = *parsed;
  if (o.help) {
    out << kPlatformUsage;
    return kExitOk;
  }
  if (o.words.empty()) return usage_error(err, "platform", "missing action (list, show, keys)");
  const std::string& action = o.words[0];
  Result<OutputFormat> format = parse_output_format(o.get("--format").value_or("table"));
  if (!format.ok()) return usage_error(err, "platform", format.error().message);
  if (action == "show") {
    if (o.words.size() != 2) return usage_error(err, "platform", "show needs one PRESET");
    Result<Platform> platform = load_platform(o.words[1]);
    if (!platform.ok()) return report(err, "platform", platform.error());
    Status set = apply_sets(*platform, o);
    if (!set.ok()) return usage_error(err, "platform", set.error().message);
    out << dump_platform(*platform);
    SizingRegion region;
    if (auto c = o.get("--chunk-size")) {
      Result<double> v = parse_quantity(*c, Unit::kSizeBytes);
      if (!v.ok() || !(*v >= 1))
        return usage_error(err, "platform", "--chunk-size '" + *c + "': expected a size");
      region.chunk_bytes = *v;
    }
    Status valid = platform->validate();
    if (!valid.ok()) return report(err, "platform", valid.error());
    Result<SizingPath> path = platform_sizing_path(*platform);
    if (!path.ok()) return report(err, "platform", path.error());
    Result<LinkModel> link = LinkModel::create(platform->gpu_link);
    if (!link.ok()) return report(err, "platform", link.error());
    const HardwareSizing sizing =
        size_hardware(platform->dma_agent, platform->counter_unit, *link, *path, region);
    out << "\n# Hardware sizes (docs/hardware.md): farthest GPU path "
        << format_quantity(path->bw_bytes_per_s, Unit::kBandwidthBytesPerS) << ", round trip "
        << format_quantity(path->round_trip_ns, Unit::kTimeNs) << "; "
        << format_quantity(region.chunk_bytes, Unit::kSizeBytes) << " chunks\n";
    std::istringstream lines(describe_sizing(sizing));
    for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
    return kExitOk;
  }
  if (o.words.size() != 1)
    return usage_error(err, "platform", "unexpected argument '" + o.words[1] + "'");
  if (action == "list") {
    Table table({{"name"}, {"gpus"}, {"gpu_link"}, {"description"}});
    for (const std::string& name : list_presets()) {
      Result<Platform> p = load_platform(name);
      if (!p.ok()) return report(err, "platform", p.error());
      table.add_row({name, p->gpu.count, p->gpu_link.name, p->description});
    }
    table.write(out, *format);
    return kExitOk;
  }
  if (action == "keys") {
    Table table({{"key"}, {"unit"}, {"default"}, {"description"}});
    for (const ParamInfo& p : parameter_reference())
      table.add_row({p.key, p.unit, p.default_value, p.description});
    table.write(out, *format);
    return kExitOk;
  }
  return usage_error(
      err, "platform",
      "unknown action '" + action + "'" + did_you_mean(action, {"list", "show", "keys"}));
}

namespace {

// user_path: relative paths are relative to where the user ran the command
// (`bazel run` changes directory into the runfiles).
std::string user_path(const std::string& path) {
  const char* dir = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || !dir) return path;
  return std::string(dir) + "/" + path;
}

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(user_path(path), std::ios::binary);
  if (!in) return make_error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

template <typename Row>
Result<std::vector<Row>> read_rows(const std::string& path,
                                   Result<std::vector<Row>> (*parse)(std::string_view,
                                                                     std::string_view)) {
  Result<std::string> text = read_text(path);
  if (!text.ok()) return text.error();
  return parse(*text, path);
}

}  // namespace

int run_calibrate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> normalized = args;
  for (std::string& a : normalized)
    if (a == "-o") a = "--output";
  Result<Options> parsed =
      parse_options(normalized, {"--link-bench", "--notify-bench", "--proact-micro",
                                 "--proact-bytes", "--preset", "--output", "--format"});
  if (!parsed.ok()) return usage_error(err, "calibrate", parsed.error().message);
  const Options& o = *parsed;
  if (o.help) {
    out << kCalibrateUsage;
    return kExitOk;
  }
  if (!o.words.empty())
    return usage_error(err, "calibrate", "unexpected argument '" + o.words[0] + "'");
  auto link_bench = o.get("--link-bench");
  if (!link_bench) return usage_error(err, "calibrate", "--link-bench FILE is required");
  Result<OutputFormat> format = parse_output_format(o.get("--format").value_or("table"));
  if (!format.ok()) return usage_error(err, "calibrate", format.error().message);

  if (auto path = o.get("--output")) {
    Status s = check_output_path(user_path(*path), "calibrate -o");
    if (!s.ok()) return report(err, "calibrate", s.error());
  }
  CalibrationInputs in;
  if (auto bytes = o.get("--proact-bytes")) {
    Result<double> v = parse_quantity(*bytes, Unit::kSizeBytes);
    if (!v.ok() || !(*v > 0))
      return usage_error(err, "calibrate", "--proact-bytes: '" + *bytes + "' is not a size > 0");
    in.proact_bytes_per_gpu = *v;
  }
  in.link_bench_file = *link_bench;
  Result<std::vector<LinkBenchRow>> lb = read_rows(*link_bench, &parse_link_bench);
  if (!lb.ok()) return report(err, "calibrate", lb.error());
  in.link_bench = std::move(*lb);
  if (auto f = o.get("--notify-bench")) {
    in.notify_bench_file = *f;
    Result<std::vector<NotifyBenchRow>> rows = read_rows(*f, &parse_notify_bench);
    if (!rows.ok()) return report(err, "calibrate", rows.error());
    in.notify_bench = std::move(*rows);
  }
  if (auto f = o.get("--proact-micro")) {
    in.proact_micro_file = *f;
    Result<std::vector<ProactMicroRow>> rows = read_rows(*f, &parse_proact_micro);
    if (!rows.ok()) return report(err, "calibrate", rows.error());
    in.proact_micro = std::move(*rows);
  }
  const std::string preset = o.get("--preset").value_or("h200x2_nvlink4");
  Result<Platform> base = load_platform(preset);
  if (!base.ok()) return report(err, "calibrate", base.error());
  Result<CalibrationResult> result = calibrate(*base, in);
  if (!result.ok()) return report(err, "calibrate", result.error());

  if (auto path = o.get("--output")) {
    std::ofstream file(user_path(*path));
    if (!file) return report(err, "calibrate", make_runtime_error(*path + ": cannot write"));
    file << "# Generated by: xferlab calibrate";
    for (const std::string& a : args) file << " " << a;
    file << "\n# Method and model-vs-measurement table: docs/calibration.md.\n";
    file << dump_platform(result->platform);
    if (!file) return report(err, "calibrate", make_runtime_error(*path + ": write failed"));
  }
  Table table({{"group"}, {"case"}, {"unit"}, {"measured", 5}, {"model", 5}, {"error", 3}});
  for (const Comparison& c : result->comparisons)
    table.add_row({c.group, c.name, c.unit, c.measured, c.model, c.error()});
  table.write(out, *format);
  return kExitOk;
}

}  // namespace xferlab::hw_model
