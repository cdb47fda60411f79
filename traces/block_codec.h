// traces/block_codec.h — the record transform of event-block codec 2
// (FORMAT.md, "EVTS"): time deltas, then byte-plane shuffle; zstd of the
// result is the stored payload. Timestamps of consecutive records are close
// and the other fields repeat, so grouping byte i of every record makes long
// runs zstd compresses ~2-3x better than the plain records.
#pragma once

#include <cstddef>

#include "traces/event.h"

namespace xferlab::traces {

// delta_shuffle: out[b * n + i] = byte b of record i, where record i has its
// time_ns replaced by time_ns - events[i-1].time_ns (mod 2^64; record 0 keeps
// its time_ns). `out` holds n * sizeof(Event) bytes.
void delta_shuffle(const Event* events, size_t n, unsigned char* out);

// undelta_unshuffle: the inverse of delta_shuffle, exact for any input
// (unsorted timestamps included).
void undelta_unshuffle(const unsigned char* in, size_t n, Event* events);

}  // namespace xferlab::traces
