// native/proact/micro_workload.h — MicroWorkload: the PROACT microbenchmark.
// GPU 0 produces `micro_bytes` (4 kB per CTA, `work` dependent integer rounds
// per 16 B) that every other GPU needs. The runner calibrates `work` so the
// producer takes as long as the cudaMemcpy duplication (ideal overlap = 2x).
#pragma once

#include "native/proact/workload.h"

namespace xferlab::proact {

class MicroWorkload : public Workload {
 public:
  explicit MicroWorkload(const WorkloadParams& p);
  std::string name() const override { return "micro"; }
  Status setup(const std::vector<int>& devices) override;
  std::vector<RegionSpec> regions() const override { return {{p_.micro_bytes, 16}}; }
  int num_steps() const override { return 1; }
  int step_region(int) const override { return 0; }
  bool produces(int gpu) const override { return gpu == 0; }
  uint32_t rows_per_cta(int) const override { return 256; }
  void reset(const std::vector<std::unique_ptr<Region>>&, uint32_t) override {}
  void launch_step(int step, int gpu, uint64_t rb, uint64_t re, const DeviceRegion& out,
                   const std::vector<std::unique_ptr<Region>>& regions, uint32_t run_index,
                   cudaStream_t stream) override;
  Result<std::string> check(const std::vector<std::vector<char>>& host,
                            uint32_t run_index) const override;

  uint32_t work() const { return work_; }
  void set_work(uint32_t work) { work_ = work; }

 private:
  WorkloadParams p_;
  uint32_t work_;
};

}  // namespace xferlab::proact
