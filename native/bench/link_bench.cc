// native/bench/link_bench.cc — link goodput vs write size: SM stores and
// loads of 1..256 B (contiguous and one per 128/256-B line) to the peer GPU
// over NVLink and to pinned host memory over PCIe, plus copy-engine copies
// 4 kB..1 GB (per-copy initiation cost and peak bandwidth). Writes
// link_bench.csv, link_bench_summary.csv and link_bench.xft into --out.
// On a 1-GPU machine the peer parts are skipped with a message.
// --variants: before the write-size sweep, contiguous 16-B peer writes are
// timed for every launch shape x store mechanism of write_variants()
// (link_bench_variants.csv); the fastest one is added to link_bench.csv as an
// sm_write peer contiguous row, so the summary's best contiguous SM bandwidth
// is the best the kernels reach, found in one GPU run.
// --targets=fanout: --device writes to every other GPU at once (contiguous SM
// stores and copy-engine copies, one stream per peer; rows with target
// "peers"): on an NVSwitch machine the peers share the device's switch ports,
// so the aggregate stays near one peer's bandwidth; on a mesh it adds up.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <memory>

#include "common/flags.h"
#include "native/bench/bench_main.h"
#include "native/bench/bench_util.h"
#include "native/bench/link_kernels.h"
#include "native/bench/link_results.h"
#include "native/cuda_check.h"
#include "native/stats.h"
#include "native/trace_recorder.h"

namespace xferlab::native::bench {
namespace {

// VariantResult: one timed write variant (link_bench_variants.csv row).
struct VariantResult {
  WriteVariant variant;
  int ctas = 0;
  uint64_t payload_bytes = 0;
  Summary time_ns;
  uint64_t mismatches = 0;

  double bw_bytes_per_s() const {
    return time_ns.median > 0 ? payload_bytes / (time_ns.median * 1e-9) : 0;
  }
};

constexpr const char* kProgram = "link_bench";

// Location: memory a test touches, and the device that reaches it locally
// (fills it before reads, verifies it after writes).
struct Location {
  std::string name;  ///< peer | host | local.
  void* ptr = nullptr;
  int device = 0;
};

class LinkBench {
 public:
  LinkBench(const FlagSet& flags, TraceRecorder& rec, int device, int peer, bool with_peer,
            bool with_host, std::vector<int> fanout_peers)
      : flags_(flags),
        rec_(rec),
        device_(device),
        peer_(peer),
        with_peer_(with_peer),
        with_host_(with_host),
        fanout_peers_(std::move(fanout_peers)),
        latch_(static_cast<uint64_t>(flags.get_time_ns("timeout"))) {}

  Status run() {
    XF_RETURN_IF_ERROR(allocate());
    const std::string tests = flags_.get_string("tests");
    std::vector<Location> targets;
    if (with_peer_) targets.push_back(peer_loc_);
    if (with_host_) targets.push_back(host_loc_);
    for (const Location& target : targets) {
      if (tests != "ce" && target.name == "peer" && flags_.get_bool("variants"))
        XF_RETURN_IF_ERROR(run_write_variants(target));
      if (tests != "ce") {
        for (const char* op : {"write", "read"}) XF_RETURN_IF_ERROR(run_sm(op, target));
      }
      if (tests != "sm") {
        for (const char* op : {"write", "read"}) XF_RETURN_IF_ERROR(run_ce(op, target));
      }
    }
    if (!fanout_peers_.empty()) {
      if (tests != "ce") XF_RETURN_IF_ERROR(run_fanout_sm());
      if (tests != "sm") XF_RETURN_IF_ERROR(run_fanout_ce());
    }
    return Status::Ok();
  }

  const std::vector<LinkMeasurement>& results() const { return results_; }
  const std::vector<VariantResult>& variants() const { return variants_; }

