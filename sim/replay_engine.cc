// sim/replay_engine.cc — the S4U actors that replay a run: an iteration
// driver (global barriers), one producer actor per GPU and kernel carrying
// the mechanism's logic, and DMA-channel actors for hardware PROACT.
// Equations: docs/sim.md, "Mechanisms".
#include "sim/replay_engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <simgrid/s4u.hpp>
#include <tuple>
#include <unordered_map>

#include "common/phase_log.h"
#include "hw_model/software_mechanisms.h"
#include "hw_model/transfer_window.h"
#include "sim/isolated.h"
#include "sim/proact_graph.h"
#include "sim/proact_mechanism.h"
#include "sim/processor_sharing_link.h"
#include "sim/simgrid_platform.h"

namespace xferlab::sim {

namespace sg4 = simgrid::s4u;

namespace {

constexpr double kNsPerS = 1e9;

double now_ns() {
  return sg4::Engine::get_clock() * kNsPerS;
}
void sleep_until_ns(double t_ns) {
  if (t_ns > now_ns()) sg4::this_actor::sleep_until(t_ns / kNsPerS);
}

// Run: state shared by the actors of one simulation.
struct Run {
  const ReplayInput* input = nullptr;
  const Machine* machine = nullptr;
  ReplayOptions options;
  SimgridPlatform platform;
  ReplayResult result;
  std::vector<std::pair<double, double>> busy;  // transfer intervals of the current iteration
  std::vector<double> egress_bytes;             // wire bytes per source GPU
  double lane_cap_bytes_per_s = 0;              // one source lane's cap (0 = uncapped)
  uint32_t lanes = 0;                           // capped source lanes per GPU
  bool aggregate = false;                       // fan-out aggregation applies (targets())
  // Per GPU: GPUs its replay stands for (replica folding; 0 = folded into
  // an earlier GPU with the same kernels, not replayed).
  std::vector<uint32_t> weight;
  // Inline, hardware, cdp and polling at 2 GPUs: bandwidth of the link each
  // GPU's flows have to themselves (ProcessorSharingLink); 0 = SimGrid comms.
  // cdp's link has the source lanes in front (their caps).
  double isolated_link_bw = 0;

  void span(std::string name, const char* cat, uint32_t gpu, TimelineTrack track, uint32_t index,
            double start_ns, double end_ns) {
    if (!options.record_timeline || end_ns <= start_ns) return;
    result.timeline.push_back(
        Span{std::move(name), cat, gpu, track, index, start_ns, end_ns - start_ns});
  }
  // A producer whose flows are all on a link it alone adds to (isolated
  // inline and cdp) keeps its clock here between begin_own_clock and
  // end_own_clock instead of sleeping in SimGrid at every step: no other
  // actor sees its times until it ends, and it makes no SimGrid call until
  // then; at the end it sleeps once, to its clock. NaN: SimGrid's clock.
  // Also exact where SimGrid's is not: SimGrid makes a sleep shorter than
  // its time precision last that precision (1 ns).
  double own_clock_ns = std::numeric_limits<double>::quiet_NaN();
  double now() const { return std::isnan(own_clock_ns) ? now_ns() : own_clock_ns; }
  void begin_own_clock() { own_clock_ns = now_ns(); }
  void end_own_clock() {
    const double end = own_clock_ns;
    own_clock_ns = std::numeric_limits<double>::quiet_NaN();
    sleep_until(end);
  }
  void sleep_until(double t_ns) {
    if (!std::isnan(own_clock_ns)) {
      own_clock_ns = std::max(own_clock_ns, t_ns);
      return;
    }
    ++result.activities;
    if (t_ns > now_ns()) reap();
    sleep_until_ns(t_ns);
  }

  // Flights that ended and that their actor has not waited for yet, per
  // actor (filled by the completion callback, simulate()). SimGrid 3.32
  // keeps each comm in its sender's activity list until the sender waits
  // for it and removes it by a linear search of that list, so an actor
  // holding a window of ended flights (inline, DMA channels, CDP children)
  // pays the window per flight; completing them before the actor sleeps
  // keeps the list at the flights still moving. Its later wait returns at
  // once, at the same time as before (finish_flight).
  std::unordered_map<int64_t, std::vector<sg4::CommPtr>> ended;
  std::unordered_map<const void*, std::pair<int64_t, sg4::CommPtr>> moving;  // by kernel activity
  void reap() {
    auto it = ended.find(me());
    if (it == ended.end()) return;
    for (sg4::CommPtr& c : it->second) c->test();
    it->second.clear();
  }

  // Critical path (ReplayOptions::explain): each actor's chain of steps.
  std::unique_ptr<CriticalPath> cp;
  std::vector<CriticalPath::Node> ends;  // actors' last nodes in the current iteration
  static int64_t me() { return sg4::this_actor::get_pid(); }
  CriticalPath::Node cursor() const { return cp ? cp->cursor(me()) : CriticalPath::kNone; }
  void step(double t_ns, Cause cause, uint32_t gpu) {
    if (cp) cp->step(me(), t_ns, cause, gpu);
  }
  void join(CriticalPath::Node event) {
    if (cp) cp->join(me(), event);
  }
  // wait: the actor's own step until t_ns for `cause`, simulated.
  void wait(double t_ns, Cause cause, uint32_t gpu) {
    step(t_ns, cause, gpu);
    sleep_until(t_ns);
  }
  // done: the actor's chain ends here (the iteration's barrier waits on it).
  void done() {
    if (cp) ends.push_back(cursor());
    ended.erase(me());  // waited for already
  }
};

// Flight: one chunk's transfer to one destination, or to `copies`
// destinations at once (fan-out aggregation).
// A flight is a SimGrid comm, or a flow of a ProcessorSharingLink (`link`)
// where its GPU's transfers have a link of their own (isolated inline and
// DMA channels; `shared_link`: several actors add flows to it).
struct Flight {
  sg4::CommPtr comm;
  double start_ns;
  uint32_t src, dst, chunk, copies;
  double payload = 0, wire = 0;                   // bytes of all copies
  uint32_t lane = 0;                              // source lane
  CriticalPath::Node from = CriticalPath::kNone;  // the starting actor's step
  ProcessorSharingLink* link = nullptr;
  size_t link_flow = 0;  // its id on `link`
  bool shared_link = false;
  bool earliest_end = false;  // shared link: wait by earliest_end_ns, not by events

