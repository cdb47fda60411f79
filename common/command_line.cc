// common/command_line.cc — repository-relative command lines (see command_line.h).
#include "common/command_line.h"

#include <filesystem>
#include <system_error>

namespace xferlab {
namespace fs = std::filesystem;

std::string shell_quote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_=./:,+@%") == std::string::npos) {
    return arg;
  }
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string find_repository_root(const std::string& dir) {
  std::error_code ec;
  for (fs::path p = fs::path(dir).lexically_normal(); !p.empty(); p = p.parent_path()) {
    if (fs::is_regular_file(p / "WORKSPACE", ec)) return p.string();
    if (p == p.parent_path()) break;
  }
  return "";
}

std::string portable_path(const std::string& path, const std::string& repo_root,
                          const std::string& cwd, bool bare_name) {
  fs::path p(path);
  if (p.is_relative()) p = fs::path(cwd) / p;
  p = p.lexically_normal();
  if (!repo_root.empty()) {
    const fs::path rel = p.lexically_relative(fs::path(repo_root).lexically_normal());
    if (!rel.empty() && *rel.begin() != "..") return rel == "." ? "." : rel.string();
  }
  std::string name = p.filename().string();
  if (name.empty()) name = p.parent_path().filename().string();  // "dir/" -> "dir"
  return bare_name ? name : ".../" + name;
}

namespace {

bool looks_like_path(const std::string& arg, const std::string& cwd) {
  if (arg.empty()) return false;
  if (arg[0] == '/' || arg.starts_with("./") || arg.starts_with("../")) return true;
  const size_t slash = arg.find('/');
  if (slash == std::string::npos || slash == 0) return false;
  std::error_code ec;
  return fs::exists(fs::path(cwd) / arg.substr(0, slash), ec);
}

}  // namespace

std::string portable_command_line(const std::vector<std::string>& argv,
                                  const std::string& repo_root, const std::string& cwd) {
  std::string line;
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string arg = argv[i];
    if (i == 0) {
      arg = arg.find('/') == std::string::npos ? arg : portable_path(arg, repo_root, cwd, true);
    } else if (const size_t eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos) {
      const std::string value = arg.substr(eq + 1);
      if (looks_like_path(value, cwd))
        arg = arg.substr(0, eq + 1) + portable_path(value, repo_root, cwd);
    } else if (looks_like_path(arg, cwd)) {
      arg = portable_path(arg, repo_root, cwd);
    }
    line += (i ? " " : "") + shell_quote(arg);
  }
  return line;
}

std::string portable_command_line(int argc, char** argv) {
  std::error_code ec;
  const std::string cwd = fs::current_path(ec).string();
  std::string root = ec ? "" : find_repository_root(cwd);
  if (root.empty()) {
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) root = find_repository_root(exe.parent_path().string());
  }
  return portable_command_line(std::vector<std::string>(argv, argv + argc), root, cwd);
}

}  // namespace xferlab
