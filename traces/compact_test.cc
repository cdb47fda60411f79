// Tests for compact_trace: the rewrite keeps blocks, both metadata sections,
// every record (unknown kinds too) and a whole-file zstd wrapper; it upgrades
// format 1.0 and 2.0 files; damaged input leaves nothing behind.
#include "traces/compact.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "traces/reader.h"
#include "traces/writer.h"

namespace xferlab::traces {
namespace {

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool exists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

uint16_t stored_codec(const std::string& plain_bytes, const BlockInfo& b) {
  uint16_t codec = 0;
  std::memcpy(&codec, plain_bytes.data() + b.offset + 16, sizeof(codec));
  return codec;
}

TraceReader open_ok(const std::string& path) {
  Result<TraceReader> r = TraceReader::open(path);
  if (!r.ok()) ADD_FAILURE() << r.error().message;
  return std::move(r.value());
}

// all_records: every record of `r` as stored, block by block.
std::vector<Event> all_records(TraceReader& r) {
  std::vector<Event> out;
  for (size_t b = 0; b < r.num_blocks(); ++b) {
    Result<std::span<const Event>> block = r.read_block(b);
    EXPECT_TRUE(block.ok()) << block.error().message;
    if (block.ok()) out.insert(out.end(), block->begin(), block->end());
  }
  return out;
}

bool same_records(const std::vector<Event>& a, const std::vector<Event>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Event)) == 0;
}

Metadata initial_metadata() {
  Metadata m;
  m.producer.program = "compact_test";
  m.gpus.resize(2);
  m.gpus[1].id = 1;
  m.set_parameter("chunk_size", "64KiB");
  return m;
}

// write_input: a codec-1 trace of 1,050 events in blocks of 100 (the last
// one 50), one of an unknown kind, with final metadata that differs from the
// initial one (a clock measured at the end).
std::vector<Event> write_input(const std::string& path) {
  std::vector<Event> events(1'050);
  for (size_t i = 0; i < events.size(); ++i) {
    events[i] = Event{1'000'000 + i * 40 - (i % 4) * 30,
                      uint16_t(EventKind::kCounterDecrement),
                      0,
                      uint16_t(i % 2),
                      uint16_t(i % 132),
                      uint32_t(i / 8),
                      uint32_t(i),
                      7};
  }
  events[500].kind = 300;  // from a newer minor version: kept as stored.
  TraceWriter w;
  WriterOptions o;
  o.compression = Compression::kZstd;
  o.events_per_block = 100;
  EXPECT_TRUE(w.open(path, initial_metadata(), o).ok());
  EXPECT_TRUE(w.append(events.data(), events.size()).ok());
  ClockDomain clock;
  clock.name = "gpu0.globaltimer";
  clock.offset_ns = -42;
  w.metadata().clocks.push_back(clock);
  EXPECT_TRUE(w.close().ok());
  return events;
}

TEST(Compact, KeepsBlocksMetadataAndRecords) {
  const std::string in = temp_path("in.xft"), out = temp_path("out.xft");
  const std::vector<Event> events = write_input(in);
  const std::string in_bytes = slurp(in);
  Result<CompactResult> c = compact_trace(in, out);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(slurp(in), in_bytes);  // the input is untouched.
  EXPECT_EQ(c->events, events.size());
  EXPECT_FALSE(c->whole_file_zstd);
  EXPECT_LT(c->bytes_after, c->bytes_before);
  EXPECT_EQ(c->bytes_after, slurp(out).size());
  EXPECT_FALSE(exists(out + ".compact-tmp"));

  TraceReader a = open_ok(in), b = open_ok(out);
  EXPECT_EQ(b.format_major(), kFormatMajor);
  EXPECT_EQ(b.format_minor(), kFormatMinor);
  ASSERT_EQ(b.num_blocks(), 11u);
  const std::string out_bytes = slurp(out);
  for (size_t k = 0; k < b.num_blocks(); ++k) {
    EXPECT_EQ(b.blocks()[k].events, a.blocks()[k].events);
    EXPECT_EQ(stored_codec(out_bytes, b.blocks()[k]), uint16_t(Compression::kZstdDeltaShuffle));
  }
  EXPECT_TRUE(same_records(all_records(b), events));
  EXPECT_EQ(b.kind_counts(), a.kind_counts());
  ASSERT_EQ(b.metadata().clocks.size(), 1u);
  EXPECT_EQ(b.metadata().clocks[0].offset_ns, -42);
  Result<Metadata> initial = b.initial_metadata();
  ASSERT_TRUE(initial.ok()) << initial.error().message;
  EXPECT_TRUE(initial->clocks.empty());
  EXPECT_EQ(initial->parameter("chunk_size").value_or(""), "64KiB");
}

// As traces/real is stored: the file is zstd-compressed as a whole; compact
// rewrites it in place and keeps the wrapper.
TEST(Compact, InPlaceKeepsWholeFileZstd) {
  const std::string plain = temp_path("wrapped.xft"), path = temp_path("wrapped.xft.zst");
  const std::vector<Event> events = write_input(plain);
  const std::string raw = slurp(plain);
  std::string packed(ZSTD_compressBound(raw.size()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 19));
  std::ofstream(path, std::ios::binary) << packed;

  Result<CompactResult> c = compact_trace(path, path);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->whole_file_zstd);
  EXPECT_EQ(c->bytes_before, packed.size());
  const std::string after = slurp(path);
  EXPECT_EQ(after.size(), c->bytes_after);
  ASSERT_GE(after.size(), 4u);
  EXPECT_EQ(std::memcmp(after.data(), "\x28\xb5\x2f\xfd", 4), 0);
  TraceReader r = open_ok(path);
  EXPECT_TRUE(r.whole_file_zstd());
  EXPECT_TRUE(same_records(all_records(r), events));
  EXPECT_FALSE(exists(path + ".compact-tmp"));
  EXPECT_FALSE(exists(path + ".compact-tmp.zst"));
  // Compacting again changes nothing.
  ASSERT_TRUE(compact_trace(path, path).ok());
  EXPECT_EQ(slurp(path), after);
}

