#!/usr/bin/env bash
# docs/validation/heldout_run4_whatif.sh — a diagnostic, not a preset change
# (docs/validation.md, "Held-out agent grid"), of the preset before the
# agent-model revision: its CSV is kept as run at e6f0478 and regenerate.sh no
# longer runs it (with the revised preset's per-slice cost, setting the old
# per-byte rate means nothing). It replays run 4's copy-bound micro
# polling traces (1024 and 2048 agent threads) with the preset and with
# software.copy_bw_per_thread at 139.5 MB/s, the value calibrate's own
# estimator gives on run 1 without the link-bound 256 MiB single-chunk rows
# (docs/validation/heldout_run4.py prints the fit rows). Run from the
# repository root after `bazel build -c opt //sim:xferlab`; CSV to stdout.
set -euo pipefail
xferlab=${XFERLAB:-bazel-bin/sim/xferlab}
rate=139.5MBps
dir=traces/real/2026-11-26_h200x2_run4/heldout
echo "trace,measured_us,sim_us,error_pct,sim_us_whatif,error_pct_whatif"
for threads in 1024 2048; do
  for chunk in 4KiB 16KiB 64KiB 256KiB 1MiB 4MiB; do
    trace=$dir/micro_t$threads/traces/micro_g2_polling_c${chunk}_t$threads.xft.zst
    # replay --format csv: sim_time_us is field 5, measured_us 10, error_pct 11.
    base=$("$xferlab" replay "$trace" --mechanism polling --format csv 2> /dev/null | awk -F, 'NR == 2')
    whatif=$("$xferlab" replay "$trace" --mechanism polling --set "software.copy_bw_per_thread=$rate" \
      --format csv 2> /dev/null | awk -F, 'NR == 2')
    awk -F, -v b="$base" -v w="$whatif" 'BEGIN {
      split(b, x, ","); split(w, y, ",")
      printf "%s,%.3f,%.3f,%.2f,%.3f,%.2f\n", x[1], x[10], x[5], x[11], y[5], y[11] }'
  done
done
