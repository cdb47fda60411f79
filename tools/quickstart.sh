#!/usr/bin/env bash
# The main job on a shipped default (README quick start, first command):
# installs what is missing, builds xferlab, and replays a real trace measured on
# 2x H200 on its calibrated platform preset, printing measured vs simulated vs
# projected hardware PROACT for every transfer mechanism.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
bazel build --noshow_progress //:xferlab
xferlab=$(bazel info bazel-bin 2>/dev/null)/sim/xferlab
"$xferlab" --version
trace=${1:-traces/real/2026-11-22_h200x2_run3/proact/traces/micro_g2_polling_c16KiB_t8192.xft.zst}
echo "replaying $trace on h200x2_nvlink4"
"$xferlab" replay "$trace" --platform h200x2_nvlink4 --mechanism all
