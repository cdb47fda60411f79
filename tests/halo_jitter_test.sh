#!/usr/bin/env bash
# Args: JITTER_PY XFERLAB — tools/halo_jitter.py (docs/halo_sim_log.md, "2 -> N
# ranks: the latest of more peers") on run 12's baseline 200^3 and host box
# 64^3: the header, run 12 baseline 200^3's row as in the docs (its 2-rank
# traces predict +15.9 µs for the latest of 4 where the uncalibrated replay
# misses 51.6), pred_3 < pred_4 in every row; --summary's header and run
# 23's 3 / 4 row of the sealed CSVs; an unknown set is a one-line error, exit
# 2, and an xferlab that is not there a one-line error, not a traceback.
set -euo pipefail
py=$1
xferlab=$2
# shellcheck source=diag_table_checks.sh
. "$(dirname "$0")/diag_table_checks.sh"  # tmp, fail, table, missing_xferlab_is_one_line
table "$py" "$xferlab" "set,variant,size,iterations,work_us,d_p10_p90_us,cycle_us,pair_max_us,emax2_us,pred_3_us,pred_4_us,pred_4_peers_us,pred_4_median_us,pred_4_pairs_us,missing_4_us,max4_meas_us,latest_mode_pct,pred_8_us,pred_27_us" 2 run12:baseline:200 run12:host:box64
grep -qx "run12,baseline,200,50,132.6,-9.0/13.3,177.5,15.1,17.6,8.4,15.9,18.7,6.0,15.0,51.6,0.7,66.0,26.4,91.5" "$tmp/out" ||
  fail "run 12 baseline 200: $(grep '^run12,baseline,200,' "$tmp/out")"
awk -F, 'NR > 1 && !($10 > 0 && $10 < $11) { print "pred_3 not in (0, pred_4): " $0; bad = 1 } END { exit bad }' \
  "$tmp/out" || fail "rows inconsistent"
python3 "$py" "$xferlab" --summary run12:host:box64 > "$tmp/sum" || fail "--summary exited $?"
head -1 "$tmp/sum" | grep -q '^| set | sizes | cases | 2-rank cycle µs | spread p90 − p10 µs | pred 4 µs |' || fail "summary header: $(head -1 "$tmp/sum")"
grep -qx '| boxes | 1 | 6.0 | 8.5 | 23.3 |' "$tmp/sum" || fail "beyond-4 table: $(grep '^| boxes | 1 |' "$tmp/sum")"
grep -qx '| run23 | 3 / 4 | 0.16 | 0.60 | 0.53 | 0.28 |' "$tmp/sum" || fail "run 23's 3 / 4 row: $(grep '3 / 4' "$tmp/sum")"
rc=0
python3 "$py" "$xferlab" nosuch > /dev/null 2> "$tmp/bad" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l < "$tmp/bad")" = 1 ] && grep -q '^halo_jitter: nosuch: not a set' "$tmp/bad" ||
  fail "unknown set: exit $rc, $(cat "$tmp/bad")"
missing_xferlab_is_one_line halo_jitter "$py" run12:host:box64
echo PASS
