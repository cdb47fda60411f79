// traces/timeline_writer.cc — Chrome trace-event JSON timelines (see timeline_writer.h).
#include "traces/timeline_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/table.h"
#include "common/version.h"

namespace xferlab::traces {
namespace {

// Thread-id base of each family within a GPU process, in TimelineTrack order
// (the UI sorts threads by tid).
constexpr uint32_t kFamilyTidStride = 100000;

uint32_t family_tid(TimelineTrack family, uint32_t index) {
  return static_cast<uint32_t>(family) * kFamilyTidStride + index;
}

// format_us: `ns` as microseconds with three decimals (nanosecond resolution).
std::string format_us(double ns) {
  const long long n = std::llround(ns);
  const unsigned long long a = static_cast<unsigned long long>(std::llabs(n));
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%s%llu.%03llu", n < 0 ? "-" : "", a / 1000, a % 1000);
  return buf;
}

}  // namespace

std::string timeline_track_name(TimelineTrack family, uint32_t index) {
  const std::string n = std::to_string(index);
  switch (family) {
    case TimelineTrack::kStream: return "stream " + n;
    case TimelineTrack::kSm: return "SM " + n;
    case TimelineTrack::kLane: return "lane " + n;
    case TimelineTrack::kAgent: return "agent " + n;
    case TimelineTrack::kSync: return "counters & flags";
    case TimelineTrack::kLink: return "link -> GPU " + n;
    case TimelineTrack::kCriticalPath: return "critical path";
  }
  std::abort();  // every enumerator is handled above.
}

TimelineWriter::TimelineWriter(std::ostream& out, const TimelineInfo& info) : out_(out) {
  out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"trace_file\":\""
       << json_escape(info.trace_file) << "\",\"producer\":\"" << json_escape(info.producer)
       << "\",\"platform\":\"" << json_escape(info.platform) << "\",\"mechanism\":\""
       << json_escape(info.mechanism) << "\",\"xferlab_version\":\"" << xferlab_version()
       << "\",\"xferlab_revision\":\"" << xferlab_revision() << "\",\"time_origin\":\""
       << json_escape(info.time_origin) << "\"},\"traceEvents\":[\n";
}

uint32_t TimelineWriter::add_group(const std::string& label) {
  groups_.push_back(label);
  return static_cast<uint32_t>(groups_.size() - 1);
}

void TimelineWriter::name_process(uint32_t pid, std::string name) {
  process_names_.try_emplace(pid, std::move(name));
}

TrackId TimelineWriter::gpu_track(uint32_t group, uint32_t gpu, TimelineTrack family,
                                  uint32_t index) {
  const TrackId t{group * kPidsPerGroup + 1 + gpu, family_tid(family, index)};
  if (!thread_names_.count(t)) {
    thread_names_[t] = timeline_track_name(family, index);
    name_process(t.pid, groups_.at(group) + ": GPU" + std::to_string(gpu));
  }
  return t;
}

TrackId TimelineWriter::host_track(uint32_t group, uint32_t tid, const std::string& name) {
  const TrackId t{group * kPidsPerGroup, tid};
  if (!thread_names_.count(t)) {
    thread_names_[t] = name;
    name_process(t.pid, groups_.at(group) + ": host");
  }
  return t;
}

void TimelineWriter::write_prefix(const char* ph, const TrackId& t, double t_ns) {
  out_ << (first_ ? "" : ",\n") << "{\"ph\":\"" << ph << "\",\"pid\":" << t.pid
       << ",\"tid\":" << t.tid << ",\"ts\":" << format_us(t_ns);
  first_ = false;
}

void TimelineWriter::slice(const TrackId& track, double start_ns, double dur_ns,
                           std::string_view name, std::string_view category,
                           std::optional<uint64_t> value) {
  write_prefix("X", track, start_ns);
  out_ << ",\"dur\":" << format_us(dur_ns) << ",\"name\":\"" << json_escape(name) << "\",\"cat\":\""
       << json_escape(category) << "\"";
  if (value) out_ << ",\"args\":{\"value\":" << *value << "}";
  out_ << "}";
}

void TimelineWriter::flow(const TrackId& from, double from_ns, const TrackId& to, double to_ns) {
  const uint64_t id = next_flow_++;
  write_prefix("s", from, from_ns);
  out_ << ",\"name\":\"flow\",\"cat\":\"flow\",\"id\":" << id << "}";
  write_prefix("f", to, std::max(to_ns, from_ns));
  out_ << ",\"name\":\"flow\",\"cat\":\"flow\",\"id\":" << id << ",\"bp\":\"e\"}";
}

Status TimelineWriter::finish() {
  auto meta = [&](const char* what, const TrackId& t, const std::string& arg) {
    write_prefix("M", t, 0);
    out_ << ",\"name\":\"" << what << "\",\"args\":{" << arg << "}}";
  };
  for (const auto& [track, name] : thread_names_) {
    meta("thread_name", track, "\"name\":\"" + json_escape(name) + "\"");
    meta("thread_sort_index", track, "\"sort_index\":" + std::to_string(track.tid));
  }
  for (const auto& [pid, name] : process_names_) {
    meta("process_name", TrackId{pid, 0}, "\"name\":\"" + json_escape(name) + "\"");
    meta("process_sort_index", TrackId{pid, 0}, "\"sort_index\":" + std::to_string(pid));
  }
  out_ << "\n]}\n";
  out_.flush();
  // The caller names the output (a --timeline file, standard output).
  if (!out_) return make_runtime_error("writing the Perfetto JSON failed");
  return Status::Ok();
}

}  // namespace xferlab::traces
