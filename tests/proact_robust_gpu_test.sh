#!/usr/bin/env bash
# proact's run-time guards on one GPU (docs/reliability.md, issue #21):
#  7. --timeout is a per-wait deadline, checked on every poll: a tiny one
#     fires with the message naming the chunk and the timeout, for both
#     polling agents; a step far longer than a generous timeout passes.
#  5. a trace that overflows --trace-capacity says how many events were lost
#     and the capacity to re-record with; the default capacity re-traces.
#  6. memory that cannot fit is refused before any generation or allocation.
# Usage: proact_robust_gpu_test.sh PROACT [LOG_DIR]   (bazel: tagged gpu; on a
# GPU host without Bazel, native/proact/run_robust.sh runs it on dist/bin).
set -uo pipefail
proact=$(readlink -f "$1")
logs=${2:-${TEST_UNDECLARED_OUTPUTS_DIR:-$(mktemp -d)}}
mkdir -p "$logs"
export CUDA_MODULE_LOADING=EAGER NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
pass=0 fail=0
# check NAME WANT_RC TEXT ARGS...: proact ARGS exits WANT_RC, its stderr holds TEXT.
check() {
  local name=$1 want_rc=$2 text=$3; shift 3
  local t0=$SECONDS
  timeout 170 "$proact" "$@" > "$logs/$name.out" 2> "$logs/$name.log"
  local rc=$?
  local problem=""
  [ "$rc" -eq "$want_rc" ] || problem="exit $rc, want $want_rc"
  [ -z "$text" ] || grep -qF -- "$text" "$logs/$name.log" || problem="$problem; '$text' missing"
  if [ -n "$problem" ]; then
    fail=$((fail + 1))
    echo "FAIL $name (${problem#; }, $((SECONDS - t0)) s): $(tail -3 "$logs/$name.log")"
  else
    pass=$((pass + 1))
    echo "ok   $name ($((SECONDS - t0)) s)"
  fi
}
micro=(--workload=micro --gpus=1 --warmup=1 --format=csv)

# 7: a 1-us deadline fires on the first chunk the agent waits for (before the
# fix the clock was read every 256 polls and never got there).
check timeout_1us_polling 1 "for it: the transfer agent timed out" \
  "${micro[@]}" --bytes=64MiB --chunk=64KiB --mechanism=polling --compute-time=20ms --timeout=1us --reps=2
grep -qF -- "--timeout 1 us" "$logs/timeout_1us_polling.log" ||
  { fail=$((fail + 1)); echo "FAIL timeout_1us_polling: the message does not name --timeout 1 us"; }
check timeout_1us_tma 1 "for it: the transfer agent timed out" \
  "${micro[@]}" --bytes=64MiB --chunk=64KiB --mechanism=polling_tma --compute-time=20ms --timeout=1us --reps=2
# 7: a 1-s producer step (256 MiB in ~64 waves of CTAs) with a 100-ms
# deadline per wait: every chunk is awaited for one wave at most, so it passes.
check long_step_passes 0 "" \
  "${micro[@]}" --bytes=256MiB --chunk=64KiB --mechanism=polling,polling_tma --compute-time=1s --reps=2 \
  --timeout=100ms
# 5: 1024-event buffers overflow; the default sizing traces again.
check trace_overflow 0 "re-record with --trace-capacity >= " \
  "${micro[@]}" --bytes=64MiB --chunk=4KiB --mechanism=polling --compute-time=5ms \
  --reps=2 --trace-capacity=1024 --out="$logs/overflow"
check trace_auto_capacity 0 "tracing again with" \
  "${micro[@]}" --bytes=2GiB --chunk=4KiB --mechanism=polling --compute-time=20ms --reps=1 \
  --out="$logs/auto"
if grep -q "lost" "$logs/trace_auto_capacity.log"; then
  fail=$((fail + 1)); echo "FAIL trace_auto_capacity: the re-traced run still lost events"
fi
rm -rf "$logs/auto"  # ~90 MB: the log says what happened.
# 6: refused at once, naming the flags and the limit.
check pagerank_host_refused 2 "of host memory but" \
  --workload=pagerank --graph-scale=28 --edge-factor=256
check jacobi_gpu_refused 2 "per GPU but GPU 0 has" \
  --workload=jacobi --gpus=1 --jacobi-rows=2147483648 --jacobi-half-band=64
echo "proact robust: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
