#!/usr/bin/env bash
# native/proact/run_heldout.sh OUT_DIR — held-out measurements for the
# simulator's agent models on 2x H200 (issue #23): agent thread counts and
# chunk sizes that no committed trace holds, every mechanism, traced like
# run_validation.sh (agents record no per-copy transfers, one untraced
# repetition right before the traced one). Nothing here is fitting data:
# `xferlab validate` labels every trace under a folder named *heldout*
# held-out, whatever a preset's fitted_on says (docs/validation.md).
#
# Grid (subsampled to fit one device call of <= 8 minutes; see the budget):
#   micro, 256 MiB per GPU, chunks 4 KiB-4 MiB (x4):
#     threads 2048: polling, polling_tma, cdp, inline (+ baselines)
#     threads 1024, 4096, 8192: polling, polling_tma, cdp (+ baselines)
#   jacobi, pagerank, sssp, als, xray_ct, chunks 64 KiB and 1 MiB:
#     threads 2048: polling, polling_tma, cdp, inline (+ baselines)
#     threads 8192: polling, polling_tma, cdp (+ baselines)
# proact measures the baselines none, track (per chunk) and memcpy with every
# invocation. Each invocation writes OUT/<name>/ (CSV, log, traces/): one
# folder each, because the baselines' trace names carry no thread count.
#
# Time: estimated from the committed 2x H200 runs (run 3's validation part:
# ~100 configurations in ~80 s, ~0.8 s each with setup): micro ~130
# configurations ~110 s, applications ~120 configurations ~150-200 s (graph
# setup included): ~5 minutes. $HELDOUT_BUDGET_S (default 420) stops
# launching invocations once spent; the ones skipped are listed at the end
# and in OUT/skipped.txt (the order below is by value: micro first).
# Binary lookup and $PROACT_GPUS as in run_all.sh.
set -uo pipefail
out=${1:?usage: run_heldout.sh OUT_DIR}
script=run_heldout
source "$(dirname "$0")/run_common.sh"
budget=${HELDOUT_BUDGET_S:-420}
skipped=()

# heldout NAME DIR ARGS...: one proact invocation into OUT/DIR unless the
# budget is spent (run_common.sh's run_into).
heldout() {
  local name=$1 dir=$2; shift 2
  if [ $(( $(date +%s) - start )) -ge "$budget" ]; then
    skipped+=("$dir/$name")
    echo "$script: $dir/$name skipped (budget of $budget s spent)"
    return
  fi
  run_into "$out/$dir" "$name" "$@"
}

chunks_micro=4KiB,16KiB,64KiB,256KiB,1MiB,4MiB
micro="--workload micro --gpus $gpus --chunk $chunks_micro --reps 5 --trace-chunks all
  --trace-cta-sample 64 --trace-capacity 262144 --trace-agent-sample 0"
heldout micro_g$gpus micro_t2048 $micro --mechanism polling,polling_tma,cdp,inline --threads 2048
for t in 1024 4096 8192; do
  heldout micro_g$gpus micro_t$t $micro --mechanism polling,polling_tma,cdp --threads $t
done

apps="jacobi pagerank sssp als xray_ct"
app="--gpus $gpus --chunk 64KiB,1MiB --reps 3 --trace-chunks all --trace-cta-sample 256
  --trace-capacity 262144 --trace-agent-sample 0"
for w in $apps; do
  heldout ${w}_g$gpus ${w}_t2048 --workload $w $app --mechanism polling,polling_tma,cdp,inline \
    --threads 2048
done
for w in $apps; do
  heldout ${w}_g$gpus ${w}_t8192 --workload $w $app --mechanism polling,polling_tma,cdp \
    --threads 8192
done

compress_traces "$out"
printf '%s\n' "${skipped[@]}" > "$out/skipped.txt"
echo "run_heldout: $failures failed invocation(s), ${#skipped[@]} skipped by the budget" \
  "(${skipped[*]:-none}); $(( $(date +%s) - start )) s; $(du -sh "$out" | cut -f1) in $out"
[ $failures -eq 0 ]
