// sim/workload_model_test.cc — the workload model on inputs built by hand:
// strong scaling (shares, patterns), traffic, and the roofline ratio against
// the presets' [gpu] sections.
#include "sim/workload_model.h"

#include <gtest/gtest.h>

#include "hw_model/platform.h"

namespace xferlab::sim {
namespace {

constexpr uint64_t kMiB = 1 << 20;

// kernel: `chunks` chunks of 1 MiB, chunk i ready at (i + 1) us, duration
// chunks us, on `gpu`.
KernelInput kernel(uint32_t gpu, int chunks) {
  KernelInput k;
  k.gpu = gpu;
  k.duration_ns = 1000.0 * chunks;
  for (int i = 0; i < chunks; ++i) {
    ChunkInput c;
    c.first_write_ns = 1000.0 * i;
    c.ready_ns = 1000.0 * (i + 1);
    c.size_bytes = kMiB;
    k.chunks.push_back(c);
  }
  return k;
}

// input: `gpus` GPUs; producers GPUs 0..producers-1, 8 chunks each, 2 iterations.
ReplayInput input(uint32_t gpus, uint32_t producers) {
  ReplayInput in;
  in.name = "hand";
  in.num_gpus = gpus;
  for (int i = 0; i < 2; ++i) {
    IterationInput it;
    it.gap_before_ns = i == 0 ? 0 : 5000;
    for (uint32_t g = 0; g < producers; ++g) it.kernels.push_back(kernel(g, 8));
    in.iterations.push_back(it);
  }
  return in;
}

double bytes(const KernelInput& k) {
  double b = 0;
  for (const ChunkInput& c : k.chunks) b += static_cast<double>(c.size_bytes);
  return b;
}

TEST(WorkloadModel, ReadsPatternSizeAndCompute) {
  Result<WorkloadModel> m = workload_model(input(2, 2), nullptr);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->pattern, Pattern::kAllGather);
  EXPECT_EQ(m->producers, 2u);
  EXPECT_DOUBLE_EQ(m->output_bytes, 16.0 * kMiB);
  EXPECT_DOUBLE_EQ(m->compute_ns, 8000);
  EXPECT_DOUBLE_EQ(m->ns_per_output_byte, 1000.0 / kMiB);
  EXPECT_EQ(m->bound, Bound::kCompute);  // no GPU known: never called memory-bound
  Result<WorkloadModel> b = workload_model(input(4, 1), nullptr);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->pattern, Pattern::kBroadcast);
  Result<WorkloadModel> o = workload_model(input(4, 2), nullptr);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->pattern, Pattern::kOther);
}

TEST(StrongScale, AtTheTracedCountEqualsWeak) {
  const ReplayInput in = input(2, 2);
  Result<WorkloadModel> m = workload_model(in, nullptr);
  ASSERT_TRUE(m.ok());
  Result<ReplayInput> s = strong_scale(in, *m, 2);
  ASSERT_TRUE(s.ok()) << s.error().message;
  const ReplayInput weak = replicate_gpus(in, 2);
  ASSERT_EQ(s->iterations.size(), weak.iterations.size());
  for (size_t i = 0; i < weak.iterations.size(); ++i) {
    EXPECT_EQ(s->iterations[i].gap_before_ns, weak.iterations[i].gap_before_ns);
    ASSERT_EQ(s->iterations[i].kernels.size(), 2u);
    for (size_t g = 0; g < 2; ++g) {
      const KernelInput& a = s->iterations[i].kernels[g];
      const KernelInput& b = weak.iterations[i].kernels[g];
      EXPECT_EQ(a.gpu, b.gpu);
      EXPECT_EQ(a.dest_mask, b.dest_mask);
      EXPECT_DOUBLE_EQ(a.duration_ns, b.duration_ns);
      ASSERT_EQ(a.chunks.size(), b.chunks.size());
      for (size_t c = 0; c < a.chunks.size(); ++c) {
        EXPECT_DOUBLE_EQ(a.chunks[c].ready_ns, b.chunks[c].ready_ns);
        EXPECT_DOUBLE_EQ(a.chunks[c].first_write_ns, b.chunks[c].first_write_ns);
        EXPECT_EQ(a.chunks[c].size_bytes, b.chunks[c].size_bytes);
      }
    }
  }
  // A 1-GPU trace at N = 1.
  const ReplayInput one = input(1, 1);
  Result<WorkloadModel> m1 = workload_model(one, nullptr);
  ASSERT_TRUE(m1.ok());
  Result<ReplayInput> s1 = strong_scale(one, *m1, 1);
  ASSERT_TRUE(s1.ok());
  EXPECT_DOUBLE_EQ(s1->iterations[0].kernels[0].duration_ns, 8000);
  EXPECT_EQ(s1->iterations[0].kernels[0].chunks.size(), 8u);
}

