// native/device_trace.h — DeviceTrace: the view of one GPU's trace buffer that
// kernels receive (by value) to record events.
//
// Plain data, usable from host C++ and CUDA device code. A TraceRecorder
// (native/trace_recorder.h) owns the memory and hands out DeviceTrace values;
// kernels record through the functions in native/trace_device.cuh.
#pragma once

#include <cstdint>

#include "traces/event.h"

namespace xferlab::native {

// DeviceTrace: a preallocated device array of traces::Event plus an atomic
// cursor. Recording claims a slot with one atomicAdd on `cursor`; slots at or
// past `capacity` are not written, and cursor - capacity counts the events
// lost to overflow. Timestamps are raw %globaltimer ns (device clock domain);
// TraceRecorder maps them onto the trace time base when it writes the file.
struct DeviceTrace {
  traces::Event* events = nullptr;       ///< device memory, `capacity` slots (32-B aligned).
  unsigned long long* cursor = nullptr;  ///< device memory: slots claimed so far.
  uint32_t capacity = 0;                 ///< slots in `events`.
  uint16_t gpu = 0;                      ///< Event::gpu written into every record.
  uint16_t enabled = 0;                  ///< 0: recording off, every record_* returns at once.
};

static_assert(sizeof(DeviceTrace) == 24, "DeviceTrace is passed by value to kernels");

}  // namespace xferlab::native
