#!/usr/bin/env python3
"""tools/halo_ab_noise.py [ALL.csv A.csv B.csv]... — how far apart are two
medians of 5 launches of one lease? (docs/halo_sim_log.md, "Runs 25 and 26").

Each triple is one run's `xferlab validate --format csv` output for the
median of all its launches (ALL) and for the medians of its odd (A) and even
(B) launches, each replayed with its own fitted ends. Prints, per held-out
row, the model's error against A and B and their difference e_A - e_B (in
points), then per run and over all runs the median and max |e_A - e_B| of the
held-out rows, and the median and max of |T_A - T_B| / T_ALL (%) of the
measured iteration times of every configuration (fitted and held-out).
Default: runs 25 and 26 (docs/halo_sim/validation_run{25,26}{,A,B}.csv). A
missing or malformed CSV, or A / B rows that do not match ALL's, is a
one-line error, exit 1.
"""
import os
import statistics
import sys

from halo_validation_csv import read_rows


def fail(msg):
    sys.exit("halo_ab_noise: " + msg)


def load(path):
    out = {(v, s): (set_, m, e) for v, s, set_, m, e in read_rows(path, fail)}
    if not out:
        fail(f"{path}: no rows")
    return out


def summary(name, values):
    return f"{name}: median {statistics.median(values):.1f}, max {max(values):.1f} ({len(values)})"


def main():
    args = sys.argv[1:]
    if not args:
        d = os.path.join(os.path.dirname(__file__), "..", "docs", "halo_sim")
        args = [os.path.join(d, f"validation_run{r}{h}.csv") for r in (25, 26) for h in ("", "A", "B")]
    if len(args) % 3:
        fail("give CSVs in triples ALL A B")
    triples = []  # every CSV read and checked before anything is printed
    for k in range(0, len(args), 3):
        full, a, b = (load(p) for p in args[k:k + 3])
        for p, h in ((args[k + 1], a), (args[k + 2], b)):
            if set(h) != set(full) or any(h[c][0] != full[c][0] for c in full):
                fail(f"{p}: its variant/size/set rows differ from {args[k]}'s")
        triples.append((os.path.basename(args[k]).removesuffix(".csv"), full, a, b))
    diffs_all, spreads_all, per_run = [], [], []
    print("run,variant,size,error_A_pct,error_B_pct,diff_pts")
    for run, full, a, b in triples:
        diffs, spreads = [], []
        for c in sorted(full):
            spreads.append(100 * abs(a[c][1] - b[c][1]) / full[c][1])
            if full[c][0] != "held-out":
                continue
            d = a[c][2] - b[c][2]
            diffs.append(abs(d))
            print(f"{run},{c[0]},{c[1]},{a[c][2]:+.1f},{b[c][2]:+.1f},{d:+.1f}")
        per_run.append((run, diffs, spreads))
        diffs_all += diffs
        spreads_all += spreads
    for run, diffs, spreads in per_run:
        print(f"# {run}: " + summary("|e_A - e_B| held-out, pts", diffs) + "; "
              + summary("|T_A - T_B| / T, %", spreads))
    print("# all: " + summary("|e_A - e_B| held-out, pts", diffs_all) + "; "
          + summary("|T_A - T_B| / T, %", spreads_all))


if __name__ == "__main__":
    main()
