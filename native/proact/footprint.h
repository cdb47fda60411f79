// native/proact/footprint.h — Footprint: the host memory and the memory per
// GPU that a proact run needs, estimated from its flags before anything is
// generated or allocated, so that a run that cannot fit is refused at once
// with the flags and the limit named, instead of generating for minutes and
// then swapping or failing (issue #21: `--graph-scale 28 --edge-factor 256`).
// Plain C++ (tested without a GPU); proact_main.cc applies the checks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "native/proact/workload_params.h"

namespace xferlab::proact {

struct FootprintInput {
  std::string workload;  ///< micro | jacobi | pagerank | sssp | als | xray_ct.
  WorkloadParams params;
  uint64_t max_chunk_bytes = 0;      ///< regions are padded to a whole number of chunks.
  uint64_t trace_bytes_per_gpu = 0;  ///< device trace buffers (0: untraced).
};

// Footprint: the dominant terms (inputs, regions, per-chunk state, trace
// buffers, host copies for verification); small fixed allocations are left
// out, so the estimate is a lower bound within a few percent.
struct Footprint {
  uint64_t host_bytes = 0;       ///< peak host memory (input generation, verification).
  uint64_t gpu_bytes = 0;        ///< per GPU.
  uint64_t generated_items = 0;  ///< edges / ratings the host generates (0: none).
  std::string size_flags;        ///< the flags that set the size, as given.
};

// estimate_footprint: error only for an unknown workload.
Result<Footprint> estimate_footprint(const FootprintInput& input);

// check_host_fits / check_gpu_fits: a usage error naming the size flags, the
// estimate and the limit ("where" says where the limit was read) when the
// estimate exceeds `available_bytes`.
Status check_host_fits(const Footprint& f, uint64_t available_bytes);
Status check_gpu_fits(const Footprint& f, int device, uint64_t free_bytes);

// parse_mem_available: MemAvailable from the text of /proc/meminfo, in bytes.
Result<uint64_t> parse_mem_available(std::string_view meminfo);
// read_mem_available: the same from this machine's /proc/meminfo.
Result<uint64_t> read_mem_available();

// gib_text: "825.0 GiB" (one decimal).
std::string gib_text(uint64_t bytes);

}  // namespace xferlab::proact
