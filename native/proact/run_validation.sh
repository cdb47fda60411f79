#!/usr/bin/env bash
# native/proact/run_validation.sh OUT_DIR — the traces `xferlab validate`
# replays for the agent mechanisms (polling, polling_tma, cdp), captured so
# that recording does not slow what it records (2x H200: ~80 s):
#   OUT/proact/          agents record no per-copy transfers
#                        (--trace-agent-sample 0): the validation set;
#   OUT/agent_records/   the same micro runs with a record per copy
#                        (--trace-agent-sample 1, as run_all.sh does) to
#                        measure how much those records perturb the run.
# The producer's own records (sampled CTA begin/end, one counter zero per
# chunk) are kept: they are the data-generation timeline the simulator needs.
# Binary lookup and $PROACT_GPUS as in run_all.sh.
set -uo pipefail
out=${1:?usage: run_validation.sh OUT_DIR}
script=run_validation
source "$(dirname "$0")/run_common.sh"
# run DIR NAME ARGS...: one proact invocation into OUT/DIR (run_common.sh).
run() { run_into "$out/$1" "${@:2}"; }

micro="--workload micro --gpus $gpus --reps 7 --trace-cta-sample 64 --trace-capacity 65536"
app="--gpus $gpus --chunk 256KiB --reps 3 --trace-cta-sample 256 --trace-capacity 262144"
# 256 MiB chunks (untraced): the agents' pure copy rate, one chunk after the kernel.
for s in 0 1; do
  dir=proact; [ $s -eq 1 ] && dir=agent_records
  run $dir micro_g$gpus $micro --chunk 16KiB,1MiB,16MiB,256MiB --mechanism polling,polling_tma \
    --threads 8192 --trace-chunks 16KiB,1MiB,16MiB --trace-agent-sample $s
  run $dir micro_cdp_g$gpus $micro --chunk 64KiB,1MiB,16MiB,256MiB --mechanism cdp \
    --threads 1024 --trace-chunks 64KiB,1MiB,16MiB --trace-agent-sample $s
done
for w in jacobi pagerank sssp als xray_ct; do
  run proact ${w}_g$gpus --workload $w $app --mechanism polling,polling_tma --threads 4096 \
    --trace-chunks 256KiB --trace-agent-sample 0
  run proact ${w}_cdp_g$gpus --workload $w $app --mechanism cdp --threads 1024 \
    --trace-chunks 256KiB --trace-agent-sample 0
done
compress_traces "$out"
echo "run_validation: $failures failed invocation(s); $(( $(date +%s) - start )) s; $(du -sh "$out" | cut -f1) in $out"
[ $failures -eq 0 ]
