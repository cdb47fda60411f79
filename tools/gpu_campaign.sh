#!/usr/bin/env bash
# Runs measurement sets on a GPU machine from the repository root, after
# tools/gpu_bundle.sh built dist/ here and dist/ was carried there:
#   tools/gpu_campaign.sh OUT_DIR PART...     PART: bench | halo | proact | validation | xray | nvswitch | halo_detail | heldout | scaling | robust
# (xray: native/proact/run_xray.sh, X-ray CT with every mechanism + UM for every workload;
# nvswitch: the 4-/8-GPU set of native/run_scale.sh, one call of <= 10 minutes;
# heldout: native/proact/run_heldout.sh, 2-GPU agent grid the simulator never saw, <= 8 minutes;
# scaling: native/proact/run_scaling.sh, 1 GPU, workloads at 1/1..1/16 of their size, < 3 minutes;
# robust: native/proact/run_robust.sh, issue #21's run-time guards on 1 GPU, < 3 minutes)
# (halo_detail: the 2-GPU halo/GPUDirect Async set only, baseline/stream/stacked and host/sa/ki at
# 200^3/400^3/800^3 and the 16/24/32/64 boxes, whose traces the halo replay fits; 24^3 sits just
# above the 4 KiB eager limit (docs/halo_sim.md), < 4 minutes)
# Each part's run script writes CSVs, compact traces and provenance into
# OUT_DIR/PART; each part is then packed into OUT_DIR/PART.tgz (the GPU hosts
# have no zstd binary; traces are already zstd-compressed per block).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: tools/gpu_campaign.sh OUT_DIR PART...}
shift
[ $# -gt 0 ] || { echo "gpu_campaign: name at least one part (bench, halo, proact, validation, xray, nvswitch, halo_detail, heldout, scaling, robust)" >&2; exit 2; }
[ -f dist/env.sh ] || { echo "gpu_campaign: dist/ missing: run tools/gpu_bundle.sh and carry dist/" >&2; exit 2; }
source dist/env.sh
root=$(pwd)
# shellcheck source=provenance.sh
. tools/provenance.sh
export CUDA_MODULE_LOADING=EAGER
work=$(mktemp -d)
rc=0
for part in "$@"; do
  part_env=()
  case "$part" in
    bench) script=native/bench/run_all.sh ;;
    halo) script=native/halo/run_all.sh ;;
    halo_detail) script=native/halo/run_all.sh; part_env=(HALO_RANKS=2 "HALO_BOXES=16 24 32 64") ;;
    proact) script=native/proact/run_all.sh ;;
    validation) script=native/proact/run_validation.sh ;;
    xray) script=native/proact/run_xray.sh ;;
    nvswitch) script=native/run_scale.sh ;;
    heldout) script=native/proact/run_heldout.sh ;;
    scaling) script=native/proact/run_scaling.sh ;;
    robust) script=native/proact/run_robust.sh ;;
    *) echo "gpu_campaign: unknown part '$part' (bench, halo, proact, validation, xray, nvswitch, halo_detail, heldout, scaling, robust)" >&2; exit 2 ;;
  esac
  t0=$(date +%s)
  echo "=== $part: $script"
  env "${part_env[@]}" "$script" "$work/$part" 2>&1 | tail -40
  status=${PIPESTATUS[0]}
  echo "=== $part: exit $status after $(( $(date +%s) - t0 )) s"
  [ "$status" -eq 0 ] || rc=1
  { echo "campaign_command: tools/gpu_campaign.sh $(portable_args "$out") $part"; cat dist/BUILD_INFO; } > "$work/$part/BUILD_INFO"
  tar -C "$work" -czf "$out/$part.tgz" "$part"
  ls -la "$out/$part.tgz"
done
exit $rc
