// native/halo/decomposition_test.cc — geometry, paper message sizes, and a
// full CPU exchange through the pack/unpack index math the kernels use.
#include "native/halo/decomposition.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

namespace xferlab::halo {
namespace {

DecompositionSpec per_rank(int n) {
  DecompositionSpec s;
  s.per_rank_cells = Int3{n, n, n};
  return s;
}

DecompositionSpec global(int n) {
  DecompositionSpec s;
  s.global_cells = Int3{n, n, n};
  return s;
}

// The paper's sizes (Elis et al., HPCAsia 2024): faces 60000/240000/960000 B,
// edges 1200/2400/4800 B, corners 24 B, on 64 ranks and on 2 ranks.
TEST(Decomposition, PaperMessageSizesExact) {
  const struct {
    int global;
    int64_t face, edge;
  } cases[] = {{200, 60000, 1200}, {400, 240000, 2400}, {800, 960000, 4800}};
  for (const auto& c : cases) {
    auto on64 = Decomposition::make(global(c.global), 64);
    ASSERT_TRUE(on64.ok()) << on64.error().message;
    EXPECT_EQ(on64->procs(), (Int3{4, 4, 4}));
    auto on2 = Decomposition::make(per_rank(c.global / 4), 2);
    ASSERT_TRUE(on2.ok()) << on2.error().message;
    EXPECT_EQ(on2->procs(), (Int3{2, 1, 1}));
    for (const Decomposition* d : {&on64.value(), &on2.value()}) {
      for (int rank : {0, d->num_ranks() - 1}) {
        auto ms = d->messages(rank);
        ASSERT_EQ(ms.size(), 26u);
        std::map<MessageKind, int> count;
        for (const Message& m : ms) {
          ++count[m.kind];
          int64_t want = m.kind == MessageKind::kFace   ? c.face
                         : m.kind == MessageKind::kEdge ? c.edge
                                                        : 24;
          EXPECT_EQ(m.bytes, want) << "direction " << m.direction;
        }
        EXPECT_EQ(count[MessageKind::kFace], 6);
        EXPECT_EQ(count[MessageKind::kEdge], 12);
        EXPECT_EQ(count[MessageKind::kCorner], 8);
      }
    }
  }
}

TEST(Decomposition, PaperPresets) {
  EXPECT_EQ(paper_per_rank_cells("400").value(), (Int3{100, 100, 100}));
  EXPECT_FALSE(paper_per_rank_cells("300").ok());
}

TEST(Decomposition, PeriodicNeighboursOnTwoRanks) {
  auto d = Decomposition::make(per_rank(4), 2);
  ASSERT_TRUE(d.ok());
  for (const Message& m : d->messages(0)) {
    // x neighbours are the other rank, pure y/z neighbours are the rank itself.
    EXPECT_EQ(m.peer, m.offset[0] != 0 ? 1 : 0) << "direction " << m.direction;
    EXPECT_EQ(m.send_tag, m.direction);
    EXPECT_EQ(m.recv_tag, 26 - m.direction);  // the opposite direction.
  }
}

TEST(Decomposition, NeighboursOn64Ranks) {
  auto d = Decomposition::make(global(12), 64);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->rank_coords(0), (Int3{0, 0, 0}));
  EXPECT_EQ(d->neighbour(0, {-1, 0, 0}), 3);
  EXPECT_EQ(d->neighbour(0, {0, -1, 0}), 12);
  EXPECT_EQ(d->neighbour(0, {-1, -1, -1}), 63);
  EXPECT_EQ(d->neighbour(21, {1, 1, 1}), 42);
  EXPECT_EQ(d->global_of(0, 0, -1), 11);  // ghost wraps to the far side.
}

TEST(Decomposition, FacesOnlyPattern) {
  DecompositionSpec s = per_rank(16);
  s.pattern = Pattern::k7Point;
  s.vars = 1;
  auto d = Decomposition::make(s, 2);
  ASSERT_TRUE(d.ok());
  auto ms = d->messages(1);
  ASSERT_EQ(ms.size(), 6u);
  for (const Message& m : ms) EXPECT_EQ(m.bytes, 16 * 16 * 8);
}

TEST(Decomposition, BufferOffsetsAlignedAndDisjoint) {
  auto d = Decomposition::make(per_rank(5), 2);
  ASSERT_TRUE(d.ok());
  int64_t end = 0;
  for (const Message& m : d->messages(0)) {
    EXPECT_EQ(m.send_offset_doubles % kMessageAlignDoubles, 0);
    EXPECT_GE(m.send_offset_doubles, end);
    end = m.send_offset_doubles + m.bytes / 8;
  }
  EXPECT_GE(d->buffer_doubles(), end);
}

TEST(Decomposition, RejectsBadInput) {
  auto e1 = Decomposition::make(global(200), 3);  // 3 cannot split 200 evenly.
  ASSERT_FALSE(e1.ok());
  EXPECT_NE(e1.error().message.find("3 ranks cannot split"), std::string::npos);
  DecompositionSpec p = global(8);
  p.procs = Int3{2, 2, 2};
  auto e2 = Decomposition::make(p, 4);
  ASSERT_FALSE(e2.ok());
  EXPECT_NE(e2.error().message.find("do not fit --procs 2x2x2"), std::string::npos);
  auto e3 = Decomposition::make(per_rank(2), 2);
  ASSERT_FALSE(e3.ok());
  EXPECT_NE(e3.error().message.find("too small for ghost width"), std::string::npos);
  auto e4 = Decomposition::make(global(8), 64);  // 2 cells per rank.
  EXPECT_FALSE(e4.ok());
  DecompositionSpec both = global(8);
  both.per_rank_cells = Int3{4, 4, 4};
  EXPECT_FALSE(Decomposition::make(both, 2).ok());
  DecompositionSpec v = per_rank(4);
  v.vars = 0;
  EXPECT_FALSE(Decomposition::make(v, 2).ok());
}

TEST(Decomposition, ParseInt3) {
  EXPECT_EQ(parse_int3("50", "--per-rank").value(), (Int3{50, 50, 50}));
  EXPECT_EQ(parse_int3("4,5,6", "--per-rank").value(), (Int3{4, 5, 6}));
  for (const char* bad : {"", "4,5", "4,5,6,7", "a", "0", "-3", "4,,5"}) {
    auto r = parse_int3(bad, "--per-rank");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().message.rfind("--per-rank: ", 0), 0u);
  }
}

