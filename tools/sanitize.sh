#!/usr/bin/env bash
# Runs the CPU test suite (no GPU, no MPI, no //native/...) under
# AddressSanitizer and UndefinedBehaviorSanitizer, in a separate output base
# so the normal build cache is not thrown away, and prints the wall time of
# each. docs/reliability.md records the times and why CI does not run this.
#
#   tools/sanitize.sh [asan|ubsan]...   (default: both)
set -uo pipefail
cd "$(dirname "$0")/.."
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(asan ubsan)
base=${XFERLAB_SANITIZE_OUTPUT_BASE:-$HOME/.cache/xferlab/bazel-sanitize}
rc=0
for c in "${configs[@]}"; do
  start=$(date +%s)
  # No convenience symlinks: bazel-bin etc. keep pointing at the normal build,
  # and no bazel-<dir> link into the sanitizer output base is left for the
  # next config's //... to wander into.
  bazel --output_base="$base-$c" test --config="$c" --test_tag_filters=-gpu,-mpi \
    --experimental_convenience_symlinks=ignore \
    --test_timeout=600 -- //... -//native/... -//python/...
  r=$?
  echo "sanitize: --config=$c: exit $r in $(( $(date +%s) - start )) s"
  [ $r -eq 0 ] || rc=$r
done
exit $rc
