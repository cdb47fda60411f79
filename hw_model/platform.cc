// hw_model/platform.cc — Platform presets: TOML parsing with validation,
// --set overrides, dumps and the parameter reference, all from the per-config
// parameter tables (docs/hw_model.md §7).
#include "hw_model/platform.h"

#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "hw_model/embedded_presets.h"

namespace xferlab::hw_model {
namespace {

constexpr EnumName<TopologyKind> kTopologyNames[] = {
    {TopologyKind::kDirectPair, "direct_pair"},
    {TopologyKind::kNvlinkMesh, "nvlink_mesh"},
    {TopologyKind::kNvswitch, "nvswitch"},
    {TopologyKind::kPcieTree, "pcie_tree"},
};

using G = GpuConfig;
const Param<G> kGpuParams[] = {
    {"model", Unit::kNone, "GPU name", &G::model},
    {"count", Unit::kNone, "GPUs in the whole machine (all nodes)", &G::count, {1, 1e6}},
    {"sm_count", Unit::kNone, "streaming multiprocessors per GPU", &G::sm_count, {1, 1e4}},
    {"max_warps_per_sm",
     Unit::kNone,
     "resident warp slots per SM",
     &G::max_warps_per_sm,
     {1, 1024}},
    {"max_resident_grids",
     Unit::kNone,
     "kernels resident on the GPU at once (CDP children too)",
     &G::max_resident_grids,
     {1, 1e5}},
    {"clock", Unit::kFrequencyHz, "SM clock", &G::clock_hz, {1e8, 1e10}},
    {"memory_bw",
     Unit::kBandwidthBytesPerS,
     "device memory bandwidth",
     &G::memory_bw_bytes_per_s,
     {1e9, 1e14}},
    {"memory_size", Unit::kSizeBytes, "device memory capacity", &G::memory_bytes, {1e8, 1e13}},
};

using P = CpuConfig;
const Param<P> kCpuParams[] = {
    {"model", Unit::kNone, "CPU name", &P::model},
    {"sockets", Unit::kNone, "sockets per node", &P::sockets, {1, 64}},
    {"cores_per_socket", Unit::kNone, "cores per socket", &P::cores_per_socket, {1, 4096}},
    {"clock", Unit::kFrequencyHz, "core clock", &P::clock_hz, {1e8, 1e10}},
    {"memory_bw",
     Unit::kBandwidthBytesPerS,
     "host memory bandwidth per node",
     &P::memory_bw_bytes_per_s,
     {1e9, 1e14}},
};

using T = TopologyConfig;
const Param<T> kTopologyParams[] = {
    {"kind", Unit::kNone, "how GPUs are joined",
     enum_field<T, TopologyKind, &T::kind, kTopologyNames>()},
    {"nodes", Unit::kNone, "nodes joined by the network link", &T::nodes, {1, 1e6}},
    {"gpus_per_group", Unit::kNone, "mesh: GPUs linked directly (0 = whole node)",
     &T::gpus_per_group},
    {"links_per_gpu_pair", Unit::kNone, "links between two GPUs of a group",
     &T::links_per_gpu_pair},
    {"links_per_gpu", Unit::kNone, "links from a GPU into the switch fabric", &T::links_per_gpu},
    {"host_links_per_gpu", Unit::kNone, "CPU-GPU links per GPU", &T::host_links_per_gpu},
    {"nics_per_node", Unit::kNone, "network ports per node", &T::nics_per_node},
};

}  // namespace

std::span<const Param<GpuConfig>> GpuConfig::params() {
  return kGpuParams;
}
std::span<const Param<CpuConfig>> CpuConfig::params() {
  return kCpuParams;
}
std::span<const Param<TopologyConfig>> TopologyConfig::params() {
  return kTopologyParams;
}

Status GpuConfig::validate() const {
  if (count < 1) return make_error("key 'count': must be >= 1");
  if (sm_count < 1) return make_error("key 'sm_count': must be >= 1");
  if (max_warps_per_sm < 1) return make_error("key 'max_warps_per_sm': must be >= 1");
  if (max_resident_grids < 1) return make_error("key 'max_resident_grids': must be >= 1");
  if (!(clock_hz > 0)) return make_error("key 'clock': must be > 0");
  if (!(memory_bw_bytes_per_s > 0)) return make_error("key 'memory_bw': must be > 0");
  if (!(memory_bytes > 0)) return make_error("key 'memory_size': must be > 0");
  return Status::Ok();
}

Status CpuConfig::validate() const {
  if (sockets < 1) return make_error("key 'sockets': must be >= 1");
  if (cores_per_socket < 1) return make_error("key 'cores_per_socket': must be >= 1");
  if (!(clock_hz > 0)) return make_error("key 'clock': must be > 0");
  if (!(memory_bw_bytes_per_s > 0)) return make_error("key 'memory_bw': must be > 0");
  return Status::Ok();
}

Status TopologyConfig::validate() const {
  if (nodes < 1) return make_error("key 'nodes': must be >= 1");
  if (gpus_per_group < 0) return make_error("key 'gpus_per_group': must be >= 0");
  if (links_per_gpu_pair < 1) return make_error("key 'links_per_gpu_pair': must be >= 1");
  if (links_per_gpu < 1) return make_error("key 'links_per_gpu': must be >= 1");
  if (host_links_per_gpu < 1) return make_error("key 'host_links_per_gpu': must be >= 1");
  if (nics_per_node < 1) return make_error("key 'nics_per_node': must be >= 1");
  return Status::Ok();
}

namespace {

// Field: one settable key of a Platform ("gpu.count"), bound to its member.
struct Field {
  enum class Kind { kQuantity, kNumber, kCount, kBool, kText };
  std::string section;  // "" for top-level keys
  std::string key;      // inside the section
  Kind kind;
  std::string unit_text;
  std::string description;
  std::function<std::string(const Platform&)> get;
  std::function<Status(Platform&, std::string_view)> set;
  /// "" or "VALUE is outside the plausible range A..B" (Param::plausible).
  std::function<std::string(const Platform&)> implausible;

