// native/proact/ct_math.h — the X-ray CT projector and back-projector (host and
// device), shared by the GPU kernels and the CPU references like
// workload_math.h: same IEEE float operations in the same order (math::f*), so
// the CPU reproduces the GPU bit for bit.
//
// Geometry (parallel beam, 2-D): an n x n image of unit pixels, pixel (ix, iy)
// centred at (ix - h, iy - h), h = (n - 1) / 2, stored row-major (iy * n + ix);
// `views` angles theta_v = pi v / views; `bins` unit detector bins per view,
// bin k at t_k = k - (bins - 1) / 2. Ray (v, k) is the line
// x cos(theta_v) + y sin(theta_v) = t_k; sinogram index v * bins + k.
//
// Projector: Joseph's method (P. M. Joseph, IEEE TMI 1982). A ray whose
// direction is closer to the y axis (|cos| >= |sin|, "row-driven") is sampled
// once per image row: it crosses row iy at column coordinate
// u = (t - y sin) / cos + h, and the row contributes linear interpolation
// between columns floor(u) and floor(u) + 1, weighted 1 / |cos| (path length
// per row); otherwise the roles of rows and columns swap. So
//   A[(v,k), pixel] = weight(u) / |major|,  weight = 1 - frac(u) or frac(u).
// Back-projector: the exact transpose A^T, computed as a gather per pixel (each
// output written once: no atomics, deterministic): for each view, the bins
// whose crossing u on the pixel's row (column) lies within one pixel of it,
// with the weight recomputed by the very same float expression as the forward
// (so A^T uses the same matrix entries; only the summation order differs).
#pragma once

#include <cmath>
#include <cstdint>

#include "native/proact/workload_math.h"

