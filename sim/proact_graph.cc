// sim/proact_graph.cc — PROACT traces mapped onto the task-graph core: one
// function per mechanism, each the dependency-graph form of the actor of the
// same name in sim/replay_engine.cc (docs/sim.md, "Two replay cores").
#include "sim/proact_graph.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>

#include "sim/proact_mechanism.h"
#include "sim/simgrid_platform.h"

namespace xferlab::sim {

namespace {

constexpr double kNsPerS = 1e9;
using proact::Target;

// Builder: the graph under construction. Times are pinned to the current
// iteration's start (a task ending when the previous barrier plus the
// iteration's gap has passed), as the actors sleep until absolute times.
class Builder {
 public:
  Builder(const ReplayInput& in, const Machine& m, const ReplayOptions& o)
      : in_(in),
        m_(m),
        opt_(o),
        lanes_(proact::lanes_for(m, o.mechanism)),
        packet_wire_(proact::packet_wire_bytes(m, in, o.mechanism)),
        aggregate_(o.aggregate_fan_out && m.topology == Topology::kSwitch) {
    out_.mechanism = o.mechanism;
    out_.lanes = lanes_;
    out_.egress_bytes.assign(m.num_gpus, 0);
    for (uint32_t i = 0; i < m.num_gpus; ++i) g().add_executor("gpu" + std::to_string(i), 1);
    host_ = g().add_executor("host", 1);
    for (uint32_t i = 0; i < m.num_gpus * (1 + lanes_.lanes); ++i) g().add_endpoint();
  }

