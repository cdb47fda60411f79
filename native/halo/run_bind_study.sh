#!/usr/bin/env bash
# native/halo/run_bind_study.sh OUTDIR N — does rank binding tame the
# launch-to-launch variation of the halo / GDA measurements?
# Runs run_all.sh 2N times, alternating unbound ranks (OUTDIR/none/repK:
# --bind-to none, every run before 2026-11-27) and ranks bound to their own
# cores (OUTDIR/core/repK: HALO_MPI_BIND below), so both protocols see the
# same minutes of the lease. tools/halo_median_repeat.py OUTDIR/none DEST and
# OUTDIR/core DEST then give each protocol's per-configuration spread
# (repeats.csv) and median repeat. Environment as run_all.sh (HALO_RANKS,
# HALO_BOXES, ...). Non-zero exit if any sweep failed or skipped a run, or if
# this mpirun cannot bind as asked (checked first, with one tiny launch).
set -uo pipefail
out=${1:?usage: run_bind_study.sh OUTDIR N}
n=${2:?usage: run_bind_study.sh OUTDIR N}
case $n in '' | *[!0-9]*) echo "run_bind_study: N must be a positive integer, got '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "run_bind_study: N must be at least 1" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
bound=${HALO_BIND_CORE:---map-by slot:PE=4 --bind-to core}
mkdir -p "$out"
read -r -a bound_args <<<"$bound"
if ! mpirun --allow-run-as-root -np 2 "${bound_args[@]}" --report-bindings true > "$out/binding_check.log" 2>&1; then
  echo "run_bind_study: mpirun cannot bind with '$bound' (see $out/binding_check.log):" >&2
  tail -3 "$out/binding_check.log" >&2
  exit 2
fi
rc=0
for k in $(seq 1 "$n"); do
  echo "=== repeat $k of $n: unbound"
  HALO_MPI_BIND="--bind-to none" "$here/run_all.sh" "$out/none/rep$k" | tail -2
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
  echo "=== repeat $k of $n: bound ($bound)"
  HALO_MPI_BIND="$bound" "$here/run_all.sh" "$out/core/rep$k" | tail -2
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
done
exit $rc
