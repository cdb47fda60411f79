// Regression tests over the committed corpus of malformed traces
// (testdata/malformed, written by make_malformed_corpus): each file's error
// names the file and the expected problem; then the fuzz harness replays the
// corpus and a few thousand seeded mutations of it (no sanitizer here; run
// with --config=asan, or tools/fuzz_traces.sh, for that).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "traces/fuzz_reader.h"
#include "traces/reader.h"
#include "traces/writer.h"

namespace xferlab::traces {
namespace {

const char kCorpus[] = "traces/testdata/malformed";
// The same damage in format 1.0 files (no block checksums): old files stay
// readable and their errors unchanged.
const char kCorpusV10[] = "traces/testdata/malformed_v1_0";

struct Case {
  std::string file;
  std::string expect;
};

std::vector<Case> manifest(const char* corpus = kCorpus) {
  std::ifstream in(std::string(corpus) + "/MANIFEST");
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    cases.push_back(Case{std::string(corpus) + "/" + line.substr(0, tab), line.substr(tab + 1)});
  }
  return cases;
}

std::vector<uint8_t> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

class MalformedCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(MalformedCorpus, EveryFileFailsWithItsOneLineError) {
  const std::vector<Case> cases = manifest(GetParam());
  ASSERT_GE(cases.size(), 20u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string& path = c.file;
    Result<TraceReader> r = TraceReader::open(path);
    Status s = r.ok() ? r->for_each([](const Event&) {}) : Status(r.error());
    if (c.expect == "OK") {
      EXPECT_TRUE(s.ok()) << s.error().message;
      continue;
    }
    ASSERT_FALSE(s.ok());
    const std::string& msg = s.error().message;
    EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;  // names the file first.
    EXPECT_NE(msg.find(c.expect), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    // Where: a byte offset or an event index.
    EXPECT_TRUE(msg.find("byte offset") != std::string::npos ||
                msg.find("event #") != std::string::npos)
        << msg;
    EXPECT_EQ(s.error().exit_code(), 2);
  }
}

INSTANTIATE_TEST_SUITE_P(BothVersions, MalformedCorpus, ::testing::Values(kCorpus, kCorpusV10));

TEST(Malformed, OldFormatReadsWithAWarning) {
  Result<TraceReader> old = TraceReader::open(std::string(kCorpusV10) + "/valid_small.xft");
  ASSERT_TRUE(old.ok()) << old.error().message;
  ASSERT_EQ(old->warnings().size(), 1u);
  EXPECT_NE(
      old->warnings()[0].find("format 1.0 has no block checksums; its events cannot be verified"),
      std::string::npos)
      << old->warnings()[0];
  Result<TraceReader> current = TraceReader::open(std::string(kCorpus) + "/valid_small.xft");
  ASSERT_TRUE(current.ok()) << current.error().message;
  EXPECT_TRUE(current->warnings().empty());
}

// Issue #21: of 40 copies of a real trace with 1-4 bytes flipped inside the
// event blocks, 3 replayed silently. With checksums every copy must fail.
TEST(Malformed, EveryFlipInsideEventBlocksIsCaught) {
  for (const char* name : {"valid_small.xft", "valid_zstd.xft"}) {
    const std::string path = std::string(kCorpus) + "/" + name;
    const std::vector<uint8_t> clean = bytes_of(path);
    Result<TraceReader> r = TraceReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    std::vector<std::pair<uint64_t, uint64_t>> payloads;  // [begin, end) of each block payload
    for (const BlockInfo& b : r->blocks()) {
      uint32_t header_bytes;
      std::memcpy(&header_bytes, clean.data() + b.offset + 4, 4);
      payloads.emplace_back(b.offset + header_bytes, b.offset + header_bytes + b.stored_bytes);
    }
    std::mt19937_64 rng(21);
    const std::string copy = std::string(std::getenv("TEST_TMPDIR")) + "/flipped.xft";
    for (int i = 0; i < 200; ++i) {
      std::vector<uint8_t> b = clean;
      const int flips = 1 + int(rng() % 4);
      for (int k = 0; k < flips; ++k) {
        const auto& [begin, end] = payloads[rng() % payloads.size()];
        b[begin + rng() % (end - begin)] ^= uint8_t(1 + rng() % 255);
      }
      std::ofstream(copy, std::ios::binary)
          .write(reinterpret_cast<const char*>(b.data()), long(b.size()));
      Result<TraceReader> f = TraceReader::open(copy);
      Status s = f.ok() ? f->for_each([](const Event&) {}) : Status(f.error());
      ASSERT_FALSE(s.ok()) << name << " copy " << i << " with " << flips
                           << " flipped byte(s) read silently";
    }
  }
}

// Issue #21 item 5: a trace whose recorder overflowed says so, with the
// capacity to re-record with, in every reader (TraceReader::warnings()).
TEST(Malformed, LostEventsNamedWithTheCapacityToReRecord) {
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/lost.xft";
  for (const auto& [needed, expect] :
       {std::pair<std::string, std::string>{"", ">= 4196"}, {"5000", ">= 5000"}}) {
    Metadata m;
    m.set_parameter("device_capacity_events", "4096");
    m.set_parameter("lost_events", "100");
    if (!needed.empty()) m.set_parameter("needed_capacity_events", needed);
    TraceWriter w;
    ASSERT_TRUE(w.open(path, m).ok());
    const Event e{1000, uint16_t(EventKind::kKernelBegin), 0, 0, 0, 0, 1, 1};
    ASSERT_TRUE(w.append(&e, 1).ok());
    ASSERT_TRUE(w.close().ok());
    Result<TraceReader> r = TraceReader::open(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->warnings().size(), 1u);
    EXPECT_EQ(r->warnings()[0],
              path + ": the trace lost 100 events; re-record with --trace-capacity " + expect);
  }
}

TEST(Malformed, NewerMinorSkipsUnknownKinds) {
  Result<TraceReader> r = TraceReader::open(std::string(kCorpus) + "/newer_minor_unknown_kind.xft");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GT(r->format_minor(), kFormatMinor);
  uint64_t n = 0;
  ASSERT_TRUE(r->for_each([&](const Event&) { ++n; }).ok());
  EXPECT_EQ(n + 1, r->num_events());
  EXPECT_EQ(r->skipped_unknown(), 1u);
}

TEST(Malformed, HarnessReplaysCorpusAndMutations) {
  std::vector<std::vector<uint8_t>> seeds;
  uint64_t accepted = 0;
  std::vector<Case> cases = manifest();
  for (const Case& c : manifest(kCorpusV10)) cases.push_back(c);
  for (const Case& c : cases) {
    seeds.push_back(bytes_of(c.file));
    accepted += fuzz_one_input(seeds.back().data(), seeds.back().size()) > 0;
  }
  EXPECT_GE(accepted, 3u);  // the valid seeds are read through.
  // Seeded mutations: bit flips, overwritten words, truncation, splices.
  std::mt19937_64 rng(20250101);
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> b = seeds[rng() % seeds.size()];
    if (b.empty()) continue;
    switch (rng() % 4) {
      case 0:
        for (int k = 0; k < 4; ++k) b[rng() % b.size()] ^= uint8_t(1u << (rng() % 8));
        break;
      case 1: {
        const uint64_t word = rng() % 3 == 0 ? UINT64_MAX : rng() % 3 == 0 ? 0 : rng();
        const size_t at = rng() % b.size();
        for (size_t k = 0; k < 8 && at + k < b.size(); ++k) b[at + k] = uint8_t(word >> (8 * k));
        break;
      }
      case 2: b.resize(rng() % b.size()); break;
      default: {
        const std::vector<uint8_t>& other = seeds[rng() % seeds.size()];
        if (other.empty()) break;
        const size_t at = rng() % b.size(), from = rng() % other.size();
        const size_t n = std::min({size_t(64), b.size() - at, other.size() - from});
        std::copy_n(other.begin() + long(from), n, b.begin() + long(at));
      }
    }
    fuzz_one_input(b.data(), b.size());
  }
}

}  // namespace
}  // namespace xferlab::traces
