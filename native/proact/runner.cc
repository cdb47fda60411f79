// native/proact/runner.cc — see runner.h.
#include "native/proact/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "native/cuda_check.h"
#include "native/proact/agents.h"
#include "native/proact/kernels.h"
#include "native/proact/workload_math.h"
#include "native/stats.h"
#include "native/trace_capacity.h"

namespace xferlab::proact {

namespace {
constexpr uint32_t kVerifyRun = 0x5eed;

uint32_t region_mode(Mechanism m) {
  switch (m) {
    case Mechanism::kTrack:
    case Mechanism::kPolling:
    case Mechanism::kPollingTma: return kModeTrack;
    case Mechanism::kCdp: return kModeCdp;
    case Mechanism::kCdpTail: return kModeCdpTail;
    case Mechanism::kInline: return kModeInline;
    default: return 0;
  }
}

// time_text: "1 us", "250 ms", "5 s" (the --timeout the message names).
std::string time_text(uint64_t ns) {
  char buf[32];
  const double v = static_cast<double>(ns);
  if (ns < 1000)
    std::snprintf(buf, sizeof buf, "%llu ns", static_cast<unsigned long long>(ns));
  else if (ns < 1000000)
    std::snprintf(buf, sizeof buf, "%g us", v / 1e3);
  else if (ns < 1000000000)
    std::snprintf(buf, sizeof buf, "%g ms", v / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%g s", v / 1e9);
  return buf;
}
// raise_cdp_launch_limit: every chunk of `regions` may have a child launch
// pending at once (the default limit is 2048; exceeding it fails the launch).
void raise_cdp_launch_limit(const std::vector<int>& devices, const std::vector<RegionSpec>& regions,
                            uint64_t chunk_bytes) {
  uint64_t chunks = 0;
  for (const RegionSpec& s : regions) {
    chunks = std::max(chunks, round_up(s.data_bytes, chunk_bytes) / chunk_bytes);
  }
  for (int d : devices) {
    XF_CUDA_CHECK(cudaSetDevice(d));
    const cudaError_t err = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount,
                                               std::max<uint64_t>(2048, chunks + 64));
    if (err != cudaSuccess) {  // not fatal: launches beyond the limit are reported per chunk.
      std::fprintf(stderr, "proact: warning: raising the CDP pending-launch limit failed: %s\n",
                   cudaGetErrorString(err));
      (void)cudaGetLastError();
    }
  }
}

// one_to_one: the mapping of a GPU's rows to its CTAs, `rows_per_cta` each.
MappingSpec one_to_one(const RowRange& rows, uint64_t rows_per_cta, uint64_t row_bytes) {
  MappingSpec spec;
  spec.kind = MappingKind::kOneToOne;
  spec.ctas = static_cast<uint32_t>((rows.end - rows.begin + rows_per_cta - 1) / rows_per_cta);
  spec.first_byte = rows.begin * row_bytes;
  spec.end_byte = rows.end * row_bytes;
  spec.bytes_per_cta = rows_per_cta * row_bytes;
  return spec;
}
}  // namespace

Runner::Runner(Workload& workload, RunnerOptions options)
    : workload_(workload), options_(std::move(options)) {
  int lo = 0, hi = 0;
  for (int d : options_.devices) {
    XF_CUDA_CHECK(cudaSetDevice(d));
    XF_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    cudaStream_t m, a;
    XF_CUDA_CHECK(cudaStreamCreateWithFlags(&m, cudaStreamNonBlocking));
    // The agent gets the highest priority so its CTAs are resident before the
    // producer's grid fills the SMs.
    XF_CUDA_CHECK(cudaStreamCreateWithPriority(&a, cudaStreamNonBlocking, hi));
    main_.push_back(m);
    agent_.push_back(a);
    cudaEvent_t e1, e2, e3;
    XF_CUDA_CHECK(cudaEventCreateWithFlags(&e1, cudaEventDisableTiming));
    XF_CUDA_CHECK(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming));
    XF_CUDA_CHECK(cudaEventCreateWithFlags(&e3, cudaEventDisableTiming));
    start_ev_.push_back(e1);
    agent_ev_.push_back(e2);
    done_ev_.push_back(e3);
  }
}

