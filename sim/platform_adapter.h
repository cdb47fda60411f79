// sim/platform_adapter.h — Machine from a hw_model::Platform: topology,
// link bundles with hw_model's packetization, and every mechanism's costs
// taken from the platform's models (docs/sim.md, "Platform mapping").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "hw_model/platform.h"
#include "sim/machine.h"

namespace xferlab::sim {

// machine_from_platform: `num_gpus` 0 keeps the preset's GPU count; another
// value scales the same topology (NVSwitch, mesh, PCIe tree) to that count.
Result<Machine> machine_from_platform(const hw_model::Platform& platform, uint32_t num_gpus = 0);

// load_machine: load_platform(preset) + set_parameter for each "key=value"
// in `sets` + validate + machine_from_platform. Errors name the preset or key
// (with a did-you-mean for unknown keys); exit code 2.
Result<Machine> load_machine(const std::string& preset, const std::vector<std::string>& sets,
                             uint32_t num_gpus = 0);

}  // namespace xferlab::sim
