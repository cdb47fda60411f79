// sim/micro_trace.cc — the PROACT microbenchmark trace for any preset
// (micro_trace.h).
#include "sim/micro_trace.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "common/table.h"
#include "hw_model/platform.h"
#include "sim/api.h"
#include "sim/trace_adapter.h"
#include "sim/trace_command.h"
#include "traces/generator.h"

namespace xferlab::sim {

namespace {

// kCtaThreads: the microbenchmark's CTA size (native/proact kernels.h
// kBlockThreads: 256 threads x 16 B = 4 kB per CTA); CTAs per SM follow from
// the SM's warp slots.
constexpr int64_t kCtaThreads = 256;

// write: the trace with CTA duration `cta_ns`; returns its producer kernel's duration.
Result<double> write(const MicroTraceRequest& r, const traces::GenerateOptions& base,
                     const std::string& path, double cta_ns) {
  traces::GenerateOptions o = base;
  o.cta_ns = static_cast<uint64_t>(std::llround(std::max(1.0, cta_ns)));
  traces::WriterOptions w;
  if (r.compress) w.compression = traces::Compression::kZstd;
  XF_RETURN_IF_ERROR(traces::generate_trace(path, o, w));
  Result<ReplayInput> in = load_replay_input(path);
  if (!in.ok()) return in.error();
  return in->iterations.front().kernels.front().duration_ns;
}

// e2e: one mechanism's simulated end-to-end time of `trace` on the preset.
Result<double> e2e(const std::string& trace, const MicroTraceRequest& r, const char* mechanism) {
  ReplayRequest q;
  q.trace = trace;
  q.platform = r.platform;
  q.mechanism = mechanism;
  q.gpus = r.gpus;
  q.jobs = 1;
  Result<ReplayOutput> o = replay(q);
  if (!o.ok()) return o.error();
  return o->results.front().end_to_end_ns;
}

}  // namespace

Result<MicroTrace> generate_micro_trace(const MicroTraceRequest& r) {
  Result<hw_model::Platform> p = hw_model::load_platform(r.platform);
  if (!p.ok()) return make_error("trace generate: --platform: " + p.error().message);
  const uint32_t gpus = r.gpus > 0 ? r.gpus : static_cast<uint32_t>(p->gpu.count);
  if (gpus < 2) return make_error("trace generate: --workload micro needs 2 or more GPUs");
  if (r.cta_bytes == 0 || r.bytes % r.cta_bytes != 0 || r.chunk_bytes % r.cta_bytes != 0 ||
      r.bytes % r.chunk_bytes != 0) {
    return make_error(
        "trace generate: --bytes must be a multiple of --chunk-size, and that of "
        "--cta-bytes (4 kB per CTA in the paper)");
  }
  MicroTrace m;
  m.cta_slots =
      static_cast<uint32_t>(p->gpu.sm_count * (p->gpu.max_warps_per_sm * 32 / kCtaThreads));
  traces::GenerateOptions o;
  o.gpus = gpus;
  o.producers = 1;
  o.chunks = static_cast<uint32_t>(r.bytes / r.chunk_bytes);
  o.ctas = static_cast<uint32_t>(r.bytes / r.cta_bytes);
  o.chunk_bytes = r.chunk_bytes;
  o.iterations = 1;
  o.sms = m.cta_slots;
  o.seed = r.seed;
  o.compute_only = true;
  o.gpu_model = p->gpu.model;
  o.parameters = {{"workload", "micro"},
                  {"platform", r.platform},
                  {"bytes", std::to_string(r.bytes) + "B"},
                  {"cta_bytes", std::to_string(r.cta_bytes) + "B"},
                  {"match_copy", r.match_copy ? "true" : "false"}};
  XF_RETURN_IF_ERROR(o.validate());
  if (!r.match_copy) {
    Result<double> d = write(r, o, r.out, r.cta_ns);
    if (!d.ok()) return d.error();
    m.compute_ns = *d, m.cta_ns = r.cta_ns;
    return m;
  }
  // The copy time does not depend on the producer (cudaMemcpy runs after the
  // kernel): memcpy minus compute-only end-to-end of any draft.
  const std::string draft = (std::filesystem::temp_directory_path() /
                             ("xferlab-micro-" + std::to_string(::getpid()) + ".xft"))
                                .string();
  struct Remove {
    std::string path;
    ~Remove() { std::filesystem::remove(path); }
  } cleanup{draft};
  // The kernel's duration is linear in the CTA duration (waves of CTAs, the
  // same seeded jitter): two drafts give the line, the third is the trace.
  const double a = 1000, b = 10000;
  Result<double> da = write(r, o, draft, a);
  if (!da.ok()) return da.error();
  Result<double> with_copy = e2e(draft, r, "memcpy");
  if (!with_copy.ok()) return with_copy.error();
  Result<double> without = e2e(draft, r, "infinite");
  if (!without.ok()) return without.error();
  m.memcpy_ns = *with_copy - *without;
  Result<double> db = write(r, o, draft, b);
  if (!db.ok()) return db.error();
  const double slope = (*db - *da) / (b - a);
  m.cta_ns = a + (m.memcpy_ns - *da) / slope;
  if (!(m.cta_ns >= 1)) {
    return make_error("trace generate: the cudaMemcpy time on " + r.platform + " (" +
                      format_number(m.memcpy_ns / 1000, 4) +
                      " us) is shorter than the kernel's launch and CTA gaps alone");
  }
  Result<double> d = write(r, o, r.out, m.cta_ns);
  if (!d.ok()) return d.error();
  // One secant step through the last two points when the line missed by
  // more than 0.1% (the jitter is not exactly proportional).
  if (std::abs(*d / m.memcpy_ns - 1) > 1e-3 && *d != *db) {
    const double next = m.cta_ns + (m.memcpy_ns - *d) * (m.cta_ns - b) / (*d - *db);
    if (next >= 1) {
      d = write(r, o, r.out, next);
      if (!d.ok()) return d.error();
      m.cta_ns = next;
    }
  }
  m.compute_ns = *d;
  return m;
}

namespace {

FlagSet micro_flags() {
  FlagSet f("xferlab trace generate",
            "--workload micro: the PROACT microbenchmark (PROACT §IV-C) as a compute-only trace:\n"
            "GPU 0 produces --bytes, 4 kB per CTA, that every other GPU needs in full; CTAs run\n"
            "in waves over the preset's SMs (256-thread CTAs). --match-copy tunes the CTA time\n"
            "so the producer takes the preset's simulated cudaMemcpy duplication time (the\n"
            "paper's tuning: an ideal overlap gives 2x). Without --workload: the synthetic\n"
            "generator (`xferlab trace --help`).");
  f.set_positionals("OUT", 1, 1, "trace file to write");
  MicroTraceRequest d;
  f.add_string("workload", "micro", {"micro"}, "the workload")
      .add_string("platform", "", {}, "preset (required): GPU count, SMs, GPU model, copy time")
      .add_int("gpus", 0, 0, kMaxGpus, "GPUs (0: the preset's)")
      .add_size("bytes", std::to_string(d.bytes) + "B", 4096, 1ull << 40, "bytes produced")
      .add_size("cta-bytes", std::to_string(d.cta_bytes) + "B", 16, 1ull << 30,
                "bytes per source CTA")
      .add_size("chunk-size", std::to_string(d.chunk_bytes) + "B", 16, 1ull << 40,
                "the trace's chunks (replay --chunk-size re-cuts them)")
      .add_time("cta-time", "20us", "CTA duration without --match-copy")
      .add_bool("match-copy", false, "producer time = the preset's cudaMemcpy duplication time")
      .add_int("seed", static_cast<int64_t>(d.seed), 0, INT64_MAX, "jitter seed")
      .add_bool("compress", false, "zstd-compress the trace's blocks");
  return f;
}

int run_generate_workload(const cli::Args& args, std::ostream& out, std::ostream& err) {
  FlagSet flags = micro_flags();
  if (std::optional<int> rc = cli::parse_command_flags(flags, args, out, err)) return *rc;
  MicroTraceRequest r;
  r.out = flags.positionals()[0];
  r.platform = flags.get_string("platform");
  if (r.platform.empty()) {
    return cli::fail(err, make_error("trace generate: --workload micro needs --platform"));
  }
  r.gpus = static_cast<uint32_t>(flags.get_int("gpus"));
  r.bytes = static_cast<uint64_t>(flags.get_size("bytes"));
  r.cta_bytes = static_cast<uint64_t>(flags.get_size("cta-bytes"));
  r.chunk_bytes = static_cast<uint64_t>(flags.get_size("chunk-size"));
  r.cta_ns = flags.get_time_ns("cta-time");
  r.match_copy = flags.get_bool("match-copy");
  r.seed = static_cast<uint64_t>(flags.get_int("seed"));
  r.compress = flags.get_bool("compress");
  Result<MicroTrace> m = generate_micro_trace(r);
  if (!m.ok()) return cli::fail(err, m.error());
  out << "wrote " << r.out << ": micro on " << r.platform << ", "
      << format_number(static_cast<double>(r.bytes) / 1048576, 6) << " MiB from GPU 0 to every "
      << "other GPU, " << r.bytes / r.cta_bytes << " CTAs of " << r.cta_bytes << " B, "
      << m->cta_slots << " at once, CTA " << format_number(m->cta_ns / 1000, 4) << " us; producer "
      << format_number(m->compute_ns / 1000, 6) << " us";
  if (r.match_copy) {
    out << " vs cudaMemcpy duplication (simulated on " << r.platform << ") "
        << format_number(m->memcpy_ns / 1000, 6) << " us ("
        << format_number(100 * (m->compute_ns / m->memcpy_ns - 1), 3) << "%)";
  }
  out << "\n";
  return cli::kExitOk;
}

}  // namespace

int run_trace_generating_workloads(const cli::Args& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && args[0] == "generate") {
    for (const std::string& a : args) {
      if (a == "--workload" || a.rfind("--workload=", 0) == 0) {
        return run_generate_workload(cli::Args(args.begin() + 1, args.end()), out, err);
      }
    }
  }
  return run_trace(args, out, err);
}

}  // namespace xferlab::sim