  std::string dotted() const { return section.empty() ? key : section + "." + key; }
};

template <typename C>
Field::Kind kind_of(const Param<C>& p) {
  struct V {
    Unit unit;
    Field::Kind operator()(double C::*) const {
      return unit == Unit::kNone ? Field::Kind::kNumber : Field::Kind::kQuantity;
    }
    Field::Kind operator()(int64_t C::*) const { return Field::Kind::kCount; }
    Field::Kind operator()(bool C::*) const { return Field::Kind::kBool; }
    Field::Kind operator()(std::string C::*) const { return Field::Kind::kText; }
    Field::Kind operator()(const EnumField<C>&) const { return Field::Kind::kText; }
  };
  return std::visit(V{p.unit}, p.field);
}

template <typename C>
void add_section(std::vector<Field>& out, const char* section, C Platform::*member) {
  for (const Param<C>& p : C::params()) {
    const Param<C>* param = &p;
    out.push_back(Field{
        section, p.key, kind_of(p), param_unit_text(p), p.description,
        [param, member](const Platform& pl) { return param_value_text(*param, pl.*member); },
        [param, member](Platform& pl, std::string_view v) {
          return set_param_from_text(*param, pl.*member, v);
        },
        [param, member](const Platform& pl) { return implausible_value(*param, pl.*member); }});
  }
}

// Link sections start with `format`, which resets the whole link to a builtin.
void add_link_section(std::vector<Field>& out, const char* section, LinkFormat Platform::*member) {
  std::string choices;
  for (const std::string& n : builtin_link_format_names())
    choices += (choices.empty() ? "" : "|") + n;
  out.push_back(Field{section, "format", Field::Kind::kText, choices,
                      "builtin interconnect the other keys of this section modify",
                      [member](const Platform& pl) { return (pl.*member).name; },
                      [member](Platform& pl, std::string_view v) -> Status {
                        Result<LinkFormat> f = builtin_link_format(v);
                        if (!f.ok()) return f.error();
                        pl.*member = *f;
                        return Status::Ok();
                      },
                      [](const Platform&) { return std::string(); }});
  add_section(out, section, member);
}

const std::vector<Field>& fields() {
  static const std::vector<Field> kFields = [] {
    std::vector<Field> f;
    auto top = [&](const char* key, std::string Platform::*m, const char* description) {
      f.push_back(Field{"", key, Field::Kind::kText, "text", description,
                        [m](const Platform& pl) { return pl.*m; },
                        [m](Platform& pl, std::string_view v) {
                          pl.*m = std::string(v);
                          return Status::Ok();
                        },
                        [](const Platform&) { return std::string(); }});
    };
    top("name", &Platform::name, "preset name");
    top("description", &Platform::description, "one-line description");
    top("source", &Platform::source, "where the machine's numbers come from");
    top("fitted_on", &Platform::fitted_on,
        "measurements fitted constants come from: '; '-separated path globs under traces/real");
    add_section(f, "gpu", &Platform::gpu);
    add_section(f, "cpu", &Platform::cpu);
    add_section(f, "topology", &Platform::topology);
    add_link_section(f, "gpu_link", &Platform::gpu_link);
    add_link_section(f, "host_link", &Platform::host_link);
    add_link_section(f, "network_link", &Platform::network_link);
    add_section(f, "coalescing", &Platform::coalescing);
    add_section(f, "counter_unit", &Platform::counter_unit);
    add_section(f, "dma_agent", &Platform::dma_agent);
    add_section(f, "copy_engine", &Platform::copy_engine);
    add_section(f, "notification", &Platform::notification);
    add_section(f, "software", &Platform::software);
    return f;
  }();
  return kFields;
}

const Field* find_field(std::string_view dotted) {
  for (const Field& f : fields())
    if (f.dotted() == dotted) return &f;
  return nullptr;
}

std::vector<std::string> section_names() {
  std::vector<std::string> names;
  for (const Field& f : fields())
    if (!f.section.empty() && (names.empty() || names.back() != f.section))
      names.push_back(f.section);
  return names;
}

std::vector<std::string> keys_of(std::string_view section) {
  std::vector<std::string> keys;
  for (const Field& f : fields())
    if (f.section == section) keys.push_back(f.key);
  if (!section.empty()) keys.push_back("source");
  return keys;
}

std::string prefix_section(const Error& e, std::string_view section) {
  // Config validate() messages read "key 'x': ..."; make the key dotted.
  const std::string kKey = "key '";
  if (e.message.rfind(kKey, 0) == 0)
    return kKey + std::string(section) + "." + e.message.substr(kKey.size());
  return std::string(section) + ": " + e.message;
}

}  // namespace

int64_t Platform::gpus_per_node() const {
  return topology.nodes > 0 ? gpu.count / topology.nodes : gpu.count;
}

Status Platform::validate() const {
  struct Part {
    const char* section;
    Status status;
  };
  const Part parts[] = {
      {"gpu", gpu.validate()},
      {"cpu", cpu.validate()},
      {"topology", topology.validate()},
      {"gpu_link", gpu_link.validate()},
      {"host_link", host_link.validate()},
      {"network_link", network_link.validate()},
      {"coalescing", coalescing.validate()},
      {"counter_unit", counter_unit.validate()},
      {"dma_agent", dma_agent.validate()},
      {"copy_engine", copy_engine.validate()},
      {"notification", notification.validate()},
      {"software", software.validate()},
  };
  for (const Part& p : parts)
    if (!p.status.ok()) return make_error(prefix_section(p.status.error(), p.section));
  if (gpu.count % topology.nodes != 0)
    return make_error("key 'topology.nodes': gpu.count " + std::to_string(gpu.count) +
                      " is not a multiple of " + std::to_string(topology.nodes) + " nodes");
  int64_t per_node = gpus_per_node();
  switch (topology.kind) {
    case TopologyKind::kDirectPair:
      if (per_node != 2)
        return make_error("key 'topology.kind': direct_pair needs 2 GPUs per node, not " +
                          std::to_string(per_node));
      break;
    case TopologyKind::kNvlinkMesh: {
      int64_t group = topology.gpus_per_group > 0 ? topology.gpus_per_group : per_node;
      if (per_node % group != 0)
        return make_error("key 'topology.gpus_per_group': " + std::to_string(group) +
                          " does not divide the " + std::to_string(per_node) + " GPUs per node");
      if (gpu_link.family != LinkFamily::kNvlink)
        return make_error("key 'topology.kind': nvlink_mesh needs an NVLink gpu_link, not '" +
                          gpu_link.name + "'");
      break;
    }
    case TopologyKind::kNvswitch:
      if (gpu_link.family != LinkFamily::kNvlink)
        return make_error("key 'topology.kind': nvswitch needs an NVLink gpu_link, not '" +
                          gpu_link.name + "'");
      if (gpu_link.switch_hops < 1)
        return make_error("key 'gpu_link.switch_hops': nvswitch topology needs at least 1 hop");
      break;
    case TopologyKind::kPcieTree:
      if (gpu_link.family != LinkFamily::kPcie)
        return make_error("key 'topology.kind': pcie_tree needs a PCIe gpu_link, not '" +
                          gpu_link.name + "'");
      break;
  }
  if (dma_agent.packet_bytes > gpu_link.max_payload_bytes)
    return make_error("key 'dma_agent.packet_size': larger than gpu_link.max_payload");
  if (coalescing.line_bytes > gpu_link.max_payload_bytes * 64)
    return make_error("key 'coalescing.line': implausibly larger than gpu_link.max_payload");
  return Status::Ok();
}

GpuPairPath gpu_pair_path(const Platform& platform, int64_t a, int64_t b) {
  GpuPairPath path;
  if (a == b) return path;
  int64_t per_node = platform.gpus_per_node();
  const TopologyConfig& t = platform.topology;
  if (per_node <= 0 || a / per_node != b / per_node) {
    path.via = GpuPairPath::Via::kNetwork;
    path.links = t.nics_per_node;
    path.bottleneck = &platform.network_link;
    return path;
  }
  switch (t.kind) {
    case TopologyKind::kDirectPair:
      path.via = GpuPairPath::Via::kGpuLinks;
      path.links = t.links_per_gpu_pair;
      path.bottleneck = &platform.gpu_link;
      break;
    case TopologyKind::kNvlinkMesh: {
      int64_t group = t.gpus_per_group > 0 ? t.gpus_per_group : per_node;
      if ((a % per_node) / group == (b % per_node) / group) {
        path.via = GpuPairPath::Via::kGpuLinks;
        path.links = t.links_per_gpu_pair;
        path.bottleneck = &platform.gpu_link;
      } else {
        path.via = GpuPairPath::Via::kHost;
        path.links = t.host_links_per_gpu;
        path.bottleneck = &platform.host_link;
      }
      break;
    }
    case TopologyKind::kNvswitch:
    case TopologyKind::kPcieTree:
      path.via = GpuPairPath::Via::kSwitch;
      path.links = t.links_per_gpu;
      path.bottleneck = &platform.gpu_link;
      break;
  }
  return path;
}

Status set_parameter(Platform& platform, std::string_view dotted_key, std::string_view value) {
  const Field* f = find_field(dotted_key);
  if (f == nullptr) {
    return make_error("unknown parameter '" + std::string(dotted_key) + "'" +
                      did_you_mean(dotted_key, parameter_keys(platform)));
  }
  Status s = f->set(platform, value);
  if (!s.ok()) return make_error("key '" + f->dotted() + "': " + s.error().message);
  platform.given_keys.insert(f->dotted());
  return Status::Ok();
}

std::vector<std::string> defaulted_keys(const Platform& platform) {
  std::vector<std::string> out;
  for (const Field& f : fields()) {
    if (f.section.empty() || platform.given_keys.count(f.dotted())) continue;
    if (platform.given_keys.count(f.section + ".format")) continue;  // the builtin link's value.
    out.push_back(f.dotted());
  }
  return out;
}

Status check_strict(const Platform& platform) {
  if (!platform.warnings.empty()) return make_error(platform.warnings.front() + " (--strict)");
  const std::string file = platform.origin.empty() ? platform.name : platform.origin;
  const std::vector<std::string> keys = defaulted_keys(platform);
  if (!keys.empty()) {
    std::string list;
    for (size_t i = 0; i < keys.size() && i < 3; ++i) list += (i ? ", " : "") + keys[i];
    if (keys.size() > 3) list += ", ...";
    return make_error(file + ": " + std::to_string(keys.size()) +
                      " key(s) not in the file take the model default (--strict): " + list);
  }
  return Status::Ok();
}

Result<std::string> get_parameter(const Platform& platform, std::string_view dotted_key) {
  const Field* f = find_field(dotted_key);
  if (f == nullptr) {
    return make_error("unknown parameter '" + std::string(dotted_key) + "'" +
                      did_you_mean(dotted_key, parameter_keys(platform)));
  }
  return f->get(platform);
}

std::vector<std::string> parameter_keys(const Platform&) {
  std::vector<std::string> keys;
  for (const Field& f : fields()) keys.push_back(f.dotted());
  return keys;
}

std::vector<ParamInfo> parameter_reference() {
  Platform defaults;
  std::vector<ParamInfo> out;
  for (const Field& f : fields()) {
    // Enum keys (unit text "a|b|c"): the unit column says "choice" and the
    // description lists the choices.
    if (f.unit_text.find('|') != std::string::npos) {
      std::string choices = f.unit_text;
      for (size_t i = choices.find('|'); i != std::string::npos; i = choices.find('|', i)) {
        choices.replace(i, 1, ", ");
      }
      out.push_back(ParamInfo{f.dotted(), "choice", f.get(defaults),
                              f.description + " (one of: " + choices + ")"});
    } else {
      out.push_back(ParamInfo{f.dotted(), f.unit_text, f.get(defaults), f.description});
    }
  }
  return out;
}

namespace {

// toml_string: a TOML basic string; quotes, backslashes and every control
// character escaped (a raw newline in a name broke the dump's header comment).
std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", u);
      out += esc;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string toml_value(const Field& f, const std::string& text) {
  switch (f.kind) {
    case Field::Kind::kCount: return text == "auto" ? toml_string(text) : text;
    case Field::Kind::kBool: return text;
    case Field::Kind::kNumber:
      // Bare numbers must stay TOML numbers (format_plain never writes "inf").
      return text;
    case Field::Kind::kQuantity:
    case Field::Kind::kText: return toml_string(text);
  }
  return toml_string(text);
}

}  // namespace

std::string dump_platform(const Platform& platform, bool mark_defaults) {
  const std::vector<std::string> defaulted =
      mark_defaults ? defaulted_keys(platform) : std::vector<std::string>{};
  std::ostringstream out;
  const std::string name = toml_string(platform.name);  // escaped: a comment ends at a newline.
  out << "# Platform '" << name.substr(1, name.size() - 2) << "' with every parameter resolved"
      << " (xferlab platform show).\n";
  std::string section = "\x01";
  for (const Field& f : fields()) {
    if (f.section != section) {
      section = f.section;
      if (!section.empty()) {
        out << "\n[" << section << "]\n";
        auto it = platform.sources.find(section);
        if (it != platform.sources.end()) {
          out << "source = " << toml_string(it->second) << "\n";
        } else {
          out << "# model defaults; sources and assumptions: docs/hw_model.md\n";
        }
      }
    }
    std::string value = toml_value(f, f.get(platform));
    auto it = platform.sources.find(f.dotted());
    if (it != platform.sources.end() && !f.section.empty()) {
      out << f.key << " = { value = " << value << ", source = " << toml_string(it->second)
          << " }\n";
    } else {
      out << f.key << " = " << value;
      if (std::find(defaulted.begin(), defaulted.end(), f.dotted()) != defaulted.end())
        out << "  # default";
      out << "\n";
    }
  }
  return out.str();
}

namespace {

std::string where(std::string_view file, const toml::node& node) {
  return std::string(file) + ":" + std::to_string(node.source().begin.line) + ": ";
}

// node_text: a TOML scalar as the text set_parameter takes.
Result<std::string> node_text(const toml::node& node, const Field& f) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* d = node.as_floating_point()) return format_plain(d->get());
  if (const auto* b = node.as_boolean()) return std::string(b->get() ? "true" : "false");
  return make_error("expected a " + f.unit_text + " value");
}

