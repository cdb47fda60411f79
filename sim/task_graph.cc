// sim/task_graph.cc — builds a TaskGraph as SimGrid activities and runs it.
#include "sim/task_graph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>
#include <unordered_map>
#include <utility>

#include "sim/isolated.h"
#include "sim/simgrid_platform.h"

namespace xferlab::sim {

namespace sg4 = simgrid::s4u;

uint32_t TaskGraph::add_executor(std::string name, uint32_t cores) {
  executors_.push_back({std::move(name), cores});
  return static_cast<uint32_t>(executors_.size() - 1);
}

uint32_t TaskGraph::add_link(std::string name, double bw_bytes_per_s, double latency_ns,
                             bool in_order) {
  links_.push_back({std::move(name), bw_bytes_per_s, latency_ns, in_order});
  return static_cast<uint32_t>(links_.size() - 1);
}

uint32_t TaskGraph::add_route(uint32_t src, uint32_t dst, std::vector<uint32_t> links) {
  routes_.push_back({src, dst, std::move(links)});
  return static_cast<uint32_t>(routes_.size() - 1);
}

uint32_t TaskGraph::delay(uint32_t near_executor, double ns) {
  tasks_.push_back({TaskKind::kDelay, near_executor, ns});
  return static_cast<uint32_t>(tasks_.size() - 1);
}

uint32_t TaskGraph::work(uint32_t executor, double ns) {
  tasks_.push_back({TaskKind::kWork, executor, ns});
  return static_cast<uint32_t>(tasks_.size() - 1);
}

uint32_t TaskGraph::transfer(uint32_t route, double bytes) {
  tasks_.push_back({TaskKind::kTransfer, route, bytes});
  return static_cast<uint32_t>(tasks_.size() - 1);
}

void TaskGraph::after(uint32_t task, uint32_t predecessor) {
  edges_.emplace_back(predecessor, task);
}

void TaskGraph::gate_window(uint32_t gate, uint32_t opens_after, uint32_t closes_after) {
  gate_windows_.push_back({gate, opens_after, closes_after});
}

void TaskGraph::gate_transfer(uint32_t transfer, uint32_t gate) {
  gated_.emplace_back(transfer, gate);
}

Status TaskGraph::validate() const {
  for (size_t i = 0; i < links_.size(); ++i) {
    if (!(links_[i].bw_bytes_per_s > 0) || !(links_[i].latency_ns >= 0)) {
      return make_error("task graph: link '" + links_[i].name +
                        "' needs bandwidth > 0 and latency >= 0");
    }
  }
  for (const GraphExecutor& e : executors_) {
    if (e.cores == 0) return make_error("task graph: executor '" + e.name + "' has 0 cores");
  }
  for (const GraphRoute& r : routes_) {
    if (r.src >= num_endpoints_ || r.dst >= num_endpoints_ || r.src == r.dst) {
      return make_error("task graph: route between endpoints " + std::to_string(r.src) + " and " +
                        std::to_string(r.dst) + " is out of range or a loop");
    }
    for (size_t i = 0; i < r.links.size(); ++i) {
      if (r.links[i] >= links_.size()) return make_error("task graph: route uses an unknown link");
      // The platform's star zone would cross it once (build_graph_platform).
      if (std::find(r.links.begin(), r.links.begin() + i, r.links[i]) != r.links.begin() + i) {
        return make_error("task graph: route uses link '" + links_[r.links[i]].name + "' twice");
      }
    }
  }
  for (size_t i = 0; i < tasks_.size(); ++i) {
    const Task& t = tasks_[i];
    const size_t limit = t.kind == TaskKind::kTransfer ? routes_.size() : executors_.size();
    if (t.where >= limit || !std::isfinite(t.amount) || t.amount < 0) {
      return make_error("task graph: task " + std::to_string(i) +
                        " has an unknown resource or an amount that is negative or not finite");
    }
  }
  for (const GateWindow& w : gate_windows_) {
    if (w.gate >= num_gates_ || w.opens_after >= tasks_.size() || w.closes_after >= tasks_.size()) {
      return make_error("task graph: a gate window names an unknown gate or task");
    }
  }
  for (const auto& [t, gate] : gated_) {
    if (gate >= num_gates_ || t >= tasks_.size() || tasks_[t].kind != TaskKind::kTransfer) {
      return make_error("task graph: a gated task is not a transfer or its gate is unknown");
    }
  }
  // A stopped transfer is put again for its remaining bytes, which would pay
  // its route's latency again: scheduled transfers need routes without.
  std::vector<char> scheduled_route(routes_.size(), 0);
  for (const auto& [t, gate] : gated_) scheduled_route[tasks_[t].where] = 1;
  for (size_t r = 0; r < routes_.size(); ++r) {
    bool in_order = false, latency = false;
    for (uint32_t l : routes_[r].links) {
      in_order = in_order || links_[l].in_order;
      latency = latency || links_[l].latency_ns > 0;
    }
    if ((in_order || scheduled_route[r]) && latency) {
      return make_error(
          "task graph: a route of gated or in-order transfers has a link with a latency");
    }
  }
  // Kahn's algorithm: every task reachable in topological order.
  std::vector<uint32_t> indegree(tasks_.size(), 0), order;
  std::vector<std::vector<uint32_t>> succ(tasks_.size());
  for (const auto& [p, t] : edges_) {
    if (p >= tasks_.size() || t >= tasks_.size() || p == t) {
      return make_error("task graph: dependency between unknown tasks or of a task on itself");
    }
    succ[p].push_back(t);
    ++indegree[t];
  }
  for (uint32_t i = 0; i < tasks_.size(); ++i) {
    if (indegree[i] == 0) order.push_back(i);
  }
  for (size_t k = 0; k < order.size(); ++k) {
    for (uint32_t s : succ[order[k]]) {
      if (--indegree[s] == 0) order.push_back(s);
    }
  }
  if (order.size() != tasks_.size()) return make_error("task graph: the dependencies form a cycle");
  return Status::Ok();
}

namespace {

constexpr double kCoreSpeedFlops = 1e9;  // one flop per ns: a work task's amount is its ns.
constexpr int kActorStackKiB = 128;      // GraphRun's actors: a few frames of simcalls.

// GraphHosts: the SimGrid hosts a task graph runs on.
struct GraphHosts {
  std::vector<sg4::Host*> exec;       ///< per executor: its cores.
  std::vector<sg4::Host*> endpoints;  ///< per endpoint: its issuer and inbox.
  std::vector<sg4::Host*> routes;     ///< per route: where its transfers leave from.
};

// build_graph_platform: the graph's executors, endpoints, links and routes.
GraphHosts build_graph_platform(const TaskGraph& g) {
  GraphHosts hosts;
  // Endpoints, routes and links in a star zone, whose memory is linear in its
  // hosts: each route is a host of its own whose links up are the route's
  // links (in order), and endpoints have no links, so a transfer put from
  // its route's host into its destination's inbox crosses exactly the
  // route's links. A full zone's table is hosts squared: with an endpoint
  // pair per paced flow, a halo node of 64 ranks allocated 79 MB for it, of
  // 512 ranks 5 GB (docs/halo_sim.md, "Speed"). Executors are in an empty sibling
  // zone, so they cost no routes. No activity crosses the two, so neither
  // needs a gateway.
  sg4::NetZone* root = sg4::create_empty_zone("task_graph");
  sg4::NetZone* zone = sg4::create_star_zone("network");
  zone->set_parent(root);
  sg4::NetZone* compute = sg4::create_empty_zone("executors");
  compute->set_parent(root);
  // Each executor is a host with its cores. Delays are timers, not
  // activities (GraphRun::start).
  for (const GraphExecutor& e : g.executors()) {
    hosts.exec.push_back(compute->create_host(e.name, kCoreSpeedFlops)
                             ->set_core_count(static_cast<int>(e.cores))
                             ->seal());
  }
  for (uint32_t i = 0; i < g.num_endpoints(); ++i) {
    hosts.endpoints.push_back(zone->create_host("ep" + std::to_string(i), kCoreSpeedFlops)->seal());
  }
  std::vector<sg4::Link*> links;
  for (const GraphLink& l : g.links()) {
    links.push_back(zone->create_link(l.name, l.bw_bytes_per_s)->set_latency(l.latency_ns * 1e-9));
    links.back()->seal();
  }
  for (size_t i = 0; i < g.routes().size(); ++i) {
    std::vector<sg4::LinkInRoute> path;
    for (uint32_t l : g.routes()[i].links) path.emplace_back(links[l]);
    hosts.routes.push_back(zone->create_host("route" + std::to_string(i), kCoreSpeedFlops)->seal());
    zone->add_route(hosts.routes.back()->get_netpoint(), nullptr, nullptr, nullptr, path, false);
  }
  compute->seal();
  zone->seal();
  root->seal();
  return hosts;
}

// Issuer: the daemon actor on an endpoint that starts the transfers leaving
// it and completes those that ended. A transfer is a put into its
// destination's permanent inbox (sim/simgrid_platform.h, put: not sendto,
// whose cost grows with every comm in flight) made by an actor, which moves
// to the transfer's route host for it (build_graph_platform), so maestro,
// which starts the other tasks, hands transfers to the issuer on their source.
struct Issuer {
  sg4::SemaphorePtr bell = sg4::Semaphore::create(0);
  bool rung = false;                ///< a wake-up is pending
  std::vector<uint32_t> ready;      ///< transfers to start
  std::vector<sg4::CommPtr> ended;  ///< comms whose transfer ended, to complete
};

// GraphRun: one run of a graph: how many predecessors each task still waits
// for, the activities started, the issuers.
//
// An activity is created when its last predecessor ends, not up front with
// add_successor: SimGrid 3.32 keeps every created activity in its issuer's
// list and removes each one at its end by a linear search, so creating the
// whole graph at once costs time quadratic in its size (37 s instead of well
// under a second for a PROACT replay of 10^5 tasks); created when ready, the
// lists hold only the running ones. Same start times: a task starts when its
// last predecessor ends either way.
class GraphRun {
 public:
  GraphRun(const TaskGraph& g, const GraphHosts& hosts);
  // run: starts the tasks without predecessors and runs the engine.
  void run(sg4::Engine* engine);
  Result<TaskTimes> times() const;

