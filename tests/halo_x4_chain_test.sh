#!/usr/bin/env bash
# Args: X4_CHAIN_PY XFERLAB — tools/halo_x4_chain.py on baseline 200^3 and host
# box 64^3 of runs 12, 16 and x4 (docs/halo_sim_log.md, "The late pair's wait:
# its early partner leaves MPI with its sends open"): run 12's baseline 200^3
# row as in the docs; at 200^3 on every run the late rank takes more per
# byte than at 2 ranks, its wait ends after its early face partner's return
# into MPI in at least 90 % of the iterations, about the time that partner's
# faces take at the 2-rank cost later (within 30 %), and that partner's
# unpack kernel, which runs meanwhile, is its 2-rank one (within 10 %); a
# case that is not baseline/host and an xferlab that is not there are
# one-line errors, not tracebacks.
set -euo pipefail
py=$1
xferlab=$2
# shellcheck source=diag_table_checks.sh
. "$(dirname "$0")/diag_table_checks.sh"  # tmp, fail, table, missing_xferlab_is_one_line
table "$py" "$xferlab" "run,variant,size,n,recv_first_us,send_to_entry_us,c2_ns_per_b,late_tail_us,late_ns_per_b,late_excess_us,early_done_us,early_unpack_us,unpack_kernel_2_4_us,late_after_return_us,its_faces_at_c2_us,after_return,slope_r" 6 baseline:200 host:box64
grep -qx "12,baseline,200,84,4.1,88.2,0.171,98.8,0.221,22.3,35.5,39.1,25.0/25.4,23.0,19.1,77/84,0.58/0.43" "$tmp/out" ||
  fail "run 12 baseline 200: $(grep '^12,baseline,200,' "$tmp/out")"
awk -F, 'NR > 1 && $3 == "200" {
  split($13, k, "/"); split($16, a, "/"); d = $14 - $15
  if (!($9 > $7 && $10 > 0 && $14 > 0 && a[1] >= 0.9 * a[2])) { print "not after the return: " $0; bad = 1 }
  if (d * d > 0.09 * $15 * $15) { print "remainder not the early faces at c2 (30 %): " $0; bad = 1 }
  if ((k[2] - k[1]) * (k[2] - k[1]) > 0.01 * k[1] * k[1]) { print "early unpack kernel slowed: " $0; bad = 1 }
  n++
} END { exit bad || n != 3 }' "$tmp/out" || fail "200^3 rows inconsistent"
for bad in stream:200 baseline; do
  if python3 "$py" "$xferlab" "$bad" > /dev/null 2> "$tmp/err"; then fail "$bad accepted"; fi
  grep -qx "halo_x4_chain: $bad: expected baseline:SIZE or host:SIZE" "$tmp/err" || fail "error: $(cat "$tmp/err")"
done
missing_xferlab_is_one_line halo_x4_chain "$py" baseline:200
echo PASS
