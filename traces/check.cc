// traces/check.cc — semantic validation (see check.h).
#include "traces/check.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>

#include "common/number.h"
#include "traces/event_names.h"
#include "traces/id_index.h"

namespace xferlab::traces {
namespace {

std::string str(uint64_t v) {
  return std::to_string(v);
}

std::string gpu_text(uint16_t gpu) {
  return gpu == kHostGpu ? "host" : "gpu " + str(gpu);
}

// Key of a begin/end pair: (kind family, gpu, stream, id), packed.
struct PairKey {
  uint16_t family;
  uint16_t gpu;
  uint32_t stream;
  uint64_t id;
  bool operator<(const PairKey& o) const {
    return std::tie(family, gpu, stream, id) < std::tie(o.family, o.gpu, o.stream, o.id);
  }
};

class Checker {
 public:
  Checker(const TraceReader& reader, size_t max_issues)
      : m_(reader.metadata()),
        gpus_(m_.gpus),
        kernels_(m_.kernels),
        chunks_(m_.chunks),
        flags_(m_.flags),
        phases_(m_.phases),
        max_issues_(max_issues) {
    for (const ChunkInfo& c : m_.chunks) chunk_writers_[c.id] = c.writers;
    // A recorder whose buffer filled up drops later events (metadata
    // "lost_events"); their begins then legitimately lack ends.
    if (std::optional<std::string> lost = m_.parameter("lost_events")) {
      // Not a count: no events are excused (their begins without ends are reported).
      if (Result<uint64_t> n = parse_uint(*lost); n.ok()) lost_events_ = *n;
    }
  }

  void visit(const Event& e) {
    const EventKind kind = EventKind(e.kind);
    check_refs(e, kind);
    switch (kind) {
      case EventKind::kKernelLaunch: ordered(e, 1); break;
      case EventKind::kKernelBegin: ordered(e, 1), begin(e, 1, e.stream, e.id); break;
      case EventKind::kKernelEnd: ordered(e, 1), end(e, 1, e.stream, e.id); break;
      // CTA ids are unique within a kernel on a GPU, whatever SM runs them.
      case EventKind::kCtaBegin: begin(e, 2, 0, e.id); break;
      case EventKind::kCtaEnd: end(e, 2, 0, e.id); break;
      case EventKind::kTransferBegin: begin(e, 3, 0, e.id); break;
      case EventKind::kTransferEnd: end(e, 3, 0, e.id); break;
      case EventKind::kPhaseBegin: ordered(e, 4), begin(e, 4, e.stream, e.id); break;
      case EventKind::kPhaseEnd: ordered(e, 4), end(e, 4, e.stream, e.id); break;
      case EventKind::kMpiPost: begin(e, 5, e.stream, (uint64_t(e.id) << 32) | e.aux, true); break;
      case EventKind::kMpiComplete: end(e, 5, e.stream, (uint64_t(e.id) << 32) | e.aux); break;
      case EventKind::kCounterDecrement: counter(e, false); break;
      case EventKind::kCounterZero: counter(e, true); break;
      default: break;
    }
    ++record_;
  }

  void finish() {
    for (const auto& [key, opens] : open_) {
      for (const Open& o : opens) {
        issue(lost_events_ == 0, o.record,
              std::string(event_kind_name(o.kind)) + " on " + gpu_text(key.gpu) + " (id " +
                  str(o.id) + ") never ends" +
                  (lost_events_ ? " (the trace lost " + str(lost_events_) + " events)" : ""));
      }
    }
    report_.events_checked = record_;
  }

  CheckReport report() { return std::move(report_); }

 private:
  struct Open {
    uint64_t record;
    uint64_t time_ns;
    uint64_t value;
    uint16_t kind;
    uint32_t id;
  };

  void issue(bool error, uint64_t record, const std::string& message) {
    (error ? report_.errors : report_.warnings)++;
    if (report_.issues.size() < max_issues_) {
      report_.issues.push_back(CheckIssue{error, record, "event #" + str(record) + ": " + message});
    }
  }

  // ordered: host-issued kinds on one (gpu, stream) appear in time order.
  void ordered(const Event& e, uint16_t family) {
    uint64_t& last = last_time_[PairKey{family, e.gpu, e.stream, 0}];
    if (e.time_ns < last) {
      issue(true, record_,
            std::string(event_kind_name(e.kind)) + " at " + str(e.time_ns) + " ns on " +
                gpu_text(e.gpu) + " stream " + str(e.stream) + " is earlier than the previous (" +
                str(last) + " ns)");
    }
    last = std::max(last, e.time_ns);
  }

  // begin/end: pairs; `multi` allows several outstanding (MPI requests).
  void begin(const Event& e, uint16_t family, uint32_t stream, uint64_t id, bool multi = false) {
    std::vector<Open>& opens = open_[PairKey{family, e.gpu, stream, id}];
    if (!opens.empty() && !multi) {
      issue(true, record_,
            std::string(event_kind_name(e.kind)) + " on " + gpu_text(e.gpu) + " (id " + str(e.id) +
                ") while event #" + str(opens.back().record) + " has not ended");
      return;
    }
    opens.push_back(Open{record_, e.time_ns, e.value, e.kind, e.id});
  }

