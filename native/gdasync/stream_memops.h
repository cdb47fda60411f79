// native/gdasync/stream_memops.h — CUDA stream memory operations (the
// mechanism GPUDirect Async's stream-async mode rings NIC doorbells and waits
// on completions with): write a 32-bit value / wait until a 32-bit value is
// >= a target, in stream order, without a kernel. They are driver-API calls,
// fetched with cudaGetDriverEntryPointByVersion so that binaries need no
// -lcuda at link time.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace xferlab::gdasync {

// StreamMemOps: resolved driver entry points (load() once per process).
class StreamMemOps {
 public:
  // load: resolves the entry points; aborts with a one-line message if the
  // driver lacks them (a driver older than CUDA 11.7).
  static const StreamMemOps& load();

  // write_values: one batch of stores (addr[i] = value) in stream order, after
  // all prior work in the stream (with its memory barrier: the data a kernel
  // wrote before is visible first). addrs are device addresses of pinned memory.
  void write_values(cudaStream_t stream, uint32_t* const* addrs, int count, uint32_t value) const;
  // wait_geq: the stream waits until *addr >= value (no SM is used).
  void wait_geq(cudaStream_t stream, const uint32_t* addr, uint32_t value) const;

 private:
  void* batch_ = nullptr;
  void* wait_ = nullptr;
};

}  // namespace xferlab::gdasync
