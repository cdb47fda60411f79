// sim/halo_bound_test.cc — repeats.csv checks and issue #15's bound block on
// synthetic cases (the committed runs: tests/halo_bound_test.sh).
#include "sim/halo_bound.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace xferlab::sim {
namespace {

constexpr const char* kHeader = "variant,label,csv,repeat,iteration_wall_avg_ns,kept,traces_kept\n";

// run_dir: a fresh directory NAME under the test's tmp dir, with `repeats`
// (header included) as its repeats.csv unless empty.
std::string run_dir(const std::string& name, const std::string& repeats) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "halo_bound" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (!repeats.empty()) std::ofstream(dir / "repeats.csv") << repeats;
  return dir.string();
}

// three: a configuration's three repeats, the median (200) kept.
std::string three(const std::string& variant, const std::string& label) {
  const std::string p = variant + "," + label + ",halo.csv,";
  return p + "rep1,100,no,\n" + p + "rep2,200,yes,2\n" + p + "rep3,300,no,\n";
}

TEST(ReadLaunchRepeats, NoFileIsOneLaunch) {
  Result<LaunchRepeats> r = read_launch_repeats(run_dir("none", ""));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->launches, 1);
  EXPECT_TRUE(r->kept_line.empty());
  EXPECT_TRUE(r->spread_pct.empty());  // the block shows "-" for it
}

