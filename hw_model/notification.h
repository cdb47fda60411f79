// hw_model/notification.h — NotificationModel: how long it takes one side
// (GPU or CPU) to learn that the other reached a point, and what waiting costs
// each side. Paths: flags in pinned host memory polled by the CPU or GPU, CUDA
// stream memory operations, kernel launch, dynamic-parallelism (CDP2) child
// launch (fire-and-forget and tail), and a proposed hardware doorbell /
// notification queue. Equations: docs/hw_model.md §5.
//
// Polling is modelled with a fixed phase: the waiter polls at times k × period
// (k integer), so results are deterministic; expected values use period / 2.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "common/result.h"
#include "hw_model/param_table.h"

namespace xferlab::hw_model {

enum class NotificationPath {
  kGpuToCpuFlag,      ///< GPU stores a flag to pinned host memory; a CPU thread polls it.
  kCpuToGpuFlag,      ///< CPU stores a flag to pinned host memory; a GPU thread polls it.
  kStreamWriteValue,  ///< cuStreamWriteValue: the stream writes a flag when it gets there.
  kStreamWaitValue,   ///< cuStreamWaitValue: the stream front-end waits for a flag.
  kKernelLaunch,      ///< host launches a kernel (signal = the kernel starting).
  kCdpLaunch,         ///< device-side child launch, fire-and-forget stream (CDP2).
  kCdpTailLaunch,     ///< device-side tail launch: starts when the parent grid ends.
  kDoorbell,          ///< proposed: GPU writes a hardware notification queue the CPU waits on.
};
inline constexpr int kNumNotificationPaths = 8;

const char* notification_path_name(NotificationPath path);  ///< "gpu_to_cpu_flag", ...
Result<NotificationPath> parse_notification_path(std::string_view text);

struct NotificationConfig {
  double gpu_store_to_host_ns = 800;  ///< GPU store reaches pinned host memory (PCIe/NVLink-C2C).
  double cpu_poll_period_ns = 100;    ///< CPU poll loop period.
  double cpu_poll_read_ns = 90;       ///< one CPU read of the flag (cache miss to host memory).
  double cpu_store_visible_ns = 100;  ///< CPU store reaches host memory (leaves the store buffer).
  double gpu_poll_period_ns = 500;    ///< GPU polling loop period.
  double gpu_poll_read_ns = 1200;  ///< one GPU read of host memory (round trip over the host link).
  double stream_write_value_ns = 1500;   ///< stream reaches the op -> value written.
  double stream_wait_value_ns = 2000;    ///< value written -> stream proceeds (front-end poll).
  double kernel_launch_ns = 4000;        ///< host launch call -> kernel running (empty stream).
  double kernel_launch_cpu_ns = 2500;    ///< CPU time spent in one launch call.
  double cdp_launch_ns = 6000;           ///< device launch -> child running (fire-and-forget).
  double cdp_tail_launch_ns = 3000;      ///< parent grid end -> tail child running.
  double cdp_launch_gpu_ns = 1000;       ///< time the launching thread spends in the launch.
  double doorbell_ns = 400;              ///< proposed doorbell write -> CPU notified.
  int64_t doorbell_queue_entries = 256;  ///< notification queue entries before the GPU stalls.

  Status validate() const;
  static std::span<const Param<NotificationConfig>> params();
};

// NotificationCost: one notification on `path`.
struct NotificationCost {
  double latency_ns = 0;        ///< event -> waiter proceeds (expected: half a poll period).
  double worst_latency_ns = 0;  ///< with a full poll period missed.
  double cpu_ns = 0;            ///< CPU time consumed by the signalling itself (excl. waiting).
  double gpu_ns = 0;            ///< GPU thread time consumed by the signalling itself.
  bool waiter_spins = false;    ///< the waiter burns its core/warp for the whole wait.
};

class NotificationModel {
 public:
  static Result<NotificationModel> create(const NotificationConfig& config);
  const NotificationConfig& config() const { return config_; }

  NotificationCost cost(NotificationPath path) const;

  // notified_at_ns: when the waiter proceeds for an event at event_ns, with
  // polls at multiples of the period (deterministic, phase 0). For
  // non-polling paths: event_ns + latency.
  double notified_at_ns(NotificationPath path, double event_ns) const;

  // wait_occupancy: resources held by a waiter that started waiting at
  // wait_start_ns and proceeds at notified_ns: {cpu_ns, gpu_ns}. Spinning
  // waiters hold their core (CPU) or warp (GPU) for the whole interval.
  struct Occupancy {
    double cpu_ns = 0;
    double gpu_warp_ns = 0;
  };
  Occupancy wait_occupancy(NotificationPath path, double wait_start_ns, double notified_ns) const;

 private:
  explicit NotificationModel(const NotificationConfig& config) : config_(config) {}
  NotificationConfig config_;
};

}  // namespace xferlab::hw_model
