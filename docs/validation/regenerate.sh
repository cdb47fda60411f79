#!/usr/bin/env bash
# docs/validation/regenerate.sh — regenerates the committed validation tables
# and plots from the committed traces (docs/validation.md): run from the
# repository root after `bazel build -c opt //sim:xferlab`. About 2 minutes on
# two cores. XFERLAB overrides the binary.
set -euo pipefail
xferlab=${XFERLAB:-bazel-bin/sim/xferlab}
d=docs/validation
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# validate exits 1 when a case exceeds --tolerance; the tables are wanted anyway.
"$xferlab" validate --format csv > "$tmp/current.csv" || true
"$xferlab" validate --captures all --format csv > "$tmp/all.csv" || true
# One table per platform (validate also appends the halo-exchange rows,
# which have their own columns and page, docs/halo_sim.md).
split_platform() {  # CSV PLATFORM [CAPTURE]: rows of PLATFORM whose file path has CAPTURE
  awk -F, -v p="$2" -v c="${3:-}" 'NR == 1 || ($2 == p && index($14, c) > 0)' "$1"
}
split_platform "$tmp/current.csv" h200x2_nvlink4 > "$d/h200x2_validation.csv"
split_platform "$tmp/all.csv" h200x2_nvlink4 > "$d/h200x2_validation_all_captures.csv"
# The 4-GPU capture only: 1-GPU captures also pick this preset (scaling,
# docs/validation/scaling_heldout.csv has their own table).
split_platform "$tmp/current.csv" h200x4_hgx_nvswitch h200x4_nvswitch > "$d/h200x4_validation.csv"
if command -v gnuplot > /dev/null; then
  gnuplot "$d/scatter.gp"
  gnuplot "$d/scatter_h200x4.gp"
fi
# The per-case tables of docs/validation.md.
python3 "$d/md_tables.py"
# The summary lines of docs/validation.md ("In-sample vs held-out").
"$xferlab" validate --format table 2>&1 | sed -n '/^summaries/,$p' || true
