// hw_model/hardware_sizing.h — design rules that size PROACT's proposed
// hardware (counter unit + descriptor DMA agent) for a platform and a region
// when a preset leaves the sizes "auto": the DMA agent's outstanding-packet
// window, its channels and descriptor prefetch depth, and the counter unit's
// capacity. These size a unit someone would build for the machine; they are
// not fitted to measurements. Rules and sources: docs/hardware.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "hw_model/counter_unit.h"
#include "hw_model/dma_agent.h"
#include "hw_model/link_model.h"

namespace xferlab::hw_model {

// Chunk size the rules assume when no trace says (platform show).
inline constexpr double kDefaultSizingChunkBytes = 1024.0 * 1024.0;

// SizingPath: the GPU-to-GPU path a DMA channel must keep busy (the farthest
// one, whose round trip needs the largest window).
struct SizingPath {
  double bw_bytes_per_s = 0;  ///< wire bandwidth per direction of the path (whole bundle).
  double round_trip_ns = 0;   ///< 2 x one-way latency.
};

// SizingRegion: what the unit serves: one producer kernel's output region.
struct SizingRegion {
  double chunk_bytes = kDefaultSizingChunkBytes;  ///< largest chunk payload.
  int64_t chunks = 0;                             ///< chunks of the largest region; 0 = unknown.
};

// SizedValue: one sized parameter, how it was obtained and the numbers in
// its formula (for `platform show` and `explain`).
struct SizedValue {
  std::string key;       ///< "dma_agent.channels".
  int64_t value = 0;     ///< kAutoCount when it cannot be sized (unknown region).
  bool derived = false;  ///< false = explicit value from the preset or --set.
  std::string formula;   ///< the rule with its numbers.
};

// HardwareSizing: the four sized parameters and the quantities behind them.
struct HardwareSizing {
  SizedValue outstanding_packets;  ///< per channel.
  SizedValue channels;
  SizedValue prefetched_descriptors;
  SizedValue capacity_counters;
  double packet_wire_bytes = 0;  ///< one full DMA packet on the wire.
  double chunk_wire_bytes = 0;   ///< one chunk on the wire.
  double chunk_time_ns = 0;      ///< chunk wire bytes / path bandwidth.
  SizingPath path;               ///< the path the window was sized for.
  double bdp_bytes = 0;          ///< path bandwidth x round trip.
  double start_ns = 0;           ///< per-descriptor start: (fetch unless prefetched) + initiation.

  std::vector<const SizedValue*> values() const {
    return {&outstanding_packets, &channels, &prefetched_descriptors, &capacity_counters};
  }
  // Storage the unit needs: window entries (channels x outstanding) and counter bytes.
  int64_t window_entries() const { return channels.value * outstanding_packets.value; }
};

// size_hardware: every "auto" field sized by its rule, explicit values kept:
//   outstanding_packets    = ceil(bw x RTT / packet wire bytes)     (Little's law: one
//                            channel alone keeps the path busy)
//   channels               = 1 + ceil(start / chunk time)           (a channel spends
//                            start + chunk time per chunk; together they emit at path rate)
//   prefetched_descriptors = channels + ceil(descriptor_fetch / chunk time)  (descriptors
//                            consumed while one is fetched, plus one per channel)
//   capacity_counters      = region chunks                          (no spill, no stall)
// `link` gives the packetization (full packets of the agent's packet size).
HardwareSizing size_hardware(const DmaAgentConfig& dma, const CounterUnitConfig& counters,
                             const LinkModel& link, const SizingPath& path,
                             const SizingRegion& region);

// apply_sizing: writes the sized values into the auto fields. A capacity that
// could not be sized (unknown region) stays auto.
void apply_sizing(const HardwareSizing& sizing, DmaAgentConfig& dma, CounterUnitConfig& counters);

// describe_sizing: one line per sized parameter, "key = value  (auto: formula)".
std::string describe_sizing(const HardwareSizing& sizing);

}  // namespace xferlab::hw_model
