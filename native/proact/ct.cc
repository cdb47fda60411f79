// native/proact/ct.cc — see ct.h.
#include "native/proact/ct.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace xferlab::proact::ct {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

const std::vector<Ellipse>& shepp_logan() {
  static const std::vector<Ellipse> e = {
      {1.0, .69, .92, 0, 0, 0},         {-.8, .6624, .8740, 0, -.0184, 0},
      {-.2, .1100, .3100, .22, 0, -18}, {-.2, .1600, .4100, -.22, 0, 18},
      {.1, .2100, .2500, 0, .35, 0},    {.1, .0460, .0460, 0, .1, 0},
      {.1, .0460, .0460, 0, -.1, 0},    {.1, .0460, .0230, -.08, -.605, 0},
      {.1, .0230, .0230, 0, -.606, 0},  {.1, .0230, .0460, .06, -.605, 0}};
  return e;
}

void view_trig(const Geometry& g, std::vector<float>& cosv, std::vector<float>& sinv) {
  cosv.resize(g.views);
  sinv.resize(g.views);
  for (uint32_t v = 0; v < g.views; ++v) {
    const double th = kPi * v / g.views;
    cosv[v] = static_cast<float>(std::cos(th));
    sinv[v] = static_cast<float>(std::sin(th));
  }
}

std::vector<float> phantom_image(uint32_t n) {
  std::vector<float> img(uint64_t{n} * n, 0.0f);
  const double h = (n - 1) / 2.0, scale = n / 2.0;
  for (const Ellipse& e : shepp_logan()) {
    const double ca = std::cos(e.phi_deg * kPi / 180), sa = std::sin(e.phi_deg * kPi / 180);
    for (uint32_t iy = 0; iy < n; ++iy) {
      for (uint32_t ix = 0; ix < n; ++ix) {
        const double dx = (ix - h) / scale - e.x0, dy = (iy - h) / scale - e.y0;
        const double p = (dx * ca + dy * sa) / e.a, q = (-dx * sa + dy * ca) / e.b;
        if (p * p + q * q <= 1.0) img[uint64_t{iy} * n + ix] += static_cast<float>(e.rho);
      }
    }
  }
  return img;
}

std::vector<float> analytic_sinogram(const Geometry& g) {
  std::vector<float> sino(g.rays(), 0.0f);
  const double scale = g.n / 2.0, hb = (g.bins - 1) / 2.0;
  for (uint32_t v = 0; v < g.views; ++v) {
    const double th = kPi * v / g.views;
    for (uint32_t k = 0; k < g.bins; ++k) {
      const double t = k - hb;
      double sum = 0;
      for (const Ellipse& e : shepp_logan()) {
        // Chord of an ellipse with semi-axes A, B rotated by alpha, at distance
        // tau from its centre: 2AB sqrt(s^2 - tau^2) / s^2, s^2 = A^2 cos^2(th -
        // alpha) + B^2 sin^2(th - alpha) (Kak & Slaney, ch. 3).
        const double A = e.a * scale, B = e.b * scale, al = e.phi_deg * kPi / 180;
        const double tau = t - scale * (e.x0 * std::cos(th) + e.y0 * std::sin(th));
        const double s2 =
            A * A * std::pow(std::cos(th - al), 2) + B * B * std::pow(std::sin(th - al), 2);
        if (tau * tau < s2) sum += e.rho * 2 * A * B * std::sqrt(s2 - tau * tau) / s2;
      }
      sino[uint64_t{v} * g.bins + k] = static_cast<float>(sum);
    }
  }
  return sino;
}

std::vector<float> forward(const Geometry& g, const std::vector<float>& cosv,
                           const std::vector<float>& sinv, const std::vector<float>& image) {
  std::vector<float> out(g.rays());
  const ImageRef img{image.data(), g.n};
  for (uint32_t v = 0; v < g.views; ++v) {
    for (uint32_t k = 0; k < g.bins; ++k) {
      out[uint64_t{v} * g.bins + k] = ray_sum(g, cosv[v], sinv[v], k, img);
    }
  }
  return out;
}

