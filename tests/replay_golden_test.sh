#!/usr/bin/env bash
# Golden + end-to-end tests of `xferlab replay/validate/sweep`: a small
# synthetic trace replayed on fixed presets must print exactly the committed
# CSV; bad inputs must fail with one line and exit 2.
# Regenerate goldens: UPDATE_GOLDEN=1 bazel run //tests:replay_golden_test
set -euo pipefail
xferlab=$(readlink -f "$1")
gen=$(readlink -f "$2")
golden_dir=$(dirname "$(readlink -f "$3")")
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }

"$gen" "$tmp/poll.xftrace" polling 2 8 2
"$gen" "$tmp/memcpy.xftrace" memcpy 2 8 2

check_golden() {  # name, command...
  local name=$1; shift
  "$@" > "$tmp/$name.csv"
  if [ -n "${UPDATE_GOLDEN:-}" ]; then
    cp "$tmp/$name.csv" "${BUILD_WORKSPACE_DIRECTORY}/tests/golden/$name.csv"
  else
    diff -u "$golden_dir/$name.csv" "$tmp/$name.csv" || fail "golden $name differs"
  fi
}
check_golden replay_polling_h200x2 "$xferlab" replay "$tmp/poll.xftrace" --platform h200x2_nvlink4 --format csv
check_golden replay_memcpy_dgx2_16 "$xferlab" replay "$tmp/memcpy.xftrace" --platform dgx2_v100_nvswitch --gpus 16 --format csv
check_golden replay_polling_pcie4 "$xferlab" replay "$tmp/poll.xftrace" --platform h100_pcie_gen5 --gpus 4 --format csv

# Deterministic: the same replay twice gives identical output.
"$xferlab" replay "$tmp/poll.xftrace" --platform h200x2_nvlink4 --format csv > "$tmp/again.csv"
cmp -s "$tmp/again.csv" "$tmp/replay_polling_h200x2.csv" || fail "replay not deterministic"

# Parallel = serial: `all` (mechanisms) and validate (traces) in parallel
# processes print exactly what one process at a time prints.
"$xferlab" replay "$tmp/poll.xftrace" --platform h200x2_nvlink4 --format csv --jobs 1 > "$tmp/serial.csv"
cmp -s "$tmp/serial.csv" "$tmp/replay_polling_h200x2.csv" || fail "replay --jobs 1 differs from default jobs"
"$xferlab" replay "$tmp/poll.xftrace" --platform h200x2_nvlink4 --format csv --jobs 6 > "$tmp/par.csv"
cmp -s "$tmp/serial.csv" "$tmp/par.csv" || fail "replay --jobs 6 differs from --jobs 1"
for j in 1 3; do
  "$xferlab" validate "$tmp/poll.xftrace" "$tmp/memcpy.xftrace" "$tmp/poll.xftrace" --tolerance 1000 \
    --format csv --jobs $j > "$tmp/val$j.csv" || fail "validate --jobs $j failed"
done
cmp -s "$tmp/val1.csv" "$tmp/val3.csv" || fail "validate --jobs 3 differs from --jobs 1"
[ "$(wc -l < "$tmp/val3.csv")" -eq 4 ] || fail "validate: expected header + 3 rows"
# Synthetic traces have no results CSV: measured_us is the traced span.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["measured_source"] != "trace_span" || $col["measured_csv"] != "" { bad = 1 }
  END { exit bad }' "$tmp/val1.csv" || fail "validate measured_source is not trace_span"

# More GPUs than a 32-bit transfer mask: generated with mask 0 (= every
# other GPU), clean under `trace check`, replayed on its own 40 GPUs.
"$xferlab" trace generate "$tmp/g40.xft" --gpus 40 --chunks 4 --ctas 8 --iterations 1 > /dev/null
"$xferlab" trace check "$tmp/g40.xft" | grep -q "0 errors, 0 warnings" || fail "40-GPU trace check"
"$xferlab" replay "$tmp/g40.xft" --platform hgx_h100_nvlink4 --mechanism polling --format csv \
  | grep -q "^g40,hgx_h100_nvlink4,40,polling," || fail "40-GPU trace replay"

