#!/usr/bin/env python3
"""tools/halo_box32_breakdown.py [XFERLAB] — where host box 32^3 sits between
box 24^3 and 64^3, piece by piece (docs/halo_sim_log.md, "Host box 32^3: the fused
kernels' elements per thread").

For each median-of-5 run (and run 4, the 4-rank run 12) it reads the host
variant's box traces of every rank with `xferlab trace dump`, takes per piece
the median over the timed iterations (after the first `iteration` marker) and
the mean over ranks, and prints the measured 16/24/32/64 values and
f = (v32 - v24) / (v64 - v24): 32^3's place between the two fitted sizes that
the replay interpolates between. Linear in the face bytes puts it at 0.127,
the work driver at 0.112 (sim/halo_model.cc work_driver_ns), the fused
kernels' bytes per CTA (native/halo/halo_kernels.cu fused_grid: 1 CTA per
message up to 2048 doubles, so 24^3 and 32^3 one, 64^3 two) at 0.304.

Pieces (native/halo/variants.cc HostDriven, overlap = interior compute):
  pk.launch  pack phase begin -> boundary compute kernel begin (CPU launches)
  pk.kern    pack_fused kernel span
  pk.tail    pack_fused end -> pack phase end (the stream sync returns)
  ps         post_send phase (the Isend calls)
  gap_ps_wr  post_send end -> wait_recv begin (interior compute launch)
  up.start   unpack phase begin -> unpack_fused kernel begin
  up.kern    unpack_fused kernel span
  tot        total phase (the iteration)
"""
import re
import statistics
import sys

from trace_dump_lines import dump_lines

RUNS = [
    ("4", "traces/real/2026-11-26_h200x2_run4/halo_detail", "gpus2", 2),
    ("6", "traces/real/2026-11-27_h200x2_run6/halo_median5", "gpus2", 2),
    ("9", "traces/real/2026-11-27_h100x2_run9/halo_median5", "gpus2", 2),
    ("11", "traces/real/2026-11-27_h100x2_run11/halo_median5", "gpus2", 2),
    ("12 2-rank", "traces/real/2026-11-27_h100x4_run12/halo_median5_2rank", "gpus2", 2),
    ("12 4-rank", "traces/real/2026-11-27_h100x4_run12/halo_median5_4rank", "gpus4", 4),
]
KEYS = ["pk.launch", "pk.kern", "pk.tail", "ps", "gap_ps_wr", "up.start", "up.kern", "tot"]


def fail(msg):
    sys.exit("halo_box32_breakdown: " + msg)


def pieces(xferlab, path):
    out = dump_lines(xferlab, path, fail)
    ev = []
    for line in out:
        p = line.split()
        if len(p) < 5 or not p[0].isdigit():
            continue
        m = re.search(r"(?:kernel|phase)=(\S+)", line)
        ev.append((int(p[0]), p[1], m.group(1) if m else ""))
    first = next((i for i, e in enumerate(ev) if e[1] == "iteration"), None)
    if first is None:
        fail(f"{path}: no iteration marker (not a timed halo trace)")
    d = {}
    t = {}
    add = lambda k, v: d.setdefault(k, []).append(v / 1e3)
    try:
        collect(ev[first:], t, add)
    except KeyError as e:
        fail(f"{path}: {e.args[0][0]} {e.args[0][1]} missing before its use (not a host box trace?)")
    missing = [k for k in KEYS if k not in d]
    if missing:
        fail(f"{path}: no {', '.join(missing)} in the timed iterations")
    return {k: statistics.median(v) for k, v in d.items()}


def collect(events, t, add):
    for ts, kind, name in events:
        t[(kind, name)] = ts
        if kind == "phase_end" and name == "pack":
            add("pk.launch", t[("kernel_begin", "compute_boundary")] - t[("phase_begin", "pack")])
            add("pk.kern", t[("kernel_end", "pack_fused")] - t[("kernel_begin", "pack_fused")])
            add("pk.tail", ts - t[("kernel_end", "pack_fused")])
        elif kind == "phase_end" and name == "post_send":
            add("ps", ts - t[("phase_begin", "post_send")])
        elif kind == "phase_begin" and name == "wait_recv":
            add("gap_ps_wr", ts - t[("phase_end", "post_send")])
        elif kind == "phase_end" and name == "unpack":
            add("up.start", t[("kernel_begin", "unpack_fused")] - t[("phase_begin", "unpack")])
            add("up.kern", t[("kernel_end", "unpack_fused")] - t[("kernel_begin", "unpack_fused")])
        elif kind == "phase_end" and name == "total":
            add("tot", ts - t[("phase_begin", "total")])


def main():
    xferlab = sys.argv[1] if len(sys.argv) > 1 else "bazel-bin/sim/xferlab"
    print("run,piece,us_box16,us_box24,us_box32,us_box64,f32")
    for run, d, place, ranks in RUNS:
        v = {}
        for s in (16, 24, 32, 64):
            rs = [pieces(xferlab, f"{d}/traces/host_{place}_box{s}_rank{k}.xft.zst")
                  for k in range(ranks)]
            v[s] = {k: sum(r[k] for r in rs) / ranks for k in KEYS}
        for k in KEYS:
            span = v[64][k] - v[24][k]
            f = (v[32][k] - v[24][k]) / span if span else float("nan")
            print(f"{run},{k},{v[16][k]:.2f},{v[24][k]:.2f},{v[32][k]:.2f},{v[64][k]:.2f},{f:.2f}")


if __name__ == "__main__":
    main()
