// sim/workload_model.h — what re-partitioning a traced workload needs
// (docs/scaling.md): how much it produces per iteration, how long its compute
// takes, the HBM traffic that compute moves per output byte and so whether
// its time follows HBM bandwidth or SM throughput; strong scaling of a trace
// to N GPUs and the roofline rescaling of its compute to another GPU.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "hw_model/hbm_sharing.h"
#include "hw_model/platform.h"
#include "sim/replay_input.h"

namespace xferlab::sim {

// Scaling: what `--gpus N` keeps fixed.
enum class Scaling {
  kWeak,    ///< the work per GPU: every GPU replays a traced GPU's compute.
  kStrong,  ///< the problem: each GPU computes 1/N of the traced total.
};
inline constexpr Scaling kDefaultScaling = Scaling::kWeak;

// scaling_name: "weak", "strong"; parse_scaling: the inverse (one-line error).
const char* scaling_name(Scaling s);
Result<Scaling> parse_scaling(std::string_view text);

// Pattern: who produces and who needs it, as the trace shows it.
enum class Pattern {
  kAllGather,  ///< every GPU produces a part of the region, every GPU needs all of it.
  kBroadcast,  ///< one GPU produces the region, every other GPU needs it (micro).
  kOther,      ///< anything else (a subset of producers or of destinations): not scalable.
};
const char* pattern_name(Pattern p);

// Bound: what a kernel's time follows (roofline).
enum class Bound { kMemory, kCompute };
const char* bound_name(Bound b);

// kMemoryBoundFraction: a kernel whose HBM traffic at peak bandwidth takes at
// least this fraction of its measured time is memory-bound: its time then
// follows HBM bandwidth more than SM throughput (the roofline's ridge).
inline constexpr double kMemoryBoundFraction = hw_model::kAttainableHbmFraction;

// Traffic: HBM bytes the producer kernel moves per byte it writes, from the
// workload's kernel (native/proact/kernels.cu) and the trace's parameters.
struct Traffic {
  double hbm_bytes_per_output_byte = 1;  ///< 1 = the output only (unknown workload).
  std::string how;                       ///< the formula, for the output and docs.
};

// traffic: for proact's workloads (trace parameter `workload` and its sizes);
// other traces get the output bytes only, a lower bound, said in `how`.
Traffic traffic(const std::vector<std::pair<std::string, std::string>>& parameters);

// WorkloadModel: the traced workload, per iteration.
struct WorkloadModel {
  Pattern pattern = Pattern::kAllGather;
  std::string pattern_why;   ///< kOther: what the trace shows, for the error.
  uint32_t traced_gpus = 0;  ///< GPUs of the trace.
  uint32_t producers = 0;    ///< GPUs that ran a producer kernel.
  double output_bytes = 0;   ///< the region: bytes produced per iteration, all producers.
  double compute_ns = 0;     ///< mean producer-kernel duration (compute-only timeline).
  double bytes_per_cta = 0;  ///< output bytes per writer CTA (chunk bytes / writers).
  /// Compute per output byte of one producer (compute_ns / its bytes): the
  /// model is linear in the work, T(W) = W x ns_per_output_byte.
  double ns_per_output_byte = 0;
  Traffic traffic;
  /// HBM traffic per producer per iteration at the trace GPU's bandwidth,
  /// over compute_ns; 0 when the trace's GPU is unknown.
  double hbm_fraction = 0;
  Bound bound = Bound::kCompute;
  /// SMs of the GPU the trace was measured on ([gpu] sm_count), 0 when
  /// unknown: strong scaling then does not round to waves.
  uint32_t trace_sm_count = 0;
};

// workload_model: from a compute-only input (separate_data_generation) and
// the [gpu] of the GPU it was measured on (nullptr: unknown, then bound is
// kCompute and hbm_fraction 0). An input whose GPUs produce but not all
// (more than one, fewer than all) or send to a subset of peers has pattern
// kOther, which strong_scale does not take. Error: no kernel writes chunks.
Result<WorkloadModel> workload_model(const ReplayInput& input,
                                     const hw_model::GpuConfig* trace_gpu);

// kSequentialSpanFraction: a traced kernel ran its chunks in sequence (its
// chunks' ready times order its work by offset, and a chunk's own span
// first write -> ready bounds any slice holding it) when the median chunk
// span is at most this fraction of the kernel: at least two generations of
// chunks. Above it the chunks ran side by side (one wave, or ready times
// interpolated from one sampled CTA) and their spans measure the sharing,
// not the chunk (docs/scaling.md, "Cost profile").
inline constexpr double kSequentialSpanFraction = 0.5;

// Waves: a traced producer kernel's CTAs in waves (docs/scaling.md, "Waves"):
// a wave is the CTAs the GPU runs side by side without them sharing what
// bounds the kernel, r per SM on S SMs. Memory-bound: the CTAs resident on
// an SM wait on memory side by side; the kernel ran C = grid_ctas CTAs in
// W = cta_generations generations (its duration over its traced CTAs'
// mean), so r = ceil(C / (W S)), the fewest resident CTAs per SM that do
// so, or `resident` when given (> 0): the trace's r for this launch
// configuration (strong_scale: the median over the launches of the same
// grid). A kernel of one generation only bounds r from below (all its CTAs
// were resident at once): it takes `resident` when larger (strong_scale:
// the largest r of the trace's kernels of several generations; proact runs
// one kernel function of one block size per workload step). Compute-bound:
// the resident CTAs share the SM's issue slots, so a wave is one CTA per
// SM, r = 1. The grid took ceil(C / (S r)) waves, each of duration / waves.
struct Waves {
  uint32_t ctas_per_sm = 0;  ///< r; 0 = unknown (no grid, traced CTA or SM count).
  double wave_ns = 0;        ///< kernel duration / its waves.
};
Waves kernel_waves(const KernelInput& kernel, Bound bound, uint32_t sm_count, uint32_t resident);

// strong_scale: the fixed problem on `num_gpus` GPUs, by the pattern.
// All-gather: the region is the producers' parts in GPU order, each in
// chunk-index (offset) order, as the native partition lays it out; GPU g
// computes the contiguous bytes [g/N, (g+1)/N) of it (whole bytes), taken
// from the source producer(s) by offset (a chunk cut by a slice boundary is
// split). Each piece of a source takes its bytes / the source's bytes of
// the source's duration (linear in the work), the pieces back to back; its
// chunks keep their traced times rebased to when the source began the piece
// (earliest first write), compressed into the piece's time where they
// exceed it, and, when the source ran its chunks in sequence
// (kSequentialSpanFraction), none is ready sooner than its own traced span
// (first write -> ready): the kernel takes the larger of the pieces' time
// and its latest chunk. Waves: where the model knows the trace's SM count,
// `target_sm_count` > 0 and a source's kernel_waves, the slice's compute is
// whole waves instead: its CTAs (the source's grid x bytes share) on
// target_sm_count x r slots, ceil(CTAs / slots) waves of the source's
// wave_ns x target_sm_count / trace SMs (the roofline-rescaled kernel's
// wave on the target), the pieces' times scaled to it; below one wave a
// slice takes one wave (a CTA's duration is the floor). Broadcast: the
// producer keeps its whole kernel. Every chunk goes to every other GPU. At
// the trace's own GPU count on its own GPU an input whose producers made
// equal parts is returned unchanged. Pattern kOther: error.
Result<ReplayInput> strong_scale(const ReplayInput& input, const WorkloadModel& model,
                                 uint32_t num_gpus, uint32_t target_sm_count = 0);

// ComputeRescale: a trace's compute replayed on another GPU.
struct ComputeRescale {
  double time_factor = 1;  ///< kernel and chunk times are multiplied by it.
  std::string line;        ///< what was used, for the output ("" when 1 and same GPU).
};

// roofline_rescale: memory-bound: trace HBM bandwidth / target's; compute-
// bound: trace SMs x clock / target's. `trace_gpu` nullptr: factor 1, the
// line says the trace records no GPU model.
ComputeRescale roofline_rescale(const WorkloadModel& model, const hw_model::GpuConfig* trace_gpu,
                                const std::string& trace_gpu_source,
                                const hw_model::GpuConfig& target_gpu,
                                const std::string& target_source);

// scale_compute: every kernel's begin, duration and chunk times x factor
// (host gaps between iterations unchanged).
ReplayInput scale_compute(ReplayInput input, double factor);

}  // namespace xferlab::sim
