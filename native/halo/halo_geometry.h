// native/halo/halo_geometry.h — index math shared by host code, CPU reference
// and CUDA kernels of the halo exchange: boxes in a rank's padded field, the
// field layout, message descriptors and the deterministic fill function.
//
// Usable from host C++ and from nvcc (functions are __host__ __device__ there),
// so the CPU unit tests exercise exactly the arithmetic the kernels run.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define XF_HALO_HD __host__ __device__ __forceinline__
#else
#define XF_HALO_HD inline
#endif

namespace xferlab::halo {

// Ghost width of every field (Comb's -ghost 1); the layout code below is
// written for any width, the decomposition checks sizes against it.
inline constexpr int kGhostWidth = 1;
// 27-point pattern: 26 neighbour directions (the centre is not a message).
inline constexpr int kMaxMessages = 26;
// Message offsets in the host buffers are aligned to this many doubles (64 B)
// so that every message starts on its own cache line.
inline constexpr int64_t kMessageAlignDoubles = 8;

// Box: half-open cell range [lo, hi) per axis in a rank's local coordinates;
// owned cells are [0, n), ghost cells [-g, 0) and [n, n + g).
struct Box {
  int lo[3];
  int hi[3];

  XF_HALO_HD int extent(int axis) const { return hi[axis] - lo[axis]; }
  XF_HALO_HD int64_t volume() const {
    return static_cast<int64_t>(extent(0)) * extent(1) * extent(2);
  }
};

// direction_index: 0..26 for (dx, dy, dz) in {-1,0,1}^3, x fastest; 13 is the
// centre. Used as the MPI tag of the message sent towards that direction.
XF_HALO_HD int direction_index(int dx, int dy, int dz) {
  return (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
}

// FieldLayout: `vars` arrays of doubles, each over the padded box
// [-g, n + g)^3, x fastest (Comb allocates one array per variable).
struct FieldLayout {
  int n[3];
  int ghost;
  int vars;

  XF_HALO_HD int64_t padded(int axis) const { return n[axis] + 2 * ghost; }
  XF_HALO_HD int64_t var_stride() const { return padded(0) * padded(1) * padded(2); }
  XF_HALO_HD int64_t total_doubles() const { return var_stride() * vars; }
  // index: element of variable v at local cell (i, j, k) (may be a ghost).
  XF_HALO_HD int64_t index(int v, int i, int j, int k) const {
    return v * var_stride() +
           ((static_cast<int64_t>(k) + ghost) * padded(1) + (j + ghost)) * padded(0) + (i + ghost);
  }
};

// MessageDesc: one logical message as the kernels see it: the box it reads
// (pack) or writes (unpack) and where it lives in the message buffer. The
// buffer holds the box variable by variable, cells x fastest (Comb's layout).
struct MessageDesc {
  Box box;
  int64_t offset_doubles;  ///< start in the buffer (aligned to kMessageAlignDoubles).
  int64_t doubles;         ///< vars * box volume.
};

// MessageTable: all messages of one direction of an exchange (passed to
// kernels by value: 26 * 40 B fits the kernel parameter space).
struct MessageTable {
  int count;
  MessageDesc msg[kMaxMessages];
};

// CellRef: variable and local cell of one message element.
struct CellRef {
  int v, i, j, k;
};

// message_cell: buffer element e of message `m` (variable by variable, cells
// x fastest within the box).
XF_HALO_HD CellRef message_cell(const MessageDesc& m, int64_t e) {
  const int64_t vol = m.box.volume();
  const int v = static_cast<int>(e / vol);
  int64_t r = e - v * vol;
  const int bx = m.box.extent(0);
  const int by = m.box.extent(1);
  const int ix = static_cast<int>(r % bx);
  r /= bx;
  const int iy = static_cast<int>(r % by);
  const int iz = static_cast<int>(r / by);
  return CellRef{v, m.box.lo[0] + ix, m.box.lo[1] + iy, m.box.lo[2] + iz};
}

// message_element: buffer element e of message `m` -> field index. The pack
// kernel copies field[message_element(...)] to buffer[offset + e]; unpack the
// reverse.
XF_HALO_HD int64_t message_element(const FieldLayout& layout, const MessageDesc& m, int64_t e) {
  const CellRef c = message_cell(m, e);
  return layout.index(c.v, c.i, c.j, c.k);
}

// RankOrigin: where a rank's block sits in the periodic global cube, so that
// kernels can compute owner values (fill_value) of any local cell, ghosts too.
struct RankOrigin {
  int64_t origin[3];  ///< global coordinate of local cell 0 per axis.
  int64_t global[3];  ///< global cube extent per axis.
};

// splitmix64 finalizer: a well-mixed 64-bit hash of a 64-bit key.
XF_HALO_HD uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// fill_value: the value the owner of global cell (gx, gy, gz) holds in
// variable `var` at `iteration`. Integers below 2^53, so exact in a double and
// comparable with ==; distinct per cell, variable and iteration with
// overwhelming probability, so a misplaced or stale ghost value is detected.
XF_HALO_HD double fill_value(uint32_t iteration, int var, int64_t gx, int64_t gy, int64_t gz) {
  const uint64_t cell = static_cast<uint64_t>(gx) | (static_cast<uint64_t>(gy) << 21) |
                        (static_cast<uint64_t>(gz) << 42);
  const uint64_t h = mix64(cell ^ mix64((static_cast<uint64_t>(iteration) << 8) | var));
  return static_cast<double>(h >> 11);
}

// wrap: periodic global coordinate.
XF_HALO_HD int64_t wrap(int64_t c, int64_t n) {
  const int64_t r = c % n;
  return r < 0 ? r + n : r;
}

// owner_value: fill_value of local cell (i, j, k) (owned or ghost) of the rank at `o`.
XF_HALO_HD double owner_value(const RankOrigin& o, uint32_t iteration, int v, int i, int j, int k) {
  return fill_value(iteration, v, wrap(o.origin[0] + i, o.global[0]),
                    wrap(o.origin[1] + j, o.global[1]), wrap(o.origin[2] + k, o.global[2]));
}

// Region: which owned cells a compute kernel updates. kBoundary is the shell
// of kGhostWidth cells that pack kernels read; kInterior needs no ghosts of
// the current exchange, so it can overlap with communication (gdasync).
enum class Region : int { kAll = 0, kBoundary = 1, kInterior = 2 };

// region_cells: number of owned cells of an n[0] x n[1] x n[2] block in `region`.
XF_HALO_HD int64_t region_cells(const int n[3], Region region) {
  const int g = kGhostWidth;
  const int64_t all = static_cast<int64_t>(n[0]) * n[1] * n[2];
  const int64_t inner = static_cast<int64_t>(n[0] - 2 * g) * (n[1] - 2 * g) * (n[2] - 2 * g);
  return region == Region::kAll ? all : (region == Region::kInterior ? inner : all - inner);
}

// region_cell: the idx-th cell of `region` (x fastest; the boundary shell is
// enumerated as z slabs, then y slabs, then x slabs, each cell once).
XF_HALO_HD void region_cell(const int n[3], Region region, int64_t idx, int* i, int* j, int* k) {
  const int g = kGhostWidth;
  if (region == Region::kAll) {
    *i = static_cast<int>(idx % n[0]);
    *j = static_cast<int>((idx / n[0]) % n[1]);
    *k = static_cast<int>(idx / (static_cast<int64_t>(n[0]) * n[1]));
    return;
  }
  if (region == Region::kInterior) {
    const int m0 = n[0] - 2 * g, m1 = n[1] - 2 * g;
    *i = g + static_cast<int>(idx % m0);
    *j = g + static_cast<int>((idx / m0) % m1);
    *k = g + static_cast<int>(idx / (static_cast<int64_t>(m0) * m1));
    return;
  }
  const int64_t z_slabs = 2ll * g * n[0] * n[1];
  if (idx < z_slabs) {
    const int kk = static_cast<int>(idx / (static_cast<int64_t>(n[0]) * n[1]));
    *k = kk < g ? kk : n[2] - 2 * g + kk;
    *j = static_cast<int>((idx / n[0]) % n[1]);
    *i = static_cast<int>(idx % n[0]);
    return;
  }
  idx -= z_slabs;
  const int64_t y_slabs = 2ll * g * n[0] * (n[2] - 2 * g);
  if (idx < y_slabs) {
    *i = static_cast<int>(idx % n[0]);
    int64_t r = idx / n[0];
    const int jj = static_cast<int>(r % (2 * g));
    *j = jj < g ? jj : n[1] - 2 * g + jj;
    *k = g + static_cast<int>(r / (2 * g));
    return;
  }
  idx -= y_slabs;
  const int ii = static_cast<int>(idx % (2 * g));
  *i = ii < g ? ii : n[0] - 2 * g + ii;
  int64_t r = idx / (2 * g);
  *j = g + static_cast<int>(r % (n[1] - 2 * g));
  *k = g + static_cast<int>(r / (n[1] - 2 * g));
}

}  // namespace xferlab::halo