namespace xferlab::proact::ct {

struct Geometry {
  uint32_t n = 0;      ///< image side (pixels).
  uint32_t views = 0;  ///< projection angles over [0, pi).
  uint32_t bins = 0;   ///< detector bins per view.
  XF_HD uint64_t pixels() const { return uint64_t{n} * n; }
  XF_HD uint64_t rays() const { return uint64_t{views} * bins; }
};

// default_bins: enough unit bins to cover the image's diagonal at every angle.
inline uint32_t default_bins(uint32_t n) {
  return static_cast<uint32_t>(std::ceil(n * 1.4142135623730951)) + 2;
}

// center: (m - 1) / 2, exact in float for m < 2^24.
XF_HD float center(uint32_t m) {
  return math::fmul(0.5f, static_cast<float>(m - 1));
}

// floor_int: floor as an int (u is within (-1, n) where it is used).
XF_HD int floor_int(float u) {
  return static_cast<int>(floorf(u));
}

// RayFrame: a view's sampling direction. Row-driven views step over image rows
// (line = iy, position along the line = ix); the others over columns.
struct RayFrame {
  bool row_driven;
  float major;  ///< cos (row-driven) or sin: the divisor of the crossing.
  float minor;  ///< the other one.
};
XF_HD RayFrame frame(float c, float s) {
  const bool rd = fabsf(c) >= fabsf(s);
  return {rd, rd ? c : s, rd ? s : c};
}

// crossing: where ray t crosses image line `along` (its centre coordinate),
// in pixel-index units along the line: (t - along * minor) / major + h.
XF_HD float crossing(const RayFrame& f, float t, float along, float h) {
  return math::fadd(math::fdiv(math::fsub(t, math::fmul(along, f.minor)), f.major), h);
}

// bin_t: the detector coordinate of bin k.
XF_HD float bin_t(const Geometry& g, uint32_t k) {
  return math::fsub(static_cast<float>(k), center(g.bins));
}

// Image accessors: img(row_driven, line, pos) = pixel (pos, line) or (line, pos).
struct ImageRef {
  const float* p;
  uint32_t n;
  XF_HD float operator()(bool rd, uint32_t line, uint32_t pos) const {
    return rd ? p[uint64_t{line} * n + pos] : p[uint64_t{pos} * n + line];
  }
};
struct OnesImage {  // A * 1 = row sums.
  XF_HD float operator()(bool, uint32_t, uint32_t) const { return 1.0f; }
};
struct SinoRef {
  const float* p;
  uint32_t bins;
  XF_HD float operator()(uint32_t v, uint32_t k) const { return p[uint64_t{v} * bins + k]; }
};
struct OnesSino {  // A^T * 1 = column sums.
  XF_HD float operator()(uint32_t, uint32_t) const { return 1.0f; }
};

// ray_sum: (A x)[v, k] for view cosine/sine (c, s).
template <typename Img>
XF_HD float ray_sum(const Geometry& g, float c, float s, uint32_t k, const Img& img) {
  const RayFrame f = frame(c, s);
  const float h = center(g.n), t = bin_t(g, k), top = static_cast<float>(g.n);
  float sum = 0.0f;
  for (uint32_t line = 0; line < g.n; ++line) {
    const float u = crossing(f, t, math::fsub(static_cast<float>(line), h), h);
    if (!(u > -1.0f && u < top)) continue;
    const int i0 = floor_int(u);
    const float w = math::fsub(u, static_cast<float>(i0));  // exact: |u| < 2^23.
    float term = 0.0f;
    if (i0 >= 0) term = math::fmul(math::fsub(1.0f, w), img(f.row_driven, line, i0));
    if (i0 + 1 < static_cast<int>(g.n)) {
      term = math::fadd(term, math::fmul(w, img(f.row_driven, line, i0 + 1)));
    }
    sum = math::fadd(sum, term);
  }
  return math::fdiv(sum, fabsf(f.major));
}

// view_entries: visits the entries A[(v, k), pixel] of one view that can be
// nonzero, k ascending, as visit(k, weight) (A = weight / |major|).
template <typename Visit>
XF_HD void view_entries(const Geometry& g, float c, float s, uint32_t ix, uint32_t iy,
                        const Visit& visit) {
  const RayFrame f = frame(c, s);
  const float h = center(g.n), top = static_cast<float>(g.n);
  const uint32_t line = f.row_driven ? iy : ix;
  const int pos = static_cast<int>(f.row_driven ? ix : iy);
  const float along = math::fsub(static_cast<float>(line), h);
  // Bins whose crossing is within one pixel of pos: u(k) is linear in k with
  // slope 1/major, so k = major (u - h) + along minor + hb for u = pos -/+ 1;
  // widened by one bin on each side (the weights below decide exactly).
  const float base = math::fadd(math::fmul(along, f.minor), center(g.bins));
  const float ka =
      math::fadd(math::fmul(f.major, math::fsub(static_cast<float>(pos - 1), h)), base);
  const float kb =
      math::fadd(math::fmul(f.major, math::fsub(static_cast<float>(pos + 1), h)), base);
  const float lo = floorf(ka < kb ? ka : kb) - 1.0f, hi = ceilf(ka < kb ? kb : ka) + 1.0f;
  const int k0 = lo < 0.0f ? 0 : static_cast<int>(lo);
  const int k1 =
      hi > static_cast<float>(g.bins - 1) ? static_cast<int>(g.bins) - 1 : static_cast<int>(hi);
  for (int k = k0; k <= k1; ++k) {
    const float u = crossing(f, bin_t(g, static_cast<uint32_t>(k)), along, h);
    if (!(u > -1.0f && u < top)) continue;
    const int i0 = floor_int(u);
    const float w = math::fsub(u, static_cast<float>(i0));
    if (i0 == pos) {
      visit(static_cast<uint32_t>(k), math::fsub(1.0f, w));
    } else if (i0 + 1 == pos) {
      visit(static_cast<uint32_t>(k), w);
    }
  }
}

// pixel_backproject: (A^T r)[pixel (ix, iy)]; views in order, per view the bins
// ascending, divided by |major| once per view.
template <typename Sino>
XF_HD float pixel_backproject(const Geometry& g, const float* cosv, const float* sinv, uint32_t ix,
                              uint32_t iy, const Sino& r) {
  float total = 0.0f;
  for (uint32_t v = 0; v < g.views; ++v) {
    float acc = 0.0f;
    view_entries(g, cosv[v], sinv[v], ix, iy,
                 [&](uint32_t k, float w) { acc = math::fadd(acc, math::fmul(w, r(v, k))); });
    total = math::fadd(total, math::fdiv(acc, fabsf(frame(cosv[v], sinv[v]).major)));
  }
  return total;
}

// inverse_or_zero: 1/x, or 0 for rays that miss the image / pixels no ray sees.
XF_HD float inverse_or_zero(float x) {
  return x > 0.0f ? math::fdiv(1.0f, x) : 0.0f;
}

// SIRT (Gilbert 1972; Gregor & Benson, IEEE TMI 2008): with R = diag(1/row
// sums), C = diag(1/column sums), x+ = x + C A^T R (b - A x) is a gradient
// step on f(x) = 1/2 |b - A x|_R^2 whose step never exceeds 1/L in the C
// metric (|C^1/2 A^T R A C^1/2| <= 1), so f decreases every iteration.
// residual_entry: R (b - A x) for one ray (what the forward step stores).
XF_HD float residual_entry(float b, float ax, float rinv) {
  return math::fmul(math::fsub(b, ax), rinv);
}
// sirt_update: x + C A^T r for one pixel.
XF_HD float sirt_update(float x, float cinv, float backprojected) {
  return math::fadd(x, math::fmul(cinv, backprojected));
}

}  // namespace xferlab::proact::ct
