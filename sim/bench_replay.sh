#!/usr/bin/env bash
# sim/bench_replay.sh — replay speed: trace events per second of CPU time
# (user + sys of xferlab and its forked simulation processes) per mechanism,
# for committed traces, generated 16/64/1024-GPU cases and --mechanism all.
# CPU time, not wall time: the development machine is shared, so wall time
# says more about the neighbours than about xferlab. Prints one table row per
# case (docs/performance.md keeps the result with its commit and machine).
#
# Usage: sim/bench_replay.sh [quick|full]      (after bazel build //sim:xferlab)
#   quick: committed traces at their own GPU count, generated 16 GPUs, all.
#   full:  also committed traces at 16 GPUs (dgx2_v100_nvswitch, 4x P100 mesh),
#          generated 64 and 1024 GPUs (4 iterations, and 1 at 1024).
# BENCH_CPU_LIMIT_S (default 120): a case that needs more CPU is stopped and
# printed as "> LIMIT".
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-quick}
bin=${XFERLAB_BIN:-bazel-bin}/sim/xferlab
limit=${BENCH_CPU_LIMIT_S:-120}
mechs="memcpy inline polling cdp hardware infinite"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

events_of() { "$bin" trace info "$1" 2>/dev/null | sed -n 's/^events: *\([0-9]*\).*/\1/p'; }

printf "%-46s %-9s %9s %9s %14s %8s\n" case mechanism events cpu_s events_per_s peak_MiB
# row NAME TRACE MECH [replay flags...]: one replay under a CPU-time limit.
row() {
  local name=$1 trace=$2 mech=$3
  shift 3
  local events rc=0 user sys kb
  events=$(events_of "$trace")
  (ulimit -t "$limit"; exec /usr/bin/time -f "%U %S %M" "$bin" replay "$trace" \
    --mechanism "$mech" --format csv "$@" >/dev/null 2>"$tmp/err") || rc=$?
  read -r user sys kb <<<"$(tail -1 "$tmp/err")"
  if [ "$rc" -ne 0 ] || ! [[ "$user" =~ ^[0-9.]+$ ]]; then
    printf "%-46s %-9s %9s %9s %14s %8s\n" "$name" "$mech" "$events" "> $limit" - -
    return
  fi
  awk -v n="$name" -v m="$mech" -v e="$events" -v u="$user" -v s="$sys" -v k="$kb" 'BEGIN {
    c = u + s; printf "%-46s %-9s %9d %9.2f %14.0f %8d\n", n, m, e, c, (c > 0 ? e / c : 0), k / 1024 }'
}

real=traces/real
committed=(
  "$real/2026-11-22_h200x2_run3/proact/traces/micro_g2_polling_c16KiB_t8192.xft.zst"
  "$real/2026-11-22_h200x2_run2/proact/traces/als_g2_polling_c16KiB_t1024.xft.zst"
  "$real/2026-11-22_h200x2_run3/proact/traces/jacobi_g2_cdp_c256KiB_t1024.xft.zst"
  "$real/2026-11-22_h200x4_nvswitch/traces/jacobi_g4_polling_c256KiB_t4096.xft.zst"
  "$real/2026-11-22_h200x4_nvswitch/traces/micro_g4_none_c16KiB_t32.xft.zst"
)
for t in "${committed[@]}"; do
  for m in $mechs; do row "$(basename "$t" .xft.zst)" "$t" "$m"; done
done
row "$(basename "${committed[0]}" .xft.zst)" "${committed[0]}" all

# Generated: 16 GPUs on the 16-GPU DGX-2 preset, 256 chunks per GPU.
"$bin" trace generate --gpus 16 --chunks 256 --ctas 4096 --iterations 4 "$tmp/g16.xftrace" \
  >/dev/null 2>&1
for m in $mechs; do row "generated 16 GPUs, 256 chunks" "$tmp/g16.xftrace" "$m" \
  --platform dgx2_v100_nvswitch; done
row "generated 16 GPUs, 256 chunks" "$tmp/g16.xftrace" all --platform dgx2_v100_nvswitch

[ "$mode" = full ] || exit 0
for t in "${committed[@]}"; do
  for m in $mechs; do
    row "$(basename "$t" .xft.zst) @16 dgx2" "$t" "$m" --platform dgx2_v100_nvswitch --gpus 16
    row "$(basename "$t" .xft.zst) @4 p100" "$t" "$m" --platform proact_p100_nvlink1 --gpus 4
  done
done
for m in $mechs; do row "generated 16 -> 64 GPUs" "$tmp/g16.xftrace" "$m" \
  --platform dgx2_v100_nvswitch --gpus 64; done
for m in $mechs; do row "generated 16 -> 1024 GPUs" "$tmp/g16.xftrace" "$m" \
  --platform dgx2_v100_nvswitch --gpus 1024; done
# The case of #20: one iteration of the same generator settings.
"$bin" trace generate --gpus 16 --chunks 256 --ctas 4096 --iterations 1 "$tmp/g16i1.xftrace" \
  >/dev/null 2>&1
for m in $mechs; do row "generated 16 -> 1024 GPUs, 1 iteration" "$tmp/g16i1.xftrace" "$m" \
  --platform dgx2_v100_nvswitch --gpus 1024; done
