// native/bench/bench_util.h — what every microbenchmark shares: output files
// (CSV + trace), bounded host spin-waits, a spin latch that holds a stream so
// that measured GPU work starts only after it is all enqueued, latched
// event timing, pinned host buffers and peer-access checks.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/flags.h"
#include "common/result.h"
#include "common/table.h"
#include "native/trace_recorder.h"

namespace xferlab::native::bench {

// kDefaultTimeout: every spin-wait (host or device) gives up after this long.
inline constexpr uint64_t kDefaultTimeoutNs = 2'000'000'000ull;

// add_common_flags: --out (output directory), --trace (on/off), --reps,
// --warmup, --timeout, declared the same way in every benchmark.
void add_common_flags(FlagSet& flags, int64_t default_reps, int64_t default_warmup);

// prepare_output_dir: mkdir -p; runtime error naming the directory on failure.
Status prepare_output_dir(const std::string& dir);

// write_csv: `table` as CSV to dir/name; runtime error naming the file.
Status write_csv(const Table& table, const std::string& dir, const std::string& name);

// spin_until: calls done() until it returns true; after timeout_ns returns a
// runtime error "timed out after X ms waiting for <what>".
Status spin_until(const std::function<bool()>& done, uint64_t timeout_ns, const std::string& what);

// PinnedBuffer: cudaHostAlloc'ed (portable, mapped) host memory; the device
// pointer is the same address (UVA).
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// SpinLatch: a one-thread kernel that holds a stream until release(). Work
// enqueued behind it (between timing events) starts back to back, so host
// enqueue cost is excluded from device-side timings (nvbandwidth's method).
class SpinLatch {
 public:
  explicit SpinLatch(uint64_t timeout_ns = kDefaultTimeoutNs);
  ~SpinLatch();
  SpinLatch(const SpinLatch&) = delete;
  SpinLatch& operator=(const SpinLatch&) = delete;

  // hold: enqueue the latch kernel on `stream` (on the stream's device).
  void hold(cudaStream_t stream);
  // release: let the latch kernel finish.
  void release();
  // check: after the stream synchronized, error if the latch timed out.
  Status check() const;

 private:
  PinnedBuffer mailbox_;  ///< [0] = generation released, [1] = timed-out generation.
  uint32_t generation_ = 0;
  uint64_t timeout_ns_;
};

// time_latched_ns: holds `stream`, records a start event, runs enqueue(),
// records a stop event, releases, synchronizes; returns stop - start in ns.
Result<double> time_latched_ns(cudaStream_t stream, SpinLatch& latch,
                               const std::function<void()>& enqueue);

// require_peer_pair: both devices exist and each can access the other; then
// enables peer access both ways. The error names what is missing.
Status require_peer_pair(int a, int b);

// device_count: number of CUDA devices (0 if the driver reports none).
int device_count();

// make_recorder: a TraceRecorder for `devices` honoring --trace, with the
// producer set from argv and every flag recorded as a trace parameter.
Result<std::unique_ptr<TraceRecorder>> make_recorder(const FlagSet& flags,
                                                     const std::vector<int>& devices, int argc,
                                                     char** argv);

namespace detail {
// launch_spin_latch: the latch kernel (bench_util_kernels.cu): spins until
// mailbox[0] == generation; after timeout_ns sets mailbox[1] = generation.
void launch_spin_latch(uint32_t* mailbox, uint32_t generation, uint64_t timeout_ns,
                       cudaStream_t stream);
}  // namespace detail

// exit_on_error: prints "program: message" and exits with the error's code.
void exit_on_error(const Status& status, const std::string& program);

// device_or_exit: the GPU --device names; exits with "program: no GPU D
// (found N)" (runtime error) when there is no such GPU.
int device_or_exit(const FlagSet& flags, const std::string& program);

// CsvOutput: a table written as --out/name.
struct CsvOutput {
  std::string name;
  const Table* table;
};

// finish_outputs: how every benchmark ends: the closing clock sync (with the
// opening one it brackets the run), each of `csvs` in order into --out, the
// trace as --out/<program>.xft when --trace is on, then `shown` as text on
// stdout. Stops at the first error.
Status finish_outputs(TraceRecorder& rec, const FlagSet& flags, const std::vector<CsvOutput>& csvs,
                      const Table& shown);

}  // namespace xferlab::native::bench
