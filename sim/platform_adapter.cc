// sim/platform_adapter.cc — hw_model::Platform -> Machine.
#include "sim/platform_adapter.h"

#include <algorithm>
#include <memory>

#include "hw_model/counter_unit.h"
#include "hw_model/dma_agent.h"
#include "hw_model/link_model.h"
#include "hw_model/software_mechanisms.h"
#include "hw_model/write_coalescer.h"

namespace xferlab::sim {

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
  const double warp = static_cast<double>(coalescing.warp_threads);
  s.stores = [lm, wc, warp](double count, double store_bytes) {
    hw::WarpStore store{static_cast<int64_t>(warp), store_bytes, store_bytes};
    hw::WireBytes w = wc->wire(*lm, store, count / warp);
    return WireCost{w.data_bytes, w.packets};
  };
  return s;
}

}  // namespace

Result<Machine> machine_from_platform(const hw::Platform& p, uint32_t num_gpus) {
  XF_RETURN_IF_ERROR(p.validate());
  Machine m;
  m.name = p.name;
  m.num_gpus = num_gpus > 0 ? num_gpus : static_cast<uint32_t>(p.gpu.count);
  const hw::TopologyConfig& t = p.topology;
  int64_t links = t.links_per_gpu;
  switch (t.kind) {
    case hw::TopologyKind::kDirectPair:
    case hw::TopologyKind::kNvlinkMesh:
      m.topology = Topology::kDirect;
      links = t.links_per_gpu_pair;
      break;
    case hw::TopologyKind::kNvswitch: m.topology = Topology::kSwitch; break;
    case hw::TopologyKind::kPcieTree:
      m.topology = Topology::kPcieTree;
      m.gpus_per_pcie_switch = t.gpus_per_group > 0 ? static_cast<uint32_t>(t.gpus_per_group) : 2;
      break;
  }
  Result<LinkSpec> gpu_link = link_spec(p.gpu_link, links, p.coalescing);
  if (!gpu_link.ok()) return gpu_link.error();
  m.gpu_link = *gpu_link;
  m.switch_latency_ns = static_cast<double>(p.gpu_link.switch_hops) * p.gpu_link.switch_latency_ns;
  if (m.topology == Topology::kPcieTree) {
    Result<LinkSpec> up = link_spec(p.host_link, t.host_links_per_gpu, p.coalescing);
    if (!up.ok()) return up.error();
    m.uplink = *up;
  }

  MechanismCosts& c = m.costs;
  // Copy engines: host initiation + engine start per copy; the GPU's engines
  // together are capped by their outstanding-packet window.
  const hw::CopyEngineConfig& ce = p.copy_engine;
  c.memcpy_issue_ns = ce.host_initiation_ns + ce.engine_start_ns;
  Result<hw::LinkModel> lm = hw::LinkModel::create(p.gpu_link);
  if (!lm.ok()) return lm.error();
  Result<hw::CopyEngine> engine = hw::CopyEngine::create(ce);
  if (!engine.ok()) return engine.error();
  const double probe_bytes = 64.0 * 1024 * 1024;  // long enough for the steady-state rate
  c.copy_engine_bw_bytes_per_s = engine->copy(probe_bytes, *lm, links).throughput_bytes_per_s *
                                 static_cast<double>(ce.engines);
  // Software agents.
  Result<hw::SoftwareMechanisms> sw = hw::SoftwareMechanisms::create(p.software);
  if (!sw.ok()) return sw.error();
  const hw::GpuShape shape{p.gpu.sm_count, p.gpu.max_warps_per_sm};
  c.agent_packet_bytes = p.software.copy_packet_bytes;
  c.polling_sm_share = sw->compute_slowdown(hw::Mechanism::kPolling, shape);
  c.polling_period_ns = p.software.poll_period_ns;
  c.polling_copy_bw_bytes_per_s = sw->sm_copy_bw_bytes_per_s();
  c.cdp_launch_ns = p.software.cdp_launch_ns;
  c.cdp_launch_interval_ns = p.software.cdp_launch_interval_ns;
  c.cdp_copy_bw_bytes_per_s = sw->sm_copy_bw_bytes_per_s();
  // Counter unit.
  Result<hw::CounterUnit> cu = hw::CounterUnit::create(p.counter_unit);
  if (!cu.ok()) return cu.error();
  c.counter_update_service_ns = cu->update_service_ns();
  c.counter_update_latency_ns = cu->update_latency_ns();
  c.counter_trigger_ns = cu->trigger_latency_ns();
  c.counter_capacity = p.counter_unit.capacity_counters;
  c.counter_spill_ns = p.counter_unit.spill_penalty_ns;
  c.counter_stall_when_full = p.counter_unit.full_policy == hw::FullTablePolicy::kStall;
  // DMA agent: descriptors held on chip are fetched ahead of their trigger.
  const hw::DmaAgentConfig& dma = p.dma_agent;
  c.dma_descriptor_fetch_ns = dma.prefetched_descriptors > 0 ? 0 : dma.descriptor_fetch_ns;
  c.dma_initiation_ns = dma.initiation_ns;
  c.dma_channels = dma.channels;
  c.dma_outstanding_packets = dma.outstanding_packets;
  c.dma_fan_out = true;
  XF_RETURN_IF_ERROR(m.validate());
  return m;
}

Result<Machine> load_machine(const std::string& preset, const std::vector<std::string>& sets,
                             uint32_t num_gpus) {
  Result<hw::Platform> p = hw::load_platform(preset);
  if (!p.ok()) return make_error(p.error().message);
  for (const std::string& kv : sets) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) return make_error("--set '" + kv + "': expected key=value");
    Status s = hw::set_parameter(*p, kv.substr(0, eq), kv.substr(eq + 1));
    if (!s.ok()) return make_error("--set " + kv + ": " + s.error().message);
  }
  if (num_gpus > 0) {
    // Scale-out of a two-GPU preset: the same links, pairwise (NVLink mesh).
    if (num_gpus > 2 && p->topology.kind == hw::TopologyKind::kDirectPair) {
      p->topology.kind = hw::TopologyKind::kNvlinkMesh;
    }
    p->gpu.count = num_gpus;
  }
  Status v = p->validate();
  if (!v.ok()) return make_error(preset + ": " + v.error().message);
  return machine_from_platform(*p, num_gpus);
}

}  // namespace xferlab::sim
