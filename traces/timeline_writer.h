// traces/timeline_writer.h — TimelineWriter: the one writer of timelines as
// Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing), for measured
// traces (`xferlab trace export --perfetto`, traces/perfetto.h) and simulated
// replays (`xferlab replay/explain --timeline`, sim/api.h), so both have one
// track layout and one metadata block and can share a file.
//
// Layout. A file holds groups of processes ("measured", "simulated memcpy",
// ...); each group has a process per GPU, "<group>: GPU<g>", and one for the
// host, "<group>: host". A GPU process has threads (tracks) by family, in
// this order (TimelineTrack):
//   stream N          kernels launched on stream N (simulated: stream 0)
//   SM N              CTAs that ran on SM N
//   lane N            transfers of the GPU's lane N (copy engine, agent lane)
//   agent N           simulated transfer agents (SM copies, DMA descriptors)
//   counters & flags  counter updates, flags, stream memory operations
//   link -> GPU d     a transfer's interval on the link to GPU d
//   critical path     `explain`'s critical path, one span per cause
// The same GPU's track has the same tid and name in every group, and groups
// are sorted in the order they were added, so "measured: GPU0" lies next to
// "simulated hardware: GPU0". pid = group * kPidsPerGroup + (0 host, 1 + g).
//
// Times are nanoseconds from the file's time origin (TimelineInfo), written
// as microseconds with nanosecond resolution.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace xferlab::traces {

// TimelineTrack: a family of threads in a GPU process (see the layout above).
enum class TimelineTrack { kStream, kSm, kLane, kAgent, kSync, kLink, kCriticalPath };

// TimelineInfo: the metadata block ("otherData"), the same for every file.
struct TimelineInfo {
  std::string trace_file;   ///< the trace the timeline shows or replays.
  std::string producer;     ///< the program that recorded the trace.
  std::string platform;     ///< the preset replayed on, else the trace's platform parameter.
  std::string mechanism;    ///< the trace's measured mechanism (parameter "mechanism").
  std::string time_origin;  ///< what ts = 0 is, in words.
};

// TrackId: one thread row of the file.
struct TrackId {
  uint32_t pid = 0;
  uint32_t tid = 0;
  bool operator<(const TrackId& o) const { return pid != o.pid ? pid < o.pid : tid < o.tid; }
};

class TimelineWriter {
 public:
  static constexpr uint32_t kPidsPerGroup = 100000;  ///< > 1 + the largest GPU id (uint16).

  // TimelineWriter: writes the file's header and metadata block (`info`, the
  // xferlab version) to `out`; finish() closes the file.
  TimelineWriter(std::ostream& out, const TimelineInfo& info);

  // add_group: a new group of processes named "<label>: ..."; its id.
  uint32_t add_group(const std::string& label);

  // gpu_track: the thread of `family` (index N where the family has one:
  // stream, SM, lane, agent, link destination GPU) in GPU `gpu`'s process.
  TrackId gpu_track(uint32_t group, uint32_t gpu, TimelineTrack family, uint32_t index = 0);

  // host_track: thread `tid` of the group's host process, named `name`.
  TrackId host_track(uint32_t group, uint32_t tid, const std::string& name);

  // slice: a complete event ("X") of `dur_ns` (0: an instant) from `start_ns`;
  // `value`, when given, goes to args.value.
  void slice(const TrackId& track, double start_ns, double dur_ns, std::string_view name,
             std::string_view category, std::optional<uint64_t> value = std::nullopt);

  // flow: an arrow from (from, from_ns) to (to, to_ns), drawn no earlier
  // than its start.
  void flow(const TrackId& from, double from_ns, const TrackId& to, double to_ns);

  // finish: the process and thread names and sort order, the end of the
  // file; an error if writing failed.
  Status finish();

 private:
  void write_prefix(const char* ph, const TrackId& t, double t_ns);
  void name_process(uint32_t pid, std::string name);

  std::ostream& out_;
  bool first_ = true;
  uint64_t next_flow_ = 1;
  std::vector<std::string> groups_;
  std::map<TrackId, std::string> thread_names_;
  std::map<uint32_t, std::string> process_names_;
};

// timeline_track_name: "stream 3", "SM 0", "link -> GPU 1", "counters & flags".
std::string timeline_track_name(TimelineTrack family, uint32_t index);

}  // namespace xferlab::traces