Runner::~Runner() {
  regions_.clear();
  for (int g = 0; g < num_gpus(); ++g) {
    cudaSetDevice(options_.devices[g]);
    cudaStreamDestroy(main_[g]);
    cudaStreamDestroy(agent_[g]);
    cudaEventDestroy(start_ev_[g]);
    cudaEventDestroy(agent_ev_[g]);
    cudaEventDestroy(done_ev_[g]);
  }
}

Status Runner::prepare(const RunConfig& c) {
  const bool managed = c.mechanism == Mechanism::kUnified;
  if (c.threads < 32 || c.threads > 65536 || c.threads % 32 != 0) {
    return make_error("--threads must be a multiple of 32 in 32..65536, got " +
                      std::to_string(c.threads));
  }
  if ((c.mechanism == Mechanism::kCdp || c.mechanism == Mechanism::kCdpTail) && c.threads > 1024) {
    return make_error("--threads for cdp is the child grid's block size: at most 1024");
  }
  if (c.mechanism == Mechanism::kCdp || c.mechanism == Mechanism::kCdpTail) {
    raise_cdp_launch_limit(options_.devices, workload_.regions(), c.chunk_bytes);
  }
  if (prepared_chunk_ == c.chunk_bytes && prepared_managed_ == managed && !regions_.empty()) {
    return Status::Ok();
  }
  regions_.clear();
  parts_.clear();
  const auto specs = workload_.regions();
  std::vector<int> producers;
  for (int g = 0; g < num_gpus(); ++g) {
    if (workload_.produces(g)) producers.push_back(g);
  }
  for (size_t r = 0; r < specs.size(); ++r) {
    const RegionSpec& s = specs[r];
    if (c.chunk_bytes % s.row_bytes != 0) {
      return make_error("chunk size " + std::to_string(c.chunk_bytes) +
                        " B is not a multiple of the workload's row size " +
                        std::to_string(s.row_bytes) + " B");
    }
    // The microbenchmark's region is exactly its output (a chunk must divide
    // it); applications pad their vectors to a whole number of chunks.
    const uint64_t bytes =
        workload_.name() == "micro" ? s.data_bytes : round_up(s.data_bytes, c.chunk_bytes);
    RegionOptions ro{options_.devices, bytes, c.chunk_bytes, options_.counter_bits, managed};
    Result<std::unique_ptr<Region>> region = Region::create(ro);
    if (!region.ok()) return region.error();
    const std::vector<RowRange> split =
        partition_rows(bytes, c.chunk_bytes, s.data_bytes, s.row_bytes, producers.size());
    std::vector<Part> parts(num_gpus());
    for (size_t pi = 0; pi < producers.size(); ++pi) {
      const int g = producers[pi];
      if (split[pi].begin >= split[pi].end) continue;
      parts[g] = {split[pi].begin, split[pi].end};
      XF_RETURN_IF_ERROR((*region)->set_mapping(
          g, one_to_one(split[pi], workload_.rows_per_cta(static_cast<int>(r)), s.row_bytes)));
    }
    if (managed) {
      // Best hints found for "one producer, every peer reads all": read-mostly
      // (prefetch then duplicates pages on each reader), each part homed on
      // its producer (the micro has one producer, GPU 0). On one GPU there is
      // no other reader, and writes to read-mostly pages fault page by page
      // (1x H200: Jacobi 13.7 s per run instead of 7.5 ms, docs/proact.md).
      cudaMemLocation home{cudaMemLocationTypeDevice, options_.devices[0]};
      if (num_gpus() > 1) {
        XF_CUDA_CHECK(cudaMemAdvise((*region)->data(0), bytes, cudaMemAdviseSetReadMostly, home));
      }
      for (int g = 0; g < num_gpus(); ++g) {
        if (parts[g].row_begin >= parts[g].row_end) continue;
        const uint64_t b0 = parts[g].row_begin * s.row_bytes, b1 = parts[g].row_end * s.row_bytes;
        home.id = options_.devices[g];
        XF_CUDA_CHECK(cudaMemAdvise((*region)->data(0) + b0, b1 - b0,
                                    cudaMemAdviseSetPreferredLocation, home));
      }
    }
    regions_.push_back(std::move(*region));
    parts_.push_back(std::move(parts));
  }
  epochs_.assign(specs.size(), 0);
  prepared_chunk_ = c.chunk_bytes;
  prepared_managed_ = managed;
  return Status::Ok();
}

