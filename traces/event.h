// traces/event.h — the 32-byte trace event record and its kinds.
//
// This is the contract between native/ (which records events, on the GPU and
// on the host) and sim/ (which replays them). The record is plain old data with
// a fixed little-endian layout, so a device-side buffer of Events is copied out
// of GPU memory and written to the file with no per-event conversion. Usable
// from host C++ and from CUDA device code (nvcc), C++17 and later.
//
// Field meaning per kind is documented in traces/FORMAT.md (one table row per
// kind); unused fields are zero. New kinds may be added in minor versions:
// readers skip kinds they do not know (Event::kind >= kNumEventKinds) rather
// than failing, unless asked to be strict.
#pragma once

#include <cstdint>

namespace xferlab::traces {

// EventKind: what happened. Values are part of the file format: never
// renumber, only append.
enum class EventKind : uint16_t {
  kInvalid = 0,
  // Kernels. gpu, stream; id = kernel id (metadata "kernels"); aux = grid CTAs;
  // value = block threads.
  kKernelLaunch = 1,  ///< host enqueued the launch (host clock domain mapped to ns).
  kKernelBegin = 2,   ///< first CTA started (device %globaltimer).
  kKernelEnd = 3,     ///< last CTA finished.
  // CTAs (or warps when flags has kFlagWarp). gpu; stream = SM id; id = CTA
  // index; aux = chunk written (or kNoId); value = bytes written to that chunk;
  // flags = store granularity in bytes.
  kCtaBegin = 4,
  kCtaEnd = 5,
  // Data-ready counters. gpu; id = chunk; value = remaining count after the
  // update (kCounterDecrement) or 0 (kCounterZero, the chunk is ready).
  kCounterDecrement = 6,
  kCounterZero = 7,
  // Transfers. gpu = source; stream = agent / copy-engine lane; id = transfer
  // id (pairs begin/end); aux = destination GPU bitmask (0 = all others); value = payload bytes;
  // flags = mechanism (TransferMechanism).
  kTransferBegin = 8,
  kTransferEnd = 9,
  // Notification flags. gpu = device (or kHostGpu for a CPU thread); stream =
  // CPU thread / CTA lane; id = flag index; aux = message id; value = flag value.
  kFlagSet = 10,
  kFlagObserved = 11,
  // CUDA stream memory operations. gpu, stream; id = flag index; value = value.
  kStreamWriteValue = 12,
  kStreamWaitValue = 13,
  // MPI. gpu = rank; stream = CPU thread; id = peer rank; aux = tag;
  // value = bytes; flags = MpiOp.
  kMpiPost = 14,
  kMpiComplete = 15,
  // Host phases. gpu = rank (or device); stream = CPU thread; id = phase id
  // (metadata "phases"); aux = iteration; value = 0.
  kPhaseBegin = 16,
  kPhaseEnd = 17,
  // Iteration marker. id = iteration index.
  kIteration = 18,
  // Chunk write observed without a CTA record (e.g. per-byte counting).
  // gpu; id = chunk; value = bytes; flags = store granularity.
  kChunkWrite = 19,
  kNumEventKinds = 20,
};

// TransferMechanism: how a transfer was moved (Event::flags of transfer events).
enum class TransferMechanism : uint16_t {
  kUnknown = 0,
  kMemcpy = 1,         ///< host-issued cudaMemcpy(Peer)Async (copy engine).
  kInline = 2,         ///< SM stores duplicated to peers inside the producer kernel.
  kPolling = 3,        ///< persistent polling agent kernel, SM stores.
  kCdp = 4,            ///< dynamic-parallelism child kernel, SM stores.
  kPollingTma = 5,     ///< polling agent using Hopper bulk copies (cp.async.bulk).
  kUnifiedMemory = 6,  ///< page migration / prefetch.
  kHardwareDma = 7,    ///< simulated counter unit + descriptor DMA agent.
  kMpi = 8,            ///< message over MPI (host buffers).
  kProxy = 9,          ///< NIC-emulating CPU proxy (GPUDirect Async emulation).
  kNumMechanisms = 10,
};

// MpiOp: Event::flags of MPI events.
enum class MpiOp : uint16_t { kIsend = 1, kIrecv = 2, kSend = 3, kRecv = 4 };

// Event flag bits for CTA events.
inline constexpr uint16_t kFlagWarp = 0x8000;  ///< record is per warp, not per CTA.

// Sentinels.
inline constexpr uint32_t kNoId = 0xffffffffu;
// kAgentKernelIdBase: a transfer agent kernel (proact's polling/TMA agents)
// records kernel id kAgentKernelIdBase + its producer's kernel id, so readers
// tell agents (transfer activity) from producer kernels.
inline constexpr uint32_t kAgentKernelIdBase = 0x10000;
inline constexpr uint16_t kHostGpu = 0xffffu;  ///< Event::gpu for host-side records.

// Event: one record, 32 bytes, little-endian, naturally aligned.
struct Event {
  uint64_t time_ns;  ///< timestamp in the trace's time base (see FORMAT.md, clocks).
  uint16_t kind;     ///< EventKind.
  uint16_t flags;    ///< kind-specific (mechanism, MPI op, store granularity).
  uint16_t gpu;      ///< device / rank; kHostGpu for host threads.
  uint16_t stream;   ///< stream / SM / agent lane / CPU thread.
  uint32_t id;       ///< kind-specific primary id (kernel, CTA, chunk, flag, peer...).
  uint32_t aux;      ///< kind-specific secondary id (chunk, destination mask, tag...).
  uint64_t value;    ///< kind-specific quantity (bytes, counter value, flag value).
};

static_assert(sizeof(Event) == 32, "trace Event must stay 32 bytes (file format)");
static_assert(alignof(Event) == 8, "trace Event alignment is part of the format");

}  // namespace xferlab::traces
