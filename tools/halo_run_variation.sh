#!/usr/bin/env bash
# tools/halo_run_variation.sh [VALIDATION_CSV] — the run-to-run table of
# docs/halo_sim_log.md ("Runs 1 and 2"): per held-out halo / GDA case, its error in
# runs 1 and 2 and how the case and its variant's two fitted sizes moved from
# run 1 (2026-11-22_h200x2) to run 2 (2026-11-22_h200x2_run2), from the
# measured_us column of `xferlab validate`'s halo CSV (default:
# docs/halo_sim/validation.csv).
set -euo pipefail
csv=${1:-docs/halo_sim/validation.csv}
[ -r "$csv" ] || { echo "halo_run_variation: $csv: not readable" >&2; exit 2; }
awk -F, '
  NR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    if (!("measured_us" in col) || !("error_pct" in col) || !("set" in col)) {
      print "halo_run_variation: " FILENAME ": not a halo validation CSV" > "/dev/stderr"; bad = 1; exit 2
    }
    next
  }
  {
    run = $col["run"] ~ /_run2$/ ? 2 : 1
    key = $col["variant"] SUBSEP $col["size"]
    meas[key, run] = $col["measured_us"]; err[key, run] = $col["error_pct"]
    if ($col["set"] == "held-out" && run == 1) held[++n] = key
  }
  function move(k,   a, b) { a = meas[k, 1]; b = meas[k, 2]; return sprintf("%.1f → %.1f (%+.1f %%)", a, b, 100 * (b / a - 1)) }
  END {
    if (bad) exit 2
    print "| variant | held-out size | error run 1 / run 2 % | held-out measured run 1 → run 2 µs | fitted small run 1 → run 2 | fitted large run 1 → run 2 |"
    print "|---|---|---|---|---|---|"
    for (i = 1; i <= n; i++) {
      split(held[i], vs, SUBSEP); v = vs[1]; s = vs[2]
      small = s ~ /^box/ ? "box16" : "200"; large = s ~ /^box/ ? "box64" : "800"
      printf "| %s | %s | %+.1f / %+.1f | %s | %s: %s | %s: %s |\n", v, s, err[held[i], 1], err[held[i], 2],
        move(held[i]), small, move(v SUBSEP small), large, move(v SUBSEP large)
    }
  }' "$csv"
