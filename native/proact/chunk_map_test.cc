// native/proact/chunk_map_test.cc — chunk mapping math and its validation errors.
#include "native/proact/chunk_map.h"

#include <gtest/gtest.h>

namespace xferlab::proact {
namespace {

MappingSpec one_to_one(uint32_t ctas, uint64_t bytes_per_cta, uint64_t end) {
  MappingSpec s;
  s.kind = MappingKind::kOneToOne;
  s.ctas = ctas;
  s.bytes_per_cta = bytes_per_cta;
  s.end_byte = end;
  return s;
}

TEST(ChunkMap, OneToOneSeveralCtasPerChunk) {
  // 64 CTAs x 4 kB into 16 kB chunks: 4 writers per chunk, one chunk per CTA.
  Result<ChunkMap> m = ChunkMap::build(256 << 10, 16 << 10, one_to_one(64, 4096, 256 << 10));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->num_chunks(), 16u);
  for (uint32_t w : m->writers()) EXPECT_EQ(w, 4u);
  EXPECT_EQ(m->cta_offsets()[5 + 1] - m->cta_offsets()[5], 1u);
  EXPECT_EQ(m->cta_chunks()[m->cta_offsets()[5]], 1u);  // CTA 5 -> bytes 20..24 kB -> chunk 1.
  EXPECT_EQ(m->cta_bytes()[5], 4096u);
}

TEST(ChunkMap, OneCtaSpansSeveralChunks) {
  Result<ChunkMap> m = ChunkMap::build(64 << 10, 4096, one_to_one(2, 32 << 10, 64 << 10));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->cta_offsets()[1], 8u);
  EXPECT_EQ(m->cta_chunks()[8], 8u);
  for (uint32_t w : m->writers()) EXPECT_EQ(w, 1u);
}

TEST(ChunkMap, StridedCountsEachCtaOncePerChunk) {
  // 4 CTAs, 1 kB segments, grid-stride over 16 kB with 8 kB chunks: each CTA
  // writes 4 segments, two in each chunk -> 4 writers per chunk, 2 chunks per CTA.
  MappingSpec s;
  s.kind = MappingKind::kStrided;
  s.ctas = 4;
  s.bytes_per_cta = 1024;
  s.end_byte = 16 << 10;
  Result<ChunkMap> m = ChunkMap::build(16 << 10, 8 << 10, s);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->writers()[0], 4u);
  EXPECT_EQ(m->writers()[1], 4u);
  EXPECT_EQ(m->cta_offsets()[1], 2u);
  EXPECT_EQ(m->cta_bytes()[0], 4096u);
}

TEST(ChunkMap, StencilHalosAddNeighbourWriters) {
  MappingSpec s;
  s.kind = MappingKind::kStencil;
  s.ctas = 4;
  s.bytes_per_cta = 4096;
  s.halo_bytes = 16;
  s.end_byte = 16 << 10;
  Result<ChunkMap> m = ChunkMap::build(16 << 10, 4096, s);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->writers()[0], 2u);  // CTA 0 and CTA 1's left halo.
  EXPECT_EQ(m->writers()[1], 3u);
  EXPECT_EQ(m->writers()[3], 2u);
  EXPECT_EQ(m->cta_bytes()[0], 4096u + 16u);  // clipped at the region start.
}

TEST(ChunkMap, UserDefinedRanges) {
  MappingSpec s;
  s.kind = MappingKind::kUser;
  s.ctas = 2;
  s.end_byte = 8192;
  s.user_ranges = [](uint32_t cta, std::vector<ByteRange>& out) {
    out.push_back({cta == 0 ? 4096u : 0u, cta == 0 ? 8192u : 4096u});  // reversed.
  };
  Result<ChunkMap> m = ChunkMap::build(8192, 4096, s);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->cta_chunks()[0], 1u);
  EXPECT_EQ(m->cta_chunks()[1], 0u);
}

TEST(ChunkMap, PartialLastCtaAndProducerPart) {
  // GPU 1's part of a 4-chunk region: chunks 2..3, data ending mid-chunk 3.
  MappingSpec s = one_to_one(3, 3000, 0);
  s.first_byte = 8192;
  s.end_byte = 8192 + 7000;
  Result<ChunkMap> m = ChunkMap::build(16384, 4096, s);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->first_chunk(), 2u);
  EXPECT_EQ(m->end_chunk(), 4u);
  EXPECT_EQ(m->writers()[0], 0u);
  EXPECT_EQ(m->writers()[2], 2u);  // CTA 0 (8192..11192) and CTA 1 (11192..14192).
  EXPECT_EQ(m->writers()[3], 2u);  // CTA 1 and the clipped CTA 2.
  EXPECT_EQ(m->cta_bytes()[2], 1000u);
}

TEST(ChunkMap, ChunkNotDividingRegionIsAnError) {
  Result<ChunkMap> m = ChunkMap::build(100000, 4096, one_to_one(1, 100000, 100000));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("does not divide the region"), std::string::npos);
  EXPECT_EQ(m.error().exit_code(), 2);
  EXPECT_FALSE(ChunkMap::build(4096 * 4, 4000, one_to_one(1, 4096, 4096)).ok());
}

TEST(ChunkMap, TooManyWritersForTheCounterIsAnError) {
  // 256 CTAs of 16 B in one 4 kB chunk: 256 writers > 255 (8-bit counter).
  Result<ChunkMap> m = ChunkMap::build(4096, 4096, one_to_one(256, 16, 4096), 8);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("more than a 8-bit counter holds (255)"), std::string::npos)
      << m.error().message;
  EXPECT_TRUE(ChunkMap::build(4096, 4096, one_to_one(256, 16, 4096), 9).ok());
  EXPECT_EQ(max_counter_value(32), 4294967295ull);
}

TEST(ChunkMap, ChunkWithoutWriterIsAnError) {
  MappingSpec s;
  s.kind = MappingKind::kUser;
  s.ctas = 1;
  s.end_byte = 8192;
  s.user_ranges = [](uint32_t, std::vector<ByteRange>& out) { out.push_back({0, 4096}); };
  Result<ChunkMap> m = ChunkMap::build(8192, 4096, s);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("chunk 1 of the producer's part has no writing CTA"),
            std::string::npos);
}

TEST(ChunkMap, ParseMappingKind) {
  EXPECT_EQ(*parse_mapping_kind("strided"), MappingKind::kStrided);
  Result<MappingKind> bad = parse_mapping_kind("strided2");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("did you mean 'strided'"), std::string::npos);
}

TEST(PartitionRows, WholeChunksContiguousClippedToTheData) {
  // 10 chunks of 1 KiB, data 9.5 KiB of 4-B rows, 3 producers: chunks 0-2, 3-5, 6-9.
  const std::vector<RowRange> p = partition_rows(10 << 10, 1 << 10, 9728, 4, 3);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].begin, 0u);
  EXPECT_EQ(p[0].end, 768u);
  EXPECT_EQ(p[1].begin, 768u);
  EXPECT_EQ(p[1].end, 1536u);
  EXPECT_EQ(p[2].begin, 1536u);
  EXPECT_EQ(p[2].end, 2432u);  // clipped: 9728 B / 4.
  // More producers than chunks: the extra ones get nothing.
  const std::vector<RowRange> q = partition_rows(2 << 10, 1 << 10, 2 << 10, 16, 4);
  uint64_t rows = 0;
  for (const RowRange& r : q) rows += r.end - r.begin;
  EXPECT_EQ(rows, 128u);
  EXPECT_EQ(q[0].end - q[0].begin, 0u);
}

}  // namespace
}  // namespace xferlab::proact
