// sim/trace_adapter.h — builds a ReplayInput from a trace file (traces/),
// and separates the application's data generation from the cost of the
// mechanism the trace was measured with (docs/sim.md, "Data generation").
//
// Real traces come from native/proact (docs/sim.md, "PROACT traces"): CTA
// records may be sampled (parameter trace_cta_sample), agent kernels (id
// 0x10000 + producer id; older traces: no end record) are not producers,
// chunk geometry is in run parameters when the chunk table is
// capped, and files may be whole-file zstd-compressed (*.zst).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "sim/machine.h"
#include "sim/replay_input.h"
#include "traces/reader.h"

namespace xferlab::sim {

// load_replay_input: reads `path` (a trace, or a zstd-compressed trace named
// *.zst, decompressed to a temporary file) in two streaming passes (kernels
// and transfers, then CTAs and counters); memory grows with kernels and
// chunks, not with events. Iteration i is the i-th producer kernel of every
// GPU. Errors (unreadable file, no kernels) name the file; exit code 2.
Result<ReplayInput> load_replay_input(const std::string& path);

// load_replay_input (opened): the same from `reader`, a trace opened with the
// default ReaderOptions and not read from yet (open_replay_trace), so that a
// replay opens its trace once; not cached.
Result<ReplayInput> load_replay_input(traces::TraceReader reader);

// The error message suffix of a readable trace without producer kernels
// (e.g. halo-exchange or benchmark traces), which `validate` skips when
// scanning directories.
inline constexpr std::string_view kNoProducerKernels = "no kernel begin/end event pairs to replay";

// MeasuredMechanism: how a trace's own mechanism name maps onto the engine.
struct MeasuredMechanism {
  Mechanism mechanism;
  bool variant;  ///< a variant the engine replays with the base mechanism's costs.
};

// mechanism_from_trace_name: proact's mechanism names ("memcpy", "inline",
// "polling", "polling_tma", "cdp", "cdp_tail", "none", "track") and the
// engine's own; nullopt for mechanisms the engine does not model ("um").
std::optional<MeasuredMechanism> mechanism_from_trace_name(std::string_view name);

// is_trace_file: *.xft, *.xftrace, optionally followed by .zst.
bool is_trace_file(const std::string& path);

// find_traces: every trace file under `dir`, recursively, sorted.
std::vector<std::string> find_traces(const std::string& dir);

// separate_data_generation: turns the measured timeline into a compute-only
// one: uses the trace's kernel-only reference when present (kernel times
// scaled to it), else removes the measured mechanism's modeled compute cost
// (polling: the agent's SM share). Inputs without a measurement are unchanged.
// (By value: a caller done with its input moves it in.)
ReplayInput separate_data_generation(ReplayInput input, const Machine& machine);

}  // namespace xferlab::sim
