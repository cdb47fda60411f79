#!/usr/bin/env bash
# `xferlab sweep` across processes: under `mpirun -np 2` (the ranks split the
# grid, rank 0 gathers) and as --shard I/N blocks (Slurm job arrays), the CSV
# must equal the serial sweep byte for byte. A plain run must not load MPI,
# and progress lines must stay off stderr when it is not a terminal.
# Needs Open MPI's mpirun (openmpi-bin, installed by tools/setup.sh).
set -euo pipefail
xferlab=$(readlink -f "$1")
gen=$(readlink -f "$2")
halo=$3  # a halo rank-0 trace: its sweep splits over ranks the same way
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v mpirun >/dev/null || fail "mpirun not found (apt-get install openmpi-bin)"

"$gen" "$tmp/poll.xftrace" polling 2 8 2
grid=(--param dma_agent.channels=1,2,4 --param gpus=2,4 --mechanism hardware
      --platform h200x2_nvlink4)

"$xferlab" sweep "$tmp/poll.xftrace" "${grid[@]}" -o "$tmp/serial.csv" 2> "$tmp/serial.err"
[ "$(wc -l < "$tmp/serial.csv")" -eq 7 ] || fail "serial sweep: expected header + 6 rows"
# Under --config=asan (tools/sanitize.sh) ASan warns once per process that
# SimGrid switches stacks (a notice, not a finding): not the sweep's output.
grep -v -e '__asan_handle_no_return' -e '^False positive error reports may follow' \
  -e 'google/sanitizers/issues/189' "$tmp/serial.err" > "$tmp/serial.own.err" || true
[ ! -s "$tmp/serial.own.err" ] || fail "serial sweep wrote to stderr (not a terminal): $(cat "$tmp/serial.own.err")"
if ldd "$xferlab" | grep -q libmpi; then fail "xferlab links libmpi (it must load it only under mpirun)"; fi
# Under --config=asan, LeakSanitizer reports Open MPI's own allocations
# (libmpi, libopen-pal, unloaded MCA plugins) at exit: not checked here.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

# Open MPI refuses root without these; --oversubscribe: CI has 2 cores.
mpirun --allow-run-as-root --oversubscribe -np 2 \
  "$xferlab" sweep "$tmp/poll.xftrace" "${grid[@]}" -o "$tmp/mpi.csv" 2> "$tmp/mpi.err" \
  || { cat "$tmp/mpi.err" >&2; fail "mpirun sweep failed"; }
cmp "$tmp/serial.csv" "$tmp/mpi.csv" || fail "MPI sweep differs from the serial sweep"

# 3 ranks over 6 points, stdout: rank 0 alone writes the CSV.
mpirun --allow-run-as-root --oversubscribe -np 3 \
  "$xferlab" sweep "$tmp/poll.xftrace" "${grid[@]}" > "$tmp/mpi3.csv" 2> "$tmp/mpi3.err" \
  || { cat "$tmp/mpi3.err" >&2; fail "mpirun -np 3 sweep failed"; }
cmp "$tmp/serial.csv" "$tmp/mpi3.csv" || fail "3-rank MPI sweep differs from the serial sweep"

# A bad grid fails once with the one-line error and exit 2, on every rank.
if mpirun --allow-run-as-root --oversubscribe -np 2 "$xferlab" sweep "$tmp/poll.xftrace" \
     --param gpus=2,x > /dev/null 2> "$tmp/bad.err"; then
  fail "MPI sweep with a bad grid succeeded"
fi
[ "$(grep -c "^xferlab: gpus 'x': expected an integer 1..1024" "$tmp/bad.err")" -eq 1 ] \
  || { cat "$tmp/bad.err" >&2; fail "bad grid: expected the error once"; }

# Job-array shards: blocks in order, headers after the first dropped.
for i in 0 1 2 3; do
  "$xferlab" sweep "$tmp/poll.xftrace" "${grid[@]}" --shard "$i/4" -o "$tmp/shard.$i.csv"
done
awk 'FNR > 1 || NR == 1' "$tmp"/shard.{0,1,2,3}.csv > "$tmp/shards.csv"
cmp "$tmp/serial.csv" "$tmp/shards.csv" || fail "concatenated shards differ from the serial sweep"
# A halo trace's sweep (docs/halo_sim.md, "Sweeps") over 3 ranks.
halo_grid=(--param notification.doorbell=0.5us,5us --param ranks=2,8 --mode hw-doorbell)
"$xferlab" sweep "$halo" "${halo_grid[@]}" > "$tmp/halo_serial.csv"
mpirun --allow-run-as-root --oversubscribe -np 3 \
  "$xferlab" sweep "$halo" "${halo_grid[@]}" > "$tmp/halo_mpi.csv" 2> "$tmp/halo_mpi.err" \
  || { cat "$tmp/halo_mpi.err" >&2; fail "mpirun halo sweep failed"; }
cmp "$tmp/halo_serial.csv" "$tmp/halo_mpi.csv" || fail "MPI halo sweep differs from the serial sweep"
"$xferlab" sweep "$tmp/poll.xftrace" "${grid[@]}" --shard 4/4 2> "$tmp/shard.err" && fail "--shard 4/4 accepted"
grep -q "expected I/N with 0 <= I < N" "$tmp/shard.err" || fail "--shard error message"
echo "PASS"
