// sim/platform_choice.h — which platform preset a trace is replayed on, from
// what the trace records about its machine: the GPU model, the GPU count and
// the `nvidia-smi topo -m` matrix (NV# links per GPU pair). A trace that
// matches no preset is an error naming the nearest presets: a 2-GPU preset is
// never silently stretched to more GPUs (docs/sim.md, "Choosing the platform").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hw_model/platform.h"

namespace xferlab::sim {

// TraceMachine: where a trace was taken, as the trace records it.
struct TraceMachine {
  std::string gpu_model;      ///< "NVIDIA H200"; "" if not recorded.
  uint32_t gpus = 0;          ///< GPUs of the run.
  std::string topology_text;  ///< verbatim `nvidia-smi topo -m`, "" if not recorded.
};

// gpu_family: the product token of a GPU name ("NVIDIA H200" -> "H200",
// "Tesla V100-SXM3-32GB" -> "V100", "H200-SXM-141GB" -> "H200"), "" if none.
std::string gpu_family(std::string_view model);

// is_pcie_card: whether a GPU name is a PCIe card's ("NVIDIA H100 PCIe",
// "Tesla V100-PCIE-32GB", "H100-PCIe-80GB"); SXM modules do not say so
// ("NVIDIA H100 80GB HBM3"). Breaks ties between presets of one family.
bool is_pcie_card(std::string_view model);

// TopologySummary: the GPU-GPU part of an `nvidia-smi topo -m` matrix.
struct TopologySummary {
  uint32_t gpus = 0;
  int64_t min_nvlinks = 0;  ///< fewest NVLinks of a GPU pair (0: some pair has none).
  int64_t max_nvlinks = 0;  ///< most NVLinks of a GPU pair.
};
// parse_topology: nullopt when the text holds no GPU rows.
std::optional<TopologySummary> parse_topology(std::string_view text);

// fits: "" when `platform` can replay a trace of `machine` as measured (same
// GPU family, the GPU count — a switch or mesh preset may run fewer GPUs than
// it has — and a topology consistent with the NV# matrix), else why not.
std::string fits(const hw_model::Platform& platform, const TraceMachine& machine);

// PresetChoice: the chosen preset and one line saying why.
struct PresetChoice {
  std::string preset;
  std::string why;
};

// choose_preset: among `presets` (name, platform), the one that fits the
// trace, preferring an exact GPU count; an error naming the nearest presets
// (same GPU family first, then by GPU count) when none fits. A trace that
// records no GPU model gets `fallback`.
Result<PresetChoice> choose_preset(
    const TraceMachine& machine,
    const std::vector<std::pair<std::string, hw_model::Platform>>& presets,
    const std::string& fallback);

// choose_preset: the same over every preset load_platform finds (cached).
Result<PresetChoice> choose_preset(const TraceMachine& machine, const std::string& fallback);

// describe: "4 x NVIDIA H200 (NV18 between every pair)" for messages.
std::string describe(const TraceMachine& machine);

}  // namespace xferlab::sim
