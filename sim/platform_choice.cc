// sim/platform_choice.cc — preset choice from the trace's machine record.
#include "sim/platform_choice.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <tuple>

#include "common/number.h"

namespace xferlab::sim {

namespace hw = hw_model;

std::string gpu_family(std::string_view model) {
  // The first word that is one or two letters and digits, maybe with a
  // letter suffix (H200, V100, K40m -> K40, GH200), upper-cased.
  std::string word;
  auto take = [](const std::string& w) {
    size_t i = 0;
    while (i < w.size() && std::isalpha(static_cast<unsigned char>(w[i]))) ++i;
    if (i == 0 || i > 2 || i == w.size()) return std::string();
    size_t j = i;
    while (j < w.size() && std::isdigit(static_cast<unsigned char>(w[j]))) ++j;
    if (j == i) return std::string();
    for (size_t k = j; k < w.size(); ++k)  // a letter suffix (K40m) is not the family
      if (!std::isalpha(static_cast<unsigned char>(w[k]))) return std::string();
    return w.substr(0, j);
  };
  for (size_t i = 0; i <= model.size(); ++i) {
    const char c = i < model.size() ? model[i] : ' ';
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      continue;
    }
    if (std::string f = take(word); !f.empty()) return f;
    word.clear();
  }
  return "";
}

bool is_pcie_card(std::string_view model) {
  std::string upper(model);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper.find("PCIE") != std::string::npos;
}

std::optional<TopologySummary> parse_topology(std::string_view text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("GPU", 0) != 0 || line.size() < 4 ||
        !std::isdigit(static_cast<unsigned char>(line[3]))) {
      continue;
    }
    std::istringstream ls(line);
    std::vector<std::string> cells;
    for (std::string c; ls >> c;) cells.push_back(c);
    rows.push_back(std::move(cells));
  }
  if (rows.empty()) return std::nullopt;
  TopologySummary t;
  t.gpus = static_cast<uint32_t>(rows.size());
  t.min_nvlinks = INT64_MAX;
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < rows.size(); ++j) {
      if (i == j || j + 1 >= rows[i].size()) continue;
      const std::string& c = rows[i][j + 1];
      // "NV18": 18 NVLinks; anything else (SYS, PIX, X, a malformed NVxx) none.
      const Result<int64_t> nv =
          c.rfind("NV", 0) == 0 ? parse_int(c.substr(2)) : Result<int64_t>(0);
      const int64_t links = nv.ok() && *nv > 0 ? *nv : 0;
      t.min_nvlinks = std::min(t.min_nvlinks, links);
      t.max_nvlinks = std::max(t.max_nvlinks, links);
    }
  }
  if (t.min_nvlinks == INT64_MAX) t.min_nvlinks = 0;
  return t;
}

namespace {

const char* kind_name(hw::TopologyKind k) {
  switch (k) {
    case hw::TopologyKind::kDirectPair: return "direct_pair";
    case hw::TopologyKind::kNvlinkMesh: return "nvlink_mesh";
    case hw::TopologyKind::kNvswitch: return "nvswitch";
    case hw::TopologyKind::kPcieTree: return "pcie_tree";
  }
  return "?";
}

std::string summary(const std::string& name, const hw::Platform& p) {
  return name + " (" + std::to_string(p.gpu.count) + " x " + p.gpu.model + ", " +
         kind_name(p.topology.kind) + ")";
}

// rank: a fitting preset's order of preference (least first): the exact GPU
// count, then the same form factor (a PCIe card or not: "NVIDIA H100 PCIe"
// vs "NVIDIA H100 80GB HBM3", an SXM module), then the smallest machine that
// holds the run. None ranks before the exact count in the same form factor.
std::tuple<bool, bool, int64_t> rank(const hw::Platform& p, const TraceMachine& m) {
  return std::make_tuple(p.gpu.count != m.gpus,
                         is_pcie_card(p.gpu.model) != is_pcie_card(m.gpu_model), p.gpu.count);
}

}  // namespace

std::string describe(const TraceMachine& m) {
  std::string s = std::to_string(m.gpus) + " x " + (m.gpu_model.empty() ? "?" : m.gpu_model);
  if (auto t = parse_topology(m.topology_text); t && t->gpus > 1) {
    s += t->min_nvlinks == t->max_nvlinks
             ? " (NV" + std::to_string(t->max_nvlinks) + " between every pair)"
             : " (NV" + std::to_string(t->min_nvlinks) + "-NV" + std::to_string(t->max_nvlinks) +
                   " between pairs)";
  }
  return s;
}

std::string fits(const hw::Platform& p, const TraceMachine& m) {
  const std::string family = gpu_family(m.gpu_model);
  if (family.empty() || gpu_family(p.gpu.model) != family) {
    return "GPU " + p.gpu.model + ", trace " + (m.gpu_model.empty() ? "?" : m.gpu_model);
  }
  const hw::TopologyConfig& t = p.topology;
  const int64_t n = m.gpus;
  if (n > p.gpu.count) {
    return std::to_string(p.gpu.count) + " GPUs, trace " + std::to_string(n);
  }
  if (t.kind == hw::TopologyKind::kDirectPair && n != 2) {
    return "a direct pair of 2 GPUs, trace " + std::to_string(n);
  }
  const std::optional<TopologySummary> topo = parse_topology(m.topology_text);
  if (!topo || topo->gpus < 2 || n < 2) return "";
  const bool uniform = topo->min_nvlinks == topo->max_nvlinks;
  auto links_text = [&] { return "trace NV" + std::to_string(topo->max_nvlinks); };
  switch (t.kind) {
    case hw::TopologyKind::kDirectPair:
    case hw::TopologyKind::kNvlinkMesh:
      if (!uniform || topo->max_nvlinks != t.links_per_gpu_pair) {
        return std::to_string(t.links_per_gpu_pair) + " links per GPU pair, " + links_text();
      }
      if (t.kind == hw::TopologyKind::kNvlinkMesh && t.gpus_per_group > 0 && t.gpus_per_group < n) {
        return "mesh groups of " + std::to_string(t.gpus_per_group) + ", trace " +
               std::to_string(n) + " GPUs all NVLinked";
      }
      return "";
    case hw::TopologyKind::kNvswitch:
      // Through a switch every pair reports all of a GPU's links.
      if (!uniform || topo->max_nvlinks != t.links_per_gpu) {
        return std::to_string(t.links_per_gpu) + " links per GPU into a switch, " + links_text();
      }
      return "";
    case hw::TopologyKind::kPcieTree:
      if (topo->max_nvlinks > 0) return "PCIe only, " + links_text();
      return "";
  }
  return "";
}

