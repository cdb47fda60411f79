#!/usr/bin/env bash
# Fuzzes the trace reader (traces/fuzz_reader.cc) with libFuzzer under
# AddressSanitizer + UndefinedBehaviorSanitizer. Bazel's toolchain is gcc, so
# this compiles the traces sources directly with clang++-14.
#
#   tools/fuzz_traces.sh [SECONDS=600] [WORKDIR=/tmp/xferlab-fuzz-traces]
#
# Seeds: traces/testdata/malformed{,_v1_0}/*.xft (format 2.0 and 1.0). New interesting inputs go to
# WORKDIR/corpus; crashes to WORKDIR/crash-* (then add the file to the
# corpus in traces/testdata/malformed/ as a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
work=${2:-/tmp/xferlab-fuzz-traces}
cxx=$(command -v clang++-14 || true)
[ -n "$cxx" ] || { echo "fuzz_traces: clang++-14 not found (tools/setup.sh installs it)" >&2; exit 1; }
mkdir -p "$work/corpus"
srcs=(common/table.cc common/number.cc common/units.cc traces/checksum.cc traces/event_names.cc traces/metadata.cc traces/reader.cc traces/writer.cc
      traces/check.cc traces/perfetto.cc traces/fuzz_reader.cc)
echo "fuzz_traces: building $work/fuzz_reader"
"$cxx" -std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined -DXFERLAB_LIBFUZZER -I. "${srcs[@]}" -l:libzstd.a \
  -o "$work/fuzz_reader"
cp -n traces/testdata/malformed/*.xft "$work/corpus/" 2>/dev/null || true
for f in traces/testdata/malformed_v1_0/*.xft; do cp -n "$f" "$work/corpus/v1_0_$(basename "$f")"; done
echo "fuzz_traces: fuzzing for ${seconds}s (log: $work/fuzz.log)"
cd "$work"
set +e
./fuzz_reader -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 corpus >"$work/fuzz.log" 2>&1
rc=$?
set -e
grep -E "^(stat::|Done|#[0-9]+ *DONE)" "$work/fuzz.log" | tail -12 || true
if [ $rc -ne 0 ]; then
  echo "fuzz_traces: FAILED (rc $rc); see $work/fuzz.log and $work/crash-*" >&2
  tail -40 "$work/fuzz.log" >&2
  exit 1
fi
echo "fuzz_traces: clean"
