#!/usr/bin/env bash
# sim/bench_halo.sh — halo replay speed on one core: one iteration of the
# stream variant on the 800^3 cube (the committed 2x H200 trace's components),
# rescaled to 64, 256 and 1024 ranks (4 per node, NDR network). Prints a
# table: tasks in the graph, the simulation's own wall time (replay's wall_s
# column), the whole command's wall time (trace reduction included), peak RSS.
# Goal (issue 15): the 1024-rank row's command under 10 s.
# Usage: sim/bench_halo.sh [TRACE]   (after bazel build //sim:xferlab)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${XFERLAB_BIN:-bazel-bin}
trace=${1:-traces/real/2026-11-22_h200x2_run2/halo/traces/stream_gpus2_800_rank0.xft.zst}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-8s %10s %12s %12s %10s %14s\n" ranks tasks sim_wall_s command_s peak_MiB iteration_us
for ranks in 64 256 1024; do
  out=$( { /usr/bin/time -f "%e %M" taskset -c 0 "$bin/sim/xferlab" replay "$trace" --ranks "$ranks" \
    --ranks-per-node 4 --format csv > "$tmp/r.csv"; } 2>&1 | tail -1)
  row=$(tail -1 "$tmp/r.csv")
  # columns: variant,model,mode,ranks,ranks_per_node,per_rank,iteration_us,...,tasks,wall_s
  tasks=$(awk -F, 'NR == 2 {print $(NF-1)}' "$tmp/r.csv")
  sim_s=$(awk -F, 'NR == 2 {print $NF}' "$tmp/r.csv")
  it=$(awk -F, 'NR == 2 {print $7}' "$tmp/r.csv")
  printf "%-8s %10s %12.3f %12s %10d %14.1f\n" "$ranks" "$tasks" "$sim_s" "${out% *}" \
    $(( ${out#* } / 1024 )) "$it"
  : "$row"
done
