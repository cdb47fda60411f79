// traces/block_info.h — BlockInfo: one entry of a trace's block index, the
// unit of random access by event index or time window; and block codecs.
#pragma once

#include <cstdint>

namespace xferlab::traces {

// Compression: per-block codec (FORMAT.md, "EVTS"); part of the format.
enum class Compression : uint16_t {
  kNone = 0,              ///< the records as they are.
  kZstd = 1,              ///< one zstd frame of the records.
  kZstdDeltaShuffle = 2,  ///< one zstd frame of the records after block_codec.h's
                          ///< time deltas and byte-plane shuffle (format >= 2.1).
};
// Codecs this reader decodes are 0..kMaxCompression.
inline constexpr uint16_t kMaxCompression = uint16_t(Compression::kZstdDeltaShuffle);

struct BlockInfo {
  uint64_t offset = 0;       ///< byte offset of the block's section header.
  uint64_t first_event = 0;  ///< file index of the block's first record.
  uint64_t min_time_ns = 0;  ///< smallest / largest timestamp in the block
  uint64_t max_time_ns = 0;  ///< (events within a block are not time-sorted).
  uint32_t events = 0;
  uint32_t stored_bytes = 0;  ///< payload bytes in the file (after compression).
};

}  // namespace xferlab::traces
