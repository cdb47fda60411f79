// traces/block_codec.cc — codec 2's time-delta + byte-plane shuffle.
#include "traces/block_codec.h"

#include <algorithm>
#include <bit>
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

// swap_blocks: exchanges the `bits`-wide blocks of `a` above those of `b`
// (mask m selects b's blocks that move), one round of an 8x8 byte transpose.
inline void swap_blocks(uint64_t& a, uint64_t& b, int bits, uint64_t m) {
  const uint64_t t = ((a >> bits) ^ b) & m;
  b ^= t, a ^= t << bits;
}

void undelta_unshuffle(const unsigned char* in, size_t n, Event* events) {
  static_assert(std::endian::native == std::endian::little, "the transpose reads bytes as words");
  static_assert(sizeof(Event) % 8 == 0);
  unsigned char* out = reinterpret_cast<unsigned char*>(events);
  // Whole tiles, 8 planes at a time (8 cache lines: a power-of-two n puts
  // every plane's line in one L1 set), 8 records at a time.
  const size_t whole = n / kTileRecords * kTileRecords;
  uint64_t prev = 0;
  auto sum_deltas = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) prev += events[k].time_ns, events[k].time_ns = prev;
  };
  for (size_t first = 0; first < whole; first += kTileRecords) {
    for (size_t b = 0; b < sizeof(Event); b += 8) {
      for (size_t k = first; k < first + kTileRecords; k += 8) {
        // w[p]: byte p of records k..k+7 (byte j of the word is record
        // k+j's, little-endian); three rounds of swapping 1-, 2- and 4-byte
        // blocks make w[j] the 8 bytes of record k+j (~36 word operations
        // where a byte loop takes 64 loads and 64 stores).
        uint64_t w0, w1, w2, w3, w4, w5, w6, w7;
        const unsigned char* p = in + b * n + k;
        std::memcpy(&w0, p, 8), std::memcpy(&w1, p + n, 8), std::memcpy(&w2, p + 2 * n, 8);
        std::memcpy(&w3, p + 3 * n, 8), std::memcpy(&w4, p + 4 * n, 8);
        std::memcpy(&w5, p + 5 * n, 8), std::memcpy(&w6, p + 6 * n, 8);
        std::memcpy(&w7, p + 7 * n, 8);
        constexpr uint64_t k1 = 0x00FF00FF00FF00FFull, k2 = 0x0000FFFF0000FFFFull,
                           k4 = 0x00000000FFFFFFFFull;
        swap_blocks(w0, w1, 8, k1), swap_blocks(w2, w3, 8, k1);
        swap_blocks(w4, w5, 8, k1), swap_blocks(w6, w7, 8, k1);
        swap_blocks(w0, w2, 16, k2), swap_blocks(w1, w3, 16, k2);
        swap_blocks(w4, w6, 16, k2), swap_blocks(w5, w7, 16, k2);
        swap_blocks(w0, w4, 32, k4), swap_blocks(w1, w5, 32, k4);
        swap_blocks(w2, w6, 32, k4), swap_blocks(w3, w7, 32, k4);
        unsigned char* r = out + k * sizeof(Event) + b;
        std::memcpy(r, &w0, 8), std::memcpy(r + sizeof(Event), &w1, 8);
        std::memcpy(r + 2 * sizeof(Event), &w2, 8), std::memcpy(r + 3 * sizeof(Event), &w3, 8);
        std::memcpy(r + 4 * sizeof(Event), &w4, 8), std::memcpy(r + 5 * sizeof(Event), &w5, 8);
        std::memcpy(r + 6 * sizeof(Event), &w6, 8), std::memcpy(r + 7 * sizeof(Event), &w7, 8);
      }
    }
    sum_deltas(first, first + kTileRecords);
  }
  // The last partial tile byte by byte.
  for (size_t b = 0; b < sizeof(Event); ++b) {
    for (size_t k = whole; k < n; ++k) out[k * sizeof(Event) + b] = in[b * n + k];
  }
  sum_deltas(whole, n);
}

}  // namespace xferlab::traces