# The preset comes from the GPUs the trace records (#23): a 1-GPU H100 SXM
# trace gets the H100 switch preset, not the default 2-GPU pair (which
# stopped with "direct_pair needs 2 GPUs per node"); 8 H200 fit no preset:
# one line naming the nearest presets, exit 2.
"$gen" "$tmp/h100x1.xftrace" polling 1 4 1 "NVIDIA H100 80GB HBM3"
"$xferlab" replay "$tmp/h100x1.xftrace" --mechanism polling --format csv \
  | grep -q "^h100x1,hgx_h100_nvlink4,1,polling," || fail "1-GPU H100 trace not replayed on hgx_h100_nvlink4"
"$gen" "$tmp/h200x8.xftrace" polling 8 4 1 "NVIDIA H200"
rc=0
"$xferlab" replay "$tmp/h200x8.xftrace" > /dev/null 2> "$tmp/h200x8.err" || rc=$?
[ "$rc" -eq 2 ] || fail "8x H200 trace: exit $rc, expected 2"
[ "$(wc -l < "$tmp/h200x8.err")" -eq 1 ] || fail "8x H200 trace: error is not one line"
grep -q "no platform preset fits 8 x NVIDIA H200.*h200x4_hgx_nvswitch" "$tmp/h200x8.err" \
  || fail "8x H200 trace: error does not name the nearest preset: $(cat "$tmp/h200x8.err")"

# The paper's microbenchmark for a preset (docs/scaling.md): producer time
# within 2% of the preset's simulated cudaMemcpy duplication time; replayed on
# another GPU its compute is rescaled and the output says by what ratio;
# --scaling strong says how the problem was split.
"$xferlab" trace generate "$tmp/micro.xft" --workload micro --match-copy --platform proact_k40_pcie3 \
  --bytes 4MiB --chunk-size 64KiB > "$tmp/micro.txt" || fail "trace generate --workload micro"
awk '{ for (i = 1; i <= NF; ++i) if ($i ~ /^\(-?[0-9.]+%\)$/) { v = substr($i, 2) + 0; ok = v < 2 && v > -2 } }
  END { exit !ok }' "$tmp/micro.txt" || fail "micro producer not within 2% of memcpy: $(cat "$tmp/micro.txt")"
"$xferlab" replay "$tmp/micro.xft" --platform proact_v100_nvlink2 --mechanism infinite > "$tmp/v100.txt"
grep -q "^note: compute: compute-bound .* = SMs x clock ratio 15 SMs x 0.7450 GHz (proact_k40_pcie3) / 80 SMs x 1.530 GHz" \
  "$tmp/v100.txt" || fail "no roofline line: $(cat "$tmp/v100.txt")"
"$xferlab" replay "$tmp/micro.xft" --mechanism infinite --format csv > /dev/null 2> "$tmp/same.err"
! grep -q "note: compute" "$tmp/same.err" || fail "same GPU must not be rescaled"
"$xferlab" replay "$tmp/poll.xftrace" --gpus 8 --scaling strong --platform dgx2_v100_nvswitch \
  --mechanism infinite --format csv > /dev/null 2> "$tmp/strong.err"
grep -q "^note: scaling: strong, all-gather of .* on 8 GPUs (traced on 2): each producer computes 0.125" \
  "$tmp/strong.err" || fail "no strong-scaling line: $(cat "$tmp/strong.err")"

# Timeline: Chrome trace JSON with kernel and transfer spans.
"$xferlab" replay "$tmp/poll.xftrace" --mechanism hardware --platform h200x2_nvlink4 \
  --timeline "$tmp/tl.json" > /dev/null
grep -q '"traceEvents"' "$tmp/tl.json" && grep -q '"cat":"transfer"' "$tmp/tl.json" \
  || fail "timeline lacks transfer spans"

