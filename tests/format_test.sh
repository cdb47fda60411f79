#!/usr/bin/env bash
# Fails when any C++/CUDA file in the source tree is not clang-formatted.
# The runfile symlink to .clang-format leads back to the source tree, whose
# files (tracked and new) are checked; tagged "external" so it never caches.
set -euo pipefail
cfg=$(readlink -f "$1")
exec "$(dirname "$cfg")/tools/format.sh" --check "$(dirname "$cfg")"
