// native/proact/chunk_map.cc — builds the CTA -> chunk CSR and writer counts.
#include "native/proact/chunk_map.h"

#include <algorithm>

#include "common/units.h"

namespace xferlab::proact {

namespace {
const std::vector<std::string>& mapping_names() {
  static const std::vector<std::string> names = {"one-to-one", "strided", "stencil", "user"};
  return names;
}
}  // namespace

Result<MappingKind> parse_mapping_kind(const std::string& text) {
  const auto& names = mapping_names();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<MappingKind>(i);
  }
  return make_error("--mapping: unknown mapping '" + text + "'" + did_you_mean(text, names) +
                    " (one-to-one, strided, stencil, user)");
}

const char* mapping_kind_name(MappingKind kind) {
  return mapping_names()[static_cast<size_t>(kind)].c_str();
}

uint64_t max_counter_value(int counter_bits) {
  return counter_bits >= 64 ? UINT64_MAX : (uint64_t{1} << counter_bits) - 1;
}

void cta_ranges(const MappingSpec& spec, uint32_t cta, std::vector<ByteRange>& out) {
  auto clip_push = [&](uint64_t b, uint64_t e) {
    b = std::max(b, spec.first_byte);
    e = std::min(e, spec.end_byte);
    if (b < e) out.push_back({b, e});
  };
  const uint64_t seg = spec.bytes_per_cta;
  switch (spec.kind) {
    case MappingKind::kOneToOne:
      clip_push(spec.first_byte + cta * seg, spec.first_byte + (cta + 1) * seg);
      break;
    case MappingKind::kStencil: {
      const uint64_t b = spec.first_byte + cta * seg;
      clip_push(b >= spec.halo_bytes ? b - spec.halo_bytes : 0, b + seg + spec.halo_bytes);
      break;
    }
    case MappingKind::kStrided:
      for (uint64_t b = spec.first_byte + cta * seg; b < spec.end_byte;
           b += uint64_t{spec.ctas} * seg) {
        clip_push(b, b + seg);
      }
      break;
    case MappingKind::kUser: {
      std::vector<ByteRange> raw;
      spec.user_ranges(cta, raw);
      for (const ByteRange& r : raw) clip_push(r.begin, r.end);
      break;
    }
  }
}

Result<ChunkMap> ChunkMap::build(uint64_t region_bytes, uint64_t chunk_bytes,
                                 const MappingSpec& spec, int counter_bits) {
  if (chunk_bytes == 0 || chunk_bytes % 16 != 0) {
    return make_error("chunk size " + std::to_string(chunk_bytes) +
                      " B must be a positive multiple of 16 B");
  }
  if (region_bytes == 0 || region_bytes % chunk_bytes != 0) {
    return make_error("chunk size " + std::to_string(chunk_bytes) +
                      " B does not divide the region size " + std::to_string(region_bytes) + " B");
  }
  if (region_bytes / chunk_bytes > UINT32_MAX - 1) {
    return make_error("region has more than 2^32-2 chunks; use a larger chunk size");
  }
  if (spec.ctas == 0) return make_error("producer mapping: grid has 0 CTAs");
  if (spec.end_byte > region_bytes || spec.first_byte >= spec.end_byte) {
    return make_error("producer mapping: part [" + std::to_string(spec.first_byte) + ", " +
                      std::to_string(spec.end_byte) + ") is empty or outside the region of " +
                      std::to_string(region_bytes) + " B");
  }
  if (spec.kind != MappingKind::kUser && spec.bytes_per_cta == 0) {
    return make_error("producer mapping: bytes per CTA must be positive");
  }
  if (spec.kind == MappingKind::kUser && !spec.user_ranges) {
    return make_error("producer mapping: user-defined mapping without a range callback");
  }
  ChunkMap m;
  m.region_bytes_ = region_bytes;
  m.chunk_bytes_ = chunk_bytes;
  const uint32_t num_chunks = static_cast<uint32_t>(region_bytes / chunk_bytes);
  m.first_chunk_ = static_cast<uint32_t>(spec.first_byte / chunk_bytes);
  m.end_chunk_ = static_cast<uint32_t>((spec.end_byte + chunk_bytes - 1) / chunk_bytes);
  std::vector<uint64_t> writers(num_chunks, 0);
  m.cta_offsets_.reserve(spec.ctas + 1);
  m.cta_offsets_.push_back(0);
  m.cta_bytes_.assign(spec.ctas, 0);
  std::vector<ByteRange> ranges;
  std::vector<uint32_t> mine;
  for (uint32_t b = 0; b < spec.ctas; ++b) {
    ranges.clear();
    mine.clear();
    cta_ranges(spec, b, ranges);
    for (const ByteRange& r : ranges) {
      m.cta_bytes_[b] += r.end - r.begin;
      for (uint64_t c = r.begin / chunk_bytes; c * chunk_bytes < r.end; ++c) {
        mine.push_back(static_cast<uint32_t>(c));
      }
    }
    // A CTA decrements each chunk once, however many of its ranges touch it.
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    for (uint32_t c : mine) ++writers[c];
    m.cta_chunks_.insert(m.cta_chunks_.end(), mine.begin(), mine.end());
    m.cta_offsets_.push_back(static_cast<uint32_t>(m.cta_chunks_.size()));
  }
  const uint64_t cap = max_counter_value(counter_bits);
  m.writers_.resize(num_chunks);
  for (uint32_t c = 0; c < num_chunks; ++c) {
    if (writers[c] > cap) {
      return make_error("chunk " + std::to_string(c) + " has " + std::to_string(writers[c]) +
                        " writing CTAs, more than a " + std::to_string(counter_bits) +
                        "-bit counter holds (" + std::to_string(cap) +
                        "); use smaller chunks or more bytes per CTA");
    }
    if (c >= m.first_chunk_ && c < m.end_chunk_ && writers[c] == 0) {
      return make_error("chunk " + std::to_string(c) +
                        " of the producer's part has no writing CTA, so it would never become "
                        "ready; check the mapping");
    }
    m.writers_[c] = static_cast<uint32_t>(writers[c]);
  }
  return m;
}

std::vector<RowRange> partition_rows(uint64_t region_bytes, uint64_t chunk_bytes,
                                     uint64_t data_bytes, uint64_t row_bytes, size_t producers) {
  std::vector<RowRange> parts(producers);
  const uint64_t nc = region_bytes / chunk_bytes;
  for (size_t p = 0; p < producers; ++p) {
    const uint64_t b0 = nc * p / producers * chunk_bytes;
    const uint64_t b1 = std::min(nc * (p + 1) / producers * chunk_bytes, data_bytes);
    if (b0 < b1) parts[p] = {b0 / row_bytes, b1 / row_bytes};
  }
  return parts;
}

}  // namespace xferlab::proact
