// hw_model/software_mechanisms.h — SoftwareMechanisms: costs of PROACT's
// software transfer mechanisms on today's GPUs (ISCA'21 §IV): the polling
// agent (a few warps poll a ready bitmap and copy chunks with SM stores), the
// CDP agent (the last CTA of a chunk launches a child copy kernel), inline
// stores (every store duplicated to each peer), and host-driven cudaMemcpy
// after the kernel. Equations: docs/hw_model.md §6.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hw_model/link_model.h"
#include "hw_model/notification.h"
#include "hw_model/param_table.h"
#include "hw_model/write_coalescer.h"

namespace xferlab::hw_model {

enum class Mechanism { kPolling, kCdp, kInline, kMemcpy };
const char* mechanism_name(Mechanism mechanism);  ///< "polling" | "cdp" | "inline" | "memcpy".
Result<Mechanism> parse_mechanism(std::string_view text);

struct SoftwareConfig {
  int64_t polling_warps = 4;                      ///< warps of the persistent polling kernel.
  double poll_period_ns = 1000;                   ///< bitmap scan period of the polling agent.
  double copy_bw_per_thread_bytes_per_s = 0.5e9;  ///< SM-store copy rate of one thread.
  int64_t transfer_threads = 1024;                ///< copy threads (PROACT sweeps 32-8192).
  double copy_packet_bytes = 128;                 ///< payload per link packet of SM copy stores
                                                  ///< (a warp's contiguous store fills one line).
  double counter_update_ns = 300;                 ///< per-CTA atomic decrement of a chunk counter.
  int64_t cdp_max_pending = 2048;                 ///< pending child launches before launches stall.
  double memcpy_initiation_ns = 8000;             ///< host cudaMemcpy call + driver, per copy.
  double store_bytes_per_thread = 4;    ///< inline: bytes per store instruction per thread.
  double agent_slice_bytes = 16384;     ///< agents' copy unit (proact --slice; TMA: per CTA).
  double tma_slice_turnaround_ns = 0;   ///< TMA agent: one CTA's slice, bulk load to the
                                        ///< peer's write completion, its fixed part (all of
                                        ///< it without tma_slice_bw; 0 = polling's model).
  double tma_slice_bw_bytes_per_s = 0;  ///< TMA agent: one CTA's per-byte rate on top of the
                                        ///< fixed turnaround (0 = no per-byte part).
  int64_t memcpy_streams = 1;           ///< streams a GPU's peer copies are issued on, round
                                        ///< robin in peer order (proact: 1, so they run one
                                        ///< after another); 0 = each copy on its own stream.
  // Added by calibration (docs/calibration.md); defaults leave the model unchanged.
  double cdp_launch_interval_ns = 0;     ///< device launches of one GPU are serialized at this
                                         ///< interval (0 = not limited).
  double polling_sm_share = 0;           ///< measured compute slowdown of the polling agent;
                                         ///< 0 = derive from the warp slots it takes.
  double polling_slice_overhead_ns = 0;  ///< a polling warp's fixed cost per slice it copies
                                         ///< to a peer, on top of the per-byte rate.

