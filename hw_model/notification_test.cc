// Tests for NotificationModel: polling phase arithmetic, fixed-latency
// paths, and who pays while waiting.
#include "hw_model/notification.h"

#include <gtest/gtest.h>

namespace xferlab::hw_model {
namespace {

NotificationModel model() {
  return *NotificationModel::create(NotificationConfig{});
}

TEST(Notification, GpuToCpuFlagPolling) {
  NotificationModel m = model();
  // Store lands at 1000 + 800 = 1800; CPU polls every 100 ns -> 1800, then reads 90 ns.
  EXPECT_DOUBLE_EQ(m.notified_at_ns(NotificationPath::kGpuToCpuFlag, 1000), 1890);
  // Lands at 1850 -> next poll at 1900.
  EXPECT_DOUBLE_EQ(m.notified_at_ns(NotificationPath::kGpuToCpuFlag, 1050), 1990);
  NotificationCost c = m.cost(NotificationPath::kGpuToCpuFlag);
  EXPECT_DOUBLE_EQ(c.latency_ns, 800 + 50 + 90);
  EXPECT_DOUBLE_EQ(c.worst_latency_ns, 800 + 100 + 90);
  EXPECT_TRUE(c.waiter_spins);
}

TEST(Notification, CpuToGpuFlagPolling) {
  NotificationModel m = model();
  // Visible at 100; GPU polls every 500 ns -> 500, then a 1200 ns read.
  EXPECT_DOUBLE_EQ(m.notified_at_ns(NotificationPath::kCpuToGpuFlag, 0), 1700);
  NotificationModel::Occupancy o = m.wait_occupancy(NotificationPath::kCpuToGpuFlag, 0, 1700);
  EXPECT_DOUBLE_EQ(o.gpu_warp_ns, 1700);
  EXPECT_DOUBLE_EQ(o.cpu_ns, 0);
}

TEST(Notification, FixedLatencyPaths) {
  NotificationModel m = model();
  EXPECT_DOUBLE_EQ(m.notified_at_ns(NotificationPath::kKernelLaunch, 10), 4010);
  EXPECT_DOUBLE_EQ(m.cost(NotificationPath::kKernelLaunch).cpu_ns, 2500);
  EXPECT_DOUBLE_EQ(m.cost(NotificationPath::kCdpTailLaunch).latency_ns, 3000);
  EXPECT_DOUBLE_EQ(m.cost(NotificationPath::kCdpLaunch).gpu_ns, 1000);
  EXPECT_DOUBLE_EQ(m.cost(NotificationPath::kDoorbell).latency_ns, 400);
  EXPECT_FALSE(m.cost(NotificationPath::kDoorbell).waiter_spins);
  // The doorbell waiter does not burn a core.
  EXPECT_DOUBLE_EQ(m.wait_occupancy(NotificationPath::kDoorbell, 0, 5000).cpu_ns, 0);
  EXPECT_DOUBLE_EQ(m.wait_occupancy(NotificationPath::kGpuToCpuFlag, 0, 5000).cpu_ns, 5000);
}

TEST(Notification, NamesAndValidation) {
  for (int i = 0; i < kNumNotificationPaths; ++i) {
    auto path = static_cast<NotificationPath>(i);
    EXPECT_EQ(*parse_notification_path(notification_path_name(path)), path);
  }
  EXPECT_FALSE(parse_notification_path("door_bell").ok());
  NotificationConfig c;
  c.cpu_poll_period_ns = 0;
  EXPECT_EQ(c.validate().error().message, "key 'cpu_poll_period': must be > 0");
  c = NotificationConfig{};
  c.kernel_launch_ns = -5;
  EXPECT_EQ(c.validate().error().message, "key 'kernel_launch': must be >= 0");
}

}  // namespace
}  // namespace xferlab::hw_model
