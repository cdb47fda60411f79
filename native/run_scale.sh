#!/usr/bin/env bash
# native/run_scale.sh OUT_DIR — the 4- and 8-GPU campaign (issue 26) in one
# call of at most 10 minutes on an NVSwitch machine: PROACT validation traces
# at every GPU count, the PROACT campaign at the largest, halo exchange and
# GPUDirect Async at 2/4/8 ranks, the notification/interference benches once,
# and link benchmarks between GPU 0 and every peer, one at a time and all at
# once. Each part is bounded by its own time budget and by the call's overall
# deadline, so the whole set ends inside the call; what a budget cut is listed
# in OUT_DIR/summary.txt.
#
# SCALE_GPUS="4 8" (default: 4 and 8, those the machine has; on a smaller
# machine its own count, as a dry run). Binaries from dist/ (tools/gpu_bundle.sh).
set -uo pipefail
out=${1:?usage: run_scale.sh OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "${have:-0}" -ge 1 ] || { echo "run_scale: no GPU found (nvidia-smi -L)" >&2; exit 1; }
counts=()
for n in ${SCALE_GPUS:-4 8}; do [ "$n" -le "$have" ] && counts+=("$n"); done
[ ${#counts[@]} -gt 0 ] || counts=("$have")
largest=${counts[-1]}
echo "run_scale: $have GPU(s); GPU counts ${counts[*]}" | tee "$out/summary.txt"
rc=0
# part NAME BUDGET_S CMD...: one bounded part; its output goes to NAME.log.
# Every part is also cut at the call's overall deadline (SCALE_DEADLINE_S,
# default 570 s from the start), so the set never outlives one device call.
deadline=${SCALE_DEADLINE_S:-570}
part() {
  local name=$1 limit=$2; shift 2
  local left=$((deadline - SECONDS))
  if [ "$left" -lt 10 ]; then
    echo "[skipped] $name: overall deadline ${deadline} s reached" | tee -a "$out/summary.txt"
    rc=1
    return
  fi
  [ "$limit" -le "$left" ] || limit=$left
  local t0=$SECONDS
  timeout --kill-after=10 "$limit" "$@" > "$out/$name.log" 2>&1
  local st=$?
  echo "[$st, $((SECONDS - t0)) s] $name: $*" | tee -a "$out/summary.txt"
  [ $st -eq 0 ] || rc=1
}
# Budgets (s) add up to 570 including the kill grace: one 10-minute call.
for n in "${counts[@]}"; do
  part "proact_validation_g$n" $((150 / ${#counts[@]})) \
    env PROACT_GPUS="$n" "$root/native/proact/run_validation.sh" "$out/proact_validation_g$n"
done
part "proact_g$largest" 170 env PROACT_GPUS="$largest" "$root/native/proact/run_all.sh" "$out/proact_g$largest"
ranks="2"; for n in "${counts[@]}"; do ranks="$ranks $n"; done
part halo 150 env HALO_RANKS="$ranks" BUDGET_S=140 HALO_ITERATIONS=30 HALO_WARMUP=5 \
  "$root/native/halo/run_all.sh" "$out/halo"
part bench 50 env QUICK=1 "$root/native/bench/run_all.sh" "$out/bench"
# Link goodput from GPU 0 to each peer (every path crosses the switch).
bin=${XFERLAB_BIN:-$root/dist/bin}
for ((p = 1; p < largest && p < have; p++)); do
  part "link_0_$p" 15 "$bin/link_bench" --out="$out/link_0_$p" --targets=peer --device=0 --peer="$p" \
    --reps=3 --warmup=1 --footprint=64MiB '--ce-sizes=64KiB,1MiB,16MiB,256MiB' --sizes=4,32,128,256
done
# GPU 0 to every peer at once: the switch ports GPU 0 shares between its peers.
if [ "$have" -ge 2 ]; then
  part link_fanout 40 "$bin/link_bench" --out="$out/link_fanout" --targets=fanout --device=0 \
    --reps=3 --warmup=1 --footprint=64MiB '--ce-sizes=1MiB,16MiB,256MiB' --sizes=16,128 --variants=false
fi
if command -v zstd > /dev/null; then find "$out" -name '*.xft' -exec zstd -q --rm -T0 -12 {} +; fi
du -sh "$out" | sed 's/^/run_scale: output /' | tee -a "$out/summary.txt"
exit $rc
