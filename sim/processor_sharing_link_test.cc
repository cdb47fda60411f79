// sim/processor_sharing_link_test.cc — flows on an isolated link, by hand:
// 1 B/ns (1e9 B/s).
#include "sim/processor_sharing_link.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>

namespace xferlab::sim {
namespace {

constexpr double kTol = 1e-9;  // ns

TEST(ProcessorSharingLink, OneFlowTakesLatencyThenBytesOverBandwidth) {
  ProcessorSharingLink link(1e9, 1000);
  const size_t a = link.add(500, 4000);
  EXPECT_NEAR(link.end_ns(a), 500 + 1000 + 4000, kTol);
}

TEST(ProcessorSharingLink, FlowsStartedTogetherShareEqually) {
  ProcessorSharingLink link(1e9, 1000);
  const size_t a = link.add(0, 4000);
  const size_t b = link.add(0, 4000);
  const size_t c = link.add(0, 2000);
  // Three share until c has 2000 (6000 ns), then two share 2000 each left.
  EXPECT_NEAR(link.end_ns(c), 1000 + 6000, kTol);
  EXPECT_NEAR(link.end_ns(a), 1000 + 6000 + 4000, kTol);
  EXPECT_NEAR(link.end_ns(b), 1000 + 6000 + 4000, kTol);
}

// A alone for 1000 ns (1000 B), then A and B at 0.5 B/ns: B's 2000 B take
// 4000 ns (ends at 5000); A's last 1000 B alone (ends at 6000).
TEST(ProcessorSharingLink, LaterFlowSlowsEarlierOne) {
  ProcessorSharingLink link(1e9, 0);
  const size_t a = link.add(0, 4000);
  const size_t b = link.add(1000, 2000);
  EXPECT_NEAR(link.end_ns(b), 5000, kTol);
  EXPECT_NEAR(link.end_ns(a), 6000, kTol);
}

// A flow in its latency does not share yet: B starts at 1000 but joins at
// 3000, when A (4000 B from 0) has 1000 B left; both at 0.5 B/ns, A ends at
// 5000; B's last 3000 B alone end at 8000.
TEST(ProcessorSharingLink, FlowsJoinAfterTheirLatency) {
  ProcessorSharingLink link(1e9, 2000);
  const size_t a = link.add(-2000, 4000);  // joins at 0
  const size_t b = link.add(1000, 4000);   // joins at 3000
  EXPECT_NEAR(link.end_ns(a), 5000, kTol);
  EXPECT_NEAR(link.end_ns(b), 8000, kTol);
}

TEST(ProcessorSharingLink, IdleGapsAndEmptyFlows) {
  ProcessorSharingLink link(2e9, 0);
  const size_t a = link.add(0, 2000);
  EXPECT_NEAR(link.end_ns(a), 1000, kTol);
  const size_t b = link.add(5000, 0);
  const size_t c = link.add(5000, 4000);
  EXPECT_NEAR(link.end_ns(b), 5000, kTol);
  EXPECT_NEAR(link.end_ns(c), 7000, kTol);
}

// Two producers (as polling's agent groups and hardware's DMA channels):
// the scheduler takes the link's ends in time order up to the next time an
// agent is due, which may add a flow then. A (1000 B at 0, 1 B/ns) has not
// ended by 500, where B (1000 B) halves its rate: A ends at 1500, B at 2000.
TEST(ProcessorSharingLink, NextEndUpToALimitLeavesLaterEndsToFlowsAddedThen) {
  ProcessorSharingLink link(1e9, 0);
  const size_t a = link.add(0, 1000);
  EXPECT_EQ(link.next_end(500), std::nullopt);
  const size_t b = link.add(500, 1000);
  EXPECT_EQ(link.next_end(1499), std::nullopt);
  EXPECT_FALSE(link.ended(a));
  EXPECT_EQ(link.next_end(1500), a);
  EXPECT_NEAR(link.end_ns(a), 1500, kTol);
  EXPECT_EQ(link.next_end(1500), std::nullopt);
  EXPECT_FALSE(link.ended(b));
  EXPECT_EQ(link.next_end(std::numeric_limits<double>::infinity()), b);
  EXPECT_NEAR(link.end_ns(b), 2000, kTol);
}

// Capped lanes, 1 B/ns, no latency, caps 0.6 B/ns. A (600 B) and B (3000
// B) on lane 0, C (3000 B) on lane 1, all at 0: lane 0 binds first (0.6 / 2
// below the level 1 / 3), 0.3 each; C takes the 0.4 left. A ends at 2000
// (B and C have 600 and 800); then 0.5 each, below the cap: C ends at
// 2000 + 2200 / 0.5 = 6400, B (200 B left) alone at its cap: 6733.33.
TEST(ProcessorSharingLink, CappedLanesBindAndRelease) {
  ProcessorSharingLink link(1e9, 0, 2, 0.6e9);
  const size_t a = link.add(0, 600, 0);
  const size_t b = link.add(0, 3000, 0);
  const size_t c = link.add(0, 3000, 1);
  EXPECT_NEAR(link.end_ns(a), 2000, kTol);
  EXPECT_NEAR(link.end_ns(c), 6400, kTol);
  EXPECT_NEAR(link.end_ns(b), 6400 + 200 / 0.6, 1e-6);
}

// Every lane capped below the link: the lanes' caps alone set the rates
// (2 flows at 0.2 each on lane 0, one at 0.4 on lane 1: 0.8 of 1 B/ns).
TEST(ProcessorSharingLink, CapsBelowTheLinkLeaveItIdle) {
  ProcessorSharingLink link(1e9, 100, 2, 0.4e9);
  const size_t a = link.add(0, 1000, 0);
  const size_t b = link.add(0, 1000, 0);
  const size_t c = link.add(0, 1000, 1);
  EXPECT_EQ(link.next_end(), c);
  EXPECT_NEAR(link.end_ns(c), 100 + 2500, kTol);
  // A and B have 500 B left, still 0.2 each.
  EXPECT_NEAR(link.end_ns(a), 100 + 5000, kTol);
  EXPECT_NEAR(link.end_ns(b), 100 + 5000, kTol);
}

// Caps that never bind give the single queue's ends: the flows of
// FlowsStartedTogetherShareEqually spread over 3 lanes capped above the link.
TEST(ProcessorSharingLink, CapsThatNeverBindAreOneQueue) {
  for (double cap : {2e9, std::numeric_limits<double>::infinity()}) {
    ProcessorSharingLink link(1e9, 1000, 3, cap);
    const size_t a = link.add(0, 4000, 0);
    const size_t b = link.add(0, 4000, 1);
    const size_t c = link.add(0, 2000, 2);
    EXPECT_EQ(link.next_end(), c);
    EXPECT_NEAR(link.end_ns(c), 1000 + 6000, kTol);
    EXPECT_NEAR(link.end_ns(a), 1000 + 6000 + 4000, kTol);
    EXPECT_NEAR(link.end_ns(b), 1000 + 6000 + 4000, kTol);
  }
}

}  // namespace
}  // namespace xferlab::sim
