// sim/host_memory_fit.h — HostMemoryFit: the capacity of a node's host memory
// as a resource that the CPU's MPI copies and the GPU's writes into pinned
// memory share max-min fairly (the halo replay's CPU-GPU memory interference,
// docs/halo_sim.md), fitted to interference_bench (native/bench): MPI_Send
// of a pinned buffer while the GPU writes another pinned buffer (scenarios
// PCB: the next buffer; P2AB: 2 MiB further), slowdown vs the send alone
// (SSB). PSB (the GPU writes the buffer being sent) is cache-line
// ping-pong on one buffer, not bandwidth sharing, and never happens in the
// halo exchange (a message is sent after its pack): it is not fitted.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace xferlab::sim {

// InterferencePoint: one parallel scenario at one size.
struct InterferencePoint {
  double cpu_bytes_per_s = 0;  ///< the send alone (SSB): size / median time.
  double gpu_bytes_per_s = 0;  ///< the GPU writer's rate.
  double slowdown = 1;         ///< measured: parallel / alone.
};

// maxmin_slowdown: the CPU flow's slowdown when it (demand cpu) and the GPU
// flow (demand gpu) share `capacity` max-min fairly.
double maxmin_slowdown(double cpu_bytes_per_s, double gpu_bytes_per_s, double capacity);

struct HostMemoryFit {
  double bw_bytes_per_s = 0;  ///< the capacity the replay uses.
  /// The smallest capacity that fits as well as no contention at all (the
  /// data bound the capacity from below only, unless `fitted`).
  double lower_bound_bytes_per_s = 0;
  bool fitted = false;  ///< a finite capacity fits better than no contention.
  size_t points = 0;
  double rms_log_error = 0;  ///< of the slowdowns at bw_bytes_per_s.
};

// fit_host_memory: least squares in log(slowdown) over capacities from the
// fastest single flow of the points (each ran alone at its measured rate
// through host memory) up to 100 TB/s (log grid, 2 % steps). When no finite
// capacity beats "no contention" by 0.1 %, the data only give the lower bound
// and the replay uses max(fallback, lower bound) (fallback: the preset's
// [cpu] memory_bw).
HostMemoryFit fit_host_memory(const std::vector<InterferencePoint>& points,
                              double fallback_bw_bytes_per_s);

// read_interference_points: the PCB and P2AB rows of an interference_bench
// CSV (columns scenario, size_bytes, send_bw_bytes_per_s, slowdown_vs_ssb),
// with the GPU writer at gpu_bytes_per_s (it writes pinned memory as fast as
// the host link lets it). Errors name the file, line and column.
Result<std::vector<InterferencePoint>> read_interference_points(const std::string& path,
                                                                double gpu_bytes_per_s);

}  // namespace xferlab::sim
