// native/halo/halo_app.cc — the halo exchange program: flags, start-up checks
// that fail consistently on every rank before any collective can hang, the
// warm-up and timed loops, the min/avg/max report over ranks, and the trace.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/flags.h"
#include "common/number.h"
#include "common/table.h"
#include "native/cuda_check.h"
#include "native/halo/gpu_sharing.h"
#include "native/halo/halo_context.h"
#include "native/mpi_check.h"

namespace xferlab::halo {
namespace {

int env_rank() {
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* v = std::getenv(var)) {
      const Result<int64_t> rank = parse_int(v);
      return rank.ok() && *rank >= 0 ? static_cast<int>(*rank) : 0;
    }
  }
  return 0;
}

// fail_all: a check that every rank evaluates identically failed: rank 0
// prints the one line, every rank leaves with the same exit code.
int fail_all(const std::string& program, const std::string& message, int code, bool mpi_up) {
  if (env_rank() == 0) std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
  if (mpi_up) MPI_Finalize();
  return code;
}

std::string int3_text(const Int3& v) {
  return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
}

Result<DecompositionSpec> spec_from_flags(const xferlab::FlagSet& f) {
  DecompositionSpec spec;
  spec.vars = static_cast<int>(f.get_int("vars"));
  spec.pattern = f.get_string("pattern") == "7" ? Pattern::k7Point : Pattern::k27Point;
  int given = 0;
  if (!f.get_string("paper").empty()) {
    auto p = paper_per_rank_cells(f.get_string("paper"));
    if (!p.ok()) return p.error();
    spec.per_rank_cells = *p;
    ++given;
  }
  if (!f.get_string("per-rank").empty()) {
    auto p = parse_int3(f.get_string("per-rank"), "--per-rank");
    if (!p.ok()) return p.error();
    spec.per_rank_cells = *p;
    ++given;
  }
  if (!f.get_string("global").empty()) {
    auto g = parse_int3(f.get_string("global"), "--global");
    if (!g.ok()) return g.error();
    spec.global_cells = *g;
    ++given;
  }
  if (given != 1) return make_error("give exactly one of --paper, --per-rank, --global");
  if (!f.get_string("procs").empty()) {
    auto p = parse_int3(f.get_string("procs"), "--procs");
    if (!p.ok()) return p.error();
    spec.procs = *p;
  }
  return spec;
}

