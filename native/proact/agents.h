// native/proact/agents.h — launchers for PROACT's transfer agents (agents.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "native/proact/device_region.h"
#include "traces/event.h"

namespace xferlab::proact {

// launch_polling_agent: a persistent kernel of `threads` threads (warps are the
// copy units) on `stream` that waits for chunks [first_chunk, end_chunk) to
// become ready (ready == r.epoch) and copies each to every peer with 16-B
// stores, in slices of p.slice_bytes. Exits when all are copied, or when one
// wait for a chunk lasted p.timeout_ns (error in r.error).
void launch_polling_agent(const DeviceRegion& r, const AgentParams& p, uint32_t threads,
                          cudaStream_t stream);

// launch_tma_agent: same contract, copies with Hopper bulk copies
// (cp.async.bulk global->shared, then shared->peer global), one issuing thread
// per CTA, two slices in flight per CTA (double-buffered shared memory);
// threads/32 CTAs. p.slice_bytes <= kTmaMaxSliceBytes.
inline constexpr uint64_t kTmaMaxSliceBytes = 16384;
void launch_tma_agent(const DeviceRegion& r, const AgentParams& p, uint32_t threads,
                      cudaStream_t stream);

// launch_trace_marker: a one-thread kernel recording one event stamped with
// %globaltimer (host-issued copies are bracketed by these in traced runs).
void launch_trace_marker(const native::DeviceTrace& t, traces::EventKind kind, uint16_t flags,
                         uint32_t id, uint32_t aux, uint64_t value, cudaStream_t stream);

}  // namespace xferlab::proact
