// sim/explain.cc — attribution tables, sensitivities and the hardware verdict
// (docs/hardware.md, "Where the time goes").
#include "sim/explain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/units.h"
#include "hw_model/param_table.h"
#include "hw_model/platform.h"
#include "sim/api.h"
#include "sim/machine.h"

namespace xferlab::sim {
namespace {

bool is_software(Mechanism m) {
  return m == Mechanism::kMemcpy || m == Mechanism::kInline || m == Mechanism::kPolling ||
         m == Mechanism::kCdp;
}

// What to change when hardware loses time to a cause.
const char* remedy(Cause c) {
  switch (c) {
    case Cause::kWindowStall:
      return "the DMA window (dma_agent.outstanding_packets x channels) does not cover bandwidth x "
             "round trip; leave them auto or raise them";
    case Cause::kDescriptor:
      return "descriptor start (dma_agent.initiation, descriptor_fetch) is not hidden behind chunk "
             "time; more dma_agent.channels or larger chunks";
    case Cause::kCounterUnit:
      return "the counter unit (update rate/latency, or a full table: counter_unit.capacity) "
             "delays triggers";
    case Cause::kPacketOverhead:
      return "its packets carry more header bytes per payload (dma_agent.packet_size)";
    case Cause::kLinkSerialization:
      return "more of its bytes wait for the link (chunks start later, so less of the transfer "
             "overlaps compute)";
    case Cause::kLinkLatency: return "more path latency sits on its critical path";
    case Cause::kCompute:
      // Same data generation for every row unless polling replays its own trace; more compute
      // on the path means the transfers start later relative to it.
      return "more producer compute precedes its transfers on the critical path (chunks leave "
             "after their last write, or a kernel waits on their data); see explain --timeline";
    default: return "see `xferlab explain`";
  }
}

}  // namespace

double attribution_error(const ReplayResult& r) {
  if (r.end_to_end_ns <= 0) return 0;
  return std::fabs(r.attribution.sum_ns() - r.end_to_end_ns) / r.end_to_end_ns;
}

Table attribution_table(const std::vector<ReplayResult>& results,
                        const std::optional<Measured>& measured) {
  Table t({{"mechanism"},
           {"cause"},
           {"time_us", 6},
           {"share", 3},
           {"tail_us", 6},
           {"measured_us", 6},
           {"measured_source"}});
  for (const ReplayResult& r : results) {
    const Attribution& a = r.attribution;
    const double total = r.end_to_end_ns > 0 ? r.end_to_end_ns : 1;
    double tail = 0;
    for (size_t c = 0; c < kCauseCount; ++c) {
      if (a.ns[c] <= 0) continue;
      tail += a.tail_ns[c];
      t.add_row({std::string(mechanism_name(r.mechanism)), std::string(cause_name(Cause(c))),
                 a.ns[c] / 1000, a.ns[c] / total, a.tail_ns[c] / 1000, NAN, std::string()});
    }
    const bool is_measured = measured && measured->mechanism == r.mechanism;
    t.add_row({std::string(mechanism_name(r.mechanism)), std::string("total"), a.sum_ns() / 1000,
               a.sum_ns() / total, tail / 1000, is_measured ? measured->reference_ns() / 1000 : NAN,
               std::string(is_measured ? measured->reference_source() : "")});
  }
  return t;
}

std::string why_hardware_slower(const std::vector<ReplayResult>& results) {
  const ReplayResult* hw = nullptr;
  const ReplayResult* best = nullptr;
  for (const ReplayResult& r : results) {
    if (r.mechanism == Mechanism::kHardware) hw = &r;
    if (is_software(r.mechanism) && (!best || r.end_to_end_ns < best->end_to_end_ns)) best = &r;
  }
  if (!hw || !best || hw->end_to_end_ns <= best->end_to_end_ns) return "";
  size_t worst = 0;
  double excess = -INFINITY;
  for (size_t c = 0; c < kCauseCount; ++c) {
    const double d = hw->attribution.ns[c] - best->attribution.ns[c];
    if (d > excess) excess = d, worst = c;
  }
  const double pct = 100 * (hw->end_to_end_ns / best->end_to_end_ns - 1);
  return "hardware is " + format_number(pct, 3) + "% slower than " +
         mechanism_name(best->mechanism) + ": its critical path has " +
         format_number(excess / 1000, 4) + " us more " + cause_name(Cause(worst)) + " — " +
         remedy(Cause(worst)) + ".";
}

Result<std::vector<Sensitivity>> sensitivities(const Prepared& p, Mechanism mechanism,
                                               double base_e2e_ns, ReplayCore core, double step) {
  Result<hw_model::Platform> platform = hw_model::load_platform(p.preset);
  if (!platform.ok()) return platform.error();
  for (const std::string& kv : p.sets) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) continue;
    XF_RETURN_IF_ERROR(hw_model::set_parameter(*platform, kv.substr(0, eq), kv.substr(eq + 1)));
  }
  const hw_model::SizingRegion region = sizing_region(p.input);
  hw_model::HardwareSizing sizing;
  Result<Machine> base = load_machine(p.preset, p.sets, p.machine.num_gpus, region, &sizing);
  if (!base.ok()) return base.error();
  std::vector<Sensitivity> out;
  for (const hw_model::ParamInfo& info : hw_model::parameter_reference()) {
    if (info.key == "gpu.count") continue;  // the replay's GPU count is fixed
    Result<std::string> text = hw_model::get_parameter(*platform, info.key);
    if (!text.ok()) continue;
    const bool count = info.unit == "count";
    Unit unit = Unit::kNone;
    bool numeric = count || info.unit == "number";
    for (Unit u : {Unit::kTimeNs, Unit::kSizeBytes, Unit::kBandwidthBytesPerS, Unit::kFrequencyHz,
                   Unit::kRatePerS}) {
      if (info.unit == unit_name(u)) unit = u, numeric = true;
    }
    if (!numeric) continue;
    double v = 0;
    if (*text == "auto") {
      for (const hw_model::SizedValue* s : sizing.values()) {
        if (s->key == info.key && s->value > 0) v = static_cast<double>(s->value);
      }
    } else {
      Result<double> parsed =
          unit == Unit::kNone ? hw_model::parse_plain_number(*text) : parse_quantity(*text, unit);
      if (!parsed.ok()) continue;
      v = *parsed;
    }
    if (!(v > 0) || !std::isfinite(v)) continue;
    double nv = v * (1 + step);
    std::string nt;
    if (count) {
      nv = std::max(v + 1, std::round(nv));
      nt = std::to_string(static_cast<int64_t>(nv));
    } else {
      // Six significant digits, so the value reads "770ns", not "770.0000000000001ns"; the
      // elasticity uses the value actually set.
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", nv);
      nv = std::strtod(buf, nullptr);
      nt = unit == Unit::kNone ? hw_model::format_plain(nv) : hw_model::format_quantity(nv, unit);
    }
    std::vector<std::string> sets = p.sets;
    sets.push_back(info.key + "=" + nt);
    Result<Machine> m = load_machine(p.preset, sets, p.machine.num_gpus, region);
    if (!m.ok()) continue;  // the raised value is invalid (e.g. a ratio above 1)
    use_trace_agent(p.input, *m);
    ReplayOptions o{mechanism};
    o.core = core;
    Result<ReplayResult> r = simulate_isolated(p.input, *m, o);
    if (!r.ok()) return r.error();
    const double rel_t = (r->end_to_end_ns - base_e2e_ns) / base_e2e_ns;
    out.push_back(Sensitivity{info.key,
                              *text == "auto" ? "auto=" + hw_model::format_plain(v) : *text, nt,
                              rel_t / ((nv - v) / v), r->end_to_end_ns / 1000});
  }
  std::stable_sort(out.begin(), out.end(), [](const Sensitivity& a, const Sensitivity& b) {
    return std::fabs(a.elasticity) > std::fabs(b.elasticity);
  });
  return out;
}

}  // namespace xferlab::sim
