#!/usr/bin/env bash
# Args: BREAKDOWN_PY XFERLAB — tools/halo_box32_breakdown.py on the committed
# runs prints a row per run and piece (6 runs x 8 pieces), every f32 equal to
# (v32 - v24) / (v64 - v24) of its own row (spans > 1 us), every time positive; an xferlab
# that is not there is a one-line error, not a traceback.
set -euo pipefail
py=$1
xferlab=$2
# shellcheck source=diag_table_checks.sh
. "$(dirname "$0")/diag_table_checks.sh"  # tmp, fail, table, missing_xferlab_is_one_line
table "$py" "$xferlab" "run,piece,us_box16,us_box24,us_box32,us_box64,f32" 48
awk -F, 'NR > 1 {
  for (i = 3; i <= 6; i++) if ($i + 0 <= 0 && $2 != "gap_ps_wr") { print "non-positive time: " $0; bad = 1 }
  span = $6 - $4
  # (printed to 0.01 us: check where the span is large enough for that)
  if (span > 1 || span < -1) { f = ($5 - $4) / span; d = f - $7; if (d < 0) d = -d
    if (d > 0.06) { print "f32 does not match its row: " $0; bad = 1 } }
} END { exit bad }' "$tmp/out" || fail "rows inconsistent"
missing_xferlab_is_one_line halo_box32_breakdown "$py"
echo PASS
