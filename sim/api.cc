// sim/api.cc — replay, validate and sweep (api.h); the CLI and the Python
// package are front ends over these functions.
#include "sim/api.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <variant>

#include "common/number.h"
#include "common/phase_log.h"
#include "common/units.h"
#include "sim/explain.h"
#include "sim/halo_command.h"
#include "sim/halo_trace.h"
#include "sim/isolated.h"
#include "sim/machine.h"
#include "sim/platform_choice.h"
#include "sim/proact_mechanism.h"
#include "sim/trace_adapter.h"
#include "traces/perfetto.h"
#include "traces/reader.h"

namespace xferlab::sim {

namespace {

Result<std::vector<Mechanism>> parse_mechanisms(const std::string& text) {
  if (text == "all")
    return std::vector<Mechanism>(std::begin(kAllMechanisms), std::end(kAllMechanisms));
  Result<Mechanism> m = parse_mechanism(text);
  if (!m.ok()) return m.error();
  return std::vector<Mechanism>{*m};
}

}  // namespace

std::optional<TraceGpu> trace_gpu(const std::string& gpu_model, const std::string& chosen) {
  const std::string family = gpu_family(gpu_model);
  if (family.empty()) return std::nullopt;
  std::vector<std::string> names = hw_model::list_presets();
  std::sort(names.begin(), names.end());
  if (!chosen.empty()) names.insert(names.begin(), chosen);
  for (const std::string& name : names) {
    Result<hw_model::Platform> pl = hw_model::load_platform(name);
    if (pl.ok() && gpu_family(pl->gpu.model) == family) return TraceGpu{pl->gpu, name};
  }
  return std::nullopt;
}

namespace {

// resolve_preset: the named preset, the trace's own, or the one chosen from
// its GPUs; a direct pair never silently stretched to a larger trace.
Result<std::string> resolve_preset(const std::string& trace, const ReplayInput& in,
                                   std::string preset, uint32_t gpus) {
  const TraceMachine traced{in.gpu_model, in.num_gpus, in.topology_text};
  if (preset.empty() && !in.platform_hint.empty()) preset = in.platform_hint;
  if (preset.empty()) {
    Result<PresetChoice> c = choose_preset(traced, kDefaultPreset);
    if (!c.ok()) return make_error(trace + ": " + c.error().message);
    return c->preset;
  }
  if (gpus == 0) {
    // Never stretch a 2-GPU pair to a larger run silently (--gpus N does).
    Result<hw_model::Platform> pl = hw_model::load_platform(preset);
    if (pl.ok() && pl->topology.kind == hw_model::TopologyKind::kDirectPair &&
        in.num_gpus > pl->gpu.count) {
      return make_error(trace + ": platform " + preset + " is a direct pair of " +
                        std::to_string(pl->gpu.count) + " GPUs, the trace has " +
                        std::to_string(in.num_gpus) + " (" + describe(traced) +
                        "); leave --platform out to choose a fitting preset, or pass --gpus " +
                        std::to_string(in.num_gpus) + " to scale the pair as an NVLink mesh");
    }
  }
  return preset;
}

// trace_sets: what a polling trace's agent ran with: its thread count and
// slice (the chunk when smaller); applied before the user's --set.
std::vector<std::string> trace_sets(const ReplayInput& in) {
  std::vector<std::string> sets;
  if (!in.measured || in.measured->mechanism != Mechanism::kPolling) return sets;
  if (in.agent_threads) {
    sets.push_back("software.transfer_threads=" + std::to_string(*in.agent_threads));
  }
  if (in.agent_slice_bytes > 0) {
    double chunk = 0;
    for (const IterationInput& it : in.iterations) {
      for (const KernelInput& k : it.kernels) {
        for (const ChunkInput& c : k.chunks) chunk = std::max(chunk, double(c.size_bytes));
      }
    }
    sets.push_back(
        "software.agent_slice=" +
        std::to_string(static_cast<uint64_t>(
            chunk > 0 ? std::min<double>(chunk, in.agent_slice_bytes) : in.agent_slice_bytes)) +
        "B");
  }
  return sets;
}

// apply_workload_model: the workload model (docs/scaling.md): the trace's
// compute on the preset's GPU (roofline), then the problem split over `n`
// GPUs (strong scaling); notes in p.model_note.
Status apply_workload_model(Prepared& p, const std::string& gpu_model,
                            const std::string& platform_hint, const std::vector<std::string>& sets,
                            bool strong, uint32_t n) {
  const Machine& m = p.machine;
  // The trace's own platform parameter first (generated traces name it).
  const std::optional<TraceGpu> from =
      trace_gpu(gpu_model, platform_hint.empty() ? p.preset : platform_hint);
  const bool other_gpu =
      from && (from->gpu.memory_bw_bytes_per_s != m.gpu.memory_bw_bytes_per_s ||
               from->gpu.sm_count != m.gpu.sm_count || from->gpu.clock_hz != m.gpu.clock_hz);
  if (!other_gpu && !strong) return Status::Ok();
  Result<WorkloadModel> wm = workload_model(p.input, from ? &from->gpu : nullptr);
  if (!wm.ok()) return wm.error();
  const ComputeRescale r =
      roofline_rescale(*wm, from ? &from->gpu : nullptr, from ? from->source : "", m.gpu,
                       p.preset + (sets.empty() ? "" : " with --set"));
  if (!r.line.empty() && (other_gpu || !from)) p.model_note += "note: " + r.line + "\n";
  p.input = scale_compute(std::move(p.input), r.time_factor);
  if (!strong) return Status::Ok();
  Result<ReplayInput> s = strong_scale(p.input, *wm, n, static_cast<uint32_t>(m.gpu.sm_count));
  if (!s.ok()) return s.error();
  p.input = std::move(*s);
  const double share = wm->pattern == Pattern::kBroadcast ? 1.0 : 1.0 / n;
  const double traced = wm->pattern == Pattern::kBroadcast ? 1.0 : 1.0 / wm->producers;
  p.model_note += "note: scaling: strong, " + std::string(pattern_name(wm->pattern)) + " of " +
                  format_number(wm->output_bytes / 1048576, 4) + " MiB per iteration on " +
                  std::to_string(n) + " GPUs (traced on " + std::to_string(wm->traced_gpus) +
                  "): each producer computes " + format_number(share, 4) + " of it, compute x " +
                  format_number(share / traced, 4) + " per traced producer (linear in the work" +
                  (wm->pattern == Pattern::kBroadcast
                       ? ""
                       : "; each GPU a contiguous slice of the region, its chunks as traced, "
                         "in whole waves of CTAs where the trace records them") +
                  "), every part to all " + std::to_string(n - 1) + " peers\n";
  return Status::Ok();
}

}  // namespace

void use_trace_agent(const ReplayInput& input, Machine& m) {
  if (input.measured && input.measured->trace_mechanism == "polling_tma" &&
      m.costs.tma_copy_bw_bytes_per_s > 0) {
    m.costs.polling_copy_bw_bytes_per_s = m.costs.tma_copy_bw_bytes_per_s;
    m.costs.agent_workers = m.costs.tma_agent_workers;
    m.costs.agent_slice_overhead_ns = m.costs.tma_slice_overhead_ns;
  }
}

Result<Prepared> prepare(const std::string& trace, std::string preset,
                         const std::vector<std::string>& sets, uint32_t gpus, uint64_t chunk_bytes,
                         bool measured_only, Scaling scaling,
                         std::optional<traces::TraceReader> opened) {
  Result<ReplayInput> in =
      opened ? load_replay_input(std::move(*opened)) : load_replay_input(trace);
  if (!in.ok()) return in.error();
  phase_mark("trace read and decoded");
  if (measured_only && !in->measured) {
    Prepared p;
    p.input = std::move(*in);
    p.preset = preset;
    return p;
  }
  Result<std::string> chosen = resolve_preset(trace, *in, preset, gpus);
  if (!chosen.ok()) return chosen.error();
  // Weak scaling only adds GPUs; strong scaling takes any count (1 = the
  // whole problem on one GPU).
  const bool strong = scaling == Scaling::kStrong;
  const uint32_t n = strong && gpus > 0 ? gpus : std::max(gpus, in->num_gpus);
  std::vector<std::string> all_sets = trace_sets(*in);
  all_sets.insert(all_sets.end(), sets.begin(), sets.end());
  Result<Machine> m = load_machine(*chosen, all_sets, n, sizing_region(*in, chunk_bytes));
  if (!m.ok()) return m.error();
  use_trace_agent(*in, *m);
  // What the workload's kernels move through HBM (shared with transfers).
  in->hbm_bytes_per_output_byte = traffic(in->parameters).hbm_bytes_per_output_byte;
  // The trace's GPU and platform, for the workload model below; the input
  // itself moves on (no copy).
  const std::string gpu_model = in->gpu_model, platform_hint = in->platform_hint;
  Prepared p;
  p.input = separate_data_generation(std::move(*in), *m);
  p.machine = *m;
  p.preset = *chosen;
  p.sets = all_sets;
  if (Result<hw_model::Platform> pl = hw_model::load_platform(*chosen); pl.ok()) {
    p.fitted_on = pl->fitted_on;
    // Implausible preset values (hw_model/param_table.h Plausible), printed
    // with the trace reader's warnings.
    p.input.warnings.insert(p.input.warnings.end(), pl->warnings.begin(), pl->warnings.end());
  }
  XF_RETURN_IF_ERROR(apply_workload_model(p, gpu_model, platform_hint, sets, strong, n));
  if (!strong && n > p.input.num_gpus) p.input = replicate_gpus(p.input, n);
  if (chunk_bytes > 0) {
    Result<ReplayInput> r = rechunk(p.input, chunk_bytes);
    if (!r.ok()) return r.error();
    p.input = std::move(*r);
  }
  return p;
}

namespace {

double error_pct(double sim, double measured) {
  return measured > 0 ? 100.0 * (sim - measured) / measured : NAN;
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

Table replay_table() {
  return Table({{"trace"},
                {"platform"},
                {"gpus"},
                {"mechanism"},
                {"sim_time_us", 6},
                {"exposed_us", 5},
                {"overlap", 3},
                {"link_util", 3},
                {"wire_bytes", 6},
                {"measured_us", 6},
                {"error_pct", 3},
                {"measured_source"}});
}

}  // namespace

Result<uint32_t> parse_count(const std::string& flag, const std::string& text, uint32_t max) {
  const Result<int64_t> v = parse_int(text);
  if (!v.ok() || *v < 1 || *v > int64_t{max}) {
    return make_error(flag + " '" + text + "': expected an integer 1.." + std::to_string(max));
  }
  return static_cast<uint32_t>(*v);
}

// ---- replay -----------------------------------------------------------------

namespace {

// replay_prepared: replay() of `req`, its mechanisms parsed as `mechs` and
// the rest prepared as `p` already.
Result<ReplayOutput> replay_prepared(const ReplayRequest& req, const std::vector<Mechanism>& mechs,
                                     const Prepared& p) {
  const bool unscaled = req.gpus == 0 && req.chunk_bytes == 0;
  ReplayOutput out{.table = replay_table(),
                   .note = replay_note(p.input, unscaled) + p.model_note,
                   .model_note = p.model_note,
                   .results = {},
                   .warnings = p.input.warnings,
                   .measured = std::nullopt,
                   .preset = p.preset,
                   .trace_start_ns = p.input.trace_start_ns};
  if (unscaled && p.input.num_gpus == p.machine.num_gpus) out.measured = p.input.measured;
  for (const IterationInput& it : p.input.iterations) {
    for (const KernelInput& k : it.kernels) {
      out.chunk_transfers += k.chunks.size() * proact::dests(p.machine, k).size();
    }
  }
  const bool compare = mechs.size() > 1 &&
                       std::find(mechs.begin(), mechs.end(), Mechanism::kHardware) != mechs.end();
  std::vector<ReplayOptions> options;
  for (Mechanism m : mechs) {
    options.push_back(ReplayOptions{m, req.record_timeline, req.aggregate_fan_out,
                                    req.explain || (compare && m != Mechanism::kInfinite),
                                    req.core});
  }
  // The mechanisms' simulations are independent: one process each, in parallel.
  Result<std::vector<ReplayResult>> results = std::vector<ReplayResult>();
  if (req.in_this_process && options.size() == 1) {
    Result<ReplayResult> r = simulate(p.input, p.machine, options[0]);
    if (!r.ok()) return r.error();
    results->push_back(std::move(*r));
  } else {
    results = simulate_many(p.input, p.machine, options, req.jobs > 0 ? req.jobs : default_jobs());
  }
  if (!results.ok()) return results.error();
  phase_mark("simulated (fork, wait, results: where forked)");
  for (const ReplayResult& r : *results) {
    const bool has_measured = out.measured && out.measured->mechanism == r.mechanism;
    out.table.add_row(
        {p.input.name, p.preset, static_cast<int64_t>(p.machine.num_gpus),
         std::string(mechanism_name(r.mechanism)), r.end_to_end_ns / 1000, r.exposed_ns / 1000,
         r.overlap, r.link_utilization, r.wire_bytes,
         has_measured ? out.measured->reference_ns() / 1000 : NAN,
         has_measured ? error_pct(r.end_to_end_ns, out.measured->reference_ns()) : NAN,
         std::string(has_measured ? out.measured->reference_source() : "")});
  }
  out.results = std::move(*results);
  if (std::string why = why_hardware_slower(out.results); !why.empty()) {
    out.note += "note: " + why + "\n";
  }
  return out;
}

Result<Prepared> prepare_request(const ReplayRequest& req,
                                 std::optional<traces::TraceReader> opened = std::nullopt) {
  return prepare(req.trace, req.platform, req.sets, req.gpus, req.chunk_bytes, false, req.scaling,
                 std::move(opened));
}

}  // namespace

Result<ReplayOutput> replay(const ReplayRequest& req, std::optional<traces::TraceReader> opened) {
  Result<std::vector<Mechanism>> mechs = parse_mechanisms(req.mechanism);
  if (!mechs.ok()) return mechs.error();
  Result<Prepared> p = prepare_request(req, std::move(opened));
  if (!p.ok()) return p.error();
  phase_mark("preset, machine and workload model");
  return replay_prepared(req, *mechs, *p);
}

Status write_timeline(std::ostream& os, const std::string& trace, const ReplayOutput& output,
                      bool with_measured) {
  Result<traces::TraceReader> reader = traces::TraceReader::open(trace);
  if (!reader.ok()) return reader.error();
  traces::TimelineInfo info = traces::timeline_info(*reader);
  info.platform = output.preset;
  double sim_offset_ns = 0;
  if (with_measured) {
    sim_offset_ns = static_cast<double>(
        static_cast<int64_t>(output.trace_start_ns - traces::timeline_origin_ns(*reader)));
    info.time_origin += "; simulated time 0 = the trace's first producer-kernel begin, at " +
                        std::to_string(static_cast<int64_t>(sim_offset_ns)) + " ns";
  } else {
    info.time_origin = "the replay's time 0: the trace's first producer-kernel begin";
  }
  traces::TimelineWriter writer(os, info);
  if (with_measured) {
    XF_RETURN_IF_ERROR(
        traces::write_measured_tracks(*reader, writer, writer.add_group(traces::kMeasuredGroup)));
  }
  for (const ReplayResult& r : output.results) {
    const uint32_t group =
        writer.add_group(std::string("simulated ") + mechanism_name(r.mechanism));
    for (const Span& s : r.timeline) {
      writer.slice(writer.gpu_track(group, s.gpu, s.track, s.index), sim_offset_ns + s.start_ns,
                   s.duration_ns, s.name, s.category);
    }
  }
  return writer.finish();
}

// ---- validate ---------------------------------------------------------------

std::string default_real_trace_dir() {
  if (const char* env = std::getenv("XFERLAB_REAL_TRACES")) return env;
  std::error_code ec;
  if (std::filesystem::is_directory(kDefaultRealTraceDir, ec)) return kDefaultRealTraceDir;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed =
        exe.parent_path().parent_path() / "share" / "xferlab" / "traces" / "real";
    if (std::filesystem::is_directory(installed, ec)) return installed.string();
  }
  return kDefaultRealTraceDir;
}

namespace {

// skip_reason: why a found trace is not a validation case: not a
// producer/transfer trace (halo exchange, benchmarks), a mechanism the engine
// does not model (proact's "um"), or an agent run traced after a host gap.
std::optional<std::string> skip_reason(const Result<Prepared>& p, bool named, bool all_captures) {
  if (!p.ok() || !p->input.measured) {
    // An overflowed recorder is named as such, not as "not a proact trace".
    const std::string msg = p.ok() ? std::string() : p.error().message;
    const size_t lost = msg.find("the trace lost ");
    return p.ok() ? "no replayable measured mechanism"
           : lost != std::string::npos
               ? msg.substr(lost, msg.size() - lost - kNoProducerKernels.size() - 2)
               : "no producer kernels (not a proact trace)";
  }
  if (p->input.measured->traced_after_gap && !named && !all_captures) {
    return "agent run traced after a host gap, not a sample of the untraced median "
           "(--captures all includes it)";
  }
  return std::nullopt;
}

// sibling_data: inline traces carry their own link stalls in the kernel
// timeline (and their tracing slows the stores); replay the compute-only
// sibling's data generation instead, when one of the same configuration is
// committed. Returns the data's source ("self" or the sibling's file name).
std::string sibling_data(const std::string& t, const ValidateRequest& req, Prepared& p) {
  std::optional<std::string> sib = compute_only_sibling(t);
  if (!sib) return "self";
  Result<Prepared> q = prepare(*sib, req.platform, req.sets, 0, 0);
  if (!q.ok() || !q->input.measured || q->input.measured->truncated ||
      p.input.measured->truncated) {
    return "self";
  }
  q->input.measured = p.input.measured;
  q->input.name = p.input.name;
  p = std::move(*q);
  return std::filesystem::path(*sib).filename().string();
}

// validate_case: one trace of `validate`, run in its own process; the outcome
// as CBOR: {error, usage} | {halo} (replayed later by validate_halo) |
// {skip: reason} | {warnings, unverified, row} (row: encode_rows, see
// account_case).
std::string validate_case(const std::string& t, bool named, const ValidateRequest& req,
                          const Table& columns) {
  auto done = [](const nlohmann::json& j) {
    const std::vector<uint8_t> bytes = nlohmann::json::to_cbor(j);
    return std::string(bytes.begin(), bytes.end());
  };
  auto failed = [&](const Error& e) { return done({{"error", e.message}, {"usage", e.usage}}); };
  ReplayTrace opened = open_replay_trace(t);
  if (opened.halo) return done({{"halo", true}});
  Result<Prepared> p =
      prepare(t, req.platform, req.sets, 0, 0, true, kDefaultScaling, std::move(opened.reader));
  if (!p.ok() && (named || !p.error().message.ends_with(kNoProducerKernels))) {
    return failed(p.error());
  }
  if (std::optional<std::string> why = skip_reason(p, named, req.all_captures)) {
    return done({{"skip", *why}});
  }
  size_t unverified = 0;
  std::vector<std::string> warnings;
  for (const std::string& w : p->input.warnings) {
    if (w.find("has no block checksums") != std::string::npos) {
      ++unverified;
    } else {
      warnings.push_back(w);
    }
  }
  const Mechanism m = p->input.measured->mechanism;
  const std::string data_from = m == Mechanism::kInline ? sibling_data(t, req, *p) : "self";
  ReplayOptions options{m, false};
  options.core = req.core;
  Result<ReplayResult> r = simulate_isolated(p->input, p->machine, options);
  if (!r.ok()) return failed(r.error());
  const Measured& meas = *p->input.measured;
  const double e = error_pct(r->end_to_end_ns, meas.reference_ns());
  // Compute-only traces check the data-generation timeline; the others a
  // transfer mechanism's model too: summarized separately, and apart for
  // cases in and out of the preset's fitting set (account_case).
  const bool transfer = m != Mechanism::kInfinite;
  const std::string sample = in_sample(p->fitted_on, t) ? "in-sample" : "held-out";
  const double comm_e =
      transfer && meas.host_median_ns > 0
          ? comm_error_pct(r->end_to_end_ns, meas.host_median_ns, meas.compute_only_median_ns)
          : NAN;
  const std::string variant =
      meas.trace_mechanism.empty() ? mechanism_name(m) : meas.trace_mechanism;
  Table row(columns.columns());
  row.add_row({p->input.name, p->preset, variant,
               std::string(transfer ? "transfer" : "compute-only"), meas.reference_ns() / 1000,
               std::string(meas.reference_source()), meas.end_to_end_ns / 1000,
               r->end_to_end_ns / 1000, e, comm_e, sample,
               std::string(std::fabs(e) <= req.tolerance_pct ? "yes" : "no"), data_from, t,
               meas.host_median_ns > 0 ? meas.host_median_source : std::string()});
  const std::string rows = encode_rows(row);
  return done({{"warnings", warnings},
               {"unverified", unverified},
               {"row", nlohmann::json::binary(std::vector<uint8_t>(rows.begin(), rows.end()))}});
}

// account_case: a replayed case's row (validate_case) into the table, the
// error lists and the summaries.
void account_case(ValidateOutput& out, const Table& row, double tolerance_pct) {
  const std::vector<Table::Cell>& cells = row.rows().at(0);
  auto cell = [&](std::string_view name) -> const Table::Cell& {
    const auto& cols = row.columns();
    return cells.at(std::find_if(cols.begin(), cols.end(),
                                 [&](const Table::Column& c) { return c.name == name; }) -
                    cols.begin());
  };
  const double ae = std::fabs(std::get<double>(cell("error_pct")));
  const double comm_ae = std::fabs(std::get<double>(cell("comm_error_pct")));
  const bool transfer = std::get<std::string>(cell("kind")) == "transfer";
  const std::string& sample = std::get<std::string>(cell("sample"));
  out.abs_error_pct.push_back(ae);
  if (transfer) out.transfer_abs_error_pct.push_back(ae);
  if (ae > tolerance_pct) ++out.beyond_tolerance;
  out.summaries.add("all", ae);
  out.summaries.add(transfer ? "transfer mechanisms" : "compute-only (none/track)", ae);
  if (transfer) {
    out.summaries.add("transfer mechanisms, " + sample, ae);
    out.summaries.add("communication-only, transfer mechanisms", comm_ae);
    out.summaries.add("communication-only, " + sample, comm_ae);
  }
  const std::string& mechanism = std::get<std::string>(cell("mechanism"));
  out.summaries.add("mechanism " + mechanism, ae);
  // The same per platform: targets are per machine (docs/validation.md).
  const std::string platform = "platform " + std::get<std::string>(cell("platform")) + ", ";
  out.summaries.add(platform + (transfer ? "transfer mechanisms" : "compute-only (none/track)"),
                    ae);
  if (transfer) {
    out.summaries.add(platform + "transfer mechanisms, " + sample, ae);
    out.summaries.add(platform + "communication-only, transfer mechanisms", comm_ae);
    out.summaries.add(platform + "mechanism " + mechanism, ae);
  }
  out.table.add_row(cells);
}

}  // namespace

namespace {

// ValidateTrace: a trace to validate; `named` ones (given as files) must be
// replayable, found ones may be other programs' traces and are skipped.
struct ValidateTrace {
  std::string path;
  bool named = false;
};

// validate_traces: the request's files, the traces in its directories, or
// (neither) those under --dir / the committed real traces.
Result<std::vector<ValidateTrace>> validate_traces(const ValidateRequest& req) {
  std::vector<ValidateTrace> traces;
  for (const std::string& t : req.paths) {
    if (std::filesystem::is_directory(t)) {
      for (std::string& f : find_traces(t)) traces.push_back({std::move(f), false});
    } else {
      traces.push_back({t, true});
    }
  }
  if (traces.empty() && !req.paths.empty()) {
    return make_error("validate: no trace files (*.xft, *.xftrace, *.zst) in " + req.paths[0]);
  }
  if (traces.empty()) {
    const std::string dir = !req.dir.empty() ? req.dir : default_real_trace_dir();
    for (std::string& f : find_traces(dir)) traces.push_back({std::move(f), false});
    if (traces.empty()) {
      return make_error("validate: no real traces (*.xft, *.xftrace, *.zst) found in " + dir +
                        "; pass TRACES or --dir");
    }
  }
  return traces;
}

Table validate_table() {
  return Table({{"trace"},
                {"platform"},
                {"mechanism"},
                {"kind"},
                {"measured_us", 6},
                {"measured_source"},
                {"traced_span_us", 6},
                {"sim_us", 6},
                {"error_pct", 3},
                {"comm_error_pct", 3},
                {"sample"},
                {"within_tolerance"},
                {"data_from"},
                {"file"},
                {"measured_csv"}});
}

// CaseOutcomes: validate's outcomes, applied in trace order (one case's
// result from its process: a row, a skip, a halo trace or an error).
struct CaseOutcomes {
  ValidateOutput& out;
  double tolerance_pct;
  std::map<std::string, std::pair<size_t, std::string>> skipped;  // reason -> count, example
  size_t unverified = 0;          // format 1.x traces (no block checksums)
  std::vector<std::string> halo;  // replayed by validate_halo after the cases

