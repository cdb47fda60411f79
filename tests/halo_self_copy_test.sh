#!/usr/bin/env bash
# Args: SELF_COPY_PY XFERLAB — tools/halo_self_copy.py on the committed runs
# prints a row per run and variant (5 runs x 6 variants), every rate and
# interpolation consistent with its own row (line through 60000 / 960000 B;
# the cost per byte 0.2 of the way between the faces' lies between 60000 B's
# rate carried up and the line where 960000 B is the slower per byte); an
# xferlab that is not there is a one-line error, not a traceback.
set -euo pipefail
py=$1
xferlab=$2
# shellcheck source=diag_table_checks.sh
. "$(dirname "$0")/diag_table_checks.sh"  # tmp, fail, table, missing_xferlab_is_one_line
table "$py" "$xferlab" "run,variant,fixed_us,us_60000,us_240000,us_960000,gbps_60000,gbps_240000,gbps_960000,line_us,rate_us,at_rate_us,theta" 30
# (printed to 0.01 us / 0.1 GB/s: tolerances for that)
awk -F, 'function abs(x) { return x < 0 ? -x : x }
NR > 1 {
  for (i = 3; i <= 12; i++) if ($i + 0 <= 0) { print "non-positive: " $0; bad = 1 }
  if (abs($7 - 60000 / (($4 - $3) * 1e3)) > 0.1 || abs($9 - 960000 / (($6 - $3) * 1e3)) > 0.1) {
    print "rate does not match its row: " $0; bad = 1 }
  if (abs($10 - ($4 + 0.2 * ($6 - $4))) > 0.02) { print "line does not match its row: " $0; bad = 1 }
  if ($9 < $7 && ($11 < $12 - 0.02 || $11 > $10 + 0.02)) { print "rate_us outside [at_rate, line]: " $0; bad = 1 }
} END { exit bad }' "$tmp/out" || fail "rows inconsistent"
missing_xferlab_is_one_line halo_self_copy "$py"
echo PASS
