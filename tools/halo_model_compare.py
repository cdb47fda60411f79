#!/usr/bin/env python3
"""Compare two halo models' committed outputs (docs/halo_sim_log.md, "Engine cost
from the host-driven variants (landed 2026-11-27)"): the held-out summary per
run and over run sets, the validate rows that moved, and the 4-rank
prediction (x4_progress.csv) per group and per row.

usage: tools/halo_model_compare.py BEFORE_DIR AFTER_DIR

Each DIR holds validation.csv, validation_2026-11-26.csv, validation_run6.csv
and x4_progress.csv as written by the commands in
tests/halo_validate_golden_test.sh and tools/halo_predict_x4.sh, e.g.

  mkdir -p /tmp/before && for f in validation.csv validation_2026-11-26.csv \\
      validation_run6.csv x4_progress.csv; do
    git show e1deffa:docs/halo_sim/$f > /tmp/before/$f; done
  tools/halo_model_compare.py /tmp/before docs/halo_sim
"""
import csv
import statistics
import sys

VALIDATE = ["validation.csv", "validation_2026-11-26.csv", "validation_run6.csv"]
RUNS = {"2026-11-22_h200x2": "1", "2026-11-22_h200x2_run2": "2",
        "2026-11-26_h200x2_run4": "4", "2026-11-27_h200x2_run6": "6",
        "2026-11-26_h200x4_nvswitch": "x4 (own fit)"}
X4_GROUPS = [
    ("all", lambda r: True),
    ("baseline + host, cubes", lambda r: r["variant"] in ("baseline", "host") and "box" not in r["size"]),
    ("stream + stacked", lambda r: r["variant"] in ("stream", "stacked")),
    ("host boxes", lambda r: r["variant"] == "host" and "box" in r["size"]),
    ("sa", lambda r: r["variant"] == "sa"),
    ("ki", lambda r: r["variant"] == "ki"),
]


def rows(d, names):
    out = []
    for n in names:
        with open(f"{d}/{n}", newline="") as f:
            out += list(csv.DictReader(f))
    return out


def summary(errors, mean_signed=False):
    a = [abs(e) for e in errors]
    s = f"{statistics.median(a):.1f} / {sum(a) / len(a):.2f} / {max(a):.1f}"
    if mean_signed:
        s = f"{statistics.median(a):.1f} / {max(a):.1f}, {sum(errors) / len(errors):+.1f}"
    return s + f", {sum(x > 10 for x in a)}"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    b, a = rows(before, VALIDATE), rows(after, VALIDATE)
    held = lambda rs, runs: [float(r["error_pct"]) for r in rs
                             if r["set"] == "held-out" and RUNS[r["run"]] in runs]
    print("| runs | held-out cases | before: median / mean / max abs %, > 10 % | after |")
    print("|---|---|---|---|")
    for runs in (["1"], ["2"], ["4"], ["6"], ["1", "2", "4", "6"], ["4", "6"], ["x4 (own fit)"]):
        e0, e1 = held(b, runs), held(a, runs)
        print(f"| {' + '.join(runs)} | {len(e1)} | {summary(e0)} | {summary(e1)} |")
    print("\n| run | variant | size | set | measured µs | before % | after % |")
    print("|---|---|---|---|---|---|---|")
    old = {(r["run"], r["variant"], r["size"]): r for r in b}
    for r in a:
        o = old[(r["run"], r["variant"], r["size"])]
        e0, e1 = float(o["error_pct"]), float(r["error_pct"])
        if abs(e1 - e0) > 0.05:
            print(f"| {RUNS[r['run']]} | {r['variant']} | {r['size']} | {r['set']} | "
                  f"{float(r['measured_us']):.1f} | {e0:+.1f} | {e1:+.1f} |")
    xb, xa = rows(before, ["x4_progress.csv"]), rows(after, ["x4_progress.csv"])
    print("\n| 4-rank cases | before: median / max abs %, mean %, > 10 % | after |")
    print("|---|---|---|")
    for name, keep in X4_GROUPS:
        e0 = [float(r["error_pct"]) for r in xb if keep(r)]
        e1 = [float(r["error_pct"]) for r in xa if keep(r)]
        print(f"| {name} ({len(e1)}) | {summary(e0, True)} | {summary(e1, True)} |")
    print("\n| variant | size | set | measured 4 ranks µs | before µs / % | after µs / % | wait meas / before / after µs |")
    print("|---|---|---|---|---|---|---|")
    old = {(r["variant"], r["size"]): r for r in xb}
    for r in xa:
        o = old[(r["variant"], r["size"])]
        moved = abs(float(r["error_pct"]) - float(o["error_pct"])) > 0.05
        cell = f"{float(r['predicted_us']):.1f} / {float(r['error_pct']):+.1f}"
        wait = "–" if not r["wait_meas_us"] else (
            f"{float(r['wait_meas_us']):.1f} / {float(o['wait_sim_us']):.1f} / {float(r['wait_sim_us']):.1f}")
        print(f"| {r['variant']} | {r['size']} | {r['set']} | {float(r['measured_us']):.1f} | "
              f"{float(o['predicted_us']):.1f} / {float(o['error_pct']):+.1f} | "
              f"{'**' + cell + '**' if moved else cell} | {wait} |")


if __name__ == "__main__":
    main()
