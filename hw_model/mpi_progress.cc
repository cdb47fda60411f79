// hw_model/mpi_progress.cc — see mpi_progress.h.
#include "hw_model/mpi_progress.h"

#include <algorithm>

namespace xferlab::hw_model {

double rendezvous_payload_bytes(double bytes, double eager_limit_bytes) {
  return bytes > eager_limit_bytes ? bytes - eager_limit_bytes : 0;
}

double progress_ns_per_byte(double out_bytes, double in_bytes, double latency_ns) {
  const double bytes = out_bytes + in_bytes;
  return bytes > 0 && latency_ns > 0 ? latency_ns / bytes : 0;
}

std::vector<double> processor_shared_finish_ns(const std::vector<double>& payload_bytes,
                                               double ns_per_byte) {
  std::vector<double> out;
  out.reserve(payload_bytes.size());
  for (const double k : payload_bytes) {
    double served = 0;
    for (const double i : payload_bytes) served += std::min(i, k);
    out.push_back(served * ns_per_byte);
  }
  return out;
}

}  // namespace xferlab::hw_model
