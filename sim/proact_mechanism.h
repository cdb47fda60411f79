// sim/proact_mechanism.h — what each PROACT transfer mechanism costs and in
// which order it moves chunks, as plain functions of the Machine and the
// trace's kernels: shared by the two replay cores (the actors of
// sim/replay_engine.cc and the task graph of sim/proact_graph.cc), so both
// replay the same model. No SimGrid here.
#pragma once

#include <cstdint>
#include <vector>

#include "hw_model/software_mechanisms.h"
#include "sim/critical_path.h"
#include "sim/machine.h"
#include "sim/replay_input.h"
#include "sim/simgrid_platform.h"

namespace xferlab::sim::proact {

// dests: destination GPUs of a kernel, starting after the source and
// wrapping around, so that GPUs pushing to all peers at once form
// permutations (no destination link gets every first copy).
std::vector<uint32_t> dests(const Machine& m, const KernelInput& k);

// Target: where one transfer goes and how many destinations it stands for.
struct Target {
  uint32_t dst;
  uint32_t copies;
};

// singles: one target per destination.
std::vector<Target> singles(const std::vector<uint32_t>& ds);

// targets: the transfers of a chunk that starts to every destination at
// once. With `aggregate` (fan-out aggregation on a switch: docs/sim.md) a
// chunk to all N-1 peers is one transfer of (N-1) x the bytes through the
// source port to the next GPU: the same network load with 1/(N-1) of the
// flows.
std::vector<Target> targets(const Machine& m, bool aggregate, const KernelInput& k);

// fan_out_aggregation: whether chunks that start to every peer at once are
// one comm (targets(); docs/sim.md, "Fan-out aggregation"), when `requested`:
// on a switch always (exact chunk by chunk); on a mesh of more than 2 GPUs
// (kDirect: one link per pair, all alike) only when every transfer of the
// run fans out so (mesh_fan_out), since the comm then leaves through a
// virtual link standing for all of the GPU's pair links.
bool fan_out_aggregation(const Machine& m, const ReplayInput& in, Mechanism mech, bool requested);

// mesh_fan_out: on a mesh of more than 2 GPUs, every transfer of `mech`
// goes to every peer at once: the mechanism's chunks all fan out together
// (inline, polling, cdp, hardware with dma_agent.fan_out; not memcpy, whose
// copies start one issue apart, nor hardware without fan-out) and every
// kernel sends to all peers.
bool mesh_fan_out(const Machine& m, const ReplayInput& in, Mechanism mech);

// independent_gpus: with fan-out aggregation (`aggregate` =
// fan_out_aggregation()), every GPU's transfers meet no other GPU's, so
// GPUs that replay the same kernels behave the same (replica folding,
// docs/sim.md): on a switch every chunk is one comm through the source's
// port to the next GPU's port, which carries that sender's comms only; on a
// mesh through the source's own fan-out link. Requires every transfer to
// fan out (as mesh_fan_out; infinite has none). Not PCIe trees.
bool independent_gpus(const Machine& m, const ReplayInput& in, Mechanism mech, bool aggregate);

// own_bottleneck: each GPU's transfers share a bottleneck that carries
// nothing else, no lane cap counted (docs/sim.md, "Isolated inline links"):
// where independent_gpus holds, and at 2 GPUs on a switch or a direct pair,
// where a GPU's only peer is the other GPU and each direction of the pair
// link (or the source's port up and the peer's port down) carries that
// GPU's flows only, whatever the mechanism's fan-out (one descriptor per
// chunk either way). Not PCIe trees.
bool own_bottleneck(const Machine& m, const ReplayInput& in, Mechanism mech, bool aggregate);

// replica_weights: per GPU, how many GPUs its replay stands for: 1 + the
// later GPUs whose kernels equal its own in every iteration (all but the
// GPU index), 0 for those later GPUs; all 1 unless `fold`.
std::vector<uint32_t> replica_weights(const ReplayInput& in, uint32_t num_gpus, bool fold);

// window_chunks: chunk transfers per destination a producer keeps in flight
// before it waits for the oldest: enough to cover the link's bandwidth-delay
// product over the round trip to the farthest peer
// (hw_model::TransferWindow::posted_writes; docs/sim.md, "Mechanisms").
size_t window_chunks(const Machine& m, const KernelInput& k, double chunk_wire_bytes);

double max_chunk_bytes(const KernelInput& k);
double total_payload(const KernelInput& k);

// agent_packet_payload: an SM copy agent's packet payload
// (hw_model::packet_payload_bytes of costs.agent_packet_bytes: the link's
// maximum when 0 or not below it).
double agent_packet_payload(const Machine& m);
// dma_packet_payload: the DMA agent's packets (hw_model::DmaAgent).
double dma_packet_payload(const Machine& m);
// agent_copy: an SM copy agent moving `payload` bytes (agent packets).
WireCost agent_copy(const Machine& m, double payload);

// Trigger: a chunk's counter reached zero and the DMA agent saw it.
struct Trigger {
  double time_ns;
  uint32_t chunk;
};

// counter_triggers: the kernel's chunks (kernel begun at kb) through
// hw_model::CounterUnit, in trigger order; *stall_ns is the writers' wait
// for free counter entries.
std::vector<Trigger> counter_triggers(const MechanismCosts& c, const KernelInput& k, double kb,
                                      double* stall_ns);

// lanes_for: the capped sources a mechanism needs (SourceLanes).
SourceLanes lanes_for(const Machine& m, Mechanism mech);

// packet_wire_bytes: the packet size that turns the links' packet-rate limit
// into bandwidth: SM stores for inline, agent packets for polling and cdp,
// DMA packets for hardware, full-size packets otherwise.
double packet_wire_bytes(const Machine& m, const ReplayInput& in, Mechanism mech);

// InlinePlan: what the inline mechanism writes for one kernel. Each chunk's
// stores go to every target from its first write on (flows start in
// first-write order; chunks become ready in ready order, the trace's order),
// one link transaction per costs.inline_store_bytes or the chunk's own store
// size; at a chunk's ready time the producer stalls while more than `window`
// written chunk transfers are undelivered.
struct InlinePlan {
  std::vector<Target> targets;
  size_t window = 0;               ///< undelivered chunk transfers, all targets.
  std::vector<uint32_t> by_first;  ///< chunk indices in first-write order (stable).
  std::vector<WireCost> stores;    ///< each chunk's stores on the GPU link.