TEST(ReadLaunchRepeats, CountsLaunchesAndFindsTheKeptOne) {
  Result<LaunchRepeats> r = read_launch_repeats(
      run_dir("ok", std::string(kHeader) + three("sa", "gpus2_400") + three("ki", "gpus2_box32")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->launches, 3);
  EXPECT_EQ(r->kept_line.at({"sa", "gpus2_400"}), 3);
  EXPECT_EQ(r->kept_line.at({"ki", "gpus2_box32"}), 6);
  EXPECT_DOUBLE_EQ(r->spread_pct.at({"sa", "gpus2_400"}), 100);  // (300 - 100) / 200
}

// launches: a configuration's launches with these walls (ns), the median
// (the lower middle for an even count) kept.
std::string launches(const std::string& variant, const std::string& label,
                     std::vector<double> walls_ns) {
  std::vector<double> sorted = walls_ns;
  std::sort(sorted.begin(), sorted.end());
  const double kept = sorted[(sorted.size() - 1) / 2];
  std::string out;
  for (size_t i = 0; i < walls_ns.size(); ++i) {
    char wall[32];
    std::snprintf(wall, sizeof wall, "%g", walls_ns[i]);
    out += variant + "," + label + ",halo.csv,rep" + std::to_string(i + 1) + "," + wall + "," +
           (walls_ns[i] == kept ? "yes,2\n" : "no,\n");
  }
  return out;
}

// The spread is (max - min) / median of the configuration's launches: run
// 22's noisy 4-rank host 400 (docs/halo_sim_log.md, "Run 22") in file order,
// and an even count, whose median is the mean of the two middle launches
// (not the kept lower middle, which would give 200 %).
TEST(ReadLaunchRepeats, SpreadIsMaxMinusMinOverTheMedian) {
  Result<LaunchRepeats> r = read_launch_repeats(
      run_dir("spread", std::string(kHeader) +
                            launches("host", "gpus2_400", {933e3, 416e3, 1114e3, 521e3, 423e3}) +
                            launches("sa", "gpus2_400", {500, 100, 300, 200})));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NEAR(r->spread_pct.at({"host", "gpus2_400"}), 100.0 * (1114 - 416) / 521, 1e-9);
  EXPECT_DOUBLE_EQ(r->spread_pct.at({"sa", "gpus2_400"}), 160);  // 400 / 250
}

TEST(ReadLaunchRepeats, FewestLaunchesOverConfigurations) {
  Result<LaunchRepeats> r =
      read_launch_repeats(run_dir("two", std::string(kHeader) + three("sa", "gpus2_400") +
                                             "ki,gpus2_400,halo.csv,rep1,100,yes,2\n"
                                             "ki,gpus2_400,halo.csv,rep2,200,no,\n"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->launches, 2);  // lower middle of two: rep1
}

// Each malformed file: one error naming the file, the line and the field.
TEST(ReadLaunchRepeats, MalformedFilesNameFileLineAndField) {
  const std::string ok = std::string(kHeader) + three("sa", "gpus2_400");
  struct Bad {
    const char* name;
    std::string text;
    std::string expected;  // after "DIR/repeats.csv"
  } bad[] = {
      {"kept_word", std::string(kHeader) + "sa,gpus2_400,halo.csv,rep1,100,maybe,\n",
       ":2: column 'kept': 'maybe': expected yes or no"},
      {"wall_text", ok + "ki,gpus2_400,halo.csv,rep1,fast,yes,2\n",
       ":5: column 'iteration_wall_avg_ns'"},
      {"wall_zero", ok + "ki,gpus2_400,halo.csv,rep1,0,yes,2\n",
       ":5: column 'iteration_wall_avg_ns': must be > 0"},
      {"no_kept_column", "variant,label,csv,repeat,iteration_wall_avg_ns\nsa,gpus2_400,h,rep1,1\n",
       ":1: missing column 'kept'"},
      {"empty_variant", std::string(kHeader) + ",gpus2_400,halo.csv,rep1,100,yes,2\n",
       ":2: column 'variant': empty"},
      {"repeat_twice", ok + "sa,gpus2_400,halo.csv,rep2,250,no,\n",
       ":5: column 'repeat': 'rep2' of sa gpus2_400 again (first: line 3)"},
      {"two_kept", ok + "sa,gpus2_400,halo.csv,rep4,200,yes,2\n",
       ":5: column 'kept': a second kept repeat of sa gpus2_400 (first: line 3)"},
      {"none_kept", ok + "ki,gpus2_400,halo.csv,rep1,100,no,\nki,gpus2_400,halo.csv,rep2,200,no,\n",
       ":5: column 'kept': no repeat of ki gpus2_400 is kept"},
      {"kept_not_median",
       std::string(kHeader) + "sa,gpus2_400,halo.csv,rep1,100,yes,2\n" +
           "sa,gpus2_400,halo.csv,rep2,200,no,\nsa,gpus2_400,halo.csv,rep3,300,no,\n",
       ":2: column 'kept': rep1 of sa gpus2_400 is not the median of its 3"},
      {"header_only", kHeader, ": no repeats (header only)"},
  };
  for (const Bad& b : bad) {
    const std::string dir = run_dir(b.name, b.text);
    Result<LaunchRepeats> r = read_launch_repeats(dir);
    ASSERT_FALSE(r.ok()) << b.name;
    EXPECT_TRUE(r.error().usage) << b.name;  // exit 2
    const std::string want = dir + "/repeats.csv" + b.expected;
    EXPECT_EQ(r.error().message.substr(0, want.size()), want) << b.name;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << b.name;
  }
}

// squeezed: `text` with each run of spaces made one and none before a line
// end (table rows compared by content, not alignment).
std::string squeezed(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    if (ch == '\n' && !out.empty() && out.back() == ' ') out.pop_back();
    if (ch != ' ' || out.empty() || out.back() != ' ') out += ch;
  }
  return out;
}

HaloBoundCase held_out(const std::string& dir, const std::string& variant, const std::string& size,
                       double error_pct, int ranks = 2) {
  return {dir,     std::filesystem::path(dir).filename().string(),
          variant, "gpus2_" + size,
          size,    true,
          ranks,   error_pct};
}

TEST(HaloBoundText, MedianAndMaxPerVariantAndSizeOverMedianRunsOnly) {
  const std::string a =
      run_dir("A", std::string(kHeader) + three("sa", "gpus2_400") + three("ki", "gpus2_400"));
  const std::string b =
      run_dir("B", std::string(kHeader) + three("sa", "gpus2_400") + three("ki", "gpus2_400"));
  const std::string c =
      run_dir("C", std::string(kHeader) + three("sa", "gpus2_400") + three("ki", "gpus2_400"));
  const std::string single = run_dir("single", "");
  std::vector<HaloBoundCase> cases = {
      // sa: |errors| 4, 5, 6 -> median 5 (met: <= 5), max 6.
      held_out(a, "sa", "400", -4), held_out(b, "sa", "400", 5), held_out(c, "sa", "400", -6),
      // ki: max 10.5 -> not met, though its median is 1.
      held_out(a, "ki", "400", 1), held_out(b, "ki", "400", 10.5), held_out(c, "ki", "400", 0.5),
      // Left out: a single launch (its +40 % would break sa), a 4-rank case,
      // a fitted case.
      held_out(single, "sa", "400", 40), held_out(a, "sa", "400", 40, 4)};
  cases.push_back(held_out(b, "ki", "400", 40));
  cases.back().held_out = false;
  Result<std::string> t = halo_bound_text(cases);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_NE(t->find("issue #15 bound (2-rank held-out, per variant and size, over runs that are "
                    "medians of N >= 3 launches):\n"),
            std::string::npos)
      << *t;
  EXPECT_NE(t->find("runs (error_per_run_pct and launch_spread_per_run_pct in this order): A "
                    "(median of 3), B (median of 3), C (median of 3)\n"),
            std::string::npos)
      << *t;
  EXPECT_NE(squeezed(*t).find("\nvariant size error_per_run_pct launch_spread_per_run_pct "
                              "median_abs_error_pct max_abs_error_pct median_launch_spread_pct "
                              "bound\n"),
            std::string::npos)
      << *t;
  EXPECT_NE(squeezed(*t).find("\nsa 400 -4.0 / +5.0 / -6.0 100 / 100 / 100 5.00 6.00 100 met\n"),
            std::string::npos)
      << *t;
  EXPECT_NE(
      squeezed(*t).find("\nki 400 +1.0 / +10.5 / +0.5 100 / 100 / 100 1.00 10.5 100 not met\n"),
      std::string::npos)
      << *t;
  EXPECT_NE(t->find("bound: 1 of 2 variant/sizes met over 3 median-of-3 runs"), std::string::npos)
      << *t;
  EXPECT_NE(t->find("not in the bound (their 2-rank held-out cases are in the tables above): "
                    "single (single launch): fewer than 3 launches"),
            std::string::npos)
      << *t;
  EXPECT_EQ(t->find("+40"), std::string::npos) << *t;
}

// Columns follow the runs' natural order (run9 before run11 before run14),
// whatever order validate met them in, and each error stays with its run.
TEST(HaloBoundText, RunsInNaturalOrder) {
  std::vector<HaloBoundCase> cases;
  const std::vector<std::pair<std::string, double>> runs = {
      {"x_run11", 11}, {"x_run14", 14}, {"x_run9", 9}, {"x_run010", 10}};
  for (const auto& [name, e] : runs) {
    cases.push_back(
        held_out(run_dir(name, std::string(kHeader) + three("sa", "gpus2_400")), "sa", "400", e));
  }
  Result<std::string> t = halo_bound_text(cases);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_NE(t->find("runs (error_per_run_pct and launch_spread_per_run_pct in this order): "
                    "x_run9 (median of 3), x_run010 (median of 3), x_run11 (median of 3), x_run14 "
                    "(median of 3)\n"),
            std::string::npos)
      << *t;
  EXPECT_NE(
      squeezed(*t).find(
          "\nsa 400 +9.0 / +10.0 / +11.0 / +14.0 100 / 100 / 100 / 100 10.5 14.0 100 not met\n"),
      std::string::npos)
      << *t;
}

// Each run's launch spread stands beside its error, in the runs' natural
// order; a run without the (variant, size) shows "-" in both; the median is
// over the runs that have one. The bound is decided on the errors alone.
TEST(HaloBoundText, LaunchSpreadPerRunBesideTheErrors) {
  const std::string r9 =
      run_dir("s_run9", std::string(kHeader) + launches("sa", "gpus2_400", {95, 100, 105}) +
                            launches("ki", "gpus2_400", {90, 100, 110}));
  const std::string r10 = run_dir(
      "s_run10", std::string(kHeader) + launches("sa", "gpus2_400", {416, 423, 521, 933, 1114}) +
                     launches("ki", "gpus2_400", {100, 200, 300, 500}));
  const std::string r11 =
      run_dir("s_run11", std::string(kHeader) + launches("sa", "gpus2_400", {80, 100, 120}));
  Result<std::string> t = halo_bound_text(
      {held_out(r11, "sa", "400", 2), held_out(r10, "sa", "400", -12), held_out(r9, "sa", "400", 1),
       held_out(r10, "ki", "400", 3), held_out(r9, "ki", "400", -4)});
  ASSERT_TRUE(t.ok()) << t.error().message;
  // sa: spreads 10, 134, 40 -> median 40; |errors| 1, 12, 2 -> median 2,
  // max 12: not met, whatever run 10's noise.
  EXPECT_NE(
      squeezed(*t).find("\nsa 400 +1.0 / -12.0 / +2.0 10 / 134 / 40 2.00 12.0 40.0 not met\n"),
      std::string::npos)
      << *t;
  // ki: not in s_run11; spreads 20 and 160 (median 250 of four) -> 90.
  EXPECT_NE(squeezed(*t).find("\nki 400 -4.0 / +3.0 / - 20 / 160 / - 3.50 4.00 90.0 met\n"),
            std::string::npos)
      << *t;
  EXPECT_NE(t->find("bound: 1 of 2 variant/sizes met over 3 median-of-3..4 runs"),
            std::string::npos)
      << *t;
}

TEST(HaloBoundText, FewerThanThreeLaunchesIsLeftOutNotAnError) {
  const std::string two = run_dir("two_launches", std::string(kHeader) +
                                                      "sa,gpus2_400,halo.csv,rep1,100,yes,2\n"
                                                      "sa,gpus2_400,halo.csv,rep2,200,no,\n");
  Result<std::string> t = halo_bound_text({held_out(two, "sa", "400", 3)});
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_NE(t->find("bound: 0 of 0 variant/sizes met over 0 median-of-N runs"), std::string::npos)
      << *t;
  EXPECT_NE(t->find("two_launches (median of 2 launches)"), std::string::npos) << *t;
  EXPECT_EQ(t->find("runs (error_per_run_pct"), std::string::npos) << *t;
  EXPECT_EQ(t->find("launch_spread"), std::string::npos) << *t;
}

TEST(HaloBoundText, NothingWithoutTwoRankHeldOutCases) {
  Result<std::string> t =
      halo_bound_text({held_out(run_dir("four", ""), "sa", "400", 3, /*ranks=*/4)});
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(*t, "");
}

TEST(HaloBoundText, ErrorsOnAMalformedRepeatsCsvOrAnUnlistedConfiguration) {
  const std::string bad = run_dir("bad", std::string(kHeader) + "sa,gpus2_400,h,rep1,x,yes,2\n");
  // Read even where no case is in the bound (a 4-rank run).
  Result<std::string> t = halo_bound_text({held_out(bad, "sa", "400", 3, /*ranks=*/4)});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("bad/repeats.csv:2: column 'iteration_wall_avg_ns'"),
            std::string::npos)
      << t.error().message;
  const std::string other = run_dir("other", std::string(kHeader) + three("ki", "gpus2_400"));
  t = halo_bound_text({held_out(other, "sa", "400", 3)});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("other/repeats.csv: no repeats of sa gpus2_400"),
            std::string::npos)
      << t.error().message;
}

}  // namespace
}  // namespace xferlab::sim
