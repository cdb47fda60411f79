// tests/gen_trace.cc — writes a small synthetic trace (traces/generator.h) for
// golden and end-to-end tests: gen_trace OUT MECHANISM GPUS CHUNKS ITERATIONS [GPU_MODEL].
#include <cstdint>
#include <iostream>
#include <string>

#include "common/number.h"
#include "traces/generator.h"

int main(int argc, char** argv) {
  using namespace xferlab::traces;
  if (argc != 6 && argc != 7) {
    std::cerr << "usage: gen_trace OUT memcpy|polling|cdp|inline|hardware GPUS CHUNKS ITERATIONS "
                 "[GPU_MODEL]\n";
    return 2;
  }
  GenerateOptions o;
  const std::string m = argv[2];
  o.mechanism = m == "memcpy"     ? TransferMechanism::kMemcpy
                : m == "cdp"      ? TransferMechanism::kCdp
                : m == "inline"   ? TransferMechanism::kInline
                : m == "hardware" ? TransferMechanism::kHardwareDma
                                  : TransferMechanism::kPolling;
  uint32_t counts[3];
  for (int i = 0; i < 3; ++i) {
    xferlab::Result<uint64_t> n = xferlab::parse_uint(argv[3 + i]);
    if (!n.ok() || *n == 0 || *n > UINT32_MAX) {
      std::cerr << "gen_trace: '" << argv[3 + i] << "' is not a positive count\n";
      return 2;
    }
    counts[i] = static_cast<uint32_t>(*n);
  }
  o.gpus = counts[0];
  o.chunks = counts[1];
  o.ctas = o.chunks * 8;
  o.iterations = counts[2];
  if (argc == 7) o.gpu_model = argv[6];
  xferlab::Status s = generate_trace(argv[1], o);
  if (!s.ok()) {
    std::cerr << s.error().message << "\n";
    return 1;
  }
  return 0;
}
