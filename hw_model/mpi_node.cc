// hw_model/mpi_node.cc — see mpi_node.h.
#include "hw_model/mpi_node.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>

namespace xferlab::hw_model {
namespace {

constexpr double kReferenceBytes = 1024.0 * 1024.0;  ///< P of step_at_1MiB.
constexpr double kMaxStepNs = 1e6;  ///< 1 ms: far above any fitted step (tens of µs).

using M = MpiNodeConfig;
const Param<M> kMpiNodeParams[] = {
    {"step_at_1MiB",
     Unit::kTimeNs,
     "on-node MPI step with more than 2 ranks per node: added time per iteration at 1 MiB "
     "rendezvous payload per rank (0 with step_per_doubling: no calibration)",
     &M::step_at_1mib_ns,
     {0, kMaxStepNs}},
    {"step_per_doubling",
     Unit::kTimeNs,
     "on-node MPI step: added time per doubling of the rendezvous payload per rank",
     &M::step_per_doubling_ns,
     {0, kMaxStepNs}},
};

}  // namespace

std::span<const Param<MpiNodeConfig>> MpiNodeConfig::params() {
  return kMpiNodeParams;
}

double MpiNodeConfig::step_ns(double payload_bytes) const {
  if (!calibrated() || !(payload_bytes > 0)) return 0;
  return std::max(
      0.0, step_at_1mib_ns + step_per_doubling_ns * std::log2(payload_bytes / kReferenceBytes));
}

Status MpiNodeConfig::validate() const {
  for (const Param<M>& p : kMpiNodeParams) {
    const double v = this->*std::get<double M::*>(p.field);
    if (!(std::isfinite(v) && v >= 0 && v <= kMaxStepNs))
      return make_error(std::string("key '") + p.key +
                        "': must be >= 0 and <= " + format_quantity(kMaxStepNs, Unit::kTimeNs));
  }
  return Status::Ok();
}

}  // namespace xferlab::hw_model
