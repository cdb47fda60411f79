#!/usr/bin/env bash
# tools/hardware_study.sh [OUT_DIR] [IMG_DIR] — design-space study of the
# proposed counter unit + DMA agent (docs/hardware.md, "Design-space study").
#
# For each case (platform, GPU count, committed `none` trace) it sweeps the DMA
# agent's window (dma_agent.outstanding_packets per channel) x channels with
# `xferlab sweep`, finds the smallest agent (fewest window entries = channels x
# packets, then fewest channels) whose time T_hw <= T_target / 0.95, then sweeps
# the counter unit's capacity at that agent for the fewest counters that still
# meet the target. T_target = T_inf (the `infinite` mechanism: the kernel
# alone, i.e. infinite bandwidth) when an unbounded agent (64 channels x 65536
# packets, auto capacity) reaches it, else the unbounded agent's own time (the
# link, not the agent, is then the bound; the CSV says which). Compared with
# the best software mechanism (memcpy, inline, polling, cdp) at preset values.
# Writes OUT_DIR/hardware_grid.csv (every point), OUT_DIR/hardware_study.csv
# (one row per case) and IMG_DIR/hardware_study.png: about 70 s of CPU on
# 2 cores (--jobs 2; JOBS=N to change). PLOT_ONLY=1 redraws the plot from
# OUT_DIR/hardware_grid.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
x=${XFERLAB:-bazel-bin/sim/xferlab}
out=${1:-docs/hardware}
img=${2:-docs/img}
jobs=${JOBS:-2}
mkdir -p "$out" "$img"
t2=traces/real/2026-11-22_h200x2_run3/proact/traces
t4=traces/real/2026-11-22_h200x4_nvswitch/traces
# platform gpus trace: 2x H200 (run 3), 4x H200 HGX, and 16 GPUs on the
# 4x H200 HGX preset (an H200 NVSwitch extrapolation: each GPU replays the
# 4-GPU run's data generation and sends to its 15 peers).
cases="
h200x2_nvlink4 2 $t2/micro_g2_none_c16KiB_t32
h200x2_nvlink4 2 $t2/micro_g2_none_c64KiB_t32
h200x2_nvlink4 2 $t2/micro_g2_none_c1MiB_t32
h200x2_nvlink4 2 $t2/micro_g2_none_c16MiB_t32
h200x2_nvlink4 2 $t2/als_g2_none_c256KiB_t32
h200x2_nvlink4 2 $t2/jacobi_g2_none_c256KiB_t32
h200x2_nvlink4 2 $t2/pagerank_g2_none_c256KiB_t32
h200x2_nvlink4 2 $t2/sssp_g2_none_c256KiB_t32
h200x4_hgx_nvswitch 4 $t4/micro_g4_none_c16KiB_t32
h200x4_hgx_nvswitch 4 $t4/micro_g4_none_c64KiB_t32
h200x4_hgx_nvswitch 4 $t4/micro_g4_none_c1MiB_t32
h200x4_hgx_nvswitch 4 $t4/micro_g4_none_c16MiB_t32
h200x4_hgx_nvswitch 4 $t4/jacobi_g4_none_c256KiB_t32
h200x4_hgx_nvswitch 4 $t4/pagerank_g4_none_c16KiB_t32
h200x4_hgx_nvswitch 4 $t4/pagerank_g4_none_c256KiB_t32
h200x4_hgx_nvswitch 16 $t4/micro_g4_none_c1MiB_t32
h200x4_hgx_nvswitch 16 $t4/micro_g4_none_c16MiB_t32
h200x4_hgx_nvswitch 16 $t4/jacobi_g4_none_c256KiB_t32
h200x4_hgx_nvswitch 16 $t4/pagerank_g4_none_c256KiB_t32
"
windows=16,32,64,128,256,512,1024,2048,4096
channels=1,2,4,8
capacities=1,4,16,64,256,1024,4096,16384
unbounded=(--set dma_agent.channels=64 --set dma_agent.outstanding_packets=65536)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# col NAME < CSV header: the 1-based column of NAME.
col() { head -1 | tr , '\n' | grep -nx "$1" | cut -d: -f1; }

