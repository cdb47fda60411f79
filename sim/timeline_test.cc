// sim/timeline_test.cc — the replay's timeline file with the measured run
// beside the simulated one (api.h write_timeline): one track layout for
// both groups, the measured events exactly those `trace export` writes, and
// the simulated run starting where the measured producer kernels do.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "sim/api.h"
#include "traces/generator.h"
#include "traces/perfetto.h"
#include "traces/reader.h"

namespace xferlab::sim {
namespace {

using nlohmann::json;
constexpr uint32_t kPidsPerGroup = traces::TimelineWriter::kPidsPerGroup;

struct Timeline {
  json file;
  std::map<uint32_t, std::string> process;                      // pid -> name
  std::map<std::pair<uint32_t, uint32_t>, std::string> thread;  // (pid, tid) -> name
};

Timeline parse(const std::string& text) {
  Timeline t;
  t.file = json::parse(text);
  for (const json& e : t.file["traceEvents"]) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") t.process[e["pid"]] = e["args"]["name"];
    if (e["name"] == "thread_name") t.thread[{e["pid"], e["tid"]}] = e["args"]["name"];
  }
  return t;
}

// slices: the "X" events of processes whose name starts with `group`, as
// comparable text (pid taken relative to the group).
std::multiset<std::string> slices(const Timeline& t, const std::string& group) {
  std::multiset<std::string> out;
  for (const json& e : t.file["traceEvents"]) {
    if (e["ph"] != "X" || !t.process.at(e["pid"]).starts_with(group + ": ")) continue;
    json c = e;
    c["pid"] = e["pid"].get<uint32_t>() % kPidsPerGroup;
    out.insert(c.dump());
  }
  return out;
}

class TimelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::path(::testing::TempDir()) / "tl_memcpy.xft").string();
    traces::GenerateOptions g;
    g.gpus = 2;
    g.chunks = 8;
    g.ctas = 16;
    g.iterations = 2;
    g.mechanism = traces::TransferMechanism::kMemcpy;
    ASSERT_TRUE(traces::generate_trace(path_, g).ok());
  }

  ReplayOutput replay_with_timeline(const std::string& mechanism) {
    ReplayRequest req;
    req.trace = path_;
    req.platform = "h200x2_nvlink4";
    req.mechanism = mechanism;
    req.record_timeline = true;
    req.jobs = 1;
    Result<ReplayOutput> r = replay(req);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return std::move(*r);
  }

  std::string path_;
};

TEST_F(TimelineTest, MeasuredBesideSimulatedWithOneLayout) {
  const ReplayOutput out = replay_with_timeline("memcpy");
  ASSERT_TRUE(out.measured.has_value());
  std::ostringstream os;
  ASSERT_TRUE(write_timeline(os, path_, out, /*with_measured=*/true).ok());
  const Timeline t = parse(os.str());

  // The metadata block.
  const json& md = t.file["otherData"];
  EXPECT_EQ(md["trace_file"], path_);
  EXPECT_EQ(md["platform"], "h200x2_nvlink4");
  EXPECT_EQ(md["mechanism"], "memcpy");
  EXPECT_FALSE(md["xferlab_version"].get<std::string>().empty());

  // Both groups name every GPU alike; a track in both has one tid and name.
  for (uint32_t gpu = 0; gpu < 2; ++gpu) {
    const std::string g = "GPU" + std::to_string(gpu);
    EXPECT_EQ(t.process.at(1 + gpu), "measured: " + g);
    EXPECT_EQ(t.process.at(kPidsPerGroup + 1 + gpu), "simulated memcpy: " + g);
  }
  size_t shared = 0;
  for (const auto& [track, name] : t.thread) {
    if (track.first < kPidsPerGroup) continue;  // measured
    auto m = t.thread.find({track.first - kPidsPerGroup, track.second});
    if (m == t.thread.end()) continue;
    EXPECT_EQ(m->second, name);
    ++shared;
  }
  for (const char* name : {"stream 0", "link -> GPU 1"}) {
    for (uint32_t group = 0; group < 2; ++group) {
      const uint32_t pid = group * kPidsPerGroup + 1;  // GPU0
      bool found = false;
      for (const auto& [track, n] : t.thread) found |= track.first == pid && n == name;
      EXPECT_TRUE(found) << name << " missing in group " << group;
    }
  }
  EXPECT_GE(shared, 4u);  // stream 0 and the link of each GPU.

  // The measured group is the trace as `trace export` writes it.
  Result<traces::TraceReader> reader = traces::TraceReader::open(path_);
  ASSERT_TRUE(reader.ok());
  std::ostringstream exported;
  ASSERT_TRUE(traces::export_perfetto(*reader, exported).ok());
  const std::multiset<std::string> measured = slices(t, "measured");
  EXPECT_FALSE(measured.empty());
  EXPECT_EQ(measured, slices(parse(exported.str()), "measured"));

  // One time axis: the first simulated kernel starts with the first measured
  // producer kernel (the replay's time 0), not at the file's 0.
  double first_measured = 1e300, first_simulated = 1e300;
  for (const json& e : t.file["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const double ts = e["ts"];
    if (e["cat"] == "kernel" && e["pid"].get<uint32_t>() < kPidsPerGroup &&
        !e["name"].get<std::string>().starts_with("launch ")) {
      first_measured = std::min(first_measured, ts);
    }
    if (e["cat"] == "compute") first_simulated = std::min(first_simulated, ts);
  }
  EXPECT_GT(first_simulated, 0);
  EXPECT_DOUBLE_EQ(first_simulated, first_measured);
}

TEST_F(TimelineTest, SimulatedOnlyStartsAtZero) {
  const ReplayOutput out = replay_with_timeline("hardware");
  std::ostringstream os;
  ASSERT_TRUE(write_timeline(os, path_, out, /*with_measured=*/false).ok());
  const Timeline t = parse(os.str());
  EXPECT_EQ(t.process.at(kPidsPerGroup * 0 + 1), "simulated hardware: GPU0");
  double first = 1e300;
  for (const json& e : t.file["traceEvents"]) {
    if (e["ph"] == "X") first = std::min(first, e["ts"].get<double>());
  }
  EXPECT_EQ(first, 0);
  EXPECT_EQ(t.file["otherData"]["platform"], "h200x2_nvlink4");
}

}  // namespace
}  // namespace xferlab::sim
