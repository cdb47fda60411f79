// hw_model/transfer_window.h — TransferWindow: how many transfers a sender
// keeps on a link at once. Posted writes (SM stores, DMA packets) are limited
// by the link's flow-control credits, not by waiting for acknowledgements: a
// sender needs a bandwidth-delay product of bytes in flight to keep the link
// busy, and bytes beyond it wait at the sender (in the SMs, the agent, the
// child kernels) without moving any faster. Equations: docs/hw_model.md §6.
#pragma once

#include <cstdint>

namespace xferlab::hw_model {

class TransferWindow {
 public:
  // posted_writes: transfers of `transfer_wire_bytes` each that cover the
  // link's bandwidth-delay product, plus one: 1 + ceil(bw × rtt / bytes).
  // 1 when transfer_wire_bytes <= 0 or the product is 0.
  static int64_t posted_writes(double bw_bytes_per_s, double round_trip_ns,
                               double transfer_wire_bytes);
};

}  // namespace xferlab::hw_model
