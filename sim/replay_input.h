// sim/replay_input.h — ReplayInput: what the replay engine needs from a trace,
// independent of the trace file format.
//
// The engine replays the application's *data generation* (when each chunk of
// each GPU's output becomes ready, in a compute-only timeline) and adds a
// transfer mechanism's own cost on top. Adapters build a ReplayInput from a
// trace (sim/trace_adapter.h); tests build small ones by hand so every timing
// is computable on paper.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "hw_model/hardware_sizing.h"

namespace xferlab::sim {

// Mechanism: how chunks reach the peers (the replayable subset of
// traces::TransferMechanism plus the infinite-bandwidth limit).
enum class Mechanism { kMemcpy, kInline, kPolling, kCdp, kHardware, kInfinite };

inline constexpr Mechanism kAllMechanisms[] = {Mechanism::kMemcpy,   Mechanism::kInline,
                                               Mechanism::kPolling,  Mechanism::kCdp,
                                               Mechanism::kHardware, Mechanism::kInfinite};

// mechanism_name: "memcpy", "inline", "polling", "cdp", "hardware", "infinite".
const char* mechanism_name(Mechanism m);

// parse_mechanism: inverse of mechanism_name (with a did-you-mean on error).
Result<Mechanism> parse_mechanism(std::string_view text);

// ChunkInput: one chunk of a kernel's output. Times are relative to the
// kernel's begin, in the compute-only timeline.
struct ChunkInput {
  double first_write_ns = 0;  ///< earliest write into the chunk (first writer CTA begins).
  double ready_ns = 0;        ///< last writer finished (counter reaches zero).
  uint64_t size_bytes = 0;    ///< payload bytes to push to each destination.
  uint32_t writers = 1;       ///< CTAs writing it = counter updates.
  uint32_t store_bytes = 4;   ///< store granularity of the writers (inline wire traffic).
  /// Position in the GPU's region (program order): the order in which agents
  /// that hand out work statically visit chunks (hw_model::static_agent_schedule).
  /// Chunks with equal indices keep their ready order.
  uint32_t index = 0;
};

// KernelInput: one producer kernel on one GPU.
struct KernelInput {
  uint32_t gpu = 0;
  double begin_ns = 0;             ///< relative to the iteration start.
  double duration_ns = 0;          ///< compute-only duration.
  uint64_t dest_mask = 0;          ///< destination GPUs (bit i = GPU i); 0 = every other GPU.
  std::vector<ChunkInput> chunks;  ///< sorted by ready_ns.
  /// The launch's grid (trace kernel_begin), 0 if not recorded.
  uint32_t grid_ctas = 0;
  /// Generations of CTAs the kernel ran: its duration over its traced CTAs'
  /// mean duration, rounded (at least 1), 0 if no CTA was traced. With
  /// grid_ctas it gives the resident CTAs per SM (strong scaling's waves,
  /// sim/workload_model.h).
  uint32_t cta_generations = 0;
};

// IterationInput: kernels running concurrently, closed by a global barrier
// (every transfer of the iteration completes before the next one starts).
struct IterationInput {
  double gap_before_ns = 0;  ///< host time between the previous barrier and this start.
  std::vector<KernelInput> kernels;
};

// Measured: what the trace itself measured, for comparison.
struct Measured {
  Mechanism mechanism = Mechanism::kMemcpy;
  double end_to_end_ns = 0;  ///< first kernel begin to last transfer end.
  // Both from the recorded transfers only: an agent trace sampled with
  // trace_agent_sample = n (proact --trace-agent-sample) records every n-th copy, 0 none.
  double transfer_busy_ns = 0;  ///< union of recorded transfer intervals (0 if unknown).
  uint64_t payload_bytes = 0;   ///< bytes of the recorded transfers (0 if unknown).
  std::string trace_mechanism;  ///< the trace's own name for it (e.g. "polling_tma").
  double host_time_ns = 0;  ///< producer's host-timed run (proact traced_run_time), 0 if unknown.
  /// Median host wall time of the untraced repetitions of the same
  /// configuration (proact results CSV, time_ms), 0 if not found; what
  /// validate compares against (docs/validation.md, "What is measured").
  double host_median_ns = 0;
  std::string host_median_source;  ///< the CSV file it came from.
  /// Host median of the compute-only (`none`) run of the same configuration
  /// in that CSV, 0 if not found: measured minus it is the communication
  /// time validate's communication-only error is relative to.
  double compute_only_median_ns = 0;
  bool truncated = false;  ///< the trace lost events (covers part of the run).
  /// A transfer agent's run (polling, polling_tma, cdp) traced after a host
  /// gap (proact traces without `traced_run`, before 2026-11-22 run 3): such
  /// runs took 7-31% longer than the untraced median on 2x H200, so the
  /// trace is not a sample of what the median measures (docs/validation.md).
  bool traced_after_gap = false;

