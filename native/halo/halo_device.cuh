// native/halo/halo_device.cuh — device functions shared by the halo kernels
// and the gdasync kernel-initiated kernel: strided pack/unpack of one message
// and the 27-point stencil update of one cell.
#pragma once

#include <cstdint>

#include "native/halo/halo_geometry.h"

namespace xferlab::halo {

// kCopyBatch: elements each thread loads before it stores any. The buffers
// are pinned host memory, so an unpack load is a PCIe read (~1 us); with one
// load in flight per thread (the store of element e may alias the load of
// e + stride, so the compiler cannot overlap them) a 60 kB message took ~30
// serialized round trips. Loading a batch first keeps kCopyBatch in flight.
inline constexpr int kCopyBatch = 8;

// copy_range: elements begin, begin + stride, ... of message m; kPack copies
// field -> buffer, else buffer -> field. Consecutive threads take consecutive
// elements (coalesced on the buffer side).
template <bool kPack>
__device__ __forceinline__ void copy_range(const MessageDesc& m, const FieldLayout& layout,
                                           const double* src, double* dst, int64_t begin,
                                           int64_t stride) {
  for (int64_t base = begin; base < m.doubles; base += stride * kCopyBatch) {
    double v[kCopyBatch];
#pragma unroll
    for (int u = 0; u < kCopyBatch; ++u) {
      const int64_t e = base + u * stride;
      if (e < m.doubles)
        v[u] = kPack ? src[message_element(layout, m, e)] : src[m.offset_doubles + e];
    }
#pragma unroll
    for (int u = 0; u < kCopyBatch; ++u) {
      const int64_t e = base + u * stride;
      if (e < m.doubles) {
        if (kPack) {
          dst[m.offset_doubles + e] = v[u];
        } else {
          dst[message_element(layout, m, e)] = v[u];
        }
      }
    }
  }
}

// pack_range / unpack_range: elements begin, begin + stride, ... of message m
// between the field and its place in the buffer.
__device__ __forceinline__ void pack_range(const MessageDesc& m, const FieldLayout& layout,
                                           const double* field, double* buffer, int64_t begin,
                                           int64_t stride) {
  copy_range<true>(m, layout, field, buffer, begin, stride);
}

__device__ __forceinline__ void unpack_range(const MessageDesc& m, const FieldLayout& layout,
                                             const double* buffer, double* field, int64_t begin,
                                             int64_t stride) {
  copy_range<false>(m, layout, buffer, field, begin, stride);
}

// compute_cell: the application update of the c-th cell of `region`: result =
// 27-point average of `in` (needs in's ghosts), next = owner_value(iteration)
// (what the next exchange sends and verifies).
__device__ __forceinline__ void compute_cell(const FieldLayout& layout, const RankOrigin& origin,
                                             Region region, int64_t c,
                                             const double* __restrict__ in,
                                             double* __restrict__ result, double* __restrict__ next,
                                             uint32_t iteration) {
  const int n[3] = {layout.n[0], layout.n[1], layout.n[2]};
  const int64_t sy = layout.padded(0), sz = layout.padded(0) * layout.padded(1);
  int i, j, k;
  region_cell(n, region, c, &i, &j, &k);
  for (int v = 0; v < layout.vars; ++v) {
    const int64_t at = layout.index(v, i, j, k);
    double sum = 0;
#pragma unroll
    for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
      for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx) sum += in[at + dz * sz + dy * sy + dx];
    result[at] = sum * (1.0 / 27.0);
    next[at] = owner_value(origin, iteration, v, i, j, k);
  }
}

}  // namespace xferlab::halo
