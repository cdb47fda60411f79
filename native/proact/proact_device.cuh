// native/proact/proact_device.cuh — the device API a producer kernel calls
// (include from .cu files only).
//
//   proact_store(r, byte_offset, value)  store into the region (duplicated to
//                                        every peer in inline mode).
//   proact_cta_done(r)                   after the CTA's last store: every
//                                        chunk the CTA writes gets one
//                                        decrement; the last one marks it ready.
//   proact_chunk_done(r, chunk)          same for one chunk (user mappings).
//
// Memory model (PTX ISA, "Memory Consistency Model"): the CTA's threads reach
// __syncthreads (CTA-scope barrier, which orders their prior writes before
// thread 0's later operations); thread 0 then issues a gpu-scope fence and an
// acq_rel fetch_sub on the counter. Release is cumulative, so all the CTA's
// writes happen-before the decrement; the RMWs on a counter form a release
// sequence, so the thread whose decrement reaches zero acquires every
// writer's data, and its release store of the ready flag publishes all of it
// to an agent that reads the flag with an acquire load. Peers read the copied
// data only after the agent kernel completes (stream/event order), which is a
// system-scope synchronization point.
#pragma once

#include <cuda/atomic>

#include "native/proact/device_region.h"
#include "native/trace_device.cuh"

namespace xferlab::proact {

// The CDP child copy kernel (defined in agents.cu, relocatable device code).
__global__ void proact_cdp_copy(DeviceRegion r, uint32_t chunk);

namespace detail {

__device__ __forceinline__ void set_error(const DeviceRegion& r, uint32_t code, uint32_t chunk,
                                          uint32_t value) {
  if (atomicCAS(&r.error->code, 0u, code) == 0u) {
    r.error->chunk = chunk;
    r.error->value = value;
    __threadfence_system();
  }
}

// release_chunk: one decrement of chunk c by the calling thread (thread 0 of
// a CTA, after __syncthreads).
__device__ __forceinline__ void release_chunk(const DeviceRegion& r, uint32_t c) {
  __threadfence();
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device> counter(r.counters[c]);
  const uint32_t old = counter.fetch_sub(1u, cuda::memory_order_acq_rel);
  if (old == 0u) {
    set_error(r, kCounterUnderflow, c, 0);
    return;
  }
  if (old != 1u) return;
  // Last writer: rearm for the next epoch (every writer of this one is done,
  // and the next producer launch is stream-ordered after this kernel).
  counter.store(r.init[c], cuda::memory_order_relaxed);
  native::record_counter_zero(r.trace, c);
  if (r.mode & (kModeCdp | kModeCdpTail)) {
    const uint32_t bytes_per_cta = r.cdp_threads * 16u;
    uint32_t blocks = static_cast<uint32_t>((r.chunk_bytes + bytes_per_cta - 1) / bytes_per_cta);
    blocks = blocks < 1024u ? blocks : 1024u;
    cudaStream_t s = (r.mode & kModeCdpTail) ? cudaStreamTailLaunch : cudaStreamFireAndForget;
    proact_cdp_copy<<<blocks, r.cdp_threads, 0, s>>>(r, c);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) set_error(r, kCdpLaunch, c, static_cast<uint32_t>(err));
  }
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device> ready(r.ready[c]);
  ready.store(r.epoch, cuda::memory_order_release);
}

// kernel_cta_finished: one thread per CTA, after the CTA's work; the last CTA
// traces the kernel's end (producer: r.kernel_ctas_done, stream 0; agents:
// r.agent_ctas_done, stream 1) and rearms the count for the next launch
// (stream-ordered after this one).
__device__ __forceinline__ void kernel_cta_finished(const DeviceRegion& r, unsigned int* ctas_done,
                                                    uint32_t kernel_id, uint16_t stream) {
  if (!r.trace.enabled) return;
  const unsigned int grid = gridDim.x * gridDim.y * gridDim.z;
  if (atomicAdd(ctas_done, 1u) == grid - 1u) {
    native::record_kernel_end(r.trace, kernel_id, stream);
    *ctas_done = 0u;
  }
}

}  // namespace detail

// proact_store: T is a 4/8/16-byte type; byte_offset is aligned to sizeof(T).
template <typename T>
__device__ __forceinline__ void proact_store(const DeviceRegion& r, uint64_t byte_offset, T v) {
  *reinterpret_cast<T*>(r.local + byte_offset) = v;
  if (r.mode & kModeInline) {
    for (uint32_t p = 0; p < r.num_peers; ++p) *reinterpret_cast<T*>(r.peers[p] + byte_offset) = v;
  }
}

// proact_cta_begin: trace the CTA's start (sampled); call from every thread.
__device__ __forceinline__ void proact_cta_begin(const DeviceRegion& r, uint64_t bytes) {
  if (!r.trace.enabled) return;
  const uint32_t b = native::linear_block_id();
  if (b == 0 && native::block_thread_id() == 0) native::record_kernel_begin(r.trace, r.kernel_id);
  if (b % r.cta_sample == 0 && native::block_thread_id() == 0) {
    const uint32_t first = r.cta_chunks ? r.cta_chunks[r.cta_offsets[b]] : traces::kNoId;
    native::record_cta_begin(r.trace, first, bytes, 16);
  }
}

// proact_cta_done: see the file comment. Call from every thread of the CTA.
__device__ __forceinline__ void proact_cta_done(const DeviceRegion& r, uint64_t bytes) {
  __syncthreads();
  if (native::block_thread_id() != 0) return;
  const uint32_t b = native::linear_block_id();
  if (r.trace.enabled && b % r.cta_sample == 0) {
    const uint32_t first = r.cta_chunks ? r.cta_chunks[r.cta_offsets[b]] : traces::kNoId;
    native::record_cta_end(r.trace, first, bytes, 16);
  }
  if (r.mode & (kModeTrack | kModeCdp | kModeCdpTail)) {
    for (uint32_t i = r.cta_offsets[b]; i < r.cta_offsets[b + 1]; ++i) {
      detail::release_chunk(r, r.cta_chunks[i]);
    }
  }
  detail::kernel_cta_finished(r, r.kernel_ctas_done, r.kernel_id, 0);
}

// proact_chunk_done: one chunk, for kernels that track chunks themselves.
__device__ __forceinline__ void proact_chunk_done(const DeviceRegion& r, uint32_t chunk) {
  __syncthreads();
  if (native::block_thread_id() == 0 && (r.mode & (kModeTrack | kModeCdp | kModeCdpTail))) {
    detail::release_chunk(r, chunk);
  }
}

}  // namespace xferlab::proact
