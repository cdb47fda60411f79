#!/usr/bin/env bash
# native/proact/run_robust.sh OUTDIR — the run-time guards of issue #21 on one
# GPU (docs/reliability.md), < 3 minutes, binaries from $XFERLAB_BIN (default
# dist/bin): tests/proact_robust_gpu_test.sh (per-wait agent timeout both
# ways, trace overflow and automatic capacity, memory refusals), then
# halo_exchange --variant stacked with 2 ranks on 1 GPU: refused by default,
# run with --share-gpus (and a warning). Logs, the overflowed traces and
# provenance.txt go to OUTDIR. Campaign part `robust` (tools/gpu_campaign.sh).
set -uo pipefail
out=${1:?usage: run_robust.sh OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../tools/provenance.sh
. "$root/tools/provenance.sh"
bin=${XFERLAB_BIN:-$root/dist/bin}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export CUDA_MODULE_LOADING=EAGER NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
# shellcheck disable=SC1091
[ -f "$bin/../env.sh" ] && . "$bin/../env.sh"
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "command: native/proact/run_robust.sh OUTDIR"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1
  echo "mem_available: $(grep MemAvailable /proc/meminfo)"
  echo "mpi: $(mpirun --version 2>&1 | head -1)"
  [ -f "$bin/../BUILD_INFO" ] && cat "$bin/../BUILD_INFO"
  echo "binaries:"; portable_sha256 "$bin/proact" "$bin/halo_exchange"
} > "$out/provenance.txt"
failures=0
"$root/tests/proact_robust_gpu_test.sh" "$bin/proact" "$out/proact" || failures=$((failures + 1))

# 8: stacked's cooperative kernels cannot share a GPU.
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2 -x LD_LIBRARY_PATH
     -x CUDA_MODULE_LOADING -x NCCL_NVLS_ENABLE -x NVSHMEM_DISABLE_NVLS -x TORCH_SYMM_MEM_DISABLE_MULTICAST)
halo=(--variant=stacked --paper=200 --iterations=3 --warmup=1 --gpus=1)
mkdir -p "$out/halo"
CUDA_VISIBLE_DEVICES=0 timeout 60 "${mpi[@]}" "$bin/halo_exchange" "${halo[@]}" \
  > "$out/halo/stacked_shared_default.log" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q "pass --share-gpus to run anyway" "$out/halo/stacked_shared_default.log"; then
  echo "ok   halo stacked, 2 ranks on 1 GPU: refused"
else
  echo "FAIL halo stacked, 2 ranks on 1 GPU: exit $rc: $(tail -2 "$out/halo/stacked_shared_default.log")"
  failures=$((failures + 1))
fi
t0=$SECONDS
CUDA_VISIBLE_DEVICES=0 timeout 90 "${mpi[@]}" "$bin/halo_exchange" "${halo[@]}" --share-gpus \
  > "$out/halo/stacked_shared_explicit.log" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q "take turns on each GPU" "$out/halo/stacked_shared_explicit.log"; then
  echo "ok   halo stacked --share-gpus, 2 ranks on 1 GPU: ran with a warning ($((SECONDS - t0)) s)"
else
  echo "FAIL halo stacked --share-gpus: exit $rc: $(tail -2 "$out/halo/stacked_shared_explicit.log")"
  failures=$((failures + 1))
fi
echo "run_robust: $failures part(s) failed"
[ "$failures" -eq 0 ]
