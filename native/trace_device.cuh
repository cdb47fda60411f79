// native/trace_device.cuh — device functions that record trace events from
// kernels into a DeviceTrace (include from .cu files only).
//
// Cost: one %globaltimer read, one 64-bit atomicAdd on the buffer's cursor and
// two 16-byte stores per event (measured by native/bench:trace_overhead; see
// docs/native.md). With DeviceTrace::enabled == 0 each call is one predictable
// branch.
//
// Who calls: every record_* function records exactly one event from the
// calling thread; the caller picks the thread (e.g. `if (threadIdx.x == 0)`).
// The cta_*/warp_* helpers do the picking themselves: call them from every
// thread of the CTA / warp (they must be reached by all threads in converged
// code; only thread 0 / lane 0 records).
//
// Field meaning per kind follows traces/event.h and traces/FORMAT.md.
#pragma once

#include <cstdint>

#include "native/device_trace.h"
#include "traces/event.h"

namespace xferlab::native {

// globaltimer_ns: the GPU's global nanosecond timer (%globaltimer). Same clock
// on every SM of a device; its update period is a few tens of ns to 1 us
// depending on the GPU (measured by trace_overhead, reported in metadata).
__device__ __forceinline__ uint64_t globaltimer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// sm_id: the SM the calling thread runs on (%smid).
__device__ __forceinline__ uint32_t sm_id() {
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}

// linear_block_id / linear_warp_id: grid-wide indices used as Event::id.
__device__ __forceinline__ uint32_t linear_block_id() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
__device__ __forceinline__ uint32_t block_thread_id() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ uint32_t linear_warp_id() {
  const uint32_t warps_per_block = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  return linear_block_id() * warps_per_block + block_thread_id() / 32;
}

// record_event_at: one event with an explicit timestamp (device ns). Returns
// false when recording is off or the buffer is full (the loss is counted).
__device__ __forceinline__ bool record_event_at(const DeviceTrace& t, uint64_t time_ns,
                                                traces::EventKind kind, uint16_t flags,
                                                uint16_t stream, uint32_t id, uint32_t aux,
                                                uint64_t value) {
  if (!t.enabled) return false;
  const unsigned long long slot = atomicAdd(t.cursor, 1ull);
  if (slot >= t.capacity) return false;
  // Two 16-byte stores of the little-endian record layout (traces/event.h).
  uint4 lo, hi;
  lo.x = static_cast<uint32_t>(time_ns);
  lo.y = static_cast<uint32_t>(time_ns >> 32);
  lo.z = static_cast<uint32_t>(kind) | (static_cast<uint32_t>(flags) << 16);
  lo.w = static_cast<uint32_t>(t.gpu) | (static_cast<uint32_t>(stream) << 16);
  hi.x = id;
  hi.y = aux;
  hi.z = static_cast<uint32_t>(value);
  hi.w = static_cast<uint32_t>(value >> 32);
  uint4* dst = reinterpret_cast<uint4*>(t.events + slot);
  dst[0] = lo;
  dst[1] = hi;
  return true;
}

// record_event: one event stamped now.
__device__ __forceinline__ bool record_event(const DeviceTrace& t, traces::EventKind kind,
                                             uint16_t flags, uint16_t stream, uint32_t id,
                                             uint32_t aux, uint64_t value) {
  if (!t.enabled) return false;
  return record_event_at(t, globaltimer_ns(), kind, flags, stream, id, aux, value);
}

// --- Kernels (one thread records; stream = the host's stream id for the kernel).
__device__ __forceinline__ void record_kernel_begin(const DeviceTrace& t, uint32_t kernel_id,
                                                    uint16_t stream = 0) {
  record_event(t, traces::EventKind::kKernelBegin, 0, stream, kernel_id,
               gridDim.x * gridDim.y * gridDim.z, blockDim.x * blockDim.y * blockDim.z);
}
__device__ __forceinline__ void record_kernel_end(const DeviceTrace& t, uint32_t kernel_id,
                                                  uint16_t stream = 0) {
  record_event(t, traces::EventKind::kKernelEnd, 0, stream, kernel_id,
               gridDim.x * gridDim.y * gridDim.z, blockDim.x * blockDim.y * blockDim.z);
}

// kernel_span_begin / kernel_span_end: the kernel's span without a record per
// CTA. Call from every thread, begin first thing, end last thing (after a
// grid-stride loop, no early return). Block 0's thread 0 records the begin;
// the last CTA to finish records the end. `blocks_done` is a device counter
// owned by this kernel id that atomicInc wraps back to 0 after the last CTA,
// so launches need no reset (launches of one id must not overlap).
__device__ __forceinline__ void kernel_span_begin(const DeviceTrace& t, uint32_t kernel_id,
                                                  uint16_t stream = 0) {
  if (t.enabled && linear_block_id() == 0 && block_thread_id() == 0)
    record_kernel_begin(t, kernel_id, stream);
}
__device__ __forceinline__ void kernel_span_end(const DeviceTrace& t, uint32_t kernel_id,
                                                unsigned int* blocks_done, uint16_t stream = 0) {
  if (!t.enabled) return;
  __syncthreads();
  if (block_thread_id() != 0) return;
  const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
  __threadfence();
  if (atomicInc(blocks_done, blocks - 1) == blocks - 1) record_kernel_end(t, kernel_id, stream);
}

// --- CTAs and warps. stream = SM id, id = linear CTA (warp) index; chunk /
// bytes / store granularity describe what the CTA writes (kNoId, 0, 0 if none).
__device__ __forceinline__ void record_cta_begin(const DeviceTrace& t,
                                                 uint32_t chunk = traces::kNoId, uint64_t bytes = 0,
                                                 uint16_t granularity = 0) {
  record_event(t, traces::EventKind::kCtaBegin, granularity, static_cast<uint16_t>(sm_id()),
               linear_block_id(), chunk, bytes);
}
__device__ __forceinline__ void record_cta_end(const DeviceTrace& t, uint32_t chunk = traces::kNoId,
                                               uint64_t bytes = 0, uint16_t granularity = 0) {
  record_event(t, traces::EventKind::kCtaEnd, granularity, static_cast<uint16_t>(sm_id()),
               linear_block_id(), chunk, bytes);
}
__device__ __forceinline__ void record_warp_begin(const DeviceTrace& t,
                                                  uint32_t chunk = traces::kNoId,
                                                  uint64_t bytes = 0, uint16_t granularity = 0) {
  record_event(t, traces::EventKind::kCtaBegin, granularity | traces::kFlagWarp,
               static_cast<uint16_t>(sm_id()), linear_warp_id(), chunk, bytes);
}
__device__ __forceinline__ void record_warp_end(const DeviceTrace& t,
                                                uint32_t chunk = traces::kNoId, uint64_t bytes = 0,
                                                uint16_t granularity = 0) {
  record_event(t, traces::EventKind::kCtaEnd, granularity | traces::kFlagWarp,
               static_cast<uint16_t>(sm_id()), linear_warp_id(), chunk, bytes);
}

// cta_begin / cta_end: call from every thread of the CTA; thread 0 records.
// cta_end first waits for the whole CTA (__syncthreads) so the timestamp
// covers every thread's work.
__device__ __forceinline__ void cta_begin(const DeviceTrace& t, uint32_t chunk = traces::kNoId,
                                          uint64_t bytes = 0, uint16_t granularity = 0) {
  if (block_thread_id() == 0) record_cta_begin(t, chunk, bytes, granularity);
}
__device__ __forceinline__ void cta_end(const DeviceTrace& t, uint32_t chunk = traces::kNoId,
                                        uint64_t bytes = 0, uint16_t granularity = 0) {
  if (!t.enabled) return;
  __syncthreads();
  if (block_thread_id() == 0) record_cta_end(t, chunk, bytes, granularity);
}
// warp_begin / warp_end: call from every lane of a converged warp; lane 0 records.
__device__ __forceinline__ void warp_begin(const DeviceTrace& t, uint32_t chunk = traces::kNoId,
                                           uint64_t bytes = 0, uint16_t granularity = 0) {
  if (block_thread_id() % 32 == 0) record_warp_begin(t, chunk, bytes, granularity);
}
__device__ __forceinline__ void warp_end(const DeviceTrace& t, uint32_t chunk = traces::kNoId,
                                         uint64_t bytes = 0, uint16_t granularity = 0) {
  if (!t.enabled) return;
  __syncwarp();
  if (block_thread_id() % 32 == 0) record_warp_end(t, chunk, bytes, granularity);
}

// --- Chunks and data-ready counters (id = chunk, see metadata "chunks").
__device__ __forceinline__ void record_chunk_write(const DeviceTrace& t, uint32_t chunk,
                                                   uint64_t bytes, uint16_t granularity) {
  record_event(t, traces::EventKind::kChunkWrite, granularity, 0, chunk, traces::kNoId, bytes);
}
// record_counter_decrement: `remaining` = counter value after this update.
__device__ __forceinline__ void record_counter_decrement(const DeviceTrace& t, uint32_t chunk,
                                                         uint64_t remaining) {
  record_event(t, traces::EventKind::kCounterDecrement, 0, 0, chunk, traces::kNoId, remaining);
}
__device__ __forceinline__ void record_counter_zero(const DeviceTrace& t, uint32_t chunk) {
  record_event(t, traces::EventKind::kCounterZero, 0, 0, chunk, traces::kNoId, 0);
}

// --- Notification flags (id = flag, see metadata "flags"; aux = message id;
// lane = CTA lane / agent index).
__device__ __forceinline__ void record_flag_set(const DeviceTrace& t, uint32_t flag, uint64_t value,
                                                uint32_t message = traces::kNoId,
                                                uint16_t lane = 0) {
  record_event(t, traces::EventKind::kFlagSet, 0, lane, flag, message, value);
}
__device__ __forceinline__ void record_flag_observed(const DeviceTrace& t, uint32_t flag,
                                                     uint64_t value,
                                                     uint32_t message = traces::kNoId,
                                                     uint16_t lane = 0) {
  record_event(t, traces::EventKind::kFlagObserved, 0, lane, flag, message, value);
}

// --- Transfers (id pairs begin/end; dst_mask = destination GPU bitmask;
// lane = agent / copy lane).
__device__ __forceinline__ void record_transfer_begin(const DeviceTrace& t, uint32_t transfer_id,
                                                      uint32_t dst_mask, uint64_t bytes,
                                                      traces::TransferMechanism mechanism,
                                                      uint16_t lane = 0) {
  record_event(t, traces::EventKind::kTransferBegin, static_cast<uint16_t>(mechanism), lane,
               transfer_id, dst_mask, bytes);
}
__device__ __forceinline__ void record_transfer_end(const DeviceTrace& t, uint32_t transfer_id,
                                                    uint32_t dst_mask, uint64_t bytes,
                                                    traces::TransferMechanism mechanism,
                                                    uint16_t lane = 0) {
  record_event(t, traces::EventKind::kTransferEnd, static_cast<uint16_t>(mechanism), lane,
               transfer_id, dst_mask, bytes);
}

}  // namespace xferlab::native
