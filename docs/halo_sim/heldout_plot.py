#!/usr/bin/env python3
"""docs/halo_sim/heldout_plot.py PNG [ROOT] — the frozen model's held-out
errors on the runs recorded after it (docs/halo_sim.md, "At a glance"), one
point per case, from the committed golden CSVs under ROOT (default: the
repository): held-out sizes at 2 ranks (runs 13, 14, 15, 17-28; 400^3 and
box 32^3), the sizes 300^3 / 600^3 never measured before (runs 26-28), at 4
ranks on their own fit (13, 16, 17, 18, 20, 22, 23), at 3 ranks on their own
fit (23, 24), and 4 ranks predicted from 2-rank traces alone
(13 and 17 from their own 2-rank medians, 16 from run 15's; the model
without the machine calibration, x4_calibration.csv's uncalibrated column),
and the 2 -> 4 predictions with the machine calibration of the on-node MPI
step, leave-one-run-out cross-validated on the five sets (revised after
seeing; "2 -> 4 ranks from a machine calibration"), and the calibrated
predictions of runs 18, 20, 22 and 23, sealed until the calibration was fitted
(held-out; "Runs 18 and 19", "Runs 20 and 21", "Run 22", "Run 23"), and the
calibrated 2 -> 3 predictions of runs 23 and 24 ("Run 24"). Prints each group's case
count, median and max |error| and draws the PNG (gnuplot) with the ±5 % and
±10 % lines of issue #15's bound.
"""
import csv
import os
import statistics
import sys
import tempfile

from gnuplot import run_gnuplot

HELD_OUT = ("set", {"held-out"}, "error_pct")  # validate CSVs: held-out rows
NEW_SIZES = {"300", "600"}  # runs 26-33 (HALO_SIZES): their own group
PAPER_HELD_OUT = HELD_OUT + (lambda size: size not in NEW_SIZES,)
NEW_HELD_OUT = HELD_OUT + (lambda size: size in NEW_SIZES,)
X4 = "x4_calibration.csv"  # tools/halo_x4_calibration.py: per set, both predictions
# name, files, (selecting column, its values, error column)
GROUPS = [
    ("2 ranks, held-out sizes",
     ["validation_run13_2rank.csv", "validation_run14.csv", "validation_run15.csv",
      "validation_run17_2rank.csv", "validation_run18_2rank.csv", "validation_run19.csv",
      "validation_run20_2rank.csv", "validation_run21.csv", "validation_run22_2rank.csv",
      "validation_run23_2rank.csv", "validation_run24_2rank.csv", "validation_run25.csv",
      "validation_run26.csv", "validation_run27.csv", "validation_run28.csv",
      "validation_run29.csv", "validation_run30.csv", "validation_run31.csv",
      "validation_run32.csv"], PAPER_HELD_OUT),
    ("2 ranks, sizes never measured before (300, 600)",
     ["validation_run26.csv", "validation_run27.csv", "validation_run28.csv",
      "validation_run29.csv", "validation_run30.csv", "validation_run31.csv",
      "validation_run32.csv"], NEW_HELD_OUT),
    ("4 ranks, own fit, held-out sizes",
     ["validation_run13_4rank.csv", "validation_run16_4rank.csv", "validation_run17_4rank.csv",
      "validation_run18_4rank.csv", "validation_run20_4rank.csv", "validation_run22_4rank.csv",
      "validation_run23_4rank.csv", "validation_run33_4rank.csv"], HELD_OUT),
    ("3 ranks, own fit, held-out sizes",
     ["validation_run23_3rank.csv", "validation_run24_3rank.csv"], HELD_OUT),
    ("2 -> 4 ranks from 2-rank traces",
     [X4], ("set", {"run13", "run16", "run17"}, "error_uncalibrated_pct")),
    ("2 -> 4 ranks, machine calibration, cross-validated",
     [X4], ("set", {"x4", "run12", "run13", "run16", "run17"}, "error_cross_validated_pct")),
    ("2 -> 4 ranks, machine calibration, sealed runs 18, 20, 22, 23, 33",
     ["x4_h200_run18.csv", "x4_h100_run20.csv", "x4_h100_run22.csv", "x4_h200_run23_2to4_cal.csv",
      "x4_h200_run33_from_run32.csv"],
     HELD_OUT),
    ("2 -> 3 ranks, machine calibration, sealed runs 23, 24",
     ["x4_h200_run23_2to3_cal.csv", "x4_h200_run24_2to3_cal.csv"], HELD_OUT),
]


# One colour per group, told apart in print (gnuplot's fifth default is a pale yellow).
COLORS = ["#9400d3", "#000000", "#009e73", "#0072b2", "#56b4e9", "#e69f00", "#d62728", "#cc79a7"]


def fail(msg):
    sys.exit("heldout_plot: " + msg)


def errors(path, select):
    """(variant size, error %) of the rows select = (column, values, error column[,
    size filter]) picks."""
    column, values, error = select[:3]
    size_ok = select[3] if len(select) > 3 else (lambda size: True)
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    out = []
    for i, r in enumerate(rows, start=2):
        if r.get(column) not in values or not size_ok(r.get("size")):
            continue
        try:
            out.append((f"{r['variant']} {r['size']}", float(r[error])))
        except (KeyError, TypeError, ValueError):
            fail(f"{path}: line {i}: no numeric {error}")
    if not out:
        fail(f"{path}: no rows of {column} {'/'.join(sorted(values))}")
    return out


def main():
    if len(sys.argv) not in (2, 3) or not sys.argv[1].endswith(".png"):
        fail("usage: heldout_plot.py PNG [ROOT]")
    png = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(__file__), "..", "..")
    with tempfile.TemporaryDirectory() as tmp:
        plots, x = [], 0
        for g, (name, files, select) in enumerate(GROUPS):
            pts = [e for f in files
                   for _, e in errors(os.path.join(root, "docs", "halo_sim", f), select)]
            a = [abs(e) for e in pts]
            print(f"{name}: {len(pts)} cases, median |error| {statistics.median(a):.1f} %, "
                  f"max {max(a):.1f} %, > 10 %: {sum(v > 10 for v in a)}")
            data = os.path.join(tmp, f"{g}.dat")
            with open(data, "w") as f:
                for e in sorted(pts):
                    x += 1
                    f.write(f"{x} {e}\n")
            x += 4  # a gap between groups
            plots.append(f"'{data}' using 1:2 with points pt 7 ps 0.8 lc rgb '{COLORS[g % len(COLORS)]}' "
                         f"title '{name} ({len(pts)})' noenhanced")
        script = [
            f"set terminal pngcairo size 800,560 font ',10'; set output '{png}'",
            "set ylabel 'error % (replay vs median of 5 or 10 launches)'; unset xtics",
            "set title 'Held-out errors (model 8bd5cd2 + machine calibration + pair mix, runs 13-28; "
            "each group sorted)' noenhanced",
            "set grid ytics; set key below left Left reverse; set yrange [-35:20]; set offsets 0, 3, 0, 0",
            "set arrow from graph 0, first 10 to graph 1, first 10 nohead dashtype 2",
            "set arrow from graph 0, first -10 to graph 1, first -10 nohead dashtype 2",
            "set arrow from graph 0, first 5 to graph 1, first 5 nohead dashtype 3 lc rgb 'gray'",
            "set arrow from graph 0, first -5 to graph 1, first -5 nohead dashtype 3 lc rgb 'gray'",
            "plot " + ", ".join(plots),
        ]
        run_gnuplot("heldout_plot", png, script)


if __name__ == "__main__":
    main()
