// native/bench/link_kernels.cu — SM store/load kernels (see link_kernels.h).
//
// Access w is made by kTpw = max(1, write_bytes / 16) threads, each doing one
// store of type T (sizeof(T) = write_bytes / kTpw). Thread item j covers
// access j / kTpw, part j % kTpw, at dst + (j / kTpw) * stride + part * sizeof(T).
// Grid-stride over items, unrolled 4x so each thread keeps several memory
// operations in flight (needed to saturate NVLink with stores).
//
// The write variants (--variants) store the 16-B pattern of launch_link_write
// with other launch shapes and store mechanisms: st.global.v4 / st.global.cs.v4
// from registers (each warp instruction one 512-B contiguous span; kUnroll
// independent stores per thread; no bounds checks inside full tiles), and
// cp.async.bulk (TMA) bulk stores of shared-memory chunks (sm_90+).
#include <cstdio>

#include "native/bench/link_kernels.h"
#include "native/cuda_check.h"
#include "native/trace_device.cuh"

namespace xferlab::native::bench {
namespace {

// Stores/loads in flight per thread in the write-size sweep.
constexpr int kSweepUnroll = 4;

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

// cta_end_bytes: cta_end with the CTA's byte count (sum of every thread's
// `mine_bytes`); the shared counter is touched only when tracing.
__device__ __forceinline__ void cta_end_bytes(const DeviceTrace& trace, uint64_t mine_bytes,
                                              uint16_t granularity) {
  __shared__ unsigned long long cta_bytes;
  if (!trace.enabled) return;
  if (threadIdx.x == 0) cta_bytes = 0;
  __syncthreads();
  if (mine_bytes) atomicAdd(&cta_bytes, mine_bytes);
  __syncthreads();  // every thread's count is in before thread 0 reads it
  cta_end(trace, traces::kNoId, cta_bytes, granularity);
}

// grid_stride_tiles: calls store(j) for every item j < items of this thread:
// tiles of kUnroll x grid items (thread t: t, t + grid, ...) with no bounds
// checks, then the remainder one grid at a time. Returns the items stored.
template <int kUnroll, typename F>
__device__ __forceinline__ uint64_t grid_stride_tiles(uint64_t items, F&& store) {
  const uint64_t grid = uint64_t{gridDim.x} * blockDim.x;
  const uint64_t tile = grid * kUnroll;
  const uint64_t full = items / tile * tile;  // the only division, outside the loop
  uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const uint64_t first = j;
  for (; j < full; j += tile) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) store(j + u * grid);
  }
  for (; j < items; j += grid) store(j);
  return first < items ? (items - first + grid - 1) / grid : 0;
}

template <typename T, int kTpwLog2>
__global__ void __launch_bounds__(1024)
    link_write(char* __restrict__ dst, uint64_t items, uint32_t stride, uint32_t seed,
               DeviceTrace trace) {
  cta_begin(trace);
  const uint64_t mine = grid_stride_tiles<kSweepUnroll>(items, [&](uint64_t j) {
    *reinterpret_cast<T*>(dst + item_offset<T, kTpwLog2>(j, stride)) = make_value<T>(j, seed);
  });
  cta_end_bytes(trace, mine * sizeof(T), sizeof(T) << kTpwLog2);
}

// link_write_v4: the 16-B contiguous pattern (item j at dst[j]) with
// kUnroll stores in flight per thread; kStreaming uses st.global.cs
// (evict-first: the written lines are not kept in L2).
template <int kUnroll, bool kStreaming>
__global__ void __launch_bounds__(1024)
    link_write_v4(uint4* __restrict__ dst, uint64_t items, uint32_t seed, DeviceTrace trace) {
  cta_begin(trace);
  const uint64_t mine = grid_stride_tiles<kUnroll>(items, [&](uint64_t j) {
    const uint4 v = make_value<uint4>(j, seed);
    if constexpr (kStreaming) {
      __stcs(dst + j, v);
    } else {
      dst[j] = v;
    }
  });
  cta_end_bytes(trace, mine * sizeof(uint4), sizeof(uint4));
}