  ~LinkBench() {
    XF_CUDA_CHECK(cudaSetDevice(device_));
    for (cudaStream_t s : fanout_streams_) XF_CUDA_CHECK(cudaStreamDestroy(s));
    for (cudaEvent_t e : fanout_events_) XF_CUDA_CHECK(cudaEventDestroy(e));
    if (fork_event_ != nullptr) XF_CUDA_CHECK(cudaEventDestroy(fork_event_));
    for (auto [dev, stream] : streams_) {
      XF_CUDA_CHECK(cudaSetDevice(dev));
      XF_CUDA_CHECK(cudaStreamDestroy(stream));
    }
    for (auto [dev, ptr] : device_allocs_) {
      XF_CUDA_CHECK(cudaSetDevice(dev));
      XF_CUDA_CHECK(cudaFree(ptr));
    }
  }

 private:
  Status allocate() {
    bytes_ = static_cast<size_t>(flags_.get_size("footprint"));
    for (double s : flags_.get_size_list("ce-sizes")) bytes_ = std::max(bytes_, size_t(s));
    local_loc_ = {"local", device_alloc(device_, bytes_), device_};
    if (with_peer_) peer_loc_ = {"peer", device_alloc(peer_, bytes_), peer_};
    if (with_host_) {
      host_ = std::make_unique<PinnedBuffer>(bytes_);
      host_loc_ = {"host", host_->get(), device_};
    }
    for (int p : fanout_peers_) fanout_locs_.push_back({"peers", device_alloc(p, bytes_), p});
    XF_CUDA_CHECK(cudaSetDevice(device_));
    for (size_t i = 0; i < fanout_peers_.size(); ++i) {
      cudaStream_t s;
      XF_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      fanout_streams_.push_back(s);
      cudaEvent_t e;
      XF_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      fanout_events_.push_back(e);
    }
    XF_CUDA_CHECK(cudaEventCreateWithFlags(&fork_event_, cudaEventDisableTiming));
    cudaDeviceProp prop{};
    XF_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
    sms_ = prop.multiProcessorCount;
    compute_major_ = prop.major;
    ctas_ = sms_ * static_cast<int>(flags_.get_int("ctas-per-sm"));
    threads_ = static_cast<int>(flags_.get_int("threads"));
    return Status::Ok();
  }

  void* device_alloc(int dev, size_t bytes) {
    XF_CUDA_CHECK(cudaSetDevice(dev));
    void* p = nullptr;
    XF_CUDA_CHECK(cudaMalloc(&p, bytes));
    device_allocs_.push_back({dev, p});
    unsigned long long* counter = nullptr;
    XF_CUDA_CHECK(cudaMalloc(&counter, sizeof(*counter)));
    device_allocs_.push_back({dev, counter});
    mismatch_counters_[dev] = counter;
    cudaStream_t s;
    XF_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    streams_[dev] = s;
    return p;
  }

  // fill / verify: the pattern launch_link_write(seed) stores, written or
  // checked by the device local to the memory.
  void fill(const Location& loc, const AccessPattern& p, uint32_t seed) {
    XF_CUDA_CHECK(cudaSetDevice(loc.device));
    launch_link_write(loc.ptr, p, seed, ctas_, threads_, DeviceTrace{}, streams_[loc.device]);
    XF_CUDA_CHECK(cudaStreamSynchronize(streams_[loc.device]));
  }

  uint64_t verify(const Location& loc, const AccessPattern& p, uint32_t seed) {
    XF_CUDA_CHECK(cudaSetDevice(loc.device));
    unsigned long long* c = mismatch_counters_[loc.device];
    XF_CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(*c), streams_[loc.device]));
    launch_link_read_check(loc.ptr, p, seed, c, ctas_, threads_, DeviceTrace{},
                           streams_[loc.device]);
    unsigned long long bad = 0;
    XF_CUDA_CHECK(
        cudaMemcpyAsync(&bad, c, sizeof(bad), cudaMemcpyDeviceToHost, streams_[loc.device]));
    XF_CUDA_CHECK(cudaStreamSynchronize(streams_[loc.device]));
    return bad;
  }

