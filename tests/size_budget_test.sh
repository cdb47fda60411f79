#!/usr/bin/env bash
# The committed results stay compact (docs/gpu.md, "Campaigns run"): the files
# under traces/ and docs/ together are at most LIMIT_MB megabytes (10^6 bytes),
# the sum `git ls-files -z traces docs | du --files0-from=- -cb` gives in a
# checkout. Bazel's sandbox has no .git, so this sums the files the test gets
# as data (//traces:all_files, //:docs_files: every file of those folders);
# over the limit it lists the largest run folders, the candidates to retire
# (docs/gpu.md, "Retired traces").
# Args: LIMIT_MB
set -euo pipefail
limit_mb=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -d traces/real ] && [ -d docs ] || fail "no traces/real or docs/ in the runfiles ($PWD)"
# Runfiles are symlinks: -L sizes their targets.
read -r files bytes < <(find -L traces docs -type f -printf '%s\n' |
  awk '{ n++; s += $1 } END { print n + 0, s + 0 }')
[ "$files" -ge 1000 ] || fail "only $files files under traces/ and docs/: is the data missing?"
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')
echo "traces/ + docs/: $files files, $bytes bytes ($mb MB); limit $limit_mb MB"
if awk -v b="$bytes" -v l="$limit_mb" 'BEGIN { exit !(b > l * 1e6) }'; then
  echo "largest folders under traces/real (MB):" >&2
  for d in traces/real/*/; do
    printf '%s %s\n' "$(find -L "$d" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.2f", s / 1e6 }')" "$d"
  done | sort -rn | head -10 >&2
  fail "traces/ + docs/ are $mb MB, over the $limit_mb MB limit: retire superseded traces (docs/gpu.md, \"Retired traces\")"
fi
echo PASS
