// sim/open_times_test.cc — OpenTimes against std::unordered_map on random
// sequences of set and take: keys as the adapter makes them (GPU << 32 | id,
// sequential ids), few keys (long probe runs after deletions wrap around the
// table) and many open at once (growth).
#include "sim/open_times.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

namespace xferlab::sim {
namespace {

TEST(OpenTimes, MatchesAMapOnRandomSetsAndTakes) {
  std::mt19937_64 rng(7);
  for (const uint32_t ids : {3u, 100u, 5000u}) {
    for (const int take_percent : {20, 50, 80}) {
      OpenTimes open;
      std::unordered_map<uint64_t, double> expected;
      for (int op = 0; op < 200'000; ++op) {
        const uint64_t key = (uint64_t{rng() % 4} << 32) | (rng() % ids);
        if (static_cast<int>(rng() % 100) < take_percent) {
          const std::optional<double> t = open.take(key);
          auto it = expected.find(key);
          ASSERT_EQ(t.has_value(), it != expected.end()) << ids << " " << op;
          if (t) {
            EXPECT_EQ(*t, it->second);
            expected.erase(it);
          }
        } else {
          const double t = static_cast<double>(op);
          open.set(key, t);
          expected[key] = t;
        }
        ASSERT_EQ(open.size(), expected.size()) << ids << " " << op;
      }
      for (const auto& [key, t] : expected) EXPECT_EQ(open.take(key), t);
      EXPECT_EQ(open.size(), 0u);
    }
  }
}

TEST(OpenTimes, EmptyTakesNothing) {
  OpenTimes open;
  EXPECT_FALSE(open.take(0).has_value());
  open.set(0, 1.5);
  open.set(0, 2.5);  // replaced
  EXPECT_EQ(open.size(), 1u);
  EXPECT_EQ(open.take(0), 2.5);
  EXPECT_FALSE(open.take(0).has_value());
}

}  // namespace
}  // namespace xferlab::sim
