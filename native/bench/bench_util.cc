// native/bench/bench_util.cc — shared benchmark plumbing (see bench_util.h).
#include "native/bench/bench_util.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "native/clock_sync.h"
#include "native/cuda_check.h"

namespace xferlab::native::bench {

void add_common_flags(FlagSet& flags, int64_t default_reps, int64_t default_warmup) {
  flags.add_string("out", ".", {}, "output directory for the CSV and the trace")
      .add_bool("trace", true, "record and write a trace (.xft)")
      .add_int("reps", default_reps, 1, 100000, "measured repetitions per point")
      .add_int("warmup", default_warmup, 0, 1000, "unmeasured repetitions before each point")
      .add_time("timeout", "2s", "give up on any spin-wait after this long");
}

Status prepare_output_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return make_runtime_error("cannot create output directory " + dir + ": " + ec.message());
  return Status::Ok();
}

Status write_csv(const Table& table, const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name;
  std::ofstream out(path);
  if (!out) return make_runtime_error("cannot write " + path + ": " + std::strerror(errno));
  table.write_csv(out);
  out.close();
  if (!out) return make_runtime_error("error writing " + path);
  return Status::Ok();
}

Status spin_until(const std::function<bool()>& done, uint64_t timeout_ns, const std::string& what) {
  const uint64_t start = host_steady_ns();
  while (!done()) {
    if (host_steady_ns() - start > timeout_ns)
      return make_runtime_error("timed out after " + std::to_string(timeout_ns / 1000000) +
                                " ms waiting for " + what);
  }
  return Status::Ok();
}

PinnedBuffer::PinnedBuffer(size_t bytes) : bytes_(bytes) {
  XF_CUDA_CHECK(cudaHostAlloc(&ptr_, bytes, cudaHostAllocPortable | cudaHostAllocMapped));
  std::memset(ptr_, 0, bytes);
}

PinnedBuffer::~PinnedBuffer() {
  XF_CUDA_CHECK(cudaFreeHost(ptr_));
}

SpinLatch::SpinLatch(uint64_t timeout_ns)
    : mailbox_(2 * sizeof(uint32_t)), timeout_ns_(timeout_ns) {}

SpinLatch::~SpinLatch() = default;

void SpinLatch::hold(cudaStream_t stream) {
  ++generation_;
  detail::launch_spin_latch(static_cast<uint32_t*>(mailbox_.get()), generation_, timeout_ns_,
                            stream);
  XF_CUDA_CHECK_LAUNCH();
}

void SpinLatch::release() {
  volatile uint32_t* box = static_cast<uint32_t*>(mailbox_.get());
  box[0] = generation_;
}

Status SpinLatch::check() const {
  const volatile uint32_t* box = static_cast<uint32_t*>(mailbox_.get());
  if (box[1] == generation_)
    return make_runtime_error("spin latch timed out after " +
                              std::to_string(timeout_ns_ / 1000000) +
                              " ms waiting for the host to release it (enqueue took too long)");
  return Status::Ok();
}

Result<double> time_latched_ns(cudaStream_t stream, SpinLatch& latch,
                               const std::function<void()>& enqueue) {
  cudaEvent_t start, stop;
  XF_CUDA_CHECK(cudaEventCreate(&start));
  XF_CUDA_CHECK(cudaEventCreate(&stop));
  latch.hold(stream);
  XF_CUDA_CHECK(cudaEventRecord(start, stream));
  enqueue();
  XF_CUDA_CHECK(cudaEventRecord(stop, stream));
  latch.release();
  XF_CUDA_CHECK(cudaStreamSynchronize(stream));
  float ms = 0;
  XF_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  XF_CUDA_CHECK(cudaEventDestroy(start));
  XF_CUDA_CHECK(cudaEventDestroy(stop));
  XF_RETURN_IF_ERROR(latch.check());
  return static_cast<double>(ms) * 1e6;
}

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

Status require_peer_pair(int a, int b) {
  const int n = device_count();
  if (n < 2)
    return make_runtime_error("needs 2 GPUs for the peer tests, found " + std::to_string(n));
  if (a == b || a < 0 || b < 0 || a >= n || b >= n)
    return make_error("peer tests need two different devices in [0, " + std::to_string(n - 1) +
                      "], got " + std::to_string(a) + " and " + std::to_string(b));
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    int can = 0;
    XF_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, x, y));
    if (!can)
      return make_runtime_error("GPU " + std::to_string(x) + " cannot access GPU " +
                                std::to_string(y) + " (no peer access)");
    XF_CUDA_CHECK(cudaSetDevice(x));
    const cudaError_t err = cudaDeviceEnablePeerAccess(y, 0);
    if (err == cudaErrorPeerAccessAlreadyEnabled) {
      cudaGetLastError();
    } else {
      XF_CUDA_CHECK(err);
    }
  }
  XF_CUDA_CHECK(cudaSetDevice(a));
  return Status::Ok();
}

Result<std::unique_ptr<TraceRecorder>> make_recorder(const FlagSet& flags,
                                                     const std::vector<int>& devices, int argc,
                                                     char** argv) {
  TraceRecorderOptions opts;
  opts.enabled = flags.get_bool("trace");
  auto rec = TraceRecorder::create(devices, opts);
  if (!rec.ok()) return rec.error();
  (*rec)->set_producer(flags.program(), argc, argv);
  for (const auto& [name, value] : flags.values()) (*rec)->metadata().set_parameter(name, value);
  return rec;
}

void exit_on_error(const Status& status, const std::string& program) {
  if (status.ok()) return;
  std::cerr << program << ": " << status.error().message << "\n";
  std::exit(status.error().exit_code());
}

int device_or_exit(const FlagSet& flags, const std::string& program) {
  const int n = device_count();
  const int device = static_cast<int>(flags.get_int("device"));
  if (device >= n)
    exit_on_error(make_runtime_error("no GPU " + std::to_string(device) + " (found " +
                                     std::to_string(n) + ")"),
                  program);
  return device;
}

Status finish_outputs(TraceRecorder& rec, const FlagSet& flags, const std::vector<CsvOutput>& csvs,
                      const Table& shown) {
  XF_RETURN_IF_ERROR(rec.sync_clocks());
  const std::string out = flags.get_string("out");
  for (const CsvOutput& csv : csvs) XF_RETURN_IF_ERROR(write_csv(*csv.table, out, csv.name));
  if (flags.get_bool("trace")) XF_RETURN_IF_ERROR(rec.write(out + "/" + flags.program() + ".xft"));
  shown.write_text(std::cout);
  return Status::Ok();
}

}  // namespace xferlab::native::bench
