#!/usr/bin/env bash
# Plots the committed PROACT H200 results (native/proact/run_all.sh output)
# into docs/img/:
#   proact_micro_speedup.png   microbenchmark speedup over cudaMemcpy duplication
#                              vs chunk size, best thread count per mechanism
#                              (and polling/polling_tma at each thread count)
#   proact_workloads.png       per-workload speedup over 1 GPU: memcpy, best
#                              measured PROACT config, infinite-bandwidth limit
# Usage: tools/plot_proact.sh [RESULTS_DIR] [IMG_DIR]
#   defaults: traces/real/2026-11-22_h200x2_run2/proact docs/img
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-traces/real/2026-11-22_h200x2_run2/proact}
img=${2:-docs/img}
mkdir -p "$img"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# micro_g2.csv columns: 3 mechanism, 4 chunk_bytes, 5 threads, 6 time_ms,
# 10 speedup_vs_memcpy. Best (largest speedup) row per mechanism and chunk.
for m in inline polling polling_tma cdp; do
  awk -F, -v m="$m" 'NR > 1 && $3 == m { if (!($4 in best) || $10 > best[$4]) best[$4] = $10 }
    END { for (c in best) print c, best[c] }' "$dir/micro_g2.csv" | sort -n >"$tmp/best_$m.dat"
  for t in 1024 4096 8192; do
    awk -F, -v m="$m" -v t="$t" 'NR > 1 && $3 == m && $5 == t { print $4, $10 }' \
      "$dir/micro_g2.csv" | sort -n >"$tmp/${m}_$t.dat"
  done
done

gnuplot <<GNUPLOT
set terminal pngcairo size 1200,600 font "sans,11"
set output "$img/proact_micro_speedup.png"
set title "PROACT microbenchmark, 2x H200 (NV18): 256 MiB from GPU 0 to GPU 1\nspeedup over cudaMemcpy duplication (best thread count per mechanism; thin: per thread count)"
set xlabel "chunk size (bytes)"
set ylabel "speedup over cudaMemcpy duplication"
set logscale x 2
set format x "2^{%L}"
set xrange [2048:536870912]
set yrange [0:2.2]
set grid
set key outside right top
plot 2 with lines dt 2 lw 2 lc rgb "black" title "ideal (2x)", \
     1 with lines dt 3 lw 1 lc rgb "gray" title "cudaMemcpy (1x)", \
     "$tmp/best_inline.dat" with linespoints lw 2 pt 7 lc rgb "#1b9e77" title "inline", \
     "$tmp/best_polling.dat" with linespoints lw 2 pt 5 lc rgb "#d95f02" title "polling (best threads)", \
     "$tmp/best_polling_tma.dat" with linespoints lw 2 pt 9 lc rgb "#7570b3" title "polling\\\_tma (best threads)", \
     "$tmp/best_cdp.dat" with linespoints lw 2 pt 11 lc rgb "#e7298a" title "cdp (1024-thread child)", \
     "$tmp/polling_1024.dat" with lines lw 1 dt 4 lc rgb "#d95f02" title "polling, 1024 threads", \
     "$tmp/polling_tma_1024.dat" with lines lw 1 dt 4 lc rgb "#7570b3" title "polling\\\_tma, 1024 threads"
GNUPLOT

# Per-workload bars. speedup over 1 GPU (none, 1 GPU) for: memcpy, best
# verified PROACT configuration in the 2-GPU sweep + profiler grid, and the
# infinite-bandwidth limit (none, 2 GPUs, best chunk). The micro producer is
# calibrated per run (1 GPU: 1 ms target), so micro has no 1-GPU baseline and
# is shown relative to memcpy in a second panel.
# Each run has its own 1-GPU and memcpy baselines (the micro producer is
# recalibrated per run), so ratios are taken within a run: the result CSV's
# speedup_vs_1gpu (col 9) / speedup_vs_memcpy (col 10), max over runs.
: >"$tmp/apps.dat"
for w in jacobi pagerank sssp als xray_ct; do
  # xray_ct joined after run 2: plotted where the results directory has it.
  [ -f "$dir/${w}_g2.csv" ] || { echo "plot_proact: no $dir/${w}_g2.csv: $w not plotted" >&2; continue; }
  awk -F, -v w="$w" '
    FNR == 1 || $2 != 2 { next }
    $3 == "memcpy" && $9 > mem { mem = $9 }
    $3 == "none" && $9 > inf { inf = $9 }
    $14 == "yes" && $3 != "memcpy" && $9 > best { best = $9; bm = $3 "/" $4 "/" $5 }
    $14 == "yes" && $3 ~ /^(polling|cdp)/ && $9 > dec { dec = $9; dm = $3 "/" $4 "/" $5 }
    END { printf "%s %.4f %.4f %.4f %.4f %s %s\n", w, mem, best, inf, dec, bm, dm }' \
    "$dir/${w}_g2.csv" "$dir/profile_${w}_g2.csv" "$dir/chosen_${w}_g2.csv" >>"$tmp/apps.dat"
done
awk -F, 'FNR == 1 { next }
  $3 == "none" && $10 > inf { inf = $10 }
  $14 == "yes" && $3 != "memcpy" && $10 > best { best = $10; bm = $3 "/" $4 "/" $5 }
  $14 == "yes" && $3 ~ /^(polling|cdp)/ && $10 > dec { dec = $10; dm = $3 "/" $4 "/" $5 }
  END { printf "micro 1 %.4f %.4f %.4f %s %s\n", best, inf, dec, bm, dm }' \
  "$dir/micro_g2.csv" "$dir/profile_micro_g2.csv" "$dir/chosen_micro_g2.csv" >"$tmp/micro.dat"
echo "workload memcpy best_proact inf_bw best_decoupled best_config best_decoupled_config (mechanism/chunk/threads)"
cat "$tmp/apps.dat" "$tmp/micro.dat"

gnuplot <<GNUPLOT
set terminal pngcairo size 1000,560 font "sans,11" noenhanced
set output "$img/proact_workloads.png"
set multiplot layout 1,2 title "PROACT workloads, 2x H200 (NV18); best verified configuration in the run's CSVs (decoupled = polling, polling_tma, cdp)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set yrange [0:2.2]
set key outside bottom center horizontal
set title "applications: speedup over 1 GPU"
set ylabel "speedup over 1 GPU (none, 1 GPU)"
plot "$tmp/apps.dat" using 2:xtic(1) title "cudaMemcpy", \
     "" using 3 title "best PROACT", \
     "" using 5 title "best decoupled", \
     "" using 4 title "infinite-bandwidth limit", \
     2 with lines dt 2 lc rgb "black" notitle
set title "microbenchmark: speedup over cudaMemcpy"
set ylabel "speedup over cudaMemcpy duplication"
set xrange [-0.5:0.5]
plot "$tmp/micro.dat" using 2:xtic(1) title "cudaMemcpy", \
     "" using 3 title "best PROACT", \
     "" using 5 title "best decoupled", \
     "" using 4 title "infinite-bandwidth limit", \
     2 with lines dt 2 lc rgb "black" notitle
unset multiplot
GNUPLOT
echo "plot_proact: wrote $img/proact_micro_speedup.png $img/proact_workloads.png"
