// hw_model/dma_agent.h — DmaAgent: PROACT's proposed transfer agent, a
// simplified DMA engine started by a counter-unit trigger with no host or
// driver involvement, working from descriptors the runtime prepared in memory
// ahead of time; and CopyEngine, today's host-driven copy engine
// (cudaMemcpyAsync), for comparison. Equations: docs/hw_model.md §4.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "common/result.h"
#include "hw_model/link_model.h"
#include "hw_model/param_table.h"

namespace xferlab::hw_model {

struct DmaAgentConfig {
  // kAutoCount = sized by hardware_sizing.h from the platform and region.
  int64_t channels = kAutoCount;             ///< independent transfer engines.
  int64_t outstanding_packets = kAutoCount;  ///< in-flight (unacknowledged) packets per channel.
  double packet_bytes = 0;                   ///< payload per emitted packet; 0 = link max payload.
  double descriptor_bytes = 64;              ///< memory footprint of one descriptor.
  double descriptor_fetch_ns = 500;          ///< trigger -> descriptor in the agent (memory read).
  int64_t prefetched_descriptors = kAutoCount;  ///< descriptors held on chip (no fetch cost).
  double initiation_ns = 100;                   ///< descriptor -> first packet on the link.
  double completion_signal_ns = 200;      ///< last ack -> completion flag/notification written.
  double source_read_bw_bytes_per_s = 0;  ///< local memory read rate of the agent; 0 = unlimited.
  bool fan_out = true;  ///< one descriptor writes every destination (else one per destination).

  Status validate() const;
  bool sized() const;  ///< no kAutoCount left (DmaAgent::create needs this).
  static std::span<const Param<DmaAgentConfig>> params();
};

// Descriptor: one transfer prepared ahead of time. A 1-D transfer has rows = 1;
// 2-D geometry sends `rows` rows of row_bytes, rows stride_bytes apart in the
// source (each row is contiguous, rows are scattered on the link).
struct Descriptor {
  double row_bytes = 0;      ///< contiguous bytes per row (= size of a 1-D transfer).
  int64_t rows = 1;          ///< rows (1 = 1-D).
  double stride_bytes = 0;   ///< source distance between rows (≥ row_bytes; info only).
  int64_t destinations = 1;  ///< peers receiving the same data (fan-out).
  bool prefetched = true;    ///< descriptor already on chip (skip descriptor_fetch_ns).

  double total_bytes() const { return row_bytes * static_cast<double>(rows); }
};

// DestinationPath: how the agent reaches each destination.
struct DestinationPath {
  const LinkModel* link = nullptr;  ///< packetization of the path (required).
  int64_t links = 1;                ///< parallel links to each destination.
  bool shared = false;              ///< all destinations share these links (PCIe tree, one
                                    ///< uplink): fan-out serializes instead of running in parallel.
  double switch_latency_ns = 0;     ///< one-way latency of the switches crossed (NVSwitch, PCIe).

  double one_way_latency_ns() const { return link->one_way_latency_ns() + switch_latency_ns; }
};

enum class DmaBound { kLink, kOutstanding, kPacketRate, kSourceRead };
const char* dma_bound_name(DmaBound bound);  ///< "link" | "outstanding" | "rate" | "source".

// DmaTiming: one descriptor from trigger to completion signal.
struct DmaTiming {
  double start_ns = 0;                ///< trigger -> first packet (fetch + initiation).
  double data_ns = 0;                 ///< first packet -> last byte delivered at every destination.
  double completion_ns = 0;           ///< trigger -> completion signalled (start + data + signal).
  double throughput_bytes_per_s = 0;  ///< payload rate per destination while streaming.
  WireBytes wire;                     ///< wire bytes per destination.
  DmaBound bound = DmaBound::kLink;
};

class DmaAgent {
 public:
  static Result<DmaAgent> create(const DmaAgentConfig& config);
  const DmaAgentConfig& config() const { return config_; }

  // packet_payload_bytes: config packet_bytes or, if 0, the link's max payload.
  double packet_payload_bytes(double link_max_payload_bytes) const;
  double packet_payload_bytes(const LinkModel& link) const {
    return packet_payload_bytes(link.format().max_payload_bytes);
  }

  // start_ns: trigger -> first packet of one descriptor: descriptor fetch
  // (0 when descriptors are prefetched on chip) + initiation.
  double start_ns(bool prefetched) const;
  // descriptor_start_ns: start_ns for the configured prefetching
  // (prefetched_descriptors > 0: descriptors are fetched ahead of their trigger).
  double descriptor_start_ns() const { return start_ns(config_.prefetched_descriptors > 0); }

  // descriptors: descriptors one chunk needs for `destinations` peers: 1 with
  // fan-out, else one per destination (initiated one after another).
  int64_t descriptors(int64_t destinations) const {
    return config_.fan_out ? 1 : std::max<int64_t>(1, destinations);
  }

  // channel_window_bytes_per_s: Little's law for one channel: outstanding
  // packets × bytes per packet / round trip of the path (to the destination
  // and back: 2 × link and switch latency). `bytes_per_packet` is payload for
  // a payload rate, wire bytes for a wire rate. Infinite for round_trip_ns <= 0.
  double channel_window_bytes_per_s(double bytes_per_packet, double round_trip_ns) const;

  // outstanding_bound_bytes_per_s: all channels' payload windows over `path`.
  double outstanding_bound_bytes_per_s(const DestinationPath& path) const;

  // transfer: timing of `descriptor` over `path`. All destinations receive
  // every byte; with shared links the per-destination rate is divided by the
  // fan-out.
  DmaTiming transfer(const Descriptor& descriptor, const DestinationPath& path) const;

 private:
  explicit DmaAgent(const DmaAgentConfig& config) : config_(config) {}
  DmaAgentConfig config_;
};

// CopyEngineConfig: a host-driven copy (cudaMemcpyAsync / cudaMemcpyPeerAsync).
struct CopyEngineConfig {
  int64_t engines = 2;                ///< copy engines usable concurrently.
  double host_initiation_ns = 5000;   ///< CPU API call + driver + doorbell, per copy.
  double engine_start_ns = 1000;      ///< copy engine picks up the work -> first packet.
  int64_t outstanding_packets = 128;  ///< in-flight packets per engine.
  double completion_ns = 2000;        ///< last byte -> completion visible to the host/stream.

  Status validate() const;
  static std::span<const Param<CopyEngineConfig>> params();
};

class CopyEngine {
 public:
  static Result<CopyEngine> create(const CopyEngineConfig& config);
  const CopyEngineConfig& config() const { return config_; }

  // issue_ns: host initiation + engine start of one copy.
  double issue_ns() const { return config_.host_initiation_ns + config_.engine_start_ns; }

  // throughput_bytes_per_s: steady payload rate of one copy over `link` ×
  // `links` (full-size contiguous packets): the links' rate, capped by the
  // engine's outstanding packets per round trip.
  double throughput_bytes_per_s(const LinkModel& link, int64_t links = 1) const;

  // copy: one host-issued copy of `bytes` to one destination over `link` ×
  // `links` (full-size contiguous packets); same DmaTiming fields, with
  // start_ns = issue_ns().
  DmaTiming copy(double bytes, const LinkModel& link, int64_t links = 1) const;

 private:
  explicit CopyEngine(const CopyEngineConfig& config) : config_(config) {}
  CopyEngineConfig config_;
};

}  // namespace xferlab::hw_model