 private:
  void start(uint32_t i);
  void end(uint32_t i);
  void end_transfers();
  void ring(Issuer& issuer);
  void issue(uint32_t endpoint);
  // Scheduled transfers (gated, or over an in-order link) are put by the
  // scheduler actor, not by their issuer, and only while they may move:
  // reschedule stops a moving one that may not (the comm is cancelled, its
  // remaining bytes kept) and puts the rest of one that may again. Not
  // Comm::suspend / resume: in SimGrid 3.32 a comm suspended and resumed in
  // one instant ignores its later suspends (full network update) or never
  // ends (lazy). want_reschedule: wakes the scheduler (a put is an
  // actor's call).
  void reschedule();
  void want_reschedule();
  bool is_scheduled(uint32_t i) const { return scheduled_transfer_[i] != 0; }

  const TaskGraph& g_;
  const GraphHosts& hosts_;
  std::vector<std::vector<uint32_t>> successors_;
  std::vector<uint32_t> waiting_, ids_;
  std::vector<sg4::ActivityPtr> acts_;
  std::vector<char> done_;
  std::vector<double> start_s_, end_s_;  ///< when each task became ready and ended
  size_t remaining_;
  std::vector<Issuer> issuers_;                       ///< per endpoint
  std::vector<sg4::Mailbox*> inboxes_;                ///< per endpoint (nullptr: receives nothing)
  std::unordered_map<const void*, uint32_t> moving_;  ///< transfer task by kernel comm
  std::vector<uint32_t> ended_;  ///< transfers ended, successors not yet started
  sg4::SemaphorePtr all_done_ = sg4::Semaphore::create(0);
  // Gates and in-order links (empty unless the graph has either).
  bool scheduled_ = false;
  std::vector<std::vector<uint32_t>> window_opens_, window_closes_;  ///< per task: windows
  std::vector<char> window_state_;               ///< per window: 0 pending, 1 open, 2 closed
  std::vector<uint32_t> gate_open_;              ///< per gate: windows open
  std::vector<std::vector<uint32_t>> gates_of_;  ///< per transfer: its gates
  std::vector<uint32_t> ready_scheduled_;        ///< ready and not ended
  std::vector<double> left_bytes_;               ///< per scheduled transfer: still to move
  std::vector<char> comm_done_;                  ///< per transfer: its comm ended
  std::vector<char> scheduled_transfer_;         ///< per task: gated or over an in-order link
  std::vector<sg4::CommPtr> scheduler_ended_;    ///< the scheduler's comms that ended
  bool reschedule_due_ = false;
  sg4::SemaphorePtr reschedule_bell_ = sg4::Semaphore::create(0);
};

GraphRun::GraphRun(const TaskGraph& g, const GraphHosts& hosts)
    : g_(g),
      hosts_(hosts),
      successors_(g.tasks().size()),
      waiting_(g.tasks().size(), 0),
      ids_(g.tasks().size()),
      acts_(g.tasks().size()),
      done_(g.tasks().size(), 0),
      start_s_(g.tasks().size(), 0),
      end_s_(g.tasks().size(), 0),
      remaining_(g.tasks().size()),
      issuers_(g.num_endpoints()),
      inboxes_(g.num_endpoints(), nullptr) {
  // A mapping may state a dependency twice; it counts once.
  std::vector<std::pair<uint32_t, uint32_t>> edges = g.edges();
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  for (const auto& [p, t] : edges) {
    successors_[p].push_back(t);
    ++waiting_[t];
  }
  for (const GraphLink& l : g.links()) scheduled_ = scheduled_ || l.in_order;
  scheduled_ = scheduled_ || !g.gated().empty();
  if (!scheduled_) return;
  const size_t n = g.tasks().size();
  window_opens_.resize(n);
  window_closes_.resize(n);
  gates_of_.resize(n);
  left_bytes_.assign(n, 0);
  comm_done_.assign(n, 0);
  window_state_.assign(g.gate_windows().size(), 0);
  gate_open_.assign(g.num_gates(), 0);
  for (uint32_t k = 0; k < g.gate_windows().size(); ++k) {
    window_opens_[g.gate_windows()[k].opens_after].push_back(k);
    window_closes_[g.gate_windows()[k].closes_after].push_back(k);
  }
  for (const auto& [t, gate] : g.gated()) gates_of_[t].push_back(gate);
  scheduled_transfer_.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const Task& t = g.tasks()[i];
    if (t.kind != TaskKind::kTransfer) continue;
    bool in_order = false;
    for (uint32_t l : g.routes()[t.where].links) in_order = in_order || g.links()[l].in_order;
    scheduled_transfer_[i] = in_order || !gates_of_[i].empty();
  }
}

void GraphRun::run(sg4::Engine* engine) {
  sg4::Activity::on_completion_cb([this](const sg4::Activity& a) {
    const uint32_t* id = a.get_data<uint32_t>();  // execs only: a put carries no id
    if (id != nullptr && a.get_state() == sg4::Activity::State::FINISHED) end(*id);
  });
  on_comm_end([this](const void* comm) {
    auto it = moving_.find(comm);
    if (it == moving_.end()) return;
    if (scheduled_) comm_done_[it->second] = 1;  // never stopped again
    ended_.push_back(it->second);
    moving_.erase(it);
    // Successors start from a timer due now: maestro runs it right after
    // this model update, where starting activities is safe.
    if (ended_.size() == 1) {
      simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock(), [this] { end_transfers(); });
    }
  });
  std::vector<char> sends(g_.num_endpoints(), 0);
  for (const Task& t : g_.tasks()) {
    if (t.kind != TaskKind::kTransfer) continue;
    const GraphRoute& r = g_.routes()[t.where];
    sends[r.src] = 1;
    if (inboxes_[r.dst] == nullptr) inboxes_[r.dst] = permanent_inbox(hosts_.endpoints[r.dst]);
  }
  for (uint32_t e = 0; e < g_.num_endpoints(); ++e) {
    if (!sends[e]) continue;
    sg4::Actor::create("issuer." + hosts_.endpoints[e]->get_name(), hosts_.endpoints[e], [this, e] {
      sg4::Actor::self()->daemonize();
      issue(e);
    });
  }
  if (scheduled_ && !hosts_.endpoints.empty()) {
    sg4::Actor::create("scheduler", hosts_.endpoints[0], [this] {
      sg4::Actor::self()->daemonize();
      for (;;) {
        reschedule_bell_->acquire();
        reschedule();
      }
    });
  }
  // The issuers and receivers are daemons: they end with this regular actor,
  // once every task has.
  if (!hosts_.endpoints.empty()) {
    sg4::Actor::create("graph", hosts_.endpoints[0], [this] { all_done_->acquire(); });
  }
  for (uint32_t i = 0; i < g_.tasks().size(); ++i) {
    if (waiting_[i] == 0) start(i);
  }
  if (remaining_ == 0) all_done_->release();
  engine->run();
}

