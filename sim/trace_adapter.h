// sim/trace_adapter.h — builds a ReplayInput from a trace file (traces/),
// and separates the application's data generation from the cost of the
// mechanism the trace was measured with (docs/sim.md, "Data generation").
#pragma once

#include <string>

#include "common/result.h"
#include "sim/machine.h"
#include "sim/replay_input.h"

namespace xferlab::sim {

// load_replay_input: reads `path` in two streaming passes (kernels and
// transfers, then CTAs and counters); memory grows with kernels and chunks,
// not with events. Iteration i is the i-th producer kernel of every GPU.
// Errors (unreadable file, no kernels) name the file; exit code 2.
Result<ReplayInput> load_replay_input(const std::string& path);

// separate_data_generation: turns the measured timeline into a compute-only
// one: uses the trace's kernel-only reference when present (kernel times
// scaled to it), else removes the measured mechanism's modeled compute cost
// (polling: the agent's SM share). Inputs without a measurement are unchanged.
ReplayInput separate_data_generation(const ReplayInput& input, const Machine& machine);

}  // namespace xferlab::sim
