#!/usr/bin/env bash
# docs/proact_xray/regenerate.sh — the X-ray CT and Unified Memory tables of
# docs/proact.md from the committed campaign part `xray` (2x H200 run 4, 4x
# H200 NVSwitch): `xferlab validate` of their traces into validation.csv,
# then xray_um.py's tables into the page. Run from the repository root after
# `bazel build -c opt //sim:xferlab` (~20 s). XFERLAB overrides the binary.
set -euo pipefail
xferlab=${XFERLAB:-bazel-bin/sim/xferlab}
d=docs/proact_xray
# validate exits 1 when a case exceeds --tolerance; the table is wanted anyway.
"$xferlab" validate traces/real/2026-11-26_h200x2_run4/xray traces/real/2026-11-26_h200x4_nvswitch/xray \
  --format csv > "$d/validation.csv" || true
python3 "$d/xray_um.py" | python3 tools/doc_block.py docs/proact.md xray_um