Status apply(Platform& p, std::string_view file, const Field& f, const toml::node& node) {
  const toml::node* value = &node;
  if (const auto* table = node.as_table()) {
    // { value = ..., source = "..." }
    for (auto&& [k, v] : *table) {
      if (k.str() != "value" && k.str() != "source")
        return make_error(where(file, v) + "key '" + f.dotted() + "." + std::string(k.str()) +
                          "': unknown; a value table holds 'value' and 'source'");
    }
    value = table->get("value");
    if (value == nullptr)
      return make_error(where(file, node) + "key '" + f.dotted() + "': value table has no 'value'");
    if (const toml::node* src = table->get("source")) {
      if (!src->is_string())
        return make_error(where(file, *src) + "key '" + f.dotted() + ".source': must be a string");
      p.sources[f.dotted()] = src->as_string()->get();
    }
  }
  if (f.kind == Field::Kind::kQuantity && !value->is_string() &&
      (value->is_integer() || value->is_floating_point())) {
    Result<std::string> text = node_text(*value, f);
    return make_error(where(file, *value) + "key '" + f.dotted() + "': missing unit in '" +
                      (text.ok() ? *text : "?") + "' (write a " + f.unit_text + " with its unit)");
  }
  if (f.kind == Field::Kind::kText && !value->is_string())
    return make_error(where(file, *value) + "key '" + f.dotted() + "': must be a string");
  Result<std::string> text = node_text(*value, f);
  if (!text.ok())
    return make_error(where(file, *value) + "key '" + f.dotted() + "': " + text.error().message);
  Status s = f.set(p, *text);
  if (!s.ok())
    return make_error(where(file, *value) + "key '" + f.dotted() + "': " + s.error().message);
  p.given_keys.insert(f.dotted());
  return Status::Ok();
}