if [ "${PLOT_ONLY:-0}" != 1 ]; then
echo "platform,gpus,trace,outstanding_packets,channels,capacity,full_policy,hardware_us,infinite_us,efficiency" \
  >"$out/hardware_grid.csv"
echo "platform,gpus,trace,infinite_us,best_software,best_software_us,best_software_eff,hardware_auto_us,hardware_auto_eff,hardware_unbounded_us,target,target_us,outstanding_packets,channels,window_entries,capacity_spill,hardware_min_spill_us,capacity_stall,hardware_min_stall_us,counter_bytes_stall" \
  >"$out/hardware_study.csv"
echo "$cases" | while read -r platform gpus trace; do
  [ -n "$platform" ] || continue
  name=$(basename "$trace")
  t=$trace.xft.zst
  common=(--platform "$platform" --gpus "$gpus")
  # Preset values (auto sizes) for every mechanism, and the unbounded agent.
  "$x" replay "$t" "${common[@]}" --mechanism all --format csv 2>/dev/null >"$tmp/all.csv"
  m=$(col mechanism <"$tmp/all.csv"); s=$(col sim_time_us <"$tmp/all.csv")
  read -r inf hw_auto best best_us < <(awk -F, -v m="$m" -v s="$s" 'NR > 1 {
      t[$m] = $s
      if ($m != "hardware" && $m != "infinite" && (b == "" || $s < t[b])) b = $m }
      END { print t["infinite"], t["hardware"], b, t[b] }' "$tmp/all.csv")
  hw_unb=$("$x" replay "$t" "${common[@]}" --mechanism hardware "${unbounded[@]}" --format csv \
             2>/dev/null | awk -F, -v s="$s" 'NR == 2 { print $s }')
  read -r target target_us < <(awk -v i="$inf" -v u="$hw_unb" 'BEGIN {
      if (u <= i / 0.95) print "infinite", i / 0.95; else print "unbounded_agent", u / 0.95 }')
  # Window x channels at auto capacity.
  "$x" sweep "$t" --platform "$platform" --mechanism hardware --jobs "$jobs" \
    --param "gpus=$gpus" --param "dma_agent.outstanding_packets=$windows" \
    --param "dma_agent.channels=$channels" -o "$tmp/grid.csv" 2>/dev/null
  s=$(col sim_time_us <"$tmp/grid.csv")
  awk -F, -v p="$platform" -v g="$gpus" -v n="$name" -v s="$s" -v i="$inf" 'NR > 1 {
      printf "%s,%s,%s,%s,%s,auto,spill,%.3f,%.3f,%.4f\n", p, g, n, $2, $3, $s, i,
             i / $s }' \
    "$tmp/grid.csv" >"$tmp/points.csv"
  read -r win ch < <(awk -F, -v tu="$target_us" '$8 <= tu {
      e = $4 * $5; if (w == "" || e < e0 || (e == e0 && $5 < c)) { w = $4; c = $5; e0 = e } }
      END { if (w == "") print "none none"; else print w, c }' "$tmp/points.csv")
  # Counter capacity at that agent, with the preset's policy for counters that
  # do not fit (spill: an extra latency per update) and with stall.
  caps=""
  for policy in spill stall; do
    cap=none hw_min=""
    if [ "$win" != none ]; then
      "$x" sweep "$t" --platform "$platform" --mechanism hardware --jobs "$jobs" \
        --param "gpus=$gpus" --set "dma_agent.outstanding_packets=$win" \
        --set "dma_agent.channels=$ch" --set "counter_unit.full_policy=$policy" \
        --param "counter_unit.capacity=$capacities" -o "$tmp/cap.csv" 2>/dev/null
      s=$(col sim_time_us <"$tmp/cap.csv")
      awk -F, -v p="$platform" -v g="$gpus" -v n="$name" -v s="$s" -v i="$inf" -v w="$win" \
        -v c="$ch" -v f="$policy" 'NR > 1 { printf "%s,%s,%s,%s,%s,%s,%s,%.3f,%.3f,%.4f\n", p, g, n,
                                   w, c, $2, f, $s, i, i / $s }' "$tmp/cap.csv" >>"$tmp/points.csv"
      read -r cap hw_min < <(awk -F, -v tu="$target_us" -v w="$win" -v c="$ch" -v f="$policy" '
          $4 == w && $5 == c && $7 == f && $8 <= tu && (k == "" || $6 < k) { k = $6; t = $8 }
          $4 == w && $5 == c && $6 == "auto" { ta = $8 }
          END { if (k == "") print "auto", ta; else print k, t }' "$tmp/points.csv")
    fi
    caps="$caps $cap ${hw_min:-none}"
  done
  cat "$tmp/points.csv" >>"$out/hardware_grid.csv"
  read -r cap_spill hw_spill cap_stall hw_stall <<<"$caps"
  counter_bytes=$("$x" platform show "$platform" | sed -n 's/^counter_size = "\([0-9]*\)B"$/\1/p')
  awk -v OFS=, -v p="$platform" -v g="$gpus" -v n="$name" -v i="$inf" -v b="$best" -v bu="$best_us" \
    -v ha="$hw_auto" -v hu="$hw_unb" -v tg="$target" -v tu="$target_us" -v w="$win" -v c="$ch" \
    -v cb="$counter_bytes" -v k1="$cap_spill" -v h1="$hw_spill" -v k2="$cap_stall" -v h2="$hw_stall" 'BEGIN {
      f = "%.1f"
      print p, g, n, sprintf(f, i), b, sprintf(f, bu), sprintf("%.3f", i / bu), sprintf(f, ha),
            sprintf("%.3f", i / ha), sprintf(f, hu), tg, sprintf(f, tu), w, c,
            w == "none" ? "none" : w * c, k1, h1 == "none" ? h1 : sprintf(f, h1), k2,
            h2 == "none" ? h2 : sprintf(f, h2), k2 ~ /^[0-9]+$/ ? cb * k2 : k2 }' \
    >>"$out/hardware_study.csv"
  echo "hardware_study: $platform x$gpus $name: target $target, window $win x $ch channels, capacity $cap_spill (spill) / $cap_stall (stall)" >&2
