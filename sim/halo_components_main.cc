// sim/halo_components_main.cc — halo_components: the measured components of
// halo / GDA runs side by side, one row per run (docs/halo_sim_log.md, "Box 24^3 /
// 32^3 and the eager limit"): where a component steps between sizes.
//
//   bazel run //sim:halo_components -- DIR_OR_TRACE...
//
// Per rank-0 trace (folders are searched): the largest message a rank sends
// to another rank, whether it goes by Open MPI's rendezvous protocol (above
// kEagerLimitBytes), and the medians the replay is built from (µs): that
// message's MPI latency (peer messages of that size only) and Isend call,
// the self Isend of the same size, the host-driven phases, the proxy's GPU
// front (sa/ki) and the iteration validate compares with; then the workload's
// latency line (a, b over every message, pooled per size) and, for stream /
// stacked, the notification loop's ready base, stacked's joint long pack and
// the GPU-to-CPU notification (docs/halo_sim_log.md, "Stacked 400^3: ...").
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "common/flags.h"
#include "common/table.h"
#include "sim/halo_model.h"
#include "sim/halo_trace.h"

namespace {

using namespace xferlab;

// peer_latency_ns: the median latency of the peer messages of `bytes`.
double peer_latency_ns(const sim::HaloRun& run, double bytes) {
  std::vector<double> v;
  for (const sim::Sample& s : run.mpi_latency) {
    if (!s.self && s.bytes == bytes) v.push_back(s.ns);
  }
  return sim::median(v);
}

}  // namespace

int main(int argc, char** argv) {
  FlagSet flags("halo_components",
                "The measured components of halo / GDA runs, one row per run (CSV).");
  flags.set_positionals("DIR_OR_TRACE", 1, SIZE_MAX,
                        "halo / GDA rank-0 traces, or folders searched for them");
  parse_flags_or_exit(flags, argc, argv);
  Result<std::vector<std::string>> found = sim::halo_rank0_traces(flags.positionals());
  if (!found.ok()) {
    std::cerr << "halo_components: " << found.error().message << "\n";
    return 1;
  }
  std::vector<std::string> traces = std::move(*found);
  std::sort(traces.begin(), traces.end());
  Table table({{"trace"},
               {"variant"},
               {"size"},
               {"ranks"},
               {"peer_bytes"},
               {"rendezvous"},
               {"iteration_us", 3},
               {"mpi_latency_us", 3},
               {"isend_peer_us", 3},
               {"isend_self_us", 3},
               {"pack_us", 3},
               {"post_send_us", 3},
               {"wait_recv_us", 3},
               {"unpack_us", 3},
               {"proxy_front_us", 3},
               {"progress_ns_per_byte", 4},
               {"line_a_us", 3},
               {"line_b_ns_per_byte", 4},
               {"ready_base_us", 3},
               {"ready_long_us", 3},
               {"notify_us", 3}});
  for (const std::string& path : traces) {
    Result<sim::HaloRun> run = sim::load_halo_run(path);
    if (!run.ok()) {
      std::cerr << "halo_components: " << run.error().message << "\n";
      return 1;
    }
    Result<sim::HaloWorkload> w = sim::workload_of(*run, sim::WorkRates{});
    if (!w.ok()) {
      std::cerr << "halo_components: " << w.error().message << "\n";
      return 1;
    }
    const sim::HaloRankTrace& t = run->r0();
    double peer = 0;
    for (const sim::HaloMessage& m : t.messages) {
      if (m.peer != t.rank) peer = std::max(peer, m.bytes);
    }
    const bool gda = t.variant == "sa" || t.variant == "ki";
    const bool notify = t.variant == "stream" || t.variant == "stacked";
    auto us = [](double ns) { return ns / 1000; };
    auto phase = [&](const char* p) { return gda ? NAN : us(run->phase_ns(p)); };
    table.add_row({std::filesystem::relative(path).string(),
                   t.variant,
                   t.label.substr(t.label.rfind('_') + 1),
                   int64_t{t.ranks},
                   static_cast<int64_t>(peer),
                   std::string(peer > sim::kEagerLimitBytes ? "yes" : "no"),
                   us(run->iteration_ns()),
                   us(peer_latency_ns(*run, peer)),
                   us(w->isend_peer.at(peer)),
                   w->isend_self.empty() ? NAN : us(w->isend_self.at(peer)),
                   phase("pack"),
                   phase("post_send"),
                   phase("wait_recv"),
                   phase("unpack"),
                   gda ? us(w->proxy_front_ns) : NAN,
                   w->progress_ns_per_byte,
                   us(w->mpi.a_ns),
                   w->mpi.b_ns_per_byte,
                   notify ? us(w->ready_base_ns) : NAN,
                   notify ? us(w->ready_long_ns) : NAN,
                   notify ? us(w->notify_gpu_to_cpu_ns) : NAN});
  }
  table.write_csv(std::cout);
  return 0;
}
