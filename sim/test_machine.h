// sim/test_machine.h — the machine the engine's tests compute by hand: GPU
// links of 1 GB/s (1 byte/ns) and 1 us latency, packets of at most 256 B
// payload with 16 B overhead (a 4096-B chunk is 4352 wire bytes); on a PCIe
// tree, uplinks of 0.5 GB/s and 500 ns. Mechanism costs are left to each test.
#pragma once

#include <cstdint>
#include <string>

#include "sim/machine.h"

namespace xferlab::sim {

inline Machine hand_computed_machine(const std::string& name, uint32_t gpus, Topology topology) {
  Machine m;
  m.name = name;
  m.num_gpus = gpus;
  m.topology = topology;
  m.gpu_link.kind = "test";
  m.gpu_link.bw_bytes_per_s = 1e9;
  m.gpu_link.latency_ns = 1000;
  set_simple_packetization(m.gpu_link, 256, 16);
  m.uplink = m.gpu_link;
  m.uplink.bw_bytes_per_s = 0.5e9;
  m.uplink.latency_ns = 500;
  return m;
}

}  // namespace xferlab::sim