  // walk: the kernel's events in time order: start(j) at chunk j's first
  // write, ready(i) at chunk i's ready time (first write <= ready, so a
  // chunk starts before it is ready).
  template <typename Start, typename Ready>
  void walk(const KernelInput& k, Start&& start, Ready&& ready) const {
    size_t next = 0;
    for (uint32_t i = 0; i < k.chunks.size(); ++i) {
      while (next < by_first.size() &&
             k.chunks[by_first[next]].first_write_ns <= k.chunks[i].ready_ns)
        start(by_first[next++]);
      ready(i);
    }
  }
};
InlinePlan inline_plan(const Machine& m, bool aggregate, const KernelInput& k);

// PollingPlan: how a polling agent (or its TMA variant) works through one
// kernel's chunks (hw_model::static_agent_schedule).
struct PollingPlan {
  double dilation = 1;                       ///< kernel slowdown by the agent's SM share.
  std::vector<uint32_t> by_index;            ///< chunk of each program-order position.
  int64_t slices = 1;                        ///< slices per chunk.
  std::vector<hw_model::AgentGroup> groups;  ///< workers with the same sequence.
  hw_model::AgentSliceCost worker;  ///< one worker's cost per slice and peer; none = link-bound.
};
PollingPlan polling_plan(const Machine& m, const KernelInput& k);

// polling_seen_ns: when the agent sees chunk `ch` ready (relative to the
// kernel's begin): its dilated ready time at the next poll tick.
double polling_seen_ns(const MechanismCosts& c, const ChunkInput& ch, double dilation);

// polling_item_busy_ns: how long each worker of a group is busy copying
// `item` of chunk `ch` to `copies` peers: item.slices × copies slices of
// ch.size / slices bytes at plan.worker's cost each; 0 = link-bound.
double polling_item_busy_ns(const PollingPlan& plan, const ChunkInput& ch,
                            const hw_model::AgentItem& item, double copies);

// polling_item_payload: bytes one group copies for `item` of chunk `ch`.
double polling_item_payload(const ChunkInput& ch, const hw_model::AgentGroup& group,
                            const hw_model::AgentItem& item, int64_t slices);

// cdp_child_starts: when each chunk's child kernel starts (absolute, the
// kernel begun at kb), in chunk order: launched by the chunk's last writer,
// not before the parent's last CTA has started, launches of one GPU
// serialized cdp_launch_interval_ns apart, running cdp_launch_ns later.
std::vector<double> cdp_child_starts(const MechanismCosts& c, const KernelInput& k, double kb);

// explain_flight: a flight's part of the critical path (CriticalPath::flight),
// from node `from` to its end at end_ns: GPU src to dst, `payload` bytes
// (all copies) as `wire` bytes, on the path's latency and link rate (a PCIe
// tree's uplink when it crosses switches), the source lane's cap as a
// window stall, or as agent copy for polling and cdp.
CriticalPath::Node explain_flight(CriticalPath& cp, const Machine& m, Mechanism mech,
                                  const SourceLanes& lanes, CriticalPath::Node from, double end_ns,
                                  uint32_t src, uint32_t dst, double payload, double wire);

// union_length: total length of the union of intervals (sorts `iv`).
double union_length(std::vector<std::pair<double, double>>& iv);

}  // namespace xferlab::sim::proact
