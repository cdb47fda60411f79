// native/proact/chunk_map.h — ChunkMap: which chunks of a PROACT region each
// CTA of a producer kernel writes, and how many CTAs write each chunk.
//
// PROACT (REFERENCES.md §1) needs a deterministic number of writers per chunk:
// the data-ready counter of a chunk starts at that number and each writer
// decrements it once after its writes. Every mapping (one-to-one, strided,
// stencil, user-defined) reduces to "CTA b writes these byte ranges"; this
// class turns that into a CSR list of chunks per CTA (what the kernel's
// proact_cta_done walks) and the writer count per chunk (the counter's
// initial value). Pure C++: tested without a GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/result.h"

namespace xferlab::proact {

// ByteRange: [begin, end) within a region.
struct ByteRange {
  uint64_t begin = 0;
  uint64_t end = 0;
};

// MappingKind: how producer CTAs cover the region.
enum class MappingKind {
  kOneToOne,  ///< CTA b writes bytes_per_cta bytes starting at first_byte + b*bytes_per_cta.
  kStrided,   ///< grid-stride: CTA b writes segments b, b+ctas, b+2*ctas, ... of bytes_per_cta.
  kStencil,   ///< one-to-one plus halo_bytes on each side (overlapping writers).
  kUser,      ///< ranges given by a callback.
};

// MappingSpec: a producer kernel's write pattern over a region.
struct MappingSpec {
  MappingKind kind = MappingKind::kOneToOne;
  uint32_t ctas = 0;           ///< producer grid size.
  uint64_t first_byte = 0;     ///< start of this producer's part of the region.
  uint64_t end_byte = 0;       ///< end (exclusive) of this producer's part; writes are clipped.
  uint64_t bytes_per_cta = 0;  ///< segment size (one-to-one, strided, stencil).
  uint64_t halo_bytes = 0;     ///< stencil only.
  /// kUser: appends the ranges CTA `cta` writes (relative to the region start).
  std::function<void(uint32_t cta, std::vector<ByteRange>& out)> user_ranges;
};

// parse_mapping_kind: "one-to-one" | "strided" | "stencil" | "user".
Result<MappingKind> parse_mapping_kind(const std::string& text);
const char* mapping_kind_name(MappingKind kind);

// max_counter_value: largest writer count a counter of `counter_bits` holds.
uint64_t max_counter_value(int counter_bits);

// ChunkMap: see the file comment.
class ChunkMap {
 public:
  // build: validates that chunk_bytes divides region_bytes (and is a multiple
  // of 16 B, the copy width), that every range lies in the region, that no
  // chunk has more writers than a `counter_bits` counter holds, and that every
  // chunk in [first_chunk, end_chunk) of the producer's part has a writer (a
  // chunk without writers would never become ready).
  static Result<ChunkMap> build(uint64_t region_bytes, uint64_t chunk_bytes,
                                const MappingSpec& spec, int counter_bits = 32);

  uint64_t region_bytes() const { return region_bytes_; }
  uint64_t chunk_bytes() const { return chunk_bytes_; }
  uint32_t num_chunks() const { return static_cast<uint32_t>(writers_.size()); }
  uint32_t num_ctas() const { return static_cast<uint32_t>(cta_offsets_.size() - 1); }

  // Chunks this producer writes: [first_chunk, end_chunk).
  uint32_t first_chunk() const { return first_chunk_; }
  uint32_t end_chunk() const { return end_chunk_; }

  // writers: initial counter value per chunk (0 for chunks not written here).
  const std::vector<uint32_t>& writers() const { return writers_; }
  // CSR: chunks of CTA b are cta_chunks()[cta_offsets()[b] .. cta_offsets()[b+1]).
  const std::vector<uint32_t>& cta_offsets() const { return cta_offsets_; }
  const std::vector<uint32_t>& cta_chunks() const { return cta_chunks_; }
  // cta_bytes: bytes CTA b writes (sum of its ranges, clipped).
  const std::vector<uint64_t>& cta_bytes() const { return cta_bytes_; }

 private:
  uint64_t region_bytes_ = 0;
  uint64_t chunk_bytes_ = 0;
  uint32_t first_chunk_ = 0;
  uint32_t end_chunk_ = 0;
  std::vector<uint32_t> writers_;
  std::vector<uint32_t> cta_offsets_;
  std::vector<uint32_t> cta_chunks_;
  std::vector<uint64_t> cta_bytes_;
};

// cta_ranges: the byte ranges CTA `cta` writes under `spec` (clipped to
// [first_byte, end_byte)); exposed for tests and for kernels' host setup.
void cta_ranges(const MappingSpec& spec, uint32_t cta, std::vector<ByteRange>& out);

// RowRange: rows [begin, end) of a region that one producer writes.
struct RowRange {
  uint64_t begin = 0;
  uint64_t end = 0;
};

// partition_rows: how the runner splits a region among `producers` GPUs:
// contiguous whole chunks (producer p gets chunks [nc p / P, nc (p + 1) / P)
// of the nc = region_bytes / chunk_bytes), clipped to the data_bytes that hold
// rows; a producer left without data gets an empty range. chunk_bytes must be a
// multiple of row_bytes (the runner checks it first).
std::vector<RowRange> partition_rows(uint64_t region_bytes, uint64_t chunk_bytes,
                                     uint64_t data_bytes, uint64_t row_bytes, size_t producers);

}  // namespace xferlab::proact
