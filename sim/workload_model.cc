// sim/workload_model.cc — workload model, strong scaling and roofline
// rescaling of a traced workload (workload_model.h, docs/scaling.md).
#include "sim/workload_model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "common/number.h"
#include "common/table.h"

namespace xferlab::sim {

const char* scaling_name(Scaling s) {
  return s == Scaling::kStrong ? "strong" : "weak";
}

Result<Scaling> parse_scaling(std::string_view text) {
  if (text == "weak") return Scaling::kWeak;
  if (text == "strong") return Scaling::kStrong;
  return make_error("--scaling '" + std::string(text) + "': expected weak or strong");
}

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::kAllGather: return "all-gather";
    case Pattern::kBroadcast: return "broadcast";
    case Pattern::kOther: return "other";
  }
  return "?";
}

const char* bound_name(Bound b) {
  return b == Bound::kMemory ? "memory-bound" : "compute-bound";
}

namespace {

// param: a numeric run parameter, or `fallback` when absent or not a number.
double param(const std::vector<std::pair<std::string, std::string>>& ps, const std::string& key,
             double fallback) {
  for (const auto& [k, v] : ps) {
    if (k != key) continue;
    Result<int64_t> i = parse_int(v);
    return i.ok() ? static_cast<double>(*i) : fallback;
  }
  return fallback;
}

std::string text(const std::vector<std::pair<std::string, std::string>>& ps,
                 const std::string& key) {
  for (const auto& [k, v] : ps) {
    if (k == key) return v;
  }
  return "";
}

}  // namespace

Traffic traffic(const std::vector<std::pair<std::string, std::string>>& ps) {
  // Bytes per output row of each kernel (native/proact/kernels.cu); gathers
  // of 4-B values are counted at 4 B (an L2 hit or a lower bound). Defaults
  // are proact's flag defaults (proact_main.cc) for traces that omit them.
  const std::string w = text(ps, "workload");
  if (w == "micro")
    return {1, "micro: writes 16 B per thread, loads nothing (1 B per output byte)"};
  if (w == "jacobi") {
    const double k = param(ps, "jacobi-half-band", 8);
    return {
        (4 * (2 * k + 1) + 8) / 4,
        "jacobi: per 4-B row, band (2k+1) x 4 B + x 4 B + write 4 B, k = " + format_number(k, 3)};
  }
  if (w == "pagerank" || w == "sssp") {
    const double e = param(ps, "edge-factor", 16);
    // pagerank: offsets 8 B, per in-edge src 4 + pr 4 + out-degree 4; sssp:
    // offsets 8 B + own distance 4 B, per in-edge src 4 + distance 4.
    const bool pr = w == "pagerank";
    return {((pr ? 8.0 : 12.0) + e * (pr ? 12 : 8) + 4) / 4,
            w + ": per 4-B row, offsets + " + (pr ? "12" : "8") + " B per in-edge + write 4 B, " +
                format_number(e, 3) + " in-edges per row"};
  }
  if (w == "als") {
    constexpr double kRank = 16;  // math::kAlsRank
    const double users = param(ps, "als-users", 1 << 21), items = param(ps, "als-items", 1 << 17),
                 per_user = param(ps, "als-per-user", 32);
    // A user step and an item step each visit every rating once (column 4 B,
    // rating 4 B, the other side's factor row 4R B) and read + write each
    // row's factors (2 x 4R B); output 4R B per row.
    const double ratings = users * per_user;
    return {(2 * ratings * (8 + 4 * kRank) + (users + items) * 8 * kRank) /
                ((users + items) * 4 * kRank),
            "als: per rating 8 B + a 64-B factor row in each step, per row 2 x 64 B, "
            "averaged over the user and item steps"};
  }
  return {1, (w.empty() ? std::string("unknown workload") : "workload '" + w + "'") +
                 ": output bytes only (a lower bound on HBM traffic)"};
}

