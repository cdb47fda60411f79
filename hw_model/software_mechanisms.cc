// hw_model/software_mechanisms.cc — costs of PROACT's software mechanisms
// (docs/hw_model.md §6).
#include "hw_model/software_mechanisms.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace xferlab::hw_model {
namespace {

constexpr EnumName<Mechanism> kMechanismNames[] = {{Mechanism::kPolling, "polling"},
                                                   {Mechanism::kCdp, "cdp"},
                                                   {Mechanism::kInline, "inline"},
                                                   {Mechanism::kMemcpy, "memcpy"}};

using S = SoftwareConfig;
const Param<S> kSoftwareParams[] = {
    {"polling_warps", Unit::kNone, "warps of the persistent polling kernel", &S::polling_warps},
    {"poll_period", Unit::kTimeNs, "bitmap scan period of the polling agent", &S::poll_period_ns},
    {"copy_bw_per_thread", Unit::kBandwidthBytesPerS, "SM-store copy rate of one thread",
     &S::copy_bw_per_thread_bytes_per_s},
    {"transfer_threads", Unit::kNone, "copy threads", &S::transfer_threads},
    {"copy_packet_size", Unit::kSizeBytes, "payload per link packet of SM copy stores",
     &S::copy_packet_bytes},
    {"counter_update", Unit::kTimeNs, "per-CTA atomic decrement of a chunk counter",
     &S::counter_update_ns},
    {"cdp_max_pending", Unit::kNone, "pending child launches before launches stall",
     &S::cdp_max_pending},
    {"memcpy_initiation", Unit::kTimeNs, "host cudaMemcpy call + driver per copy",
     &S::memcpy_initiation_ns},
    {"store_bytes_per_thread", Unit::kSizeBytes, "inline: bytes per store per thread",
     &S::store_bytes_per_thread},
    {"agent_slice", Unit::kSizeBytes, "agents' copy unit (proact --slice; TMA: one per CTA)",
     &S::agent_slice_bytes},
    {"tma_slice_turnaround", Unit::kTimeNs,
     "TMA agent: one CTA's slice from bulk load to write completion (0 = polling's model)",
     &S::tma_slice_turnaround_ns},
    {"memcpy_streams", Unit::kNone,
     "streams a GPU's peer copies go to, round robin in peer order (0 = one per copy)",
     &S::memcpy_streams},
    {"cdp_launch_interval", Unit::kTimeNs,
     "device launches of one GPU are serialized at this interval (0 = unlimited)",
     &S::cdp_launch_interval_ns},
    {"polling_sm_share", Unit::kNone,
     "compute slowdown while the polling agent runs (0 = from its warp slots)",
     &S::polling_sm_share},
    {"polling_slice_overhead", Unit::kTimeNs,
     "a polling warp's fixed cost per slice copied to a peer (plus the per-byte rate)",
     &S::polling_slice_overhead_ns},
    {"tma_slice_bw", Unit::kBandwidthBytesPerS,
     "TMA agent: one CTA's per-byte rate on top of tma_slice_turnaround (0 = none)",
     &S::tma_slice_bw_bytes_per_s},
};

constexpr double kWarpThreads = 32;

}  // namespace

std::span<const Param<SoftwareConfig>> SoftwareConfig::params() {
  return kSoftwareParams;
}

