// traces/perfetto.h — export a trace as Chrome trace-event JSON, which
// ui.perfetto.dev and chrome://tracing open as a timeline.
//
// Tracks (pid = process row, tid = thread row): one process per GPU with a
// thread per stream (kernels), per SM (CTAs) and per agent lane (transfers);
// a "host" process with a thread per CPU thread (phases, MPI, flags); a
// "links" process with a thread per source->destination link. Kernels, CTAs,
// phases, transfers and MPI operations are complete events ("X" with dur);
// counters and flags are instants ("i"); flows ("s"/"f") connect a chunk's
// counter reaching zero to its transfer, a transfer to its arrival on each
// link, and a flag set to its observation. Timestamps are microseconds from
// the trace's first event.
#pragma once

#include <ostream>

#include "common/result.h"
#include "traces/reader.h"

namespace xferlab::traces {

// export_perfetto: stream the trace from the start into `out`.
Status export_perfetto(TraceReader& reader, std::ostream& out);

}  // namespace xferlab::traces
