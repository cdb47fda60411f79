// common/phase_log.h — opt-in marks of where a process's CPU time goes
// (XFERLAB_PHASES set): the fixed cost of a replay, phase by phase
// (docs/performance.md, "Fixed cost per replay"; sim/bench_startup.sh).
#pragma once

namespace xferlab {

// phase_mark: with XFERLAB_PHASES set in the environment, prints
// "phase: NAME <CPU ms> <wall ms>" to stderr: this process's CPU time
// (user + sys) since its previous mark, or since it started (a forked child:
// since the fork), and the wall time since the previous mark of this process
// or of the parent it was forked from ("-" at a process's first mark).
// Without XFERLAB_PHASES it only reads the environment, once.
void phase_mark(const char* name);

// phase_mark_at: phase_mark at an earlier reading of process_cpu_ms()
// (wall time not known: "-"), for a reading taken before the environment
// could be read (sim/main.cc's preinit hook).
void phase_mark_at(const char* name, double cpu_ms);

// process_cpu_ms: this process's CPU time (user + sys) in ms.
double process_cpu_ms();

}  // namespace xferlab
