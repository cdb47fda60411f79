#!/usr/bin/env bash
# Args: BIND_STUDY_PY DOC — docs/halo_sim/bind_study.py on the committed runs 9
# and 10 prints the table docs/halo_sim_log.md quotes ("Runs 9 and 10"), row for
# row, and --plot draws them; a run without repeats.csv or with a
# non-numeric value is a one-line error naming the file, not a traceback.
set -euo pipefail
py=$1
doc=$2
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$py" > "$tmp/out" || fail "bind_study.py exited $?"
[ "$(grep -c '^| 2026-11-27_h100x2_run' "$tmp/out")" = 2 ] || fail "expected 2 run rows: $(cat "$tmp/out")"
while IFS= read -r line; do
  grep -qxF -- "$line" "$doc" || fail "row not in $doc: $line"
done < <(grep '^| 2026' "$tmp/out")
# --plot draws the distributions (gnuplot, installed by tools/setup.sh).
python3 "$py" --plot "$tmp/spread.png" > /dev/null || fail "--plot exited $?"
[ -s "$tmp/spread.png" ] || fail "--plot wrote no PNG"
if python3 "$py" --plot 2> "$tmp/err"; then fail "--plot without a path accepted"; fi
grep -q "^bind_study: --plot needs a PNG path" "$tmp/err" || fail "error: $(cat "$tmp/err")"
mkdir -p "$tmp/bad/halo_median5"
if python3 "$py" "$tmp/missing" 2> "$tmp/err"; then fail "missing run accepted"; fi
grep -q 'missing/halo_median5/repeats.csv' "$tmp/err" || fail "error does not name the file: $(cat "$tmp/err")"
printf 'variant,label,csv,repeat,iteration_wall_avg_ns\nsa,gpus2_400,halo.csv,rep1,fast\n' > "$tmp/bad/halo_median5/repeats.csv"
if python3 "$py" "$tmp/bad" 2> "$tmp/err"; then fail "non-numeric value accepted"; fi
grep -q 'repeats.csv: line 2' "$tmp/err" || fail "error does not name the line: $(cat "$tmp/err")"
! grep -q Traceback "$tmp/err" || fail "traceback instead of a one-line error"
echo PASS
