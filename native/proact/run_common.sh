# native/proact/run_common.sh — sourced by run_all.sh and run_validation.sh
# (set `out` and `script` first): finds the proact binary, writes
# OUT/provenance.txt, and defines run_into and compress_traces.
# The binary: $PROACT, else proact next to these scripts, else dist/bin/proact,
# else bazel-bin. GPU count: $PROACT_GPUS (default 2).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../tools/provenance.sh
. "$root/tools/provenance.sh"
bin=${PROACT:-}
for c in "$here/proact" "$here/../../dist/bin/proact" "$here/../../bazel-bin/native/proact/proact"; do
  [ -z "$bin" ] && [ -x "$c" ] && bin=$c
done
[ -x "$bin" ] || { echo "$script: proact binary not found (set PROACT=/path/to/proact)" >&2; exit 2; }
gpus=${PROACT_GPUS:-2}
mkdir -p "$out"
start=$(date +%s)
failures=0
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command: $(portable_args "$0" "$@")"
  echo "binary: $(portable_path "$bin")"
  echo "host: $(hostname)"
  echo "gpus_used: $gpus"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,pci.bus_id --format=csv 2>&1
  nvidia-smi 2>/dev/null | grep -o "CUDA Version: [0-9.]*" | head -1
  echo "topology:"
  nvidia-smi topo -m 2>&1
} > "$out/provenance.txt"

# run_into DIR NAME ARGS...: one proact invocation, CSV to DIR/NAME.csv,
# traces under DIR/traces, stdout+stderr to DIR/NAME.log; counts failures.
# $PROACT_RUN_ONLY (an extended regex): run only the invocations whose NAME
# matches, e.g. the rest of a campaign part that a time budget cut.
run_into() {
  local dir=$1 name=$2; shift 2
  if [ -n "${PROACT_RUN_ONLY:-}" ] && ! [[ $name =~ $PROACT_RUN_ONLY ]]; then return; fi
  local t0=$(date +%s)
  mkdir -p "$dir"
  if "$bin" --csv "$dir/$name.csv" --out "$dir" --format csv "$@" > "$dir/$name.log" 2>&1; then
    echo "$script: $name ok ($(( $(date +%s) - t0 )) s)"
  else
    echo "$script: $name FAILED (exit $?): $(grep -v '^workload,\|^[a-z]*,[0-9]' "$dir/$name.log" | tail -1)"
    failures=$((failures + 1))
  fi
}

# compress_traces DIR: zstd every .xft under DIR (the GPU hosts may lack zstd:
# then they stay uncompressed, with a warning).
compress_traces() {
  if command -v zstd > /dev/null; then
    find "$1" -name '*.xft' -exec zstd -q --rm -T0 -12 {} +
  else
    echo "$script: zstd not installed: traces left uncompressed" >&2
  fi
}