// launch_agent: GPU g's polling (or TMA) agent for its chunks of `map`, on
// its agent stream, started after and joined into its main stream.
void Runner::launch_agent(const RunConfig& c, int g, const DeviceRegion& dv, const ChunkMap& map) {
  AgentParams ap;
  ap.first_chunk = map.first_chunk();
  ap.end_chunk = map.end_chunk();
  const uint64_t max_slice = c.mechanism == Mechanism::kPollingTma
                                 ? std::min<uint64_t>(options_.slice_bytes, kTmaMaxSliceBytes)
                                 : options_.slice_bytes;
  ap.slice_bytes = std::min<uint64_t>(c.chunk_bytes, max_slice);
  while (c.chunk_bytes % ap.slice_bytes != 0) ap.slice_bytes /= 2;
  ap.timeout_ns = options_.timeout_ns;
  ap.kernel_id = traces::kAgentKernelIdBase + dv.kernel_id;
  XF_CUDA_CHECK(cudaEventRecord(start_ev_[g], main_[g]));
  XF_CUDA_CHECK(cudaStreamWaitEvent(agent_[g], start_ev_[g], 0));
  if (c.mechanism == Mechanism::kPolling) {
    launch_polling_agent(dv, ap, c.threads, agent_[g]);
  } else {
    launch_tma_agent(dv, ap, c.threads, agent_[g]);
  }
  XF_CUDA_CHECK(cudaEventRecord(agent_ev_[g], agent_[g]));
}

// step_barrier: every GPU's next step waits for every GPU's transfers.
void Runner::step_barrier() {
  const int G = num_gpus();
  for (int g = 0; g < G; ++g) {
    XF_CUDA_CHECK(cudaSetDevice(options_.devices[g]));
    XF_CUDA_CHECK(cudaEventRecord(done_ev_[g], main_[g]));
  }
  for (int g = 0; g < G; ++g) {
    XF_CUDA_CHECK(cudaSetDevice(options_.devices[g]));
    for (int h = 0; h < G; ++h) {
      if (h != g) XF_CUDA_CHECK(cudaStreamWaitEvent(main_[g], done_ev_[h], 0));
    }
  }
}

// agent_errors: the first error a region's agent or counters recorded on a
// GPU, as a runtime error naming GPU, region and chunk.
Status Runner::agent_errors() const {
  for (size_t ri = 0; ri < regions_.size(); ++ri) {
    for (int g = 0; g < num_gpus(); ++g) {
      const AgentError e = regions_[ri]->error(g);
      if (e.code == kAgentOk) continue;
      const std::string where = "GPU " + std::to_string(options_.devices[g]) + ", region " +
                                std::to_string(ri) + ", chunk " + std::to_string(e.chunk);
      switch (e.code) {
        case kAgentTimeout:
          return make_runtime_error(where + " was not ready after the agent waited --timeout " +
                                    time_text(options_.timeout_ns) +
                                    " for it: the transfer agent timed out");
        case kCounterUnderflow:
          return make_runtime_error(where + ": more decrements than writers (mapping error)");
        default:
          return make_runtime_error(where + ": device-side CDP launch failed: " +
                                    cudaGetErrorString(static_cast<cudaError_t>(e.value)));
      }
    }
  }
  return Status::Ok();
}

