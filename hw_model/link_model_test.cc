// Tests for LinkModel: the published anchors (PROACT ISCA'21: 4-B stores ~8%
// on NVLink, ~14% on PCIe, both >80% from 128 B), conservation, monotonicity,
// edge cases and hand-computed packets.
#include "hw_model/link_model.h"

#include <gtest/gtest.h>

#include <numeric>

namespace xferlab::hw_model {
namespace {

LinkModel model(const char* name) {
  Result<LinkFormat> f = builtin_link_format(name);
  EXPECT_TRUE(f.ok()) << name;
  Result<LinkModel> m = LinkModel::create(*f);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return *m;
}

constexpr double kPcie3Encoding = 130.0 / 128.0;

TEST(LinkModel, AnchorFourByteStores) {
  for (const char* nv : {"nvlink1", "nvlink2", "nvlink3", "nvlink4", "nvlink5", "nvswitch4"}) {
    EXPECT_NEAR(model(nv).efficiency(4), 0.08, 0.01) << nv;
  }
  for (const char* pcie : {"pcie3", "pcie4", "pcie5"}) {
    EXPECT_NEAR(model(pcie).efficiency(4), 0.14, 0.01) << pcie;
  }
}

TEST(LinkModel, AnchorAbove80PercentFrom128Bytes) {
  for (const char* name : {"nvlink1", "nvlink2", "nvlink3", "nvlink4", "nvlink5", "nvswitch2",
                           "pcie3", "pcie4", "pcie5", "pcie6"}) {
    LinkModel m = model(name);
    for (double g : {128.0, 256.0, 512.0, 1024.0, 4096.0, 1e6}) {
      EXPECT_GT(m.efficiency(g), 0.8) << name << " " << g;
    }
  }
}

TEST(LinkModel, HandComputedPackets) {
  // PCIe Gen3 posted write: 4 framing + 16 header + payload (DW padded) + 4 LCRC.
  LinkModel pcie3 = model("pcie3");
  EXPECT_DOUBLE_EQ(pcie3.write(4).data_bytes, 28 * kPcie3Encoding);
  EXPECT_DOUBLE_EQ(pcie3.write(13).data_bytes, (24 + 16) * kPcie3Encoding);
  // Reverse: one 8-B Ack per 4 TLPs, one 8-B UpdateFC per 8 TLPs.
  EXPECT_DOUBLE_EQ(pcie3.write(4).reverse_bytes, (8.0 / 4 + 8.0 / 8) * kPcie3Encoding);
  // NVLink: header flit + byte-enable flit + one data flit.
  LinkModel nv = model("nvlink2");
  EXPECT_DOUBLE_EQ(nv.write(4).data_bytes, 48);
  EXPECT_DOUBLE_EQ(nv.write(32).data_bytes, 48);  // full sector: no byte enables
  EXPECT_DOUBLE_EQ(nv.write(128).data_bytes, 144);
  // 300 B: a full 256-B packet (272) + 44 B partial (16 + 48 + 16).
  WireBytes w = nv.write(300);
  EXPECT_DOUBLE_EQ(w.packets, 2);
  EXPECT_DOUBLE_EQ(w.data_bytes, 272 + 80);
  // PCIe Gen6 flit mode: TLP bytes share 256-B flits carrying 236 TLP bytes.
  EXPECT_DOUBLE_EQ(model("pcie6").write(4).data_bytes, 20.0 * 256 / 236);
  // InfiniBand: 26 B headers + 16 B RETH + padded payload, 64b/66b.
  EXPECT_DOUBLE_EQ(model("ib_edr").write(4).data_bytes, (26 + 16 + 4) * 66.0 / 64);
}

TEST(LinkModel, Reads) {
  LinkModel nv = model("nvlink2");
  WireBytes r = nv.read(4);
  EXPECT_DOUBLE_EQ(r.data_bytes, 32);     // response header flit + data flit
  EXPECT_DOUBLE_EQ(r.reverse_bytes, 16);  // request header flit
  EXPECT_DOUBLE_EQ(r.reverse_packets, 1);
  LinkModel pcie3 = model("pcie3");
  // 1 KiB: 2 requests (MRRS 512), 8 completions of 128 B (20 B overhead each).
  WireBytes p = pcie3.read(1024);
  EXPECT_DOUBLE_EQ(p.reverse_packets, 2);
  EXPECT_DOUBLE_EQ(p.packets, 8);
  EXPECT_DOUBLE_EQ(p.data_bytes, 8 * (20 + 128) * kPcie3Encoding);
}

TEST(LinkModel, ConservationWireAtLeastPayload) {
  for (const std::string& name : builtin_link_format_names()) {
    LinkModel m = model(name.c_str());
    for (double g = 1; g <= 9000; g += 7) {
      for (LinkOp op : {LinkOp::kWrite, LinkOp::kRead}) {
        WireBytes w = m.transfer(op, 3, g, Pattern::kScattered);
        EXPECT_GE(w.data_bytes, w.payload_bytes) << name << " " << g;
        EXPECT_DOUBLE_EQ(w.payload_bytes, 3 * g);
      }
    }
  }
}

TEST(LinkModel, EfficiencyMonotoneOnAlignedSizesUpToMaxPayload) {
  // Padding makes efficiency dip just past a granule (13 B pays for 16), so
  // monotonicity holds on sizes that are multiples of both granules.
  for (const std::string& name : builtin_link_format_names()) {
    LinkModel m = model(name.c_str());
    const LinkFormat& f = m.format();
    double step = std::lcm(static_cast<int64_t>(f.data_granule_bytes),
                           static_cast<int64_t>(f.full_write_granule_bytes));
    double previous = 0;
    for (double g = step; g <= f.max_payload_bytes; g += step) {
      double e = m.efficiency(g);
      EXPECT_GE(e, previous) << name << " " << g;
      previous = e;
    }
  }
}

TEST(LinkModel, EdgeCases) {
  LinkModel nv = model("nvlink4");
  WireBytes zero = nv.write(0);
  EXPECT_EQ(zero.data_bytes, 0);
  EXPECT_EQ(zero.packets, 0);
  EXPECT_EQ(nv.efficiency(0), 0);
  EXPECT_EQ(nv.time(zero).time_ns, 0);
  EXPECT_EQ(nv.writes(0, 64, Pattern::kScattered).data_bytes, 0);
  // Larger than max payload: split into max-payload packets.
  EXPECT_DOUBLE_EQ(nv.write(4096).packets, 16);
  EXPECT_DOUBLE_EQ(nv.write(4097).packets, 17);
  // Non-power-of-two sizes pad to the next flit.
  EXPECT_DOUBLE_EQ(nv.write(17).data_bytes, 16 + 32 + 16);
}

TEST(LinkModel, ContiguousMergesScatteredDoesNot) {
  LinkModel nv = model("nvlink2");
  EXPECT_DOUBLE_EQ(nv.writes(32, 4, Pattern::kContiguous).data_bytes, 144);
  EXPECT_DOUBLE_EQ(nv.writes(32, 4, Pattern::kScattered).data_bytes, 32 * 48);
  EXPECT_DOUBLE_EQ(nv.stores(2, 128, false).data_bytes, 288);
  EXPECT_DOUBLE_EQ(nv.stores(1, 124, true).data_bytes, 16 + 128 + 16);
}

TEST(LinkModel, TimeBytesVersusPacketRate) {
  LinkModel ib = model("ib_edr");
  // 4-B scattered writes: 200 Mpps is below the byte-limited packet rate.
  LinkTime small = ib.time(ib.writes(1e6, 4, Pattern::kScattered));
  EXPECT_EQ(small.bound, LinkBound::kPacketRate);
  EXPECT_NEAR(small.transfer_ns, 1e6 / 200e6 * 1e9, 1e-6);
  LinkTime big = ib.time(ib.writes(1e3, 4096, Pattern::kScattered));
  EXPECT_EQ(big.bound, LinkBound::kBytes);
  // 18 links move the same bytes 18x faster; latency is paid once.
  LinkModel nv = model("nvlink4");
  WireBytes w = nv.writes(1e6, 256, Pattern::kContiguous);
  LinkTime one = nv.time(w, 1), many = nv.time(w, 18);
  EXPECT_NEAR(one.transfer_ns / many.transfer_ns, 18, 1e-9);
  EXPECT_DOUBLE_EQ(many.time_ns - many.transfer_ns, nv.one_way_latency_ns());
  // Bytes-bound time = wire bytes / raw bandwidth.
  EXPECT_NEAR(one.transfer_ns, w.data_bytes / 25e9 * 1e9, 1e-3);
}

TEST(LinkModel, PayloadBandwidth) {
  // PCIe Gen3 x16: 15.75 GB/s after encoding, ~14.5 GB/s of 256-B payload.
  EXPECT_NEAR(model("pcie3").payload_bandwidth_bytes_per_s(), 16e9 * 256 / (280 * 130.0 / 128), 1);
  EXPECT_NEAR(model("nvlink2").payload_bandwidth_bytes_per_s(), 25e9 * 256 / 272, 1);
  // GPU -> switch -> GPU: two links and the switch.
  EXPECT_DOUBLE_EQ(model("nvswitch2").one_way_latency_ns(), 2 * 700 + 250);
}

TEST(LinkFormat, Validation) {
  LinkFormat f = *builtin_link_format("pcie6");
  EXPECT_TRUE(f.validate().ok());
  f.flit_payload_bytes = 300;
  Status s = f.validate();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "key 'flit_payload': must be > 0 and <= flit");
  LinkFormat g;
  g.lane_rate_bytes_per_s = -1;
  EXPECT_EQ(g.validate().error().message, "key 'lane_rate': must be > 0");
  LinkFormat h;
  h.max_payload_bytes = 130;
  EXPECT_EQ(h.validate().error().message, "key 'max_payload': not a multiple of data_granule");
  EXPECT_FALSE(LinkModel::create(h).ok());
}

TEST(LinkFormat, UnknownNameSuggests) {
  Result<LinkFormat> f = builtin_link_format("nvlnk4");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().message, "unknown interconnect 'nvlnk4'; did you mean 'nvlink4'?");
  EXPECT_FALSE(parse_pattern("scatter").ok());
  EXPECT_EQ(*parse_link_op("read"), LinkOp::kRead);
}

}  // namespace
}  // namespace xferlab::hw_model
