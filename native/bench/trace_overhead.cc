// native/bench/trace_overhead.cc — what device-side trace recording costs:
// time per recorded event (one thread alone, one warp, the whole GPU at once,
// and with recording switched off), and the slowdown of a PROACT-like
// producer kernel with recording compiled out / present but off / on.
// Writes trace_overhead.csv and trace_overhead.xft (one recorded workload
// run) into --out.
#include <cuda_runtime.h>

#include <cstdio>
#include <iostream>

#include "common/flags.h"
#include "native/bench/bench_main.h"
#include "native/bench/bench_util.h"
#include "native/bench/trace_overhead_kernels.h"
#include "native/cuda_check.h"
#include "native/stats.h"
#include "native/trace_recorder.h"

namespace xferlab::native::bench {
namespace {

constexpr const char* kProgram = "trace_overhead";

void add_trace_overhead_flags(FlagSet& flags) {
  add_common_flags(flags, 20, 3);
  flags.add_int("device", 0, 0, 63, "GPU to measure")
      .add_int("ctas-per-sm", 2, 1, 32, "CTAs per SM (burst and workload)")
      .add_int("threads", 256, 32, 1024, "threads per CTA (multiple of 32)")
      .add_int("events-per-thread", 8, 1, 1024, "events each thread records in the burst")
      .add_size("chunk", "64KiB", 16, 64 << 20, "bytes each workload CTA writes per pass")
      .add_int("passes", 4, 1, 1000, "workload passes over each chunk");
}

// Timer: times enqueued GPU work (warmup + reps runs, each started through
// the latch, the scratch recorder cleared after each) and collects
// trace_overhead.csv's rows.
struct Timer {
  cudaStream_t stream;
  SpinLatch& latch;
  TraceRecorder& scratch;
  int reps, warmup;
  Table table = Table({{"test"},
                       {"variant"},
                       {"reps"},
                       {"events_per_run"},
                       {"median_ns", 5},
                       {"p10_ns", 5},
                       {"p90_ns", 5},
                       {"ns_per_event", 4},
                       {"events_per_s", 4},
                       {"slowdown", 4}});

