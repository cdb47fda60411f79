#!/usr/bin/env bash
# native/halo/run_all.sh OUTDIR — every halo-exchange measurement of issue 8 in
# one call (a few minutes): 2 ranks on 2 GPUs (when there are 2) and 2 ranks
# sharing 1 GPU; the paper's three sizes (200^3/400^3/800^3 split 4x4x4: each
# rank gets the 50^3/100^3/200^3 block); variants baseline, stream, stacked
# (halo_exchange) and sa, ki, host (gdasync_bench, if present); then the
# HPGMG-like box exchange (faces only, small boxes) with host/sa/ki.
#
# Writes into OUTDIR: halo.csv, boxes.csv (timer tables, min/avg/max over
# ranks), traces/*.xft (zstd-compressed; one per rank for each variant and
# size of the 2-GPU placement only, which keeps OUTDIR a few MB), logs/*.log,
# provenance.txt; prints a summary table at the end. Binaries come from
# $XFERLAB_BIN (default: dist/bin next to the repository root).
#
# Bounded: each run gets RUN_TIMEOUT_S (default 60 s); once BUDGET_S (default
# 220 s) have passed the remaining runs are skipped and reported, so the whole
# script stays under 4 minutes. A failed run does not stop the others.
#
# HALO_RANKS="2 4 8" (default 2) runs each rank count with one GPU per rank
# (counts above the GPU count are skipped and reported); the shared-GPU
# placement (2 ranks on 1 GPU) runs only with the default.
# HALO_BOXES="16 32 64" (default) are the HPGMG-like box edges.
# HALO_SIZES="200 400 800" (default) are the global cube edges, split 4x4x4
# like the paper's (200/400/800 run as --paper, any other multiple of 4 from
# 8 to 2000 as --per-rank EDGE/4, e.g. 300 -> 75^3 a rank): sizes between the
# paper's test the held-out interpolation at other places (run 25).
set -uo pipefail
out=${1:?usage: run_all.sh OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../tools/provenance.sh
. "$root/tools/provenance.sh"
bin=${XFERLAB_BIN:-$root/dist/bin}
iters=${HALO_ITERATIONS:-50}
warmup=${HALO_WARMUP:-10}
run_timeout=${RUN_TIMEOUT_S:-60}
budget=${BUDGET_S:-220}
mkdir -p "$out/traces" "$out/logs"
out=$(cd "$out" && pwd)
# NVLink multicast off (see KINDS.md): nothing here uses it, keep it that way.
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
# Persistent kernels wait on the host: lazy module loading could block a
# launch behind them (the programs set it too; this covers the launcher).
export CUDA_MODULE_LOADING=EAGER
# Carried libraries (tools/gpu_bundle.sh writes dist/env.sh), if any.
# shellcheck disable=SC1091
[ -f "$bin/../env.sh" ] && . "$bin/../env.sh"
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
read -r -a mpi_extra <<<"${MPI_ARGS:-}"
# HALO_MPI_BIND: mpirun's mapping/binding options (default --bind-to none, as
# every run before 2026-11-27). Why settable: a configuration's iteration time
# moves 14 % (median) from one launch to the next with unbound ranks while the
# 50 iterations inside a launch agree (docs/halo_sim_log.md, "Run-to-run
# variation"), so thread placement is the suspect; "--map-by slot:PE=4
# --bind-to core" gives each rank (main thread, proxy, MPI) its own cores.
read -r -a mpi_bind <<<"${HALO_MPI_BIND:---bind-to none}"

halo="$bin/halo_exchange"
gda="$bin/gdasync_bench"
[ -x "$halo" ] || { echo "run_all: $halo not found (build: see docs/halo.md)" >&2; exit 2; }
have_gda=0; [ -x "$gda" ] && have_gda=1

read -r -a halo_sizes <<<"${HALO_SIZES:-200 400 800}"
for size in "${halo_sizes[@]}"; do
  case $size in '' | *[!0-9]*) size_ok=0 ;; *) size_ok=$(( size >= 8 && size <= 2000 && size % 4 == 0 )) ;; esac
  [ "$size_ok" = 1 ] || { echo "run_all: HALO_SIZES: '$size' is not a global cube edge (a multiple of 4 from 8 to 2000)" >&2; exit 2; }
done
# size_args EDGE: the paper's name where it has one, else the block a rank gets.
size_args() {
  case $1 in 200 | 400 | 800) echo "--paper $1" ;; *) echo "--per-rank $(( $1 / 4 ))" ;; esac
}

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "${gpus:-0}" -ge 1 ] || { echo "run_all: no GPU found (nvidia-smi -L)" >&2; exit 1; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "command: $(portable_args "$0" "$@")"
  echo "gpus: $gpus"
  nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null
  echo "cuda: $(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -1)"
  echo "mpi: $(mpirun --version 2>&1 | head -1)"
  echo "iterations: $iters (warm-up $warmup)"
  echo "sizes: ${halo_sizes[*]} (global cube edges); boxes: ${HALO_BOXES:-16 32 64}"
  echo "mpi binding: ${mpi_bind[*]}"
  echo "binaries:"; portable_sha256 "$halo" "$gda"
  echo "topology:"; nvidia-smi topo -m 2>/dev/null
} > "$out/provenance.txt"

