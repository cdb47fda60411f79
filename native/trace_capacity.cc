// native/trace_capacity.cc — see trace_capacity.h.
#include "native/trace_capacity.h"

namespace xferlab::native {

uint32_t grown_trace_capacity(uint64_t needed_events, uint32_t max_events) {
  if (needed_events > max_events) return 0;
  const uint64_t padded = (needed_events + needed_events / 4 + 1023) / 1024 * 1024;
  return static_cast<uint32_t>(padded < max_events ? padded : max_events);
}

}  // namespace xferlab::native
