// common/phase_log.cc — phase_mark (phase_log.h).
#include "common/phase_log.h"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace xferlab {
namespace {

double ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

bool on() {
  static const bool on = std::getenv("XFERLAB_PHASES") != nullptr;
  return on;
}

void mark(const char* name, double cpu, double wall) {
  static pid_t pid = 0;
  static double last_cpu = 0, last_wall = 0;
  if (pid != getpid()) {
    if (pid == 0) last_wall = -1;
    pid = getpid();
    last_cpu = 0;
  }
  if (last_wall < 0) {
    std::fprintf(stderr, "phase: %s %.3f -\n", name, cpu - last_cpu);
  } else {
    std::fprintf(stderr, "phase: %s %.3f %.3f\n", name, cpu - last_cpu, wall - last_wall);
  }
  last_cpu = cpu;
  last_wall = wall;
}

}  // namespace

double process_cpu_ms() {
  return ms(CLOCK_PROCESS_CPUTIME_ID);
}

void phase_mark(const char* name) {
  if (on()) mark(name, process_cpu_ms(), ms(CLOCK_MONOTONIC));
}

void phase_mark_at(const char* name, double cpu_ms) {
  if (on()) mark(name, cpu_ms, -1);
}

}  // namespace xferlab
