// hw_model/hbm_sharing.cc — HBM shared by a kernel and transfers (hbm_sharing.h).
#include "hw_model/hbm_sharing.h"

#include <algorithm>

namespace xferlab::hw_model {
namespace {

bool modelled(const HbmShare& s) {
  return s.peak_bytes_per_s > 0 && s.kernel_bytes > 0 && s.transfer_bytes > 0 &&
         s.attainable_fraction > 0;
}

double attainable(const HbmShare& s) {
  return s.attainable_fraction * s.peak_bytes_per_s;
}

}  // namespace

double shared_kernel_ns(double kernel_ns, const HbmShare& s) {
  if (!modelled(s) || kernel_ns <= 0) return kernel_ns;
  const double all = s.kernel_bytes + s.transfer_bytes;
  if (s.kernel_bytes / (kernel_ns * 1e-9) >= attainable(s)) {
    return kernel_ns * all / s.kernel_bytes;  // at the kernel's own achieved rate
  }
  return std::max(kernel_ns, all / attainable(s) * 1e9);
}

double unshared_kernel_ns(double shared_ns, const HbmShare& s) {
  if (!modelled(s) || shared_ns <= 0) return shared_ns;
  const double all = s.kernel_bytes + s.transfer_bytes;
  // Below (K + X) / attainable only the memory-bound branch reaches shared_ns.
  if (shared_ns < all / attainable(s) * 1e9) return shared_ns * s.kernel_bytes / all;
  return shared_ns;
}

}  // namespace xferlab::hw_model
