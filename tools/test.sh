#!/usr/bin/env bash
# The test command (README quick start; .ci/run calls exactly this):
# installs what is missing, builds everything, runs every test that needs no
# GPU and no MPI launcher, lists the skipped ones, and prints one count line.
# Extra arguments are passed to `bazel test` (e.g. a target pattern).
set -uo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh || exit 1

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(//...)
exclude=()
if ! { [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; } && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "test: no CUDA toolkit (set CUDA_HOME or install to /usr/local/cuda): skipping //native/..."
  exclude=(-- -//native/...)
fi

# Tests tagged gpu/mpi cannot run on a machine without a GPU or MPI launcher.
skipped=$(bazel query --noshow_progress \
  "attr(tags, '\\bgpu\\b|\\bmpi\\b', tests(${targets[*]}))" 2>/dev/null | sort)
if [ -n "$skipped" ]; then
  echo "test: skipping $(echo "$skipped" | wc -l) GPU/MPI test(s) (they need a GPU or mpirun; see docs/gpu.md):"
  echo "$skipped" | sed 's/^/  /'
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
bazel test --test_tag_filters=-gpu,-mpi "${targets[@]}" "${exclude[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# Tests that did not run (build failure) keep stale XML from earlier runs.
not_run=$(grep -oE '^//[^ ]+ +(NO STATUS|FAILED TO BUILD)' "$log" | awk '{print $1}')

# Count test cases from the JUnit XML of every test that was selected.
passed=0 failed=0 skip_cases=0
ran=$(bazel query --noshow_progress \
  "tests(${targets[*]}) except attr(tags, '\\bgpu\\b|\\bmpi\\b', tests(${targets[*]}))" 2>/dev/null)
testlogs=$(bazel info bazel-testlogs 2>/dev/null)
for t in $ran; do
  case "$t" in //native/*) [ ${#exclude[@]} -gt 0 ] && continue ;; esac
  if echo "$not_run" | grep -qxF "$t"; then failed=$((failed + 1)); continue; fi
  rel=${t#//}; rel=${rel/://}
  xml="$testlogs/$rel/test.xml"
  if [ ! -f "$xml" ]; then failed=$((failed + 1)); continue; fi
  # The first suite element carrying counts: gtest's <testsuites ...>, or the
  # <testsuite ...> Bazel writes for other tests (a crash counts as an error).
  head=$(grep -m1 -o '<testsuites\? [^>]*tests="[0-9]*"[^>]*>' "$xml")
  attr() { echo "$head" | sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p"; }
  n=$(attr tests); f=$(attr failures); e=$(attr errors); d=$(attr disabled); s=$(attr skipped)
  n=${n:-1}; f=${f:-0}; e=${e:-0}; d=${d:-0}; s=${s:-0}
  passed=$((passed + n - f - e - d - s)); failed=$((failed + f + e)); skip_cases=$((skip_cases + d + s))
done
nskip=$(( $(echo -n "$skipped" | grep -c .) + skip_cases ))
line="$passed passed, $failed failed"
[ "$nskip" -gt 0 ] && line="$line, $nskip skipped"
echo "$line"
[ $rc -eq 0 ] && [ $failed -eq 0 ] && exit 0
[ $rc -ne 0 ] && exit $rc
exit 3
