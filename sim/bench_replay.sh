#!/usr/bin/env bash
# sim/bench_replay.sh — replay speed: trace events per second of CPU time
# (user + sys of xferlab and its forked simulation processes) per mechanism,
# for committed traces, generated 16/64/1024-GPU cases and --mechanism all.
# CPU time, not wall time: the development machine is shared, so wall time
# says more about the neighbours than about xferlab. Prints one table row per
# case (docs/performance.md keeps the result with its commit and machine).
#
# Usage: sim/bench_replay.sh [quick|sweep|full|every|graph]   (after bazel build //sim:xferlab)
#   quick: committed traces at their own GPU count, generated 16 GPUs, all;
#          then sweeps of the small committed traces (a separate table).
#   sweep: only quick's sweeps table.
#   full:  also committed traces at 16 GPUs (dgx2_v100_nvswitch, 4x P100 mesh),
#          two more committed traces there (4-GPU micro, Jacobi 16 KiB),
#          generated 64 and 1024 GPUs (4 iterations, and 1 at 1024).
#   every: every committed trace (traces/real) and mechanism at its own GPU
#          count, at 16 GPUs on dgx2_v100_nvswitch and at 4 on
#          proact_p100_nvlink1, then the slowest rows (#20/#23: each < 10 s).
#   graph: the task-graph core (--core graph) on the 1-iteration generated
#          trace at 64, 256 and 1024 GPUs, hardware and polling (#20).
# BENCH_CPU_LIMIT_S (default 120): a case that needs more CPU is stopped and
# printed as "> LIMIT". BENCH_REPEAT (default 1): replays per case, the least
# CPU time kept (the VM's neighbours only ever add time). XFERLAB_BIN: the
# bazel-bin to time (default ./bazel-bin), e.g. another commit's build.
# Last column: chunk transfers per CPU second, the work-normalised rate
# beside the issue's events/s: the replay input's chunks x destinations
# (replay prints them with XFERLAB_REPLAY_WORK set), six times for `all`.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-quick}
case "$mode" in quick | sweep | full | every | graph) ;;
  *) echo "usage: $0 [quick|sweep|full|every|graph]" >&2; exit 2 ;;
esac
bin=${XFERLAB_BIN:-bazel-bin}/sim/xferlab
limit=${BENCH_CPU_LIMIT_S:-120}
mechs="memcpy inline polling cdp hardware infinite"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# events_of TRACE: sets $events to the trace's event count (read once per trace).
declare -A events_cache
events_of() {
  [ -n "${events_cache[$1]:-}" ] ||
    events_cache[$1]=$("$bin" trace info "$1" 2>/dev/null | sed -n 's/^events: *\([0-9]*\).*/\1/p')
  events=${events_cache[$1]}
}

repeat=${BENCH_REPEAT:-1}
# cpu_run CMD...: runs CMD and prints "USER SYS MAXRSS_KB" as its last line
# of stderr: wait4's rusage of CMD and of the processes it waited for, to the
# microsecond (/usr/bin/time prints 10 ms, too coarse for 20-ms replays).
cpu_run() {
  python3 -c 'import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:])
_, status, ru = os.wait4(p.pid, 0)
print(f"{ru.ru_utime:.6f} {ru.ru_stime:.6f} {ru.ru_maxrss}", file=sys.stderr)
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)' "$@"
}
printf "%-46s %-9s %9s %9s %14s %8s %14s\n" case mechanism events cpu_s events_per_s peak_MiB \
  xfers_per_s
# row NAME TRACE MECH [replay flags...]: one replay under a CPU-time limit
# (MECH "-": replay's default, e.g. a halo trace's own variant).
row() {
  local name=$1 trace=$2 mech=$3
  shift 3
  local events rc=0 user sys kb best="" i u s k
  events_of "$trace"
  [ "$mech" = - ] || set -- --mechanism "$mech" "$@"
  for ((i = 0; i < repeat && rc == 0; ++i)); do
    (ulimit -t "$limit"; XFERLAB_REPLAY_WORK=1 cpu_run "$bin" replay \
      "$trace" --format csv "$@" >/dev/null 2>"$tmp/err") || rc=$?
    read -r u s k <<<"$(tail -1 "$tmp/err")"
    [[ "$u" =~ ^[0-9.]+$ ]] || break
    if [ -z "$best" ] || awk -v a="$u" -v b="$s" -v c="$best" 'BEGIN { exit !(a + b < c) }'; then
      best=$(awk -v a="$u" -v b="$s" 'BEGIN { print a + b }') user=$u sys=$s kb=$k
    fi
  done
  [ -n "$best" ] || user=$u sys=$s
  local work
  work=$(sed -n 's/^work: \([0-9]*\) chunk transfers$/\1/p' "$tmp/err")
  [ "$mech" = all ] && work=$((6 * ${work:-0}))
  if [ "$rc" -ne 0 ] || ! [[ "$user" =~ ^[0-9.]+$ ]]; then
    # Stopped at the limit, or refused (e.g. a halo trace at another GPU count).
    local why="> $limit"
    [[ "$user" =~ ^[0-9.]+$ ]] && awk -v u="$user" -v s="$sys" -v l="$limit" \
      'BEGIN { exit !(u + s < l - 1) }' && why=error
    printf "%-46s %-9s %9s %9s %14s %8s %14s\n" "$name" "$mech" "$events" "$why" - - -
    return
  fi
  awk -v n="$name" -v m="$mech" -v e="$events" -v u="$user" -v s="$sys" -v k="$kb" \
    -v w="${work:-0}" 'BEGIN { c = u + s
    printf "%-46s %-9s %9d %9.3f %14.0f %8d %14.0f\n", n, m, e, c, (c > 0 ? e / c : 0), k / 1024,
      (c > 0 ? w / c : 0) }'
}

