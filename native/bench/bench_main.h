// native/bench/bench_main.h — the main() the benchmark programs share
// (bench_main.cc): it switches CUDA to eager module loading before any CUDA
// call (the spin latch deadlocks against lazy loading, see cuda_check.h),
// then runs the program's benchmark_main.
#pragma once

namespace xferlab::native::bench {

// benchmark_main: the program's body, defined once per benchmark program;
// returns the process exit code.
int benchmark_main(int argc, char** argv);

}  // namespace xferlab::native::bench
