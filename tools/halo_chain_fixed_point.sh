#!/usr/bin/env bash
# tools/halo_chain_fixed_point.sh [OUT_CSV] — where the two pairs of the
# 4-rank halo replay settle with the MPI chain (XFERLAB_HALO_MPI_CHAIN=1;
# docs/halo_sim_log.md, "The chain in the replay", item 4), for the host-driven
# variants (the only ones the chain changes) of the five 2 -> 4 sets of
# tools/halo_predict_x4.sh (run 17's held-out for the chain: recorded and
# sealed before the chain was built). Per case: the ranks at odd y (2 and 3 of 2x2x1)
# start OFFSET late (XFERLAB_HALO_LATE_START_NS), from SEED_US (default
# 1 µs); each pair starts its next iteration at its own end, so the next
# offset is the late pair's end minus the early pair's (tools/halo_stagger.sh),
# until it moves by less than 0.1 µs or after STEPS (default 12) steps; the
# iteration there is the replay's (its slowest rank's) at that offset. The
# offset is the model's, not a measured one; the measured iteration and the
# in-step replay (one iteration, every rank at 0, what halo_predict_x4.sh
# prints) beside it. Writes OUT_CSV (default docs/halo_sim/x4_chain_fixed_point.csv).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/halo_sim/x4_chain_fixed_point.csv}
x=$(readlink -f "${XFERLAB:-bazel-bin/sim/xferlab}")
seed_us=${SEED_US:-1}
steps=${STEPS:-12}
# Checked: a word would be 0 µs to awk and never a step count to `[ -ge ]`.
[[ $seed_us =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  { echo "halo_chain_fixed_point: SEED_US must be a time in µs >= 0, got '$seed_us'" >&2; exit 2; }
[[ $steps =~ ^[1-9][0-9]*$ ]] ||
  { echo "halo_chain_fixed_point: STEPS must be an integer >= 1, got '$steps'" >&2; exit 2; }
R=traces/real
# set name, 2-rank traces, the prediction CSV (measured column), platform, boxes
sets="x4 $R/2026-11-26_h200x2_run4/halo_detail docs/halo_sim/x4_progress.csv h200x4_hgx_nvswitch box16,box32,box64
run12 $R/2026-11-27_h100x4_run12/halo_median5_2rank docs/halo_sim/x4_h100_run12.csv hgx_h100_nvlink4 box16,box24,box32,box64
run13 $R/2026-11-27_h100x4_run13/halo_median5_2rank docs/halo_sim/x4_h100_run13.csv hgx_h100_nvlink4 box16,box24,box32,box64
run16 $R/2026-11-27_h200x2_run15/halo_median5 docs/halo_sim/x4_h200_run16_from_run15.csv h200x4_hgx_nvswitch box16,box24,box32,box64
run17 $R/2026-11-27_h200x4_run17/halo_median5_2rank docs/halo_sim/x4_h200_run17.csv h200x4_hgx_nvswitch box16,box24,box32,box64"
replay() {  # TRACE PLATFORM OFFSET_NS -> "iteration early_end late_end" (µs)
  local err csv
  csv=$(XFERLAB_HALO_MPI_CHAIN=1 XFERLAB_HALO_LATE_START_NS=$3 "$x" replay "$1" --ranks 4 \
    --scaling weak --platform "$2" --format csv 2> "$tmp/err") ||
    { echo "halo_chain_fixed_point: $1: $(tail -1 "$tmp/err")" >&2; exit 1; }
  awk -F, 'NR == 2 { print $7 }' <<< "$csv" | tr '\n' ' '
  awk '/^late_start / { end[$5] = $NF } END {
    if (!(0 in end) || !(2 in end)) { print "halo_chain_fixed_point: no marks of ranks 0 and 2" > "/dev/stderr"; exit 1 }
    print end[0], end[2] }' "$tmp/err"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  echo "set,variant,size,measured_us,in_step_us,in_step_error_pct,offset_us,steps,fixed_point_us,fixed_point_error_pct"
  while read -r name two csv platform boxes; do
    for v in baseline host; do
      sizes="200 400 800"
      [ "$v" = host ] && sizes="$sizes ${boxes//,/ }"
      for s in $sizes; do
        trace=$two/traces/${v}_gpus2_${s}_rank0.xft.zst
        meas=$(awk -F, -v v="$v" -v s="$s" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
          $c["variant"] == v && $c["size"] == s { print $c["measured_us"] }' "$csv")
        [ -n "$meas" ] || { echo "halo_chain_fixed_point: no $v $s in $csv" >&2; exit 1; }
        in_step=$(XFERLAB_HALO_MPI_CHAIN=1 "$x" replay "$trace" --ranks 4 --scaling weak \
          --platform "$platform" --format csv | awk -F, 'NR == 2 { print $7 }')
        off=$(awk -v u="$seed_us" 'BEGIN { printf "%.0f", u * 1000 }')
        k=0
        while :; do
          k=$((k + 1))
          # Not `read <<< "$(replay ...)"`: read's status would hide replay's failure.
          res=$(replay "$trace" "$platform" "$off")
          read -r it e l <<< "$res"
          next=$(awk -v e="$e" -v l="$l" 'BEGIN { d = (l - e) * 1000; printf "%.0f", (d > 0 ? d : 0) }')
          done_=$(awk -v a="$off" -v b="$next" 'BEGIN { print ((a - b < 100 && b - a < 100) ? 1 : 0) }')
          [ "$done_" = 1 ] || [ "$k" -ge "$steps" ] || [ "$next" = 0 ] && break
          off=$next
        done
        awk -v OFS=, -v n="$name" -v v="$v" -v s="$s" -v m="$meas" -v i="$in_step" -v o="$off" -v k="$k" -v f="$it" \
          'BEGIN { printf "%s,%s,%s,%.3f,%.3f,%.2f,%.1f,%d,%.3f,%.2f\n", n, v, s, m, i, 100 * (i - m) / m, o / 1000, k, f, 100 * (f - m) / m }'
      done
    done
  done <<< "$sets"
} > "$out"
cat "$out"
