#!/usr/bin/env bash
# native/proact/run_all.sh OUT_DIR — the PROACT measurement campaign in one
# call (targets on 2x H200: under 5 minutes, under 15 MB of output):
# microbenchmark chunk x threads sweep on 2 GPUs (UM at two chunk sizes,
# tracking cost on 1), the five applications on 1 and 2 GPUs, then the
# profiler (coarse grid) per workload and a run of each workload with its
# chosen configuration. Writes CSVs, logs, a representative subset of traces
# (zstd-compressed) and provenance to OUT_DIR and prints a summary table.
#
# Binary and GPU count: run_common.sh ($PROACT, $PROACT_GPUS; 1-GPU parts always run).
set -uo pipefail
out=${1:?usage: run_all.sh OUT_DIR}
script=run_all
source "$(dirname "$0")/run_common.sh"
# run NAME ARGS...: one proact invocation into OUT (run_common.sh).
run() { run_into "$out" "$@"; }

# Output budget (whole run <= 15 MB compressed): traces only for a
# representative subset (--trace-chunks; first --threads value per mechanism),
# sampled producer CTAs, a per-GPU event cap, zstd. Everything else is CSV.
# The cap must hold a whole traced run (events past it are lost, leaving begins
# without ends): app polling traces record a begin/end per 16-KiB slice, ~90k
# (256 KiB chunks) to ~131k (ALS, 16 KiB chunks) events per GPU; ~6 B/event zstd.
micro_trace="--trace-cta-sample 64 --trace-capacity 65536"
app_trace="--trace-cta-sample 256 --trace-capacity 262144"

# Microbenchmark: chunk sweep x transfer threads (8192 first: the traced one).
chunks_micro=4KiB,16KiB,64KiB,256KiB,1MiB,4MiB,16MiB,64MiB,256MiB
run micro_g$gpus --workload micro --gpus "$gpus" --chunk $chunks_micro \
  --mechanism polling,polling_tma,cdp,inline --threads 8192,4096,1024 --reps 5 \
  --trace-chunks 16KiB,1MiB,16MiB $micro_trace
# CDP accepts at most 1024 transfer threads: its traced runs get their own call.
run micro_cdp_g$gpus --workload micro --gpus "$gpus" --chunk 64KiB,1MiB,16MiB --mechanism cdp \
  --threads 1024 --reps 5 --trace-chunks 64KiB,1MiB,16MiB $micro_trace
# Unified Memory costs ~0.6 s per run: two chunk sizes, fewer reps.
run micro_um_g$gpus --workload micro --gpus "$gpus" --chunk 64KiB,16MiB --mechanism um \
  --reps 2 --trace-chunks 16MiB $micro_trace
run micro_g1 --workload micro --gpus 1 --chunk 16KiB,1MiB,16MiB --mechanism track --reps 5 \
  --trace-chunks none

apps="jacobi pagerank sssp als xray_ct"
for w in $apps; do
  run ${w}_g$gpus --workload $w --gpus "$gpus" --chunk 256KiB,2MiB \
    --mechanism polling,polling_tma,inline --threads 4096 --reps 3 --trace-chunks 256KiB \
    $app_trace
  run ${w}_cdp_g$gpus --workload $w --gpus "$gpus" --chunk 256KiB,2MiB --mechanism cdp \
    --threads 1024 --reps 3 --trace-chunks 256KiB $app_trace
  run ${w}_g1 --workload $w --gpus 1 --chunk 256KiB --mechanism track --reps 3 --trace-chunks none
done

# Profiler (coarse grid; --full for the whole grid), then each workload with its choice.
for w in micro $apps; do
  run profile_${w}_g$gpus --workload $w --gpus "$gpus" --profile --reps 3 \
    --profile-out "$out/proact_choices.csv" --trace-chunks none
done
for w in micro $apps; do
  run chosen_${w}_g$gpus --workload $w --gpus "$gpus" --config "$out/proact_choices.csv" --reps 5 \
    $app_trace
done

compress_traces "$out/traces"

# Summary: best time per mechanism for the microbenchmark, chosen configs per workload.
echo
echo "== microbenchmark, $gpus GPUs: best chunk per mechanism =="
awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["time_ms"] != "" { m = $col["mechanism"]; t = $col["time_ms"] + 0
    if (!(m in best) || t < best[m]) { best[m] = t; row[m] = $0 } }
  END { printf "%-12s %10s %10s %9s %9s %8s %8s %s\n", "mechanism", "chunk_B", "time_ms", "vs_memcpy", "frac_inf", "overlap", "track_oh", "verified"
    for (m in row) { split(row[m], f, ",")
      printf "%-12s %10s %10.4f %9.3f %9.3f %8.3f %8.3f %s\n", m, f[col["chunk_bytes"]], f[col["time_ms"]], f[col["speedup_vs_memcpy"]], f[col["frac_inf_bw"]], f[col["overlap"]], f[col["tracking_overhead"]], f[col["verified"]] } }' \
  "$out/micro_g$gpus.csv" 2>/dev/null | sort
echo
echo "== chosen configuration per workload ($gpus GPUs; Table II analogue) =="
cat "$out/proact_choices.csv" 2>/dev/null
echo
echo "== workloads with their chosen configuration =="
printf "%-9s %-12s %10s %8s %10s %10s %9s %9s %8s %s\n" workload mechanism chunk_B threads time_ms vs_1gpu vs_memcpy frac_inf track_oh verified
for w in micro $apps; do
  awk -F, -v w=$w 'FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["mechanism"] != "none" && $col["mechanism"] != "track" && $col["mechanism"] != "memcpy" && $col["gpus"] > 1 {
      printf "%-9s %-12s %10s %8s %10.4f %10.3f %9.3f %9.3f %8.3f %s\n", w, $col["mechanism"], $col["chunk_bytes"], $col["threads"], $col["time_ms"], $col["speedup_vs_1gpu"], $col["speedup_vs_memcpy"], $col["frac_inf_bw"], $col["tracking_overhead"], $col["verified"] }' \
    "$out/chosen_${w}_g$gpus.csv" 2>/dev/null
done
echo
echo "run_all: $failures failed invocation(s); $(( $(date +%s) - start )) s; $(du -sh "$out" | cut -f1) in $out"
[ $failures -eq 0 ]
