// sim/processor_sharing_link_test.cc — flows on an isolated link, by hand:
// 1 B/ns (1e9 B/s).
#include "sim/processor_sharing_link.h"

#include <gtest/gtest.h>

#include <limits>

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

// Two producers: a waiter stepping to the next event (as DMA channels do)
// sees A's end at 1000 given A alone, but B, added at 500 while it waits,
// halves A's rate: at 1000 A has not ended and its end moves to 1500
// (500 B alone, then 500 B at 0.5 B/ns).
TEST(ProcessorSharingLink, NextEventNeverPassesAnEndThatAFlowAddedLaterDelays) {
  ProcessorSharingLink link(1e9, 0);
  const size_t a = link.add(0, 1000);
  EXPECT_NEAR(link.next_event_ns(), 0, kTol);  // A joins the sharing
  link.advance(0);
  EXPECT_NEAR(link.next_event_ns(), 1000, kTol);
  link.add(500, 1000);
  link.advance(1000);
  EXPECT_FALSE(link.ended(a));
  EXPECT_NEAR(link.next_event_ns(), 1500, kTol);
  link.advance(1500);
  EXPECT_TRUE(link.ended(a));
  EXPECT_NEAR(link.end_ns(a), 1500, kTol);
}

// earliest_end_ns (polling's groups wait by it): a flow's end as the link
// stands, latent flows included; a flow added later only moves it later.
// Latency 100, 1 B/ns: A (1000 B at 0) joins at 100, B (1000 B at 200) at
// 300, A having 800 B left, both at 0.5 B/ns: A ends at 1900, B at 2100.
// C added at 1000 (joins 1100) slows A: 400 B left at 1/3 B/ns, ends 2300.
TEST(ProcessorSharingLink, EarliestEndIsTheEndWithoutMoreFlowsAndOnlyMovesLater) {
  ProcessorSharingLink link(1e9, 100);
  const size_t a = link.add(0, 1000);
  const size_t b = link.add(200, 1000);
  EXPECT_NEAR(link.earliest_end_ns(a), 1900, kTol);
  EXPECT_NEAR(link.earliest_end_ns(b), 2100, kTol);
  link.advance(1000);
  link.add(1000, 1000);
  EXPECT_NEAR(link.earliest_end_ns(a), 2300, kTol);
  link.advance(2300);
  EXPECT_TRUE(link.ended(a));
  EXPECT_NEAR(link.earliest_end_ns(a), link.end_ns(a), kTol);
  EXPECT_NEAR(link.earliest_end_ns(b), link.end_ns(b), kTol);
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
