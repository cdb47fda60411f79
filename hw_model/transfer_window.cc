// hw_model/transfer_window.cc — TransferWindow (docs/hw_model.md §6).
#include "hw_model/transfer_window.h"

#include <algorithm>
#include <cmath>

namespace xferlab::hw_model {

namespace {
constexpr double kNsPerS = 1e9;
}  // namespace

int64_t TransferWindow::posted_writes(double bw_bytes_per_s, double round_trip_ns,
                                      double transfer_wire_bytes) {
  if (!(transfer_wire_bytes > 0)) return 1;
  const double bdp_bytes = std::max(0.0, bw_bytes_per_s * round_trip_ns / kNsPerS);
  return 1 + static_cast<int64_t>(std::ceil(bdp_bytes / transfer_wire_bytes));
}

}  // namespace xferlab::hw_model