  uint32_t begin_phase(const std::string& name) {
    const uint32_t id = static_cast<uint32_t>(rec_.metadata().phases.size());
    rec_.metadata().phases.push_back({id, name});
    rec_.record_host(traces::EventKind::kPhaseBegin, 0, traces::kHostGpu, 0, id, 0, 0);
    return id;
  }
  void end_phase(uint32_t id) {
    rec_.record_host(traces::EventKind::kPhaseEnd, 0, traces::kHostGpu, 0, id, 0, 0);
  }

  Status run_sm(const std::string& op, const Location& target) {
    const uint64_t footprint = static_cast<uint64_t>(flags_.get_size("footprint"));
    const int reps = static_cast<int>(flags_.get_int("reps"));
    const int warmup = static_cast<int>(flags_.get_int("warmup"));
    std::vector<std::pair<std::string, uint64_t>> patterns = {{"contiguous", 0}};
    for (double s : flags_.get_size_list("strides")) patterns.push_back({"scattered", uint64_t(s)});
    for (const auto& [pattern, line] : patterns) {
      for (double wb : flags_.get_size_list("sizes")) {
        AccessPattern p;
        p.write_bytes = static_cast<uint32_t>(wb);
        p.stride_bytes = line == 0 ? p.write_bytes : static_cast<uint32_t>(line);
        if (p.write_bytes >= p.stride_bytes && pattern == "scattered") continue;
        p.writes = footprint / p.stride_bytes;
        const uint32_t config = static_cast<uint32_t>(results_.size());
        const uint32_t phase = begin_phase("sm_" + op + " " + target.name + " " + pattern + " " +
                                           std::to_string(p.write_bytes) + "B/" +
                                           std::to_string(p.stride_bytes) + "B");
        const uint32_t read_seed = config * 4096u + 1u;
        if (op == "read") fill(target, p, read_seed);
        XF_CUDA_CHECK(cudaSetDevice(device_));
        cudaStream_t stream = streams_[device_];
        unsigned long long* c = mismatch_counters_[device_];
        XF_CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(*c), stream));
        std::vector<double> times;
        uint32_t seed = 0;
        for (int rep = -warmup; rep < reps; ++rep) {
          seed = config * 4096u + 2u + static_cast<uint32_t>(rep + warmup);
          // Record CTA events in the last (verified) repetition only: keeps
          // the trace small and the measured runs free of recording.
          const DeviceTrace trace = rep == reps - 1 ? rec_.device_trace(device_) : DeviceTrace{};
          auto t = time_latched_ns(stream, latch_, [&] {
            if (op == "write") {
              launch_link_write(target.ptr, p, seed, ctas_, threads_, trace, stream);
            } else {
              launch_link_read_check(target.ptr, p, read_seed, c, ctas_, threads_, trace, stream);
            }
          });
          if (!t.ok()) return t.error();
          if (rep >= 0) times.push_back(*t);
        }
        LinkMeasurement m{"sm_" + op,
                          target.name,
                          pattern,
                          p.write_bytes,
                          p.stride_bytes,
                          p.writes,
                          static_cast<uint32_t>(ctas_),
                          static_cast<uint32_t>(threads_),
                          summarize(times),
                          0};
        if (op == "write") {
          m.mismatches = verify(target, p, seed);
        } else {
          XF_CUDA_CHECK(cudaSetDevice(device_));
          XF_CUDA_CHECK(cudaMemcpy(&m.mismatches, c, sizeof(m.mismatches), cudaMemcpyDeviceToHost));
        }
        end_phase(phase);
        report(m);
      }
    }
    return Status::Ok();
  }

  // run_write_variants: contiguous 16-B writes to `target` with every write
  // variant over --variant-footprint; each verified; the fastest becomes an
  // sm_write contiguous row of link_bench.csv.
  Status run_write_variants(const Location& target) {
    const uint64_t footprint =
        std::min<uint64_t>(static_cast<uint64_t>(flags_.get_size("variant-footprint")), bytes_);
    const AccessPattern p{16, 16, footprint / 16};
    const int reps = static_cast<int>(flags_.get_int("reps"));
    const int warmup = static_cast<int>(flags_.get_int("warmup"));
    const uint32_t phase = begin_phase("sm_write " + target.name + " contiguous variants");
    const auto all = write_variants(compute_major_ >= 9);
    for (size_t vi = 0; vi < all.size(); ++vi) {
      const WriteVariant& v = all[vi];
      XF_CUDA_CHECK(cudaSetDevice(device_));
      const int fit = variant_max_ctas_per_sm(v);
      if (fit < v.ctas_per_sm) {
        std::fprintf(stderr, "%s: variant %s skipped: %d CTAs of it fit on an SM\n", kProgram,
                     v.name().c_str(), fit);
        continue;
      }
      VariantResult r{v, sms_ * v.ctas_per_sm, p.payload_bytes(), {}, 0};
      cudaStream_t stream = streams_[device_];
      std::vector<double> times;
      uint32_t seed = 0;
      for (int rep = -warmup; rep < reps; ++rep) {
        // Seeds differ per variant and repetition: verification proves that
        // the last timed run wrote every byte.
        seed =
            0x40000000u + static_cast<uint32_t>(vi) * 4096u + static_cast<uint32_t>(rep + warmup);
        auto t = time_latched_ns(stream, latch_, [&] {
          launch_link_write_variant(target.ptr, p.writes, seed, v, r.ctas, DeviceTrace{}, stream);
        });
        if (!t.ok()) return t.error();
        if (rep >= 0) times.push_back(*t);
      }
      r.time_ns = summarize(times);
      r.mismatches = verify(target, p, seed);
      std::fprintf(stderr, "%s: variant  %-4s %-24s %9.1f us  %7.2f GB/s%s\n", kProgram,
                   target.name.c_str(), v.name().c_str(), r.time_ns.median / 1e3,
                   r.bw_bytes_per_s() / 1e9, r.mismatches ? "  DATA MISMATCH" : "");
      variants_.push_back(r);
    }
    end_phase(phase);
    auto best = std::max_element(
        variants_.begin(), variants_.end(),
        [](const auto& a, const auto& b) { return a.bw_bytes_per_s() < b.bw_bytes_per_s(); });
    if (best == variants_.end()) return Status::Ok();
    const uint64_t access = best->variant.access_bytes();
    std::fprintf(stderr, "%s: best write variant: %s\n", kProgram, best->variant.name().c_str());
    report({"sm_write", target.name, "contiguous", access, access, best->payload_bytes / access,
            static_cast<uint32_t>(best->ctas), static_cast<uint32_t>(best->variant.threads),
            best->time_ns, best->mismatches});
    return Status::Ok();
  }

  Status run_ce(const std::string& op, const Location& target) {
    const int reps = static_cast<int>(flags_.get_int("reps"));
    const int warmup = static_cast<int>(flags_.get_int("warmup"));
    const uint64_t max_batch = static_cast<uint64_t>(flags_.get_int("ce-batch"));
    // write: local -> target; read: target -> local. Issued on this device's stream.
    const Location& src = op == "write" ? local_loc_ : target;
    const Location& dst = op == "write" ? target : local_loc_;
    XF_CUDA_CHECK(cudaSetDevice(device_));
    cudaStream_t stream = streams_[device_];
    for (double size_d : flags_.get_size_list("ce-sizes")) {
      const uint64_t size = static_cast<uint64_t>(size_d);
      // Verification pattern: 4-byte contiguous words (copy sizes are multiples of 4).
      AccessPattern words{4, 4, size / 4};
      for (const char* mode : {"single", "batch"}) {
        const uint64_t batch = std::string(mode) == "single"
                                   ? 1
                                   : std::clamp<uint64_t>((uint64_t{1} << 30) / size, 1, max_batch);
        const uint32_t config = static_cast<uint32_t>(results_.size());
        const uint32_t seed = config * 4096u + 7u;
        fill(src, words, seed);
        const uint32_t phase = begin_phase("ce_" + op + " " + target.name + " " + mode + " " +
                                           std::to_string(size) + "B");
        XF_CUDA_CHECK(cudaSetDevice(device_));
        std::vector<double> times;
        for (int rep = -warmup; rep < reps; ++rep) {
          auto t = time_latched_ns(stream, latch_, [&] {
            for (uint64_t i = 0; i < batch; ++i) {
              if (target.name == "peer") {
                XF_CUDA_CHECK(
                    cudaMemcpyPeerAsync(dst.ptr, dst.device, src.ptr, src.device, size, stream));
              } else {
                XF_CUDA_CHECK(cudaMemcpyAsync(dst.ptr, src.ptr, size, cudaMemcpyDefault, stream));
              }
            }
          });
          if (!t.ok()) return t.error();
          if (rep >= 0) times.push_back(*t);
        }
        end_phase(phase);
        LinkMeasurement m{"ce_" + op,
                          target.name,
                          mode,
                          size,
                          size,
                          batch,
                          0,
                          0,
                          summarize(times),
                          verify(dst, words, seed)};
        report(m);
      }
    }
    return Status::Ok();
  }

  // fan_out: runs issue(i, stream_i) for every peer i on its own stream of
  // this device, all released together from `stream` (fork) and joined back
  // into it, so the timed span covers the copies to all peers at once.
  void fan_out(cudaStream_t stream, const std::function<void(size_t, cudaStream_t)>& issue) {
    XF_CUDA_CHECK(cudaEventRecord(fork_event_, stream));
    for (size_t i = 0; i < fanout_streams_.size(); ++i) {
      XF_CUDA_CHECK(cudaStreamWaitEvent(fanout_streams_[i], fork_event_, 0));
      issue(i, fanout_streams_[i]);
      XF_CUDA_CHECK(cudaEventRecord(fanout_events_[i], fanout_streams_[i]));
      XF_CUDA_CHECK(cudaStreamWaitEvent(stream, fanout_events_[i], 0));
    }
  }

  uint64_t verify_fanout(const AccessPattern& p, uint32_t seed) {
    uint64_t bad = 0;
    for (const Location& loc : fanout_locs_) bad += verify(loc, p, seed);
    return bad;
  }

  // run_fanout_sm: contiguous SM stores from this device to every peer at
  // once (the device's SMs split evenly between the peers): on a switch the
  // peers share the device's ports, on a mesh each has its own links.
  Status run_fanout_sm() {
    const uint64_t footprint = static_cast<uint64_t>(flags_.get_size("footprint"));
    const int reps = static_cast<int>(flags_.get_int("reps"));
    const int warmup = static_cast<int>(flags_.get_int("warmup"));
    const int per_peer_ctas = std::max<int>(1, ctas_ / static_cast<int>(fanout_locs_.size()));
    for (double wb : flags_.get_size_list("sizes")) {
      AccessPattern p;
      p.write_bytes = static_cast<uint32_t>(wb);
      p.stride_bytes = p.write_bytes;
      p.writes = footprint / p.stride_bytes;
      const uint32_t config = static_cast<uint32_t>(results_.size());
      const uint32_t phase =
          begin_phase("sm_write peers fanout " + std::to_string(p.write_bytes) + "B");
      XF_CUDA_CHECK(cudaSetDevice(device_));
      cudaStream_t stream = streams_[device_];
      std::vector<double> times;
      uint32_t seed = 0;
      for (int rep = -warmup; rep < reps; ++rep) {
        seed = config * 4096u + 2u + static_cast<uint32_t>(rep + warmup);
        auto t = time_latched_ns(stream, latch_, [&] {
          fan_out(stream, [&](size_t i, cudaStream_t s) {
            launch_link_write(fanout_locs_[i].ptr, p, seed, per_peer_ctas, threads_, DeviceTrace{},
                              s);
          });
        });
        if (!t.ok()) return t.error();
        if (rep >= 0) times.push_back(*t);
      }
      end_phase(phase);
      report({"sm_write", "peers", "fanout", p.write_bytes, p.stride_bytes,
              p.writes * fanout_locs_.size(),
              static_cast<uint32_t>(per_peer_ctas * fanout_locs_.size()),
              static_cast<uint32_t>(threads_), summarize(times), verify_fanout(p, seed)});
    }
    return Status::Ok();
  }

  // run_fanout_ce: --ce-batch back-to-back copy-engine copies of each size
  // from this device to every peer at once (one stream per peer).
  Status run_fanout_ce() {
    const int reps = static_cast<int>(flags_.get_int("reps"));
    const int warmup = static_cast<int>(flags_.get_int("warmup"));
    const uint64_t max_batch = static_cast<uint64_t>(flags_.get_int("ce-batch"));
    for (double size_d : flags_.get_size_list("ce-sizes")) {
      const uint64_t size = static_cast<uint64_t>(size_d);
      const AccessPattern words{4, 4, size / 4};
      const uint64_t batch = std::clamp<uint64_t>((uint64_t{1} << 30) / size, 1, max_batch);
      const uint32_t seed = static_cast<uint32_t>(results_.size()) * 4096u + 7u;
      fill(local_loc_, words, seed);
      const uint32_t phase = begin_phase("ce_write peers fanout " + std::to_string(size) + "B");
      XF_CUDA_CHECK(cudaSetDevice(device_));
      cudaStream_t stream = streams_[device_];
      std::vector<double> times;
      for (int rep = -warmup; rep < reps; ++rep) {
        auto t = time_latched_ns(stream, latch_, [&] {
          fan_out(stream, [&](size_t i, cudaStream_t s) {
            for (uint64_t b = 0; b < batch; ++b)
              XF_CUDA_CHECK(cudaMemcpyPeerAsync(fanout_locs_[i].ptr, fanout_locs_[i].device,
                                                local_loc_.ptr, device_, size, s));
          });
        });
        if (!t.ok()) return t.error();
        if (rep >= 0) times.push_back(*t);
      }
      end_phase(phase);
      report({"ce_write", "peers", "fanout", size, size, batch * fanout_locs_.size(), 0, 0,
              summarize(times), verify_fanout(words, seed)});
    }
    return Status::Ok();
  }

  void report(const LinkMeasurement& m) {
    std::fprintf(stderr, "%s: %-8s %-4s %-10s %10llu B stride %6llu: %9.1f us  %7.2f GB/s%s\n",
                 kProgram, m.test.c_str(), m.target.c_str(), m.pattern.c_str(),
                 static_cast<unsigned long long>(m.write_bytes),
                 static_cast<unsigned long long>(m.stride_bytes), m.time_ns.median / 1e3,
                 m.time_ns.median > 0 ? m.payload_bytes() / m.time_ns.median : 0.0,
                 m.mismatches ? "  DATA MISMATCH" : "");
    results_.push_back(m);
  }

  const FlagSet& flags_;
  TraceRecorder& rec_;
  int device_, peer_;
  bool with_peer_, with_host_;
  std::vector<int> fanout_peers_;
  SpinLatch latch_;
  size_t bytes_ = 0;
  int sms_ = 0, compute_major_ = 0, ctas_ = 0, threads_ = 0;
  Location local_loc_, peer_loc_, host_loc_;
  std::vector<Location> fanout_locs_;  ///< one per fan-out peer ("peers").
  std::vector<cudaStream_t> fanout_streams_;
  std::vector<cudaEvent_t> fanout_events_;
  cudaEvent_t fork_event_ = nullptr;
  std::unique_ptr<PinnedBuffer> host_;
  std::vector<std::pair<int, void*>> device_allocs_;
  std::map<int, cudaStream_t> streams_;
  std::map<int, unsigned long long*> mismatch_counters_;
  std::vector<LinkMeasurement> results_;
  std::vector<VariantResult> variants_;
};

