#!/usr/bin/env bash
# docs/validation/core_comparison.sh — the two PROACT replay cores (actors,
# graph: docs/sim.md, "Two replay cores") on validate's default set of
# committed PROACT traces: per trace the simulated time of each core and
# |graph - actors| / actors; per mechanism the largest difference; each
# core's CPU time (user + system, simulation processes included). Run from
# the repository root after `bazel build -c opt //sim:xferlab`; writes
# docs/validation/core_comparison.csv and prints the summary. XFERLAB
# overrides the binary.
set -euo pipefail
xferlab=${XFERLAB:-bazel-bin/sim/xferlab}
d=docs/validation
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The default set's PROACT traces (validate also replays halo traces, which
# have one core: left out so the CPU times compare the PROACT replays only).
"$xferlab" validate --format csv --jobs 1 > "$tmp/set.csv" 2> /dev/null || true
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "file") f = i; next }
         f && $f ~ /\.xft/ { print $f }' "$tmp/set.csv" | sort -u > "$tmp/files"
for core in actors graph; do
  # validate exits 1 when a case exceeds its tolerance; the times are wanted anyway.
  /usr/bin/time -f "%U %S" -o "$tmp/$core.time" \
    "$xferlab" validate --core "$core" --format csv --jobs 1 $(cat "$tmp/files") \
    > "$tmp/$core.csv" 2> /dev/null || true
done
awk -F, -v OFS=, '
  FNR == 1 { for (i = 1; i <= NF; i++) col[i] = $i; next }
  { for (i = 1; i <= NF; i++) v[col[i]] = $i
    key = v["file"] "|" v["mechanism"]
    if (FILENAME ~ /actors/) { a[key] = v["sim_us"]; t[key] = v["trace"]; p[key] = v["platform"];
                               m[key] = v["mechanism"]; n[++k] = key }
    else g[key] = v["sim_us"] }
  END { print "trace,platform,mechanism,actors_us,graph_us,diff_pct,file"
        for (i = 1; i <= k; i++) { key = n[i]; split(key, f, "|")
          diff = (g[key] - a[key]) / a[key] * 100
          printf "%s,%s,%s,%.6f,%.6f,%.6f,%s\n", t[key], p[key], m[key], a[key], g[key], diff, f[1] } }
' "$tmp/actors.csv" "$tmp/graph.csv" > "$d/core_comparison.csv"
echo "mechanism,cases,max_abs_diff_pct,median_abs_diff_pct"
awk -F, 'NR > 1 { d = $6 < 0 ? -$6 : $6; print $3, d }' "$d/core_comparison.csv" | sort -k1,1 -k2,2g |
  awk '{ v[$1, ++n[$1]] = $2 } END { for (m in n) { c = n[m]
         med = c % 2 ? v[m, (c + 1) / 2] : (v[m, c / 2] + v[m, c / 2 + 1]) / 2
         printf "%s,%d,%.4f,%.4f\n", m, c, v[m, c], med } }' | sort
for core in actors graph; do
  echo "cpu_s,$core,$(tail -1 "$tmp/$core.time" | awk '{ print $1 + $2 }')"
done
# Every mechanism, hardware included (no trace measures it), replayed from
# one trace per workload and chunk size (the polling captures) with each core.
r=$d/core_comparison_all_mechanisms.csv
echo "trace,platform,mechanism,actors_us,graph_us,diff_pct" > "$r"
for f in traces/real/2026-11-22_h200x2_run3/proact/traces/*_polling_c*.xft.zst \
  traces/real/2026-11-22_h200x4_nvswitch/traces/*_polling_c*.xft.zst; do
  for core in actors graph; do
    "$xferlab" replay "$f" --core "$core" --format csv --jobs 1 2> /dev/null | tail -n +2 \
      | cut -d, -f1,2,4,5 > "$tmp/all_$core.csv"
  done
  paste -d, "$tmp/all_actors.csv" "$tmp/all_graph.csv" |
    awk -F, -v OFS=, '{ printf "%s,%s,%s,%.6f,%.6f,%.6f\n", $1, $2, $3, $4, $8, ($8 - $4) / $4 * 100 }' >> "$r"
done
echo "all mechanisms: mechanism,cases,max_abs_diff_pct"
awk -F, 'NR > 1 { d = $6 < 0 ? -$6 : $6; n[$3]++; if (d > m[$3]) m[$3] = d }
         END { for (k in n) printf "%s,%d,%.4f\n", k, n[k], m[k] }' "$r" | sort
