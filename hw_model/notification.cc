// hw_model/notification.cc — notification paths (docs/hw_model.md §5).
#include "hw_model/notification.h"

#include <cmath>

namespace xferlab::hw_model {
namespace {

constexpr EnumName<NotificationPath> kPathNames[] = {
    {NotificationPath::kGpuToCpuFlag, "gpu_to_cpu_flag"},
    {NotificationPath::kCpuToGpuFlag, "cpu_to_gpu_flag"},
    {NotificationPath::kStreamWriteValue, "stream_write_value"},
    {NotificationPath::kStreamWaitValue, "stream_wait_value"},
    {NotificationPath::kKernelLaunch, "kernel_launch"},
    {NotificationPath::kCdpLaunch, "cdp_launch"},
    {NotificationPath::kCdpTailLaunch, "cdp_tail_launch"},
    {NotificationPath::kDoorbell, "doorbell"},
};
static_assert(std::size(kPathNames) == kNumNotificationPaths);

using N = NotificationConfig;
const Param<N> kNotificationParams[] = {
    {"gpu_store_to_host", Unit::kTimeNs, "GPU store reaches pinned host memory",
     &N::gpu_store_to_host_ns},
    {"cpu_poll_period", Unit::kTimeNs, "CPU poll loop period", &N::cpu_poll_period_ns},
    {"cpu_poll_read", Unit::kTimeNs, "one CPU read of the flag", &N::cpu_poll_read_ns},
    {"cpu_store_visible", Unit::kTimeNs, "CPU store reaches host memory", &N::cpu_store_visible_ns},
    {"gpu_poll_period", Unit::kTimeNs, "GPU polling loop period", &N::gpu_poll_period_ns},
    {"gpu_poll_read", Unit::kTimeNs, "one GPU read of host memory", &N::gpu_poll_read_ns},
    {"stream_write_value", Unit::kTimeNs, "stream reaches the op -> value written",
     &N::stream_write_value_ns},
    {"stream_wait_value", Unit::kTimeNs, "value written -> stream proceeds",
     &N::stream_wait_value_ns},
    {"kernel_launch", Unit::kTimeNs, "host launch call -> kernel running", &N::kernel_launch_ns},
    {"kernel_launch_cpu", Unit::kTimeNs, "CPU time in one launch call", &N::kernel_launch_cpu_ns},
    {"cdp_launch", Unit::kTimeNs, "device launch -> child running", &N::cdp_launch_ns},
    {"cdp_tail_launch", Unit::kTimeNs, "parent grid end -> tail child running",
     &N::cdp_tail_launch_ns},
    {"cdp_launch_gpu", Unit::kTimeNs, "launching thread's time in a device launch",
     &N::cdp_launch_gpu_ns},
    {"doorbell", Unit::kTimeNs, "proposed doorbell write -> CPU notified", &N::doorbell_ns},
    {"doorbell_queue_entries", Unit::kNone, "notification queue entries",
     &N::doorbell_queue_entries},
};

// Polls happen at multiples of `period`; the first one at or after `arrival_ns`.
double next_poll(double arrival_ns, double period_ns) {
  return std::ceil(arrival_ns / period_ns) * period_ns;
}

}  // namespace

std::span<const Param<NotificationConfig>> NotificationConfig::params() {
  return kNotificationParams;
}

Status NotificationConfig::validate() const {
  for (const Param<N>& p : kNotificationParams) {
    if (const auto* m = std::get_if<double N::*>(&p.field)) {
      if (!(this->*(*m) >= 0) || !std::isfinite(this->*(*m)))
        return make_error(std::string("key '") + p.key + "': must be >= 0");
    }
  }
  if (!(cpu_poll_period_ns > 0)) return make_error("key 'cpu_poll_period': must be > 0");
  if (!(gpu_poll_period_ns > 0)) return make_error("key 'gpu_poll_period': must be > 0");
  if (doorbell_queue_entries < 1) return make_error("key 'doorbell_queue_entries': must be >= 1");
  return Status::Ok();
}

const char* notification_path_name(NotificationPath path) {
  return enum_name(kPathNames, path);
}

Result<NotificationPath> parse_notification_path(std::string_view text) {
  return parse_enum(kPathNames, text, "notification path");
}

Result<NotificationModel> NotificationModel::create(const NotificationConfig& config) {
  Status status = config.validate();
  if (!status.ok()) return status.error();
  return NotificationModel(config);
}

NotificationCost NotificationModel::cost(NotificationPath path) const {
  const NotificationConfig& c = config_;
  NotificationCost r;
  switch (path) {
    case NotificationPath::kGpuToCpuFlag:
      r.latency_ns = c.gpu_store_to_host_ns + c.cpu_poll_period_ns / 2 + c.cpu_poll_read_ns;
      r.worst_latency_ns = r.latency_ns + c.cpu_poll_period_ns / 2;
      r.cpu_ns = c.cpu_poll_read_ns;
      r.waiter_spins = true;
      return r;
    case NotificationPath::kCpuToGpuFlag:
      r.latency_ns = c.cpu_store_visible_ns + c.gpu_poll_period_ns / 2 + c.gpu_poll_read_ns;
      r.worst_latency_ns = r.latency_ns + c.gpu_poll_period_ns / 2;
      r.gpu_ns = c.gpu_poll_read_ns;
      r.waiter_spins = true;
      return r;
    case NotificationPath::kStreamWriteValue: r.latency_ns = c.stream_write_value_ns; break;
    case NotificationPath::kStreamWaitValue: r.latency_ns = c.stream_wait_value_ns; break;
    case NotificationPath::kKernelLaunch:
      r.latency_ns = c.kernel_launch_ns;
      r.cpu_ns = c.kernel_launch_cpu_ns;
      break;
    case NotificationPath::kCdpLaunch:
      r.latency_ns = c.cdp_launch_ns;
      r.gpu_ns = c.cdp_launch_gpu_ns;
      break;
    case NotificationPath::kCdpTailLaunch:
      r.latency_ns = c.cdp_tail_launch_ns;
      r.gpu_ns = c.cdp_launch_gpu_ns;
      break;
    case NotificationPath::kDoorbell: r.latency_ns = c.doorbell_ns; break;
  }
  r.worst_latency_ns = r.latency_ns;
  return r;
}

double NotificationModel::notified_at_ns(NotificationPath path, double event_ns) const {
  const NotificationConfig& c = config_;
  switch (path) {
    case NotificationPath::kGpuToCpuFlag:
      return next_poll(event_ns + c.gpu_store_to_host_ns, c.cpu_poll_period_ns) +
             c.cpu_poll_read_ns;
    case NotificationPath::kCpuToGpuFlag:
      return next_poll(event_ns + c.cpu_store_visible_ns, c.gpu_poll_period_ns) +
             c.gpu_poll_read_ns;
    default: return event_ns + cost(path).latency_ns;
  }
}

NotificationModel::Occupancy NotificationModel::wait_occupancy(NotificationPath path,
                                                               double wait_start_ns,
                                                               double notified_ns) const {
  Occupancy o;
  double wait = notified_ns > wait_start_ns ? notified_ns - wait_start_ns : 0;
  NotificationCost c = cost(path);
  o.cpu_ns = c.cpu_ns;
  o.gpu_warp_ns = c.gpu_ns;
  // Flag waiters spin: a CPU core for GPU->CPU flags, a warp for CPU->GPU ones.
  if (path == NotificationPath::kGpuToCpuFlag) o.cpu_ns = wait;
  if (path == NotificationPath::kCpuToGpuFlag) o.gpu_warp_ns = wait;
  return o;
}

}  // namespace xferlab::hw_model
