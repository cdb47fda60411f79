#!/usr/bin/env python3
"""tools/halo_jitter.py XFERLAB [--summary] [SET[:VARIANT:SIZE] ...] — the
latest of more peers: what the per-iteration variability of the 2-rank
traces alone predicts for the 2 -> 3 and 2 -> 4 rank step, against what
the uncalibrated 2 -> 4 replay misses (docs/halo_sim_log.md, "2 -> N
ranks: the latest of more peers"). Diagnosis only: nothing here is fitted
or changes the model.

The replay plays every rank's median components, so every rank is ready to
exchange at the same time. A real rank's work between two exchanges varies
from iteration to iteration; an exchange ends only after the latest of the
ranks it couples, so with more peers the iteration grows by the expected
maximum of more draws. At 2x1x1 (2 ranks) and 3x1x1 / 2x2x1 (3 / 4 ranks,
periodic) every rank exchanges with every other, so an iteration waits for
the latest of N ranks.

For each 2-rank configuration (variant x size) it reads both ranks' traces
with `xferlab trace dump` and, per iteration n after the 10 warm-up ones,
takes a rank's **work** L(n) = ready(n) - done(n-1): ready = its last
Isend post to another rank, done = its last receive completion from
another rank (an iteration's messages are numbered by tag, so the j-th post
or completion of a tag belongs to iteration j; every variant, sa / ki's
proxy included). d = each rank's L minus its own median, pooled over both
ranks; M(n) = max(d_rank0(n), d_rank1(n)), the pair's latest in one
iteration. The predictors have no parameter:

  emax(x, k)     the expectation of the maximum of k independent draws of
                 the sample x, the bootstrap's expectation computed exactly
                 (sum_i x_(i) ((i/n)^k - ((i-1)/n)^k), x sorted)
  pred_3_us      emax(d, 3) - emax(d, 2): a third rank (every rank waits
                 for the latest of 3 instead of 2, itself included)
  pred_4_us      emax(d, 4) - emax(d, 2): 2x2x1
  pred_4_peers_us emax(d, 3) - emax(d, 1): the same counted over peers only
                 (3 peers at 2x2x1 against 1), the rank itself left out
  pred_4_median_us the median of the maximum instead of its mean (the
                 replay is compared with medians over iterations):
                 q(0.5^(1/4)) - q(0.5^(1/2)), q the quantile of d
  pred_4_pairs_us emax(M, 2) - mean(M): two independent pairs, each drawn
                 as a whole 2-rank iteration, so the correlation of two
                 ranks in one iteration is kept
  pred_8_us      emax(d, 8) - emax(d, 4): what 8 ranks on a node (2x2x2,
                 every rank couples with the other 7) would add beyond 4
  pred_27_us     emax(d, 27) - emax(d, 8): a rank with all 26 neighbours
                 of the 27-point stencil distinct (large runs) beyond 8

and prints per case (µs; medians over the timed iterations unless named):

  work_us        the median of L over both ranks
  d_p10_p90_us   the 10th / 90th percentile of d (the spread)
  cycle_us       done(n) - done(n-1), median over both ranks
  pair_max_us /  mean(M), the 2-rank traces' own latest (paired, as
  emax2_us       measured) / emax(d, 2) (independent draws): the two ranks'
                 draws are correlated where paired < emax2
  missing_4_us   measured - predicted of the uncalibrated 2 -> 4 replay
                 (docs/halo_sim/x4_calibration.csv, rank 0's medians)
  max4_meas_us   the 4-rank traces' mean over iterations of the max over 4
                 ranks of d (each rank's L minus its own median) minus
                 pair_max_us: what the latest of 4 added as recorded
  latest_mode_pct the iterations in which the rank whose ready comes last
                 (absolute time) at 4 ranks is the most frequent such rank
                 (independent draws: 25 % each; the most frequent of 4 over 50
                 draws ~32 %, printed by --summary from a seeded simulation)

With --summary it prints, instead: per set and size class (cubes 200 /
400 / 800, boxes) the medians over cases (cycle_us, the spread p90 - p10
of d, the predictors, missing_4_us, max4_meas_us, latest_mode_pct) and the
correlation of pred_4_us with missing_4_us; per set, the uncalibrated replay's mean signed and
median |error| as committed and with pred_4_us / pred_4_pairs_us added to
each case (what a replay that drew per-iteration components would gain,
at most, if the predictor were exact); then what the sealed runs 23 / 24
(no traces committed) measured a third and a fourth rank to add: the
median per size class of measured - predicted of their uncalibrated
2 -> 3 and 2 -> 4 CSVs (RUN23_24_CSVS) and run 23's 3 / 4 ratio, to set
beside pred_3_us / pred_4_us. A SET is a `set` of x4_calibration.csv;
VARIANT:SIZE keeps one case. A one-line error, never a traceback: an
unknown set or case (exit 2), a missing trace or xferlab, an unreadable
CSV (exit 1).
"""
import csv
import math
import os
import random
import statistics
import sys

