// traces/trace_benchmark.cc — write and read speed of the trace library on
// one core (goal: >= 20 M events/s each way from a warm file, <= 32 B/event
// before compression), on synthetic events and on recorded ones. Counters:
// events/s ("items_per_second", per CPU second of this process, user +
// system, so page-cache copies count but other processes on a shared machine
// do not) and bytes_per_event of the file.
//
//   bazel run -c opt //traces:trace_benchmark -- --benchmark_min_time=1
#include <benchmark/benchmark.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "traces/reader.h"
#include "traces/writer.h"

namespace xferlab::traces {
namespace {

constexpr size_t kEvents = 4 << 20;        // 4 Mi events = 128 MiB raw.
constexpr size_t kBufferEvents = 1 << 16;  // a device buffer drained at a time.

std::string bench_path(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

// Events shaped like a producer kernel's: CTA/counter records from many SMs
// with nearby timestamps.
std::vector<Event> buffer() {
  std::vector<Event> v(kBufferEvents);
  std::mt19937_64 rng(1);
  uint64_t t = 1'700'000'000'000'000'000ull;
  for (size_t i = 0; i < v.size(); ++i) {
    t += rng() % 64;
    const uint16_t kind = uint16_t(i % 3 == 2 ? EventKind::kCounterDecrement
                                   : i % 3    ? EventKind::kCtaEnd
                                              : EventKind::kCtaBegin);
    v[i] = Event{
        t,   kind, 16, uint16_t(rng() % 8), uint16_t(rng() % 132), uint32_t(i), uint32_t(i / 64),
        4096};
  }
  return v;
}

Metadata bench_metadata() {
  Metadata m;
  m.producer.program = "trace_benchmark";
  m.gpus.resize(8);
  for (uint32_t g = 0; g < 8; ++g) m.gpus[g].id = g;
  return m;
}

uint64_t file_bytes(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? uint64_t(st.st_size) : 0;
}

void write_trace(const std::string& path, Compression c, const std::vector<Event>& buf) {
  TraceWriter w;
  WriterOptions o;
  o.compression = c;
  if (!w.open(path, bench_metadata(), o).ok()) std::abort();
  for (size_t n = 0; n < kEvents; n += buf.size()) {
    if (!w.append(buf.data(), buf.size()).ok()) std::abort();
  }
  if (!w.close().ok()) std::abort();
}

void BM_Write(benchmark::State& state) {
  const Compression c = Compression(state.range(0));
  const std::string path = bench_path("bench_w" + std::to_string(state.range(0)) + ".xft");
  const std::vector<Event> buf = buffer();
  for (auto _ : state) write_trace(path, c, buf);
  state.SetItemsProcessed(int64_t(state.iterations() * kEvents));
  state.counters["bytes_per_event"] = double(file_bytes(path)) / double(kEvents);
}
// Arg: the block codec (0 none, 1 zstd, 2 time deltas + shuffle + zstd), level 1.
BENCHMARK(BM_Write)->Arg(0)->Arg(1)->Arg(2)->ArgName("codec")->Unit(benchmark::kMillisecond);

void BM_Read(benchmark::State& state) {
  const Compression c = Compression(state.range(0));
  const std::string path = bench_path("bench_r" + std::to_string(state.range(0)) + ".xft");
  write_trace(path, c, buffer());  // and the first read below warms the page cache.
  uint64_t sum = 0;
  for (auto _ : state) {
    Result<TraceReader> r = TraceReader::open(path);
    if (!r.ok()) std::abort();
    if (!r->for_each([&](const Event& e) { sum += e.value; }).ok()) std::abort();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(int64_t(state.iterations() * kEvents));
  state.counters["bytes_per_event"] = double(file_bytes(path)) / double(kEvents);
}
BENCHMARK(BM_Read)->Arg(0)->Arg(1)->Arg(2)->ArgName("codec")->Unit(benchmark::kMillisecond);

// recorded_events: the records of four committed GPU traces (a PROACT micro,
// ALS and Jacobi run and a halo rank; 507 Ki events), or empty when the
// checkout is not found (`bazel run` sets BUILD_WORKSPACE_DIRECTORY).
std::vector<Event> recorded_events() {
  const char* root = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  std::vector<Event> v;
  for (const char* trace :
       {"2026-11-22_h200x4_nvswitch/traces/jacobi_g4_polling_c256KiB_t4096.xft.zst",
        "2026-11-26_h200x2_run4/heldout/micro_t1024/traces/micro_g2_polling_c4KiB_t1024.xft.zst",
        "2026-11-22_h200x2_run2/proact/traces/als_g2_polling_c16KiB_t1024.xft.zst",
        "2026-11-26_h200x2_run4/halo_detail/traces/baseline_gpus2_200_rank0.xft.zst"}) {
    Result<TraceReader> r =
        TraceReader::open(std::string(root ? root : ".") + "/traces/real/" + trace);
    if (!r.ok()) return {};
    for (size_t b = 0; b < r->num_blocks(); ++b) {
      Result<std::span<const Event>> block = r->read_block(b);
      if (!block.ok()) return {};
      v.insert(v.end(), block->begin(), block->end());
    }
  }
  return v;
}

// Recorded events written as native/trace_recorder.cc writes them (zstd level
// 1, appended in device-buffer-sized pieces). Arg: the block codec.
void BM_WriteRecorded(benchmark::State& state) {
  static const std::vector<Event> events = recorded_events();
  if (events.empty()) {
    state.SkipWithError("traces/real not found: run from the checkout (bazel run)");
    return;
  }
  const std::string path = bench_path("bench_rec" + std::to_string(state.range(0)) + ".xft");
  WriterOptions o;
  o.compression = Compression(state.range(0));
  for (auto _ : state) {
    TraceWriter w;
    if (!w.open(path, bench_metadata(), o).ok()) std::abort();
    for (size_t i = 0; i < events.size(); i += kBufferEvents) {
      if (!w.append(events.data() + i, std::min(kBufferEvents, events.size() - i)).ok()) {
        std::abort();
      }
    }
    if (!w.close().ok()) std::abort();
  }
  state.SetItemsProcessed(int64_t(state.iterations() * events.size()));
  state.counters["bytes_per_event"] = double(file_bytes(path)) / double(events.size());
}
BENCHMARK(BM_WriteRecorded)->Arg(1)->Arg(2)->ArgName("codec")->Unit(benchmark::kMillisecond);

// Random access: one event_at per iteration across the file.
void BM_EventAt(benchmark::State& state) {
  const std::string path = bench_path("bench_r0.xft");
  write_trace(path, Compression::kNone, buffer());
  Result<TraceReader> r = TraceReader::open(path);
  if (!r.ok()) std::abort();
  std::mt19937_64 rng(2);
  for (auto _ : state) {
    Result<Event> e = r->event_at(rng() % kEvents);
    benchmark::DoNotOptimize(e.ok());
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_EventAt);

}  // namespace
}  // namespace xferlab::traces
