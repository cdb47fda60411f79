// native/proact/ct_test.cc — the X-ray CT projector pair and checks on the CPU:
// A^T is exactly the transpose of A, <Ax, y> = <x, A^T y>, the projector
// agrees with an independent double-precision Joseph implementation and with
// the analytic sinogram of the phantom, SIRT decreases its objective, the
// partitioned back-projection equals the whole one, and the checks catch
// stale or wrong data.
#include "native/proact/ct.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "native/proact/chunk_map.h"
#include "native/proact/workload_math.h"

namespace xferlab::proact::ct {
namespace {

struct CtCase {
  Geometry g;
  std::vector<float> c, s;
  explicit CtCase(uint32_t n, uint32_t views) : g{n, views, default_bins(n)} { view_trig(g, c, s); }
};

std::vector<float> random_vector(uint64_t n, uint64_t seed) {
  std::vector<float> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = math::unit_float(math::splitmix64(seed + i)) - 0.3f;
  return v;
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += static_cast<double>(a[i]) * b[i];
  return s;
}

// Joseph's projector written independently, in double, from the geometry
// definition (ct_math.h file comment): used to check the float one.
double joseph_double(uint32_t n, uint32_t bins, double theta, uint32_t k,
                     const std::vector<float>& img) {
  const double c = std::cos(theta), s = std::sin(theta), h = (n - 1) / 2.0;
  const double t = k - (bins - 1) / 2.0;
  double sum = 0;
  if (std::fabs(c) >= std::fabs(s)) {
    for (uint32_t iy = 0; iy < n; ++iy) {
      const double x = (t - (iy - h) * s) / c + h;  // column coordinate on row iy.
      const double f = std::floor(x);
      for (int d = 0; d < 2; ++d) {
        const long ix = static_cast<long>(f) + d;
        const double w = d == 0 ? 1 - (x - f) : x - f;
        if (ix >= 0 && ix < static_cast<long>(n)) sum += w * img[iy * n + ix];
      }
    }
    return sum / std::fabs(c);
  }
  for (uint32_t ix = 0; ix < n; ++ix) {
    const double y = (t - (ix - h) * c) / s + h;
    const double f = std::floor(y);
    for (int d = 0; d < 2; ++d) {
      const long iy = static_cast<long>(f) + d;
      const double w = d == 0 ? 1 - (y - f) : y - f;
      if (iy >= 0 && iy < static_cast<long>(n)) sum += w * img[iy * n + ix];
    }
  }
  return sum / std::fabs(s);
}

TEST(Ct, BackProjectorIsExactlyTheTransposeOfTheProjector) {
  // Column j of A (project e_j) against row j of A^T (back-project e_i):
  // every entry is a single product, so they must be equal bit for bit.
  CtCase st(12, 10);
  const Geometry& g = st.g;
  std::vector<float> a(g.rays() * g.pixels()), at(g.rays() * g.pixels());
  std::vector<float> e(g.pixels(), 0.0f);
  for (uint64_t j = 0; j < g.pixels(); ++j) {
    e[j] = 1.0f;
    const std::vector<float> col = forward(g, st.c, st.s, e);
    for (uint64_t i = 0; i < g.rays(); ++i) a[i * g.pixels() + j] = col[i];
    e[j] = 0.0f;
  }
  std::vector<float> y(g.rays(), 0.0f);
  uint64_t nonzero = 0;
  for (uint64_t i = 0; i < g.rays(); ++i) {
    y[i] = 1.0f;
    const std::vector<float> row = backproject(g, st.c, st.s, y);
    for (uint64_t j = 0; j < g.pixels(); ++j) at[i * g.pixels() + j] = row[j];
    y[i] = 0.0f;
  }
  for (uint64_t x = 0; x < a.size(); ++x) {
    ASSERT_EQ(a[x], at[x]) << "ray " << x / g.pixels() << " pixel " << x % g.pixels();
    nonzero += a[x] != 0.0f;
  }
  // Each ray crosses the 12 lines with <= 2 weights each: a sparse, nonempty matrix.
  EXPECT_GT(nonzero, g.rays());
  EXPECT_LT(nonzero, 2 * g.n * g.rays());
}

TEST(Ct, AdjointnessHolds) {
  CtCase st(64, 48);
  const std::vector<float> x = random_vector(st.g.pixels(), 1), y = random_vector(st.g.rays(), 2);
  const double lhs = dot(forward(st.g, st.c, st.s, x), y);
  const double rhs = dot(x, backproject(st.g, st.c, st.s, y));
  EXPECT_NEAR(lhs, rhs, 1e-5 * std::fabs(lhs));
  // A non-adjoint pair (back-projecting a shifted sinogram) is far off.
  std::vector<float> shifted(y.begin() + 1, y.end());
  shifted.push_back(0.0f);
  EXPECT_GT(std::fabs(dot(x, backproject(st.g, st.c, st.s, shifted)) - lhs), 1e-3 * std::fabs(lhs));
}

TEST(Ct, ProjectorMatchesAnIndependentDoubleReference) {
  CtCase st(48, 37);  // odd view count: angles near 45 degrees on both sides.
  const std::vector<float> img = random_vector(st.g.pixels(), 9);
  const std::vector<float> p = forward(st.g, st.c, st.s, img);
  double worst = 0;
  for (uint32_t v = 0; v < st.g.views; ++v) {
    for (uint32_t k = 0; k < st.g.bins; ++k) {
      const double want =
          joseph_double(st.g.n, st.g.bins, 3.14159265358979323846 * v / st.g.views, k, img);
      worst = std::max(worst, std::fabs(p[v * st.g.bins + k] - want));
    }
  }
  EXPECT_LT(worst, 1e-3);  // float rounding of ~100 terms and of the angles.
}

TEST(Ct, ProjectedPhantomMatchesItsAnalyticSinogram) {
  // Orientation and scaling of the geometry: A * (pixelized phantom) vs the
  // exact line integrals; they differ only by the discretization.
  CtCase st(128, 60);
  const std::vector<float> p = forward(st.g, st.c, st.s, phantom_image(st.g.n));
  const std::vector<float> b = analytic_sinogram(st.g);
  double num = 0, den = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    num += (p[i] - b[i]) * static_cast<double>(p[i] - b[i]);
    den += static_cast<double>(b[i]) * b[i];
  }
  const double right = std::sqrt(num / den);
  EXPECT_LT(right, 0.05);  // 3.2 %: pixel-centre sampling of the sharp edges.
  // Transposed image (x and y swapped): the phantom is not symmetric, so the
  // same comparison fails clearly.
  std::vector<float> img = phantom_image(st.g.n), tr(img.size());
  for (uint32_t y = 0; y < st.g.n; ++y)
    for (uint32_t x = 0; x < st.g.n; ++x) tr[x * st.g.n + y] = img[y * st.g.n + x];
  const std::vector<float> q = forward(st.g, st.c, st.s, tr);
  num = 0;
  for (size_t i = 0; i < b.size(); ++i) num += (q[i] - b[i]) * static_cast<double>(q[i] - b[i]);
  EXPECT_GT(std::sqrt(num / den), 3 * right) << "right orientation: " << right;
}

// One SIRT iteration on the CPU as the GPU performs it (ct_math.h per element).
struct Sirt {
  CtCase st;
  std::vector<float> b, rinv, cinv;
  explicit Sirt(uint32_t n, uint32_t views) : st(n, views), b(analytic_sinogram(st.g)) {
    const Geometry& g = st.g;
    for (uint32_t v = 0; v < g.views; ++v)
      for (uint32_t k = 0; k < g.bins; ++k)
        rinv.push_back(inverse_or_zero(ray_sum(g, st.c[v], st.s[v], k, OnesImage{})));
    for (uint32_t iy = 0; iy < g.n; ++iy)
      for (uint32_t ix = 0; ix < g.n; ++ix)
        cinv.push_back(
            inverse_or_zero(pixel_backproject(g, st.c.data(), st.s.data(), ix, iy, OnesSino{})));
  }
  // step: residual of x, then the update; returns 1/2 |b - A x|_R^2.
  double step(const std::vector<float>& x, std::vector<float>& resid, std::vector<float>& next,
              uint64_t pixel_begin = 0, uint64_t pixel_end = UINT64_MAX) const {
    const Geometry& g = st.g;
    const std::vector<float> ax = forward(g, st.c, st.s, x);
    resid.resize(g.rays());
    double f = 0;
    for (uint64_t i = 0; i < g.rays(); ++i) {
      resid[i] = residual_entry(b[i], ax[i], rinv[i]);
      f +=
          0.5 * (static_cast<double>(b[i]) - ax[i]) * (static_cast<double>(b[i]) - ax[i]) * rinv[i];
    }
    next.resize(g.pixels());
    const SinoRef r{resid.data(), g.bins};
    for (uint64_t j = pixel_begin; j < std::min<uint64_t>(pixel_end, g.pixels()); ++j) {
      next[j] = sirt_update(x[j], cinv[j],
                            pixel_backproject(g, st.c.data(), st.s.data(), j % g.n, j / g.n, r));
    }
    return f;
  }
};

TEST(Ct, SirtDecreasesItsObjectiveAndApproachesThePhantom) {
  Sirt s(48, 72);
  std::vector<float> x(s.st.g.pixels(), 0.0f), resid, next;
  std::vector<double> objective;
  const std::vector<float> phantom = phantom_image(s.st.g.n);
  double err0 = relative_error(x.data(), phantom);
  for (int it = 0; it < 12; ++it) {
    objective.push_back(s.step(x, resid, next));
    x.swap(next);
  }
  Result<std::string> r = check_residual_decrease(objective);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LT(objective.back(), 0.1 * objective.front());
  EXPECT_LT(relative_error(x.data(), phantom), 0.7 * err0);  // SIRT converges slowly.
}

TEST(Ct, PartitionedBackProjectionEqualsTheWholeOne) {
  // The runner's split (whole chunks per GPU) of the image among 1..4 GPUs:
  // the parts cover every pixel once and assemble the 1-GPU result bit for bit.
  Sirt s(40, 30);
  const Geometry& g = s.st.g;
  const std::vector<float> x = random_vector(g.pixels(), 4);
  std::vector<float> resid, whole, part;
  s.step(x, resid, whole);
  for (size_t gpus = 1; gpus <= 4; ++gpus) {
    const uint64_t chunk = 1024, region = (g.pixels() * 4 + chunk - 1) / chunk * chunk;
    const std::vector<RowRange> parts = partition_rows(region, chunk, g.pixels() * 4, 4, gpus);
    std::vector<float> assembled(g.pixels(), NAN);
    uint64_t covered = 0;
    for (const RowRange& p : parts) {
      s.step(x, resid, part, p.begin, p.end);
      for (uint64_t j = p.begin; j < p.end; ++j) assembled[j] = part[j];
      covered += p.end - p.begin;
    }
    EXPECT_EQ(covered, g.pixels());
    EXPECT_EQ(0, std::memcmp(assembled.data(), whole.data(), whole.size() * 4)) << gpus << " GPUs";
  }
}

TEST(Ct, IterationCheckAcceptsTheRightStepAndRejectsWrongOnes) {
  Sirt s(32, 40);
  const Geometry& g = s.st.g;
  std::vector<float> x0(g.pixels(), 0.0f), r0, x1, r1, x2;
  s.step(x0, r0, x1);
  s.step(x1, r1, x2);
  auto check = [&](const std::vector<float>& prev, const std::vector<float>& resid,
                   const std::vector<float>& next) {
    return check_sirt_iteration(g, s.st.c, s.st.s, s.b.data(), prev.data(), resid.data(),
                                next.data(), 1 << 20, 1 << 20, 1);
  };
  Result<std::string> ok = check(x1, r1, x2);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_NE(ok->find("bit-exact"), std::string::npos);
  EXPECT_FALSE(check(x1, r0, x2).ok());  // stale residual (previous iteration's).
  EXPECT_FALSE(check(x1, r1, x1).ok());  // image not updated.
  std::vector<float> bad = x2;
  bad[g.pixels() / 2 + 7] *= 1.001f;  // one pixel off by 0.1 %.
  EXPECT_FALSE(check(x1, r1, bad).ok());
  // A last-bit difference (as an FMA could make) stays within the bound.
  std::vector<float> ulp = x2;
  ulp[g.pixels() / 2 + 7] = std::nextafter(ulp[g.pixels() / 2 + 7], 1e9f);
  Result<std::string> near = check(x1, r1, ulp);
  EXPECT_TRUE(near.ok()) << near.error().message;
}

TEST(Ct, ResidualAndImageComparisons) {
  EXPECT_TRUE(check_residual_decrease({5, 4, 3.5}).ok());
  EXPECT_FALSE(check_residual_decrease({5, 4, 4}).ok());
  EXPECT_FALSE(check_residual_decrease({5, 6, 3}).ok());
  EXPECT_FALSE(check_residual_decrease({5, NAN}).ok());
  EXPECT_FALSE(check_residual_decrease({5}).ok());
  const std::vector<float> ref = {1, 2, 4, -8};
  std::vector<float> got = ref;
  Result<std::string> same = compare_images(got.data(), ref.data(), 4, 1e-6);
  ASSERT_TRUE(same.ok());
  EXPECT_NE(same->find("4/4 identical"), std::string::npos);
  got[1] += 4e-6f;  // 5e-7 of max |x| = 8.
  EXPECT_TRUE(compare_images(got.data(), ref.data(), 4, 1e-6).ok());
  got[1] += 1e-4f;
  EXPECT_FALSE(compare_images(got.data(), ref.data(), 4, 1e-6).ok());
  got = ref;
  got[3] = NAN;
  EXPECT_FALSE(compare_images(got.data(), ref.data(), 4, 1e-6).ok());
}

}  // namespace
}  // namespace xferlab::proact::ct
