// sim/machine.h — Machine: the replay engine's view of a platform: topology,
// per-direction links with their packetization, and what each transfer
// mechanism costs. Built from a hw_model::Platform (the preset:
// machine_from_platform, below) or by hand in tests so that every replayed
// time can be computed on paper; sim/simgrid_platform.h turns it into
// SimGrid hosts and links. No SimGrid here. Hardware whose behaviour the
// engine simulates step by step (counter unit, DMA agent) stays a hw_model
// config here, and the engine calls that model.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/result.h"
#include "hw_model/counter_unit.h"
#include "hw_model/dma_agent.h"
#include "hw_model/hardware_sizing.h"
#include "hw_model/platform.h"

namespace xferlab::sim {

// Topology: how GPUs are wired.
enum class Topology {
  kDirect,    ///< one link bundle per GPU pair (2 GPUs over NVLink, 4x NVLink mesh).
  kSwitch,    ///< every GPU has one bundle to a crossbar switch (NVSwitch).
  kPcieTree,  ///< GPUs under PCIe switches (gpus_per_pcie_switch each) under the root complex.
};

const char* topology_name(Topology t);

// WireCost: what a payload costs on a link in the data direction.
struct WireCost {
  double wire_bytes = 0;  ///< bytes on the wire, encoding included.
  double packets = 0;
};

// LinkSpec: one link (or bundle) per direction.
struct LinkSpec {
  std::string kind;                ///< for tables: "nvlink4", "pcie5", ...
  double bw_bytes_per_s = 0;       ///< wire (signalling) bandwidth per direction of the bundle.
  double latency_ns = 0;           ///< one-way latency endpoint to endpoint of this link.
  double max_packets_per_s = 0;    ///< packet-rate limit of the bundle; 0 = none.
  double max_payload_bytes = 256;  ///< largest packet payload (DMA packet size).
  /// bulk(payload): contiguous payload sent as full-size packets (copy
  /// engines, DMA agents, warp-wide copy loops).
  std::function<WireCost(double payload_bytes)> bulk;
  /// stores(count, store_bytes): `count` SM store transactions of
  /// `store_bytes` each, as issued (inline PROACT).
  std::function<WireCost(double count, double store_bytes)> stores;
  /// packets(payload, packet_payload): payload cut by its sender into
  /// packets of at most packet_payload bytes (SM copy agents, DMA agents;
  /// hw_model::LinkModel::packets); the max payload gives bulk(payload).
  std::function<WireCost(double payload_bytes, double packet_payload_bytes)> packets;
};

// simple_packetization: bulk/stores for a link with `header_bytes` overhead
// per packet of at most `max_payload_bytes` (for tests and hand computation).
void set_simple_packetization(LinkSpec& link, double max_payload_bytes, double header_bytes);

// MechanismCosts: each mechanism's own cost (docs/sim.md has the equations).
// Numbers are derived from the platform's hw_model models by
// machine_from_platform; the counter unit and DMA agent are those models'
// configs (validated by them) because the engine runs them chunk by chunk.
struct MechanismCosts {
  // cudaMemcpy: the host issues one copy per destination after the kernel.
  double memcpy_issue_ns = 0;             ///< CopyEngine::issue_ns, per copy.
  double copy_engine_bw_bytes_per_s = 0;  ///< one engine's (one copy's) cap; 0 = link-bound.
  int64_t copy_engines = 1;               ///< engines of a GPU that copy at once.
  /// Streams a GPU's copies are issued on, round robin in ascending peer
  /// order; copies of one stream run one after another. 0 = every copy on
  /// its own stream (all concurrent, sharing the GPU's engines).
  int64_t memcpy_streams = 0;
  double memcpy_stream_gap_ns = 0;  ///< a stream's next copy starts this long after the last.
  // Inline stores.
  double inline_store_bytes = 0;  ///< link transaction size; 0 = chunk's store granularity.
  // SM copy agents (polling, its TMA variant, CDP children) write at most
  // this payload per link packet (a warp's contiguous stores fill one line);
  // 0 = full-size packets like a copy engine.
  double agent_packet_bytes = 0;
  // Decoupled polling agent.
  double polling_sm_share = 0;             ///< fraction of SM throughput the agent takes (0..1).
  double polling_period_ns = 0;            ///< agent's poll loop period.
  double polling_copy_bw_bytes_per_s = 0;  ///< agent copy throughput per byte; 0 = link-bound.
  /// The agent's workers (SoftwareMechanisms::agent_workers: warps), which
  /// take slices of agent_slice_bytes statically (hw_model::static_agent_schedule);
  /// each copies a slice to a peer in agent_slice_overhead_ns + slice /
  /// (polling_copy_bw / agent_workers) (hw_model::AgentSliceCost).
  int64_t agent_workers = 1;
  double agent_slice_overhead_ns = 0;
  double agent_slice_bytes = 0;  ///< a worker's copy unit; 0 = the whole chunk.
  /// The TMA variant's per-byte copy throughput, fixed cost per slice
  /// (SoftwareMechanisms::agent_slice_cost at software.agent_slice) and
  /// workers (its CTAs); 0 = not modelled apart. Replace polling's for
  /// polling_tma traces (sim/api.cc, prepare).
  double tma_copy_bw_bytes_per_s = 0;
  double tma_slice_overhead_ns = 0;
  int64_t tma_agent_workers = 1;
  // Decoupled CDP.
  double cdp_launch_ns = 0;            ///< child kernel launch latency (device side).
  double cdp_launch_interval_ns = 0;   ///< launches of one GPU serialize this far apart; 0 = none.
  double cdp_copy_bw_bytes_per_s = 0;  ///< one child's copy throughput; 0 = link-bound.
  // Hardware PROACT: hw_model::CounterUnit and hw_model::DmaAgent.
  hw_model::CounterUnitConfig counter_unit;
  hw_model::DmaAgentConfig dma_agent;

