// Tests for CounterUnit: placement (spill / stall), the update queue, trigger
// latency and per-byte counting, all against hand-computed times.
#include "hw_model/counter_unit.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

CounterUnitConfig config() {
  CounterUnitConfig c;
  c.clock_hz = 1e9;  // 1 ns cycles keep the arithmetic readable
  c.capacity_counters = 8;
  c.queue_depth = 2;
  return c;
}

TEST(CounterUnit, DerivedTimes) {
  CounterUnit u = *CounterUnit::create(config());
  EXPECT_DOUBLE_EQ(u.update_service_ns(), 1);
  EXPECT_DOUBLE_EQ(u.update_latency_ns(), 20);
  EXPECT_DOUBLE_EQ(u.trigger_ns(100), 110);
  EXPECT_DOUBLE_EQ(u.init_time_ns(8), 200 + 8.0 / 4);
  EXPECT_EQ(u.updates_per_chunk(4096, 3), 3);
  CounterUnitConfig c = config();
  c.count_mode = CountMode::kPerByte;
  EXPECT_EQ(CounterUnit::create(c)->updates_per_chunk(4096, 3), 4096 / 32);
}

TEST(CounterUnit, UpdateQueueSerializesAndStalls) {
  CounterUnit u = *CounterUnit::create(config());
  int64_t r = u.add_region(0, 4096, 1024)->region;
  // Four updates issued at t=0: served 1 ns apart; with 2 queue slots the
  // third writer waits until the first has started service, and so on.
  UpdateTiming t0 = u.update(r, 0, 0), t1 = u.update(r, 0, 0), t2 = u.update(r, 0, 0),
               t3 = u.update(r, 0, 0);
  EXPECT_DOUBLE_EQ(t0.completed_ns, 20);
  EXPECT_DOUBLE_EQ(t1.completed_ns, 21);
  EXPECT_DOUBLE_EQ(t2.completed_ns, 22);
  EXPECT_DOUBLE_EQ(t3.completed_ns, 23);
  EXPECT_DOUBLE_EQ(t0.accepted_ns, 0);
  EXPECT_DOUBLE_EQ(t2.accepted_ns, 0);  // update 0 started at 0
  EXPECT_DOUBLE_EQ(t3.accepted_ns, 1);  // update 1 started at 1
  // An idle unit serves immediately.
  EXPECT_DOUBLE_EQ(u.update(r, 0, 1000).completed_ns, 1020);
}

TEST(CounterUnit, SpillPolicy) {
  CounterUnit u = *CounterUnit::create(config());
  RegionPlacement p = *u.add_region(0, 12 * 1024, 1024);
  EXPECT_EQ(p.counters, 12);
  EXPECT_EQ(p.resident, 8);
  EXPECT_EQ(p.spilled, 4);
  EXPECT_EQ(p.waiting, 0);
  EXPECT_DOUBLE_EQ(p.init_ns, 200 + 12.0 / 4);
  EXPECT_FALSE(u.chunk_spilled(p.region, 7));
  EXPECT_TRUE(u.chunk_spilled(p.region, 8));
  EXPECT_DOUBLE_EQ(u.update(p.region, 9, 0).completed_ns, 20 + 600);
}

TEST(CounterUnit, StallPolicyWaitsForReleasedEntries) {
  CounterUnitConfig c = config();
  c.full_policy = FullTablePolicy::kStall;
  CounterUnit u = *CounterUnit::create(c);
  RegionPlacement a = *u.add_region(0, 6 * 1024, 1024);
  RegionPlacement b = *u.add_region(1 << 20, (1 << 20) + 5 * 1024, 1024);
  EXPECT_EQ(a.resident, 6);
  EXPECT_EQ(b.resident, 2);
  EXPECT_EQ(b.waiting, 3);
  EXPECT_EQ(u.free_entries(), 0);
  std::vector<int64_t> ready = u.release_region(a.region);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0], b.region);
  EXPECT_EQ(u.waiting_counters(b.region), 0);
  EXPECT_EQ(u.free_entries(), 3);
}

// Chunk triggers: updates spread over each chunk's write window through the
// FIFO (service 100 ns, latency 50 ns from service start), trigger 10 ns later.
CounterUnitConfig timed(int64_t capacity, FullTablePolicy policy) {
  CounterUnitConfig c;
  c.clock_hz = 1e8;  // 10 ns cycles
  c.updates_per_cycle = 0.1;
  c.update_latency_cycles = 5;
  c.trigger_latency_cycles = 1;
  c.capacity_counters = capacity;
  c.full_policy = policy;
  return c;
}

TEST(CounterUnit, ChunkTriggersFollowTheLastUpdate) {
  CounterUnit u = *CounterUnit::create(timed(16, FullTablePolicy::kSpill));
  // 4 updates at 1000, 2000, 3000, 4000; the last starts service at 4000.
  const ChunkWrites one[] = {{0, 4000, 4096, 4}};
  ChunkTriggers t = u.chunk_triggers(one);
  ASSERT_EQ(t.trigger_ns.size(), 1u);
  EXPECT_DOUBLE_EQ(t.trigger_ns[0], 4000 + 50 + 10);
  EXPECT_DOUBLE_EQ(t.stall_ns, 0);
  // Two chunks ready at once queue behind each other (100 ns service).
  const ChunkWrites two[] = {{0, 1000, 64, 1}, {0, 1000, 64, 1}};
  t = u.chunk_triggers(two);
  EXPECT_DOUBLE_EQ(t.trigger_ns[0], 1060);
  EXPECT_DOUBLE_EQ(t.trigger_ns[1], 1160);
}

TEST(CounterUnit, ChunkTriggersSpillOrStallBeyondCapacity) {
  const ChunkWrites chunks[] = {{0, 1000, 64, 1}, {500, 2000, 64, 1}};
  // One entry: the second chunk starts writing while the first is live.
  ChunkTriggers spill =
      CounterUnit::create(timed(1, FullTablePolicy::kSpill))->chunk_triggers(chunks);
  EXPECT_DOUBLE_EQ(spill.trigger_ns[1], 2000 + 50 + 600 + 10);
  EXPECT_DOUBLE_EQ(spill.stall_ns, 0);
  ChunkTriggers stall =
      CounterUnit::create(timed(1, FullTablePolicy::kStall))->chunk_triggers(chunks);
  // Writers wait until the first trigger (1060): everything shifts by 560.
  EXPECT_DOUBLE_EQ(stall.stall_ns, 560);
  EXPECT_DOUBLE_EQ(stall.trigger_ns[1], 2560 + 50 + 10);
}

TEST(CounterUnit, Validation) {
  EXPECT_FALSE(CounterUnit::create(config())->add_region(10, 10, 64).ok());
  CounterUnitConfig c = config();
  c.updates_per_cycle = 0;
  EXPECT_EQ(c.validate().error().message, "key 'updates_per_cycle': must be > 0");
  EXPECT_FALSE(CounterUnit::create(c).ok());
}

}  // namespace
}  // namespace xferlab::hw_model
