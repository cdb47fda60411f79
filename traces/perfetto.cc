// traces/perfetto.cc — Chrome trace-event JSON export (see perfetto.h).
#include "traces/perfetto.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "common/table.h"
#include "traces/event_names.h"

namespace xferlab::traces {
namespace {

// Process ids: GPU g -> g + 1; host threads; links.
constexpr uint32_t kHostPid = 0;
constexpr uint32_t kLinksPid = 100000;
// Thread-id bases within a GPU process, one range per track family.
constexpr uint32_t kSmTidBase = 100000;
constexpr uint32_t kLaneTidBase = 200000;
constexpr uint32_t kSyncTid = 300000;  // counters and flags.

struct Track {
  uint32_t pid;
  uint32_t tid;
  bool operator<(const Track& o) const { return std::tie(pid, tid) < std::tie(o.pid, o.tid); }
};

class Exporter {
 public:
  Exporter(const TraceReader& reader, std::ostream& out)
      : m_(reader.metadata()), out_(out), t0_(reader.min_time_ns()) {}

  void begin_file() {
    out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\""
         << json_escape(m_.producer.program) << "\",\"mechanism\":\""
         << json_escape(m_.parameter("mechanism").value_or("")) << "\"},\"traceEvents\":[\n";
  }

  void visit(const Event& e) {
    if (t0_ == UINT64_MAX) t0_ = e.time_ns;
    switch (EventKind(e.kind)) {
      case EventKind::kKernelLaunch:
        slice(gpu_track(e.gpu, e.stream, "stream"), e.time_ns, 0, "launch " + kernel_name(e.id),
              "kernel", 0);
        break;
      case EventKind::kKernelBegin:
      case EventKind::kCtaBegin:
      case EventKind::kTransferBegin:
      case EventKind::kPhaseBegin:
      case EventKind::kMpiPost: open_[key(e)].push_back(e); break;
      case EventKind::kKernelEnd:
        close(e, gpu_track(e.gpu, e.stream, "stream"), kernel_name(e.id), "kernel");
        break;
      case EventKind::kCtaEnd:
        close(e, gpu_track(e.gpu, kSmTidBase + e.stream, "SM"), "CTA " + std::to_string(e.id),
              "cta");
        break;
      case EventKind::kTransferEnd: transfer_end(e); break;
      case EventKind::kPhaseEnd:
        close(e, host_track(e.gpu, e.stream), phase_name(e.id), "phase");
        break;
      case EventKind::kMpiComplete:
        close(e, host_track(e.gpu, e.stream),
              std::string("MPI ") + mpi_op_name(e.flags) + " peer " + std::to_string(e.id), "mpi");
        break;
      case EventKind::kCounterDecrement:
      case EventKind::kCounterZero: {
        const Track t = gpu_track(e.gpu, kSyncTid, "counters & flags");
        const std::string name = std::string(event_kind_name(e.kind)) + " chunk " +
                                 std::to_string(e.id) + " = " + std::to_string(e.value);
        slice(t, e.time_ns, 0, name, "counter", 0);
        if (EventKind(e.kind) == EventKind::kCounterZero) {
          // Flow to the chunk's transfer (transfer id = chunk id by convention).
          ready_[{e.gpu, e.id}] = FlowSource{t, e.time_ns};
        }
        break;
      }
      case EventKind::kFlagSet:
      case EventKind::kFlagObserved: flag(e); break;
      case EventKind::kStreamWriteValue:
      case EventKind::kStreamWaitValue:
      case EventKind::kChunkWrite:
      case EventKind::kIteration: {
        const Track t = e.gpu == kHostGpu || EventKind(e.kind) == EventKind::kIteration
                            ? host_track(e.gpu, e.stream)
                            : gpu_track(e.gpu, kSyncTid, "counters & flags");
        slice(t, e.time_ns, 0, std::string(event_kind_name(e.kind)) + " " + std::to_string(e.id),
              "marker", 0);
        break;
      }
      default: break;
    }
  }

  void end_file() {
    // Begins that never ended are still shown, as zero-length slices.
    for (auto& [k, opens] : open_) {
      for (const Event& e : opens) {
        slice(begin_track(e), e.time_ns, 0,
              std::string(event_kind_name(e.kind)) + " " + std::to_string(e.id) + " (no end)",
              "unmatched", 0);
      }
    }
    for (const auto& [track, name] : thread_names_) {
      meta("thread_name", track, name);
      // Sort threads by family in the UI.
      write_prefix("M", track, 0);
      out_ << ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" << track.tid << "}}";
    }
    for (const auto& [pid, name] : process_names_) meta("process_name", Track{pid, 0}, name);
    out_ << "\n]}\n";
  }

