#!/usr/bin/env bash
# tools/halo_validation_summary.sh [VALIDATION_CSV...] — the summary tables of
# docs/halo_sim.md ("Validation") from `xferlab validate`'s halo CSVs
# (default: docs/halo_sim/validation.csv, runs 1 and 2, and
# docs/halo_sim/validation_2026-11-26.csv, run 4 and the 4-rank runs, and
# docs/halo_sim/validation_run6.csv, run 6, docs/halo_sim/validation_run9.csv, run 9, and
# docs/halo_sim/validation_run11.csv, run 11, docs/halo_sim/validation_run12_{2rank,4rank}.csv,
# run 12 (4x H100), docs/halo_sim/validation_run13_{2rank,4rank}.csv, run 13
# (4x H100), docs/halo_sim/validation_run14.csv, run 14 (2x H100; both held-out for the
# model at 8bd5cd2): the medians of 5 repeats):
#  1. per run and set (fitted / held-out): cases, median and max |error|,
#     cases above 5 % and 10 %;
#  2. issue #15's bound on the 2-rank runs: per held-out variant and size,
#     the error of each run (1 = 2026-11-22_h200x2, N = ..._runN), median and max |error| over the runs, and
#     whether median <= 5 % and max <= 10 %.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- docs/halo_sim/validation.csv docs/halo_sim/validation_2026-11-26.csv docs/halo_sim/validation_run6.csv docs/halo_sim/validation_run9.csv docs/halo_sim/validation_run11.csv docs/halo_sim/validation_run12_2rank.csv docs/halo_sim/validation_run12_4rank.csv docs/halo_sim/validation_run13_2rank.csv docs/halo_sim/validation_run13_4rank.csv docs/halo_sim/validation_run14.csv
awk -F, '
  function sortn(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  }
  function med(a, n) { sortn(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { e = $col["error_pct"] + 0; a = e < 0 ? -e : e
    k = $col["run"] (FILENAME ~ /_2rank\.csv$/ ? " (2 ranks)" : FILENAME ~ /_4rank\.csv$/ ? " (4 ranks)" : "") SUBSEP $col["set"]
    if (!(k in n)) order[++nk] = k
    v[k, ++n[k]] = a
    # 4-rank runs (x4 in the name) stay out; the 2-rank placement of a 4-GPU machine is a *_2rank.csv.
    if ($col["set"] == "held-out" && ($col["run"] !~ /x4/ || FILENAME ~ /_2rank\.csv$/)) {
      c = $col["variant"] SUBSEP $col["size"]
      if (!(c in m)) corder[++nc] = c
      w[c, ++m[c]] = a; txt[c] = txt[c] sprintf("%s%+.1f", m[c] > 1 ? " / " : "", e)
      r = $col["run"]; r = r ~ /_run[0-9]+$/ ? substr(r, match(r, /_run[0-9]+$/) + 4) : 1
      runs[c] = runs[c] (m[c] > 1 ? " / " : "") r
    } }
  END {
    print "| run | set | cases | median abs error % | max abs error % | > 5 % | > 10 % |"
    print "|---|---|---|---|---|---|---|"
    for (i = 1; i <= nk; i++) {
      k = order[i]; split(k, p, SUBSEP); delete x; mx = 0; g5 = 0; g10 = 0
      for (j = 1; j <= n[k]; j++) { x[j] = v[k, j]; if (x[j] > mx) mx = x[j]; g5 += x[j] > 5; g10 += x[j] > 10 }
      printf "| %s | %s | %d | %.1f | %.1f | %d | %d |\n", p[1], p[2], n[k], med(x, n[k]), mx, g5, g10
    }
    print ""
    print "| variant | held-out size | runs | error per run % | median abs % | max abs % | bound (median <= 5, max <= 10) |"
    print "|---|---|---|---|---|---|---|"
    for (i = 1; i <= nc; i++) {
      c = corder[i]; split(c, p, SUBSEP); delete x; mx = 0
      for (j = 1; j <= m[c]; j++) { x[j] = w[c, j]; if (x[j] > mx) mx = x[j] }
      md = med(x, m[c])
      printf "| %s | %s | %s | %s | %.1f | %.1f | %s |\n", p[1], p[2], runs[c], txt[c], md, mx,
        (md <= 5 && mx <= 10) ? "met" : "not met"
    }
  }' "$@"
