// sim/halo_model.h — the halo-exchange / GPUDirect Async mapping onto the
// replay core: geometry for N ranks, the workload measured at one size
// (HaloWorkload, from a HaloRun or interpolated between two), the task graph
// of one iteration per variant, and the K-model lower bound (Elis et al.,
// HPCAsia 2024, §6.4). Equations and sources: docs/halo_sim.md.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "hw_model/mpi_node.h"
#include "sim/halo_trace.h"
#include "sim/task_graph.h"

namespace xferlab::sim {

// HaloGeometry: a periodic block decomposition (Comb; native/halo).
struct HaloGeometry {
  std::array<int, 3> procs{1, 1, 1};
  std::array<int, 3> per_rank{1, 1, 1};
  int vars = 3;
  int pattern = 27;  ///< 27: faces, edges, corners; 7: faces only.
  int ranks() const { return procs[0] * procs[1] * procs[2]; }
  double cells() const { return double(per_rank[0]) * per_rank[1] * per_rank[2]; }
};

struct GeoMessage {
  int src = 0, dst = 0;
  int direction = 0;  ///< 0..26 (x fastest), the tag.
  int kind = 0;       ///< non-zero offsets: 1 face, 2 edge, 3 corner.
  double bytes = 0;
};

// split_cube: the global cube `global` cells per side over `ranks` (a 3D grid
// as square as possible, larger factors first, like MPI_Dims_create).
Result<HaloGeometry> split_cube(int global, int ranks, int vars, int pattern);
// messages_of: what rank `rank` sends (one message per neighbour direction).
std::vector<GeoMessage> messages_of(const HaloGeometry& g, int rank);

// HaloWorkload: one variant's measured components at one block size
// (medians; LinearFit in message bytes). Names follow docs/halo_sim.md.
struct HaloWorkload {
  std::string variant;
  double cells = 0;    ///< per rank.
  double bytes = 0;    ///< sent per rank and iteration.
  double work_ns = 0;  ///< work driver of the geometry (work_driver_ns).
  /// Elements the busiest thread of the fused pack / unpack kernels copies
  /// (fused_elements_per_thread); 0 = unknown.
  double fused_elements = 0;
  double irecv_ns = 0;  ///< one MPI_Irecv call.
  /// One MPI_Isend (proxy: Irsend) call by message size, to the rank itself
  /// (Open MPI's self path copies the whole message into the posted
  /// receive) and to another rank (header and eager part only; a
  /// rendezvous message's data moves later, in progress calls).
  SizeTable isend_self, isend_peer;
  /// Message latency (see halo_trace.h). One line for both kinds: a peer's
  /// rendezvous data moves while either CPU is in an MPI call, so its
  /// measured latency holds the other messages' calls, which the graph
  /// already has as CPU work (split lines counted them twice: every
  /// stream/stacked replay came out slower than measured).
  LinearFit mpi;
  /// The rank's MPI progress engine's cost per byte of rendezvous payload
  /// (hw_model/mpi_progress.h): a peer message's bytes beyond the eager part
  /// move through the sender's and the receiver's engine, each shared by that
  /// rank's messages in flight. Derived from this workload's own latency
  /// line at its own geometry (workload_of: the largest peer message's
  /// latency over the rank's payload out + in), never from another rank
  /// count; stream / stacked / sa / ki then take at least the run's cost
  /// (engine_ns_per_byte); 0 = no rendezvous payload (each message its
  /// latency alone).
  double progress_ns_per_byte = 0;
  /// The run's engine cost per byte (run_engine_ns_per_byte in
  /// sim/halo_command.cc: its host-driven variants' at their largest paper
  /// size); 0 = unknown (no such sibling traces). Combined with the own cost
  /// by engine_ns_per_byte.
  double run_progress_ns_per_byte = 0;
  std::array<int, 3> procs{1, 1, 1};  ///< rank grid of the run it was measured on.
  double pack_phase_ns = 0;  ///< host-driven: compute + pack + sync; stream/stacked: enqueue.
  double unpack_phase_ns = 0;
  double wait_send_ns = 0;
  double unphased_ns = 0;  ///< CPU time outside the phases (launches between them).
  /// stream/stacked: a message's send_ready store after the iteration start
  /// = ready_base_ns (compute done: the smallest message's store) + its
  /// pack: pack_ready(bytes) for a message packed by its own CTA (stream;
  /// stacked below stacked_long_bytes), ready_long_ns for stacked's long
  /// messages, which all CTAs pack together and flag after one grid sync.
  double ready_base_ns = 0;
  SizeTable pack_ready;
  double ready_long_ns = 0;
  double long_bytes = 0;  ///< stacked: bytes of the long messages per rank.
  double stacked_long_bytes = 4096;
  double notify_gpu_to_cpu_ns = 0;  ///< flag store -> CPU proceeds.
  double proxy_front_ns = 0;        ///< sa/ki: recv_all -> next doorbells seen (GPU unpack..pack).
  double proxy_complete_ns = 0;     ///< sa/ki: completion -> flag stored.
  double proxy_irecv_ns = 0;        ///< sa/ki: the proxy re-posting a receive.
  /// Fitted residual: CPU (proxy) work per received message that no trace
  /// event delimits (MPI progress calls, polling passes, credit messages),
  /// calibrated so the replayed iteration matches a fitting trace.
  double residual_per_recv_ns = 0;
};

// WorkRates: what the interpolation driver divides by (from the preset).
struct WorkRates {
  double gpu_memory_bw_bytes_per_s = 4.8e12;  ///< [gpu] memory_bw.
  double host_link_bw_bytes_per_s = 55e9;     ///< [host_link] payload bandwidth.
};
// work_driver_ns: the GPU-side work of one iteration if it ran at the
// preset's rates: the stencil's memory traffic (3 arrays x vars x 8 B per
// cell: read `in`, write `result` and `next`; native/halo/halo_device.cuh) at
// the GPU memory bandwidth plus the message bytes over the host link.
double work_driver_ns(const HaloGeometry& g, const WorkRates& rates);
double bytes_per_rank(const HaloGeometry& g);
// fused_elements_per_thread: what the busiest thread of the host-driven
// variants' fused pack / unpack kernels copies (native/halo/halo_kernels.cu
// fused_grid: 256-thread CTAs, as many per message as the largest message
// needs at 8 doubles a thread, 1 to 128; blockIdx.y = message): the largest
// message's doubles over its CTAs' threads, rounded up. Boxes of one CTA
// per message (up to 45^3) copy 1 (16^3), 3 (24^3), 4 (32^3) elements a
// thread; 64^3's 4 096-double faces take 2 CTAs, 8 a thread; the paper
// cubes' grids grow with the message (8 at 200^3, 400^3 and 800^3). Each
// element is a PCIe access of pinned host memory, so while the grid stays
// below the GPU's size the kernels' time follows this count, not the bytes
// (docs/halo_sim_log.md, "Host box 32^3: the fused kernels' elements per
// thread").
double fused_elements_per_thread(const HaloGeometry& g);

// workload_of: the components of a 2-rank (or any) run, averaged over ranks.
Result<HaloWorkload> workload_of(const HaloRun& run, const WorkRates& rates);
// self_copy_table: t (merged self Isend calls) with a point for each self
// message of g between two measured sizes above the smallest: the smallest
// size's call (the fixed cost) plus the copy at a cost per byte linear in
// bytes between the two sizes' (SizeTable::at is linear in time instead).
SizeTable self_copy_table(const SizeTable& t, const HaloGeometry& g);

// ProxyDrivers: the drivers a held-out sa / ki size's proxy front and
// residual per received message are interpolated in (docs/halo_sim_log.md, "Sa /
// ki 400^3: the front is surface work, the residual volume work"; the default
// since session 14, with the payload placement, by the rule of "Runs 29-31").
enum class ProxyDrivers {
  kWorkAndBytes,      ///< the front in the work driver, the residual in the bytes sent (before).
  kSurfaceAndVolume,  ///< default: the front in the bytes sent, the residual in the cells.
};
inline constexpr ProxyDrivers kProxyDriversDefault = ProxyDrivers::kSurfaceAndVolume;
// proxy_drivers_from_env: XFERLAB_HALO_PROXY_DRIVERS=surface (the default when
// unset) or work; anything else an error naming the variable and value.
Result<ProxyDrivers> proxy_drivers_from_env();

// EndClasses: what a fitted end lends a held-out stream / stacked size
// (docs/halo_sim_log.md, "Stacked / stream 400^3: the intercept places the
// residual": tried, opt-in).
enum class EndClasses {
  kPooled,   ///< default: its latency line and notification over all its messages.
  kMatched,  ///< those over the kinds whose protocol the target shares, the residual refitted.
};
// end_classes_from_env: XFERLAB_HALO_END_CLASSES=pooled (the default when
// unset) or matched; anything else an error naming the variable and value.
Result<EndClasses> end_classes_from_env();
// same_protocol: the samples of a run on geometry `end` whose message kind
// (matched by size) has the same protocol on `target` (eager: at most
// kEagerLimitBytes; rendezvous: more); a sample of a size no kind of `end`
// has is kept.
std::vector<Sample> same_protocol(const std::vector<Sample>& samples, const HaloGeometry& end,
                                  const HaloGeometry& target);
// match_protocol: for a stream / stacked workload w measured by `run` on
// `end`, the latency line (and the engine cost derived from it) and the
// notification median fitted as workload_of does, over the same_protocol
// samples only, and the residual set to 0 for the caller to calibrate again.
// Returns false, w unchanged, when no sample is left out or w's variant is
// another.
bool match_protocol(HaloWorkload& w, const HaloRun& run, const HaloGeometry& end,
                    const HaloGeometry& target);

// PairMix: how a held-out stream / stacked size takes the (latency line,
// notification median, residual) triple of its fitted ends, whose residual
// each end calibrated with its own line (docs/halo_sim_log.md, "Stacked /
// stream 400^3: consistent pairs mixed at the output"; the default since its
// rule passed on the sealed runs 25-28, "The opt-in switches on runs 25-28").
enum class PairMix {
  kComponents,  ///< each of the three interpolated on its own, one replay (the default before).
  kOutput,      ///< default: one replay per end with that end's triple, the phases interpolated.
};
inline constexpr PairMix kPairMixDefault = PairMix::kOutput;
// pair_mix_from_env: XFERLAB_HALO_PAIR_MIX=output (the default when unset)
// or components; anything else an error naming the variable and value.
Result<PairMix> pair_mix_from_env();
// EndTriple: the triple interpolate gives the target: each at its own weight
// (kMixed), or the lower (a's) or upper (b's) end's as it is.
enum class EndTriple { kMixed, kLower, kUpper };

// interpolate: components for another geometry from two workloads of the
// same variant: per-message tables by size (isend, pack_ready) pooled from
// both; MPI latencies linear in the bytes sent per rank; stacked's long pack
// linear in the long bytes; the host-driven variants' pack and unpack phases
// linear in fused_elements_per_thread where it differs between a and b (the
// fused kernels' grid then holds one busy thread's serial copies: boxes),
// else in the work driver; sa / ki's proxy front and the residual per
// received message as `drivers` says; all others linear in the work driver,
// each through the two points (beyond them: the line extended, times clamped
// at 0). The progress cost is derived again from the interpolated latency
// line on g's block at the measured runs' rank grid (a.procs), as
// workload_of does for a measured size, and combined with the run's (a's) by
// engine_ns_per_byte. `triple` other than kMixed: the latency line (and the
// progress cost derived from it), notification median and residual are a's
// (kLower) or b's (kUpper), every other component as with kMixed.
HaloWorkload interpolate(const HaloWorkload& a, const HaloWorkload& b, const HaloGeometry& g,
                         const WorkRates& rates, ProxyDrivers drivers = kProxyDriversDefault,
                         EndTriple triple = EndTriple::kMixed);
// residual_weight: the weight interpolate gives b's residual per received
// message at g (the bytes a rank sends; with kSurfaceAndVolume, sa / ki: the
// cells), unclamped.
double residual_weight(const HaloWorkload& a, const HaloWorkload& b, const HaloGeometry& g,
                       ProxyDrivers drivers);

// Per-message components of a workload (self: m.dst == m.src).
double isend_ns(const HaloWorkload& w, const GeoMessage& m);
// isend_copy: the part of isend_ns that copies data — bytes (a self message:
// all of it; another rank: its eager part, kEagerLimitBytes) and ns (the call
// minus the kind's smallest measured call).
struct IsendCopy {
  double bytes = 0, ns = 0;
};
constexpr double kEagerLimitBytes = 4096;  ///< Open MPI 4.1 btl_vader_eager_limit default.
IsendCopy isend_copy(const HaloWorkload& w, const GeoMessage& m);
double ready_ns(const HaloWorkload& w, const GeoMessage& m);
// progress_ns_per_byte_of: HaloWorkload::progress_ns_per_byte of a run on
// geometry g whose latency line is `mpi` (hw_model::progress_ns_per_byte of
// rank 0's peer rendezvous payload and the line at its largest peer message).
double progress_ns_per_byte_of(const LinearFit& mpi, const HaloGeometry& g);
// rendezvous_payload_bytes_per_rank: the bytes rank 0 of g sends to other ranks
// per iteration beyond each message's eager part (kEagerLimitBytes): what
// its progress engine moves out.
double rendezvous_payload_bytes_per_rank(const HaloGeometry& g);
// on_node_rendezvous_payload_bytes: the same for the ranks on rank 0's node
// only (ranks 0 .. ranks_per_node - 1, block placement): the P of the on-node
// MPI step (hw_model/mpi_node.h). It was fitted on one-node runs, where the
// two are equal; between nodes the NIC, not the node's MPI, moves the rest.
double on_node_rendezvous_payload_bytes(const HaloGeometry& g, int ranks_per_node);
// engine_ns_per_byte: the engine cost per byte variant `variant` is replayed
// with, from its own (progress_ns_per_byte_of of its line) and its run's (0 =
// unknown). The cost belongs to Open MPI's shared-memory copy path and the
// CPU, not to the variant; the host-driven variants (baseline, host) measure
// it cleanly (every receive completes at the end of one MPI_Testall, so their
// line is the engine's busy time) and keep their own. The one-at-a-time
// receivers (stream, stacked: MPI_Testsome; sa, ki: the proxy's tests) fit one
// line through peer and self messages, whose c is too small, so they take
// max(own, run). Without a run cost, or without rendezvous payload (own 0),
// the own cost. docs/halo_sim_log.md, "Engine cost from the host-driven variants".
double engine_ns_per_byte(const std::string& variant, double own_ns_per_byte,
                          double run_ns_per_byte);

// rendezvous_kinds: the message kinds (bit kind-1: face, edge, corner) that
// rank 0 of g sends to another rank above kEagerLimitBytes, i.e. by Open MPI's
// rendezvous protocol. Runs with different sets differ by a step in the MPI
// latency that no line through sizes on both sides holds (box 16^3 -> 24^3,
// 2 KiB -> 4.5 KiB faces: +2.2..3.9 us per message; docs/halo_sim_log.md,
// "Box 24^3 / 32^3 and the eager limit").
int rendezvous_kinds(const HaloGeometry& g);

// fitted_in_family: which sizes of a variant's family (ascending; protocol[i]
// = rendezvous_kinds of size i) are fitted to their own trace: the two ends,
// and the first size of a protocol that begins inside the range when a
// larger size of that protocol is still held out below the top end (so the
// protocol step is in-sample and a held-out size is left on its side). The
// others are held out.
std::vector<bool> fitted_in_family(const std::vector<int>& protocol);
// fitted_bracket: for size i, the nearest fitted sizes below and above it
// (i itself twice when it is fitted).
std::pair<size_t, size_t> fitted_bracket(const std::vector<bool>& fitted, size_t i);
// long_bytes_of: stacked's long-message bytes of rank 0 of g.
double long_bytes_of(const HaloGeometry& g, double stacked_long_bytes);

// Network: where messages go. Inside a node the measured MPI latency line
// applies; between nodes a message is the software part (mpi.a_ns) plus the
// bytes over the two nodes' NIC links (SimGrid shares them).
struct HaloNetwork {
  int ranks_per_node = 2;
  double nic_bw_bytes_per_s = 50e9;  ///< per node and direction (preset network_link).
  double nic_latency_ns = 1000;      ///< one way incl. switch.
  int gpu_sms = 132;
  /// Host memory per node shared by the CPU's MPI copies and the GPU's
  /// pinned-memory writes (0: not modelled; docs/halo_sim.md, "CPU-GPU
  /// memory interference").
  double host_memory_bw_bytes_per_s = 0;
  /// The machine's on-node multi-rank MPI step (preset [mpi_node]; default:
  /// none). Applied by node_step_ns only.
  hw_model::MpiNodeConfig mpi_node;
};

// node_step_ns: the time a replay of g on `net` adds per iteration for the
// on-node MPI step of more than 2 ranks per node (net.mpi_node.step_ns of
// on_node_rendezvous_payload_bytes(g, net.ranks_per_node)), when its components come from a trace
// of at most 2 ranks on a node (`trace_ranks_per_node`); else 0: a 2-rank replay, or a trace that
// already ran more than 2 ranks on its node, has it in its own times (docs/halo_sim.md, "2 -> 4
// ranks from a machine calibration").
double node_step_ns(const HaloGeometry& g, const HaloNetwork& net, int trace_ranks_per_node);

// Mode: which design is replayed.
enum class HaloMode {
  kMeasured,    ///< the traced design as measured (CPU proxy for sa/ki).
  kHwDoorbell,  ///< stream/stacked: the GPU's flag store rings the NIC, no CPU in the send path.
  kNic,         ///< sa/ki: a real NIC (doorbell, WQE processing, CQ polling) instead of the proxy.
};

// NicCosts: the NIC-side costs of kHwDoorbell / kNic (preset [notification]
// and docs/halo_sim.md).
struct NicCosts {
  double doorbell_ns = 400;  ///< GPU store -> NIC sees the doorbell.
  double wqe_ns = 500;       ///< WQE fetch + processing until the first byte leaves.
  double cq_poll_ns = 1300;  ///< CQE written -> the GPU poller sees it.
};

// HaloPhases: per-iteration results (ns) of one rank (the slowest) of a replay.
struct HaloPhases {
  double iteration_ns = 0;
  double pack_ns = 0, post_ns = 0, wait_ns = 0, unpack_ns = 0;
  size_t tasks = 0;
  size_t ranks_simulated = 0;  ///< all ranks, or one node's (HaloDetail::kReduced).
};

// build_halo_graph: one iteration of `w.variant` on geometry g (all ranks
// start at 0). Returns the graph and, through `marks`, the task ids the
// phases are read from (read_phases).
struct HaloMarks {
  /// Per rank: task ids whose end times delimit the phases.
  std::vector<uint32_t> start, pack_begin, pack_end, post_end, wait_begin, wait_end, unpack_end,
      end;
  /// Per rank, the send calls (the measured post_send phase): their
  /// measured times, plus what each copy flow took through host memory
  /// beyond its own time (flow task, own ns).
  std::vector<double> isend_work_ns;
  std::vector<std::vector<std::pair<uint32_t, double>>> isend_copies;
  std::vector<double>
      unpack_fixed_ns;  ///< per rank: CPU-only unpack phase (stream/stacked), else NaN.
  /// Per rank: the rendezvous payload transfers it sends through the
  /// progress engines (task, destination rank).
  std::vector<std::vector<std::pair<uint32_t, int>>> payloads;
};
// ResidualPlacement: where stream / stacked's calibrated residual goes
// (docs/halo_sim_log.md, "Stacked / stream 400^3: the intercept places the
// residual"; the default since session 14, with the surface drivers, by the
// rule of "Runs 29-31").
enum class ResidualPlacement {
  kMessage,  ///< residual_per_recv_ns after each received message (before).
  kPayload,  ///< default: each received message its share of the rank's rendezvous payload.
};
inline constexpr ResidualPlacement kResidualPlacementDefault = ResidualPlacement::kPayload;
// residual_placement_from_env: XFERLAB_HALO_RESIDUAL_PLACEMENT=payload (the
// default when unset) or message; anything else an error naming the variable
// and value. simulate_halo and calibrate_residual read it.
Result<ResidualPlacement> residual_placement_from_env();
// residual_ns: the residual work after received message m (sent to a rank
// of g by m.src) for `placement`: w.residual_per_recv_ns; with kPayload, for
// stream / stacked, that times the messages a rank receives times m's
// rendezvous payload (0 for a self or eager message) over the rank's
// (rendezvous_payload_bytes_per_rank), the same total per rank; a geometry
// without rendezvous payload keeps the even split.
double residual_ns(const HaloWorkload& w, const HaloGeometry& g, const GeoMessage& m,
                   ResidualPlacement placement);

// HaloDetail: kReduced simulates node 0 alone when node_symmetric() holds
// (exact: every node is a translate of node 0; docs/halo_sim.md, "Speed"),
// kFine every rank.
enum class HaloDetail { kReduced, kFine };
// node_symmetric: the ranks_per_node consecutive ranks of each node form a
// box of g's periodic rank grid that tiles it (k | procs x; or procs x | k and
// k / procs x | procs y; or likewise for whole xy planes), and there is more
// than one node.
bool node_symmetric(const HaloGeometry& g, int ranks_per_node);
// The marks (and HaloPhases) cover the simulated ranks: all, or node 0's.
// late_start_ns > 0 starts every rank at an odd y (on a grid of one row: at
// an odd x) that late (diagnosis only: simulate_halo's
// XFERLAB_HALO_LATE_START_NS, which calibrate_residual does not apply). mpi_chain (simulate_halo's
// XFERLAB_HALO_MPI_CHAIN; host-driven variants in measured mode with
// engines): each rank is inside MPI only in its Isend chain, wait_recv and
// wait_send, and a rendezvous payload moves only while both its ranks are
// (a gate per rank); the engines serve their flows in the order they became
// ready; a rank's end (wait_send) waits for the payloads it sends
// (docs/halo_sim_log.md, "The chain in the replay").
TaskGraph build_halo_graph(const HaloWorkload& w, const HaloGeometry& g, const HaloNetwork& net,
                           HaloMode mode, const NicCosts& nic, HaloMarks* marks,
                           HaloDetail detail = HaloDetail::kReduced, double late_start_ns = 0,
                           bool mpi_chain = false,
                           ResidualPlacement placement = kResidualPlacementDefault);
HaloPhases read_phases(const HaloMarks& marks, const TaskTimes& times);
// mix_phases: each phase (and the iteration) a fraction f of the way from x to
// y, clamped at 0; the counts are x's.
HaloPhases mix_phases(double f, const HaloPhases& x, const HaloPhases& y);
// replay_held_out: a held-out size on g between the fitted ends a (lower) and
// b (upper), as `replay` replays a workload on g: one replay of `mixed`, the
// caller's interpolate(a, b, g, rates, drivers); with PairMix::kOutput and stream /
// stacked, two, each with one end's triple (EndTriple::kLower, kUpper), and
// their phases mixed at residual_weight, the weight the residual has in the
// one replay. Measured mode only (the triples are the traced design's).
Result<HaloPhases> replay_held_out(
    const HaloWorkload& a, const HaloWorkload& b, const HaloWorkload& mixed, const HaloGeometry& g,
    const WorkRates& rates, ProxyDrivers drivers, PairMix pair,
    const std::function<Result<HaloPhases>(const HaloWorkload&)>& replay);

// ResidualSearch: the result of search_residual.
struct ResidualSearch {
  double x = 0;  // the evaluated argument with the smallest |f|
  double f = 0;  // f there
  int evaluations = 0;
};

// search_residual: x >= 0 with f(x) nearest 0, for f that grows with x but
// may jump (a per-message delay can push one message past another's
// completion, so the iteration time steps up; a plain secant then oscillates
// across the step and may end on its far side). Starts from f(0) = f0 < 0
// and the guess x1 > 0; extends until f changes sign, then regula falsi with
// the Illinois step inside the bracket; stops when |f| <= tol or after
// max_evaluations calls of f; returns the best point seen (x = 0 included).
Result<ResidualSearch> search_residual(const std::function<Result<double>(double)>& f, double f0,
                                       double x1, double tol, int max_evaluations);

// calibrate_residual: sets w.residual_per_recv_ns (>= 0) so that the replay
// of geometry g matches measured_ns as closely as search_residual finds
// (stays 0 when the replay without it is already slower). Returns the
// replayed phases at the residual it sets.
Result<HaloPhases> calibrate_residual(HaloWorkload& w, const HaloGeometry& g,
                                      const HaloNetwork& net, double measured_ns);

// simulate_halo: build and run one iteration (in a forked child).
Result<HaloPhases> simulate_halo(const HaloWorkload& w, const HaloGeometry& g,
                                 const HaloNetwork& net, HaloMode mode, const NicCosts& nic,
                                 HaloDetail detail = HaloDetail::kReduced);

// kmodel_iteration_ns: Elis et al. Eq. 1-4 for rank `rank` of g (Power9+V100
// calibration, REFERENCES.md §2).
double kmodel_iteration_ns(const HaloGeometry& g, int ranks_per_node, int rank);

}  // namespace xferlab::sim
