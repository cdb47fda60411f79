// sim/workload_model_test.cc — the workload model on inputs built by hand:
// strong scaling (shares, patterns, slices by offset with their traced
// cost: long chunks, stragglers, side-by-side chunks), traffic, and the roofline ratio against
// the presets' [gpu] sections.
#include "sim/workload_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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

// at: the chunk of `k` whose ready time is `ready_ns` (nullptr if none).
const ChunkInput* at(const KernelInput& k, double ready_ns) {
  for (const ChunkInput& c : k.chunks) {
    if (std::abs(c.ready_ns - ready_ns) < 1e-9) return &c;
  }
  return nullptr;
}

// A long chunk (one heavy CTA, as PageRank's hub row) stays in the slice of
// the region that holds it: the GPU computing that slice waits for it, the
// others do not (docs/scaling.md, "Cost profile").
TEST(StrongScale, ALongChunkLengthensOnlyItsSlice) {
  ReplayInput in = input(2, 2);  // 8 chunks of 1 MiB per GPU, chunk i over [i, i+1) us
  for (IterationInput& it : in.iterations) {
    ChunkInput& hub = it.kernels[0].chunks[0];
    hub.ready_ns = 6000;  // chunk 0 of GPU 0 runs 6 us
    std::sort(it.kernels[0].chunks.begin(), it.kernels[0].chunks.end(),
              [](const ChunkInput& a, const ChunkInput& b) { return a.ready_ns < b.ready_ns; });
  }
  for (IterationInput& it : in.iterations) {
    for (KernelInput& k : it.kernels) {
      for (ChunkInput& c : k.chunks) c.index = static_cast<uint32_t>(c.first_write_ns / 1000);
    }
  }
  Result<WorkloadModel> m = workload_model(in, nullptr);
  ASSERT_TRUE(m.ok());
  Result<ReplayInput> s = strong_scale(in, *m, 4);
  ASSERT_TRUE(s.ok()) << s.error().message;
  const std::vector<KernelInput>& k = s->iterations[0].kernels;
  ASSERT_EQ(k.size(), 4u);
  // GPU 0 computes GPU 0's chunks 0-3: 4 us of work, but chunk 0 takes 6.
  EXPECT_DOUBLE_EQ(k[0].duration_ns, 6000);
  EXPECT_NE(at(k[0], 6000), nullptr);
  // GPUs 1-3: half a traced producer each, 4 us.
  for (size_t g = 1; g < 4; ++g) EXPECT_DOUBLE_EQ(k[g].duration_ns, 4000) << "GPU " << g;
  // GPU 1 computes GPU 0's chunks 4-7 (by offset), rebased to its start.
  EXPECT_DOUBLE_EQ(k[1].chunks.front().ready_ns, 1000);
  EXPECT_DOUBLE_EQ(k[1].chunks.back().ready_ns, 4000);
}

// A late chunk (an out-of-order straggler, Jacobi's chunk 77) stays with
// its neighbours in offset: the slice holding it ends with it instead of
// trading it for an earlier-ready chunk of the next slice.
TEST(StrongScale, AStragglerStaysInItsSlice) {
  ReplayInput in = input(2, 2);
  for (IterationInput& it : in.iterations) {
    for (KernelInput& k : it.kernels) {
      for (ChunkInput& c : k.chunks) c.index = static_cast<uint32_t>(c.first_write_ns / 1000);
    }
    std::vector<ChunkInput>& c = it.kernels[0].chunks;
    c[3].ready_ns = 7500;  // chunk 3 begins at 3 us, ready at 7.5
    std::sort(c.begin(), c.end(),
              [](const ChunkInput& a, const ChunkInput& b) { return a.ready_ns < b.ready_ns; });
  }
  Result<WorkloadModel> m = workload_model(in, nullptr);
  ASSERT_TRUE(m.ok());
  Result<ReplayInput> s = strong_scale(in, *m, 4);
  ASSERT_TRUE(s.ok());
  const KernelInput& g0 = s->iterations[0].kernels[0];
  ASSERT_EQ(g0.chunks.size(), 4u);
  // Its own span (4.5 us) outlasts the slice's 4 us: the kernel ends with it.
  EXPECT_DOUBLE_EQ(g0.chunks.back().ready_ns, 4500);
  EXPECT_DOUBLE_EQ(g0.duration_ns, 4500);
  // GPU 1 gets chunks 4-7, none of them the straggler.
  const KernelInput& g1 = s->iterations[0].kernels[1];
  EXPECT_DOUBLE_EQ(g1.duration_ns, 4000);
  EXPECT_EQ(at(g1, 3500), nullptr);
}

