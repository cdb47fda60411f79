#!/usr/bin/env python3
"""tools/halo_bound_oracle.py [VALIDATION_CSV...] — is issue #15's bound out of
reach of any model that predicts a held-out size from its fitted ends?
(docs/halo_sim_log.md, "The bound: noise floor or model bias").

For each held-out variant and size of `xferlab validate`'s halo CSVs (one
per median-of-5 2-rank run), the best **in-hindsight** end interpolation:
ln T_held = ln T_lo + w (ln T_hi - ln T_lo) + c, with w in [0, 1] (a grid of
1001) and c chosen over all runs together to minimise the largest
|error| (minimax; c is then the midpoint of the residuals' range). T are the
measured iteration times (`measured_us`) of the run's own fitted ends lo /
hi (the nearest fitted sizes below and above) and of the held-out size.
Two constants per variant and size, fitted on the held-out rows themselves,
so the value is optimistic; it is not a bound on every possible model. What
it shows: where it is under 10 %, the runs' own end times already place the
held-out time within the bound's max on every lease, so lease-to-lease
noise alone does not force a miss there, and a larger max of the model is
its bias (or structure the interpolation lacks), not the measurement's.
Prints one row per variant and size: runs, w, c, the oracle's max |error| %
and the default model's median / max |error| % from the same CSVs.
Default CSVs: the fifteen median-of-5 2-rank runs of the bound
(docs/halo_sim/bound_runs6_to_24.txt). A missing or malformed CSV is a
one-line error, exit 1.
"""
import csv
import math
import os
import statistics
import sys

DEFAULT = ["validation_run6", "validation_run9", "validation_run11", "validation_run12_2rank",
           "validation_run13_2rank", "validation_run14", "validation_run15",
           "validation_run17_2rank", "validation_run18_2rank", "validation_run19",
           "validation_run20_2rank", "validation_run21", "validation_run22_2rank",
           "validation_run23_2rank", "validation_run24_2rank"]


def fail(msg):
    sys.exit("halo_bound_oracle: " + msg)


def load(paths):
    data = {}  # variant -> run -> size -> (measured_us, set, error_pct)
    for path in paths:
        try:
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            fail(f"{path}: {e.strerror}")
        for i, r in enumerate(rows, start=2):
            try:
                data.setdefault(r["variant"], {}).setdefault(path, {})[r["size"]] = (
                    float(r["measured_us"]), r["set"], float(r["error_pct"]))
            except (KeyError, TypeError, ValueError):
                fail(f"{path}:{i}: needs variant, size, set, measured_us, error_pct")
    return data


def edge(size):
    return int(size.replace("box", ""))


def oracle(points):
    """(max |error| %, w, c) of the minimax end interpolation over points
    (ln lo, ln hi, ln held)."""
    best = None
    for k in range(1001):
        w = k / 1000
        res = [y - (a + w * (b - a)) for a, b, y in points]
        half = (max(res) - min(res)) / 2
        if best is None or half < best[0]:
            best = (half, w, (max(res) + min(res)) / 2)
    half, w, c = best
    return 100 * (math.exp(half) - 1), w, c


def main():
    paths = sys.argv[1:] or [os.path.join(os.path.dirname(__file__), "..", "docs", "halo_sim", n + ".csv")
                             for n in DEFAULT]
    data = load(paths)
    print("variant,size,runs,w,c,oracle_max_abs_error_pct,model_median_abs_error_pct,"
          "model_max_abs_error_pct")
    for variant in sorted(data):
        runs = data[variant]
        sizes = set.intersection(*(set(d) for d in runs.values()))
        for held in sorted(s for s in sizes if all(d[s][1] == "held-out" for d in runs.values())):
            box = held.startswith("box")
            fitted = [s for s in sizes if s.startswith("box") == box
                      and all(d[s][1] == "fitted" for d in runs.values())]
            below = [s for s in fitted if edge(s) < edge(held)]
            above = [s for s in fitted if edge(s) > edge(held)]
            if not below or not above:
                continue
            lo, hi = max(below, key=edge), min(above, key=edge)
            pts = [(math.log(d[lo][0]), math.log(d[hi][0]), math.log(d[held][0]))
                   for d in runs.values()]
            err, w, c = oracle(pts)
            model = [abs(d[held][2]) for d in runs.values()]
            print(f"{variant},{held},{len(pts)},{w:.3f},{c:+.4f},{err:.1f},"
                  f"{statistics.median(model):.2f},{max(model):.1f}")


if __name__ == "__main__":
    main()
