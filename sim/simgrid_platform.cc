// sim/simgrid_platform.cc — builds a Machine as SimGrid 3.32 zones, hosts, links
// and routes; sets the network model for hardware links.
#include "sim/simgrid_platform.h"

#include <algorithm>
#include <simgrid/s4u.hpp>
#include <string>
#include <unordered_map>

#include "xbt/log.h"

namespace xferlab::sim {

namespace sg4 = simgrid::s4u;

sg4::Engine* SimgridPlatform::create_engine() {
  // SimGrid's default LV08 model is calibrated for TCP (latency x13.01,
  // bandwidth x0.97, cross traffic). Hardware links move latency + bytes/bw
  // exactly: CM02 with unit factors and no TCP window. The window is made
  // huge rather than 0: CM02 bounds a flow at min(rate, gamma / (2 latency)),
  // and gamma 0 turns that bound off altogether, silently dropping the
  // per-comm rate caps that model agents, DMA windows and packet rates.
  static int argc = 1;
  static char arg0[] = "xferlab";
  static char* argv[] = {arg0, nullptr};
  auto* engine = new sg4::Engine(&argc, argv);
  xbt_log_control_set("root.thresh:critical");
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/TCP-gamma:1e30");
  sg4::Engine::set_config("network/latency-factor:1");
  sg4::Engine::set_config("network/bandwidth-factor:1");
  sg4::Engine::set_config("network/weight-S:0");
  sg4::Engine::set_config("network/crosstraffic:0");
  return engine;
}

namespace {

constexpr double kHostSpeedFlops = 1e9;  // hosts only run actors; no compute is simulated.

sg4::Link* make_link(sg4::NetZone* zone, const std::string& name, double bw_bytes_per_s,
                     double latency_ns) {
  sg4::SplitDuplexLink* link = zone->create_split_duplex_link(name, bw_bytes_per_s);
  link->set_latency(latency_ns * 1e-9);
  link->seal();
  return link;
}

using Dir = sg4::LinkInRoute::Direction;

}  // namespace

double platform_link_bw_bytes_per_s(const LinkSpec& l, double packet_wire_bytes) {
  return l.max_packets_per_s > 0 && packet_wire_bytes > 0
             ? std::min(l.bw_bytes_per_s, l.max_packets_per_s * packet_wire_bytes)
             : l.bw_bytes_per_s;
}

// SimgridPlatform::Builder: the zone of one build: hosts, the lanes' cap
// links, and the routes of each topology.
struct SimgridPlatform::Builder {
  const Machine& m;
  const SourceLanes& lanes;
  double packet_wire_bytes;
  SimgridPlatform& p;
  sg4::NetZone* zone = nullptr;
  std::vector<sg4::Link*> lane_links;  // per GPU and lane: its cap
  std::unordered_map<const sg4::Host*, size_t> gpu_index;

  double link_bw(const LinkSpec& l) const {
    return platform_link_bw_bytes_per_s(l, packet_wire_bytes);
  }

  // route: a -> b over `links`; from a GPU to a GPU also from each of the
  // source's lanes, behind its cap link.
  void route(sg4::Host* a, sg4::Host* b, std::vector<sg4::LinkInRoute> links) {
    zone->add_route(a->get_netpoint(), b->get_netpoint(), nullptr, nullptr, links, false);
    const auto ga = gpu_index.find(a);
    if (ga == gpu_index.end() || !gpu_index.count(b)) return;
    const size_t gi = ga->second;
    for (uint32_t l = 0; l < lanes.lanes; ++l) {
      std::vector<sg4::LinkInRoute> with_cap{sg4::LinkInRoute(lane_links[gi * lanes.lanes + l])};
      with_cap.insert(with_cap.end(), links.begin(), links.end());
      zone->add_route(p.lanes_[gi * lanes.lanes + l]->get_netpoint(), b->get_netpoint(), nullptr,
                      nullptr, with_cap, false);
    }
  }

