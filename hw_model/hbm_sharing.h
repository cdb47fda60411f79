// hw_model/hbm_sharing.h — a producer kernel and the transfer traffic that
// crosses the same GPU's HBM while it runs (an agent's or DMA engine's reads
// of the kernel's output, peers' writes into this GPU) share its bandwidth.
// Roofline, first principles: the kernel moves `kernel_bytes` of HBM traffic
// in `kernel_ns`; a kernel at or beyond the attainable bandwidth
// (attainable_fraction × peak, the memory-bound side of the ridge) moves the
// transfer bytes at its own achieved rate, so it takes (kernel + transfer
// bytes) / achieved rate; a kernel below it has headroom and is slowed only
// once all bytes need more than the attainable bandwidth. Peak bandwidth:
// [gpu] memory_bw (the datasheet); nothing here is fitted.
#pragma once

namespace xferlab::hw_model {

// kAttainableHbmFraction: the fraction of peak HBM bandwidth a streaming
// kernel reaches; a kernel at or above it is memory-bound (the roofline's
// ridge; sim/workload_model.h classifies kernels with it).
inline constexpr double kAttainableHbmFraction = 0.5;

// HbmShare: one kernel's HBM traffic and the GPU's bandwidth.
struct HbmShare {
  double kernel_bytes = 0;      ///< HBM bytes the kernel itself moves.
  double transfer_bytes = 0;    ///< transfer bytes crossing HBM while it runs.
  double peak_bytes_per_s = 0;  ///< the GPU's HBM bandwidth; 0 = not modelled.
  double attainable_fraction =
      kAttainableHbmFraction;  ///< of peak, what a streaming kernel reaches.
};

// shared_kernel_ns: the kernel's time with the transfer traffic, from its
// time without: T(1 + X/K) when K/T >= attainable, else max(T, (K + X) /
// attainable). Non-decreasing in T; unchanged without transfer bytes.
double shared_kernel_ns(double kernel_ns, const HbmShare& s);

// unshared_kernel_ns: the inverse (the time without the transfer traffic of
// a kernel measured with it): shared_kernel_ns(unshared_kernel_ns(t)) == t.
double unshared_kernel_ns(double shared_ns, const HbmShare& s);

}  // namespace xferlab::hw_model
