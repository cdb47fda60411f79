// native/bench/link_kernels.h — SM store/load kernels of the link goodput
// benchmark: writes of 1..256 bytes (typed stores; groups of threads with
// 16-byte stores above 16 B), one write every `stride_bytes` (stride ==
// write size: contiguous; stride 128/256: one write per cache line).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

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

// StoreKind: how a write variant stores its 16-B items.
enum class StoreKind {
  kPlain,      ///< st.global.v4 from registers.
  kStreaming,  ///< st.global.cs.v4 (evict-first) from registers.
  kBulk,       ///< cp.async.bulk of a shared-memory chunk (TMA bulk store, sm_90+).
};

// WriteVariant: one launch shape + store mechanism for contiguous 16-B
// writes (the pattern of launch_link_write with write_bytes = 16), tuned by
// link_bench --variants. kPlain/kStreaming: `unroll` stores in flight per
// thread; kBulk: chunks of threads x unroll x 16 B, two per CTA in flight.
struct WriteVariant {
  StoreKind kind = StoreKind::kPlain;
  int ctas_per_sm = 4;
  int threads = 512;
  int unroll = 4;  ///< 1, 2, 4 or 8.

  std::string kind_name() const;  ///< st.v4 | st.cs.v4 | bulk.
  std::string name() const;       ///< e.g. "st.cs.v4 4x512 u8".
  uint64_t access_bytes() const;  ///< bytes per store instruction (bulk: per chunk).
  size_t shared_bytes() const;    ///< dynamic shared memory per CTA.
};

// write_variants: the sweep: plain and streaming stores over CTAs/SM x
// threads x unroll, and bulk stores (when `with_bulk`).
std::vector<WriteVariant> write_variants(bool with_bulk);

// variant_max_ctas_per_sm: co-resident CTAs per SM of `v` on the current
// device (0: cannot launch, e.g. too much shared memory).
int variant_max_ctas_per_sm(const WriteVariant& v);

// launch_link_write_variant: stores `items` 16-B items at dst (item j =
// what launch_link_write(write_bytes 16, seed) stores at dst + 16 j) with
// `ctas` CTAs of v.threads. Bulk variants need compute capability >= 9.0.
void launch_link_write_variant(void* dst, uint64_t items, uint32_t seed, const WriteVariant& v,
                               int ctas, const DeviceTrace& trace, cudaStream_t stream);

}  // namespace xferlab::native::bench
