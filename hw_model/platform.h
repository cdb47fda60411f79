// hw_model/platform.h — Platform: one machine (GPUs, CPU, links and topology,
// plus the configs of every hardware/software model), loaded from a
// human-editable TOML preset where every number carries its unit and a source
// note; `--set key=value` overrides; dumps with all defaults resolved.
//
// Preset lookup (load_platform("NAME")): NAME ending in ".toml" or containing
// '/' is a path. Otherwise NAME.toml in every directory of $XFERLAB_PRESETS
// (colon-separated), then the presets compiled into the binary
// (hw_model/presets/*.toml, embedded_presets.h), so an installed binary needs
// no source tree.
// Format and keys: docs/hw_model.md §7 (`xferlab platform keys` prints them).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hw_model/counter_unit.h"
#include "hw_model/dma_agent.h"
#include "hw_model/link_model.h"
#include "hw_model/mpi_node.h"
#include "hw_model/notification.h"
#include "hw_model/param_table.h"
#include "hw_model/software_mechanisms.h"
#include "hw_model/write_coalescer.h"

namespace xferlab::hw_model {

struct GpuConfig {
  std::string model = "generic";         ///< marketing name ("V100-SXM2-16GB").
  int64_t count = 2;                     ///< GPUs in the whole machine (all nodes).
  int64_t sm_count = 80;                 ///< streaming multiprocessors per GPU.
  int64_t max_warps_per_sm = 64;         ///< resident warp slots per SM.
  int64_t max_resident_grids = 128;      ///< kernels resident at once (CDP children included).
  double clock_hz = 1.5e9;               ///< SM clock.
  double memory_bw_bytes_per_s = 900e9;  ///< device memory bandwidth.
  double memory_bytes = 16e9;            ///< device memory capacity.

  Status validate() const;
  static std::span<const Param<GpuConfig>> params();
};

struct CpuConfig {
  std::string model = "generic";         ///< CPU name.
  int64_t sockets = 1;                   ///< sockets per node.
  int64_t cores_per_socket = 16;         ///< cores per socket.
  double clock_hz = 2.5e9;               ///< core clock.
  double memory_bw_bytes_per_s = 100e9;  ///< host memory bandwidth per node.

  Status validate() const;
  static std::span<const Param<CpuConfig>> params();
};

enum class TopologyKind {
  kDirectPair,  ///< two GPUs joined by links_per_gpu_pair links.
  kNvlinkMesh,  ///< GPUs of a group joined pairwise by links_per_gpu_pair links.
  kNvswitch,    ///< every GPU has links_per_gpu links into a switch fabric.
  kPcieTree,    ///< GPUs reach each other through PCIe switches / the root complex.
};

struct TopologyConfig {
  TopologyKind kind = TopologyKind::kDirectPair;
  int64_t nodes = 1;               ///< nodes joined by the network link.
  int64_t gpus_per_group = 0;      ///< mesh: GPUs linked directly (same socket); 0 = whole node.
  int64_t links_per_gpu_pair = 1;  ///< direct-pair/mesh: links between two GPUs of a group.
  int64_t links_per_gpu = 1;       ///< nvswitch / pcie tree: links from a GPU to the fabric.
  int64_t host_links_per_gpu = 1;  ///< CPU-GPU links per GPU.
  int64_t nics_per_node = 1;       ///< network ports per node.

  Status validate() const;
  static std::span<const Param<TopologyConfig>> params();
};

// Platform: the whole machine. Call validate() after editing fields directly
// or after a series of set_parameter calls.
struct Platform {
  std::string name = "unnamed";  ///< preset name.
  std::string description;       ///< one line.
  std::string source;            ///< where the machine's numbers come from.
  std::string origin;            ///< file it was loaded from ("" if built in code).
  /// Measurements the fitted constants come from, "; "-separated path globs
  /// relative to traces/real (files or traces); `xferlab validate` labels a
  /// trace matching one in-sample, every other held-out (docs/validation.md).
  std::string fitted_on;

  GpuConfig gpu;
  CpuConfig cpu;
  TopologyConfig topology;
  LinkFormat gpu_link;      ///< GPU-GPU link (one link, per direction).
  LinkFormat host_link;     ///< CPU-GPU link.
  LinkFormat network_link;  ///< inter-node link (one NIC port).
  CoalescingConfig coalescing;
  CounterUnitConfig counter_unit;
  DmaAgentConfig dma_agent;
  CopyEngineConfig copy_engine;
  NotificationConfig notification;
  SoftwareConfig software;
  MpiNodeConfig mpi_node;  ///< on-node multi-rank MPI step (halo replay; 0 = none).

