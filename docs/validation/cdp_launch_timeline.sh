#!/usr/bin/env bash
# docs/validation/cdp_launch_timeline.sh — does the CDP launch interval grow
# with the child launches still pending? (docs/validation.md, "CDP launch
# interval: what run 1 identifies"). Part 1: run 1's micro cdp rows at 4, 16
# and 64 KiB chunks (the fit's input) as (median - none) / children. Part 2,
# held-out, a check of the hypothesis only (never fitted): the agent-record
# traces of 2026-11-26 (every 4th child recorded) and run 3 (every child).
# In launch-bound traces the child start times, split into ten equal parts in
# start order, give the interval against the children not yet started; every
# trace gives traced_run_time - device span, what the host waits after the
# last child. Run from the repository root after
# `bazel build -c opt //sim:xferlab`; writes CSV to stdout.
set -euo pipefail
xferlab=${XFERLAB:-bazel-bin/sim/xferlab}
run1=traces/real/2026-11-22_h200x2/proact/micro_g2.csv
echo "part,source,chunk_bytes,children,not_started_from,not_started_to,interval_ns,first_child_us,device_span_us,host_us,host_minus_span_us"
# Part 1: the rows, then calibrate's weighted fit through `none` (weights 1 / time^2) on the 16
# and 64 KiB rows only (chunk_bytes 0 in that row).
awk -F, '$3 == "none" && $4 == 4096 { none = $6 }
  $3 == "cdp" && $5 == 1024 { t[$4] = $6 }
  END {
    for (c = 4096; c <= 65536; c *= 4) { n = 268435456 / c
      printf "run1_median,%s,%d,%d,%d,%d,%.1f,,,%.1f,\n", FILENAME, c, n, n, 0, (t[c] - none) * 1e6 / n, t[c] * 1e3
      if (c > 4096) { w = 1 / (t[c] * t[c]); sny += w * n * (t[c] - none); snn += w * n * n } }
    printf "run1_fit_16_64KiB,%s,0,,,,%.1f,,,,\n", FILENAME, sny / snn * 1e6 }' "$run1"
# Part 2: held-out timelines.
for trace in traces/real/2026-11-26_h200x2_agent_records/agent_records/traces/micro_g2_cdp_c4KiB_t1024.xft.zst \
  traces/real/2026-11-26_h200x2_agent_records/agent_records/traces/micro_g2_cdp_c64KiB_t1024.xft.zst \
  traces/real/2026-11-26_h200x2_agent_records/agent_records/traces/micro_g2_cdp_c1MiB_t1024.xft.zst \
  traces/real/2026-11-26_h200x2_agent_records/agent_records/traces/micro_g2_cdp_c4MiB_t1024.xft.zst \
  traces/real/2026-11-22_h200x2_run3/agent_records/traces/micro_g2_cdp_c64KiB_t1024.xft.zst; do
  [ -f "$trace" ] || continue
  info=$("$xferlab" trace info "$trace" 2> /dev/null)
  host_ms=$(awk '/traced_run_time =/ { sub("ms", "", $NF); print $NF }' <<< "$info")
  span_us=$(awk '/^time span:/ { gsub("[(]", "", $(NF-1)); print $(NF-1) }' <<< "$info")
  chunk=$(awk '/chunk_size =/ { sub("B", "", $NF); print $NF }' <<< "$info")
  every=$(awk '/trace_agent_sample =/ { print $NF }' <<< "$info")
  "$xferlab" trace dump "$trace" 2> /dev/null |
    awk '$2 == "kernel_begin" { kb = $1 } $2 == "transfer_begin" { print $1 - kb }' | sort -n |
    awk -v f="$trace" -v c="$chunk" -v k="$every" -v h="$host_ms" -v s="$span_us" '
      { t[n++] = $1 }
      END {
        N = 268435456 / c  # children; every k-th recorded
        if (N < 4096) {  # copy-bound: child starts follow the link, not launches
          printf "heldout_trace,%s,%d,%d,,,,%.1f,%.1f,%.1f,%.1f\n", f, c, N, t[0] / 1e3, s, h * 1e3, h * 1e3 - s
          exit
        }
        for (b = 0; b < 10; ++b) {
          i0 = int(b * n / 10); i1 = int((b + 1) * n / 10) - 1
          printf "heldout_trace,%s,%d,%d,%d,%d,%.1f,%.1f,%.1f,%.1f,%.1f\n", f, c, N, N - k * i0,
                 N - k * i1, (t[i1] - t[i0]) / (k * (i1 - i0)), t[0] / 1e3, s, h * 1e3, h * 1e3 - s
        }
      }'
done
