// hw_model/calibrate.cc — fitting presets to measurements (docs/calibration.md).
#include "hw_model/calibrate.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include "common/number.h"
#include "hw_model/dma_agent.h"
#include "hw_model/notification.h"
#include "hw_model/software_mechanisms.h"

namespace xferlab::hw_model {
namespace {

// ---------------------------------------------------------------- fitting

// A candidate must beat the incumbent by this much (relative and absolute, in
// summed squared log errors) so that rounding noise never flips a tie.
constexpr double kRelTie = 1e-9;
constexpr double kAbsTie = 1e-10;
bool better(double candidate, double incumbent) {
  return candidate < incumbent * (1 - kRelTie) - kAbsTie;
}

bool is_read(const LinkBenchRow& r) {
  return r.test == "sm_read" || r.test == "ce_read";
}
bool is_ce(const LinkBenchRow& r) {
  return r.test.rfind("ce_", 0) == 0;
}

// golden: minimum of f on [lo, hi] after a coarse scan (f need not be unimodal
// over the whole range: flat regions of rate limits defeat plain golden search).
double scan_then_golden(const std::function<double(double)>& f, double lo, double hi) {
  constexpr int kScan = 40;
  double best_x = lo, best = f(lo);
  for (int i = 1; i <= kScan; ++i) {
    double x = lo + (hi - lo) * i / kScan;
    double v = f(x);
    if (better(v, best)) best = v, best_x = x;
  }
  double step = (hi - lo) / kScan;
  double a = std::max(lo, best_x - step), b = std::min(hi, best_x + step);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = f(c), fd = f(d);
  for (int i = 0; i < 40; ++i) {
    if (fc < fd) {
      b = d, d = c, fd = fc, c = b - g * (b - a), fc = f(c);
    } else {
      a = c, c = d, fc = fd, d = a + g * (b - a), fd = f(d);
    }
  }
  double x = fc < fd ? c : d;
  return better(std::min(fc, fd), best) ? x : best_x;
}

struct LinkObjective {
  int64_t links;
  const CoalescingConfig& coalescing;
  std::span<const LinkBenchRow> rows;

