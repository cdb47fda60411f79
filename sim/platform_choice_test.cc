// sim/platform_choice_test.cc — preset choice from GPU model, count and the
// NVLink matrix; the error names the nearest presets.
#include "sim/platform_choice.h"

#include <gtest/gtest.h>

namespace xferlab::sim {
namespace {

namespace hw = hw_model;

hw::Platform preset(const std::string& model, int64_t count, hw::TopologyKind kind, int64_t links) {
  hw::Platform p;
  p.gpu.model = model;
  p.gpu.count = count;
  p.topology.kind = kind;
  p.topology.links_per_gpu_pair = links;
  p.topology.links_per_gpu = links;
  return p;
}

std::string topo(int n, const std::string& cell) {
  std::string s = "\tGPU0\tGPU1\tCPU Affinity\n";
  for (int i = 0; i < n; ++i) {
    s += "GPU" + std::to_string(i);
    for (int j = 0; j < n; ++j) s += i == j ? "\t X " : "\t" + cell;
    s += "\t0-63\t0\n";
  }
  return s + "\nLegend:\n  NV#  = Connection traversing a bonded set of # NVLinks\n";
}

const std::vector<std::pair<std::string, hw::Platform>>& presets() {
  static const auto* kPresets = new std::vector<std::pair<std::string, hw::Platform>>{
      {"h200x2", preset("H200-SXM-141GB", 2, hw::TopologyKind::kDirectPair, 18)},
      {"h200x4", preset("H200-SXM-141GB", 4, hw::TopologyKind::kNvswitch, 18)},
      {"h100x8", preset("H100-SXM5-80GB", 8, hw::TopologyKind::kNvswitch, 18)},
      {"v100x4", preset("Tesla V100-SXM2-16GB", 4, hw::TopologyKind::kNvlinkMesh, 2)},
      {"h100pcie", preset("H100-PCIe-80GB", 4, hw::TopologyKind::kPcieTree, 0)},
  };
  return *kPresets;
}

TEST(PlatformChoice, GpuFamilyFromMarketingNames) {
  EXPECT_EQ(gpu_family("NVIDIA H200"), "H200");
  EXPECT_EQ(gpu_family("H200-SXM-141GB"), "H200");
  EXPECT_EQ(gpu_family("Tesla V100-SXM3-32GB"), "V100");
  EXPECT_EQ(gpu_family("NVIDIA H100 80GB HBM3"), "H100");
  EXPECT_EQ(gpu_family("Tesla K40m"), "K40");
  EXPECT_EQ(gpu_family("SXM3 80GB"), "");
  EXPECT_EQ(gpu_family("generic"), "");
}

TEST(PlatformChoice, ParsesTheNvlinkMatrix) {
  std::optional<TopologySummary> t = parse_topology(topo(4, "NV18"));
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->gpus, 4u);
  EXPECT_EQ(t->min_nvlinks, 18);
  EXPECT_EQ(t->max_nvlinks, 18);
  t = parse_topology(topo(2, "SYS"));
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->max_nvlinks, 0);
  EXPECT_FALSE(parse_topology("no matrix here").has_value());
}

TEST(PlatformChoice, PicksTheSwitchPresetForFourH200) {
  Result<PresetChoice> c =
      choose_preset(TraceMachine{"NVIDIA H200", 4, topo(4, "NV18")}, presets(), "fallback");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->preset, "h200x4");
  c = choose_preset(TraceMachine{"NVIDIA H200", 2, topo(2, "NV18")}, presets(), "fallback");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->preset, "h200x2");  // exact count beats the larger switch
}

TEST(PlatformChoice, OneGpuTraceGetsASwitchPresetNotAPair) {
  Result<PresetChoice> c =
      choose_preset(TraceMachine{"NVIDIA H100 80GB HBM3", 1, ""}, presets(), "fallback");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->preset, "h100x8");  // an SXM module: not the smaller PCIe machine
  c = choose_preset(TraceMachine{"NVIDIA H100 PCIe", 1, ""}, presets(), "fallback");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->preset, "h100pcie");
  EXPECT_TRUE(is_pcie_card("Tesla V100-PCIE-32GB"));
  EXPECT_FALSE(is_pcie_card("NVIDIA H100 80GB HBM3"));
}

