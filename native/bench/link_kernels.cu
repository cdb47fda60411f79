// native/bench/link_kernels.cu — SM store/load kernels (see link_kernels.h).
//
// Access w is made by kTpw = max(1, write_bytes / 16) threads, each doing one
// store of type T (sizeof(T) = write_bytes / kTpw). Thread item j covers
// access j / kTpw, part j % kTpw, at dst + (j / kTpw) * stride + part * sizeof(T).
// Grid-stride over items, unrolled 4x so each thread keeps several memory
// operations in flight (needed to saturate NVLink with stores).
#include "native/bench/link_kernels.h"
#include "native/cuda_check.h"
#include "native/trace_device.cuh"

namespace xferlab::native::bench {
namespace {

constexpr int kUnroll = 4;

// Value stored by item j: cheap to compute, differs between neighbours and seeds.
template <typename T>
__device__ __forceinline__ T make_value(uint64_t j, uint32_t seed) {
  const uint32_t v = static_cast<uint32_t>(j) * 2654435761u ^ seed;
  if constexpr (sizeof(T) == 16) {
    return T{v, v ^ 0x5bd1e995u, v + 1u, ~v};
  } else if constexpr (sizeof(T) == 8) {
    return (static_cast<T>(v ^ 0x5bd1e995u) << 32) | v;
  } else {
    return static_cast<T>(v);
  }
}

template <typename T>
__device__ __forceinline__ bool equal(const T& a, const T& b) {
  if constexpr (sizeof(T) == 16) {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
  } else {
    return a == b;
  }
}

template <typename T, int kTpwLog2>
__device__ __forceinline__ uint64_t item_offset(uint64_t j, uint32_t stride) {
  return (j >> kTpwLog2) * stride + (j & ((1u << kTpwLog2) - 1)) * sizeof(T);
}

template <typename T, int kTpwLog2>
__global__ void __launch_bounds__(1024)
    link_write(char* __restrict__ dst, uint64_t items, uint32_t stride, uint32_t seed,
               DeviceTrace trace) {
  __shared__ unsigned long long cta_bytes;
  if (trace.enabled) {
    if (threadIdx.x == 0) cta_bytes = 0;
    __syncthreads();
  }
  cta_begin(trace);
  const uint64_t grid = uint64_t{gridDim.x} * blockDim.x;
  uint64_t mine = 0;
  for (uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < items;
       j += grid * kUnroll) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint64_t jj = j + u * grid;
      if (jj < items) {
        *reinterpret_cast<T*>(dst + item_offset<T, kTpwLog2>(jj, stride)) = make_value<T>(jj, seed);
        ++mine;
      }
    }
  }
  if (trace.enabled) {
    atomicAdd(&cta_bytes, mine * sizeof(T));
    __syncthreads();  // every thread's count is in before thread 0 reads it
    cta_end(trace, traces::kNoId, cta_bytes, sizeof(T) << kTpwLog2);
  }
}

template <typename T, int kTpwLog2>
__global__ void __launch_bounds__(1024)
    link_read_check(const char* __restrict__ src, uint64_t items, uint32_t stride, uint32_t seed,
                    unsigned long long* d_mismatches, DeviceTrace trace) {
  cta_begin(trace);
  const uint64_t grid = uint64_t{gridDim.x} * blockDim.x;
  unsigned long long bad = 0;
  for (uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < items;
       j += grid * kUnroll) {
    T v[kUnroll];
    // All loads first, then the compares: kUnroll loads in flight per thread.
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint64_t jj = j + u * grid;
      if (jj < items)
        v[u] = *reinterpret_cast<const T*>(src + item_offset<T, kTpwLog2>(jj, stride));
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint64_t jj = j + u * grid;
      if (jj < items && !equal(v[u], make_value<T>(jj, seed))) ++bad;
    }
  }
  if (bad) atomicAdd(d_mismatches, bad);
  cta_end(trace, traces::kNoId, 0, sizeof(T) << kTpwLog2);
}

// Dispatch on write size: (store type, log2 threads per access).
template <template <typename, int> class F, typename... Args>
void dispatch(uint32_t write_bytes, Args&&... args) {
  switch (write_bytes) {
    case 1: F<uint8_t, 0>::run(args...); break;
    case 2: F<uint16_t, 0>::run(args...); break;
    case 4: F<uint32_t, 0>::run(args...); break;
    case 8: F<unsigned long long, 0>::run(args...); break;
    case 16: F<uint4, 0>::run(args...); break;
    case 32: F<uint4, 1>::run(args...); break;
    case 64: F<uint4, 2>::run(args...); break;
    case 128: F<uint4, 3>::run(args...); break;
    case 256: F<uint4, 4>::run(args...); break;
    default:
      std::fprintf(stderr, "%s:%d: unsupported write size %u\n", __FILE__, __LINE__, write_bytes);
      std::abort();
  }
}

template <typename T, int kTpwLog2>
struct WriteLauncher {
  static void run(void* dst, const AccessPattern& p, uint32_t seed, int ctas, int threads,
                  const DeviceTrace& trace, cudaStream_t stream) {
    link_write<T, kTpwLog2><<<ctas, threads, 0, stream>>>(
        static_cast<char*>(dst), p.writes << kTpwLog2, p.stride_bytes, seed, trace);
  }
};

template <typename T, int kTpwLog2>
struct ReadLauncher {
  static void run(const void* src, const AccessPattern& p, uint32_t seed,
                  unsigned long long* d_mismatches, int ctas, int threads, const DeviceTrace& trace,
                  cudaStream_t stream) {
    link_read_check<T, kTpwLog2><<<ctas, threads, 0, stream>>>(static_cast<const char*>(src),
                                                               p.writes << kTpwLog2, p.stride_bytes,
                                                               seed, d_mismatches, trace);
  }
};

}  // namespace

bool is_supported_write_size(uint64_t bytes) {
  return bytes >= 1 && bytes <= 256 && (bytes & (bytes - 1)) == 0;
}

void launch_link_write(void* dst, const AccessPattern& p, uint32_t seed, int ctas, int threads,
                       const DeviceTrace& trace, cudaStream_t stream) {
  dispatch<WriteLauncher>(p.write_bytes, dst, p, seed, ctas, threads, trace, stream);
  XF_CUDA_CHECK_LAUNCH();
}

void launch_link_read_check(const void* src, const AccessPattern& p, uint32_t seed,
                            unsigned long long* d_mismatches, int ctas, int threads,
                            const DeviceTrace& trace, cudaStream_t stream) {
  dispatch<ReadLauncher>(p.write_bytes, src, p, seed, d_mismatches, ctas, threads, trace, stream);
  XF_CUDA_CHECK_LAUNCH();
}

}  // namespace xferlab::native::bench