  // direct: a split-duplex link per GPU pair (and, with mesh fan-out, one
  // sink per GPU behind a link of N-1 times the bandwidth).
  void direct(bool mesh_fan_out) {
    for (uint32_t i = 0; i < m.num_gpus; ++i) {
      for (uint32_t j = i + 1; j < m.num_gpus; ++j) {
        sg4::Link* l = make_link(zone, "nvl" + std::to_string(i) + "_" + std::to_string(j),
                                 link_bw(m.gpu_link), m.gpu_link.latency_ns);
        route(p.gpus_[i], p.gpus_[j], {{l, Dir::UP}});
        route(p.gpus_[j], p.gpus_[i], {{l, Dir::DOWN}});
      }
    }
    // A copy to every peer at once puts one equal flow on each of the
    // GPU's N-1 pair links, which carry nothing else (every transfer fans
    // out): one flow of N-1 copies on a link of N-1 times the bandwidth,
    // with the same latency and the same lane cap in front, gets N-1 times
    // each copy's max-min rate.
    for (uint32_t i = 0; mesh_fan_out && i < m.num_gpus; ++i) {
      const std::string name = "gpu" + std::to_string(i) + ".fan_out";
      p.sinks_.push_back(zone->create_host(name, kHostSpeedFlops)->seal());
      sg4::Link* l = make_link(zone, name + "_link", link_bw(m.gpu_link) * (m.num_gpus - 1),
                               m.gpu_link.latency_ns);
      zone->add_route(p.gpus_[i]->get_netpoint(), p.sinks_[i]->get_netpoint(), nullptr, nullptr,
                      {{l, Dir::UP}}, false);
      for (uint32_t ln = 0; ln < lanes.lanes; ++ln) {
        const size_t li = size_t{i} * lanes.lanes + ln;
        zone->add_route(p.lanes_[li]->get_netpoint(), p.sinks_[i]->get_netpoint(), nullptr, nullptr,
                        {sg4::LinkInRoute(lane_links[li]), {l, Dir::UP}}, false);
      }
    }
  }

  // star: one port per GPU into the switch; star routes.
  void star() {
    std::vector<sg4::Link*> up;  // per GPU: its port
    for (uint32_t i = 0; i < m.num_gpus; ++i) {
      // Each port carries half of the GPU-to-GPU path (Machine::path_latency_ns).
      up.push_back(make_link(zone, "gpu" + std::to_string(i) + "_sw", link_bw(m.gpu_link),
                             m.gpu_port_latency_ns()));
    }
    // Star routes: GPU i -> anyone = up[i] UP; anyone -> GPU j = up[j]
    // DOWN (the route GPU i -> GPU j is their concatenation, as before);
    // a lane of GPU i goes through its cap link first.
    for (uint32_t i = 0; i < m.num_gpus; ++i) {
      auto* gpu = p.gpus_[i]->get_netpoint();
      zone->add_route(gpu, nullptr, nullptr, nullptr, {{up[i], Dir::UP}}, false);
      zone->add_route(nullptr, gpu, nullptr, nullptr, {{up[i], Dir::DOWN}}, false);
      for (uint32_t l = 0; l < lanes.lanes; ++l) {
        const size_t li = size_t{i} * lanes.lanes + l;
        zone->add_route(p.lanes_[li]->get_netpoint(), nullptr, nullptr, nullptr,
                        {sg4::LinkInRoute(lane_links[li]), {up[i], Dir::UP}}, false);
      }
    }
  }

