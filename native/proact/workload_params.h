// native/proact/workload_params.h — WorkloadParams: the sizes of PROACT's
// workloads, from proact's flags (plain C++: the footprint estimate uses it
// without CUDA).
#pragma once

#include <cstdint>

namespace xferlab::proact {

// WorkloadParams: sizes shared by the workloads (each uses what it needs).
struct WorkloadParams {
  uint64_t micro_bytes = 256ull << 20;  ///< microbenchmark output size.
  uint32_t micro_work = 0;              ///< work per element; 0: calibrate.
  double micro_compute_ms = 0;          ///< calibration target when 0 peers (or forced).
  int graph_scale = 22;                 ///< R-MAT vertices = 2^scale.
  int graph_edge_factor = 16;           ///< edges = factor * vertices.
  uint64_t jacobi_rows = 1ull << 25;
  int jacobi_half_band = 8;
  int iterations = 10;  ///< iterations of iterative workloads.
  uint32_t als_users = 1u << 21;
  uint32_t als_items = 1u << 17;
  uint32_t als_ratings_per_user = 32;
  uint32_t ct_size = 1024;  ///< xray_ct: image side (pixels).
  uint32_t ct_views = 720;  ///< xray_ct: projection angles over [0, pi).
  uint64_t seed = 1;
};

}  // namespace xferlab::proact
