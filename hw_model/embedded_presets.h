// hw_model/embedded_presets.h — the preset TOML files compiled into the
// binary (generated from hw_model/presets/*.toml by the //hw_model BUILD), so
// an installed xferlab finds its presets without the source tree.
#pragma once

#include <span>
#include <string_view>

namespace xferlab::hw_model {

struct EmbeddedPreset {
  std::string_view name;  ///< file stem: "h200x2_nvlink4".
  std::string_view toml;  ///< the file's text.
};

// embedded_presets: every preset, sorted by name.
std::span<const EmbeddedPreset> embedded_presets();

}  // namespace xferlab::hw_model
