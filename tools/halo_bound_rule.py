#!/usr/bin/env python3
"""Checks (a)-(d) of a 2-rank interpolation change's rule (docs/halo_sim_log.md,
"Sa / ki 400^3: the front is surface work, the residual volume work"): two
folders of validate CSVs, the model before and after, each written by the
commands in tests/halo_validate_golden_test.sh under the golden names.

usage: tools/halo_bound_rule.py BEFORE_DIR AFTER_DIR

Prints, per held-out (variant, size) of the eight median-of-5 2-rank runs,
each run's error before -> after, the median / max |error| and issue #15's
bound (median <= 5 %, max <= 10 %); the single-launch runs 1, 2, 4 (report
only); every fitted row that moves; the 4-rank own-fit held-out median per
run. The 2 -> 4 predictions are checked by their golden tests.
"""
import csv
import os
import statistics
import sys

MEDIAN5 = [("6", "validation_run6.csv"), ("9", "validation_run9.csv"),
           ("11", "validation_run11.csv"), ("12", "validation_run12_2rank.csv"),
           ("13", "validation_run13_2rank.csv"), ("14", "validation_run14.csv"),
           ("15", "validation_run15.csv"), ("17", "validation_run17_2rank.csv")]
SINGLE = {"2026-11-22_h200x2": "1", "2026-11-22_h200x2_run2": "2",
          "2026-11-26_h200x2_run4": "4"}
FOUR = [("x4", "validation_2026-11-26.csv", "2026-11-26_h200x4_nvswitch"),
        ("12", "validation_run12_4rank.csv", None), ("13", "validation_run13_4rank.csv", None),
        ("16", "validation_run16_4rank.csv", None), ("17", "validation_run17_4rank.csv", None)]


COLUMNS = ("run", "variant", "size", "set", "error_pct")


def rows(folder, name, run=None):
    """FOLDER/NAME's rows (run `run`'s, or all); a missing file or column, or an
    error_pct that is not a number, exits with one line naming it."""
    path = os.path.join(folder, name)
    try:
        with open(path) as f:
            reader = csv.DictReader(f)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                sys.exit(f"halo_bound_rule: {path}: no column {missing[0]}")
            out = []
            for r in reader:
                try:
                    float(r["error_pct"])
                except (TypeError, ValueError):
                    sys.exit(f"halo_bound_rule: {path}:{reader.line_num}: error_pct "
                             f"'{r['error_pct']}' is not a number")
                if run is None or r["run"] == run:
                    out.append(r)
            return out
    except OSError as e:
        sys.exit(f"halo_bound_rule: {path}: {e.strerror}")


def paired(before, after, names, run=None):
    """The rows of NAMES in BEFORE and in AFTER side by side: the same cases
    (run, variant, size, set) in the same order, else exits with one line."""
    r0s = [r for name in names for r in rows(before, name, run)]
    r1s = [r for name in names for r in rows(after, name, run)]
    key = lambda r: (r["run"], r["variant"], r["size"], r["set"])
    if [key(r) for r in r0s] != [key(r) for r in r1s]:
        sys.exit(f"halo_bound_rule: {', '.join(names)}: {before} and {after} do not hold the "
                 "same cases in the same order")
    return list(zip(r0s, r1s))


def err(r):
    return float(r["error_pct"])


def bound(table):
    """table: {(variant, size): [errors]} -> {(variant, size): (median, max, met)}."""
    out = {}
    for k, es in table.items():
        a = [abs(e) for e in es]
        med, mx = statistics.median(a), max(a)
        out[k] = (med, mx, med <= 5 and mx <= 10)
    return out


def main(before, after):
    tables = []
    for folder in (before, after):
        t = {}
        for _, name in MEDIAN5:
            for r in rows(folder, name):
                if r["set"] == "held-out":
                    t.setdefault((r["variant"], r["size"]), []).append(err(r))
        tables.append(t)
    b0, b1 = bound(tables[0]), bound(tables[1])
    print("held-out, runs " + " / ".join(n for n, _ in MEDIAN5) + " (median of 5): error % before -> after")
    worse = []
    for k in sorted(b0):
        e0 = " / ".join(f"{e:+.1f}" for e in tables[0][k])
        e1 = " / ".join(f"{e:+.1f}" for e in tables[1][k])
        m0, x0, ok0 = b0[k]
        m1, x1, ok1 = b1[k]
        print(f"{k[0]} {k[1]}: {e0} -> {e1}; median {m0:.2f} -> {m1:.2f}, max {x0:.1f} -> {x1:.1f}, "
              f"{'met' if ok0 else 'not met'} -> {'met' if ok1 else 'not met'}")
        if m1 > m0 + 0.5 or (x1 > 10 and x0 <= 10):
            worse.append(k)
    met0 = sum(v[2] for v in b0.values())
    met1 = sum(v[2] for v in b1.values())
    print(f"(a) bound met for {met0} -> {met1} of {len(b0)}")
    print("(b) rows up > 0.5 point in median or newly > 10 %: "
          + (", ".join(f"{v} {s}" for v, s in worse) or "none") + " (the two bound rows included if listed)")
    for folder, label in ((before, "before"), (after, "after")):
        hs = []
        for _, name in MEDIAN5:
            hs += [abs(err(r)) for r in rows(folder, name) if r["set"] == "held-out"]
        print(f"    72 held-out cases {label}: median {statistics.median(hs):.2f} %, "
              f"mean {statistics.mean(hs):.2f} %, max {max(hs):.1f} %, > 10 %: {sum(h > 10 for h in hs)}")
    moved = 0
    names = [n for _, n in MEDIAN5] + ["validation.csv", "validation_2026-11-26.csv"] + \
        [n for _, n, _ in FOUR[1:]]
    for name in names:
        for r0, r1 in paired(before, after, [name]):
            if r0["set"] == "fitted" and abs(err(r1) - err(r0)) > 1e-6:
                moved += 1
                print(f"(c) fitted {r0['run']} {r0['variant']} {r0['size']}: {err(r0):+.2f} -> {err(r1):+.2f}")
    print(f"(c) fitted rows that move: {moved}")
    print("single launches (report only), held-out rows that move:")
    for r0, r1 in paired(before, after, ["validation.csv", "validation_2026-11-26.csv"]):
        if r0["run"] in SINGLE and r0["set"] == "held-out" and abs(err(r1) - err(r0)) > 0.05:
            print(f"    run {SINGLE[r0['run']]} {r0['variant']} {r0['size']}: {err(r0):+.1f} -> {err(r1):+.1f}")
    print("(d) 4-rank own fit, held-out: median |error| % before -> after (rows that move)")
    for label, name, run in FOUR:
        held = [(a, b) for a, b in paired(before, after, [name], run) if a["set"] == "held-out"]
        m0 = statistics.median(abs(err(a)) for a, _ in held)
        m1 = statistics.median(abs(err(b)) for _, b in held)
        mv = "; ".join(f"{a['variant']} {a['size']} {err(a):+.1f} -> {err(b):+.1f}"
                       for a, b in held if abs(err(b) - err(a)) > 0.05)
        print(f"    {label}: {m0:.2f} -> {m1:.2f} ({mv})")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
