#!/usr/bin/env bash
# native/halo/run_repeats.sh OUTDIR N [NAME=MPI_BIND_OPTIONS ...] — run_all.sh
# N times (OUTDIR/rep1 ... repN, same environment: HALO_RANKS, HALO_BOXES, ...),
# one whole sweep after the other, so the repeats of a configuration lie
# minutes apart with every other configuration between them. Why: one
# sweep's value of a configuration moves by up to 20-30 % from one launch to
# the next on the lent machines, even on one lease (docs/halo_sim_log.md,
# "Run-to-run variation and the bound"), which no prediction can follow;
# tools/halo_median_repeat.py then keeps, for every configuration, the
# repeat whose iteration time is the median of the N.
# With NAME=OPTIONS arguments (e.g. none="--bind-to none"
# core="--map-by slot:PE=4 --bind-to core"), each repeat runs one sweep per
# protocol, alternating, into OUTDIR/NAME/repK with HALO_MPI_BIND=OPTIONS, so
# the protocols share the lease's minutes (docs/halo_sim_log.md, "Runs 9 and
# 10"); each binding is first checked with one tiny mpirun.
# Each sweep keeps its own budget (BUDGET_S) and timeouts; the exit status is
# non-zero if any sweep failed or skipped a run, or a binding is refused.
set -uo pipefail
out=${1:?usage: run_repeats.sh OUTDIR N [NAME=MPI_BIND_OPTIONS ...]}
n=${2:?usage: run_repeats.sh OUTDIR N [NAME=MPI_BIND_OPTIONS ...]}
shift 2
case $n in '' | *[!0-9]*) echo "run_repeats: N must be a positive integer, got '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "run_repeats: N must be at least 1" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
names=() binds=()
for p in "$@"; do
  case $p in
    [A-Za-z]*=*) names+=("${p%%=*}") binds+=("${p#*=}") ;;
    *) echo "run_repeats: protocol '$p' is not NAME=MPI_BIND_OPTIONS" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
for i in "${!names[@]}"; do
  read -r -a bind_args <<<"${binds[$i]}"
  log="$out/binding_check_${names[$i]}.log"
  if ! mpirun --allow-run-as-root -np 2 "${bind_args[@]}" --report-bindings true > "$log" 2>&1; then
    echo "run_repeats: mpirun refuses binding ${names[$i]}='${binds[$i]}' (see $log):" >&2
    tail -3 "$log" >&2
    exit 2
  fi
done
rc=0
for k in $(seq 1 "$n"); do
  if [ ${#names[@]} -eq 0 ]; then
    echo "=== repeat $k of $n"
    "$here/run_all.sh" "$out/rep$k" | tail -4
    [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
    continue
  fi
  for i in "${!names[@]}"; do
    echo "=== repeat $k of $n: ${names[$i]} (${binds[$i]})"
    HALO_MPI_BIND="${binds[$i]}" "$here/run_all.sh" "$out/${names[$i]}/rep$k" | tail -2
    [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
  done
done
exit $rc