void GraphRun::start(uint32_t i) {
  const Task& t = g_.tasks()[i];
  start_s_[i] = sg4::Engine::get_clock();
  if (t.kind == TaskKind::kTransfer && scheduled_ && is_scheduled(i)) {
    ready_scheduled_.push_back(i);
    left_bytes_[i] = t.amount;
    want_reschedule();
    return;
  }
  if (t.kind == TaskKind::kTransfer) {  // put at this time by its issuer
    Issuer& issuer = issuers_[g_.routes()[t.where].src];
    issuer.ready.push_back(i);
    ring(issuer);
    return;
  }
  // A delay is a kernel timer, not an activity: SimGrid 3.32 keeps an
  // activity maestro starts in maestro's list and removes it at its end by a
  // linear search (thousands of delays in flight at 256 GPUs: a third of the
  // CPU); a timer is a heap entry. Same end: start + amount at 1 flop per ns.
  if (t.kind == TaskKind::kDelay) {
    simgrid::kernel::timer::Timer::set(start_s_[i] + t.amount / kCoreSpeedFlops,
                                       [this, i] { end(i); });
    return;
  }
  sg4::Host* host = hosts_.exec[t.where];
  ids_[i] = i;
  sg4::ExecPtr exec = sg4::Exec::init();
  exec->set_flops_amount(t.amount)->set_host(host);
  exec->set_data(&ids_[i]);
  acts_[i] = exec;
  exec->start();
}

