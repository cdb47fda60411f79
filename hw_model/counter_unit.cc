// hw_model/counter_unit.cc — data-ready counter table and update queue
// (docs/hw_model.md §3).
#include "hw_model/counter_unit.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>

namespace xferlab::hw_model {
namespace {

constexpr EnumName<FullTablePolicy> kPolicyNames[] = {{FullTablePolicy::kSpill, "spill"},
                                                      {FullTablePolicy::kStall, "stall"}};
constexpr EnumName<CountMode> kModeNames[] = {{CountMode::kPerCta, "per_cta"},
                                              {CountMode::kPerByte, "per_byte"}};

using C = CounterUnitConfig;
const Param<C> kCounterParams[] = {
    {"capacity", Unit::kNone, "counter entries in the table", &C::capacity_counters},
    {"counter_size", Unit::kSizeBytes, "memory footprint of one counter", &C::counter_bytes},
    {"clock", Unit::kFrequencyHz, "unit clock", &C::clock_hz},
    {"updates_per_cycle", Unit::kNone, "update throughput", &C::updates_per_cycle},
    {"update_latency_cycles", Unit::kNone, "issue -> counter updated", &C::update_latency_cycles},
    {"queue_depth", Unit::kNone, "pending updates before writers stall", &C::queue_depth},
    {"init_fixed", Unit::kTimeNs, "fixed cost to register a region", &C::init_fixed_ns},
    {"init_counters_per_cycle", Unit::kNone, "counter initializations per cycle",
     &C::init_counters_per_cycle},
    {"trigger_latency_cycles", Unit::kNone, "zero detected -> DMA agent triggered",
     &C::trigger_latency_cycles},
    {"full_policy", Unit::kNone, "counters that do not fit: spill to memory or stall",
     enum_field<C, FullTablePolicy, &C::full_policy, kPolicyNames>()},
    {"spill_penalty", Unit::kTimeNs, "extra latency of an update to a spilled counter",
     &C::spill_penalty_ns},
    {"count_mode", Unit::kNone, "count CTA completions or written granules",
     enum_field<C, CountMode, &C::count_mode, kModeNames>()},
    {"per_byte_granule", Unit::kSizeBytes, "per_byte mode: bytes covered by one update",
     &C::per_byte_granule_bytes},
};

}  // namespace

std::span<const Param<CounterUnitConfig>> CounterUnitConfig::params() {
  return kCounterParams;
}

Status CounterUnitConfig::validate() const {
  if (capacity_counters < 1 && capacity_counters != kAutoCount)
    return make_error("key 'capacity': must be >= 1 or auto");
  if (!(counter_bytes > 0)) return make_error("key 'counter_size': must be > 0");
  if (!(clock_hz > 0)) return make_error("key 'clock': must be > 0");
  if (!(updates_per_cycle > 0)) return make_error("key 'updates_per_cycle': must be > 0");
  if (update_latency_cycles < 0) return make_error("key 'update_latency_cycles': must be >= 0");
  if (queue_depth < 1) return make_error("key 'queue_depth': must be >= 1");
  if (!(init_fixed_ns >= 0)) return make_error("key 'init_fixed': must be >= 0");
  if (!(init_counters_per_cycle > 0))
    return make_error("key 'init_counters_per_cycle': must be > 0");
  if (trigger_latency_cycles < 0) return make_error("key 'trigger_latency_cycles': must be >= 0");
  if (!(spill_penalty_ns >= 0)) return make_error("key 'spill_penalty': must be >= 0");
  if (!(per_byte_granule_bytes > 0)) return make_error("key 'per_byte_granule': must be > 0");
  return Status::Ok();
}

Result<CounterUnit> CounterUnit::create(const CounterUnitConfig& config) {
  Status status = config.validate();
  if (!status.ok()) return status.error();
  if (config.capacity_counters == kAutoCount)
    return make_error(
        "counter_unit: 'auto' capacity must be sized first (hw_model/hardware_sizing.h)");
  return CounterUnit(config);
}

CounterUnit::CounterUnit(const CounterUnitConfig& config) : config_(config) {
  reset();
}

void CounterUnit::reset() {
  regions_.clear();
  free_entries_ = config_.capacity_counters;
  server_free_ns_ = 0;
  queue_ring_.assign(static_cast<size_t>(config_.queue_depth), 0.0);
  queue_head_ = 0;
}

double CounterUnit::init_time_ns(int64_t counters) const {
  return config_.init_fixed_ns +
         static_cast<double>(counters) / config_.init_counters_per_cycle * cycle_ns();
}

int64_t CounterUnit::updates_per_chunk(double chunk_bytes, int64_t writer_ctas) const {
  if (config_.count_mode == CountMode::kPerCta) return writer_ctas;
  return static_cast<int64_t>(std::ceil(chunk_bytes / config_.per_byte_granule_bytes));
}

Result<RegionPlacement> CounterUnit::add_region(uint64_t base, uint64_t bound, double chunk_bytes) {
  if (bound <= base) return make_error("counter unit: region bound must be above its base");
  if (!(chunk_bytes > 0)) return make_error("counter unit: chunk size must be > 0");
  RegionPlacement p;
  p.counters = static_cast<int64_t>(std::ceil(static_cast<double>(bound - base) / chunk_bytes));
  // Regions that are already waiting keep their turn (FIFO).
  bool earlier_waiting = std::any_of(regions_.begin(), regions_.end(),
                                     [](const Region& r) { return r.live && r.waiting > 0; });
  int64_t available = earlier_waiting ? 0 : free_entries_;
  p.resident = std::min(p.counters, available);
  if (config_.full_policy == FullTablePolicy::kSpill) {
    p.spilled = p.counters - p.resident;
  } else {
    p.waiting = p.counters - p.resident;
  }
  free_entries_ -= p.resident;
  p.init_ns = init_time_ns(p.resident + p.spilled);
  p.region = static_cast<int64_t>(regions_.size());
  regions_.push_back(Region{p.counters, p.resident, p.waiting, true});
  return p;
}

std::vector<int64_t> CounterUnit::release_region(int64_t region) {
  std::vector<int64_t> ready;
  if (region < 0 || region >= static_cast<int64_t>(regions_.size())) return ready;
  Region& r = regions_[static_cast<size_t>(region)];
  if (!r.live) return ready;
  free_entries_ += r.resident;
  r = Region{};
  for (size_t i = 0; i < regions_.size() && free_entries_ > 0; ++i) {
    Region& w = regions_[i];
    if (!w.live || w.waiting == 0) continue;
    int64_t take = std::min(w.waiting, free_entries_);
    w.waiting -= take;
    w.resident += take;
    free_entries_ -= take;
    if (w.waiting == 0) ready.push_back(static_cast<int64_t>(i));
  }
  return ready;
}

int64_t CounterUnit::waiting_counters(int64_t region) const {
  if (region < 0 || region >= static_cast<int64_t>(regions_.size())) return 0;
  return regions_[static_cast<size_t>(region)].waiting;
}

bool CounterUnit::chunk_spilled(int64_t region, int64_t chunk) const {
  if (region < 0 || region >= static_cast<int64_t>(regions_.size())) return false;
  const Region& r = regions_[static_cast<size_t>(region)];
  // The first `resident` chunks own table entries; the rest live in memory.
  return config_.full_policy == FullTablePolicy::kSpill && chunk >= r.resident;
}

UpdateTiming CounterUnit::update(int64_t region, int64_t chunk, double issue_ns) {
  return serve(issue_ns, chunk_spilled(region, chunk));
}

UpdateTiming CounterUnit::serve(double issue_ns, bool spilled) {
  UpdateTiming t;
  // The update that entered queue_depth updates ago must have started service
  // before this one finds a free slot.
  double& oldest_start = queue_ring_[queue_head_];
  t.accepted_ns = std::max(issue_ns, oldest_start);
  double start = std::max(t.accepted_ns, server_free_ns_);
  server_free_ns_ = start + update_service_ns();
  oldest_start = start;
  queue_head_ = (queue_head_ + 1) % queue_ring_.size();
  t.completed_ns = start + update_latency_ns() + (spilled ? config_.spill_penalty_ns : 0);
  return t;
}

ChunkTriggers CounterUnit::chunk_triggers(std::span<const ChunkWrites> chunks) {
  reset();
  ChunkTriggers out;
  std::priority_queue<double, std::vector<double>, std::greater<>> live;  // their trigger times
  double shift = 0;
  for (const ChunkWrites& c : chunks) {
    double first = shift + c.first_write_ns;
    while (!live.empty() && live.top() <= first) live.pop();
    bool spilled = false;
    if (static_cast<int64_t>(live.size()) >= config_.capacity_counters) {
      if (config_.full_policy == FullTablePolicy::kStall) {
        shift += live.top() - first;  // writers wait for the oldest entry to free
        first = live.top();
        live.pop();
      } else {
        spilled = true;
      }
    }
    const double ready = shift + c.ready_ns;
    const int64_t n = std::max<int64_t>(1, updates_per_chunk(c.bytes, c.writer_ctas));
    double zero = first;
    for (int64_t u = 1; u <= n; ++u) {
      zero =
          serve(first + (ready - first) * static_cast<double>(u) / static_cast<double>(n), spilled)
              .completed_ns;
    }
    live.push(trigger_ns(zero));
    out.trigger_ns.push_back(trigger_ns(zero));
  }
  out.stall_ns = shift;
  return out;
}

}  // namespace xferlab::hw_model
