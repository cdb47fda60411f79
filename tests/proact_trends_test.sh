#!/usr/bin/env bash
# The committed PROACT trends (docs/proact_trends/{strong,micro}.csv, written
# by tools/proact_trends.sh, docs/proact_trends.md) are what xferlab gives now:
# a few of their rows replayed again with the script's command lines and
# compared (strong.csv: full precision, 1e-9 relative; micro.csv: its 0.1-us
# rounding). Covers the two model paths that made the committed table drift
# once (copy-engine window on NVSwitch: memcpy; HBM sharing: jacobi agents).
# After a model change that moves them: tools/proact_trends.sh and update
# docs/proact_trends.md.
set -euo pipefail
xferlab=$1
strong=$2
micro=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
stale="docs/proact_trends is stale (regenerate: tools/proact_trends.sh)"
traces=traces/real/2026-11-22_h200x2_run3/proact/traces

# replay ARGS...: the replay CSV's data rows.
replay() { "$xferlab" replay "$@" --format csv --jobs 1 2> "$tmp/err" | tail -n +2 ||
  fail "replay $*: $(cat "$tmp/err")"; }

# (b) strong scaling: as tools/proact_trends.sh (Table II agents; memcpy_ce4096).
for case in "jacobi 2" "pagerank 16"; do
  read -r app n <<< "$case"
  args=("$traces/${app}_g2_none_c256KiB_t32.xft.zst" --platform dgx2_v100_nvswitch --gpus "$n"
        --scaling strong --chunk-size 128KiB --set software.transfer_threads=2048)
  { replay "${args[@]}" --mechanism all
    replay "${args[@]}" --mechanism memcpy --set copy_engine.outstanding_packets=4096 |
      sed 's/,memcpy,/,memcpy_ce4096,/'
  } | awk -F, -v a="$app" '{ print a "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 }' > "$tmp/now.csv"
  rows=$(wc -l < "$tmp/now.csv")
  [ "$rows" = 7 ] || fail "$app at $n GPUs: $rows rows replayed, want 7"
  while IFS=, read -r a g m t e o u; do
    want=$(grep "^$a,$g,$m," "$strong") || fail "$a,$g,$m: no row in $strong; $stale"
    awk -F, -v w="$want" -v now="$a,$g,$m,$t,$e,$o,$u" 'BEGIN {
      split(w, x, ","); split(now, y, ",")
      for (i = 4; i <= 7; i++) { d = x[i] - y[i]; d = d < 0 ? -d : d; m = x[i] < 0 ? -x[i] : x[i]
        if (d > 1e-9 * (m > 1 ? m : 1)) { print "committed " w "\n  now      " now; exit 1 } } }' ||
      fail "$a,$g,$m differs; $stale"
  done < "$tmp/now.csv"
done

# (a) microbenchmark: V100 memcpy and cdp at 16 KiB (micro.csv rounds to 0.1 us).
"$xferlab" trace generate "$tmp/micro.xft" --workload micro --match-copy \
  --platform proact_v100_nvlink2 > /dev/null 2> "$tmp/err" || fail "trace generate: $(cat "$tmp/err")"
memcpy=$(replay "$tmp/micro.xft" --mechanism memcpy | cut -d, -f5)
cdp=$(replay "$tmp/micro.xft" --chunk-size 16KiB --mechanism cdp | cut -d, -f5)
want=$(grep '^proact_v100_nvlink2,16384,cdp,' "$micro") ||
  fail "proact_v100_nvlink2 cdp 16 KiB: no row in $micro; $stale"
awk -F, -v w="$want" -v t="$cdp" -v mc="$memcpy" 'BEGIN { split(w, x, ",")
  d1 = x[4] - t; d2 = x[5] - mc; if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2
  if (d1 > 0.051 || d2 > 0.051) { printf "committed %s\n  now cdp %.1f, memcpy %.1f\n", w, t, mc; exit 1 } }' ||
  fail "micro V100 16 KiB differs; $stale"
echo PASS
