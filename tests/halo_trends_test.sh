#!/usr/bin/env bash
# Args: XFERLAB HALO_TRENDS_SH DOC — tools/halo_trends.sh on run 6's traces
# (docs/halo_sim.md, "Papers' trends") writes the committed
# docs/halo_sim/{elis,agostini}{,_gain}.csv (replay rows: same rows and text,
# numbers within 1e-9 relative, each row's own wall_s not compared; gains
# identical), and the section's tables quote those gains. A stale file or
# table: tools/halo_trends.sh traces/real/2026-11-27_h200x2_run6/halo_median5/traces docs/halo_sim
set -euo pipefail
xferlab=$1
script=$2
doc=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
regen="tools/halo_trends.sh traces/real/2026-11-27_h200x2_run6/halo_median5/traces docs/halo_sim"

XFERLAB=$xferlab "$script" traces/real/2026-11-27_h200x2_run6/halo_median5/traces "$tmp" \
  > "$tmp/log" 2>&1 || fail "halo_trends.sh: $(tail -3 "$tmp/log")"
for f in elis agostini; do
  paste -d '\n' "docs/halo_sim/$f.csv" "$tmp/$f.csv" |
    awk -v skip=wall_s -f "$(dirname "$0")/csv_close.awk" || fail "docs/halo_sim/$f.csv is stale ($regen)"
  diff "docs/halo_sim/${f}_gain.csv" "$tmp/${f}_gain.csv" || fail "docs/halo_sim/${f}_gain.csv is stale ($regen)"
done

# The tables' cells, from the regenerated gains: "+9.6 / +11.8 / −2.1 %".
pct() { awk -v x="$1" 'BEGIN { printf "%s%s", (x < 0 ? "\342\210\222" : "+"), (x < 0 ? substr(x, 2) : x) }'; }
gain() {  # machine ranks size column -> the CSV's value
  awk -F, -v m="$1" -v r="$2" -v s="$3" -v c="$4" '$1 == m && $2 == r && $3 == s { print $c }' \
    "$tmp/elis_gain.csv"
}
sizes() {  # machine ranks column -> "a / b / c %"
  echo "$(pct "$(gain "$1" "$2" 200 "$3")") / $(pct "$(gain "$1" "$2" 400 "$3")") / $(pct "$(gain "$1" "$2" 800 "$3")") %"
}
row="| Power9 + V100, 2 | (size not stated) | +7 % (§6.3, Fig. 14 top) | $(sizes power9_v100_ib 2 4) | $(sizes power9_v100_ib 2 5) |"
grep -qF "$row" "$doc" || fail "docs/halo_sim.md has no row '$row'"
for size in 200 400 800; do
  row="| $(pct "$(gain power9_v100_ib 64 $size 4)") % | $(pct "$(gain power9_v100_ib 64 $size 5)") % |"
  grep "^| Power9 + V100, 64 | ${size}³ |" "$doc" | grep -qF "$row" ||
    fail "docs/halo_sim.md's 64-rank ${size}³ row does not quote '$row'"
done
for v in sa:3:5:SA ki:4:6:KI; do
  IFS=: read -r name proxy nic label <<< "$v"
  cells=$(awk -F, -v p="$proxy" -v n="$nic" '$1 == 16 && $2 == 2 { print "| " $p " % | " $n " % |" }' "$tmp/agostini_gain.csv")
  grep "^| $label, box 16³, 2 processes |" "$doc" | grep -qF "$cells" ||
    fail "docs/halo_sim.md's $name box 16³ row does not quote '$cells' ($name)"
done
echo PASS