  Status apply(const ValidateTrace& t, const std::string& bytes) {
    const nlohmann::json c = nlohmann::json::from_cbor(bytes, true, false);
    if (c.is_discarded()) return make_runtime_error("validate: corrupt case result");
    if (c.contains("error")) return Error{c["error"], c["usage"]};
    if (c.contains("halo")) {
      halo.push_back(t.path);
    } else if (c.contains("skip")) {
      if (t.named) {
        out.skipped.push_back("skipped " + t.path + ": " + c["skip"].get<std::string>());
      } else {
        auto& [n, example] = skipped[c["skip"]];
        if (n++ == 0) example = t.path;
      }
    } else {
      unverified += c["unverified"].get<size_t>();
      for (const auto& w : c["warnings"]) out.warnings.push_back(w);
      Table row(out.table.columns());
      const auto& bin = c["row"].get_binary();
      XF_RETURN_IF_ERROR(append_rows(row, std::string(bin.begin(), bin.end())));
      account_case(out, row, tolerance_pct);
    }
    return Status::Ok();
  }

  // finish: the halo cases, then one line per skip reason and unverified files.
  Status finish() {
    if (!halo.empty()) {
      Result<HaloValidation> h = validate_halo(halo, tolerance_pct);
      if (!h.ok()) return h.error();
      out.halo_table = std::move(h->table);
      for (const auto& [group, ae] : h->cases) {
        out.abs_error_pct.push_back(ae);
        out.summaries.add("all", ae);
        out.summaries.add(group, ae);
      }
      out.beyond_tolerance += h->beyond_tolerance;
      out.halo_bound = std::move(h->bound);
    }
    for (const auto& [why, ne] : skipped) {
      out.skipped.push_back("skipped " + std::to_string(ne.first) + " trace(s): " + why +
                            " (e.g. " + ne.second + ")");
    }
    if (unverified > 0) {
      out.warnings.push_back("validate: " + std::to_string(unverified) +
                             " trace(s) in format 1.x have no block checksums; their events "
                             "cannot be verified");
    }
    return Status::Ok();
  }
};

}  // namespace

Result<ValidateOutput> validate(const ValidateRequest& req) {
  Result<std::vector<ValidateTrace>> traces = validate_traces(req);
  if (!traces.ok()) return traces.error();
  ValidateOutput out{.table = validate_table(),
                     .skipped = {},
                     .abs_error_pct = {},
                     .transfer_abs_error_pct = {},
                     .beyond_tolerance = 0,
                     .summaries = {},
                     .warnings = {},
                     .halo_table = std::nullopt,
                     .halo_bound = {}};
  CaseOutcomes outcomes{
      .out = out, .tolerance_pct = req.tolerance_pct, .skipped = {}, .unverified = 0, .halo = {}};
  // Each trace is read and replayed in its own process, `jobs` at once; the
  // outcomes are applied in trace order, so the output does not depend on jobs.
  const Table columns = out.table;
  const size_t n = traces->size();
  Status s = run_isolated_in_order(
      n, req.jobs > 0 ? req.jobs : default_jobs(),
      [&](size_t ti) {
        return validate_case((*traces)[ti].path, (*traces)[ti].named, req, columns);
      },
      [&](size_t ti, Result<std::string> bytes) -> Status {
        if (req.progress) req.progress(ti, n);
        if (!bytes.ok()) return bytes.error();
        return outcomes.apply((*traces)[ti], *bytes);
      },
      "validate: case");
  if (!s.ok()) return s.error();
  XF_RETURN_IF_ERROR(outcomes.finish());
  if (req.progress) req.progress(n, n);
  if (out.abs_error_pct.empty()) {
    // The skip reasons would be lost with the result: the first one says why
    // (a trace that lost events names the capacity to re-record with).
    std::string why = out.skipped.empty() ? "" : "; " + out.skipped.front();
    if (out.skipped.size() > 1) why += " (and " + std::to_string(out.skipped.size() - 1) + " more)";
    return make_error("validate: no trace had a replayable mechanism" + why);
  }
  return out;
}

std::string validate_summary(const ValidateOutput& output, double tolerance_pct) {
  if (output.abs_error_pct.empty()) return "";
  std::ostringstream os;
  os << "summaries (|error| vs the measured time; communication-only: vs measured minus the\n"
        "`none` time of the same configuration; in-sample: the preset was fitted on it; "
        "tolerance "
     << format_number(tolerance_pct, 3) << "%):\n";
  output.summaries.write(os, tolerance_pct);
  os << output.halo_bound;
  return os.str();
}

// ---- sweep ------------------------------------------------------------------

Result<SweepParam> parse_sweep_param(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == 0 || eq == std::string::npos || eq + 1 >= text.size()) {
    return make_error("--param '" + text + "': expected key=v1,v2,...");
  }
  SweepParam sp{text.substr(0, eq), {}};
  std::stringstream ss(text.substr(eq + 1));
  for (std::string v; std::getline(ss, v, ',');) {
    if (v.empty()) return make_error("--param '" + text + "': empty value");
    sp.values.push_back(v);
  }
  return sp;
}

