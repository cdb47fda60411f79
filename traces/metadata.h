// traces/metadata.h — Metadata: everything a trace says about itself besides
// its events: format version, producer, machine, run parameters, clocks and the
// name tables that give meaning to the ids inside events.
//
// Stored in the file as JSON text (see FORMAT.md, "Metadata schema") so it is
// human readable and extensible: keys this version does not know are kept in
// `extra` and written back unchanged, so tools that rewrite a trace never drop
// another producer's fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace xferlab::traces {

// Format version written by this library. Readers reject a newer major
// version; a newer minor version is read (unknown event kinds are skipped,
// unknown metadata keys kept).
inline constexpr uint16_t kFormatMajor = 2;  ///< 2.0: block checksums, chunk_runs.
inline constexpr uint16_t kFormatMinor = 1;  ///< 2.1: block codec 2 (time deltas + shuffle).

// ProducerInfo: which program wrote the trace, from which source, how invoked.
struct ProducerInfo {
  std::string program;       ///< e.g. "proact_bench".
  std::string version;       ///< program / xferlab version.
  std::string revision;      ///< source revision (git hash, "+dirty" if modified).
  std::string command_line;  ///< full command line, shell-quoted.
  std::string start_time;    ///< wall-clock start, ISO 8601 UTC.
};

// GpuInfo: one device of the run (name table "gpus": Event::gpu indexes it).
struct GpuInfo {
  uint32_t id = 0;                 ///< Event::gpu value (device ordinal or MPI rank).
  std::string model;               ///< e.g. "NVIDIA H100 80GB HBM3".
  std::string pci_bus_id;          ///< e.g. "0000:18:00.0".
  std::string uuid;                ///< "GPU-..." when known.
  uint64_t memory_bytes = 0;       ///< device memory.
  uint32_t sm_count = 0;           ///< streaming multiprocessors.
  std::string compute_capability;  ///< e.g. "9.0".
  std::string host;                ///< hostname for multi-node runs.
};

// MachineInfo: where the run happened.
struct MachineInfo {
  std::string hostname;
  std::string cpu_model;
  uint32_t cpu_cores = 0;
  std::string driver_version;  ///< NVIDIA driver, e.g. "580.65.06".
  std::string cuda_version;    ///< CUDA runtime, e.g. "13.0".
  std::string topology;        ///< verbatim `nvidia-smi topo -m` output.
  std::string mpi;             ///< MPI library and version, "" if none.
  std::string os;              ///< e.g. "Ubuntu 24.04, Linux 6.8".
};

// ClockDomain: a clock some events were recorded with, and how it maps onto
// the trace time base (Metadata::time_base):
//   base_ns = t + offset_ns + drift_ppb * 1e-9 * (t - reference_ns).
// Events in the file are already in the time base; domains document how the
// producer got there and how good the mapping is.
struct ClockDomain {
  std::string name;           ///< e.g. "gpu0.globaltimer", "host.steady_clock".
  std::string source;         ///< "gpu_globaltimer" | "host_steady" | "host_realtime" | ...
  int64_t offset_ns = 0;      ///< added to map onto the time base.
  double drift_ppb = 0;       ///< drift estimate vs. the time base, parts per billion.
  uint64_t reference_ns = 0;  ///< time at which offset_ns was measured.
  double uncertainty_ns = 0;  ///< half-width of the offset's confidence interval.
  uint32_t samples = 0;       ///< round trips used to estimate offset/drift.
  std::string method;         ///< e.g. "pingpong-min-rtt", "identity".

  // to_base_ns: t (in this domain) mapped to the time base.
  int64_t to_base_ns(uint64_t t) const;
};

// KernelInfo: name table "kernels" (kKernel* Event::id).
struct KernelInfo {
  uint32_t id = 0;
  std::string name;
  uint32_t grid_ctas = 0;
  uint32_t block_threads = 0;
};

// NamedId: an id -> name entry (name tables "phases", "streams").
struct NamedId {
  uint32_t id = 0;
  std::string name;
};

// FlagInfo: name table "flags" (kFlag*, kStream*Value Event::id).
struct FlagInfo {
  uint32_t id = 0;
  std::string name;
  std::string location;  ///< "host_pinned", "device:1", ...
};

// ChunkInfo: name table "chunks" (kCounter*, kChunkWrite Event::id, CTA aux):
// a byte range of a GPU's output buffer with its data-ready counter.
struct ChunkInfo {
  uint32_t id = 0;
  uint32_t gpu = 0;           ///< GPU whose kernel produces the chunk.
  uint64_t offset_bytes = 0;  ///< start within the producer's output buffer.
  uint64_t size_bytes = 0;
  uint32_t writers = 0;       ///< CTAs (or warps) writing it = initial counter value.
  uint64_t destinations = 0;  ///< bitmask of destination GPUs; 0 = every other GPU.
};

// Parameter: one run parameter (ordered; values are text with units, e.g.
// {"chunk_size", "64KiB"}, parsed with common/units.h by consumers).
using Parameter = std::pair<std::string, std::string>;

// Metadata: the metadata block of a trace.
struct Metadata {
  uint16_t format_major = kFormatMajor;  ///< set by the writer; read from the file.
  uint16_t format_minor = kFormatMinor;
  ProducerInfo producer;
  MachineInfo machine;
  std::vector<GpuInfo> gpus;
  std::vector<Parameter> parameters;
  std::string time_base = "host_realtime";  ///< name of the domain all timestamps use.
  std::vector<ClockDomain> clocks;
  std::vector<KernelInfo> kernels;
  std::vector<NamedId> phases;
  std::vector<NamedId> streams;
  std::vector<FlagInfo> flags;
  std::vector<ChunkInfo> chunks;
  std::string extra_json = "{}";  ///< unknown top-level keys, preserved as a JSON object.

  // set_parameter: insert or replace (keeps the first position).
  void set_parameter(std::string_view key, std::string value);
  // parameter: value of `key`, or nullopt.
  std::optional<std::string> parameter(std::string_view key) const;

  // Lookups by id (nullptr when absent).
  const GpuInfo* find_gpu(uint32_t id) const;
  const KernelInfo* find_kernel(uint32_t id) const;
  const ChunkInfo* find_chunk(uint32_t id) const;
  const FlagInfo* find_flag(uint32_t id) const;
  const NamedId* find_phase(uint32_t id) const;

  // merge: fields of `other` that are set (non-empty / non-zero) override
  // this one's; parameters are set in order; table entries replace entries
  // with the same id or are appended; extra keys are merged.
  void merge(const Metadata& other);

  // to_json: the JSON text stored in the file (pretty, 2-space indent).
  std::string to_json() const;

  // from_json: parse JSON text; `source` (file name) prefixes error messages.
  // Rejects wrong types and ids that repeat within a table.
  static Result<Metadata> from_json(std::string_view text, std::string_view source);

  bool operator==(const Metadata& other) const;
};

}  // namespace xferlab::traces
