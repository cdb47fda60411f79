// native/bench/interference_bench.cc — CPU/GPU memory interference: rank 0's
// GPU writes pinned host memory while rank 0's CPU sends from pinned host
// memory with MPI_Send to rank 1 (2 ranks on one node). Scenarios (halo
// paper, REFERENCES.md §2):
//   SSB  sequential, single buffer: the GPU writes the send buffer, finishes,
//        then the CPU sends it (baseline, no concurrent GPU traffic);
//   PSB  parallel, same buffer: the GPU keeps writing the send buffer while
//        the CPU sends it;
//   PCB  parallel, consecutive buffer: the GPU writes the buffer right after;
//   P2AB parallel, 2 MB apart: the GPU writes a buffer starting 2 MiB after
//        the end of the send buffer.
// GPU access: "stream" = 1 CTA of the maximum threads, "stacked" = the full
// co-resident grid (cooperative launch). Reported: MPI_Send time vs size.
// Run: mpirun --allow-run-as-root -np 2 interference_bench --out DIR
#include <cuda_runtime.h>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>

#include "common/flags.h"
#include "native/bench/bench_main.h"
#include "native/bench/bench_util.h"
#include "native/bench/interference_kernels.h"
#include "native/clock_sync.h"
#include "native/cuda_check.h"
#include "native/mpi_check.h"
#include "native/stats.h"
#include "native/trace_recorder.h"