TEST(StrongScale, ComputePerGpuIsInverseInGpus) {
  const ReplayInput in = input(2, 2);  // 16 MiB per iteration, 8 us per 8 MiB
  Result<WorkloadModel> m = workload_model(in, nullptr);
  ASSERT_TRUE(m.ok());
  for (uint32_t n : {1u, 2u, 4u, 8u, 16u}) {
    Result<ReplayInput> s = strong_scale(in, *m, n);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->num_gpus, n);
    for (const IterationInput& it : s->iterations) {
      ASSERT_EQ(it.kernels.size(), n);
      double total = 0;
      for (const KernelInput& k : it.kernels) {
        total += bytes(k);
        EXPECT_EQ(k.dest_mask, 0u);  // every part to every other GPU
        // 16 MiB / n per GPU at 1 us per MiB: 16/n us.
        EXPECT_NEAR(k.duration_ns, 16000.0 / n, 1e-9) << n << " GPUs";
        EXPECT_NEAR(bytes(k), 16.0 * kMiB / n, 1) << n << " GPUs";
        // Chunks keep their traced times: the last is ready when the kernel ends.
        EXPECT_NEAR(k.chunks.back().ready_ns, 16000.0 / n, 1e-9);
      }
      EXPECT_DOUBLE_EQ(total, 16.0 * kMiB);  // the problem is fixed
    }
  }
  // Three GPUs: shares of whole bytes add up to the region.
  Result<ReplayInput> s3 = strong_scale(in, *m, 3);
  ASSERT_TRUE(s3.ok());
  double total = 0;
  for (const KernelInput& k : s3->iterations[0].kernels) total += bytes(k);
  EXPECT_DOUBLE_EQ(total, 16.0 * kMiB);
}

TEST(StrongScale, BroadcastKeepsTheProducerAndOtherIsAnError) {
  const ReplayInput in = input(2, 1);
  Result<WorkloadModel> m = workload_model(in, nullptr);
  ASSERT_TRUE(m.ok());
  Result<ReplayInput> s = strong_scale(in, *m, 8);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->num_gpus, 8u);
  ASSERT_EQ(s->iterations[0].kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(s->iterations[0].kernels[0].duration_ns, 8000);
  EXPECT_EQ(s->iterations[0].kernels[0].dest_mask, 0u);

  const ReplayInput odd = input(4, 2);
  Result<WorkloadModel> mo = workload_model(odd, nullptr);
  ASSERT_TRUE(mo.ok());
  Result<ReplayInput> e = strong_scale(odd, *mo, 8);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("2 of 4 GPUs produce"), std::string::npos) << e.error().message;
  EXPECT_EQ(e.error().message.find('\n'), std::string::npos);
}