std::pair<size_t, size_t> sweep_shard(size_t points, uint32_t index, uint32_t count) {
  const size_t base = points / count, extra = points % count;
  const size_t begin = index * base + std::min<size_t>(index, extra);
  return {begin, begin + base + (index < extra ? 1 : 0)};
}

std::string encode_rows(const Table& table) {
  nlohmann::json rows = nlohmann::json::array();
  for (const std::vector<Table::Cell>& row : table.rows()) {
    nlohmann::json r = nlohmann::json::array();
    for (const Table::Cell& c : row) {
      // [type, value]: NaN survives CBOR as a double, a type tag keeps
      // integers apart from whole doubles.
      if (const auto* s = std::get_if<std::string>(&c)) r.push_back({0, *s});
      if (const auto* d = std::get_if<double>(&c)) r.push_back({1, *d});
      if (const auto* i = std::get_if<int64_t>(&c)) r.push_back({2, *i});
    }
    rows.push_back(std::move(r));
  }
  const std::vector<uint8_t> bytes = nlohmann::json::to_cbor(rows);
  return std::string(bytes.begin(), bytes.end());
}

Status append_rows(Table& table, const std::string& bytes) {
  const nlohmann::json rows = nlohmann::json::from_cbor(bytes, true, false);
  if (rows.is_discarded() || !rows.is_array()) return make_runtime_error("corrupt table rows");
  for (const nlohmann::json& r : rows) {
    if (!r.is_array() || r.size() != table.columns().size()) {
      return make_runtime_error("table rows do not match the columns");
    }
    std::vector<Table::Cell> cells;
    for (const nlohmann::json& c : r) {
      switch (c.at(0).get<int>()) {
        case 0: cells.emplace_back(c.at(1).get<std::string>()); break;
        case 1: cells.emplace_back(c.at(1).get<double>()); break;
        default: cells.emplace_back(c.at(1).get<int64_t>()); break;
      }
    }
    table.add_row(std::move(cells));
  }
  return Status::Ok();
}

