// native/bench/bench_main.cc — main() of every benchmark program (see bench_main.h).
#include "native/bench/bench_main.h"

#include "native/cuda_check.h"

int main(int argc, char** argv) {
  xferlab::native::use_eager_module_loading();  // before any CUDA call.
  return xferlab::native::bench::benchmark_main(argc, argv);
}