mpi_np=2
mpi=(mpirun --allow-run-as-root --oversubscribe "${mpi_bind[@]}" --report-bindings "${mpi_extra[@]}"
     -x LD_LIBRARY_PATH -x CUDA_MODULE_LOADING
     -x NCCL_NVLS_ENABLE -x NVSHMEM_DISABLE_NVLS -x TORCH_SYMM_MEM_DISABLE_MULTICAST)
failures=0
skipped=0
trace_args=()

# run NAME CSV PROGRAM ARGS...: one mpirun, bounded, logged.
run() {
  local name=$1 csv=$2; shift 2
  if [ "$SECONDS" -ge "$budget" ]; then
    echo "run_all: SKIPPED $name (time budget of $budget s used)"
    skipped=$((skipped + 1))
    return
  fi
  echo "run_all: $name"
  local t0=$SECONDS
  timeout --kill-after=10 "$run_timeout" "${mpi[@]}" -np "$mpi_np" "$@" --csv "$csv" "${trace_args[@]}" \
    --iterations "$iters" --warmup "$warmup" > "$out/logs/$name.log" 2>&1
  local rc=$?
  echo "[$rc, $((SECONDS - t0)) s] $name" >> "$out/provenance.txt"
  if [ $rc -ne 0 ]; then
    echo "run_all: FAILED $name (exit $rc; see logs/$name.log):"; tail -3 "$out/logs/$name.log"
    failures=$((failures + 1))
  fi
}

# Placements: gpusN = N ranks on N GPUs; shared1 = 2 ranks sharing GPU 0.
placements=()
for r in ${HALO_RANKS:-2}; do
  if [ "$r" -le "$gpus" ]; then placements+=("gpus$r")
  elif [ -n "${HALO_RANKS:-}" ]; then echo "run_all: SKIPPED $r ranks ($gpus GPU(s))"; skipped=$((skipped + 1)); fi
done
[ -z "${HALO_RANKS:-}" ] && placements+=(shared1)
for place in "${placements[@]}"; do
  if [ "$place" = shared1 ]; then
    mpi_np=2; export CUDA_VISIBLE_DEVICES=0
  else
    mpi_np=${place#gpus}; CUDA_VISIBLE_DEVICES=$(seq -s, 0 $((mpi_np - 1))); export CUDA_VISIBLE_DEVICES
  fi
  # One representative trace per variant, size and rank count: one GPU per
  # rank only (the shared-GPU placement is a CSV-only comparison).
  if [ "$place" != shared1 ]; then trace_args=(--trace-dir "$out/traces"); else trace_args=(); fi
  for size in "${halo_sizes[@]}"; do
    read -r -a sz <<<"$(size_args "$size")"
    for v in baseline stream stacked; do
      run "${place}_${v}_$size" "$out/halo.csv" \
        -x CUDA_VISIBLE_DEVICES "$halo" --variant "$v" "${sz[@]}" --label "${place}_$size"
    done
    if [ $have_gda = 1 ]; then
      for v in host sa ki; do
        run "${place}_${v}_$size" "$out/halo.csv" \
          -x CUDA_VISIBLE_DEVICES "$gda" --variant "$v" "${sz[@]}" --label "${place}_$size"
      done
    fi
  done
  if [ $have_gda = 1 ]; then
    # HPGMG-like boundary exchange: one variable, faces only, small boxes
    # (HALO_BOXES; the campaign part halo_detail adds 24^3, whose 4,608-B faces
    # lie just above Open MPI's 4 KiB eager limit, between 16^3 and 32^3).
    for box in ${HALO_BOXES:-16 32 64}; do
      for v in host sa ki; do
        run "${place}_boxes_${v}_$box" "$out/boxes.csv" \
          -x CUDA_VISIBLE_DEVICES "$gda" --variant "$v" --per-rank "$box" --vars 1 --pattern 7 \
          --label "${place}_box$box"
      done
    done
  fi
done

echo
echo "Summary: time per iteration (iteration_wall, avg over ranks, us)"
for csv in "$out/halo.csv" "$out/boxes.csv"; do
  [ -f "$csv" ] || continue
  echo "== $(basename "$csv")"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           $col["phase"] == "iteration_wall" {
             key = $col["size"]; v = $col["variant"]
             t[key, v] = $col["avg_ns"] / 1000; sizes[key] = 1; vars[v] = 1 }
           END {
             printf "%-16s", "size"; for (v in vars) printf " %10s", v; printf "\n"
             for (s in sizes) { printf "%-16s", s
               for (v in vars) printf " %10s", ((s, v) in t) ? sprintf("%.1f", t[s, v]) : "-"
               printf "\n" } }' "$csv" | { IFS= read -r header; echo "$header"; sort; }
done
du -sh "$out" | sed 's/^/output: /'
echo "failures: $failures, skipped: $skipped, $SECONDS s (outputs in $out)"
[ $failures -eq 0 ] && [ $skipped -eq 0 ]
