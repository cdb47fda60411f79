// native/bench/notify_bench.cc — notification costs on one GPU: flag latency
// through pinned host memory (ping-pong round trip and both one-way latencies
// via GPU<->host clock sync; GPU plain stores vs atomics), the CPU side's and
// the GPU side's read+write cost (as in the halo paper's table), kernel launch
// latency (launch-to-start, and back to back behind a spin latch), CDP2 child
// launch latency (fire-and-forget, tail launch), and stream memory operations
// (write-value visible on the host; host write -> wait-value release).
// Writes notify_bench.csv and notify_bench.xft into --out.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>

#include "common/flags.h"
#include "native/bench/bench_main.h"
#include "native/bench/bench_util.h"
#include "native/bench/notify_kernels.h"
#include "native/clock_sync.h"
#include "native/cuda_check.h"
#include "native/stats.h"
#include "native/stream_memops.h"
#include "native/trace_recorder.h"

namespace xferlab::native::bench {
namespace {

constexpr const char* kProgram = "notify_bench";

// OffsetCorrection: shift (ns) to subtract from GPU->CPU and add to CPU->GPU
// one-way samples taken through the clock fit, and the half width of the
// interval the true shift lies in.
struct OffsetCorrection {
  double shift_ns = 0;
  double uncertainty_ns = 0;
};

// causal_offset_correction: the fit's offset error e satisfies |e| <= the fit
// uncertainty, and causality: true g2c = g2c' - e >= 0 and c2g = c2g' + e >= 0
// for every round, i.e. -min(c2g') <= e <= min(g2c'). Takes the middle of the
// intersection (or of the causal interval if jitter makes them disjoint).
OffsetCorrection causal_offset_correction(const std::vector<double>& g2c,
                                          const std::vector<double>& c2g, double fit_unc_ns) {
  if (g2c.empty() || c2g.empty()) return {0, fit_unc_ns};
  const double causal_lo = -*std::min_element(c2g.begin(), c2g.end());
  const double causal_hi = *std::min_element(g2c.begin(), g2c.end());
  double lo = std::max(causal_lo, -fit_unc_ns), hi = std::min(causal_hi, fit_unc_ns);
  if (lo > hi) lo = causal_lo, hi = causal_hi;
  if (lo > hi) return {(lo + hi) / 2, (lo - hi) / 2};
  return {(lo + hi) / 2, (hi - lo) / 2};
}

class NotifyBench {
 public:
  NotifyBench(const FlagSet& flags, TraceRecorder& rec, int device)
      : flags_(flags),
        rec_(rec),
        device_(device),
        reps_(static_cast<uint32_t>(flags.get_int("reps"))),
        warmup_(static_cast<uint32_t>(flags.get_int("warmup"))),
        timeout_ns_(static_cast<uint64_t>(flags.get_time_ns("timeout"))),
        latch_(timeout_ns_),
        flags_mem_(4096),
        table_({{"test"},
                {"variant"},
                {"reps"},
                {"median_ns", 5},
                {"p10_ns", 5},
                {"p90_ns", 5},
                {"min_ns", 5},
                {"max_ns", 5},
                {"clock_uncertainty_ns", 4}}) {
    XF_CUDA_CHECK(cudaSetDevice(device_));
    XF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    const size_t n = std::max<size_t>(reps_ + warmup_ + 1, 128);  // 128: back_to_back batch
    XF_CUDA_CHECK(cudaMalloc(&d_a_, n * sizeof(uint64_t)));
    XF_CUDA_CHECK(cudaMalloc(&d_b_, n * sizeof(uint64_t)));
    rec_.metadata().flags = {{0, "gpu_to_cpu", "host_pinned"}, {1, "cpu_to_gpu", "host_pinned"}};
  }

  ~NotifyBench() {
    XF_CUDA_CHECK(cudaFree(d_a_));
    XF_CUDA_CHECK(cudaFree(d_b_));
    XF_CUDA_CHECK(cudaStreamDestroy(stream_));
  }

