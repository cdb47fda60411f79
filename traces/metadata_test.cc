// Tests for Metadata: JSON round trip of every field, unknown keys kept,
// merging, and one-line errors for bad JSON.
#include "traces/metadata.h"

#include <gtest/gtest.h>

#include <string>

#include "traces/chunk_table_json.h"

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

// A format 1.0 "chunks" table as proact writes it (pretty, one object per
// chunk); `pad` goes first in every entry (an unknown key: nlohmann reads
// such a table, plain_chunk_table does not).
std::string chunks_document(const std::vector<ChunkInfo>& chunks, const std::string& pad = "") {
  std::string t = "{\n  \"format\": {\"major\": 1, \"minor\": 0},\n  \"chunks\": [";
  for (size_t i = 0; i < chunks.size(); ++i) {
    const ChunkInfo& c = chunks[i];
    t += std::string(i ? "," : "") + "\n    {\n      " + pad + "\"id\": " + std::to_string(c.id) +
         ",\n      \"gpu\": " + std::to_string(c.gpu) +
         ",\n      \"offset_bytes\": " + std::to_string(c.offset_bytes) +
         ",\n      \"size_bytes\": " + std::to_string(c.size_bytes) +
         ",\n      \"writers\": " + std::to_string(c.writers) +
         ",\n      \"destinations\": " + std::to_string(c.destinations) + "\n    }";
  }
  return t + "\n  ],\n  \"parameters\": {\"chunks\": \"[1]\"}\n}\n";
}

TEST(Metadata, PlainChunkTableReadsAsTheDomDoes) {
  std::vector<ChunkInfo> chunks;
  for (uint32_t i = 0; i < 300; ++i) {
    chunks.push_back(
        {i * 7 % 300, i % 3, uint64_t{i} << 33, 16384 + i, i % 5, i == 9 ? UINT64_MAX : i % 4});
  }
  chunks.back().id = UINT32_MAX;
  const std::string plain = chunks_document(chunks);
  ASSERT_TRUE(top_level_value(plain, "chunks").has_value());
  const std::optional<std::pair<size_t, size_t>> at = top_level_value(plain, "chunks");
  ASSERT_TRUE(plain_chunk_table(plain.substr(at->first, at->second - at->first)).has_value());
  Result<Metadata> fast = Metadata::from_json(plain, "t.xft");
  Result<Metadata> dom = Metadata::from_json(chunks_document(chunks, "\"pad\": null, "), "t.xft");
  ASSERT_TRUE(fast.ok()) << fast.error().message;
  ASSERT_TRUE(dom.ok()) << dom.error().message;
  EXPECT_EQ(*fast, *dom);
  ASSERT_EQ(fast->chunks.size(), chunks.size());
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(fast->chunks[i].id, chunks[i].id);
    EXPECT_EQ(fast->chunks[i].offset_bytes, chunks[i].offset_bytes);
    EXPECT_EQ(fast->chunks[i].destinations, chunks[i].destinations);
  }
  EXPECT_EQ(fast->parameter("chunks").value_or(""), "[1]");
}

TEST(Metadata, OtherChunkTablesGoThroughTheDom) {
  auto table = [](std::string_view json) {
    std::optional<std::pair<size_t, size_t>> at = top_level_value(json, "chunks");
    return at && plain_chunk_table(json.substr(at->first, at->second - at->first));
  };
  auto err = [](std::string_view json) {
    Result<Metadata> m = Metadata::from_json(json, "f.xft");
    return m.ok() ? "ok " + std::to_string(m->chunks.size()) : m.error().message;
  };
  const std::string head = R"({"format":{"major":1},"chunks":)";
  EXPECT_TRUE(table(head + R"([{"id":1,"gpu":2}, {}])" + "}"));
  EXPECT_EQ(err(head + R"([{"id":1,"gpu":2}, {}])" + "}"), "ok 2");
  // Each declined by plain_chunk_table, then read (or refused) by nlohmann.
  const std::pair<std::string, std::string> cases[] = {
      {R"([{"id":1.0}])", "f.xft: metadata chunks[0].id: expected an integer"},
      {R"([{"id":1e2}])", "f.xft: metadata chunks[0].id: expected an integer"},
      {R"([{"id":-1}])", "f.xft: metadata chunks[0].id: out of range"},
      {R"([{"id":4294967296}])", "f.xft: metadata chunks[0].id: out of range"},
      {R"([{"size_bytes":18446744073709551616}])",
       "f.xft: metadata chunks[0].size_bytes: expected an integer"},
      {R"([{"id":01}])", "f.xft: metadata: not valid JSON"},
      {R"([{"id":1,}])", "f.xft: metadata: not valid JSON"},
      {R"([{"id":1}, ])", "f.xft: metadata: not valid JSON"},
      {R"([{"id":1},{"id":1}])", "f.xft: metadata chunks: id 1 appears twice"},
      {R"([{"id":2,"id":3},{"id":2}])", "ok 2"},  // the last "id" counts
      {R"([{"gpu":null,"id":3}])", "ok 1"},
      {R"([{"id":3,"x":[1,{"y":"]"}]}])", "ok 1"},
      {R"([{"\u0069d":3},{"id":3}])", "f.xft: metadata chunks: id 3 appears twice"},
      {R"([[1]])", "f.xft: metadata chunks[0]: expected an object"},
      {R"({"id":1})", "f.xft: metadata chunks: expected an array"},
  };
  for (const auto& [chunks, expected] : cases) {
    EXPECT_FALSE(table(head + chunks + "}")) << chunks;
    EXPECT_EQ(err(head + chunks + "}"), expected) << chunks;
  }
  // Which of two "chunks" keys counts is nlohmann's rule: not looked at.
  EXPECT_FALSE(top_level_value(head + R"([], "chunks": [{"id":1}]})", "chunks"));
  EXPECT_FALSE(top_level_value(R"({"format":{"major":1},"\u0063hunks":[]})", "chunks"));
  EXPECT_EQ(err(R"({"format":{"major":1},"chunks":[],"chunks":[{"id":1}]})"), "ok 1");
  EXPECT_EQ(err(head + R"([{"id":1}] "x")"), "f.xft: metadata: not valid JSON");
  EXPECT_EQ(err(head + R"([{"id":1}]} x)"), "f.xft: metadata: not valid JSON");
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
