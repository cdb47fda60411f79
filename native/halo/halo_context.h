// native/halo/halo_context.h — HaloContext: everything one rank of a halo
// exchange run owns (geometry, GPU buffers, pinned message buffers and flags,
// MPI requests, phase timers, trace), and the Variant interface the exchange
// strategies implement (baseline/stream/stacked here, SA/KI in gdasync).
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "native/halo/decomposition.h"
#include "native/halo/halo_kernels.h"
#include "native/halo/notify_host.h"
#include "native/trace_recorder.h"

namespace xferlab::halo {

// Phase: Comb-style timers (per iteration, on the host), plus the compute
// kernel and the time the CPU only waited (sync, Waitall, empty polls).
enum class Phase : int {
  kPostRecv = 0,
  kPack,
  kPostSend,
  kWaitRecv,
  kUnpack,
  kWaitSend,
  kCompute,
  kTotal,
  kCpuIdle,
  kVerify,  ///< GPU time of the ghost check (own stream, outside every other phase).
  kNumPhases,
};
inline constexpr int kNumPhases = static_cast<int>(Phase::kNumPhases);
const char* phase_name(Phase phase);

// RunOptions: the effective settings of one run (from the command line).
struct RunOptions {
  std::string variant;
  int warmup_iterations = 10;
  int iterations = 50;
  uint64_t timeout_ns = 10'000'000'000ull;
  int64_t stacked_long_bytes = 4096;
  bool verify = true;
};

class HaloContext;

// VariantRunner: one exchange strategy bound to a context. iteration(t) runs
// the application compute and exchange t (it may return before the GPU is
// done); drain() waits until all enqueued work has finished.
class VariantRunner {
 public:
  virtual ~VariantRunner() = default;
  virtual void iteration(uint32_t t) = 0;
  virtual void drain() = 0;
  // extra_metrics: named per-rank numbers (ns) reported like phases, reduced
  // min/avg/max over ranks (e.g. the gdasync proxy's own latency).
  virtual std::vector<std::pair<std::string, double>> extra_metrics() const { return {}; }
};

// Variant: a named strategy and its factory.
struct Variant {
  std::string name;
  std::string summary;
  std::function<std::unique_ptr<VariantRunner>(HaloContext&)> make;
  bool occupies_gpu = false;  ///< one cooperative kernel on every SM: ranks cannot share a GPU.
};

// HaloContext: per-rank state shared by every variant.
class HaloContext {
 public:
  HaloContext(const Decomposition& decomposition, int rank, int device, RunOptions options,
              xferlab::native::TraceRecorder* recorder);
  ~HaloContext();
  HaloContext(const HaloContext&) = delete;
  HaloContext& operator=(const HaloContext&) = delete;

  // Geometry.
  const Decomposition& decomposition;
  const int rank;
  const int device;
  const RunOptions options;
  const FieldLayout layout;
  const RankOrigin origin;
  const std::vector<Message> messages;
  const MessageTable send_table;
  const MessageTable recv_table;
  int num_messages() const { return static_cast<int>(messages.size()); }

  // GPU state: two fields (exchange t uses field(t); compute t reads field(t - 1)).
  double* field(uint32_t t) const { return d_field_[t % 2]; }
  double* d_result = nullptr;
  VerifyReport* d_verify = nullptr;
  cudaStream_t stream_compute =
      nullptr;  ///< compute, pack (and everything for single-stream variants).
  cudaStream_t stream_unpack = nullptr;  ///< unpack kernels of the stream approach.
  cudaStream_t stream_verify = nullptr;  ///< ghost checks, off the exchange's critical path.
  uint32_t* d_device_ready = nullptr;    ///< device memory, FlagArray::kDeviceReady flags.

  // Pinned message buffers (device addresses through .device()): send, and
  // receive double-buffered by iteration parity (see docs/halo.md, hazards).
  PinnedArray<double> send_buffer;
  PinnedArray<double> recv_buffer[2];
  PinnedArray<uint32_t> flags;  ///< FlagArray x kFlagsPerArray, kFlagStrideWords apart.
  PinnedArray<DeviceFault> fault;
  uint32_t& flag(FlagArray array, int message) const {
    return *flag_device_or_host(array, message, false);
  }
  uint32_t* flag_device(FlagArray array, int message) const {
    return flag_device_or_host(array, message, true);
  }
  NotifyArgs notify_args(uint32_t t) const;

  // MPI requests, one per message.
  std::vector<MPI_Request> recv_req, send_req;
  void post_recvs(double* recv_base);              ///< MPI_Irecv of every message (traced).
  void post_send(int m, const double* send_base);  ///< MPI_Isend of message m (traced).

