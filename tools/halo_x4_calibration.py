#!/usr/bin/env python3
"""tools/halo_x4_calibration.py XFERLAB [OUT_CSV] — the machine calibration of
the on-node MPI step (preset [mpi_node], hw_model/mpi_node.h) fitted on the
4-rank runs of each machine type, and its leave-one-run-out cross-validation
(docs/halo_sim.md, "2 -> 4 ranks from a machine calibration").

For each of the five 2 -> 4 sets of tools/halo_predict_x4.sh (the env of
tests/halo_predict_x4_golden_test.sh's header and tools/halo_chain_fixed_point.sh's
`sets`) the script predicts with a copy of the set's preset whose [mpi_node]
it writes: zero (no calibration: the missing time measured - predicted), a
probe (step_at_1MiB 100 us, step_per_doubling 1 us: the replay's added time
minus 100 us is log2(P / 1 MiB) of the case, P a rank's rendezvous payload;
no added time: P = 0), then each fold's fit. A fit: least squares of the
added time against the missing time in the relative error (weights
1 / measured^2) over the cases with P > 0, cases the line puts below 0 left
out and the fit repeated until that set is stable; both values >= 0.
Writes OUT_CSV (default docs/halo_sim/x4_calibration.csv: per case the
uncalibrated and the cross-validated prediction) and prints the fits, the
per-set and pooled errors before / after and rule (a)'s check.
"""
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

R = "traces/real"
# name, machine preset, 2-rank traces, 4-rank traces, SET, boxes
SETS = [
    ("x4", "h200x4_hgx_nvswitch", f"{R}/2026-11-26_h200x2_run4/halo_detail",
     f"{R}/2026-11-26_h200x4_nvswitch/halo", "revised", "box16 box32 box64"),
    ("run12", "hgx_h100_nvlink4", f"{R}/2026-11-27_h100x4_run12/halo_median5_2rank",
     f"{R}/2026-11-27_h100x4_run12/halo_median5_4rank", "revised", "box16 box24 box32 box64"),
    ("run13", "hgx_h100_nvlink4", f"{R}/2026-11-27_h100x4_run13/halo_median5_2rank",
     f"{R}/2026-11-27_h100x4_run13/halo_median5_4rank", "revised", "box16 box24 box32 box64"),
    ("run16", "h200x4_hgx_nvswitch", f"{R}/2026-11-27_h200x2_run15/halo_median5",
     f"{R}/2026-11-27_h200x4_run16/halo_median5_4rank", "revised", "box16 box24 box32 box64"),
    ("run17", "h200x4_hgx_nvswitch", f"{R}/2026-11-27_h200x4_run17/halo_median5_2rank",
     f"{R}/2026-11-27_h200x4_run17/halo_median5_4rank", "revised", "box16 box24 box32 box64"),
]
PROBE_A_US, PROBE_B_US = 100.0, 1.0


def preset_copy(preset, a_us, b_us, tmp):
    """The preset with its [mpi_node] section replaced by (a_us, b_us)."""
    text = open(f"hw_model/presets/{preset}.toml").read()
    text = re.sub(r"\n\[mpi_node\]\n(?:(?!\n\[).)*", "\n", text, flags=re.S)
    path = os.path.join(tmp, f"{preset}_{a_us:.6f}_{b_us:.6f}.toml")
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + f'\n[mpi_node]\nstep_at_1MiB = "{a_us * 1000:.6f}ns"\n'
                f'step_per_doubling = "{b_us * 1000:.6f}ns"\n')
    return path


def predict(xferlab, s, a_us, b_us, tmp):
    """{(variant, size): (measured_us, predicted_us)} of set s at (a_us, b_us)."""
    name, preset, two, four, label, boxes = s
    out = os.path.join(tmp, f"{name}.csv")
    env = dict(os.environ, XFERLAB=xferlab, SET=label, TWO=two, FOUR=four, BOXES=boxes,
               PLATFORM=preset_copy(preset, a_us, b_us, tmp))
    r = subprocess.run(["tools/halo_predict_x4.sh", out], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"halo_x4_calibration: {name}: halo_predict_x4.sh failed: {r.stderr.strip()[-300:]}")
    with open(out) as f:
        return {(row["variant"], row["size"]): (float(row["measured_us"]), float(row["predicted_us"]))
                for row in csv.DictReader(f)}


def fit(cases):
    """(a_us, b_us) >= 0 for cases [(x, missing_us, measured_us)] (x = log2(P / 1 MiB));
    (0, 0), no calibration, where the line leaves every case out."""
    if not cases:
        sys.exit("halo_x4_calibration: a fit with no case of P > 0 (a machine type with one run?)")
    active = list(cases)
    a = b = 0.0
    for _ in range(50):
        # Weighted least squares of missing = a + b x, weights 1 / measured^2.
        sw = sx = sxx = sy = sxy = 0.0
        for x, y, m in active:
            w = 1 / (m * m)
            sw += w; sx += w * x; sxx += w * x * x; sy += w * y; sxy += w * x * y
        det = sw * sxx - sx * sx
        b = (sw * sxy - sx * sy) / det if det > 0 else 0.0
        if b < 0:
            b = 0.0
        a = max(0.0, (sy - b * sx) / sw)
        now = [c for c in cases if a + b * c[0] > 0]
        if not now:
            return 0.0, 0.0
        if now == active:
            return a, b
        active = now
    sys.exit("halo_x4_calibration: the fit's set of cases did not settle in 50 rounds")