std::vector<float> backproject(const Geometry& g, const std::vector<float>& cosv,
                               const std::vector<float>& sinv, const std::vector<float>& sino) {
  std::vector<float> out(g.pixels());
  const SinoRef r{sino.data(), g.bins};
  for (uint32_t iy = 0; iy < g.n; ++iy) {
    for (uint32_t ix = 0; ix < g.n; ++ix) {
      out[uint64_t{iy} * g.n + ix] = pixel_backproject(g, cosv.data(), sinv.data(), ix, iy, r);
    }
  }
  return out;
}

Bounded residual_reference(const Geometry& g, float c, float s, uint32_t k, const float* image,
                           float b, float rinv) {
  // p = sum over n lines of (w0 a + w1 b), / |major|: each term has <= 2
  // roundings, the sum n - 1, the division 1, b - p and * rinv one each:
  // |fl - exact| <= gamma_{n+6} (|b| + M / |major|) rinv, M = sum |w a| + |w b|
  // (the weights are the float ones both sides compute identically).
  const RayFrame f = frame(c, s);
  const float h = center(g.n), t = bin_t(g, k), top = static_cast<float>(g.n);
  double sum = 0, mag = 0;
  for (uint32_t line = 0; line < g.n; ++line) {
    const float u = crossing(f, t, math::fsub(static_cast<float>(line), h), h);
    if (!(u > -1.0f && u < top)) continue;
    const int i0 = floor_int(u);
    const double w = static_cast<double>(u) - i0;
    const ImageRef img{image, g.n};
    if (i0 >= 0) {
      const double term = (1.0 - w) * img(f.row_driven, line, i0);
      sum += term;
      mag += std::fabs(term);
    }
    if (i0 + 1 < static_cast<int>(g.n)) {
      const double term = w * img(f.row_driven, line, i0 + 1);
      sum += term;
      mag += std::fabs(term);
    }
  }
  const double major = std::fabs(static_cast<double>(f.major));
  Bounded r;
  r.value = (b - sum / major) * rinv;
  r.bound = float_gamma(g.n + 6) * (std::fabs(static_cast<double>(b)) + mag / major) * rinv;
  return r;
}

Bounded update_reference(const Geometry& g, const float* cosv, const float* sinv, uint32_t ix,
                         uint32_t iy, float x, float cinv, const float* resid) {
  // Per view <= T_v products summed, one division; V view sums; then * cinv
  // and + x: |fl - exact| <= gamma_{T+V+4} (cinv S + |x| + |x_new|), T = all
  // visited entries, S = sum |w r| / |major|.
  double total = 0, mag = 0;
  uint64_t terms = 0;
  for (uint32_t v = 0; v < g.views; ++v) {
    const double major = std::fabs(static_cast<double>(frame(cosv[v], sinv[v]).major));
    view_entries(g, cosv[v], sinv[v], ix, iy, [&](uint32_t k, float w) {
      const double t = static_cast<double>(w) * resid[uint64_t{v} * g.bins + k] / major;
      total += t;
      mag += std::fabs(t);
      ++terms;
    });
  }
  Bounded r;
  r.value = x + static_cast<double>(cinv) * total;
  r.bound = float_gamma(terms + g.views + 4) *
            (cinv * mag + std::fabs(static_cast<double>(x)) + std::fabs(r.value));
  return r;
}