  Summary measure(const std::function<void()>& enqueue) {
    std::vector<double> times;
    for (int rep = -warmup; rep < reps; ++rep) {
      auto t = time_latched_ns(stream, latch, enqueue);
      exit_on_error(t.ok() ? Status::Ok() : Status(t.error()), kProgram);
      exit_on_error(scratch.clear(), kProgram);
      if (rep >= 0) times.push_back(*t);
    }
    return summarize(times);
  }
  void add(const std::string& test, const std::string& variant, uint64_t events, const Summary& s,
           double slowdown) {
    table.add_row({test, variant, static_cast<int64_t>(s.n), static_cast<int64_t>(events), s.median,
                   s.p10, s.p90, events ? s.median / events : 0.0,
                   events ? events / (s.median * 1e-9) : 0.0, slowdown});
  }
};

// time_bursts: record_burst with recording on and off, for one thread, one
// warp and the full GPU (ctas x threads x per_thread events).
void time_bursts(Timer& timer, const DeviceTrace& on, const DeviceTrace& off, int ctas, int threads,
                 uint32_t per_thread) {
  cudaStream_t stream = timer.stream;
  struct Burst {
    const char* name;
    int ctas, threads;
    uint32_t per_thread;
  };
  for (const Burst& b : {Burst{"one_thread", 1, 1, 4096}, Burst{"one_warp", 1, 32, 256},
                         Burst{"full_gpu", ctas, threads, per_thread}}) {
    const uint64_t events = uint64_t(b.ctas) * b.threads * b.per_thread;
    const Summary s_on =
        timer.measure([&] { launch_record_burst(on, b.ctas, b.threads, b.per_thread, stream); });
    const Summary s_off =
        timer.measure([&] { launch_record_burst(off, b.ctas, b.threads, b.per_thread, stream); });
    timer.add(std::string("record_burst_") + b.name, "on", events, s_on, 0);
    timer.add(std::string("record_burst_") + b.name, "off", events, s_off, 0);
  }
}

}  // namespace

int benchmark_main(int argc, char** argv) {
  FlagSet flags(kProgram,
                "Device trace recording overhead: ns per recorded event and the slowdown of a "
                "producer kernel with recording on vs off. Writes trace_overhead.csv and "
                "trace_overhead.xft into --out.");
  add_trace_overhead_flags(flags);
  parse_flags_or_exit(flags, argc, argv);
  if (flags.get_int("threads") % 32 != 0 || static_cast<uint64_t>(flags.get_size("chunk")) % 16)
    exit_on_error(make_error("--threads must be a multiple of 32 and --chunk of 16 bytes"),
                  kProgram);
  const int device = device_or_exit(flags, kProgram);
  const std::string out = flags.get_string("out");
  exit_on_error(prepare_output_dir(out), kProgram);
  XF_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  XF_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const int ctas = prop.multiProcessorCount * static_cast<int>(flags.get_int("ctas-per-sm"));
  const int threads = static_cast<int>(flags.get_int("threads"));
  const uint32_t per_thread = static_cast<uint32_t>(flags.get_int("events-per-thread"));
  const int reps = static_cast<int>(flags.get_int("reps"));
  const int warmup = static_cast<int>(flags.get_int("warmup"));
  const uint64_t chunk = static_cast<uint64_t>(flags.get_size("chunk"));
  const uint32_t passes = static_cast<uint32_t>(flags.get_int("passes"));

  // Measurement buffer: always on, sized so that no burst overflows, cleared
  // between runs; its events are not written.
  TraceRecorderOptions scratch_opts;
  scratch_opts.device_capacity_events =
      std::max<uint32_t>(uint32_t(ctas) * uint32_t(threads) * per_thread, 1u << 16);
  auto scratch = TraceRecorder::create({device}, scratch_opts);
  exit_on_error(scratch.ok() ? Status::Ok() : Status(scratch.error()), kProgram);
  auto rec = make_recorder(flags, {device}, argc, argv);
  exit_on_error(rec.ok() ? Status::Ok() : Status(rec.error()), kProgram);
  exit_on_error((*rec)->sync_clocks(), kProgram);

  cudaStream_t stream;
  XF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  SpinLatch latch(static_cast<uint64_t>(flags.get_time_ns("timeout")));
  Timer timer{stream, latch, **scratch, reps, warmup};

  const DeviceTrace on = (*scratch)->device_trace(device);
  DeviceTrace off = on;
  off.enabled = 0;
  time_bursts(timer, on, off, ctas, threads, per_thread);

  void* d_buf = nullptr;
  XF_CUDA_CHECK(cudaMalloc(&d_buf, chunk * ctas));
  const uint64_t events = uint64_t(ctas) * (2 + threads / 32);
  const Summary base = timer.measure([&] {
    launch_workload(d_buf, chunk, ctas, threads, passes, WorkloadRecording::kCompiledOut, on,
                    stream);
  });
  const Summary s_off = timer.measure([&] {
    launch_workload(d_buf, chunk, ctas, threads, passes, WorkloadRecording::kOn, off, stream);
  });
  const Summary s_on = timer.measure([&] {
    launch_workload(d_buf, chunk, ctas, threads, passes, WorkloadRecording::kOn, on, stream);
  });
  timer.add("workload", "compiled_out", 0, base, 1.0);
  timer.add("workload", "present_off", 0, s_off, s_off.median / base.median);
  timer.add("workload", "on", events, s_on, s_on.median / base.median);
  // One recorded run for the trace file.
  launch_workload(d_buf, chunk, ctas, threads, passes, WorkloadRecording::kOn,
                  (*rec)->device_trace(device), stream);
  XF_CUDA_CHECK(cudaStreamSynchronize(stream));
  XF_CUDA_CHECK(cudaFree(d_buf));
  XF_CUDA_CHECK(cudaStreamDestroy(stream));
  if ((*scratch)->lost_events() != 0)
    exit_on_error(make_runtime_error("measurement buffer overflowed; lower --events-per-thread"),
                  kProgram);

  exit_on_error(finish_outputs(**rec, flags, {{"trace_overhead.csv", &timer.table}}, timer.table),
                kProgram);
  return 0;
}

}  // namespace xferlab::native::bench
