// common/output_path.cc — output path checks (see output_path.h).
#include "common/output_path.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace xferlab {

Status check_output_path(std::string_view path_text, std::string_view what) {
  namespace fs = std::filesystem;
  const std::string path(path_text);
  const std::string head = std::string(what) + " '" + path + "': ";
  if (path.empty()) return make_error(std::string(what) + ": empty output path");
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return make_error(head + "is a directory, not a file");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::exists(dir, ec))
    return make_error(head + "directory '" + dir.string() + "' does not exist");
  if (!fs::is_directory(dir, ec))
    return make_error(head + "'" + dir.string() + "' is not a directory");
  const bool existed = fs::exists(p, ec);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return make_error(head + "cannot write: " + std::strerror(errno));
  ::close(fd);
  if (!existed) ::unlink(path.c_str());
  return Status::Ok();
}

Status write_file_checked(std::string_view path_text, std::string_view text,
                          std::string_view what) {
  const std::string path(path_text);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (f) f.close();
  if (!f)
    return make_runtime_error(std::string(what) + " '" + path + "': write failed" +
                              (errno ? std::string(": ") + std::strerror(errno) : ""));
  return Status::Ok();
}

}  // namespace xferlab