Status SoftwareConfig::validate() const {
  if (polling_warps < 1) return make_error("key 'polling_warps': must be >= 1");
  if (!(poll_period_ns > 0)) return make_error("key 'poll_period': must be > 0");
  if (!(copy_bw_per_thread_bytes_per_s > 0))
    return make_error("key 'copy_bw_per_thread': must be > 0");
  if (transfer_threads < 1) return make_error("key 'transfer_threads': must be >= 1");
  if (!(copy_packet_bytes > 0)) return make_error("key 'copy_packet_size': must be > 0");
  if (!(counter_update_ns >= 0)) return make_error("key 'counter_update': must be >= 0");
  if (cdp_max_pending < 1) return make_error("key 'cdp_max_pending': must be >= 1");
  if (!(memcpy_initiation_ns >= 0)) return make_error("key 'memcpy_initiation': must be >= 0");
  if (memcpy_streams < 0) return make_error("key 'memcpy_streams': must be >= 0");
  if (!(agent_slice_bytes >= 16)) return make_error("key 'agent_slice': must be >= 16B");
  if (!(tma_slice_turnaround_ns >= 0))
    return make_error("key 'tma_slice_turnaround': must be >= 0");
  if (!(tma_slice_bw_bytes_per_s >= 0)) return make_error("key 'tma_slice_bw': must be >= 0");
  if (!(polling_slice_overhead_ns >= 0))
    return make_error("key 'polling_slice_overhead': must be >= 0");
  if (!(store_bytes_per_thread > 0)) return make_error("key 'store_bytes_per_thread': must be > 0");
  if (!(cdp_launch_interval_ns >= 0)) return make_error("key 'cdp_launch_interval': must be >= 0");
  if (!(polling_sm_share >= 0 && polling_sm_share < 1))
    return make_error("key 'polling_sm_share': must be >= 0 and < 1");
  return Status::Ok();
}

const char* mechanism_name(Mechanism mechanism) {
  return enum_name(kMechanismNames, mechanism);
}
Result<Mechanism> parse_mechanism(std::string_view text) {
  return parse_enum(kMechanismNames, text, "mechanism");
}

Result<SoftwareMechanisms> SoftwareMechanisms::create(const SoftwareConfig& config,
                                                      const NotificationConfig& notification) {
  Status status = config.validate();
  if (!status.ok()) return status.error();
  Result<NotificationModel> n = NotificationModel::create(notification);
  if (!n.ok()) return n.error();
  return SoftwareMechanisms(config, n->cost(NotificationPath::kCdpLaunch).latency_ns);
}

double SoftwareMechanisms::compute_slowdown(Mechanism mechanism, const GpuShape& gpu) const {
  double slots = static_cast<double>(gpu.sm_count * gpu.max_warps_per_sm);
  if (slots <= 0) return 0;
  double copy_warps = std::ceil(static_cast<double>(config_.transfer_threads) / kWarpThreads);
  double taken = 0;
  switch (mechanism) {
    case Mechanism::kPolling:
      if (config_.polling_sm_share > 0) return config_.polling_sm_share;
      taken = static_cast<double>(config_.polling_warps) + copy_warps;
      break;
    case Mechanism::kCdp: taken = copy_warps; break;  // only while a child copies
    case Mechanism::kInline:
    case Mechanism::kMemcpy: taken = 0; break;
  }
  return std::min(1.0, taken / slots);
}

double SoftwareMechanisms::agent_copy_bw_bytes_per_s(bool tma, double chunk_bytes) const {
  const double slice = chunk_bytes > 0 ? std::min(config_.agent_slice_bytes, chunk_bytes)
                                       : config_.agent_slice_bytes;
  const double ns = agent_slice_cost(tma, slice).ns(slice);
  if (!(ns > 0)) return 0;
  return static_cast<double>(agent_workers(tma)) * slice / (ns * 1e-9);
}

AgentSliceCost SoftwareMechanisms::agent_slice_cost(bool tma, double slice_bytes) const {
  if (!tma) {
    return {config_.polling_slice_overhead_ns,
            sm_copy_bw_bytes_per_s() / static_cast<double>(agent_workers(false))};
  }
  if (config_.tma_slice_turnaround_ns <= 0 && config_.tma_slice_bw_bytes_per_s <= 0) return {};
  if (config_.tma_slice_bw_bytes_per_s > 0)
    return {config_.tma_slice_turnaround_ns, config_.tma_slice_bw_bytes_per_s};
  // One turnaround per slice whatever its size: its rate at this slice.
  return {0, slice_bytes / (config_.tma_slice_turnaround_ns * 1e-9)};
}

