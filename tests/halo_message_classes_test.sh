#!/usr/bin/env bash
# Args: MESSAGE_CLASSES_PY XFERLAB — tools/halo_message_classes.py on the
# seven median-of-5 runs' stacked traces: 3 message sizes per run and size
# (63 rows); run 15's 800^3 edges as in docs/halo_sim_log.md ("Stacked 400^3");
# in every run the 800^3 edges (4800 B, stacked's long class) are seen by
# the CPU more than 10x later than the 400^3 edges (2400 B, short) and
# their peer latency is above 200 us; a missing xferlab is a one-line error.
set -euo pipefail
py=$1
xferlab=$2
# shellcheck source=diag_table_checks.sh
. "$(dirname "$0")/diag_table_checks.sh"  # tmp, fail, table, missing_xferlab_is_one_line
table "$py" "$xferlab" "run,variant,size,bytes,long,latency_peer_us,latency_self_us,ready_us,notify_us" 63 stacked
grep -q "^15,stacked,800,4800,yes,310.9,84.1,771.8,135.0$" "$tmp/out" ||
  fail "run 15 800^3 edges: $(grep '^15,stacked,800,4800,' "$tmp/out")"
awk -F, 'NR > 1 && $4 == 2400 { n4[$1] = $9 } NR > 1 && $4 == 4800 { n8[$1] = $9; l8[$1] = $6 }
  END { for (r in n8) if (n8[r] < 10 * n4[r] || l8[r] < 200) { print "run " r; bad = 1 }
        if (length(n8) != 7) bad = 1; exit bad }' "$tmp/out" || fail "800^3 edges not late in every run"
missing_xferlab_is_one_line halo_message_classes "$py"
echo PASS
