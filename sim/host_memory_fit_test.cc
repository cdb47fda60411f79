// sim/host_memory_fit_test.cc — the host-memory capacity fit: a known
// capacity is recovered from the slowdowns it causes, flat data only bound
// it, the committed interference_bench runs, bad input.
#include "sim/host_memory_fit.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace xferlab::sim {
namespace {

TEST(HostMemoryFit, MaxMinSlowdown) {
  EXPECT_DOUBLE_EQ(maxmin_slowdown(10e9, 30e9, 50e9), 1);  // both fit
  EXPECT_DOUBLE_EQ(maxmin_slowdown(20e9, 40e9, 50e9), 1);  // the small flow keeps its rate
  EXPECT_DOUBLE_EQ(maxmin_slowdown(30e9, 40e9, 50e9), 30.0 / 25);
  EXPECT_DOUBLE_EQ(maxmin_slowdown(30e9, 10e9, 35e9), 30.0 / 25);  // the GPU keeps 10
}

TEST(HostMemoryFit, RecoversAKnownCapacityAndOnlyBoundsFlatData) {
  std::vector<InterferencePoint> pts;
  for (double cpu : {10e9, 20e9, 26e9, 28e9, 30e9, 32e9}) {
    pts.push_back({cpu, 40e9, maxmin_slowdown(cpu, 40e9, 50e9)});
  }
  const HostMemoryFit f = fit_host_memory(pts, 400e9);
  EXPECT_TRUE(f.fitted);
  EXPECT_NEAR(f.bw_bytes_per_s, 50e9, 0.02 * 50e9);
  EXPECT_LT(f.rms_log_error, 0.01);
  for (InterferencePoint& p : pts) p.slowdown = 1;
  const HostMemoryFit flat = fit_host_memory(pts, 400e9);
  EXPECT_FALSE(flat.fitted);
  // No slowdown for the 32 GB/s copy beside the 40 GB/s writer needs an
  // equal share of at least 32: 64 GB/s.
  EXPECT_NEAR(flat.lower_bound_bytes_per_s, 64e9, 0.02 * 64e9);
  EXPECT_EQ(flat.bw_bytes_per_s, 400e9);  // the preset's, above the bound
}

TEST(HostMemoryFit, CommittedRunsShowNoBandwidthContention) {
  // Runs 1 and 2 (2x H200): PCB / P2AB slowdowns 0.79-1.28 scatter around 1;
  // with the writer at the PCIe 5 x16 payload rate no capacity that lets
  // each flow run alone at its rate explains them better than none.
  for (const char* run : {"2026-11-22_h200x2", "2026-11-22_h200x2_run2"}) {
    const std::string csv = std::string("traces/real/") + run + "/bench/interference_bench.csv";
    Result<std::vector<InterferencePoint>> pts = read_interference_points(csv, 61.8e9);
    ASSERT_TRUE(pts.ok()) << pts.error().message;
    EXPECT_EQ(pts->size(), 24u) << run;  // 2 scenarios x 2 accesses x 6 sizes
    const HostMemoryFit f = fit_host_memory(*pts, 400e9);
    EXPECT_FALSE(f.fitted) << run;
    EXPECT_GE(f.lower_bound_bytes_per_s, 61.8e9) << run;
  }
}

TEST(HostMemoryFit, BadInputNamesFileAndLine) {
  const std::string path = ::testing::TempDir() + "/bad_interference.csv";
  std::ofstream(path) << "scenario,size_bytes,send_bw_bytes_per_s,slowdown_vs_ssb\n"
                         "PCB,4096,1e9,1.0\n"
                         "P2AB,4096,abc,1.0\n";
  Result<std::vector<InterferencePoint>> r = read_interference_points(path, 60e9);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("bad_interference.csv:3"), std::string::npos)
      << r.error().message;
  std::ofstream(path) << "scenario,size_bytes,send_bw_bytes_per_s,slowdown_vs_ssb\n"
                         "SSB,4096,1e9,1.0\n";
  EXPECT_FALSE(read_interference_points(path, 60e9).ok());
  EXPECT_FALSE(read_interference_points(path + ".missing", 60e9).ok());
}

}  // namespace
}  // namespace xferlab::sim
