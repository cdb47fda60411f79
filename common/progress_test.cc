// common/progress_test.cc — the progress line's text and its quiet mode.
#include "common/progress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace xferlab {
namespace {

TEST(ProgressLine, FormatShowsCountsElapsedAndEta) {
  EXPECT_EQ(ProgressLine::format("sweep", 0, 4, 0),
            "sweep [                              ] 0/4  0s");
  // 1 of 4 done in 10 s: 3 left at 10 s each.
  EXPECT_EQ(ProgressLine::format("sweep", 1, 4, 10),
            "sweep [#######                       ] 1/4  10s, ETA 30s");
  EXPECT_EQ(ProgressLine::format("v", 3, 4, 90),
            "v [######################        ] 3/4  1m30s, ETA 30s");
  EXPECT_EQ(ProgressLine::format("v", 4, 4, 7300), "v [##############################] 4/4  2h01m");
}

TEST(ProgressLine, QuietWhenDisabled) {
  std::ostringstream out;
  ProgressLine p(out, "sweep", false);
  p.update(1, 2);
  p.update(2, 2);
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressLine, RewritesOneLineAndEndsIt) {
  std::ostringstream out;
  ProgressLine p(out, "sweep", true);
  p.update(1, 2);
  p.update(2, 2);
  const std::string s = out.str();
  EXPECT_EQ(s.front(), '\r');
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 1);
  EXPECT_EQ(s.back(), '\n');
  EXPECT_NE(s.find("2/2"), std::string::npos);
}

}  // namespace
}  // namespace xferlab
