#!/usr/bin/env bash
# native/proact/run_xray.sh OUT_DIR — campaign part `xray` (tools/gpu_campaign.sh):
# the X-ray CT application on 1 GPU and on $PROACT_GPUS GPUs with every
# mechanism (inline, polling, polling_tma, cdp; the baselines memcpy, none =
# infinite bandwidth and track come with every call), Unified Memory
# (`--mechanism um`) for xray_ct and for every other workload, traced as
# run_validation.sh traces (agents record no per-copy transfers:
# --trace-agent-sample 0). Budget on 2x H200: <= 4 minutes.
# With PROACT_GPUS=1 only the 1-GPU runs (UM included) are made: a dry run.
# Binary lookup and $PROACT_GPUS as in run_all.sh (run_common.sh).
set -uo pipefail
out=${1:?usage: run_xray.sh OUT_DIR}
script=run_xray
source "$(dirname "$0")/run_common.sh"
# run NAME ARGS...: one proact invocation into OUT (run_common.sh).
run() { run_into "$out" "$@"; }

app_trace="--trace-cta-sample 256 --trace-capacity 262144 --trace-agent-sample 0"
micro_trace="--trace-cta-sample 64 --trace-capacity 65536 --trace-agent-sample 0"

# xray_ct on 1 GPU: the 1-GPU baseline (none), tracking cost, UM (managed memory).
run xray_ct_g1 --workload xray_ct --gpus 1 --chunk 256KiB --mechanism track,um --reps 3 \
  --trace-chunks 256KiB $app_trace
if [ "$gpus" -gt 1 ]; then
  run xray_ct_g$gpus --workload xray_ct --gpus "$gpus" --chunk 256KiB,2MiB \
    --mechanism inline,polling,polling_tma --threads 4096 --reps 3 --trace-chunks 256KiB $app_trace
  # CDP accepts at most 1024 transfer threads: its own call (as run_all.sh).
  run xray_ct_cdp_g$gpus --workload xray_ct --gpus "$gpus" --chunk 256KiB,2MiB --mechanism cdp \
    --threads 1024 --reps 3 --trace-chunks 256KiB $app_trace
fi

# Unified Memory for every workload (xray_ct's included) on $gpus GPUs; each
# workload's own check plus every GPU's checksum of the managed data.
run micro_um_g$gpus --workload micro --gpus "$gpus" --chunk 16MiB --mechanism um --reps 2 \
  --trace-chunks 16MiB $micro_trace
# With read-mostly pages (2+ GPUs) every write faults: Jacobi took 13.7 s per
# 10-iteration run on 1x H200 before 1 GPU dropped the hint, so the other
# applications' UM runs do 2 iterations (their none/memcpy baselines too).
for w in jacobi pagerank sssp als; do
  run ${w}_um_g$gpus --workload $w --gpus "$gpus" --chunk 256KiB --mechanism um --reps 2 \
    --iterations 2 --trace-chunks 256KiB $app_trace
done
run xray_ct_um_g$gpus --workload xray_ct --gpus "$gpus" --chunk 256KiB --mechanism um --reps 2 \
  --trace-chunks 256KiB $app_trace

compress_traces "$out"

echo
echo "== xray_ct and UM: time, speedups, verification =="
printf "%-22s %-9s %4s %-12s %9s %6s %10s %9s %9s %s\n" file workload gpus mechanism chunk_B thr time_ms vs_1gpu vs_memcpy verified
for f in "$out"/*.csv; do
  awk -F, -v f="$(basename "$f" .csv)" 'FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "%-22s %-9s %4s %-12s %9s %6s %10.4f %9.3f %9.3f %s\n", f, $col["workload"], $col["gpus"],
      $col["mechanism"], $col["chunk_bytes"], $col["threads"], $col["time_ms"], $col["speedup_vs_1gpu"],
      $col["speedup_vs_memcpy"], $col["verified"] }' "$f"
done
echo
echo "run_xray: $failures failed invocation(s); $(( $(date +%s) - start )) s; $(du -sh "$out" | cut -f1) in $out"
[ $failures -eq 0 ]