Result<double> Runner::execute(const RunConfig& c, uint32_t run_index, bool traced,
                               native::TraceRecorder* rec) {
  workload_.reset(regions_, run_index);
  for (auto& r : regions_) r->clear_errors();
  for (int d : options_.devices) {
    XF_CUDA_CHECK(cudaSetDevice(d));
    XF_CUDA_CHECK(cudaDeviceSynchronize());
  }
  const auto t0 = std::chrono::steady_clock::now();
  const int G = num_gpus();
  const uint32_t mode = region_mode(c.mechanism);
  const auto tmech = trace_mechanism(c.mechanism);
  for (int step = 0; step < workload_.num_steps(); ++step) {
    const int ri = workload_.step_region(step);
    Region& region = *regions_[ri];
    const uint32_t epoch = ++epochs_[ri];
    for (int g = 0; g < G; ++g) {
      const Part& part = parts_[ri][g];
      if (part.row_begin >= part.row_end) continue;
      XF_CUDA_CHECK(cudaSetDevice(options_.devices[g]));
      native::DeviceTrace trace =
          traced ? rec->device_trace(options_.devices[g]) : native::DeviceTrace{};
      DeviceRegion dv = region.device_view(g, mode, epoch, trace);
      dv.cdp_threads = std::min<uint32_t>(c.threads, 1024);
      dv.kernel_id = static_cast<uint32_t>(step * kMaxGpus + g);
      dv.cta_sample = options_.trace_cta_sample;
      dv.agent_sample = options_.trace_agent_sample;
      const ChunkMap& map = region.map(g);
      if (c.mechanism == Mechanism::kPolling || c.mechanism == Mechanism::kPollingTma) {
        launch_agent(c, g, dv, map);
      }
      workload_.launch_step(step, g, part.row_begin, part.row_end, dv, regions_, run_index,
                            main_[g]);
      if (c.mechanism == Mechanism::kPolling || c.mechanism == Mechanism::kPollingTma) {
        XF_CUDA_CHECK(cudaStreamWaitEvent(main_[g], agent_ev_[g], 0));
      }
      const uint64_t off = uint64_t{map.first_chunk()} * c.chunk_bytes;
      const uint64_t bytes = uint64_t{map.end_chunk() - map.first_chunk()} * c.chunk_bytes;
      if (c.mechanism == Mechanism::kMemcpy || c.mechanism == Mechanism::kUnified) {
        if (traced) {
          launch_trace_marker(trace, traces::EventKind::kTransferBegin,
                              static_cast<uint16_t>(tmech), static_cast<uint32_t>(step),
                              dv.peer_mask, bytes, main_[g]);
        }
        for (int q = 0; q < G; ++q) {
          if (q == g) continue;
          if (c.mechanism == Mechanism::kMemcpy) {
            XF_CUDA_CHECK(cudaMemcpyPeerAsync(region.data(q) + off, options_.devices[q],
                                              region.data(g) + off, options_.devices[g], bytes,
                                              main_[g]));
          } else {
            cudaMemLocation dst{cudaMemLocationTypeDevice, options_.devices[q]};
            XF_CUDA_CHECK(cudaMemPrefetchAsync(region.data(g) + off, bytes, dst, 0, main_[g]));
          }
        }
        if (traced) {
          launch_trace_marker(trace, traces::EventKind::kTransferEnd, static_cast<uint16_t>(tmech),
                              static_cast<uint32_t>(step), dv.peer_mask, bytes, main_[g]);
        }
      }
    }
    if (G > 1) step_barrier();
  }
  for (int g = 0; g < G; ++g) {
    XF_CUDA_CHECK(cudaSetDevice(options_.devices[g]));
    XF_CUDA_CHECK(cudaStreamSynchronize(main_[g]));
    XF_CUDA_CHECK(cudaStreamSynchronize(agent_[g]));
  }
  const auto t1 = std::chrono::steady_clock::now();
  XF_RETURN_IF_ERROR(agent_errors());
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

Result<std::string> Runner::verify(const RunConfig& c, uint32_t run_index) {
  const int G = num_gpus();
  if (G > 1 && !moves_data(c.mechanism)) {
    return std::string("not checked: mechanism moves no data to peers");
  }
  const auto specs = workload_.regions();
  std::vector<std::vector<char>> host(specs.size());
  std::vector<char> other;
  for (size_t r = 0; r < specs.size(); ++r) {
    host[r].resize(specs[r].data_bytes);
    XF_CUDA_CHECK(cudaSetDevice(options_.devices[0]));
    XF_CUDA_CHECK(
        cudaMemcpy(host[r].data(), regions_[r]->data(0), specs[r].data_bytes, cudaMemcpyDefault));
    if (c.mechanism == Mechanism::kUnified) {  // one shared buffer: every GPU reads it.
      XF_RETURN_IF_ERROR(check_managed_reads(static_cast<int>(r), host[r]));
      continue;
    }
    other.resize(specs[r].data_bytes);
    for (int g = 1; g < G; ++g) {
      XF_CUDA_CHECK(cudaSetDevice(options_.devices[g]));
      XF_CUDA_CHECK(
          cudaMemcpy(other.data(), regions_[r]->data(g), specs[r].data_bytes, cudaMemcpyDefault));
      if (std::memcmp(other.data(), host[r].data(), other.size()) != 0) {
        size_t i = 0;
        while (other[i] == host[r][i]) ++i;
        return make_runtime_error("region " + std::to_string(r) + ": GPU " +
                                  std::to_string(options_.devices[g]) + " differs from GPU " +
                                  std::to_string(options_.devices[0]) + " at byte " +
                                  std::to_string(i) + " (peer did not receive the written data)");
      }
    }
  }
  Result<std::string> check = workload_.check(host, run_index);
  if (!check.ok()) return check.error();
  if (c.mechanism == Mechanism::kUnified) {
    return "um: all " + std::to_string(G) + " GPU(s) read the CPU's checksum; " + *check;
  }
  return (G > 1 ? "all " + std::to_string(G) + " GPUs identical; " : std::string()) + *check;
}

Status Runner::check_managed_reads(int r, const std::vector<char>& host) {
  uint64_t want = 0;
  const uint64_t words = host.size() / 4;
  for (uint64_t i = 0; i < words; ++i) {
    uint32_t w;
    std::memcpy(&w, host.data() + 4 * i, 4);
    want += math::checksum_word(w, i);
  }
  for (int g = 0; g < num_gpus(); ++g) {
    XF_CUDA_CHECK(cudaSetDevice(options_.devices[g]));
    unsigned long long* sum = nullptr;
    XF_CUDA_CHECK(cudaMalloc(&sum, sizeof *sum));
    XF_CUDA_CHECK(cudaMemset(sum, 0, sizeof *sum));
    launch_checksum(regions_[r]->data(g), words * 4, sum, nullptr);
    unsigned long long got = 0;
    XF_CUDA_CHECK(cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost));
    XF_CUDA_CHECK(cudaFree(sum));
    if (got != want) {
      return make_runtime_error("region " + std::to_string(r) + ": GPU " +
                                std::to_string(options_.devices[g]) +
                                " reads managed data whose checksum differs from the CPU's copy");
    }
  }
  return Status::Ok();
}

