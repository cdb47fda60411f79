// common/flags_test.cc — flag parsing, validation and generated help.
#include "common/flags.h"

#include <gtest/gtest.h>

namespace xferlab {
namespace {

FlagSet make() {
  FlagSet f("bench", "a test program");
  f.add_int("reps", 10, 1, 1000, "repetitions")
      .add_size("size", "4KiB", 1, 1e9, "buffer size")
      .add_size_list("sizes", "1,2,4KiB", 1, 1e9, "sizes")
      .add_time("timeout", "2s", "spin timeout")
      .add_string("mode", "peer", {"peer", "host"}, "target")
      .add_bool("verify", true, "check data")
      .add_int("big", 1, 0, 1 << 20, "a bound past the default stream precision");
  return f;
}

TEST(FlagsTest, Defaults) {
  FlagSet f = make();
  ASSERT_TRUE(f.parse(std::vector<std::string>{}).value());
  EXPECT_EQ(f.get_int("reps"), 10);
  EXPECT_DOUBLE_EQ(f.get_size("size"), 4096);
  EXPECT_EQ(f.get_size_list("sizes"), (std::vector<double>{1, 2, 4096}));
  EXPECT_DOUBLE_EQ(f.get_time_ns("timeout"), 2e9);
  EXPECT_EQ(f.get_string("mode"), "peer");
  EXPECT_TRUE(f.get_bool("verify"));
  EXPECT_FALSE(f.was_set("reps"));
}

TEST(FlagsTest, BothSyntaxesAndBareBool) {
  FlagSet f = make();
  auto r = f.parse(std::vector<std::string>{"--reps=5", "--size", "1MiB", "--mode=host",
                                            "--verify=false", "--timeout=500ms", "--sizes=256"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(f.get_int("reps"), 5);
  EXPECT_DOUBLE_EQ(f.get_size("size"), 1 << 20);
  EXPECT_EQ(f.get_string("mode"), "host");
  EXPECT_FALSE(f.get_bool("verify"));
  EXPECT_DOUBLE_EQ(f.get_time_ns("timeout"), 5e8);
  EXPECT_TRUE(f.was_set("reps"));
  ASSERT_TRUE(f.parse(std::vector<std::string>{"--verify"}).ok());
  EXPECT_TRUE(f.get_bool("verify"));
  EXPECT_EQ(f.values().front(), (std::pair<std::string, std::string>{"reps", "5"}));
}

TEST(FlagsTest, HelpReturnsFalse) {
  FlagSet f = make();
  auto r = f.parse(std::vector<std::string>{"--help"});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);
  EXPECT_NE(f.help().find("--reps=INT  repetitions (default 10, range [1, 1000])"),
            std::string::npos);
}

TEST(FlagsTest, ErrorsAreOneLineAndNameTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--reps=0"}, "--reps: 0 is outside [1, 1000]"},
      {{"--big=-1"}, "--big: -1 is outside [0, 1048576]"},
      {{"--reps=ten"}, "--reps: 'ten' is not an integer"},
      {{"--size=0"}, "--size: 0 is outside"},
      {{"--size=fast"}, "--size: "},
      {{"--sizes=1,0"}, "--sizes: size 0 is outside"},
      {{"--timeout=5"}, "--timeout: "},
      {{"--mode=hots"}, "did you mean 'host'?"},
      {{"--rep=3"}, "unknown flag --rep; did you mean 'reps'?"},
      {{"--reps"}, "--reps: missing value"},
      {{"positional"}, "unexpected argument 'positional'"},
      {{"--verify=maybe"}, "--verify: 'maybe' is not a boolean"},
  };
  for (const auto& [args, expected] : cases) {
    FlagSet f = make();
    auto r = f.parse(args);
    ASSERT_FALSE(r.ok()) << args[0];
    EXPECT_NE(r.error().message.find(expected), std::string::npos)
        << args[0] << " -> " << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    EXPECT_EQ(r.error().exit_code(), 2);
  }
}

// The xferlab subcommands' shapes: positionals, repeatable flags, numbers
// and one-letter names; help is generated from the declarations.
TEST(FlagsTest, PositionalsRepeatedNumbersAndShortNames) {
  FlagSet f("xferlab sweep", "sweeps parameters");
  f.set_positionals("TRACE", 1, 1, "a trace file")
      .add_repeated("set", "key=value", "override a preset key")
      .add_number("tolerance", 10, 0, 1e6, "percent")
      .add_string("o", "", {}, "output CSV");
  ASSERT_TRUE(f.parse(std::vector<std::string>{"t.xft", "--set", "a=1", "--set=b=2", "--tolerance",
                                               "2.5", "-o", "out.csv"})
                  .value());
  EXPECT_EQ(f.positionals(), (std::vector<std::string>{"t.xft"}));
  EXPECT_EQ(f.get_all("set"), (std::vector<std::string>{"a=1", "b=2"}));
  EXPECT_DOUBLE_EQ(f.get_number("tolerance"), 2.5);
  EXPECT_EQ(f.get_string("o"), "out.csv");
  const std::string help = f.help();
  EXPECT_NE(help.find("usage: xferlab sweep [flags] TRACE\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --set key=value  override a preset key (repeatable)"), std::string::npos);
  EXPECT_NE(help.find("  --tolerance=NUM  percent (default 10, range [0, 1000000])"),
            std::string::npos);
  EXPECT_NE(help.find("  -o=STR  output CSV"), std::string::npos);

  for (const auto& [args, expected] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{}, "expected 1 TRACE (see --help)"},
           {{"a", "b"}, "unexpected argument 'b'"},
           {{"a", "--tolerance=5x"}, "--tolerance: '5x' is not a number"},
           {{"a", "--tolerance=-1"}, "--tolerance: -1 is outside [0, 1000000]"},
           {{"a", "-x"}, "unknown flag -x"}}) {
    FlagSet g = f;
    g = FlagSet("xferlab sweep", "");
    g.set_positionals("TRACE", 1, 1, "")
        .add_number("tolerance", 10, 0, 1e6, "")
        .add_string("o", "", {}, "");
    auto r = g.parse(args);
    ASSERT_FALSE(r.ok()) << expected;
    EXPECT_NE(r.error().message.find(expected), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace xferlab
