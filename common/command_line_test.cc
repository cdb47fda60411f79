// common/command_line_test.cc — recorded command lines carry no host paths.
#include "common/command_line.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace xferlab {
namespace {

namespace fs = std::filesystem;

class CommandLine : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::path(::testing::TempDir()) / "checkout").string();
    fs::create_directories(fs::path(root_) / "dist" / "bin");
    fs::create_directories(fs::path(root_) / "native" / "proact");
    std::ofstream(fs::path(root_) / "WORKSPACE") << "";
  }
  std::string root_;
};

TEST_F(CommandLine, RepositoryFoundFromAnyDirectoryInside) {
  EXPECT_EQ(find_repository_root(root_ + "/native/proact"), root_);
  EXPECT_EQ(find_repository_root(root_), root_);
  EXPECT_EQ(find_repository_root("/proc/self"), "");
}

TEST_F(CommandLine, PathsBecomeRepositoryRelative) {
  // As native/proact/run_common.sh runs proact: binary found through the
  // scripts' folder, outputs in a temporary directory.
  const std::string line = portable_command_line(
      {root_ + "/native/proact/../../dist/bin/proact", "--csv", "/tmp/tmp.Ocvl/proact/micro_g2.csv",
       "--out=/tmp/tmp.Ocvl/proact", "--platform", "native/proact/x.toml", "--chunk", "16KiB,1MiB",
       "--shard", "1/4", "--label", "it's"},
      root_, root_);
  EXPECT_EQ(line,
            "dist/bin/proact --csv .../micro_g2.csv --out=.../proact --platform "
            "native/proact/x.toml --chunk 16KiB,1MiB --shard 1/4 --label 'it'\\''s'");
  EXPECT_EQ(line.find(root_), std::string::npos);
  EXPECT_EQ(line.find("/tmp"), std::string::npos);
}

TEST_F(CommandLine, RelativeToTheRepositoryFromAnotherDirectory) {
  const std::string cwd = root_ + "/native";
  EXPECT_EQ(portable_command_line({"../dist/bin/proact", "proact/x.toml", "./y.csv"}, root_, cwd),
            "dist/bin/proact native/proact/x.toml native/y.csv");
}

TEST_F(CommandLine, OutsideTheRepositoryOnlyNames) {
  EXPECT_EQ(portable_command_line({"/opt/xferlab/bin/proact", "--out", "/home/user/run/"}, root_,
                                  "/home/user"),
            "proact --out .../run");
  // No repository found: the same.
  EXPECT_EQ(portable_command_line({"/opt/bin/halo_exchange", "/scratch/a.csv"}, "", "/"),
            "halo_exchange .../a.csv");
  // A program run from PATH keeps its name.
  EXPECT_EQ(portable_command_line({"proact", "--reps", "3"}, root_, root_), "proact --reps 3");
}

}  // namespace
}  // namespace xferlab
