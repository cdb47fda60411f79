#!/usr/bin/env bash
# Args: STREAM_LATENCY_PY XFERLAB — tools/halo_stream_latency.py on the
# committed runs prints a row per run (5 runs): every median positive, self
# messages faster than peer ones at 1200 and 60000 B, the free line's slope
# negative (the case the a, b >= 0 fit exists for) and the fitted line flat at
# a value between the smallest and largest per-size latency; an xferlab that
# is not there is a one-line error, not a traceback.
set -euo pipefail
py=$1
xferlab=$2
# shellcheck source=diag_table_checks.sh
. "$(dirname "$0")/diag_table_checks.sh"  # tmp, fail, table, missing_xferlab_is_one_line
table "$py" "$xferlab" "run,peer_24_us,peer_1200_us,peer_60000_us,self_1200_us,self_60000_us,free_a_us,free_b_ns_per_byte,line_a_us,line_b_ns_per_byte" 5
grep -q "^9,71.7,71.0,69.5,24.8,9.7,63.5,-0.781,47.6,0.000$" "$tmp/out" || fail "run 9: $(grep '^9,' "$tmp/out")"
awk -F, 'NR > 1 {
  for (i = 2; i <= 7; i++) if ($i + 0 <= 0) { print "non-positive: " $0; bad = 1 }
  if ($5 >= $3 || $6 >= $4) { print "self not faster than peer: " $0; bad = 1 }
  if ($8 + 0 >= 0 || $10 + 0 != 0) { print "expected a negative free slope and a flat line: " $0; bad = 1 }
  if ($9 <= $6 || $9 >= $2 + $3 + $4) { print "flat line out of range: " $0; bad = 1 }
} END { exit bad }' "$tmp/out" || fail "rows inconsistent"
missing_xferlab_is_one_line halo_stream_latency "$py"
echo PASS
