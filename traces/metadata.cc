// traces/metadata.cc — Metadata <-> JSON, lookups and merging.
#include "traces/metadata.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "traces/chunk_table_json.h"

namespace xferlab::traces {
namespace {

using Json = nlohmann::ordered_json;

// Keys this version understands at the top level; everything else is kept in
// Metadata::extra_json.
const char* const kKnownKeys[] = {"format",    "producer", "machine",   "gpus",   "parameters",
                                  "time_base", "clocks",   "kernels",   "phases", "streams",
                                  "flags",     "chunks",   "chunk_runs"};

// Limit on chunks a chunk_runs table may expand to (a corrupt count must not
// allocate without bound): 16 Mi chunks, 640 MiB of ChunkInfo.
constexpr uint64_t kMaxChunks = uint64_t{1} << 24;

// Reader: typed field access with one-line errors naming file and JSON path.
class Reader {
 public:
  explicit Reader(std::string_view source) : source_(source) {}

  Error fail(const std::string& path, const std::string& problem) const {
    return make_error(std::string(source_) + ": metadata" + (path.empty() ? "" : " " + path) +
                      ": " + problem);
  }

  Status get(const Json& obj, const std::string& path, const char* key, std::string& out) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return Status::Ok();
    if (!it->is_string()) return fail(path + "." + key, "expected a string");
    out = it->get<std::string>();
    return Status::Ok();
  }

  template <typename T>
  Status get(const Json& obj, const std::string& path, const char* key, T& out) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return Status::Ok();
    // The field's path only on failure: tables read thousands of fields.
    auto bad = [&](const char* problem) { return fail(path + "." + key, problem); };
    if constexpr (std::is_floating_point_v<T>) {
      if (!it->is_number()) return bad("expected a number");
      out = it->get<T>();
      if (!std::isfinite(out)) return bad("not finite");
    } else {
      if (!it->is_number_integer()) return bad("expected an integer");
      if (std::is_unsigned_v<T> && it->is_number_unsigned()) {
        uint64_t v = it->get<uint64_t>();
        if (v > uint64_t(std::numeric_limits<T>::max())) return bad("out of range");
        out = T(v);
      } else {
        int64_t v = it->get<int64_t>();
        if (v < int64_t(std::numeric_limits<T>::min()) ||
            (v > 0 && uint64_t(v) > uint64_t(std::numeric_limits<T>::max()))) {
          return bad("out of range");
        }
        out = T(v);
      }
    }
    return Status::Ok();
  }

  // table: parse an array of objects, rejecting repeated ids.
  template <typename T, typename F>
  Status table(const Json& root, const char* key, std::vector<T>& out, F&& parse_one) const {
    auto it = root.find(key);
    if (it == root.end() || it->is_null()) return Status::Ok();
    if (!it->is_array()) return fail(key, "expected an array");
    std::vector<uint32_t> ids;
    for (size_t i = 0; i < it->size(); ++i) {
      const Json& item = (*it)[i];
      const std::string path = std::string(key) + "[" + std::to_string(i) + "]";
      if (!item.is_object()) return fail(path, "expected an object");
      T entry;
      XF_RETURN_IF_ERROR(get(item, path, "id", entry.id));
      XF_RETURN_IF_ERROR(parse_one(item, path, entry));
      ids.push_back(entry.id);
      out.push_back(std::move(entry));
    }
    std::sort(ids.begin(), ids.end());
    auto dup = std::adjacent_find(ids.begin(), ids.end());
    if (dup != ids.end()) return fail(key, "id " + std::to_string(*dup) + " appears twice");
    return Status::Ok();
  }

 private:
  std::string_view source_;
};