 private:
  struct FlowSource {
    Track track;
    uint64_t time_ns;
  };
  using Key = std::tuple<uint16_t, uint16_t, uint16_t, uint64_t>;  // family, gpu, stream, id

  static Key key(const Event& e) {
    const uint16_t family = uint16_t(e.kind / 2);  // begin (even) and end (odd) kinds pair up.
    switch (EventKind(e.kind)) {
      case EventKind::kCtaBegin:
      case EventKind::kCtaEnd:
      case EventKind::kTransferBegin:
      case EventKind::kTransferEnd: return {family, e.gpu, 0, e.id};
      case EventKind::kMpiPost:
      case EventKind::kMpiComplete:
        return {family, e.gpu, e.stream, (uint64_t(e.id) << 32) | e.aux};
      default: return {family, e.gpu, e.stream, e.id};
    }
  }

  Track begin_track(const Event& e) {
    switch (EventKind(e.kind)) {
      case EventKind::kKernelBegin: return gpu_track(e.gpu, e.stream, "stream");
      case EventKind::kCtaBegin: return gpu_track(e.gpu, kSmTidBase + e.stream, "SM");
      case EventKind::kTransferBegin: return gpu_track(e.gpu, kLaneTidBase + e.stream, "lane");
      default: return host_track(e.gpu, e.stream);
    }
  }

  // close: pair an end with the oldest open begin; an end without a begin is
  // drawn as a zero-length slice.
  bool close(const Event& e, const Track& t, const std::string& name, const char* cat,
             uint64_t* begin_ns = nullptr) {
    auto it = open_.find(key(e));
    if (it == open_.end() || it->second.empty()) {
      slice(t, e.time_ns, 0, name + " (no begin)", "unmatched", 0);
      return false;
    }
    const Event b = it->second.front();
    it->second.erase(it->second.begin());
    if (it->second.empty()) open_.erase(it);
    const uint64_t start = std::min(b.time_ns, e.time_ns);
    slice(t, start, e.time_ns - start, name, cat, e.value);
    if (begin_ns != nullptr) *begin_ns = start;
    return true;
  }

  void transfer_end(const Event& e) {
    const Track t = gpu_track(e.gpu, kLaneTidBase + e.stream, "lane");
    const std::string name = std::string(mechanism_name(e.flags)) + " transfer " +
                             std::to_string(e.id) + " (" + std::to_string(e.value) + " B)";
    uint64_t start = e.time_ns;
    if (!close(e, t, name, "transfer", &start)) return;
    auto ready = ready_.find({e.gpu, e.id});
    if (ready != ready_.end()) {
      flow(ready->second, t, start);
      ready_.erase(ready);
    }
    // The same interval on every destination link, with a flow from the lane.
    for (uint32_t d = 0; d < 32; ++d) {
      if (!(e.aux >> d & 1)) continue;
      const Track link{kLinksPid, uint32_t(e.gpu) * 64 + d};
      thread_names_.try_emplace(link,
                                "gpu " + std::to_string(e.gpu) + " -> gpu " + std::to_string(d));
      process_names_.try_emplace(kLinksPid, "links");
      slice(link, start, e.time_ns - start, name, "link", e.value);
      flow(FlowSource{t, start}, link, start);
    }
  }

  void flag(const Event& e) {
    const bool set = EventKind(e.kind) == EventKind::kFlagSet;
    const Track t = e.gpu == kHostGpu ? host_track(e.gpu, e.stream)
                                      : gpu_track(e.gpu, kSyncTid, "counters & flags");
    slice(t, e.time_ns, 0,
          std::string(set ? "set" : "observe") + " flag " + flag_name(e.id) + " = " +
              std::to_string(e.value),
          "flag", e.value);
    const std::pair<uint32_t, uint32_t> k{e.id, e.aux};
    if (set) {
      flags_[k] = FlowSource{t, e.time_ns};
    } else if (auto it = flags_.find(k); it != flags_.end()) {
      flow(it->second, t, e.time_ns);
      flags_.erase(it);
    }
  }

  Track gpu_track(uint16_t gpu, uint32_t tid, const char* family) {
    if (gpu == kHostGpu) return host_track(gpu, uint16_t(tid));
    const Track t{uint32_t(gpu) + 1, tid};
    if (!thread_names_.count(t)) {
      const uint32_t base = tid >= kSyncTid       ? kSyncTid
                            : tid >= kLaneTidBase ? kLaneTidBase
                            : tid >= kSmTidBase   ? kSmTidBase
                                                  : 0;
      std::string name = family;
      if (tid != kSyncTid) name += " " + std::to_string(tid - base);
      thread_names_[t] = name;
    }
    if (!process_names_.count(t.pid)) {
      const GpuInfo* info = m_.find_gpu(gpu);
      process_names_[t.pid] = "gpu " + std::to_string(gpu) +
                              (info && !info->model.empty() ? " (" + info->model + ")" : "");
    }
    return t;
  }

