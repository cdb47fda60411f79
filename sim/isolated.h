// sim/isolated.h — run work in a forked child and read its bytes back.
//
// SimGrid allows one engine per process, so every simulation runs in a child
// (simulate_isolated) and so does every sweep point. Children are started
// with start_isolated and collected with finish_isolated, so a caller can keep
// several running at once.
#pragma once

#include <sys/types.h>

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

}  // namespace xferlab::sim