template <typename T>
const T* find_by_id(const std::vector<T>& table, uint32_t id) {
  for (const T& e : table) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

template <typename T>
void merge_table(std::vector<T>& into, const std::vector<T>& from) {
  for (const T& e : from) {
    auto it = std::find_if(into.begin(), into.end(), [&](const T& x) { return x.id == e.id; });
    if (it != into.end()) {
      *it = e;
    } else {
      into.push_back(e);
    }
  }
}

template <typename T>
void merge_field(T& into, const T& from) {
  if (from != T{}) into = from;
}

Json named_ids_json(const std::vector<NamedId>& table) {
  Json a = Json::array();
  for (const NamedId& e : table) a.push_back({{"id", e.id}, {"name", e.name}});
  return a;
}

// nesting_depth: deepest [/{ nesting outside strings. JSON libraries copy,
// compare and print values recursively, so depth is bounded before parsing.
size_t nesting_depth(std::string_view text) {
  size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

constexpr size_t kMaxNestingDepth = 64;

// chunk_runs_json (format 2.0): consecutive chunks with consecutive ids,
// equal size, writers and destinations, back to back in one GPU's buffer, are
// one entry; a regular layout of any length costs ~120 bytes, not 100 per chunk.
Json chunk_runs_json(const std::vector<ChunkInfo>& chunks) {
  Json run_array = Json::array();
  for (size_t i = 0; i < chunks.size();) {
    const ChunkInfo& c = chunks[i];
    size_t n = 1;
    while (i + n < chunks.size()) {
      const ChunkInfo& d = chunks[i + n];
      if (d.id != c.id + n || d.gpu != c.gpu || d.size_bytes != c.size_bytes ||
          d.writers != c.writers || d.destinations != c.destinations ||
          d.offset_bytes != c.offset_bytes + n * c.size_bytes)
        break;
      ++n;
    }
    run_array.push_back({{"first_id", c.id},
                         {"count", n},
                         {"gpu", c.gpu},
                         {"offset_bytes", c.offset_bytes},
                         {"size_bytes", c.size_bytes},
                         {"writers", c.writers},
                         {"destinations", c.destinations}});
    i += n;
  }
  return run_array;
}

// object_at: j[key] when an object (nullptr when absent or null).
Status object_at(const Reader& r, const Json& j, const char* key, const Json*& out) {
  out = nullptr;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return Status::Ok();
  if (!it->is_object()) return r.fail(key, "expected an object");
  out = &*it;
  return Status::Ok();
}

Status read_producer_and_machine(const Reader& r, const Json& j, Metadata& m) {
  const Json* p = nullptr;
  XF_RETURN_IF_ERROR(object_at(r, j, "producer", p));
  if (p) {
    XF_RETURN_IF_ERROR(r.get(*p, "producer", "program", m.producer.program));
    XF_RETURN_IF_ERROR(r.get(*p, "producer", "version", m.producer.version));
    XF_RETURN_IF_ERROR(r.get(*p, "producer", "revision", m.producer.revision));
    XF_RETURN_IF_ERROR(r.get(*p, "producer", "command_line", m.producer.command_line));
    XF_RETURN_IF_ERROR(r.get(*p, "producer", "start_time", m.producer.start_time));
  }
  XF_RETURN_IF_ERROR(object_at(r, j, "machine", p));
  if (p) {
    XF_RETURN_IF_ERROR(r.get(*p, "machine", "hostname", m.machine.hostname));
    XF_RETURN_IF_ERROR(r.get(*p, "machine", "cpu_model", m.machine.cpu_model));
    XF_RETURN_IF_ERROR(r.get(*p, "machine", "cpu_cores", m.machine.cpu_cores));
    XF_RETURN_IF_ERROR(r.get(*p, "machine", "driver_version", m.machine.driver_version));
    XF_RETURN_IF_ERROR(r.get(*p, "machine", "cuda_version", m.machine.cuda_version));
    XF_RETURN_IF_ERROR(r.get(*p, "machine", "topology", m.machine.topology));
    XF_RETURN_IF_ERROR(r.get(*p, "machine", "mpi", m.machine.mpi));
    XF_RETURN_IF_ERROR(r.get(*p, "machine", "os", m.machine.os));
  }
  return Status::Ok();
}

Status read_clocks(const Reader& r, const Json& j, std::vector<ClockDomain>& out) {
  auto clocks = j.find("clocks");
  if (clocks != j.end() && !clocks->is_null()) {
    if (!clocks->is_array()) return r.fail("clocks", "expected an array");
    for (size_t i = 0; i < clocks->size(); ++i) {
      const Json& e = (*clocks)[i];
      const std::string at = "clocks[" + std::to_string(i) + "]";
      if (!e.is_object()) return r.fail(at, "expected an object");
      ClockDomain c;
      XF_RETURN_IF_ERROR(r.get(e, at, "name", c.name));
      XF_RETURN_IF_ERROR(r.get(e, at, "source", c.source));
      XF_RETURN_IF_ERROR(r.get(e, at, "offset_ns", c.offset_ns));
      XF_RETURN_IF_ERROR(r.get(e, at, "drift_ppb", c.drift_ppb));
      XF_RETURN_IF_ERROR(r.get(e, at, "reference_ns", c.reference_ns));
      XF_RETURN_IF_ERROR(r.get(e, at, "uncertainty_ns", c.uncertainty_ns));
      XF_RETURN_IF_ERROR(r.get(e, at, "samples", c.samples));
      XF_RETURN_IF_ERROR(r.get(e, at, "method", c.method));
      out.push_back(std::move(c));
    }
  }
  return Status::Ok();
}

// read_chunk_runs: chunk_runs (format 2.0), expanded in order after any
// "chunks" entries already in `chunks`; no id twice.
Status read_chunk_runs(const Reader& r, const Json& j, std::vector<ChunkInfo>& chunks) {
  if (auto runs = j.find("chunk_runs"); runs != j.end() && !runs->is_null()) {
    if (!runs->is_array()) return r.fail("chunk_runs", "expected an array");
    for (size_t i = 0; i < runs->size(); ++i) {
      const Json& e = (*runs)[i];
      const std::string at = "chunk_runs[" + std::to_string(i) + "]";
      if (!e.is_object()) return r.fail(at, "expected an object");
      ChunkInfo c;
      uint64_t count = 0;
      XF_RETURN_IF_ERROR(r.get(e, at, "first_id", c.id));
      XF_RETURN_IF_ERROR(r.get(e, at, "count", count));
      XF_RETURN_IF_ERROR(r.get(e, at, "gpu", c.gpu));
      XF_RETURN_IF_ERROR(r.get(e, at, "offset_bytes", c.offset_bytes));
      XF_RETURN_IF_ERROR(r.get(e, at, "size_bytes", c.size_bytes));
      XF_RETURN_IF_ERROR(r.get(e, at, "writers", c.writers));
      XF_RETURN_IF_ERROR(r.get(e, at, "destinations", c.destinations));
      if (count == 0 || count > kMaxChunks - chunks.size())
        return r.fail(at + ".count", "must be 1.." + std::to_string(kMaxChunks) + " chunks in all");
      if (c.id + (count - 1) > UINT32_MAX - 1)
        return r.fail(at + ".count", "ids run past 4294967294");
      if (c.size_bytes > 0 && count - 1 > (UINT64_MAX - c.offset_bytes) / c.size_bytes)
        return r.fail(at + ".count", "offsets overflow 64 bits");
      // Grown once per run, not by doubling per chunk: a proact trace is a
      // run or two of 16k+ chunks, and each doubling is a fresh copy.
      if (chunks.size() + count > chunks.capacity())
        chunks.reserve(std::max<size_t>(chunks.size() + count, 2 * chunks.capacity()));
      const uint32_t first = c.id;
      for (uint64_t k = 0; k < count; ++k) {
        ChunkInfo d = c;
        d.id = first + static_cast<uint32_t>(k);
        d.offset_bytes = c.offset_bytes + k * c.size_bytes;
        chunks.push_back(d);
      }
    }
    // Ids in ascending order (what writers emit) cannot repeat: only
    // other tables are sorted to find a repeat.
    auto not_ascending = [](const ChunkInfo& a, const ChunkInfo& b) { return a.id >= b.id; };
    if (std::adjacent_find(chunks.begin(), chunks.end(), not_ascending) == chunks.end())
      return Status::Ok();
    std::vector<uint32_t> ids;
    ids.reserve(chunks.size());
    for (const ChunkInfo& c : chunks) ids.push_back(c.id);
    std::sort(ids.begin(), ids.end());
    auto dup = std::adjacent_find(ids.begin(), ids.end());
    if (dup != ids.end())
      return r.fail("chunk_runs", "chunk id " + std::to_string(*dup) + " appears twice");
  }
  return Status::Ok();
}

// parse_document: the JSON of `text`. A "chunks" table of the usual form
// (plain_chunk_table) goes to *chunks and the DOM gets [] in its place: the
// rest parses as it would, and the table reads to the same entries.
Json parse_document(std::string_view text, std::optional<std::vector<ChunkInfo>>* chunks) {
  if (std::optional<std::pair<size_t, size_t>> at = top_level_value(text, "chunks")) {
    const auto [begin, end] = *at;
    *chunks = plain_chunk_table(text.substr(begin, end - begin));
    if (*chunks) {
      std::string rest;
      rest.reserve(text.size() - (end - begin) + 2);
      rest.append(text.substr(0, begin)).append("[]").append(text.substr(end));
      return Json::parse(rest.begin(), rest.end(), nullptr, /*allow_exceptions=*/false);
    }
  }
  return Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
}

// unknown_keys_json: the top-level keys this version does not read, kept
// as they are.
std::string unknown_keys_json(const Json& j) {
  Json extra = Json::object();
  for (auto& item : j.items()) {
    const std::string& key = item.key();
    if (std::find_if(std::begin(kKnownKeys), std::end(kKnownKeys),
                     [&](const char* k) { return key == k; }) == std::end(kKnownKeys)) {
      extra[key] = item.value();
    }
  }
  return extra.dump();
}

}  // namespace

int64_t ClockDomain::to_base_ns(uint64_t t) const {
  const double drift = drift_ppb * 1e-9 * (double(t) - double(reference_ns));
  return int64_t(t) + offset_ns + int64_t(std::llround(drift));
}

void Metadata::set_parameter(std::string_view key, std::string value) {
  for (Parameter& p : parameters) {
    if (p.first == key) {
      p.second = std::move(value);
      return;
    }
  }
  parameters.emplace_back(std::string(key), std::move(value));
}

std::optional<std::string> Metadata::parameter(std::string_view key) const {
  for (const Parameter& p : parameters) {
    if (p.first == key) return p.second;
  }
  return std::nullopt;
}

const GpuInfo* Metadata::find_gpu(uint32_t id) const {
  return find_by_id(gpus, id);
}
const KernelInfo* Metadata::find_kernel(uint32_t id) const {
  return find_by_id(kernels, id);
}
const ChunkInfo* Metadata::find_chunk(uint32_t id) const {
  return find_by_id(chunks, id);
}
const FlagInfo* Metadata::find_flag(uint32_t id) const {
  return find_by_id(flags, id);
}
const NamedId* Metadata::find_phase(uint32_t id) const {
  return find_by_id(phases, id);
}

void Metadata::merge(const Metadata& o) {
  merge_field(producer.program, o.producer.program);
  merge_field(producer.version, o.producer.version);
  merge_field(producer.revision, o.producer.revision);
  merge_field(producer.command_line, o.producer.command_line);
  merge_field(producer.start_time, o.producer.start_time);
  merge_field(machine.hostname, o.machine.hostname);
  merge_field(machine.cpu_model, o.machine.cpu_model);
  merge_field(machine.cpu_cores, o.machine.cpu_cores);
  merge_field(machine.driver_version, o.machine.driver_version);
  merge_field(machine.cuda_version, o.machine.cuda_version);
  merge_field(machine.topology, o.machine.topology);
  merge_field(machine.mpi, o.machine.mpi);
  merge_field(machine.os, o.machine.os);
  for (const Parameter& p : o.parameters) set_parameter(p.first, p.second);
  if (!o.time_base.empty() && o.time_base != Metadata{}.time_base) time_base = o.time_base;
  for (const ClockDomain& c : o.clocks) {
    auto it = std::find_if(clocks.begin(), clocks.end(),
                           [&](const ClockDomain& x) { return x.name == c.name; });
    if (it != clocks.end()) {
      *it = c;
    } else {
      clocks.push_back(c);
    }
  }
  merge_table(gpus, o.gpus);
  merge_table(kernels, o.kernels);
  merge_table(phases, o.phases);
  merge_table(streams, o.streams);
  merge_table(flags, o.flags);
  merge_table(chunks, o.chunks);
  Json extra = Json::parse(extra_json, nullptr, false);
  Json other = Json::parse(o.extra_json, nullptr, false);
  if (extra.is_object() && other.is_object()) {
    extra.update(other);
    extra_json = extra.dump();
  }
}

std::string Metadata::to_json() const {
  Json j;
  j["format"] = {{"major", format_major}, {"minor", format_minor}};
  j["producer"] = {{"program", producer.program},
                   {"version", producer.version},
                   {"revision", producer.revision},
                   {"command_line", producer.command_line},
                   {"start_time", producer.start_time}};
  j["machine"] = {{"hostname", machine.hostname},
                  {"cpu_model", machine.cpu_model},
                  {"cpu_cores", machine.cpu_cores},
                  {"driver_version", machine.driver_version},
                  {"cuda_version", machine.cuda_version},
                  {"topology", machine.topology},
                  {"mpi", machine.mpi},
                  {"os", machine.os}};
  Json gpu_array = Json::array();
  for (const GpuInfo& g : gpus) {
    gpu_array.push_back({{"id", g.id},
                         {"model", g.model},
                         {"pci_bus_id", g.pci_bus_id},
                         {"uuid", g.uuid},
                         {"memory_bytes", g.memory_bytes},
                         {"sm_count", g.sm_count},
                         {"compute_capability", g.compute_capability},
                         {"host", g.host}});
  }
  j["gpus"] = gpu_array;
  Json params = Json::object();
  for (const Parameter& p : parameters) params[p.first] = p.second;
  j["parameters"] = params;
  j["time_base"] = time_base;
  Json clock_array = Json::array();
  for (const ClockDomain& c : clocks) {
    clock_array.push_back({{"name", c.name},
                           {"source", c.source},
                           {"offset_ns", c.offset_ns},
                           {"drift_ppb", c.drift_ppb},
                           {"reference_ns", c.reference_ns},
                           {"uncertainty_ns", c.uncertainty_ns},
                           {"samples", c.samples},
                           {"method", c.method}});
  }
  j["clocks"] = clock_array;
  Json kernel_array = Json::array();
  for (const KernelInfo& k : kernels) {
    kernel_array.push_back({{"id", k.id},
                            {"name", k.name},
                            {"grid_ctas", k.grid_ctas},
                            {"block_threads", k.block_threads}});
  }
  j["kernels"] = kernel_array;
  j["phases"] = named_ids_json(phases);
  j["streams"] = named_ids_json(streams);
  Json flag_array = Json::array();
  for (const FlagInfo& f : flags) {
    flag_array.push_back({{"id", f.id}, {"name", f.name}, {"location", f.location}});
  }
  j["flags"] = flag_array;
  j["chunk_runs"] = chunk_runs_json(chunks);
  Json extra = Json::parse(extra_json, nullptr, false);
  if (extra.is_object()) {
    for (auto& [key, value] : extra.items()) j[key] = value;
  }
  return j.dump(2) + "\n";
}

Result<Metadata> Metadata::from_json(std::string_view text, std::string_view source) {
  Reader r(source);
  if (nesting_depth(text) > kMaxNestingDepth) {
    return r.fail("", "nested deeper than " + std::to_string(kMaxNestingDepth) + " levels");
  }
  std::optional<std::vector<ChunkInfo>> plain_chunks;
  Json j = parse_document(text, &plain_chunks);
  if (j.is_discarded()) return r.fail("", "not valid JSON");
  if (!j.is_object()) return r.fail("", "expected a JSON object");
  Metadata m;
  auto format = j.find("format");
  if (format == j.end() || !format->is_object()) return r.fail("format", "missing");
  XF_RETURN_IF_ERROR(r.get(*format, "format", "major", m.format_major));
  XF_RETURN_IF_ERROR(r.get(*format, "format", "minor", m.format_minor));

  XF_RETURN_IF_ERROR(read_producer_and_machine(r, j, m));
  const Json* p = nullptr;
  XF_RETURN_IF_ERROR(
      r.table(j, "gpus", m.gpus, [&](const Json& e, const std::string& at, GpuInfo& g) -> Status {
        XF_RETURN_IF_ERROR(r.get(e, at, "model", g.model));
        XF_RETURN_IF_ERROR(r.get(e, at, "pci_bus_id", g.pci_bus_id));
        XF_RETURN_IF_ERROR(r.get(e, at, "uuid", g.uuid));
        XF_RETURN_IF_ERROR(r.get(e, at, "memory_bytes", g.memory_bytes));
        XF_RETURN_IF_ERROR(r.get(e, at, "sm_count", g.sm_count));
        XF_RETURN_IF_ERROR(r.get(e, at, "compute_capability", g.compute_capability));
        return r.get(e, at, "host", g.host);
      }));
  XF_RETURN_IF_ERROR(object_at(r, j, "parameters", p));
  if (p) {
    for (auto& [key, value] : p->items()) {
      if (!value.is_string()) return r.fail("parameters." + key, "expected a string");
      m.parameters.emplace_back(key, value.get<std::string>());
    }
  }
  XF_RETURN_IF_ERROR(r.get(j, "", "time_base", m.time_base));
  XF_RETURN_IF_ERROR(read_clocks(r, j, m.clocks));
  XF_RETURN_IF_ERROR(r.table(j, "kernels", m.kernels,
                             [&](const Json& e, const std::string& at, KernelInfo& k) -> Status {
                               XF_RETURN_IF_ERROR(r.get(e, at, "name", k.name));
                               XF_RETURN_IF_ERROR(r.get(e, at, "grid_ctas", k.grid_ctas));
                               return r.get(e, at, "block_threads", k.block_threads);
                             }));
  auto named = [&](const Json& e, const std::string& at, NamedId& n) {
    return r.get(e, at, "name", n.name);
  };
  XF_RETURN_IF_ERROR(r.table(j, "phases", m.phases, named));
  XF_RETURN_IF_ERROR(r.table(j, "streams", m.streams, named));
  XF_RETURN_IF_ERROR(r.table(j, "flags", m.flags,
                             [&](const Json& e, const std::string& at, FlagInfo& f) -> Status {
                               XF_RETURN_IF_ERROR(r.get(e, at, "name", f.name));
                               return r.get(e, at, "location", f.location);
                             }));
  XF_RETURN_IF_ERROR(r.table(j, "chunks", m.chunks,
                             [&](const Json& e, const std::string& at, ChunkInfo& c) -> Status {
                               XF_RETURN_IF_ERROR(r.get(e, at, "gpu", c.gpu));
                               XF_RETURN_IF_ERROR(r.get(e, at, "offset_bytes", c.offset_bytes));
                               XF_RETURN_IF_ERROR(r.get(e, at, "size_bytes", c.size_bytes));
                               XF_RETURN_IF_ERROR(r.get(e, at, "writers", c.writers));
                               return r.get(e, at, "destinations", c.destinations);
                             }));
  if (plain_chunks) m.chunks = std::move(*plain_chunks);  // its DOM entry was []
  XF_RETURN_IF_ERROR(read_chunk_runs(r, j, m.chunks));
  m.extra_json = unknown_keys_json(j);
  return m;
}

bool Metadata::operator==(const Metadata& o) const {
  // Compare through the canonical JSON: every field, tables in order.
  return to_json() == o.to_json();
}

}  // namespace xferlab::traces
