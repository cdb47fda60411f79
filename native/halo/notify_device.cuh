// native/halo/notify_device.cuh — device side of GPU <-> CPU notification
// flags in pinned host memory: system-scope release stores and acquire loads,
// and a spin-wait bounded by %globaltimer that reports a timeout instead of
// hanging. Used by the halo kernels and the gdasync kernels.
#pragma once

#include <cstdint>

#include "native/halo/notify_types.h"
#include "native/trace_device.cuh"

namespace xferlab::halo {

// load_acquire_sys: a flag written by the CPU (or another device agent); loads
// after it see the data written before the flag.
__device__ __forceinline__ uint32_t load_acquire_sys(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// store_release_sys: publishes a flag. One writer per flag, so an atomic store
// is enough: read-modify-write atomics on host memory would need PCIe
// AtomicOps, a store does not. Callers fence the data of all threads first
// (publish_flag).
__device__ __forceinline__ void store_release_sys(uint32_t* p, uint32_t v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// publish_flag: call from every thread of the CTA after its part of the
// message is written: each thread fences its stores to system scope, the CTA
// synchronizes, thread 0 stores the flag and records the event.
__device__ __forceinline__ void publish_flag(uint32_t* flag, uint32_t value, FlagArray array,
                                             uint32_t message,
                                             const xferlab::native::DeviceTrace& trace) {
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    store_release_sys(flag, value);
    xferlab::native::record_flag_set(trace, static_cast<uint32_t>(array) * kFlagsPerArray + message,
                                     value, message, static_cast<uint16_t>(blockIdx.x));
  }
}

// load_acquire_gpu: a flag written by another CTA of this GPU (device memory:
// an L2 hit, unlike a poll of pinned host memory, which is a PCIe read).
__device__ __forceinline__ uint32_t load_acquire_gpu(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_release_gpu(uint32_t* p, uint32_t v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// should_give_up: called by a spinning thread every 1024 polls. True once the
// wait exceeded timeout_ns (the first thread to time out fills `fault` for the
// host and prints the report) or another thread already reported a fault.
__device__ __forceinline__ bool should_give_up(uint64_t start_ns, uint64_t timeout_ns,
                                               DeviceFault* fault, FlagArray array,
                                               uint32_t message, uint32_t value, uint32_t seen) {
  if (load_acquire_sys(&fault->code) != 0) return true;
  const uint64_t waited = xferlab::native::globaltimer_ns() - start_ns;
  if (waited <= timeout_ns) return false;
  fault->flag_array = static_cast<uint32_t>(array);
  fault->message = message;
  fault->expected = value;
  fault->seen = seen;
  fault->block = blockIdx.x;
  fault->waited_ns = waited;
  __threadfence_system();
  store_release_sys(&fault->code, 1);
  printf("GPU timeout: block %u waited %llu ns for %s flag of message %u >= %u (saw %u)\n",
         blockIdx.x, static_cast<unsigned long long>(waited), flag_array_name(array), message,
         value, seen);
  return true;
}

// wait_flag_geq: thread 0 of the CTA spins until *flag >= value (epochs only
// grow), then the CTA proceeds. Gives up after timeout_ns (or as soon as
// another CTA reported a fault), writing `fault` for the host to report.
// Returns false on timeout: the caller must skip its work and exit.
__device__ __forceinline__ bool wait_flag_geq(const uint32_t* flag, uint32_t value, FlagArray array,
                                              uint32_t message, uint64_t timeout_ns,
                                              DeviceFault* fault,
                                              const xferlab::native::DeviceTrace& trace) {
  __shared__ int ok;
  if (threadIdx.x == 0) {
    const uint64_t start = xferlab::native::globaltimer_ns();
    uint32_t seen = load_acquire_sys(flag);
    ok = 1;
    uint32_t polls = 0;
    while (seen < value) {
      if ((++polls & 1023u) == 0 &&
          should_give_up(start, timeout_ns, fault, array, message, value, seen)) {
        ok = 0;
        break;
      }
      seen = load_acquire_sys(flag);
    }
    if (ok) {
      xferlab::native::record_flag_observed(trace,
                                            static_cast<uint32_t>(array) * kFlagsPerArray + message,
                                            seen, message, static_cast<uint16_t>(blockIdx.x));
    }
  }
  __syncthreads();
  return ok != 0;
}

// wait_device_flag_geq: like wait_flag_geq for a device-memory flag set by
// another CTA (which reports the timeout of the host flag it forwards; this
// one only stops waiting). Returns false on timeout / fault.
__device__ __forceinline__ bool wait_device_flag_geq(const uint32_t* flag, uint32_t value,
                                                     uint64_t timeout_ns, DeviceFault* fault) {
  __shared__ int ok;
  if (threadIdx.x == 0) {
    ok = 1;
    const uint64_t start = xferlab::native::globaltimer_ns();
    uint32_t polls = 0;
    while (load_acquire_gpu(flag) < value) {
      if ((++polls & 1023u) == 0 &&
          (load_acquire_sys(&fault->code) != 0 ||
           xferlab::native::globaltimer_ns() - start > timeout_ns + timeout_ns / 8)) {
        ok = 0;
        break;
      }
    }
  }
  __syncthreads();
  return ok != 0;
}

}  // namespace xferlab::halo
