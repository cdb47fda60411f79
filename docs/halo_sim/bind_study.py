#!/usr/bin/env python3
"""docs/halo_sim/bind_study.py [--plot PNG] [RUN_DIR...] — launch-to-launch spread of the
halo / GDA measurements per protocol (docs/halo_sim_log.md, "Runs 9 and 10").

For each run directory (or halo_median5* folder; default: the 2x H100 runs 9, unbound ranks, and 10,
ranks bound to 4 cores each, recorded alternately on one lease) reads
halo_median5/repeats.csv (tools/halo_median_repeat.py: every repeat's
iteration_wall average per configuration) and prints, per run: the spread
(max - min) / median per configuration (median and max over configurations),
each launch's |deviation| from its configuration's median (median, 90th
percentile, max) and how many launches are more than 10 % away. With
--plot PNG, also draws each run's launches as a cumulative distribution of
that deviation (gnuplot; docs/halo_sim/bind_study.png).
"""
import collections
import csv
import os
import statistics
import sys
import tempfile

from gnuplot import run_gnuplot

DEFAULT = ["traces/real/2026-11-27_h100x2_run9", "traces/real/2026-11-27_h100x2_run10"]


def spread(run_dir):
    path = os.path.join(run_dir, "repeats.csv")  # a halo_median5* folder itself
    if not os.path.exists(path):
        path = os.path.join(run_dir, "halo_median5", "repeats.csv")
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError as e:
        sys.exit(f"bind_study: {path}: {e.strerror}")
    by = collections.defaultdict(list)
    for i, r in enumerate(rows, start=2):
        try:
            by[(r["variant"], r["label"])].append(float(r["iteration_wall_avg_ns"]))
        except (KeyError, ValueError):
            sys.exit(f"bind_study: {path}: line {i}: no numeric iteration_wall_avg_ns")
    spreads, devs = [], []
    for values in by.values():
        m = statistics.median(values)
        spreads.append(100 * (max(values) - min(values)) / m)
        devs += [100 * abs(v / m - 1) for v in values]
    devs.sort()
    return (len(by), len(devs), statistics.median(spreads), max(spreads), statistics.median(devs),
            devs[int(0.9 * len(devs))], devs[-1], sum(d > 10 for d in devs)), devs


def name_of(run):
    return os.path.relpath(run, "traces/real") if run.startswith("traces/real/") else run


def plot(png, curves):
    """curves: (name, sorted deviations %) per run -> a CDF per run in png."""
    with tempfile.TemporaryDirectory() as tmp:
        script = [
            f"set terminal pngcairo size 800,480 font ',10'; set output '{png}'",
            "set xlabel 'launch |deviation| from its configuration median (%, log)'",
            "set ylabel 'fraction of launches'; set logscale x; set xrange [0.1:300]",
            "set yrange [0:1]; set grid; set key bottom right",
            "set title 'Launch-to-launch spread (medians of 5; the launches at 0 are the medians)'",
            "set arrow from 10, graph 0 to 10, graph 1 nohead dashtype 2",
        ]
        plots = []
        for i, (name, devs) in enumerate(curves):
            data = os.path.join(tmp, f"{i}.dat")
            with open(data, "w") as f:
                for k, d in enumerate(devs, start=1):
                    f.write(f"{max(d, 0.1)} {k / len(devs)}\n")
            plots.append(f"'{data}' using 1:2 with steps lw 2 title '{name}' noenhanced")
        script.append("plot " + ", ".join(plots))
        run_gnuplot("bind_study", png, script)


def main():
    args = sys.argv[1:]
    png = None
    if args[:1] == ["--plot"]:
        if len(args) < 2:
            sys.exit("bind_study: --plot needs a PNG path")
        png, args = args[1], args[2:]
    runs = args or DEFAULT
    print("| run | configurations | launches | spread median % | spread max % "
          "| abs dev median % | abs dev p90 % | abs dev max % | launches > 10 % |")
    print("|---|---|---|---|---|---|---|---|---|")
    curves = []
    for run in runs:
        (n, k, sm, sx, dm, d9, dx, over), devs = spread(run)
        curves.append((name_of(run), devs))
        print(f"| {name_of(run)} | {n} | {k} | {sm:.1f} | {sx:.1f} | {dm:.1f} "
              f"| {d9:.1f} | {dx:.1f} | {over} |")
    if png:
        plot(png, curves)


if __name__ == "__main__":
    main()
