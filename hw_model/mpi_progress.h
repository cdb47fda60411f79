// hw_model/mpi_progress.h — intra-node MPI rendezvous data moved by each
// process's progress engine (Open MPI 4.1, pml ob1 + btl vader without single
// copy, as the halo traces ran: docs/halo.md).
//
// First principles (docs/halo_sim_log.md, "4 ranks after the MPI progress engines"):
// a message above the eager limit sends its header and first fragment from
// the Isend; the rest moves only inside later MPI calls of both processes,
// copy-in / copy-out through shared memory: the sender's progress copies
// each fragment into a shared-memory buffer, the receiver's progress copies
// it out. A process has one progress engine (one CPU thread), so all its
// in-flight rendezvous messages, outgoing and incoming, share it: every
// payload byte costs one copy on the sender's engine and one on the
// receiver's, and the engines are processor-shared (max-min) resources.
// Nothing here is a preset value: the engine's cost per byte is derived from
// a measured message latency (progress_ns_per_byte).
#pragma once

#include <vector>

namespace xferlab::hw_model {

// rendezvous_payload_bytes: the bytes of a message that move in progress
// calls after its Isend: beyond the eager part for a message above
// `eager_limit_bytes`, else 0 (an eager message is copied by the Isend).
double rendezvous_payload_bytes(double bytes, double eager_limit_bytes);

// progress_ns_per_byte: one engine's cost per payload byte, from one
// measurement: a rank whose in-flight rendezvous payload was `out_bytes`
// sent and `in_bytes` received, all moving at once, and whose last message
// completed `latency_ns` after they started. Its engine copied out + in
// bytes in that time: latency_ns / (out + in). 0 when there is no payload.
double progress_ns_per_byte(double out_bytes, double in_bytes, double latency_ns);

// processor_shared_finish_ns: when each of several payloads that start
// together on one engine (`ns_per_byte` per byte alone) finishes when the
// engine serves all unfinished ones equally (processor sharing, the max-min
// share of one link): the k-th smallest ends after sum over i of
// min(payload_i, payload_k) * ns_per_byte. Same order as `payload_bytes`.
std::vector<double> processor_shared_finish_ns(const std::vector<double>& payload_bytes,
                                               double ns_per_byte);

}  // namespace xferlab::hw_model
