// third_party/system/startup_probe.cc — an empty program linked with SimGrid
// as xferlab is: what loading the libraries costs (sim/bench_startup.sh).
int main() { return 0; }
