#!/usr/bin/env python3
"""docs/halo_sim/heldout_plot.py PNG [ROOT] — the frozen model's held-out
errors on the runs recorded after it (docs/halo_sim.md, "At a glance"), one
point per case, from the committed golden CSVs under ROOT (default: the
repository): held-out sizes at 2 ranks (runs 13, 14, 15, 17), at 4 ranks on
their own fit (13, 16, 17), and 4 ranks predicted from 2-rank traces alone
(13 and 17 from their own 2-rank medians, 16 from run 15's). Prints each group's case
count, median and max |error| and draws the PNG (gnuplot) with the ±5 % and
±10 % lines of issue #15's bound.
"""
import csv
import os
import statistics
import sys
import tempfile

from gnuplot import run_gnuplot

GROUPS = [
    ("2 ranks, held-out sizes",
     ["validation_run13_2rank.csv", "validation_run14.csv", "validation_run15.csv",
      "validation_run17_2rank.csv"]),
    ("4 ranks, own fit, held-out sizes",
     ["validation_run13_4rank.csv", "validation_run16_4rank.csv", "validation_run17_4rank.csv"]),
    ("2 -> 4 ranks from 2-rank traces",
     ["x4_h100_run13.csv", "x4_h200_run16_from_run15.csv", "x4_h200_run17.csv"]),
]


def fail(msg):
    sys.exit("heldout_plot: " + msg)


def errors(path):
    """(variant size, error %) of the rows whose set is held-out."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    out = []
    for i, r in enumerate(rows, start=2):
        if r.get("set") != "held-out":
            continue
        try:
            out.append((f"{r['variant']} {r['size']}", float(r["error_pct"])))
        except (KeyError, TypeError, ValueError):
            fail(f"{path}: line {i}: no numeric error_pct")
    if not out:
        fail(f"{path}: no held-out rows")
    return out


def main():
    if len(sys.argv) not in (2, 3) or not sys.argv[1].endswith(".png"):
        fail("usage: heldout_plot.py PNG [ROOT]")
    png = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(__file__), "..", "..")
    with tempfile.TemporaryDirectory() as tmp:
        plots, x = [], 0
        for g, (name, files) in enumerate(GROUPS):
            pts = [e for f in files for _, e in errors(os.path.join(root, "docs", "halo_sim", f))]
            a = [abs(e) for e in pts]
            print(f"{name}: {len(pts)} cases, median |error| {statistics.median(a):.1f} %, "
                  f"max {max(a):.1f} %, > 10 %: {sum(v > 10 for v in a)}")
            data = os.path.join(tmp, f"{g}.dat")
            with open(data, "w") as f:
                for e in sorted(pts):
                    x += 1
                    f.write(f"{x} {e}\n")
            x += 4  # a gap between groups
            plots.append(f"'{data}' using 1:2 with points pt 7 ps 0.8 title '{name} ({len(pts)})' noenhanced")
        script = [
            f"set terminal pngcairo size 800,420 font ',10'; set output '{png}'",
            "set ylabel 'error % (replay vs median of 5 launches)'; unset xtics",
            "set title 'Held-out errors of the model frozen at 8bd5cd2, runs 13-17 (each group sorted)'",
            "set grid ytics; set key bottom right; set yrange [-35:20]",
            "set arrow from graph 0, first 10 to graph 1, first 10 nohead dashtype 2",
            "set arrow from graph 0, first -10 to graph 1, first -10 nohead dashtype 2",
            "set arrow from graph 0, first 5 to graph 1, first 5 nohead dashtype 3 lc rgb 'gray'",
            "set arrow from graph 0, first -5 to graph 1, first -5 nohead dashtype 3 lc rgb 'gray'",
            "plot " + ", ".join(plots),
        ]
        run_gnuplot("heldout_plot", png, script)


if __name__ == "__main__":
    main()
