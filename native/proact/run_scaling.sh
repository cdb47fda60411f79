#!/usr/bin/env bash
# native/proact/run_scaling.sh OUT_DIR — campaign part `scaling`
# (tools/gpu_campaign.sh): how a workload's compute scales with its size, on
# ONE GPU (issue #23, held-out check of `xferlab replay --scaling strong`).
#
# Strong scaling at N GPUs gives each GPU 1/N of the problem. The simulator
# predicts that GPU's compute from a full-size trace (docs/scaling.md); here
# the 1/N-size problem is measured on one GPU for N = 1, 2, 4, 8, 16:
#   jacobi    --jacobi-rows 2^25 / N (rows are independent: exactly one GPU's share)
#   micro     --bytes 256 MiB / N at a fixed --work 213 (the 1-GPU calibration
#             of the 4x H200 capture, micro_g1.log), so only the size changes
#   pagerank  --graph-scale 22 - log2 N (same edges per vertex; a smaller
#             R-MAT graph, not a slice of the big one: approximate share)
#   als       --als-users 2^21 / N, items fixed (a GPU's share of the user step)
#   als_items --als-users 2^21 / N and --als-items 2^17 / N: a GPU's share of both steps
#             with the same ratings per user and per item (the fixed problem's slice)
# Mechanism `track` (proact measures the compute-only `none` baseline with it),
# traced like run_validation.sh. Nothing here is used for fitting: the
# prediction is made from the N = 1 trace alone.
# Budget: ~20 invocations, graph setup included, < 3 minutes on one H200.
# Output: OUT/n<N>/<workload>_n<N>.{csv,log}, traces under OUT/n<N>/traces.
# Binary lookup as in run_all.sh (run_common.sh); PROACT_GPUS is forced to 1.
set -uo pipefail
out=${1:?usage: run_scaling.sh OUT_DIR}
script=run_scaling
export PROACT_GPUS=1
source "$(dirname "$0")/run_common.sh"

trace="--trace-cta-sample 256 --trace-capacity 262144 --trace-agent-sample 0"
common="--gpus 1 --mechanism track --reps 3 $trace"
for n in 1 2 4 8 16; do
  log2=0
  while [ $((1 << log2)) -lt "$n" ]; do log2=$((log2 + 1)); done
  # One folder per size: proact's trace names do not carry the size.
  run() { run_into "$out/n$n" "$@"; }
  run jacobi_n$n --workload jacobi --jacobi-rows $(((1 << 25) / n)) --chunk 256KiB \
    --trace-chunks 256KiB $common
  run micro_n$n --workload micro --bytes $((256 / n))MiB --work 213 --chunk 1MiB \
    --trace-chunks 1MiB $common
  run pagerank_n$n --workload pagerank --graph-scale $((22 - log2)) --chunk 256KiB \
    --trace-chunks 256KiB $common
  run als_n$n --workload als --als-users $(((1 << 21) / n)) --chunk 256KiB \
    --trace-chunks 256KiB $common
  run als_items_n$n --workload als --als-users $(((1 << 21) / n)) --als-items $(((1 << 17) / n)) \
    --chunk 256KiB --trace-chunks 256KiB $common
done

compress_traces "$out"
echo "run_scaling: $failures failed invocation(s); $(( $(date +%s) - start )) s;" \
  "$(du -sh "$out" | cut -f1) in $out"
[ $failures -eq 0 ]
