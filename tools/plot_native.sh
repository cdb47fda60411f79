#!/usr/bin/env bash
# Plots the committed native microbenchmark results (native/bench/run_all.sh
# output) into docs/img/:
#   native_link_goodput.png   SM payload bandwidth vs access size: peer (NVLink)
#                             and host (PCIe), contiguous vs scattered, writes/reads
#   native_ce_bandwidth.png   copy-engine bandwidth vs copy size (single, batch)
#   native_interference.png   MPI_Send time vs size, SSB/PSB/PCB/P2AB, stream/stacked
# Usage: tools/plot_native.sh [RESULTS_DIR] [IMG_DIR]
#   defaults: traces/real/2026-11-22_h200x2_run2/bench docs/img
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-traces/real/2026-11-22_h200x2_run2/bench}
img=${2:-docs/img}
mkdir -p "$img"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# link_bench.csv: 1 test,2 target,3 pattern,4 write_bytes,5 stride_bytes,
# ... 11 time_ns_median, 14 payload_bw_bytes_per_s, 16 efficiency
# SM rows above 256 B per access (the best --variants kernel, added as one
# sm_write peer contiguous row with its chunk size) are outside the sweep.
sel() {  # sel TEST TARGET PATTERN STRIDE -> "bytes GB/s efficiency"
  awk -F, -v t="$1" -v g="$2" -v p="$3" -v s="$4" \
    'NR > 1 && $1 == t && $2 == g && $3 == p && (s == "" || $5 == s) && ($1 ~ /^ce_/ || $4 <= 256) { print $4, $14 / 1e9, $16 }' \
    "$dir/link_bench.csv" | sort -n
}
for op in write read; do
  for tg in peer host; do
    sel "sm_$op" "$tg" contiguous "" >"$tmp/${op}_${tg}_contig.dat"
    sel "sm_$op" "$tg" scattered 128 >"$tmp/${op}_${tg}_s128.dat"
    sel "sm_$op" "$tg" scattered 256 >"$tmp/${op}_${tg}_s256.dat"
    sel "ce_$op" "$tg" single "" >"$tmp/ce_${op}_${tg}_single.dat"
    sel "ce_$op" "$tg" batch "" >"$tmp/ce_${op}_${tg}_batch.dat"
  done
done
ce_peer=$(awk -F, '$1 == "write" && $2 == "peer" { print $4 / 1e9 }' "$dir/link_bench_summary.csv")
ce_host=$(awk -F, '$1 == "write" && $2 == "host" { print $4 / 1e9 }' "$dir/link_bench_summary.csv")

gnuplot <<GNUPLOT
set terminal pngcairo size 1200,900 font "sans,11" noenhanced
set output "$img/native_link_goodput.png"
set multiplot layout 2,2 title "SM accesses, 2x H200: payload bandwidth vs access size (contiguous; scattered = one access per 128/256-B line)"
set logscale x 2
set xrange [0.8:320]
set xtics (1,2,4,8,16,32,64,128,256)
set xlabel "bytes per access"
set ylabel "payload bandwidth (GB/s)"
set grid
set key bottom right
do for [op in "write read"] {
  set title sprintf("SM %ss to the peer GPU (NVLink4 x18)", op)
  set yrange [0:420]
  plot $ce_peer with lines dt 2 lc rgb "black" title sprintf("CE write peak %.0f GB/s", $ce_peer), \
       "$tmp/".op."_peer_contig.dat" using 1:2 with linespoints lw 2 pt 7 title "contiguous", \
       "$tmp/".op."_peer_s128.dat" using 1:2 with linespoints lw 2 pt 5 title "scattered, 128-B stride", \
       "$tmp/".op."_peer_s256.dat" using 1:2 with linespoints lw 2 pt 9 title "scattered, 256-B stride"
  set title sprintf("SM %ss to pinned host memory (PCIe Gen5)", op)
  set yrange [0:60]
  plot $ce_host with lines dt 2 lc rgb "black" title sprintf("CE write peak %.1f GB/s", $ce_host), \
       "$tmp/".op."_host_contig.dat" using 1:2 with linespoints lw 2 pt 7 title "contiguous", \
       "$tmp/".op."_host_s128.dat" using 1:2 with linespoints lw 2 pt 5 title "scattered, 128-B stride", \
       "$tmp/".op."_host_s256.dat" using 1:2 with linespoints lw 2 pt 9 title "scattered, 256-B stride"
}
unset multiplot