// Fills every rank's owned cells, packs every message with the reference
// (kernel) index math, delivers by (source, destination, tag) like MPI,
// unpacks and checks every ghost cell against its owner's value.
void check_full_exchange(const Decomposition& d) {
  const FieldLayout layout = d.layout();
  const int ranks = d.num_ranks();
  const uint32_t iteration = 7;
  std::vector<std::vector<double>> field(ranks, std::vector<double>(layout.total_doubles(), -1));
  std::vector<std::vector<double>> sendbuf(ranks, std::vector<double>(d.buffer_doubles()));
  const Int3 n = d.per_rank_cells();
  for (int r = 0; r < ranks; ++r) {
    for (int v = 0; v < d.vars(); ++v)
      for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j)
          for (int i = 0; i < n[0]; ++i)
            field[r][layout.index(v, i, j, k)] = fill_value(
                iteration, v, d.global_of(r, 0, i), d.global_of(r, 1, j), d.global_of(r, 2, k));
    MessageTable t = make_table(d.messages(r), true);
    for (int m = 0; m < t.count; ++m)
      pack_reference(layout, t.msg[m], field[r].data(), sendbuf[r].data());
  }
  // (src, dst, tag) -> message content.
  std::map<std::tuple<int, int, int>, std::vector<double>> wire;
  for (int r = 0; r < ranks; ++r) {
    for (const Message& m : d.messages(r)) {
      auto key = std::make_tuple(r, m.peer, m.send_tag);
      ASSERT_EQ(wire.count(key), 0u) << "duplicate message";
      const double* p = sendbuf[r].data() + m.send_offset_doubles;
      wire[key] = std::vector<double>(p, p + m.bytes / 8);
    }
  }
  for (int r = 0; r < ranks; ++r) {
    std::vector<Message> ms = d.messages(r);
    MessageTable t = make_table(ms, false);
    std::vector<double> recvbuf(d.buffer_doubles());
    for (size_t m = 0; m < ms.size(); ++m) {
      auto it = wire.find({ms[m].peer, r, ms[m].recv_tag});
      ASSERT_NE(it, wire.end()) << "rank " << r << " direction " << ms[m].direction;
      ASSERT_EQ(static_cast<int64_t>(it->second.size()) * 8, ms[m].bytes);
      std::copy(it->second.begin(), it->second.end(), recvbuf.begin() + ms[m].recv_offset_doubles);
      wire.erase(it);
      unpack_reference(layout, t.msg[m], recvbuf.data(), field[r].data());
    }
    const int g = kGhostWidth;
    int64_t checked = 0;
    for (int v = 0; v < d.vars(); ++v)
      for (int k = -g; k < n[2] + g; ++k)
        for (int j = -g; j < n[1] + g; ++j)
          for (int i = -g; i < n[0] + g; ++i) {
            double want = fill_value(iteration, v, d.global_of(r, 0, i), d.global_of(r, 1, j),
                                     d.global_of(r, 2, k));
            ASSERT_EQ(field[r][layout.index(v, i, j, k)], want)
                << "rank " << r << " var " << v << " cell " << i << "," << j << "," << k;
            ++checked;
          }
    EXPECT_EQ(checked, layout.total_doubles());
  }
  EXPECT_TRUE(wire.empty());
}