from trace_dump_lines import dump_records

# set: (2-rank traces, 4-rank traces), the sets of tools/halo_predict_x4.sh
# and docs/halo_sim/x4_calibration.csv.
SETS = {
    "x4": ("traces/real/2026-11-26_h200x2_run4/halo_detail",
           "traces/real/2026-11-26_h200x4_nvswitch/halo"),
    "run12": ("traces/real/2026-11-27_h100x4_run12/halo_median5_2rank",
              "traces/real/2026-11-27_h100x4_run12/halo_median5_4rank"),
    "run13": ("traces/real/2026-11-27_h100x4_run13/halo_median5_2rank",
              "traces/real/2026-11-27_h100x4_run13/halo_median5_4rank"),
    "run16": ("traces/real/2026-11-27_h200x2_run15/halo_median5",
              "traces/real/2026-11-27_h200x4_run16/halo_median5_4rank"),
    "run17": ("traces/real/2026-11-27_h200x4_run17/halo_median5_2rank",
              "traces/real/2026-11-27_h200x4_run17/halo_median5_4rank"),
}
CALIBRATION_CSV = "docs/halo_sim/x4_calibration.csv"
# The sealed 3-rank runs, uncalibrated (tools/halo_predict_x4.sh with a preset
# copy without [mpi_node]; docs/halo_sim_log.md, "Run 23", "Run 24").
RUN23_24_CSVS = [
    ("run23", "2 → 3", "docs/halo_sim/x4_h200_run23_2to3_uncal.csv"),
    ("run23", "2 → 4", "docs/halo_sim/x4_h200_run23_2to4_uncal.csv"),
    ("run24", "2 → 3", "docs/halo_sim/x4_h200_run24_2to3_uncal.csv"),
]
SIZE_CLASSES = ["200", "400", "800", "boxes"]
WARMUP = 10  # untimed iterations at the start of every launch (docs/halo.md)
HEADER = ("set,variant,size,iterations,work_us,d_p10_p90_us,cycle_us,pair_max_us,emax2_us,"
          "pred_3_us,pred_4_us,pred_4_peers_us,pred_4_median_us,pred_4_pairs_us,missing_4_us,"
          "max4_meas_us,latest_mode_pct,pred_8_us,pred_27_us")


def fail(msg, code=1):
    print("halo_jitter: " + msg, file=sys.stderr)
    sys.exit(code)


def rank_iterations(xferlab, path, rank):
    """[(ready_ns, done_ns)] per iteration of one rank's trace: its last Isend
    post to, and its last receive completion from, another rank; the j-th
    post / completion of a tag belongs to iteration j."""
    ready, done, seen = {}, {}, {}
    for t, kind, d in dump_records(xferlab, path, fail):
        if kind not in ("mpi_post", "mpi_complete") or int(d.get("peer", rank)) == rank:
            continue
        op = d.get("op")
        if (kind, op) not in (("mpi_post", "isend"), ("mpi_complete", "irecv")):
            continue
        key = (op, d["tag"])
        j = seen[key] = seen.get(key, -1) + 1
        into = ready if op == "isend" else done
        into[j] = max(into.get(j, t), t)
    n = min(len(ready), len(done))
    if n <= WARMUP + 1:
        fail(f"{path}: {n} iterations with messages to another rank")
    return [(ready[j], done[j]) for j in range(n)]


def case_ranks(xferlab, folder, variant, size, ranks):
    paths = [f"{folder}/traces/{variant}_gpus{ranks}_{size}_rank{r}.xft.zst"
             for r in range(ranks)]
    for p in paths:
        if not os.path.isfile(p):
            fail(f"{p}: no such trace")
    return [rank_iterations(xferlab, p, r) for r, p in enumerate(paths)]


def work(its):
    """L(n) = ready(n) - done(n-1) in µs over the timed iterations."""
    return [(its[n][0] - its[n - 1][1]) / 1e3 for n in range(WARMUP, len(its))]


def emax(sorted_d, k):
    """E[max of k independent draws] of an empirical sample, exactly."""
    n = len(sorted_d)
    return sum(x * (((i + 1) / n) ** k - (i / n) ** k) for i, x in enumerate(sorted_d))