void Runner::add_metadata(const RunConfig& c, traces::Metadata& md) const {
  for (const auto& [k, v] : options_.parameters) md.set_parameter(k, v);
  md.set_parameter("workload", workload_.name());
  md.set_parameter("mechanism", mechanism_name(c.mechanism));
  md.set_parameter("chunk_size", std::to_string(c.chunk_bytes) + "B");
  md.set_parameter("threads", std::to_string(c.threads));
  md.set_parameter("gpus", std::to_string(num_gpus()));
  md.set_parameter("trace_cta_sample", std::to_string(options_.trace_cta_sample));
  md.set_parameter("trace_agent_sample", std::to_string(options_.trace_agent_sample));
  md.set_parameter("transfer_id",
                   "polling: chunk*slices_per_chunk+slice; cdp: chunk; memcpy/um: step");
  const uint64_t slice = std::min<uint64_t>(c.chunk_bytes, options_.slice_bytes);
  md.set_parameter("slice_size", std::to_string(slice) + "B");
  md.set_parameter("steps", std::to_string(workload_.num_steps()));
  std::string step_regions;
  for (int s = 0; s < workload_.num_steps(); ++s) {
    step_regions += (s ? "," : "") + std::to_string(workload_.step_region(s));
  }
  md.set_parameter("step_regions", step_regions);
  // Chunk ids in events are per region; the table lists the first region's
  // chunks (every region of a workload has the same geometry per GPU), capped.
  constexpr size_t kMaxChunkEntries = 16384;
  for (size_t r = 0; r < regions_.size(); ++r) {
    const Region& region = *regions_[r];
    md.set_parameter("region" + std::to_string(r) + "_size",
                     std::to_string(region.region_bytes()) + "B");
    for (int g = 0; g < num_gpus(); ++g) {
      if (!region.has_mapping(g)) continue;
      const ChunkMap& m = region.map(g);
      md.set_parameter("region" + std::to_string(r) + "_gpu" + std::to_string(g) + "_chunks",
                       std::to_string(m.first_chunk()) + ".." + std::to_string(m.end_chunk()));
      if (r != 0 || region.num_chunks() > kMaxChunkEntries) continue;
      uint64_t dst = 0;
      for (int q = 0; q < num_gpus(); ++q) {
        if (q != g) dst |= uint64_t{1} << options_.devices[q];
      }
      for (uint32_t ch = m.first_chunk(); ch < m.end_chunk(); ++ch) {
        traces::ChunkInfo ci;
        ci.id = ch;
        ci.gpu = static_cast<uint32_t>(options_.devices[g]);
        ci.offset_bytes = uint64_t{ch} * region.chunk_bytes();
        ci.size_bytes = region.chunk_bytes();
        ci.writers = m.writers()[ch];
        ci.destinations = dst;
        md.chunks.push_back(ci);
      }
    }
  }
}

