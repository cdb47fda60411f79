// sim/proact_mechanism.cc — the PROACT mechanisms' costs and orders shared by
// both replay cores. Equations: docs/sim.md, "Mechanisms".
#include "sim/proact_mechanism.h"

#include <algorithm>
#include <cmath>

#include "hw_model/link_model.h"
#include "hw_model/transfer_window.h"

namespace xferlab::sim::proact {

namespace {
constexpr double kNsPerS = 1e9;
}  // namespace

std::vector<uint32_t> dests(const Machine& m, const KernelInput& k) {
  std::vector<uint32_t> out;
  const uint32_t n = m.num_gpus;
  for (uint32_t i = 1; i < n; ++i) {
    const uint32_t d = (k.gpu + i) % n;
    if (k.dest_mask == 0 || (d < 64 && ((k.dest_mask >> d) & 1))) out.push_back(d);
  }
  return out;
}

std::vector<Target> singles(const std::vector<uint32_t>& ds) {
  std::vector<Target> out;
  for (uint32_t d : ds) out.push_back(Target{d, 1});
  return out;
}

// On a switch, a chunk sent to all N-1 peers at the same time puts N-1 equal
// flows on the source's port; every destination port receives 1/(N-1) of
// each other sender's port traffic, so it never binds before the source port
// does (all ports have the same bandwidth), all copies get the same rate and
// finish together, and every path has the same latency.
std::vector<Target> targets(const Machine& m, bool aggregate, const KernelInput& k) {
  std::vector<uint32_t> ds = dests(m, k);
  if (aggregate && ds.size() + 1 == m.num_gpus && ds.size() > 1) {
    return {Target{ds.front(), static_cast<uint32_t>(ds.size())}};
  }
  return singles(ds);
}

namespace {

// every_transfer_fans_out: mech's chunks all start to every peer at once and
// every kernel sends to all peers (more than one).
bool every_transfer_fans_out(const Machine& m, const ReplayInput& in, Mechanism mech) {
  if (m.num_gpus <= 2 || mech == Mechanism::kMemcpy) return false;
  if (mech == Mechanism::kHardware && !m.costs.dma_agent.fan_out) return false;
  for (const IterationInput& it : in.iterations) {
    for (const KernelInput& k : it.kernels) {
      if (dests(m, k).size() + 1 != m.num_gpus) return false;
    }
  }
  return true;
}

}  // namespace

bool mesh_fan_out(const Machine& m, const ReplayInput& in, Mechanism mech) {
  return m.topology == Topology::kDirect && every_transfer_fans_out(m, in, mech);
}

bool fan_out_aggregation(const Machine& m, const ReplayInput& in, Mechanism mech, bool requested) {
  return requested && (m.topology == Topology::kSwitch || mesh_fan_out(m, in, mech));
}

bool independent_gpus(const Machine& m, const ReplayInput& in, Mechanism mech, bool aggregate) {
  return aggregate && m.topology != Topology::kPcieTree && every_transfer_fans_out(m, in, mech);
}

bool own_bottleneck(const Machine& m, const ReplayInput& in, Mechanism mech, bool aggregate) {
  if (m.num_gpus == 2) return m.topology != Topology::kPcieTree;
  return independent_gpus(m, in, mech, aggregate);
}

namespace {

bool same_chunk(const ChunkInput& a, const ChunkInput& b) {
  return a.first_write_ns == b.first_write_ns && a.ready_ns == b.ready_ns &&
         a.size_bytes == b.size_bytes && a.writers == b.writers && a.store_bytes == b.store_bytes &&
         a.index == b.index;
}

bool same_kernel(const KernelInput& a, const KernelInput& b) {
  return a.begin_ns == b.begin_ns && a.duration_ns == b.duration_ns && a.dest_mask == b.dest_mask &&
         a.chunks.size() == b.chunks.size() &&
         std::equal(a.chunks.begin(), a.chunks.end(), b.chunks.begin(), same_chunk);
}

}  // namespace

std::vector<uint32_t> replica_weights(const ReplayInput& in, uint32_t num_gpus, bool fold) {
  std::vector<uint32_t> weight(num_gpus, 1);
  if (!fold) return weight;
  // Per GPU its kernels in iteration order (an empty GPU is its own class
  // only with other empty GPUs, through the iteration markers).
  std::vector<std::vector<const KernelInput*>> ks(num_gpus);
  for (const IterationInput& it : in.iterations) {
    for (std::vector<const KernelInput*>& v : ks) v.push_back(nullptr);  // iteration marker
    for (const KernelInput& k : it.kernels) ks[k.gpu].push_back(&k);
  }
  // A cheap key first (kernel count, sizes, first/last ready times), the
  // full comparison only against representatives with the same key.
  auto key = [&](uint32_t g) {
    std::vector<double> key;
    for (const KernelInput* k : ks[g]) {
      if (k == nullptr) {
        key.push_back(-1);
        continue;
      }
      key.insert(key.end(), {k->begin_ns, k->duration_ns, static_cast<double>(k->chunks.size()),
                             k->chunks.empty() ? 0 : k->chunks.front().ready_ns,
                             k->chunks.empty() ? 0 : k->chunks.back().ready_ns});
    }
    return key;
  };
  auto same = [&](uint32_t a, uint32_t b) {
    if (ks[a].size() != ks[b].size()) return false;
    for (size_t i = 0; i < ks[a].size(); ++i) {
      if ((ks[a][i] == nullptr) != (ks[b][i] == nullptr)) return false;
      if (ks[a][i] != nullptr && !same_kernel(*ks[a][i], *ks[b][i])) return false;
    }
    return true;
  };
  std::vector<std::pair<std::vector<double>, uint32_t>> reps;  // key, representative
  for (uint32_t g = 0; g < num_gpus; ++g) {
    std::vector<double> kg = key(g);
    for (const auto& [kr, r] : reps) {
      if (kr == kg && same(r, g)) {
        ++weight[r];
        weight[g] = 0;
        break;
      }
    }
    if (weight[g] != 0) reps.emplace_back(std::move(kg), g);
  }
  return weight;
}

// SM stores and DMA packets are posted writes, so a sender is limited by
// link bandwidth, not by latency; waiting per chunk would make small chunks
// latency-bound (hw_model::TransferWindow::posted_writes).
size_t window_chunks(const Machine& m, const KernelInput& k, double chunk_wire_bytes) {
  double rtt_ns = 0;
  for (uint32_t d = 0; d < m.num_gpus; ++d) {
    if (d != k.gpu) rtt_ns = std::max(rtt_ns, 2 * m.path_latency_ns(k.gpu, d));
  }
  return static_cast<size_t>(
      hw_model::TransferWindow::posted_writes(m.gpu_link.bw_bytes_per_s, rtt_ns, chunk_wire_bytes));
}

double max_chunk_bytes(const KernelInput& k) {
  double m = 0;
  for (const ChunkInput& c : k.chunks) m = std::max(m, static_cast<double>(c.size_bytes));
  return m;
}

double total_payload(const KernelInput& k) {
  double s = 0;
  for (const ChunkInput& c : k.chunks) s += static_cast<double>(c.size_bytes);
  return s;
}

// A warp's contiguous 16-B stores fill one 128-B line, not a copy engine's
// full-size packets: on 2x H200 the agents copy a single 256 MiB chunk at
// 344-356 GB/s against cudaMemcpy's 391 GB/s (traces/real/2026-11-22_h200x2_run3,
// docs/validation.md).
double agent_packet_payload(const Machine& m) {
  return hw_model::packet_payload_bytes(m.costs.agent_packet_bytes, m.gpu_link.max_payload_bytes);
}

double dma_packet_payload(const Machine& m) {
  return hw_model::DmaAgent::create(m.costs.dma_agent)
      ->packet_payload_bytes(m.gpu_link.max_payload_bytes);
}

WireCost agent_copy(const Machine& m, double payload) {
  return m.gpu_link.packets(payload, agent_packet_payload(m));
}

std::vector<Trigger> counter_triggers(const MechanismCosts& c, const KernelInput& k, double kb,
                                      double* stall_ns) {
  std::vector<hw_model::ChunkWrites> writes;
  writes.reserve(k.chunks.size());
  for (const ChunkInput& ch : k.chunks) {
    writes.push_back({kb + ch.first_write_ns, kb + ch.ready_ns, static_cast<double>(ch.size_bytes),
                      static_cast<int64_t>(ch.writers)});
  }
  // The config was validated with the machine.
  hw_model::ChunkTriggers t = hw_model::CounterUnit::create(c.counter_unit)->chunk_triggers(writes);
  std::vector<Trigger> out;
  out.reserve(t.trigger_ns.size());
  for (uint32_t i = 0; i < t.trigger_ns.size(); ++i) out.push_back(Trigger{t.trigger_ns[i], i});
  *stall_ns = t.stall_ns;
  std::stable_sort(out.begin(), out.end(),
                   [](const Trigger& a, const Trigger& b) { return a.time_ns < b.time_ns; });
  return out;
}

SourceLanes lanes_for(const Machine& m, Mechanism mech) {
  const MechanismCosts& c = m.costs;
  // A payload rate `bw` sent in packets of `pkt` payload bytes, as wire bytes.
  auto payload_cap = [&](double bw, double pkt) {
    return bw > 0 ? SourceLanes{1, bw * m.gpu_link.bulk(pkt).wire_bytes / pkt} : SourceLanes{};
  };
  switch (mech) {
    case Mechanism::kMemcpy: {
      // Concurrent copies share all engines through one cap; streamed
      // copies run each on one engine (lane), as many lanes as can be busy.
      const double engines = static_cast<double>(c.copy_engines);
      if (c.memcpy_streams == 0) {
        return payload_cap(c.copy_engine_bw_bytes_per_s * engines, m.gpu_link.max_payload_bytes);
      }
      SourceLanes l = payload_cap(c.copy_engine_bw_bytes_per_s, m.gpu_link.max_payload_bytes);
      if (l.lanes > 0) l.lanes = static_cast<uint32_t>(std::min(c.copy_engines, c.memcpy_streams));
      return l;
    }
    case Mechanism::kPolling:
      return payload_cap(c.polling_copy_bw_bytes_per_s, agent_packet_payload(m));
    case Mechanism::kCdp: {
      // Each child kernel copies at one agent's rate; children run
      // concurrently, so a GPU gets as many capped lanes as it takes children
      // to fill its link (SM room for more is far larger than that).
      SourceLanes l = payload_cap(c.cdp_copy_bw_bytes_per_s, agent_packet_payload(m));
      if (l.lanes > 0) {
        l.lanes =
            1 + static_cast<uint32_t>(std::ceil(m.gpu_link.bw_bytes_per_s / l.cap_bytes_per_s));
      }
      return l;
    }
    case Mechanism::kHardware: {
      // Each DMA channel is a lane capped by its outstanding-packet window
      // (DmaAgent::channel_window_bytes_per_s, in wire bytes) over the round
      // trip to the farthest GPU, for one uniform cap.
      const hw_model::DmaAgent agent = *hw_model::DmaAgent::create(c.dma_agent);
      const double pkt = dma_packet_payload(m);
      const double cap = agent.channel_window_bytes_per_s(m.gpu_link.bulk(pkt).wire_bytes,
                                                          2 * m.farthest_path_latency_ns());
      if (!std::isfinite(cap)) return {};
      return SourceLanes{static_cast<uint32_t>(c.dma_agent.channels), cap};
    }
    case Mechanism::kInline:
    case Mechanism::kInfinite: return {};
  }
  return {};
}

double packet_wire_bytes(const Machine& m, const ReplayInput& in, Mechanism mech) {
  if (mech == Mechanism::kPolling || mech == Mechanism::kCdp) {
    return m.gpu_link.bulk(agent_packet_payload(m)).wire_bytes;
  }
  if (mech == Mechanism::kHardware) return m.gpu_link.bulk(dma_packet_payload(m)).wire_bytes;
  if (mech != Mechanism::kInline) return m.gpu_link.bulk(m.gpu_link.max_payload_bytes).wire_bytes;
  double store = m.costs.inline_store_bytes;
  for (const IterationInput& it : in.iterations) {
    for (const KernelInput& k : it.kernels) {
      if (store <= 0 && !k.chunks.empty()) store = k.chunks.front().store_bytes;
    }
  }
  if (store <= 0) return 0;
  // Per packet as the coalescer emits them (a warp's contiguous stores merge
  // into line-sized packets), not per store instruction.
  const WireCost w = m.gpu_link.stores(1024, store);
  return w.packets > 0 ? w.wire_bytes / w.packets : w.wire_bytes;
}

InlinePlan inline_plan(const Machine& m, bool aggregate, const KernelInput& k) {
  const MechanismCosts& c = m.costs;
  InlinePlan plan;
  plan.targets = targets(m, aggregate, k);
  const double store0 = c.inline_store_bytes > 0 ? c.inline_store_bytes
                        : k.chunks.empty()       ? 4
                                                 : k.chunks.front().store_bytes;
  const double chunk0 = max_chunk_bytes(k);
  plan.window =
      window_chunks(m, k, m.gpu_link.stores(std::ceil(chunk0 / store0), store0).wire_bytes) *
      plan.targets.size();
  plan.by_first.resize(k.chunks.size());
  for (uint32_t i = 0; i < plan.by_first.size(); ++i) plan.by_first[i] = i;
  std::stable_sort(plan.by_first.begin(), plan.by_first.end(), [&](uint32_t a, uint32_t b) {
    return k.chunks[a].first_write_ns < k.chunks[b].first_write_ns;
  });
  for (const ChunkInput& ch : k.chunks) {
    const double store = c.inline_store_bytes > 0 ? c.inline_store_bytes : ch.store_bytes;
    plan.stores.push_back(
        m.gpu_link.stores(std::ceil(static_cast<double>(ch.size_bytes) / store), store));
  }
  return plan;
}

PollingPlan polling_plan(const Machine& m, const KernelInput& k) {
  const MechanismCosts& c = m.costs;
  PollingPlan p;
  p.dilation = 1.0 / (1.0 - c.polling_sm_share);
  // Chunks in program order (ties keep ready order).
  p.by_index.resize(k.chunks.size());
  for (uint32_t i = 0; i < p.by_index.size(); ++i) p.by_index[i] = i;
  std::stable_sort(p.by_index.begin(), p.by_index.end(),
                   [&k](uint32_t a, uint32_t b) { return k.chunks[a].index < k.chunks[b].index; });
  const double chunk = max_chunk_bytes(k);
  const double slice = c.agent_slice_bytes > 0 ? std::min(c.agent_slice_bytes, chunk) : chunk;
  p.slices = std::max<int64_t>(1, static_cast<int64_t>(slice > 0 ? std::floor(chunk / slice) : 1));
  p.groups = hw_model::static_agent_schedule(c.agent_workers, static_cast<int64_t>(k.chunks.size()),
                                             p.slices);
  p.worker = {c.agent_slice_overhead_ns,
              c.polling_copy_bw_bytes_per_s / static_cast<double>(c.agent_workers)};
  return p;
}

double polling_item_busy_ns(const PollingPlan& plan, const ChunkInput& ch,
                            const hw_model::AgentItem& item, double copies) {
  if (!plan.worker.bounds()) return 0;
  const double slice = static_cast<double>(ch.size_bytes) / static_cast<double>(plan.slices);
  return static_cast<double>(item.slices) * copies * plan.worker.ns(slice);
}

double polling_seen_ns(const MechanismCosts& c, const ChunkInput& ch, double dilation) {
  double seen = ch.ready_ns * dilation;
  if (c.polling_period_ns > 0) seen = std::ceil(seen / c.polling_period_ns) * c.polling_period_ns;
  return seen;
}

double polling_item_payload(const ChunkInput& ch, const hw_model::AgentGroup& group,
                            const hw_model::AgentItem& item, int64_t slices) {
  return static_cast<double>(ch.size_bytes) * static_cast<double>(group.workers) *
         static_cast<double>(item.slices) / static_cast<double>(slices);
}

std::vector<double> cdp_child_starts(const MechanismCosts& c, const KernelInput& k, double kb) {
  // Children queue behind the parent grid's undispatched CTAs: none runs
  // before the parent's last CTA has started (its latest first write), when
  // SMs start to free up (measured on H200: the first child starts with the
  // parent's last CTA). From then on they start one launch interval apart.
  double dispatched = kb;
  for (const ChunkInput& ch : k.chunks) dispatched = std::max(dispatched, kb + ch.first_write_ns);
  double last_launch = -INFINITY;  // device launches of one GPU serialize
  std::vector<double> out;
  out.reserve(k.chunks.size());
  for (const ChunkInput& ch : k.chunks) {
    last_launch = std::max(
        {kb + ch.ready_ns, dispatched - c.cdp_launch_ns, last_launch + c.cdp_launch_interval_ns});
    out.push_back(last_launch + c.cdp_launch_ns);
  }
  return out;
}

CriticalPath::Node explain_flight(CriticalPath& cp, const Machine& m, Mechanism mech,
                                  const SourceLanes& lanes, CriticalPath::Node from, double end_ns,
                                  uint32_t src, uint32_t dst, double payload, double wire) {
  double bw = m.gpu_link.bw_bytes_per_s;
  if (m.topology == Topology::kPcieTree &&
      src / m.gpus_per_pcie_switch != dst / m.gpus_per_pcie_switch) {
    bw = std::min(bw, m.uplink.bw_bytes_per_s);
  }
  const bool capped = lanes.lanes > 0 && lanes.cap_bytes_per_s > 0;
  const bool agent = mech == Mechanism::kPolling || mech == Mechanism::kCdp;
  return cp.flight(from, end_ns, m.path_latency_ns(src, dst), payload, wire, bw,
                   capped ? lanes.cap_bytes_per_s : 0, agent, src);
}

double union_length(std::vector<std::pair<double, double>>& iv) {
  std::sort(iv.begin(), iv.end());
  double total = 0, cur_a = 0, cur_b = -1;
  for (auto [a, b] : iv) {
    if (a > cur_b) {
      if (cur_b > cur_a) total += cur_b - cur_a;
      cur_a = a;
      cur_b = b;
    } else {
      cur_b = std::max(cur_b, b);
    }
  }
  if (cur_b > cur_a) total += cur_b - cur_a;
  return total;
}

}  // namespace xferlab::sim::proact