  // compute: the application iteration t (whole block) on stream_compute.
  // Also orders `stream` after the ghost check of exchange t - 2 (guard_ghosts).
  void compute(uint32_t t, Region region = Region::kAll, cudaStream_t stream = nullptr);
  // verify: checks the ghosts of exchange t (if enabled) once `after` has
  // finished unpacking them, on stream_verify: every exchange is verified, but
  // neither the check nor waiting for it is part of the exchange's phases; its
  // GPU time is reported as Phase::kVerify.
  void verify(uint32_t t, cudaStream_t after);
  // guard_ghosts: `stream` must not overwrite the ghosts of field(t) (exchange
  // t unpacks) before the check of exchange t - 2, which read them, is done.
  void guard_ghosts(uint32_t t, cudaStream_t stream);
  // collect_verify_times: adds the GPU time of finished checks to kVerify
  // (blocking on the unfinished ones: call after drain()).
  void collect_verify_times();

  // Timers: phases accumulate only while timing is on (after warm-up).
  bool timing = false;
  void phase_begin(Phase phase);
  void phase_end(Phase phase);
  // add_idle_ns / add_phase_ns also mark the phase used: a phase that is only
  // ever accumulated (never begun/ended) must still be reported.
  void add_idle_ns(uint64_t ns) { add_phase_ns(Phase::kCpuIdle, ns); }
  void add_phase_ns(Phase phase, uint64_t ns) {
    used_[static_cast<int>(phase)] = true;
    if (timing) phase_ns_[static_cast<int>(phase)] += ns;
  }
  const std::array<uint64_t, kNumPhases>& phase_ns() const { return phase_ns_; }
  // phase_measured: whether the variant used a phase at all (else reported as absent).
  bool phase_measured(Phase phase) const { return used_[static_cast<int>(phase)]; }
  void mark_phase_used(Phase phase) { used_[static_cast<int>(phase)] = true; }

  // Tracing (no-ops when recorder is null).
  xferlab::native::TraceRecorder* recorder;
  xferlab::native::DeviceTrace device_trace() const;
  void trace(traces::EventKind kind, uint16_t flags, uint32_t id, uint32_t aux, uint64_t value);

  // Fault handling: check_fault aborts the job if a GPU wait timed out;
  // fail aborts with a one-line report (MPI_Abort: no rank left hanging).
  void check_fault() const;
  [[noreturn]] void fail(const std::string& what) const;
  // describe_message: "message 4 (direction 13, face, peer 1, tag 13, 60000 B)".
  std::string describe_message(int m) const;
  // check_verification: copies the report, aborts on a mismatch. Syncs the device.
  void check_verification() const;
  // wait_requests: MPI_Waitall bounded by the timeout; names the first
  // message still outstanding when it expires (a lost message aborts the job).
  void wait_requests(std::vector<MPI_Request>& reqs, bool receives);
  // wait_stream: bounded wait for `stream` (polls, checks faults, aborts on timeout).
  void wait_stream(cudaStream_t stream, const char* what);

 private:
  uint32_t* flag_device_or_host(FlagArray array, int message, bool device) const {
    return flag_slot((device ? flags.device() : flags.host()) +
                         static_cast<size_t>(array) * kFlagsPerArray * kFlagStrideWords,
                     static_cast<uint32_t>(message));
  }
  // One slot per exchange parity and then some: a slot is reused 8 exchanges
  // later, long after its check finished, so reusing it never blocks.
  static constexpr int kVerifySlots = 8;
  struct VerifySlot {
    cudaEvent_t unpacked = nullptr;  ///< on the unpacking stream.
    cudaEvent_t begin = nullptr, end = nullptr;
    bool pending = false;  ///< launched, time not collected yet.
    bool timed = false;    ///< launched while timing was on.
  };
  void collect_slot(VerifySlot& slot);
  std::array<VerifySlot, kVerifySlots> verify_slots_{};
  double* d_field_[2] = {nullptr, nullptr};
  std::array<uint64_t, kNumPhases> phase_ns_{};
  std::array<uint64_t, kNumPhases> phase_start_{};
  std::array<bool, kNumPhases> used_{};
};

// make_host_driven: the host-driven exchange (Irecv, compute + fused pack,
// sync, Isend, Waitall, fused unpack, sync). overlap_interior: compute only
// the boundary before the pack and the interior between the Isends and the
// Waitall (HPGMG-FV, gdasync "host"); else the whole block before the pack
// (Comb cuda+mpi, "baseline").
std::unique_ptr<VariantRunner> make_host_driven(HaloContext& c, bool overlap_interior);

// builtin_variants: baseline, stream, stacked.
std::vector<Variant> builtin_variants();

// halo_main: the whole program (flags, start-up checks, MPI, runs, report,
// trace). `extra` adds variants (gdasync adds "sa" and "ki").
int halo_main(int argc, char** argv, const std::string& program, const std::vector<Variant>& extra);

}  // namespace xferlab::halo
