// python/xferlab_module.cc — the `xferlab._native` extension: sim/api.h and
// the trace reader for Python. Tables come back as {"columns": [...],
// "values": [[column values]...]}; python/xferlab/__init__.py turns them into
// pandas DataFrames. No computation here: the numbers are the CLI's.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <set>
#include <stdexcept>

#include "common/units.h"
#include "sim/api.h"
#include "sim/explain.h"
#include "traces/event_names.h"
#include "traces/reader.h"

namespace py = pybind11;

namespace xferlab::python {
namespace {

// An Error from the library: bad input (Python ValueError) or a failed run
// (RuntimeError), as the CLI's exit codes 2 and 1.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void raise(const Error& e) {
  if (e.usage) throw UsageError(e.message);
  throw RunError(e.message);
}

template <typename T>
T take(Result<T> r) {
  if (!r.ok()) raise(r.error());
  return std::move(*r);
}

template <typename T>
py::array_t<T> array_of(const std::vector<T>& v) {
  return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
}

// table_dict: columns in order; doubles stay doubles (NaN = missing),
// integers stay integers, so the values are the CSV's exactly.
py::dict table_dict(const Table& t) {
  py::list names, values;
  for (size_t c = 0; c < t.columns().size(); ++c) {
    names.append(t.columns()[c].name);
    py::list col;
    for (const std::vector<Table::Cell>& row : t.rows()) {
      std::visit([&](const auto& v) { col.append(v); }, row[c]);
    }
    values.append(col);
  }
  py::dict d;
  d["columns"] = names;
  d["values"] = values;
  return d;
}

sim::Progress progress_of(const py::object& callback) {
  if (callback.is_none()) return {};
  return [callback](size_t done, size_t total) { callback(done, total); };
}

py::dict replay(const std::string& trace, const std::string& platform, const std::string& mechanism,
                uint32_t gpus, const std::string& chunk_size, const std::vector<std::string>& sets,
                const std::string& fan_out, const std::string& core) {
  sim::ReplayRequest req;
  req.trace = trace;
  req.platform = platform;
  req.mechanism = mechanism;
  if (gpus > 0) req.gpus = take(sim::parse_count("gpus", std::to_string(gpus), sim::kMaxGpus));
  if (!chunk_size.empty()) {
    Result<double> c = parse_quantity(chunk_size, Unit::kSizeBytes);
    if (!c.ok() || *c < 1) raise(make_error("chunk_size '" + chunk_size + "': expected a size"));
    req.chunk_bytes = static_cast<uint64_t>(*c);
  }
  req.sets = sets;
  if (fan_out != "aggregate" && fan_out != "fine") {
    raise(make_error("fan_out '" + fan_out + "': expected aggregate or fine"));
  }
  req.aggregate_fan_out = fan_out == "aggregate";
  if (!core.empty()) req.core = take(sim::parse_replay_core(core));
  sim::ReplayOutput out = take(sim::replay(req));
  py::dict d = table_dict(out.table);
  d["note"] = out.note;
  return d;
}

// explain: the critical-path attribution table of `xferlab explain
// --sensitivity none`, and its one-line reason when hardware loses.
py::dict explain(const std::string& trace, const std::string& platform,
                 const std::string& mechanism, const std::vector<std::string>& sets) {
  sim::ReplayRequest req;
  req.trace = trace;
  req.platform = platform;
  req.mechanism = mechanism;
  req.sets = sets;
  req.explain = true;
  sim::ReplayOutput out = take(sim::replay(req));
  py::dict d = table_dict(sim::attribution_table(out.results, out.measured));
  d["note"] = sim::why_hardware_slower(out.results);
  return d;
}

py::dict validate(const std::vector<std::string>& paths, const std::string& dir,
                  const std::string& platform, const std::vector<std::string>& sets,
                  double tolerance_pct, bool all_captures, const std::string& core,
                  const py::object& progress) {
  sim::ValidateRequest req;
  req.paths = paths;
  req.dir = dir;
  req.platform = platform;
  req.sets = sets;
  req.tolerance_pct = tolerance_pct;
  req.all_captures = all_captures;
  if (!core.empty()) req.core = take(sim::parse_replay_core(core));
  req.progress = progress_of(progress);
  sim::ValidateOutput out = take(sim::validate(req));
  py::dict d = table_dict(out.table);
  d["skipped"] = out.skipped;
  d["summary"] = sim::validate_summary(out, tolerance_pct);
  d["beyond_tolerance"] = out.beyond_tolerance;
  return d;
}

py::dict sweep(const std::string& trace, const std::vector<std::string>& params,
               const std::string& mechanism, const std::string& platform,
               const std::vector<std::string>& sets, uint32_t jobs, uint32_t shard_index,
               uint32_t shard_count, const py::object& progress) {
  sim::SweepRequest req;
  req.trace = trace;
  for (const std::string& p : params) req.params.push_back(take(sim::parse_sweep_param(p)));
  req.mechanism = mechanism;
  req.platform = platform;
  req.sets = sets;
  req.jobs = take(sim::parse_count("jobs", std::to_string(jobs), sim::kMaxJobs));
  req.shard_index = shard_index;
  req.shard_count = shard_count;
  req.progress = progress_of(progress);
  sim::SweepOutput out = take(sim::sweep(req));
  py::dict d = table_dict(out.table);
  d["failed_points"] = out.failed_points;
  d["first_failure"] = out.first_failure;
  return d;
}

// read_trace: every event as numpy columns (the fields of `xferlab trace
// dump --csv`); gpu is kHostGpu for host records, mapped in Python.
py::dict read_trace(const std::string& path) {
  traces::TraceReader r = take(traces::TraceReader::open(path));
  std::vector<uint64_t> time_ns, value;
  std::vector<uint16_t> kind, gpu, stream, flags;
  std::vector<uint32_t> id, aux;
  Status s = r.for_each([&](const traces::Event& e) {
    time_ns.push_back(e.time_ns);
    kind.push_back(e.kind);
    gpu.push_back(e.gpu);
    stream.push_back(e.stream);
    id.push_back(e.id);
    aux.push_back(e.aux);
    value.push_back(e.value);
    flags.push_back(e.flags);
  });
  if (!s.ok()) raise(s.error());
  py::dict kinds;
  for (uint16_t k : std::set<uint16_t>(kind.begin(), kind.end())) {
    kinds[py::int_(k)] = traces::event_kind_name(k);
  }
  py::dict d;
  d["time_ns"] = array_of(time_ns);
  d["kind"] = array_of(kind);
  d["kind_names"] = kinds;
  d["gpu"] = array_of(gpu);
  d["host_gpu"] = traces::kHostGpu;
  d["stream"] = array_of(stream);
  d["id"] = array_of(id);
  d["aux"] = array_of(aux);
  d["value"] = array_of(value);
  d["flags"] = array_of(flags);
  return d;
}

}  // namespace
}  // namespace xferlab::python

PYBIND11_MODULE(_native, m) {
  using namespace xferlab::python;
  m.doc() = "xferlab native bindings (use the xferlab package, which returns DataFrames)";
  py::register_exception<UsageError>(m, "UsageError", PyExc_ValueError);
  py::register_exception<RunError>(m, "RunError", PyExc_RuntimeError);
  m.def("replay", &replay);
  m.def("explain", &explain);
  m.def("validate", &validate);
  m.def("sweep", &sweep);
  m.def("read_trace", &read_trace);
  m.attr("default_preset") = xferlab::sim::kDefaultPreset;
}
