#!/usr/bin/env bash
# Args: ORACLE_PY — tools/halo_bound_oracle.py on the fifteen committed
# median-of-5 2-rank validation CSVs (docs/halo_sim_log.md, "The bound:
# noise floor or model bias"): the header, nine held-out variant/sizes of
# 15 runs, stacked 400^3's in-hindsight end interpolation within 6.2 %
# where the model misses by up to 12.0 %; a missing or malformed CSV is a
# one-line error, exit 1.
set -euo pipefail
py=$1
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$py" > "$tmp/out" || fail "exit $?"
head -1 "$tmp/out" | grep -qx 'variant,size,runs,w,c,oracle_max_abs_error_pct,model_median_abs_error_pct,model_max_abs_error_pct' ||
  fail "header: $(head -1 "$tmp/out")"
[ "$(tail -n +2 "$tmp/out" | grep -c ',15,')" = 9 ] || fail "not 9 rows of 15 runs: $(cat "$tmp/out")"
grep -qx 'stacked,400,15,0.463,-0.0851,6.2,5.56,12.0' "$tmp/out" || fail "stacked 400: $(grep '^stacked' "$tmp/out")"
awk -F, 'NR > 1 && !($6 > 0 && $6 <= $8 + 1e-9) { print "oracle above the model max: " $0; bad = 1 } END { exit bad }' "$tmp/out" ||
  fail "an oracle row above the model's max"
rc=0
python3 "$py" "$tmp/none.csv" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "^halo_bound_oracle: $tmp/none.csv: No such file" "$tmp/err" ||
  fail "missing CSV: exit $rc, $(cat "$tmp/err")"
printf 'variant,size,set,measured_us,error_pct\nstream,400,held-out,abc,1\n' > "$tmp/bad.csv"
rc=0
python3 "$py" "$tmp/bad.csv" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "^halo_bound_oracle: $tmp/bad.csv:2: needs" "$tmp/err" ||
  fail "malformed CSV: exit $rc, $(cat "$tmp/err")"
! grep -q Traceback "$tmp/err" || fail "traceback"
echo PASS
