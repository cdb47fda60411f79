// native/trace_recorder.cc — device/host event recording and trace writing
// (see trace_recorder.h).
#include "native/trace_recorder.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <set>

#include "common/command_line.h"
#include "common/version.h"
#include "native/cuda_check.h"
#include "native/machine_info.h"
#include "traces/writer.h"

namespace xferlab::native {
namespace {

std::string iso8601_utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// cuda_result: a failed allocation is a runtime error the caller may report.
Status cuda_result(cudaError_t err, const std::string& what) {
  if (err == cudaSuccess) return Status::Ok();
  return make_runtime_error("trace recorder: " + what + ": " + cudaGetErrorString(err));
}

// for_each_synced_device: body(b) for each device's buffers, with that device
// current and synchronized (its kernels are done writing them); restores the
// caller's device. Generic so that it needs no access to the private type.
template <typename Buffers, typename Body>
void for_each_synced_device(Buffers& buffers, const Body& body) {
  int previous = 0;
  XF_CUDA_CHECK(cudaGetDevice(&previous));
  for (auto& b : buffers) {
    XF_CUDA_CHECK(cudaSetDevice(b.device));
    XF_CUDA_CHECK(cudaDeviceSynchronize());
    body(b);
  }
  XF_CUDA_CHECK(cudaSetDevice(previous));
}

}  // namespace

TraceRecorder::TraceRecorder(std::vector<int> devices, TraceRecorderOptions options)
    : devices_(std::move(devices)), options_(std::move(options)) {}

Result<std::unique_ptr<TraceRecorder>> TraceRecorder::create(const std::vector<int>& devices,
                                                             const TraceRecorderOptions& options) {
  if (devices.empty()) return make_error("trace recorder: no devices given");
  if (std::set<int>(devices.begin(), devices.end()).size() != devices.size())
    return make_error("trace recorder: a device is listed twice");
  if (!options.gpu_ids.empty() && options.gpu_ids.size() != devices.size())
    return make_error("trace recorder: gpu_ids has " + std::to_string(options.gpu_ids.size()) +
                      " entries for " + std::to_string(devices.size()) + " devices");
  if (options.enabled && (options.device_capacity_events == 0 || options.clock_sync_rounds == 0))
    return make_error("trace recorder: device_capacity_events and clock_sync_rounds must be > 0");
  std::unique_ptr<TraceRecorder> rec(new TraceRecorder(devices, options));
  int previous = 0;
  XF_CUDA_CHECK(cudaGetDevice(&previous));
  for (size_t i = 0; i < devices.size(); ++i) {
    DeviceBuffers b;
    b.device = devices[i];
    b.gpu_id = options.gpu_ids.empty() ? static_cast<uint16_t>(devices[i]) : options.gpu_ids[i];
    if (options.enabled) {
      XF_CUDA_CHECK(cudaSetDevice(devices[i]));
      const size_t bytes = size_t{options.device_capacity_events} * sizeof(traces::Event);
      XF_RETURN_IF_ERROR(
          cuda_result(cudaMalloc(&b.d_events, bytes), "allocating " + std::to_string(bytes) +
                                                          " bytes of event buffer on GPU " +
                                                          std::to_string(devices[i])));
      XF_RETURN_IF_ERROR(
          cuda_result(cudaMalloc(&b.d_cursor, sizeof(*b.d_cursor)), "allocating the cursor"));
      XF_CUDA_CHECK(cudaMemset(b.d_cursor, 0, sizeof(*b.d_cursor)));
    }
    rec->buffers_.push_back(std::move(b));
  }
  XF_CUDA_CHECK(cudaSetDevice(previous));
  if (options.enabled) rec->host_events_.reset(new traces::Event[options.host_capacity_events]);

  traces::Metadata& md = rec->metadata_;
  md.machine = collect_machine_info();
  md.gpus = collect_gpu_info(devices, options.gpu_ids);
  md.time_base = "host_realtime";
  md.set_parameter("recording", options.enabled ? "on" : "off");
  md.set_parameter("device_capacity_events", std::to_string(options.device_capacity_events));
  for (const DeviceBuffers& b : rec->buffers_) {
    auto step = measure_globaltimer_step_ns(b.device);
    if (!step.ok()) return step.error();
    md.set_parameter("gpu" + std::to_string(b.gpu_id) + ".globaltimer_step",
                     std::to_string(*step) + "ns");
  }
  return rec;
}

TraceRecorder::~TraceRecorder() {
  for (DeviceBuffers& b : buffers_) {
    if (b.d_events == nullptr) continue;
    XF_CUDA_CHECK(cudaSetDevice(b.device));
    XF_CUDA_CHECK(cudaFree(b.d_events));
    XF_CUDA_CHECK(cudaFree(b.d_cursor));
  }
}

int TraceRecorder::index_of(int device) const {
  for (size_t i = 0; i < devices_.size(); ++i)
    if (devices_[i] == device) return static_cast<int>(i);
  std::fprintf(stderr, "%s:%d: trace recorder: device %d was not given to create()\n", __FILE__,
               __LINE__, device);
  std::abort();
}

DeviceTrace TraceRecorder::device_trace(int device) const {
  const DeviceBuffers& b = buffers_[index_of(device)];
  DeviceTrace t;
  t.events = b.d_events;
  t.cursor = b.d_cursor;
  t.capacity = options_.enabled ? options_.device_capacity_events : 0;
  t.gpu = b.gpu_id;
  t.enabled = options_.enabled ? 1 : 0;
  return t;
}

void TraceRecorder::record_host(traces::EventKind kind, uint16_t flags, uint16_t gpu,
                                uint16_t stream, uint32_t id, uint32_t aux, uint64_t value) {
  if (!options_.enabled) return;
  record_host_at(host_steady_ns(), kind, flags, gpu, stream, id, aux, value);
}

void TraceRecorder::record_host_at(uint64_t host_steady_ns, traces::EventKind kind, uint16_t flags,
                                   uint16_t gpu, uint16_t stream, uint32_t id, uint32_t aux,
                                   uint64_t value) {
  if (!options_.enabled) return;
  const uint64_t slot = host_cursor_.fetch_add(1, std::memory_order_relaxed);
  if (slot >= options_.host_capacity_events) return;
  host_events_[slot] = traces::Event{
      host_steady_ns, static_cast<uint16_t>(kind), flags, gpu, stream, id, aux, value};
}

Status TraceRecorder::sync_clocks() {
  if (!options_.enabled) return Status::Ok();
  for (DeviceBuffers& b : buffers_)
    XF_RETURN_IF_ERROR(measure_clock_samples(b.device, options_.clock_sync_rounds, sync_batches_,
                                             b.clock_samples));
  ++sync_batches_;
  return Status::Ok();
}

Status TraceRecorder::drain() {
  if (!options_.enabled) return Status::Ok();
  for_each_synced_device(buffers_, [&](DeviceBuffers& b) {
    unsigned long long claimed = 0;
    XF_CUDA_CHECK(cudaMemcpy(&claimed, b.d_cursor, sizeof(claimed), cudaMemcpyDeviceToHost));
    const uint64_t n = std::min<uint64_t>(claimed, options_.device_capacity_events);
    b.lost += claimed - n;
    b.peak_claimed = std::max<uint64_t>(b.peak_claimed, claimed);
    const size_t old = b.drained.size();
    b.drained.resize(old + n);
    XF_CUDA_CHECK(cudaMemcpy(b.drained.data() + old, b.d_events, n * sizeof(traces::Event),
                             cudaMemcpyDeviceToHost));
    XF_CUDA_CHECK(cudaMemset(b.d_cursor, 0, sizeof(*b.d_cursor)));
  });
  return Status::Ok();
}

Status TraceRecorder::clear() {
  if (!options_.enabled) return Status::Ok();
  for_each_synced_device(buffers_, [](DeviceBuffers& b) {
    XF_CUDA_CHECK(cudaMemset(b.d_cursor, 0, sizeof(*b.d_cursor)));
    b.drained.clear();
    b.lost = 0;
    b.peak_claimed = 0;
  });
  host_cursor_.store(0);
  return Status::Ok();
}

uint64_t TraceRecorder::recorded_events() const {
  uint64_t n = std::min<uint64_t>(host_cursor_.load(), options_.host_capacity_events);
  for (const DeviceBuffers& b : buffers_) n += b.drained.size();
  return options_.enabled ? n : 0;
}

uint64_t TraceRecorder::lost_events() const {
  const uint64_t host = host_cursor_.load();
  uint64_t n = host > options_.host_capacity_events ? host - options_.host_capacity_events : 0;
  for (const DeviceBuffers& b : buffers_) n += b.lost;
  return n;
}

uint64_t TraceRecorder::needed_capacity_events() const {
  uint64_t n = 0;
  for (const DeviceBuffers& b : buffers_) n = std::max(n, b.peak_claimed);
  return n;
}

void TraceRecorder::set_producer(const std::string& program, int argc, char** argv) {
  traces::ProducerInfo& p = metadata_.producer;
  p.program = program;
  p.version = xferlab_version();
  p.revision = xferlab_revision();
  // Repository-relative: no host paths in the trace (common/command_line.h).
  p.command_line = portable_command_line(argc, argv);
  p.start_time = iso8601_utc_now();
}

Result<ClockFit> TraceRecorder::clock_fit(int device) const {
  return fit_clock_sync(buffers_[index_of(device)].clock_samples);
}

Status TraceRecorder::write(const std::string& path) {
  XF_RETURN_IF_ERROR(drain());
  if (options_.enabled && sync_batches_ == 0) XF_RETURN_IF_ERROR(sync_clocks());
  const RealtimeOffset realtime = measure_realtime_offset();

  std::vector<traces::Event> events;
  traces::Metadata md = metadata_;
  md.clocks.clear();
  traces::ClockDomain host;
  host.name = "host.steady_clock";
  host.source = "host_steady";
  host.offset_ns = realtime.offset_ns;
  host.uncertainty_ns = realtime.uncertainty_ns;
  host.samples = 32;
  host.method = "bracketed-read";
  md.clocks.push_back(host);
  if (options_.enabled) {
    const uint64_t n_host = std::min<uint64_t>(host_cursor_.load(), options_.host_capacity_events);
    events.assign(host_events_.get(), host_events_.get() + n_host);
    for (traces::Event& e : events) e.time_ns = host.to_base_ns(e.time_ns);
    for (const DeviceBuffers& b : buffers_) {
      auto fit = fit_clock_sync(b.clock_samples);
      if (!fit.ok()) return fit.error();
      traces::ClockDomain gpu;
      gpu.name = "gpu" + std::to_string(b.gpu_id) + ".globaltimer";
      gpu.source = "gpu_globaltimer";
      gpu.offset_ns = fit->offset_ns + realtime.offset_ns;
      gpu.drift_ppb = fit->drift_ppb;
      gpu.reference_ns = fit->reference_ns;
      gpu.uncertainty_ns = fit->uncertainty_ns + realtime.uncertainty_ns;
      gpu.samples = fit->samples;
      gpu.method = fit->method;
      md.clocks.push_back(gpu);
      const size_t first = events.size();
      events.insert(events.end(), b.drained.begin(), b.drained.end());
      for (size_t i = first; i < events.size(); ++i)
        events[i].time_ns = static_cast<uint64_t>(gpu.to_base_ns(events[i].time_ns));
    }
    std::stable_sort(
        events.begin(), events.end(),
        [](const traces::Event& a, const traces::Event& b) { return a.time_ns < b.time_ns; });
  }
  md.set_parameter("recorded_events", std::to_string(events.size()));
  md.set_parameter("lost_events", std::to_string(lost_events()));
  if (lost_events() > 0) {  // what a reader tells the user to re-record with
    md.set_parameter("needed_capacity_events", std::to_string(needed_capacity_events()));
    md.set_parameter("capacity_flag", options_.capacity_flag);
  }

  traces::WriterOptions wopts;
  // Codec 2 (format 2.1): ~1.5x smaller and faster to write than plain zstd
  // on recorded events (traces/FORMAT.md, "Performance").
  wopts.compression = traces::Compression::kZstdDeltaShuffle;
  traces::TraceWriter writer;
  XF_RETURN_IF_ERROR(writer.open(path, md, wopts));
  XF_RETURN_IF_ERROR(writer.append(events.data(), events.size()));
  return writer.close();
}

}  // namespace xferlab::native
