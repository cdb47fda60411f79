#!/usr/bin/env python3
"""tools/halo_x4_skew.py XFERLAB [VARIANT:SIZE ...] — how far the ranks of a
halo run are out of step, at 2 and at 4 ranks, and what that does to the
wait of the host-driven variants (docs/halo_sim_log.md, "2 -> 4 ranks: the
ranks run out of step").

The replay plays one iteration in which every rank starts at time 0. For
runs 12 (4x H100, the same lease at 2 and 4 ranks) and x4 (2 ranks: run 4,
2x H200; 4 ranks: 4x H200 NVSwitch) it reads every rank's trace with
`xferlab trace dump`, matches the ranks' iterations by their `iteration`
marker and prints, per variant (baseline, stream, stacked, host) and size
(medians over the timed iterations, µs):

  spread_2_us / spread_4_us  latest minus earliest rank's iteration start
  in_step_4                  iterations at 4 ranks with spread < 20 µs, of all
  late_4                     the ranks that start in the later half of the
                             spread in most iterations, and in how many
  and, for baseline / host (one MPI_Testall completes every receive):
  lag_2_us / lag_4_us        a rank's wait_recv begin to the last Isend post
                             of a message to it by another rank (> 0: it
                             waits for a late sender)
  wait_4_us / tail_4_us      wait_recv, and its part after that last post
  early_lag_tail_4_us,       lag / tail of the ranks that start in the
  late_lag_tail_4_us         earlier / later half of the spread, over the
                             iterations out of step
  wait_sim_us, error_pct     the replay's wait and iteration error of the
                             committed 2 -> 4 rank prediction CSV
                             (tools/halo_predict_x4.sh; medians there are
                             validate's, of rank 0)
  pack_kernel_4_us,          baseline / host, per rank (r0/r1/r2/r3): the GPU
  unpack_kernel_4_us         kernels whose name starts pack_ / unpack_
"""
import collections
import csv
import statistics
import sys

from trace_dump_lines import timed_iterations

RUNS = [
    ("12", "traces/real/2026-11-27_h100x4_run12/halo_median5_2rank",
     "traces/real/2026-11-27_h100x4_run12/halo_median5_4rank", "docs/halo_sim/x4_h100_run12.csv"),
    ("x4", "traces/real/2026-11-26_h200x2_run4/halo_detail",
     "traces/real/2026-11-26_h200x4_nvswitch/halo", "docs/halo_sim/x4_progress.csv"),
]
HOST_DRIVEN = ("baseline", "host")
# sa / ki are left out: their host-side `total` phase is the launch of the GPU
# front, which runs ahead of the data by whole iterations (sa box 16^3 at 2
# ranks on run 12: rank 1 165 µs, about 4 iterations, ahead of rank 0), so
# its start says nothing about a rank's place in the exchange.
CPU_PACED = HOST_DRIVEN + ("stream", "stacked")
IN_STEP_US = 20.0


def fail(msg):
    sys.exit("halo_x4_skew: " + msg)


def iterations(xferlab, path):
    """{iteration number: {"begin"/"end": {phase: t}, "sends": {dst: [t]},
    "kernels": {name up to its first '_': summed duration}}}
    of one rank's trace: the timed iterations (trace_dump_lines.timed_iterations)."""
    its = timed_iterations(xferlab, path, fail)
    for it in its.values():
        sends, kernels, begun = {}, {}, None
        for t, kind, d in it.pop("records"):
            if kind == "mpi_post" and d.get("op") == "isend":
                sends.setdefault(int(d["peer"]), []).append(t)
            elif kind == "kernel_begin":
                begun = t
            elif kind == "kernel_end" and begun is not None:
                name = d.get("kernel", "").split("_")[0]
                kernels[name] = kernels.get(name, 0) + t - begun
                begun = None
        it["sends"], it["kernels"] = sends, kernels
    return its


def med(v):
    return statistics.median(v) if v else float("nan")