real=traces/real
if [ "$mode" = graph ]; then
  "$bin" trace generate --gpus 16 --chunks 256 --ctas 4096 --iterations 1 "$tmp/g16i1.xftrace" \
    >/dev/null 2>&1
  for g in 64 256 1024; do
    for m in hardware polling; do row "generated 16 -> $g GPUs, 1 iteration, graph" \
      "$tmp/g16i1.xftrace" "$m" --platform dgx2_v100_nvswitch --gpus "$g" --core graph; done
  done
  exit 0
fi
if [ "$mode" = every ]; then
  find "$real" -name '*.xft*' | sort > "$tmp/traces"
  while read -r t; do
    n=$(basename "${t%.zst}" .xft)
    first=$(row "$n" "$t" memcpy)
    if [[ "$first" == *" error "* ]]; then
      # Not a PROACT trace: a halo trace replays as its own variant at its
      # own ranks; benchmark and overflowed traces are refused ("error").
      row "$n" "$t" -
      continue
    fi
    echo "$first"
    for m in $mechs; do
      [ "$m" = memcpy ] || row "$n" "$t" "$m"
      row "$n @16 dgx2" "$t" "$m" --platform dgx2_v100_nvswitch --gpus 16
      row "$n @4 p100" "$t" "$m" --platform proact_p100_nvlink1 --gpus 4
    done
  done < "$tmp/traces" | tee "$tmp/rows"
  echo "slowest (of $(wc -l < "$tmp/rows") replays of $(wc -l < "$tmp/traces") traces):"
  # cpu_s is columns 68-76 (names hold spaces); "> LIMIT" first.
  awk '{ c = substr($0, 68, 9); gsub(/ /, "", c); if (c ~ /^>/) c = 1e9; print c "\t" $0 }' \
    "$tmp/rows" | sort -g -r | cut -f2- | head -10
  exit 0
fi
committed=(
  "$real/2026-11-22_h200x2_run3/proact/traces/micro_g2_polling_c16KiB_t8192.xft.zst"
  "$real/2026-11-22_h200x2_run2/proact/traces/als_g2_polling_c16KiB_t1024.xft.zst"
  "$real/2026-11-22_h200x2_run3/proact/traces/jacobi_g2_cdp_c256KiB_t1024.xft.zst"
  "$real/2026-11-22_h200x4_nvswitch/traces/jacobi_g4_polling_c256KiB_t4096.xft.zst"
  "$real/2026-11-22_h200x4_nvswitch/traces/micro_g4_none_c16KiB_t32.xft.zst"
)
if [ "$mode" != sweep ]; then
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
fi

# Sweeps: `xferlab sweep` loads the program once and forks a process per
# point (and one per mechanism under it), so a point does not pay the program
# start of a separate replay. A separate table, per mechanism, on the small
# committed traces whose separate replays the fixed cost bounds: one sweep of
# BENCH_SWEEP_POINTS (default 16) points over gpu.memory_bw, --jobs 1; events
# replayed = points x the trace's events; CPU = the sweep and every process it
# forks; ms/point = CPU per point.
sweep_points=${BENCH_SWEEP_POINTS:-16}
bw_values=$(awk -v n="$sweep_points" \
  'BEGIN { for (i = 0; i < n; ++i) printf "%s%dGBps", (i ? "," : ""), 1000 + 10 * i }')
echo
echo "sweeps (one process loads, a fork per point; not the per-process rate above):"
printf "%-46s %-9s %6s %11s %9s %14s %9s\n" case mechanism points events cpu_s events_per_s ms_point
for t in "${committed[0]}" "${committed[2]}" "${committed[4]}"; do
  events_of "$t"
  for m in $mechs; do
    best=""
    for ((i = 0; i < repeat; ++i)); do
      (ulimit -t "$limit"; cpu_run "$bin" sweep "$t" --mechanism "$m" \
        --param "gpu.memory_bw=$bw_values" --jobs 1 -o /dev/null 2>"$tmp/err") || true
      read -r u s <<<"$(tail -1 "$tmp/err")"
      [[ "$u" =~ ^[0-9.]+$ ]] || continue
      c=$(awk -v a="$u" -v b="$s" 'BEGIN { print a + b }')
      if [ -z "$best" ] || awk -v a="$c" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$c; fi
    done
    awk -v n="$(basename "$t" .xft.zst)" -v m="$m" -v p="$sweep_points" -v e="$events" \
      -v c="${best:-0}" 'BEGIN { printf "%-46s %-9s %6d %11d %9.3f %14.0f %9.1f\n", n, m, p,
      p * e, c, (c > 0 ? p * e / c : 0), 1000 * c / p }'
  done
done
[ "$mode" = full ] || exit 0
echo
# The largest 4-GPU trace (16,384 chunks per GPU) and the slowest to scale
# out before the isolated inline links (Jacobi 16 KiB, inline).
committed+=(
  "$real/2026-11-22_h200x4_nvswitch/traces/micro_g4_polling_c16KiB_t8192.xft.zst"
  "$real/2026-11-22_h200x2_run2/proact/traces/jacobi_g2_inline_c16KiB_t32.xft.zst"
)
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