// Chunks that ran side by side (every chunk's span is the kernel: one wave,
// or ready times from one sampled CTA) say nothing about a slice: the
// slices take their share of the work, their chunks compressed into it.
TEST(StrongScale, SideBySideChunksTakeTheLinearShare) {
  ReplayInput in = input(2, 2);
  for (IterationInput& it : in.iterations) {
    for (KernelInput& k : it.kernels) {
      for (size_t i = 0; i < k.chunks.size(); ++i) {
        k.chunks[i].index = static_cast<uint32_t>(i);
        k.chunks[i].first_write_ns = 0;
        k.chunks[i].ready_ns = 8000;
      }
    }
  }
  Result<WorkloadModel> m = workload_model(in, nullptr);
  ASSERT_TRUE(m.ok());
  Result<ReplayInput> s = strong_scale(in, *m, 4);
  ASSERT_TRUE(s.ok());
  for (const KernelInput& k : s->iterations[0].kernels) {
    EXPECT_DOUBLE_EQ(k.duration_ns, 4000);
    for (const ChunkInput& c : k.chunks) EXPECT_DOUBLE_EQ(c.ready_ns, 4000);
  }
}

// Three GPUs from two: the middle GPU's slice is the end of GPU 0's part
// and the start of GPU 1's, back to back.
TEST(StrongScale, ASliceAcrossTwoProducers) {
  ReplayInput in = input(2, 2);
  for (IterationInput& it : in.iterations) {
    for (KernelInput& k : it.kernels) {
      for (size_t i = 0; i < k.chunks.size(); ++i) k.chunks[i].index = static_cast<uint32_t>(i);
    }
  }
  Result<WorkloadModel> m = workload_model(in, nullptr);
  ASSERT_TRUE(m.ok());
  Result<ReplayInput> s = strong_scale(in, *m, 3);
  ASSERT_TRUE(s.ok());
  const KernelInput& mid = s->iterations[0].kernels[1];
  // 16/3 MiB from 16/3 to 32/3 MiB: GPU 0's bytes 16/3..8 MiB (2.67 us of
  // its work), then GPU 1's 0..8/3 MiB (2.67 us) from there on.
  EXPECT_NEAR(mid.duration_ns, 16000.0 / 3, 0.01);  // whole bytes: 5592406 of 16 MiB
  EXPECT_NEAR(bytes(mid), 16.0 * kMiB / 3, 1);
  EXPECT_NEAR(mid.chunks.back().ready_ns, 16000.0 / 3, 0.01);
  EXPECT_EQ(mid.chunks.size(), 6u);  // chunks 5, 6, 7 of GPU 0 (5 cut), 0, 1, 2 of GPU 1 (2 cut)
}

// waved: one GPU's 8-us kernel of 800 CTAs in 8 generations on a 10-SM GPU
// (r = 10 resident per SM, 100 slots: 8 waves of 1 us), its 8 chunks side by
// side (each spans the kernel: no chunk bounds a slice).
ReplayInput waved(WorkloadModel* m) {
  ReplayInput in = input(1, 1);
  for (IterationInput& it : in.iterations) {
    KernelInput& k = it.kernels[0];
    k.grid_ctas = 800;
    k.cta_generations = 8;
    for (size_t i = 0; i < k.chunks.size(); ++i) {
      k.chunks[i].index = static_cast<uint32_t>(i);
      k.chunks[i].first_write_ns = 0;
      k.chunks[i].ready_ns = k.duration_ns;
    }
  }
  hw_model::GpuConfig gpu;
  gpu.sm_count = 10;
  Result<WorkloadModel> wm = workload_model(in, &gpu);
  EXPECT_TRUE(wm.ok());
  *m = *wm;
  m->bound = Bound::kMemory;
  return in;
}

