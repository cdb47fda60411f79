// sim/trace_adapter.cc — TraceReader -> ReplayInput.
#include "sim/trace_adapter.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <vector>

#include "common/units.h"
#include "traces/event.h"
#include "traces/reader.h"

namespace xferlab::sim {

namespace {

using traces::Event;
using traces::EventKind;

struct KernelSpan {
  double begin_ns = -1, end_ns = -1;
};

struct ChunkAcc {
  double first_write_ns = INFINITY, last_end_ns = 0, zero_ns = -1;
  uint64_t bytes = 0;
  uint32_t writers = 0, store_bytes = 0;
};

std::optional<Mechanism> from_trace_mechanism(uint16_t flags) {
  switch (static_cast<traces::TransferMechanism>(flags)) {
    case traces::TransferMechanism::kMemcpy: return Mechanism::kMemcpy;
    case traces::TransferMechanism::kInline: return Mechanism::kInline;
    case traces::TransferMechanism::kPolling:
    case traces::TransferMechanism::kPollingTma: return Mechanism::kPolling;
    case traces::TransferMechanism::kCdp: return Mechanism::kCdp;
    case traces::TransferMechanism::kHardwareDma: return Mechanism::kHardware;
    default: return std::nullopt;
  }
}

// kernel_index: the kernel of `spans` whose interval contains t (or the
// last one that began before t).
int kernel_index(const std::vector<KernelSpan>& spans, double t) {
  auto it = std::upper_bound(spans.begin(), spans.end(), t,
                             [](double v, const KernelSpan& k) { return v < k.begin_ns; });
  return static_cast<int>(it - spans.begin()) - 1;
}

}  // namespace

Result<ReplayInput> load_replay_input(const std::string& path) {
  Result<traces::TraceReader> reader = traces::TraceReader::open(path);
  if (!reader.ok()) return make_error(reader.error().message);
  traces::TraceReader& r = *reader;

  // Pass 1: kernels per GPU, measured transfers.
  std::map<uint32_t, std::vector<KernelSpan>> kernels;
  std::vector<std::pair<double, double>> transfers;
  std::map<std::pair<uint32_t, uint32_t>, double> open_transfers;
  std::map<Mechanism, uint64_t> mechanism_votes;
  uint64_t measured_payload = 0;
  Status s = r.for_each([&](const Event& e) {
    const double t = static_cast<double>(e.time_ns);
    switch (static_cast<EventKind>(e.kind)) {
      case EventKind::kKernelBegin: kernels[e.gpu].push_back(KernelSpan{t, -1}); break;
      case EventKind::kKernelEnd: {
        auto& v = kernels[e.gpu];
        // Ends pair with the latest open begin (kernels of one GPU do not overlap).
        for (auto it = v.rbegin(); it != v.rend(); ++it) {
          if (it->end_ns < 0 && it->begin_ns <= t) {
            it->end_ns = t;
            break;
          }
        }
        break;
      }
      case EventKind::kTransferBegin:
        open_transfers[{e.gpu, e.id}] = t;
        if (auto m = from_trace_mechanism(e.flags)) ++mechanism_votes[*m];
        measured_payload += e.value * static_cast<uint64_t>(std::popcount(e.aux));
        break;
      case EventKind::kTransferEnd: {
        auto it = open_transfers.find({e.gpu, e.id});
        if (it != open_transfers.end()) {
          transfers.emplace_back(it->second, t);
          open_transfers.erase(it);
        }
        break;
      }
      default: break;
    }
  });
  if (!s.ok()) return make_error(s.error().message);
  for (auto& [gpu, v] : kernels) {
    std::sort(v.begin(), v.end(),
              [](const KernelSpan& a, const KernelSpan& b) { return a.begin_ns < b.begin_ns; });
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i].end_ns < 0) {
        return make_error(path + ": kernel " + std::to_string(i) + " on gpu " +
                          std::to_string(gpu) + " has no end event");
      }
    }
  }
  if (kernels.empty()) return make_error(path + ": no kernel begin/end events to replay");

  // Pass 2: chunks (CTA writes and counter zeros), keyed by GPU, kernel, chunk.
  std::map<std::tuple<uint32_t, int, uint32_t>, ChunkAcc> chunks;
  XF_RETURN_IF_ERROR(r.rewind());
  s = r.for_each([&](const Event& e) {
    const auto kind = static_cast<EventKind>(e.kind);
    if (kind != EventKind::kCtaBegin && kind != EventKind::kCtaEnd &&
        kind != EventKind::kCounterZero && kind != EventKind::kChunkWrite) {
      return;
    }
    auto kit = kernels.find(e.gpu);
    if (kit == kernels.end()) return;
    const double t = static_cast<double>(e.time_ns);
    const int ki = kernel_index(kit->second, t);
    if (ki < 0) return;
    const uint32_t chunk = kind == EventKind::kCounterZero ? e.id : e.aux;
    if (kind != EventKind::kCounterZero && e.aux == traces::kNoId &&
        kind != EventKind::kChunkWrite) {
      return;
    }
    ChunkAcc& c = chunks[{e.gpu, ki, kind == EventKind::kChunkWrite ? e.id : chunk}];
    switch (kind) {
      case EventKind::kCtaBegin: c.first_write_ns = std::min(c.first_write_ns, t); break;
      case EventKind::kCtaEnd:
      case EventKind::kChunkWrite:
        c.last_end_ns = std::max(c.last_end_ns, t);
        c.first_write_ns = std::min(c.first_write_ns, t);
        c.bytes += e.value;
        ++c.writers;
        c.store_bytes = std::max<uint32_t>(c.store_bytes, e.flags & ~traces::kFlagWarp);
        break;
      case EventKind::kCounterZero: c.zero_ns = std::max(c.zero_ns, t); break;
      default: break;
    }
  });
  if (!s.ok()) return make_error(s.error().message);

  ReplayInput in;
  const std::string& p = path;
  in.name = p.substr(p.find_last_of('/') + 1);
  if (auto dot = in.name.rfind('.'); dot != std::string::npos && dot > 0) in.name.resize(dot);
  in.num_gpus = 0;
  size_t iterations = 0;
  for (auto& [gpu, v] : kernels) {
    in.num_gpus = std::max(in.num_gpus, gpu + 1);
    iterations = std::max(iterations, v.size());
  }
  in.num_gpus = std::max<uint32_t>(in.num_gpus, r.metadata().gpus.size());
  std::sort(transfers.begin(), transfers.end());
  double prev_end = -1, first_begin = -1, last_end = 0;
  for (size_t i = 0; i < iterations; ++i) {
    IterationInput it;
    double start = INFINITY, end = 0, next_start = INFINITY;
    for (auto& [gpu, v] : kernels) {
      if (i < v.size()) start = std::min(start, v[i].begin_ns), end = std::max(end, v[i].end_ns);
      if (i + 1 < v.size()) next_start = std::min(next_start, v[i + 1].begin_ns);
    }
    for (auto [a, b] : transfers) {
      if (a >= start && a < next_start) end = std::max(end, b);
    }
    it.gap_before_ns = prev_end < 0 ? 0 : std::max(0.0, start - prev_end);
    if (first_begin < 0) first_begin = start;
    prev_end = end;
    last_end = std::max(last_end, end);
    for (auto& [gpu, v] : kernels) {
      if (i >= v.size()) continue;
      KernelInput k;
      k.gpu = gpu;
      k.begin_ns = v[i].begin_ns - start;
      k.duration_ns = v[i].end_ns - v[i].begin_ns;
      for (auto ci = chunks.lower_bound({gpu, static_cast<int>(i), 0});
           ci != chunks.end() && std::get<0>(ci->first) == gpu &&
           std::get<1>(ci->first) == static_cast<int>(i);
           ++ci) {
        const ChunkAcc& c = ci->second;
        if (c.writers == 0) continue;
        const double ready = std::min(c.zero_ns >= 0 ? c.zero_ns : c.last_end_ns, v[i].end_ns);
        const traces::ChunkInfo* info = r.metadata().find_chunk(std::get<2>(ci->first));
        ChunkInput ch;
        ch.first_write_ns = std::max(0.0, c.first_write_ns - v[i].begin_ns);
        ch.ready_ns = std::max(ch.first_write_ns, ready - v[i].begin_ns);
        ch.size_bytes = info && info->size_bytes > 0 ? info->size_bytes : c.bytes;
        ch.writers = c.writers;
        ch.store_bytes = c.store_bytes > 0 ? c.store_bytes : 4;
        if (info && info->destinations != 0) k.dest_mask = info->destinations;
        k.chunks.push_back(ch);
      }
      std::sort(k.chunks.begin(), k.chunks.end(),
                [](const ChunkInput& a, const ChunkInput& b) { return a.ready_ns < b.ready_ns; });
      it.kernels.push_back(std::move(k));
    }
    in.iterations.push_back(std::move(it));
  }
  if (!mechanism_votes.empty()) {
    Measured m;
    m.mechanism =
        std::max_element(mechanism_votes.begin(), mechanism_votes.end(), [](auto& a, auto& b) {
          return a.second < b.second;
        })->first;
    m.end_to_end_ns = last_end - first_begin;
    double busy = 0, a0 = 0, b0 = -1;
    for (auto [a, b] : transfers) {
      if (a > b0) {
        if (b0 > a0) busy += b0 - a0;
        a0 = a, b0 = b;
      } else {
        b0 = std::max(b0, b);
      }
    }
    if (b0 > a0) busy += b0 - a0;
    m.transfer_busy_ns = busy;
    m.payload_bytes = measured_payload;
    in.measured = m;
  }
  if (auto pl = r.metadata().parameter("platform")) in.platform_hint = *pl;
  if (auto ko = r.metadata().parameter("kernel_only_time")) {
    Result<double> v = parse_quantity(*ko, Unit::kTimeNs);
    if (!v.ok()) return make_error(path + ": parameter kernel_only_time: " + v.error().message);
    in.kernel_only_ns = *v;
  }
  XF_RETURN_IF_ERROR(in.validate());
  return in;
}

ReplayInput separate_data_generation(const ReplayInput& input, const Machine& machine) {
  if (!input.measured) return input;
  double scale = 1;
  if (input.kernel_only_ns && *input.kernel_only_ns > 0) {
    // Mean measured kernel duration vs the kernel-only reference run.
    double sum = 0;
    size_t n = 0;
    for (const IterationInput& it : input.iterations) {
      for (const KernelInput& k : it.kernels) sum += k.duration_ns, ++n;
    }
    if (n > 0 && sum > 0) scale = *input.kernel_only_ns / (sum / n);
  } else if (input.measured->mechanism == Mechanism::kPolling) {
    scale = 1 - machine.costs.polling_sm_share;
  }
  if (scale == 1) return input;
  ReplayInput out = input;
  for (IterationInput& it : out.iterations) {
    for (KernelInput& k : it.kernels) {
      k.duration_ns *= scale;
      for (ChunkInput& c : k.chunks) {
        c.first_write_ns *= scale;
        c.ready_ns *= scale;
      }
    }
  }
  return out;
}

}  // namespace xferlab::sim
