// sim/replay_engine.cc — the S4U actors that replay a run: an iteration
// driver (global barriers), one producer actor per GPU and kernel carrying
// the mechanism's logic, and its agents (polling's agent groups, hardware's
// DMA channels): actors of their own, or run by the producer on its own
// clock where the GPU's flows have a link of their own.
// Equations: docs/sim.md, "Mechanisms".
#include "sim/replay_engine.h"

#include <algorithm>
#include <cmath>
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <queue>
#include <simgrid/s4u.hpp>
#include <tuple>
#include <unordered_map>
#include <utility>

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
  // A producer whose flows are all on a link only it and its agents add to
  // (isolated inline, cdp, polling, hardware) keeps its clock here between
  // begin_own_clock and end_own_clock instead of sleeping in SimGrid at
  // every step: no other actor sees its times until it ends, and it makes
  // no SimGrid call until then; at the end it sleeps once, to its clock
  // (its agents: run_on_own_clock). NaN: SimGrid's clock.
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
  // me: the running actor, or the agent run_on_own_clock runs (its id, < 0).
  int64_t agent = 0;
  int64_t me() const { return agent != 0 ? agent : sg4::this_actor::get_pid(); }
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
// where its GPU's transfers have a link of their own (isolated inline, cdp,
// polling and DMA channels).
struct Flight {
  sg4::CommPtr comm;
  double start_ns;
  uint32_t src, dst, chunk, copies;
  double payload = 0, wire = 0;                   // bytes of all copies
  uint32_t lane = 0;                              // source lane
  CriticalPath::Node from = CriticalPath::kNone;  // the starting actor's step
  ProcessorSharingLink* link = nullptr;
  size_t link_flow = 0;  // its id on `link`

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
// small chunks latency-bound (docs/sim.md, "Mechanisms").
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
    run.moving.emplace(f.comm->get_impl(), std::make_pair(run.me(), f.comm));
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

// flight_done: a flight that has ended now: its part of the critical path,
// its busy interval and its timeline span.
void flight_done(Run& run, const Flight& f) {
  explain_flight(run, f);
  double end = run.now();
  run.busy.emplace_back(f.start_ns, end);
  if (!run.options.record_timeline) return;
  const std::string to =
      f.copies > 1 ? std::to_string(f.copies) + " peers" : "gpu" + std::to_string(f.dst);
  run.span("chunk " + std::to_string(f.chunk) + " -> " + to, "transfer", f.src,
           TimelineTrack::kLink, f.dst, f.start_ns, end);
}

// finish_flight: waits for a flight of the running producer (a link's
// flight: only it adds to the link, so the flow's end is known).
void finish_flight(Run& run, Flight& f) {
  if (f.link != nullptr) {
    run.sleep_until(f.end_ns());
  } else {
    f.comm->wait();
  }
  flight_done(run, f);
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

// ---- Agents: several actors of one producer sharing its GPU's link ----------
//
// Agent: the body of a polling agent group or of a DMA channel, written once
// as a coroutine that suspends at each of its waits, saying what it waits
// for: a time, or a flight's end. Whoever resumes it drives it: a SimGrid
// actor that sleeps or waits for the comm (run_agents), or, where the
// agents' flights are flows of the GPU's isolated link, the producer, which
// runs them all on its own clock (run_on_own_clock). Agents wait only by
// co_await (Run::sleep_until would move the producer's clock instead).
class Agent {
 public:
  struct Wait {
    double until_ns = 0;
    Flight* flight = nullptr;  // set: until this flight has ended
  };
  struct promise_type;
  using Handle = std::coroutine_handle<promise_type>;
  struct promise_type {
    Wait wait;
    Agent get_return_object() { return Agent(Handle::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  // co_await Agent::until(t) / Agent::arrival(f): always suspends, so that
  // the driver decides (a time already past goes on at once).
  struct Awaiter {
    Wait wait;
    bool await_ready() const noexcept { return false; }
    void await_suspend(Handle h) const noexcept { h.promise().wait = wait; }
    void await_resume() const noexcept {}
  };
  static Awaiter until(double t_ns) { return {Wait{t_ns, nullptr}}; }
  static Awaiter arrival(Flight& f) { return {Wait{0, &f}}; }

  explicit Agent(Handle h) : h_(h) {}
  Agent(Agent&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Agent& operator=(Agent&&) = delete;
  ~Agent() {
    if (h_) h_.destroy();
  }
  // resume: runs the body to its next wait (the first: to its first one).
  void resume() { h_.resume(); }
  bool done() const { return h_.done(); }
  const Wait& wait() const { return h_.promise().wait; }

 private:
  Handle h_;
};

// agent_wait: an agent's step until t_ns for `cause` (Run::wait, for agents).
Agent::Awaiter agent_wait(Run& run, double t_ns, Cause cause, uint32_t gpu) {
  run.step(t_ns, cause, gpu);
  return Agent::until(t_ns);
}

// run_on_own_clock: runs `agents`, whose flights are all flows of `link`
// (the GPU's isolated link, which only they add to), until every one has
// ended, on the producer's own clock. Nothing outside the GPU sees their
// times before they end, so instead of a SimGrid sleep per wait this is a
// discrete-event loop over their waits and the link's flow ends: at each
// step the earliest of the next agent due and the link's next end; the
// link first at equal times (a flow that ends then has ended for an agent
// due then), agents due at one time in the order they came due (SimGrid's
// order of sleeps ending together); an agent goes on at once past a time or
// an end already reached, as SimGrid's sleep_until of a past time does. A
// flow an agent adds starts at the clock, so it only delays ends from then
// on. The link's times are not rounded to SimGrid's 1-ns precision.
void run_on_own_clock(Run& run, std::vector<Agent>& agents, ProcessorSharingLink& link) {
  struct Due {
    double t_ns;
    uint64_t order;
    size_t agent;
    bool operator>(const Due& o) const { return std::tie(t_ns, order) > std::tie(o.t_ns, o.order); }
  };
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due;
  constexpr size_t kNobody = static_cast<size_t>(-1);
  std::vector<size_t> waiter;  // per flow: the agent waiting for its end
  size_t waiting = 0;
  uint64_t order = 0;
  // go: agent i runs from the clock until it waits for what has not come yet.
  auto go = [&](size_t i) {
    run.agent = -1 - static_cast<int64_t>(i);
    while (true) {
      agents[i].resume();
      if (agents[i].done()) break;
      const Agent::Wait& w = agents[i].wait();
      if (w.flight != nullptr) {
        const size_t id = w.flight->link_flow;
        if (link.ended(id)) continue;
        if (waiter.size() <= id) waiter.resize(id + 1, kNobody);
        waiter[id] = i;
        ++waiting;
        break;
      }
      if (w.until_ns > run.own_clock_ns) {
        due.push(Due{w.until_ns, order++, i});
        break;
      }
    }
    run.agent = 0;
  };
  for (size_t i = 0; i < agents.size(); ++i) due.push(Due{run.own_clock_ns, order++, i});
  while (!due.empty() || waiting > 0) {
    const double next_ns = due.empty() ? std::numeric_limits<double>::infinity() : due.top().t_ns;
    if (const std::optional<size_t> id = link.next_end(next_ns)) {
      if (*id < waiter.size() && waiter[*id] != kNobody) {
        due.push(Due{link.end_ns(*id), order++, waiter[*id]});
        waiter[*id] = kNobody;
        --waiting;
      }
      continue;
    }
    if (due.empty()) {  // agents wait for flows that never end: only a bug gets here
      std::fprintf(stderr, "%s:%d: %zu agents wait for no flow in flight\n", __FILE__, __LINE__,
                   waiting);
      std::abort();
    }
    const Due d = due.top();
    due.pop();
    run.own_clock_ns = std::max(run.own_clock_ns, d.t_ns);
    go(d.agent);
  }
}

// run_agents: runs a producer's `agents` beside its own part (`kernel`,
// its waits for the kernel) until all have ended. Where their flights are
// flows of `link` the producer runs them on its own clock; else each is a
// SimGrid actor (`actor(i)`: its name and host) that sleeps for its waits
// and waits for its comms.
void run_agents(Run& run, std::vector<Agent> agents, ProcessorSharingLink* link,
                const std::function<std::pair<std::string, sg4::Host*>(size_t)>& actor,
                const std::function<void()>& kernel) {
  if (link != nullptr) {
    run.begin_own_clock();
    run_on_own_clock(run, agents, *link);
    kernel();
    run.end_own_clock();
    return;
  }
  std::vector<sg4::ActorPtr> actors;
  for (size_t i = 0; i < agents.size(); ++i) {
    auto [name, host] = actor(i);
    actors.push_back(
        sg4::Actor::create(name, host, [&run, a = std::make_shared<Agent>(std::move(agents[i]))] {
          for (a->resume(); !a->done(); a->resume()) {
            const Agent::Wait& w = a->wait();
            if (w.flight != nullptr) {
              w.flight->comm->wait();
            } else {
              run.sleep_until(w.until_ns);
            }
          }
        }));
  }
  kernel();
  for (auto& a : actors) a->join();
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

// polling_group: agent group g of `plan` (run_polling), sending to `ds`
// (`copies` chunk copies in all) on `link`, or as SimGrid comms.
Agent polling_group(Run& run, const KernelInput& k, double kb, const std::vector<Target>& ds,
                    double copies, const proact::PollingPlan& plan, size_t g,
                    CriticalPath::Node begin, ProcessorSharingLink* link) {
  if (run.cp) run.cp->set_cursor(run.me(), begin);
  const hw_model::AgentGroup& group = plan.groups[g];
  std::deque<Flight> flights;
  for (const hw_model::AgentItem& item : group.items) {
    const uint32_t i = plan.by_index[item.chunk];
    const ChunkInput& ch = k.chunks[i];
    const double seen = proact::polling_seen_ns(run.machine->costs, ch, plan.dilation);
    run.step(kb + ch.ready_ns * plan.dilation, Cause::kCompute, k.gpu);
    co_await agent_wait(run, kb + seen, Cause::kTracking, k.gpu);
    const double start = run.now();
    const double payload = proact::polling_item_payload(ch, group, item, plan.slices);
    const WireCost cost = agent_copy(*run.machine, payload);
    for (Target d : ds) flights.push_back(start_flight(run, k.gpu, 0, d, i, payload, cost, link));
    if (plan.worker.bounds()) {
      // The group's workers are busy issuing this item's loads and stores.
      co_await agent_wait(run, start + proact::polling_item_busy_ns(plan, ch, item, copies),
                          Cause::kAgentCopy, k.gpu);
      run.span("copy " + std::to_string(i), "agent", k.gpu, TimelineTrack::kAgent,
               static_cast<uint32_t>(g), start, run.now());
    }
    while (flights.size() > ds.size()) {
      co_await Agent::arrival(flights.front());
      flight_done(run, flights.front());
      flights.pop_front();
    }
  }
  for (Flight& f : flights) {
    co_await Agent::arrival(f);
    flight_done(run, f);
  }
  run.done();
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
  const proact::PollingPlan plan = proact::polling_plan(*run.machine, k);
  const CriticalPath::Node begin = run.cursor();
  // Where the GPU's flows have a link of their own, the groups share it (as
  // hardware's DMA channels do).
  std::optional<ProcessorSharingLink> isolated;
  if (run.isolated_link_bw > 0 && !ds.empty()) {
    isolated.emplace(run.isolated_link_bw, run.machine->path_latency_ns(k.gpu, ds.front().dst));
  }
  ProcessorSharingLink* link = isolated ? &*isolated : nullptr;
  std::vector<Agent> groups;
  for (size_t g = 0; g < plan.groups.size(); ++g) {
    groups.push_back(polling_group(run, k, kb, ds, copies, plan, g, begin, link));
  }
  run_agents(
      run, std::move(groups), link,
      [&](size_t g) {
        return std::make_pair("agent" + std::to_string(k.gpu) + "." + std::to_string(g),
                              run.platform.source(k.gpu, 0));
      },
      [&] {
        const double ke = kb + k.duration_ns * plan.dilation;
        run.wait(ke, Cause::kCompute, k.gpu);
        run.span("kernel", "compute", k.gpu, TimelineTrack::kStream, 0, kb, ke);
      });
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

// Triggers: the counter unit's triggers of a kernel in order, the next one
// a free channel takes, and their critical-path nodes (with explain).
struct Triggers {
  std::vector<Trigger> in_order;
  size_t next = 0;
  std::vector<CriticalPath::Node> nodes;
};

// dma_channel: `channel` of run_hardware: while triggers are left it takes
// the next and sends its chunk, one descriptor writing every destination
// (fan-out), else one descriptor per destination, one after another; its
// copies stay in flight until more than `window` are.
Agent dma_channel(Run& run, const KernelInput& k, const hw_model::DmaAgent& agent,
                  HwChannel channel, bool fan_out, const std::vector<Target>& ds,
                  Triggers& triggers, CriticalPath::Node begin, size_t window) {
  if (run.cp) run.cp->set_cursor(run.me(), begin);
  const size_t descriptors = fan_out ? 1 : ds.size();
  std::deque<Flight> flights;
  while (triggers.next < triggers.in_order.size()) {
    const size_t ti = triggers.next++;
    const Trigger t = triggers.in_order[ti];
    if (run.cp) run.join(triggers.nodes[ti]);
    co_await Agent::until(t.time_ns);
    const double payload = static_cast<double>(k.chunks[t.chunk].size_bytes);
    const WireCost cost = run.machine->gpu_link.packets(payload, channel.packet_payload_bytes);
    const double link_bw = channel.link_bw_bytes_per_s;
    for (size_t di = 0; di < descriptors; ++di) {
      const double issue = run.now();
      co_await agent_wait(run, issue + agent.descriptor_start_ns(), Cause::kDescriptor, k.gpu);
      run.span("descriptor " + std::to_string(t.chunk), "agent", k.gpu, TimelineTrack::kAgent,
               channel.index, issue, run.now());
      const size_t d_end = fan_out ? ds.size() : di + 1;
      const double emit = run.now();
      double copies = 0;
      for (size_t d = fan_out ? 0 : di; d < d_end; ++d) {
        flights.push_back(
            start_flight(run, k.gpu, channel.index, ds[d], t.chunk, payload, cost, channel.link));
        copies += ds[d].copies;
      }
      // The channel moves on once it has emitted this descriptor's packets
      // (posted writes; the window is the lane cap), not when they are
      // acknowledged: descriptors pipeline.
      // At link rate: payload then headers; the rest is the window cap.
      run.step(emit + payload * copies / link_bw * kNsPerS, Cause::kLinkSerialization, k.gpu);
      run.step(emit + cost.wire_bytes * copies / link_bw * kNsPerS, Cause::kPacketOverhead, k.gpu);
      co_await agent_wait(run,
                          emit + cost.wire_bytes * copies / channel.emit_bw_bytes_per_s * kNsPerS,
                          Cause::kWindowStall, k.gpu);
    }
    while (!flights.empty() && flights.size() > window) {
      co_await Agent::arrival(flights.front());
      flight_done(run, flights.front());
      flights.pop_front();
    }
  }
  for (Flight& f : flights) {
    co_await Agent::arrival(f);
    flight_done(run, f);
  }
  run.done();
}

// hardware: counter unit + descriptor DMA agent (hw_model::DmaAgent) with
// one agent per channel; packets of DmaAgent::packet_payload_bytes.
void run_hardware(Run& run, const KernelInput& k, double kb) {
  const MechanismCosts& c = run.machine->costs;
  const hw_model::DmaAgent agent = *hw_model::DmaAgent::create(c.dma_agent);  // validated
  double stall_ns = 0;
  Triggers triggers;
  triggers.in_order = counter_triggers(c, k, kb, &stall_ns);
  // Critical path: each chunk computes from the kernel's begin until ready,
  // then the counter unit until its trigger.
  const CriticalPath::Node begin = run.cursor();
  if (run.cp) {
    for (const Trigger& t : triggers.in_order) {
      const double ready = std::min(kb + k.chunks[t.chunk].ready_ns, t.time_ns);
      triggers.nodes.push_back(run.cp->add(t.time_ns,
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
  const double link_bw = run.machine->gpu_link.bw_bytes_per_s;
  const double emit_bw =
      run.lane_cap_bytes_per_s > 0 ? std::min(run.lane_cap_bytes_per_s, link_bw) : link_bw;
  const size_t window =
      window_chunks(run, k, run.machine->gpu_link.packets(max_chunk_bytes(k), packet).wire_bytes) *
      ds.size();
  std::vector<Agent> channels;
  for (int64_t ch = 0; ch < c.dma_agent.channels; ++ch) {
    const HwChannel channel{static_cast<uint32_t>(ch), packet, link_bw, emit_bw, link};
    channels.push_back(dma_channel(run, k, agent, channel, fan_out, ds, triggers, begin, window));
  }
  run_agents(
      run, std::move(channels), link,
      [&](size_t ch) {
        return std::make_pair("dma" + std::to_string(k.gpu) + "." + std::to_string(ch),
                              run.platform.source(k.gpu, static_cast<uint32_t>(ch)));
      },
      [&] {
        const double ke = kb + k.duration_ns + stall_ns;
        run.step(kb + k.duration_ns, Cause::kCompute, k.gpu);
        run.wait(ke, Cause::kCounterUnit, k.gpu);  // writers waited for free counters
        if (stall_ns > 0) {
          run.span("counter stall", "stall", k.gpu, TimelineTrack::kStream, 0, kb + k.duration_ns,
                   ke);
        }
        run.span("kernel", "compute", k.gpu, TimelineTrack::kStream, 0, kb, ke);
      });
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
              run.cp->set_cursor(run.me(), run.cp->add(kb, it_start, Cause::kCompute, k.gpu));
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
  // The producer kernels share HBM with the mechanism's transfers (copied
  // only where that changes them: a copy costs a forked sweep point a page
  // fault per page).
  std::optional<ReplayInput> stretched;
  if (shares_hbm(input, options.mechanism, machine.gpu.memory_bw_bytes_per_s)) {
    stretched =
        share_hbm(input, options.mechanism, machine.num_gpus, machine.gpu.memory_bw_bytes_per_s);
  }
  const ReplayInput& shared = stretched ? *stretched : input;
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