  double end_ns() const {
    return link != nullptr ? link->end_ns(link_flow) : comm->get_finish_time() * kNsPerS;
  }
};

using proact::Target;

std::vector<uint32_t> dests(const Run& run, const KernelInput& k) {
  return proact::dests(*run.machine, k);
}

std::vector<Target> targets(const Run& run, const KernelInput& k) {
  return proact::targets(*run.machine, run.aggregate, k);
}

// window_chunks: chunk transfers per destination a producer keeps in flight
// before it waits for the oldest: enough to cover the link's bandwidth-delay
// product (hw_model::TransferWindow::posted_writes over the round trip to the
// farthest peer). SM stores and DMA packets are posted writes, so a sender is
// limited by link bandwidth, not by latency; waiting per chunk would make
// small chunks latency-bound (docs/sim.md, "Windows").
size_t window_chunks(const Run& run, const KernelInput& k, double chunk_wire_bytes) {
  return proact::window_chunks(*run.machine, k, chunk_wire_bytes);
}

using proact::max_chunk_bytes;

// start_flight: a transfer of `cost` wire bytes carrying `payload` bytes
// from GPU src's source lane `lane` (capped lanes model agent/copy-engine
// throughput and DMA windows; see SourceLanes).
// `link`: the flight is a flow of that link, not a SimGrid comm.
Flight start_flight(Run& run, uint32_t src, uint32_t lane, Target to, uint32_t chunk,
                    double payload, const WireCost& cost, ProcessorSharingLink* link = nullptr) {
  const double wire = cost.wire_bytes * to.copies;
  auto bytes = static_cast<uint64_t>(std::llround(wire));
  Flight f{nullptr,   run.now(),           src,  to.dst, chunk,
           to.copies, payload * to.copies, wire, lane,   run.cursor()};
  if (link != nullptr) {
    f.link = link;
    // A link without lanes (one queue: inline, polling, hardware's
    // channels whose caps never bind) takes every flow as one lane's.
    f.link_flow = link->add(f.start_ns, static_cast<double>(bytes), link->lanes() > 1 ? lane : 0);
  } else {
    // On a mesh a copy to every peer goes through the GPU's fan-out sink.
    f.comm = to.copies > 1 && run.platform.has_fan_out_sinks()
                 ? run.platform.send_fan_out(src, lane, bytes)
                 : run.platform.send(src, lane, to.dst, bytes);
    run.moving.emplace(f.comm->get_impl(), std::make_pair(Run::me(), f.comm));
    ++run.result.activities;
  }
  const double replicas = run.weight[src];  // the same flight from each folded GPU
  run.result.payload_bytes += payload * to.copies * replicas;
  run.result.wire_bytes += wire * replicas;
  run.egress_bytes[src] += wire;
  return f;
}

// explain_flight: the flight's part of the critical path, joined into the
// waiting actor's chain (the wait ends at the flight's end or later).
void explain_flight(Run& run, const Flight& f) {
  if (!run.cp) return;
  run.join(proact::explain_flight(*run.cp, *run.machine, run.options.mechanism,
                                  SourceLanes{run.lanes, run.lane_cap_bytes_per_s}, f.from,
                                  f.end_ns(), f.src, f.dst, f.payload, f.wire));
}

void finish_flight(Run& run, Flight& f) {
  if (f.link != nullptr) {
    // Another actor may still add flows, which only delay ends: step to the
    // link's next event until this flow has ended.
    // Polling's groups sleep until the flow's end as the link stands
    // (flows added meanwhile only delay it), hardware's channels to every
    // event of the link; where rounding leaves the flow a hair short of the
    // end it was to reach, the link steps its next event itself.
    double last = -1;
    while (f.shared_link && !f.link->ended(f.link_flow)) {
      double t = f.earliest_end ? f.link->earliest_end_ns(f.link_flow) : f.link->next_event_ns();
      if (t <= last) t = f.link->next_event_ns();
      last = t;
      run.sleep_until(t);
      f.link->advance(t);
    }
    run.sleep_until(f.end_ns());
  } else {
    f.comm->wait();
  }
  explain_flight(run, f);
  double end = run.now();
  run.busy.emplace_back(f.start_ns, end);
  if (!run.options.record_timeline) return;
  const std::string to =
      f.copies > 1 ? std::to_string(f.copies) + " peers" : "gpu" + std::to_string(f.dst);
  run.span("chunk " + std::to_string(f.chunk) + " -> " + to, "transfer", f.src,
           TimelineTrack::kLink, f.dst, f.start_ns, end);
}

// finish_first_child: waits until every copy of one of `children` (each a
// CDP child's copies in flight) has ended, copy by copy in the order they
// end, and removes that child: a child's grid ends with its last copy.
// `link`: the children's copies are flows of that link (isolated CDP
// children), which only this producer adds to.
void finish_first_child(Run& run, std::deque<std::deque<Flight>>& children,
                        ProcessorSharingLink* link) {
  // Activity::wait_any, not Comm::wait_any: the same call underneath, without
  // Comm's copy of the list through a dynamic_pointer_cast per comm (a
  // dynamic_cast across libsimgrid, strcmp of type names: 15% of a 2-GPU
  // cdp replay, resident children x launches). Comm's version adds only a
  // handler for network failures, which these platforms never inject.
  std::vector<sg4::ActivityPtr> comms;
  std::vector<std::pair<size_t, size_t>> where;  // child, copy of each comm
  // first_copy: the first copy, in the children's order, that `pred` holds
  // for (child, copy), or children.size() when none does.
  auto first_copy = [&children](auto pred) -> std::pair<size_t, size_t> {
    for (size_t c = 0; c < children.size(); ++c) {
      for (size_t j = 0; j < children[c].size(); ++j) {
        if (pred(children[c][j])) return {c, j};
      }
    }
    return {children.size(), 0};
  };
  while (true) {
    size_t c = 0, j = 0;
    if (link != nullptr) {
      // As wait_any: the first copy that has ended by now, else the next
      // one to end (every flow not ended yet is a running child's copy).
      link->advance(run.now());
      std::tie(c, j) = first_copy([link](const Flight& f) { return link->ended(f.link_flow); });
      if (c == children.size()) {
        const size_t id = link->next_end();
        std::tie(c, j) = first_copy([id](const Flight& f) { return f.link_flow == id; });
      }
    } else {
      comms.clear();
      where.clear();
      for (size_t ci = 0; ci < children.size(); ++ci) {
        for (size_t ji = 0; ji < children[ci].size(); ++ji) {
          comms.push_back(children[ci][ji].comm);
          where.emplace_back(ci, ji);
        }
      }
      std::tie(c, j) = where[static_cast<size_t>(sg4::Activity::wait_any(comms))];
    }
    std::deque<Flight>& copies = children[c];
    finish_flight(run, copies[j]);
    copies.erase(copies.begin() + static_cast<std::ptrdiff_t>(j));
    if (copies.empty()) {
      children.erase(children.begin() + static_cast<std::ptrdiff_t>(c));
      return;
    }
  }
}

void finish_all(Run& run, std::deque<Flight>& flights) {
  for (Flight& f : flights) finish_flight(run, f);
  flights.clear();
}

using proact::agent_copy;
using proact::dma_packet_payload;
using proact::singles;
using proact::total_payload;

// ---- Mechanisms: one function per producer actor ---------------------------

// memcpy: after the kernel the host issues one copy per destination,
// memcpy_issue_ns apart. With memcpy_streams = s > 0 the copies go round
// robin onto s streams in ascending peer order, as the program issues them
// (proact: one stream per GPU); a stream's copies run one after another, the
// next memcpy_stream_gap_ns after the last ends, each on one copy engine
// (lane). GPUs that issue in the same order meet at the same destination (on
// a switch its port is shared). memcpy_streams = 0: every copy concurrent on
// its own stream, in rotated order, the engines' rate shared.
void run_memcpy(Run& run, const KernelInput& k, double kb) {
  const MechanismCosts& c = run.machine->costs;
  const double ke = kb + k.duration_ns;
  run.wait(ke, Cause::kCompute, k.gpu);
  run.span("kernel", "compute", k.gpu, TimelineTrack::kStream, 0, kb, ke);
  const double payload = total_payload(k);
  const WireCost cost = run.machine->gpu_link.bulk(payload);
  std::deque<Flight> flights;
  double issue = ke;
  std::vector<uint32_t> ds = dests(run, k);
  if (c.memcpy_streams == 0) {
    for (uint32_t d : ds) {
      issue += c.memcpy_issue_ns;
      run.wait(issue, Cause::kLaunch, k.gpu);
      flights.push_back(start_flight(run, k.gpu, 0, Target{d, 1}, 0, payload, cost));
    }
    finish_all(run, flights);
    return;
  }
  std::sort(ds.begin(), ds.end());
  const size_t streams = std::min<size_t>(static_cast<size_t>(c.memcpy_streams), ds.size());
  std::vector<std::optional<Flight>> last(streams);
  for (size_t i = 0; i < ds.size(); ++i) {
    issue += c.memcpy_issue_ns;
    std::optional<Flight>& prev = last[i % streams];
    double start = issue;
    if (prev) {
      finish_flight(run, *prev);
      start = std::max(start, now_ns() + c.memcpy_stream_gap_ns);
      prev.reset();
    }
    run.wait(start, Cause::kLaunch, k.gpu);
    const uint32_t lane = run.lanes > 0 ? static_cast<uint32_t>(i % streams) % run.lanes : 0;
    prev = start_flight(run, k.gpu, lane, Target{ds[i], 1}, 0, payload, cost);
  }
  for (std::optional<Flight>& f : last) {
    if (f) finish_flight(run, *f);
  }
}

// inline: each chunk's stores go to every peer as its writers issue them,
// from its first write on (one flow per chunk and peer, started then, so
// the link is shared by every chunk being written). The kernel stalls when
// the link cannot absorb the stores: at a chunk's ready time at most a window
// of written chunks may still be undelivered; the wait delays the rest of
// the kernel (later first writes and ready times shift by the stall).
void run_inline(Run& run, const KernelInput& k, double kb) {
  const proact::InlinePlan plan = proact::inline_plan(*run.machine, run.aggregate, k);
  // Where the GPU's flows have a link of their own, it is computed here.
  std::optional<ProcessorSharingLink> link;
  if (run.isolated_link_bw > 0 && !plan.targets.empty()) {
    link.emplace(run.isolated_link_bw,
                 run.machine->path_latency_ns(k.gpu, plan.targets.front().dst));
    run.begin_own_clock();  // the link is its only shared state
  }
  std::vector<std::vector<Flight>> writing(k.chunks.size());  // started, not yet ready
  std::deque<Flight> written;                                 // ready, maybe undelivered
  double stall_ns = 0;
  auto start = [&](uint32_t j) {
    const ChunkInput& cj = k.chunks[j];
    run.wait(kb + stall_ns + cj.first_write_ns, Cause::kCompute, k.gpu);
    for (Target d : plan.targets) {
      writing[j].push_back(start_flight(run, k.gpu, 0, d, j, static_cast<double>(cj.size_bytes),
                                        plan.stores[j], link ? &*link : nullptr));
    }
  };
  auto ready = [&](uint32_t i) {
    run.wait(kb + stall_ns + k.chunks[i].ready_ns, Cause::kCompute, k.gpu);
    for (Flight& f : writing[i]) written.push_back(f);
    writing[i].clear();
    const double wait_from = run.now();
    while (written.size() > plan.window) {
      finish_flight(run, written.front());
      written.pop_front();
    }
    if (run.now() > wait_from) {
      run.span("stall", "stall", k.gpu, TimelineTrack::kStream, 0, wait_from, run.now());
      stall_ns += run.now() - wait_from;
    }
  };
  plan.walk(k, start, ready);
  const double ke = kb + k.duration_ns + stall_ns;
  run.wait(ke, Cause::kCompute, k.gpu);
  run.span("kernel", "compute", k.gpu, TimelineTrack::kStream, 0, kb, ke);
  finish_all(run, written);
  if (link) run.end_own_clock();
}

// polling: a persistent agent takes polling_sm_share of the SMs (the kernel
// dilates by 1/(1-share)). Its workers (warps; the TMA variant's CTAs) take
// slices statically (hw_model::static_agent_schedule, as proact's agents
// do): each group of workers with the same sequence visits its chunks in
// program order, waits until the chunk is ready and seen at the next poll,
// and copies its slices to every destination at the group's rate (its
// workers x one worker's rate: Little's law over the bytes each keeps in
// flight). A group keeps one copy in flight while it works on the next, so a
// link that cannot take its stores holds it back. A chunk that is ready late
// therefore delays the later chunks of its group only.
void run_polling(Run& run, const KernelInput& k, double kb) {
  const std::vector<Target> ds = targets(run, k);
  const double copies = static_cast<double>(dests(run, k).size());
  auto plan = std::make_shared<proact::PollingPlan>(proact::polling_plan(*run.machine, k));
  const double dilation = plan->dilation;
  const CriticalPath::Node begin = run.cursor();
  // Where the GPU's flows have a link of their own (2 GPUs), the groups
  // share it (as hardware's DMA channels do); it outlives them (joined below).
  std::optional<ProcessorSharingLink> isolated;
  if (run.isolated_link_bw > 0 && !ds.empty()) {
    isolated.emplace(run.isolated_link_bw, run.machine->path_latency_ns(k.gpu, ds.front().dst));
  }
  ProcessorSharingLink* link = isolated ? &*isolated : nullptr;
  std::vector<sg4::ActorPtr> workers;
  for (size_t g = 0; g < plan->groups.size(); ++g) {
    workers.push_back(sg4::Actor::create(
        "agent" + std::to_string(k.gpu) + "." + std::to_string(g), run.platform.source(k.gpu, 0),
        [&run, &k, kb, ds, copies, dilation, plan, g, begin, link] {
          if (run.cp) run.cp->set_cursor(Run::me(), begin);
          const hw_model::AgentGroup& group = plan->groups[g];
          std::deque<Flight> flights;
          for (const hw_model::AgentItem& item : group.items) {
            const uint32_t i = plan->by_index[item.chunk];
            const ChunkInput& ch = k.chunks[i];
            const double seen = proact::polling_seen_ns(run.machine->costs, ch, dilation);
            run.step(kb + ch.ready_ns * dilation, Cause::kCompute, k.gpu);
            run.wait(kb + seen, Cause::kTracking, k.gpu);
            const double start = now_ns();
            const double payload = proact::polling_item_payload(ch, group, item, plan->slices);
            const WireCost cost = agent_copy(*run.machine, payload);
            for (Target d : ds) {
              flights.push_back(start_flight(run, k.gpu, 0, d, i, payload, cost, link));
              flights.back().shared_link = link != nullptr;
              flights.back().earliest_end = link != nullptr;
            }
            if (plan->worker.bounds()) {
              // The group's workers are busy issuing this item's loads and stores.
              run.wait(start + proact::polling_item_busy_ns(*plan, ch, item, copies),
                       Cause::kAgentCopy, k.gpu);
              run.span("copy " + std::to_string(i), "agent", k.gpu, TimelineTrack::kAgent,
                       static_cast<uint32_t>(g), start, now_ns());
            }
            while (flights.size() > ds.size()) {
              finish_flight(run, flights.front());
              flights.pop_front();
            }
          }
          finish_all(run, flights);
          run.done();
        }));
  }
  const double ke = kb + k.duration_ns * dilation;
  run.wait(ke, Cause::kCompute, k.gpu);
  run.span("kernel", "compute", k.gpu, TimelineTrack::kStream, 0, kb, ke);
  for (auto& a : workers) a->join();
}

// cdp: the last writer of each chunk launches a child kernel that copies it
// to every destination. At most gpu.max_resident_grids children run at once
// (the GPU's limit on resident grids); a child launched beyond it starts when
// the first running one ends, i.e. when the last of its copies ends. Without
// it every child launched stays in flight until the kernel ends, and the
// max-min solver's work per event grows with all of them (docs/sim.md,
// "Resident children").
void run_cdp(Run& run, const KernelInput& k, double kb) {
  const MechanismCosts& c = run.machine->costs;
  const std::vector<Target> ds = targets(run, k);
  const auto resident = static_cast<size_t>(run.machine->gpu.max_resident_grids);
  // Where the GPU's flows have a link of their own, it is computed here,
  // with the lanes' caps in front.
  std::optional<ProcessorSharingLink> isolated;
  if (run.isolated_link_bw > 0 && !ds.empty()) {
    isolated.emplace(
        run.isolated_link_bw, run.machine->path_latency_ns(k.gpu, ds.front().dst),
        std::max(run.lanes, 1u),
        run.lanes > 0 ? run.lane_cap_bytes_per_s : std::numeric_limits<double>::infinity());
  }
  ProcessorSharingLink* link = isolated ? &*isolated : nullptr;
  if (link != nullptr) run.begin_own_clock();  // the link is its only shared state
  std::deque<std::deque<Flight>> children;     // running, each with its copies in flight
  const std::vector<double> starts = proact::cdp_child_starts(c, k, kb);
  for (uint32_t i = 0; i < k.chunks.size(); ++i) {
    const ChunkInput& ch = k.chunks[i];
    run.step(kb + ch.ready_ns, Cause::kCompute, k.gpu);
    // Every grid slot taken: the child starts when the first running one
    // ends (launches keep their own pace; only the child's start moves).
    while (!children.empty() && children.size() >= resident) {
      finish_first_child(run, children, link);
    }
    run.wait(starts[i], Cause::kLaunch, k.gpu);
    const double payload = static_cast<double>(ch.size_bytes);
    const WireCost cost = agent_copy(*run.machine, payload);
    // Child i runs on lane i mod lanes (concurrent children, each capped).
    const uint32_t lane = run.lanes > 0 ? i % run.lanes : 0;
    if (ds.empty()) continue;  // no peer to copy to
    children.emplace_back();
    for (Target d : ds) {
      children.back().push_back(start_flight(run, k.gpu, lane, d, i, payload, cost, link));
    }
  }
  const double ke = kb + k.duration_ns;
  run.wait(ke, Cause::kCompute, k.gpu);
  run.span("kernel", "compute", k.gpu, TimelineTrack::kStream, 0, kb, ke);
  for (std::deque<Flight>& copies : children) finish_all(run, copies);
  if (link != nullptr) run.end_own_clock();
}

using proact::counter_triggers;
using proact::Trigger;

// A DMA channel of the hardware mechanism: its index (timeline "agent N"),
// packet payload, the rates it emits at (link; link or lane cap), and the
// GPU's isolated port its flows share with the other channels (or null).
struct HwChannel {
  uint32_t index = 0;
  double packet_payload_bytes = 0;
  double link_bw_bytes_per_s = 0;
  double emit_bw_bytes_per_s = 0;
  ProcessorSharingLink* link = nullptr;
};

// send_descriptors: `channel` sends chunk `chunk` of `k`: one descriptor
// writing every destination (fan-out), else one descriptor per destination,
// one after another. Its copies join `flights`.
void send_descriptors(Run& run, const KernelInput& k, const hw_model::DmaAgent& agent,
                      const HwChannel& channel, bool fan_out, const std::vector<Target>& ds,
                      uint32_t chunk, std::deque<Flight>& flights) {
  const double payload = static_cast<double>(k.chunks[chunk].size_bytes);
  const WireCost cost = run.machine->gpu_link.packets(payload, channel.packet_payload_bytes);
  const double link_bw = channel.link_bw_bytes_per_s;
  const size_t descriptors = fan_out ? 1 : ds.size();
  for (size_t di = 0; di < descriptors; ++di) {
    const double issue = now_ns();
    run.wait(issue + agent.descriptor_start_ns(), Cause::kDescriptor, k.gpu);
    run.span("descriptor " + std::to_string(chunk), "agent", k.gpu, TimelineTrack::kAgent,
             channel.index, issue, now_ns());
    const size_t d_end = fan_out ? ds.size() : di + 1;
    const double emit = now_ns();
    double copies = 0;
    for (size_t d = fan_out ? 0 : di; d < d_end; ++d) {
      flights.push_back(
          start_flight(run, k.gpu, channel.index, ds[d], chunk, payload, cost, channel.link));
      flights.back().shared_link = channel.link != nullptr;
      copies += ds[d].copies;
    }
    // The channel moves on once it has emitted this descriptor's packets
    // (posted writes; the window is the lane cap), not when they are
    // acknowledged: descriptors pipeline.
    // At link rate: payload then headers; the rest is the window cap.
    run.step(emit + payload * copies / link_bw * kNsPerS, Cause::kLinkSerialization, k.gpu);
    run.step(emit + cost.wire_bytes * copies / link_bw * kNsPerS, Cause::kPacketOverhead, k.gpu);
    run.wait(emit + cost.wire_bytes * copies / channel.emit_bw_bytes_per_s * kNsPerS,
             Cause::kWindowStall, k.gpu);
  }
}

// hardware: counter unit + descriptor DMA agent (hw_model::DmaAgent) with
// one actor per channel; packets of DmaAgent::packet_payload_bytes.
void run_hardware(Run& run, const KernelInput& k, double kb) {
  const MechanismCosts& c = run.machine->costs;
  const hw_model::DmaAgent agent = *hw_model::DmaAgent::create(c.dma_agent);  // validated
  double stall_ns = 0;
  auto triggers = std::make_shared<std::vector<Trigger>>(counter_triggers(c, k, kb, &stall_ns));
  auto next = std::make_shared<size_t>(0);
  // Critical path: each chunk computes from the kernel's begin until ready,
  // then the counter unit until its trigger.
  const CriticalPath::Node begin = run.cursor();
  auto trigger_nodes = std::make_shared<std::vector<CriticalPath::Node>>();
  if (run.cp) {
    for (const Trigger& t : *triggers) {
      const double ready = std::min(kb + k.chunks[t.chunk].ready_ns, t.time_ns);
      trigger_nodes->push_back(run.cp->add(t.time_ns,
                                           run.cp->add(ready, begin, Cause::kCompute, k.gpu),
                                           Cause::kCounterUnit, k.gpu));
    }
  }
  // One descriptor per chunk writes every destination (fan-out), else one
  // descriptor per destination, one after another.
  const bool fan_out = agent.descriptors(2) == 1;
  const std::vector<Target> ds = fan_out ? targets(run, k) : singles(dests(run, k));
  const double packet = dma_packet_payload(*run.machine);
  // Where the GPU's flows have a link of their own, the channels share it.
  std::optional<ProcessorSharingLink> isolated;
  if (run.isolated_link_bw > 0 && !ds.empty()) {
    isolated.emplace(run.isolated_link_bw, run.machine->path_latency_ns(k.gpu, ds.front().dst));
  }
  ProcessorSharingLink* link = isolated ? &*isolated : nullptr;
  std::vector<sg4::ActorPtr> channels;
  for (int64_t ch = 0; ch < c.dma_agent.channels; ++ch) {
    channels.push_back(sg4::Actor::create(
        "dma" + std::to_string(k.gpu) + "." + std::to_string(ch),
        run.platform.source(k.gpu, static_cast<uint32_t>(ch)),
        [&run, &k, agent, fan_out, packet, ds, triggers, next, ch, begin, trigger_nodes, link] {
          if (run.cp) run.cp->set_cursor(Run::me(), begin);
          const uint32_t agent_index = static_cast<uint32_t>(ch);  // timeline "agent N"
          const double link_bw = run.machine->gpu_link.bw_bytes_per_s;
          const double emit_bw =
              run.lane_cap_bytes_per_s > 0 ? std::min(run.lane_cap_bytes_per_s, link_bw) : link_bw;
          const size_t window =
              window_chunks(run, k,
                            run.machine->gpu_link.packets(max_chunk_bytes(k), packet).wire_bytes) *
              ds.size();
          std::deque<Flight> flights;
          while (*next < triggers->size()) {
            const size_t ti = (*next)++;
            const Trigger t = (*triggers)[ti];
            if (run.cp) run.join((*trigger_nodes)[ti]);
            run.sleep_until(t.time_ns);
            send_descriptors(run, k, agent, HwChannel{agent_index, packet, link_bw, emit_bw, link},
                             fan_out, ds, t.chunk, flights);
            while (!flights.empty() && flights.size() > window) {
              finish_flight(run, flights.front());
              flights.pop_front();
            }
          }
          finish_all(run, flights);
          run.done();
        }));
  }
  const double ke = kb + k.duration_ns + stall_ns;
  run.step(kb + k.duration_ns, Cause::kCompute, k.gpu);
  run.wait(ke, Cause::kCounterUnit, k.gpu);  // writers waited for free counters
  if (stall_ns > 0)
    run.span("counter stall", "stall", k.gpu, TimelineTrack::kStream, 0, kb + k.duration_ns, ke);
  run.span("kernel", "compute", k.gpu, TimelineTrack::kStream, 0, kb, ke);
  for (auto& a : channels) a->join();
}

void run_infinite(Run& run, const KernelInput& k, double kb) {
  run.wait(kb + k.duration_ns, Cause::kCompute, k.gpu);
  run.span("kernel", "compute", k.gpu, TimelineTrack::kStream, 0, kb, kb + k.duration_ns);
  run.result.payload_bytes += total_payload(k) * dests(run, k).size() * run.weight[k.gpu];
}

using proact::lanes_for;
using proact::packet_wire_bytes;

using Producer = void (*)(Run&, const KernelInput&, double);

Producer producer_for(Mechanism m) {
  switch (m) {
    case Mechanism::kMemcpy: return run_memcpy;
    case Mechanism::kInline: return run_inline;
    case Mechanism::kPolling: return run_polling;
    case Mechanism::kCdp: return run_cdp;
    case Mechanism::kHardware: return run_hardware;
    case Mechanism::kInfinite: return run_infinite;
  }
  return run_infinite;
}

using proact::union_length;

// one_kernel_per_gpu: no GPU runs two kernels in one iteration (each GPU's
// flows then come from one producer, which waits for them itself).
bool one_kernel_per_gpu(const ReplayInput& in) {
  for (const IterationInput& it : in.iterations) {
    std::vector<uint32_t> gpus;
    for (const KernelInput& k : it.kernels) gpus.push_back(k.gpu);
    std::sort(gpus.begin(), gpus.end());
    if (std::adjacent_find(gpus.begin(), gpus.end()) != gpus.end()) return false;
  }
  return true;
}

// drive: iterations one after another, each closed by a global barrier.
void drive(Run& run) {
  const Producer producer = producer_for(run.options.mechanism);
  double start = 0;
  for (const IterationInput& it : run.input->iterations) {
    start += it.gap_before_ns;
    run.wait(start, Cause::kGap, 0);
    const CriticalPath::Node it_start = run.cursor();
    double compute_end = start;
    std::vector<sg4::ActorPtr> actors;
    for (const KernelInput& k : it.kernels) {
      const double kb = start + k.begin_ns;
      compute_end = std::max(compute_end, kb + k.duration_ns);
      if (run.weight[k.gpu] == 0) continue;  // folded: replayed by its representative
      actors.push_back(sg4::Actor::create(
          "gpu" + std::to_string(k.gpu), run.platform.gpu(k.gpu),
          [&run, &k, producer, kb, it_start] {
            if (run.cp) {
              run.cp->set_cursor(Run::me(), run.cp->add(kb, it_start, Cause::kCompute, k.gpu));
            }
            producer(run, k, kb);
            run.done();
          }));
    }
    for (auto& a : actors) a->join();
    run.platform.forget_delivered();  // every flight of the iteration ended
    if (run.cp) {
      // The barrier waits for the last actor of the iteration.
      for (CriticalPath::Node e : run.ends) run.join(e);
      run.ends.clear();
      run.cp->add_iteration(start, compute_end);
    }
    run.result.compute_ns += compute_end - start + it.gap_before_ns;
    run.result.transfer_busy_ns += union_length(run.busy);
    run.busy.clear();
    start = now_ns();
  }
  run.result.end_to_end_ns = start;
  if (run.cp) run.result.attribution = run.cp->attribute(run.cursor(), run.options.record_timeline);
}

}  // namespace

const char* replay_core_name(ReplayCore core) {
  return core == ReplayCore::kGraph ? "graph" : "actors";
}

Result<ReplayCore> parse_replay_core(std::string_view text) {
  for (ReplayCore c : {ReplayCore::kActors, ReplayCore::kGraph}) {
    if (text == replay_core_name(c)) return c;
  }
  return make_error("unknown replay core '" + std::string(text) + "' (one of actors, graph)");
}

Status check_replayable(const ReplayInput& input, const Machine& machine) {
  XF_RETURN_IF_ERROR(machine.validate());
  XF_RETURN_IF_ERROR(input.validate());
  if (input.num_gpus > machine.num_gpus) {
    return make_error("replay: trace " + input.name + " has " + std::to_string(input.num_gpus) +
                      " GPUs but platform " + machine.name + " only " +
                      std::to_string(machine.num_gpus) + " (use --gpus to scale)");
  }
  return Status::Ok();
}

Result<ReplayResult> simulate(const ReplayInput& input, const Machine& machine,
                              const ReplayOptions& options) {
  XF_RETURN_IF_ERROR(check_replayable(input, machine));
  static bool used = false;
  if (used) return make_runtime_error("replay: one SimGrid simulation per process");
  used = true;
  // The producer kernels share HBM with the mechanism's transfers.
  const ReplayInput shared =
      share_hbm(input, options.mechanism, machine.num_gpus, machine.gpu.memory_bw_bytes_per_s);
  if (options.core == ReplayCore::kGraph) return simulate_graph(shared, machine, options);

  phase_mark("simulation: input checked, HBM shared");
  sg4::Engine* engine = SimgridPlatform::create_engine();
  phase_mark("simulation: SimGrid engine");
  Run run;
  run.input = &shared;
  run.machine = &machine;
  run.options = options;
  const SourceLanes lanes = lanes_for(machine, options.mechanism);
  run.lane_cap_bytes_per_s = lanes.cap_bytes_per_s;
  run.lanes = lanes.lanes;
  run.aggregate =
      proact::fan_out_aggregation(machine, shared, options.mechanism, options.aggregate_fan_out);
  run.platform =
      SimgridPlatform::build(machine, lanes, packet_wire_bytes(machine, input, options.mechanism),
                             run.aggregate && machine.topology == Topology::kDirect);
  run.egress_bytes.assign(machine.num_gpus, 0);
  // Timelines draw every GPU's spans, so they replay every GPU.
  run.weight = proact::replica_weights(
      shared, machine.num_gpus,
      options.fold_replicas && !options.record_timeline &&
          proact::independent_gpus(machine, shared, options.mechanism, run.aggregate));
  // `--fan-out fine` keeps SimGrid comms (also at 2 GPUs, to check against).
  if (options.aggregate_fan_out &&
      proact::own_bottleneck(machine, shared, options.mechanism, run.aggregate) &&
      one_kernel_per_gpu(shared)) {
    // Each GPU's flows share one bottleneck and nothing else (its port and
    // the next GPU's, or its fan-out link; at 2 GPUs its direction of the
    // pair link): inline's from one producer;
    // hardware's from the DMA channels, whose lane caps never bind when each
    // is at least that bottleneck (max-min: every flow gets bw / flows, a
    // lane's n flows n x that <= bw <= cap), as the sizing rule makes them.
    const double bw = platform_link_bw_bytes_per_s(
                          machine.gpu_link, packet_wire_bytes(machine, input, options.mechanism)) *
                      (machine.topology == Topology::kDirect ? machine.num_gpus - 1 : 1);
    const bool lanes_bind = run.lanes > 0 && run.lane_cap_bytes_per_s < bw;
    if (options.mechanism == Mechanism::kInline ||
        (options.mechanism == Mechanism::kHardware && !lanes_bind)) {
      run.isolated_link_bw = bw;
    }
    // cdp: each child's flow crosses its lane's cap link (child i on lane
    // i mod lanes), which carries only that lane's children, and then the
    // GPU's bottleneck: max-min over the caps and the link, which
    // ProcessorSharingLink's capped lanes compute (docs/sim.md, "Isolated
    // CDP children").
    if (options.mechanism == Mechanism::kCdp) run.isolated_link_bw = bw;
    // polling: every agent group sends from the GPU's one lane, so each
    // flow crosses its cap link and the GPU's own bottleneck, both carrying
    // exactly the GPU's flows: max-min gives each flow min(cap, bw) /
    // flows, processor sharing at min(cap, bw).
    if (options.mechanism == Mechanism::kPolling && run.lanes <= 1) {
      run.isolated_link_bw = run.lanes == 1 ? std::min(bw, run.lane_cap_bytes_per_s) : bw;
    }
  }
  run.result.mechanism = options.mechanism;
  if (options.explain) run.cp = std::make_unique<CriticalPath>();
  run.result.chunks = input.num_chunks();
  // Ended flights (Run::reap).
  on_comm_end([&run](const void* comm) {
    auto it = run.moving.find(comm);
    if (it == run.moving.end()) return;
    run.ended[it->second.first].push_back(std::move(it->second.second));
    run.moving.erase(it);
  });
  phase_mark("simulation: SimGrid platform");
  sg4::Actor::create("driver", run.platform.cpu(), [&run] { drive(run); });
  engine->run();
  phase_mark("simulation: run");

  ReplayResult& r = run.result;
  r.exposed_ns = std::max(0.0, r.end_to_end_ns - r.compute_ns);
  r.overlap = r.transfer_busy_ns > 0
                  ? std::clamp((r.transfer_busy_ns - r.exposed_ns) / r.transfer_busy_ns, 0.0, 1.0)
                  : 1.0;
  // Egress bandwidth of a sending GPU: all its bundles (kDirect) or its one link.
  const double egress_bw = machine.gpu_link.bw_bytes_per_s *
                           (machine.topology == Topology::kDirect ? machine.num_gpus - 1 : 1);
  double senders = 0;
  for (uint32_t g = 0; g < machine.num_gpus; ++g) {
    senders += run.egress_bytes[g] > 0 ? run.weight[g] : 0;
  }
  if (senders > 0 && r.end_to_end_ns > 0) {
    r.link_utilization = r.wire_bytes / (senders * egress_bw * r.end_to_end_ns / kNsPerS);
  }
  return std::move(run.result);
}

// ---- Process isolation -----------------------------------------------------

namespace {

nlohmann::json attribution_json(const Attribution& a) {
  nlohmann::json segs = nlohmann::json::array();
  for (const Attribution::Segment& s : a.segments) {
    segs.push_back({s.start_ns, s.end_ns, static_cast<int>(s.cause), s.gpu});
  }
  return {{"ns", a.ns},
          {"tail", a.tail_ns},
          {"total", a.total_ns},
          {"compute_end", a.compute_end_ns},
          {"segments", segs}};
}

Attribution attribution_from(const nlohmann::json& j) {
  Attribution a;
  a.ns = j.at("ns").get<std::array<double, kCauseCount>>();
  a.tail_ns = j.at("tail").get<std::array<double, kCauseCount>>();
  a.total_ns = j.at("total");
  a.compute_end_ns = j.at("compute_end");
  for (const auto& s : j.at("segments")) {
    a.segments.push_back({s[0], s[1], static_cast<Cause>(s[2].get<int>()), s[3]});
  }
  return a;
}

nlohmann::json to_json(const ReplayResult& r) {
  nlohmann::json spans = nlohmann::json::array();
  for (const Span& s : r.timeline) {
    spans.push_back(
        {s.name, s.category, s.gpu, static_cast<int>(s.track), s.index, s.start_ns, s.duration_ns});
  }
  return {{"mechanism", static_cast<int>(r.mechanism)},
          {"e2e", r.end_to_end_ns},
          {"compute", r.compute_ns},
          {"exposed", r.exposed_ns},
          {"busy", r.transfer_busy_ns},
          {"overlap", r.overlap},
          {"payload", r.payload_bytes},
          {"wire", r.wire_bytes},
          {"util", r.link_utilization},
          {"chunks", r.chunks},
          {"activities", r.activities},
          {"spans", spans},
          {"attribution", attribution_json(r.attribution)}};
}

ReplayResult from_json(const nlohmann::json& j) {
  ReplayResult r;
  r.mechanism = static_cast<Mechanism>(j.at("mechanism").get<int>());
  r.end_to_end_ns = j.at("e2e");
  r.compute_ns = j.at("compute");
  r.exposed_ns = j.at("exposed");
  r.transfer_busy_ns = j.at("busy");
  r.overlap = j.at("overlap");
  r.payload_bytes = j.at("payload");
  r.wire_bytes = j.at("wire");
  r.link_utilization = j.at("util");
  r.chunks = j.at("chunks");
  r.activities = j.at("activities");
  for (const auto& s : j.at("spans")) {
    r.timeline.push_back(
        Span{s[0], s[1], s[2], static_cast<TimelineTrack>(s[3].get<int>()), s[4], s[5], s[6]});
  }
  r.attribution = attribution_from(j.at("attribution"));
  return r;
}

}  // namespace

Result<std::vector<ReplayResult>> simulate_many(const ReplayInput& input, const Machine& machine,
                                                const std::vector<ReplayOptions>& options,
                                                uint32_t jobs) {
  std::vector<ReplayResult> results;
  Status s = run_isolated_in_order(
      options.size(), jobs,
      [&](size_t i) {
        Result<ReplayResult> r = simulate(input, machine, options[i]);
        nlohmann::json j;
        if (r.ok()) {
          j = {{"ok", true}, {"result", to_json(*r)}};
        } else {
          j = {{"ok", false}, {"message", r.error().message}, {"usage", r.error().usage}};
        }
        // CBOR keeps doubles exact through the pipe (golden outputs stay stable).
        std::vector<uint8_t> bytes = nlohmann::json::to_cbor(j);
        phase_mark("simulation process: result to CBOR");
        return std::string(bytes.begin(), bytes.end());
      },
      [&](size_t, Result<std::string> data) -> Status {
        if (!data.ok()) return data.error();
        nlohmann::json j = nlohmann::json::from_cbor(*data, true, false);
        if (j.is_discarded()) {
          return make_runtime_error("replay: corrupt result from simulation process");
        }
        if (!j.at("ok").get<bool>()) {
          return Error{j.at("message").get<std::string>(), j.at("usage").get<bool>()};
        }
        results.push_back(from_json(j.at("result")));
        return Status::Ok();
      },
      "replay: simulation");
  if (!s.ok()) return s.error();
  return results;
}

Result<ReplayResult> simulate_isolated(const ReplayInput& input, const Machine& machine,
                                       const ReplayOptions& options) {
  Result<std::vector<ReplayResult>> r = simulate_many(input, machine, {options}, 1);
  if (!r.ok()) return r.error();
  return std::move(r->front());
}

}  // namespace xferlab::sim
