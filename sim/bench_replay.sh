#!/usr/bin/env bash
# sim/bench_replay.sh — replay speed: trace events per second of wall time on
# one core, a 16-GPU NVSwitch replay, and peak memory. Prints a table.
# Usage: sim/bench_replay.sh [CHUNKS_PER_GPU] [ITERATIONS]   (after bazel build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${XFERLAB_BIN:-bazel-bin}
chunks=${1:-256}
iters=${2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/tests/gen_trace" "$tmp/t.xftrace" polling 2 "$chunks" "$iters"
events=$("$bin/sim/xferlab" trace info "$tmp/t.xftrace" 2>/dev/null | sed -n 's/.*events[^0-9]*\([0-9][0-9]*\).*/\1/p' | head -1 || true)
printf "%-34s %10s %12s %10s\n" case wall_s events_per_s peak_MiB
run() {
  local name=$1; shift
  local out
  out=$( { /usr/bin/time -f "%e %M" taskset -c 0 "$bin/sim/xferlab" replay "$tmp/t.xftrace" "$@" >/dev/null; } 2>&1 | tail -1)
  local wall=${out% *} kb=${out#* }
  local eps="-"
  [ -n "${events:-}" ] && eps=$(awk -v e="$events" -v w="$wall" 'BEGIN{printf "%.0f", (w>0)?e/w:0}')
  printf "%-34s %10s %12s %10d\n" "$name" "$wall" "$eps" $((kb / 1024))
}
run "2 GPUs, all 6 mechanisms" --platform h200x2_nvlink4
run "2 GPUs, polling" --platform h200x2_nvlink4 --mechanism polling
run "16 GPUs NVSwitch, hardware" --platform hgx_h100_nvlink4 --gpus 16 --mechanism hardware
run "16 GPUs NVSwitch, hardware, fine" --platform hgx_h100_nvlink4 --gpus 16 --mechanism hardware --fan-out fine
run "16 GPUs NVSwitch, memcpy" --platform hgx_h100_nvlink4 --gpus 16 --mechanism memcpy
