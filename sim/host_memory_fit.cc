// sim/host_memory_fit.cc — host-memory capacity fitted to interference_bench.
#include "sim/host_memory_fit.h"

#include <algorithm>
#include <cmath>

#include "common/csv.h"

namespace xferlab::sim {

double maxmin_slowdown(double cpu, double gpu, double capacity) {
  if (cpu + gpu <= capacity) return 1;
  // Max-min: the smaller demand is met first if it fits in an equal share.
  const double fair = capacity / 2;
  const double share = cpu <= fair ? cpu : (gpu <= fair ? capacity - gpu : fair);
  return cpu / share;
}

HostMemoryFit fit_host_memory(const std::vector<InterferencePoint>& points, double fallback) {
  auto loss = [&](double c) {
    double l = 0;
    for (const InterferencePoint& p : points) {
      const double e =
          std::log(p.slowdown) - std::log(maxmin_slowdown(p.cpu_bytes_per_s, p.gpu_bytes_per_s, c));
      l += e * e;
    }
    return l;
  };
  HostMemoryFit f;
  f.points = points.size();
  const double none = loss(INFINITY);
  // Each flow alone ran at its measured rate through host memory, so the
  // capacity is at least the fastest of them.
  double floor = 0;
  for (const InterferencePoint& p : points) {
    floor = std::max({floor, p.cpu_bytes_per_s, p.gpu_bytes_per_s});
  }
  double best_c = INFINITY, best = none, lower = INFINITY;
  for (double c = 1e14; c >= std::max(1e9, floor); c /= 1.02) {
    const double l = loss(c);
    if (l < best) best = l, best_c = c;
    if (l <= none * (1 + 1e-3)) lower = c;
  }
  f.fitted = best < none * (1 - 1e-3);
  f.lower_bound_bytes_per_s = f.fitted ? best_c : lower;
  f.bw_bytes_per_s = f.fitted ? best_c : std::max(fallback, lower);
  f.rms_log_error = points.empty() ? 0 : std::sqrt(loss(f.bw_bytes_per_s) / points.size());
  return f;
}

Result<std::vector<InterferencePoint>> read_interference_points(const std::string& path,
                                                                double gpu_bytes_per_s) {
  Result<CsvTable> t = read_csv_file(path);
  if (!t.ok()) return t.error();
  XF_RETURN_IF_ERROR(t->require({"scenario", "send_bw_bytes_per_s", "slowdown_vs_ssb"}));
  std::vector<InterferencePoint> out;
  for (size_t i = 0; i < t->rows.size(); ++i) {
    const CsvRow row(*t, i);
    Result<std::string> scenario = row.text("scenario");
    if (!scenario.ok()) return scenario.error();
    if (*scenario != "PCB" && *scenario != "P2AB") continue;
    Result<double> bw = row.number("send_bw_bytes_per_s");
    if (!bw.ok()) return bw.error();
    Result<double> s = row.number("slowdown_vs_ssb");
    if (!s.ok()) return s.error();
    if (!(*bw > 0)) return row.error("send_bw_bytes_per_s", "must be > 0");
    if (!(*s > 0)) return row.error("slowdown_vs_ssb", "must be > 0");
    // The send alone ran at bw x slowdown.
    out.push_back({*bw * *s, gpu_bytes_per_s, *s});
  }
  if (out.empty()) return make_error(path + ": no PCB or P2AB rows");
  return out;
}

}  // namespace xferlab::sim
