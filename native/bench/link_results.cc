// native/bench/link_results.cc — derived columns and summaries of the link
// benchmark (see link_results.h).
#include "native/bench/link_results.h"

#include <algorithm>
#include <map>

namespace xferlab::native::bench {
namespace {

double bw(const LinkMeasurement& r) {
  return r.time_ns.median > 0 ? r.payload_bytes() / (r.time_ns.median * 1e-9) : 0;
}

// Best contiguous SM and peak CE bandwidth per (op, target).
std::map<std::pair<std::string, std::string>, std::pair<double, double>> best_rates(
    const std::vector<LinkMeasurement>& m) {
  std::map<std::pair<std::string, std::string>, std::pair<double, double>> best;
  for (const auto& r : m) {
    auto& b = best[{r.op(), r.target}];
    if (r.is_sm() && r.pattern == "contiguous") b.first = std::max(b.first, bw(r));
    if (!r.is_sm()) b.second = std::max(b.second, bw(r));
  }
  return best;
}

}  // namespace

Table link_table(const std::vector<LinkMeasurement>& m) {
  Table t({{"test"},
           {"target"},
           {"pattern"},
           {"write_bytes"},
           {"stride_bytes"},
           {"accesses"},
           {"payload_bytes"},
           {"ctas"},
           {"threads_per_cta"},
           {"reps"},
           {"time_ns_median", 5},
           {"time_ns_p10", 5},
           {"time_ns_p90", 5},
           {"payload_bw_bytes_per_s", 4},
           {"accesses_per_s", 4},
           {"efficiency", 3},
           {"mismatches"}});
  const auto best = best_rates(m);
  for (const auto& r : m) {
    const auto& b = best.at({r.op(), r.target});
    const double ref = r.is_sm() ? b.first : b.second;
    const double rate = bw(r);
    t.add_row({r.test, r.target, r.pattern, static_cast<int64_t>(r.write_bytes),
               static_cast<int64_t>(r.stride_bytes), static_cast<int64_t>(r.accesses),
               static_cast<int64_t>(r.payload_bytes()), static_cast<int64_t>(r.ctas),
               static_cast<int64_t>(r.threads_per_cta), static_cast<int64_t>(r.time_ns.n),
               r.time_ns.median, r.time_ns.p10, r.time_ns.p90, rate,
               r.time_ns.median > 0 ? r.accesses / (r.time_ns.median * 1e-9) : 0.0,
               ref > 0 ? rate / ref : 0.0, static_cast<int64_t>(r.mismatches)});
  }
  return t;
}

std::vector<LinkPathSummary> summarize_paths(const std::vector<LinkMeasurement>& m) {
  std::vector<LinkPathSummary> out;
  const auto best = best_rates(m);
  for (const auto& r : m) {
    auto it = std::find_if(out.begin(), out.end(), [&](const LinkPathSummary& s) {
      return s.op == r.op() && s.target == r.target;
    });
    if (it == out.end()) {
      LinkPathSummary s;
      s.op = r.op();
      s.target = r.target;
      const auto& b = best.at({s.op, s.target});
      s.sm_best_contiguous_bw_bytes_per_s = b.first;
      s.ce_peak_bw_bytes_per_s = b.second;
      s.sm_over_ce = b.first > 0 && b.second > 0 ? b.first / b.second : 0;
      out.push_back(s);
      it = out.end() - 1;
    }
    if (r.is_sm()) continue;
    // The smallest copy size measured gives the fixed per-copy costs.
    if (it->ce_smallest_bytes == 0 || r.write_bytes < it->ce_smallest_bytes) {
      it->ce_smallest_bytes = r.write_bytes;
      it->ce_initiation_ns = 0;
      it->ce_back_to_back_ns = 0;
    }
    if (r.write_bytes != it->ce_smallest_bytes) continue;
    const double per_copy_ns = r.time_ns.median / std::max<uint64_t>(r.accesses, 1);
    if (r.pattern == "single") {
      const double transfer_ns =
          it->ce_peak_bw_bytes_per_s > 0 ? r.write_bytes / it->ce_peak_bw_bytes_per_s * 1e9 : 0;
      it->ce_initiation_ns = std::max(0.0, per_copy_ns - transfer_ns);
    } else {
      it->ce_back_to_back_ns = per_copy_ns;
    }
  }
  return out;
}

Table link_summary_table(const std::vector<LinkMeasurement>& m) {
  Table t({{"op"},
           {"target"},
           {"sm_best_contiguous_bw_bytes_per_s", 4},
           {"ce_peak_bw_bytes_per_s", 4},
           {"sm_over_ce", 3},
           {"ce_smallest_bytes"},
           {"ce_initiation_ns", 4},
           {"ce_back_to_back_ns", 4},
           {"goal"}});
  for (const auto& s : summarize_paths(m)) {
    std::string goal;
    if (s.op == "write" && s.target == "peer" && s.sm_over_ce > 0)
      goal = s.sm_over_ce >= 0.95 ? "sm>=95%ce:ok" : "sm>=95%ce:MISSED";
    t.add_row({s.op, s.target, s.sm_best_contiguous_bw_bytes_per_s, s.ce_peak_bw_bytes_per_s,
               s.sm_over_ce, static_cast<int64_t>(s.ce_smallest_bytes), s.ce_initiation_ns,
               s.ce_back_to_back_ns, goal});
  }
  return t;
}

}  // namespace xferlab::native::bench
