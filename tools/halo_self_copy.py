#!/usr/bin/env python3
"""tools/halo_self_copy.py [XFERLAB] — the self Isend (a rank's message to
itself: MPI copies it) at the paper cubes, per run and variant
(docs/halo_sim_log.md, "Baseline 400^3: the self copy's rate").

For each median-of-5 run (and run 4) it reads both ranks' 200^3 / 400^3 /
800^3 traces with `xferlab trace dump` and takes the median Isend call of the
timed iterations (after the first `iteration` marker; a call = time since the
previous host event of its lane, as sim/halo_trace.cc; sa / ki: the proxy
lane) for the self messages: 1200 B (200^3's edge, the smallest self size:
the fixed call cost) and the faces 60000 / 240000 / 960000 B. It prints the
copy rate net of that fixed cost (GB/s) and what the replay puts at 400^3's
face: the line between 60000 and 960000 B (`line_us`, SizeTable::at), the
cost per byte interpolated 0.2 of the way (`rate_us`, sim/halo_model.cc
self_copy_table), 60000 B's cost per byte carried up (`at_rate_us`), and
theta = (measured - at_rate) / (line - at_rate): 0 at the smaller size's
rate, 1 on the line.
"""
import re
import statistics
import sys

from trace_dump_lines import TWO_RANK_RUNS as RUNS
from trace_dump_lines import dump_lines
VARIANTS = ["baseline", "stream", "stacked", "host", "sa", "ki"]
HOST_KINDS = {"mpi_post", "mpi_complete", "phase_begin", "phase_end", "iteration"}


def fail(msg):
    sys.exit("halo_self_copy: " + msg)


def self_calls(xferlab, path, rank, proxy):
    lines = dump_lines(xferlab, path, fail)
    timed = False
    last = {}
    calls = {}
    for line in lines:
        p = line.split()
        if len(p) < 5 or not p[0].isdigit() or p[1] not in HOST_KINDS:
            continue
        ts, kind, lane = int(p[0]), p[1], p[3]
        timed = timed or kind == "iteration"
        if kind == "mpi_post" and "op=isend" in line and timed and lane in last and (lane != "0") == proxy:
            peer = re.search(r"peer=(\d+)", line)
            size = re.search(r"bytes=(\d+)", line)
            if peer and size and int(peer.group(1)) == rank:
                calls.setdefault(int(size.group(1)), []).append((ts - last[lane]) / 1e3)
        last[lane] = ts
    if not timed:
        fail(f"{path}: no iteration marker (not a timed halo trace)")
    return calls


def medians(xferlab, d, variant, size):
    pooled = {}
    for rank in (0, 1):
        path = f"{d}/traces/{variant}_gpus2_{size}_rank{rank}.xft.zst"
        for b, v in self_calls(xferlab, path, rank, variant in ("sa", "ki")).items():
            pooled.setdefault(b, []).extend(v)
    return {b: statistics.median(v) for b, v in pooled.items()}


def main():
    xferlab = sys.argv[1] if len(sys.argv) > 1 else "bazel-bin/sim/xferlab"
    print("run,variant,fixed_us,us_60000,us_240000,us_960000,gbps_60000,gbps_240000,gbps_960000,"
          "line_us,rate_us,at_rate_us,theta")
    for run, d in RUNS:
        for variant in VARIANTS:
            m = {s: medians(xferlab, d, variant, s) for s in (200, 400, 800)}
            need = [(200, 1200), (200, 60000), (400, 240000), (800, 960000)]
            missing = [f"{b} B at {s}^3" for s, b in need if b not in m[s]]
            if missing:
                fail(f"{d}: {variant}: no self Isend of {', '.join(missing)}")
            f0, y0, y, y1 = (m[s][b] for s, b in need)
            gbps = [b / ((t - f0) * 1e3) for b, t in ((60000, y0), (240000, y), (960000, y1))]
            line = y0 + (240000 - 60000) * (y1 - y0) / (960000 - 60000)
            r0, r1 = (y0 - f0) / (60000 - 1200), (y1 - f0) / (960000 - 1200)
            rate = f0 + (240000 - 1200) * (r0 + (240000 - 60000) / (960000 - 60000) * (r1 - r0))
            at_rate = f0 + (240000 - 1200) * r0
            theta = (y - at_rate) / (line - at_rate) if line != at_rate else float("nan")
            print(f"{run},{variant},{f0:.2f},{y0:.2f},{y:.2f},{y1:.2f},"
                  + ",".join(f"{g:.1f}" for g in gbps) + f",{line:.2f},{rate:.2f},{at_rate:.2f},{theta:.2f}")


if __name__ == "__main__":
    main()
