#!/usr/bin/env bash
# sim/bench_startup.sh — the fixed CPU cost of one `xferlab replay` process,
# phase by phase (docs/performance.md, "Fixed cost per replay"; issue #20).
# Each case runs N times (BENCH_STARTUP_RUNS, default 21); printed: the median
# CPU ms (user + sys, the process and the simulation process it forks,
# wait4's rusage) of each phase from XFERLAB_PHASES's marks (common/
# phase_log.h), "exit and rest" (the total less the marked phases) and the
# total; once as built (ns-3 stand-ins, third_party/system/ns3_stub.sh) and
# once with the real ns-3 libraries (LD_LIBRARY_PATH at Debian's libsimgrid).
# Baselines: /bin/true (libc only), an empty program linked with SimGrid
# (//third_party/system:startup_probe) and `xferlab --version`.
#
# Usage: sim/bench_startup.sh [TRACE...]   (after bazel build //sim:xferlab
#   //third_party/system:startup_probe; default traces: the quick-start trace
#   and the smallest committed micro trace of sim/bench_replay.sh, replayed
#   with --mechanism infinite, which simulates no transfer)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${XFERLAB_BIN:-bazel-bin}
xferlab=$bin/sim/xferlab
probe=$bin/third_party/system/startup_probe
real=$(dirname "$(LD_TRACE_LOADED_OBJECTS=1 "$xferlab" | awk '$1 == "libsimgrid.so.3.32" { print $3 }')")
[ $# -gt 0 ] || set -- \
  traces/real/2026-11-22_h200x2_run3/proact/traces/micro_g2_polling_c16KiB_t8192.xft.zst \
  traces/real/2026-11-22_h200x4_nvswitch/traces/micro_g4_none_c16KiB_t32.xft.zst
echo "revision: $("$xferlab" --version); runs per case: ${BENCH_STARTUP_RUNS:-21}; real ns-3: $real"
XFERLAB_PHASES=1 REAL_NS3=$real RUNS=${BENCH_STARTUP_RUNS:-21} python3 - "$xferlab" "$probe" "$@" <<'PY'
import os, statistics, subprocess, sys

xferlab, probe, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = int(os.environ["RUNS"])

def run(argv, real):
    """CPU ms of one run (with its waited-for children) and its phase marks."""
    env = dict(os.environ)
    if real:
        env["LD_LIBRARY_PATH"] = os.environ["REAL_NS3"]
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"bench_startup: {' '.join(argv)} failed:\n{err}")
    phases = []
    for line in err.splitlines():
        if line.startswith("phase: "):
            f = line[7:].rsplit(" ", 2)
            phases.append((f[0], float(f[1])))
    return (ru.ru_utime + ru.ru_stime) * 1e3, phases

def case(argv):
    """Per phase: median ms as built and with real ns-3; then exit/rest and total."""
    out = {}
    for real in (False, True):
        totals, marks = [], {}
        for _ in range(runs):
            t, ph = run(argv, real)
            totals.append(t)
            for name, ms in ph:
                marks.setdefault(name, []).append(ms)
        med = {k: statistics.median(v) for k, v in marks.items()}
        total = statistics.median(totals)
        if med:
            med["exit and rest"] = total - sum(med.values())
        med["total"] = total
        out[real] = med
    return out

def show(title, res):
    print(f"\n{title}")
    print(f"  {'phase':<56} {'stand-ins':>9} {'real ns-3':>9}")
    for name in res[False]:
        print(f"  {name:<56} {res[False][name]:9.2f} {res[True].get(name, float('nan')):9.2f}")

show("/bin/true (libc only)", case(["/bin/true"]))
show("empty program linked with SimGrid (startup_probe)", case([probe]))
show("xferlab --version", case([xferlab, "--version"]))
for t in traces:
    show(f"xferlab replay {os.path.basename(t)} --mechanism infinite --format csv",
         case([xferlab, "replay", t, "--mechanism", "infinite", "--format", "csv"]))
PY
