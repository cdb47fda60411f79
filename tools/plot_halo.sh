#!/usr/bin/env bash
# Plots the committed halo-exchange / GPUDirect Async results
# (native/halo/run_all.sh output) into docs/img/:
#   halo_iteration.png  time per iteration (iteration_wall, avg over ranks) per
#                       variant and paper size; 2 ranks on 2 GPUs | 2 ranks on 1 GPU
#   halo_phases.png     phase breakdown (avg over ranks) of the host-driven and
#                       notification variants, 2 ranks on 2 GPUs
#   halo_boxes.png      HPGMG-like box exchange: host vs sa vs ki per box size
#   halo_cpu_idle.png   main-thread CPU idle time (cpu_idle) vs busy time per
#                       iteration, 2 ranks on 2 GPUs, paper sizes and boxes
# and prints the tables it plotted.
# Usage: tools/plot_halo.sh [RESULTS_DIR] [IMG_DIR]
#   defaults: traces/real/2026-11-22_h200x2_run2/halo docs/img
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-traces/real/2026-11-22_h200x2_run2/halo}
img=${2:-docs/img}
mkdir -p "$img"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CSV columns: variant,size,ranks,gpus_per_node,iterations,phase,min_ns,avg_ns,max_ns
# wall PLACEMENT FILE SIZES...: one row per size, one column per variant (µs).
wall() {
  local placement=$1 file=$2
  shift 2
  awk -F, -v p="$placement" -v sizes="$*" -v vars="$VARIANTS" '
    NR > 1 && $6 == "iteration_wall" { t[$1 "," $2] = $8 / 1000 }
    END {
      n = split(sizes, s, " "); m = split(vars, v, " ")
      printf "size"; for (j = 1; j <= m; j++) printf " %s", v[j]; print ""
      for (i = 1; i <= n; i++) {
        printf "%s", s[i]
        for (j = 1; j <= m; j++) { k = v[j] "," p "_" s[i]; printf " %s", (k in t) ? t[k] : "NaN" }
        print ""
      }
    }' "$dir/$file"
}

VARIANTS="baseline stream stacked host sa ki"
wall gpus2 halo.csv 200 400 800 >"$tmp/wall_gpus2.dat"
wall shared1 halo.csv 200 400 800 >"$tmp/wall_shared1.dat"
VARIANTS="host sa ki"
wall gpus2 boxes.csv box16 box32 box64 >"$tmp/box_gpus2.dat"
wall shared1 boxes.csv box16 box32 box64 >"$tmp/box_shared1.dat"
for f in wall_gpus2 wall_shared1 box_gpus2 box_shared1; do
  echo "== $f: iteration_wall avg over ranks (us)"
  column -t "$tmp/$f.dat"
done

gnuplot <<GNUPLOT
set terminal pngcairo size 1100,520 font "sans,11" noenhanced
set output "$img/halo_iteration.png"
set multiplot layout 1,2 title "27-point halo exchange, 3 doubles, paper sizes (per-rank block of the 4x4x4 split), 2x H200, 50 iterations"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set ylabel "time per iteration (us)"
set logscale y
set yrange [50:5000]
set key top left
set xlabel "global cube (paper)"
set title "2 ranks on 2 GPUs"
plot for [c=2:7] "$tmp/wall_gpus2.dat" using c:xtic(1) title columnheader(c)
set title "2 ranks sharing 1 GPU"
plot for [c=2:7] "$tmp/wall_shared1.dat" using c:xtic(1) title columnheader(c)
unset multiplot

set output "$img/halo_boxes.png"
set multiplot layout 1,2 title "HPGMG-like box exchange (7-point, 1 double), host-driven vs stream-async (sa) vs kernel-initiated (ki)"
set xlabel "box per rank (cells per side)"
set yrange [20:5000]
set title "2 ranks on 2 GPUs"
plot for [c=2:4] "$tmp/box_gpus2.dat" using c:xtic(1) title columnheader(c)
set title "2 ranks sharing 1 GPU"
plot for [c=2:4] "$tmp/box_shared1.dat" using c:xtic(1) title columnheader(c)
unset multiplot
GNUPLOT