void GraphRun::end(uint32_t i) {
  done_[i] = 1;
  end_s_[i] = sg4::Engine::get_clock();
  if (scheduled_) {
    bool changed = false;
    for (uint32_t k : window_opens_[i]) {
      if (window_state_[k] != 0) continue;  // closed before it opened
      window_state_[k] = 1;
      changed = ++gate_open_[g_.gate_windows()[k].gate] == 1 || changed;
    }
    for (uint32_t k : window_closes_[i]) {
      const char was = std::exchange(window_state_[k], 2);
      if (was == 1) changed = --gate_open_[g_.gate_windows()[k].gate] == 0 || changed;
    }
    auto it = std::find(ready_scheduled_.begin(), ready_scheduled_.end(), i);
    if (it != ready_scheduled_.end()) {
      ready_scheduled_.erase(it);
      changed = true;
    }
    if (changed) want_reschedule();
  }
  for (uint32_t s : successors_[i]) {
    if (--waiting_[s] == 0) start(s);
  }
  if (--remaining_ == 0) all_done_->release();
}

void GraphRun::end_transfers() {
  for (uint32_t i : std::exchange(ended_, {})) {
    sg4::CommPtr comm = boost::static_pointer_cast<sg4::Comm>(acts_[i]);
    if (scheduled_ && is_scheduled(i)) {
      scheduler_ended_.push_back(std::move(comm));
      want_reschedule();
    } else {
      Issuer& issuer = issuers_[g_.routes()[g_.tasks()[i].where].src];
      issuer.ended.push_back(std::move(comm));
      ring(issuer);
    }
    end(i);
  }
}

