// sim/machine.cc — Machine from a hw_model::Platform, its validation and the
// small derived quantities the engine needs (path latency).
#include "sim/machine.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "hw_model/link_model.h"
#include "hw_model/notification.h"
#include "hw_model/software_mechanisms.h"
#include "hw_model/write_coalescer.h"

namespace xferlab::sim {

const char* topology_name(Topology t) {
  switch (t) {
    case Topology::kDirect: return "direct";
    case Topology::kSwitch: return "switch";
    case Topology::kPcieTree: return "pcie_tree";
  }
  return "?";
}

void set_simple_packetization(LinkSpec& link, double max_payload_bytes, double header_bytes) {
  link.max_payload_bytes = max_payload_bytes;
  link.bulk = [max_payload_bytes, header_bytes](double payload) {
    double packets = std::ceil(payload / max_payload_bytes);
    return WireCost{payload + packets * header_bytes, packets};
  };
  link.stores = [max_payload_bytes, header_bytes](double count, double store_bytes) {
    double per_store = std::ceil(store_bytes / max_payload_bytes);
    return WireCost{count * (store_bytes + per_store * header_bytes), count * per_store};
  };
  link.packets = [max_payload_bytes, header_bytes](double payload, double packet_bytes) {
    double packets =
        std::ceil(payload / hw_model::packet_payload_bytes(packet_bytes, max_payload_bytes));
    return WireCost{payload + packets * header_bytes, packets};
  };
}

namespace {

Status check_link(const LinkSpec& link, const char* what) {
  if (!(link.bw_bytes_per_s > 0)) {
    return make_error(std::string("machine: ") + what + " bandwidth must be positive");
  }
  if (link.latency_ns < 0 || link.max_packets_per_s < 0 || !(link.max_payload_bytes > 0)) {
    return make_error(std::string("machine: ") + what +
                      " latency/packet rate must be >= 0 and max payload > 0");
  }
  if (!link.bulk || !link.stores || !link.packets) {
    return make_error(std::string("machine: ") + what + " has no packetization model");
  }
  return Status::Ok();
}

}  // namespace

// The hw_model parameters these come from are validated where they are
// declared; this catches derived or hand-set values that would break the
// engine (a negative time, an SM share of 1).
Status MechanismCosts::validate() const {
  if (polling_sm_share < 0 || polling_sm_share >= 1) {
    return make_error("machine: polling SM share must be in [0, 1)");
  }
  if (copy_engines < 1 || memcpy_streams < 0) {
    return make_error("machine: copy engines must be >= 1 and memcpy streams >= 0");
  }
  if (agent_workers < 1 || tma_agent_workers < 1) {
    return make_error("machine: agent workers must be >= 1");
  }
  for (double v :
       {memcpy_issue_ns, memcpy_stream_gap_ns, copy_engine_bw_bytes_per_s, inline_store_bytes,
        agent_packet_bytes, polling_period_ns, polling_copy_bw_bytes_per_s, agent_slice_bytes,
        agent_slice_overhead_ns, tma_copy_bw_bytes_per_s, tma_slice_overhead_ns, cdp_launch_ns,
        cdp_launch_interval_ns, cdp_copy_bw_bytes_per_s}) {
    if (v < 0 || !std::isfinite(v)) return make_error("machine: mechanism costs must be >= 0");
  }
  if (Status s = counter_unit.validate(); !s.ok()) {
    return make_error("machine: counter_unit " + s.error().message);
  }
  if (Status s = dma_agent.validate(); !s.ok()) {
    return make_error("machine: dma_agent " + s.error().message);
  }
  if (!dma_agent.sized() || counter_unit.capacity_counters == hw_model::kAutoCount) {
    return make_error(
        "machine: counter_unit/dma_agent sizes left 'auto' (hw_model/hardware_sizing.h)");
  }
  return Status::Ok();
}

Status Machine::validate() const {
  if (num_gpus < 1 || num_gpus > kMaxGpus) {
    return make_error("machine " + name + ": GPU count must be 1.." + std::to_string(kMaxGpus));
  }
  XF_RETURN_IF_ERROR(check_link(gpu_link, "GPU link"));
  if (topology == Topology::kPcieTree) {
    XF_RETURN_IF_ERROR(check_link(uplink, "PCIe uplink"));
    if (gpus_per_pcie_switch < 1) return make_error("machine: gpus per PCIe switch must be >= 1");
  }
  return costs.validate();
}

double Machine::path_latency_ns(uint32_t src, uint32_t dst) const {
  switch (topology) {
    case Topology::kDirect: return gpu_link.latency_ns;
    case Topology::kSwitch: return 2 * gpu_port_latency_ns();
    case Topology::kPcieTree:
      if (src / gpus_per_pcie_switch == dst / gpus_per_pcie_switch) {
        return 2 * gpu_port_latency_ns();
      }
      return 2 * gpu_port_latency_ns() + 2 * uplink_latency_ns();
  }
  return 0;
}

double Machine::farthest_path_latency_ns() const {
  if (num_gpus < 2) return 0;
  // A PCIe tree's farthest pair is under two switches when it has two.
  const uint32_t last =
      topology == Topology::kPcieTree && num_gpus > gpus_per_pcie_switch ? gpus_per_pcie_switch : 1;
  return path_latency_ns(0, last);
}

double Machine::gpu_port_latency_ns() const {
  // kPcieTree: one PCIe switch (switch_latency_ns holds the format's hops).
  const int64_t hops = topology == Topology::kSwitch ? switch_hops : 1;
  return hw_model::switched_path_latency_ns(gpu_link.latency_ns, hops, switch_latency_ns) / 2;
}

double Machine::uplink_latency_ns() const {
  return uplink.latency_ns + switch_latency_ns / 2;
}
namespace hw = hw_model;

namespace {

// link_spec: a bundle of `links` links of `format`; packetization by
// LinkModel (bulk: contiguous full-size writes; stores: a warp's contiguous
// stores through the write coalescer).
Result<LinkSpec> link_spec(const hw::LinkFormat& format, int64_t links,
                           const hw::CoalescingConfig& coalescing) {
  Result<hw::LinkModel> model = hw::LinkModel::create(format);
  if (!model.ok()) return model.error();
  Result<hw::WriteCoalescer> coalescer = hw::WriteCoalescer::create(coalescing);
  if (!coalescer.ok()) return coalescer.error();
  auto lm = std::make_shared<hw::LinkModel>(*model);
  auto wc = std::make_shared<hw::WriteCoalescer>(*coalescer);
  LinkSpec s;
  s.kind = format.name;
  s.bw_bytes_per_s = lm->raw_bandwidth_bytes_per_s() * static_cast<double>(links);
  s.latency_ns = format.latency_ns;
  s.max_packets_per_s = format.max_packets_per_s * static_cast<double>(links);
  s.max_payload_bytes = format.max_payload_bytes;
  s.bulk = [lm](double payload) {
    hw::WireBytes w = lm->writes(1, payload, hw::Pattern::kContiguous);
    return WireCost{w.data_bytes, w.packets};
  };
  s.packets = [lm](double payload, double packet_bytes) {
    hw::WireBytes w = lm->packets(1, payload, packet_bytes);
    return WireCost{w.data_bytes, w.packets};
  };
  const double warp = static_cast<double>(coalescing.warp_threads);
  s.stores = [lm, wc, warp](double count, double store_bytes) {
    hw::WarpStore store{static_cast<int64_t>(warp), store_bytes, store_bytes};
    hw::WireBytes w = wc->wire(*lm, store, count / warp);
    return WireCost{w.data_bytes, w.packets};
  };
  return s;
}

}  // namespace

namespace {

// machine_links: the topology and its links (GPU links bundled per pair on a
// mesh, per GPU into a switch; a PCIe tree's uplinks); *links = the GPU link
// bundle's size.
Status machine_links(const hw::Platform& p, Machine& m, int64_t* links) {
  const hw::TopologyConfig& t = p.topology;
  *links = t.links_per_gpu;
  switch (t.kind) {
    case hw::TopologyKind::kDirectPair:
    case hw::TopologyKind::kNvlinkMesh:
      m.topology = Topology::kDirect;
      *links = t.links_per_gpu_pair;
      break;
    case hw::TopologyKind::kNvswitch: m.topology = Topology::kSwitch; break;
    case hw::TopologyKind::kPcieTree:
      m.topology = Topology::kPcieTree;
      m.gpus_per_pcie_switch = t.gpus_per_group > 0 ? static_cast<uint32_t>(t.gpus_per_group) : 2;
      break;
  }
  Result<LinkSpec> gpu_link = link_spec(p.gpu_link, *links, p.coalescing);
  if (!gpu_link.ok()) return gpu_link.error();
  m.gpu_link = *gpu_link;
  if (m.topology == Topology::kSwitch) {
    m.switch_hops = p.gpu_link.switch_hops;
    m.switch_latency_ns = p.gpu_link.switch_latency_ns;
  } else {
    m.switch_latency_ns =
        static_cast<double>(p.gpu_link.switch_hops) * p.gpu_link.switch_latency_ns;
  }
  if (m.topology == Topology::kPcieTree) {
    Result<LinkSpec> up = link_spec(p.host_link, t.host_links_per_gpu, p.coalescing);
    if (!up.ok()) return up.error();
    m.uplink = *up;
  }
  return Status::Ok();
}

// software_costs: copy engines (CopyEngine: each capped by its
// outstanding-packet window; the program's streams decide how many copy at
// once) and the software agents (SoftwareMechanisms; the CDP launch from
// NotificationModel), over `links` GPU links.
Status software_costs(const hw::Platform& p, const hw::LinkModel& lm, int64_t links,
                      MechanismCosts& c) {
  Result<hw::CopyEngine> engine = hw::CopyEngine::create(p.copy_engine);
  if (!engine.ok()) return engine.error();
  c.memcpy_issue_ns = engine->issue_ns();
  c.copy_engine_bw_bytes_per_s = engine->throughput_bytes_per_s(lm, links);
  c.copy_engines = p.copy_engine.engines;
  c.memcpy_streams = p.software.memcpy_streams;
  // A busy stream's next copy was pushed long ago; only the engine's start remains.
  c.memcpy_stream_gap_ns = p.copy_engine.engine_start_ns;
  Result<hw::SoftwareMechanisms> sw = hw::SoftwareMechanisms::create(p.software, p.notification);
  if (!sw.ok()) return sw.error();
  Result<hw::NotificationModel> notify = hw::NotificationModel::create(p.notification);
  if (!notify.ok()) return notify.error();
  const hw::GpuShape shape{p.gpu.sm_count, p.gpu.max_warps_per_sm};
  c.agent_packet_bytes = p.software.copy_packet_bytes;
  c.polling_sm_share = sw->compute_slowdown(hw::Mechanism::kPolling, shape);
  c.polling_period_ns = p.software.poll_period_ns;
  c.polling_copy_bw_bytes_per_s = sw->sm_copy_bw_bytes_per_s();
  c.agent_workers = sw->agent_workers(false);
  c.agent_slice_overhead_ns = sw->agent_slice_cost(false, p.software.agent_slice_bytes).fixed_ns;
  c.agent_slice_bytes = p.software.agent_slice_bytes;
  const hw::AgentSliceCost tma = sw->agent_slice_cost(true, p.software.agent_slice_bytes);
  c.tma_agent_workers = sw->agent_workers(true);
  c.tma_copy_bw_bytes_per_s = tma.bw_bytes_per_s * static_cast<double>(c.tma_agent_workers);
  c.tma_slice_overhead_ns = tma.fixed_ns;
  c.cdp_launch_ns = notify->cost(hw::NotificationPath::kCdpLaunch).latency_ns;
  c.cdp_launch_interval_ns = p.software.cdp_launch_interval_ns;
  c.cdp_copy_bw_bytes_per_s = sw->sm_copy_bw_bytes_per_s();
  return Status::Ok();
}

// sized_hardware: the counter unit and DMA agent the engine runs (hw_model's
// models); sizes left auto follow the design rules for the machine's own
// farthest path (the round trip the DMA window must cover here).
hw::HardwareSizing sized_hardware(const hw::Platform& p, const Machine& m, const hw::LinkModel& lm,
                                  const hw::SizingRegion& region, MechanismCosts& c) {
  c.counter_unit = p.counter_unit;
  c.dma_agent = p.dma_agent;
  const hw::SizingPath path{m.gpu_link.bw_bytes_per_s, 2 * m.farthest_path_latency_ns()};
  const hw::HardwareSizing sized = hw::size_hardware(c.dma_agent, c.counter_unit, lm, path, region);
  hw::apply_sizing(sized, c.dma_agent, c.counter_unit);
  if (c.counter_unit.capacity_counters == hw::kAutoCount) {
    c.counter_unit.capacity_counters = std::numeric_limits<int32_t>::max();  // region unknown
  }
  return sized;
}

}  // namespace

Result<Machine> machine_from_platform(const hw::Platform& p, uint32_t num_gpus,
                                      const hw::SizingRegion& region, hw::HardwareSizing* sizing) {
  XF_RETURN_IF_ERROR(p.validate());
  Machine m;
  m.name = p.name;
  m.gpu = p.gpu;
  m.num_gpus = num_gpus > 0 ? num_gpus : static_cast<uint32_t>(p.gpu.count);
  int64_t links = 0;
  XF_RETURN_IF_ERROR(machine_links(p, m, &links));
  Result<hw::LinkModel> lm = hw::LinkModel::create(p.gpu_link);
  if (!lm.ok()) return lm.error();
  XF_RETURN_IF_ERROR(software_costs(p, *lm, links, m.costs));
  const hw::HardwareSizing sized = sized_hardware(p, m, *lm, region, m.costs);
  if (sizing) *sizing = sized;
  XF_RETURN_IF_ERROR(m.validate());
  return m;
}

Result<Machine> load_machine(const std::string& preset, const std::vector<std::string>& sets,
                             uint32_t num_gpus, const hw::SizingRegion& region,
                             hw::HardwareSizing* sizing) {
  Result<hw::Platform> p = hw::load_platform(preset);
  if (!p.ok()) return make_error(p.error().message);
  if (Status s = hw::set_parameters(*p, sets); !s.ok()) return make_error(s.error().message);
  if (num_gpus > 0) {
    // Scale-out of a two-GPU preset: the same links, pairwise (NVLink mesh).
    if (num_gpus > 2 && p->topology.kind == hw::TopologyKind::kDirectPair) {
      p->topology.kind = hw::TopologyKind::kNvlinkMesh;
    }
    p->gpu.count = num_gpus;
  }
  Status v = p->validate();
  if (!v.ok()) return make_error(preset + ": " + v.error().message);
  return machine_from_platform(*p, num_gpus, region, sizing);
}

}  // namespace xferlab::sim
