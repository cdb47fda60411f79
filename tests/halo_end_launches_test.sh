#!/usr/bin/env bash
# Args: XFERLAB SCRIPT GOLDEN_CSV KEPT_DIR — docs/halo_sim/end_launches.py on
# three "launches" that are all the kept set itself: every per-launch error and
# the median-of-predictions error must equal validate's own held-out error
# (the golden CSV), so the script assembles fitted ends and held-out sizes
# right (the launches lack the held-out traces, so those must come from the
# kept set). Also: a missing REPS_DIR is a one-line error, exit 1.
set -euo pipefail
xferlab=$(readlink -f "$1")
script=$2
golden=$3
kept=$4
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
# The launches lack the held-out sizes' traces: those must come from KEPT_DIR.
for k in 1 2 3; do
  mkdir -p "$tmp/reps/rep$k" && cp -rL "$kept"/. "$tmp/reps/rep$k/"
  chmod -R u+w "$tmp/reps/rep$k"
  rm -f "$tmp/reps/rep$k"/traces/*_gpus2_400_* "$tmp/reps/rep$k"/traces/*_gpus2_box32_*
done
python3 "$script" "$xferlab" "$tmp/reps" "$kept" "$tmp/out.csv" > "$tmp/log" 2>&1 ||
  fail "end_launches.py failed: $(tail -3 "$tmp/log")"
n=$(awk -F, '
  FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
  FILENAME ~ /out.csv$/ { k = $1 " " $2; got[k] = $0; next }
  $c[FILENAME, "set"] == "held-out" { want[$c[FILENAME, "variant"] " " $c[FILENAME, "size"]] = $c[FILENAME, "error_pct"] }
  END {
    n = 0
    for (k in want) {
      if (!(k in got)) { print "missing " k > "/dev/stderr"; exit 1 }
      m = split(got[k], f, ",")
      for (i = 4; i <= m; i++) {
        d = f[i] - want[k]; if (d < 0) d = -d
        if (d > 0.006) { print k ": column " i " " f[i] " vs validate " want[k] > "/dev/stderr"; exit 1 }
      }
      n++
    }
    print n
  }' "$golden" "$tmp/out.csv") || fail "errors differ from $golden"
[ "$n" = 9 ] || fail "expected 9 held-out cases, got $n"
rc=0
python3 "$script" "$xferlab" "$tmp/nowhere" "$kept" "$tmp/x.csv" > "$tmp/bad" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "^end_launches: .*nowhere: no rep1 ... repN folders" "$tmp/bad" ||
  fail "missing REPS_DIR: exit $rc, $(cat "$tmp/bad")"
echo PASS
