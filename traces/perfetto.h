// traces/perfetto.h — a trace's events as a timeline (Chrome trace-event
// JSON, which ui.perfetto.dev and chrome://tracing open), written through
// the one timeline writer (traces/timeline_writer.h, which has the layout).
//
// Kernels, CTAs, phases, transfers and MPI operations are complete events
// ("X" with dur); counters and flags are zero-length slices; flows ("s"/"f")
// connect a chunk's counter reaching zero to its transfer, a transfer to its
// interval on each destination link, and a flag set to its observation.
// Host threads of a rank (or of the process) are threads of the host process.
#pragma once

#include <cstdint>
#include <ostream>

#include "common/result.h"
#include "traces/reader.h"
#include "traces/timeline_writer.h"

namespace xferlab::traces {

// kMeasuredGroup: the label of a trace's own events in a timeline.
inline constexpr const char* kMeasuredGroup = "measured";

// timeline_info: the metadata block for `reader`'s trace (file, producer,
// platform and mechanism parameters; time origin = the trace's first event).
TimelineInfo timeline_info(const TraceReader& reader);

// timeline_origin_ns: the trace time written as ts = 0 (its first event).
uint64_t timeline_origin_ns(const TraceReader& reader);

// write_measured_tracks: streams the trace from the start into `writer` as
// group `group`, times relative to timeline_origin_ns(reader).
Status write_measured_tracks(TraceReader& reader, TimelineWriter& writer, uint32_t group);

// export_perfetto: the whole trace as a timeline file with one group,
// "measured" (`xferlab trace export --perfetto`).
Status export_perfetto(TraceReader& reader, std::ostream& out);

}  // namespace xferlab::traces
