// sim/micro_trace.h — the PROACT microbenchmark as a trace for any preset
// (`xferlab trace generate OUT --workload micro --match-copy --platform P`,
// docs/scaling.md): GPU 0 produces `bytes` (4 kB per CTA) that every other
// GPU needs in full; with match_copy the producer's time is tuned to the
// preset's simulated cudaMemcpy duplication time of the buffer, as the paper
// tunes its synthetic kernel (PROACT §IV-C: an ideal overlap gives 2x).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "common/result.h"
#include "sim/command.h"

namespace xferlab::sim {

struct MicroTraceRequest {
  std::string out;       ///< trace file to write.
  std::string platform;  ///< preset (its [gpu] gives CTA slots and the GPU model).
  uint32_t gpus = 0;     ///< 0 = the preset's count.
  uint64_t bytes = 256ull << 20;
  uint64_t cta_bytes = 4096;    ///< output per source CTA.
  uint64_t chunk_bytes = 4096;  ///< the trace's chunks (replays re-chunk with --chunk-size).
  double cta_ns = 20000;        ///< CTA duration when not matched.
  bool match_copy = false;      ///< tune the CTA duration to the preset's memcpy time.
  uint64_t seed = 1;
  bool compress = false;
};

struct MicroTrace {
  double memcpy_ns = 0;    ///< simulated cudaMemcpy duplication time on the preset (match_copy).
  double compute_ns = 0;   ///< the producer kernel's duration in the written trace.
  double cta_ns = 0;       ///< the CTA duration used.
  uint32_t cta_slots = 0;  ///< CTAs resident at once (SMs x 256-thread CTAs per SM).
};

// generate_micro_trace: writes the trace; errors name the flag or preset.
Result<MicroTrace> generate_micro_trace(const MicroTraceRequest& request);

// run_trace_generating_workloads: `xferlab trace ...`; `generate` with
// --workload goes to the microbenchmark generator, everything else to
// run_trace (sim/trace_command.h).
int run_trace_generating_workloads(const cli::Args& args, std::ostream& out, std::ostream& err);

}  // namespace xferlab::sim
