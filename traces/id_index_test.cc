// Tests for IdIndex: the same answers as Metadata::find_* (first entry with
// the id, nullptr when absent) for dense, shuffled, sparse and repeated ids.
#include "traces/id_index.h"

#include <gtest/gtest.h>

#include "traces/metadata.h"

namespace xferlab::traces {
namespace {

void expect_same_as_find(const Metadata& m, uint32_t max_probe) {
  const IdIndex<ChunkInfo> index(m.chunks);
  for (uint32_t id = 0; id <= max_probe; ++id) {
    EXPECT_EQ(index.find(id), m.find_chunk(id)) << "id " << id;
  }
  EXPECT_EQ(index.find(UINT32_MAX), m.find_chunk(UINT32_MAX));
}

TEST(IdIndex, DenseShuffledSparseAndRepeatedIdsMatchLinearSearch) {
  Metadata m;
  expect_same_as_find(m, 4);  // empty table
  for (uint32_t id : {3u, 0u, 2u, 1u, 5u}) m.chunks.push_back(ChunkInfo{id, 0, 0, id + 1u, 1, 0});
  expect_same_as_find(m, 10);                        // dense-ish, shuffled, a gap (4)
  m.chunks.push_back(ChunkInfo{2, 1, 0, 99, 1, 0});  // repeated id: the first one wins
  expect_same_as_find(m, 10);
  EXPECT_EQ(IdIndex<ChunkInfo>(m.chunks).find(2)->size_bytes, 3u);
  m.chunks.push_back(ChunkInfo{4'000'000'000u, 0, 0, 7, 1, 0});  // sparse: hashed
  expect_same_as_find(m, 10);
  EXPECT_EQ(IdIndex<ChunkInfo>(m.chunks).find(4'000'000'000u)->size_bytes, 7u);
}

}  // namespace
}  // namespace xferlab::traces