  Status run() {
    // Two clock-sync batches around the whole run give offset and drift for
    // the one-way latencies.
    XF_RETURN_IF_ERROR(measure_clock_samples(device_, 256, 0, clock_samples_));
    const std::string tests = flags_.get_string("tests");
    auto want = [&](const char* t) { return tests == "all" || tests == t; };
    if (want("flags")) {
      for (GpuFlagStore s : {GpuFlagStore::kVolatile, GpuFlagStore::kAtomic})
        XF_RETURN_IF_ERROR(flag_pingpong(s));
      cpu_read_write();
      XF_RETURN_IF_ERROR(gpu_read_write());
    }
    if (want("launch")) {
      XF_RETURN_IF_ERROR(launch_to_start());
      XF_RETURN_IF_ERROR(back_to_back());
    }
    if (want("cdp")) XF_RETURN_IF_ERROR(cdp());
    if (want("memops")) XF_RETURN_IF_ERROR(stream_memops());
    XF_RETURN_IF_ERROR(measure_clock_samples(device_, 256, 1, clock_samples_));
    XF_RETURN_IF_ERROR(finish_one_way());
    return Status::Ok();
  }

  const Table& table() const { return table_; }

 private:
  void add(const std::string& test, const std::string& variant, const std::vector<double>& ns,
           double uncertainty_ns = 0) {
    const Summary s = summarize(ns);
    table_.add_row({test, variant, static_cast<int64_t>(s.n), s.median, s.p10, s.p90, s.min, s.max,
                    uncertainty_ns});
    std::fprintf(stderr, "%s: %-28s %-16s median %10.1f ns  p10 %10.1f  p90 %10.1f\n", kProgram,
                 test.c_str(), variant.c_str(), s.median, s.p10, s.p90);
  }

  volatile uint32_t* host_flag(int i) { return static_cast<uint32_t*>(flags_mem_.get()) + 32 * i; }

  void reset_flags() { std::memset(flags_mem_.get(), 0, flags_mem_.bytes()); }

  // flag_pingpong: GPU sets to_cpu = i, CPU sees it and sets to_gpu = i, GPU
  // sees it. The GPU-side round trip is on one clock; the one-way latencies
  // need the clock fit and are computed at the end (finish_one_way).
  Status flag_pingpong(GpuFlagStore store) {
    const std::string variant = store == GpuFlagStore::kAtomic ? "gpu_atomic" : "gpu_volatile";
    reset_flags();
    const uint32_t rounds = reps_ + warmup_;
    volatile uint32_t* to_cpu = host_flag(0);
    volatile uint32_t* to_gpu = host_flag(1);
    volatile uint32_t* status = host_flag(2);
    launch_flag_pingpong(const_cast<uint32_t*>(to_cpu), const_cast<uint32_t*>(to_gpu), rounds,
                         store, d_a_, d_b_, const_cast<uint32_t*>(status), timeout_ns_,
                         rec_.device_trace(device_), stream_);
    std::vector<uint64_t> host_seen(rounds), host_set(rounds);
    for (uint32_t i = 1; i <= rounds; ++i) {
      XF_RETURN_IF_ERROR(
          spin_until([&] { return static_cast<int32_t>(*to_cpu - i) >= 0 || *status != 0; },
                     timeout_ns_, "the GPU to set flag gpu_to_cpu to " + std::to_string(i)));
      if (*status != 0) break;
      host_seen[i - 1] = host_steady_ns();
      host_set[i - 1] = host_steady_ns();
      *to_gpu = i;
      rec_.record_host_at(host_seen[i - 1], traces::EventKind::kFlagObserved, 0, traces::kHostGpu,
                          0, 0, i, i);
      rec_.record_host_at(host_set[i - 1], traces::EventKind::kFlagSet, 0, traces::kHostGpu, 0, 1,
                          i, i);
    }
    XF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (*status != 0)
      return make_runtime_error("timed out waiting on the GPU for flag cpu_to_gpu to reach " +
                                std::to_string(*status));
    std::vector<uint64_t> gpu_set(rounds), gpu_seen(rounds);
    XF_CUDA_CHECK(cudaMemcpy(gpu_set.data(), d_a_, rounds * 8, cudaMemcpyDeviceToHost));
    XF_CUDA_CHECK(cudaMemcpy(gpu_seen.data(), d_b_, rounds * 8, cudaMemcpyDeviceToHost));
    std::vector<double> rtt;
    for (uint32_t i = warmup_; i < rounds; ++i) rtt.push_back(double(gpu_seen[i] - gpu_set[i]));
    add("flag_pingpong_rtt", variant, rtt);
    pending_one_way_.push_back({variant,
                                std::vector<uint64_t>(gpu_set.begin() + warmup_, gpu_set.end()),
                                std::vector<uint64_t>(gpu_seen.begin() + warmup_, gpu_seen.end()),
                                std::vector<uint64_t>(host_seen.begin() + warmup_, host_seen.end()),
                                std::vector<uint64_t>(host_set.begin() + warmup_, host_set.end())});
    return Status::Ok();
  }

