// native/trace_recorder.h — TraceRecorder: records a run's events on the GPUs
// (through DeviceTrace, native/trace_device.cuh) and on the host, synchronizes
// the clocks, and writes one trace file in the traces/ format.
//
// Typical use (see native/bench/*.cc and docs/native.md):
//   auto rec = TraceRecorder::create({0, 1}, {}).value();   // after cudaSetDevice etc.
//   rec->set_producer("link_bench", argc, argv);
//   rec->sync_clocks();                                      // batch 1
//   kernel<<<...>>>(..., rec->device_trace(0));
//   rec->record_host(EventKind::kPhaseBegin, 0, kHostGpu, 0, /*phase*/1, 0, 0);
//   ...
//   rec->sync_clocks();                                      // batch 2 -> drift
//   rec->write("out/run.xft");                               // drains, maps clocks, writes
//
// Time: device events carry raw %globaltimer ns, host events the host steady
// clock. write() maps both onto the trace time base "host_realtime" with the
// fitted ClockFit per device plus the measured realtime - steady offset, and
// records each mapping as a traces::ClockDomain in the metadata.
//
// Recording off (options.enabled = false): DeviceTrace::enabled is 0 and
// record_host returns at once; write() still writes metadata (no events).
//
// Thread safety: record_host may be called from any thread concurrently;
// everything else from one thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "native/clock_sync.h"
#include "native/device_trace.h"
#include "traces/event.h"
#include "traces/metadata.h"

namespace xferlab::native {

struct TraceRecorderOptions {
  uint32_t device_capacity_events = 1u << 20;  ///< per device (32 B each: 32 MiB).
  uint32_t host_capacity_events = 1u << 18;    ///< host events kept; more are counted as lost.
  bool enabled = true;                         ///< false: nothing is recorded.
  uint32_t clock_sync_rounds = 64;             ///< round trips per sync_clocks batch.
  // gpu_ids[i]: Event::gpu for devices[i] (e.g. the MPI rank); empty = device ordinal.
  std::vector<uint16_t> gpu_ids;
  // The program's flag that sets device_capacity_events, named by readers
  // when events were lost ("re-record with --trace-capacity >= M").
  std::string capacity_flag = "--trace-capacity";
};

class TraceRecorder {
 public:
  // create: allocates and zeroes a device buffer on each device (pure
  // allocation, no sync yet) and fills metadata machine/gpus. Runtime error
  // if an allocation fails; usage error for an empty/duplicate device list.
  static Result<std::unique_ptr<TraceRecorder>> create(const std::vector<int>& devices,
                                                       const TraceRecorderOptions& options);
  ~TraceRecorder();
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  bool enabled() const { return options_.enabled; }
  const std::vector<int>& devices() const { return devices_; }

  // device_trace: what kernels on `device` record into (aborts with file:line
  // if `device` was not given to create: a programming error).
  DeviceTrace device_trace(int device) const;

  // record_host: a host-side event stamped with host_steady_ns() now.
  void record_host(traces::EventKind kind, uint16_t flags, uint16_t gpu, uint16_t stream,
                   uint32_t id, uint32_t aux, uint64_t value);
  // record_host_at: same with an explicit host steady timestamp.
  void record_host_at(uint64_t host_steady_ns, traces::EventKind kind, uint16_t flags, uint16_t gpu,
                      uint16_t stream, uint32_t id, uint32_t aux, uint64_t value);

  // sync_clocks: one batch of clock_sync_rounds round trips on every device.
  // Call before and after the measured work (2 batches give drift). Needs no
  // kernel of the caller's to be blocking the device.
  Status sync_clocks();

  // drain: waits for each device, copies its events out (one cudaMemcpy per
  // device, no per-event conversion), resets the cursor. Lets a long run
  // reuse a smaller buffer; write() drains too.
  Status drain();

  // clear: waits for each device and drops every event recorded so far
  // (device and host; loss counts too). For benchmarks that record only to
  // measure the cost of recording.
  Status clear();

  // Counts so far (drained device events + host events; events lost to full buffers).
  uint64_t recorded_events() const;
  uint64_t lost_events() const;
  // needed_capacity_events: the most events one device buffer was asked to
  // hold between drains (>= device_capacity_events when events were lost).
  uint64_t needed_capacity_events() const;

  // set_producer: program name, command line (shell-quoted argv, paths
  // repository-relative: common/command_line.h), start time,
  // xferlab version and source revision.
  void set_producer(const std::string& program, int argc, char** argv);

  // metadata: the trace's metadata; programs add parameters and name tables.
  traces::Metadata& metadata() { return metadata_; }

  // clock_fit: the current fit for `device` (after at least one sync_clocks).
  Result<ClockFit> clock_fit(int device) const;

  // write: drain(), fit clocks (if sync_clocks was never called, it is called
  // once now), map every event onto the time base, sort by time (stable), and
  // write the trace to `path` with the traces library. Parameters
  // "recorded_events" and "lost_events" are added to the metadata.
  Status write(const std::string& path);

 private:
  TraceRecorder(std::vector<int> devices, TraceRecorderOptions options);

  struct DeviceBuffers {
    int device = 0;
    uint16_t gpu_id = 0;
    traces::Event* d_events = nullptr;
    unsigned long long* d_cursor = nullptr;
    std::vector<traces::Event> drained;  ///< raw device-clock events.
    uint64_t lost = 0;
    uint64_t peak_claimed = 0;  ///< most events claimed between two drains.
    std::vector<ClockSample> clock_samples;
  };

  int index_of(int device) const;

  std::vector<int> devices_;
  TraceRecorderOptions options_;
  std::vector<DeviceBuffers> buffers_;
  std::unique_ptr<traces::Event[]> host_events_;
  std::atomic<uint64_t> host_cursor_{0};
  uint32_t sync_batches_ = 0;
  traces::Metadata metadata_;
};

}  // namespace xferlab::native