namespace xferlab::native::bench {
namespace {

constexpr const char* kProgram = "interference_bench";
constexpr uint64_t kGapBytes = 2ull << 20;  // P2AB distance
constexpr int kTag = 7;

struct Scenario {
  const char* name;
  bool parallel;
  // GPU buffer start relative to the send buffer start, in units of the size
  // (plus a fixed gap).
  uint64_t size_multiple;
  uint64_t gap_bytes;
};
constexpr Scenario kScenarios[] = {
    {"SSB", false, 0, 0},
    {"PSB", true, 0, 0},
    {"PCB", true, 1, 0},
    {"P2AB", true, 1, kGapBytes},
};

uint32_t pattern(uint64_t i, uint32_t seed) {
  return static_cast<uint32_t>(i) * 2654435761u ^ seed;
}

// Fills with the pattern the receiver checks (CPU-written scenarios) or with
// `gpu_value` (SSB: the GPU writes the whole buffer with one value).
uint64_t count_mismatches(const uint32_t* buf, uint64_t words, bool gpu_written, uint32_t gpu_value,
                          uint32_t seed) {
  uint64_t bad = 0;
  for (uint64_t i = 0; i < words; ++i)
    bad += buf[i] != (gpu_written ? gpu_value : pattern(i, seed));
  return bad;
}

uint64_t largest(const std::vector<double>& sizes) {
  uint64_t max_size = 0;
  for (double s : sizes) max_size = std::max(max_size, static_cast<uint64_t>(s));
  return max_size;
}

// abort_on_error: rank 0's errors end both ranks.
void abort_on_error(const Status& st) {
  if (st.ok()) return;
  std::cerr << kProgram << ": " << st.error().message << "\n";
  MPI_Abort(MPI_COMM_WORLD, st.error().exit_code());
}

// Sender: rank 0's state for timing sends.
struct Sender {
  TraceRecorder& r;
  int device;
  char* send;              ///< send buffer at offset 0 of pinned host memory.
  WriterControl* control;  ///< the GPU writer's control block (pinned).
  cudaStream_t stream;
  int reps, warmup;
  uint64_t timeout_ns;
  uint32_t message = 0;  ///< messages sent so far.
};

// time_sends: warmup + reps MPI_Sends of `bytes` while scenario sc's GPU
// writer runs (stacked or stream access); returns the timed sends (ns),
// *ctas = the writer's CTAs. Each message's value and seed go after it.
std::vector<double> time_sends(Sender& x, const Scenario& sc, bool stacked, uint64_t bytes,
                               int* ctas) {
  char* gpu_dst = x.send + sc.size_multiple * bytes + sc.gap_bytes;
  volatile WriterControl* ctl = x.control;
  std::vector<double> times;
  for (int rep = -x.warmup; rep < x.reps; ++rep) {
    ++x.message;
    const uint32_t gpu_value = 0xA5000000u | x.message;
    const uint32_t seed = x.message * 7919u;
    auto* words = reinterpret_cast<uint32_t*>(x.send);
    if (std::string(sc.name) != "SSB")
      for (uint64_t i = 0; i < bytes / 4; ++i) words[i] = pattern(i, seed);
    std::memset(x.control, 0, sizeof(WriterControl));
    const DeviceTrace trace = rep == x.reps - 1 ? x.r.device_trace(x.device) : DeviceTrace{};
    auto launched = launch_interference_writer(gpu_dst, bytes, gpu_value, !sc.parallel, stacked,
                                               x.control, x.timeout_ns, trace, x.stream);
    abort_on_error(launched.ok() ? Status::Ok() : Status(launched.error()));
    *ctas = *launched;
    if (sc.parallel) {
      abort_on_error(spin_until([&] { return ctl->running != 0; }, x.timeout_ns,
                                "the GPU writer kernel to start"));
    } else {
      XF_CUDA_CHECK(cudaStreamSynchronize(x.stream));
    }
    XF_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    x.r.record_host(traces::EventKind::kMpiPost, static_cast<uint16_t>(traces::MpiOp::kSend), 0, 0,
                    1, kTag, bytes);
    const uint64_t t0 = host_steady_ns();
    XF_MPI_CHECK(MPI_Send(x.send, static_cast<int>(bytes), MPI_BYTE, 1, kTag, MPI_COMM_WORLD));
    const uint64_t t1 = host_steady_ns();
    x.r.record_host_at(t1, traces::EventKind::kMpiComplete,
                       static_cast<uint16_t>(traces::MpiOp::kSend), 0, 0, 1, kTag, bytes);
    ctl->stop = 1;
    XF_CUDA_CHECK(cudaStreamSynchronize(x.stream));
    if (ctl->timed_out)
      abort_on_error(make_runtime_error("GPU writer timed out waiting for the host's stop flag"));
    const uint32_t header[2] = {gpu_value, seed};
    XF_MPI_CHECK(MPI_Send(header, 2, MPI_UINT32_T, 1, kTag + 1, MPI_COMM_WORLD));
    if (rep >= 0) times.push_back(double(t1 - t0));
  }
  return times;
}

// measure_all: every scenario x access x size, in that order, as the
// receiver expects them: interference_bench.csv's table.
Table measure_all(Sender& sender, const std::vector<double>& sizes) {
  Table table({{"scenario"},
               {"access"},
               {"ctas"},
               {"size_bytes"},
               {"reps"},
               {"send_ns_median", 5},
               {"send_ns_p10", 5},
               {"send_ns_p90", 5},
               {"send_bw_bytes_per_s", 4},
               {"slowdown_vs_ssb", 4}});
  std::map<std::pair<int, uint64_t>, double> ssb_median;  // (access, size) -> ns
  for (const Scenario& sc : kScenarios) {
    for (int access = 0; access < 2; ++access) {
      const bool stacked = access == 1;
      for (double s : sizes) {
        const uint64_t bytes = static_cast<uint64_t>(s);
        int ctas = 0;
        const std::vector<double> times = time_sends(sender, sc, stacked, bytes, &ctas);
        const Summary sum = summarize(times);
        if (std::string(sc.name) == "SSB") ssb_median[{access, bytes}] = sum.median;
        const double base = ssb_median[{access, bytes}];
        table.add_row({std::string(sc.name), std::string(stacked ? "stacked" : "stream"),
                       static_cast<int64_t>(ctas), static_cast<int64_t>(bytes),
                       static_cast<int64_t>(sum.n), sum.median, sum.p10, sum.p90,
                       sum.median > 0 ? bytes / (sum.median * 1e-9) : 0.0,
                       base > 0 ? sum.median / base : 0.0});
        std::fprintf(stderr, "%s: %-4s %-7s %10llu B: MPI_Send median %9.1f us\n", kProgram,
                     sc.name, stacked ? "stacked" : "stream",
                     static_cast<unsigned long long>(bytes), sum.median / 1e3);
      }
    }
  }
  return table;
}

// run_receiver: rank 1 mirrors the sender's schedule (scenario x access x
// size x rep), receives each message and counts the words it can verify.
int run_receiver(const std::vector<double>& sizes, int reps, int warmup) {
  const uint64_t max_size = largest(sizes);
  std::vector<uint32_t> buf(max_size / 4);
  uint64_t bad = 0;
  for (const Scenario& sc : kScenarios)
    for (int access = 0; access < 2; ++access)
      for (double s : sizes)
        for (int rep = -warmup; rep < reps; ++rep) {
          const uint64_t bytes = static_cast<uint64_t>(s);
          uint32_t header[2];  // gpu value, seed of this message
          XF_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
          XF_MPI_CHECK(MPI_Recv(buf.data(), static_cast<int>(bytes), MPI_BYTE, 0, kTag,
                                MPI_COMM_WORLD, MPI_STATUS_IGNORE));
          XF_MPI_CHECK(
              MPI_Recv(header, 2, MPI_UINT32_T, 0, kTag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
          // PSB races by design: its contents are not checked.
          if (std::string(sc.name) != "PSB")
            bad += count_mismatches(buf.data(), bytes / 4, std::string(sc.name) == "SSB", header[0],
                                    header[1]);
        }
  uint64_t total = 0;
  XF_MPI_CHECK(MPI_Reduce(&bad, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD));
  XF_MPI_CHECK(MPI_Finalize());
  return 0;
}

}  // namespace

int benchmark_main(int argc, char** argv) {
  FlagSet flags(kProgram,
                "CPU/GPU memory interference: MPI_Send time from pinned host memory while the "
                "GPU writes nearby host memory (SSB, PSB, PCB, P2AB; stream and stacked access). "
                "Run under mpirun with 2 ranks. Rank 0 writes interference_bench.csv and "
                "interference_bench.xft into --out.");
  add_common_flags(flags, 20, 5);
  flags
      .add_size_list("sizes", "4KiB,64KiB,256KiB,1MiB,4MiB,16MiB", 16, 1 << 30,
                     "MPI_Send sizes in bytes (multiples of 16)")
      .add_int("device", -1, -1, 63, "GPU of rank 0 (-1: rank modulo GPU count)");
  // Parse before MPI_Init so --help and bad flags need no launcher.
  parse_flags_or_exit(flags, argc, argv);
  for (double s : flags.get_size_list("sizes"))
    if (static_cast<uint64_t>(s) % 16 != 0)
      exit_on_error(
          make_error("--sizes: " + std::to_string(int64_t(s)) + " is not a multiple of 16 bytes"),
          kProgram);
  if (!launched_by_mpirun())
    exit_on_error(make_runtime_error("must be started by mpirun with 2 ranks "
                                     "(mpirun --allow-run-as-root -np 2 " +
                                     std::string(kProgram) + " ...)"),
                  kProgram);
  XF_MPI_CHECK(MPI_Init(&argc, &argv));
  int rank = 0, size = 0;
  XF_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  XF_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  if (size != 2) {
    if (rank == 0) std::cerr << kProgram << ": needs exactly 2 MPI ranks, got " << size << "\n";
    MPI_Finalize();
    return 1;
  }
  const int reps = static_cast<int>(flags.get_int("reps"));
  const int warmup = static_cast<int>(flags.get_int("warmup"));
  const uint64_t timeout_ns = static_cast<uint64_t>(flags.get_time_ns("timeout"));
  const auto sizes = flags.get_size_list("sizes");
  const uint64_t max_size = largest(sizes);

  if (rank == 1) return run_receiver(sizes, reps, warmup);

  const int n_gpus = device_count();
  if (n_gpus == 0) {
    std::cerr << kProgram << ": rank 0 needs a GPU, found none\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int device =
      flags.get_int("device") >= 0 ? static_cast<int>(flags.get_int("device")) : rank % n_gpus;
  if (device >= n_gpus) {
    std::cerr << kProgram << ": no GPU " << device << " (found " << n_gpus << ")\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const std::string out = flags.get_string("out");
  abort_on_error(prepare_output_dir(out));
  XF_CUDA_CHECK(cudaSetDevice(device));
  auto rec = make_recorder(flags, {device}, argc, argv);
  abort_on_error(rec.ok() ? Status::Ok() : Status(rec.error()));
  TraceRecorder& r = **rec;
  r.metadata().machine.mpi = mpi_library_version();
  abort_on_error(r.sync_clocks());

  // Send buffer at offset 0; GPU buffers after it (PCB: at size; P2AB: at
  // size + 2 MiB).
  PinnedBuffer host(2 * max_size + kGapBytes);
  PinnedBuffer control_mem(sizeof(WriterControl));
  cudaStream_t stream;
  XF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  Sender sender{r,
                device,
                static_cast<char*>(host.get()),
                static_cast<WriterControl*>(control_mem.get()),
                stream,
                reps,
                warmup,
                timeout_ns};
  const Table table = measure_all(sender, sizes);
  uint64_t zero = 0, bad = 0;
  XF_MPI_CHECK(MPI_Reduce(&zero, &bad, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD));
  XF_CUDA_CHECK(cudaStreamDestroy(stream));
  abort_on_error(finish_outputs(r, flags, {{"interference_bench.csv", &table}}, table));
  XF_MPI_CHECK(MPI_Finalize());
  if (bad != 0) {
    std::cerr << kProgram << ": receiver found " << bad << " wrong words\n";
    return 1;
  }
  return 0;
}

}  // namespace xferlab::native::bench
