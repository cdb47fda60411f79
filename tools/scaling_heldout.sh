#!/usr/bin/env bash
# tools/scaling_heldout.sh [OUT_CSV] — held-out check of the workload model
# (docs/scaling.md, issue #23 item 1) on the 1-GPU captures of
# native/proact/run_scaling.sh (traces/real/2026-11-25_{h200,h100}x1_scaling):
#  - strong scaling: from the full-size H200 trace (n1) alone, predict the
#    compute of 1/N of the problem (`replay --scaling strong --gpus N
#    --mechanism infinite`, N = 2..16) and compare with the 1/N-size problem
#    measured on one H200 (n<N>);
#  - another GPU: the same predictions on the H100 SXM preset
#    (hgx_h100_nvlink4: roofline ratio from the H200's [gpu]), compared with
#    the same runs measured on one H100 (N = 1..16).
# Measured = the trace's device span (first kernel begin to last end) and the
# proact results CSV's host median (untraced repetitions), both from
# `xferlab validate`. Nothing is fitted: the prediction uses the n1 H200
# trace only. Writes OUT_CSV (default docs/validation/scaling_heldout.csv).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/validation/scaling_heldout.csv}
x=$(readlink -f "${XFERLAB:-bazel-bin/sim/xferlab}")
h200=traces/real/2026-11-25_h200x1_scaling
h100=traces/real/2026-11-25_h100x1_scaling
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measured: validate's rows (trace, ..., measured_us = host median, traced_span_us).
for k in h200 h100; do
  dir=$h200; [ $k = h100 ] && dir=$h100
  for n in 1 2 4 8 16; do
    "$x" validate "$dir/n$n" --format csv --tolerance 1000 2>/dev/null | awk -F, -v k=$k -v n=$n \
      'NR > 1 && $3 == "none" { split($1, w, "_"); print k, w[1], n, $5, $7 }'
  done
done > "$tmp/measured.txt"

{
  echo "gpu,workload,share_of_problem,platform,bound,time_factor,predicted_us,measured_span_us,measured_host_us,error_vs_span_pct,error_vs_host_pct"
  for w in jacobi micro pagerank als; do
    trace=$(ls "$h200"/n1/traces/${w}_g1_none_*.xft*)
    for k in h200 h100; do
      platform=h200x4_hgx_nvswitch; [ $k = h100 ] && platform=hgx_h100_nvlink4
      for n in 1 2 4 8 16; do
        "$x" replay "$trace" --platform $platform --gpus $n --scaling strong --mechanism infinite \
          --format csv --jobs 1 2> "$tmp/note" > "$tmp/pred.csv"
        pred=$(tail -1 "$tmp/pred.csv" | cut -d, -f5)
        bound=$(grep -o "compute: [a-z-]*" "$tmp/note" | cut -d' ' -f2 || true)
        factor=$(grep -o "time x [0-9.]*" "$tmp/note" | cut -d' ' -f3 || true)
        read -r host span < <(awk -v k=$k -v w=$w -v n=$n '$1 == k && $2 == w && $3 == n { print $4, $5 }' \
          "$tmp/measured.txt")
        awk -v k=$k -v w=$w -v n=$n -v p=$platform -v b="${bound:-same GPU}" -v f="${factor:-1}" \
          -v pr="$pred" -v s="$span" -v h="$host" 'BEGIN {
            printf "%s,%s,1/%d,%s,%s,%s,%.1f,%.1f,%.1f,%.2f,%.2f\n", k, w, n, p, b, f, pr, s, h,
              100 * (pr - s) / s, 100 * (pr - h) / h }'
      done
    done
  done
  # ALS with users AND items cut by N (2026-11-26): one GPU's slice of the
  # fixed problem, the like-for-like check (the 2026-11-25 als rows cut users only).
  items=traces/real/2026-11-26_h200x1_als_items
  trace=$(ls "$h200"/n1/traces/als_g1_none_*.xft*)
  for n in 1 2 4 8 16; do
    pred=$("$x" replay "$trace" --platform h200x4_hgx_nvswitch --gpus $n --scaling strong \
      --mechanism infinite --format csv --jobs 1 2> /dev/null | tail -1 | cut -d, -f5)
    read -r host span < <("$x" validate "$items/n$n" --format csv --tolerance 1000 2> /dev/null |
      awk -F, 'NR > 1 && $3 == "none" { print $5, $7 }')
    awk -v n=$n -v pr="$pred" -v s="$span" -v h="$host" 'BEGIN {
      printf "h200,als_items,1/%d,h200x4_hgx_nvswitch,compute-bound,1.000,%.1f,%.1f,%.1f,%.2f,%.2f\n", n, pr, s, h,
        100 * (pr - s) / s, 100 * (pr - h) / h }'
  done
} > "$out"
echo "scaling_heldout: wrote $out"
