// native/proact/agents.cu — PROACT transfer agents: the SM polling agent, the
// TMA bulk-copy polling agent, and the CDP child copy kernel.
#include <cuda/atomic>

#include "native/cuda_check.h"
#include "native/proact/agents.h"
#include "native/proact/proact_device.cuh"

namespace xferlab::proact {

namespace {

using traces::TransferMechanism;

// copy_warp: the calling warp copies `bytes` (multiple of 16) from src to every
// peer at `offset`: eight 16-B loads in flight per lane (4 KiB per warp), then
// eight 16-B stores per peer; consecutive lanes touch consecutive 16 B, so
// every warp-wide access is 512 contiguous bytes. NVLink needs many bytes in
// flight: with 1024 agent threads (128 KiB in flight with four loads per
// lane) the agent reached only ~140 GB/s of the ~390 GB/s cudaMemcpy gets.
__device__ __forceinline__ void copy_warp(const DeviceRegion& r, uint64_t offset, uint64_t bytes,
                                          uint32_t lane) {
  const uint4* src = reinterpret_cast<const uint4*>(r.local + offset);
  const uint64_t n = bytes / 16;
  constexpr int kUnroll = 8;
  for (uint64_t base = lane; base < n; base += 32 * kUnroll) {
    uint4 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const uint64_t i = base + 32ull * k;
      if (i < n) v[k] = __ldcg(src + i);
    }
    for (uint32_t p = 0; p < r.num_peers; ++p) {
      uint4* dst = reinterpret_cast<uint4*>(r.peers[p] + offset);
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const uint64_t i = base + 32ull * k;
        if (i < n) dst[i] = v[k];
      }
    }
  }
}

// traced_copy: whether agent copy `n` gets transfer records (every
// agent_sample-th; records cost the single TMA issuing thread and the CDP
// child a fence, and so slow the run they measure).
__device__ __forceinline__ bool traced_copy(const DeviceRegion& r, uint64_t n) {
  return r.trace.enabled && r.agent_sample > 0 && n % r.agent_sample == 0;
}

// wait_ready: spin (acquire loads) until chunk c is ready in this epoch.
// The deadline is per wait: timeout_ns counted from the first poll that found
// the chunk not ready (so a long step whose chunks keep coming passes, however
// long it is), and the clock is read on every poll (so any timeout above the
// %globaltimer resolution fires). The host-mapped error word costs a PCIe
// read: it is checked every kErrorPollInterval polls. Returns false on
// timeout (reporting the chunk) or when another agent already gave up.
constexpr uint32_t kErrorPollInterval = 64;
__device__ __forceinline__ bool wait_ready(const DeviceRegion& r, uint32_t c, uint64_t timeout_ns) {
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device> ready(r.ready[c]);
  if (ready.load(cuda::memory_order_acquire) == r.epoch) return true;
  const uint64_t start_ns = native::globaltimer_ns();
  for (uint32_t polls = 1;; ++polls) {
    __nanosleep(32);
    if (ready.load(cuda::memory_order_acquire) == r.epoch) return true;
    if (native::globaltimer_ns() - start_ns > timeout_ns) {
      detail::set_error(r, kAgentTimeout, c, ready.load(cuda::memory_order_relaxed));
      return false;
    }
    if (polls % kErrorPollInterval == 0 && r.error->code != 0) return false;
  }
}

__global__ void polling_agent_kernel(DeviceRegion r, AgentParams p) {
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t warps = gridDim.x * blockDim.x / 32;
  const uint64_t slices = r.chunk_bytes / p.slice_bytes;
  const uint64_t items = (p.end_chunk - p.first_chunk) * slices;
  if (blockIdx.x == 0 && threadIdx.x == 0) native::record_kernel_begin(r.trace, p.kernel_id, 1);
  for (uint64_t item = warp; item < items; item += warps) {
    const uint32_t c = p.first_chunk + static_cast<uint32_t>(item / slices);
    int ok = 1;
    if (lane == 0) ok = wait_ready(r, c, p.timeout_ns);
    ok = __shfl_sync(0xffffffffu, ok, 0);
    if (!ok) break;
    __syncwarp();  // orders lane 0's acquire before the other lanes' loads.
    const uint64_t offset = c * r.chunk_bytes + (item % slices) * p.slice_bytes;
    const uint32_t id = static_cast<uint32_t>(c * slices + item % slices);
    const bool rec = traced_copy(r, id);
    if (rec && lane == 0) {
      native::record_transfer_begin(r.trace, id, r.peer_mask, p.slice_bytes,
                                    TransferMechanism::kPolling, static_cast<uint16_t>(warp));
    }
    copy_warp(r, offset, p.slice_bytes, lane);
    __syncwarp();
    if (rec && lane == 0) {
      native::record_transfer_end(r.trace, id, r.peer_mask, p.slice_bytes,
                                  TransferMechanism::kPolling, static_cast<uint16_t>(warp));
    }
  }
  if (r.trace.enabled) {  // every warp is done (or gave up): the last CTA traces the end.
    __syncthreads();
    if (threadIdx.x == 0) detail::kernel_cta_finished(r, r.agent_ctas_done, p.kernel_id, 1);
  }
}

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// tma_agent_kernel: one issuing thread per CTA, two shared-memory buffers:
// the bulk load of slice k+1 (global -> shared, mbarrier) overlaps the bulk
// stores of slice k (shared -> every peer, one bulk group per slice).
__device__ __forceinline__ void tma_wait(uint32_t bar, uint32_t phase) {
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, "
        "0, p; }"
        : "=r"(done)
        : "r"(bar), "r"(phase)
        : "memory");
  }
}

