# tools/fuzz_run.sh — sourced by tools/fuzz_traces.sh and tools/fuzz_inputs.sh:
# runs a built libFuzzer harness over WORK/corpus and reports.
#
#   run_fuzzer NAME WORK HARNESS SECONDS MAX_LEN
# runs WORK/HARNESS for SECONDS (inputs up to MAX_LEN bytes, log WORK/fuzz.log),
# prints libFuzzer's final stats, and exits 1 with the log's tail on a crash
# or broken invariant (inputs in WORK/crash-*).
run_fuzzer() {
  local name=$1 work=$2 harness=$3 seconds=$4 max_len=$5 rc
  echo "$name: fuzzing for ${seconds}s (log: $work/fuzz.log)"
  cd "$work"
  set +e
  ./"$harness" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 corpus >"$work/fuzz.log" 2>&1
  rc=$?
  set -e
  grep -E "^(stat::|Done|#[0-9]+ *DONE)" "$work/fuzz.log" | tail -12 || true
  if [ $rc -ne 0 ]; then
    echo "$name: FAILED (rc $rc); see $work/fuzz.log and $work/crash-*" >&2
    tail -40 "$work/fuzz.log" >&2
    exit 1
  fi
  echo "$name: clean"
}