done
fi

# Plot: best efficiency reachable with at most E window entries (any channel
# count, auto capacity) per case, one panel per machine.
awk -F, 'NR > 1 && $6 == "auto" && $7 == "spill" { print > ("'"$tmp"'/" $1 "_" $2 "_" $3 ".dat") }' \
  "$out/hardware_grid.csv"
for f in "$tmp"/*.dat; do
  awk -F, '{ e = $4 * $5; if (!(e in b) || $10 > b[e]) b[e] = $10 } END {
      for (e in b) print e, b[e] }' "$f" | sort -n |
    awk '{ if ($2 > m) m = $2; print $1, m }' >"${f%.dat}.env"
done
panel() {  # platform gpus title key-position
  local plot="" f
  for f in "$tmp/$1_$2_"*.env; do
    local n
    n=$(basename "$f" .env); n=${n#"$1_$2_"}; n=${n%_t32}; n=${n/_none_/ }
    plot="$plot${plot:+, }\"$f\" using 1:2 with linespoints title \"${n//_/ }\""
  done
  echo "set title \"$3\"; set key $4; plot $plot, 0.95 with lines dt 2 lc rgb \"gray\" title \"95%\""
}
gnuplot <<GNUPLOT
set terminal pngcairo size 1500,480 font "sans,10"
set output "$img/hardware_study.png"
set multiplot layout 1,3
set logscale x 2
set xlabel "DMA window entries (channels x outstanding packets)"
set ylabel "T(infinite) / T(hardware), best at this size" noenhanced
set yrange [0:1.05]
set grid
$(panel h200x2_nvlink4 2 "2x H200 NVLink4 (run 3)" "bottom right")
$(panel h200x4_hgx_nvswitch 4 "4x H200 HGX NVSwitch" "bottom right")
$(panel h200x4_hgx_nvswitch 16 "16 GPUs, H200 NVSwitch (extrapolated)" "top left")
unset multiplot
GNUPLOT
echo "hardware_study: wrote $out/hardware_grid.csv $out/hardware_study.csv $img/hardware_study.png"