__global__ void tma_agent_kernel(DeviceRegion r, AgentParams p) {
  __shared__ alignas(128) unsigned char buf[2][kTmaMaxSliceBytes];
  __shared__ alignas(8) unsigned long long mbar[2];
  if (threadIdx.x != 0) return;  // one issuing thread per CTA.
  const uint32_t bars[2] = {smem_addr(&mbar[0]), smem_addr(&mbar[1])};
  for (uint32_t bar : bars) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  const uint64_t slices = r.chunk_bytes / p.slice_bytes;
  const uint64_t items = (p.end_chunk - p.first_chunk) * slices;
  const uint32_t bytes = static_cast<uint32_t>(p.slice_bytes);
  if (blockIdx.x == 0) native::record_kernel_begin(r.trace, p.kernel_id, 1);
  uint32_t phase[2] = {0, 0};
  uint32_t prev_id = 0, k = 0;
  bool prev_rec = false;
  for (uint64_t item = blockIdx.x; item < items; item += gridDim.x, ++k) {
    const uint32_t c = p.first_chunk + static_cast<uint32_t>(item / slices);
    if (!wait_ready(r, c, p.timeout_ns)) break;
    // The producer's generic-proxy writes must be visible to the async proxy.
    asm volatile("fence.proxy.async.global;" ::: "memory");
    const uint64_t offset = c * r.chunk_bytes + (item % slices) * p.slice_bytes;
    const uint32_t id = static_cast<uint32_t>(c * slices + item % slices);
    const uint32_t b = k % 2;
    const bool rec = traced_copy(r, id);
    if (rec) {
      native::record_transfer_begin(r.trace, id, r.peer_mask, bytes, TransferMechanism::kPollingTma,
                                    static_cast<uint16_t>(blockIdx.x));
    }
    // buf[b]'s previous stores (slice k-2) completed at the wait_group 1 of slice k-1.
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bars[b]), "r"(bytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(smem_addr(buf[b])),
        "l"(r.local + offset), "r"(bytes), "r"(bars[b])
        : "memory");
    tma_wait(bars[b], phase[b]);
    phase[b] ^= 1u;
    for (uint32_t q = 0; q < r.num_peers; ++q) {
      asm volatile(
          "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(r.peers[q] + offset),
          "r"(smem_addr(buf[b])), "r"(bytes)
          : "memory");
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    // Slice k-1's stores are complete once at most one group (slice k) is pending.
    asm volatile("cp.async.bulk.wait_group 1;" ::: "memory");
    if (k > 0 && prev_rec) {
      native::record_transfer_end(r.trace, prev_id, r.peer_mask, bytes,
                                  TransferMechanism::kPollingTma,
                                  static_cast<uint16_t>(blockIdx.x));
    }
    prev_id = id;
    prev_rec = rec;
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  if (k > 0 && prev_rec) {
    native::record_transfer_end(r.trace, prev_id, r.peer_mask, bytes,
                                TransferMechanism::kPollingTma, static_cast<uint16_t>(blockIdx.x));
  }
  detail::kernel_cta_finished(r, r.agent_ctas_done, p.kernel_id, 1);
}

__global__ void trace_marker_kernel(native::DeviceTrace t, traces::EventKind kind, uint16_t flags,
                                    uint32_t id, uint32_t aux, uint64_t value) {
  native::record_event(t, kind, flags, 0, id, aux, value);
}

}  // namespace

// proact_cdp_copy: grid-stride copy of one chunk to every peer; block 0 traces
// the begin, the last block to finish traces the end.
__global__ void proact_cdp_copy(DeviceRegion r, uint32_t chunk) {
  const bool rec = traced_copy(r, chunk);
  if (rec && blockIdx.x == 0 && threadIdx.x == 0) {
    native::record_transfer_begin(r.trace, chunk, r.peer_mask, r.chunk_bytes,
                                  TransferMechanism::kCdp, 0);
  }
  const uint4* src = reinterpret_cast<const uint4*>(r.local + chunk * r.chunk_bytes);
  const uint64_t n = r.chunk_bytes / 16;
  for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += uint64_t{gridDim.x} * blockDim.x) {
    const uint4 v = __ldcg(src + i);
    for (uint32_t p = 0; p < r.num_peers; ++p) {
      reinterpret_cast<uint4*>(r.peers[p] + chunk * r.chunk_bytes)[i] = v;
    }
  }
  if (!rec) return;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(&r.cdp_done[chunk], 1u) == gridDim.x - 1) {
      r.cdp_done[chunk] = 0;
      native::record_transfer_end(r.trace, chunk, r.peer_mask, r.chunk_bytes,
                                  TransferMechanism::kCdp, 0);
    }
  }
}

void launch_polling_agent(const DeviceRegion& r, const AgentParams& p, uint32_t threads,
                          cudaStream_t stream) {
  const uint32_t block = threads < 256 ? threads : 256;
  polling_agent_kernel<<<(threads + block - 1) / block, block, 0, stream>>>(r, p);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_tma_agent(const DeviceRegion& r, const AgentParams& p, uint32_t threads,
                      cudaStream_t stream) {
  const uint32_t ctas = threads / 32 > 0 ? threads / 32 : 1;
  tma_agent_kernel<<<ctas, 32, 0, stream>>>(r, p);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_trace_marker(const native::DeviceTrace& t, traces::EventKind kind, uint16_t flags,
                         uint32_t id, uint32_t aux, uint64_t value, cudaStream_t stream) {
  trace_marker_kernel<<<1, 1, 0, stream>>>(t, kind, flags, id, aux, value);
  XF_CUDA_CHECK_LAUNCH();
}

}  // namespace xferlab::proact
