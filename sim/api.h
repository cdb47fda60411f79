// sim/api.h — replay, validate and sweep as functions that return tables.
//
// The one implementation behind both front ends: the `xferlab` command line
// (sim/replay_command.cc renders the tables as text/CSV/JSON) and the Python
// package (python/, one pandas DataFrame per table). Both therefore print the
// same numbers. Requests carry the same options as the command-line flags;
// nothing here prints.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "common/table.h"
#include "sim/halo_command.h"
#include "sim/isolated.h"
#include "sim/replay_engine.h"
#include "sim/validation_report.h"
#include "sim/workload_model.h"
#include "traces/reader.h"

namespace xferlab::sim {

// Progress: called after each finished unit of work (done of total).
using Progress = std::function<void(size_t done, size_t total)>;

// Largest --gpus: kMaxGpus (sim/machine.h); --jobs: kMaxJobs (sim/isolated.h).

// parse_count: a GPU or job count, 1..max ("--gpus '0': expected an integer 1..1024").
Result<uint32_t> parse_count(const std::string& what, const std::string& text, uint32_t max);

// ---- preparing a trace ----------------------------------------------------------

// Prepared: a trace turned into a compute-only input on a machine.
struct Prepared {
  ReplayInput input;
  Machine machine;
  std::string preset;
  std::string fitted_on;          ///< the preset's fitting set (hw_model::Platform::fitted_on).
  std::vector<std::string> sets;  ///< every override applied (the trace's own, then the user's).
  /// "note: ..." lines saying how the compute was scaled: the pattern and
  /// share under strong scaling, the roofline ratio on another GPU ("" when
  /// neither applies).
  std::string model_note;
};

// prepare: loads `trace`, picks the preset (named, the trace's, or chosen
// from its GPUs), applies `sets`, sizes auto hardware for its chunks,
// separates data generation, rescales its compute to the preset's [gpu] when
// the trace was measured on another GPU (roofline, workload_model.h), scales
// to `gpus` (`scaling`: weak replicates a traced GPU's compute, strong splits
// the traced problem) and re-chunks. With `measured_only`, a trace without a
// replayable measured mechanism is returned as read, without a machine
// (validate skips it; benchmark traces may not even fit the preset).
// `opened`: `trace` opened already and not read from yet (open_replay_trace,
// sim/halo_trace.h), read instead of opening the file again.
Result<Prepared> prepare(const std::string& trace, std::string preset,
                         const std::vector<std::string>& sets, uint32_t gpus, uint64_t chunk_bytes,
                         bool measured_only = false, Scaling scaling = kDefaultScaling,
                         std::optional<traces::TraceReader> opened = std::nullopt);

// use_trace_agent: a polling_tma trace's agent copies at the TMA variant's
// rate with its workers (CTAs), not polling's; load_machine cannot know which
// the trace ran, so every machine built for such a trace goes through here
// (prepare, and explain's perturbed machines).
void use_trace_agent(const ReplayInput& input, Machine& m);

// trace_gpu: the [gpu] of the preset describing the GPU a trace was measured
// on: `chosen` (the trace's platform parameter, else the replay's preset)
// when its GPU family is the trace's, else the first preset (by name) of
// that family; nullopt when the trace records no GPU model or no
// preset has its family. `source` names the preset.
struct TraceGpu {
  hw_model::GpuConfig gpu;
  std::string source;
};
std::optional<TraceGpu> trace_gpu(const std::string& gpu_model, const std::string& chosen);

// ---- replay -----------------------------------------------------------------

struct ReplayRequest {
  std::string trace;
  std::string platform;           ///< preset name or .toml; "" = the trace's, else kDefaultPreset.
  std::string mechanism = "all";  ///< one mechanism name, or "all".
  uint32_t gpus = 0;              ///< scale out to this many GPUs; 0 = the trace's.
  uint64_t chunk_bytes = 0;       ///< re-chunk; 0 = the trace's chunks.
  Scaling scaling = kDefaultScaling;       ///< what `gpus` keeps fixed (workload_model.h).
  std::vector<std::string> sets;           ///< platform overrides "key=value".
  bool aggregate_fan_out = true;           ///< see ReplayOptions::aggregate_fan_out.
  ReplayCore core = ReplayOptions{}.core;  ///< see ReplayOptions::core.
  bool record_timeline = false;
  /// Record the critical path (ReplayResult::attribution); replay() does so
  /// anyway for hardware and the software mechanisms, to say why hardware
  /// loses when it does (ReplayOutput::note). Actor core only.
  bool explain = false;
  uint32_t jobs = 0;  ///< mechanisms simulated at once (one process each); 0 = default_jobs().
  /// One mechanism is simulated in this process rather than a forked one: for
  /// a caller that is a throwaway process already (a sweep point) and never
  /// simulates again (SimGrid: one simulation per process).
  bool in_this_process = false;
};

struct ReplayOutput {
  Table table;             ///< one row per mechanism (columns: docs/sim.md).
  std::string note;        ///< what the measured row is (printed under the text table).
  std::string model_note;  ///< Prepared::model_note (also in `note`).
  std::vector<ReplayResult> results;
  std::vector<std::string> warnings;  ///< the trace reader's (lost events, no checksums).
  /// The trace's measured run, when the replay is comparable with it (the
  /// trace's GPUs and chunks); its mechanism's row carries measured_us.
  std::optional<Measured> measured;
  std::string preset;           ///< the preset replayed on.
  uint64_t trace_start_ns = 0;  ///< ReplayInput::trace_start_ns.
  /// The input's chunks x their destinations: the copies the replay moves in
  /// chunk units, whatever the mechanism (sim/bench_replay.sh's work measure).
  uint64_t chunk_transfers = 0;
};

// replay: `opened` as for prepare (request.trace, opened already).
Result<ReplayOutput> replay(const ReplayRequest& request,
                            std::optional<traces::TraceReader> opened = std::nullopt);

// write_timeline: a timeline file (traces/timeline_writer.h: one layout and
// metadata block with `xferlab trace export`) of `output`, replayed from
// `trace` with ReplayRequest::record_timeline: one group of processes per
// mechanism, "simulated MECH: GPU<g>". With `with_measured`, the trace's own
// events come first as the group "measured" (as `trace export` writes them),
// and the simulated groups start at the trace's first producer-kernel begin
// (the replay's time 0), so each GPU's measured and simulated tracks share
// one time axis.
Status write_timeline(std::ostream& os, const std::string& trace, const ReplayOutput& output,
                      bool with_measured);

// ---- validate ---------------------------------------------------------------

struct ValidateRequest {
  /// Traces or directories; a named trace must be replayable, traces found
  /// in directories that are not (halo exchange, benchmarks) are skipped.
  std::vector<std::string> paths;
  std::string dir;  ///< when `paths` is empty; "" = default_real_trace_dir().
  std::string platform;
  std::vector<std::string> sets;
  double tolerance_pct = 10;
  bool all_captures = false;               ///< include agent runs traced after a host gap.
  ReplayCore core = ReplayOptions{}.core;  ///< the PROACT traces' replay core.
  uint32_t jobs = 0;  ///< traces replayed at once (one process each); 0 = default_jobs().
  Progress progress;  ///< per trace file.
};

struct ValidateOutput {
  Table table;                                 ///< one row per case.
  std::vector<std::string> skipped;            ///< one line per skipped trace or skip reason.
  std::vector<double> abs_error_pct;           ///< |error| of every case, table order.
  std::vector<double> transfer_abs_error_pct;  ///< the same, transfer mechanisms only.
  size_t beyond_tolerance = 0;
  /// |error| per group: all, transfer/compute-only, in-sample vs held-out
  /// (the preset's fitted_on), communication-only, per mechanism.
  ErrorSummaries summaries;
  std::vector<std::string> warnings;  ///< lost events per trace; one line for 1.x files.
  /// Halo exchange / GPUDirect Async runs (sim/halo_command.h), when any
  /// were given or found; their cases are in abs_error_pct and summaries too.
  std::optional<Table> halo_table;
  /// issue #15's bound block over the halo cases (HaloValidation::bound); "" when none.
  std::string halo_bound;
};

Result<ValidateOutput> validate(const ValidateRequest& request);

// validate_summary: a header and one "GROUP: cases N, median |error| ...%"
// line per group of ValidateOutput::summaries, then the halo bound block
// (ValidateOutput::halo_bound) when there is one (no cases: "").
std::string validate_summary(const ValidateOutput& output, double tolerance_pct);

// ---- sweep ------------------------------------------------------------------

struct SweepParam {
  /// A platform key, "chunk_size" or "gpus"; for halo / GDA traces a platform
  /// key, "ranks" or "ranks_per_node".
  std::string key;
  std::vector<std::string> values;
};

// parse_sweep_param: "key=v1,v2,...".
Result<SweepParam> parse_sweep_param(const std::string& text);

struct SweepRequest {
  /// A PROACT trace, or a halo / GDA trace (is_halo_trace): each point then
  /// is a halo replay (sim/halo_command.h) with `halo`'s options.
  std::string trace;
  std::vector<SweepParam> params;  ///< the grid: every combination, first key slowest.
  std::string mechanism = "all";   ///< PROACT traces only.
  std::string platform;
  std::vector<std::string> sets;
  Scaling scaling = kDefaultScaling;  ///< for the `gpus` parameter.
  /// Halo / GDA traces: model, mode, variant, scaling (of `ranks`), graph;
  /// its trace, platform and sets come from the fields above, ranks and
  /// ranks_per_node from the grid. Other traces refuse non-default ones.
  HaloReplayRequest halo;
  uint32_t jobs = 2;  ///< points replayed at once (one process each).
  /// This process replays the contiguous block `shard_index` of `shard_count`
  /// blocks of the grid (MPI ranks, job arrays); the blocks' tables, in
  /// order, are the whole grid's table.
  uint32_t shard_index = 0;
  uint32_t shard_count = 1;
  Progress progress;  ///< per point of this shard.
};

struct SweepOutput {
  /// The point's parameters, then replay's columns (halo: halo_replay's,
  /// without wall_s); failed points have no rows.
  Table table;
  bool halo = false;         ///< a halo / GDA trace's sweep (halo_replay_table's columns).
  size_t points = 0;         ///< points in this shard.
  size_t failed_points = 0;  ///< points whose replay failed (first message in `first_failure`).
  std::string first_failure;
};

Result<SweepOutput> sweep(const SweepRequest& request);

// sweep_shard: the [begin, end) point indices of block `index` of `count`
// over `points` points (sizes differ by at most one, earlier blocks larger).
std::pair<size_t, size_t> sweep_shard(size_t points, uint32_t index, uint32_t count);

// encode_rows / append_rows: a table's rows as bytes (CBOR, doubles exact)
// and back, to move rows between processes (sweep workers, MPI ranks).
std::string encode_rows(const Table& table);
Status append_rows(Table& table, const std::string& bytes);

// ---- defaults -----------------------------------------------------------------

// Default preset when neither --platform nor the trace's "platform" parameter
// names one and the trace records no GPU model (else platform_choice.h picks).
inline constexpr const char* kDefaultPreset = "h200x2_nvlink4";
// Default directory of committed real traces for `validate` (overridden by
// --dir or $XFERLAB_REAL_TRACES).
inline constexpr const char* kDefaultRealTraceDir = "traces/real";

// default_real_trace_dir: $XFERLAB_REAL_TRACES, else kDefaultRealTraceDir
// when it exists (in the repository), else the copy tools/install.sh puts
// beside an installed binary (BIN/../share/xferlab/traces/real).
std::string default_real_trace_dir();

}  // namespace xferlab::sim
