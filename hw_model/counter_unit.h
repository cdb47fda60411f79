// hw_model/counter_unit.h — CounterUnit: PROACT's proposed data-ready counter
// hardware. A dedicated table of counters, each tied to one chunk of a region
// (base/bound); local writes into the region update the chunk's counter without
// instructions; when a counter reaches zero the unit raises a trigger for the
// DMA agent. The authors left the microarchitecture open; this model specifies
// it with parameters (docs/hw_model.md §3).
//
// The unit is stateful (table occupancy, update queue) but deterministic: the
// same calls in the same order give the same times.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "hw_model/param_table.h"

namespace xferlab::hw_model {

// FullTablePolicy: what happens to counters that do not fit in the table.
enum class FullTablePolicy {
  kSpill,  ///< they live in memory; each update to them pays spill_penalty_ns.
  kStall,  ///< the region waits until enough entries are released.
};
// CountMode: what one counter counts.
enum class CountMode {
  kPerCta,   ///< initialized to the CTAs writing the chunk; one decrement per CTA completion.
  kPerByte,  ///< initialized to the chunk's bytes; one update per written granule.
};

struct CounterUnitConfig {
  int64_t capacity_counters = kAutoCount;  ///< counter entries; auto = sized (hardware_sizing.h).
  double counter_bytes = 8;                ///< memory footprint of one counter (init, spill).
  double clock_hz = 1.4e9;                 ///< unit clock.
  double updates_per_cycle = 1;            ///< update throughput.
  int64_t update_latency_cycles = 20;      ///< issue -> counter updated (and zero detected).
  int64_t queue_depth = 64;                ///< pending updates before writers stall.
  double init_fixed_ns = 200;              ///< fixed cost to register a region.
  double init_counters_per_cycle = 4;      ///< counter initializations per cycle.
  int64_t trigger_latency_cycles = 10;     ///< zero detected -> DMA agent triggered.
  FullTablePolicy full_policy = FullTablePolicy::kSpill;
  double spill_penalty_ns = 600;  ///< extra latency of an update to a spilled counter.
  CountMode count_mode = CountMode::kPerCta;
  double per_byte_granule_bytes = 32;  ///< per-byte mode: bytes covered by one update.

  Status validate() const;
  static std::span<const Param<CounterUnitConfig>> params();
};

// RegionPlacement: where a newly registered region's counters went.
struct RegionPlacement {
  int64_t region = -1;   ///< id for later calls.
  int64_t counters = 0;  ///< ceil((bound - base) / chunk).
  int64_t resident = 0;  ///< counters in the table.
  int64_t spilled = 0;   ///< counters in memory (kSpill).
  int64_t waiting = 0;   ///< counters that need free entries first (kStall); 0 = ready.
  double init_ns = 0;    ///< time to initialize the resident + spilled counters.
};

// UpdateTiming: one counter update through the unit's queue.
struct UpdateTiming {
  double accepted_ns = 0;   ///< when the writer may continue (stalls while the queue is full).
  double completed_ns = 0;  ///< when the counter holds the new value (zero detection time).
};

// ChunkWrites: one chunk's counter traffic: its updates arrive evenly over
// [first_write_ns, ready_ns], the last one at ready_ns.
struct ChunkWrites {
  double first_write_ns = 0;
  double ready_ns = 0;
  double bytes = 0;         ///< chunk size (per-byte count mode).
  int64_t writer_ctas = 1;  ///< CTAs writing the chunk (per-CTA count mode).
};

// ChunkTriggers: when each chunk's trigger reaches the DMA agent.
struct ChunkTriggers {
  std::vector<double> trigger_ns;  ///< per chunk, in input order.
  double stall_ns = 0;             ///< writers' total wait for free entries (kStall).
};

class CounterUnit {
 public:
  static Result<CounterUnit> create(const CounterUnitConfig& config);
  const CounterUnitConfig& config() const { return config_; }

  // Derived constants.
  double cycle_ns() const { return 1e9 / config_.clock_hz; }
  double update_service_ns() const { return cycle_ns() / config_.updates_per_cycle; }
  double update_latency_ns() const { return config_.update_latency_cycles * cycle_ns(); }
  double trigger_latency_ns() const { return config_.trigger_latency_cycles * cycle_ns(); }
  // init_time_ns: fixed + counters / (init rate).
  double init_time_ns(int64_t counters) const;
  // updates_per_chunk: count_mode kPerCta -> writer_ctas; kPerByte ->
  // ceil(chunk_bytes / granule).
  int64_t updates_per_chunk(double chunk_bytes, int64_t writer_ctas) const;

  // add_region: registers [base, bound) split into chunks of chunk_bytes.
  // Error if bound <= base or chunk_bytes <= 0.
  Result<RegionPlacement> add_region(uint64_t base, uint64_t bound, double chunk_bytes);
  // release_region: frees its entries; waiting counters of later regions take
  // them in registration order. Returns regions that became ready (waiting 0).
  std::vector<int64_t> release_region(int64_t region);
  // waiting_counters: counters of `region` still without an entry (kStall).
  int64_t waiting_counters(int64_t region) const;
  int64_t free_entries() const { return free_entries_; }

  // chunk_spilled: whether `chunk` of `region` lives in memory.
  bool chunk_spilled(int64_t region, int64_t chunk) const;

  // update: an update of chunk `chunk` of `region` issued at issue_ns
  // (non-decreasing across calls). Single-server FIFO with service time
  // update_service_ns and queue_depth slots.
  UpdateTiming update(int64_t region, int64_t chunk, double issue_ns);
  // chunk_triggers: a kernel's chunks (in ready order) through an empty unit.
  // A counter is live from its chunk's first write to its trigger; a chunk
  // that finds capacity_counters live ones spills (kSpill: its zero detection
  // pays spill_penalty_ns) or waits for the oldest to free (kStall: its writes
  // and every later chunk's shift by the wait). Resets the unit.
  ChunkTriggers chunk_triggers(std::span<const ChunkWrites> chunks);

  // trigger_ns: when the DMA agent sees the zero detected at zero_ns.
  double trigger_ns(double zero_ns) const { return zero_ns + trigger_latency_ns(); }

  // reset: empty table and queue.
  void reset();

 private:
  struct Region {
    int64_t counters = 0;
    int64_t resident = 0;
    int64_t waiting = 0;
    bool live = false;
  };
  explicit CounterUnit(const CounterUnitConfig& config);
  // serve: one update through the FIFO (update() and chunk_triggers()).
  UpdateTiming serve(double issue_ns, bool spilled);

  CounterUnitConfig config_;
  std::vector<Region> regions_;
  int64_t free_entries_ = 0;
  double server_free_ns_ = 0;       // when the update pipeline accepts the next update
  std::vector<double> queue_ring_;  // completion-of-service times of the last queue_depth updates
  size_t queue_head_ = 0;
};

}  // namespace xferlab::hw_model
