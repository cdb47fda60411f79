// Tests for TraceWriter/TraceReader: round trips of every kind (raw and
// zstd), block boundaries, random access by index and time, version rules.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "traces/block_codec.h"
#include "traces/checksum.h"
#include "traces/event_names.h"
#include "traces/reader.h"
#include "traces/writer.h"

namespace xferlab::traces {
namespace {

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

// patch: overwrite bytes of a file in place.
void patch(const std::string& path, long offset, const void* data, size_t n) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(offset);
  f.write(static_cast<const char*>(data), std::streamsize(n));
}

bool same(const Event& a, const Event& b) {
  return std::memcmp(&a, &b, sizeof(Event)) == 0;
}

Metadata test_metadata() {
  Metadata m;
  m.producer.program = "reader_writer_test";
  m.gpus.resize(4);
  for (uint32_t g = 0; g < 4; ++g) {
    m.gpus[g].id = g;
    m.gpus[g].model = "Test GPU";
  }
  return m;
}

// events_of_every_kind: n events cycling through every kind with every field
// carrying distinct, full-width values.
std::vector<Event> events_of_every_kind(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Event> v(n);
  const uint16_t kinds = uint16_t(EventKind::kNumEventKinds) - 1;
  for (size_t i = 0; i < n; ++i) {
    v[i] = Event{1'700'000'000'000'000'000ull + rng() % 1'000'000'000,
                 uint16_t(1 + i % kinds),
                 uint16_t(rng()),
                 uint16_t(i % 7 == 0 ? kHostGpu : rng() % 4),
                 uint16_t(rng()),
                 uint32_t(rng()),
                 uint32_t(rng()),
                 rng()};
  }
  return v;
}

std::vector<Event> read_all(TraceReader& r) {
  std::vector<Event> out;
  Status s = r.for_each([&](const Event& e) { out.push_back(e); });
  EXPECT_TRUE(s.ok()) << s.error().message;
  return out;
}

TraceReader open_ok(const std::string& path, const ReaderOptions& options = {}) {
  Result<TraceReader> r = TraceReader::open(path, options);
  if (!r.ok()) ADD_FAILURE() << r.error().message;
  return std::move(r.value());
}

// stored_codec: the codec field of block `b`'s header (FORMAT.md, EVTS offset 16).
uint16_t stored_codec(const std::string& path, const BlockInfo& b) {
  std::ifstream f(path, std::ios::binary);
  f.seekg(std::streamoff(b.offset + 16));
  uint16_t codec = 0xffff;
  f.read(reinterpret_cast<char*>(&codec), sizeof(codec));
  return codec;
}

class RoundTrip : public ::testing::TestWithParam<Compression> {};

TEST_P(RoundTrip, EveryKindIdentical) {
  const std::string path = temp_path("roundtrip.xft");
  const std::vector<Event> events = events_of_every_kind(10'007, 7);  // not a block multiple.
  TraceWriter w;
  WriterOptions options;
  options.compression = GetParam();
  options.events_per_block = 1000;
  ASSERT_TRUE(w.open(path, test_metadata(), options).ok());
  // Mixed append sizes: single events, partial and multi-block buffers.
  size_t i = 0;
  for (size_t chunk : {1, 999, 1, 2500, 3, 6503}) {
    ASSERT_TRUE(w.append(events.data() + i, chunk).ok());
    i += chunk;
  }
  ASSERT_EQ(i, events.size());
  ASSERT_TRUE(w.close().ok());

  TraceReader r = open_ok(path);
  EXPECT_EQ(r.num_events(), events.size());
  EXPECT_EQ(r.num_blocks(), 11u);
  // Codec 2 always shrinks these; codec 1 may not (the block is then stored raw).
  for (const BlockInfo& b : r.blocks()) {
    const uint16_t codec = stored_codec(path, b);
    EXPECT_TRUE(codec == uint16_t(GetParam()) || (codec == 0 && GetParam() == Compression::kZstd))
        << codec;
  }
  const std::vector<Event> back = read_all(r);
  ASSERT_EQ(back.size(), events.size());
  for (size_t k = 0; k < events.size(); ++k) ASSERT_TRUE(same(back[k], events[k])) << k;
  for (uint16_t kind = 1; kind < uint16_t(EventKind::kNumEventKinds); ++kind) {
    uint64_t expected = 0;
    for (const Event& e : events) expected += e.kind == kind;
    EXPECT_EQ(r.count(EventKind(kind)), expected) << event_kind_name(kind);
  }
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const Event& e : events) lo = std::min(lo, e.time_ns), hi = std::max(hi, e.time_ns);
  EXPECT_EQ(r.min_time_ns(), lo);
  EXPECT_EQ(r.max_time_ns(), hi);
  EXPECT_EQ(r.metadata(), [] {
    Metadata m = test_metadata();
    return m;
  }());
}

INSTANTIATE_TEST_SUITE_P(Codecs, RoundTrip,
                         ::testing::Values(Compression::kNone, Compression::kZstd,
                                           Compression::kZstdDeltaShuffle));

// Codec 2's transform restores any records exactly: timestamps out of order,
// equal, at both ends of the range (the deltas wrap), and a single record.
TEST(BlockCodec, DeltaShuffleInvertsExactly) {
  std::vector<Event> events = events_of_every_kind(1'001, 11);
  events[0].time_ns = 0;
  events[1].time_ns = UINT64_MAX;
  events[2].time_ns = 0;
  events[3].time_ns = 5;
  events[4].time_ns = 5;
  events[5].time_ns = 3;
  for (size_t n : {size_t(1), size_t(2), size_t(7), events.size()}) {
    std::vector<unsigned char> shuffled(n * sizeof(Event));
    delta_shuffle(events.data(), n, shuffled.data());
    std::vector<Event> back(n);
    undelta_unshuffle(shuffled.data(), n, back.data());
    for (size_t k = 0; k < n; ++k) ASSERT_TRUE(same(back[k], events[k])) << n << " " << k;
  }
  // Byte plane b holds byte b of every record; plane 0 of record 1 is the delta.
  std::vector<unsigned char> shuffled(2 * sizeof(Event));
  delta_shuffle(events.data() + 3, 2, shuffled.data());
  EXPECT_EQ(shuffled[0], 5);  // record 0: time 5
  EXPECT_EQ(shuffled[1], 0);  // record 1: 5 - 5
  EXPECT_EQ(shuffled[2 * 8], events[3].kind & 0xff);
}

// The decoder's word-wise transpose against FORMAT.md's definition, byte by
// byte, on arbitrary planes (every byte value, deltas that wrap): block sizes
// of no record, one, around the 64-record tiles and 8-record groups, and a
// full default block plus a partial tile.
TEST(BlockCodec, UnshuffleMatchesTheFormatByteForByte) {
  std::mt19937_64 rng(20);
  for (size_t n : {size_t(0), size_t(1), size_t(7), size_t(8), size_t(63), size_t(64), size_t(65),
                   size_t(72), size_t(200), size_t(16'384 + 13)}) {
    std::vector<unsigned char> planes(n * sizeof(Event));
    for (unsigned char& c : planes) c = static_cast<unsigned char>(rng());
    if (n > 1) std::memset(planes.data(), 0xff, n);  // plane 0: time deltas' low bytes at max
    std::vector<Event> expected(n);
    uint64_t time_ns = 0;
    for (size_t i = 0; i < n; ++i) {
      unsigned char record[sizeof(Event)];
      for (size_t b = 0; b < sizeof(Event); ++b) record[b] = planes[b * n + i];
      std::memcpy(&expected[i], record, sizeof(Event));
      time_ns += expected[i].time_ns;  // mod 2^64
      expected[i].time_ns = time_ns;
    }
    std::vector<Event> back(n);
    undelta_unshuffle(planes.data(), n, back.data());
    ASSERT_EQ(0, n == 0 ? 0 : std::memcmp(back.data(), expected.data(), n * sizeof(Event))) << n;
    std::vector<unsigned char> again(n * sizeof(Event));
    delta_shuffle(back.data(), n, again.data());
    EXPECT_EQ(again, planes) << n;
  }
}

// write_codec2: `events` to `path` in codec-2 blocks of `per_block`.
void write_codec2(const std::string& path, const std::vector<Event>& events, uint32_t per_block) {
  TraceWriter w;
  WriterOptions o;
  o.compression = Compression::kZstdDeltaShuffle;
  o.events_per_block = per_block;
  ASSERT_TRUE(w.open(path, test_metadata(), o).ok());
  ASSERT_TRUE(w.append(events.data(), events.size()).ok());
  ASSERT_TRUE(w.close().ok());
}

// Records as a merge of per-SM buffers leaves them: time goes back and forth.
std::vector<Event> unsorted_events(size_t n) {
  std::vector<Event> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = Event{1'000'000 + (i % 3 == 0 ? 0 : 40'000) + i * 7 - (i % 5) * 1'000,
                 uint16_t(EventKind::kCounterZero),
                 0,
                 uint16_t(i % 2),
                 0,
                 uint32_t(i),
                 kNoId,
                 0};
  }
  return v;
}

TEST(Codec2, UnsortedTimesAndOneEventBlocks) {
  // Two blocks of 1000 events; then blocks of one event each (records of
  // mostly zeros: a 32-byte block shrinks only then, else it is stored raw).
  std::vector<Event> tiny(3, Event{});
  for (size_t i = 0; i < tiny.size(); ++i) {
    tiny[i].time_ns = std::vector<uint64_t>{7, 3, 3}[i];
    tiny[i].kind = uint16_t(EventKind::kIteration);
  }
  for (auto [events, per_block] : {std::pair{unsorted_events(2'000), 1'000u}, {tiny, 1u}}) {
    SCOPED_TRACE(per_block);
    const std::string path = temp_path("codec2_" + std::to_string(per_block) + ".xft");
    write_codec2(path, events, per_block);
    TraceReader r = open_ok(path);
    ASSERT_EQ(r.num_blocks(), (events.size() + per_block - 1) / per_block);
    for (const BlockInfo& b : r.blocks()) ASSERT_EQ(stored_codec(path, b), 2u) << b.first_event;
    const std::vector<Event> back = read_all(r);
    ASSERT_EQ(back.size(), events.size());
    for (size_t k = 0; k < events.size(); ++k) ASSERT_TRUE(same(back[k], events[k])) << k;
    Result<Event> last = r.event_at(events.size() - 1);
    ASSERT_TRUE(last.ok()) << last.error().message;
    EXPECT_TRUE(same(*last, events.back()));
  }
}

// Codec2Damage: one codec-2 block whose payload a test replaces (same
// length, checksum recomputed, as a writer bug would leave it).
class Codec2Damage : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = temp_path("codec2_damage.xft");
    write_codec2(path_, unsorted_events(1'000), 1'000);
    TraceReader r = open_ok(path_);
    ASSERT_EQ(r.num_blocks(), 1u);
    payload_offset_ = r.blocks()[0].offset + 56;
    payload_bytes_ = r.blocks()[0].stored_bytes;
  }
  // reseal: write `payload` (padded to the stored length with a zstd
  // skippable frame) and its checksum.
  void reseal(std::string payload) {
    ASSERT_LE(payload.size() + 8, payload_bytes_);
    const uint32_t skippable[2] = {0x184D2A50u, uint32_t(payload_bytes_ - payload.size() - 8)};
    payload.append(reinterpret_cast<const char*>(skippable), sizeof(skippable));
    payload.resize(payload_bytes_, '\0');
    patch(path_, long(payload_offset_), payload.data(), payload.size());
    const uint64_t checksum = xxh64(payload.data(), payload.size(), 0);
    patch(path_, long(payload_offset_ - 8), &checksum, sizeof(checksum));
  }
  std::string open_error() {
    Result<TraceReader> r = TraceReader::open(path_);
    return r.ok() ? "" : r.error().message;
  }
  static std::string zstd_of_zeros(size_t bytes) {
    const std::string zeros(bytes, '\0');
    std::string out(ZSTD_compressBound(bytes), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), zeros.data(), zeros.size(), 1));
    return out;
  }
  std::string path_;
  uint64_t payload_offset_ = 0, payload_bytes_ = 0;
};

TEST_F(Codec2Damage, FlippedByteFailsTheChecksum) {
  const char flipped = 0x5a;
  patch(path_, long(payload_offset_ + 10), &flipped, 1);
  EXPECT_NE(open_error().find("block checksum mismatch"), std::string::npos) << open_error();
}

TEST_F(Codec2Damage, NotZstd) {
  reseal("not a zstd frame");
  EXPECT_EQ(open_error().find(path_ + ": byte offset " + std::to_string(payload_offset_) +
                              ": corrupt compressed block: "),
            0u)
      << open_error();
}

TEST_F(Codec2Damage, WrongDecompressedSize) {
  reseal(zstd_of_zeros(999 * sizeof(Event)));
  EXPECT_EQ(open_error(), path_ + ": byte offset " + std::to_string(payload_offset_) +
                              ": compressed block holds 31968 bytes, expected 32000");
  reseal(zstd_of_zeros(1'001 * sizeof(Event)));
  EXPECT_EQ(open_error().find(path_ + ": byte offset " + std::to_string(payload_offset_) +
                              ": corrupt compressed block: "),
            0u)
      << open_error();
}

TEST_F(Codec2Damage, UnknownCodecNamesTheFileAndOffset) {
  const uint16_t codec = kMaxCompression + 1;
  patch(path_, long(payload_offset_ - 56 + 16), &codec, sizeof(codec));
  EXPECT_EQ(open_error(), path_ + ": byte offset " + std::to_string(payload_offset_ - 56 + 16) +
                              ": unknown block compression codec 3 (this reader knows 0..2; "
                              "upgrade xferlab to read it)");
}

TEST(Writer, ZstdShrinksRegularEvents) {
  const std::string raw = temp_path("raw.xft"), packed = temp_path("packed.xft");
  std::vector<Event> events(50'000);
  for (size_t i = 0; i < events.size(); ++i) {
    events[i] = Event{1000 + i * 10,
                      uint16_t(EventKind::kCtaBegin),
                      16,
                      0,
                      uint16_t(i % 132),
                      uint32_t(i),
                      uint32_t(i / 8),
                      4096};
  }
  for (auto [path, codec] : {std::pair{raw, Compression::kNone}, {packed, Compression::kZstd}}) {
    TraceWriter w;
    WriterOptions o;
    o.compression = codec;
    ASSERT_TRUE(w.open(path, test_metadata(), o).ok());
    ASSERT_TRUE(w.append(events.data(), events.size()).ok());
    ASSERT_TRUE(w.close().ok());
  }
  std::ifstream a(raw, std::ios::ate), b(packed, std::ios::ate);
  // Raw: 32 B/event plus small fixed overhead; zstd: far less on this data.
  EXPECT_LT(uint64_t(a.tellg()), events.size() * 32 + 8192);
  EXPECT_LT(uint64_t(b.tellg()) * 4, uint64_t(a.tellg()));
  TraceReader r = open_ok(packed);
  const std::vector<Event> back = read_all(r);
  ASSERT_EQ(back.size(), events.size());
  EXPECT_TRUE(same(back.back(), events.back()));
}

TEST(Writer, EmptyTraceAndFinalMetadata) {
  const std::string path = temp_path("empty.xft");
  TraceWriter w;
  ASSERT_TRUE(w.open(path, test_metadata()).ok());
  // Clock sync measured at the end of a run lands in the final metadata.
  ClockDomain c;
  c.name = "gpu0.globaltimer";
  c.offset_ns = -1234;
  c.drift_ppb = 12.5;
  w.metadata().clocks.push_back(c);
  ASSERT_TRUE(w.close().ok());
  TraceReader r = open_ok(path);
  EXPECT_EQ(r.num_events(), 0u);
  EXPECT_EQ(r.min_time_ns(), UINT64_MAX);
  ASSERT_EQ(r.metadata().clocks.size(), 1u);
  EXPECT_EQ(r.metadata().clocks[0].offset_ns, -1234);
  Result<std::span<const Event>> batch = r.next_batch();
  ASSERT_TRUE(batch.ok());
  EXPECT_TRUE(batch->empty());
}

class RandomAccess : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = temp_path("random.xft");
    // Time increases with index, but not strictly within a block (two
    // interleaved streams), like merged per-SM buffers.
    events_.resize(20'000);
    for (size_t i = 0; i < events_.size(); ++i) {
      events_[i] = Event{10'000 + i * 100 + (i % 2) * 150,
                         uint16_t(EventKind::kChunkWrite),
                         16,
                         uint16_t(i % 4),
                         0,
                         uint32_t(i),
                         0,
                         64};
    }
    TraceWriter w;
    WriterOptions o;
    o.events_per_block = 777;
    o.compression = Compression::kZstd;
    ASSERT_TRUE(w.open(path_, test_metadata(), o).ok());
    ASSERT_TRUE(w.append(events_.data(), events_.size()).ok());
    ASSERT_TRUE(w.close().ok());
  }
  std::string path_;
  std::vector<Event> events_;
};

TEST_F(RandomAccess, EventAtAndSeek) {
  TraceReader r = open_ok(path_);
  for (uint64_t i : {0ull, 1ull, 776ull, 777ull, 12'345ull, 19'999ull}) {
    Result<Event> e = r.event_at(i);
    ASSERT_TRUE(e.ok()) << e.error().message;
    EXPECT_TRUE(same(*e, events_[i])) << i;
  }
  Result<Event> past = r.event_at(20'000);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.error().message.find("past the end"), std::string::npos);

  ASSERT_TRUE(r.seek_event(5'000).ok());
  EXPECT_EQ(r.position(), 5'000u);
  const std::vector<Event> rest = read_all(r);
  ASSERT_EQ(rest.size(), 15'000u);
  EXPECT_TRUE(same(rest.front(), events_[5'000]));
  EXPECT_TRUE(same(rest.back(), events_.back()));
  ASSERT_TRUE(r.rewind().ok());
  EXPECT_EQ(read_all(r).size(), events_.size());
}

TEST_F(RandomAccess, TimeWindowMatchesLinearScan) {
  TraceReader r = open_ok(path_);
  const uint64_t from = 500'000, to = 1'200'000;
  std::vector<uint32_t> got, want;
  ASSERT_TRUE(r.for_each_in_window(from, to, [&](const Event& e) { got.push_back(e.id); }).ok());
  for (const Event& e : events_) {
    if (e.time_ns >= from && e.time_ns < to) want.push_back(e.id);
  }
  EXPECT_EQ(got, want);
  EXPECT_FALSE(want.empty());
}

TEST(Versions, NewerMajorRejectedWithClearMessage) {
  const std::string path = temp_path("major.xft");
  TraceWriter w;
  ASSERT_TRUE(w.open(path, test_metadata()).ok());
  ASSERT_TRUE(w.close().ok());
  const uint16_t major = kFormatMajor + 1;
  patch(path, 8, &major, 2);
  Result<TraceReader> r = TraceReader::open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, path + ": byte offset 8: format version " + std::to_string(major) +
                                   "." + std::to_string(kFormatMinor) +
                                   " is newer than this reader (" + std::to_string(kFormatMajor) +
                                   "." + std::to_string(kFormatMinor) +
                                   "); upgrade xferlab to read it");
  EXPECT_EQ(r.error().exit_code(), 2);
}

TEST(Versions, UnknownKindsSkippedOrStrict) {
  const std::string path = temp_path("unknown_kind.xft");
  std::vector<Event> events = events_of_every_kind(100, 3);
  events[10].kind = 300;  // a kind from some future minor version.
  events[11].kind = uint16_t(EventKind::kNumEventKinds);
  TraceWriter w;
  ASSERT_TRUE(w.open(path, test_metadata()).ok());
  ASSERT_TRUE(w.append(events.data(), events.size()).ok());
  ASSERT_TRUE(w.close().ok());

  TraceReader r = open_ok(path);
  EXPECT_EQ(read_all(r).size(), 98u);
  EXPECT_EQ(r.skipped_unknown(), 2u);
  ASSERT_GT(r.kind_counts().size(), 300u);
  EXPECT_EQ(r.kind_counts()[300], 1u);
  Result<Event> raw = r.event_at(10);  // random access returns the record as stored.
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->kind, 300);

  ReaderOptions strict;
  strict.strict = true;
  // The first block is decoded by open(), later ones while iterating.
  Result<TraceReader> s = TraceReader::open(path, strict);
  Status st = s.ok() ? s->for_each([](const Event&) {}) : Status(s.error());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("event #10 (byte offset"), std::string::npos)
      << st.error().message;
  EXPECT_NE(st.error().message.find("unknown event kind 300"), std::string::npos);
}

TEST(Reader, TruncatedFileAcceptedOnlyWhenAsked) {
  const std::string path = temp_path("crashed.xft");
  const std::vector<Event> events = events_of_every_kind(5'000, 5);
  TraceWriter w;
  WriterOptions o;
  o.events_per_block = 1'000;
  ASSERT_TRUE(w.open(path, test_metadata(), o).ok());
  ASSERT_TRUE(w.append(events.data(), events.size()).ok());
  ASSERT_TRUE(w.close().ok());
  // A producer killed in the middle of block 3: keep 2.5 blocks' bytes.
  ASSERT_EQ(::truncate(path.c_str(), 2'000 + 3 * 1'000 * 32 - 16'000), 0);
  Result<TraceReader> strict = TraceReader::open(path);
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.error().message.find("no footer"), std::string::npos);
  ReaderOptions forgiving;
  forgiving.allow_truncated = true;
  TraceReader r = open_ok(path, forgiving);
  const std::vector<Event> back = read_all(r);
  ASSERT_EQ(back.size(), 2'000u);  // the complete blocks.
  EXPECT_TRUE(same(back.back(), events[1'999]));
}

// Whole-file zstd (`zstd run.xft`), as committed traces are stored: read
// transparently, random access included; a cut-off frame is a one-line error.
TEST(Reader, WholeFileZstd) {
  const std::string path = temp_path("plain.xft");
  const std::vector<Event> events = events_of_every_kind(3'000, 9);
  TraceWriter w;
  ASSERT_TRUE(w.open(path, test_metadata()).ok());
  ASSERT_TRUE(w.append(events.data(), events.size()).ok());
  ASSERT_TRUE(w.close().ok());
  std::ifstream in(path, std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string packed(ZSTD_compressBound(raw.size()), '\0');
  const size_t n = ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 3);
  ASSERT_FALSE(ZSTD_isError(n));
  packed.resize(n);
  const std::string zpath = temp_path("plain.xft.zst");
  std::ofstream(zpath, std::ios::binary) << packed;
  TraceReader r = open_ok(zpath);
  const std::vector<Event> back = read_all(r);
  ASSERT_EQ(back.size(), events.size());
  EXPECT_TRUE(same(back[1'234], events[1'234]));
  EXPECT_TRUE(same(*r.event_at(2'999), events[2'999]));

  const std::string cut = temp_path("cut.xft.zst");
  std::ofstream(cut, std::ios::binary) << packed.substr(0, packed.size() / 2);
  Result<TraceReader> bad = TraceReader::open(cut);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.rfind(cut + ": truncated zstd stream", 0), 0u)
      << bad.error().message;
}

// A reader keeps the last file it inflated (a replay opens its trace twice)
// and reuses it only for the same compressed bytes: a file rewritten in
// place, even within one clock tick and at the same size, is read anew.
TEST(Reader, WholeFileZstdRewrittenInPlaceIsReadAnew) {
  const std::string path = temp_path("rewrite.xft");
  const std::string zpath = temp_path("rewrite.xft.zst");
  auto write_zst = [&](uint64_t seed) {
    const std::vector<Event> events = events_of_every_kind(2'000, seed);
    TraceWriter w;
    EXPECT_TRUE(w.open(path, test_metadata()).ok());
    EXPECT_TRUE(w.append(events.data(), events.size()).ok());
    EXPECT_TRUE(w.close().ok());
    std::ifstream in(path, std::ios::binary);
    const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string packed(ZSTD_compressBound(raw.size()), '\0');
    packed.resize(ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 1));
    std::ofstream(zpath, std::ios::binary | std::ios::trunc) << packed;
    return events;
  };
  const std::vector<Event> a = write_zst(1);
  TraceReader ra = open_ok(zpath);
  TraceReader ra_again = open_ok(zpath);
  const std::vector<Event> b = write_zst(2);
  TraceReader rb = open_ok(zpath);
  EXPECT_TRUE(same(*ra.event_at(1'999), a[1'999]));
  EXPECT_TRUE(same(*ra_again.event_at(7), a[7]));
  EXPECT_TRUE(same(*rb.event_at(1'999), b[1'999]));
  EXPECT_FALSE(same(b[1'999], a[1'999]));
}

TEST(Reader, MissingFile) {
  Result<TraceReader> r = TraceReader::open("/nonexistent/x.xft");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("/nonexistent/x.xft: cannot open", 0), 0u);
}

}  // namespace
}  // namespace xferlab::traces
