#!/usr/bin/env bash
# Args: PROXY_LOOP_PY XFERLAB — tools/halo_proxy_loop.py on the six
# median-of-5 runs prints a row per run, variant (sa, ki) and paper cube (36),
# each row consistent with itself (medians of per-iteration values: the
# back inside the period, the calls and `other` inside the back, sa's front
# kernels and its pack -> doorbell lag inside its front, late_door a
# doorbell index 0..25),
# ki without sa's kernel columns, the chords only at 400^3 and each between
# its 200^3 and 800^3 values; an xferlab that is not there is a one-line
# error, not a traceback.
set -euo pipefail
py=$1
xferlab=$2
# shellcheck source=diag_table_checks.sh
. "$(dirname "$0")/diag_table_checks.sh"  # tmp, fail, table, missing_xferlab_is_one_line
table "$py" "$xferlab" "run,variant,size,period_us,front_us,kernels_us,door_lag_us,interior_lag_us,back_us,self_us,peer_us,other_us,late_door,period_chord_us,front_chord_us,kernels_chord_us,back_chord_us,self_chord_us,peer_chord_us,other_chord_us" 36
awk -F, 'function abs(x) { return x < 0 ? -x : x }
NR > 1 {
  key = $1 "," $2
  for (i = 4; i <= 12; i++) if ($i != "" && $i + 0 <= 0) { print "non-positive: " $0; bad = 1 }
  if ($9 + 0 >= $4 + 0 || $10 + $11 + 0 >= $9 + 0 || $12 + 0 >= $9 + 0) { print "back / calls / other outside: " $0; bad = 1 }
  if ($2 == "sa" && ($6 == "" || $6 + $7 >= $5 + 0 || $13 == "" || $13 > 25)) { print "sa front kernels / lag / late_door: " $0; bad = 1 }
  if ($2 == "ki" && ($6 != "" || $7 != "" || $8 != "" || $13 != "")) { print "ki with sa columns: " $0; bad = 1 }
  if (($3 == 400) != ($14 != "")) { print "chord outside 400^3: " $0; bad = 1 }
  if ($3 == 200) for (i = 4; i <= 12; i++) lo[key, i] = $i
  if ($3 == 400) { for (i = 14; i <= 20; i++) c[key, i] = $i; seen[key] = 1 }
  if ($3 == 800) for (i = 4; i <= 12; i++) hi[key, i] = $i
}
END {
  # chord column -> its quantity column: period front kernels back self peer other
  split("4 5 6 9 10 11 12", q, " ")
  for (key in seen) for (j = 1; j <= 7; j++) {
    x = c[key, 13 + j]; a = lo[key, q[j]]; b = hi[key, q[j]]
    if (x == "") continue
    if (x < (a < b ? a : b) - 0.11 || x > (a < b ? b : a) + 0.11) { print "chord outside its ends: " key " col " q[j]; bad = 1 }
  }
  exit bad
}' "$tmp/out" || fail "rows inconsistent"
missing_xferlab_is_one_line halo_proxy_loop "$py"
echo PASS