Result<WorkloadModel> workload_model(const ReplayInput& in, const hw_model::GpuConfig* trace_gpu) {
  WorkloadModel m;
  m.traced_gpus = in.num_gpus;
  std::map<uint32_t, bool> producing;
  double kernel_ns = 0, kernel_bytes = 0, chunk_bytes = 0, writers = 0;
  size_t kernels = 0;
  for (const IterationInput& it : in.iterations) {
    double iteration_bytes = 0;
    for (const KernelInput& k : it.kernels) {
      double bytes = 0;
      for (const ChunkInput& c : k.chunks) {
        bytes += static_cast<double>(c.size_bytes);
        chunk_bytes += static_cast<double>(c.size_bytes);
        writers += c.writers;
      }
      if (bytes <= 0) continue;
      producing[k.gpu] = true;
      iteration_bytes += bytes;
      kernel_ns += k.duration_ns, kernel_bytes += bytes, ++kernels;
      const uint64_t all = in.num_gpus >= 64 ? ~uint64_t{0} : (uint64_t{1} << in.num_gpus) - 1;
      const uint64_t peers = all & ~(k.gpu < 64 ? uint64_t{1} << k.gpu : 0);
      if (k.dest_mask != 0 && in.num_gpus <= 64 && k.dest_mask != peers) {
        std::ostringstream mask;
        mask << std::hex << k.dest_mask;
        m.pattern = Pattern::kOther;
        m.pattern_why = "GPU " + std::to_string(k.gpu) + " sends to mask 0x" + mask.str() +
                        ", not to every other GPU";
      }
    }
    m.output_bytes = std::max(m.output_bytes, iteration_bytes);
  }
  if (kernels == 0) return make_error(in.name + ": no producer kernel writes chunks");
  m.producers = static_cast<uint32_t>(producing.size());
  if (m.pattern != Pattern::kOther && m.producers == 1 && in.num_gpus > 1) {
    m.pattern = Pattern::kBroadcast;
  } else if (m.pattern != Pattern::kOther && m.producers < in.num_gpus) {
    m.pattern = Pattern::kOther;
    m.pattern_why =
        std::to_string(m.producers) + " of " + std::to_string(in.num_gpus) + " GPUs produce";
  }
  m.compute_ns = kernel_ns / static_cast<double>(kernels);
  m.ns_per_output_byte = kernel_bytes > 0 ? kernel_ns / kernel_bytes : 0;
  m.bytes_per_cta = writers > 0 ? chunk_bytes / writers : 0;
  m.traffic = traffic(in.parameters);
  if (trace_gpu && m.compute_ns > 0) {
    const double per_producer = kernel_bytes / static_cast<double>(kernels);
    m.hbm_fraction = per_producer * m.traffic.hbm_bytes_per_output_byte /
                     trace_gpu->memory_bw_bytes_per_s / (m.compute_ns * 1e-9);
    m.bound = m.hbm_fraction >= kMemoryBoundFraction ? Bound::kMemory : Bound::kCompute;
  }
  m.trace_sm_count = trace_gpu ? static_cast<uint32_t>(trace_gpu->sm_count) : 0;
  return m;
}

Waves kernel_waves(const KernelInput& k, Bound bound, uint32_t sm_count, uint32_t resident) {
  Waves w;
  if (k.grid_ctas == 0 || k.cta_generations == 0 || sm_count == 0 || k.duration_ns <= 0) return w;
  const double ctas = k.grid_ctas, sms = sm_count;
  if (bound == Bound::kCompute) {
    w.ctas_per_sm = 1;
  } else {
    w.ctas_per_sm = static_cast<uint32_t>(std::ceil(ctas / (k.cta_generations * sms)));
    if (k.cta_generations == 1) {
      w.ctas_per_sm = std::max(w.ctas_per_sm, resident);
    } else if (resident > 0) {
      w.ctas_per_sm = resident;
    }
  }
  w.wave_ns = k.duration_ns / std::ceil(ctas / (sms * w.ctas_per_sm));
  return w;
}

