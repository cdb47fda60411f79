#!/usr/bin/env python3
"""tools/halo_median_repeat.py OUTDIR DEST — keep the median repeat of every
halo / GDA configuration of native/halo/run_repeats.sh.

OUTDIR holds rep1 ... repN, each a native/halo/run_all.sh output (halo.csv,
boxes.csv, traces/, logs/, provenance.txt). For every configuration (variant
and label, e.g. `stream gpus2_400`) that every repeat measured, the repeat
whose `iteration_wall` average is the median of the N (N odd; for even N the
lower middle) is kept, N being the repeats that measured it (a repeat whose
sweep ran out of its BUDGET_S has no rows for the configurations it skipped;
a configuration measured by fewer than 3 repeats is left out and named): its CSV rows, its traces (`VARIANT_LABEL_rankR.xft*`)
and its log go to DEST, which then reads like one run_all.sh output and
`xferlab validate DEST` replays it. DEST/repeats.csv lists every repeat's
iteration_wall and which one was kept; DEST/provenance.txt is rep1's with
the rule appended. Why: docs/halo_sim_log.md, "Run-to-run variation and the bound".
"""
import csv
import glob
import os
import shutil
import sys


MIN_REPEATS = 3  # the bound counts medians of N >= 3 launches


def fail(msg):
    sys.exit("halo_median_repeat: " + msg)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for i, r in enumerate(rows, start=2):
        for key in ("variant", "size", "phase", "avg_ns"):
            if not r.get(key):
                fail("%s:%d: field '%s' missing or empty" % (path, i, key))
    return rows


def load_repeats(outdir):
    # repN folders only (a "rep_old" beside them is not a repeat), in N order.
    reps = [p for p in glob.glob(os.path.join(outdir, "rep*")) if os.path.basename(p)[3:].isdigit()]
    reps.sort(key=lambda p: int(os.path.basename(p)[3:]))
    if not reps:
        fail("%s: no rep1 ... repN folders (run native/halo/run_repeats.sh first)" % outdir)
    data = []  # per repeat: {csv name: rows}
    for rep in reps:
        tables = {}
        for name in ("halo.csv", "boxes.csv"):
            path = os.path.join(rep, name)
            if os.path.exists(path):
                tables[name] = read_csv(path)
        if not tables:
            fail("%s: neither halo.csv nor boxes.csv" % rep)
        data.append(tables)
    return reps, data


def iteration_wall(rows, variant, label, where):
    vals = [float(r["avg_ns"]) for r in rows
            if r["variant"] == variant and r["size"] == label and r["phase"] == "iteration_wall"]
    if len(vals) != 1:
        fail("%s: %d iteration_wall rows for %s %s (expected 1)" % (where, len(vals), variant, label))
    return vals[0]


def copy_matching(src_dir, pattern, dest_dir):
    found = glob.glob(os.path.join(src_dir, pattern))
    os.makedirs(dest_dir, exist_ok=True)
    for path in found:
        shutil.copy2(path, dest_dir)
    return len(found)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tools/halo_median_repeat.py OUTDIR DEST")
    outdir, dest = sys.argv[1], sys.argv[2]
    reps, data = load_repeats(outdir)
    os.makedirs(dest, exist_ok=True)
    summary = []
    dropped = []  # configurations measured by fewer than MIN_REPEATS repeats
    partial = []  # kept, but from fewer repeats than there are
    for name in ("halo.csv", "boxes.csv"):
        if not all(name in t for t in data):
            continue
        configs = sorted({(r["variant"], r["size"]) for t in data for r in t[name]})
        kept_rows = []
        for variant, label in configs:
            # Repeats with any row of the configuration measured it.
            have = [i for i, t in enumerate(data)
                    if any(r["variant"] == variant and r["size"] == label for r in t[name])]
            if len(have) < MIN_REPEATS:
                dropped.append("%s %s (%d repeat%s)" % (variant, label, len(have), "" if len(have) == 1 else "s"))
                continue
            walls = {i: iteration_wall(data[i][name], variant, label, os.path.join(reps[i], name))
                     for i in have}
            order = sorted(have, key=lambda i: walls[i])
            k = order[(len(have) - 1) // 2]
            if len(have) < len(reps):
                partial.append("%s %s (%d)" % (variant, label, len(have)))
            kept_rows += [r for r in data[k][name] if r["variant"] == variant and r["size"] == label]
            n_traces = copy_matching(os.path.join(reps[k], "traces"), "%s_%s_rank*.xft*" % (variant, label),
                                     os.path.join(dest, "traces"))
            place, tail = label.split("_", 1)
            log = "%s_%s%s.log" % (place, "boxes_" if name == "boxes.csv" else "", variant + "_" +
                                   (tail[3:] if tail.startswith("box") else tail))
            copy_matching(os.path.join(reps[k], "logs"), log, os.path.join(dest, "logs"))
            for i in have:
                w = walls[i]
                summary.append([variant, label, name, os.path.basename(reps[i]), "%.2f" % w,
                                "yes" if i == k else "no", str(n_traces) if i == k else ""])
        with open(os.path.join(dest, name), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(data[0][name][0].keys()),
                               lineterminator="\n")
            w.writeheader()
            w.writerows(kept_rows)
    with open(os.path.join(dest, "repeats.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["variant", "label", "csv", "repeat", "iteration_wall_avg_ns", "kept", "traces_kept"])
        w.writerows(summary)
    with open(os.path.join(reps[0], "provenance.txt")) as f:
        prov = f.read()
    with open(os.path.join(dest, "provenance.txt"), "w") as f:
        f.write(prov)
        f.write("\nmedian repeat: tools/halo_median_repeat.py over %d repeats (%s); per configuration "
                "the repeat with the median iteration_wall average is kept (repeats.csv)\n"
                % (len(reps), " ".join(os.path.basename(r) for r in reps)))
        if partial:
            f.write("median over fewer repeats (skipped by a sweep's budget in the others): %s\n"
                    % ", ".join(partial))
        if dropped:
            f.write("left out (measured by fewer than %d repeats): %s\n" % (MIN_REPEATS, ", ".join(dropped)))
    if dropped:
        print("halo_median_repeat: left out, measured by fewer than %d repeats: %s"
              % (MIN_REPEATS, ", ".join(dropped)), file=sys.stderr)
    print("halo_median_repeat: %d configurations from %d repeats -> %s" %
          (len({(s[0], s[1]) for s in summary}), len(reps), dest))


if __name__ == "__main__":
    main()