namespace {

// sweep_grid: every combination of the parameters' values, the first
// parameter varying slowest.
std::vector<std::vector<std::string>> sweep_grid(const std::vector<SweepParam>& params) {
  std::vector<std::vector<std::string>> points{{}};
  for (const SweepParam& p : params) {
    std::vector<std::vector<std::string>> next;
    for (const auto& pt : points) {
      for (const std::string& v : p.values) {
        next.push_back(pt);
        next.back().push_back(v);
      }
    }
    points = std::move(next);
  }
  return points;
}

// point_request: one grid point as a replay request, checked without
// simulating (trace, preset, every key and value), so a bad grid fails with
// one line instead of one per point.
Result<ReplayRequest> point_request(const SweepRequest& req, const std::vector<std::string>& pt) {
  ReplayRequest r;
  r.trace = req.trace;
  r.platform = req.platform;
  r.mechanism = req.mechanism;
  r.sets = req.sets;
  r.scaling = req.scaling;
  r.jobs = 1;                // points run in parallel already
  r.in_this_process = true;  // each point in a process of its own already
  for (size_t i = 0; i < req.params.size(); ++i) {
    const std::string& key = req.params[i].key;
    if (key == "gpus") {
      Result<uint32_t> g = parse_count("gpus", pt[i], kMaxGpus);
      if (!g.ok()) return g.error();
      r.gpus = *g;
    } else if (key == "chunk_size") {
      Result<double> c = parse_quantity(pt[i], Unit::kSizeBytes);
      if (!c.ok() || *c < 1) return make_error("--param chunk_size: '" + pt[i] + "' is not a size");
      r.chunk_bytes = static_cast<uint64_t>(*c);
    } else {
      r.sets.push_back(key + "=" + pt[i]);
    }
  }
  if (Result<Prepared> p = prepare_request(r); !p.ok()) return p.error();
  return r;
}

// halo_point_request: one grid point of a halo / GDA trace as a halo replay
// request, checked without replaying (as point_request).
Result<HaloReplayRequest> halo_point_request(const SweepRequest& req,
                                             const std::vector<std::string>& pt) {
  HaloReplayRequest r = req.halo;
  r.trace = req.trace;
  if (!req.platform.empty()) r.platform = req.platform;
  r.sets = req.sets;
  r.wall_time = false;
  for (size_t i = 0; i < req.params.size(); ++i) {
    const std::string& key = req.params[i].key;
    if (key == "ranks" || key == "ranks_per_node") {
      Result<uint32_t> n = parse_count("--param " + key, pt[i], kMaxHaloRanks);
      if (!n.ok()) return n.error();
      if (key == "ranks") r.ranks = {static_cast<int>(*n)};
      if (key == "ranks_per_node") r.ranks_per_node = static_cast<int>(*n);
    } else {
      r.sets.push_back(key + "=" + pt[i]);
    }
  }
  XF_RETURN_IF_ERROR(check_halo_request(r));
  return r;
}

// sweep_refusal: the first PROACT-only option of a halo trace's sweep,
// or (not `halo`) the first halo option given for a PROACT trace; "" if none.
std::string sweep_refusal(const SweepRequest& req, bool halo) {
  if (!halo) {
    const HaloReplayRequest d;
    if (req.halo.model != d.model) return "--model applies to halo / GDA traces only";
    if (req.halo.mode != d.mode) return "--mode applies to halo / GDA traces only";
    if (req.halo.variant != d.variant) return "--variant applies to halo / GDA traces only";
    return "";
  }
  for (const SweepParam& p : req.params) {
    if (p.key == "chunk_size" || p.key == "gpus") {
      return "--param " + p.key +
             ": a halo / GDA trace sweeps platform keys, ranks and ranks_per_node (its "
             "replay has no " +
             (p.key == "gpus" ? "GPU count; use ranks)" : "chunks)");
    }
  }
  if (req.mechanism != "all") {
    return "--mechanism: a halo / GDA trace replays its own variants, not PROACT mechanisms "
           "(--variant, --mode)";
  }
  return "";
}

// run_points: the shard's points of `points`, one child process each (SimGrid:
// one engine per process; a PROACT point's mechanisms run in grandchildren),
// at most `jobs` at once, collected in grid order so the table is the same
// for any `jobs`: each row of work(point) (columns `row_columns`) after the
// point's values. A point that fails is counted, not fatal.
Result<SweepOutput> run_points(const SweepRequest& req,
                               const std::vector<std::vector<std::string>>& points,
                               const Table& row_columns,
                               const std::function<Result<Table>(size_t)>& work,
                               const std::function<void(size_t)>& before_fork = nullptr) {
  std::vector<Table::Column> columns;
  for (const SweepParam& p : req.params) columns.push_back({p.key});
  columns.insert(columns.end(), row_columns.columns().begin(), row_columns.columns().end());
  const auto [begin, end] = sweep_shard(points.size(), req.shard_index, req.shard_count);
  SweepOutput out{Table(columns), false, end - begin, 0, ""};
  if (req.progress) req.progress(0, out.points);
  Status s = run_isolated_in_order(
      end - begin, req.jobs,
      [&](size_t k) {
        Result<Table> t = work(begin + k);
        return t.ok() ? "T" + encode_rows(*t) : "E" + t.error().message;
      },
      [&](size_t k, Result<std::string> bytes) -> Status {
        if (req.progress) req.progress(k + 1, out.points);
        if (!bytes.ok() || bytes->front() == 'E') {
          if (out.failed_points++ == 0)
            out.first_failure = bytes.ok() ? bytes->substr(1) : bytes.error().message;
          return Status::Ok();
        }
        Table rows(row_columns.columns());
        XF_RETURN_IF_ERROR(append_rows(rows, bytes->substr(1)));
        for (const std::vector<Table::Cell>& row : rows.rows()) {
          std::vector<Table::Cell> cells(points[begin + k].begin(), points[begin + k].end());
          cells.insert(cells.end(), row.begin(), row.end());
          out.table.add_row(std::move(cells));
        }
        return Status::Ok();
      },
      "sweep: point",
      before_fork ? [&](size_t k) { before_fork(begin + k); } : std::function<void(size_t)>());
  if (!s.ok()) return s.error();
  return out;
}

// halo_sweep: a halo / GDA trace's grid, each point a halo replay.
Result<SweepOutput> halo_sweep(const SweepRequest& req,
                               const std::vector<std::vector<std::string>>& points) {
  std::vector<HaloReplayRequest> requests;
  for (const auto& pt : points) {
    Result<HaloReplayRequest> r = halo_point_request(req, pt);
    if (!r.ok()) return r.error();
    requests.push_back(std::move(*r));
  }
  Result<SweepOutput> out =
      run_points(req, points, halo_replay_table(false), [&](size_t i) -> Result<Table> {
        Result<HaloReplayOutput> o = halo_replay(requests[i]);
        if (!o.ok()) return o.error();
        return std::move(o->table);
      });
  if (out.ok()) out->halo = true;
  return out;
}

}  // namespace

