// native/proact/workloads.cc — the microbenchmark and the applications of the
// PROACT paper (Jacobi, PageRank, SSSP, ALS) as Workloads, with their CPU checks.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/units.h"
#include "native/cuda_check.h"
#include "native/proact/ct.h"
#include "native/proact/graph.h"
#include "native/proact/kernels.h"
#include "native/proact/micro_workload.h"
#include "native/proact/reference.h"
#include "native/proact/workload.h"
#include "native/proact/workload_math.h"

namespace xferlab::proact {

namespace {

// PerGpu<T>: one device copy of a host array on every GPU of the run.
template <typename T>
class PerGpu {
 public:
  PerGpu() = default;
  PerGpu(const PerGpu&) = delete;
  PerGpu& operator=(const PerGpu&) = delete;
  ~PerGpu() { release(); }
  void upload(const std::vector<int>& devices, const T* host, size_t n) {
    release();
    devices_ = devices;
    for (int d : devices) {
      XF_CUDA_CHECK(cudaSetDevice(d));
      T* p = nullptr;
      XF_CUDA_CHECK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)));
      if (host && n) XF_CUDA_CHECK(cudaMemcpy(p, host, n * sizeof(T), cudaMemcpyHostToDevice));
      ptrs_.push_back(p);
    }
  }
  void upload(const std::vector<int>& devices, const std::vector<T>& v) {
    upload(devices, v.data(), v.size());
  }
  T* at(int gpu) const { return ptrs_[gpu]; }
  int size() const { return static_cast<int>(ptrs_.size()); }
  // download: n elements of GPU `gpu`'s copy.
  std::vector<T> download(int gpu, size_t n) const {
    std::vector<T> out(n);
    XF_CUDA_CHECK(cudaSetDevice(devices_[gpu]));
    XF_CUDA_CHECK(cudaMemcpy(out.data(), ptrs_[gpu], n * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }

 private:
  void release() {
    for (size_t g = 0; g < ptrs_.size(); ++g) {
      cudaSetDevice(devices_[g]);
      cudaFree(ptrs_[g]);
    }
    ptrs_.clear();
  }
  std::vector<int> devices_;
  std::vector<T*> ptrs_;
};

// copy_to_all: host bytes into region `r` on every GPU.
void copy_to_all(const Region& r, const void* host, size_t bytes) {
  for (int g = 0; g < r.num_gpus(); ++g) {
    XF_CUDA_CHECK(cudaSetDevice(r.device(g)));
    XF_CUDA_CHECK(cudaMemcpy(r.data(g), host, bytes, cudaMemcpyHostToDevice));
  }
}

template <typename T>
const T* as(const std::vector<char>& bytes) {
  return reinterpret_cast<const T*>(bytes.data());
}

// sample_rows: up to `count` rows of [0, n), deterministic, always row 0 and n-1.
std::vector<uint64_t> sample_rows(uint64_t n, uint64_t count, uint64_t seed) {
  std::vector<uint64_t> rows;
  if (n <= count) {
    for (uint64_t i = 0; i < n; ++i) rows.push_back(i);
    return rows;
  }
  rows.push_back(0);
  rows.push_back(n - 1);
  for (uint64_t i = 2; i < count; ++i) rows.push_back(math::splitmix64(seed + i) % n);
  return rows;
}

constexpr uint64_t kCheckRows = 1u << 16;

// floats_of: GPU `gpu`'s copy of region `region`, as the kernels read it.
const float* floats_of(const std::vector<std::unique_ptr<Region>>& regions, int region, int gpu) {
  return reinterpret_cast<const float*>(regions[region]->data(gpu));
}

// ---------------------------------------------------------------- Jacobi

class JacobiWorkload : public Workload {
 public:
  explicit JacobiWorkload(const WorkloadParams& p) : p_(p) {}
  std::string name() const override { return "jacobi"; }
  Status setup(const std::vector<int>& devices) override {
    if (p_.jacobi_rows < 1 || p_.jacobi_half_band < 1) {
      return make_error("jacobi: --jacobi-rows and --jacobi-half-band must be positive");
    }
    const uint64_t width = 2 * p_.jacobi_half_band + 1;
    band_.upload(devices, nullptr, p_.jacobi_rows * width);
    for (size_t g = 0; g < devices.size(); ++g) {
      XF_CUDA_CHECK(cudaSetDevice(devices[g]));
      launch_jacobi_band_init(band_.at(static_cast<int>(g)), 0, p_.jacobi_rows, p_.jacobi_half_band,
                              p_.jacobi_rows, p_.seed, nullptr);
      XF_CUDA_CHECK(cudaDeviceSynchronize());
    }
    return Status::Ok();
  }
  std::vector<RegionSpec> regions() const override {
    return {{p_.jacobi_rows * 4, 4}, {p_.jacobi_rows * 4, 4}};
  }
  int num_steps() const override { return p_.iterations; }
  int step_region(int step) const override { return (step + 1) % 2; }
  uint32_t rows_per_cta(int) const override { return kJacobiRowsPerCta; }
  void reset(const std::vector<std::unique_ptr<Region>>& regions, uint32_t) override {
    for (int g = 0; g < regions[0]->num_gpus(); ++g) {
      XF_CUDA_CHECK(cudaSetDevice(regions[0]->device(g)));
      XF_CUDA_CHECK(cudaMemset(regions[0]->data(g), 0, p_.jacobi_rows * 4));
    }
  }
  void launch_step(int step, int gpu, uint64_t rb, uint64_t re, const DeviceRegion& out,
                   const std::vector<std::unique_ptr<Region>>& regions, uint32_t,
                   cudaStream_t s) override {
    const float* x = floats_of(regions, step % 2, gpu);
    const uint64_t width = 2 * p_.jacobi_half_band + 1;
    launch_jacobi(out, band_.at(gpu) + rb * width, x, rb, re, p_.jacobi_half_band, p_.jacobi_rows,
                  p_.seed, s);
  }
  Result<std::string> check(const std::vector<std::vector<char>>& host, uint32_t) const override {
    const int last = num_steps() - 1;
    const float* x = as<float>(host[last % 2]);
    const float* got = as<float>(host[step_region(last)]);
    const int k = p_.jacobi_half_band;
    std::vector<float> band(2 * k + 1);
    FloatCheck c;
    const auto rows = sample_rows(p_.jacobi_rows, kCheckRows, p_.seed);
    for (uint64_t i : rows) {
      for (int d = -k; d <= k; ++d)
        band[d + k] = math::jacobi_entry(p_.seed, i, d, k, p_.jacobi_rows);
      // jacobi_row indexes band by row: shift the one-row copy accordingly.
      const float* shifted = band.data() - i * (2 * k + 1);
      const float b = math::jacobi_rhs(p_.seed, i);
      c.add(i, got[i], math::jacobi_row(shifted, x, b, i, k, p_.jacobi_rows),
            jacobi_reference(band.data(), x, b, i, k, p_.jacobi_rows));
    }
    return c.result("jacobi", rows.size());
  }

 private:
  WorkloadParams p_;
  PerGpu<float> band_;
};

// ---------------------------------------------------------------- graphs
class GraphWorkload : public Workload {
 public:
  explicit GraphWorkload(const WorkloadParams& p) : p_(p) {}
  Status setup(const std::vector<int>& devices) override {
    if (graph_.in.rows == 0) {
      Result<RmatGraph> g = make_rmat(p_.graph_scale, p_.graph_edge_factor, p_.seed);
      if (!g.ok()) return g.error();
      graph_ = std::move(*g);
    }
    offsets_.upload(devices, graph_.in.offsets);
    src_.upload(devices, graph_.in.cols);
    degree_.upload(devices, graph_.out_degree);
    return Status::Ok();
  }
  uint32_t n() const { return graph_.in.rows; }
  std::vector<RegionSpec> regions() const override {
    return {{uint64_t{n()} * 4, 4}, {uint64_t{n()} * 4, 4}};
  }
  int num_steps() const override { return p_.iterations; }
  int step_region(int step) const override { return (step + 1) % 2; }
  uint32_t rows_per_cta(int) const override { return kBlockThreads; }

 protected:
  WorkloadParams p_;
  RmatGraph graph_;
  PerGpu<uint64_t> offsets_;
  PerGpu<uint32_t> src_;
  PerGpu<uint32_t> degree_;
};

class PageRankWorkload : public GraphWorkload {
 public:
  using GraphWorkload::GraphWorkload;
  std::string name() const override { return "pagerank"; }
  void reset(const std::vector<std::unique_ptr<Region>>& regions, uint32_t) override {
    std::vector<float> init(n(), 1.0f / static_cast<float>(n()));
    copy_to_all(*regions[0], init.data(), init.size() * 4);
  }
  void launch_step(int step, int gpu, uint64_t rb, uint64_t re, const DeviceRegion& out,
                   const std::vector<std::unique_ptr<Region>>& regions, uint32_t,
                   cudaStream_t s) override {
    launch_pagerank(out, offsets_.at(gpu), src_.at(gpu), degree_.at(gpu),
                    floats_of(regions, step % 2, gpu), rb, re, n(), s);
  }
  Result<std::string> check(const std::vector<std::vector<char>>& host, uint32_t) const override {
    const int last = num_steps() - 1;
    const float* pr = as<float>(host[last % 2]);
    const float* got = as<float>(host[step_region(last)]);
    FloatCheck c;
    const auto rows = sample_rows(n(), kCheckRows, p_.seed);
    const auto& g = graph_;
    for (uint64_t v : rows) {
      const auto u = static_cast<uint32_t>(v);
      c.add(v, got[v],
            math::pagerank_row(g.in.offsets.data(), g.in.cols.data(), g.out_degree.data(), pr, u,
                               n()),
            pagerank_reference(g.in.offsets.data(), g.in.cols.data(), g.out_degree.data(), pr, u,
                               n()));
    }
    return c.result("pagerank", rows.size());
  }
};

class SsspWorkload : public GraphWorkload {
 public:
  using GraphWorkload::GraphWorkload;
  std::string name() const override { return "sssp"; }
  void reset(const std::vector<std::unique_ptr<Region>>& regions, uint32_t) override {
    std::vector<uint32_t> init(n(), math::kInfDistance);
    init[graph_.hub] = 0;  // source: the R-MAT hub.
    copy_to_all(*regions[0], init.data(), init.size() * 4);
  }
  void launch_step(int step, int gpu, uint64_t rb, uint64_t re, const DeviceRegion& out,
                   const std::vector<std::unique_ptr<Region>>& regions, uint32_t,
                   cudaStream_t s) override {
    launch_sssp(out, offsets_.at(gpu), src_.at(gpu),
                reinterpret_cast<const uint32_t*>(regions[step % 2]->data(gpu)), rb, re, s);
  }
  Result<std::string> check(const std::vector<std::vector<char>>& host, uint32_t) const override {
    const int last = num_steps() - 1;
    const uint32_t* dist = as<uint32_t>(host[last % 2]);
    const uint32_t* got = as<uint32_t>(host[step_region(last)]);
    const auto rows = sample_rows(n(), kCheckRows, p_.seed);
    uint64_t reached = 0;
    for (uint64_t v : rows) {
      const uint32_t want = math::sssp_row(graph_.in.offsets.data(), graph_.in.cols.data(), dist,
                                           static_cast<uint32_t>(v));
      if (got[v] != want) {
        return make_runtime_error("sssp differs from the CPU reference at vertex " +
                                  std::to_string(v) + ": " + std::to_string(got[v]) + " vs " +
                                  std::to_string(want));
      }
      reached += want != math::kInfDistance;
    }
    return "cpu exact; " + std::to_string(rows.size()) + " sampled vertices (" +
           std::to_string(reached) + " reached)";
  }
};

// ---------------------------------------------------------------- ALS
class AlsWorkload : public Workload {
 public:
  explicit AlsWorkload(const WorkloadParams& p) : p_(p) {}
  std::string name() const override { return "als"; }
  Status setup(const std::vector<int>& devices) override {
    if (ratings_.users == 0) {
      Result<Ratings> r =
          make_ratings(p_.als_users, p_.als_items, p_.als_ratings_per_user, p_.seed);
      if (!r.ok()) return r.error();
      ratings_ = std::move(*r);
    }
    user_offsets_.upload(devices, ratings_.by_user.offsets);
    user_cols_.upload(devices, ratings_.by_user.cols);
    user_values_.upload(devices, ratings_.user_values);
    item_offsets_.upload(devices, ratings_.by_item.offsets);
    item_cols_.upload(devices, ratings_.by_item.cols);
    item_values_.upload(devices, ratings_.item_values);
    return Status::Ok();
  }
  // Regions: U0, U1, V0, V1 (double-buffered factor matrices).
  std::vector<RegionSpec> regions() const override {
    const uint64_t row = math::kAlsRank * 4;
    return {{uint64_t{p_.als_users} * row, row},
            {uint64_t{p_.als_users} * row, row},
            {uint64_t{p_.als_items} * row, row},
            {uint64_t{p_.als_items} * row, row}};
  }
  int num_steps() const override { return 2 * p_.iterations; }
  // step 2i: U[(i+1)%2] from U[i%2], V[i%2]; step 2i+1: V[(i+1)%2] from V[i%2], U[(i+1)%2].
  int step_region(int step) const override {
    const int i = step / 2;
    return (step % 2 == 0 ? 0 : 2) + (i + 1) % 2;
  }
  uint32_t rows_per_cta(int) const override { return kBlockThreads; }
  void reset(const std::vector<std::unique_ptr<Region>>& regions, uint32_t) override {
    for (int which = 0; which < 2; ++which) {
      const uint64_t rows = which == 0 ? p_.als_users : p_.als_items;
      std::vector<float> init(rows * math::kAlsRank);
      for (uint64_t r = 0; r < rows; ++r) {
        for (int f = 0; f < math::kAlsRank; ++f) {
          init[r * math::kAlsRank + f] = math::als_init(p_.seed + which, r, f);
        }
      }
      copy_to_all(*regions[2 * which], init.data(), init.size() * 4);
    }
  }
  void launch_step(int step, int gpu, uint64_t rb, uint64_t re, const DeviceRegion& out,
                   const std::vector<std::unique_ptr<Region>>& regions, uint32_t,
                   cudaStream_t s) override {
    const int i = step / 2;
    if (step % 2 == 0) {
      launch_als(out, floats_of(regions, i % 2, gpu), user_offsets_.at(gpu), user_cols_.at(gpu),
                 user_values_.at(gpu), floats_of(regions, 2 + i % 2, gpu), rb, re, s);
    } else {
      launch_als(out, floats_of(regions, 2 + i % 2, gpu), item_offsets_.at(gpu), item_cols_.at(gpu),
                 item_values_.at(gpu), floats_of(regions, (i + 1) % 2, gpu), rb, re, s);
    }
  }
  Result<std::string> check(const std::vector<std::vector<char>>& host, uint32_t) const override {
    const int i = num_steps() / 2 - 1;  // last step is the V update of iteration i.
    const float* v_old = as<float>(host[2 + i % 2]);
    const float* u = as<float>(host[(i + 1) % 2]);
    const float* got = as<float>(host[2 + (i + 1) % 2]);
    FloatCheck c;
    float out[math::kAlsRank];
    Bounded ref[math::kAlsRank];
    // Items have ~512 ratings each: fewer sampled rows keep the check < 0.5 s.
    const auto rows = sample_rows(p_.als_items, kCheckRows / 16, p_.seed);
    const Csr& m = ratings_.by_item;
    for (uint64_t r : rows) {
      const float* old = v_old + r * math::kAlsRank;
      math::als_row(old, m.offsets.data(), m.cols.data(), ratings_.item_values.data(), u, r, out);
      als_reference(old, m.offsets.data(), m.cols.data(), ratings_.item_values.data(), u, r, ref);
      for (int f = 0; f < math::kAlsRank; ++f)
        c.add(r, got[r * math::kAlsRank + f], out[f], ref[f]);
    }
    return c.result("als", rows.size());
  }

 private:
  WorkloadParams p_;
  Ratings ratings_;
  PerGpu<uint64_t> user_offsets_, item_offsets_;
  PerGpu<uint32_t> user_cols_, item_cols_;
  PerGpu<float> user_values_, item_values_;
};

// ---------------------------------------------------------------- X-ray CT
// SIRT reconstruction of the Shepp-Logan phantom from its analytic
// parallel-beam sinogram (ct.h, ct_math.h). Regions: X0, X1 (the image,
// double-buffered) and the weighted residual R (b - A x) (one entry per ray).
// Iteration i is two steps: 2i, the forward projection (each GPU a range of
// rays, i.e. of views) writes the residual from X[i%2]; 2i+1, the
// back-projection (each GPU a range of image rows) writes X[(i+1)%2]. Both
// regions are shared through PROACT every iteration.
class XrayCtWorkload : public Workload {
 public:
  explicit XrayCtWorkload(const WorkloadParams& p)
      : p_(p), g_{p.ct_size, p.ct_views, ct::default_bins(p.ct_size)} {}
  std::string name() const override { return "xray_ct"; }
  Status setup(const std::vector<int>& devices) override {
    if (g_.n < 8 || g_.views < 2) {
      return make_error("xray_ct: --ct-size must be at least 8 and --ct-views at least 2");
    }
    if (p_.iterations < 2) {
      return make_error("xray_ct: --iterations must be at least 2 (the check needs a decrease)");
    }
    if (b_.empty()) {
      ct::view_trig(g_, cos_, sin_);
      b_ = ct::analytic_sinogram(g_);
      phantom_ = ct::phantom_image(g_.n);
    }
    cos_d_.upload(devices, cos_);
    sin_d_.upload(devices, sin_);
    b_d_.upload(devices, b_);
    rinv_d_.upload(devices, nullptr, g_.rays());
    cinv_d_.upload(devices, nullptr, g_.pixels());
    objective_d_.upload(devices, nullptr, p_.iterations);
    for (size_t gi = 0; gi < devices.size(); ++gi) {
      const int gpu = static_cast<int>(gi);
      XF_CUDA_CHECK(cudaSetDevice(devices[gi]));
      launch_ct_weights(g_, cos_d_.at(gpu), sin_d_.at(gpu), rinv_d_.at(gpu), cinv_d_.at(gpu),
                        nullptr);
      XF_CUDA_CHECK(cudaDeviceSynchronize());
    }
    return Status::Ok();
  }
  std::vector<RegionSpec> regions() const override {
    return {{g_.pixels() * 4, 4}, {g_.pixels() * 4, 4}, {g_.rays() * 4, 4}};
  }
  int num_steps() const override { return 2 * p_.iterations; }
  int step_region(int step) const override { return step % 2 == 0 ? 2 : (step / 2 + 1) % 2; }
  uint32_t rows_per_cta(int) const override { return kBlockThreads; }
  void reset(const std::vector<std::unique_ptr<Region>>& regions, uint32_t) override {
    for (int g = 0; g < regions[0]->num_gpus(); ++g) {
      XF_CUDA_CHECK(cudaSetDevice(regions[0]->device(g)));
      XF_CUDA_CHECK(cudaMemset(regions[0]->data(g), 0, g_.pixels() * 4));  // x0 = 0.
      XF_CUDA_CHECK(cudaMemset(objective_d_.at(g), 0, p_.iterations * sizeof(double)));
    }
  }
  void launch_step(int step, int gpu, uint64_t rb, uint64_t re, const DeviceRegion& out,
                   const std::vector<std::unique_ptr<Region>>& regions, uint32_t,
                   cudaStream_t s) override {
    const int i = step / 2;
    if (step % 2 == 0) {
      launch_ct_forward(out, g_, cos_d_.at(gpu), sin_d_.at(gpu), floats_of(regions, i % 2, gpu),
                        b_d_.at(gpu), rinv_d_.at(gpu), objective_d_.at(gpu) + i, rb, re, s);
    } else {
      launch_ct_back(out, g_, cos_d_.at(gpu), sin_d_.at(gpu), floats_of(regions, i % 2, gpu),
                     floats_of(regions, 2, gpu), cinv_d_.at(gpu), rb, re, s);
    }
  }
  Result<std::string> check(const std::vector<std::vector<char>>& host, uint32_t) const override {
    const int i = p_.iterations - 1;  // the last iteration: X[i%2] -> residual -> X[(i+1)%2].
    const float* x_prev = as<float>(host[i % 2]);
    const float* x_next = as<float>(host[(i + 1) % 2]);
    Result<std::string> step =
        ct::check_sirt_iteration(g_, cos_, sin_, b_.data(), x_prev, as<float>(host[2]), x_next,
                                 kCtRaySamples, kCtPixelSamples, p_.seed);
    if (!step.ok()) return step.error();
    // The objective of every iteration, summed over the GPUs' ray ranges.
    std::vector<double> objective(p_.iterations, 0.0);
    for (int g = 0; g < objective_d_.size(); ++g) {
      const std::vector<double> part = objective_d_.download(g, p_.iterations);
      for (int k = 0; k < p_.iterations; ++k) objective[k] += part[k];
    }
    Result<std::string> fit = ct::check_residual_decrease(objective);
    if (!fit.ok()) return fit.error();
    std::string vs_one;
    if (reference_.empty() && objective_d_.size() == 1) {
      reference_.assign(x_next, x_next + g_.pixels());
      vs_one = "1-GPU reference image kept";
    } else if (reference_.empty()) {
      vs_one = "no 1-GPU image to compare with";
    } else {
      Result<std::string> same =
          ct::compare_images(x_next, reference_.data(), g_.pixels(), kCtImageTolerance);
      if (!same.ok()) return same.error();
      vs_one = *same;
    }
    char quality[96];
    std::snprintf(quality, sizeof quality, "|x - phantom|/|phantom| %.4f",
                  ct::relative_error(x_next, phantom_));
    return *step + "; " + *fit + "; " + vs_one + "; " + quality;
  }

 private:
  // Sampled per check: a ray costs n, a pixel ~6 views of work on the CPU.
  static constexpr uint64_t kCtRaySamples = 2048, kCtPixelSamples = 4096;
  // Every output is computed by one thread in a fixed order, whatever the
  // partition, so the multi-GPU image is expected bit-identical to the 1-GPU
  // one; the stated tolerance leaves room only for a last-bit difference.
  static constexpr double kCtImageTolerance = 1e-6;
  WorkloadParams p_;
  ct::Geometry g_;
  std::vector<float> cos_, sin_, b_, phantom_;
  mutable std::vector<float> reference_;  ///< the first 1-GPU final image.
  PerGpu<float> cos_d_, sin_d_, b_d_, rinv_d_, cinv_d_;
  PerGpu<double> objective_d_;  ///< per iteration: this GPU's share of 1/2 |b - Ax|_R^2.
};

}  // namespace

