// native/proact/footprint_test.cc — the memory estimate proact applies before
// generating or allocating anything (issue #21: --graph-scale 28
// --edge-factor 256 ran for minutes without a word).
#include "native/proact/footprint.h"

#include <gtest/gtest.h>

namespace xferlab::proact {
namespace {

FootprintInput graph(int scale, int edge_factor) {
  FootprintInput in;
  in.workload = "pagerank";
  in.params.graph_scale = scale;
  in.params.graph_edge_factor = edge_factor;
  in.max_chunk_bytes = 64 << 10;
  return in;
}

TEST(FootprintTest, GraphOfTheIssueNeedsTerabytesOfHostMemory) {
  const Result<Footprint> f = estimate_footprint(graph(28, 256));
  ASSERT_TRUE(f.ok());
  const uint64_t m = (1ull << 28) * 256;
  EXPECT_EQ(f->generated_items, m);
  EXPECT_GE(f->host_bytes, 12 * m);  // src, dst and CSR columns at 4 B per edge.
  EXPECT_GE(f->gpu_bytes, 4 * m);    // the sources on every GPU.
  EXPECT_LT(f->host_bytes, 12 * m + 64 * (1ull << 28));
  EXPECT_EQ(f->size_flags, "--graph-scale 28 --edge-factor 256");
  const Status s = check_host_fits(*f, 512ull << 30);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.error().usage);
  EXPECT_EQ(s.error().message,
            "--graph-scale 28 --edge-factor 256: needs about 773.0 GiB of host memory but "
            "512.0 GiB are available (MemAvailable, /proc/meminfo); use smaller sizes");
}

TEST(FootprintTest, DefaultGraphFitsAWorkstation) {
  const Result<Footprint> f = estimate_footprint(graph(22, 16));
  ASSERT_TRUE(f.ok());
  EXPECT_LT(f->host_bytes, 1ull << 30);
  EXPECT_TRUE(check_host_fits(*f, 8ull << 30).ok());
  EXPECT_TRUE(check_gpu_fits(*f, 0, 8ull << 30).ok());
}

TEST(FootprintTest, EstimateGrowsWithEverySizeFlag) {
  FootprintInput a = graph(20, 16), b = graph(20, 32), c = graph(21, 16);
  EXPECT_LT(estimate_footprint(a)->host_bytes, estimate_footprint(b)->host_bytes);
  EXPECT_LT(estimate_footprint(a)->host_bytes, estimate_footprint(c)->host_bytes);
  FootprintInput als;
  als.workload = "als";
  FootprintInput als2 = als;
  als2.params.als_ratings_per_user *= 2;
  EXPECT_LT(estimate_footprint(als)->host_bytes, estimate_footprint(als2)->host_bytes);
  EXPECT_LT(estimate_footprint(als)->gpu_bytes, estimate_footprint(als2)->gpu_bytes);
}

TEST(FootprintTest, RegionsArePaddedToTheChunkAndTracesCount) {
  FootprintInput in;
  in.workload = "jacobi";
  in.params.jacobi_rows = 1 << 20;  // regions of 4 MiB.
  in.max_chunk_bytes = 4 << 20;
  const uint64_t base = estimate_footprint(in)->gpu_bytes;
  in.max_chunk_bytes = 1ull << 30;  // each region padded to 1 GiB.
  EXPECT_GE(estimate_footprint(in)->gpu_bytes, base + 2 * ((1ull << 30) - (4 << 20)));
  in.trace_bytes_per_gpu = 64 << 20;
  EXPECT_GE(estimate_footprint(in)->gpu_bytes, base + (64 << 20));
}

TEST(FootprintTest, GpuRefusalNamesDeviceAndLimit) {
  FootprintInput in;
  in.workload = "micro";
  in.params.micro_bytes = 64ull << 30;
  const Result<Footprint> f = estimate_footprint(in);
  ASSERT_TRUE(f.ok());
  const Status s = check_gpu_fits(*f, 1, 40ull << 30);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("--bytes 68719476736: needs about 64.0 GiB per GPU but GPU 1 "
                                   "has 40.0 GiB free (cudaMemGetInfo)"),
            std::string::npos)
      << s.error().message;
}

TEST(FootprintTest, EveryWorkloadHasAnEstimate) {
  for (const char* w : {"micro", "jacobi", "pagerank", "sssp", "als", "xray_ct"}) {
    FootprintInput in;
    in.workload = w;
    const Result<Footprint> f = estimate_footprint(in);
    ASSERT_TRUE(f.ok()) << w;
    EXPECT_GT(f->gpu_bytes, 0u) << w;
    EXPECT_GT(f->host_bytes, 0u) << w;
    EXPECT_FALSE(f->size_flags.empty()) << w;
  }
  FootprintInput bad;
  bad.workload = "nope";
  EXPECT_FALSE(estimate_footprint(bad).ok());
}

TEST(FootprintTest, MemAvailableParsed) {
  const char* text =
      "MemTotal:       24523688 kB\nMemFree:        20000000 kB\n"
      "MemAvailable:   21234567 kB\nBuffers:          123 kB\n";
  const Result<uint64_t> v = parse_mem_available(text);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 21234567ull * 1024);
  EXPECT_FALSE(parse_mem_available("MemTotal: 5 kB\n").ok());
  EXPECT_FALSE(parse_mem_available("MemAvailable: lots kB\n").ok());
  EXPECT_TRUE(read_mem_available().ok());  // every Linux since 3.14 has the line.
}

}  // namespace
}  // namespace xferlab::proact
