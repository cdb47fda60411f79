// native/halo/notify_types.h — plain data shared by the host and the GPU for
// notification flags in pinned host memory: flag-array ids (trace names) and
// the fault record a timed-out spin-wait leaves for the host to report.
#pragma once

#include <cstddef>
#include <cstdint>

#include "native/halo/halo_geometry.h"

namespace xferlab::halo {

// FlagArray: which flag array a flag index belongs to. Trace flag id =
// array * kFlagsPerArray + message, named in the trace metadata "flags" table.
enum class FlagArray : uint32_t {
  kSendReady = 0,     ///< GPU -> CPU: message packed (halo stream/stacked).
  kUnpackReady = 1,   ///< CPU -> GPU: message received (halo stream/stacked).
  kDoorbell = 2,      ///< GPU -> proxy: send descriptor rung (gdasync).
  kRecvComplete = 3,  ///< proxy -> GPU: receive completed (gdasync).
  kSendComplete = 4,  ///< proxy -> GPU: send buffer reusable (gdasync).
  kRecvAll = 5,       ///< proxy -> GPU: all receives of an iteration completed (gdasync SA).
  kDeviceReady = 6,   ///< GPU -> GPU: receiver block -> unpacker blocks (gdasync KI).
  kNumArrays = 7,
};
inline constexpr uint32_t kFlagsPerArray = 64;
// kFlagStrideWords: flags are stored one per 128-byte line. Packed flags
// share lines, so every CPU store to one flag invalidates the line that the
// GPU CTAs polling its neighbours keep re-reading over PCIe (and vice versa).
inline constexpr uint32_t kFlagStrideWords = 32;

// flag_slot: flag m of the flag array starting at `base`.
template <typename T>
XF_HALO_HD T* flag_slot(T* base, uint32_t m) {
  return base + static_cast<size_t>(m) * kFlagStrideWords;
}

// flag_array_name: "send_ready", "unpack_ready", ...
XF_HALO_HD const char* flag_array_name(FlagArray a) {
  switch (a) {
    case FlagArray::kSendReady: return "send_ready";
    case FlagArray::kUnpackReady: return "unpack_ready";
    case FlagArray::kDoorbell: return "doorbell";
    case FlagArray::kRecvComplete: return "recv_complete";
    case FlagArray::kSendComplete: return "send_complete";
    case FlagArray::kRecvAll: return "recv_all";
    case FlagArray::kDeviceReady: return "device_ready";
    case FlagArray::kNumArrays: break;
  }
  return "?";
}

// DeviceFault: written (in pinned host memory) by the first GPU spin-wait that
// times out; the host polls `code` and aborts the job with this report.
struct DeviceFault {
  uint32_t code;        ///< 0 none, 1 flag wait timed out.
  uint32_t flag_array;  ///< FlagArray.
  uint32_t message;     ///< message index (flag within its array).
  uint32_t expected;    ///< value waited for (epoch = iteration + 1).
  uint32_t seen;        ///< last value read.
  uint32_t block;       ///< CTA that timed out.
  uint64_t waited_ns;
};

// VerifyReport: device memory; the verify kernel counts ghost cells that do
// not hold their owner's value and keeps the first one it found.
struct VerifyReport {
  unsigned long long mismatches;
  int claimed;  ///< 0 until the first mismatch is recorded.
  uint32_t iteration;
  int message;
  int var, i, j, k;
  double got;
  double want;
};

}  // namespace xferlab::halo
