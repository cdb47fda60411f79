// sim/model_commands.cc — `xferlab link`, `xferlab platform`, `xferlab calibrate`.
#include "sim/model_commands.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/flags.h"
#include "common/output_path.h"
#include "common/table.h"
#include "common/units.h"
#include "hw_model/calibrate.h"
#include "hw_model/hardware_sizing.h"
#include "hw_model/platform.h"
#include "sim/bench_csv.h"
#include "sim/machine.h"

namespace xferlab::sim {
namespace {

using namespace hw_model;

// fail_in: "xferlab: COMMAND: MESSAGE", keeping the error's exit code.
int fail_in(std::ostream& err, const std::string& command, const Error& e) {
  return cli::fail(err, Error{command + ": " + e.message, e.usage});
}

// apply_sets: each "key=value" of --set (as replay and sweep parse them), then
// the preset's validation.
Status apply_sets(Platform& platform, const std::vector<std::string>& sets) {
  XF_RETURN_IF_ERROR(set_parameters(platform, sets));
  return platform.validate();
}

// load_with_sets: load_platform + apply_sets; --set mistakes are bad input.
// The preset's plausibility warnings go to `warnings` (null: not printed).
Result<Platform> load_with_sets(const std::string& preset, const std::vector<std::string>& sets,
                                std::ostream* warnings) {
  Result<Platform> platform = load_platform(preset);
  if (!platform.ok()) return platform.error();
  if (warnings) {
    for (const std::string& w : platform->warnings) *warnings << "warning: " << w << "\n";
  }
  if (Status s = apply_sets(*platform, sets); !s.ok()) return make_error(s.error().message);
  return platform;
}

FlagSet& add_format_flag(FlagSet& f) {
  return f.add_string("format", "table", {"table", "csv", "json"}, "output format");
}

// ---------------------------------------------------------------- link

constexpr int64_t kMaxLinks = 1 << 20;
constexpr double kMaxWriteBytes = 1ull << 40;

FlagSet link_flags() {
  std::vector<std::string> interconnects = builtin_link_format_names();
  interconnects.push_back("all");
  std::string sizes;  // 1,2,4,...,4096
  for (int s = 1; s <= 4096; s *= 2) sizes += (sizes.empty() ? "" : ",") + std::to_string(s);
  FlagSet f("xferlab link",
            "Bytes on the wire, efficiency (payload / wire bytes in the data direction) and\n"
            "time for COUNT writes (or reads) of each size, per built-in interconnect or on a\n"
            "preset's GPU link. `bound` says whether link bytes, the packet rate or\n"
            "reverse-direction traffic limits the time.");
  f.add_string("interconnect", "all", interconnects, "a built-in link format (not with --platform)")
      .add_string("platform", "", {}, "use this preset's link between GPU 0 and GPU 1")
      .add_repeated("set", "key=value", "override a preset key (needs --platform)")
      .add_int("links", 0, 0, kMaxLinks,
               "links the traffic spreads over (0: 1, or the preset's links between GPU 0 and 1)")
      .add_size_list("sizes", sizes, 1, kMaxWriteBytes, "write sizes")
      .add_string("pattern", "scattered", {"contiguous", "scattered"},
                  "consecutive writes to adjacent addresses, or each to its own line")
      .add_string("op", "write", {"write", "read"}, "direction of the data")
      .add_int("count", 1048576, 1, 1000000000000000, "writes (or reads) of each size");
  add_format_flag(f);
  return f;
}

struct LinkChoice {
  LinkFormat format;
  int64_t links;
};

// link_choices: the preset's GPU-pair link, or the named built-in format(s).
Result<std::vector<LinkChoice>> link_choices(const FlagSet& flags, std::ostream& err) {
  const std::string preset = flags.get_string("platform");
  if (!preset.empty()) {
    if (flags.was_set("interconnect"))
      return make_error("give --interconnect or --platform, not both");
    Result<Platform> platform = load_with_sets(preset, flags.get_all("set"), &err);
    if (!platform.ok()) return platform.error();
    GpuPairPath path = gpu_pair_path(*platform, 0, platform->gpu.count > 1 ? 1 : 0);
    return std::vector<LinkChoice>{{path.bottleneck ? *path.bottleneck : platform->gpu_link,
                                    std::max<int64_t>(1, path.links)}};
  }
  if (!flags.get_all("set").empty()) return make_error("--set needs --platform");
  const std::string interconnect = flags.get_string("interconnect");
  std::vector<LinkChoice> choices;
  for (const std::string& name : builtin_link_format_names())
    if (interconnect == "all" || interconnect == name)
      choices.push_back({*builtin_link_format(name), 1});
  return choices;
}

}  // namespace

int run_link(const cli::Args& args, std::ostream& out, std::ostream& err) {
  FlagSet flags = link_flags();
  if (std::optional<int> rc = cli::parse_command_flags(flags, args, out, err)) return *rc;
  Result<std::vector<LinkChoice>> choices = link_choices(flags, err);
  if (!choices.ok()) return fail_in(err, "link", choices.error());
  const OutputFormat format = parse_output_format(flags.get_string("format")).value();
  const Pattern pattern = parse_pattern(flags.get_string("pattern")).value();
  const LinkOp op = parse_link_op(flags.get_string("op")).value();
  const int64_t count = flags.get_int("count");

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
  for (const LinkChoice& c : *choices) {
    Result<LinkModel> model = LinkModel::create(c.format);
    if (!model.ok()) return fail_in(err, "link", model.error());
    const int64_t n_links = flags.get_int("links") > 0 ? flags.get_int("links") : c.links;
    for (double size : flags.get_size_list("sizes")) {
      WireBytes w = model->transfer(op, static_cast<double>(count), size, pattern);
      LinkTime t = model->time(w, n_links);
      double goodput = t.time_ns > 0 ? w.payload_bytes / t.time_ns * 1e9 : 0;
      table.add_row({c.format.name, n_links, size, count, w.payload_bytes, w.data_bytes,
                     w.reverse_bytes, w.packets, w.efficiency(), t.time_ns, goodput,
                     std::string(link_bound_name(t.bound))});
    }
  }
  table.write(out, format);
  return cli::kExitOk;
}

// ---------------------------------------------------------------- platform

namespace {

const std::vector<std::string> kPlatformActions = {"list", "show", "keys"};

FlagSet platform_flags() {
  FlagSet f("xferlab platform",
            "Presets are built in (hw_model/presets/NAME.toml); $XFERLAB_PRESETS dirs override.\n"
            "  list               the presets\n"
            "  show PRESET|FILE   the preset with every parameter resolved, then the hardware\n"
            "                     sizes left 'auto' as the design rules derive them for\n"
            "                     --chunk-size (replay sizes them from the trace's chunks)\n"
            "  keys               every parameter with its unit, default and description");
  f.set_positionals("ACTION", 0, 2, "list | show PRESET|FILE | keys")
      .add_repeated("set", "key=value", "show: override a preset key")
      .add_size("chunk-size", format_quantity(kDefaultSizingChunkBytes, Unit::kSizeBytes), 1, 1e15,
                "show: the chunk size the 'auto' hardware sizes are derived for")
      .add_bool("strict", false,
                "show: keys the file leaves to the model default (marked '# default') and "
                "implausible values are errors");
  add_format_flag(f);
  return f;
}

int platform_show(const FlagSet& flags, std::ostream& out, std::ostream& err) {
  const bool strict = flags.get_bool("strict");  // warnings become the error.
  Result<Platform> platform =
      load_with_sets(flags.positionals()[1], flags.get_all("set"), strict ? nullptr : &err);
  if (!platform.ok()) return fail_in(err, "platform", platform.error());
  if (strict) {
    if (Status s = check_strict(*platform); !s.ok()) return fail_in(err, "platform", s.error());
  }
  out << dump_platform(*platform, /*mark_defaults=*/true);
  // The sizes replay would use: the simulated machine's farthest GPU path
  // (Machine::path_latency_ns, the round trip SimGrid routes), one equation.
  SizingRegion region;
  region.chunk_bytes = flags.get_size("chunk-size");
  HardwareSizing sizing;
  Result<Machine> machine = machine_from_platform(*platform, 0, region, &sizing);
  if (!machine.ok()) return fail_in(err, "platform", machine.error());
  out << "\n# Hardware sizes (docs/hardware.md): farthest GPU path "
      << format_quantity(sizing.path.bw_bytes_per_s, Unit::kBandwidthBytesPerS) << ", round trip "
      << format_quantity(sizing.path.round_trip_ns, Unit::kTimeNs) << "; "
      << format_quantity(region.chunk_bytes, Unit::kSizeBytes) << " chunks\n";
  std::istringstream lines(describe_sizing(sizing));
  for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  return cli::kExitOk;
}

int platform_list(OutputFormat format, std::ostream& out, std::ostream& err) {
  Table table({{"name"}, {"gpus"}, {"gpu_link"}, {"description"}});
  for (const std::string& name : list_presets()) {
    Result<Platform> p = load_platform(name);
    if (!p.ok()) return fail_in(err, "platform", p.error());
    table.add_row({name, p->gpu.count, p->gpu_link.name, p->description});
  }
  table.write(out, format);
  return cli::kExitOk;
}

void platform_keys(OutputFormat format, std::ostream& out) {
  Table table({{"key"}, {"unit"}, {"default"}, {"description"}});
  for (const ParamInfo& p : parameter_reference())
    table.add_row({p.key, p.unit, p.default_value, p.description});
  table.write(out, format);
}

}  // namespace

int run_platform(const cli::Args& args, std::ostream& out, std::ostream& err) {
  FlagSet flags = platform_flags();
  if (std::optional<int> rc = cli::parse_command_flags(flags, args, out, err)) return *rc;
  const std::vector<std::string>& words = flags.positionals();
  if (words.empty())
    return fail_in(err, "platform", make_error("missing action (list, show, keys)"));
  const std::string& action = words[0];
  if (action == "show") {
    if (words.size() != 2) return fail_in(err, "platform", make_error("show needs one PRESET"));
    return platform_show(flags, out, err);
  }
  if (std::find(kPlatformActions.begin(), kPlatformActions.end(), action) ==
      kPlatformActions.end()) {
    return fail_in(
        err, "platform",
        make_error("unknown action '" + action + "'" + did_you_mean(action, kPlatformActions)));
  }
  if (words.size() != 1)
    return fail_in(err, "platform", make_error("unexpected argument '" + words[1] + "'"));
  const OutputFormat format = parse_output_format(flags.get_string("format")).value();
  if (action == "list") return platform_list(format, out, err);
  platform_keys(format, out);
  return cli::kExitOk;
}

// ---------------------------------------------------------------- calibrate

namespace {

FlagSet calibrate_flags() {
  FlagSet f("xferlab calibrate",
            "Fits the unpublished constants of --preset to native/ measurements: GPU-link and\n"
            "host-link packet formats, efficiency and rate limits (link_bench.csv), copy-engine\n"
            "initiation, notification latencies (notify_bench.csv), polling copy rate, polling\n"
            "SM share and CDP launch interval (PROACT micro_g2.csv). Writes the fitted preset to\n"
            "-o FILE and prints model vs measurement with the error of each.\n"
            "Method: docs/calibration.md.");
  f.add_string("link-bench", "", {}, "link_bench CSV (required)")
      .add_string("notify-bench", "", {}, "notify_bench CSV (without: latencies kept)")
      .add_string("proact-micro", "", {}, "PROACT micro_gN CSV (without: agent rates kept)")
      .add_size("proact-bytes",
                format_quantity(CalibrationInputs{}.proact_bytes_per_gpu, Unit::kSizeBytes), 1,
                1e15, "bytes each GPU sent in the PROACT micro run")
      .add_string("preset", "h200x2_nvlink4", {}, "the preset to fit")
      .add_string("o", "", {}, "write the fitted preset (TOML) to this file");
  add_format_flag(f);
  return f;
}

// calibration_inputs: the CSVs named by the flags, read through sim/bench_csv.h.
Result<CalibrationInputs> calibration_inputs(const FlagSet& flags) {
  CalibrationInputs in;
  in.proact_bytes_per_gpu = flags.get_size("proact-bytes");
  in.link_bench_file = flags.get_string("link-bench");
  if (in.link_bench_file.empty()) return make_error("--link-bench FILE is required");
  XF_ASSIGN(in.link_bench, read_link_bench(in.link_bench_file));
  in.notify_bench_file = flags.get_string("notify-bench");
  if (!in.notify_bench_file.empty())
    XF_ASSIGN(in.notify_bench, read_notify_bench(in.notify_bench_file));
  in.proact_micro_file = flags.get_string("proact-micro");
  if (!in.proact_micro_file.empty())
    XF_ASSIGN(in.proact_micro, read_proact_micro(in.proact_micro_file));
  return in;
}

// write_preset: the fitted preset, headed by the command that made it.
Status write_preset(const std::string& path, const cli::Args& args, const Platform& platform) {
  std::ostringstream text;
  text << "# Generated by: xferlab calibrate";
  for (const std::string& a : args) text << " " << a;
  text << "\n# Method and model-vs-measurement table: docs/calibration.md.\n";
  text << dump_platform(platform);
  return write_file_checked(path, text.str(), "calibrate -o");
}

}  // namespace

int run_calibrate(const cli::Args& args, std::ostream& out, std::ostream& err) {
  FlagSet flags = calibrate_flags();
  if (std::optional<int> rc = cli::parse_command_flags(flags, args, out, err)) return *rc;
  const std::string output = flags.get_string("o");
  if (!output.empty()) {
    if (Status s = check_output_path(output, "calibrate -o"); !s.ok())
      return fail_in(err, "calibrate", s.error());
  }
  Result<CalibrationInputs> in = calibration_inputs(flags);
  if (!in.ok()) return fail_in(err, "calibrate", in.error());
  Result<Platform> base = load_with_sets(flags.get_string("preset"), {}, &err);
  if (!base.ok()) return fail_in(err, "calibrate", base.error());
  Result<CalibrationResult> result = calibrate(*base, *in);
  if (!result.ok()) return fail_in(err, "calibrate", result.error());
  if (!output.empty()) {
    if (Status s = write_preset(output, args, result->platform); !s.ok())
      return fail_in(err, "calibrate", s.error());
  }
  Table table({{"group"}, {"case"}, {"unit"}, {"measured", 5}, {"model", 5}, {"error", 3}});
  for (const Comparison& c : result->comparisons)
    table.add_row({c.group, c.name, c.unit, c.measured, c.model, c.error()});
  table.write(out, parse_output_format(flags.get_string("format")).value());
  return cli::kExitOk;
}

}  // namespace xferlab::sim
