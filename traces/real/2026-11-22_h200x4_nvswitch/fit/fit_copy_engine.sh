#!/usr/bin/env bash
# fit_copy_engine.sh — the one constant hw_model/presets/h200x4_hgx_nvswitch.toml
# fits on this 4x H200 capture: the copy engine's rate through the NVSwitch.
#
# Fitting set (declared in the preset's fitted_on; everything else here is
# held-out): the micro memcpy rows (GPU 0 copies 256 MiB to each of 3 peers,
# one cudaMemcpyPeerAsync after another on one stream: an uncontended
# bench-like copy) and the micro `none` rows of the same CSV files.
#   rate = 3 x 256 MiB / (median(memcpy - none) - overhead)
#   overhead = first copy's issue (copy_engine.host_initiation + engine_start
#              + one-way latency) + 2 stream gaps (engine_start), from the
#              2x H200 calibration (docs/calibration.md)
#   outstanding_packets = ceil(rate x round trip / max_payload): the window
#              that lets one engine reach that rate through the switch.
# Usage: fit_copy_engine.sh [DIR]   (DIR: this folder's parent by default)
set -euo pipefail
dir=${1:-$(dirname "$0")/..}
host_ns=2578                  # h200x2_nvlink4 copy_engine.host_initiation
start_ns=5622                 # h200x2_nvlink4 copy_engine.engine_start
one_way_ns=1650               # 2 x gpu_link.latency 700 ns + NVSwitch 250 ns [U] (hw_model::switched_path_latency_ns)
payload=512                   # gpu_link.max_payload (2x H200 calibration)
for f in micro_g4.csv chosen_micro_g4.csv micro_um_g4.csv micro_cdp_g4.csv; do
  awk -F, -v f="$f" '$1 == "micro" && $2 == 4 && ($3 == "memcpy" || $3 == "none") {
      t[$3] = t[$3] == "" ? $6 : t[$3]   # the file first row of each (same chunk size)
    } END { if (t["memcpy"] != "" && t["none"] != "") printf "%s %.6f %.6f\n", f, t["memcpy"], t["none"] }' \
    "$dir/$f"
done | sort -k1,1 | awk -v host="$host_ns" -v start="$start_ns" -v ow="$one_way_ns" -v pl="$payload" '
  { d[n++] = ($2 - $3) * 1e6; printf "%-22s memcpy %.4f ms  none %.4f ms  transfer %.1f us\n", $1, $2, $3, ($2 - $3) * 1e3 }
  END {
    for (i = 0; i < n; ++i) for (j = i + 1; j < n; ++j) if (d[j] < d[i]) { x = d[i]; d[i] = d[j]; d[j] = x }
    med = n % 2 ? d[(n - 1) / 2] : (d[n / 2 - 1] + d[n / 2]) / 2
    over = host + start + ow + 2 * start
    rate = 3 * 268435456 / ((med - over) * 1e-9)
    printf "median transfer %.1f us, overhead %.1f us -> engine rate %.2f GB/s\n", med / 1e3, over / 1e3, rate / 1e9
    printf "copy_engine.outstanding_packets = %d\n", int(rate * 2 * ow * 1e-9 / pl) + 1
  }'
