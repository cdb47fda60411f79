// Tests for check_output_path / write_file_checked.
#include "common/output_path.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace xferlab {
namespace {

std::string tmp_dir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

TEST(OutputPath, MissingDirectoryIsOneLineNamingIt) {
  Status s = check_output_path("/nonexistent/dir/x.csv", "sweep -o");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "sweep -o '/nonexistent/dir/x.csv': directory '/nonexistent/dir' does not exist");
  EXPECT_EQ(s.error().exit_code(), 2);
}

TEST(OutputPath, DirectoryAndFileAsDirectory) {
  EXPECT_NE(check_output_path(tmp_dir(), "-o").error().message.find("is a directory"),
            std::string::npos);
  const std::string file = tmp_dir() + "/plain_file";
  std::ofstream(file) << "x";
  EXPECT_NE(check_output_path(file + "/out.csv", "-o").error().message.find("is not a directory"),
            std::string::npos);
}

TEST(OutputPath, WritableNewFileIsNotLeftBehind) {
  const std::string path = tmp_dir() + "/new_output.csv";
  std::filesystem::remove(path);
  EXPECT_TRUE(check_output_path(path, "-o").ok());
  EXPECT_FALSE(std::filesystem::exists(path));
  std::ofstream(path) << "keep";
  EXPECT_TRUE(check_output_path(path, "-o").ok());
  std::ifstream in(path);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "keep");  // an existing file is not truncated by the check
}

TEST(OutputPath, WriteFileChecked) {
  const std::string path = tmp_dir() + "/written.txt";
  ASSERT_TRUE(write_file_checked(path, "hello\n", "-o").ok());
  EXPECT_FALSE(write_file_checked("/nonexistent/x", "hello\n", "-o").ok());
  if (std::filesystem::exists("/dev/full")) {
    EXPECT_FALSE(write_file_checked("/dev/full", std::string(1 << 16, 'x'), "-o").ok());
  }
}

}  // namespace
}  // namespace xferlab
