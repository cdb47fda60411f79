// native/bench/interference_kernels.h — the GPU writer of the CPU/GPU memory
// interference benchmark: 16-byte stores sweeping a pinned host buffer.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/result.h"
#include "native/device_trace.h"

namespace xferlab::native::bench {

// WriterControl: pinned host words shared with the writer kernel.
struct WriterControl {
  uint32_t stop;       ///< host -> GPU: non-zero ends the sweeps.
  uint32_t running;    ///< GPU -> host: set when the first CTA started.
  uint32_t timed_out;  ///< GPU -> host: no stop seen within the timeout.
  uint32_t pad;
};

// launch_interference_writer: grid-stride 16-B stores of `value` over
// dst[0, bytes). once: one sweep; else sweeps until control->stop (checked
// by one thread per CTA about every 2 us) or timeout_ns. cooperative: the
// largest grid that is co-resident (cudaLaunchCooperativeKernel, "stacked
// access"); else 1 CTA of the device's maximum threads ("stream access").
// Returns the grid size used.
Result<int> launch_interference_writer(void* dst, uint64_t bytes, uint32_t value, bool once,
                                       bool cooperative, WriterControl* control,
                                       uint64_t timeout_ns, const DeviceTrace& trace,
                                       cudaStream_t stream);

}  // namespace xferlab::native::bench