Result<RunResult> Runner::run(const RunConfig& c, const std::string& trace_path) {
  XF_RETURN_IF_ERROR(prepare(c));
  std::vector<double> times;
  for (int i = 0; i < options_.warmup + options_.reps; ++i) {
    Result<double> t = execute(c, static_cast<uint32_t>(i), false, nullptr);
    if (!t.ok()) return t.error();
    if (i >= options_.warmup) times.push_back(*t);
  }
  const native::Summary s = native::summarize(times);
  RunResult out;
  out.time_ms = s.median;
  out.p10_ms = s.p10;
  out.p90_ms = s.p90;
  // The traced run is one more repetition in the same state as the timed
  // ones: right after an untraced one, with no host gap (clock sync,
  // poisoning memsets) between them. Run after such a gap, agent runs took
  // 7-31% longer than the untraced median (2x H200, docs/validation.md).
  if (!trace_path.empty()) {
    // Capacity 0 (the default) sizes the buffers from the run: a run that
    // overflows the first guess is traced once more with what it needed.
    const bool auto_capacity = options_.trace_capacity_events == 0;
    native::TraceRecorderOptions to;
    to.device_capacity_events =
        auto_capacity ? kAutoTraceCapacityStart : options_.trace_capacity_events;
    std::unique_ptr<native::TraceRecorder> rec;
    Result<double> t = 0.0;
    const uint32_t run_index = static_cast<uint32_t>(options_.warmup + options_.reps);
    for (int attempt = 0;; ++attempt) {
      Result<std::unique_ptr<native::TraceRecorder>> r =
          native::TraceRecorder::create(options_.devices, to);
      if (!r.ok()) return r.error();
      rec = std::move(*r);
      rec->set_producer(options_.program, options_.argc, options_.argv);
      add_metadata(c, rec->metadata());
      XF_RETURN_IF_ERROR(rec->sync_clocks());
      Result<double> warm = execute(c, run_index, false, nullptr);
      if (!warm.ok()) return warm.error();
      t = execute(c, run_index, true, rec.get());
      if (!t.ok()) return t.error();
      XF_RETURN_IF_ERROR(rec->drain());
      if (!auto_capacity || attempt > 0 || rec->lost_events() == 0) break;
      const uint32_t grown =
          native::grown_trace_capacity(rec->needed_capacity_events(), kMaxTraceCapacity);
      if (grown == 0) break;  // cannot hold it: the trace says what was lost.
      std::fprintf(stderr, " [trace: %llu events did not fit %u per GPU; tracing again with %u]",
                   static_cast<unsigned long long>(rec->lost_events()), to.device_capacity_events,
                   grown);
      to.device_capacity_events = grown;
    }
    if (rec->lost_events() > 0) {
      std::fprintf(stderr,
                   "proact: warning: the trace lost %llu events; re-record with "
                   "--trace-capacity >= %llu\n",
                   static_cast<unsigned long long>(rec->lost_events()),
                   static_cast<unsigned long long>(rec->needed_capacity_events()));
    }
    XF_RETURN_IF_ERROR(rec->sync_clocks());
    rec->metadata().set_parameter("traced_run_time", std::to_string(*t) + "ms");
    rec->metadata().set_parameter("traced_run", "repetition " + std::to_string(run_index + 1) +
                                                    ", right after " + std::to_string(run_index) +
                                                    " untraced ones");
    XF_RETURN_IF_ERROR(rec->write(trace_path));
    out.trace_path = trace_path;
  }
  // Verification run: poison every copy first so stale data cannot pass.
  for (auto& r : regions_) {
    for (int g = 0; g < num_gpus(); ++g) {
      XF_CUDA_CHECK(cudaSetDevice(r->device(g)));
      XF_CUDA_CHECK(cudaMemset(r->data(g), 0xA5, r->region_bytes()));
    }
  }
  Result<double> t = execute(c, kVerifyRun, false, nullptr);
  if (!t.ok()) return t.error();
  Result<std::string> v = verify(c, kVerifyRun);
  if (!v.ok()) return v.error();
  out.check = *v;
  out.verified = v->rfind("not checked", 0) != 0;
  return out;
}

}  // namespace xferlab::proact