// Reduce one per-rank value to min/avg/max on rank 0.
std::array<double, 3> reduce3(double v, int size) {
  double mn = 0, mx = 0, sum = 0;
  XF_MPI_CHECK(MPI_Reduce(&v, &mn, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD));
  XF_MPI_CHECK(MPI_Reduce(&v, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
  XF_MPI_CHECK(MPI_Reduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
  return {mn, sum / size, mx};
}

void add_trace_tables(traces::Metadata& md, const HaloContext& c) {
  for (int p = 0; p < kNumPhases; ++p)
    md.phases.push_back({static_cast<uint32_t>(p), phase_name(static_cast<Phase>(p))});
  for (uint32_t a = 0; a < static_cast<uint32_t>(FlagArray::kNumArrays); ++a) {
    for (int m = 0; m < c.num_messages(); ++m) {
      md.flags.push_back(
          {a * kFlagsPerArray + m,
           std::string(flag_array_name(static_cast<FlagArray>(a))) + "[" + std::to_string(m) + "]",
           a == static_cast<uint32_t>(FlagArray::kDeviceReady) ? "device" : "host_pinned"});
    }
  }
  const char* kernels[] = {
      "",        "compute", "pack_fused", "unpack_fused",     "pack_notify",     "unpack_notify",
      "stacked", "verify",  "gdasync_ki", "compute_boundary", "compute_interior"};
  for (uint32_t k = 1; k < sizeof(kernels) / sizeof(kernels[0]); ++k)
    md.kernels.push_back({k, kernels[k], 0, 0});
  std::ostringstream msgs;
  for (int m = 0; m < c.num_messages(); ++m) {
    const Message& msg = c.messages[m];
    msgs << (m ? ";" : "") << m << ":" << msg.direction << ":" << message_kind_name(msg.kind) << ":"
         << msg.peer << ":" << msg.bytes;
  }
  md.set_parameter("messages", msgs.str());
}

// declare_flags: the program's flags (docs/cli.md is generated from them).
void declare_flags(xferlab::FlagSet& f, const std::vector<std::string>& variant_names) {
  f.add_string("variant", "baseline", variant_names, "exchange strategy")
      .add_string("paper", "", {},
                  "paper size by global cube edge: 200 | 400 | 800 (split 4x4x4; "
                  "each rank gets that per-rank block)")
      .add_string("per-rank", "", {}, "cells per rank N or NX,NY,NZ")
      .add_string("global", "", {}, "global cells N or NX,NY,NZ (split over the ranks)")
      .add_string("procs", "", {}, "process grid PX,PY,PZ (default: balanced)")
      .add_int("vars", 3, 1, 64, "double variables per cell (Comb -vars)")
      .add_string("pattern", "27", {"27", "7"}, "27: faces+edges+corners (26 messages); 7: faces")
      .add_int("warmup", 10, 0, 1000000, "untimed iterations first")
      .add_int("iterations", 50, 1, 10000000, "timed iterations")
      .add_time("timeout", "10s", "bound of every spin-wait (CPU and GPU)")
      .add_size("stacked-long", "4096", 8, 1e12, "stacked: messages this large use all CTAs")
      .add_bool("verify", true, "check every ghost cell after every exchange")
      .add_int("gpus", 0, 0, 1024, "expected GPUs per node (0: any); a mismatch is an error")
      .add_bool("share-gpus", true,
                "allow more ranks than GPUs per node (device = rank % GPUs); stacked needs it "
                "given explicitly (its ranks would take turns on a GPU)")
      .add_string("csv", "", {}, "append the timer table (rank 0) to this CSV file")
      .add_string("trace-dir", "", {}, "write one trace per rank into this directory")
      .add_string("label", "", {}, "size label in the CSV and trace names (default: per-rank)");
}

RunOptions run_options(const xferlab::FlagSet& f) {
  RunOptions opt;
  opt.variant = f.get_string("variant");
  opt.warmup_iterations = static_cast<int>(f.get_int("warmup"));
  opt.iterations = static_cast<int>(f.get_int("iterations"));
  opt.timeout_ns = static_cast<uint64_t>(f.get_time_ns("timeout"));
  opt.stacked_long_bytes = static_cast<int64_t>(f.get_size("stacked-long"));
  opt.verify = f.get_bool("verify");
  return opt;
}

// NodeGpus: this rank's view of its node's GPUs.
struct NodeGpus {
  int gpus = 0;    ///< visible on this node.
  int device = 0;  ///< this rank's GPU (local rank % gpus).
};

// check_node_gpus: GPU checks differ per node: each rank decides (the same
// on every rank of a node), then all agree in one collective every rank
// reaches, before anything can wait on a peer. On failure the node's first
// rank prints the one line and the value is the exit code for every rank;
// 0: go on, with `out` filled.
int check_node_gpus(const xferlab::FlagSet& f, const std::string& program, const Variant& variant,
                    NodeGpus& out) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm node;
  XF_MPI_CHECK(
      MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  int local_rank = 0, local_size = 0;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);
  std::string local_error, warning;
  int local_code = 0;
  const cudaError_t cerr = cudaGetDeviceCount(&out.gpus);
  if (cerr != cudaSuccess || out.gpus == 0) {
    local_error = std::string("no CUDA device (") +
                  (cerr == cudaSuccess ? "0 devices" : cudaGetErrorString(cerr)) + ")";
    local_code = 1;
  } else if (f.get_int("gpus") != 0 && f.get_int("gpus") != out.gpus) {
    local_error = "expected " + std::to_string(f.get_int("gpus")) + " GPUs (--gpus) but found " +
                  std::to_string(out.gpus);
    local_code = 2;
  } else {
    const Result<std::string> sharing =
        decide_gpu_sharing({local_size, out.gpus, variant.name, variant.occupies_gpu,
                            f.get_bool("share-gpus"), f.was_set("share-gpus")});
    if (!sharing.ok()) {
      local_error = sharing.error().message;
      local_code = sharing.error().exit_code();
    } else {
      warning = *sharing;
    }
  }
  int worst = 0;
  XF_MPI_CHECK(MPI_Allreduce(&local_code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  if (local_rank == 0 && local_code != 0)
    std::fprintf(stderr, "%s: rank %d: %s\n", program.c_str(), rank, local_error.c_str());
  if (worst != 0) return worst;
  if (local_rank == 0 && !warning.empty())
    std::fprintf(stderr, "%s: rank %d: %s\n", program.c_str(), rank, warning.c_str());
  out.device = local_rank % out.gpus;
  return 0;
}

// make_recorder: --trace-dir: one recorder per rank with the run's metadata.
std::unique_ptr<xferlab::native::TraceRecorder> make_recorder(const xferlab::FlagSet& f,
                                                              const std::string& program,
                                                              const Decomposition& d, int rank,
                                                              int size, int device, int argc,
                                                              char** argv) {
  if (f.get_string("trace-dir").empty()) return nullptr;
  xferlab::native::TraceRecorderOptions ropt;
  ropt.gpu_ids = {static_cast<uint16_t>(rank)};
  auto r = xferlab::native::TraceRecorder::create({device}, ropt);
  if (!r.ok()) {
    std::fprintf(stderr, "%s: rank %d: %s\n", program.c_str(), rank, r.error().message.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::unique_ptr<xferlab::native::TraceRecorder> recorder = std::move(*r);
  recorder->set_producer(program, argc, argv);
  recorder->metadata().machine.mpi = xferlab::native::mpi_library_version();
  for (const auto& [k, v] : f.values()) recorder->metadata().set_parameter(k, v);
  recorder->metadata().set_parameter("rank", std::to_string(rank));
  recorder->metadata().set_parameter("ranks", std::to_string(size));
  recorder->metadata().set_parameter("device", std::to_string(device));
  recorder->metadata().set_parameter("decomposition", d.describe());
  if (!recorder->sync_clocks().ok())
    std::fprintf(stderr, "%s: rank %d: clock sync failed\n", program.c_str(), rank);
  return recorder;
}

// run_loops: warm-up, then the timed iterations; returns the wall time of
// the timed ones (ns). Faults and verification failures abort the run.
double run_loops(HaloContext& ctx, VariantRunner& runner, xferlab::native::TraceRecorder* recorder,
                 int rank) {
  const RunOptions& opt = ctx.options;
  uint32_t t = 0;
  for (int i = 0; i < opt.warmup_iterations; ++i) runner.iteration(t++);
  runner.drain();
  ctx.collect_verify_times();
  ctx.check_fault();
  ctx.check_verification();
  XF_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
  ctx.timing = true;
  const uint64_t start = xferlab::native::host_steady_ns();
  for (int i = 0; i < opt.iterations; ++i) {
    if (recorder) recorder->record_host(traces::EventKind::kIteration, 0, rank, 0, t, 0, 0);
    runner.iteration(t++);
  }
  ctx.phase_begin(Phase::kTotal);
  runner.drain();
  ctx.phase_end(Phase::kTotal);
  const double wall_ns = static_cast<double>(xferlab::native::host_steady_ns() - start);
  ctx.timing = false;
  ctx.collect_verify_times();
  ctx.check_fault();
  ctx.check_verification();
  return wall_ns;
}

// report: per-rank averages per iteration, reduced over ranks (every rank
// takes part); rank 0 prints the table and appends it to --csv.
void report(const xferlab::FlagSet& f, const HaloContext& ctx, const VariantRunner& runner,
            const std::string& variant, const std::string& label, int rank, int size, int gpus,
            double wall_ns) {
  const int iterations = ctx.options.iterations;
  Table table({{"variant"},
               {"size"},
               {"ranks"},
               {"gpus_per_node"},
               {"iterations"},
               {"phase"},
               {"min_ns", 6},
               {"avg_ns", 6},
               {"max_ns", 6}});
  auto add = [&](const std::string& phase, double per_rank) {
    auto r = reduce3(per_rank, size);
    table.add_row({variant, label, int64_t{size}, int64_t{gpus}, int64_t{iterations}, phase, r[0],
                   r[1], r[2]});
  };
  for (int p = 0; p < kNumPhases; ++p) {
    const Phase phase = static_cast<Phase>(p);
    if (!ctx.phase_measured(phase)) continue;
    add(phase_name(phase), static_cast<double>(ctx.phase_ns()[p]) / iterations);
  }
  add("iteration_wall", wall_ns / iterations);
  for (const auto& [name, value] : runner.extra_metrics()) add(name, value);
  if (rank != 0) return;
  table.write_text(std::cout);
  const std::string csv = f.get_string("csv");
  if (csv.empty()) return;
  std::ifstream existing(csv);
  const bool has_header = existing.good() && existing.peek() != std::ifstream::traits_type::eof();
  std::ostringstream text;
  table.write_csv(text);
  std::string body = text.str();
  if (has_header) body = body.substr(body.find('\n') + 1);
  std::ofstream(csv, std::ios::app) << body;
}

void write_trace(xferlab::native::TraceRecorder& recorder, const std::string& program,
                 const std::string& path, int rank) {
  if (!recorder.sync_clocks().ok())
    std::fprintf(stderr, "%s: rank %d: clock sync failed\n", program.c_str(), rank);
  Status st = recorder.write(path);
  if (!st.ok())
    std::fprintf(stderr, "%s: rank %d: %s\n", program.c_str(), rank, st.error().message.c_str());
}

}  // namespace

int halo_main(int argc, char** argv, const std::string& program,
              const std::vector<Variant>& extra) {
  xferlab::native::use_eager_module_loading();  // persistent kernels wait on the host.
  std::vector<Variant> variants = builtin_variants();
  variants.insert(variants.end(), extra.begin(), extra.end());
  std::vector<std::string> names;
  for (const Variant& v : variants) names.push_back(v.name);

  xferlab::FlagSet f(program,
                     "3D halo exchange over MPI (Comb layout, 27-point, periodic) with "
                     "host-driven and notification-driven variants; run under mpirun.");
  declare_flags(f, names);
  if (!xferlab::native::launched_by_mpirun()) {
    std::fprintf(stderr, "%s: not started by an MPI launcher (run: mpirun -np N %s ...)\n",
                 program.c_str(), program.c_str());
    return 2;
  }
  auto parsed = f.parse(argc, argv);
  if (!parsed.ok()) return fail_all(program, parsed.error().message, 2, false);
  if (!*parsed) {
    if (env_rank() == 0) std::printf("%s", f.help().c_str());
    return 0;
  }
  auto spec = spec_from_flags(f);
  if (!spec.ok()) return fail_all(program, spec.error().message, 2, false);
  const Variant* variant = nullptr;
  for (const Variant& v : variants)
    if (v.name == f.get_string("variant")) variant = &v;

  int provided = 0;
  XF_MPI_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto decomposition = Decomposition::make(*spec, size);
  if (!decomposition.ok()) return fail_all(program, decomposition.error().message, 2, true);
  NodeGpus node;
  if (const int code = check_node_gpus(f, program, *variant, node); code != 0) {
    MPI_Finalize();
    return code;
  }
  XF_CUDA_CHECK(cudaSetDevice(node.device));

  const RunOptions opt = run_options(f);
  const Decomposition& d = *decomposition;
  const std::string label =
      f.get_string("label").empty() ? int3_text(d.per_rank_cells()) : f.get_string("label");
  std::unique_ptr<xferlab::native::TraceRecorder> recorder =
      make_recorder(f, program, d, rank, size, node.device, argc, argv);
  HaloContext ctx(d, rank, node.device, opt, recorder.get());
  if (recorder) add_trace_tables(recorder->metadata(), ctx);
  std::unique_ptr<VariantRunner> runner = variant->make(ctx);
  if (rank == 0) {
    std::printf("%s: variant %s, %s, %d ranks, %d GPU(s) per node, %d messages per rank\n",
                program.c_str(), variant->name.c_str(), d.describe().c_str(), size, node.gpus,
                ctx.num_messages());
  }
  const double wall_ns = run_loops(ctx, *runner, recorder.get(), rank);
  report(f, ctx, *runner, variant->name, label, rank, size, node.gpus, wall_ns);
  if (recorder) {
    write_trace(*recorder, program,
                f.get_string("trace-dir") + "/" + variant->name + "_" + label + "_rank" +
                    std::to_string(rank) + ".xft",
                rank);
  }
  runner.reset();
  XF_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Finalize();
  return 0;
}

}  // namespace xferlab::halo