// link_write_bulk: each CTA fills a chunk of blockDim x kUnroll items in
// shared memory (double-buffered) and one thread stores it with one
// cp.async.bulk; chunks are grid-strided over CTAs.
template <int kUnroll>
__global__ void __launch_bounds__(1024)
    link_write_bulk(uint4* __restrict__ dst, uint64_t items, uint32_t seed, DeviceTrace trace) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) uint4 stage[];  // 2 buffers of chunk_items
  cta_begin(trace);
  const uint32_t chunk_items = blockDim.x * kUnroll;
  const uint64_t chunks = (items + chunk_items - 1) / chunk_items;
  uint64_t bytes = 0;
  int buffer = 0;
  for (uint64_t c = blockIdx.x; c < chunks; c += gridDim.x, buffer ^= 1) {
    uint4* buf = stage + buffer * chunk_items;
    // The bulk store issued two chunks ago read this buffer: wait until it has.
    if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    __syncthreads();
    const uint64_t first = c * chunk_items;
    const uint32_t n = static_cast<uint32_t>(min(uint64_t{chunk_items}, items - first));
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint32_t i = u * blockDim.x + threadIdx.x;
      if (i < n) buf[i] = make_value<uint4>(first + i, seed);
    }
    // Generic-proxy shared-memory writes become visible to the bulk copy (async proxy).
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
      uint64_t gaddr;
      asm("cvta.to.global.u64 %0, %1;" : "=l"(gaddr) : "l"(dst + first));
      const uint32_t saddr = static_cast<uint32_t>(__cvta_generic_to_shared(buf));
      asm volatile(
          "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n\t"
          "cp.async.bulk.commit_group;" ::"l"(gaddr),
          "r"(saddr), "r"(n * 16u)
          : "memory");
      bytes += uint64_t{n} * 16u;
    }
  }
  // Complete (not only read) before the CTA exits: the kernel's end then
  // means every byte was written.
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  cta_end_bytes(trace, bytes, sizeof(uint4));
#else
  __trap();  // launch_link_write_variant refuses bulk variants below sm_90.
#endif
}