void GraphRun::ring(Issuer& issuer) {
  if (issuer.rung) return;
  issuer.rung = true;
  issuer.bell->release();
}

void GraphRun::issue(uint32_t endpoint) {
  Issuer& me = issuers_[endpoint];
  for (;;) {
    me.bell->acquire();
    me.rung = false;
    // A put stays in its sender's activity list until tested, and SimGrid
    // removes from that list by a linear search: completing the ended ones
    // keeps it to the transfers still moving.
    for (sg4::CommPtr& c : std::exchange(me.ended, {})) c->test();
    for (uint32_t i : std::exchange(me.ready, {})) {
      const Task& t = g_.tasks()[i];
      sg4::CommPtr comm = put(hosts_.routes[t.where], inboxes_[g_.routes()[t.where].dst],
                              static_cast<uint64_t>(t.amount));
      moving_.emplace(comm->get_impl(), i);
      acts_[i] = std::move(comm);
    }
  }
}

void GraphRun::want_reschedule() {
  if (!std::exchange(reschedule_due_, true)) reschedule_bell_->release();
}

void GraphRun::reschedule() {
  reschedule_due_ = false;
  for (sg4::CommPtr& c : std::exchange(scheduler_ended_, {})) c->test();
  std::vector<uint32_t> order;
  for (uint32_t t : ready_scheduled_) {
    if (!comm_done_[t]) order.push_back(t);
  }
  std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
    return start_s_[a] != start_s_[b] ? start_s_[a] < start_s_[b] : a < b;
  });
  // In-order link -> when (s) the transfers moving on it became ready (the
  // earliest: `order` is by ready time).
  std::unordered_map<uint32_t, double> held_since_s;
  for (uint32_t t : order) {
    bool move = true;
    for (uint32_t gate : gates_of_[t]) move = move && gate_open_[gate] > 0;
    const GraphRoute& route = g_.routes()[g_.tasks()[t].where];
    for (uint32_t l : route.links) {
      if (!move || !g_.links()[l].in_order) continue;
      auto it = held_since_s.find(l);
      move = it == held_since_s.end() || !(it->second < start_s_[t]);
    }
    for (uint32_t l : route.links) {
      if (move && g_.links()[l].in_order) held_since_s.try_emplace(l, start_s_[t]);
    }
    const bool moving = acts_[t] != nullptr;
    if (move == moving) continue;
    if (moving) {  // stop: keep what is left
      sg4::CommPtr comm = boost::static_pointer_cast<sg4::Comm>(acts_[t]);
      left_bytes_[t] = comm->get_remaining();
      moving_.erase(comm->get_impl());
      comm->cancel();
      acts_[t] = nullptr;
    } else {
      sg4::CommPtr comm = put(hosts_.routes[g_.tasks()[t].where], inboxes_[route.dst],
                              static_cast<uint64_t>(std::llround(left_bytes_[t])));
      moving_.emplace(comm->get_impl(), t);
      acts_[t] = std::move(comm);
    }
  }
}