  Track host_track(uint16_t gpu, uint16_t stream) {
    // Host threads of a rank (gpu) or of the process (kHostGpu).
    const uint32_t owner = gpu == kHostGpu ? 0 : uint32_t(gpu) + 1;
    const Track t{kHostPid, owner * 65536 + stream};
    if (!thread_names_.count(t)) {
      thread_names_[t] = (gpu == kHostGpu ? std::string("host") : "rank " + std::to_string(gpu)) +
                         " thread " + std::to_string(stream);
    }
    process_names_.try_emplace(kHostPid, "host");
    return t;
  }

  std::string kernel_name(uint32_t id) const {
    const KernelInfo* k = m_.find_kernel(id);
    return k ? k->name : "kernel " + std::to_string(id);
  }
  std::string phase_name(uint32_t id) const {
    const NamedId* p = m_.find_phase(id);
    return p ? p->name : "phase " + std::to_string(id);
  }
  std::string flag_name(uint32_t id) const {
    const FlagInfo* f = m_.find_flag(id);
    return f ? f->name : std::to_string(id);
  }

  std::string ts(uint64_t t_ns) const {
    const uint64_t d = t_ns >= t0_ ? t_ns - t0_ : 0;
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%" PRIu64 ".%03" PRIu64, d / 1000, d % 1000);
    return buf;
  }

  void write_prefix(const char* ph, const Track& t, uint64_t t_ns) {
    out_ << (first_ ? "" : ",\n") << "{\"ph\":\"" << ph << "\",\"pid\":" << t.pid
         << ",\"tid\":" << t.tid << ",\"ts\":" << ts(t_ns);
    first_ = false;
  }

  void slice(const Track& t, uint64_t t_ns, uint64_t dur_ns, const std::string& name,
             const char* cat, uint64_t value) {
    write_prefix("X", t, t_ns);
    char dur[40];
    std::snprintf(dur, sizeof(dur), "%" PRIu64 ".%03" PRIu64, dur_ns / 1000, dur_ns % 1000);
    out_ << ",\"dur\":" << dur << ",\"name\":\"" << json_escape(name) << "\",\"cat\":\"" << cat
         << "\",\"args\":{\"value\":" << value << "}}";
  }

  // flow: an arrow from a source point to a target point; written only once
  // both ends are known so every "s" has its "f".
  void flow(const FlowSource& from, const Track& to, uint64_t to_ns) {
    const uint64_t id = next_flow_++;
    flow_event('s', from.track, from.time_ns, id);
    flow_event('f', to, std::max(to_ns, from.time_ns), id);
  }

  void flow_event(char ph, const Track& t, uint64_t t_ns, uint64_t id) {
    const char p[2] = {ph, 0};
    write_prefix(p, t, t_ns);
    out_ << ",\"name\":\"flow\",\"cat\":\"flow\",\"id\":" << id
         << (ph == 'f' ? ",\"bp\":\"e\"}" : "}");
  }

  void meta(const char* what, const Track& t, const std::string& name) {
    write_prefix("M", t, 0);
    out_ << ",\"name\":\"" << what << "\",\"args\":{\"name\":\"" << json_escape(name) << "\"}}";
  }

  const Metadata& m_;
  std::ostream& out_;
  uint64_t t0_;
  bool first_ = true;
  uint64_t next_flow_ = 1;
  std::map<Key, std::vector<Event>> open_;
  std::map<std::pair<uint16_t, uint32_t>, FlowSource> ready_;  // (gpu, chunk) -> counter zero
  std::map<std::pair<uint32_t, uint32_t>, FlowSource> flags_;  // (flag, message) -> flag set
  std::map<Track, std::string> thread_names_;
  std::map<uint32_t, std::string> process_names_;
};

}  // namespace

Status export_perfetto(TraceReader& reader, std::ostream& out) {
  XF_RETURN_IF_ERROR(reader.rewind());
  Exporter exporter(reader, out);
  exporter.begin_file();
  XF_RETURN_IF_ERROR(reader.for_each([&](const Event& e) { exporter.visit(e); }));
  exporter.end_file();
  if (!out) return make_runtime_error("perfetto export: writing the output failed");
  return Status::Ok();
}

}  // namespace xferlab::traces