  Status validate() const;
  static std::span<const Param<SoftwareConfig>> params();
};

// GpuShape: what the mechanism costs are relative to (from the Platform).
struct GpuShape {
  int64_t sm_count = 80;
  int64_t max_warps_per_sm = 64;
};

// AgentSliceCost: one agent worker's (a polling warp's, a TMA CTA's) time to
// copy one slice of `bytes` to one peer: fixed_ns + bytes / bw_bytes_per_s
// (measured on 2x H200: a polling warp ≈ 0.67 µs + 0.18 µs per KiB, a TMA CTA
// ≈ 0.87 µs + 0.06 µs per KiB; docs/calibration.md). bw 0: no per-byte part.
struct AgentSliceCost {
  double fixed_ns = 0;
  double bw_bytes_per_s = 0;
  double ns(double bytes) const {
    return fixed_ns + (bw_bytes_per_s > 0 ? bytes / bw_bytes_per_s * 1e9 : 0);
  }
  bool bounds() const { return fixed_ns > 0 || bw_bytes_per_s > 0; }  ///< else link-bound.
};

// ChunkCost: moving one ready chunk to one peer.
struct ChunkCost {
  double detect_ns = 0;  ///< chunk ready -> agent starts copying (expected).
  double copy_ns = 0;    ///< copying at the mechanism's throughput over the link.
  double total_ns = 0;   ///< detect + copy.
  double throughput_bytes_per_s = 0;
  WireBytes wire;  ///< wire bytes of the chunk on the link.
};

// AgentItem: `slices` consecutive slices of chunk `chunk` (program order:
// the chunk's position in the GPU's region) that each worker of a group
// copies before it moves on.
struct AgentItem {
  uint32_t chunk = 0;
  int64_t slices = 0;
};

// AgentGroup: `workers` workers that visit the same chunks in the same order.
struct AgentGroup {
  int64_t workers = 0;
  std::vector<AgentItem> items;
};

// static_agent_schedule: how PROACT's polling agents (native/proact/agents.cu)
// hand out work: worker w (a warp of the polling agent, a CTA of the TMA
// agent) of `workers` copies items w, w + workers, w + 2·workers, ... in
// that order, item i being slice i mod S of chunk i / S (S =
// slices_per_chunk); it waits for each item's chunk to be ready. So a chunk
// that is ready late holds up every later chunk of the workers it falls to,
// and a chunk is copied by min(S, workers) workers at once. Workers with the
// same sequence are returned as one group (W a multiple of S: W/S groups of
// S workers; S a multiple of W: one group of all W). Deterministic, O(chunks
// × S).
std::vector<AgentGroup> static_agent_schedule(int64_t workers, int64_t chunks,
                                              int64_t slices_per_chunk);

class SoftwareMechanisms {
 public:
  // create: `notification` gives the CDP child launch latency
  // (NotificationModel, kCdpLaunch).
  static Result<SoftwareMechanisms> create(const SoftwareConfig& config,
                                           const NotificationConfig& notification = {});
  const SoftwareConfig& config() const { return config_; }

  // compute_slowdown: fraction of the GPU's warp slots the mechanism keeps from
  // compute (polling: polling_sm_share if set, else polling_warps + copy
  // threads over all warp slots; others: 0 while idle).
  double compute_slowdown(Mechanism mechanism, const GpuShape& gpu) const;

  // agent_copy_bw_bytes_per_s: the polling agent's (tma false: its warps) or
  // the TMA agent's (tma true: one issuing thread per 32-thread CTA) copy rate
  // with one slice of min(agent_slice, chunk) bytes per worker in flight:
  // workers × slice / agent_slice_cost (Little's law); 0 when nothing bounds
  // it (TMA without a turnaround).
  double agent_copy_bw_bytes_per_s(bool tma, double chunk_bytes) const;

  // agent_slice_cost: one worker's cost per slice of `slice_bytes` (to one
  // peer). Polling warp: polling_slice_overhead + slice / (its share of
  // transfer_threads × copy_bw_per_thread). TMA CTA: tma_slice_turnaround +
  // slice / tma_slice_bw; without tma_slice_bw the turnaround is all of it
  // (a rate of slice / turnaround); nothing without a turnaround.
  AgentSliceCost agent_slice_cost(bool tma, double slice_bytes) const;

  // sm_copy_bw_bytes_per_s: transfer_threads × per-thread rate (before link limits).
  double sm_copy_bw_bytes_per_s() const;

  // agent_workers: the agent's units of static work distribution
  // (static_agent_schedule): the polling agent's warps, ⌈transfer_threads /
  // 32⌉ (proact launches CTAs of up to 256 threads), or the TMA agent's
  // 32-thread CTAs, max(1, ⌊transfer_threads / 32⌋), one issuing thread each.
  int64_t agent_workers(bool tma) const;

  // chunk: cost of moving one `chunk_bytes` chunk to one peer over `links`
  // links. Polling and CDP copy with contiguous SM stores (full lines);
  // memcpy uses full-size DMA packets; inline is per-store (use inline_wire).
  ChunkCost chunk(Mechanism mechanism, double chunk_bytes, const LinkModel& link,
                  int64_t links) const;

  // inline_wire: wire bytes when `stores` warp store instructions with the
  // given coalescing pattern are duplicated to one peer.
  WireBytes inline_wire(const WriteCoalescer& coalescer, const LinkModel& link,
                        const WarpStore& store, double instructions) const;

 private:
  SoftwareMechanisms(const SoftwareConfig& config, double cdp_launch_ns)
      : config_(config), cdp_launch_ns_(cdp_launch_ns) {}
  SoftwareConfig config_;
  double cdp_launch_ns_;
};

}  // namespace xferlab::hw_model
