// sim/simgrid_platform.h — SimgridPlatform: a Machine built as a SimGrid platform.
//
// The only file that knows SimGrid's platform API (zones, hosts, links,
// routes) and network-model configuration, so a SimGrid upgrade (4.x changed
// zone building) stays local.
#pragma once

#include <simgrid/forward.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/machine.h"

namespace xferlab::sim {

// SourceLanes: per-GPU sources whose throughput is capped below the links'
// (a polling agent's or CDP children's SM copy throughput, copy engines, a DMA
// channel's outstanding-packet window). SimGrid 3.32 ignores Comm::set_rate on
// host-to-host comms, so each lane is a host behind its own cap link.
struct SourceLanes {
  uint32_t lanes = 0;          ///< per GPU; 0 = transfers leave the GPU host directly.
  double cap_bytes_per_s = 0;  ///< wire bytes/s of one lane.
};

// platform_link_bw_bytes_per_s: a link's bandwidth on the platform:
// min(wire bandwidth, packet rate x packet_wire_bytes) (the task-graph core
// builds the same links, sim/proact_graph.cc).
double platform_link_bw_bytes_per_s(const LinkSpec& link, double packet_wire_bytes);

// permanent_inbox: the mailbox of `host`, with a permanent receiver (a
// daemon actor there): a comm put into it starts flowing at once, without a
// matching receive, on the route from the sender's host to `host`.
simgrid::s4u::Mailbox* permanent_inbox(simgrid::s4u::Host* host);

// put: starts a comm of `bytes` from `from` into `inbox`, issued by the
// calling actor, which moves to `from` (a comm leaves from its issuer's
// host). Not Comm::sendto: SimGrid 3.32 detaches every sendto comm into one
// list of maestro's and removes each at its end by a linear search, so a
// sendto costs time proportional to all comms in flight on the platform
// (84% of the CPU at 1024 GPUs); a mailbox comm sits in its sender's list
// only, until the sender tests or waits for it (docs/sim.md, "Engine").
simgrid::s4u::CommPtr put(simgrid::s4u::Host* from, simgrid::s4u::Mailbox* inbox, uint64_t bytes);

// on_comm_end: calls `callback` with a comm's kernel activity
// (Comm::get_impl()) when its transfer ends, in maestro, while SimGrid
// updates its models: record it there, start nothing. A put comm completes
// (and leaves its sender's list) only when its sender tests or waits for it.
void on_comm_end(std::function<void(const void* comm)> callback);

// SimgridPlatform: hosts for GPUs, the CPU (root complex) and switches; one
// split-duplex link per GPU bundle (and per PCIe uplink); explicit routes.
// The links' bandwidth is min(wire bandwidth, packet rate x packet_wire_bytes).
class SimgridPlatform {
 public:
  // create_engine: the process's SimGrid engine, configured for hardware
  // links (CM02 without TCP factors or cross traffic) and quiet logging.
  // Call once per process, before build().
  static simgrid::s4u::Engine* create_engine();

  // build: creates the platform of `machine` (validated) in the engine.
  // `mesh_fan_out` (kDirect only): each GPU also gets a fan-out sink behind
  // one link as fast as all its pair links together, for comms that stand
  // for a copy to every peer (docs/sim.md, "Fan-out aggregation").
  static SimgridPlatform build(const Machine& machine, const SourceLanes& lanes,
                               double packet_wire_bytes, bool mesh_fan_out = false);

  simgrid::s4u::Host* gpu(uint32_t i) const { return gpus_[i]; }
  // source: where GPU i's transfers on `lane` start (the GPU without lanes).
  simgrid::s4u::Host* source(uint32_t i, uint32_t lane) const {
    return lanes_per_gpu_ == 0 ? gpus_[i] : lanes_[i * lanes_per_gpu_ + lane % lanes_per_gpu_];
  }
  simgrid::s4u::Host* cpu() const { return cpu_; }

  // send: starts a transfer of `bytes` from GPU src's `lane` to GPU dst,
  // issued by the calling actor, which moves to the source host: a put into
  // dst's permanent inbox (one daemon receiver per GPU).
  simgrid::s4u::CommPtr send(uint32_t src, uint32_t lane, uint32_t dst, uint64_t bytes) const;

  // has_fan_out_sinks: built with mesh_fan_out (a mesh of more than 2 GPUs).
  bool has_fan_out_sinks() const { return !sink_inboxes_.empty(); }
  // send_fan_out: as send, to GPU src's fan-out sink: a comm standing for a
  // copy to every peer at once (has_fan_out_sinks() only).
  simgrid::s4u::CommPtr send_fan_out(uint32_t src, uint32_t lane, uint64_t bytes) const;

  // forget_delivered: frees the comms sent so far, which a permanent
  // receiver's mailbox keeps (gigabytes at 1024 GPUs otherwise). Only when
  // every comm sent has ended and been waited for (at a barrier): cancels
  // the rest.
  void forget_delivered() const;

 private:
  struct Builder;  // simgrid_platform.cc: the zone's hosts, links and routes.
  std::vector<simgrid::s4u::Host*> gpus_;
  std::vector<simgrid::s4u::Mailbox*> inboxes_;  // per GPU, with a permanent receiver
  std::vector<simgrid::s4u::Host*> lanes_;
  std::vector<simgrid::s4u::Host*> sinks_;
  std::vector<simgrid::s4u::Mailbox*> sink_inboxes_;  // per GPU's sink, as inboxes_
  uint32_t lanes_per_gpu_ = 0;
  simgrid::s4u::Host* cpu_ = nullptr;
};

}  // namespace xferlab::sim
