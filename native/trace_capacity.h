// native/trace_capacity.h — sizing the device trace buffers from the run
// (pure C++, tested without a GPU).
#pragma once

#include <cstdint>

namespace xferlab::native {

// grown_trace_capacity: the capacity to re-record with after a traced run
// whose fullest buffer was asked for `needed_events`: 25% headroom, rounded
// up to a multiple of 1024, at most `max_events`; 0 when even `max_events`
// cannot hold the run.
uint32_t grown_trace_capacity(uint64_t needed_events, uint32_t max_events);

}  // namespace xferlab::native