  std::map<std::string, std::string> sources;  ///< "section" or "section.key" -> source note.
  /// "section.key" -> one standard error of a fitted value, in the key's
  /// base unit (ns, B/s, ...), from the fit's residuals (xferlab calibrate,
  /// docs/calibration.md). Written in the value table: { value = "5.622us",
  /// uncertainty = "31ns", source = "..." }. Documentation only: the models
  /// use the value.
  std::map<std::string, double> uncertainties;
  /// Keys given explicitly (in the file, by set_parameter); a link section's
  /// other keys come with its `format`. Every other key takes the model
  /// default (defaulted_keys).
  std::set<std::string> given_keys;
  /// "FILE:LINE: key 'K': VALUE is outside the plausible range A..B", one per
  /// implausible value in the file (Param::plausible); tools print them.
  std::vector<std::string> warnings;

  int64_t gpus_per_node() const;
  // validate: each config, then combinations (direct pair needs 2 GPUs per
  // node, GPU count divisible by nodes, mesh links fit, ...).
  Status validate() const;
};

// GpuPairPath: how GPU a reaches GPU b (global indices 0..gpu.count-1).
struct GpuPairPath {
  enum class Via { kSelf, kGpuLinks, kSwitch, kHost, kNetwork };
  Via via = Via::kSelf;
  int64_t links = 0;                       ///< parallel links of the narrowest hop.
  const LinkFormat* bottleneck = nullptr;  ///< format of the narrowest hop (null for kSelf).
};
GpuPairPath gpu_pair_path(const Platform& platform, int64_t a, int64_t b);

// load_platform: a preset name or a file path (see the lookup order above).
Result<Platform> load_platform(std::string_view preset_name_or_path);
// parse_platform: TOML text; `file_name` prefixes errors ("FILE:LINE: key 'x': problem").
Result<Platform> parse_platform(std::string_view toml_text, std::string_view file_name);
// find_preset: the file load_platform would open for a name, or
// "hw_model/presets/NAME.toml (built in)" for an embedded preset.
Result<std::string> find_preset(std::string_view preset_name);
// list_presets: names of every preset found ($XFERLAB_PRESETS and built in).
std::vector<std::string> list_presets();
// builtin_preset_text: the TOML text load_platform(name) parses when that is
// a built-in preset (no preset file of that name comes first), else nullopt.
std::optional<std::string_view> builtin_preset_text(std::string_view name);

// set_parameter: `--set gpu_link.header_bytes=16B`. Keys are "section.key" as
// in parameter_keys(); "SECTION.format" (link sections) resets that link to a
// builtin format. Unknown keys -> error with did_you_mean. Does not run
// Platform::validate() (combinations may be mid-edit).
Status set_parameter(Platform& platform, std::string_view dotted_key, std::string_view value);
// set_parameters: set_parameter for each "key=value" of `sets` (`--set`), in
// order; no validate(). Errors: "--set 'KV': expected key=value", "--set KV:
// <set_parameter's error>" (unknown keys with did_you_mean).
Status set_parameters(Platform& platform, const std::vector<std::string>& sets);
// get_parameter: the value as text with unit, as dumps write it.
Result<std::string> get_parameter(const Platform& platform, std::string_view dotted_key);
// parameter_keys: every settable key, in dump order.
std::vector<std::string> parameter_keys(const Platform& platform);

// ParamInfo: one row of the generated parameter reference.
struct ParamInfo {
  std::string key;   ///< "counter_unit.update_latency_cycles"
  std::string unit;  ///< "time", "bandwidth", "number", "count", "text", "bool" or "choice"
                     ///< (enums: the description ends with "(one of: a, b, c)").
  std::string default_value;
  std::string description;
};
// parameter_reference: all keys with defaults of a default-constructed Platform
// (link sections show the builtin format's defaults).
std::vector<ParamInfo> parameter_reference();

// defaulted_keys: the model-parameter keys (sections, not the top-level
// name/description/...) that neither the file nor set_parameter gave and no
// link `format` supplies: they silently take the model default.
std::vector<std::string> defaulted_keys(const Platform& platform);

// check_strict: `--strict`: a usage error with the first plausibility
// warning, else naming the file, the number of defaulted keys and the first few.
Status check_strict(const Platform& platform);

// dump_platform: TOML text of `platform` with every parameter resolved; loads
// back to an equal Platform.
// With mark_defaults, defaulted keys end with "# default" (platform show).
std::string dump_platform(const Platform& platform, bool mark_defaults = false);

}  // namespace xferlab::hw_model