# Phase breakdown, 2 GPUs: rows = variant/size, columns = phases (µs).
# The phases of one rank's iteration add up to `total` (within a few %; for
# stream/stacked after removing the nested phases from wait_recv, see below);
# `verify` runs on its own stream and is not part of it (table only).
phases="post_recv pack post_send wait_recv unpack wait_send"
awk -F, -v ph="$phases" '
  NR > 1 && $2 ~ /^gpus2_[0-9]+$/ && $1 ~ /^(baseline|stream|stacked|host)$/ {
    k = $1 " " substr($2, 7); if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    t[k "," $6] = $8 / 1000
  }
  END {
    m = split(ph, p, " ")
    printf "run"; for (j = 1; j <= m; j++) printf " %s", p[j]; print " total verify"
    for (i = 1; i <= n; i++) {
      k = order[i]; label = k; gsub(" ", "_", label); printf "%s", label
      for (j = 1; j <= m; j++) {
        x = t[k "," p[j]]
        # stream/stacked: wait_recv spans the whole polling loop, which also
        # contains the MPI_Isend calls (post_send) and the enqueue of the
        # unpack kernel and ghost check (unpack); plot each once.
        if (p[j] == "wait_recv" && k !~ /^(baseline|host) /) x -= t[k ",post_send"] + t[k ",unpack"]
        printf " %s", (x == "") ? 0 : x
      }
      printf " %s %s\n", t[k ",total"], t[k ",verify"]
    }
  }' "$dir/halo.csv" >"$tmp/phases.dat"
echo "== phases, 2 ranks on 2 GPUs (avg over ranks, us)"
column -t "$tmp/phases.dat"

# The stacked-bar style of the phase and CPU-idle plots (gnuplot commands).
stacked_bars='set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set grid ytics
set ylabel "time per iteration (us)"
set yrange [0:*]'

gnuplot <<GNUPLOT
set terminal pngcairo size 1100,560 font "sans,11" noenhanced
set output "$img/halo_phases.png"
set title "Halo exchange phase breakdown (host clock, avg over 2 ranks), 2 ranks on 2x H200\nbaseline/host: pack includes the compute kernel; stream/stacked: wait_recv = CPU polling loop minus the\nIsend calls (post_send) and the unpack/check enqueue (unpack) done inside it; pack = enqueue of compute + pack"
$stacked_bars
set xtics rotate by -35
set key outside right top
plot for [c=2:7] "$tmp/phases.dat" using c:xtic(1) title columnheader(c)
GNUPLOT
# CPU idle time, 2 GPUs: cpu_idle (main thread: device-sync polls, Waitall,
# polling passes that found nothing; sa/ki: only the final drain, their CPU
# only enqueues) and busy = total - cpu_idle, µs per iteration. The NIC-proxy
# thread of sa/ki (proxy_cpu_idle) is a second CPU thread, per iteration
# including warm-up: table only.
awk -F, '
  FNR == 1 || $2 !~ /^gpus2_/ { next }
  { k = $1 " " substr($2, 7); if (!(k in seen)) { seen[k] = 1; order[++n] = k }; t[k "," $6] = $8 / 1000 }
  END {
    print "run busy cpu_idle total idle_pct proxy_cpu_idle"
    for (i = 1; i <= n; i++) {
      k = order[i]; label = k; gsub(" ", "_", label)
      tot = t[k ",total"]; idle = t[k ",cpu_idle"]
      printf "%s %.1f %.1f %.1f %.1f %s\n", label, tot - idle, idle, tot, 100 * idle / tot,
        (k ",proxy_cpu_idle" in t) ? sprintf("%.1f", t[k ",proxy_cpu_idle"]) : "-"
    }
  }' "$dir/halo.csv" "$dir/boxes.csv" >"$tmp/idle.dat"
echo "== main-thread CPU idle, 2 ranks on 2 GPUs (avg over ranks, us per iteration)"
column -t "$tmp/idle.dat"
grep -v box "$tmp/idle.dat" >"$tmp/idle_paper.dat"
{ head -1 "$tmp/idle.dat"; grep box "$tmp/idle.dat"; } >"$tmp/idle_box.dat"

gnuplot <<GNUPLOT
set terminal pngcairo size 1200,560 font "sans,11" noenhanced
set output "$img/halo_cpu_idle.png"
set multiplot layout 1,2 title "Main-thread CPU time per iteration, 2 ranks on 2x H200 (avg over ranks): idle (cpu_idle) vs busy (total - cpu_idle)\nsa/ki: cpu_idle is only the final drain; their busy time is mostly enqueue calls held back by the driver queue"
$stacked_bars
set xtics rotate by -45
set key top left
set title "paper sizes (27-point)"
plot "$tmp/idle_paper.dat" using 3:xtic(1) title "cpu_idle" lc rgb "#bbbbbb", "" using 2 title "busy" lc rgb "#1b9e77"
set title "HPGMG-like boxes (7-point)"
plot "$tmp/idle_box.dat" using 3:xtic(1) title "cpu_idle" lc rgb "#bbbbbb", "" using 2 title "busy" lc rgb "#1b9e77"
unset multiplot
GNUPLOT
echo "plot_halo: wrote $img/halo_iteration.png $img/halo_boxes.png $img/halo_phases.png $img/halo_cpu_idle.png"
