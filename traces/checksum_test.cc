// XXH64 against reference values (the low 32 bits of each also appear as the
// content checksum `zstd --check` writes, which is how they were confirmed).
#include "traces/checksum.h"

#include <gtest/gtest.h>

#include <string>

namespace xferlab::traces {
namespace {

uint64_t h(const std::string& s, uint64_t seed = 0) {
  return xxh64(s.data(), s.size(), seed);
}

TEST(Xxh64, ReferenceVectors) {
  EXPECT_EQ(h(""), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(h("abc"), 0x44BC2CF5AD770999ull);
  EXPECT_EQ(h("The quick brown fox jumps over the lazy dog"), 0x0B242D361FDA71BCull);
  EXPECT_EQ(h("Nobody inspects the spammish repetition"), 0xFBCEA83C8A378BF1ull);
  EXPECT_EQ(h(std::string(1000, 'x')) & 0xffffffffull, 0x9CB700E1ull);
}

TEST(Xxh64, EveryBitFlipChangesIt) {
  std::string s(256, '\0');
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>(i * 7);
  const uint64_t ref = h(s, 42);
  EXPECT_NE(ref, h(s, 43));
  for (size_t bit = 0; bit < s.size() * 8; ++bit) {
    std::string t = s;
    t[bit / 8] = static_cast<char>(t[bit / 8] ^ (1 << (bit % 8)));
    ASSERT_NE(h(t, 42), ref) << bit;
  }
}

}  // namespace
}  // namespace xferlab::traces