  // finish_one_way: flag latencies that do not depend on the GPU-host clock
  // offset come first: per round, the GPU round trip minus the CPU's own
  // turnaround is exactly g2c + c2g (each part on one clock), reported as
  // flag_one_way_half_rtt. The split into g2c and c2g needs the offset; the
  // clock fit alone (uncertainty ~1 us on PCIe) can make one of them
  // negative, so the offset is also bounded by causality (every g2c and c2g
  // >= 0) and taken at the middle of the interval allowed by both; the row's
  // clock_uncertainty_ns is that interval's half width.
  Status finish_one_way() {
    auto fit = fit_clock_sync(clock_samples_);
    if (!fit.ok()) return fit.error();
    for (const auto& p : pending_one_way_) {
      std::vector<double> half_rtt, g2c, c2g;
      for (size_t i = 0; i < p.gpu_set.size(); ++i) {
        const double sum = double(p.gpu_seen[i] - p.gpu_set[i]) -
                           double(int64_t(p.host_set[i]) - int64_t(p.host_seen[i]));
        half_rtt.push_back(sum / 2);
        g2c.push_back(double(int64_t(p.host_seen[i]) - fit->device_to_host_ns(p.gpu_set[i])));
        c2g.push_back(double(fit->device_to_host_ns(p.gpu_seen[i]) - int64_t(p.host_set[i])));
      }
      add("flag_one_way_half_rtt", p.variant, half_rtt);
      const OffsetCorrection corr = causal_offset_correction(g2c, c2g, fit->uncertainty_ns);
      for (double& v : g2c) v = std::max(0.0, v - corr.shift_ns);
      for (double& v : c2g) v = std::max(0.0, v + corr.shift_ns);
      add("flag_gpu_to_cpu_one_way", p.variant, g2c, corr.uncertainty_ns);
      add("flag_cpu_to_gpu_one_way", p.variant, c2g, corr.uncertainty_ns);
    }
    for (const auto& l : pending_launch_) {
      std::vector<double> ns;
      for (size_t i = 0; i < l.host_call.size(); ++i)
        ns.push_back(double(fit->device_to_host_ns(l.gpu_start[i]) - int64_t(l.host_call[i])));
      add("kernel_launch_to_start", "idle_stream", ns, fit->uncertainty_ns);
    }
    return Status::Ok();
  }

  // cpu_read_write: the CPU's notification work, one read + one write of
  // pinned host flags (no GPU traffic on them).
  void cpu_read_write() {
    constexpr uint32_t kIters = 1 << 16;
    for (bool fenced : {false, true}) {
      std::vector<double> per_pair;
      for (uint32_t rep = 0; rep < reps_ + warmup_; ++rep) {
        const uint64_t t0 = host_steady_ns();
        for (uint32_t i = 0; i < kIters; ++i) {
          const uint32_t v = *host_flag(i % 8);
          *host_flag(8 + i % 8) = v + 1;
          if (fenced) std::atomic_thread_fence(std::memory_order_seq_cst);
        }
        if (rep >= warmup_) per_pair.push_back(double(host_steady_ns() - t0) / kIters);
      }
      add("cpu_read_write_cost", fenced ? "volatile_fence" : "volatile", per_pair);
    }
  }

  Status gpu_read_write() {
    constexpr uint32_t kIters = 256;
    for (GpuReadWrite kind :
         {GpuReadWrite::kVolatile, GpuReadWrite::kVolatileFence, GpuReadWrite::kAtomic}) {
      std::vector<double> per_pair;
      for (uint32_t rep = 0; rep < reps_ + warmup_; ++rep) {
        launch_gpu_read_write(const_cast<uint32_t*>(host_flag(0)),
                              const_cast<uint32_t*>(host_flag(8)), 8, kIters, kind, d_a_, stream_);
        uint64_t total = 0;
        XF_CUDA_CHECK(cudaMemcpyAsync(&total, d_a_, 8, cudaMemcpyDeviceToHost, stream_));
        XF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        if (rep >= warmup_) per_pair.push_back(double(total) / kIters);
      }
      add("gpu_read_write_cost",
          kind == GpuReadWrite::kAtomic          ? "atomic"
          : kind == GpuReadWrite::kVolatileFence ? "volatile_fence"
                                                 : "volatile",
          per_pair);
    }
    return Status::Ok();
  }