namespace {

// Source: one traced producer kernel as strong scaling reads it: its chunks
// in region (offset) order, where each begins in the region, and whether
// its chunks ran in sequence (docs/scaling.md, "Cost profile").
struct Source {
  const KernelInput* kernel = nullptr;
  std::vector<ChunkInput> chunks;  ///< by index (program order = offset order).
  std::vector<double> offset;      ///< bytes before each chunk in the region.
  double bytes = 0;
  double first_ns = 0;   ///< earliest first write of the kernel.
  bool ordered = false;  ///< median chunk span <= kSequentialSpanFraction x duration.
  Waves waves;           ///< on the trace's GPU.
};

Source source(const KernelInput& k, const WorkloadModel& model, uint32_t resident) {
  Source s;
  s.kernel = &k;
  s.waves = kernel_waves(k, model.bound, model.trace_sm_count, resident);
  s.chunks = k.chunks;
  std::stable_sort(s.chunks.begin(), s.chunks.end(),
                   [](const ChunkInput& a, const ChunkInput& b) { return a.index < b.index; });
  std::vector<double> spans;
  s.first_ns = s.chunks.empty() ? 0 : s.chunks.front().first_write_ns;
  for (const ChunkInput& c : s.chunks) {
    s.offset.push_back(s.bytes);
    s.bytes += static_cast<double>(c.size_bytes);
    s.first_ns = std::min(s.first_ns, c.first_write_ns);
    spans.push_back(c.ready_ns - c.first_write_ns);
  }
  if (!spans.empty()) {
    std::nth_element(spans.begin(), spans.begin() + spans.size() / 2, spans.end());
    s.ordered = spans[spans.size() / 2] <= kSequentialSpanFraction * k.duration_ns;
  }
  return s;
}

// add_piece: bytes [a, b) of source `s` to kernel `k`, starting `start_ns`
// into it; returns the piece's compute time (linear in its bytes, x
// `scale`: the slice's waves over its linear time) and raises *pole_ns to
// its chunks' latest ready time. The chunks keep their
// traced times rebased to the time the source began the piece, compressed
// into the piece's time where they exceed it; where the source ran its
// chunks in sequence, none is ready sooner than its own traced span.
double add_piece(const Source& s, double a, double b, double start_ns, double scale, KernelInput& k,
                 double* pole_ns) {
  std::vector<ChunkInput> piece;
  // Offsets ascend: start at the last chunk that begins at or before a.
  size_t i = std::upper_bound(s.offset.begin(), s.offset.end(), a) - s.offset.begin();
  for (i = i > 0 ? i - 1 : 0; i < s.chunks.size() && s.offset[i] < b; ++i) {
    const double x0 = std::max(a, s.offset[i]);
    const double x1 = std::min(b, s.offset[i] + static_cast<double>(s.chunks[i].size_bytes));
    if (x1 <= x0) continue;
    ChunkInput c = s.chunks[i];
    c.size_bytes = static_cast<uint64_t>(std::llround(x1) - std::llround(x0));
    if (c.size_bytes > 0) piece.push_back(c);
  }
  const double time_ns = s.bytes > 0 ? scale * s.kernel->duration_ns * (b - a) / s.bytes : 0;
  if (piece.empty()) return time_ns;
  double began = piece.front().first_write_ns, span = 0;
  for (const ChunkInput& c : piece) began = std::min(began, c.first_write_ns);
  began -= s.first_ns;
  for (const ChunkInput& c : piece) span = std::max(span, c.ready_ns - began);
  const double fit = span > time_ns ? time_ns / span : 1;
  for (ChunkInput& c : piece) {
    const double own = s.ordered ? c.ready_ns - c.first_write_ns : 0;
    c.index = static_cast<uint32_t>(k.chunks.size());
    c.ready_ns = start_ns + std::max(own, fit * (c.ready_ns - began));
    c.first_write_ns = std::min(start_ns + fit * (c.first_write_ns - began), c.ready_ns);
    *pole_ns = std::max(*pole_ns, c.ready_ns);
    k.chunks.push_back(c);
  }
  return time_ns;
}

}  // namespace

