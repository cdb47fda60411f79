// native/proact/workload.h — Workload: an application the PROACT runner drives
// on any number of GPUs (>= 1).
//
// A run is a sequence of steps; step s runs one producer kernel per GPU that
// writes that GPU's part of region step_region(s) (and reads whatever regions
// it likes through their local copies). After a step every GPU must hold the
// whole region (the mechanism moves each GPU's part to all peers); the
// runner places a cross-GPU barrier between steps.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "native/proact/chunk_map.h"
#include "native/proact/device_region.h"
#include "native/proact/region.h"
#include "native/proact/workload_params.h"

namespace xferlab::proact {

// RegionSpec: one region of the workload.
struct RegionSpec {
  uint64_t data_bytes = 0;  ///< meaningful bytes (the region is padded to a chunk multiple).
  uint64_t row_bytes = 4;   ///< partition granule: a GPU's part is whole rows.
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;

  // setup: generate inputs and allocate per-GPU state for `devices`.
  virtual Status setup(const std::vector<int>& devices) = 0;
  virtual std::vector<RegionSpec> regions() const = 0;
  virtual int num_steps() const = 0;
  virtual int step_region(int step) const = 0;

  // producer_gpus: GPUs (indices) that produce each step (default: all).
  virtual bool produces(int gpu) const { return true; }
  // block_threads: producer CTA size; rows_per_cta: rows one CTA writes.
  virtual uint32_t rows_per_cta(int region) const = 0;

  // reset: put the initial state into the regions on every GPU (synchronous).
  // run_index varies the data between runs where the workload allows it.
  virtual void reset(const std::vector<std::unique_ptr<Region>>& regions, uint32_t run_index) = 0;

  // launch_step: enqueue GPU `gpu`'s producer for `step` on `stream`, writing
  // rows [row_begin, row_end) of the output region through `out`.
  virtual void launch_step(int step, int gpu, uint64_t row_begin, uint64_t row_end,
                           const DeviceRegion& out,
                           const std::vector<std::unique_ptr<Region>>& regions, uint32_t run_index,
                           cudaStream_t stream) = 0;

  // check: compare the final state (host copies of every region's data, from
  // one GPU) against a CPU reference (full or sampled). Returns a short
  // description ("cpu exact", "cpu max_rel_err 2e-7 (tol 1e-5)") or an error.
  virtual Result<std::string> check(const std::vector<std::vector<char>>& host_regions,
                                    uint32_t run_index) const = 0;
};

// make_workload: "micro" | "jacobi" | "pagerank" | "sssp" | "als" | "xray_ct".
Result<std::unique_ptr<Workload>> make_workload(const std::string& name,
                                                const WorkloadParams& params);
const std::vector<std::string>& workload_names();

}  // namespace xferlab::proact
