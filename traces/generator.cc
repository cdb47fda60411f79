// traces/generator.cc — the synthetic PROACT-like run (see generator.h).
#include "traces/generator.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "traces/event_names.h"

namespace xferlab::traces {
namespace {

constexpr uint64_t kStartNs = 1'000'000'000;  // arbitrary epoch offset: exercises 64-bit times.
constexpr uint32_t kProducerKernel = 0;
constexpr uint32_t kIterationPhase = 0;
constexpr uint16_t kStoreGranularityBytes = 16;
constexpr uint16_t kAgentLanes = 4;
constexpr double kLinkBytesPerNs = 25.0;  // 25 GB/s per destination link.

// Jitter: deterministic for a seed on every platform (mt19937_64 is fully
// specified; std distributions are not, so none are used).
class Jitter {
 public:
  explicit Jitter(uint64_t seed) : rng_(seed) {}
  // around: base_ns +/- spread_pct percent.
  uint64_t around(uint64_t base_ns, uint32_t spread_pct) {
    const uint64_t span = base_ns * spread_pct / 100;
    if (span == 0) return base_ns;
    return base_ns - span + rng_() % (2 * span + 1);
  }

 private:
  std::mt19937_64 rng_;
};

Event make(uint64_t t, EventKind kind, uint16_t gpu, uint16_t stream, uint32_t id, uint32_t aux,
           uint64_t value, uint16_t flags = 0) {
  return Event{t, uint16_t(kind), flags, gpu, stream, id, aux, value};
}

// The delay from a chunk becoming ready to its transfer starting, per
// mechanism (orders of magnitude from the PROACT paper's discussion).
uint64_t trigger_delay_ns(TransferMechanism m) {
  switch (m) {
    case TransferMechanism::kMemcpy: return 8000;  // host observes flag, enqueues copy.
    case TransferMechanism::kInline: return 0;
    case TransferMechanism::kPolling: return 1000;
    case TransferMechanism::kCdp: return 5000;
    case TransferMechanism::kPollingTma: return 800;
    case TransferMechanism::kUnifiedMemory: return 20000;
    case TransferMechanism::kHardwareDma: return 200;
    case TransferMechanism::kMpi: return 10000;
    case TransferMechanism::kProxy: return 3000;
    default: return 1000;
  }
}

// producers: GPUs that run the producer kernel.
uint32_t producers(const GenerateOptions& o) {
  return o.producers == 0 ? o.gpus : o.producers;
}

// chunk_writers: CTAs [c*ctas/chunks, (c+1)*ctas/chunks) write chunk c.
uint32_t chunk_writers(const GenerateOptions& o, uint32_t c) {
  return uint32_t((uint64_t(c + 1) * o.ctas) / o.chunks - (uint64_t(c) * o.ctas) / o.chunks);
}

// TransferSource: a chunk ready to send: its GPU, the SM whose CTA zeroed
// its counter, the chunk's id, its destination mask and the counter's zero time.
struct TransferSource {
  uint16_t gpu = 0;
  uint16_t sm = 0;
  uint32_t chunk = 0;
  uint32_t dests = 0;
  uint64_t ready_ns = 0;
};

// emit_transfer: the events of sending `s`'s chunk with o.mechanism (host
// mechanisms: flag set and observed, then the copy; MPI: a send per peer);
// returns the transfer's end. `message` numbers the flags.
uint64_t emit_transfer(const GenerateOptions& o, Jitter& jitter, const TransferSource& s,
                       uint32_t& message, std::vector<Event>& ev) {
  const uint16_t mech = uint16_t(o.mechanism);
  const uint64_t dec = s.ready_ns;
  uint64_t start = dec + jitter.around(trigger_delay_ns(o.mechanism), 20);
  uint16_t lane = uint16_t(s.chunk % kAgentLanes);
  if (o.mechanism == TransferMechanism::kMemcpy || o.mechanism == TransferMechanism::kMpi ||
      o.mechanism == TransferMechanism::kProxy) {
    // GPU sets a flag; a host thread observes it and issues the transfer.
    const uint64_t seen = dec + jitter.around(2000, 30);
    ev.push_back(make(dec, EventKind::kFlagSet, s.gpu, s.sm, s.chunk, message, 1));
    ev.push_back(make(seen, EventKind::kFlagObserved, kHostGpu, s.gpu, s.chunk, message, 1));
    ++message;
    start = std::max(start, seen + 500);
    lane = 0;
  }
  const uint64_t wire_ns =
      uint64_t(double(o.chunk_bytes) / kLinkBytesPerNs) + jitter.around(1500, 20);
  const uint64_t end = start + wire_ns;
  // Transfer id = chunk id: links a transfer to its chunk's counter.
  ev.push_back(
      make(start, EventKind::kTransferBegin, s.gpu, lane, s.chunk, s.dests, o.chunk_bytes, mech));
  ev.push_back(
      make(end, EventKind::kTransferEnd, s.gpu, lane, s.chunk, s.dests, o.chunk_bytes, mech));
  if (o.mechanism == TransferMechanism::kMpi) {
    for (uint32_t d = 0; d < o.gpus; ++d) {
      if (d == s.gpu) continue;
      ev.push_back(make(start, EventKind::kMpiPost, s.gpu, 0, d, s.chunk, o.chunk_bytes,
                        uint16_t(MpiOp::kIsend)));
      ev.push_back(make(end, EventKind::kMpiComplete, s.gpu, 0, d, s.chunk, o.chunk_bytes,
                        uint16_t(MpiOp::kIsend)));
    }
  }
  return end;
}

}  // namespace

Status GenerateOptions::validate() const {
  if (gpus < 1 || gpus > kMaxGeneratedGpus) {
    return make_error("generate: --gpus must be 1.." + std::to_string(kMaxGeneratedGpus));
  }
  if (chunks < 1 || chunks > 65536) return make_error("generate: --chunks must be 1..65536");
  if (ctas < chunks || ctas > 1'000'000) {
    return make_error("generate: --ctas must be >= --chunks (" + std::to_string(chunks) +
                      ") and <= 1000000");
  }
  if (iterations < 1 || iterations > 10000) {
    return make_error("generate: --iterations must be 1..10000");
  }
  if (sms < 1 || sms > 65536) return make_error("generate: --sms must be 1..65536");
  if (producers > gpus) return make_error("generate: producers must be 0..gpus");
  if (cta_ns < 1 || cta_ns > 1'000'000'000)
    return make_error("generate: CTA time must be 1 ns..1 s");
  if (chunk_bytes < ctas / chunks || chunk_bytes > (1ull << 40)) {
    return make_error("generate: chunk size must cover one byte per writer and be <= 1TiB");
  }
  if (mechanism == TransferMechanism::kUnknown ||
      uint16_t(mechanism) >= uint16_t(TransferMechanism::kNumMechanisms)) {
    return make_error("generate: unknown mechanism");
  }
  return Status::Ok();
}

Metadata generated_metadata(const GenerateOptions& o) {
  Metadata m;
  m.producer.program = "xferlab trace generate";
  m.producer.version = "synthetic";
  m.producer.command_line = "xferlab trace generate --gpus " + std::to_string(o.gpus) +
                            " --chunks " + std::to_string(o.chunks) + " --ctas " +
                            std::to_string(o.ctas) + " --seed " + std::to_string(o.seed) +
                            " --mechanism " + mechanism_name(uint16_t(o.mechanism));
  m.machine.hostname = "synthetic";
  m.machine.cpu_model = "synthetic";
  m.time_base = "host_realtime";
  for (uint32_t g = 0; g < o.gpus; ++g) {
    m.gpus.push_back(GpuInfo{g, o.gpu_model, "", "", 80ull << 30, o.sms, "9.0", ""});
    m.clocks.push_back(ClockDomain{"gpu" + std::to_string(g) + ".globaltimer", "gpu_globaltimer", 0,
                                   0.0, kStartNs, 0.0, 0, "identity (synthetic)"});
  }
  m.set_parameter("mechanism", o.compute_only ? "none" : mechanism_name(uint16_t(o.mechanism)));
  m.set_parameter("gpus", std::to_string(o.gpus));
  m.set_parameter("chunks", std::to_string(o.chunks));
  m.set_parameter("ctas", std::to_string(o.ctas));
  m.set_parameter("sms", std::to_string(o.sms));
  m.set_parameter("iterations", std::to_string(o.iterations));
  m.set_parameter("chunk_size", std::to_string(o.chunk_bytes) + "B");
  m.set_parameter("seed", std::to_string(o.seed));
  for (const auto& [k, v] : o.parameters) m.set_parameter(k, v);
  m.kernels.push_back(KernelInfo{kProducerKernel, "proact_producer", o.ctas, 256});
  m.phases.push_back(NamedId{kIterationPhase, "iteration"});
  m.streams.push_back(NamedId{0, "compute"});
  // Destination masks name every other GPU; 0 (= every other GPU,
  // FORMAT.md) when the mask's bits cannot (more than 64 GPUs).
  const uint64_t all_gpus = o.gpus >= 64 ? ~0ull : ((1ull << o.gpus) - 1);
  for (uint32_t g = 0; g < producers(o); ++g) {
    for (uint32_t c = 0; c < o.chunks; ++c) {
      const uint32_t id = g * o.chunks + c;
      const uint32_t writers = chunk_writers(o, c);
      m.chunks.push_back(ChunkInfo{id, g, c * o.chunk_bytes, o.chunk_bytes, writers,
                                   o.gpus > 64 ? 0 : all_gpus & ~(1ull << g)});
      m.flags.push_back(FlagInfo{id, "ready_g" + std::to_string(g) + "_c" + std::to_string(c),
                                 o.mechanism == TransferMechanism::kMemcpy
                                     ? "host_pinned"
                                     : "device:" + std::to_string(g)});
    }
  }
  return m;
}

Status generate_events(const GenerateOptions& o, TraceWriter& writer) {
  XF_RETURN_IF_ERROR(o.validate());
  Jitter jitter(o.seed);
  // Transfer records carry a 32-bit mask: 0 (= every other GPU) beyond 32 GPUs.
  const uint32_t dest_all = o.gpus >= 32 ? 0xffffffffu : uint32_t((1ull << o.gpus) - 1);
  std::vector<Event> ev;
  std::vector<uint32_t> remaining(o.chunks);
  uint64_t t = kStartNs;
  uint32_t message = 0;
  for (uint32_t it = 0; it < o.iterations; ++it) {
    ev.clear();
    uint64_t iteration_end = t;
    ev.push_back(make(t, EventKind::kIteration, kHostGpu, 0, it, kNoId, 0));
    for (uint32_t g = 0; g < producers(o); ++g) {
      const uint16_t gpu = uint16_t(g);
      const uint32_t dests = o.gpus > 32 ? 0 : dest_all & ~(1u << g);
      ev.push_back(make(t, EventKind::kPhaseBegin, gpu, 0, kIterationPhase, it, 0));
      const uint64_t launch = t + jitter.around(2000, 20);
      const uint64_t begin = launch + jitter.around(4000, 20);
      ev.push_back(make(launch, EventKind::kKernelLaunch, gpu, 0, kProducerKernel, o.ctas, 256));
      ev.push_back(make(begin, EventKind::kKernelBegin, gpu, 0, kProducerKernel, o.ctas, 256));
      for (uint32_t c = 0; c < o.chunks; ++c) {
        remaining[c] = chunk_writers(o, c);
      }
      // CTAs run in waves: CTA i takes SM i % sms after the previous CTA on it.
      std::vector<uint64_t> sm_free(o.sms, begin);
      uint64_t kernel_end = begin;
      uint64_t last_transfer_end = begin;
      for (uint32_t i = 0; i < o.ctas; ++i) {
        const uint16_t sm = uint16_t(i % o.sms);
        const uint32_t c = uint32_t((uint64_t(i) * o.chunks) / o.ctas);
        const uint32_t chunk = g * o.chunks + c;
        const uint32_t writers = chunk_writers(o, c);
        const uint64_t bytes = o.chunk_bytes / writers;
        const uint64_t cta_begin = sm_free[sm] + jitter.around(300, 50);
        const uint64_t cta_end = cta_begin + jitter.around(o.cta_ns, 15);
        sm_free[sm] = cta_end;
        kernel_end = std::max(kernel_end, cta_end);
        ev.push_back(make(cta_begin, EventKind::kCtaBegin, gpu, sm, i, chunk, bytes,
                          kStoreGranularityBytes));
        ev.push_back(
            make(cta_end, EventKind::kCtaEnd, gpu, sm, i, chunk, bytes, kStoreGranularityBytes));
        const uint64_t dec = cta_end + jitter.around(100, 50);
        --remaining[c];
        ev.push_back(make(dec, EventKind::kCounterDecrement, gpu, sm, chunk, i, remaining[c]));
        if (remaining[c] != 0) continue;
        ev.push_back(make(dec, EventKind::kCounterZero, gpu, sm, chunk, i, 0));
        if (o.gpus == 1 || o.compute_only) continue;
        const uint64_t end =
            emit_transfer(o, jitter, TransferSource{gpu, sm, chunk, dests, dec}, message, ev);
        last_transfer_end = std::max(last_transfer_end, end);
      }
      kernel_end += jitter.around(1000, 20);
      ev.push_back(make(kernel_end, EventKind::kKernelEnd, gpu, 0, kProducerKernel, o.ctas, 256));
      const uint64_t phase_end = std::max(kernel_end, last_transfer_end) + 1000;
      ev.push_back(make(phase_end, EventKind::kPhaseEnd, gpu, 0, kIterationPhase, it, 0));
      iteration_end = std::max(iteration_end, phase_end);
    }
    // Time order within an iteration (ties keep generation order: begin
    // before end) as a host-side merge of per-GPU buffers would produce.
    std::stable_sort(ev.begin(), ev.end(),
                     [](const Event& a, const Event& b) { return a.time_ns < b.time_ns; });
    XF_RETURN_IF_ERROR(writer.append(ev.data(), ev.size()));
    t = iteration_end + 10000;
  }
  return Status::Ok();
}

Status generate_trace(const std::string& path, const GenerateOptions& options,
                      const WriterOptions& writer_options) {
  XF_RETURN_IF_ERROR(options.validate());
  TraceWriter writer;
  XF_RETURN_IF_ERROR(writer.open(path, generated_metadata(options), writer_options));
  XF_RETURN_IF_ERROR(generate_events(options, writer));
  return writer.close();
}

}  // namespace xferlab::traces
