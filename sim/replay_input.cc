// sim/replay_input.cc — mechanism names, input validation and scale-out.
#include "sim/replay_input.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/units.h"
#include "hw_model/hbm_sharing.h"

namespace xferlab::sim {

const char* mechanism_name(Mechanism m) {
  switch (m) {
    case Mechanism::kMemcpy: return "memcpy";
    case Mechanism::kInline: return "inline";
    case Mechanism::kPolling: return "polling";
    case Mechanism::kCdp: return "cdp";
    case Mechanism::kHardware: return "hardware";
    case Mechanism::kInfinite: return "infinite";
  }
  return "?";
}

Result<Mechanism> parse_mechanism(std::string_view text) {
  std::vector<std::string> names;
  for (Mechanism m : kAllMechanisms) {
    if (text == mechanism_name(m)) return m;
    names.emplace_back(mechanism_name(m));
  }
  return make_error("unknown mechanism '" + std::string(text) + "'" + did_you_mean(text, names) +
                    " (one of memcpy, inline, polling, cdp, hardware, infinite, all)");
}

Status ReplayInput::validate() const {
  if (iterations.empty()) return make_error(name + ": no kernels to replay");
  for (size_t i = 0; i < iterations.size(); ++i) {
    for (size_t j = 0; j < iterations[i].kernels.size(); ++j) {
      const KernelInput& k = iterations[i].kernels[j];
      // Messages are built only on failure (a chunk's, per chunk, was most of
      // the check's time on a trace of 32k chunks).
      auto where = [&] {
        return name + ": iteration " + std::to_string(i) + " kernel on gpu " +
               std::to_string(k.gpu);
      };
      if (k.gpu >= num_gpus) return make_error(where() + ": GPU out of range");
      if (k.begin_ns < 0 || k.duration_ns < 0) return make_error(where() + ": negative time");
      double prev = 0;
      for (size_t c = 0; c < k.chunks.size(); ++c) {
        const ChunkInput& ch = k.chunks[c];
        auto cw = [&] { return where() + " chunk " + std::to_string(c); };
        if (ch.first_write_ns < 0 || ch.first_write_ns > ch.ready_ns ||
            ch.ready_ns > k.duration_ns * (1 + 1e-9) + 1) {
          return make_error(cw() + ": times outside the kernel or first write after ready");
        }
        if (ch.ready_ns < prev) return make_error(cw() + ": chunks not sorted by ready time");
        if (ch.store_bytes == 0) return make_error(cw() + ": zero store granularity");
        prev = ch.ready_ns;
      }
    }
  }
  return Status::Ok();
}

uint64_t ReplayInput::num_chunks() const {
  uint64_t n = 0;
  for (const IterationInput& it : iterations) {
    for (const KernelInput& k : it.kernels) n += k.chunks.size();
  }
  return n;
}

ReplayInput replicate_gpus(const ReplayInput& input, uint32_t num_gpus) {
  ReplayInput out = input;
  out.num_gpus = num_gpus;
  for (IterationInput& it : out.iterations) {
    std::vector<KernelInput> src = std::move(it.kernels);
    it.kernels.clear();
    if (src.empty()) continue;
    for (uint32_t g = 0; g < num_gpus; ++g) {
      KernelInput k = src[g % src.size()];
      k.gpu = g;
      k.dest_mask = 0;
      it.kernels.push_back(std::move(k));
    }
  }
  return out;
}

}  // namespace xferlab::sim