TEST(Decomposition, FullExchangeMatchesOwnersOnOneTwoAndEightRanks) {
  check_full_exchange(Decomposition::make(per_rank(4), 1).value());
  check_full_exchange(Decomposition::make(per_rank(5), 2).value());
  DecompositionSpec s;
  s.global_cells = Int3{6, 8, 10};
  s.vars = 2;
  check_full_exchange(Decomposition::make(s, 8).value());
}

TEST(Geometry, RegionsPartitionTheBlock) {
  const int n[3] = {4, 5, 6};
  std::vector<int> seen(4 * 5 * 6, 0);
  for (Region region : {Region::kBoundary, Region::kInterior}) {
    for (int64_t c = 0; c < region_cells(n, region); ++c) {
      int i, j, k;
      region_cell(n, region, c, &i, &j, &k);
      ASSERT_TRUE(i >= 0 && i < 4 && j >= 0 && j < 5 && k >= 0 && k < 6);
      const bool inner = i > 0 && i < 3 && j > 0 && j < 4 && k > 0 && k < 5;
      EXPECT_EQ(inner, region == Region::kInterior) << i << "," << j << "," << k;
      ++seen[i + 4 * (j + 5 * k)];
    }
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  EXPECT_EQ(region_cells(n, Region::kAll), 120);
  int i, j, k;
  region_cell(n, Region::kAll, 119, &i, &j, &k);
  EXPECT_EQ(i + j + k, 3 + 4 + 5);
}

TEST(Geometry, OwnerValueMatchesNeighbourOwnedCell) {
  auto d = Decomposition::make(per_rank(4), 2).value();
  // Rank 0's ghost at x = -1 is rank 1's cell x = 3 (periodic).
  EXPECT_EQ(owner_value(d.origin(0), 3, 1, -1, 2, 2), owner_value(d.origin(1), 3, 1, 3, 2, 2));
  EXPECT_EQ(owner_value(d.origin(0), 3, 1, 1, -1, 0), owner_value(d.origin(0), 3, 1, 1, 3, 0));
}

TEST(Geometry, FillValueExactAndDistinct) {
  EXPECT_EQ(fill_value(1, 0, 2, 3, 4), fill_value(1, 0, 2, 3, 4));
  EXPECT_NE(fill_value(1, 0, 2, 3, 4), fill_value(2, 0, 2, 3, 4));
  EXPECT_NE(fill_value(1, 0, 2, 3, 4), fill_value(1, 1, 2, 3, 4));
  EXPECT_NE(fill_value(1, 0, 2, 3, 4), fill_value(1, 0, 3, 2, 4));
  EXPECT_LT(fill_value(9, 2, 799, 799, 799), 9007199254740992.0);  // < 2^53: exact.
}

}  // namespace
}  // namespace xferlab::halo
