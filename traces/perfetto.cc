// traces/perfetto.cc — a trace's events as a timeline (see perfetto.h).
#include "traces/perfetto.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "traces/event_names.h"

namespace xferlab::traces {
namespace {

class Exporter {
 public:
  Exporter(const TraceReader& reader, TimelineWriter& writer, uint32_t group)
      : m_(reader.metadata()), w_(writer), group_(group), t0_(timeline_origin_ns(reader)) {}

  void visit(const Event& e) {
    switch (EventKind(e.kind)) {
      case EventKind::kKernelLaunch:
        slice(gpu_track(e.gpu, TimelineTrack::kStream, e.stream), e.time_ns, 0,
              "launch " + kernel_name(e.id), "kernel", 0);
        break;
      case EventKind::kKernelBegin:
      case EventKind::kCtaBegin:
      case EventKind::kTransferBegin:
      case EventKind::kPhaseBegin:
      case EventKind::kMpiPost: open_[key(e)].push_back(e); break;
      case EventKind::kKernelEnd:
        close(e, gpu_track(e.gpu, TimelineTrack::kStream, e.stream), kernel_name(e.id), "kernel");
        break;
      case EventKind::kCtaEnd:
        close(e, gpu_track(e.gpu, TimelineTrack::kSm, e.stream), "CTA " + std::to_string(e.id),
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
        const TrackId t = gpu_track(e.gpu, TimelineTrack::kSync, 0);
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
        const TrackId t = e.gpu == kHostGpu || EventKind(e.kind) == EventKind::kIteration
                              ? host_track(e.gpu, e.stream)
                              : gpu_track(e.gpu, TimelineTrack::kSync, 0);
        slice(t, e.time_ns, 0, std::string(event_kind_name(e.kind)) + " " + std::to_string(e.id),
              "marker", 0);
        break;
      }
      default: break;
    }
  }

  void end() {
    // Begins that never ended are still shown, as zero-length slices.
    for (auto& [k, opens] : open_) {
      for (const Event& e : opens) {
        slice(begin_track(e), e.time_ns, 0,
              std::string(event_kind_name(e.kind)) + " " + std::to_string(e.id) + " (no end)",
              "unmatched", 0);
      }
    }
  }

 private:
  struct FlowSource {
    TrackId track;
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

  TrackId begin_track(const Event& e) {
    switch (EventKind(e.kind)) {
      case EventKind::kKernelBegin: return gpu_track(e.gpu, TimelineTrack::kStream, e.stream);
      case EventKind::kCtaBegin: return gpu_track(e.gpu, TimelineTrack::kSm, e.stream);
      case EventKind::kTransferBegin: return gpu_track(e.gpu, TimelineTrack::kLane, e.stream);
      default: return host_track(e.gpu, e.stream);
    }
  }

  // close: pair an end with the oldest open begin; an end without a begin is
  // drawn as a zero-length slice.
  bool close(const Event& e, const TrackId& t, const std::string& name, const char* cat,
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
    const TrackId t = gpu_track(e.gpu, TimelineTrack::kLane, e.stream);
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
      const TrackId link = gpu_track(e.gpu, TimelineTrack::kLink, d);
      slice(link, start, e.time_ns - start, name, "link", e.value);
      flow(FlowSource{t, start}, link, start);
    }
  }

  void flag(const Event& e) {
    const bool set = EventKind(e.kind) == EventKind::kFlagSet;
    const TrackId t =
        e.gpu == kHostGpu ? host_track(e.gpu, e.stream) : gpu_track(e.gpu, TimelineTrack::kSync, 0);
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

  TrackId gpu_track(uint16_t gpu, TimelineTrack family, uint32_t index) {
    if (gpu == kHostGpu) return host_track(gpu, uint16_t(index));
    return w_.gpu_track(group_, gpu, family, index);
  }

  TrackId host_track(uint16_t gpu, uint16_t stream) {
    // Host threads of a rank (gpu) or of the process (kHostGpu).
    const uint32_t owner = gpu == kHostGpu ? 0 : uint32_t(gpu) + 1;
    return w_.host_track(group_, owner * 65536 + stream,
                         (gpu == kHostGpu ? std::string("host") : "rank " + std::to_string(gpu)) +
                             " thread " + std::to_string(stream));
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

  // rel: trace time -> ns from the origin (events before it at 0).
  double rel(uint64_t t_ns) const { return t_ns >= t0_ ? static_cast<double>(t_ns - t0_) : 0; }

  void slice(const TrackId& t, uint64_t t_ns, uint64_t dur_ns, const std::string& name,
             const char* cat, uint64_t value) {
    w_.slice(t, rel(t_ns), static_cast<double>(dur_ns), name, cat, value);
  }

  void flow(const FlowSource& from, const TrackId& to, uint64_t to_ns) {
    w_.flow(from.track, rel(from.time_ns), to, rel(to_ns));
  }

  const Metadata& m_;
  TimelineWriter& w_;
  uint32_t group_;
  uint64_t t0_;
  std::map<Key, std::vector<Event>> open_;
  std::map<std::pair<uint16_t, uint32_t>, FlowSource> ready_;  // (gpu, chunk) -> counter zero
  std::map<std::pair<uint32_t, uint32_t>, FlowSource> flags_;  // (flag, message) -> flag set
};

}  // namespace

TimelineInfo timeline_info(const TraceReader& reader) {
  const Metadata& m = reader.metadata();
  return TimelineInfo{
      reader.path(), m.producer.program, m.parameter("platform").value_or(""),
      m.parameter("mechanism").value_or(""),
      "the trace's first event (trace time " + std::to_string(timeline_origin_ns(reader)) + " ns)"};
}

uint64_t timeline_origin_ns(const TraceReader& reader) {
  return reader.min_time_ns() == UINT64_MAX ? 0 : reader.min_time_ns();
}

Status write_measured_tracks(TraceReader& reader, TimelineWriter& writer, uint32_t group) {
  XF_RETURN_IF_ERROR(reader.rewind());
  Exporter exporter(reader, writer, group);
  XF_RETURN_IF_ERROR(reader.for_each([&](const Event& e) { exporter.visit(e); }));
  exporter.end();
  return Status::Ok();
}

Status export_perfetto(TraceReader& reader, std::ostream& out) {
  TimelineWriter writer(out, timeline_info(reader));
  XF_RETURN_IF_ERROR(write_measured_tracks(reader, writer, writer.add_group(kMeasuredGroup)));
  return writer.finish();
}

}  // namespace xferlab::traces
