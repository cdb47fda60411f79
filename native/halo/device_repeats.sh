#!/usr/bin/env bash
# native/halo/device_repeats.sh FIRST LAST — on a lent GPU machine (the tool
# library's `device`, which brings back what a command leaves in $OUT, at most
# 8 files): native/halo/run_repeats.sh's sweeps FIRST..LAST, one whole
# run_all.sh sweep after the other, each tarred into $OUT/repK.tgz as it
# ends, with date, nvidia-smi, topology and lscpu at the start and the date
# at the end in $OUT/device_FIRST.txt. Why: a median of 5 at 2 and 4 ranks
# takes ~10 minutes, more than one device call, so the repeats are split over
# calls (runs 13-16: "1 3" then "4 5", or "1 5"); untar them side by side and
# run tools/halo_median_repeat.py as for run_repeats.sh. Environment as
# run_all.sh (XFERLAB_BIN, HALO_RANKS, HALO_BOXES, BUDGET_S, ...); WORK
# (default /tmp/halo_repeats) holds the sweeps. Exit 1 if a sweep failed.
set -uo pipefail
usage="usage: device_repeats.sh FIRST LAST (with OUT set)"
first=${1:?$usage} last=${2:?$usage}
for n in "$first" "$last"; do
  case $n in '' | *[!0-9]*) echo "device_repeats: FIRST and LAST must be repeat numbers >= 1, got '$n'" >&2; exit 2 ;; esac
done
[ "$first" -ge 1 ] && [ "$first" -le "$last" ] ||
  { echo "device_repeats: need 1 <= FIRST <= LAST, got $first $last" >&2; exit 2; }
[ -n "${OUT:-}" ] && [ -d "$OUT" ] ||
  { echo "device_repeats: OUT must name the folder that comes back (the device tool sets it)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-/tmp/halo_repeats}
mkdir -p "$work"
info="$OUT/device_$first.txt"
{ date -u; nvidia-smi; nvidia-smi topo -m; lscpu | head -20; } > "$info" 2>&1
rc=0
for k in $(seq "$first" "$last"); do
  echo "=== repeat $k start $(date -u +%T)"
  "$here/run_all.sh" "$work/rep$k" | tail -4
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
  echo "end $(date -u +%T)"
  tar -czf "$OUT/rep$k.tgz" -C "$work" "rep$k" || rc=1
done
date -u >> "$info"
exit $rc
