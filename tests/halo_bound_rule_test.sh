#!/usr/bin/env bash
# Args: HALO_BOUND_RULE_PY — tools/halo_bound_rule.py (docs/halo_sim_log.md, "Sa /
# ki 400^3: the front is surface work, the residual volume work") on the
# committed validate CSVs:
#  1. docs/halo_sim against itself: the bound 9 -> 9 of 9, no row worse, no
#     fitted row moves, the 4-rank own-fit medians unchanged;
#  2. run 15's CSV replaced by session 13's model (validation_run15_session13.csv,
#     the work drivers and the residual per message): sa 400 run 15 -2.2 -> -5.6,
#     baseline 400 unchanged, the two fitted rows the payload placement
#     calibrates again move (<= 0.15 point);
#  3. no arguments: the usage and exit 2 (a usage error);
#  4. bad input (a missing file, an error_pct not a number, an after CSV that
#     lost a row): one line naming the file, a non-zero exit.
set -euo pipefail
rule=$1
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
docs=docs/halo_sim

python3 "$rule" "$docs" "$docs" > "$tmp/same" || fail "the rule script failed on the goldens"
grep -qx '(a) bound met for 9 -> 9 of 9' "$tmp/same" || fail "bound: $(grep '^(a)' "$tmp/same")"
grep -q '^(b) rows up > 0.5 point in median or newly > 10 %: none' "$tmp/same" || fail "(b) on itself"
grep -qx '(c) fitted rows that move: 0' "$tmp/same" || fail "(c) on itself"
grep -q '^    72 held-out cases before: ' "$tmp/same" || fail "no 72-case summary"
grep -q '^    16: 2.24 -> 2.24 ()$' "$tmp/same" || fail "4-rank run 16: $(grep '^    16:' "$tmp/same")"

mkdir -p "$tmp/after"
cp "$docs"/validation*.csv "$tmp/after/"
cp "$docs/validation_run15_session13.csv" "$tmp/after/validation_run15.csv"
python3 "$rule" "$docs" "$tmp/after" > "$tmp/moved" || fail "the rule script failed on session 13's model"
grep -q '^sa 400: .* / -2.2 / .* -> .* / -5.6 / ' "$tmp/moved" ||
  fail "sa 400: $(grep '^sa 400' "$tmp/moved")"
grep -q '^baseline 400: \(.*\) -> \1; ' "$tmp/moved" || fail "baseline 400 moved"
grep -qx '(c) fitted rows that move: 2' "$tmp/moved" || fail "(c) with session 13's model"

rc=0
python3 "$rule" > "$tmp/usage" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q '^usage: tools/halo_bound_rule.py BEFORE_DIR AFTER_DIR' "$tmp/usage" ||
  fail "no usage: exit $rc, $(cat "$tmp/usage")"
expect_error() {  # FOLDER WANT: the rule on docs/halo_sim vs FOLDER fails with one line WANT
  local rc=0
  python3 "$rule" "$docs" "$1" > /dev/null 2> "$tmp/err" || rc=$?
  [ "$rc" != 0 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q -- "$2" "$tmp/err" ||
    fail "bad input, want '$2': exit $rc, $(cat "$tmp/err")"
}
bad() {  # NAME: a fresh copy of the goldens in $tmp/NAME
  rm -rf "${tmp:?}/$1" && mkdir -p "$tmp/$1" && cp "$docs"/validation*.csv "$tmp/$1/"
}
bad missing && rm "$tmp/missing/validation_run9.csv"
expect_error "$tmp/missing" "missing/validation_run9.csv: No such file or directory"
bad nan && awk -F, -v OFS=, 'NR == 2 { $7 = "abc" } 1' "$docs/validation_run6.csv" > "$tmp/nan/validation_run6.csv"
expect_error "$tmp/nan" "nan/validation_run6.csv:2: error_pct 'abc' is not a number"
bad short && sed -i '$d' "$tmp/short/validation_run12_4rank.csv"
expect_error "$tmp/short" "validation_run12_4rank.csv: .* do not hold the same cases in the same order"
echo PASS