def deviations(ranks_its):
    """Per rank, d = L minus its own median; and per rank, L (both cut to the
    ranks' common length)."""
    per_rank = [work(its) for its in ranks_its]
    n = min(len(w) for w in per_rank)
    per_rank = [w[:n] for w in per_rank]
    return [[x - statistics.median(w) for x in w] for w in per_rank], per_rank


def latest(devs):
    """M(n): the latest rank's deviation in each iteration."""
    return [max(col) for col in zip(*devs)]


def quantile(sorted_v, q):
    return sorted_v[min(len(sorted_v) - 1, int(q * len(sorted_v)))]


def latest_mode_pct(ranks_its):
    n = min(len(its) for its in ranks_its)
    last = [max(range(len(ranks_its)), key=lambda r: ranks_its[r][i][0])
            for i in range(WARMUP, n)]
    return 100.0 * max(last.count(r) for r in set(last)) / len(last)


def one_case(xferlab, name, cal):
    """One row: `cal` is the case's row of CALIBRATION_CSV."""
    two, four = SETS[name]
    variant, size = cal["variant"], cal["size"]
    r2 = case_ranks(xferlab, two, variant, size, 2)
    devs, works = deviations(r2)
    d = sorted(x for dev in devs for x in dev)
    e = {k: emax(d, k) for k in (1, 2, 3, 4, 8, 27)}
    m = latest(devs)
    pair = statistics.mean(m)
    cycle = statistics.median((its[n][1] - its[n - 1][1]) / 1e3
                              for its in r2 for n in range(WARMUP, len(its)))
    r4 = case_ranks(xferlab, four, variant, size, 4)
    devs4, _ = deviations(r4)
    return {
        "set": name, "variant": variant, "size": size, "iterations": len(devs[0]),
        "work_us": statistics.median(x for w in works for x in w),
        "d_p10_p90_us": f"{quantile(d, 0.1):.1f}/{quantile(d, 0.9):.1f}",
        "spread_us": quantile(d, 0.9) - quantile(d, 0.1),
        "cycle_us": cycle, "pair_max_us": pair, "emax2_us": e[2],
        "pred_3_us": e[3] - e[2], "pred_4_us": e[4] - e[2], "pred_4_peers_us": e[3] - e[1],
        "pred_4_median_us": quantile(d, 0.5 ** 0.25) - quantile(d, 0.5 ** 0.5),
        "pred_4_pairs_us": emax(sorted(m), 2) - pair,
        "measured_us": float(cal["measured_us"]),
        "missing_4_us": float(cal["measured_us"]) - float(cal["predicted_uncalibrated_us"]),
        "max4_meas_us": statistics.mean(latest(devs4)) - pair,
        "latest_mode_pct": latest_mode_pct(r4),
        "pred_8_us": e[8] - e[4], "pred_27_us": e[27] - e[8],
    }


def fmt(row):
    out = []
    for k in HEADER.split(","):
        v = row[k]
        out.append(f"{v:.1f}" if isinstance(v, float) else str(v))
    return ",".join(out)


def size_class(size):
    return "boxes" if size.startswith("box") else size


def pearson(x, y):
    mx, my = statistics.mean(x), statistics.mean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else float("nan")


def iid_latest_mode_pct(ranks=4, iterations=50, trials=20000):
    """The mean share of the most frequent latest rank under independent
    draws (seeded, so the same every run)."""
    rng = random.Random(12345)
    total = 0
    for _ in range(trials):
        counts = [0] * ranks
        for _ in range(iterations):
            counts[rng.randrange(ranks)] += 1
        total += max(counts)
    return 100.0 * total / (trials * iterations)


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")