  // launch_to_start: host clock just before the launch call on an idle
  // stream -> the kernel's first instruction (clock-mapped; includes enqueue).
  Status launch_to_start() {
    std::vector<double> api;
    PendingLaunch l;
    for (uint32_t rep = 0; rep < reps_ + warmup_; ++rep) {
      const uint64_t t0 = host_steady_ns();
      launch_timestamp_kernel(d_a_, d_b_, rep, DeviceTrace{}, stream_);
      const uint64_t t1 = host_steady_ns();
      XF_CUDA_CHECK(cudaStreamSynchronize(stream_));
      if (rep < warmup_) continue;
      api.push_back(double(t1 - t0));
      l.host_call.push_back(t0);
    }
    l.gpu_start.resize(reps_ + warmup_);
    XF_CUDA_CHECK(
        cudaMemcpy(l.gpu_start.data(), d_a_, l.gpu_start.size() * 8, cudaMemcpyDeviceToHost));
    l.gpu_start.erase(l.gpu_start.begin(), l.gpu_start.begin() + warmup_);
    pending_launch_.push_back(l);
    add("kernel_launch_api", "host_call", api);
    return Status::Ok();
  }

  // back_to_back: kernels queued behind the latch run back to back: the gap
  // between one kernel's last and the next one's first instruction is the
  // device-side launch overhead.
  Status back_to_back() {
    // Batches stay far below the stream's queue depth: launches must not
    // block while the latch holds the stream.
    constexpr uint32_t kBatch = 128;
    std::vector<double> gap, period;
    const uint32_t wanted = reps_;
    for (uint32_t batch = 0; gap.size() < wanted; ++batch) {
      const uint32_t n = kBatch;
      const bool last = gap.size() + (n - 1) >= wanted;
      latch_.hold(stream_);
      for (uint32_t i = 0; i < n; ++i)
        launch_timestamp_kernel(d_a_, d_b_, i,
                                last && i + 1 == n ? rec_.device_trace(device_) : DeviceTrace{},
                                stream_);
      latch_.release();
      XF_CUDA_CHECK(cudaStreamSynchronize(stream_));
      XF_RETURN_IF_ERROR(latch_.check());
      std::vector<uint64_t> start(n), end(n);
      XF_CUDA_CHECK(cudaMemcpy(start.data(), d_a_, n * 8, cudaMemcpyDeviceToHost));
      XF_CUDA_CHECK(cudaMemcpy(end.data(), d_b_, n * 8, cudaMemcpyDeviceToHost));
      // The first batch warms up.
      if (batch == 0 && warmup_ > 0) continue;
      for (uint32_t i = 1; i < n && gap.size() < wanted; ++i) {
        gap.push_back(double(start[i] - end[i - 1]));
        period.push_back(double(start[i] - start[i - 1]));
      }
    }
    add("kernel_back_to_back_gap", "latched", gap);
    add("kernel_back_to_back_period", "latched", period);
    return Status::Ok();
  }

  Status cdp() {
    for (CdpMode mode : {CdpMode::kFireAndForget, CdpMode::kTailLaunch}) {
      const uint32_t n = reps_ + warmup_;
      for (uint32_t i = 0; i < n; ++i) {
        launch_cdp_parent(d_a_, d_b_, i, mode, stream_);
        XF_CUDA_CHECK(cudaStreamSynchronize(stream_));
      }
      std::vector<uint64_t> parent(n), child(n);
      XF_CUDA_CHECK(cudaMemcpy(parent.data(), d_a_, n * 8, cudaMemcpyDeviceToHost));
      XF_CUDA_CHECK(cudaMemcpy(child.data(), d_b_, n * 8, cudaMemcpyDeviceToHost));
      std::vector<double> ns;
      for (uint32_t i = warmup_; i < n; ++i) ns.push_back(double(child[i] - parent[i]));
      add("cdp_child_launch", mode == CdpMode::kTailLaunch ? "tail_launch" : "fire_and_forget", ns);
    }
    return Status::Ok();
  }

