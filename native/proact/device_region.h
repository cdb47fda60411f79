// native/proact/device_region.h — DeviceRegion: what a producer kernel (and a
// transfer agent) receives, by value, to write into a PROACT-enabled region
// and signal chunk readiness. Plain data, host and device.
#pragma once

#include <cstdint>

#include "native/device_trace.h"

namespace xferlab::proact {

inline constexpr int kMaxGpus = 8;

// AgentError: written by device code into host-mapped pinned memory so the
// host can name the chunk that never became ready instead of hanging.
struct AgentError {
  uint32_t code;   ///< 0 ok, else an AgentErrorCode.
  uint32_t chunk;  ///< chunk concerned.
  uint32_t value;  ///< code-specific (CUDA error for kCdpLaunch, epoch seen for kTimeout).
  uint32_t pad;
};

enum AgentErrorCode : uint32_t {
  kAgentOk = 0,
  kAgentTimeout = 1,      ///< a chunk never became ready before the deadline.
  kCounterUnderflow = 2,  ///< more decrements than writers (mapping bug).
  kCdpLaunch = 3,         ///< device-side launch of the CDP child failed.
};

// Mode bits of DeviceRegion::mode.
enum RegionMode : uint32_t {
  kModeTrack = 1,    ///< decrement counters, mark ready.
  kModeInline = 2,   ///< proact_store duplicates each store to every peer.
  kModeCdp = 4,      ///< the last decrementer launches proact_cdp_copy.
  kModeCdpTail = 8,  ///< ... as a tail launch.
};

struct DeviceRegion {
  char* local = nullptr;           ///< this GPU's copy of the region.
  char* peers[kMaxGpus - 1] = {};  ///< peers' copies (same offsets), peer-mapped.
  uint32_t num_peers = 0;
  uint32_t peer_mask = 0;  ///< destination GPU bitmask (trace aux).
  uint64_t chunk_bytes = 0;
  uint32_t* counters = nullptr;           ///< per chunk, armed with `init`; rearmed at zero.
  const uint32_t* init = nullptr;         ///< writers per chunk.
  uint32_t* ready = nullptr;              ///< per chunk: epoch at which it last became ready.
  uint32_t* cdp_done = nullptr;           ///< per chunk: CDP child CTAs finished (trace end).
  const uint32_t* cta_offsets = nullptr;  ///< CSR of chunks per CTA (ChunkMap).
  const uint32_t* cta_chunks = nullptr;
  unsigned int* kernel_ctas_done = nullptr;  ///< producer CTAs done (kernel-end trace record).
  unsigned int* agent_ctas_done = nullptr;   ///< agent CTAs done (kernel-end trace record).
  AgentError* error = nullptr;               ///< host-mapped.
  uint32_t epoch = 0;          ///< this use of the region (ready == epoch: ready now).
  uint32_t mode = 0;           ///< RegionMode bits.
  uint32_t cdp_threads = 256;  ///< threads of a CDP child grid.
  uint32_t kernel_id = 0;      ///< trace kernel id of the producer.
  uint32_t cta_sample = 1;     ///< trace every n-th CTA's begin/end.
  uint32_t agent_sample = 1;   ///< trace every n-th agent copy (slice / CDP chunk); 0 = none.
  native::DeviceTrace trace;
};

// AgentParams: a polling agent's share of the work.
struct AgentParams {
  uint32_t first_chunk = 0;
  uint32_t end_chunk = 0;
  uint64_t slice_bytes = 0;  ///< copy unit per warp (SM) or CTA (TMA); divides chunk_bytes.
  uint64_t timeout_ns = 0;   ///< give up (and report) after waiting this long for one chunk.
  uint32_t kernel_id = 0;
};

}  // namespace xferlab::proact
