// hw_model/mpi_node.h — MpiNodeConfig: the machine calibration of the
// on-node multi-rank MPI step (preset section [mpi_node]).
//
// What more than 2 ranks on a node add to a halo iteration over what the
// 2-rank traces give is a time of the machine type, not of the lease, and no
// 2-rank constant carries it (docs/halo_sim_log.md, "2 -> 4 ranks, what the
// 4-rank time adds"). It is fitted from 4-rank runs of the machine type
// (tools/halo_x4_calibration.py) as a time per iteration that grows by a
// fixed amount per doubling of a rank's rendezvous payload P (the bytes of
// its messages to other ranks beyond the eager part):
//   step(P) = max(0, step_at_1MiB + step_per_doubling * log2(P / 1 MiB)), 0 at P = 0.
// Both 0 (the default): no calibration, the replay as without it.
#pragma once

#include <span>

#include "common/result.h"
#include "hw_model/param_table.h"

namespace xferlab::hw_model {

struct MpiNodeConfig {
  double step_at_1mib_ns = 0;       ///< added time per iteration at P = 1 MiB.
  double step_per_doubling_ns = 0;  ///< added time per doubling of P.

  // calibrated: whether the preset carries a calibration (either value non-zero).
  bool calibrated() const { return step_at_1mib_ns != 0 || step_per_doubling_ns != 0; }
  // step_ns: the added time per iteration for a rank's rendezvous payload
  // `payload_bytes` per iteration (0 without payload or calibration).
  double step_ns(double payload_bytes) const;

  Status validate() const;
  static std::span<const Param<MpiNodeConfig>> params();
};

}  // namespace xferlab::hw_model
