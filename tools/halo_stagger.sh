#!/usr/bin/env bash
# tools/halo_stagger.sh [VARIANT:SIZE ...] — does the replay keep two pairs
# of ranks out of step? (docs/halo_sim_log.md, "2 -> 4 ranks: the ranks run out
# of step"). For each case (default: baseline:200 host:200 host:box64) it
# replays run 12's 2-rank trace at 4 ranks as tools/halo_predict_x4.sh does,
# with the ranks at odd y (2 and 3 of 2x2x1) started OFFSET µs late
# (XFERLAB_HALO_LATE_START_NS, sim/halo_model.cc), and iterates what several
# iterations would do: each pair starts its next iteration at its own end,
# so the next offset is the late pair's end minus the early pair's (>= 0).
# Starts at OFFSET_US (default: the measured 4-rank spread of baseline 200^3
# on run 12, 75 µs, tools/halo_x4_skew.py) and prints per step the offset and
# each pair's iteration and wait (µs; ranks 0 and 2), then the in-step
# replay's (offset 0) for comparison. RANKS=2: the trace's own 2 ranks, rank
# 1 late (the residual is still calibrated with both in step).
set -euo pipefail
cd "$(dirname "$0")/.."
x=$(readlink -f "${XFERLAB:-bazel-bin/sim/xferlab}")
two=${TWO:-traces/real/2026-11-27_h100x4_run12/halo_median5_2rank}
platform=${PLATFORM:-hgx_h100_nvlink4}
steps=${STEPS:-6}
ranks=${RANKS:-4}
case $ranks in 2) late=1 ;; 4) late=2 ;; *) echo "halo_stagger: RANKS must be 2 or 4, got '$ranks'" >&2; exit 2 ;; esac
# Checked: bash arithmetic reads a word as 0 and awk a word as 0 µs.
[[ $steps =~ ^[1-9][0-9]*$ ]] || { echo "halo_stagger: STEPS must be an integer >= 1, got '$steps'" >&2; exit 2; }
offset_us=${OFFSET_US:-75}
[[ $offset_us =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  { echo "halo_stagger: OFFSET_US must be a time in µs >= 0, got '$offset_us'" >&2; exit 2; }
cases=${*:-baseline:200 host:200 host:box64}
ends() {  # VARIANT SIZE OFFSET_NS -> "early_end late_end early_wait late_wait" (µs)
  local err
  err=$(XFERLAB_HALO_LATE_START_NS=$3 "$x" replay "$two/traces/${1}_gpus2_${2}_rank0.xft.zst" \
    --ranks "$ranks" --scaling weak --platform "$platform" --format csv 2>&1 >/dev/null) ||
    { echo "halo_stagger: $1 $2: $(tail -1 <<< "$err")" >&2; exit 1; }
  awk -v late="$late" '/^late_start / { end[$5] = $NF; wait[$5] = $(NF - 2) - $(NF - 4) } END {
    if (!(0 in end) || !(late in end)) {
      print "halo_stagger: no marks of ranks 0 and " late > "/dev/stderr"
      exit 1
    }
    print end[0], end[late], wait[0], wait[late] }' <<< "$err"
}
echo "variant,size,step,offset_us,early_iteration_us,late_iteration_us,early_wait_us,late_wait_us"
for c in $cases; do
  v=${c%%:*} s=${c#*:}
  off=$(awk -v u="$offset_us" 'BEGIN { printf "%.0f", u * 1000 }')
  for ((k = 1; k <= steps; k++)); do
    r=$(ends "$v" "$s" "$off")
    read -r e l we wl <<< "$r"
    awk -v c="$v,$s,$k" -v o="$off" -v e="$e" -v l="$l" -v we="$we" -v wl="$wl" '
      BEGIN { printf "%s,%.1f,%.1f,%.1f,%.1f,%.1f\n", c, o / 1000, e, l - o / 1000, we, wl }'
    off=$(awk -v e="$e" -v l="$l" 'BEGIN { d = (l - e) * 1000; printf "%.0f", (d > 0 ? d : 0) }')
  done
  # in step: the replay as tools/halo_predict_x4.sh has it (a tiny offset so the marks print).
  r=$(ends "$v" "$s" 1)
  read -r e l we wl <<< "$r"
  echo "$v,$s,in step,0.0,$e,$e,$(printf %.1f "$we"),$(printf %.1f "$wl")"
done
