// sim/task_graph.cc — builds a TaskGraph as SimGrid activities and runs it.
#include "sim/task_graph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <simgrid/s4u.hpp>

#include "sim/isolated.h"
#include "sim/simgrid_platform.h"

namespace xferlab::sim {

namespace sg4 = simgrid::s4u;

uint32_t TaskGraph::add_executor(std::string name, uint32_t cores) {
  executors_.push_back({std::move(name), cores});
  return static_cast<uint32_t>(executors_.size() - 1);
}

uint32_t TaskGraph::add_link(std::string name, double bw_bytes_per_s, double latency_ns) {
  links_.push_back({std::move(name), bw_bytes_per_s, latency_ns});
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
    for (uint32_t l : r.links) {
      if (l >= links_.size()) return make_error("task graph: route uses an unknown link");
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

// GraphHosts: the SimGrid hosts a task graph runs on.
struct GraphHosts {
  std::vector<sg4::Host*> exec;       ///< per executor: its cores.
  std::vector<sg4::Host*> delay;      ///< per executor: its delays, one core each.
  std::vector<sg4::Host*> endpoints;  ///< per endpoint (transfers between them).
};

// build_graph_platform: the graph's executors, endpoints, links and routes.
GraphHosts build_graph_platform(const TaskGraph& g) {
  GraphHosts hosts;
  // Endpoints and links in a full zone (its route table is endpoints
  // squared); executors in an empty sibling zone, so they cost no routes.
  // No activity crosses the two, so neither needs a gateway.
  sg4::NetZone* root = sg4::create_empty_zone("task_graph");
  sg4::NetZone* zone = sg4::create_full_zone("network");
  zone->set_parent(root);
  sg4::NetZone* compute = sg4::create_empty_zone("executors");
  compute->set_parent(root);
  // Each executor is a host with its cores; its delays run on a companion
  // host with as many cores as tasks, so they never share (and each
  // executor's delays stay in their own max-min constraint).
  std::vector<uint32_t> delays_near(g.executors().size(), 0);
  for (const Task& t : g.tasks()) {
    if (t.kind == TaskKind::kDelay) ++delays_near[t.where];
  }
  for (size_t i = 0; i < g.executors().size(); ++i) {
    const GraphExecutor& e = g.executors()[i];
    hosts.exec.push_back(compute->create_host(e.name, kCoreSpeedFlops)
                             ->set_core_count(static_cast<int>(e.cores))
                             ->seal());
    hosts.delay.push_back(compute->create_host(e.name + ".latency", kCoreSpeedFlops)
                              ->set_core_count(static_cast<int>(std::max(1u, delays_near[i])))
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
  for (const GraphRoute& r : g.routes()) {
    std::vector<sg4::LinkInRoute> path;
    for (uint32_t l : r.links) path.emplace_back(links[l]);
    zone->add_route(hosts.endpoints[r.src]->get_netpoint(), hosts.endpoints[r.dst]->get_netpoint(),
                    nullptr, nullptr, path, false);
  }
  compute->seal();
  zone->seal();
  root->seal();
  return hosts;
}

}  // namespace

Result<TaskTimes> run_task_graph(const TaskGraph& g) {
  XF_RETURN_IF_ERROR(g.validate());
  sg4::Engine* engine = SimgridPlatform::create_engine();
  // SimGrid rounds activity ends to surf/precision (default 1e-9 s): an
  // actor sleeping until absolute times loses nothing, but a graph's chain of
  // relative delays (a kernel's traced times, a pinned schedule) drifts by up
  // to 1 ns per link: 4.3 us over a 2x Jacobi inline replay (0.1%). 1 ps keeps
  // it below 1e-5 of any replay and above double's resolution up to 1000 s.
  sg4::Engine::set_config("surf/precision:1e-12");
  const GraphHosts hosts = build_graph_platform(g);

  // An activity is created when its last predecessor ends, not up front with
  // add_successor: SimGrid 3.32 keeps every created activity in its issuer's
  // list and removes each one at its end by a linear search, so creating the
  // whole graph at once costs time quadratic in its size (37 s instead of
  // well under a second for a PROACT replay of 10^5 tasks); created when
  // ready, the list holds only the running ones. Same start times: a task
  // starts when its last predecessor ends either way.
  const size_t n = g.tasks().size();
  // A mapping may state a dependency twice; it counts once.
  std::vector<std::pair<uint32_t, uint32_t>> edges = g.edges();
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<std::vector<uint32_t>> successors(n);
  std::vector<uint32_t> waiting(n, 0), ids(n);
  for (const auto& [p, t] : edges) {
    successors[p].push_back(t);
    ++waiting[t];
  }
  std::vector<sg4::ActivityPtr> acts(n);
  auto start = [&](uint32_t i) {
    const Task& t = g.tasks()[i];
    ids[i] = i;
    if (t.kind == TaskKind::kTransfer) {
      const GraphRoute& r = g.routes()[t.where];
      sg4::CommPtr comm = sg4::Comm::sendto_init(hosts.endpoints[r.src], hosts.endpoints[r.dst]);
      comm->set_payload_size(t.amount);
      comm->set_data(&ids[i]);
      acts[i] = comm;
      comm->start();
    } else {
      sg4::Host* host = t.kind == TaskKind::kWork ? hosts.exec[t.where] : hosts.delay[t.where];
      sg4::ExecPtr exec = sg4::Exec::init();
      exec->set_flops_amount(t.amount)->set_host(host);
      exec->set_data(&ids[i]);
      acts[i] = exec;
      exec->start();
    }
  };
  sg4::Activity::on_completion_cb([&](const sg4::Activity& a) {
    const uint32_t* id = a.get_data<uint32_t>();
    if (id == nullptr || a.get_state() != sg4::Activity::State::FINISHED) return;
    for (uint32_t s : successors[*id]) {
      if (--waiting[s] == 0) start(s);
    }
  });
  for (uint32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) start(i);
  }
  engine->run();

  TaskTimes out;
  out.start_ns.resize(acts.size());
  out.end_ns.resize(acts.size());
  for (size_t i = 0; i < acts.size(); ++i) {
    if (!acts[i] || acts[i]->get_state() != sg4::Activity::State::FINISHED) {
      return make_runtime_error("task graph: task " + std::to_string(i) + " never ran");
    }
    out.start_ns[i] = acts[i]->get_start_time() * 1e9;
    out.end_ns[i] = acts[i]->get_finish_time() * 1e9;
    out.makespan_ns = std::max(out.makespan_ns, out.end_ns[i]);
  }
  return out;
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