# Validate: the polling trace against itself passes a loose tolerance.
"$xferlab" validate "$tmp/poll.xftrace" --tolerance 50 > "$tmp/val.txt" || fail "validate failed"
grep -q "median |error|" "$tmp/val.txt" || fail "validate prints no summary"
# Validate accepts a directory (recursively) as well as files.
mkdir -p "$tmp/vdir/sub" && cp "$tmp/poll.xftrace" "$tmp/vdir/sub/"
"$xferlab" validate "$tmp/vdir" --tolerance 50 > "$tmp/vald.txt" || fail "validate DIR failed"
grep -q "^poll " "$tmp/vald.txt" || fail "validate DIR did not replay poll.xftrace"
# The replay table says which row was measured.
"$xferlab" replay "$tmp/poll.xftrace" --platform h200x2_nvlink4 | grep -q "^note: measured row = polling" \
  || fail "replay prints no measured-row note"

# Sweep: 2x2 grid, tidy CSV with the parameter columns first.
"$xferlab" sweep "$tmp/poll.xftrace" --param dma_agent.channels=1,4 --param gpus=2,4 \
  --mechanism hardware --jobs 2 -o "$tmp/sweep.csv"
[ "$(wc -l < "$tmp/sweep.csv")" -eq 5 ] || fail "sweep: expected header + 4 rows"
head -1 "$tmp/sweep.csv" | grep -q '^dma_agent.channels,gpus,trace,' || fail "sweep header"
# A point of one mechanism simulates in the point's own process, a replay in
# a forked one, a point of `all` in forked ones: the same rows either way.
for m in polling hardware; do
  for g in 2 4; do
    "$xferlab" replay "$tmp/poll.xftrace" --platform h200x2_nvlink4 --mechanism "$m" --gpus "$g" \
      --set dma_agent.channels=4 --format csv | tail -n +2 | sed "s/^/4,$g,/"
  done
done > "$tmp/replays.csv"
[ "$(wc -l < "$tmp/replays.csv")" -eq 4 ] || fail "replays: expected 4 rows"
"$xferlab" sweep "$tmp/poll.xftrace" --platform h200x2_nvlink4 --param dma_agent.channels=4 \
  --param gpus=2,4 --mechanism polling > "$tmp/sweep_polling.csv"
"$xferlab" sweep "$tmp/poll.xftrace" --platform h200x2_nvlink4 --param dma_agent.channels=4 \
  --param gpus=2,4 --mechanism hardware > "$tmp/sweep_hardware.csv"
"$xferlab" sweep "$tmp/poll.xftrace" --platform h200x2_nvlink4 --param dma_agent.channels=4 \
  --param gpus=2,4 --mechanism all > "$tmp/sweep_all.csv"
cat <(tail -n +2 "$tmp/sweep_polling.csv") <(tail -n +2 "$tmp/sweep_hardware.csv") |
  cmp -s - "$tmp/replays.csv" || fail "one-mechanism sweep points differ from replays"
grep -E '^4,[24],[^,]*,[^,]*,[^,]*,(polling|hardware),' "$tmp/sweep_all.csv" |
  sort | cmp -s - <(sort "$tmp/replays.csv") || fail "one-mechanism sweep points differ from all"

# Errors: one line, exit 2.
expect_usage() {  # expected-substring, command...
  local want=$1; shift
  set +e; "$@" > /dev/null 2> "$tmp/err.txt"; local rc=$?; set -e
  [ "$rc" -eq 2 ] || fail "exit $rc (want 2) for: $*"
  [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] || fail "not one line for: $*"
  grep -q -- "$want" "$tmp/err.txt" || fail "'$want' not in: $(cat "$tmp/err.txt")"
}
expect_usage "did you mean 'dma_agent.channels'" "$xferlab" replay "$tmp/poll.xftrace" --set dma_agent.chanels=2
expect_usage "nope" "$xferlab" replay "$tmp/poll.xftrace" --platform nope
expect_usage "missing.xftrace" "$xferlab" replay "$tmp/missing.xftrace"
echo garbage > "$tmp/bad.xftrace"
expect_usage "bad.xftrace" "$xferlab" replay "$tmp/bad.xftrace"
expect_usage "did you mean 'polling'" "$xferlab" replay "$tmp/poll.xftrace" --mechanism poling
expect_usage "no real traces" "$xferlab" validate --dir "$tmp/none"
expect_usage "--jobs" "$xferlab" replay "$tmp/poll.xftrace" --jobs 65
expect_usage "missing.xftrace" "$xferlab" validate "$tmp/missing.xftrace" --jobs 2
echo PASS