TEST(StrongScale, WavesFromTheGridAndTheCtaGenerations) {
  KernelInput k;
  k.duration_ns = 7490;
  k.grid_ctas = 8192;
  k.cta_generations = 11;  // Jacobi on one H200 (132 SMs): 8192 CTAs, 70-us CTAs in 749 us
  const Waves w = kernel_waves(k, Bound::kMemory, 132, 0);
  EXPECT_EQ(w.ctas_per_sm, 6u);              // ceil(8192 / (11 x 132)) = ceil(5.64)
  EXPECT_DOUBLE_EQ(w.wave_ns, 7490.0 / 11);  // ceil(8192 / 792) = 11 waves
  // The trace's r for this grid (the median of its launches) over this one's.
  EXPECT_EQ(kernel_waves(k, Bound::kMemory, 132, 7).ctas_per_sm, 7u);
  EXPECT_DOUBLE_EQ(kernel_waves(k, Bound::kMemory, 132, 7).wave_ns, 7490.0 / 9);
  // Compute-bound: resident CTAs share the SM, a wave is one CTA per SM.
  const Waves c = kernel_waves(k, Bound::kCompute, 132, 0);
  EXPECT_EQ(c.ctas_per_sm, 1u);
  EXPECT_DOUBLE_EQ(c.wave_ns, 7490.0 / 63);  // ceil(8192 / 132) = 63 waves
  k.grid_ctas = 512, k.cta_generations = 1;  // one generation: r >= ceil(512 / 132) = 4
  EXPECT_EQ(kernel_waves(k, Bound::kMemory, 132, 0).ctas_per_sm, 4u);
  // The trace's other kernels show 6.
  EXPECT_EQ(kernel_waves(k, Bound::kMemory, 132, 6).ctas_per_sm, 6u);
  EXPECT_DOUBLE_EQ(kernel_waves(k, Bound::kMemory, 132, 6).wave_ns, 7490);
  k.cta_generations = 0;  // no traced CTA: unknown
  EXPECT_EQ(kernel_waves(k, Bound::kMemory, 132, 6).ctas_per_sm, 0u);
}

// Below one wave a slice's time no longer shrinks with its share: 16 GPUs
// take 50 CTAs each, half a wave, and keep a whole wave (1 us, not 0.5).
TEST(StrongScale, ASliceBelowOneWaveKeepsOneWave) {
  WorkloadModel m;
  const ReplayInput in = waved(&m);
  Result<ReplayInput> s = strong_scale(in, m, 16, 10);
  ASSERT_TRUE(s.ok());
  for (const KernelInput& k : s->iterations[0].kernels) {
    EXPECT_DOUBLE_EQ(k.duration_ns, 1000) << k.gpu;
    EXPECT_LE(k.chunks.back().ready_ns, 1000);
  }
  // Without the target's SMs (or the trace's): linear, 0.5 us.
  Result<ReplayInput> linear = strong_scale(in, m, 16, 0);
  ASSERT_TRUE(linear.ok());
  EXPECT_DOUBLE_EQ(linear->iterations[0].kernels[0].duration_ns, 500);
}

// 400 CTAs on a 16-SM target (160 slots) are 2.5 waves: 3 waves, each the
// trace's 1-us wave x 16/10 SMs (the target's wave holds 16/10 as many CTAs).
TEST(StrongScale, PartWavesRoundUp) {
  WorkloadModel m;
  const ReplayInput in = waved(&m);
  Result<ReplayInput> s = strong_scale(in, m, 2, 16);
  ASSERT_TRUE(s.ok());
  for (const KernelInput& k : s->iterations[0].kernels) {
    EXPECT_DOUBLE_EQ(k.duration_ns, 3 * 1600) << k.gpu;  // linear: 4000
    EXPECT_DOUBLE_EQ(k.chunks.back().ready_ns, 3 * 1600) << k.gpu;
  }
  // 4 GPUs on the trace's own 10 SMs: 200 CTAs, exactly 2 waves.
  Result<ReplayInput> four = strong_scale(in, m, 4, 10);
  ASSERT_TRUE(four.ok());
  EXPECT_DOUBLE_EQ(four->iterations[0].kernels[3].duration_ns, 2000);
  // The trace's own count and GPU: unchanged.
  Result<ReplayInput> one = strong_scale(in, m, 1, 10);
  ASSERT_TRUE(one.ok());
  EXPECT_DOUBLE_EQ(one->iterations[0].kernels[0].duration_ns, 8000);
}

// Compute-bound, a wave is one CTA per SM (80 waves of 100 ns): 100 GPUs
// take 8 CTAs each, below one wave of 10, and keep 100 ns (linear: 80).
TEST(StrongScale, ComputeBoundWavesAreOneCtaPerSm) {
  WorkloadModel m;
  const ReplayInput in = waved(&m);
  m.bound = Bound::kCompute;
  Result<ReplayInput> s = strong_scale(in, m, 100, 10);
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(s->iterations[0].kernels[0].duration_ns, 100);
  Result<ReplayInput> two = strong_scale(in, m, 2, 10);  // 400 CTAs: 40 waves, linear
  ASSERT_TRUE(two.ok());
  EXPECT_DOUBLE_EQ(two->iterations[0].kernels[1].duration_ns, 4000);
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