Result<ReplayInput> strong_scale(const ReplayInput& in, const WorkloadModel& model,
                                 uint32_t num_gpus, uint32_t target_sm_count) {
  if (model.pattern == Pattern::kOther) {
    return make_error(in.name + ": --scaling strong: " + model.pattern_why +
                      "; strong scaling knows all-gather (every GPU produces, every GPU needs "
                      "all) and broadcast (one GPU produces) only");
  }
  // r of each launch configuration (grid size) that ran in several CTA
  // generations: the median over its launches (one launch's estimate rounds
  // duration / mean CTA, which a slow sample can tip); a kernel of one
  // generation takes the largest of them (kernel_waves).
  std::map<uint32_t, std::vector<uint32_t>> launches;
  for (const IterationInput& it : in.iterations) {
    for (const KernelInput& k : it.kernels) {
      if (k.cta_generations <= 1 || k.chunks.empty()) continue;
      const uint32_t r = kernel_waves(k, model.bound, model.trace_sm_count, 0).ctas_per_sm;
      if (r > 0) launches[k.grid_ctas].push_back(r);
    }
  }
  std::map<uint32_t, uint32_t> resident;
  uint32_t resident_seen = 0;
  for (auto& [grid, rs] : launches) {
    std::nth_element(rs.begin(), rs.begin() + rs.size() / 2, rs.end());
    resident[grid] = rs[rs.size() / 2];
    resident_seen = std::max(resident_seen, resident[grid]);
  }
  ReplayInput out = in;
  out.num_gpus = num_gpus;
  for (IterationInput& it : out.iterations) {
    std::vector<KernelInput> producers;
    for (KernelInput& k : it.kernels) {
      double bytes = 0;
      for (const ChunkInput& c : k.chunks) bytes += static_cast<double>(c.size_bytes);
      if (bytes > 0) producers.push_back(std::move(k));
    }
    it.kernels.clear();
    if (producers.empty()) continue;
    if (model.pattern == Pattern::kBroadcast) {
      producers.front().dest_mask = 0;
      it.kernels.push_back(std::move(producers.front()));
      continue;
    }
    // The region: the producers' parts in GPU order (the native partition,
    // native/proact/chunk_map.h partition_rows), each in offset order.
    std::sort(producers.begin(), producers.end(),
              [](const KernelInput& a, const KernelInput& b) { return a.gpu < b.gpu; });
    std::vector<Source> sources;
    double total = 0;
    for (const KernelInput& k : producers) {
      sources.push_back(
          source(k, model, k.cta_generations > 1 ? resident[k.grid_ctas] : resident_seen));
      total += sources.back().bytes;
    }
    const double share = total / num_gpus;
    for (uint32_t g = 0; g < num_gpus; ++g) {
      // GPU g: the contiguous bytes [lo, hi) of the region (whole bytes: the
      // slices add up to the region).
      const double lo = static_cast<double>(std::llround(share * g));
      const double hi = static_cast<double>(std::llround(share * (g + 1)));
      KernelInput k;
      k.gpu = g;
      k.dest_mask = 0;
      // Its compute: linear in the pieces' bytes, or in whole waves of the
      // pieces' CTAs (the source's grid x bytes share) on the target's
      // SMs x r slots, each wave the source's, rescaled to the target's SMs.
      // Its pieces: [a, b) of each source it overlaps, in the source's bytes.
      struct Piece {
        const Source* s;
        double a, b;
      };
      std::vector<Piece> pieces;
      double base = 0;
      for (const Source& s : sources) {
        const double a = std::max(lo, base), b = std::min(hi, base + s.bytes);
        if (b > a) pieces.push_back({&s, a - base, b - base});
        base += s.bytes;
      }
      double linear_ns = 0, unwaved_ns = 0, waves = 0, wave_sum_ns = 0;
      for (const auto& [src, a, b] : pieces) {
        const Source& s = *src;
        const double share = (b - a) / s.bytes, piece_ns = s.kernel->duration_ns * share;
        linear_ns += piece_ns;
        if (s.waves.ctas_per_sm == 0 || target_sm_count == 0) {
          unwaved_ns += piece_ns;
          continue;
        }
        const double w = s.kernel->grid_ctas * share /
                         (static_cast<double>(target_sm_count) * s.waves.ctas_per_sm);
        waves += w;
        wave_sum_ns += w * s.waves.wave_ns * target_sm_count / model.trace_sm_count;
      }
      // Whole waves (1e-9: a traced grid's own waves are not rounded up by
      // the division's error).
      const double compute_ns =
          waves > 0 ? unwaved_ns + std::ceil(waves - 1e-9) * wave_sum_ns / waves : linear_ns;
      const double scale = linear_ns > 0 ? compute_ns / linear_ns : 1;
      double time_ns = 0, pole_ns = 0;
      if (!pieces.empty()) k.begin_ns = pieces.front().s->kernel->begin_ns;
      for (const auto& [s, a, b] : pieces) {
        time_ns += add_piece(*s, a, b, time_ns, scale, k, &pole_ns);
      }
      k.duration_ns = std::max(time_ns, pole_ns);
      std::stable_sort(
          k.chunks.begin(), k.chunks.end(),
          [](const ChunkInput& a, const ChunkInput& b) { return a.ready_ns < b.ready_ns; });
      it.kernels.push_back(std::move(k));
    }
  }
  return out;
}