// line_of: where the file sets `dotted` (or its section), for errors found by
// Platform::validate() after parsing.
int64_t line_of(const toml::table& root, std::string_view dotted) {
  size_t dot = dotted.find('.');
  if (dot == std::string_view::npos) {
    const toml::node* n = root.get(dotted);
    return n ? n->source().begin.line : 1;
  }
  const toml::node* section = root.get(dotted.substr(0, dot));
  if (section == nullptr || !section->is_table()) return 1;
  const toml::node* n = section->as_table()->get(dotted.substr(dot + 1));
  return (n ? n : section)->source().begin.line;
}

// toml++ 3.3's is_non_ascii_horizontal_whitespace reaches
// __builtin_unreachable (undefined behaviour) for most code points in three
// of its table blocks (U+00A1..U+0499 and two more; found by
// tools/fuzz_inputs.sh preset under UBSan). It runs where whitespace may
// follow a token, never inside a one-line string or a comment.
bool toml_whitespace_check_undefined(uint32_t c) {
  if (c <= 0xA0 || c >= 0xFEFF || c == 0x3000) return false;
  const uint32_t block = (c - 0xA0) / 0x3FA;
  return block == 0 || block == 11 || block == 63;
}

// check_toml_code_points: an error naming the line for a code point that
// toml++ would mishandle: such characters are accepted in one-line strings
// and comments only (where the presets write "§" and "×").
Status check_toml_code_points(std::string_view t, std::string_view file_name) {
  enum class In { kCode, kComment, kString, kLiteral, kMultiLine };
  In in = In::kCode;
  char quote = 0;  // the multi-line string's quote character.
  int64_t line = 1;
  for (size_t i = 0; i < t.size(); ++i) {
    const auto b = static_cast<unsigned char>(t[i]);
    if (b == '\n') {
      ++line;
      if (in != In::kMultiLine) in = In::kCode;
      continue;
    }
    switch (in) {
      case In::kComment: continue;
      case In::kString:
        if (b == '\\') ++i;
        if (b == '"') in = In::kCode;
        continue;
      case In::kLiteral:
        if (b == '\'') in = In::kCode;
        continue;
      case In::kMultiLine:
        if (b == static_cast<unsigned char>(quote)) {
          // Up to two quotes may end the content right before the closing
          // three: the whole run belongs to the string.
          size_t run = 1;
          while (i + run < t.size() && t[i + run] == quote) ++run;
          if (run >= 3) in = In::kCode;
          i += run - 1;
          continue;
        }
        break;
      case In::kCode:
        if (b == '#') in = In::kComment;
        if (b == '"' || b == '\'') {
          const bool multi = t.substr(i, 3) == std::string(3, char(b));
          in = multi ? In::kMultiLine : b == '"' ? In::kString : In::kLiteral;
          if (multi) {
            quote = static_cast<char>(b);
            i += 2;
          }
        }
        break;
    }
    if (b < 0x80) continue;
    const int n = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1;
    if (n == 1 || i + n > t.size()) continue;  // not UTF-8: toml++ reports it.
    uint32_t c = b & (0x7F >> n);
    for (int k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(t[i + k]) & 0x3F);
    if (toml_whitespace_check_undefined(c)) {
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", c);
      return make_error(std::string(file_name) + ":" + std::to_string(line) + ": character " +
                        code + " is only accepted inside a one-line string or a comment");
    }
    i += n - 1;
  }
  return Status::Ok();
}

}  // namespace

