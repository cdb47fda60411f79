#!/usr/bin/env bash
# native/halo/run_repeats.sh OUTDIR N — run_all.sh N times (OUTDIR/rep1 ... repN,
# same environment: HALO_RANKS, HALO_BOXES, ...), one whole sweep after the
# other, so the repeats of a configuration lie minutes apart with every other
# configuration between them. Why: one sweep's value of a configuration moves
# by up to 20-30 % from one launch to the next on the lent machines, even on
# one lease (docs/halo_sim.md, "Run-to-run variation and the bound"), which no
# prediction can follow; tools/halo_median_repeat.py then keeps, for every
# configuration, the repeat whose iteration time is the median of the N.
# Each sweep keeps its own budget (BUDGET_S) and timeouts; the exit status is
# non-zero if any sweep failed or skipped a run.
set -uo pipefail
out=${1:?usage: run_repeats.sh OUTDIR N}
n=${2:?usage: run_repeats.sh OUTDIR N}
case $n in '' | *[!0-9]*) echo "run_repeats: N must be a positive integer, got '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "run_repeats: N must be at least 1" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
rc=0
for k in $(seq 1 "$n"); do
  echo "=== repeat $k of $n"
  "$here/run_all.sh" "$out/rep$k" | tail -4
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
done
exit $rc