  ProactGraph build() {
    uint32_t prev = kNone;
    for (uint32_t it = 0; it < in_.iterations.size(); ++it) {
      const IterationInput& iteration = in_.iterations[it];
      iteration_ = it;
      start_ = g().delay(host_, iteration.gap_before_ns);
      if (prev != kNone) g().after(start_, prev);
      ends_.clear();
      if (opt_.explain) out_.cp.push_back({start_, 0, {}});
      double compute_end = 0;
      for (const KernelInput& k : iteration.kernels) {
        compute_end = std::max(compute_end, k.begin_ns + k.duration_ns);
        kernel(k);
      }
      if (opt_.explain) out_.cp.back().compute_end_ns = compute_end;
      close_pins();
      out_.compute_ns += compute_end + iteration.gap_before_ns;
      prev = g().join(host_);
      g().after(prev, start_);
      for (uint32_t e : ends_) g().after(prev, e);
      out_.iteration_end.push_back(prev);
    }
    return std::move(out_);
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;

  TaskGraph& g() { return out_.graph; }

  // pin: a task that ends at `t_ns` after the iteration's start. The
  // iteration's pins become one chain of delays in time order (close_pins),
  // so one timer runs at a time instead of one per pin.
  uint32_t pin(uint32_t gpu, double t_ns) {
    const uint32_t t = g().join(gpu);
    pins_.emplace_back(std::max(0.0, t_ns), t);
    return t;
  }
  void close_pins() {
    std::stable_sort(pins_.begin(), pins_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    uint32_t prev = start_;
    double at = 0;
    for (const auto& [t_ns, task] : pins_) {
      if (t_ns > at) {
        prev = delay_after(host_, prev, t_ns - at);
        at = t_ns;
      }
      g().after(task, prev);
    }
    pins_.clear();
  }
  // join: ends when all of `preds` have (kNone entries ignored).
  uint32_t join(uint32_t gpu, std::initializer_list<uint32_t> preds) {
    const uint32_t t = g().join(gpu);
    for (uint32_t p : preds) {
      if (p != kNone) g().after(t, p);
    }
    return t;
  }
  uint32_t delay_after(uint32_t gpu, uint32_t pred, double ns) {
    const uint32_t t = g().delay(gpu, ns);
    g().after(t, pred);
    return t;
  }
  void wait_all(uint32_t task, const std::vector<uint32_t>& preds) {
    for (uint32_t p : preds) g().after(task, p);
  }

  // ---- critical path (explain): each actor's steps as the actor core takes
  // them (ProactGraph::CpOp), recorded into the current kernel's actor i.

  using Op = ProactGraph::CpOp::Kind;
  void cp_actor(size_t i) {
    if (!opt_.explain) return;
    auto& actors = out_.cp.back().kernels.back().actors;
    if (actors.size() <= i) actors.resize(i + 1);
    cp_ops_ = &actors[i];
  }
  void cp_op(Op kind, Cause cause, uint32_t task, double offset_ns) {
    if (cp_ops_ != nullptr) cp_ops_->push_back({kind, cause, task, offset_ns});
  }
  // step_at: the actor's time passes until t_ns after the iteration's start.
  void step_at(double t_ns, Cause cause) { cp_op(Op::kStep, cause, ProactGraph::kNoTask, t_ns); }
  // step_after: ... until `task`'s end plus offset_ns.
  void step_after(uint32_t task, Cause cause, double offset_ns = 0) {
    cp_op(Op::kStep, cause, task, offset_ns);
  }
  // finish: the actor waits for `transfer` (or each of `transfers`, in order).
  void finish(uint32_t transfer) { cp_op(Op::kFinish, Cause::kCompute, transfer, 0); }
  template <typename C>
  void finish(const C& transfers) {
    for (uint32_t t : transfers) finish(t);
  }

  // ---- network: the actors' platform (SimgridPlatform::build) as links and routes

  uint32_t link(const std::string& name, double bw, double latency_ns) {
    auto [it, fresh] = links_.try_emplace(name, 0);
    if (fresh) it->second = g().add_link(name, bw, latency_ns);
    return it->second;
  }
  // gpu_path: the directed links from GPU i to GPU j.
  std::vector<uint32_t> gpu_path(uint32_t i, uint32_t j) {
    const double bw = platform_link_bw_bytes_per_s(m_.gpu_link, packet_wire_);
    auto port = [&](uint32_t gpu, const char* kind, const char* dir) {
      return link("gpu" + std::to_string(gpu) + kind + dir, bw, m_.gpu_port_latency_ns());
    };
    switch (m_.topology) {
      case Topology::kDirect: {
        const uint32_t a = std::min(i, j), b = std::max(i, j);
        return {
            link("nvl" + std::to_string(a) + "_" + std::to_string(b) + (i < j ? ".up" : ".down"),
                 bw, m_.gpu_link.latency_ns)};
      }
      case Topology::kSwitch: return {port(i, "_sw", ".up"), port(j, "_sw", ".down")};
      case Topology::kPcieTree: {
        const uint32_t si = i / m_.gpus_per_pcie_switch, sj = j / m_.gpus_per_pcie_switch;
        if (si == sj) return {port(i, "_pcie", ".up"), port(j, "_pcie", ".down")};
        const double ubw = platform_link_bw_bytes_per_s(m_.uplink, packet_wire_);
        const double ulat = m_.uplink_latency_ns();
        return {port(i, "_pcie", ".up"),
                link("pcie_sw" + std::to_string(si) + "_root.up", ubw, ulat),
                link("pcie_sw" + std::to_string(sj) + "_root.down", ubw, ulat),
                port(j, "_pcie", ".down")};
      }
    }
    return {};
  }
  // route: from GPU src's `lane` (the GPU itself without lanes) to GPU dst.
  uint32_t route(uint32_t src, uint32_t lane, uint32_t dst) {
    const uint32_t ep =
        lanes_.lanes == 0 ? src : m_.num_gpus + src * lanes_.lanes + lane % lanes_.lanes;
    auto [it, fresh] = routes_.try_emplace({ep, dst}, 0);
    if (fresh) {
      std::vector<uint32_t> path;
      if (lanes_.lanes > 0) {
        path.push_back(link(
            "gpu" + std::to_string(src) + ".lane" + std::to_string(lane % lanes_.lanes) + "_cap",
            lanes_.cap_bytes_per_s, 0));
      }
      for (uint32_t l : gpu_path(src, dst)) path.push_back(l);
      it->second = g().add_route(ep, dst, std::move(path));
    }
    return it->second;
  }

  // flight: a transfer of `cost` wire bytes (per copy) carrying `payload`
  // bytes from GPU src's `lane` to `to`, started after `after`.
  uint32_t flight(uint32_t after, uint32_t src, uint32_t lane, Target to, uint32_t chunk,
                  double payload, const WireCost& cost) {
    const double wire = cost.wire_bytes * to.copies;
    const uint32_t t =
        g().transfer(route(src, lane, to.dst), static_cast<double>(std::llround(wire)));
    g().after(t, after);
    out_.payload_bytes += payload * to.copies;
    out_.wire_bytes += wire;
    out_.egress_bytes[src] += wire;
    out_.transfers.push_back({t, iteration_, src, to.dst, chunk, to.copies, payload * to.copies,
                              static_cast<double>(std::llround(wire))});
    ends_.push_back(t);
    cp_op(Op::kStart, Cause::kCompute, t, 0);
    return t;
  }

  void kernel(const KernelInput& k) {
    uint32_t last = kNone;
    cp_ops_ = nullptr;
    if (opt_.explain) out_.cp.back().kernels.push_back({k.gpu, k.begin_ns, {}, {}});
    cp_actor(0);
    switch (opt_.mechanism) {
      case Mechanism::kMemcpy: last = memcpy(k); break;
      case Mechanism::kInline: last = inline_stores(k); break;
      case Mechanism::kPolling: last = polling(k); break;
      case Mechanism::kCdp: last = cdp(k); break;
      case Mechanism::kHardware: last = hardware(k); break;
      case Mechanism::kInfinite:
        step_at(k.begin_ns + k.duration_ns, Cause::kCompute);
        last = pin(k.gpu, k.begin_ns + k.duration_ns);
        out_.payload_bytes += proact::total_payload(k) * proact::dests(m_, k).size();
        break;
    }
    ends_.push_back(last);
    out_.kernels.push_back({start_, k.begin_ns, last, k.gpu});
  }

  // memcpy (run_memcpy): copies issued memcpy_issue_ns apart after the
  // kernel; with streams, a stream's copy starts memcpy_stream_gap_ns after
  // its previous one ends, and the issuing host thread waits for that.
  uint32_t memcpy(const KernelInput& k) {
    const MechanismCosts& c = m_.costs;
    const double ke = k.begin_ns + k.duration_ns;
    const uint32_t end = pin(k.gpu, ke);
    step_at(ke, Cause::kCompute);
    const double payload = proact::total_payload(k);
    const WireCost cost = m_.gpu_link.bulk(payload);
    std::vector<uint32_t> ds = proact::dests(m_, k);
    if (c.memcpy_streams == 0) {
      double issue = ke;
      std::vector<uint32_t> flights;
      for (uint32_t d : ds) {
        issue += c.memcpy_issue_ns;
        step_at(issue, Cause::kLaunch);
        flights.push_back(flight(pin(k.gpu, issue), k.gpu, 0, Target{d, 1}, 0, payload, cost));
      }
      finish(flights);
      return end;
    }
    std::sort(ds.begin(), ds.end());
    const size_t streams = std::min<size_t>(static_cast<size_t>(c.memcpy_streams), ds.size());
    std::vector<uint32_t> last(streams, kNone);
    uint32_t started = end;  // the host thread's position
    double issue = ke;
    for (size_t i = 0; i < ds.size(); ++i) {
      issue += c.memcpy_issue_ns;
      uint32_t& prev = last[i % streams];
      uint32_t ready = started;
      if (prev != kNone) {
        finish(prev);
        ready = delay_after(k.gpu, join(k.gpu, {started, prev}), c.memcpy_stream_gap_ns);
      }
      started = join(k.gpu, {ready, pin(k.gpu, issue)});
      step_after(started, Cause::kLaunch);
      const uint32_t lane =
          lanes_.lanes > 0 ? static_cast<uint32_t>(i % streams) % lanes_.lanes : 0;
      prev = flight(started, k.gpu, lane, Target{ds[i], 1}, 0, payload, cost);
    }
    for (uint32_t f : last) {
      if (f != kNone) finish(f);
    }
    return end;
  }

  // inline (run_inline): the kernel's timeline as a chain of delays from
  // one traced time to the next; at each chunk's ready time the chain waits
  // until at most a window of written chunks is undelivered, so a stall
  // shifts the rest of the kernel.
  uint32_t inline_stores(const KernelInput& k) {
    const proact::InlinePlan plan = proact::inline_plan(m_, aggregate_, k);
    uint32_t cur = pin(k.gpu, k.begin_ns);  // the kernel at trace time `at` (plus its stalls)
    double at = 0;
    auto advance = [&](double to_ns) {
      if (to_ns > at) {
        cur = delay_after(k.gpu, cur, to_ns - at);
        at = to_ns;
      }
    };
    std::vector<std::vector<uint32_t>> writing(k.chunks.size());
    std::deque<uint32_t> written;
    auto start = [&](uint32_t j) {
      const ChunkInput& cj = k.chunks[j];
      advance(cj.first_write_ns);
      step_after(cur, Cause::kCompute);
      for (Target d : plan.targets) {
        writing[j].push_back(
            flight(cur, k.gpu, 0, d, j, static_cast<double>(cj.size_bytes), plan.stores[j]));
      }
    };
    auto ready = [&](uint32_t i) {
      advance(k.chunks[i].ready_ns);
      step_after(cur, Cause::kCompute);
      for (uint32_t f : writing[i]) written.push_back(f);
      if (written.size() > plan.window) {
        const uint32_t waited = g().join(k.gpu);
        g().after(waited, cur);
        while (written.size() > plan.window) {
          g().after(waited, written.front());
          finish(written.front());
          written.pop_front();
        }
        cur = waited;
      }
    };
    plan.walk(k, start, ready);
    advance(k.duration_ns);
    step_after(cur, Cause::kCompute);
    finish(written);
    return cur;
  }

  // polling (run_polling): each group of workers visits its items in
  // program order; an item starts when the group is free and its chunk is
  // seen, keeps the group busy for its copy time, and the group moves on
  // once the previous item's transfers are delivered.
  uint32_t polling(const KernelInput& k) {
    const MechanismCosts& c = m_.costs;
    const proact::PollingPlan plan = proact::polling_plan(m_, k);
    const std::vector<Target> ds = proact::targets(m_, aggregate_, k);
    const double copies = static_cast<double>(proact::dests(m_, k).size());
    for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
      const hw_model::AgentGroup& group = plan.groups[gi];
      cp_actor(1 + gi);  // the group's worker actor
      uint32_t cur = start_;
      std::vector<uint32_t> in_flight;
      for (const hw_model::AgentItem& item : group.items) {
        const uint32_t i = plan.by_index[item.chunk];
        const ChunkInput& ch = k.chunks[i];
        const double seen = k.begin_ns + proact::polling_seen_ns(c, ch, plan.dilation);
        step_at(k.begin_ns + ch.ready_ns * plan.dilation, Cause::kCompute);
        step_at(seen, Cause::kTracking);
        const uint32_t go = join(k.gpu, {cur, pin(k.gpu, seen)});
        const double payload = proact::polling_item_payload(ch, group, item, plan.slices);
        const WireCost cost = proact::agent_copy(m_, payload);
        std::vector<uint32_t> fs;
        for (Target d : ds) fs.push_back(flight(go, k.gpu, 0, d, i, payload, cost));
        uint32_t busy = go;
        if (plan.worker.bounds()) {
          busy = delay_after(k.gpu, go, proact::polling_item_busy_ns(plan, ch, item, copies));
          step_after(busy, Cause::kAgentCopy);
        }
        cur = g().join(k.gpu);
        g().after(cur, busy);
        wait_all(cur, in_flight);
        finish(in_flight);
        in_flight = std::move(fs);
      }
      finish(in_flight);
      ends_.push_back(cur);
    }
    cp_actor(0);
    step_at(k.begin_ns + k.duration_ns * plan.dilation, Cause::kCompute);
    return pin(k.gpu, k.begin_ns + k.duration_ns * plan.dilation);
  }

  // cdp (run_cdp): each chunk's child starts at its launch time (static),
  // on lane i mod lanes, once a resident-grid slot is free: with every slot
  // taken it waits for the oldest running child's transfer (the actors wait
  // for whichever ends first; children of equal chunks on one link end in
  // launch order).
  uint32_t cdp(const KernelInput& k) {
    const std::vector<Target> ds = proact::targets(m_, aggregate_, k);
    const std::vector<double> starts = proact::cdp_child_starts(m_.costs, k, k.begin_ns);
    const auto resident = static_cast<size_t>(m_.gpu.max_resident_grids);
    std::deque<uint32_t> running;
    uint32_t prev = kNone;  // the previous child's start: the parent launches in order
    for (uint32_t i = 0; i < k.chunks.size(); ++i) {
      const double payload = static_cast<double>(k.chunks[i].size_bytes);
      const WireCost cost = proact::agent_copy(m_, payload);
      const uint32_t lane = lanes_.lanes > 0 ? i % lanes_.lanes : 0;
      step_at(k.begin_ns + k.chunks[i].ready_ns, Cause::kCompute);
      const uint32_t go = join(k.gpu, {prev, pin(k.gpu, starts[i])});
      while (!running.empty() && running.size() + ds.size() > resident * ds.size()) {
        g().after(go, running.front());
        finish(running.front());
        running.pop_front();
      }
      step_at(starts[i], Cause::kLaunch);
      for (Target d : ds) running.push_back(flight(go, k.gpu, lane, d, i, payload, cost));
      prev = go;
    }
    step_at(k.begin_ns + k.duration_ns, Cause::kCompute);
    finish(running);
    return pin(k.gpu, k.begin_ns + k.duration_ns);
  }

  // explain_triggers: each chunk computes from the kernel's begin until
  // ready, then the counter unit until its trigger (explain).
  void explain_triggers(const KernelInput& k, const std::vector<proact::Trigger>& triggers) {
    if (!opt_.explain) return;
    for (const proact::Trigger& t : triggers) {
      out_.cp.back().kernels.back().triggers.emplace_back(
          std::min(k.begin_ns + k.chunks[t.chunk].ready_ns, t.time_ns), t.time_ns);
    }
  }

  // hardware (run_hardware): counter-unit triggers (hw_model::CounterUnit)
  // taken by DMA channels; a channel initiates each descriptor
  // (DmaAgent::descriptor_start_ns), emits its packets at the channel's rate
  // and waits when more than a window of transfers is undelivered. Which
  // channel takes a trigger is decided here: the one free first by the
  // channels' static costs (the actors decide it at run time; they differ
  // only when a window wait changes that order).
  uint32_t hardware(const KernelInput& k) {
    const MechanismCosts& c = m_.costs;
    const hw_model::DmaAgent agent = *hw_model::DmaAgent::create(c.dma_agent);  // validated
    double stall_ns = 0;
    const std::vector<proact::Trigger> triggers =
        proact::counter_triggers(c, k, k.begin_ns, &stall_ns);
    const bool fan_out = agent.descriptors(2) == 1;
    const std::vector<Target> ds =
        fan_out ? proact::targets(m_, aggregate_, k) : proact::singles(proact::dests(m_, k));
    const double packet = proact::dma_packet_payload(m_);
    const double link_bw = m_.gpu_link.bw_bytes_per_s;
    const double emit_bw =
        lanes_.cap_bytes_per_s > 0 ? std::min(lanes_.cap_bytes_per_s, link_bw) : link_bw;
    const size_t window =
        proact::window_chunks(m_, k,
                              m_.gpu_link.packets(proact::max_chunk_bytes(k), packet).wire_bytes) *
        ds.size();
    const auto channels = static_cast<size_t>(c.dma_agent.channels);
    std::vector<double> free_ns(channels, 0);
    std::vector<uint32_t> cur(channels, start_);
    std::vector<std::deque<uint32_t>> flights(channels);
    explain_triggers(k, triggers);
    for (size_t ti = 0; ti < triggers.size(); ++ti) {
      const proact::Trigger t = triggers[ti];
      // The first `channels` triggers go one to each channel (all free at
      // the start, in order); later ones to the channel free first.
      const size_t ch = ti < channels
                            ? ti
                            : static_cast<size_t>(std::min_element(free_ns.begin(), free_ns.end()) -
                                                  free_ns.begin());
      const ChunkInput& chunk = k.chunks[t.chunk];
      const double payload = static_cast<double>(chunk.size_bytes);
      const WireCost cost = m_.gpu_link.packets(payload, packet);
      const size_t descriptors = fan_out ? 1 : ds.size();
      cp_actor(1 + ch);  // the channel's actor
      cp_op(Op::kTrigger, Cause::kCounterUnit, static_cast<uint32_t>(ti), 0);
      uint32_t at = join(k.gpu, {cur[ch], pin(k.gpu, t.time_ns)});
      double at_ns = std::max(free_ns[ch], t.time_ns);
      for (size_t di = 0; di < descriptors; ++di) {
        const uint32_t emit = delay_after(k.gpu, at, agent.descriptor_start_ns());
        step_after(emit, Cause::kDescriptor);
        const size_t d_end = fan_out ? ds.size() : di + 1;
        double copies = 0;
        for (size_t d = fan_out ? 0 : di; d < d_end; ++d) {
          flights[ch].push_back(
              flight(emit, k.gpu, static_cast<uint32_t>(ch), ds[d], t.chunk, payload, cost));
          copies += ds[d].copies;
        }
        const double emit_ns = cost.wire_bytes * copies / emit_bw * kNsPerS;
        at = delay_after(k.gpu, emit, emit_ns);
        at_ns += agent.descriptor_start_ns() + emit_ns;
        // At link rate: payload then headers; the rest is the window cap.
        step_after(emit, Cause::kLinkSerialization, payload * copies / link_bw * kNsPerS);
        step_after(emit, Cause::kPacketOverhead, cost.wire_bytes * copies / link_bw * kNsPerS);
        step_after(at, Cause::kWindowStall);
      }
      if (flights[ch].size() > window) {
        const uint32_t waited = join(k.gpu, {at});
        while (flights[ch].size() > window) {
          g().after(waited, flights[ch].front());
          finish(flights[ch].front());
          flights[ch].pop_front();
        }
        at = waited;
      }
      cur[ch] = at;
      free_ns[ch] = at_ns;
    }
    for (size_t ch = 0; ch < channels; ++ch) {
      cp_actor(1 + ch);
      finish(flights[ch]);
    }
    for (uint32_t e : cur) ends_.push_back(e);
    cp_actor(0);
    step_at(k.begin_ns + k.duration_ns, Cause::kCompute);
    step_at(k.begin_ns + k.duration_ns + stall_ns, Cause::kCounterUnit);
    return pin(k.gpu, k.begin_ns + k.duration_ns + stall_ns);
  }

  const ReplayInput& in_;
  const Machine& m_;
  const ReplayOptions opt_;
  const SourceLanes lanes_;
  const double packet_wire_;
  const bool aggregate_;
  ProactGraph out_;
  uint32_t host_ = 0;
  uint32_t iteration_ = 0;
  uint32_t start_ = 0;          ///< the current iteration's start.
  std::vector<uint32_t> ends_;  ///< tasks the current iteration's barrier waits for.
  std::vector<std::pair<double, uint32_t>> pins_;     ///< the current iteration's (time, task).
  std::vector<ProactGraph::CpOp>* cp_ops_ = nullptr;  ///< the actor being recorded (explain)
  std::map<std::string, uint32_t> links_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> routes_;
};

}  // namespace

Result<ProactGraph> build_proact_graph(const ReplayInput& input, const Machine& machine,
                                       const ReplayOptions& options) {
  XF_RETURN_IF_ERROR(check_replayable(input, machine));
  ProactGraph g = Builder(input, machine, options).build();
  XF_RETURN_IF_ERROR(g.graph.validate());
  return g;
}

ReplayResult proact_graph_result(const ProactGraph& g, const Machine& m, const TaskTimes& t,
                                 bool record_timeline) {
  ReplayResult r;
  r.mechanism = g.mechanism;
  r.end_to_end_ns = g.iteration_end.empty() ? 0 : t.end_ns[g.iteration_end.back()];
  r.compute_ns = g.compute_ns;
  r.payload_bytes = g.payload_bytes;
  r.wire_bytes = g.wire_bytes;
  r.activities = g.graph.tasks().size();
  std::vector<std::vector<std::pair<double, double>>> busy(g.iteration_end.size());
  for (const ProactGraph::Transfer& x : g.transfers) {
    busy[x.iteration].emplace_back(t.start_ns[x.task], t.end_ns[x.task]);
    if (!record_timeline) continue;
    const std::string to =
        x.copies > 1 ? std::to_string(x.copies) + " peers" : "gpu" + std::to_string(x.dst);
    r.timeline.push_back(Span{"chunk " + std::to_string(x.chunk) + " -> " + to, "transfer", x.src,
                              TimelineTrack::kLink, x.dst, t.start_ns[x.task],
                              t.end_ns[x.task] - t.start_ns[x.task]});
  }
  for (auto& iv : busy) r.transfer_busy_ns += proact::union_length(iv);
  if (record_timeline) {
    for (const ProactGraph::Kernel& k : g.kernels) {
      const double begin = t.end_ns[k.iteration_start] + k.begin_ns;
      r.timeline.push_back(Span{"kernel", "compute", k.gpu, TimelineTrack::kStream, 0, begin,
                                t.end_ns[k.end_task] - begin});
    }
  }
  r.exposed_ns = std::max(0.0, r.end_to_end_ns - r.compute_ns);
  r.overlap = r.transfer_busy_ns > 0
                  ? std::clamp((r.transfer_busy_ns - r.exposed_ns) / r.transfer_busy_ns, 0.0, 1.0)
                  : 1.0;
  const double egress_bw =
      m.gpu_link.bw_bytes_per_s * (m.topology == Topology::kDirect ? m.num_gpus - 1 : 1);
  double senders = 0;
  for (double b : g.egress_bytes) senders += b > 0 ? 1 : 0;
  if (senders > 0 && r.end_to_end_ns > 0) {
    r.link_utilization = r.wire_bytes / (senders * egress_bw * r.end_to_end_ns / kNsPerS);
  }
  return r;
}

namespace {

// GraphExplain: ProactGraph::cp replayed into a CriticalPath with the run's
// task times: the calls the actor core makes, in its order.
class GraphExplain {
 public:
  GraphExplain(const ProactGraph& g, const Machine& m, const TaskTimes& t) : g_(g), m_(m), t_(t) {
    for (size_t i = 0; i < g.transfers.size(); ++i) transfer_of_[g.transfers[i].task] = i;
  }