Result<Platform> parse_platform(std::string_view toml_text, std::string_view file_name) {
  XF_RETURN_IF_ERROR(check_toml_code_points(toml_text, file_name));
  toml::parse_result parsed = toml::parse(toml_text, file_name);
  if (!parsed) {
    const toml::parse_error& e = parsed.error();
    return make_error(std::string(file_name) + ":" + std::to_string(e.source().begin.line) + ": " +
                      std::string(e.description()));
  }
  const toml::table& root = parsed.table();
  Platform p;
  p.origin = std::string(file_name);
  std::vector<std::string> sections = section_names();
  std::vector<std::string> top_keys = keys_of("");
  for (const std::string& s : sections) top_keys.push_back(s);
  // Link sections: `format` first, so the section's other keys modify it.
  for (const char* link : {"gpu_link", "host_link", "network_link"}) {
    const toml::table* t = root[link].as_table();
    if (t == nullptr) continue;
    if (const toml::node* fmt = t->get("format"))
      XF_RETURN_IF_ERROR(apply(p, file_name, *find_field(std::string(link) + ".format"), *fmt));
  }
  for (auto&& [key, node] : root) {
    std::string k(key.str());
    if (const toml::table* table = node.as_table()) {
      if (std::find(sections.begin(), sections.end(), k) == sections.end()) {
        return make_error(where(file_name, node) + "section '" + k + "': unknown" +
                          did_you_mean(k, sections));
      }
      for (auto&& [sub, value] : *table) {
        std::string sk(sub.str());
        if (sk == "format") continue;  // applied above
        if (sk == "source") {
          if (!value.is_string())
            return make_error(where(file_name, value) + "key '" + k + ".source': must be a string");
          p.sources[k] = value.as_string()->get();
          continue;
        }
        const Field* f = find_field(k + "." + sk);
        if (f == nullptr) {
          return make_error(where(file_name, value) + "key '" + k + "." + sk + "': unknown" +
                            did_you_mean(sk, keys_of(k)));
        }
        XF_RETURN_IF_ERROR(apply(p, file_name, *f, value));
      }
      continue;
    }
    const Field* f = find_field(k);
    if (f == nullptr) {
      return make_error(where(file_name, node) + "key '" + k + "': unknown" +
                        did_you_mean(k, top_keys));
    }
    XF_RETURN_IF_ERROR(apply(p, file_name, *f, node));
  }
  Status valid = p.validate();
  if (!valid.ok()) {
    const std::string& m = valid.error().message;
    std::string key;
    if (m.rfind("key '", 0) == 0) key = m.substr(5, m.find('\'', 5) - 5);
    return make_error(std::string(file_name) + ":" + std::to_string(line_of(root, key)) + ": " + m);
  }
  for (const Field& f : fields()) {
    if (!p.given_keys.count(f.dotted())) continue;  // defaults are plausible (platform_test).
    const std::string problem = f.implausible(p);
    if (!problem.empty()) {
      p.warnings.push_back(std::string(file_name) + ":" +
                           std::to_string(line_of(root, f.dotted())) + ": key '" + f.dotted() +
                           "': " + problem);
    }
  }
  return p;
}