Result<PresetChoice> choose_preset(const TraceMachine& m,
                                   const std::vector<std::pair<std::string, hw::Platform>>& presets,
                                   const std::string& fallback) {
  if (gpu_family(m.gpu_model).empty()) {
    return PresetChoice{fallback, "the trace records no GPU model: default preset"};
  }
  const std::pair<std::string, hw::Platform>* best = nullptr;
  for (const auto& np : presets) {
    if (!fits(np.second, m).empty()) continue;
    if (best == nullptr || rank(np.second, m) < rank(best->second, m)) best = &np;
  }
  if (best != nullptr) {
    return PresetChoice{best->first,
                        "chosen for " + describe(m) + ": " + summary(best->first, best->second)};
  }
  // Nearest: same GPU family first, then by GPU count; three at most.
  const std::string family = gpu_family(m.gpu_model);
  std::vector<const std::pair<std::string, hw::Platform>*> order;
  for (const auto& np : presets) order.push_back(&np);
  std::stable_sort(order.begin(), order.end(), [&](auto* a, auto* b) {
    const bool fa = gpu_family(a->second.gpu.model) == family;
    const bool fb = gpu_family(b->second.gpu.model) == family;
    if (fa != fb) return fa;
    return std::llabs(a->second.gpu.count - m.gpus) < std::llabs(b->second.gpu.count - m.gpus);
  });
  std::string nearest;
  for (size_t i = 0; i < order.size() && i < 3; ++i) {
    nearest += (i ? "; " : "") + summary(order[i]->first, order[i]->second) + ": " +
               fits(order[i]->second, m);
  }
  return make_error("no platform preset fits " + describe(m) + " (nearest: " + nearest +
                    "); pass --platform PRESET (and --gpus N to scale one)");
}

namespace {

// may_be_family: whether a preset of this TOML text can have a GPU of
// `family`: gpu_family takes its letters and digits from the model name, so
// that name, and the text, hold them (any case) unless the text escapes
// characters (a backslash: then it may).
bool may_be_family(std::string_view toml, const std::string& family) {
  if (toml.find('\\') != std::string_view::npos) return true;
  auto same = [](char a, char b) {
    return std::toupper(static_cast<unsigned char>(a)) ==
           std::toupper(static_cast<unsigned char>(b));
  };
  return std::search(toml.begin(), toml.end(), family.begin(), family.end(), same) != toml.end();
}

}  // namespace

Result<PresetChoice> choose_preset(const TraceMachine& m, const std::string& fallback) {
  // Only a preset of the trace's GPU family can fit (fits() checks that
  // first), so the built-in presets whose text cannot name that family are
  // not parsed (~0.2 ms each; docs/performance.md): among the others the
  // choice is the one over every preset (the same fitting presets in the same
  // order). When every preset is built in (constants that parse, tested),
  // the first that fits with the least rank any preset can have is the
  // choice, and the rest are not parsed either (~0.5 ms for an H200 preset);
  // a preset file may not parse, which is an error as before. When none
  // fits, every preset is read for the message below.
  if (const std::string family = gpu_family(m.gpu_model); !family.empty()) {
    const std::vector<std::string> names = hw::list_presets();
    std::vector<std::optional<std::string_view>> texts;  // of the built-in ones
    for (const std::string& name : names) texts.push_back(hw::builtin_preset_text(name));
    const bool all_built_in =
        std::all_of(texts.begin(), texts.end(), [](const auto& t) { return t.has_value(); });
    std::vector<std::pair<std::string, hw::Platform>> some;
    bool parsed = true;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string& name = names[i];
      if (texts[i] && !may_be_family(*texts[i], family)) continue;
      Result<hw::Platform> p = hw::load_platform(name);
      if (!p.ok()) {
        parsed = false;  // reported below
        break;
      }
      const bool least_rank =
          fits(*p, m).empty() && rank(*p, m) == std::make_tuple(false, false, int64_t{m.gpus});
      some.emplace_back(name, std::move(*p));
      if (all_built_in && least_rank) break;
    }
    if (parsed) {
      if (Result<PresetChoice> c = choose_preset(m, some, fallback); c.ok()) return c;
    }
  }
  static std::mutex mu;
  static std::vector<std::pair<std::string, hw::Platform>>* cache = nullptr;
  std::lock_guard<std::mutex> lock(mu);
  if (cache == nullptr) {
    cache = new std::vector<std::pair<std::string, hw::Platform>>();
    for (const std::string& name : hw::list_presets()) {
      Result<hw::Platform> p = hw::load_platform(name);
      if (!p.ok()) {
        delete cache;
        cache = nullptr;
        return make_error("preset " + name + ": " + p.error().message);
      }
      cache->emplace_back(name, *p);
    }
  }
  return choose_preset(m, *cache, fallback);
}

}  // namespace xferlab::sim
