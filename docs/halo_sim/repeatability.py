#!/usr/bin/env python3
"""Run-to-run spread of the 2-rank halo / GDA measurements and what it allows
a prediction to reach (issue #15's bound: per held-out variant and size,
median |error| <= 5 %, max <= 10 % over the runs).

Reads validate's CSVs of the five 2x H200 runs (docs/halo_sim_log.md, "Run-to-run
variation and the bound"): runs 1 / 2 (validation.csv), run 4
(validation_2026-11-26.csv) and the two repeats of run 5 on one lease
(validation_run5a.csv, validation_run5b.csv). For every variant and size held
out in any run it prints

* the spread of the measured value (validate's trace median) over the runs,
* the error of a "repeat" predictor that knows every other run's measurement
  of the same configuration and predicts their median: no model can be
  expected to beat it, since it uses the case's own size measured again;
  its error is the floor a deterministic prediction meets on one run,
* the model's held-out error in each run (validate's error_pct).

usage: docs/halo_sim/repeatability.py [--markdown]
"""
import csv
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["validation.csv", "validation_2026-11-26.csv", "validation_run5a.csv",
         "validation_run5b.csv"]
RUNS = ["2026-11-22_h200x2", "2026-11-22_h200x2_run2", "2026-11-26_h200x2_run4",
        "2026-11-26_h200x2_run5a", "2026-11-26_h200x2_run5b"]


def load():
    rows = {}
    for name in FILES:
        with open(os.path.join(HERE, name)) as f:
            for r in csv.DictReader(f):
                if r["run"] in RUNS:
                    rows[(r["run"], r["variant"], r["size"])] = r
    return rows


def main():
    rows = load()
    keys = sorted({(v, s) for (run, v, s), r in rows.items() if r["set"] == "held-out"})
    md = "--markdown" in sys.argv
    head = ["variant", "size", "runs", "measured min-max us", "spread %",
            "repeat predictor |err| median / max %", "model |err| median / max %",
            "model error per run %"]
    if md:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print(",".join(head))
    floor_max, model_max = [], []
    for v, s in keys:
        runs = [run for run in RUNS if (run, v, s) in rows]
        meas = [float(rows[(run, v, s)]["measured_us"]) for run in runs]
        rep = []
        for i, m in enumerate(meas):
            others = meas[:i] + meas[i + 1:]
            rep.append(abs(statistics.median(others) - m) / m * 100)
        model = [float(rows[(run, v, s)]["error_pct"]) for run in runs
                 if rows[(run, v, s)]["set"] == "held-out"]
        spread = (max(meas) - min(meas)) / min(meas) * 100
        floor_max.append(max(rep))
        model_max.append(max(abs(e) for e in model))
        cells = [v, s, str(len(runs)), "%.1f-%.1f" % (min(meas), max(meas)), "%.1f" % spread,
                 "%.1f / %.1f" % (statistics.median(rep), max(rep)),
                 "%.1f / %.1f" % (statistics.median([abs(e) for e in model]),
                                  max(abs(e) for e in model)),
                 " / ".join("%+.1f" % e for e in model)]
        print(("| " + " | ".join(cells) + " |") if md else ",".join(cells))
    over = sum(x > 10 for x in floor_max)
    print("\nheld-out variant/size cases: %d; repeat predictor max |err| > 10 %%: %d; "
          "model max |err| > 10 %%: %d" % (len(keys), over, sum(x > 10 for x in model_max)))


if __name__ == "__main__":
    main()
