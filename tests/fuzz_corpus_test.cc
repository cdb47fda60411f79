// tests/fuzz_corpus_test.cc — CI replay of the preset and CSV fuzz corpora
// (tests/testdata/fuzz_*; tools/fuzz_inputs.sh grows them) through the same
// harnesses the fuzzer runs, plus seeded mutations: no crash, no sanitizer
// report under --config=asan/ubsan, no broken invariant (fuzz_inputs.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tests/fuzz_inputs.h"

namespace xferlab::fuzz {
namespace {

using Harness = std::function<int(const uint8_t*, size_t)>;

std::vector<std::string> corpus(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator("tests/testdata/" + dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    files.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

int run(const Harness& h, const std::string& s) {
  return h(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// replay: every corpus file, then `mutations` mutants (bit flips, replaced
// bytes, cuts, duplicated spans, splices of two files). Returns how many
// corpus files the harness accepted.
int replay(const std::string& dir, const Harness& h, int mutations) {
  const std::vector<std::string> files = corpus(dir);
  EXPECT_GE(files.size(), 10u) << dir;
  int accepted = 0;
  for (const std::string& f : files) accepted += run(h, f) > 0;
  std::mt19937_64 rng(20261125);
  const std::string interesting = "=\"[]{},.#\n\r\\0123456789eE+-.kMGTsBpHz";
  for (int i = 0; i < mutations; ++i) {
    std::string b = files[rng() % files.size()];
    if (b.empty()) b = "x";
    switch (rng() % 5) {
      case 0:
        for (int k = 0; k < 4; ++k) b[rng() % b.size()] ^= char(1u << (rng() % 8));
        break;
      case 1: b[rng() % b.size()] = interesting[rng() % interesting.size()]; break;
      case 2: b.resize(rng() % b.size()); break;
      case 3: {
        const size_t at = rng() % b.size(), n = std::min<size_t>(rng() % 64, b.size() - at);
        b.insert(at, b.substr(at, n));
        break;
      }
      default: {
        const std::string& o = files[rng() % files.size()];
        b = b.substr(0, rng() % b.size()) + o.substr(o.empty() ? 0 : rng() % o.size());
      }
    }
    run(h, b);
  }
  return accepted;
}

TEST(FuzzCorpus, PresetCorpusAndMutations) {
  EXPECT_GE(replay("fuzz_preset", fuzz_preset_input, 1500), 3);  // the valid seeds load.
}

TEST(FuzzCorpus, CsvCorpusAndMutations) {
  EXPECT_GE(replay("fuzz_csv", fuzz_csv_input, 3000), 4);  // one valid seed per reader.
}

}  // namespace
}  // namespace xferlab::fuzz