// variants_table: link_bench_variants.csv; over_ce_peak = bandwidth / the
// copy-engine write peak to the same target (0 when CE was not measured).
Table variants_table(const std::vector<VariantResult>& variants,
                     const std::vector<LinkMeasurement>& results) {
  double ce_peak = 0;
  for (const auto& s : summarize_paths(results))
    if (s.op == "write" && s.target == "peer") ce_peak = s.ce_peak_bw_bytes_per_s;
  double best = 0;
  for (const auto& v : variants) best = std::max(best, v.bw_bytes_per_s());
  Table t({{"variant"},
           {"store"},
           {"ctas_per_sm"},
           {"ctas"},
           {"threads_per_cta"},
           {"unroll"},
           {"access_bytes"},
           {"payload_bytes"},
           {"reps"},
           {"time_ns_median", 5},
           {"time_ns_p10", 5},
           {"time_ns_p90", 5},
           {"payload_bw_bytes_per_s", 4},
           {"over_ce_peak", 3},
           {"best"},
           {"mismatches"}});
  for (const auto& v : variants) {
    const double bw = v.bw_bytes_per_s();
    t.add_row({v.variant.name(), v.variant.kind_name(), int64_t{v.variant.ctas_per_sm},
               int64_t{v.ctas}, int64_t{v.variant.threads}, int64_t{v.variant.unroll},
               static_cast<int64_t>(v.variant.access_bytes()),
               static_cast<int64_t>(v.payload_bytes), static_cast<int64_t>(v.time_ns.n),
               v.time_ns.median, v.time_ns.p10, v.time_ns.p90, bw, ce_peak > 0 ? bw / ce_peak : 0.0,
               int64_t{bw == best ? 1 : 0}, static_cast<int64_t>(v.mismatches)});
  }
  return t;
}