  void end(const Event& e, uint16_t family, uint32_t stream, uint64_t id) {
    auto it = open_.find(PairKey{family, e.gpu, stream, id});
    if (it == open_.end() || it->second.empty()) {
      issue(true, record_,
            std::string(event_kind_name(e.kind)) + " on " + gpu_text(e.gpu) + " (id " + str(e.id) +
                ") without a matching begin");
      return;
    }
    const Open o = it->second.front();
    it->second.erase(it->second.begin());
    if (it->second.empty()) open_.erase(it);
    if (e.time_ns < o.time_ns) {
      issue(true, record_,
            std::string(event_kind_name(e.kind)) + " at " + str(e.time_ns) +
                " ns is before its begin (event #" + str(o.record) + ", " + str(o.time_ns) +
                " ns)");
    }
    if (family == 3 && e.value != o.value) {
      issue(true, record_,
            "transfer " + str(e.id) + " ends with " + str(e.value) + " bytes but began with " +
                str(o.value));
    }
  }

  void counter(const Event& e, bool zero) {
    auto w = chunk_writers_.find(e.id);
    if (zero && e.value != 0) {
      issue(true, record_, "counter_zero for chunk " + str(e.id) + " has value " + str(e.value));
    } else if (!zero && w != chunk_writers_.end() && w->second > 0 && e.value >= w->second) {
      issue(true, record_,
            "counter of chunk " + str(e.id) + " at " + str(e.value) + " after a decrement, but " +
                "the chunk has only " + str(w->second) + " writers");
    }
  }

  void check_refs(const Event& e, EventKind kind) {
    if (e.gpu != kHostGpu && !m_.gpus.empty() && gpus_.find(e.gpu) == nullptr) {
      issue(true, record_, "unknown gpu " + str(e.gpu) + " (not in metadata gpus)");
    }
    auto ref = [&](bool known, const char* table, uint32_t id) {
      if (!known) {
        issue(true, record_,
              std::string(event_kind_name(e.kind)) + " refers to unknown " + table + " id " +
                  str(id));
      }
    };
    switch (kind) {
      case EventKind::kKernelLaunch:
      case EventKind::kKernelBegin:
      case EventKind::kKernelEnd:
        if (!m_.kernels.empty()) ref(kernels_.find(e.id) != nullptr, "kernel", e.id);
        break;
      case EventKind::kCtaBegin:
      case EventKind::kCtaEnd:
        if (e.aux != kNoId && !m_.chunks.empty()) {
          ref(chunks_.find(e.aux) != nullptr, "chunk", e.aux);
        }
        break;
      case EventKind::kCounterDecrement:
      case EventKind::kCounterZero:
      case EventKind::kChunkWrite:
        if (!m_.chunks.empty()) ref(chunks_.find(e.id) != nullptr, "chunk", e.id);
        break;
      case EventKind::kFlagSet:
      case EventKind::kFlagObserved:
      case EventKind::kStreamWriteValue:
      case EventKind::kStreamWaitValue:
        if (!m_.flags.empty()) ref(flags_.find(e.id) != nullptr, "flag", e.id);
        break;
      case EventKind::kPhaseBegin:
      case EventKind::kPhaseEnd:
        if (!m_.phases.empty()) ref(phases_.find(e.id) != nullptr, "phase", e.id);
        break;
      case EventKind::kTransferBegin:
      case EventKind::kTransferEnd:
        if (e.flags >= uint16_t(TransferMechanism::kNumMechanisms)) {
          issue(true, record_, "transfer mechanism " + str(e.flags) + " is unknown");
        }
        // aux 0 = every other GPU (runs of more GPUs than the mask has bits).
        for (uint32_t d = 0; d < 32; ++d) {
          if ((e.aux >> d & 1) && !m_.gpus.empty() && gpus_.find(d) == nullptr) {
            issue(true, record_, "transfer destination gpu " + str(d) + " is unknown");
          }
        }
        break;
      case EventKind::kMpiPost:
      case EventKind::kMpiComplete:
        if (e.flags < uint16_t(MpiOp::kIsend) || e.flags > uint16_t(MpiOp::kRecv)) {
          issue(true, record_, "MPI operation " + str(e.flags) + " is unknown");
        }
        break;
      default: break;
    }
  }

  const Metadata& m_;
  IdIndex<GpuInfo> gpus_;  // per-event id lookups (Metadata::find_* is linear)
  IdIndex<KernelInfo> kernels_;
  IdIndex<ChunkInfo> chunks_;
  IdIndex<FlagInfo> flags_;
  IdIndex<NamedId> phases_;
  size_t max_issues_;
  uint64_t lost_events_ = 0;  ///< events the recorder dropped (metadata).
  uint64_t record_ = 0;
  CheckReport report_;
  std::map<PairKey, std::vector<Open>> open_;
  std::map<PairKey, uint64_t> last_time_;
  std::unordered_map<uint32_t, uint32_t> chunk_writers_;
};

}  // namespace

Result<CheckReport> check_trace(TraceReader& reader, size_t max_issues) {
  XF_RETURN_IF_ERROR(reader.rewind());
  Checker checker(reader, max_issues);
  // Record numbers are positions in the stream (file indices unless a newer
  // minor version's unknown kinds were skipped).
  XF_RETURN_IF_ERROR(reader.for_each([&](const Event& e) { checker.visit(e); }));
  checker.finish();
  return checker.report();
}

}  // namespace xferlab::traces
