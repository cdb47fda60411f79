#!/usr/bin/env bash
# docs/validation/unseen_threads.sh — agent thread counts no trace holds
# (docs/validation.md, "Unseen agent thread counts"): replays the 8192-thread
# micro 1 MiB polling / polling_tma traces with software.transfer_threads set
# to 1024 and 4096 and compares with the untraced rows of the same
# configuration in the results CSVs (never used for fitting). Run from the
# repository root after `bazel build -c opt //sim:xferlab`; writes CSV to stdout.
set -euo pipefail
xferlab=${XFERLAB:-bazel-bin/sim/xferlab}
echo "platform,mechanism,chunk_bytes,threads,measured_us,sim_us,error_pct,measured_csv,trace"
row() {  # CSV_DIR CSV TRACE_DIR TRACE_PREFIX GPUS PLATFORM
  local dir=$1 csv=$2 tdir=$3 prefix=$4 gpus=$5 platform=$6 mech threads measured sim
  for mech in polling polling_tma; do
    for threads in 1024 4096; do
      measured=$(awk -F, -v m="$mech" -v t="$threads" -v g="$gpus" \
        '$2 == g && $3 == m && $4 == 1048576 && $5 == t { printf "%.3f", $6 * 1000 }' "$dir/$csv")
      [ -n "$measured" ] || continue
      local trace="$tdir/${prefix}_${mech}_c1MiB_t8192.xft.zst"
      sim=$("$xferlab" replay "$trace" --mechanism polling --set "software.transfer_threads=$threads" \
        --format csv 2> /dev/null | awk -F, 'NR == 2 { print $5 }')
      awk -v p="$platform" -v m="$mech" -v t="$threads" -v a="$measured" -v s="$sim" -v c="$csv" -v f="$trace" \
        'BEGIN { printf "%s,%s,1048576,%s,%s,%.3f,%.2f,%s,%s\n", p, m, t, a, s, 100 * (s - a) / a, c, f }'
    done
  done
}
r4=traces/real/2026-11-22_h200x4_nvswitch
row $r4 micro_g4.csv $r4/traces micro_g4 4 h200x4_hgx_nvswitch
# 2 GPUs: the rows are in run 2's CSV; run 2's own agent traces were taken
# after a host gap (slowed), so run 3's traces of the same configuration are
# replayed. Run 1's identical rows were the fit's input: at 1024 threads
# these are repeats of in-sample configurations (TMA turnaround, per-thread rate).
row traces/real/2026-11-22_h200x2_run2/proact micro_g2.csv \
  traces/real/2026-11-22_h200x2_run3/proact/traces micro_g2 2 h200x2_nvlink4
