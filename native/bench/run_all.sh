#!/usr/bin/env bash
# native/bench/run_all.sh — runs the native microbenchmarks on a GPU machine in
# one call (a few minutes), writes CSVs, traces (.xft, zstd-compressed inside)
# and a provenance file into OUTDIR, and prints a short summary table.
#
#   native/bench/run_all.sh OUTDIR           (from anywhere; binaries in dist/bin/)
#
# Environment: XFERLAB_BIN (default <repo>/dist/bin), MPI_ARGS (extra mpirun
# arguments, default "--mca btl_vader_single_copy_mechanism none"), QUICK=1 (fewer
# repetitions and smaller footprints, about a minute). Auto-detects 1 or 2
# GPUs: with one GPU the peer tests of link_bench are skipped. Exit status is
# non-zero if any benchmark failed (the others still run).
set -uo pipefail

if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
out=$(realpath -m "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
root=$repo
# shellcheck source=../../tools/provenance.sh
. "$root/tools/provenance.sh"
bin=${XFERLAB_BIN:-$repo/dist/bin}
mkdir -p "$out" || exit 1

# Carried libraries (tools/gpu_bundle.sh writes dist/env.sh), if any.
if [ -f "$bin/../env.sh" ]; then
  # shellcheck disable=SC1091
  . "$bin/../env.sh"
fi
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
# Open MPI's shared-memory single-copy (CMA) fails inside containers without
# ptrace rights; copy-in/copy-out works everywhere. Override with MPI_ARGS.
read -r -a mpi_args <<<"${MPI_ARGS:---mca btl_vader_single_copy_mechanism none}"
# NVLink multicast stays off on the shared machines.
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
# Spin latches hold a stream while kernels are enqueued behind them: with lazy
# module loading the first launch of a kernel blocks until the latch times
# out. The programs set this themselves too (use_eager_module_loading).
export CUDA_MODULE_LOADING=EAGER

for b in link_bench notify_bench interference_bench trace_overhead; do
  if [ ! -x "$bin/$b" ]; then
    echo "run_all: missing $bin/$b (build with tools/gpu_bundle.sh)" >&2
    exit 1
  fi
done
if ! command -v nvidia-smi >/dev/null; then
  echo "run_all: nvidia-smi not found: not a GPU machine?" >&2
  exit 1
fi
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')

if [ "${QUICK:-0}" = 1 ]; then
  link_args=(--reps=3 --warmup=1 --footprint=64MiB '--ce-sizes=4KiB,64KiB,1MiB,16MiB,256MiB')
  notify_args=(--reps=200 --warmup=20)
  interf_args=(--reps=5 --warmup=5 '--sizes=4KiB,1MiB,16MiB')
  overhead_args=(--reps=5 --warmup=1)
else
  link_args=(--reps=5 --warmup=1 --footprint=256MiB)
  notify_args=(--reps=1000 --warmup=50)
  interf_args=(--reps=20 --warmup=5)
  overhead_args=(--reps=20 --warmup=3)
fi

prov="$out/provenance.txt"
{
  echo "date_utc: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "revision: $(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  echo "gpus: $ngpu"
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total --format=csv
  echo "cuda_driver: $(nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -1)"
  echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1) x $(nproc)"
  # shellcheck disable=SC1091
  echo "os: $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), $(uname -sr)"
  echo "mpi: $(mpirun --version 2>/dev/null | head -1); mpirun args: ${mpi_args[*]}"
  echo "env: NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE NVSHMEM_DISABLE_NVLS=$NVSHMEM_DISABLE_NVLS TORCH_SYMM_MEM_DISABLE_MULTICAST=$TORCH_SYMM_MEM_DISABLE_MULTICAST"
  echo "--- nvidia-smi topo -m"
  nvidia-smi topo -m 2>&1
  echo "--- commands (exit status, seconds)"
} >"$prov"

failed=()
# run NAME TIMEOUT_S CMD...: runs with a time limit, logs stderr to NAME.log.
run() {
  local name=$1 limit=$2
  shift 2
  echo "run_all: $name ..." >&2
  local t0=$SECONDS
  timeout --kill-after=5 "$limit" "$@" >"$out/$name.out" 2>"$out/$name.log"
  local rc=$?
  echo "[$rc, $((SECONDS - t0)) s] $(portable_args "$@")" >>"$prov"
  if [ $rc -ne 0 ]; then
    failed+=("$name (exit $rc)")
    echo "run_all: $name failed (exit $rc); last lines of $out/$name.log:" >&2
    tail -5 "$out/$name.log" >&2
  fi
}

# Limits add up to 220 s (+5 s kill grace each): the set stays under 4 minutes.
run link_bench 100 "$bin/link_bench" --out="$out" "${link_args[@]}"
run notify_bench 40 "$bin/notify_bench" --out="$out" "${notify_args[@]}"
run trace_overhead 25 "$bin/trace_overhead" --out="$out" "${overhead_args[@]}"
run interference_bench 55 mpirun --allow-run-as-root -np 2 "${mpi_args[@]}" \
  -x LD_LIBRARY_PATH -x CUDA_MODULE_LOADING \
  -x NCCL_NVLS_ENABLE -x NVSHMEM_DISABLE_NVLS -x TORCH_SYMM_MEM_DISABLE_MULTICAST \
  "$bin/interference_bench" --out="$out" "${interf_args[@]}"

# Short summary: selected columns of each CSV.
col() {  # col FILE COLUMN-NAMES... -> those columns, aligned
  local f=$1
  shift
  [ -f "$f" ] || return 0
  awk -F, -v want="$*" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) idx[$i] = i }
    { line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? "\t" : "") (w[k] in idx ? $(idx[w[k]]) : "-"); print line }' "$f" |
    if command -v column >/dev/null; then column -t -s $'\t'; else cat; fi
}
echo
echo "=== link: SM vs copy engine (GB/s = bytes/ns) ==="
col "$out/link_bench_summary.csv" op target sm_best_contiguous_bw_bytes_per_s ce_peak_bw_bytes_per_s sm_over_ce ce_initiation_ns ce_back_to_back_ns goal
echo
echo "=== link: SM write efficiency vs write size ==="
[ -f "$out/link_bench.csv" ] && awk -F, 'NR == 1 || $1 == "sm_write"' "$out/link_bench.csv" >"$out/.sm_write.csv" &&
  col "$out/.sm_write.csv" target pattern write_bytes stride_bytes payload_bw_bytes_per_s efficiency mismatches && rm -f "$out/.sm_write.csv"
echo
echo "=== notification costs (ns) ==="
col "$out/notify_bench.csv" test variant median_ns p10_ns p90_ns clock_uncertainty_ns
echo
echo "=== trace recording overhead ==="
col "$out/trace_overhead.csv" test variant ns_per_event slowdown
echo
echo "=== interference: MPI_Send time (ns) ==="
col "$out/interference_bench.csv" scenario access size_bytes send_ns_median slowdown_vs_ssb
echo
du -sh "$out" | sed 's/^/output: /'
if [ ${#failed[@]} -ne 0 ]; then
  echo "run_all: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "run_all: all benchmarks passed"