set output "$img/native_ce_bandwidth.png"
set terminal pngcairo size 1000,560 font "sans,11" noenhanced
set title "Copy engine (cudaMemcpyPeerAsync / cudaMemcpyAsync), 2x H200: bandwidth vs copy size\nsingle = one copy timed alone (includes initiation); batch = copies back to back"
set logscale x 2
set xrange [2048:2147483648]
set xtics auto
set format x "2^{%L}"
set termoption enhanced
set xlabel "copy size (bytes)"
set ylabel "bandwidth (GB/s)"
set yrange [0:420]
set key top left
plot "$tmp/ce_write_peer_single.dat" using 1:2 with linespoints lw 2 pt 7 title "peer write, single", \
     "$tmp/ce_write_peer_batch.dat" using 1:2 with linespoints lw 2 pt 6 dt 2 title "peer write, batch", \
     "$tmp/ce_read_peer_single.dat" using 1:2 with linespoints lw 2 pt 5 title "peer read, single", \
     "$tmp/ce_read_peer_batch.dat" using 1:2 with linespoints lw 2 pt 4 dt 2 title "peer read, batch", \
     "$tmp/ce_write_host_single.dat" using 1:2 with linespoints lw 2 pt 9 title "D2H (host write), single", \
     "$tmp/ce_read_host_single.dat" using 1:2 with linespoints lw 2 pt 11 title "H2D (host read), single"
GNUPLOT

# interference_bench.csv: 1 scenario,2 access,3 ctas,4 size_bytes,5 reps,
# 6 send_ns_median,7 p10,8 p90, 9 bw, 10 slowdown_vs_ssb
for sc in SSB PSB PCB P2AB; do
  for ac in stream stacked; do
    awk -F, -v s="$sc" -v a="$ac" 'NR > 1 && $1 == s && $2 == a { print $4, $6 / 1000, $7 / 1000, $8 / 1000, $10 }' \
      "$dir/interference_bench.csv" | sort -n >"$tmp/if_${sc}_$ac.dat"
  done
done
gnuplot <<GNUPLOT
set terminal pngcairo size 1200,520 font "sans,11" noenhanced
set output "$img/native_interference.png"
set multiplot layout 1,2 title "CPU/GPU memory interference: rank 0 MPI_Send from pinned host memory while its GPU writes host memory (medians of 20 sends)"
set logscale x 2
set xrange [2048:33554432]
set xtics ("4K" 4096, "16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576, "4M" 4194304, "16M" 16777216)
set xlabel "MPI_Send size (bytes)"
set ylabel "slowdown vs SSB (median send time / SSB median)"
set grid
set yrange [0.6:1.9]
set key top left
do for [ac in "stream stacked"] {
  set title (ac eq "stream") ? "stream access (1 CTA x max threads)" : "stacked access (full cooperative grid)"
  plot 1 with lines dt 2 lc rgb "black" title "SSB (sequential, baseline)", \
       "$tmp/if_PSB_".ac.".dat" using 1:5 with linespoints lw 2 pt 7 title "PSB (same buffer)", \
       "$tmp/if_PCB_".ac.".dat" using 1:5 with linespoints lw 2 pt 5 title "PCB (consecutive buffer)", \
       "$tmp/if_P2AB_".ac.".dat" using 1:5 with linespoints lw 2 pt 9 title "P2AB (2 MiB apart)"
}
unset multiplot
GNUPLOT
echo "plot_native: wrote $img/native_link_goodput.png $img/native_ce_bandwidth.png $img/native_interference.png"
