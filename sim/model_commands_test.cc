// sim/model_commands_test.cc — `xferlab link`, `platform` and `calibrate`:
// output shape, formats, usage errors (exit 2, one line) and a calibration
// from CSV files to a loadable preset.
#include "sim/model_commands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "hw_model/platform.h"
#include "sim/machine.h"

namespace xferlab::sim {
namespace {

struct CliRun {
  int code;
  std::string out, err;
};

CliRun link(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = run_link(args, out, err);
  return {code, out.str(), err.str()};
}
CliRun platform(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = run_platform(args, out, err);
  return {code, out.str(), err.str()};
}

int lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

TEST(LinkCli, CsvRowsPerSize) {
  CliRun r =
      link({"--interconnect", "nvlink2", "--sizes", "4,128", "--format", "csv", "--count", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "interconnect,links,size_bytes,count,payload_bytes,wire_bytes,reverse_bytes,packets,"
            "efficiency,time_ns,goodput_bytes_per_s,bound\n"
            "nvlink2,1,4,1,4,48,0,1,0.08333333333333333,701.92,5698655.117392296,bytes\n"
            "nvlink2,1,128,1,128,144,0,1,0.8888888888888888,705.76,181364769.8934482,bytes\n");
}

TEST(LinkCli, AllInterconnectsAndPlatforms) {
  CliRun all = link({"--format", "csv"});
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_EQ(lines(all.out), 1 + 13 * 16);  // header + 13 sizes x 16 interconnects
  CliRun json = link({"--platform", "h200x2_nvlink4", "--sizes", "4", "--format", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"interconnect\": \"nvlink4\", \"links\": 18"), std::string::npos);
  CliRun rd = link({"--interconnect", "pcie3", "--op", "read", "--pattern", "contiguous"});
  ASSERT_EQ(rd.code, 0) << rd.err;
  // link_efficiency 1: the calibrated preset's link-layer share would scale the wire bytes.
  CliRun with_set =
      link({"--platform", "h200x2_nvlink4", "--set", "gpu_link.header=32B", "--set",
            "gpu_link.link_efficiency=1", "--sizes", "4", "--count", "1", "--format", "csv"});
  ASSERT_EQ(with_set.code, 0) << with_set.err;
  EXPECT_NE(with_set.out.find(",64,"), std::string::npos);  // 32 + 16 + 16 wire bytes
}

TEST(LinkCli, UsageErrorsExit2) {
  for (auto args : std::vector<std::vector<std::string>>{
           {"--interconect", "pcie3"},
           {"--interconnect", "pcie9"},
           {"--sizes", "4,x"},
           {"--pattern", "random"},
           {"--count", "0"},
           {"--links", "-1"},
           {"--format", "xml"},
           {"--interconnect", "pcie3", "--platform", "h200x2_nvlink4"},
           {"--platform", "nosuch"},
           {"--set", "gpu.count=2"},
           {"extra"},
           {"--sizes"}}) {
    CliRun r = link(args);
    EXPECT_EQ(r.code, 2) << args[0];
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("xferlab: link: ", 0), 0u) << r.err;
  }
  EXPECT_EQ(link({"--interconect", "pcie3"}).err,
            "xferlab: link: unknown flag --interconect; did you mean 'interconnect'?\n");
  EXPECT_EQ(link({"--help"}).code, 0);
}

TEST(PlatformCli, ListShowKeys) {
  CliRun list = platform({"list", "--format", "csv"});
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_EQ(lines(list.out), 1 + 11);
  CliRun show = platform({"show", "proact_k40_pcie3", "--set", "dma_agent.channels=8"});
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_NE(show.out.find("\n[dma_agent]\n# model defaults"), std::string::npos);
  EXPECT_NE(show.out.find("channels = 8\n"), std::string::npos);
  // Keys the preset leaves to the model are marked; --strict refuses them.
  EXPECT_NE(show.out.find("outstanding_packets = "), std::string::npos);
  EXPECT_NE(show.out.find("  # default\n"), std::string::npos);
  CliRun strict = platform({"show", "proact_k40_pcie3", "--strict"});
  EXPECT_EQ(strict.code, 2);
  EXPECT_EQ(lines(strict.err), 1) << strict.err;
  EXPECT_NE(strict.err.find("take the model default (--strict)"), std::string::npos) << strict.err;
  CliRun keys = platform({"keys", "--format", "csv"});
  ASSERT_EQ(keys.code, 0);
  EXPECT_NE(keys.out.find("counter_unit.update_latency_cycles,count,20,"), std::string::npos);
  // Enums: the choices in the description, the unit column says "choice".
  EXPECT_NE(keys.out.find("topology.kind,choice,direct_pair,\"how GPUs are joined (one of: "
                          "direct_pair, nvlink_mesh, nvswitch, pcie_tree)\""),
            std::string::npos);
  EXPECT_NE(keys.out.find("gpu_link.format,choice,pcie3,\"builtin interconnect the other keys of "
                          "this section modify (one of: pcie1, "),
            std::string::npos);
  // A fitted value's uncertainty is in what show prints.
  EXPECT_NE(platform({"show", "h200x2_nvlink4"})
                .out.find("engine_start = { value = \"5.622us\", uncertainty = \"85ns\""),
            std::string::npos);
}

// The window `platform show` sizes is the one replay sizes: the simulated
// machine's farthest GPU path (a PCIe tree's cross-switch pair: two GPU links,
// two uplinks and two switches), not one link's round trip.
TEST(PlatformCli, ShowSizesForTheSimulatedMachinesPath) {
  for (const char* preset : {"proact_k40_pcie3", "h100_pcie_gen5", "h200x4_hgx_nvswitch",
                             "power9_v100_ib", "h200x2_nvlink4"}) {
    Result<Machine> m = load_machine(preset, {});
    ASSERT_TRUE(m.ok()) << m.error().message;
    const double rtt_ns = 2 * m->farthest_path_latency_ns();
    CliRun show = platform({"show", preset});
    ASSERT_EQ(show.code, 0) << show.err;
    const std::string expected =
        "round trip " + hw_model::format_quantity(rtt_ns, Unit::kTimeNs) + ";";
    EXPECT_NE(show.out.find(expected), std::string::npos) << preset << ": " << expected;
  }
  // By hand, proact_k40_pcie3 across its two PCIe switches: 2 x (2 x 700 ns
  // GPU link + 2 x 500 ns uplink), where one GPU link's round trip is 1.4 us.
  EXPECT_NE(platform({"show", "proact_k40_pcie3"}).out.find("round trip 4.8us;"),
            std::string::npos);
}

TEST(PlatformCli, Errors) {
  EXPECT_EQ(platform({}).code, 2);
  EXPECT_EQ(platform({"shw"}).err,
            "xferlab: platform: unknown action 'shw'; did you mean 'show'?\n");
  EXPECT_EQ(platform({"show"}).code, 2);
  CliRun bad_set = platform({"show", "h200x2_nvlink4", "--set", "gpu.cont=3"});
  EXPECT_EQ(bad_set.code, 2);
  EXPECT_EQ(bad_set.err,
            "xferlab: platform: --set gpu.cont=3: unknown parameter 'gpu.cont'; did you mean "
            "'gpu.count'?\n");
  CliRun combo = platform({"show", "h200x2_nvlink4", "--set", "gpu.count=4"});
  EXPECT_EQ(combo.code, 2);
  EXPECT_EQ(combo.err,
            "xferlab: platform: key 'topology.kind': direct_pair needs 2 GPUs per node, not 4\n");
}

CliRun calibrate(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = run_calibrate(args, out, err);
  return {code, out.str(), err.str()};
}

// The committed preset is this command's output (docs/calibration.md): re-running
// it on the committed measurements writes the same preset.
TEST(CalibrateCli, ReproducesTheCommittedPreset) {
  const std::string dir = "traces/real/2026-11-22_h200x2/";
  const std::string out_path = std::string(testing::TempDir()) + "/calibrated.toml";
  CliRun r =
      calibrate({"--link-bench", dir + "bench/link_bench.csv", "--notify-bench",
                 dir + "bench/notify_bench.csv", "--proact-micro", dir + "proact/micro_g2.csv",
                 "--preset", "h200x2_nvlink4", "-o", out_path, "--format", "csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("group,case,unit,measured,model,error\n", 0), 0u) << r.out;
  Result<hw_model::Platform> fitted = hw_model::load_platform(out_path);
  ASSERT_TRUE(fitted.ok()) << fitted.error().message;
  Result<hw_model::Platform> preset = hw_model::load_platform("h200x2_nvlink4");
  ASSERT_TRUE(preset.ok()) << preset.error().message;
  EXPECT_EQ(hw_model::dump_platform(*fitted), hw_model::dump_platform(*preset));
}

TEST(CalibrateCli, Errors) {
  EXPECT_EQ(calibrate({}).err, "xferlab: calibrate: --link-bench FILE is required\n");
  EXPECT_EQ(calibrate({"--link-bench", "/nonexistent.csv"}).err,
            "xferlab: calibrate: /nonexistent.csv: cannot open\n");
  EXPECT_EQ(calibrate({"--link-bench", "x.csv", "--proact-bytes", "lots"}).code, 2);
  EXPECT_EQ(calibrate({"--help"}).code, 0);
}

}  // namespace
}  // namespace xferlab::sim