template <typename T, int kTpwLog2>
__global__ void __launch_bounds__(1024)
    link_read_check(const char* __restrict__ src, uint64_t items, uint32_t stride, uint32_t seed,
                    unsigned long long* d_mismatches, DeviceTrace trace) {
  cta_begin(trace);
  const uint64_t grid = uint64_t{gridDim.x} * blockDim.x;
  unsigned long long bad = 0;
  for (uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < items;
       j += grid * kSweepUnroll) {
    T v[kSweepUnroll];
    // All loads first, then the compares: kSweepUnroll loads in flight per thread.
#pragma unroll
    for (int u = 0; u < kSweepUnroll; ++u) {
      const uint64_t jj = j + u * grid;
      if (jj < items)
        v[u] = *reinterpret_cast<const T*>(src + item_offset<T, kTpwLog2>(jj, stride));
    }
#pragma unroll
    for (int u = 0; u < kSweepUnroll; ++u) {
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

template <int kUnroll>
struct VariantLauncher {
  static void run(const WriteVariant& v, uint4* dst, uint64_t items, uint32_t seed, int ctas,
                  const DeviceTrace& trace, cudaStream_t stream) {
    switch (v.kind) {
      case StoreKind::kPlain:
        link_write_v4<kUnroll, false><<<ctas, v.threads, 0, stream>>>(dst, items, seed, trace);
        break;
      case StoreKind::kStreaming:
        link_write_v4<kUnroll, true><<<ctas, v.threads, 0, stream>>>(dst, items, seed, trace);
        break;
      case StoreKind::kBulk:
        link_write_bulk<kUnroll>
            <<<ctas, v.threads, v.shared_bytes(), stream>>>(dst, items, seed, trace);
        break;
    }
  }
  static const void* kernel(StoreKind kind) {
    switch (kind) {
      case StoreKind::kPlain: return reinterpret_cast<const void*>(link_write_v4<kUnroll, false>);
      case StoreKind::kStreaming:
        return reinterpret_cast<const void*>(link_write_v4<kUnroll, true>);
      case StoreKind::kBulk: return reinterpret_cast<const void*>(link_write_bulk<kUnroll>);
    }
    return nullptr;
  }
};

// Dispatch on the unroll factor (compile-time in the kernels).
template <template <int> class F, typename... Args>
void dispatch_unroll(int unroll, Args&&... args) {
  switch (unroll) {
    case 1: F<1>::run(args...); break;
    case 2: F<2>::run(args...); break;
    case 4: F<4>::run(args...); break;
    case 8: F<8>::run(args...); break;
    default:
      std::fprintf(stderr, "%s:%d: unsupported unroll %d\n", __FILE__, __LINE__, unroll);
      std::abort();
  }
}

const void* variant_kernel(const WriteVariant& v) {
  switch (v.unroll) {
    case 1: return VariantLauncher<1>::kernel(v.kind);
    case 2: return VariantLauncher<2>::kernel(v.kind);
    case 4: return VariantLauncher<4>::kernel(v.kind);
    case 8: return VariantLauncher<8>::kernel(v.kind);
    default:
      std::fprintf(stderr, "%s:%d: unsupported unroll %d\n", __FILE__, __LINE__, v.unroll);
      std::abort();
  }
}

}  // namespace

std::string WriteVariant::kind_name() const {
  switch (kind) {
    case StoreKind::kPlain: return "st.v4";
    case StoreKind::kStreaming: return "st.cs.v4";
    case StoreKind::kBulk: return "bulk";
  }
  return "?";
}

std::string WriteVariant::name() const {
  return kind_name() + " " + std::to_string(ctas_per_sm) + "x" + std::to_string(threads) + " u" +
         std::to_string(unroll);
}

uint64_t WriteVariant::access_bytes() const {
  return kind == StoreKind::kBulk ? uint64_t(threads) * unroll * sizeof(uint4) : sizeof(uint4);
}

size_t WriteVariant::shared_bytes() const {
  return kind == StoreKind::kBulk ? 2 * access_bytes() : 0;  // double-buffered chunks
}

std::vector<WriteVariant> write_variants(bool with_bulk) {
  // (CTAs/SM, threads): 256 to 2048 threads per SM (full occupancy on sm_80/90).
  const std::pair<int, int> shapes[] = {{1, 512}, {1, 1024}, {2, 256}, {2, 512}, {2, 1024},
                                        {4, 256}, {4, 512},  {8, 128}, {8, 256}};
  std::vector<WriteVariant> out;
  for (StoreKind kind : {StoreKind::kPlain, StoreKind::kStreaming})
    for (auto [ctas_per_sm, threads] : shapes)
      for (int unroll : {1, 2, 4, 8}) out.push_back({kind, ctas_per_sm, threads, unroll});
  if (with_bulk) {
    // Chunks of 4..64 KiB; two per CTA in shared memory.
    const std::pair<int, int> bulk_shapes[] = {{1, 512}, {2, 256}, {2, 512}, {4, 256}, {8, 128}};
    for (auto [ctas_per_sm, threads] : bulk_shapes)
      for (int unroll : {2, 4, 8}) out.push_back({StoreKind::kBulk, ctas_per_sm, threads, unroll});
  }
  return out;
}

int variant_max_ctas_per_sm(const WriteVariant& v) {
  const void* k = variant_kernel(v);
  if (v.shared_bytes() > 48 * 1024) {
    int dev = 0, optin = 0;
    XF_CUDA_CHECK(cudaGetDevice(&dev));
    XF_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (v.shared_bytes() > static_cast<size_t>(optin)) return 0;
    XF_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(v.shared_bytes())));
  }
  int n = 0;
  XF_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, v.threads, v.shared_bytes()));
  return n;
}

void launch_link_write_variant(void* dst, uint64_t items, uint32_t seed, const WriteVariant& v,
                               int ctas, const DeviceTrace& trace, cudaStream_t stream) {
  if (v.shared_bytes() > 48 * 1024)
    XF_CUDA_CHECK(cudaFuncSetAttribute(variant_kernel(v),
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(v.shared_bytes())));
  dispatch_unroll<VariantLauncher>(v.unroll, v, static_cast<uint4*>(dst), items, seed, ctas, trace,
                                   stream);
  XF_CUDA_CHECK_LAUNCH();
}

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