def placement(xferlab, d, variant, size, ranks):
    """Medians of one placement (see the module doc)."""
    R = [iterations(xferlab, f"{d}/traces/{variant}_gpus{ranks}_{size}_rank{r}.xft.zst")
         for r in range(ranks)]
    common = sorted(set.intersection(*(set(x) for x in R)))
    spread, lag, wait, tail, late = [], [], [], [], collections.Counter()
    split = {g: ([], []) for g in ("early_lt", "late_lt")}  # lag, tail out of step
    for i in common:
        starts = [R[r][i]["begin"]["total"] for r in range(ranks)]
        lo, hi = min(starts), max(starts)
        spread.append((hi - lo) / 1e3)
        if (hi - lo) / 1e3 >= IN_STEP_US:
            late["".join(str(r) for r in range(ranks) if starts[r] - lo > (hi - lo) / 2)] += 1
        if variant not in HOST_DRIVEN:
            continue
        for r in range(ranks):
            it = R[r][i]
            w0, w1 = it["begin"]["wait_recv"], it["end"]["wait_recv"]
            last = max(t for p in range(ranks) if p != r for t in R[p][i]["sends"].get(r, []))
            lag.append((last - w0) / 1e3)
            wait.append((w1 - w0) / 1e3)
            tail.append((w1 - max(w0, last)) / 1e3)
            if (hi - lo) / 1e3 >= IN_STEP_US:
                g = split["late_lt" if starts[r] - lo > (hi - lo) / 2 else "early_lt"]
                g[0].append(lag[-1])
                g[1].append(tail[-1])
    kernels = {k: "/".join(f"{med([R[r][i]['kernels'].get(k, 0) / 1e3 for i in common]):.1f}"
                           for r in range(ranks)) for k in ("pack", "unpack")}
    in_step = sum(s < IN_STEP_US for s in spread)
    pattern = " ".join(f"{g} {n}" for g, n in late.most_common(1)) or "-"
    return {"spread": med(spread), "in_step": f"{in_step}/{len(spread)}", "late": pattern,
            "lag": med(lag), "wait": med(wait), "tail": med(tail), "kernels": kernels,
            **{g: f"{med(a):.1f}/{med(b):.1f}" for g, (a, b) in split.items()}}


def main():
    if len(sys.argv) < 2:
        fail("usage: halo_x4_skew.py XFERLAB [VARIANT:SIZE ...]")
    xferlab = sys.argv[1]
    only = set(sys.argv[2:])
    print("run,variant,size,spread_2_us,spread_4_us,in_step_4,late_4,lag_2_us,lag_4_us,"
          "wait_4_us,tail_4_us,early_lag_tail_4_us,late_lag_tail_4_us,wait_sim_us,error_pct,"
          "pack_kernel_4_us,unpack_kernel_4_us")
    for run, two, four, pred in RUNS:
        try:
            with open(pred, newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            fail(f"{pred}: {e.strerror}")
        for row in rows:
            variant, size = row["variant"], row["size"]
            if variant not in CPU_PACED or (only and f"{variant}:{size}" not in only):
                continue
            a = placement(xferlab, two, variant, size, 2)
            b = placement(xferlab, four, variant, size, 4)
            cols = [f"{a['spread']:.1f}", f"{b['spread']:.1f}", b["in_step"], b["late"]]
            if variant in HOST_DRIVEN:
                cols += [f"{a['lag']:.1f}", f"{b['lag']:.1f}", f"{b['wait']:.1f}",
                         f"{b['tail']:.1f}", b["early_lt"], b["late_lt"],
                         f"{float(row['wait_sim_us']):.1f}"]
            else:
                cols += [""] * 7
            kernels = [b["kernels"][k] if variant in HOST_DRIVEN else ""
                       for k in ("pack", "unpack")]
            print(",".join([run, variant, size] + cols + [f"{float(row['error_pct']):+.1f}"] +
                           kernels))


if __name__ == "__main__":
    main()
