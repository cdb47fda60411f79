// native/proact/region.h — Region: a PROACT-enabled region allocated on every
// participating GPU with a 1:1 mapping (byte b of GPU g's copy corresponds to
// byte b of every peer's copy), its per-chunk data-ready counters and ready
// flags, and each GPU's CTA -> chunk mapping.
//
//   XF_RETURN_IF_ERROR(enable_peer_access(devices));
//   auto region = Region::create({.devices = {0, 1}, .region_bytes = n, .chunk_bytes = c});
//   XF_RETURN_IF_ERROR((*region)->set_mapping(0, spec));   // GPU 0's producer
//   kernel<<<...>>>((*region)->device(0, kModeTrack, epoch, trace));
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/result.h"
#include "native/device_trace.h"
#include "native/proact/chunk_map.h"
#include "native/proact/device_region.h"

namespace xferlab::proact {

// enable_peer_access: every device in `devices` maps every other one; a
// one-line error names the first pair without peer access.
Status enable_peer_access(const std::vector<int>& devices);

struct RegionOptions {
  std::vector<int> devices;   ///< CUDA ordinals; index in this list = "GPU index".
  uint64_t region_bytes = 0;  ///< multiple of chunk_bytes.
  uint64_t chunk_bytes = 0;
  int counter_bits = 32;  ///< counter capacity checked by set_mapping (<= 32).
  bool managed = false;   ///< one cudaMallocManaged buffer shared by all GPUs (UM baseline).
};

class Region {
 public:
  // create: allocates data, counters, ready flags on every device. Errors:
  // bad sizes (one line), out of memory (runtime).
  static Result<std::unique_ptr<Region>> create(const RegionOptions& options);
  ~Region();
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  // set_mapping: GPU `gpu`'s producer writes per `spec`; builds the ChunkMap
  // (errors: chunk size not dividing, too many writers) and arms its counters.
  Status set_mapping(int gpu, const MappingSpec& spec);

  int num_gpus() const { return static_cast<int>(options_.devices.size()); }
  int device(int gpu) const { return options_.devices[gpu]; }
  uint64_t region_bytes() const { return options_.region_bytes; }
  uint64_t chunk_bytes() const { return options_.chunk_bytes; }
  uint32_t num_chunks() const;
  char* data(int gpu) const { return per_gpu_[gpu].data; }
  bool has_mapping(int gpu) const { return per_gpu_[gpu].map != nullptr; }
  const ChunkMap& map(int gpu) const { return *per_gpu_[gpu].map; }

  // device_view: the DeviceRegion for GPU `gpu` in `mode` (RegionMode bits)
  // at `epoch` (must increase with every producer launch on this region).
  DeviceRegion device_view(int gpu, uint32_t mode, uint32_t epoch,
                           const native::DeviceTrace& trace) const;

  // error: the host-mapped agent error of GPU `gpu` (read after a sync);
  // clear_errors resets them.
  AgentError error(int gpu) const { return *per_gpu_[gpu].h_error; }
  void clear_errors();

 private:
  explicit Region(RegionOptions options) : options_(std::move(options)) {}

  struct PerGpu {
    char* data = nullptr;
    uint32_t* counters = nullptr;
    uint32_t* init = nullptr;
    uint32_t* ready = nullptr;
    uint32_t* cdp_done = nullptr;
    unsigned int* kernel_ctas_done = nullptr;  ///< [0] producer, [1] agent kernel.
    uint32_t* cta_offsets = nullptr;
    uint32_t* cta_chunks = nullptr;
    AgentError* h_error = nullptr;
    AgentError* d_error = nullptr;
    std::unique_ptr<ChunkMap> map;
  };
  RegionOptions options_;
  std::vector<PerGpu> per_gpu_;
};

}  // namespace xferlab::proact