// Committed traces of formats 1.0 and 2.0 (no checksums; codecs 0/1) become
// the current format with the same records and metadata.
TEST(Compact, UpgradesOlderFormats) {
  for (const char* dir : {"malformed_v1_0", "malformed"}) {
    SCOPED_TRACE(dir);
    const std::string in = std::string("traces/testdata/") + dir + "/valid_zstd.xft";
    const std::string out = temp_path(std::string(dir) + "_compacted.xft");
    Result<CompactResult> c = compact_trace(in, out, CompactOptions{3});
    ASSERT_TRUE(c.ok()) << c.error().message;
    TraceReader a = open_ok(in), b = open_ok(out);
    EXPECT_EQ(b.format_minor(), kFormatMinor);
    EXPECT_TRUE(b.warnings().empty());
    EXPECT_TRUE(same_records(all_records(b), all_records(a)));
    Metadata m = a.metadata();
    m.format_major = kFormatMajor;
    m.format_minor = kFormatMinor;
    EXPECT_EQ(b.metadata(), m);
  }
}

TEST(Compact, DamagedInputLeavesNothingBehind) {
  const std::string in = temp_path("damaged.xft"), out = temp_path("damaged_out.xft");
  write_input(in);
  std::string bytes = slurp(in);
  bytes[bytes.size() / 2] ^= 0x20;  // inside an event block: its checksum fails.
  std::ofstream(in, std::ios::binary | std::ios::trunc) << bytes;
  Result<CompactResult> c = compact_trace(in, out);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message.find(in + ": byte offset "), 0u) << c.error().message;
  EXPECT_FALSE(exists(out));
  EXPECT_FALSE(exists(out + ".compact-tmp"));

  Result<CompactResult> level = compact_trace(in, out, CompactOptions{23});
  ASSERT_FALSE(level.ok());
  EXPECT_NE(level.error().message.find("zstd level 23 is not in 1..22"), std::string::npos);
}

}  // namespace
}  // namespace xferlab::traces