  // pcie_tree: GPU ports under PCIe switches, an uplink per switch to the root.
  void pcie_tree() {
    std::vector<sg4::Link*> up;  // per GPU: its link to its switch
    std::vector<sg4::Link*> uplinks;
    const uint32_t switches = (m.num_gpus + m.gpus_per_pcie_switch - 1) / m.gpus_per_pcie_switch;
    for (uint32_t s = 0; s < switches; ++s) {
      zone->create_host("pcie_sw" + std::to_string(s), kHostSpeedFlops)->seal();
      uplinks.push_back(make_link(zone, "pcie_sw" + std::to_string(s) + "_root", link_bw(m.uplink),
                                  m.uplink_latency_ns()));
    }
    for (uint32_t i = 0; i < m.num_gpus; ++i) {
      up.push_back(make_link(zone, "gpu" + std::to_string(i) + "_pcie", link_bw(m.gpu_link),
                             m.gpu_port_latency_ns()));
    }
    for (uint32_t i = 0; i < m.num_gpus; ++i) {
      const uint32_t si = i / m.gpus_per_pcie_switch;
      route(p.gpus_[i], p.cpu_, {{up[i], Dir::UP}, {uplinks[si], Dir::UP}});
      route(p.cpu_, p.gpus_[i], {{uplinks[si], Dir::DOWN}, {up[i], Dir::DOWN}});
      for (uint32_t j = 0; j < m.num_gpus; ++j) {
        if (i == j) continue;
        const uint32_t sj = j / m.gpus_per_pcie_switch;
        if (si == sj) {
          route(p.gpus_[i], p.gpus_[j], {{up[i], Dir::UP}, {up[j], Dir::DOWN}});
        } else {
          route(p.gpus_[i], p.gpus_[j],
                {{up[i], Dir::UP},
                 {uplinks[si], Dir::UP},
                 {uplinks[sj], Dir::DOWN},
                 {up[j], Dir::DOWN}});
        }
      }
    }
  }
};

SimgridPlatform SimgridPlatform::build(const Machine& m, const SourceLanes& lanes,
                                       double packet_wire_bytes, bool mesh_fan_out) {
  SimgridPlatform p;
  Builder b{.m = m,
            .lanes = lanes,
            .packet_wire_bytes = packet_wire_bytes,
            .p = p,
            .zone = nullptr,
            .lane_links = {},
            .gpu_index = {}};
  // A switch is a star: every route is the source's port up, then the
  // destination's port down, so a star zone stores one route per host
  // (memory linear in GPUs; a full zone's table grows with (GPUs x lanes)^2,
  // gigabytes at 1024 GPUs). Other topologies have per-pair routes.
  const bool star = m.topology == Topology::kSwitch;
  sg4::NetZone* zone = b.zone =
      star ? sg4::create_star_zone("machine") : sg4::create_full_zone("machine");
  p.cpu_ = zone->create_host("cpu", kHostSpeedFlops)->seal();
  for (uint32_t i = 0; i < m.num_gpus; ++i) {
    p.gpus_.push_back(zone->create_host("gpu" + std::to_string(i), kHostSpeedFlops)->seal());
  }
  // Routes are added in both directions explicitly (symmetrical = false) so
  // each direction of a split-duplex link carries only its own traffic. A
  // GPU's lanes get the GPU's routes behind their cap link.
  p.lanes_per_gpu_ = lanes.lanes;
  for (uint32_t i = 0; i < m.num_gpus; ++i) {
    for (uint32_t l = 0; l < lanes.lanes; ++l) {
      const std::string name = "gpu" + std::to_string(i) + ".lane" + std::to_string(l);
      p.lanes_.push_back(zone->create_host(name, kHostSpeedFlops)->seal());
      sg4::Link* cap = zone->create_link(name + "_cap", lanes.cap_bytes_per_s);
      cap->set_latency(0)->seal();
      b.lane_links.push_back(cap);
    }
  }
  for (size_t i = 0; i < p.gpus_.size(); ++i) b.gpu_index[p.gpus_[i]] = i;
  switch (m.topology) {
    case Topology::kDirect: b.direct(mesh_fan_out); break;
    case Topology::kSwitch: b.star(); break;
    case Topology::kPcieTree: b.pcie_tree(); break;
  }
  if (m.topology == Topology::kSwitch) {
    zone->create_host("nvswitch", kHostSpeedFlops)->seal();
  }
  zone->seal();
  for (sg4::Host* gpu : p.gpus_) p.inboxes_.push_back(permanent_inbox(gpu));
  for (sg4::Host* sink : p.sinks_) p.sink_inboxes_.push_back(permanent_inbox(sink));
  return p;
}

sg4::Mailbox* permanent_inbox(sg4::Host* host) {
  // The receiver: a daemon blocked for good (a suspended receiver would hold
  // its comms back), killed when the last regular actor ends.
  sg4::SemaphorePtr never = sg4::Semaphore::create(0);
  sg4::Mailbox* inbox = sg4::Mailbox::by_name(host->get_name());
  inbox->set_receiver(sg4::Actor::create("rx." + host->get_name(), host, [never] {
    sg4::Actor::self()->daemonize();
    never->acquire();
  }));
  return inbox;
}

sg4::CommPtr put(sg4::Host* from, sg4::Mailbox* inbox, uint64_t bytes) {
  if (sg4::this_actor::get_host() != from) sg4::this_actor::set_host(from);
  static int payload = 0;  // a comm carries a (never read) pointer
  return inbox->put_async(&payload, bytes);
}

void on_comm_end(std::function<void(const void* comm)> callback) {
  // SimGrid 3.32's public headers only declare NetworkAction, a
  // kernel::resource::Action with no other base.
  sg4::Link::on_communication_state_change_cb(
      [callback = std::move(callback)](simgrid::kernel::resource::NetworkAction& na,
                                       simgrid::kernel::resource::Action::State) {
        const auto& a = reinterpret_cast<const simgrid::kernel::resource::Action&>(na);
        if (a.get_state() == simgrid::kernel::resource::Action::State::FINISHED) {
          callback(a.get_activity());
        }
      });
}

sg4::CommPtr SimgridPlatform::send(uint32_t src, uint32_t lane, uint32_t dst,
                                   uint64_t bytes) const {
  return put(source(src, lane), inboxes_[dst], bytes);
}

sg4::CommPtr SimgridPlatform::send_fan_out(uint32_t src, uint32_t lane, uint64_t bytes) const {
  return put(source(src, lane), sink_inboxes_[src], bytes);
}

void SimgridPlatform::forget_delivered() const {
  for (sg4::Mailbox* inbox : inboxes_) inbox->clear();
  for (sg4::Mailbox* inbox : sink_inboxes_) inbox->clear();
}

}  // namespace xferlab::sim