def stats(errors):
    absolute = sorted(abs(e) for e in errors)
    return statistics.mean(errors), statistics.median(absolute), sum(e > 10 or e < -10 for e in errors)


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: tools/halo_x4_calibration.py XFERLAB [OUT_CSV]", file=sys.stderr)
        sys.exit(2)
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    xferlab = os.path.abspath(sys.argv[1])
    out_csv = sys.argv[2] if len(sys.argv) == 3 else "docs/halo_sim/x4_calibration.csv"
    with tempfile.TemporaryDirectory() as tmp:
        base, xs = {}, {}
        for s in SETS:
            base[s[0]] = predict(xferlab, s, 0, 0, tmp)
            probe = predict(xferlab, s, PROBE_A_US, PROBE_B_US, tmp)
            xs[s[0]] = {k: (probe[k][1] - base[s[0]][k][1] - PROBE_A_US) / PROBE_B_US
                        if probe[k][1] - base[s[0]][k][1] > 0 else None for k in base[s[0]]}

        def cases_of(names):
            return [(xs[n][k], m - p, m) for n in names for k, (m, p) in base[n].items()
                    if xs[n][k] is not None]

        machines = {}
        for s in SETS:
            machines.setdefault(s[1], []).append(s[0])
        shipped = {preset: fit(cases_of(names)) for preset, names in machines.items()}
        cv, folds = {}, {}
        for s in SETS:
            others = [n for n in machines[s[1]] if n != s[0]]
            folds[s[0]] = (others, fit(cases_of(others)))
            cv[s[0]] = predict(xferlab, s, *folds[s[0]][1], tmp)

    rows, before, after = [], [], []
    for s in SETS:
        n = s[0]
        for (v, size), (m, p) in base[n].items():
            q = cv[n][(v, size)][1]
            e0, e1 = 100 * (p - m) / m, 100 * (q - m) / m
            x = xs[n][(v, size)]
            rows.append([n, s[1], v, size, "" if x is None else f"{x:.3f}", f"{m:.3f}", f"{p:.3f}",
                         f"{q:.3f}", f"{e0:.2f}", f"{e1:.2f}"])
    with open(out_csv, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["set", "machine", "variant", "size", "log2_payload_per_mib", "measured_us",
                    "predicted_uncalibrated_us", "predicted_cross_validated_us",
                    "error_uncalibrated_pct", "error_cross_validated_pct"])
        w.writerows(rows)

    print("shipped calibration (fit on every run of the machine type; in-sample):")
    for preset, (a, b) in shipped.items():
        print(f"  {preset} ({' + '.join(machines[preset])}): step_at_1MiB {a:.2f} us, "
              f"step_per_doubling {b:.2f} us")
    print("leave-one-run-out folds (cross-validated, revised after seeing runs 4, 12, 13, 15, 16 and 17):")
    print("| set | fitted on | step_at_1MiB / per doubling µs | cases | mean error % before → after "
          "| median abs error % before → after | > 10 % before → after |")
    print("|---|---|---|---|---|---|---|")
    worst_set = float("-inf")
    for s in SETS:
        n = s[0]
        e0 = [float(r[8]) for r in rows if r[0] == n]
        e1 = [float(r[9]) for r in rows if r[0] == n]
        before += e0
        after += e1
        m0, d0, c0 = stats(e0)
        m1, d1, c1 = stats(e1)
        worst_set = max(worst_set, d1 - d0)
        others, (a, b) = folds[n]
        print(f"| {n} | {' + '.join(others)} | {a:.2f} / {b:.2f} | {len(e0)} | {m0:+.2f} → {m1:+.2f} "
              f"| {d0:.2f} → {d1:.2f} | {c0} → {c1} |")
    m0, d0, c0 = stats(before)
    m1, d1, c1 = stats(after)
    print(f"| pooled | | | {len(before)} | {m0:+.2f} → {m1:+.2f} | {d0:.2f} → {d1:.2f} | {c0} → {c1} |")
    toward = abs(m0) - abs(m1)
    ok = toward >= 2 and d0 - d1 >= 1 and worst_set <= 0.5
    print(f"rule (a): mean toward 0 by {toward:.2f} points (>= 2), median |error| better by "
          f"{d0 - d1:.2f} (>= 1), worst set's median {worst_set:+.2f} (<= +0.5): "
          f"{'met' if ok else 'NOT met'}")
    print(f"wrote {out_csv} (regenerate: tools/halo_x4_calibration.py bazel-bin/sim/xferlab)")


if __name__ == "__main__":
    main()
