// link_model_benchmark: evaluations per second of the LinkModel functions the
// simulator calls in its inner loop (goal: >= 10 million per second per core).
// Run: bazel run -c opt //hw_model:link_model_benchmark
#include <benchmark/benchmark.h>

#include "hw_model/link_model.h"

namespace xferlab::hw_model {
namespace {

LinkModel model(const char* name) {
  return *LinkModel::create(*builtin_link_format(name));
}

// Sizes cycle through 1..8192 B so branches and divisions see varied input.
void BM_Efficiency(benchmark::State& state, const char* name) {
  LinkModel m = model(name);
  double size = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.efficiency(size));
    size = size >= 8192 ? 1 : size + 13;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_Efficiency, nvlink4, "nvlink4");
BENCHMARK_CAPTURE(BM_Efficiency, pcie6, "pcie6");

void BM_WritesAndTime(benchmark::State& state) {
  LinkModel m = model("nvlink4");
  double size = 1;
  for (auto _ : state) {
    WireBytes w = m.writes(1024, size, Pattern::kScattered);
    benchmark::DoNotOptimize(m.time(w, 18));
    size = size >= 8192 ? 1 : size + 13;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_WritesAndTime);

void BM_Read(benchmark::State& state) {
  LinkModel m = model("pcie5");
  double size = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.read(size));
    size = size >= 8192 ? 1 : size + 13;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Read);

}  // namespace
}  // namespace xferlab::hw_model
