// native/gdasync/gdasync_variants.h — the GPUDirect Async variants of the
// halo/box exchange, in HPGMG-FV's order (boundary compute, pack, send,
// interior compute, wait, unpack):
//   host: HPGMG's original: Irecv; pack; synchronize; Isend; interior
//         compute; Waitall; unpack; synchronize (host-driven baseline);
//   sa:   stream-async: everything enqueued on one stream; doorbells by
//         stream write-value, completion by stream wait-value; no device sync;
//   ki:   kernel-initiated: one kernel per iteration with receiver / sender /
//         unpacker CTAs, doorbells and completion polling in device code.
// sa and ki talk to a NicProxy thread that emulates the NIC.
#pragma once

#include <vector>

#include "native/halo/halo_context.h"

namespace xferlab::gdasync {

std::vector<xferlab::halo::Variant> gdasync_variants();

}  // namespace xferlab::gdasync