ComputeRescale roofline_rescale(const WorkloadModel& model, const hw_model::GpuConfig* trace_gpu,
                                const std::string& trace_source, const hw_model::GpuConfig& target,
                                const std::string& target_source) {
  ComputeRescale r;
  if (!trace_gpu) {
    r.line = "compute: not rescaled (the trace records no GPU model)";
    return r;
  }
  const bool memory = model.bound == Bound::kMemory;
  const double from = memory ? trace_gpu->memory_bw_bytes_per_s
                             : static_cast<double>(trace_gpu->sm_count) * trace_gpu->clock_hz;
  const double to = memory ? target.memory_bw_bytes_per_s
                           : static_cast<double>(target.sm_count) * target.clock_hz;
  r.time_factor = from / to;
  const bool same = trace_gpu->memory_bw_bytes_per_s == target.memory_bw_bytes_per_s &&
                    trace_gpu->sm_count == target.sm_count &&
                    trace_gpu->clock_hz == target.clock_hz;
  if (same) return r;
  auto describe = [&](const hw_model::GpuConfig& g) {
    return memory ? format_number(g.memory_bw_bytes_per_s / 1e9, 4) + " GB/s"
                  : std::to_string(g.sm_count) + " SMs x " + format_number(g.clock_hz / 1e9, 4) +
                        " GHz";
  };
  r.line = "compute: " + std::string(bound_name(model.bound)) + " (HBM traffic " +
           format_number(100 * model.hbm_fraction, 3) + "% of the roofline; " + model.traffic.how +
           "); time x " + format_number(r.time_factor, 4) + " = " +
           (memory ? "HBM bandwidth" : "SMs x clock") + " ratio " + describe(*trace_gpu) + " (" +
           trace_source + ") / " + describe(target) + " (" + target_source + ")";
  return r;
}

ReplayInput scale_compute(ReplayInput out, double factor) {
  if (factor == 1) return out;
  for (IterationInput& it : out.iterations) {
    for (KernelInput& k : it.kernels) {
      k.begin_ns *= factor;
      k.duration_ns *= factor;
      for (ChunkInput& c : k.chunks) {
        c.first_write_ns *= factor;
        c.ready_ns *= factor;
      }
    }
  }
  return out;
}

}  // namespace xferlab::sim
