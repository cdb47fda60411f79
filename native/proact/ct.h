// native/proact/ct.h — host side of the X-ray CT workload (pure C++, tested
// without a GPU): the Shepp–Logan phantom and its analytic sinogram, CPU
// projector/back-projector over whole images (ct_math.h per ray and pixel),
// double-precision references with rounding bounds, and the checks the
// workload applies to every verified run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "native/proact/ct_math.h"
#include "native/proact/reference.h"

namespace xferlab::proact::ct {

// Ellipse: one of the phantom's ellipses in unit-disk coordinates (the image
// spans [-1, 1]^2 = n pixels): density rho, semi-axes a, b, centre (x0, y0),
// rotation phi (degrees, counterclockwise).
struct Ellipse {
  double rho, a, b, x0, y0, phi_deg;
};
// shepp_logan: the modified (higher-contrast) Shepp–Logan phantom (Toft 1996,
// as MATLAB's phantom('Modified Shepp-Logan')).
const std::vector<Ellipse>& shepp_logan();

// Geometry tables: theta_v = pi v / views, cos/sin rounded once from double.
void view_trig(const Geometry& g, std::vector<float>& cosv, std::vector<float>& sinv);
// phantom_image: sum of rho over the ellipses that contain each pixel centre.
std::vector<float> phantom_image(uint32_t n);
// analytic_sinogram: the exact line integrals of the phantom's ellipses along
// every ray (in pixel units), computed in double: the measured data b. Not
// A * phantom_image: the reconstruction does not see its own discretization.
std::vector<float> analytic_sinogram(const Geometry& g);

// forward / backproject: A x and A^T y over the whole image / sinogram (CPU).
std::vector<float> forward(const Geometry& g, const std::vector<float>& cosv,
                           const std::vector<float>& sinv, const std::vector<float>& image);
std::vector<float> backproject(const Geometry& g, const std::vector<float>& cosv,
                               const std::vector<float>& sinv, const std::vector<float>& sino);

// Bounded references (reference.h): the exact-arithmetic value of one SIRT
// output, given the same float inputs and interpolation weights, with the
// rounding bound of the float algorithm (any summation order).
Bounded residual_reference(const Geometry& g, float c, float s, uint32_t k, const float* image,
                           float b, float rinv);
Bounded update_reference(const Geometry& g, const float* cosv, const float* sinv, uint32_t ix,
                         uint32_t iy, float x, float cinv, const float* resid);

// check_sirt_iteration: recomputes `ray_samples` rays of the residual
// (resid = R (b - A x_prev)) and `pixel_samples` pixels of the update
// (x_next = x_prev + C A^T resid) on the CPU, with R and C recomputed too;
// every value must be bit-exact or within its bound (FloatCheck).
Result<std::string> check_sirt_iteration(const Geometry& g, const std::vector<float>& cosv,
                                         const std::vector<float>& sinv, const float* b,
                                         const float* x_prev, const float* resid,
                                         const float* x_next, uint64_t ray_samples,
                                         uint64_t pixel_samples, uint64_t seed);

// check_residual_decrease: objective[i] = 1/2 |b - A x_i|_R^2 before iteration
// i; SIRT must decrease it strictly every iteration (needs >= 2 values).
Result<std::string> check_residual_decrease(const std::vector<double>& objective);

// compare_images: max |got - ref| <= rel_tol * max |ref| (the stated tolerance
// for a multi-GPU image against the 1-GPU one).
Result<std::string> compare_images(const float* got, const float* ref, uint64_t count,
                                   double rel_tol);

// relative_error: |x - phantom|_2 / |phantom|_2 (reconstruction quality, reported).
double relative_error(const float* x, const std::vector<float>& phantom);

}  // namespace xferlab::proact::ct
