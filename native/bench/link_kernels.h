// native/bench/link_kernels.h — SM store/load kernels of the link goodput
// benchmark: writes of 1..256 bytes (typed stores; groups of threads with
// 16-byte stores above 16 B), one write every `stride_bytes` (stride ==
// write size: contiguous; stride 128/256: one write per cache line).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "native/device_trace.h"

namespace xferlab::native::bench {

// AccessPattern: `writes` accesses of `write_bytes`, access w at byte offset
// w * stride_bytes. Footprint = writes * stride_bytes.
struct AccessPattern {
  uint32_t write_bytes = 16;
  uint32_t stride_bytes = 16;
  uint64_t writes = 0;

  uint64_t payload_bytes() const { return writes * write_bytes; }
  uint64_t footprint_bytes() const { return writes * stride_bytes; }
};

// is_supported_write_size: 1, 2, 4, ..., 256.
bool is_supported_write_size(uint64_t bytes);

// launch_link_write: every access stores a value derived from (index, seed).
// Records CTA begin/end (value = bytes this CTA wrote, flags = write size)
// when `trace` is enabled.
void launch_link_write(void* dst, const AccessPattern& p, uint32_t seed, int ctas, int threads,
                       const DeviceTrace& trace, cudaStream_t stream);

// launch_link_read_check: loads every access and adds the number of values
// that differ from what launch_link_write(seed) stores to *d_mismatches. The
// load benchmark and the data verification are the same kernel.
void launch_link_read_check(const void* src, const AccessPattern& p, uint32_t seed,
                            unsigned long long* d_mismatches, int ctas, int threads,
                            const DeviceTrace& trace, cudaStream_t stream);

}  // namespace xferlab::native::bench
