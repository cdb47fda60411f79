// native/proact/region.cc — allocation, peer mapping and counter arming.
#include "native/proact/region.h"

#include <cuda_runtime.h>

#include <string>

#include "native/cuda_check.h"

namespace xferlab::proact {

Status enable_peer_access(const std::vector<int>& devices) {
  for (int a : devices) {
    for (int b : devices) {
      if (a == b) continue;
      int can = 0;
      XF_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) {
        return make_runtime_error("GPU " + std::to_string(a) + " cannot access GPU " +
                                  std::to_string(b) +
                                  " directly (no peer access over NVLink/PCIe); PROACT needs "
                                  "peer-mapped regions");
      }
      XF_CUDA_CHECK(cudaSetDevice(a));
      const cudaError_t err = cudaDeviceEnablePeerAccess(b, 0);
      if (err == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();  // clear the sticky-free status.
      } else if (err != cudaSuccess) {
        return make_runtime_error("enabling peer access GPU " + std::to_string(a) + " -> " +
                                  std::to_string(b) + " failed: " + cudaGetErrorString(err));
      }
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<Region>> Region::create(const RegionOptions& options) {
  if (options.devices.empty()) return make_error("region: no GPUs given");
  if (options.devices.size() > static_cast<size_t>(kMaxGpus)) {
    return make_error("region: at most " + std::to_string(kMaxGpus) + " GPUs are supported");
  }
  if (options.counter_bits < 1 || options.counter_bits > 32) {
    return make_error("--counter-bits must be in 1..32, got " +
                      std::to_string(options.counter_bits));
  }
  if (options.chunk_bytes == 0 || options.region_bytes % options.chunk_bytes != 0) {
    return make_error("chunk size " + std::to_string(options.chunk_bytes) +
                      " B does not divide the region size " + std::to_string(options.region_bytes) +
                      " B");
  }
  std::unique_ptr<Region> r(new Region(options));
  const size_t nc = options.region_bytes / options.chunk_bytes;
  char* managed = nullptr;
  if (options.managed) {
    const cudaError_t err = cudaMallocManaged(&managed, options.region_bytes);
    if (err != cudaSuccess) {
      return make_runtime_error("region: cudaMallocManaged(" +
                                std::to_string(options.region_bytes) +
                                " B) failed: " + cudaGetErrorString(err));
    }
  }
  r->per_gpu_.resize(options.devices.size());
  for (size_t g = 0; g < options.devices.size(); ++g) {
    PerGpu& p = r->per_gpu_[g];
    XF_CUDA_CHECK(cudaSetDevice(options.devices[g]));
    if (managed != nullptr) {
      p.data = managed;
    } else {
      const cudaError_t err = cudaMalloc(&p.data, options.region_bytes);
      if (err != cudaSuccess) {
        return make_runtime_error("region: cudaMalloc(" + std::to_string(options.region_bytes) +
                                  " B) on GPU " + std::to_string(options.devices[g]) +
                                  " failed: " + cudaGetErrorString(err));
      }
    }
    XF_CUDA_CHECK(cudaMalloc(&p.counters, nc * sizeof(uint32_t)));
    XF_CUDA_CHECK(cudaMalloc(&p.init, nc * sizeof(uint32_t)));
    XF_CUDA_CHECK(cudaMalloc(&p.ready, nc * sizeof(uint32_t)));
    XF_CUDA_CHECK(cudaMalloc(&p.cdp_done, nc * sizeof(uint32_t)));
    // [0]: the producer's finished CTAs, [1]: the agent's (they run concurrently).
    XF_CUDA_CHECK(cudaMalloc(&p.kernel_ctas_done, 2 * sizeof(unsigned int)));
    XF_CUDA_CHECK(cudaMemset(p.counters, 0, nc * sizeof(uint32_t)));
    XF_CUDA_CHECK(cudaMemset(p.init, 0, nc * sizeof(uint32_t)));
    XF_CUDA_CHECK(cudaMemset(p.ready, 0, nc * sizeof(uint32_t)));
    XF_CUDA_CHECK(cudaMemset(p.cdp_done, 0, nc * sizeof(uint32_t)));
    XF_CUDA_CHECK(cudaMemset(p.kernel_ctas_done, 0, 2 * sizeof(unsigned int)));
    XF_CUDA_CHECK(cudaHostAlloc(&p.h_error, sizeof(AgentError), cudaHostAllocMapped));
    *p.h_error = AgentError{};
    XF_CUDA_CHECK(cudaHostGetDevicePointer(&p.d_error, p.h_error, 0));
  }
  return r;
}

Region::~Region() {
  for (size_t g = 0; g < per_gpu_.size(); ++g) {
    PerGpu& p = per_gpu_[g];
    cudaSetDevice(options_.devices[g]);
    if (!options_.managed || g == 0) cudaFree(p.data);
    cudaFree(p.counters);
    cudaFree(p.init);
    cudaFree(p.ready);
    cudaFree(p.cdp_done);
    cudaFree(p.kernel_ctas_done);
    cudaFree(p.cta_offsets);
    cudaFree(p.cta_chunks);
    cudaFreeHost(p.h_error);
  }
}

uint32_t Region::num_chunks() const {
  return static_cast<uint32_t>(options_.region_bytes / options_.chunk_bytes);
}

Status Region::set_mapping(int gpu, const MappingSpec& spec) {
  Result<ChunkMap> m =
      ChunkMap::build(options_.region_bytes, options_.chunk_bytes, spec, options_.counter_bits);
  if (!m.ok()) return m.error();
  PerGpu& p = per_gpu_[gpu];
  XF_CUDA_CHECK(cudaSetDevice(options_.devices[gpu]));
  cudaFree(p.cta_offsets);
  cudaFree(p.cta_chunks);
  const auto& off = m->cta_offsets();
  const auto& chunks = m->cta_chunks();
  XF_CUDA_CHECK(cudaMalloc(&p.cta_offsets, off.size() * sizeof(uint32_t)));
  XF_CUDA_CHECK(cudaMalloc(&p.cta_chunks, (chunks.size() + 1) * sizeof(uint32_t)));
  XF_CUDA_CHECK(
      cudaMemcpy(p.cta_offsets, off.data(), off.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  XF_CUDA_CHECK(cudaMemcpy(p.cta_chunks, chunks.data(), chunks.size() * sizeof(uint32_t),
                           cudaMemcpyHostToDevice));
  const size_t nc = m->writers().size();
  XF_CUDA_CHECK(
      cudaMemcpy(p.init, m->writers().data(), nc * sizeof(uint32_t), cudaMemcpyHostToDevice));
  XF_CUDA_CHECK(
      cudaMemcpy(p.counters, m->writers().data(), nc * sizeof(uint32_t), cudaMemcpyHostToDevice));
  p.map = std::make_unique<ChunkMap>(std::move(*m));
  return Status::Ok();
}

DeviceRegion Region::device_view(int gpu, uint32_t mode, uint32_t epoch,
                                 const native::DeviceTrace& trace) const {
  const PerGpu& p = per_gpu_[gpu];
  DeviceRegion d;
  d.local = p.data;
  for (int q = 0; q < num_gpus(); ++q) {
    if (q == gpu) continue;
    // Managed: one shared buffer, nothing to store to, but the peers are
    // still the destinations of the prefetches (traced transfers).
    if (!options_.managed) d.peers[d.num_peers++] = per_gpu_[q].data;
    d.peer_mask |= 1u << options_.devices[q];
  }
  d.chunk_bytes = options_.chunk_bytes;
  d.counters = p.counters;
  d.init = p.init;
  d.ready = p.ready;
  d.cdp_done = p.cdp_done;
  d.cta_offsets = p.cta_offsets;
  d.cta_chunks = p.cta_chunks;
  d.kernel_ctas_done = p.kernel_ctas_done;
  d.agent_ctas_done = p.kernel_ctas_done + 1;
  d.error = p.d_error;
  d.epoch = epoch;
  d.mode = mode;
  d.trace = trace;
  return d;
}

void Region::clear_errors() {
  for (PerGpu& p : per_gpu_) *p.h_error = AgentError{};
}

}  // namespace xferlab::proact
