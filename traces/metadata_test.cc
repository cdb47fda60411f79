// Tests for Metadata: JSON round trip of every field, unknown keys kept,
// merging, and one-line errors for bad JSON.
#include "traces/metadata.h"

#include <gtest/gtest.h>

namespace xferlab::traces {
namespace {

Metadata full_metadata() {
  Metadata m;
  m.producer = {"proact_bench", "0.1.0", "abc123+dirty", "proact_bench --gpus 4 'a b'",
                "2025-01-01T00:00:00Z"};
  m.machine = {"dgx1",           "AMD EPYC 7742", 128,
               "580.65.06",      "13.0",          "\tGPU0\tGPU1\nGPU0\t X \tNV12\n",
               "Open MPI 4.1.6", "Ubuntu 24.04"};
  m.gpus = {{0, "NVIDIA H100", "0000:18:00.0", "GPU-1", 80ull << 30, 132, "9.0", "dgx1"},
            {1, "NVIDIA H100", "0000:2a:00.0", "GPU-2", 80ull << 30, 132, "9.0", "dgx1"}};
  m.set_parameter("mechanism", "polling");
  m.set_parameter("chunk_size", "64KiB");
  m.set_parameter("iterations", "10");
  m.time_base = "gpu0.globaltimer";
  m.clocks = {{"host.realtime", "host_realtime", -5'000'123, 3.25, 1'700'000'000'000'000'000ull,
               120.5, 64, "pingpong-min-rtt"}};
  m.kernels = {{0, "proact_producer<float>", 1024, 256}};
  m.phases = {{0, "compute"}, {1, "exchange"}};
  m.streams = {{0, "compute"}};
  m.flags = {{3, "ready", "host_pinned"}};
  m.chunks = {{0, 0, 0, 65536, 8, 0b10}, {1, 1, 65536, 65536, 8, 0b01}};
  return m;
}

TEST(Metadata, JsonRoundTripEveryField) {
  const Metadata m = full_metadata();
  Result<Metadata> back = Metadata::from_json(m.to_json(), "t.xft");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, m);
  EXPECT_EQ(back->machine.topology, m.machine.topology);
  EXPECT_EQ(back->clocks[0].reference_ns, 1'700'000'000'000'000'000ull);
  EXPECT_EQ(back->parameters[1].first, "chunk_size");  // order kept.
  EXPECT_EQ(back->parameter("iterations").value_or(""), "10");
}

TEST(Metadata, UnknownKeysPreserved) {
  std::string json = full_metadata().to_json();
  json.insert(json.rfind('}'), ",\"future_field\":{\"x\":[1,2]}");
  Result<Metadata> m = Metadata::from_json(json, "t.xft");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_NE(m->to_json().find("\"future_field\""), std::string::npos);
}

TEST(Metadata, MergeOverridesAndAppends) {
  Metadata m = full_metadata();
  Metadata late;
  late.set_parameter("iterations", "20");
  late.set_parameter("threads", "4");
  late.clocks = {{"host.realtime", "host_realtime", 7, 0, 0, 1, 8, "late"}};
  late.kernels = {{1, "agent", 1, 32}};
  m.merge(late);
  EXPECT_EQ(m.parameter("iterations").value_or(""), "20");
  EXPECT_EQ(m.parameters.back().first, "threads");
  ASSERT_EQ(m.clocks.size(), 1u);
  EXPECT_EQ(m.clocks[0].offset_ns, 7);
  EXPECT_EQ(m.kernels.size(), 2u);
  EXPECT_EQ(m.producer.program, "proact_bench");  // unset fields do not erase.
}

TEST(Metadata, ErrorsNameFileAndField) {
  auto err = [](std::string_view json) {
    Result<Metadata> m = Metadata::from_json(json, "f.xft");
    return m.ok() ? std::string("ok") : m.error().message;
  };
  EXPECT_EQ(err("{"), "f.xft: metadata: not valid JSON");
  EXPECT_EQ(err("{}"), "f.xft: metadata format: missing");
  EXPECT_EQ(err(R"({"format":{"major":1},"gpus":[{"id":-1}]})"),
            "f.xft: metadata gpus[0].id: out of range");
  EXPECT_EQ(err(R"({"format":{"major":1},"chunks":[{"id":1},{"id":1}]})"),
            "f.xft: metadata chunks: id 1 appears twice");
  // Deep nesting is refused before parsing (JSON values are copied recursively).
  EXPECT_EQ(err(R"({"format":{"major":1},"x":)" + std::string(100000, '[')),
            "f.xft: metadata: nested deeper than 64 levels");
  EXPECT_EQ(
      err(R"({"format":{"major":1},"x":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["})"),
      "ok");
  EXPECT_EQ(err(R"({"format":{"major":1},"clocks":[{"drift_ppb":"x"}]})"),
            "f.xft: metadata clocks[0].drift_ppb: expected a number");
}

TEST(ClockDomain, MapsToBase) {
  ClockDomain c;
  c.offset_ns = -100;
  c.drift_ppb = 1000;  // 1 us per second.
  c.reference_ns = 1'000'000'000;
  EXPECT_EQ(c.to_base_ns(1'000'000'000), 999'999'900);
  EXPECT_EQ(c.to_base_ns(2'000'000'000), 2'000'000'900);
}

}  // namespace
}  // namespace xferlab::traces