// add_link_bench_flags: link_bench's flags (besides FlagSet's own).
void add_link_bench_flags(FlagSet& flags) {
  add_common_flags(flags, 10, 2);
  flags.add_size_list("sizes", "1,2,4,8,16,32,64,128,256", 1, 256, "SM access sizes in bytes")
      .add_size_list("strides", "128,256", 2, 4096, "scattered: one access per this many bytes")
      .add_size("footprint", "512MiB", 1 << 20, 8.0 * (1ull << 30),
                "bytes spanned by each SM kernel")
      .add_size_list("ce-sizes", "4KiB,16KiB,64KiB,256KiB,1MiB,4MiB,16MiB,64MiB,256MiB,1GiB", 4,
                     8.0 * (1ull << 30), "copy-engine copy sizes")
      .add_int("ce-batch", 16, 1, 256, "back-to-back copies per timing in batch mode")
      .add_string("targets", "auto", {"auto", "host", "peer", "both", "fanout"},
                  "auto: host, plus peer when a second GPU with peer access exists; fanout: "
                  "--device writes to every other GPU at once (rows with target 'peers')")
      .add_string("tests", "all", {"all", "sm", "ce"}, "SM kernels, copy engines or both")
      .add_int("device", 0, 0, 63, "GPU that runs the kernels and issues the copies")
      .add_int("peer", 1, 0, 63, "peer GPU")
      .add_int("ctas-per-sm", 4, 1, 32, "CTAs per SM for the SM kernels")
      .add_int("threads", 512, 32, 1024, "threads per CTA (multiple of 32)")
      .add_bool("variants", true,
                "time contiguous 16-B peer writes for every launch shape x store mechanism "
                "(link_bench_variants.csv); the fastest counts as best contiguous SM write")
      .add_size("variant-footprint", "1GiB", 1 << 20, 8.0 * (1ull << 30),
                "bytes written by each write variant (at most the allocation)");
}

