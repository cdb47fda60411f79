// sim/machine.cc — Machine validation and the small derived quantities the
// engine needs (path latency, packet-rate caps).
#include "sim/machine.h"

#include <cmath>

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
  if (!link.bulk || !link.stores) {
    return make_error(std::string("machine: ") + what + " has no packetization model");
  }
  return Status::Ok();
}

}  // namespace

Status MechanismCosts::validate() const {
  if (polling_sm_share < 0 || polling_sm_share >= 1) {
    return make_error("machine: polling SM share must be in [0, 1)");
  }
  if (dma_channels < 1) return make_error("machine: DMA channels must be >= 1");
  if (counter_capacity < 0 || dma_outstanding_packets < 0) {
    return make_error("machine: counter capacity and outstanding packets must be >= 0");
  }
  for (double v :
       {memcpy_issue_ns, copy_engine_bw_bytes_per_s, inline_store_bytes, agent_packet_bytes,
        polling_period_ns, polling_copy_bw_bytes_per_s, polling_detect_ns, cdp_launch_ns,
        cdp_copy_bw_bytes_per_s, counter_update_service_ns, counter_update_latency_ns,
        counter_trigger_ns, counter_spill_ns, dma_descriptor_fetch_ns, dma_initiation_ns}) {
    if (v < 0 || !std::isfinite(v)) return make_error("machine: mechanism costs must be >= 0");
  }
  return Status::Ok();
}

Status Machine::validate() const {
  if (num_gpus < 1 || num_gpus > 64) {
    return make_error("machine " + name + ": GPU count must be 1..64");
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
    case Topology::kSwitch: return 2 * gpu_link.latency_ns + switch_latency_ns;
    case Topology::kPcieTree:
      if (src / gpus_per_pcie_switch == dst / gpus_per_pcie_switch) {
        return 2 * gpu_link.latency_ns + switch_latency_ns;
      }
      return 2 * gpu_link.latency_ns + 2 * uplink.latency_ns + 2 * switch_latency_ns;
  }
  return 0;
}
}  // namespace xferlab::sim