Result<std::string> check_sirt_iteration(const Geometry& g, const std::vector<float>& cosv,
                                         const std::vector<float>& sinv, const float* b,
                                         const float* x_prev, const float* resid,
                                         const float* x_next, uint64_t ray_samples,
                                         uint64_t pixel_samples, uint64_t seed) {
  auto sample = [&](uint64_t n, uint64_t count, uint64_t salt) {
    std::vector<uint64_t> out;
    if (n <= count) {
      for (uint64_t i = 0; i < n; ++i) out.push_back(i);
      return out;
    }
    out = {0, n - 1, n / 2};
    while (out.size() < count) out.push_back(math::splitmix64(seed ^ salt ^ out.size()) % n);
    return out;
  };
  const ImageRef prev{x_prev, g.n};
  FloatCheck rays;
  for (uint64_t i : sample(g.rays(), ray_samples, 0x5ab0)) {
    const uint32_t v = static_cast<uint32_t>(i / g.bins), k = static_cast<uint32_t>(i % g.bins);
    const float rinv = inverse_or_zero(ray_sum(g, cosv[v], sinv[v], k, OnesImage{}));
    const float same = residual_entry(b[i], ray_sum(g, cosv[v], sinv[v], k, prev), rinv);
    rays.add(i, resid[i], same, residual_reference(g, cosv[v], sinv[v], k, x_prev, b[i], rinv));
  }
  Result<std::string> rr = rays.result("xray_ct residual", rays.values());
  if (!rr.ok()) return rr.error();
  const SinoRef r{resid, g.bins};
  FloatCheck pixels;
  for (uint64_t j : sample(g.pixels(), pixel_samples, 0x91c5)) {
    const uint32_t ix = static_cast<uint32_t>(j % g.n), iy = static_cast<uint32_t>(j / g.n);
    const float cinv =
        inverse_or_zero(pixel_backproject(g, cosv.data(), sinv.data(), ix, iy, OnesSino{}));
    const float same =
        sirt_update(x_prev[j], cinv, pixel_backproject(g, cosv.data(), sinv.data(), ix, iy, r));
    pixels.add(j, x_next[j], same,
               update_reference(g, cosv.data(), sinv.data(), ix, iy, x_prev[j], cinv, resid));
  }
  Result<std::string> pr = pixels.result("xray_ct image", pixels.values());
  if (!pr.ok()) return pr.error();
  return "residual rays: " + *rr + "; image pixels: " + *pr;
}

Result<std::string> check_residual_decrease(const std::vector<double>& f) {
  if (f.size() < 2) {
    return make_runtime_error("xray_ct: the residual decrease needs at least 2 iterations");
  }
  for (size_t i = 0; i < f.size(); ++i) {
    if (!std::isfinite(f[i])) {
      return make_runtime_error("xray_ct: residual before iteration " + std::to_string(i) +
                                " is not finite");
    }
    if (i > 0 && !(f[i] < f[i - 1])) {
      return make_runtime_error("xray_ct: residual did not decrease at iteration " +
                                std::to_string(i) + ": " + sci(f[i - 1]) + " -> " + sci(f[i]));
    }
  }
  return "data-fit |b-Ax|_R^2/2 " + sci(f.front()) + " -> " + sci(f.back()) +
         " (decreasing in all " + std::to_string(f.size()) + " iterations)";
}

Result<std::string> compare_images(const float* got, const float* ref, uint64_t count,
                                   double rel_tol) {
  double max_ref = 0, max_diff = 0;
  uint64_t worst = 0, identical = 0;
  for (uint64_t i = 0; i < count; ++i) {
    max_ref = std::max(max_ref, std::fabs(static_cast<double>(ref[i])));
    const double d = std::fabs(static_cast<double>(got[i]) - ref[i]);
    identical += got[i] == ref[i];
    if (!(d <= max_diff)) {  // NaN counts as worst.
      max_diff = std::isnan(d) ? INFINITY : d;
      worst = i;
    }
  }
  const double tol = rel_tol * max_ref;
  const std::string what = "max |diff| to the 1-GPU image " + sci(max_diff) + " (tol " +
                           sci(rel_tol) + " x max|x| = " + sci(tol) + "; " +
                           std::to_string(identical) + "/" + std::to_string(count) + " identical)";
  if (!(max_diff <= tol)) {
    return make_runtime_error("xray_ct: image differs from the 1-GPU image at pixel " +
                              std::to_string(worst) + ": " + what);
  }
  return what;
}

double relative_error(const float* x, const std::vector<float>& phantom) {
  double num = 0, den = 0;
  for (size_t i = 0; i < phantom.size(); ++i) {
    const double d = static_cast<double>(x[i]) - phantom[i];
    num += d * d;
    den += static_cast<double>(phantom[i]) * phantom[i];
  }
  return den > 0 ? std::sqrt(num / den) : 0;
}

}  // namespace xferlab::proact::ct
