// native/proact/footprint.cc — see footprint.h. The byte counts follow the
// allocations in graph.cc (make_rmat, make_ratings), workloads.cc (setup,
// reset, check), region.cc (per-chunk state) and runner.cc (verify).
#include "native/proact/footprint.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/number.h"
#include "native/proact/ct_math.h"
#include "native/proact/workload_math.h"

namespace xferlab::proact {

namespace {

// Per chunk and GPU: counters, init, ready, cdp_done (uint32 each).
constexpr uint64_t kChunkStateBytes = 16;

uint64_t padded(uint64_t bytes, uint64_t chunk) {
  return chunk == 0 ? bytes : (bytes + chunk - 1) / chunk * chunk;
}

// Regions (data bytes): every GPU holds a padded copy of each plus its
// per-chunk state; verification copies every region to the host plus one
// more buffer of the largest (runner.cc verify).
void add_regions(const std::vector<uint64_t>& data_bytes, uint64_t chunk, bool pad, Footprint& f,
                 uint64_t& host_verify) {
  uint64_t largest = 0;
  host_verify = 0;
  for (uint64_t b : data_bytes) {
    const uint64_t region = pad ? padded(b, chunk) : b;
    f.gpu_bytes += region + (chunk ? region / chunk : 0) * kChunkStateBytes;
    host_verify += b;
    largest = std::max(largest, b);
  }
  host_verify += largest;
}

}  // namespace

Result<Footprint> estimate_footprint(const FootprintInput& in) {
  const WorkloadParams& p = in.params;
  const uint64_t chunk = in.max_chunk_bytes;
  Footprint f;
  uint64_t verify = 0, inputs_host = 0;
  if (in.workload == "micro") {
    f.size_flags = "--bytes " + std::to_string(p.micro_bytes);
    add_regions({p.micro_bytes}, chunk, false, f, verify);
  } else if (in.workload == "jacobi") {
    const uint64_t n = p.jacobi_rows, width = 2 * uint64_t(p.jacobi_half_band) + 1;
    f.size_flags = "--jacobi-rows " + std::to_string(n) + " --jacobi-half-band " +
                   std::to_string(p.jacobi_half_band);
    f.gpu_bytes += n * width * 4;  // the band, generated on the GPU.
    add_regions({n * 4, n * 4}, chunk, true, f, verify);
  } else if (in.workload == "pagerank" || in.workload == "sssp") {
    const uint64_t n = uint64_t{1} << p.graph_scale, m = n * uint64_t(p.graph_edge_factor);
    f.size_flags = "--graph-scale " + std::to_string(p.graph_scale) + " --edge-factor " +
                   std::to_string(p.graph_edge_factor);
    f.generated_items = m;
    // make_rmat: src + dst (4 B each per edge), CSR cols (4 B per edge),
    // offsets + fill cursors (8 B + 8 B per vertex), out-degrees (4 B).
    inputs_host = 12 * m + 20 * n;
    f.gpu_bytes += 8 * (n + 1) + 4 * m + 4 * n;  // offsets, sources, degrees.
    add_regions({n * 4, n * 4}, chunk, true, f, verify);
    verify += 8 * (n + 1) + 4 * m + 4 * n;  // the graph stays for the CPU check.
  } else if (in.workload == "als") {
    const uint64_t u = p.als_users, i = p.als_items, r = u * p.als_ratings_per_user;
    const uint64_t row = uint64_t(math::kAlsRank) * 4;
    f.size_flags = "--als-users " + std::to_string(u) + " --als-items " + std::to_string(i) +
                   " --als-per-user " + std::to_string(p.als_ratings_per_user);
    f.generated_items = r;
    // make_ratings at its peak (transpose): by-user cols + values, row ids,
    // order (8 B), by-item cols + values (4 B each per rating), offsets and
    // fill cursors (8 B per user / 16 B per item).
    inputs_host = 28 * r + 8 * u + 16 * i;
    f.gpu_bytes += 16 * r + 8 * (u + 1) + 8 * (i + 1);  // both CSRs with values.
    add_regions({u * row, u * row, i * row, i * row}, chunk, true, f, verify);
    verify += 16 * r + 8 * (u + i);  // the ratings stay for the CPU check.
  } else if (in.workload == "xray_ct") {
    const ct::Geometry g{p.ct_size, p.ct_views, ct::default_bins(p.ct_size)};
    f.size_flags =
        "--ct-size " + std::to_string(p.ct_size) + " --ct-views " + std::to_string(p.ct_views);
    // cos/sin per view, sinogram, phantom (host); weights per ray and pixel (GPU).
    inputs_host = 8 * uint64_t{g.views} + 4 * g.rays() + 4 * g.pixels();
    f.gpu_bytes += 8 * uint64_t{g.views} + 4 * g.rays() + 4 * g.rays() + 4 * g.pixels() +
                   8 * uint64_t(std::max(p.iterations, 1));
    add_regions({g.pixels() * 4, g.pixels() * 4, g.rays() * 4}, chunk, true, f, verify);
    verify += inputs_host + 4 * g.pixels();  // inputs and the 1-GPU reference image stay.
  } else {
    return make_error("--workload: unknown workload '" + in.workload + "'");
  }
  f.gpu_bytes += in.trace_bytes_per_gpu;
  f.host_bytes = std::max(inputs_host, verify);
  return f;
}

std::string gib_text(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return buf;
}

Status check_host_fits(const Footprint& f, uint64_t available_bytes) {
  if (f.host_bytes <= available_bytes) return Status::Ok();
  return make_error(f.size_flags + ": needs about " + gib_text(f.host_bytes) +
                    " of host memory but " + gib_text(available_bytes) +
                    " are available (MemAvailable, /proc/meminfo); use smaller sizes");
}

Status check_gpu_fits(const Footprint& f, int device, uint64_t free_bytes) {
  if (f.gpu_bytes <= free_bytes) return Status::Ok();
  return make_error(f.size_flags + ": needs about " + gib_text(f.gpu_bytes) + " per GPU but GPU " +
                    std::to_string(device) + " has " + gib_text(free_bytes) +
                    " free (cudaMemGetInfo); use smaller sizes");
}

Result<uint64_t> parse_mem_available(std::string_view meminfo) {
  std::istringstream in{std::string(meminfo)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    std::string value, unit;
    fields >> value >> unit;
    const Result<uint64_t> kib = parse_uint(value);
    if (!kib.ok() || unit != "kB") {
      return make_runtime_error("/proc/meminfo: MemAvailable: cannot read '" + line + "'");
    }
    return *kib * 1024;
  }
  return make_runtime_error("/proc/meminfo: no MemAvailable line");
}

Result<uint64_t> read_mem_available() {
  std::ifstream file("/proc/meminfo");
  if (!file) return make_runtime_error("/proc/meminfo: cannot open");
  std::stringstream text;
  text << file.rdbuf();
  return parse_mem_available(text.str());
}

}  // namespace xferlab::proact