  Status validate() const;
};

// Most GPUs a Machine may have (scale-out, --gpus). Switch platforms build
// in memory linear in GPUs (SimgridPlatform); meshes and PCIe trees keep a
// route per GPU pair.
inline constexpr uint32_t kMaxGpus = 1024;

// Machine: a platform the engine can replay on.
struct Machine {
  std::string name;
  uint32_t num_gpus = 2;
  Topology topology = Topology::kDirect;
  LinkSpec gpu_link;  ///< kDirect: per GPU pair; kSwitch/kPcieTree: GPU to its switch.
  LinkSpec uplink;    ///< kPcieTree: PCIe switch to root complex (unused otherwise).
  uint32_t gpus_per_pcie_switch = 2;
  double switch_latency_ns = 0;  ///< per switch crossed (kSwitch, kPcieTree).
  int64_t switch_hops = 1;       ///< kSwitch: switches between two GPUs (gpu_link.switch_hops).
  MechanismCosts costs;
  /// The preset's [gpu] (a trace's compute is rescaled to it by the
  /// roofline, sim/workload_model.h).
  hw_model::GpuConfig gpu;

  Status validate() const;

  // path_latency_ns: one-way latency from GPU src to GPU dst: the sum of
  // the latencies of the links its route crosses (the ones below), so the
  // SimGrid routes, the task graph's links and the DMA window's round trip
  // agree.
  double path_latency_ns(uint32_t src, uint32_t dst) const;
  // farthest_path_latency_ns: the largest path_latency_ns over GPU pairs (0
  // with one GPU): the round trip a DMA window must cover.
  double farthest_path_latency_ns() const;
  // gpu_port_latency_ns: a GPU's link into its switch (kSwitch, kPcieTree):
  // half of a same-switch path, hw_model::switched_path_latency_ns.
  double gpu_port_latency_ns() const;
  // uplink_latency_ns: a PCIe switch to the root complex with its half of
  // the switch (kPcieTree).
  double uplink_latency_ns() const;
};

// machine_from_platform: `num_gpus` 0 keeps the preset's GPU count; another
// value scales the same topology (NVSwitch, mesh, PCIe tree) to that count.
// Counter-unit and DMA-agent sizes left "auto" are sized for `region` on the
// machine's farthest path (hw_model/hardware_sizing.h); `sizing` (optional)
// receives them.
Result<Machine> machine_from_platform(const hw_model::Platform& platform, uint32_t num_gpus = 0,
                                      const hw_model::SizingRegion& region = {},
                                      hw_model::HardwareSizing* sizing = nullptr);

// load_machine: load_platform(preset) + set_parameter for each "key=value"
// in `sets` + validate + machine_from_platform. Errors name the preset or key
// (with a did-you-mean for unknown keys); exit code 2.
Result<Machine> load_machine(const std::string& preset, const std::vector<std::string>& sets,
                             uint32_t num_gpus = 0, const hw_model::SizingRegion& region = {},
                             hw_model::HardwareSizing* sizing = nullptr);

}  // namespace xferlab::sim
