// sim/halo_trace.h — HaloRun: what the per-rank traces of one halo-exchange or
// GPUDirect Async run (native/halo, native/gdasync) measured, reduced to the
// components the halo replay needs (medians over the timed iterations).
//
// Definitions (docs/halo_sim.md): a call's cost is its post event minus the
// previous event on the same CPU lane (posts are recorded after the call
// returns); an MPI message's latency is the receiver's completion minus the
// later of the sender's post and the receiver's entry into its wait (MPI
// progresses only inside MPI calls); "ready" is the GPU's send_ready flag
// store relative to the start of the iteration on the CPU.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "traces/reader.h"

namespace xferlab::sim {

struct HaloMessage {
  int index = 0;      ///< message id (flag index, trace metadata "messages").
  int direction = 0;  ///< 0..26, x fastest; also the MPI tag it is sent with.
  std::string kind;   ///< face, edge, corner.
  int peer = 0;       ///< rank it goes to (and comes from).
  double bytes = 0;
};

// Sample: one measured quantity for a message size.
struct Sample {
  double bytes = 0;
  double ns = 0;
  bool self = false;  ///< a message a rank sends to itself (periodic wrap on a short axis).
};

// LinearFit: ns = a_ns + b_ns_per_byte * bytes (least squares over the
// per-size medians; slope 0 when only one size was seen).
struct LinearFit {
  double a_ns = 0;
  double b_ns_per_byte = 0;
  double at(double bytes) const { return a_ns + b_ns_per_byte * bytes; }
};
LinearFit fit_by_size(const std::vector<Sample>& samples);
// nonnegative_fit_by_size: the least-squares line of fit_by_size with
// a_ns, b_ns_per_byte >= 0: fit_by_size where both are; else the optimum on
// the boundary it crossed (b < 0: the flat line at the mean of the per-size
// medians; a < 0: the line through the origin), not the unconstrained
// line with the negative coefficient set to 0, which keeps an intercept
// that only the negative slope had placed (docs/halo_sim_log.md, "Stream 200^3:
// the latency line's clamp").
LinearFit nonnegative_fit_by_size(const std::vector<Sample>& samples);

// SizeTable: ns by message size, piecewise linear through measured per-size
// medians (the form of SMPI's per-size MPI cost factors): exact at a
// measured size, linear between two, the end segment extended beyond them,
// clamped at 0; one size: constant; empty: NaN.
struct SizeTable {
  std::vector<std::pair<double, double>> points;  ///< (bytes, ns), bytes ascending.
  double at(double bytes) const;
  bool empty() const { return points.empty(); }
  void scale(double factor);
};
// table_by_size: the median ns of each size in `samples`.
SizeTable table_by_size(const std::vector<Sample>& samples);
// merge_tables: the sizes of both; a size in both gets the mean of the two.
SizeTable merge_tables(const SizeTable& a, const SizeTable& b);

double median(std::vector<double> v);  ///< NaN when empty.

struct HaloRankTrace {
  std::string path;
  std::string program;  ///< halo_exchange | gdasync_bench.
  std::string variant;  ///< baseline, stream, stacked, host, sa, ki.
  std::string label;    ///< size label (gpus2_200, gpus2_box16).
  int rank = 0, ranks = 0;
  std::array<int, 3> per_rank{};  ///< cells per rank and axis.
  std::array<int, 3> procs{};     ///< rank grid.
  int vars = 3, pattern = 27;
  double stacked_long_bytes = 4096;  ///< stacked: messages this large are packed by all CTAs.
  std::vector<HaloMessage> messages;
  int timed_iterations = 0;
  std::map<std::string, double> phase_ns;   ///< median per iteration (sum of a phase's spans).
  std::map<std::string, double> kernel_ns;  ///< median span per kernel name (run 4+ traces).
  double unphased_ns = 0;    ///< total minus its sub-phases (uninstrumented CPU work).
  double wait_begin_ns = 0;  ///< median offset of wait_recv's start in the iteration.
  std::vector<Sample> irecv_call, isend_call;  ///< main thread calls.
  std::vector<Sample> proxy_isend_call;        ///< NIC proxy (sa, ki).
  std::vector<Sample> proxy_irecv_call;        ///< NIC proxy re-posting a receive.
  std::vector<Sample> ready_offset;            ///< send_ready store - iteration start.
  std::vector<Sample> notify_gpu_to_cpu;       ///< send_ready store -> CPU saw it.
  std::vector<Sample> notify_cpu_to_gpu;       ///< unpack_ready store -> GPU saw it.
  double proxy_cycle_front_ns = 0;  ///< sa/ki: recv_all of t -> first doorbell of t+1 seen.
  double proxy_complete_ns = 0;     ///< sa/ki: MPI completion seen -> recv flag stored.
  /// sa/ki: median period of the proxy's recv_all store (iteration t's last
  /// receive completed -> t+1's), the pipeline's iteration time; NaN when the
  /// trace has no recv_all stores (the host-driven and notification variants).
  double proxy_cycle_ns = 0;