  double operator()(const LinkFormat& f) const {
    Result<LinkModel> m = LinkModel::create(f);
    if (!m.ok()) return std::numeric_limits<double>::infinity();
    double sum = 0;
    for (const LinkBenchRow& r : rows) {
      double e = std::log(predict_link_bw_bytes_per_s(*m, links, coalescing, r) /
                          r.payload_bw_bytes_per_s);
      sum += e * e;
    }
    return sum;
  }
};

// fit_rate: a rate field, either unlimited (0) or fitted on a log scale.
double fit_rate(LinkFormat& f, double LinkFormat::*field, const LinkObjective& cost) {
  LinkFormat t = f;
  t.*field = 0;
  double unlimited = cost(t);
  double x = scan_then_golden(
      [&](double lg) {
        t.*field = std::pow(10.0, lg);
        return cost(t);
      },
      6.0, 11.0);
  t.*field = std::pow(10.0, x);
  double limited = cost(t);
  f.*field = better(limited, unlimited) ? t.*field : 0;
  return std::min(limited, unlimited);
}

double fit_continuous(LinkFormat& f, const LinkObjective& cost, int rounds) {
  double best = cost(f);
  for (int round = 0; round < rounds; ++round) {
    LinkFormat t = f;
    double eff = scan_then_golden(
        [&](double e) {
          t.link_efficiency = e;
          return cost(t);
        },
        0.5, 1.0);
    t.link_efficiency = eff;
    if (better(cost(t), best)) f = t, best = cost(t);
    best = std::min(best, fit_rate(f, &LinkFormat::max_packets_per_s, cost));
    if (f.partial_line_bytes > 0)
      best = std::min(best, fit_rate(f, &LinkFormat::partial_line_writes_per_s, cost));
  }
  return cost(f);
}

// conditional_se: LinkFit's standard error of `field` at the fitted `f`;
// `limit` bounds the upward search (link_efficiency <= 1).
double conditional_se(const LinkFormat& f, double LinkFormat::*field, const LinkObjective& cost,
                      double variance, double limit) {
  const double x0 = f.*field;
  if (!(x0 > 0) || !(variance > 0)) return 0;
  const double c0 = cost(f);
  double se = 0;
  for (const double far : {x0 / 2, std::min(2 * x0, limit)}) {
    LinkFormat t = f;
    auto rise = [&](double x) {
      t.*field = x;
      return cost(t) - c0;
    };
    if (far == x0 || !(rise(far) >= variance)) continue;  // unconstrained this way
    double near = x0, out = far;                          // rise(near) < variance <= rise(out)
    for (int i = 0; i < 60; ++i) {
      const double mid = (near + out) / 2;
      (rise(mid) < variance ? near : out) = mid;
    }
    se = std::max(se, std::fabs(out - x0));
  }
  return se;
}

// link_fit_errors: LinkFit's standard errors of the continuous values at the
// fit (six discrete values and two or three continuous ones were fitted).
void link_fit_errors(const LinkObjective& cost, double best_cost, LinkFit& fit) {
  const LinkFormat& best = fit.format;
  const int fitted = 6 + 2 + (best.partial_line_bytes > 0 ? 1 : 0);
  const int rows = static_cast<int>(fit.rows);
  if (rows <= fitted) return;
  const double variance = best_cost / static_cast<double>(rows - fitted);
  const double inf = std::numeric_limits<double>::infinity();
  fit.link_efficiency_se = conditional_se(best, &LinkFormat::link_efficiency, cost, variance, 1);
  fit.max_packets_per_s_se =
      conditional_se(best, &LinkFormat::max_packets_per_s, cost, variance, inf);
  fit.partial_line_writes_per_s_se =
      conditional_se(best, &LinkFormat::partial_line_writes_per_s, cost, variance, inf);
}

// ---------------------------------------------------------------- helpers

std::string size_name(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (bytes >= 1024 && u < 3 && std::fmod(bytes, 1024) == 0) bytes /= 1024, ++u;
  return std::to_string(static_cast<int64_t>(bytes)) + " " + units[u];
}

// LineFit: y = a + b x and the standard errors of a and b.
struct LineFit {
  double a = 0, b = 0, a_se = 0, b_se = 0;
};
// fit_line_relative: least squares on relative errors (weights 1/y²) over
// (x, y) points (>= 2); standard errors from the residual variance x
// (X'WX)^-1 (0 with two points).
LineFit fit_line_relative(const std::vector<std::pair<double, double>>& points) {
  double s11 = 0, s12 = 0, s22 = 0, b1 = 0, b2 = 0;
  for (const auto& [x, y] : points) {
    const double w = 1 / (y * y);
    s11 += w, s12 += w * x, s22 += w * x * x;
    b1 += w * y, b2 += w * x * y;
  }
  const double det = s11 * s22 - s12 * s12;
  LineFit f;
  f.a = (b1 * s22 - b2 * s12) / det;
  f.b = (s11 * b2 - s12 * b1) / det;
  const size_t n = points.size();
  if (n > 2) {
    double rss = 0;
    for (const auto& [x, y] : points) {
      const double e = y - f.a - f.b * x;
      rss += e * e / (y * y);
    }
    const double variance = rss / static_cast<double>(n - 2);
    f.a_se = std::sqrt(variance * s22 / det);
    f.b_se = std::sqrt(variance * s11 / det);
  }
  return f;
}

// mean_and_se: the mean of `xs` and its standard error (0 for one value).
std::pair<double, double> mean_and_se(const std::vector<double>& xs) {
  double sum = 0;
  for (double x : xs) sum += x;
  const double n = static_cast<double>(xs.size()), mean = sum / n;
  if (xs.size() < 2) return {mean, 0};
  double ss = 0;
  for (double x : xs) ss += (x - mean) * (x - mean);
  return {mean, std::sqrt(ss / (n - 1) / n)};
}

const NotifyBenchRow* find_notify(std::span<const NotifyBenchRow> rows, std::string_view test,
                                  std::string_view variant) {
  for (const NotifyBenchRow& r : rows)
    if (r.test == test && r.variant == variant) return &r;
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------- link model

double predict_link_bw_bytes_per_s(const LinkModel& link, int64_t links,
                                   const CoalescingConfig& coalescing, const LinkBenchRow& r) {
  const bool read = is_read(r);
  WireBytes w;
  if (is_ce(r)) {
    w = link.transfer(read ? LinkOp::kRead : LinkOp::kWrite, r.accesses, r.write_bytes,
                      Pattern::kScattered);  // each copy is contiguous; copies are separate
  } else if (r.pattern == "contiguous") {
    // A warp's contiguous access: one packet per touched line.
    double packet = std::min(static_cast<double>(coalescing.warp_threads) * r.write_bytes,
                             coalescing.line_bytes);
    double packets = r.payload_bytes / packet;
    w = read ? link.reads(packets, packet, Pattern::kScattered)
             : link.stores(packets, packet,
                           std::fmod(packet, link.format().full_write_granule_bytes) != 0);
  } else {
    w = read ? link.reads(r.accesses, std::max(r.write_bytes, coalescing.sector_bytes),
                          Pattern::kScattered)
             : link.writes(r.accesses, r.write_bytes, Pattern::kScattered);
  }
  LinkTime t = link.time(w, links);
  return t.transfer_ns > 0 ? r.payload_bytes / t.transfer_ns * 1e9 : 0;
}

Result<LinkFit> fit_link_format(const LinkFormat& base, int64_t links,
                                const CoalescingConfig& coalescing,
                                std::span<const LinkBenchRow> all_rows) {
  std::vector<LinkBenchRow> rows;
  for (const LinkBenchRow& r : all_rows) {
    bool sm = (r.test == "sm_write" || r.test == "sm_read") &&
              (r.pattern == "contiguous" || r.pattern == "scattered");
    bool bulk_ce = is_ce(r) && r.write_bytes >= 256.0 * 1024 * 1024;
    if (sm || bulk_ce) rows.push_back(r);
  }
  if (rows.empty()) return make_error("no SM or >= 256 MiB copy-engine rows to fit the link to");
  XF_RETURN_IF_ERROR(base.validate());
  LinkObjective cost{links, coalescing, rows};

  // Descending: with flit padding several sizes put the same bytes on the
  // wire; ties keep the first, i.e. the flit-aligned one.
  const double kHeaders[] = {32, 28, 24, 20, 16, 12, 8};
  const double kPartials[] = {32, 16, 8, 0};
  const double kFullGranules[] = {1, 2, 4, 8, 16, 32};
  const double kGranules[] = {4, 8, 16, 32};
  const double kPayloads[] = {64, 128, 256, 512, 1024};

  LinkFormat best = base;
  double best_cost = fit_continuous(best, cost, 1);
  // Every discrete candidate fits its continuous values from the same neutral
  // start, so the result does not depend on the base's fitted values.
  auto consider = [&](LinkFormat candidate) {
    candidate.link_efficiency = 1;
    candidate.max_packets_per_s = 0;
    candidate.partial_line_writes_per_s = 0;
    if (!candidate.validate().ok()) return;
    double c = fit_continuous(candidate, cost, 2);
    if (better(c, best_cost)) best = candidate, best_cost = c;
  };
  for (int pass = 0; pass < 2; ++pass) {
    LinkFormat start = best;
    for (double h : kHeaders)
      for (double p : kPartials)
        for (double g : kFullGranules) {
          LinkFormat c = best;
          c.header_bytes = h, c.partial_write_bytes = p, c.full_write_granule_bytes = g;
          consider(c);
        }
    for (double g : kGranules) {
      LinkFormat c = best;
      c.data_granule_bytes = g;
      consider(c);
    }
    for (double p : kPayloads) {
      LinkFormat c = best;
      c.max_payload_bytes = p;
      consider(c);
    }
    for (double h : kHeaders) {
      LinkFormat c = best;
      c.completion_header_bytes = h;
      consider(c);
    }
    if (start.header_bytes == best.header_bytes &&
        start.partial_write_bytes == best.partial_write_bytes &&
        start.full_write_granule_bytes == best.full_write_granule_bytes &&
        start.data_granule_bytes == best.data_granule_bytes &&
        start.max_payload_bytes == best.max_payload_bytes &&
        start.completion_header_bytes == best.completion_header_bytes)
      break;
  }
  best_cost = fit_continuous(best, cost, 3);
  LinkFit fit;
  fit.format = best;
  fit.rows = rows.size();
  fit.rms_log_error = std::sqrt(best_cost / static_cast<double>(rows.size()));
  link_fit_errors(cost, best_cost, fit);
  return fit;
}

// ---------------------------------------------------------------- calibrate

namespace {

// NotifyMedians: the notify_bench medians calibrate uses (ns).
struct NotifyMedians {
  double g2c = 0, c2g = 0, rtt = 0;     ///< flag one-way each way, ping-pong.
  double cpu_rw = 0, cpu_rw_fence = 0;  ///< CPU read+write of a flag (+ fence).
  double gpu_rw = 0;                    ///< GPU read+write of host memory.
  double launch_api = 0, launch = 0;    ///< kernel launch: CPU call, to start.
  double cdp = 0, cdp_tail = 0;         ///< CDP child launch, tail launch.
  double wv_visible = 0, wait_rtt = 0;  ///< stream write value, wait-value round trip.
};

// MicroRows: PROACT's micro CSV (256 MiB per GPU by default). Model: with
// T_none the no-transfer time at the same chunk size, the first chunk ready
// at (chunk / B) × T_none and R = min(the agent's rate, SM link goodput), the
// agent's rate being workers × slice / (its cost per slice,
// SoftwareMechanisms::agent_slice_cost; slice = min(agent_slice, chunk)),
// polling and polling_tma take T = max(T_none / (1 − share), (chunk / B) ×
// T_none + (B − chunk) / R) + chunk / R (the last chunk leaves after the
// kernel); CDP: T = T_none + max(B / link, chunks × interval).
struct MicroRows {
  const std::vector<ProactMicroRow>& rows;
  double bytes = 0;                  ///< each GPU sends.
  double sm_link_bw = 0;             ///< SM contiguous link goodput.
  std::map<double, double> none_ms;  ///< chunk size -> T_none.

  double base(const ProactMicroRow& r) const {
    auto it = none_ms.find(r.chunk_bytes);
    return it == none_ms.end() ? 0 : it->second;
  }
  // slice: an agent worker's copy unit in row r.
  double slice(const SoftwareConfig& sw, const ProactMicroRow& r) const {
    return std::min({sw.agent_slice_bytes, r.chunk_bytes, bytes});
  }
  // mechanisms: sw with row r's agent threads.
  Result<SoftwareMechanisms> mechanisms(const SoftwareConfig& sw, const ProactMicroRow& r) const {
    SoftwareConfig c = sw;
    c.transfer_threads = std::max<int64_t>(1, r.threads);
    return SoftwareMechanisms::create(c);
  }
  // agent_rate: the agent's own rate in row r (before the link), 0 = unbounded.
  double agent_rate(const SoftwareConfig& sw, const ProactMicroRow& r) const {
    Result<SoftwareMechanisms> m = mechanisms(sw, r);
    if (!m.ok()) return 0;
    return m->agent_copy_bw_bytes_per_s(r.mechanism == "polling_tma",
                                        std::min(r.chunk_bytes, bytes));
  }
  double rate(const SoftwareConfig& sw, const ProactMicroRow& r) const {
    const double agent = agent_rate(sw, r);
    return agent > 0 ? std::min(agent, sm_link_bw) : sm_link_bw;
  }
  // first_ready_ms: when the agent can start: the first chunk is written.
  double first_ready_ms(const ProactMicroRow& r) const {
    return std::min(r.chunk_bytes, bytes) / bytes * base(r);
  }
};

// AgentFit: a worker's cost per slice, fixed_ns + slice / bw (AgentSliceCost),
// with standard errors; rows = the rows it was fitted to.
struct AgentFit {
  double fixed_ns = 0, fixed_se = 0, bw = 0, bw_se = 0;
  int rows = 0;
};

constexpr const char* kMicroWhat = "PROACT micro, 256 MiB per GPU";
constexpr double kWarpThreads = 32;  ///< a polling worker is one warp

struct Calibrator {
  const CalibrationInputs& in;
  CalibrationResult& out;

  void note(const std::string& key, const std::string& file, const std::string& what) {
    out.platform.sources[key] = "fitted to " + file + " (" + what + ") by xferlab calibrate";
    std::string rel = file;  // fitted_on paths are relative to traces/real
    if (const size_t at = rel.find("traces/real/"); at != std::string::npos) rel.erase(0, at + 12);
    std::string& fitted = out.platform.fitted_on;
    if (("; " + fitted + ";").find("; " + rel + ";") == std::string::npos) {
      fitted += (fitted.empty() ? "" : "; ") + rel;
    }
  }

  // uncertainty: the standard error `se` recorded for the preset (none: 0).
  void uncertainty(const std::string& key, double se) {
    if (se > 0 && std::isfinite(se)) {
      out.platform.uncertainties[key] = round_significant(se, 2);
    } else {
      out.platform.uncertainties.erase(key);
    }
  }
  // fitted: `value` rounded to the digits its standard error leaves
  // (round_to_uncertainty), and the error recorded.
  void fitted(const std::string& key, double& value, double se = 0) {
    value = round_to_uncertainty(value, se);
    uncertainty(key, se);
  }

  Status link(const char* section, LinkFormat& format, const std::string& target, int64_t links,
              const char* label) {
    std::vector<LinkBenchRow> rows;
    for (const LinkBenchRow& r : in.link_bench)
      if (r.target == target) rows.push_back(r);
    Result<LinkFit> fit = fit_link_format(format, links, out.platform.coalescing, rows);
    if (!fit.ok())
      return make_error(in.link_bench_file + ": " + target + " rows: " + fit.error().message);
    format = fit->format;
    (target == "peer" ? out.gpu_link_fit : out.host_link_fit) = *fit;
    std::string s = section;
    fitted(s + ".link_efficiency", format.link_efficiency, fit->link_efficiency_se);
    fitted(s + ".max_packet_rate", format.max_packets_per_s, fit->max_packets_per_s_se);
    fitted(s + ".partial_line_write_rate", format.partial_line_writes_per_s,
           fit->partial_line_writes_per_s_se);
    const std::string what = "SM " + target + " stores/loads 1-256 B and >= 256 MiB copies";
    for (const char* key :
         {"header", "data_granule", "full_write_granule", "partial_write_extra", "max_payload",
          "completion_header", "link_efficiency", "max_packet_rate"})
      note(s + "." + key, in.link_bench_file, what);
    if (format.partial_line_bytes > 0)
      note(s + ".partial_line_write_rate", in.link_bench_file, what);
    // The table: every SM row and every copy-engine row's bandwidth regime.
    Result<LinkModel> model = LinkModel::create(format);
    if (!model.ok()) return model.error();
    for (const LinkBenchRow& r : rows) {
      if (is_ce(r) && r.write_bytes < 256.0 * 1024 * 1024) continue;
      if (!is_ce(r) && r.pattern != "contiguous" && r.pattern != "scattered") continue;
      Comparison c;
      c.group = std::string(label) + " " + r.test + " " + r.pattern +
                (r.pattern == "scattered" ? "/" + std::to_string(int64_t(r.stride_bytes)) : "");
      c.name = size_name(r.write_bytes);
      c.unit = "B/s";
      c.measured = r.payload_bw_bytes_per_s;
      c.model = predict_link_bw_bytes_per_s(*model, links, out.platform.coalescing, r);
      out.comparisons.push_back(c);
    }
    return Status::Ok();
  }

  // Copy engine: T(size) = a + size / B over single copies (relative least
  // squares), back-to-back issue cost from the smallest batch.
  Status copy_engine(const LinkModel& link, int64_t links) {
    std::vector<std::pair<double, double>> points;  // (bytes, ns) of single copies
    for (const LinkBenchRow& r : in.link_bench) {
      if (r.test == "ce_write" && r.target == "peer" && r.pattern == "single")
        points.emplace_back(r.write_bytes, r.time_ns);
    }
    if (points.size() < 2)
      return make_error(in.link_bench_file + ": need >= 2 ce_write peer single rows");
    const LineFit line = fit_line_relative(points);
    const double a_ns = line.a, ns_per_byte = line.b;
    if (!(a_ns > 0 && ns_per_byte > 0))
      return make_runtime_error(in.link_bench_file +
                                ": copy-engine fit gave a non-positive "
                                "initiation or bandwidth");
    const double bw = 1e9 / ns_per_byte;
    const double a_se = line.a_se, bw_se = bw * line.b_se / ns_per_byte;
    const LinkBenchRow* smallest = nullptr;
    for (const LinkBenchRow& r : in.link_bench)
      if (r.test == "ce_write" && r.target == "peer" && r.pattern == "batch" &&
          (!smallest || r.write_bytes < smallest->write_bytes))
        smallest = &r;
    CopyEngineConfig& ce = out.platform.copy_engine;
    if (smallest) {
      ce.host_initiation_ns = std::max(
          0.0, (smallest->time_ns - smallest->payload_bytes * ns_per_byte) / smallest->accesses);
      fitted("copy_engine.host_initiation", ce.host_initiation_ns);  // one row: no error
    }
    // Start and completion are not separable in these data: all in engine_start.
    ce.completion_ns = 0;
    ce.engine_start_ns = std::max(0.0, a_ns - ce.host_initiation_ns - link.one_way_latency_ns());
    fitted("copy_engine.engine_start", ce.engine_start_ns, a_se);
    // One copy reaches the link's peak, so one engine; its window must cover
    // the fitted bandwidth at the link round trip. (The proposed DMA agent is
    // not fitted: its sizes follow design rules, hw_model/hardware_sizing.h.)
    const double window_packets =
        std::ceil(bw * 2 * link.one_way_latency_ns() * 1e-9 / link.format().max_payload_bytes);
    ce.engines = 1;
    ce.outstanding_packets = static_cast<int64_t>(window_packets);
    // The window is the rule's whole count; its error follows the bandwidth's.
    uncertainty("copy_engine.outstanding_packets",
                bw_se * 2 * link.one_way_latency_ns() * 1e-9 / link.format().max_payload_bytes);
    out.platform.software.memcpy_initiation_ns = a_ns;
    fitted("software.memcpy_initiation", out.platform.software.memcpy_initiation_ns, a_se);
    const std::string what = "cudaMemcpyPeerAsync 4 KiB-1 GiB, T = a + size/B";
    for (const char* key : {"copy_engine.engines", "copy_engine.host_initiation",
                            "copy_engine.engine_start", "copy_engine.completion",
                            "copy_engine.outstanding_packets", "software.memcpy_initiation"})
      note(key, in.link_bench_file, what);
    Result<CopyEngine> engine = CopyEngine::create(ce);
    if (!engine.ok()) return engine.error();
    for (const LinkBenchRow& r : in.link_bench) {
      if (r.test != "ce_write" || r.target != "peer") continue;
      // A batch of n copies on one stream: the first pays the full start, each
      // further one its issue cost plus its data (not overlapped).
      DmaTiming one = engine->copy(r.write_bytes, link, links);
      double model = one.completion_ns +
                     (r.accesses - 1) *
                         (ce.host_initiation_ns + r.write_bytes / one.throughput_bytes_per_s * 1e9);
      out.comparisons.push_back(
          {"copy engine " + r.pattern + " (peer)",
           size_name(r.write_bytes) +
               (r.accesses > 1 ? " x" + std::to_string(int64_t(r.accesses)) : ""),
           "ns", r.time_ns, model});
    }
    return Status::Ok();
  }

  Status notifications() {
    std::span<const NotifyBenchRow> rows = in.notify_bench;
    NotifyMedians v;
    const struct {
      double* median_ns;
      const char* test;
      const char* variant;
    } needed[] = {{&v.g2c, "flag_gpu_to_cpu_one_way", "gpu_volatile"},
                  {&v.c2g, "flag_cpu_to_gpu_one_way", "gpu_volatile"},
                  {&v.rtt, "flag_pingpong_rtt", "gpu_volatile"},
                  {&v.cpu_rw, "cpu_read_write_cost", "volatile"},
                  {&v.cpu_rw_fence, "cpu_read_write_cost", "volatile_fence"},
                  {&v.gpu_rw, "gpu_read_write_cost", "volatile"},
                  {&v.launch_api, "kernel_launch_api", "host_call"},
                  {&v.launch, "kernel_launch_to_start", "idle_stream"},
                  {&v.cdp, "cdp_child_launch", "fire_and_forget"},
                  {&v.cdp_tail, "cdp_child_launch", "tail_launch"},
                  {&v.wv_visible, "stream_write_value_visible", "idle_stream"},
                  {&v.wait_rtt, "stream_wait_value_release_rtt", "host_write_to_ack"}};
    for (const auto& need : needed) {
      const NotifyBenchRow* r = find_notify(rows, need.test, need.variant);
      if (!r)
        return make_error(in.notify_bench_file + ": no row test='" + need.test + "' variant='" +
                          need.variant + "'");
      *need.median_ns = r->median_ns;
    }

    NotificationConfig& n = out.platform.notification;
    // The clock-mapped one-way split is uncertain (±clock_uncertainty_ns); the
    // round trip is not: scale the split so the two one-ways sum to it.
    double scale = v.rtt / (v.g2c + v.c2g);
    // A spinning CPU re-reads a cached flag every cpu_rw ns; a GPU poll is one
    // read+write of host memory. The store legs take the rest.
    n.cpu_poll_period_ns = v.cpu_rw;
    n.cpu_poll_read_ns = v.cpu_rw;
    n.gpu_store_to_host_ns = std::max(0.0, v.g2c * scale - n.cpu_poll_period_ns / 2 - v.cpu_rw);
    n.gpu_poll_period_ns = v.gpu_rw;
    n.cpu_store_visible_ns = v.cpu_rw_fence;
    n.gpu_poll_read_ns = std::max(0.0, v.c2g * scale - v.cpu_rw_fence - v.gpu_rw / 2);
    n.kernel_launch_ns = v.launch;
    n.kernel_launch_cpu_ns = v.launch_api;
    n.cdp_launch_ns = v.cdp;
    n.cdp_tail_launch_ns = v.cdp_tail;
    n.stream_write_value_ns = v.wv_visible;
    n.stream_wait_value_ns = std::max(0.0, v.wait_rtt - v.wv_visible);
    const std::string& f = in.notify_bench_file;
    // Medians of single rows: no error from a fit, kFallbackDigits digits.
    const std::pair<const char*, double*> values[] = {
        {"notification.cpu_poll_period", &n.cpu_poll_period_ns},
        {"notification.cpu_poll_read", &n.cpu_poll_read_ns},
        {"notification.gpu_store_to_host", &n.gpu_store_to_host_ns},
        {"notification.gpu_poll_period", &n.gpu_poll_period_ns},
        {"notification.cpu_store_visible", &n.cpu_store_visible_ns},
        {"notification.gpu_poll_read", &n.gpu_poll_read_ns},
        {"notification.kernel_launch", &n.kernel_launch_ns},
        {"notification.kernel_launch_cpu", &n.kernel_launch_cpu_ns},
        {"notification.cdp_launch", &n.cdp_launch_ns},
        {"notification.cdp_tail_launch", &n.cdp_tail_launch_ns},
        {"notification.stream_write_value", &n.stream_write_value_ns},
        {"notification.stream_wait_value", &n.stream_wait_value_ns}};
    for (const auto& [key, value] : values) {
      fitted(key, *value);
      note(key, f, "median of 1000 repetitions");
    }
    Result<NotificationModel> m = NotificationModel::create(n);
    if (!m.ok()) return m.error();
    notification_comparisons(*m, v);
    return Status::Ok();
  }

  // notification_comparisons: each notify_bench median against the model.
  void notification_comparisons(const NotificationModel& model, const NotifyMedians& v) {
    const std::span<const NotifyBenchRow> rows = in.notify_bench;
    const NotificationConfig& n = out.platform.notification;
    auto lat = [&](NotificationPath p) { return model.cost(p).latency_ns; };
    const double g2c_model = lat(NotificationPath::kGpuToCpuFlag);
    const double c2g_model = lat(NotificationPath::kCpuToGpuFlag);
    out.comparisons.push_back({"latency", "flag one-way GPU->CPU", "ns", v.g2c, g2c_model});
    out.comparisons.push_back({"latency", "flag one-way CPU->GPU", "ns", v.c2g, c2g_model});
    out.comparisons.push_back(
        {"latency", "flag ping-pong round trip", "ns", v.rtt, g2c_model + c2g_model});
    if (const NotifyBenchRow* half = find_notify(rows, "flag_one_way_half_rtt", "gpu_volatile"))
      out.comparisons.push_back({"latency", "flag one-way (half round trip)", "ns", half->median_ns,
                                 (g2c_model + c2g_model) / 2, true});
    out.comparisons.push_back({"latency", "CPU read+write of a flag", "ns", v.cpu_rw,
                               model.cost(NotificationPath::kGpuToCpuFlag).cpu_ns});
    out.comparisons.push_back(
        {"latency", "GPU read+write of a flag", "ns", v.gpu_rw, n.gpu_poll_period_ns});
    out.comparisons.push_back({"latency", "kernel launch -> start", "ns", v.launch,
                               lat(NotificationPath::kKernelLaunch)});
    out.comparisons.push_back({"latency", "kernel launch API (CPU)", "ns", v.launch_api,
                               model.cost(NotificationPath::kKernelLaunch).cpu_ns});
    out.comparisons.push_back(
        {"latency", "CDP launch fire-and-forget", "ns", v.cdp, lat(NotificationPath::kCdpLaunch)});
    out.comparisons.push_back(
        {"latency", "CDP tail launch", "ns", v.cdp_tail, lat(NotificationPath::kCdpTailLaunch)});
    out.comparisons.push_back({"latency", "stream write value visible", "ns", v.wv_visible,
                               lat(NotificationPath::kStreamWriteValue)});
    out.comparisons.push_back(
        {"latency", "stream wait value release round trip", "ns", v.wait_rtt,
         lat(NotificationPath::kStreamWaitValue) + lat(NotificationPath::kStreamWriteValue)});
  }

  // proact: PROACT micro (MicroRows): polling copy rate per thread
  // (copy-bound rows), polling SM share (compute-bound rows), CDP launch
  // interval (launch-bound rows), TMA slice turnaround.
  Status proact(double sm_link_bw) {
    MicroRows m{in.proact_micro, in.proact_bytes_per_gpu, sm_link_bw, {}};
    for (const ProactMicroRow& r : m.rows)
      if (r.mechanism == "none") m.none_ms[r.chunk_bytes] = r.time_ms;
    XF_RETURN_IF_ERROR(copy_rate(m));
    polling_share(m);
    cdp_interval(m);
    tma_turnaround(m);
    micro_comparisons(m);
    return Status::Ok();
  }

  // agent_fit: an agent's (polling or polling_tma) cost per slice from the
  // rows it bounds. Such a row takes T = (chunk / B) × T_none + (B / slice /
  // workers) × (fixed + slice / bw) (MicroRows), linear in fixed and x = 1 /
  // bw: weighted least squares on the relative residuals, standard errors
  // from the residual variance times (XᵀWX)⁻¹. Rows used:
  //  * more than one chunk. One chunk is copied after the kernel, with no
  //    producer competing for SMs and HBM: run 1's polling row at 1024
  //    threads copies 4% faster per byte that way, and at 4096 / 8192
  //    threads it runs at the link. The per-thread rate used to be taken as
  //    B / (threads × T) over every row with T >= 2 × T_none, which admitted
  //    these rows (22–106 MB/s against ~141 for the rest) and pulled the rate
  //    from 139.5 to 130.5 MB/s (docs/validation.md, run 4's held-out grid).
  //  * that the agent, not the link, bounds: the fitted model's agent rate
  //    below 0.8 × the SM link rate, found by refitting from the rows with
  //    the fewest threads until the set holds (at more threads polling_tma
  //    rows are slow for reasons other than the agent's rate).
  //  * every chunk size, 4 KiB included: with a cost per byte only, 4 KiB
  //    items (a fixed cost per item the model lacked) were left out; the
  //    fixed part is that cost.
  // Fewer than two slice sizes cannot separate the two parts: then the fixed
  // part alone (TMA) or the rate alone (polling) is fitted, as before.
  AgentFit agent_fit(const MicroRows& m, const std::string& mechanism) {
    const bool tma = mechanism == "polling_tma";
    SoftwareConfig sw = out.platform.software;
    std::vector<const ProactMicroRow*> all;
    std::map<const ProactMicroRow*, double> workers;  // depend on the row's threads only
    int64_t fewest = std::numeric_limits<int64_t>::max();
    for (const ProactMicroRow& r : m.rows) {
      if (r.mechanism != mechanism || m.base(r) <= 0 || r.chunk_bytes >= m.bytes) continue;
      if (!(r.time_ms > m.first_ready_ms(r))) continue;
      Result<SoftwareMechanisms> rm = m.mechanisms(sw, r);
      if (!rm.ok()) continue;
      workers[&r] = static_cast<double>(rm->agent_workers(tma));
      all.push_back(&r);
      fewest = std::min(fewest, r.threads);
    }
    auto x_of = [&](const ProactMicroRow& r) {  // (slices per worker, bytes per worker)
      const double n = workers.at(&r);
      return std::pair{m.bytes / m.slice(sw, r) / n, m.bytes / n};
    };
    // rss_at: the relative residuals' sum of squares at fixed f, x = 1 / bw.
    auto rss_at = [&](const std::vector<const ProactMicroRow*>& rows, double f, double x) {
      double rss = 0;
      for (const ProactMicroRow* r : rows) {
        const auto [n, bw_bytes] = x_of(*r);
        const double e = ((r->time_ms - m.first_ready_ms(*r)) * 1e-3 - n * f - bw_bytes * x) /
                         (r->time_ms * 1e-3);
        rss += e * e;
      }
      return rss;
    };
    std::vector<const ProactMicroRow*> used;
    for (const ProactMicroRow* r : all)
      if (r->threads == fewest) used.push_back(r);
    AgentFit fit;
    for (int round = 0; round < 5 && !used.empty(); ++round) {
      double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
      std::map<double, int> slices;
      for (const ProactMicroRow* r : used) {
        const auto [n, bw_bytes] = x_of(*r);
        const double y = (r->time_ms - m.first_ready_ms(*r)) * 1e-3, w = 1 / (r->time_ms * 1e-3);
        const double u = n * w, v = bw_bytes * w, yw = y * w;
        a11 += u * u, a12 += u * v, a22 += v * v, b1 += u * yw, b2 += v * yw;
        ++slices[m.slice(sw, *r)];
      }
      const auto rows = static_cast<double>(used.size());
      double f = 0, x = 0, f_var = 0, x_var = 0;
      if (slices.size() >= 2 && used.size() >= 3) {
        const double det = a11 * a22 - a12 * a12;
        f = (a22 * b1 - a12 * b2) / det, x = (a11 * b2 - a12 * b1) / det;
        const double rss = rss_at(used, f, x);
        f_var = rss / (rows - 2) * a22 / det, x_var = rss / (rows - 2) * a11 / det;
      } else if (tma) {  // one slice size: the whole turnaround is fixed
        f = b1 / a11;
        f_var = rows > 1 ? rss_at(used, f, 0) / (rows - 1) / a11 : 0;
      } else {  // one slice size: the rate alone
        x = b2 / a22;
        x_var = rows > 1 ? rss_at(used, 0, x) / (rows - 1) / a22 : 0;
      }
      if (!(f >= 0) || !(x >= 0) || (f == 0 && x == 0)) return {};
      fit = {f * 1e9, std::sqrt(f_var) * 1e9, x > 0 ? 1 / x : 0,
             x > 0 ? std::sqrt(x_var) / (x * x) : 0, static_cast<int>(used.size())};
      // Reclassify with the fitted cost.
      if (tma) {
        sw.tma_slice_turnaround_ns = fit.fixed_ns;
        sw.tma_slice_bw_bytes_per_s = fit.bw;
      } else {
        sw.polling_slice_overhead_ns = fit.fixed_ns;
        sw.copy_bw_per_thread_bytes_per_s = fit.bw / kWarpThreads;
      }
      std::vector<const ProactMicroRow*> next;
      for (const ProactMicroRow* r : all)
        if (m.agent_rate(sw, *r) < 0.8 * m.sm_link_bw) next.push_back(r);
      if (next == used) break;
      used = std::move(next);
    }
    return fit;
  }

  // copy_rate: the polling warp's cost per slice (agent_fit): the per-thread
  // rate (a warp's per-byte rate over its 32 threads) and the fixed part.
  Status copy_rate(const MicroRows& m) {
    const AgentFit fit = agent_fit(m, "polling");
    if (fit.rows == 0 || !(fit.bw > 0))
      return make_error(in.proact_micro_file +
                        ": no agent-bound polling rows (more than one chunk, below the link)");
    SoftwareConfig& sw = out.platform.software;
    sw.copy_bw_per_thread_bytes_per_s = fit.bw / kWarpThreads;
    fitted("software.copy_bw_per_thread", sw.copy_bw_per_thread_bytes_per_s,
           fit.bw_se / kWarpThreads);
    const std::string what = std::string(kMicroWhat) + ", agent-bound multi-chunk polling rows";
    note("software.copy_bw_per_thread", in.proact_micro_file, what);
    if (fit.fixed_ns > 0) {
      sw.polling_slice_overhead_ns = fit.fixed_ns;
      fitted("software.polling_slice_overhead", sw.polling_slice_overhead_ns, fit.fixed_se);
      note("software.polling_slice_overhead", in.proact_micro_file, what);
    }
    return Status::Ok();
  }

  // polling_share: the agent's SM share from the rows the compute side
  // dominates (not copy-bound, short last chunk), through the mean log slowdown.
  void polling_share(const MicroRows& m) {
    std::vector<double> slowdown_logs;
    for (const ProactMicroRow& r : m.rows) {
      if (r.mechanism != "polling" || m.base(r) <= 0) continue;
      const double rate = m.rate(out.platform.software, r);
      const double tail_ms = std::min(r.chunk_bytes, m.bytes) / rate * 1e3;
      if (m.bytes / rate * 1e3 >= m.base(r) || tail_ms > 0.1 * r.time_ms) continue;
      slowdown_logs.push_back(std::log((r.time_ms - tail_ms) / m.base(r)));
    }
    if (slowdown_logs.empty()) return;
    const auto [mean, mean_se] = mean_and_se(slowdown_logs);
    double& share = out.platform.software.polling_sm_share;
    share = std::clamp(1 - std::exp(-mean), 0.0, 0.99);
    fitted("software.polling_sm_share", share, std::exp(-mean) * mean_se);
    note("software.polling_sm_share", in.proact_micro_file,
         std::string(kMicroWhat) + ", compute-bound polling");
  }

  // cdp_interval: the launch interval from the launch-bound cdp rows (far
  // above no-transfer + link copy time), weighted least squares through 0.
  void cdp_interval(const MicroRows& m) {
    const double copy_ms = m.bytes / m.sm_link_bw * 1e3;
    auto launch_bound = [&](const ProactMicroRow& r) {
      return r.mechanism == "cdp" && m.base(r) > 0 && r.time_ms >= 2 * (m.base(r) + copy_ms);
    };
    double sny = 0, snn = 0;
    int n = 0;
    for (const ProactMicroRow& r : m.rows) {
      if (!launch_bound(r)) continue;
      double chunks = m.bytes / r.chunk_bytes, w = 1 / (r.time_ms * r.time_ms);
      sny += w * chunks * (r.time_ms - m.base(r)), snn += w * chunks * chunks;
      ++n;
    }
    if (!(snn > 0)) return;
    const double interval_ms = sny / snn;
    double rss = 0;
    for (const ProactMicroRow& r : m.rows) {
      if (!launch_bound(r)) continue;
      const double e = r.time_ms - m.base(r) - m.bytes / r.chunk_bytes * interval_ms;
      rss += e * e / (r.time_ms * r.time_ms);
    }
    const double se_ms = n > 1 ? std::sqrt(rss / (n - 1) / snn) : 0;
    double& interval = out.platform.software.cdp_launch_interval_ns;
    interval = interval_ms * 1e6;
    fitted("software.cdp_launch_interval", interval, se_ms * 1e6);
    note("software.cdp_launch_interval", in.proact_micro_file,
         std::string(kMicroWhat) + ", launch-bound cdp rows");
  }

  // tma_turnaround: a TMA CTA's slice turnaround, fixed part and per-byte
  // rate (agent_fit on the polling_tma rows).
  void tma_turnaround(const MicroRows& m) {
    const AgentFit fit = agent_fit(m, "polling_tma");
    if (fit.rows == 0) return;
    SoftwareConfig& sw = out.platform.software;
    const std::string what = std::string(kMicroWhat) + ", agent-bound multi-chunk polling_tma rows";
    sw.tma_slice_turnaround_ns = fit.fixed_ns;
    fitted("software.tma_slice_turnaround", sw.tma_slice_turnaround_ns, fit.fixed_se);
    note("software.tma_slice_turnaround", in.proact_micro_file, what);
    if (fit.bw > 0) {
      sw.tma_slice_bw_bytes_per_s = fit.bw;
      fitted("software.tma_slice_bw", sw.tma_slice_bw_bytes_per_s, fit.bw_se);
      note("software.tma_slice_bw", in.proact_micro_file, what);
    }
  }

  // micro_comparisons: the polling and cdp rows against the model
  // (MicroRows's equations) with the fitted values.
  void micro_comparisons(const MicroRows& m) {
    const SoftwareConfig& sw = out.platform.software;
    const double copy_ms = m.bytes / m.sm_link_bw * 1e3;
    for (const ProactMicroRow& r : m.rows) {
      if (m.base(r) <= 0) continue;
      double model = 0;
      if (r.mechanism == "polling" || r.mechanism == "polling_tma") {
        if (r.mechanism == "polling_tma" && m.agent_rate(sw, r) <= 0) continue;
        const double rate = m.rate(sw, r);
        double share_ms = m.base(r) / (1 - sw.polling_sm_share);
        double last = std::min(r.chunk_bytes, m.bytes);
        model = std::max(share_ms, m.first_ready_ms(r) + (m.bytes - last) / rate * 1e3) +
                last / rate * 1e3;
      } else if (r.mechanism == "cdp") {
        model = m.base(r) +
                std::max(copy_ms, m.bytes / r.chunk_bytes * sw.cdp_launch_interval_ns * 1e-6);
      } else {
        continue;
      }
      out.comparisons.push_back(
          {"proact micro " + r.mechanism + " " + std::to_string(r.threads) + " threads",
           size_name(r.chunk_bytes) + " chunks", "ms", r.time_ms, model});
    }
  }
};

}  // namespace

Result<CalibrationResult> calibrate(const Platform& base, const CalibrationInputs& in) {
  XF_RETURN_IF_ERROR(base.validate());
  CalibrationResult out;
  out.platform = base;
  Calibrator cal{in, out};
  Platform& p = out.platform;
  const int64_t gpu_links = p.topology.kind == TopologyKind::kNvswitch
                                ? p.topology.links_per_gpu
                                : p.topology.links_per_gpu_pair;
  XF_RETURN_IF_ERROR(cal.link("gpu_link", p.gpu_link, "peer", gpu_links, "nvlink"));
  // Host memory takes writes in whole 64-B cache lines; smaller scattered
  // writes cost the root complex a read-modify-write (rate fitted).
  if (p.host_link.partial_line_bytes == 0) p.host_link.partial_line_bytes = 64;
  p.sources["host_link.partial_line"] = "x86-64 cache line";
  XF_RETURN_IF_ERROR(
      cal.link("host_link", p.host_link, "host", p.topology.host_links_per_gpu, "pcie"));
  Result<LinkModel> gpu_link = LinkModel::create(p.gpu_link);
  if (!gpu_link.ok()) return gpu_link.error();
  XF_RETURN_IF_ERROR(cal.copy_engine(*gpu_link, gpu_links));
  if (!in.notify_bench.empty()) XF_RETURN_IF_ERROR(cal.notifications());
  if (!in.proact_micro.empty()) {
    LinkBenchRow line_row{"sm_write", "peer", "contiguous", 128, 128, 1, 128.0 * 1048576, 0, 1};
    double sm_bw = predict_link_bw_bytes_per_s(*gpu_link, gpu_links, p.coalescing, line_row);
    XF_RETURN_IF_ERROR(cal.proact(sm_bw));
  }
  if (p.source.find("xferlab calibrate") == std::string::npos)
    p.source += "; unpublished constants fitted by xferlab calibrate (docs/calibration.md)";
  Status v = p.validate();
  if (!v.ok()) return make_runtime_error("calibrated platform invalid: " + v.error().message);
  return out;
}

}  // namespace xferlab::hw_model
