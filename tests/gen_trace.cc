// tests/gen_trace.cc — writes a small synthetic trace (traces/generator.h) for
// golden and end-to-end tests: gen_trace OUT MECHANISM GPUS CHUNKS ITERATIONS.
#include <cstdlib>
#include <iostream>
#include <string>

#include "traces/generator.h"

int main(int argc, char** argv) {
  using namespace xferlab::traces;
  if (argc != 6) {
    std::cerr << "usage: gen_trace OUT memcpy|polling|cdp|inline|hardware GPUS CHUNKS ITERATIONS\n";
    return 2;
  }
  GenerateOptions o;
  const std::string m = argv[2];
  o.mechanism = m == "memcpy"     ? TransferMechanism::kMemcpy
                : m == "cdp"      ? TransferMechanism::kCdp
                : m == "inline"   ? TransferMechanism::kInline
                : m == "hardware" ? TransferMechanism::kHardwareDma
                                  : TransferMechanism::kPolling;
  o.gpus = static_cast<uint32_t>(std::atoi(argv[3]));
  o.chunks = static_cast<uint32_t>(std::atoi(argv[4]));
  o.ctas = o.chunks * 8;
  o.iterations = static_cast<uint32_t>(std::atoi(argv[5]));
  xferlab::Status s = generate_trace(argv[1], o);
  if (!s.ok()) {
    std::cerr << s.error().message << "\n";
    return 1;
  }
  return 0;
}