  Status stream_memops() {
    auto ops = load_stream_memops();
    if (!ops.ok()) return ops.error();
    reset_flags();
    volatile uint32_t* flag = host_flag(0);
    std::vector<double> visible, api;
    for (uint32_t i = 1; i <= reps_ + warmup_; ++i) {
      const uint64_t t0 = host_steady_ns();
      XF_RETURN_IF_ERROR(ops->write32(stream_, const_cast<uint32_t*>(flag), i));
      const uint64_t t1 = host_steady_ns();
      XF_RETURN_IF_ERROR(
          spin_until([&] { return *flag == i; }, timeout_ns_,
                     "cuStreamWriteValue32 to set the host flag to " + std::to_string(i)));
      const uint64_t t2 = host_steady_ns();
      XF_CUDA_CHECK(cudaStreamSynchronize(stream_));
      if (i <= warmup_) continue;
      api.push_back(double(t1 - t0));
      visible.push_back(double(t2 - t0));
    }
    add("stream_write_value_api", "host_call", api);
    add("stream_write_value_visible", "idle_stream", visible);

    // Host write -> cuStreamWaitValue32 releases -> cuStreamWriteValue32 ack
    // seen by the host. The stream is already blocked when the host writes.
    volatile uint32_t* go = host_flag(1);
    volatile uint32_t* ack = host_flag(2);
    std::vector<double> rtt;
    for (uint32_t i = 1; i <= reps_ + warmup_; ++i) {
      XF_RETURN_IF_ERROR(ops->wait_geq32(stream_, const_cast<uint32_t*>(go), i));
      XF_RETURN_IF_ERROR(ops->write32(stream_, const_cast<uint32_t*>(ack), i));
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      const uint64_t t0 = host_steady_ns();
      *go = i;
      XF_RETURN_IF_ERROR(spin_until([&] { return *ack == i; }, timeout_ns_,
                                    "the stream to pass cuStreamWaitValue32(go >= " +
                                        std::to_string(i) + ") and acknowledge"));
      const uint64_t t1 = host_steady_ns();
      XF_CUDA_CHECK(cudaStreamSynchronize(stream_));
      if (i > warmup_) rtt.push_back(double(t1 - t0));
    }
    add("stream_wait_value_release_rtt", "host_write_to_ack", rtt);
    return Status::Ok();
  }

  struct PendingOneWay {
    std::string variant;
    std::vector<uint64_t> gpu_set, gpu_seen, host_seen, host_set;
  };
  struct PendingLaunch {
    std::vector<uint64_t> host_call, gpu_start;
  };

  const FlagSet& flags_;
  TraceRecorder& rec_;
  int device_;
  uint32_t reps_, warmup_;
  uint64_t timeout_ns_;
  SpinLatch latch_;
  PinnedBuffer flags_mem_;  ///< flags 128 B apart (no false sharing).
  Table table_;
  cudaStream_t stream_ = nullptr;
  uint64_t* d_a_ = nullptr;
  uint64_t* d_b_ = nullptr;
  std::vector<ClockSample> clock_samples_;
  std::vector<PendingOneWay> pending_one_way_;
  std::vector<PendingLaunch> pending_launch_;
};

}  // namespace

int benchmark_main(int argc, char** argv) {
  FlagSet flags(kProgram,
                "Notification costs: pinned-host flag latency and read+write costs, kernel "
                "launch, CDP2 child launch, stream memory operations. Writes notify_bench.csv "
                "and notify_bench.xft into --out.");
  add_common_flags(flags, 1000, 50);
  flags.add_string("tests", "all", {"all", "flags", "launch", "cdp", "memops"}, "which tests")
      .add_int("device", 0, 0, 63, "GPU to measure");
  parse_flags_or_exit(flags, argc, argv);
  const int device = device_or_exit(flags, kProgram);
  const std::string out = flags.get_string("out");
  exit_on_error(prepare_output_dir(out), kProgram);
  XF_CUDA_CHECK(cudaSetDevice(device));
  auto rec = make_recorder(flags, {device}, argc, argv);
  exit_on_error(rec.ok() ? Status::Ok() : Status(rec.error()), kProgram);
  int native_atomics = 0;
  XF_CUDA_CHECK(
      cudaDeviceGetAttribute(&native_atomics, cudaDevAttrHostNativeAtomicSupported, device));
  (*rec)->metadata().set_parameter("host_native_atomic_supported", native_atomics ? "1" : "0");
  exit_on_error((*rec)->sync_clocks(), kProgram);
  NotifyBench bench(flags, **rec, device);
  exit_on_error(bench.run(), kProgram);
  exit_on_error(finish_outputs(**rec, flags, {{"notify_bench.csv", &bench.table()}}, bench.table()),
                kProgram);
  return 0;
}

}  // namespace xferlab::native::bench
