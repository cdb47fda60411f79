// sim/isolated.cc — fork/pipe plumbing for isolated.h.
#include "sim/isolated.h"

#include <malloc.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <deque>
#include <iostream>

namespace xferlab::sim {
namespace {

bool write_all(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

Result<IsolatedChild> start_isolated(const std::function<std::string()>& work) {
  int fds[2];
  if (::pipe(fds) != 0) return make_runtime_error("pipe failed");
  // A child inherits unwritten stdio buffers; anything in it that flushes
  // (SimGrid, a warning) would print the parent's pending output again.
  std::cout.flush();
  std::fflush(nullptr);
  // Freed memory the heap keeps (xferlab's main raises glibc's trim
  // threshold) would be mapped into the child too: fork and the child's exit
  // pay per resident page.
  malloc_trim(0);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return make_runtime_error("fork failed");
  }
  if (pid == 0) {
    ::close(fds[0]);
    const bool ok = write_all(fds[1], work());
    ::_exit(ok ? 0 : 1);
  }
  ::close(fds[1]);
  return IsolatedChild{pid, fds[0]};
}

Result<std::string> finish_isolated(IsolatedChild child, const std::string& what) {
  std::string data;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(child.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(child.fd);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (data.empty()) {
    return make_runtime_error(what + ": process failed (status " + std::to_string(status) + ")");
  }
  return data;
}

Status run_isolated_in_order(size_t n, uint32_t jobs,
                             const std::function<std::string(size_t)>& work,
                             const std::function<Status(size_t, Result<std::string>)>& done,
                             const std::string& what,
                             const std::function<void(size_t)>& before_fork) {
  std::deque<std::pair<size_t, IsolatedChild>> running;
  Status status = Status::Ok();
  size_t next = 0;
  while (next < n || !running.empty()) {
    while (status.ok() && running.size() < std::max<uint32_t>(jobs, 1) && next < n) {
      const size_t i = next++;
      if (before_fork) before_fork(i);
      Result<IsolatedChild> child = start_isolated([&work, i] { return work(i); });
      if (!child.ok()) {
        status = make_runtime_error(what + ": " + child.error().message);
        break;
      }
      running.emplace_back(i, *child);
    }
    if (running.empty()) break;
    auto [i, child] = running.front();
    running.pop_front();
    Result<std::string> bytes = finish_isolated(child, what);
    if (status.ok()) status = done(i, std::move(bytes));
  }
  return status;
}

uint32_t default_jobs() {
  cpu_set_t set;
  CPU_ZERO(&set);
  const int cpus = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  return static_cast<uint32_t>(std::clamp<int>(cpus, 1, kMaxJobs));
}

}  // namespace xferlab::sim
