#!/usr/bin/env bash
# halo_substitution (sim/halo_command.h) on run 6's halo traces (2x H200,
# median of 5; run 2's, used before, were retired: docs/gpu.md, "Retired
# traces"): for every held-out case, substituting nothing reproduces
# validate's error with the component-wise interpolation
# (XFERLAB_HALO_PAIR_MIX=components; for sa / ki / host / baseline that is the
# default, the row of docs/halo_sim/validation_run6.csv), substituting every
# component (the case's own, calibrated workload) reproduces the measurement
# within 0.2 %, and for stream / stacked the default's error (the two end
# triples' replays mixed) lies between the lower_end_triple and
# upper_end_triple rows.
set -euo pipefail
xferlab=$1
tool=$2
golden=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
run=traces/real/2026-11-27_h200x2_run6/halo_median5
"$tool" --csv "$run" > "$tmp/s.csv" 2> "$tmp/err" ||
  fail "halo_substitution exited $?: $(cat "$tmp/err")"
rc=0
XFERLAB_HALO_PAIR_MIX=components "$xferlab" validate "$run" --format csv > "$tmp/components.csv" 2> "$tmp/err" || rc=$?
[ "$rc" -le 1 ] || fail "validate exited $rc: $(cat "$tmp/err")"
# The default differs from the components only in stream / stacked held-out rows.
awk -F, 'NR == FNR { c[$1 "," $2 "," $3] = $7; next }
  FNR > 1 { k = $1 "," $2 "," $3; d = c[k] - $7; if (d < 0) d = -d
    if (d > 1e-6 && !($4 == "held-out" && ($2 == "stream" || $2 == "stacked"))) { print k; bad = 1 } }
  END { exit bad }' "$tmp/components.csv" "$golden" || fail "the pair mix moved a row it does not act on"
# The pair mix: between the two end triples' replays.
awk -F, 'NR == FNR { if ($4 == "held-out") want[$1 "," $2 "," $3] = $7; next }
  FNR > 1 && ($4 == "lower_end_triple" || $4 == "upper_end_triple") {
    k = $1 "," $2 "," $3; if ($4 == "lower_end_triple") lo[k] = $7; else hi[k] = $7 }
  END { n = 0
    for (k in lo) { n++; a = lo[k] < hi[k] ? lo[k] : hi[k]; b = lo[k] < hi[k] ? hi[k] : lo[k]
      if (want[k] < a - 1e-6 || want[k] > b + 1e-6) { print k ": " want[k] " outside " a " .. " b; bad = 1 } }
    if (n != 2) { print "expected 2 stream / stacked held-out cases, got " n; bad = 1 }
    exit bad }' "$golden" "$tmp/s.csv" || fail "validate's stream / stacked rows are not the end triples' mix"
golden=$tmp/components.csv
# run,variant,size,substituted,measured_us,sim_us,error_pct
n_none=$(awk -F, '$4 == "none"' "$tmp/s.csv" | wc -l)
[ "$n_none" = 9 ] || fail "expected 9 held-out cases of run 6, got $n_none"
awk -F, 'NR > 1 && $4 == "all" { e = $7 < 0 ? -$7 : $7; if (e > 0.2) { print; bad = 1 } }
  END { exit bad }' "$tmp/s.csv" || fail "own workload does not reproduce the measurement"
# validate's held-out errors (golden CSV: run,variant,size,set,...,error_pct is column 7).
awk -F, 'NR == FNR { if ($4 == "held-out") want[$1 "," $2 "," $3] = $7; next }
  FNR > 1 && $4 == "none" {
    k = $1 "," $2 "," $3
    if (!(k in want)) { print "no golden row for " k; bad = 1; next }
    d = want[k] - $7; if (d < 0) d = -d
    if (d > 1e-6) { print k ": " $7 " vs validate " want[k]; bad = 1 }
  }
  END { exit bad }' "$golden" "$tmp/s.csv" || fail "substitution 'none' differs from validate"
# Every held-out case lists the groups its variant's graph uses.
groups=$(awk -F, '$2 == "sa" && $3 == "box32" { printf "%s ", $4 }' "$tmp/s.csv")
[ "$groups" = "none residual mpi_latency mpi_calls gpu_front all " ] || fail "sa groups: $groups"
echo PASS
