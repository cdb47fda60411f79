// Regression tests over the committed corpus of malformed traces
// (testdata/malformed, written by make_malformed_corpus): each file's error
// names the file and the expected problem; then the fuzz harness replays the
// corpus and a few thousand seeded mutations of it (no sanitizer here; run
// with --config=asan, or tools/fuzz_traces.sh, for that).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "traces/fuzz_reader.h"
#include "traces/reader.h"

namespace xferlab::traces {
namespace {

const char kCorpus[] = "traces/testdata/malformed";

struct Case {
  std::string file;
  std::string expect;
};

std::vector<Case> manifest() {
  std::ifstream in(std::string(kCorpus) + "/MANIFEST");
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    cases.push_back(Case{line.substr(0, tab), line.substr(tab + 1)});
  }
  return cases;
}

std::vector<uint8_t> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

TEST(Malformed, EveryFileFailsWithItsOneLineError) {
  const std::vector<Case> cases = manifest();
  ASSERT_GE(cases.size(), 20u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = std::string(kCorpus) + "/" + c.file;
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
  for (const Case& c : manifest()) {
    seeds.push_back(bytes_of(std::string(kCorpus) + "/" + c.file));
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
