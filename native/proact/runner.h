// native/proact/runner.h — Runner: drives a Workload on a set of GPUs with one
// transfer mechanism and configuration, times it, verifies it, and records a
// trace of one run.
//
// Per step and producing GPU: (agent on a high-priority stream, for the
// polling mechanisms) + producer kernel; memcpy/UM copies after the producer;
// then a cross-GPU barrier (events) so the next step sees every peer's part.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "native/proact/mechanism.h"
#include "native/proact/region.h"
#include "native/proact/workload.h"
#include "native/trace_recorder.h"
#include "traces/metadata.h"

namespace xferlab::proact {

// Trace buffer sizing when --trace-capacity is 0 (auto): the first guess, and
// the flag's upper bound (2 GiB of 32-byte events per GPU).
inline constexpr uint32_t kAutoTraceCapacityStart = 1u << 21;
inline constexpr uint32_t kMaxTraceCapacity = 1u << 26;

// RunConfig: one point of the design space.
struct RunConfig {
  Mechanism mechanism = Mechanism::kPolling;
  uint64_t chunk_bytes = 64 << 10;
  uint32_t threads = 1024;  ///< agent threads (polling), child threads (CDP, <= 1024).
};

struct RunnerOptions {
  std::vector<int> devices;
  int warmup = 1;
  int reps = 5;
  uint64_t slice_bytes = 16 << 10;      ///< agent copy unit (clipped to the chunk).
  uint64_t timeout_ns = 5000000000ull;  ///< agent deadline per awaited chunk.
  int counter_bits = 32;
  uint32_t trace_capacity_events = 0;  ///< per GPU; 0 = size from the run (see runner.cc).
  uint32_t trace_cta_sample = 1;       ///< trace every n-th producer CTA.
  uint32_t trace_agent_sample = 1;     ///< trace every n-th agent copy; 0 = none (kernels only).
  std::vector<std::pair<std::string, std::string>> parameters;  ///< into trace metadata.
  std::string program;                                          ///< trace producer name.
  int argc = 0;
  char** argv = nullptr;
};

struct RunResult {
  double time_ms = 0;  ///< median over reps.
  double p10_ms = 0, p90_ms = 0;
  bool verified = false;   ///< every GPU holds identical data that passed the CPU check.
  std::string check;       ///< what was checked (or why not).
  std::string trace_path;  ///< "" when not traced.
};

class Runner {
 public:
  Runner(Workload& workload, RunnerOptions options);
  ~Runner();

  // run: warmup + reps timed runs, then one verification run (traced to
  // `trace_path` unless empty). Errors: bad configuration (usage), agent
  // timeout / verification failure (runtime).
  Result<RunResult> run(const RunConfig& config, const std::string& trace_path);

 private:
  struct Part {
    uint64_t row_begin = 0, row_end = 0;  ///< rows of the step's region this GPU writes.
  };
  Status prepare(const RunConfig& config);
  Result<double> execute(const RunConfig& config, uint32_t run_index, bool traced,
                         native::TraceRecorder* recorder);
  void launch_agent(const RunConfig& config, int g, const DeviceRegion& dv, const ChunkMap& map);
  void step_barrier();
  Status agent_errors() const;
  Result<std::string> verify(const RunConfig& config, uint32_t run_index);
  // check_managed_reads: UM verification: every GPU computes a checksum of
  // region r as it reads it (through the managed mapping, wherever the pages
  // are) and must find the one of the CPU's copy `host`.
  Status check_managed_reads(int r, const std::vector<char>& host);
  void add_metadata(const RunConfig& config, traces::Metadata& md) const;
  int num_gpus() const { return static_cast<int>(options_.devices.size()); }

  Workload& workload_;
  RunnerOptions options_;
  std::vector<std::unique_ptr<Region>> regions_;
  std::vector<std::vector<Part>> parts_;  ///< [region][gpu]
  std::vector<uint32_t> epochs_;
  uint64_t prepared_chunk_ = 0;
  bool prepared_managed_ = false;
  std::vector<cudaStream_t> main_, agent_;
  std::vector<cudaEvent_t> start_ev_, agent_ev_, done_ev_;
};

// round_up: smallest multiple of m >= x.
inline uint64_t round_up(uint64_t x, uint64_t m) {
  return (x + m - 1) / m * m;
}

}  // namespace xferlab::proact
