#!/usr/bin/env bash
# Args: HALO_AB_NOISE_PY — tools/halo_ab_noise.py: a hand-computed synthetic
# triple (held-out e_A - e_B and |T_A - T_B| / T), the committed runs 25 / 26
# summary as docs/halo_sim_log.md quotes it, and one-line errors (exit 1).
set -euo pipefail
py=$1
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
h="run,variant,size,set,measured_us,sim_us,error_pct"
printf '%s\nr,sa,200,fitted,100,100,0\nr,sa,400,held-out,200,190,-5\n' "$h" > "$tmp/all.csv"
printf '%s\nr,sa,200,fitted,90,90,0\nr,sa,400,held-out,210,190,-8\n' "$h" > "$tmp/a.csv"
printf '%s\nr,sa,200,fitted,110,110,0\nr,sa,400,held-out,190,190,-1.5\n' "$h" > "$tmp/b.csv"
out=$(python3 "$py" "$tmp/all.csv" "$tmp/a.csv" "$tmp/b.csv")
# held-out: -8 - (-1.5) = -6.5 pts; spreads: |90-110|/100 = 20 %, |210-190|/200 = 10 %.
grep -qx "all,sa,400,-8.0,-1.5,-6.5" <<<"$out" || fail "row: $out"
grep -qx "# all: |e_A - e_B| held-out, pts: median 6.5, max 6.5 (1); |T_A - T_B| / T, %: median 15.0, max 20.0 (2)" <<<"$out" ||
  fail "summary: $out"

out=$(python3 "$py")
grep -qx "# all: |e_A - e_B| held-out, pts: median 2.5, max 10.2 (30); |T_A - T_B| / T, %: median 2.3, max 12.5 (72)" <<<"$out" ||
  fail "runs 25/26: $(tail -3 <<<"$out")"

printf '%s\nr,sa,200,fitted,90,90,0\n' "$h" > "$tmp/short.csv"
printf '%s\nr,sa,200,fitted,x,90,0\n' "$h" > "$tmp/bad.csv"
for args in "$tmp/all.csv $tmp/a.csv" "$tmp/all.csv $tmp/short.csv $tmp/b.csv" \
            "$tmp/all.csv $tmp/bad.csv $tmp/b.csv" "$tmp/all.csv $tmp/none.csv $tmp/b.csv"; do
  rc=0
  # shellcheck disable=SC2086
  python3 "$py" $args > "$tmp/err" 2>&1 || rc=$?
  [ "$rc" = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "^halo_ab_noise: " "$tmp/err" ||
    fail "args '$args': exit $rc, $(cat "$tmp/err")"
done
echo PASS
