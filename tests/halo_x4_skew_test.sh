#!/usr/bin/env bash
# Args: X4_SKEW_PY XFERLAB STAGGER_SH — tools/halo_x4_skew.py on baseline 200^3 and host
# box 16^3 / 64^3 of runs 12 and x4 (docs/halo_sim_log.md, "2 -> 4 ranks: the
# ranks run out of step"): run 12's baseline 200^3 row as in the docs; at the
# rendezvous sizes the 4-rank ranks are out of step (spread > 4x the 2-rank
# one, in step in at most 3 iterations, a rank's wait begins before its
# last peer's Isend: lag > 0 > the 2-rank lag), the eager box 16^3 is in
# step in most iterations; an xferlab that is not there is a one-line error,
# not a traceback. tools/halo_stagger.sh on baseline 200^3 (2 steps): the
# rows of the docs, its in-step row plus the preset's on-node MPI step
# (hgx_h100_nvlink4 [mpi_node] at 200^3: 15.0 µs) is the committed
# prediction's iteration (x4_h100_run12.csv, 215.5 µs), and the offset shrinks;
# a word for OFFSET_US or STEPS is a one-line error, exit 2.
set -euo pipefail
py=$1
xferlab=$2
stagger=$3
# shellcheck source=diag_table_checks.sh
. "$(dirname "$0")/diag_table_checks.sh"  # tmp, fail, table, missing_xferlab_is_one_line
table "$py" "$xferlab" "run,variant,size,spread_2_us,spread_4_us,in_step_4,late_4,lag_2_us,lag_4_us,wait_4_us,tail_4_us,early_lag_tail_4_us,late_lag_tail_4_us,wait_sim_us,error_pct,pack_kernel_4_us,unpack_kernel_4_us" 6 baseline:200 host:box16 host:box64
grep -qx "12,baseline,200,7.7,75.0,1/50,23 39,-0.3,38.4,108.0,78.0,79.1/35.6,-1.4/98.7,96.0,-14.5,14.4/15.2/9.9/10.0,25.6/24.7/33.2/33.3" "$tmp/out" ||
  fail "run 12 baseline 200: $(grep '^12,baseline,200,' "$tmp/out")"
awk -F, 'NR > 1 {
  split($6, s, "/")
  if ($3 == "box16") { if (s[1] < s[2] / 4) { print "box 16^3 out of step: " $0; bad = 1 } next }
  if ($5 < 4 * $4 || s[1] > 3 || !($9 > 0 && $8 < 0)) { print "not out of step: " $0; bad = 1 }
} END { exit bad }' "$tmp/out" || fail "rows inconsistent"
missing_xferlab_is_one_line halo_x4_skew "$py" baseline:200
XFERLAB=$xferlab STEPS=2 "$stagger" baseline:200 > "$tmp/stagger" 2>&1 || fail "halo_stagger.sh: $(tail -1 "$tmp/stagger")"
printf '%s\n' "variant,size,step,offset_us,early_iteration_us,late_iteration_us,early_wait_us,late_wait_us" \
  "baseline,200,1,75.0,233.4,186.3,113.8,66.7" "baseline,200,2,27.9,213.1,196.3,93.5,76.7" \
  "baseline,200,in step,0.0,200.5,200.5,80.9,80.9" | diff - "$tmp/stagger" || fail "halo_stagger.sh rows"
grep -q '^baseline,200,4,.*,215.522,' docs/halo_sim/x4_h100_run12.csv || fail "x4_h100_run12.csv baseline 200 is not 215.522"
# A word for a number is a one-line error, exit 2 (bash and awk read it as 0).
for bad in OFFSET_US=abc STEPS=x; do
  rc=0
  env XFERLAB="$xferlab" "$bad" "$stagger" baseline:200 > /dev/null 2> "$tmp/bad" || rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l < "$tmp/bad")" = 1 ] && grep -q "^halo_stagger: ${bad%%=*} must be" "$tmp/bad" ||
    fail "$bad: exit $rc, $(cat "$tmp/bad")"
done
echo PASS