def summary(rows):
    cols = ("cycle_us", "spread_us", "pred_4_us", "pred_3_us", "pred_4_median_us",
            "pred_4_pairs_us", "missing_4_us", "max4_meas_us", "latest_mode_pct")
    print("| set | sizes | cases | 2-rank cycle µs | spread p90 − p10 µs | pred 4 µs | pred 3 µs | "
          "pred 3 / 4 | pred 4, median of max µs | pred 4, pairs µs | missing 2 → 4 µs | "
          "latest of 4 as recorded µs | latest rank's mode % | r(pred 4, missing) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    groups = {}
    for r in rows:
        for s in (r["set"], "all"):
            for c in (size_class(r["size"]), "all"):
                groups.setdefault((s, c), []).append(r)
    for s in list(SETS) + ["all"]:
        for c in SIZE_CLASSES + ["all"]:
            g = groups.get((s, c))
            if not g:
                continue
            m = {k: statistics.median(r[k] for r in g) for k in cols}
            ratio = m["pred_3_us"] / m["pred_4_us"] if m["pred_4_us"] else float("nan")
            r = pearson([x["pred_4_us"] for x in g], [x["missing_4_us"] for x in g]) \
                if len(g) > 2 else float("nan")
            r = "n/a" if math.isnan(r) else f"{r:+.2f}"
            print(f"| {s} | {c} | {len(g)} | {m['cycle_us']:.1f} | {m['spread_us']:.1f} | "
                  f"{m['pred_4_us']:.1f} | {m['pred_3_us']:.1f} | "
                  f"{ratio:.2f} | {m['pred_4_median_us']:.1f} | {m['pred_4_pairs_us']:.1f} | "
                  f"{m['missing_4_us']:.1f} | "
                  f"{m['max4_meas_us']:.1f} | {m['latest_mode_pct']:.0f} | {r} |")
    print("\n| sizes | cases | pred 4 µs (2 → 4) | pred 8 µs (4 → 8 per node) | pred 27 µs (8 → 27 coupled ranks) |")
    print("|---|---|---|---|---|")
    for c in SIZE_CLASSES + ["all"]:
        g = groups.get(("all", c))
        if g:
            print(f"| {c} | {len(g)} | " + " | ".join(
                f"{statistics.median(r[k] for r in g):.1f}" for k in ("pred_4_us", "pred_8_us", "pred_27_us")) + " |")
    paired = statistics.median(r["pair_max_us"] / r["emax2_us"] for r in rows if r["emax2_us"] > 0)
    print(f"\n2-rank pair_max / emax2, median over {len(rows)} cases: {paired:.2f}; "
          f"latest rank's mode under independent draws: {iid_latest_mode_pct():.0f} %")
    print("\n| set | sizes | cases | mean error % uncalibrated → + pred 4 → + pred 4 pairs | "
          "median \\|error\\| % uncalibrated → + pred 4 → + pred 4 pairs |")
    print("|---|---|---|---|---|")
    for s, c in [(s, "all") for s in SETS] + [("all", c) for c in SIZE_CLASSES + ["all"]]:
        g = groups.get((s, c))
        if not g:
            continue
        # error % = (predicted + added - measured) / measured, predicted = measured - missing
        errs = [[100.0 * ((r[add] if add else 0.0) - r["missing_4_us"]) / r["measured_us"]
                 for r in g] for add in (None, "pred_4_us", "pred_4_pairs_us")]
        means = " → ".join(f"{statistics.mean(e):+.2f}" for e in errs)
        medians = " → ".join(f"{statistics.median(abs(x) for x in e):.2f}" for e in errs)
        print(f"| {s} | {c} | {len(g)} | {means} | {medians} |")
    print("\n| sealed run | step | " + " | ".join(SIZE_CLASSES) + " |")
    print("|---|---|" + "---|" * len(SIZE_CLASSES))
    by = {}
    for run, step, path in RUN23_24_CSVS:
        g = {}
        for x in read_csv(path):
            g.setdefault(size_class(x["size"]), []).append(
                float(x["measured_us"]) - float(x["predicted_us"]))
        by[(run, step)] = {c: statistics.median(g[c]) for c in SIZE_CLASSES}
        print(f"| {run} | {step} | " +
              " | ".join(f"{by[(run, step)][c]:.1f}" for c in SIZE_CLASSES) + " |")
    three, four = by[("run23", "2 → 3")], by[("run23", "2 → 4")]
    print("| run23 | 3 / 4 | " +
          " | ".join(f"{three[c] / four[c]:.2f}" for c in SIZE_CLASSES) + " |")


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: halo_jitter.py XFERLAB [--summary] [SET[:VARIANT:SIZE] ...]", 2)
    xferlab, rest = args[0], args[1:]
    want_summary = "--summary" in rest
    picks = [a for a in rest if a != "--summary"]
    if not os.path.isfile(xferlab):
        fail(f"{xferlab}: no such xferlab")
    cal = read_csv(CALIBRATION_CSV)
    wanted = []
    for p in picks or SETS:
        name, _, case = p.partition(":")
        if name not in SETS:
            fail(f"{p}: not a set ({', '.join(SETS)})", 2)
        wanted.append((name, case))
    rows = []
    for name, case in wanted:
        sel = [c for c in cal
               if c["set"] == name and (not case or f"{c['variant']}:{c['size']}" == case)]
        if not sel:
            fail(f"{name}:{case}: no such case in {CALIBRATION_CSV}", 2)
        rows += [one_case(xferlab, name, c) for c in sel]
    if want_summary:
        summary(rows)
    else:
        print(HEADER)
        for r in rows:
            print(fmt(r))


if __name__ == "__main__":
    main()