int64_t SoftwareMechanisms::agent_workers(bool tma) const {
  const auto warp = static_cast<int64_t>(kWarpThreads);
  if (tma) return std::max<int64_t>(1, config_.transfer_threads / warp);
  return (config_.transfer_threads + warp - 1) / warp;
}

std::vector<AgentGroup> static_agent_schedule(int64_t workers, int64_t chunks,
                                              int64_t slices_per_chunk) {
  if (workers < 1 || chunks < 1 || slices_per_chunk < 1) return {};
  const int64_t items = chunks * slices_per_chunk;
  const int64_t used = std::min(workers, items);  // workers beyond the items stay idle
  // Key: a worker's sequence of (chunk, slices); value: how many workers share it.
  std::map<std::vector<std::pair<uint32_t, int64_t>>, int64_t> groups;
  std::vector<std::pair<uint32_t, int64_t>> seq;
  for (int64_t w = 0; w < used; ++w) {
    seq.clear();
    for (int64_t i = w; i < items; i += workers) {
      const auto c = static_cast<uint32_t>(i / slices_per_chunk);
      if (!seq.empty() && seq.back().first == c) {
        ++seq.back().second;
      } else {
        seq.emplace_back(c, 1);
      }
    }
    ++groups[seq];
  }
  std::vector<AgentGroup> out;
  out.reserve(groups.size());
  for (const auto& [s, n] : groups) {
    AgentGroup g{n, {}};
    g.items.reserve(s.size());
    for (auto [c, k] : s) g.items.push_back(AgentItem{c, k});
    out.push_back(std::move(g));
  }
  // Map order is by sequence; order the groups by their first chunk instead
  // (stable and readable: group 0 starts with chunk 0).
  std::stable_sort(out.begin(), out.end(), [](const AgentGroup& a, const AgentGroup& b) {
    return a.items.front().chunk < b.items.front().chunk;
  });
  return out;
}

double SoftwareMechanisms::sm_copy_bw_bytes_per_s() const {
  return static_cast<double>(config_.transfer_threads) * config_.copy_bw_per_thread_bytes_per_s;
}

ChunkCost SoftwareMechanisms::chunk(Mechanism mechanism, double chunk_bytes, const LinkModel& link,
                                    int64_t links) const {
  ChunkCost c;
  if (chunk_bytes <= 0) return c;
  double source_bw = sm_copy_bw_bytes_per_s();
  switch (mechanism) {
    case Mechanism::kPolling:
      c.detect_ns = config_.counter_update_ns + config_.poll_period_ns / 2;
      break;
    case Mechanism::kCdp: c.detect_ns = config_.counter_update_ns + cdp_launch_ns_; break;
    case Mechanism::kInline: c.detect_ns = 0; break;
    case Mechanism::kMemcpy:
      c.detect_ns = config_.memcpy_initiation_ns;
      source_bw = INFINITY;  // Copy engine: the link limits.
      break;
  }
  if (mechanism == Mechanism::kMemcpy) {
    c.wire = link.write(chunk_bytes);
  } else {
    // SM stores: one full line per warp store instruction, never merged further.
    c.wire = link.packets(1, chunk_bytes, config_.copy_packet_bytes);
  }
  LinkTime t = link.time(c.wire, links);
  double link_bw = chunk_bytes / t.transfer_ns * 1e9;
  c.throughput_bytes_per_s = std::min(link_bw, source_bw);
  c.copy_ns = chunk_bytes / c.throughput_bytes_per_s * 1e9 + link.one_way_latency_ns();
  c.total_ns = c.detect_ns + c.copy_ns;
  return c;
}

WireBytes SoftwareMechanisms::inline_wire(const WriteCoalescer& coalescer, const LinkModel& link,
                                          const WarpStore& store, double instructions) const {
  return coalescer.wire(link, store, instructions);
}

}  // namespace xferlab::hw_model