TEST(PlatformChoice, NoFitNamesTheNearestPresets) {
  // 8 H200 GPUs: no preset has that many; both H200 presets are named first.
  Result<PresetChoice> c =
      choose_preset(TraceMachine{"NVIDIA H200", 8, topo(8, "NV18")}, presets(), "fallback");
  ASSERT_FALSE(c.ok());
  const std::string& m = c.error().message;
  EXPECT_NE(m.find("no platform preset fits 8 x NVIDIA H200"), std::string::npos) << m;
  EXPECT_LT(m.find("h200x4"), m.find("h100x8")) << m;
  EXPECT_NE(m.find("h200x2"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(PlatformChoice, TopologyMustAgree) {
  // Four V100 in an NV2 mesh fit the mesh preset; NV6 pairs do not.
  EXPECT_EQ(fits(presets()[3].second, TraceMachine{"Tesla V100-SXM2-16GB", 4, topo(4, "NV2")}), "");
  EXPECT_NE(fits(presets()[3].second, TraceMachine{"Tesla V100-SXM2-16GB", 4, topo(4, "NV6")}), "");
  // A direct pair never takes 4 GPUs.
  EXPECT_NE(fits(presets()[0].second, TraceMachine{"NVIDIA H200", 4, topo(4, "NV18")}), "");
}

TEST(PlatformChoice, NoGpuModelFallsBack) {
  Result<PresetChoice> c = choose_preset(TraceMachine{"", 2, ""}, presets(), "fallback");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->preset, "fallback");
}

// choose_preset over the installed presets parses only those whose text can
// name the trace's GPU family, and stops at the first that fits with the
// exact GPU count and form factor: the same choice, reason and error as over
// every preset parsed, for traces like each preset's machine, scaled, on
// other topologies, of unknown families and without a model.
TEST(PlatformChoice, BuiltInPresetsSkippedByFamilyChooseAsAllDo) {
  std::vector<std::pair<std::string, hw::Platform>> all;
  for (const std::string& name : hw::list_presets()) {
    Result<hw::Platform> p = hw::load_platform(name);
    ASSERT_TRUE(p.ok()) << name << ": " << p.error().message;
    all.emplace_back(name, *p);
  }
  ASSERT_GE(all.size(), 5u);
  std::vector<TraceMachine> traces = {{"", 2, ""},
                                      {"NVIDIA A100-SXM4-80GB", 2, topo(2, "NV12")},
                                      {"Quadro RTX 8000", 1, ""},
                                      {"NVIDIA H200", 16, topo(16, "NV18")}};
  for (const auto& [name, p] : all) {
    for (int64_t n : {int64_t{1}, int64_t{2}, p.gpu.count, p.gpu.count + 1}) {
      const auto gpus = static_cast<uint32_t>(n);
      for (const char* cell : {"NV18", "NV2", "NV4", "PIX", "SYS"}) {
        traces.push_back({"NVIDIA " + p.gpu.model, gpus, topo(static_cast<int>(n), cell)});
        traces.push_back({p.gpu.model, gpus, n > 1 ? topo(static_cast<int>(n), cell) : ""});
      }
    }
  }
  for (const TraceMachine& m : traces) {
    Result<PresetChoice> some = choose_preset(m, "fallback");
    Result<PresetChoice> every = choose_preset(m, all, "fallback");
    ASSERT_EQ(some.ok(), every.ok()) << describe(m);
    if (some.ok()) {
      EXPECT_EQ(some->preset, every->preset) << describe(m);
      EXPECT_EQ(some->why, every->why) << describe(m);
    } else {
      EXPECT_EQ(some.error().message, every.error().message) << describe(m);
    }
  }
}

}  // namespace
}  // namespace xferlab::sim
