// traces/file_format.h — on-disk structures of the trace file (private to the
// traces library; FORMAT.md is the normative description). All integers are
// little-endian; every section starts at an 8-byte aligned offset.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "traces/event.h"

namespace xferlab::traces::format {

static_assert(std::endian::native == std::endian::little,
              "the trace format is little-endian; big-endian hosts need byte swapping");

inline constexpr char kMagic[8] = {'X', 'F', 'L', 'T', 'R', 'A', 'C', 'E'};
inline constexpr char kFooterMagic[8] = {'X', 'F', 'L', 'T', 'E', 'N', 'D', '\0'};

// Section tags (four ASCII characters read as a little-endian u32).
constexpr uint32_t tag(const char (&s)[5]) {
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
         uint32_t(uint8_t(s[3])) << 24;
}
inline constexpr uint32_t kTagMetadata = tag("META");
inline constexpr uint32_t kTagEvents = tag("EVTS");
inline constexpr uint32_t kTagIndex = tag("INDX");

// Limits a reader enforces before trusting a size field.
inline constexpr uint64_t kMaxMetadataBytes = 64ull << 20;
inline constexpr uint32_t kMaxBlockEvents = 1u << 20;
inline constexpr uint32_t kMaxKinds = 65536;
inline constexpr uint32_t kMaxSectionHeaderBytes = 4096;
inline constexpr uint64_t kMaxTimeNs = uint64_t(INT64_MAX);  ///< later is "impossible".

// FileHeader: offset 0.
struct FileHeader {
  char magic[8];
  uint16_t major;
  uint16_t minor;
  uint32_t header_bytes;  ///< sizeof(FileHeader); the first section follows.
  uint32_t event_bytes;   ///< sizeof(Event) = 32.
  uint32_t reserved0;
  uint64_t reserved1;
};
static_assert(sizeof(FileHeader) == 32);

// SectionHeader: common prefix of every section; a reader skips a section
// with an unknown tag using header_bytes + payload_bytes (padded to 8).
struct SectionHeader {
  uint32_t tag;
  uint32_t header_bytes;   ///< this header including the kind-specific part.
  uint64_t payload_bytes;  ///< bytes after the header, before padding.
};
static_assert(sizeof(SectionHeader) == 16);

// BlockHeader: an event block ("EVTS").
struct BlockHeader {
  SectionHeader section;
  uint16_t codec;  ///< Compression.
  uint16_t reserved;
  uint32_t events;
  uint64_t first_event;
  uint64_t min_time_ns;
  uint64_t max_time_ns;
};
static_assert(sizeof(BlockHeader) == 48);

// BlockChecksum: follows BlockHeader from format 2.0 (header_bytes >= 56):
// XXH64 of the stored payload bytes, seeded with the block's first_event so a
// block copied to another place in the file does not verify either.
struct BlockChecksum {
  uint64_t xxh64;
};
static_assert(sizeof(BlockChecksum) == 8);
inline constexpr uint32_t kChecksummedBlockHeaderBytes =
    sizeof(BlockHeader) + sizeof(BlockChecksum);
// First major version whose blocks carry a BlockChecksum.
inline constexpr uint16_t kFirstChecksummedMajor = 2;

// IndexHeader: the block index ("INDX"): u64 kind_counts[num_kinds] then
// IndexEntry[num_blocks].
struct IndexHeader {
  SectionHeader section;
  uint32_t num_kinds;
  uint32_t reserved;
  uint64_t num_blocks;
};
static_assert(sizeof(IndexHeader) == 32);

struct IndexEntry {
  uint64_t offset;
  uint64_t first_event;
  uint64_t min_time_ns;
  uint64_t max_time_ns;
  uint32_t events;
  uint32_t stored_bytes;
};
static_assert(sizeof(IndexEntry) == 40);

// Footer: the last 64 bytes of a complete file.
struct Footer {
  uint64_t index_offset;
  uint64_t metadata_offset;  ///< final metadata section.
  uint64_t num_events;
  uint64_t num_blocks;
  uint64_t min_time_ns;  ///< UINT64_MAX when there are no events.
  uint64_t max_time_ns;
  uint64_t file_bytes;  ///< whole file, footer included.
  char magic[8];
};
static_assert(sizeof(Footer) == 64);

inline constexpr uint64_t align8(uint64_t n) {
  return (n + 7) & ~uint64_t(7);
}

}  // namespace xferlab::traces::format
