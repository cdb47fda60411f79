#!/usr/bin/env bash
# The held-out tables of the 4x H200 NVSwitch campaign of 2026-11-26
# (docs/validation/h200x4_2026-11-26_*.csv, docs/validation.md): the script
# that prints them checks the committed rows (counts, every row held-out,
# errors consistent with their columns; the held-out 2-GPU -> 4-GPU table
# as committed at 7ed7081, the revised one with the same rows; table a as
# committed at 7ed7081, a' with the same traces), and rows of the revised
# tables are replayed again to catch drift: b' (today's strong scaling) jacobi
# memcpy and polling, a' (today's agent costs) jacobi polling and polling_tma.
# After a model change that moves them:
#   docs/validation/h200x4_heldout.py --run   (and the tables in docs/validation.md)
set -euo pipefail
xferlab=$1
script=$2
csv=$3
own=$4
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$script" --check > "$tmp/tables.txt" 2> "$tmp/err" || fail "$script --check: $(cat "$tmp/err")"
grep -q '^(b) micro memcpy, comm-only: n=4 ' "$tmp/tables.txt" || fail "summary lines missing"
traces=traces/real/2026-11-22_h200x2_run3/proact/traces
for mech in memcpy polling; do
  trace=$(ls "$traces"/jacobi_g2_${mech}_c256KiB_t*.xft.zst)
  now=$("$xferlab" replay "$trace" --platform h200x4_hgx_nvswitch --gpus 4 --scaling strong \
    --mechanism "$mech" --format csv --jobs 1 2> "$tmp/err" | awk -F, 'NR == 2 { print $5 }') ||
    fail "replay $trace: $(cat "$tmp/err")"
  want=$(awk -F, -v t="$trace" -v m="$mech" \
    'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
     $c["source_trace"] == t && $c["mechanism"] == m { print $c["predicted_us"] }' "$csv")
  [ -n "$want" ] || fail "no row for $trace $mech in $csv"
  awk -v a="$now" -v b="$want" 'BEGIN { d = a - b; exit (d < 0 ? -d : d) > 0.001 }' ||
    fail "jacobi $mech: replay gives $now us, $csv has $want (regenerate: $script --run)"
done
traces=traces/real/2026-11-26_h200x4_nvswitch/proact_validation_g4/proact/traces
for mech in polling polling_tma; do
  trace=$traces/jacobi_g4_${mech}_c256KiB_t4096.xft.zst
  now=$("$xferlab" replay "$trace" --mechanism polling --format csv --jobs 1 2> "$tmp/err" |
    awk -F, 'NR == 2 { print $5 }') || fail "replay $trace: $(cat "$tmp/err")"
  want=$(awk -F, -v t="$trace" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["file"] == t { print $c["sim_us"] }' "$own")
  [ -n "$want" ] || fail "no row for $trace in $own"
  awk -v a="$now" -v b="$want" 'BEGIN { d = a - b; exit (d < 0 ? -d : d) > 0.001 }' ||
    fail "jacobi_g4 $mech: replay gives $now us, $own has $want (regenerate: $script --run)"
done
echo "PASS"