  /// reference_ns: host median when known, else the traced device span.
  double reference_ns() const { return host_median_ns > 0 ? host_median_ns : end_to_end_ns; }
  /// reference_source: where reference_ns comes from, as printed in the
  /// measured_source column of replay, validate and explain: "csv_median"
  /// (host_median_ns, from host_median_source) or "trace_span" (end_to_end_ns).
  const char* reference_source() const { return host_median_ns > 0 ? "csv_median" : "trace_span"; }
};

// ReplayInput: the whole run.
struct ReplayInput {
  std::string name;           ///< for tables (trace file stem).
  std::string platform_hint;  ///< preset the trace names (parameter "platform"), or "".
  std::string gpu_model;      ///< GPU name the trace records ("NVIDIA H200"), or "".
  std::string topology_text;  ///< `nvidia-smi topo -m` as recorded, or "".
  /// HBM bytes its producer kernels move per output byte (sim/workload_model.h
  /// traffic(), from the workload's kernel); 0 = unknown: HBM shared with
  /// transfers is not modelled (share_hbm).
  double hbm_bytes_per_output_byte = 0;
  /// The trace's run parameters in order (workload and its sizes: the
  /// workload model's traffic, sim/workload_model.h).
  std::vector<std::pair<std::string, std::string>> parameters;
  std::vector<std::string> warnings;  ///< the trace reader's (lost events, no checksums).
  uint32_t num_gpus = 0;
  /// Trace time (ns) of the replay's time 0: the first iteration's start,
  /// i.e. its earliest producer-kernel begin; 0 when not read from a trace.
  /// Aligns the simulated and the measured tracks of a timeline.
  uint64_t trace_start_ns = 0;
  std::vector<IterationInput> iterations;
  std::optional<Measured> measured;
  /// Kernel-only reference duration (no transfers, no agents), when the trace
  /// recorded one; used to separate data generation from mechanism cost.
  std::optional<double> kernel_only_ns;
  /// Copy threads of the trace's software agent (proact `threads`), applied
  /// as software.transfer_threads when the trace was measured with polling.
  std::optional<uint32_t> agent_threads;
  /// The agents' copy unit (proact `slice_size`), 0 if not recorded.
  double agent_slice_bytes = 0;

  // validate: non-empty, GPUs in range, chunk times inside their kernel,
  // chunks sorted. Messages name the iteration/kernel/chunk.
  Status validate() const;

  // num_chunks: total chunks over all iterations and kernels.
  uint64_t num_chunks() const;
};

// replicate_gpus: scale-out. Returns the input re-mapped onto `num_gpus` GPUs:
// GPU g runs the kernel of source GPU (g mod n) of each iteration and pushes
// its partition to every other GPU (dest_mask = all peers).
ReplayInput replicate_gpus(const ReplayInput& input, uint32_t num_gpus);

}  // namespace xferlab::sim

namespace xferlab::sim {

// kMaxRechunkChunks: the most chunks a re-chunked replay may have (beyond
// it the replay runs for minutes; a larger --chunk-size says the same).
inline constexpr uint64_t kMaxRechunkChunks = uint64_t{1} << 20;

// rechunk: every kernel's output re-cut into chunks of `chunk_bytes` (the
// last one smaller); a new chunk is ready when its last byte is, with bytes
// inside an original chunk assumed written evenly over its write window.
// Rejected up front, naming the rule: a size that is not a multiple of the
// trace's store granularity (a store cannot straddle two chunks), or one that
// makes more than kMaxRechunkChunks chunks.
Result<ReplayInput> rechunk(const ReplayInput& input, uint64_t chunk_bytes);

// sizing_region: what the proposed hardware is sized for (hw_model
// hardware_sizing.h): the largest chunk and the most chunks of one kernel, or
// those after re-cutting into `chunk_bytes` (0 = as recorded).
hw_model::SizingRegion sizing_region(const ReplayInput& input, uint64_t chunk_bytes = 0);

// share_hbm: each producer kernel's timeline (duration, chunk times)
// stretched by the transfer traffic that crosses its GPU's HBM while it runs
// (hw_model/hbm_sharing.h, peak bandwidth `hbm_bw_bytes_per_s` from [gpu]):
// an agent's or DMA engine's reads of the kernel's output (polling,
// hardware) and the peers' writes into this GPU (polling, hardware,
// inline). memcpy copies after the kernel and CDP children wait for its last
// CTA, so they leave it unchanged. `gpus`: the platform's GPU count
// (destination mask 0 = every other GPU). Identity when the input's
// hbm_bytes_per_output_byte or the bandwidth is 0. (By value: a caller done
// with its input moves it in and no copy is made.)
ReplayInput share_hbm(ReplayInput input, Mechanism mechanism, uint32_t gpus,
                      double hbm_bw_bytes_per_s);
// shares_hbm: whether share_hbm can change `input` (else it is the identity,
// and a caller holding the input by reference need not copy it).
bool shares_hbm(const ReplayInput& input, Mechanism mechanism, double hbm_bw_bytes_per_s);
// unshare_hbm: the inverse, for a timeline measured with `mechanism`
// (share_hbm(unshare_hbm(x)) == x).
ReplayInput unshare_hbm(ReplayInput input, Mechanism mechanism, uint32_t gpus,
                        double hbm_bw_bytes_per_s);

}  // namespace xferlab::sim