// check_link_bench_flags: what the flags' ranges cannot say; exits 2 naming
// the flag.
void check_link_bench_flags(const FlagSet& flags) {
  for (double s : flags.get_size_list("sizes"))
    if (!is_supported_write_size(static_cast<uint64_t>(s)))
      exit_on_error(make_error("--sizes: " + std::to_string(int64_t(s)) +
                               " is not a power of two in [1, 256]"),
                    kProgram);
  for (double s : flags.get_size_list("strides"))
    if ((static_cast<uint64_t>(s) & (static_cast<uint64_t>(s) - 1)) != 0)
      exit_on_error(
          make_error("--strides: " + std::to_string(int64_t(s)) + " is not a power of two"),
          kProgram);
  for (double s : flags.get_size_list("ce-sizes"))
    if (static_cast<uint64_t>(s) % 4 != 0)
      exit_on_error(
          make_error("--ce-sizes: " + std::to_string(int64_t(s)) + " is not a multiple of 4 bytes"),
          kProgram);
  if (flags.get_int("threads") % 32 != 0)
    exit_on_error(make_error("--threads: " + std::to_string(flags.get_int("threads")) +
                             " is not a multiple of 32"),
                  kProgram);
}

}  // namespace

int benchmark_main(int argc, char** argv) {
  FlagSet flags(kProgram,
                "Link goodput vs write size: SM stores/loads to the peer GPU and pinned host "
                "memory, and copy-engine copies. Writes link_bench.csv, link_bench_summary.csv "
                "and link_bench.xft into --out.");
  add_link_bench_flags(flags);
  parse_flags_or_exit(flags, argc, argv);
  check_link_bench_flags(flags);
  const int device = device_or_exit(flags, kProgram);
  const int peer = static_cast<int>(flags.get_int("peer"));
  const std::string targets = flags.get_string("targets");
  bool with_peer = targets == "peer" || targets == "both";
  const bool with_host = targets != "peer" && targets != "fanout";
  std::vector<int> fanout_peers;
  if (targets == "fanout") {
    for (int d = 0; d < device_count(); ++d)
      if (d != device) fanout_peers.push_back(d);
    if (fanout_peers.empty())
      exit_on_error(make_error("--targets=fanout needs at least 2 GPUs; this machine has " +
                               std::to_string(device_count())),
                    kProgram);
    for (int d : fanout_peers) exit_on_error(require_peer_pair(device, d), kProgram);
  }
  if (targets == "auto") {
    const Status st = require_peer_pair(device, peer);
    with_peer = st.ok();
    if (!with_peer)
      std::fprintf(stderr, "%s: skipping peer tests: %s\n", kProgram, st.error().message.c_str());
  } else if (with_peer) {
    exit_on_error(require_peer_pair(device, peer), kProgram);
  }
  const std::string out = flags.get_string("out");
  exit_on_error(prepare_output_dir(out), kProgram);
  XF_CUDA_CHECK(cudaSetDevice(device));

  std::vector<int> devices = {device};
  if (with_peer) devices.push_back(peer);
  devices.insert(devices.end(), fanout_peers.begin(), fanout_peers.end());
  auto rec = make_recorder(flags, devices, argc, argv);
  exit_on_error(rec.ok() ? Status::Ok() : Status(rec.error()), kProgram);
  exit_on_error((*rec)->sync_clocks(), kProgram);
  std::vector<LinkMeasurement> results;
  std::vector<VariantResult> variants;
  {
    LinkBench bench(flags, **rec, device, peer, with_peer, with_host, fanout_peers);
    exit_on_error(bench.run(), kProgram);
    results = bench.results();
    variants = bench.variants();
  }
  const Table all = link_table(results);
  const Table summary = link_summary_table(results);
  const Table by_variant = variants_table(variants, results);
  std::vector<CsvOutput> csvs = {{"link_bench.csv", &all}, {"link_bench_summary.csv", &summary}};
  if (!variants.empty()) csvs.push_back({"link_bench_variants.csv", &by_variant});
  exit_on_error(finish_outputs(**rec, flags, csvs, summary), kProgram);
  uint64_t bad = 0;
  for (const auto& m : results) bad += m.mismatches;
  for (const auto& v : variants) bad += v.mismatches;
  if (bad != 0) {
    std::cerr << kProgram << ": data verification failed: " << bad << " wrong values\n";
    return 1;
  }
  return 0;
}

}  // namespace xferlab::native::bench
