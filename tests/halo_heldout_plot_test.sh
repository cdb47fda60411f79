#!/usr/bin/env bash
# Args: HELDOUT_PLOT_PY DOC — docs/halo_sim/heldout_plot.py on the committed
# golden CSVs prints the three groups of docs/halo_sim.md's "At a glance"
# table with the numbers the table quotes (and the cross-validated 2 -> 4
# row with the machine calibration), and draws the PNG; a bad usage or a
# missing CSV is a one-line error, not a traceback.
set -euo pipefail
py=$1
doc=$2
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$py" "$tmp/heldout.png" > "$tmp/out" || fail "exited $?"
[ -s "$tmp/heldout.png" ] || fail "no PNG"
printf '%s\n' \
  "2 ranks, held-out sizes: 171 cases, median |error| 2.7 %, max 11.0 %, > 10 %: 3" \
  "2 ranks, sizes never measured before (300, 600): 84 cases, median |error| 2.8 %, max 14.1 %, > 10 %: 4" \
  "4 ranks, own fit, held-out sizes: 84 cases, median |error| 3.3 %, max 18.6 %, > 10 %: 2" \
  "3 ranks, own fit, held-out sizes: 18 cases, median |error| 1.9 %, max 7.9 %, > 10 %: 0" \
  "2 -> 4 ranks from 2-rank traces: 90 cases, median |error| 6.1 %, max 31.6 %, > 10 %: 25" \
  "2 -> 4 ranks, machine calibration, cross-validated: 147 cases, median |error| 3.9 %, max 26.3 %, > 10 %: 17" \
  "2 -> 4 ranks, machine calibration, sealed runs 18, 20, 22, 23, 33: 159 cases, median |error| 4.6 %, max 21.6 %, > 10 %: 21" \
  "2 -> 3 ranks, machine calibration, sealed runs 23, 24: 60 cases, median |error| 4.1 %, max 14.2 %, > 10 %: 9" |
  diff - "$tmp/out" || fail "groups differ"
grep -q '| 171 | 2.7 / 11.0 ' "$doc" && grep -q '| 84 | 2.8 / 14.1 ' "$doc" && grep -q '| 84 | 3.3 / 18.6 ' "$doc" && grep -q '| 159 | 4.6 / 21.6 ' "$doc" &&
  grep -q '| 18 | 1.9 / 7.9 ' "$doc" && grep -q '| 60 | 4.1 / 14.2 ' "$doc" &&
  grep -q '| 90 | 6.1 / 31.6 ' "$doc" && grep -q '| 147 | 3.9 / 26.3 ' "$doc" || fail "docs/halo_sim.md 'At a glance' does not quote these numbers"
if python3 "$py" "$tmp/x.txt" 2> "$tmp/err"; then fail "a non-PNG path accepted"; fi
grep -qx "heldout_plot: usage: heldout_plot.py PNG \[ROOT\]" "$tmp/err" || fail "error: $(cat "$tmp/err")"
mkdir -p "$tmp/root/docs/halo_sim"
if python3 "$py" "$tmp/y.png" "$tmp/root" 2> "$tmp/err"; then fail "missing CSVs accepted"; fi
grep -q "^heldout_plot: $tmp/root/docs/halo_sim/validation_run13_2rank.csv: No such file" "$tmp/err" ||
  fail "error: $(cat "$tmp/err")"
! grep -q Traceback "$tmp/err" || fail "traceback instead of a one-line error"
echo PASS