namespace xferlab::sim {

Result<ReplayInput> rechunk(const ReplayInput& input, uint64_t chunk_bytes) {
  uint32_t store_bytes = 1;
  uint64_t chunks = 0;
  for (const IterationInput& it : input.iterations) {
    for (const KernelInput& k : it.kernels) {
      uint64_t bytes = 0;
      for (const ChunkInput& c : k.chunks) {
        store_bytes = std::max(store_bytes, c.store_bytes);
        bytes += c.size_bytes;
      }
      chunks += (bytes + chunk_bytes - 1) / std::max<uint64_t>(chunk_bytes, 1);
    }
  }
  const std::string head = "--chunk-size " + std::to_string(chunk_bytes) + " B: ";
  if (chunk_bytes == 0 || chunk_bytes % store_bytes != 0) {
    return make_error(head + "must be a multiple of the trace's store granularity (" +
                      std::to_string(store_bytes) + " B): a store cannot straddle two chunks");
  }
  if (chunks > kMaxRechunkChunks) {
    return make_error(head + "makes " + std::to_string(chunks) + " chunks, more than the " +
                      std::to_string(kMaxRechunkChunks) + " a replay accepts; use a larger size");
  }
  ReplayInput out = input;
  for (IterationInput& it : out.iterations) {
    for (KernelInput& k : it.kernels) {
      std::vector<ChunkInput> src = std::move(k.chunks);
      k.chunks.clear();
      ChunkInput cur;
      bool open = false;
      for (const ChunkInput& c : src) {
        uint64_t done = 0;
        while (done < c.size_bytes) {
          if (!open) {
            cur = ChunkInput{};
            cur.first_write_ns = c.first_write_ns;
            cur.store_bytes = c.store_bytes;
            cur.writers = 0;
            open = true;
          }
          const uint64_t take = std::min(chunk_bytes - cur.size_bytes, c.size_bytes - done);
          done += take;
          cur.size_bytes += take;
          const double f = static_cast<double>(done) / static_cast<double>(c.size_bytes);
          // Original chunks are not written in file order: a new chunk spans
          // the earliest first write and the latest ready of its pieces.
          cur.first_write_ns = std::min(cur.first_write_ns, c.first_write_ns);
          cur.ready_ns =
              std::max(cur.ready_ns, c.first_write_ns + f * (c.ready_ns - c.first_write_ns));
          cur.writers += std::max<uint32_t>(
              1, static_cast<uint32_t>(c.writers * static_cast<double>(take) / c.size_bytes));
          if (cur.size_bytes == chunk_bytes) {
            cur.index = static_cast<uint32_t>(k.chunks.size());
            k.chunks.push_back(cur);
            open = false;
          }
        }
      }
      if (open) {
        cur.index = static_cast<uint32_t>(k.chunks.size());
        k.chunks.push_back(cur);
      }
      std::stable_sort(
          k.chunks.begin(), k.chunks.end(),
          [](const ChunkInput& a, const ChunkInput& b) { return a.ready_ns < b.ready_ns; });
    }
  }
  return out;
}

hw_model::SizingRegion sizing_region(const ReplayInput& input, uint64_t chunk_bytes) {
  hw_model::SizingRegion r{0, 0};
  for (const IterationInput& it : input.iterations) {
    for (const KernelInput& k : it.kernels) {
      double bytes = 0, largest = 0;
      for (const ChunkInput& c : k.chunks) {
        bytes += static_cast<double>(c.size_bytes);
        largest = std::max(largest, static_cast<double>(c.size_bytes));
      }
      const double cut = static_cast<double>(chunk_bytes);
      r.chunks = std::max(r.chunks, static_cast<int64_t>(chunk_bytes > 0 ? std::ceil(bytes / cut)
                                                                         : k.chunks.size()));
      r.chunk_bytes = std::max(r.chunk_bytes, chunk_bytes > 0 ? std::min(bytes, cut) : largest);
    }
  }
  if (r.chunk_bytes <= 0) r.chunk_bytes = hw_model::kDefaultSizingChunkBytes;
  return r;
}

namespace {

ReplayInput hbm_shared(ReplayInput input, Mechanism mechanism, uint32_t gpus,
                       double hbm_bw_bytes_per_s, bool inverse) {
  if (!shares_hbm(input, mechanism, hbm_bw_bytes_per_s)) return input;
  const bool reads = mechanism == Mechanism::kPolling || mechanism == Mechanism::kHardware;
  for (IterationInput& it : input.iterations) {
    std::vector<double> produced(it.kernels.size(), 0);
    std::vector<bool> sends(it.kernels.size(), false);  // has at least one peer to send to
    std::vector<double> incoming(gpus, 0);              // peers' writes into each GPU
    for (size_t i = 0; i < it.kernels.size(); ++i) {
      const KernelInput& k = it.kernels[i];
      for (const ChunkInput& c : k.chunks) produced[i] += static_cast<double>(c.size_bytes);
      for (uint32_t d = 0; d < gpus; ++d) {
        if (d != k.gpu && (k.dest_mask == 0 || (d < 64 && ((k.dest_mask >> d) & 1)))) {
          incoming[d] += produced[i];
          sends[i] = true;
        }
      }
    }
    for (size_t i = 0; i < it.kernels.size(); ++i) {
      KernelInput& k = it.kernels[i];
      const hw_model::HbmShare share{
          produced[i] * input.hbm_bytes_per_output_byte,
          (reads && sends[i] ? produced[i] : 0) + (k.gpu < gpus ? incoming[k.gpu] : 0),
          hbm_bw_bytes_per_s};
      const double t = inverse ? hw_model::unshared_kernel_ns(k.duration_ns, share)
                               : hw_model::shared_kernel_ns(k.duration_ns, share);
      if (!(k.duration_ns > 0) || t == k.duration_ns) continue;
      const double f = t / k.duration_ns;
      k.duration_ns = t;
      for (ChunkInput& c : k.chunks) {
        c.first_write_ns *= f;
        c.ready_ns *= f;
      }
    }
  }
  return input;
}

}  // namespace

bool shares_hbm(const ReplayInput& input, Mechanism mechanism, double hbm_bw_bytes_per_s) {
  const bool peer_writes = mechanism == Mechanism::kPolling || mechanism == Mechanism::kHardware ||
                           mechanism == Mechanism::kInline;
  return peer_writes && input.hbm_bytes_per_output_byte > 0 && hbm_bw_bytes_per_s > 0;
}

ReplayInput share_hbm(ReplayInput input, Mechanism mechanism, uint32_t gpus,
                      double hbm_bw_bytes_per_s) {
  return hbm_shared(std::move(input), mechanism, gpus, hbm_bw_bytes_per_s, false);
}

ReplayInput unshare_hbm(ReplayInput input, Mechanism mechanism, uint32_t gpus,
                        double hbm_bw_bytes_per_s) {
  return hbm_shared(std::move(input), mechanism, gpus, hbm_bw_bytes_per_s, true);
}

}  // namespace xferlab::sim
