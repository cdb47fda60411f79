// traces/generator.h — a small deterministic synthetic trace shaped like a
// real PROACT producer-kernel run, for tests and demos (`xferlab trace
// generate`).
//
// Per iteration: a host phase, a kernel launch / begin / end per GPU; CTAs run
// in waves over the GPU's SMs, each writing one chunk (store granularity
// 16 B); every CTA end decrements its chunk's data-ready counter; the counter
// reaching zero triggers the chunk's transfer to the other GPUs with the
// chosen mechanism (memcpy: a host thread observes a flag and issues the copy;
// polling/cdp/inline/...: a GPU agent lane moves it; hardware_dma: the counter
// unit triggers the DMA agent). Timings are jittered with the seed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "traces/event.h"
#include "traces/metadata.h"
#include "traces/writer.h"

namespace xferlab::traces {

inline constexpr uint32_t kMaxGeneratedGpus = 1024;

// GenerateOptions: the shape of the synthetic run.
struct GenerateOptions {
  uint32_t gpus = 2;    ///< 1..kMaxGeneratedGpus (masks of more than 32/64 GPUs are 0 = all peers).
  uint32_t chunks = 8;  ///< chunks per GPU per iteration.
  uint32_t ctas = 64;   ///< CTAs per producer kernel (>= chunks).
  uint32_t iterations = 2;
  uint32_t sms = 16;  ///< CTA slots per GPU (CTAs run in waves of this size).
  uint64_t chunk_bytes = 65536;
  uint64_t seed = 1;
  TransferMechanism mechanism = TransferMechanism::kPolling;
  uint32_t producers = 0;     ///< GPUs 0..producers-1 produce (0: all); the others only receive.
  uint64_t cta_ns = 20000;    ///< mean CTA duration (jittered +/- 15%).
  bool compute_only = false;  ///< no transfers recorded; parameter mechanism = "none".
  std::string gpu_model = "Synthetic GPU";  ///< every GPU's model (replay picks presets by it).
  /// Extra run parameters, appended in order (e.g. workload, platform).
  std::vector<std::pair<std::string, std::string>> parameters;

  // validate: one-line error naming the bad option.
  Status validate() const;
};

// generated_metadata: the metadata of the synthetic run (GPUs, kernels,
// chunks, flags, phases, parameters, clock domains).
Metadata generated_metadata(const GenerateOptions& options);

// generate_events: append the synthetic run's events to an open writer.
Status generate_events(const GenerateOptions& options, TraceWriter& writer);

// generate_trace: write a complete synthetic trace to `path`.
Status generate_trace(const std::string& path, const GenerateOptions& options,
                      const WriterOptions& writer_options = {});

}  // namespace xferlab::traces
