// hw_model/hardware_sizing.cc — sizing rules for the counter unit and DMA
// agent (docs/hardware.md, "Derived defaults").
#include "hw_model/hardware_sizing.h"

#include <algorithm>
#include <cmath>

#include "common/table.h"
#include "common/units.h"

namespace xferlab::hw_model {
namespace {

std::string num(double v) {
  return format_number(v, 4);
}
// qty: 4 significant digits with a unit, for formulas people read.
std::string qty(double v, Unit unit) {
  switch (unit) {
    case Unit::kTimeNs: return num(v) + " ns";
    case Unit::kBandwidthBytesPerS: return num(v / 1e9) + " GB/s";
    default: return format_quantity(v, unit);
  }
}

int64_t ceil_count(double v) {
  return static_cast<int64_t>(std::ceil(std::max(0.0, v) - 1e-9));
}

// sized: the explicit value if set, else the rule's value and formula.
SizedValue sized(const char* key, int64_t explicit_value, int64_t rule_value, std::string formula) {
  if (explicit_value != kAutoCount) return SizedValue{key, explicit_value, false, "explicit"};
  return SizedValue{key, rule_value, true, std::move(formula)};
}

}  // namespace

HardwareSizing size_hardware(const DmaAgentConfig& dma, const CounterUnitConfig& counters,
                             const LinkModel& link, const SizingPath& path,
                             const SizingRegion& region) {
  HardwareSizing s;
  const double packet = dma.packet_bytes > 0
                            ? std::min(dma.packet_bytes, link.format().max_payload_bytes)
                            : link.format().max_payload_bytes;
  s.packet_wire_bytes = link.writes(1, packet, Pattern::kContiguous).data_bytes;
  s.chunk_wire_bytes = link.writes(1, region.chunk_bytes, Pattern::kContiguous).data_bytes;
  s.chunk_time_ns = path.bw_bytes_per_s > 0 ? s.chunk_wire_bytes / path.bw_bytes_per_s * 1e9 : 0;
  s.path = path;
  s.bdp_bytes = path.bw_bytes_per_s * path.round_trip_ns * 1e-9;

  // Little's law: a channel with W packets outstanding moves W packets per
  // round trip; W covering bw x RTT lets one channel keep the path busy.
  s.outstanding_packets = sized("dma_agent.outstanding_packets", dma.outstanding_packets,
                                std::max<int64_t>(1, ceil_count(s.bdp_bytes / s.packet_wire_bytes)),
                                "ceil(bw " + qty(path.bw_bytes_per_s, Unit::kBandwidthBytesPerS) +
                                    " x RTT " + qty(path.round_trip_ns, Unit::kTimeNs) +
                                    " / packet " + num(s.packet_wire_bytes) + " wire B)");
  // Descriptors are fetched ahead unless prefetching is explicitly off.
  const bool prefetch = dma.prefetched_descriptors != 0;
  s.start_ns = (prefetch ? 0 : dma.descriptor_fetch_ns) + dma.initiation_ns;
  // A channel spends start + chunk time per chunk and emits for chunk time of
  // it: 1 + start / chunk time channels keep the path busy with back-to-back chunks.
  const int64_t channel_rule =
      1 + (s.chunk_time_ns > 0 ? ceil_count(s.start_ns / s.chunk_time_ns) : 0);
  s.channels = sized("dma_agent.channels", dma.channels, channel_rule,
                     "1 + ceil(start " + qty(s.start_ns, Unit::kTimeNs) + " / chunk time " +
                         qty(s.chunk_time_ns, Unit::kTimeNs) + " (" +
                         qty(region.chunk_bytes, Unit::kSizeBytes) + " chunk))");
  // While one descriptor is fetched, chunks keep arriving every chunk time;
  // each channel also holds the descriptor it works on.
  s.prefetched_descriptors =
      sized("dma_agent.prefetched_descriptors", dma.prefetched_descriptors,
            s.channels.value +
                (s.chunk_time_ns > 0 ? ceil_count(dma.descriptor_fetch_ns / s.chunk_time_ns) : 0),
            "channels " + std::to_string(s.channels.value) + " + ceil(descriptor fetch " +
                qty(dma.descriptor_fetch_ns, Unit::kTimeNs) + " / chunk time)");
  // One counter per chunk of the region: nothing spills or stalls.
  s.capacity_counters = sized(
      "counter_unit.capacity", counters.capacity_counters,
      region.chunks > 0 ? region.chunks : kAutoCount,
      region.chunks > 0
          ? "region chunks " + std::to_string(region.chunks) + " (" +
                qty(static_cast<double>(region.chunks) * counters.counter_bytes, Unit::kSizeBytes) +
                " of counters)"
          : "region chunks (from the trace; unknown here)");
  return s;
}

void apply_sizing(const HardwareSizing& s, DmaAgentConfig& dma, CounterUnitConfig& counters) {
  if (s.outstanding_packets.derived) dma.outstanding_packets = s.outstanding_packets.value;
  if (s.channels.derived) dma.channels = s.channels.value;
  if (s.prefetched_descriptors.derived) dma.prefetched_descriptors = s.prefetched_descriptors.value;
  if (s.capacity_counters.derived) counters.capacity_counters = s.capacity_counters.value;
}

std::string describe_sizing(const HardwareSizing& s) {
  std::string out;
  for (const SizedValue* v : s.values()) {
    out += v->key + " = " + (v->value == kAutoCount ? "auto" : std::to_string(v->value)) + "  (" +
           (v->derived ? "auto: " : "") + v->formula + ")\n";
  }
  return out;
}

}  // namespace xferlab::hw_model
