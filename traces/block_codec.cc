// traces/block_codec.cc — codec 2's time-delta + byte-plane shuffle.
#include "traces/block_codec.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace xferlab::traces {
namespace {

static_assert(offsetof(Event, time_ns) == 0 && sizeof(Event::time_ns) == 8,
              "codec 2 deltas the record's first 8 bytes");

// Records are transposed a tile at a time: going straight from record to
// planes writes 32 places a power-of-two stride apart for every record, which
// all fall into one L1 cache set (4x slower than zstd level 1 itself).
constexpr size_t kTileRecords = 64;  ///< one cache line of each plane.
using Tile = unsigned char[kTileRecords][sizeof(Event)];

}  // namespace

void delta_shuffle(const Event* events, size_t n, unsigned char* out) {
  uint64_t prev = 0;
  Tile tile;
  for (size_t first = 0; first < n; first += kTileRecords) {
    const size_t m = std::min(kTileRecords, n - first);
    for (size_t k = 0; k < m; ++k) {
      const Event& e = events[first + k];
      const uint64_t delta = e.time_ns - prev;  // wraps: any order round-trips.
      prev = e.time_ns;
      std::memcpy(tile[k], &e, sizeof(Event));
      std::memcpy(tile[k], &delta, sizeof(delta));
    }
    for (size_t b = 0; b < sizeof(Event); ++b) {
      unsigned char* plane = out + b * n + first;
      for (size_t k = 0; k < m; ++k) plane[k] = tile[k][b];
    }
  }
}

void undelta_unshuffle(const unsigned char* in, size_t n, Event* events) {
  uint64_t prev = 0;
  Tile tile;
  for (size_t first = 0; first < n; first += kTileRecords) {
    const size_t m = std::min(kTileRecords, n - first);
    for (size_t b = 0; b < sizeof(Event); ++b) {
      const unsigned char* plane = in + b * n + first;
      for (size_t k = 0; k < m; ++k) tile[k][b] = plane[k];
    }
    for (size_t k = 0; k < m; ++k) {
      Event& e = events[first + k];
      std::memcpy(&e, tile[k], sizeof(Event));
      prev += e.time_ns;
      e.time_ns = prev;
    }
  }
}

}  // namespace xferlab::traces
