#!/usr/bin/env bash
# Builds every native binary and collects it, with the non-system runtime files
# it needs and the run scripts, into dist/ (git-ignored), ready to copy to a
# GPU machine that has no Bazel. Usage: tools/gpu_bundle.sh [OUT_DIR] [bazel build flags...]
# On the GPU machine, run from the repository root: dist/bin/<program> ...
# (see docs/gpu.md). BUNDLE_PACKAGES (default //native/...) narrows what is built.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
shift || true
tools/setup.sh >/dev/null

mapfile -t targets < <(bazel query --noshow_progress "kind(\"cc_binary\", ${BUNDLE_PACKAGES:-//native/...})" 2>/dev/null)
[ ${#targets[@]} -gt 0 ] || { echo "gpu_bundle: no native binaries found" >&2; exit 1; }
bazel build --noshow_progress "$@" "${targets[@]}"
bin_dir=$(bazel info "$@" bazel-bin 2>/dev/null)

mkdir -p "$out/bin" "$out/lib"
for t in "${targets[@]}"; do
  rel=${t#//}; rel=${rel/://}
  cp "$bin_dir/$rel" "$out/bin/"
done
# Shared libraries that a stock Ubuntu 24.04 CUDA host may lack travel along
# (libfmt is not part of the CUDA image); system and driver libraries do not.
for b in "$out"/bin/*; do
  ldd "$b" 2>/dev/null | awk '/=>/ {print $3}' | grep -E 'libfmt|libzstd|libtoml' || true
done | sort -u | while read -r lib; do cp -L "$lib" "$out/lib/"; done
{
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "revision: $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)"
  echo "nvcc: $(/usr/local/cuda/bin/nvcc --version 2>/dev/null | tail -1)"
  echo "flags: $*"
} > "$out/BUILD_INFO"
cat > "$out/env.sh" <<'ENV'
# Source before running dist/bin/* on a GPU host: carried libraries, and NVLink
# multicast kept off on shared machines.
d=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
ENV
echo "gpu_bundle: ${#targets[@]} binaries in $out/bin ($(du -sh "$out" | cut -f1))"
