// hw_model/dma_agent.cc — descriptor DMA agent and host-driven copy engine
// (docs/hw_model.md §4).
#include "hw_model/dma_agent.h"

#include <algorithm>
#include <cmath>

namespace xferlab::hw_model {
namespace {

using D = DmaAgentConfig;
const Param<D> kDmaParams[] = {
    {"channels", Unit::kNone, "independent transfer engines", &D::channels, {1, 4096}},
    {"outstanding_packets", Unit::kNone, "in-flight packets per channel", &D::outstanding_packets},
    {"packet_size", Unit::kSizeBytes, "payload per packet (0 = link max payload)",
     &D::packet_bytes},
    {"descriptor_size", Unit::kSizeBytes, "memory footprint of one descriptor",
     &D::descriptor_bytes},
    {"descriptor_fetch", Unit::kTimeNs, "trigger -> descriptor in the agent",
     &D::descriptor_fetch_ns},
    {"prefetched_descriptors", Unit::kNone, "descriptors held on chip", &D::prefetched_descriptors},
    {"initiation", Unit::kTimeNs, "descriptor -> first packet", &D::initiation_ns},
    {"completion_signal", Unit::kTimeNs, "last ack -> completion signalled",
     &D::completion_signal_ns},
    {"source_read_bw", Unit::kBandwidthBytesPerS, "local read rate of the agent (0 = unlimited)",
     &D::source_read_bw_bytes_per_s},
    {"fan_out", Unit::kNone, "one descriptor writes every destination (false: one per destination)",
     &D::fan_out},
};

using E = CopyEngineConfig;
const Param<E> kCopyEngineParams[] = {
    {"engines", Unit::kNone, "copy engines usable concurrently", &E::engines},
    {"host_initiation", Unit::kTimeNs, "CPU API call + driver + doorbell per copy",
     &E::host_initiation_ns},
    {"engine_start", Unit::kTimeNs, "engine picks up the work -> first packet",
     &E::engine_start_ns},
    {"outstanding_packets", Unit::kNone, "in-flight packets per engine", &E::outstanding_packets},
    {"completion", Unit::kTimeNs, "last byte -> completion visible", &E::completion_ns},
};

// Streaming rate of payload over `links` links, limited by bytes and packet
// rate (per destination, before fan-out sharing).
struct Rate {
  double bytes_per_s;
  DmaBound bound;
};
Rate link_rate(const LinkModel& link, const WireBytes& wire, int64_t links) {
  double n = static_cast<double>(std::max<int64_t>(1, links));
  Rate r{wire.payload_bytes / wire.data_bytes * link.raw_bandwidth_bytes_per_s() * n,
         DmaBound::kLink};
  double packet_rate = link.format().max_packets_per_s;
  if (packet_rate > 0) {
    double by_rate = wire.payload_bytes / wire.packets * packet_rate * n;
    if (by_rate < r.bytes_per_s) r = {by_rate, DmaBound::kPacketRate};
  }
  return r;
}

// copy_engine_rate: the links' rate, capped by the engine's outstanding
// full-size packets per round trip.
Rate copy_engine_rate(const CopyEngineConfig& config, const LinkModel& link, const WireBytes& wire,
                      int64_t links) {
  Rate r = link_rate(link, wire, links);
  const double round_trip_ns = 2 * link.one_way_latency_ns();
  if (round_trip_ns > 0) {
    const double outstanding = static_cast<double>(config.outstanding_packets) *
                               link.format().max_payload_bytes / round_trip_ns * 1e9;
    if (outstanding < r.bytes_per_s) r = {outstanding, DmaBound::kOutstanding};
  }
  return r;
}

}  // namespace

std::span<const Param<DmaAgentConfig>> DmaAgentConfig::params() {
  return kDmaParams;
}
std::span<const Param<CopyEngineConfig>> CopyEngineConfig::params() {
  return kCopyEngineParams;
}

Status DmaAgentConfig::validate() const {
  if (channels < 1 && channels != kAutoCount)
    return make_error("key 'channels': must be >= 1 or auto");
  if (outstanding_packets < 1 && outstanding_packets != kAutoCount)
    return make_error("key 'outstanding_packets': must be >= 1 or auto");
  if (!(packet_bytes >= 0)) return make_error("key 'packet_size': must be >= 0");
  if (!(descriptor_bytes > 0)) return make_error("key 'descriptor_size': must be > 0");
  if (!(descriptor_fetch_ns >= 0)) return make_error("key 'descriptor_fetch': must be >= 0");
  if (prefetched_descriptors < 0 && prefetched_descriptors != kAutoCount)
    return make_error("key 'prefetched_descriptors': must be >= 0 or auto");
  if (!(initiation_ns >= 0)) return make_error("key 'initiation': must be >= 0");
  if (!(completion_signal_ns >= 0)) return make_error("key 'completion_signal': must be >= 0");
  if (!(source_read_bw_bytes_per_s >= 0)) return make_error("key 'source_read_bw': must be >= 0");
  return Status::Ok();
}

Status CopyEngineConfig::validate() const {
  if (engines < 1) return make_error("key 'engines': must be >= 1");
  if (!(host_initiation_ns >= 0)) return make_error("key 'host_initiation': must be >= 0");
  if (!(engine_start_ns >= 0)) return make_error("key 'engine_start': must be >= 0");
  if (outstanding_packets < 1) return make_error("key 'outstanding_packets': must be >= 1");
  if (!(completion_ns >= 0)) return make_error("key 'completion': must be >= 0");
  return Status::Ok();
}

const char* dma_bound_name(DmaBound bound) {
  switch (bound) {
    case DmaBound::kLink: return "link";
    case DmaBound::kOutstanding: return "outstanding";
    case DmaBound::kPacketRate: return "rate";
    case DmaBound::kSourceRead: return "source";
  }
  return "?";
}

bool DmaAgentConfig::sized() const {
  return channels != kAutoCount && outstanding_packets != kAutoCount &&
         prefetched_descriptors != kAutoCount;
}

Result<DmaAgent> DmaAgent::create(const DmaAgentConfig& config) {
  Status status = config.validate();
  if (!status.ok()) return status.error();
  if (!config.sized())
    return make_error("dma_agent: 'auto' values must be sized first (hw_model/hardware_sizing.h)");
  return DmaAgent(config);
}

double DmaAgent::packet_payload_bytes(double link_max_payload_bytes) const {
  return hw_model::packet_payload_bytes(config_.packet_bytes, link_max_payload_bytes);
}

double DmaAgent::start_ns(bool prefetched) const {
  return (prefetched ? 0 : config_.descriptor_fetch_ns) + config_.initiation_ns;
}

double DmaAgent::channel_window_bytes_per_s(double bytes_per_packet, double round_trip_ns) const {
  if (round_trip_ns <= 0) return INFINITY;
  return static_cast<double>(config_.outstanding_packets) * bytes_per_packet / round_trip_ns * 1e9;
}

double DmaAgent::outstanding_bound_bytes_per_s(const DestinationPath& path) const {
  return static_cast<double>(config_.channels) *
         channel_window_bytes_per_s(packet_payload_bytes(*path.link),
                                    2 * path.one_way_latency_ns());
}

DmaTiming DmaAgent::transfer(const Descriptor& d, const DestinationPath& path) const {
  DmaTiming t;
  const LinkModel& link = *path.link;
  // Without fan-out one channel initiates a descriptor per destination, one after another.
  t.start_ns = static_cast<double>(descriptors(d.destinations)) * start_ns(d.prefetched);
  double payload = d.total_bytes();
  if (payload <= 0 || d.rows < 1 || d.destinations < 1) {
    t.completion_ns = t.start_ns + config_.completion_signal_ns;
    return t;
  }
  // Each row is cut into the agent's packets; rows are separate on the link.
  t.wire = link.packets(static_cast<double>(d.rows), d.row_bytes, config_.packet_bytes);
  double fanout = static_cast<double>(d.destinations);
  Rate r = link_rate(link, t.wire, path.links);
  if (path.shared) r.bytes_per_s /= fanout;
  // Outstanding packets are shared by every destination in flight.
  double outstanding = outstanding_bound_bytes_per_s(path) / fanout;
  if (outstanding < r.bytes_per_s) r = {outstanding, DmaBound::kOutstanding};
  // The source is read once and fanned out to all destinations.
  if (config_.source_read_bw_bytes_per_s > 0 && config_.source_read_bw_bytes_per_s < r.bytes_per_s)
    r = {config_.source_read_bw_bytes_per_s, DmaBound::kSourceRead};
  t.throughput_bytes_per_s = r.bytes_per_s;
  t.bound = r.bound;
  t.data_ns = payload / r.bytes_per_s * 1e9 + path.one_way_latency_ns();
  t.completion_ns = t.start_ns + t.data_ns + config_.completion_signal_ns;
  return t;
}

Result<CopyEngine> CopyEngine::create(const CopyEngineConfig& config) {
  Status status = config.validate();
  if (!status.ok()) return status.error();
  return CopyEngine(config);
}

double CopyEngine::throughput_bytes_per_s(const LinkModel& link, int64_t links) const {
  return copy_engine_rate(config_, link, link.write(link.format().max_payload_bytes), links)
      .bytes_per_s;
}

DmaTiming CopyEngine::copy(double bytes, const LinkModel& link, int64_t links) const {
  DmaTiming t;
  t.start_ns = issue_ns();
  if (bytes <= 0) {
    t.completion_ns = t.start_ns + config_.completion_ns;
    return t;
  }
  t.wire = link.write(bytes);
  const Rate r = copy_engine_rate(config_, link, t.wire, links);
  t.throughput_bytes_per_s = r.bytes_per_s;
  t.bound = r.bound;
  t.data_ns = bytes / r.bytes_per_s * 1e9 + link.one_way_latency_ns();
  t.completion_ns = t.start_ns + t.data_ns + config_.completion_ns;
  return t;
}

}  // namespace xferlab::hw_model