  Attribution attribute(bool keep_segments) {
    for (const ProactGraph::CpIteration& it : g_.cp) iteration(it);
    return cp_.attribute(cp_.cursor(kDriver), keep_segments);
  }

 private:
  static constexpr int64_t kDriver = 0;

  void iteration(const ProactGraph::CpIteration& it) {
    const double start = t_.end_ns[it.start_task];
    cp_.step(kDriver, start, Cause::kGap, 0);
    const CriticalPath::Node it_start = cp_.cursor(kDriver);
    std::vector<CriticalPath::Node> ends;
    for (const ProactGraph::CpKernel& k : it.kernels) {
      const CriticalPath::Node begin =
          cp_.add(start + k.begin_ns, it_start, Cause::kCompute, k.gpu);
      std::vector<CriticalPath::Node> triggers;
      for (const auto& [ready, trigger] : k.triggers) {
        triggers.push_back(cp_.add(start + trigger,
                                   cp_.add(start + ready, begin, Cause::kCompute, k.gpu),
                                   Cause::kCounterUnit, k.gpu));
      }
      for (const std::vector<ProactGraph::CpOp>& ops : k.actors) {
        ends.push_back(actor(ops, k.gpu, start, begin, triggers));
      }
    }
    // The barrier joins the actors in the order they end.
    std::stable_sort(ends.begin(), ends.end(), [this](CriticalPath::Node a, CriticalPath::Node b) {
      return cp_.time_ns(a) < cp_.time_ns(b);
    });
    for (CriticalPath::Node e : ends) cp_.join(kDriver, e);
    cp_.add_iteration(start, start + it.compute_end_ns);
  }