namespace {

namespace fs = std::filesystem;

// Directories of $XFERLAB_PRESETS, in lookup order (see platform.h).
std::vector<fs::path> preset_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("XFERLAB_PRESETS")) {
    std::stringstream ss(env);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty()) dirs.emplace_back(dir);
  }
  return dirs;
}

const EmbeddedPreset* find_embedded(std::string_view name) {
  for (const EmbeddedPreset& p : embedded_presets())
    if (p.name == name) return &p;
  return nullptr;
}

std::string embedded_origin(std::string_view name) {
  return "hw_model/presets/" + std::string(name) + ".toml (built in)";
}

}  // namespace

Result<std::string> find_preset(std::string_view preset_name) {
  std::string name(preset_name);
  if (name.find('/') != std::string::npos || name.ends_with(".toml")) {
    if (!fs::exists(name)) return make_error("platform file '" + name + "' does not exist");
    return name;
  }
  for (const fs::path& dir : preset_dirs()) {
    fs::path candidate = dir / (name + ".toml");
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  if (find_embedded(name) != nullptr) return embedded_origin(name);
  return make_error("unknown platform preset '" + name + "'" + did_you_mean(name, list_presets()));
}

std::vector<std::string> list_presets() {
  std::vector<std::string> names;
  for (const fs::path& dir : preset_dirs()) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
  }
  for (const EmbeddedPreset& p : embedded_presets()) names.emplace_back(p.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Result<Platform> load_platform(std::string_view preset_name_or_path) {
  Result<std::string> path = find_preset(preset_name_or_path);
  if (!path.ok()) return path.error();
  if (const EmbeddedPreset* e = find_embedded(preset_name_or_path);
      e != nullptr && *path == embedded_origin(e->name))
    return parse_platform(e->toml, *path);
  std::ifstream in(*path);
  if (!in) return make_runtime_error("cannot read platform file '" + *path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_platform(buffer.str(), *path);
}

}  // namespace xferlab::hw_model