// ---------------------------------------------------------------- micro
MicroWorkload::MicroWorkload(const WorkloadParams& p) : p_(p), work_(p.micro_work) {}

Status MicroWorkload::setup(const std::vector<int>& devices) {
  if (p_.micro_bytes == 0 || p_.micro_bytes % 4096 != 0) {
    return make_error(
        "--bytes must be a positive multiple of 4 kB (each source CTA produces 4 kB)");
  }
  return Status::Ok();
}

void MicroWorkload::launch_step(int, int gpu, uint64_t rb, uint64_t re, const DeviceRegion& out,
                                const std::vector<std::unique_ptr<Region>>&, uint32_t run_index,
                                cudaStream_t s) {
  launch_micro(out, rb, re, p_.seed * 1000003 + run_index, work_, s);
}

Result<std::string> MicroWorkload::check(const std::vector<std::vector<char>>& host,
                                         uint32_t run_index) const {
  const auto* got = as<math::U32x4>(host[0]);
  const uint64_t rows = p_.micro_bytes / 16;
  const auto sample = sample_rows(rows, kCheckRows, p_.seed);
  for (uint64_t i : sample) {
    const math::U32x4 want = math::micro_value(p_.seed * 1000003 + run_index, i, work_);
    if (std::memcmp(&want, &got[i], 16) != 0) {
      return make_runtime_error("micro: byte " + std::to_string(i * 16) +
                                " differs from the CPU reference");
    }
  }
  return "cpu exact; " + std::to_string(sample.size()) + " sampled 16-B rows";
}

const std::vector<std::string>& workload_names() {
  static const std::vector<std::string> names = {"micro", "jacobi", "pagerank",
                                                 "sssp",  "als",    "xray_ct"};
  return names;
}

Result<std::unique_ptr<Workload>> make_workload(const std::string& name,
                                                const WorkloadParams& params) {
  if (params.iterations < 1) return make_error("--iterations must be at least 1");
  if (name == "micro") return std::unique_ptr<Workload>(new MicroWorkload(params));
  if (name == "jacobi") return std::unique_ptr<Workload>(new JacobiWorkload(params));
  if (name == "pagerank") return std::unique_ptr<Workload>(new PageRankWorkload(params));
  if (name == "sssp") return std::unique_ptr<Workload>(new SsspWorkload(params));
  if (name == "als") return std::unique_ptr<Workload>(new AlsWorkload(params));
  if (name == "xray_ct") return std::unique_ptr<Workload>(new XrayCtWorkload(params));
  return make_error("--workload: unknown workload '" + name + "'" +
                    did_you_mean(name, workload_names()) +
                    " (micro, jacobi, pagerank, sssp, als, xray_ct)");
}

}  // namespace xferlab::proact