  // Raw, for pairing with the peer: per (peer, tag) in order of occurrence.
  std::map<std::pair<int, int>, std::vector<double>> send_post_t, recv_complete_t;
  std::vector<double> wait_begin_t;  ///< receiver's wait start per iteration (all iterations).
  double timed_from_t = 0;           ///< first timed iteration's marker.
  uint64_t origin_ns = 0;  ///< trace time of the first event; the times above are relative.
};

// HaloRun: the traces of all ranks of one run, plus what needs both sides.
struct HaloRun {
  std::vector<HaloRankTrace> ranks;
  std::vector<Sample> mpi_latency;  ///< per message, see the header comment.
  /// The run's CSV row (halo.csv / boxes.csv beside traces/, avg_ns over
  /// ranks) for phases the traces do not mark (accumulated-only timers such
  /// as stream's post_send and unpack); empty when there is no CSV.
  std::map<std::string, double> csv_phase_ns;
  const HaloRankTrace& r0() const { return ranks.front(); }
  double total_ns() const;  ///< mean over ranks of the median total.
  /// iteration_ns: what one replayed iteration is compared with (mean over
  /// ranks): sa/ki, whose CPU only enqueues and runs ahead of the GPU, the
  /// proxy's recv_all period (proxy_cycle_ns); every other variant, whose
  /// iteration ends in a CPU wait, its median total.
  double iteration_ns() const;
  bool proxy_driven() const;                     ///< sa/ki: the traces hold a recv_all period.
  double phase_ns(const std::string& p) const;   ///< mean over ranks, else the CSV; NaN if absent.
  double kernel_ns(const std::string& k) const;  ///< mean over ranks; NaN if absent.
};

// is_halo_trace: true when the opened trace's producer is halo_exchange or
// gdasync_bench (its metadata).
bool is_halo_trace(const traces::TraceReader& reader);

// open_replay_trace: `path` opened once for a replay: whether it is a halo
// trace (replayed by sim/halo_command.h) and, when it opened and is not, the
// reader, which the replay reads instead of opening the file again. A trace
// that does not open: no reader and `error` says why, so that the command
// reports the file before its flags (a halo flag is unknown to the PROACT
// replay, and "unknown flag --ranks" would hide the missing file).
struct ReplayTrace {
  bool halo = false;
  std::optional<traces::TraceReader> reader;
  std::optional<Error> error;
};
ReplayTrace open_replay_trace(const std::string& path);

// halo_rank0_traces: the halo / GDA rank-0 traces among `paths` (the
// diagnostic tools' DIR_OR_TRACE arguments): a file as given, a folder
// searched recursively (directory order); a path that does not exist is an
// error "PATH: no such file or folder", and so is a *_rank0.xft* file in a
// folder that the trace reader rejects (its one-line error).
Result<std::vector<std::string>> halo_rank0_traces(const std::vector<std::string>& paths);

// load_halo_trace: one rank's trace.
Result<HaloRankTrace> load_halo_trace(const std::string& path);

// load_halo_run: the trace at `path` and its sibling ranks (..._rankN.xft.zst
// in the same directory; all `ranks` of them must be there).
Result<HaloRun> load_halo_run(const std::string& path);

}  // namespace xferlab::sim
