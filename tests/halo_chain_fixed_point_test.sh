#!/usr/bin/env bash
# Args: XFERLAB SCRIPT GOLDEN_CSV — docs/halo_sim/x4_chain_fixed_point.csv is
# what tools/halo_chain_fixed_point.sh prints (docs/halo_sim_log.md, "The chain in
# the replay": where the two pairs settle with XFERLAB_HALO_MPI_CHAIN=1; numbers
# within csv_close.awk's tolerance). Regenerate after a model change:
#   tools/halo_chain_fixed_point.sh
# Also: a bad XFERLAB_HALO_MPI_CHAIN, SEED_US or STEPS is a one-line error and exit 2.
set -euo pipefail
xferlab=$(readlink -f "$1")
script=$2
golden=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
XFERLAB=$xferlab "$script" "$tmp/fp.csv" > "$tmp/out" 2>&1 ||
  fail "halo_chain_fixed_point.sh failed: $(tail -3 "$tmp/out")"
paste -d '\n' "$golden" "$tmp/fp.csv" | awk -f "$(dirname "$0")/csv_close.awk" ||
  fail "$golden is stale (regenerate it, see the header of this test)"
rc=0
XFERLAB_HALO_MPI_CHAIN=on "$xferlab" replay \
  traces/real/2026-11-27_h100x4_run13/halo_median5_2rank/traces/host_gpus2_200_rank0.xft.zst \
  --ranks 4 > "$tmp/bad.out" 2> "$tmp/bad.err" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l < "$tmp/bad.err")" = 1 ] &&
  grep -q "XFERLAB_HALO_MPI_CHAIN='on' is not 0 or 1" "$tmp/bad.err" ||
  fail "bad XFERLAB_HALO_MPI_CHAIN: exit $rc, $(cat "$tmp/bad.err")"
# A word for a number is a one-line error, exit 2 (awk would read it as 0).
for bad in SEED_US=abc STEPS=x; do
  rc=0
  env XFERLAB="$xferlab" "$bad" "$script" "$tmp/bad.csv" > /dev/null 2> "$tmp/bad.err" || rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l < "$tmp/bad.err")" = 1 ] &&
    grep -q "^halo_chain_fixed_point: ${bad%%=*} must be" "$tmp/bad.err" || fail "$bad: exit $rc, $(cat "$tmp/bad.err")"
done
echo PASS