TEST(Traffic, FromTheKernelsAndParameters) {
  EXPECT_DOUBLE_EQ(
      traffic({{"workload", "jacobi"}, {"jacobi-half-band", "8"}}).hbm_bytes_per_output_byte,
      19);  // (17 x 4 + 8) / 4
  EXPECT_DOUBLE_EQ(traffic({{"workload", "micro"}}).hbm_bytes_per_output_byte, 1);
  EXPECT_DOUBLE_EQ(
      traffic({{"workload", "pagerank"}, {"edge-factor", "16"}}).hbm_bytes_per_output_byte,
      (8 + 16 * 12 + 4) / 4.0);
  const Traffic unknown = traffic({});
  EXPECT_DOUBLE_EQ(unknown.hbm_bytes_per_output_byte, 1);
  EXPECT_NE(unknown.how.find("lower bound"), std::string::npos);
}

// gpu_of: a preset's [gpu].
hw_model::GpuConfig gpu_of(const std::string& preset) {
  Result<hw_model::Platform> p = hw_model::load_platform(preset);
  EXPECT_TRUE(p.ok()) << preset;
  return p.ok() ? p->gpu : hw_model::GpuConfig{};
}

TEST(Roofline, MemoryBoundTraceOnV100UsesTheBandwidthRatio) {
  const hw_model::GpuConfig h200 = gpu_of("h200x2_nvlink4"), v100 = gpu_of("proact_v100_nvlink2");
  // Jacobi-like: 8 MiB per 8 us and 19 B of HBM traffic per output byte
  // is 19 x 8 MiB / 8 us = 20 TB/s > the H200's 4.8 TB/s: memory-bound.
  ReplayInput in = input(2, 2);
  in.parameters = {{"workload", "jacobi"}, {"jacobi-half-band", "8"}};
  Result<WorkloadModel> m = workload_model(in, &h200);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->bound, Bound::kMemory);
  EXPECT_NEAR(m->hbm_fraction, 19.0 * 8 * kMiB / 4.8e12 / 8e-6, 1e-9);
  const ComputeRescale r =
      roofline_rescale(*m, &h200, "h200x2_nvlink4", v100, "proact_v100_nvlink2");
  EXPECT_DOUBLE_EQ(r.time_factor, h200.memory_bw_bytes_per_s / v100.memory_bw_bytes_per_s);
  EXPECT_NEAR(r.time_factor, 4.8e12 / 900e9, 1e-12);
  EXPECT_NE(r.line.find("memory-bound"), std::string::npos) << r.line;
  EXPECT_NE(r.line.find("HBM bandwidth ratio"), std::string::npos) << r.line;
  const ReplayInput scaled = scale_compute(in, r.time_factor);
  EXPECT_DOUBLE_EQ(scaled.iterations[1].kernels[0].duration_ns, 8000 * r.time_factor);
  EXPECT_DOUBLE_EQ(scaled.iterations[1].gap_before_ns, 5000);  // host time is not GPU compute
}

TEST(Roofline, ComputeBoundUsesSmsTimesClockAndSameGpuIsSilent) {
  const hw_model::GpuConfig h200 = gpu_of("h200x2_nvlink4"), k40 = gpu_of("proact_k40_pcie3");
  ReplayInput in = input(2, 2);
  in.parameters = {{"workload", "micro"}};  // 1 B per output byte: 8 MiB / 8 us << 4.8 TB/s
  Result<WorkloadModel> m = workload_model(in, &h200);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->bound, Bound::kCompute);
  const ComputeRescale r = roofline_rescale(*m, &h200, "h200x2_nvlink4", k40, "proact_k40_pcie3");
  EXPECT_DOUBLE_EQ(r.time_factor, (h200.sm_count * h200.clock_hz) /
                                      (static_cast<double>(k40.sm_count) * k40.clock_hz));
  EXPECT_NE(r.line.find("SMs x clock ratio"), std::string::npos) << r.line;
  const ComputeRescale same = roofline_rescale(*m, &h200, "a", h200, "b");
  EXPECT_DOUBLE_EQ(same.time_factor, 1);
  EXPECT_TRUE(same.line.empty());
  EXPECT_EQ(parse_scaling("strong").value(), Scaling::kStrong);
  EXPECT_FALSE(parse_scaling("linear").ok());
}

}  // namespace
}  // namespace xferlab::sim
