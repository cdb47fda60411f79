// sim/validation_report_test.cc — in-sample labels and summary lines.
#include "sim/validation_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace xferlab::sim {
namespace {

constexpr const char* kFit =
    "2026-11-22_h200x2/bench/link_bench.csv; "
    "2026-11-22_h200x4_nvswitch/traces/micro_g4_memcpy_*";

TEST(ValidationReport, GlobsMatchThePathTail) {
  EXPECT_TRUE(in_sample(kFit,
                        "traces/real/2026-11-22_h200x4_nvswitch/traces/"
                        "micro_g4_memcpy_c4KiB_t32.xft.zst"));
  // The same capture read from elsewhere (the shared measurements folder).
  EXPECT_TRUE(in_sample(kFit,
                        "/work/shared/measurements/2026-11-22_h200x4_nvswitch/traces/"
                        "micro_g4_memcpy_c64KiB_t32.xft.zst"));
  EXPECT_FALSE(in_sample(kFit,
                         "traces/real/2026-11-22_h200x4_nvswitch/traces/"
                         "jacobi_g4_memcpy_c256KiB_t32.xft.zst"));
  // '*' does not cross folders; another capture's folder does not match.
  EXPECT_FALSE(in_sample(kFit, "2026-11-22_h200x4_nvswitch/traces/x/micro_g4_memcpy_a.xft"));
  EXPECT_FALSE(in_sample(kFit, "2026-11-22_h200x4_nvswitch_run2/traces/micro_g4_memcpy_a.xft"));
  EXPECT_FALSE(in_sample("", "anything.xft"));
}

TEST(ValidationReport, HeldOutCampaignsAreNeverInSample) {
  EXPECT_TRUE(in_sample("*/*/micro_*", "run/proact/micro_g2_polling.xft"));
  EXPECT_FALSE(in_sample("*/*/micro_*", "2026-12-01_h200x2_heldout/proact/micro_g2_polling.xft"));
}

TEST(ValidationReport, CommunicationOnlyError) {
  // measured 1500 us, compute-only 1000 us: 25 us too fast is -5% of 500 us.
  EXPECT_DOUBLE_EQ(comm_error_pct(1475e3, 1500e3, 1000e3), -5);
  EXPECT_TRUE(std::isnan(comm_error_pct(1475e3, 1500e3, 0)));
  EXPECT_TRUE(std::isnan(comm_error_pct(1475e3, 900e3, 1000e3)));  // not slower than none
}

TEST(ValidationReport, SummariesKeepGroupOrderAndCount) {
  ErrorSummaries s;
  s.add("b", 3);
  s.add("a", 1);
  s.add("b", 1);
  s.add("b", 20);
  s.add("a", NAN);  // cases without a value are left out
  std::ostringstream out;
  s.write(out, 10);
  EXPECT_EQ(out.str(),
            "b: cases 3, median |error| 3.00%, max |error| 20.0%, beyond tolerance 1\n"
            "a: cases 1, median |error| 1.00%, max |error| 1.00%, beyond tolerance 0\n");
  ASSERT_NE(s.group("b"), nullptr);
  EXPECT_EQ(s.group("b")->size(), 3u);
  EXPECT_EQ(s.group("c"), nullptr);
}

}  // namespace
}  // namespace xferlab::sim
