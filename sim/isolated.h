// sim/isolated.h — run work in a forked child and read its bytes back.
//
// SimGrid allows one engine per process, so every simulation runs in a child
// (simulate_isolated) and so does every sweep point. Children are started
// with start_isolated and collected with finish_isolated, so a caller can keep
// several running at once.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>

#include "common/result.h"

namespace xferlab::sim {

struct IsolatedChild {
  pid_t pid = -1;
  int fd = -1;  ///< read end of the child's result pipe.
};

// start_isolated: forks; the child runs `work`, writes the bytes it returns
// to the pipe and exits without running the parent's exit handlers (safe
// under Python and MPI).
Result<IsolatedChild> start_isolated(const std::function<std::string()>& work);

// finish_isolated: reads the child's bytes until it exits and reaps it; an
// error if it wrote nothing (crashed or killed).
Result<std::string> finish_isolated(IsolatedChild child, const std::string& what);

// run_isolated_in_order: work(i) for i in [0, n), each in its own child, at
// most `jobs` at once; done(i, bytes) is called in index order, so what the
// caller builds does not depend on `jobs`. The first error (from a fork or
// from done) stops new work; children already running are reaped.
// before_fork(i), if given, runs in this process just before work(i)'s fork:
// what it sets up, the child inherits.
Status run_isolated_in_order(size_t n, uint32_t jobs,
                             const std::function<std::string(size_t)>& work,
                             const std::function<Status(size_t, Result<std::string>)>& done,
                             const std::string& what,
                             const std::function<void(size_t)>& before_fork = nullptr);

// Most processes a pool runs at once (--jobs).
inline constexpr uint32_t kMaxJobs = 64;

// default_jobs: CPUs this process may run on (its affinity mask), 1..kMaxJobs.
uint32_t default_jobs();

}  // namespace xferlab::sim