Result<SweepOutput> sweep(const SweepRequest& req) {
  if (req.params.empty()) return make_error("sweep: give at least one --param key=v1,v2");
  if (req.shard_count == 0 || req.shard_index >= req.shard_count) {
    return make_error("sweep: shard " + std::to_string(req.shard_index) + " of " +
                      std::to_string(req.shard_count) + " does not exist");
  }
  const bool halo = open_replay_trace(req.trace).halo;
  if (const std::string why = sweep_refusal(req, halo); !why.empty()) {
    return make_error("sweep: " + why);
  }
  const std::vector<std::vector<std::string>> points = sweep_grid(req.params);
  if (halo) return halo_sweep(req, points);
  if (Result<std::vector<Mechanism>> m = parse_mechanisms(req.mechanism); !m.ok()) {
    return m.error();
  }
  std::vector<ReplayRequest> requests;
  for (const auto& pt : points) {
    Result<ReplayRequest> r = point_request(req, pt);
    if (!r.ok()) return r.error();
    requests.push_back(std::move(*r));
  }
  // Each point is prepared here, just before its fork, and its process
  // replays what it inherits: a forked process pays a page fault for every
  // page it writes, so preparing a point there cost about three times as
  // much. Only the latest point's preparation is held, so forks stay small
  // (docs/performance.md, Cut 16).
  std::optional<Result<Prepared>> prepared;
  return run_points(
      req, points, replay_table(),
      [&](size_t i) -> Result<Table> {
        Result<std::vector<Mechanism>> mechs = parse_mechanisms(requests[i].mechanism);
        if (!mechs.ok()) return mechs.error();
        if (!prepared->ok()) return prepared->error();
        Result<ReplayOutput> o = replay_prepared(requests[i], *mechs, **prepared);
        if (!o.ok()) return o.error();
        return std::move(o->table);
      },
      [&](size_t i) {
        prepared.reset();  // its pages are reused, not faulted in anew
        prepared = prepare_request(requests[i]);
      });
}

}  // namespace xferlab::sim
