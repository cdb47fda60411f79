#!/usr/bin/env python3
"""docs/halo_sim/end_launches.py XFERLAB REPS_DIR KEPT_DIR OUT_CSV — how much of a
held-out halo / GDA error comes from which launch the fitted sizes were taken
from (docs/halo_sim_log.md, "Runs 13, 14 and 15": "Noise or model?").

REPS_DIR holds rep1 ... repN (native/halo/run_all.sh outputs with traces, as
native/halo/run_repeats.sh writes them); KEPT_DIR is the run's kept set
(tools/halo_median_repeat.py). For each launch K, a directory is built whose
fitted sizes (every 2-rank size but 400^3 and box 32^3) are launch K's CSV rows
and traces and whose held-out sizes are the kept set's, and `XFERLAB validate`
replays it: each held-out case is predicted N times against one fixed
measurement, once per launch of its fitted ends. OUT_CSV gets, per case, the N
errors and the error of the median of the N predictions (what fitting the ends
from every launch would give at best); the same is printed. If every launch
is the same (a test), every column equals validate's own error.
"""
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HELD_OUT = {"400", "box32"}


def fail(msg):
    sys.exit("end_launches: " + msg)


def size_of(label):  # "gpus2_400" -> "400"
    return label.split("_", 1)[1] if "_" in label else label


def trace_size(name):  # "sa_gpus2_box32_rank0.xft.zst" -> "box32"
    return name.split("_gpus2_", 1)[1].rsplit("_rank", 1)[0]


def read_rows(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    if not rows or "size" not in rows[0]:
        fail("%s: no rows with a 'size' column" % path)
    return rows


def assemble(dest, rep, kept):
    os.makedirs(os.path.join(dest, "traces"))
    for name in ("halo.csv", "boxes.csv"):
        kept_rows = read_rows(os.path.join(kept, name))
        rep_rows = read_rows(os.path.join(rep, name))
        rows = [r for r in kept_rows if r["size"].startswith("gpus2_") and size_of(r["size"]) in HELD_OUT]
        rows += [r for r in rep_rows if r["size"].startswith("gpus2_") and size_of(r["size"]) not in HELD_OUT]
        with open(os.path.join(dest, name), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(kept_rows[0].keys()), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    for src_dir, keep in ((kept, True), (rep, False)):
        tdir = os.path.join(src_dir, "traces")
        if not os.path.isdir(tdir):
            fail("%s: no traces/ folder" % src_dir)
        for t in sorted(os.listdir(tdir)):
            if "_gpus2_" in t and (trace_size(t) in HELD_OUT) == keep:
                shutil.copy(os.path.join(tdir, t), os.path.join(dest, "traces", t))


def main(argv):
    if len(argv) != 5:
        fail("usage: end_launches.py XFERLAB REPS_DIR KEPT_DIR OUT_CSV")
    xferlab, reps_dir, kept, out_csv = argv[1:]
    reps = sorted((p for p in os.listdir(reps_dir) if p.startswith("rep") and p[3:].isdigit()),
                  key=lambda p: int(p[3:])) if os.path.isdir(reps_dir) else []
    if not reps:
        fail("%s: no rep1 ... repN folders" % reps_dir)
    cases = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in reps:
            dest = os.path.join(tmp, rep)
            assemble(dest, os.path.join(reps_dir, rep), kept)
            r = subprocess.run([xferlab, "validate", dest, "--format", "csv"], capture_output=True, text=True)
            if r.returncode not in (0, 1):
                fail("validate of %s's ends failed: %s" % (rep, r.stderr.strip()))
            for row in csv.DictReader(r.stdout.splitlines()):
                if row["set"] == "held-out":
                    cases.setdefault((row["variant"], row["size"]), []).append(
                        (float(row["sim_us"]), float(row["measured_us"])))
    if not cases:
        fail("no held-out 2-rank cases in %s" % kept)
    header = ["variant", "size", "measured_us"] + ["error_pct_ends_%s" % r for r in reps] + \
        ["error_pct_median_of_predictions"]
    with open(out_csv, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for (variant, size), v in sorted(cases.items()):
            if len(v) != len(reps):
                fail("%s %s: replayed for %d of %d launches" % (variant, size, len(v), len(reps)))
            meas = v[0][1]
            errs = [100 * (p - meas) / meas for p, _ in v]
            med = 100 * (statistics.median(p for p, _ in v) - meas) / meas
            w.writerow([variant, size, "%.3f" % meas] + ["%.2f" % e for e in errs] + ["%.2f" % med])
            print("%-8s %-6s ends per launch %s  median of predictions %+.1f %%" %
                  (variant, size, " ".join("%+.1f" % e for e in errs), med))


if __name__ == "__main__":
    main(sys.argv)
