#!/usr/bin/env bash
# Plots link efficiency (payload / wire bytes) vs write size for every
# interconnect format of hw_model into docs/img/efficiency.png (+ the CSV it
# was drawn from), using `xferlab link`.
# Interconnects with identical packet formats share a curve (NVLink 1-5 and
# NVSwitch; PCIe Gen3-5; PCIe Gen1-2; InfiniBand EDR/HDR/NDR).
# Usage: tools/plot_efficiency.sh [OUTPUT.png]   (BAZEL_STARTUP/BAZEL_FLAGS
# may carry e.g. --output_base / --symlink_prefix for shared machines.)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/img/efficiency.png}
csv=${out%.png}.csv
# shellcheck disable=SC2086
bazel ${BAZEL_STARTUP:-} build ${BAZEL_FLAGS:-} //sim:xferlab >/dev/null
bin=$(bazel ${BAZEL_STARTUP:-} info ${BAZEL_FLAGS:-} bazel-bin 2>/dev/null)/sim/xferlab
sizes=$(awk 'BEGIN { s = ""; for (g = 1; g <= 8192; g *= 2) { s = s (s ? "," : "") g;
                                                    if (g >= 2 && g < 8192) s = s "," 1.5 * g } print s }')
"$bin" link --interconnect all --pattern scattered --count 1 --sizes "$sizes" --format csv >"$csv"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One data file per distinct format: columns size_bytes, efficiency.
for name in pcie2 pcie3 pcie6 nvlink4 ib_hdr; do
  awk -F, -v n="$name" 'NR > 1 && $1 == n { print $3, $9 }' "$csv" >"$tmp/$name.dat"
done
gnuplot <<GNUPLOT
set terminal pngcairo size 900,560 font "sans,11"
set output "$out"
set title "Link efficiency of one write (scattered; payload / wire bytes, data direction)"
set xlabel "write size (bytes)"
set ylabel "efficiency"
set logscale x 2
set format x "%.0f"
set xrange [1:8192]
set yrange [0:1]
set grid
set key top left
plot "$tmp/nvlink4.dat" with linespoints lw 2 title "NVLink 1-5, NVSwitch (16-B flits)", \
     "$tmp/pcie3.dat" with linespoints lw 2 title "PCIe Gen3-5 (TLP, 128b/130b)", \
     "$tmp/pcie6.dat" with linespoints lw 2 title "PCIe Gen6 (256-B flits)", \
     "$tmp/pcie2.dat" with linespoints lw 1 title "PCIe Gen1-2 (8b/10b)", \
     "$tmp/ib_hdr.dat" with linespoints lw 1 title "InfiniBand EDR/HDR/NDR (RDMA write)", \
     0.08 with lines dt 2 lc rgb "gray" title "PROACT anchors: 8% NVLink, 14% PCIe at 4 B", \
     0.14 with lines dt 2 lc rgb "gray" notitle
GNUPLOT
echo "plot_efficiency: wrote $out and $csv"