  // actor: one actor's steps from `begin` on; returns where it ends.
  CriticalPath::Node actor(const std::vector<ProactGraph::CpOp>& ops, uint32_t gpu, double start_ns,
                           CriticalPath::Node begin,
                           const std::vector<CriticalPath::Node>& triggers) {
    using Op = ProactGraph::CpOp::Kind;
    const int64_t a = next_actor_++;
    cp_.set_cursor(a, begin);
    std::unordered_map<uint32_t, CriticalPath::Node> from;  // a started transfer's start
    for (const ProactGraph::CpOp& op : ops) {
      switch (op.kind) {
        case Op::kStep: {
          const double base = op.task == ProactGraph::kNoTask ? start_ns : t_.end_ns[op.task];
          cp_.step(a, base + op.offset_ns, op.cause, gpu);
          break;
        }
        case Op::kStart: from[op.task] = cp_.cursor(a); break;
        case Op::kFinish: {
          const ProactGraph::Transfer& x = g_.transfers[transfer_of_.at(op.task)];
          cp_.join(a, proact::explain_flight(cp_, m_, g_.mechanism, g_.lanes, from.at(op.task),
                                             t_.end_ns[op.task], x.src, x.dst, x.payload_bytes,
                                             x.wire_bytes));
          break;
        }
        case Op::kTrigger: cp_.join(a, triggers[op.task]); break;
      }
    }
    return cp_.cursor(a);
  }

  const ProactGraph& g_;
  const Machine& m_;
  const TaskTimes& t_;
  CriticalPath cp_;
  std::unordered_map<uint32_t, size_t> transfer_of_;  ///< index in g.transfers by task
  int64_t next_actor_ = kDriver + 1;
};

}  // namespace

Attribution proact_graph_attribution(const ProactGraph& g, const Machine& m, const TaskTimes& t,
                                     bool keep_segments) {
  return GraphExplain(g, m, t).attribute(keep_segments);
}

Result<ReplayResult> simulate_graph(const ReplayInput& input, const Machine& machine,
                                    const ReplayOptions& options) {
  Result<ProactGraph> g = build_proact_graph(input, machine, options);
  if (!g.ok()) return g.error();
  Result<TaskTimes> t = run_task_graph(g->graph);
  if (!t.ok()) return t.error();
  ReplayResult r = proact_graph_result(*g, machine, *t, options.record_timeline);
  if (options.explain) {
    r.attribution = proact_graph_attribution(*g, machine, *t, options.record_timeline);
  }
  r.chunks = input.num_chunks();
  return r;
}

}  // namespace xferlab::sim