Result<TaskTimes> GraphRun::times() const {
  TaskTimes out;
  out.start_ns.resize(done_.size());
  out.end_ns.resize(done_.size());
  for (size_t i = 0; i < done_.size(); ++i) {
    if (!done_[i])
      return make_runtime_error("task graph: task " + std::to_string(i) + " never ran");
    out.start_ns[i] = start_s_[i] * 1e9;
    out.end_ns[i] = end_s_[i] * 1e9;
    out.makespan_ns = std::max(out.makespan_ns, out.end_ns[i]);
  }
  return out;
}

}  // namespace

Result<TaskTimes> run_task_graph(const TaskGraph& g) {
  XF_RETURN_IF_ERROR(g.validate());
  sg4::Engine* engine = SimgridPlatform::create_engine();
  // SimGrid rounds activity ends to surf/precision (default 1e-9 s): an
  // actor sleeping until absolute times loses nothing, but a graph's chain of
  // relative times (a kernel's traced times, a pinned schedule) drifts by up
  // to 1 ns per activity: 4.3 us over a 2x Jacobi inline replay (0.1%) when
  // delays were activities. 1 ps keeps it below 1e-5 of any replay and above
  // double's resolution up to 1000 s.
  sg4::Engine::set_config("surf/precision:1e-12");
  // The graph's actors (an issuer per sending endpoint, a receiver per
  // receiving one) only make simcalls. With SimGrid's default 8-MiB stacks
  // a fine 64-rank halo graph (thousands of endpoints) peaked 45 MB above
  // the sendto core, with 128 KiB 32 MB.
  sg4::Engine::set_config("contexts/stack-size:" + std::to_string(kActorStackKiB));
  const GraphHosts hosts = build_graph_platform(g);
  GraphRun run(g, hosts);
  run.run(engine);
  return run.times();
}

Result<TaskTimes> run_task_graph_isolated(const TaskGraph& graph) {
  // Reply: status byte, then the message or makespan + start/end arrays.
  Result<IsolatedChild> child = start_isolated([&graph] {
    Result<TaskTimes> r = run_task_graph(graph);
    std::string reply(1, r.ok() ? '\1' : '\0');
    if (!r.ok()) return reply + r.error().message;
    auto put = [&](const double* d, size_t n) {
      reply.append(reinterpret_cast<const char*>(d), n * sizeof(double));
    };
    put(&r->makespan_ns, 1);
    put(r->start_ns.data(), r->start_ns.size());
    put(r->end_ns.data(), r->end_ns.size());
    return reply;
  });
  if (!child.ok()) return child.error();
  Result<std::string> data = finish_isolated(*child, "task graph");
  if (!data.ok()) return data.error();
  if ((*data)[0] == '\0') return make_runtime_error(data->substr(1));
  const size_t n = graph.tasks().size();
  if (data->size() != 1 + (1 + 2 * n) * sizeof(double)) {
    return make_runtime_error("task graph: corrupt result from the simulation process");
  }
  TaskTimes out;
  out.start_ns.resize(n);
  out.end_ns.resize(n);
  const char* p = data->data() + 1;
  std::memcpy(&out.makespan_ns, p, sizeof(double));
  std::memcpy(out.start_ns.data(), p + sizeof(double), n * sizeof(double));
  std::memcpy(out.end_ns.data(), p + (1 + n) * sizeof(double), n * sizeof(double));
  return out;
}

}  // namespace xferlab::sim
