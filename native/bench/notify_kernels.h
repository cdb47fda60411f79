// native/bench/notify_kernels.h — kernels of the notification benchmark:
// flag ping-pong through pinned host memory, GPU-side read+write cost,
// timestamp kernels for launch latency, and dynamic-parallelism parents.
// Every spin-wait is bounded (timeout_ns) and reports which round it gave up on.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "native/device_trace.h"

namespace xferlab::native::bench {

// GpuFlagStore: how the GPU sets a flag in pinned host memory.
enum class GpuFlagStore : int {
  kVolatile = 0,  ///< plain volatile 32-bit store.
  kAtomic = 1,    ///< atomicExch_system.
};

// launch_flag_pingpong: one thread. Round i (1-based): d_t_set[i-1] =
// %globaltimer; set *to_cpu = i; wait until *to_gpu >= i; d_t_seen[i-1] =
// %globaltimer. On timeout writes the round to *status and returns. Records
// kFlagSet (flag 0) / kFlagObserved (flag 1) with the measured timestamps.
void launch_flag_pingpong(uint32_t* to_cpu, const uint32_t* to_gpu, uint32_t rounds,
                          GpuFlagStore store, uint64_t* d_t_set, uint64_t* d_t_seen,
                          uint32_t* status, uint64_t timeout_ns, const DeviceTrace& trace,
                          cudaStream_t stream);

// GpuReadWrite: the GPU side's notification work (one read + one write).
enum class GpuReadWrite : int {
  kVolatile = 0,       ///< volatile load + volatile store.
  kVolatileFence = 1,  ///< + __threadfence_system() after the store.
  kAtomic = 2,         ///< volatile load + atomicExch_system.
};

// launch_gpu_read_write: one thread does `iters` (read in[i % n], write
// out[i % n]) pairs on pinned host memory; *d_total_ns = elapsed %globaltimer.
void launch_gpu_read_write(const uint32_t* in, uint32_t* out, uint32_t n, uint32_t iters,
                           GpuReadWrite kind, uint64_t* d_total_ns, cudaStream_t stream);

// launch_timestamp_kernel: 1 CTA of 32 threads; thread 0 stores %globaltimer
// at entry into d_start[index] and at exit into d_end[index]; records
// kKernelBegin/kKernelEnd (kernel id = index) after taking the timestamps.
void launch_timestamp_kernel(uint64_t* d_start, uint64_t* d_end, uint32_t index,
                             const DeviceTrace& trace, cudaStream_t stream);

// CdpMode: how a parent kernel launches its child (CDP2 on Hopper).
enum class CdpMode : int { kFireAndForget = 0, kTailLaunch = 1 };

// launch_cdp_parent: parent stores %globaltimer in d_t_parent[index] just
// before launching a 1-thread child that stores its start in d_t_child[index]
// (notify_cdp.cu, relocatable device code).
void launch_cdp_parent(uint64_t* d_t_parent, uint64_t* d_t_child, uint32_t index, CdpMode mode,
                       cudaStream_t stream);

}  // namespace xferlab::native::bench
