#!/usr/bin/env bash
# sim/bench_halo.sh — halo replay speed on one core: one iteration of the
# stream variant on the 800^3 cube (the committed 2x H200 trace's components:
# run 6's by default, as in docs/halo_sim.md "Speed"),
# rescaled to 64, 256 and 1024 ranks (4 per node, NDR network), with the
# default node-symmetric graph (node 0 simulated, exact: docs/halo_sim.md,
# "Speed") and, at 64 ranks, the fine graph (every rank) for comparison; then
# 1024 ranks at 8 to 512 per node and 1152 at 72 (NVL72), where the reduced
# graph is one node of k ranks, so time and memory follow k.
# Prints per row: the ranks, ranks per node, the graph, its tasks, the
# simulation's own wall time (replay's wall_s column), the whole command's CPU
# time (user + sys, trace reduction and the forked simulation included) and
# wall time, peak RSS (the largest of the command and its simulation child),
# and the predicted iteration (identical for both graphs).
# Goal (issue 15): the 1024-rank row under 10 s of CPU on one core; issue 20:
# peak memory linear in the simulated ranks.
# Usage: sim/bench_halo.sh [TRACE]   (after bazel build //sim:xferlab)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${XFERLAB_BIN:-bazel-bin}
trace=${1:-traces/real/2026-11-27_h200x2_run6/halo_median5/traces/stream_gpus2_800_rank0.xft.zst}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-6s %-5s %-8s %8s %11s %10s %10s %9s %14s\n" ranks k graph tasks sim_wall_s cpu_s \
  wall_s peak_MiB iteration_us
for run in "64 4 fine" "64 4 reduced" "256 4 reduced" "1024 4 reduced" "1024 8 reduced" \
  "1024 16 reduced" "1024 32 reduced" "1024 64 reduced" "1024 128 reduced" "1024 256 reduced" \
  "1024 512 reduced" "1152 72 reduced"; do
  set -- $run
  ranks=$1 per_node=$2 graph=$3
  out=$( { /usr/bin/time -f "%e %U %S %M" taskset -c 0 "$bin/sim/xferlab" replay "$trace" \
    --ranks "$ranks" --ranks-per-node "$per_node" --graph "$graph" --format csv \
    > "$tmp/r.csv"; } 2>&1 | tail -1)
  read -r wall user sys rss <<< "$out"
  # By column name; the quoted `data` field holds commas, so drop it first.
  field() {
    sed 's/"[^"]*"/data/' "$tmp/r.csv" | awk -F, -v name="$1" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c[name] }'
  }
  tasks=$(field tasks) sim_s=$(field wall_s) it=$(field iteration_us)
  printf "%-6s %-5s %-8s %8s %11.3f %10.2f %10.2f %9d %14.3f\n" "$ranks" "$per_node" "$graph" \
    "$tasks" "$sim_s" \
    "$(echo "$user + $sys" | bc)" "$wall" $((rss / 1024)) "$it"
done
