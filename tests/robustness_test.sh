#!/usr/bin/env bash
# End-to-end checks of docs/reliability.md (issue #21): outputs checked before
# the work, impossible re-chunking rejected up front, presets built into the
# binary, lost trace events named by every reader. Each check failed on the
# code before its fix. Usage: robustness_test.sh XFERLAB GEN_TRACE [LOSSY_TRACE]
set -euo pipefail
xferlab=$(readlink -f "$1")
gen=$(readlink -f "$2")
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }

"$gen" "$tmp/poll.xftrace" polling 2 8 2

expect_error() {  # exit-code, expected-substring, command...
  local want_rc=$1 want=$2; shift 2
  set +e; "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"; local rc=$?; set -e
  [ "$rc" -eq "$want_rc" ] || fail "exit $rc (want $want_rc) for: $* ($(cat "$tmp/err.txt"))"
  [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] || fail "not one line for: $*: $(cat "$tmp/err.txt")"
  grep -qF -- "$want" "$tmp/err.txt" || fail "'$want' not in: $(cat "$tmp/err.txt")"
}

# 1. Output paths are checked before the work starts.
expect_error 2 "sweep -o '/nonexistent/dir/x.csv': directory '/nonexistent/dir' does not exist" \
  "$xferlab" sweep "$tmp/poll.xftrace" --param gpus=2 -o /nonexistent/dir/x.csv
expect_error 2 "sweep --plot '/nonexistent/p.png'" \
  "$xferlab" sweep "$tmp/poll.xftrace" --param gpus=2 --plot /nonexistent/p.png
expect_error 2 "replay --timeline '/nonexistent/t.json'" \
  "$xferlab" replay "$tmp/poll.xftrace" --timeline /nonexistent/t.json
expect_error 2 "is a directory" "$xferlab" replay "$tmp/poll.xftrace" --timeline "$tmp"
expect_error 2 "calibrate -o '/nonexistent/c.toml'" \
  "$xferlab" calibrate --link-bench "$tmp/none.csv" -o /nonexistent/c.toml
expect_error 2 "trace export -o '/nonexistent/p.json'" \
  "$xferlab" trace export --perfetto "$tmp/poll.xftrace" -o /nonexistent/p.json

# 2. Impossible re-chunking is rejected up front, with the rule it breaks.
expect_error 2 "--chunk-size 3 B: must be a multiple of the trace's store granularity" \
  "$xferlab" replay "$tmp/poll.xftrace" --chunk-size 3B
expect_error 2 "store granularity" \
  "$xferlab" sweep "$tmp/poll.xftrace" --param chunk_size=4KiB,3B -o "$tmp/s.csv"
[ ! -e "$tmp/s.csv" ] || fail "sweep wrote output for a rejected grid"
"$xferlab" replay "$tmp/poll.xftrace" --chunk-size 4KiB --mechanism hardware > /dev/null \
  || fail "a valid --chunk-size failed"

# 9. Presets are built into the binary: a copy outside the repository (no
# runfiles, no source tree) lists and loads them; XFERLAB_PRESETS and a file
# still override.
mkdir -p "$tmp/bin" "$tmp/elsewhere" "$tmp/presets"
cp "$xferlab" "$tmp/bin/xferlab"
(cd "$tmp/elsewhere" && env -u RUNFILES_DIR -u TEST_SRCDIR -u BUILD_WORKSPACE_DIRECTORY \
  -u XFERLAB_PRESETS "$tmp/bin/xferlab" platform list --format csv) > "$tmp/list.csv" \
  || fail "installed binary: platform list failed"
grep -q '^h200x2_nvlink4,' "$tmp/list.csv" || fail "installed binary lists no h200x2_nvlink4"
[ "$(grep -c . "$tmp/list.csv")" -ge 9 ] || fail "installed binary lists too few presets"
(cd "$tmp/elsewhere" && env -u RUNFILES_DIR -u TEST_SRCDIR -u BUILD_WORKSPACE_DIRECTORY \
  -u XFERLAB_PRESETS "$tmp/bin/xferlab" replay "$tmp/poll.xftrace" --platform h200x2_nvlink4 \
  --mechanism hardware) > /dev/null || fail "installed binary cannot replay on a preset"
"$xferlab" platform show h200x2_nvlink4 | sed 's/^name = .*/name = "mine"/' > "$tmp/presets/h200x2_nvlink4.toml"
XFERLAB_PRESETS="$tmp/presets" "$xferlab" platform show h200x2_nvlink4 > "$tmp/show.toml"
grep -q '^name = "mine"' "$tmp/show.toml" || fail "XFERLAB_PRESETS does not override the built-in preset"
"$xferlab" platform show "$tmp/presets/h200x2_nvlink4.toml" > "$tmp/show.toml"
grep -q '^name = "mine"' "$tmp/show.toml" || fail "a preset file path is not used"

# 10. Standard output that cannot be written (a full disk; a closed pipe with
# SIGPIPE ignored) is a runtime error, not exit 0 with the output lost: small
# outputs sit in stdio's buffer until the exit's flush.
expect_error 1 "xferlab: writing standard output: No space left on device" \
  sh -c '"$1" replay "$2" --mechanism hardware > /dev/full' sh "$xferlab" "$tmp/poll.xftrace"
expect_error 1 "xferlab: writing standard output: No space left on device" \
  sh -c '"$1" version > /dev/full' sh "$xferlab"
# One message where the command itself saw the failure (export checks its
# stream), naming what it wrote; a --timeline file on a full disk names its path.
expect_error 1 "xferlab: trace export: writing standard output failed" \
  sh -c '"$1" trace export --perfetto "$2" > /dev/full' sh "$xferlab" "$tmp/poll.xftrace"
expect_error 1 "xferlab: trace export: writing /dev/full failed" \
  "$xferlab" trace export --perfetto "$tmp/poll.xftrace" -o /dev/full
expect_error 1 "xferlab: replay --timeline: writing /dev/full failed" \
  "$xferlab" replay "$tmp/poll.xftrace" --mechanism hardware --timeline /dev/full
"$xferlab" trace generate --gpus 8 "$tmp/big.xft" > /dev/null  # ~1 MB of JSON: past the pipe's buffer
set +e
(trap '' PIPE; "$xferlab" trace export --perfetto "$tmp/big.xft" | head -c 1 > /dev/null
 exit "${PIPESTATUS[0]}") 2> "$tmp/err.txt"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a closed pipe (SIGPIPE ignored): exit $rc (want 1): $(cat "$tmp/err.txt")"

# 11. --help prints the help whatever TRACE is (a trace that does not open is
# reported before a flag error, not before the help).
"$xferlab" replay /nonexistent.xft --help > "$tmp/help.txt" || fail "replay MISSING --help: exit $?"
grep -q '^usage: xferlab replay' "$tmp/help.txt" || fail "replay MISSING --help: no help"

# 5. A real trace that overflowed its buffers (proact --trace-capacity=1024 on
# 1x H200, traces/real/2026-11-25_h200x1_robust): every reader says how many
# events were lost and the capacity to re-record with.
if [ $# -ge 3 ]; then
  lossy=$(readlink -f "$3")
  lost="the trace lost 80900 events; re-record with --trace-capacity >= 81924"
  for cmd in "trace info" "trace check" "replay"; do
    # shellcheck disable=SC2086
    "$xferlab" $cmd "$lossy" > /dev/null 2> "$tmp/err.txt" || true
    grep -qF -- "$lost" "$tmp/err.txt" || fail "xferlab $cmd does not name the loss: $(cat "$tmp/err.txt")"
  done
  expect_error 2 "$lost" "$xferlab" validate "$lossy"
  # A folder of such traces: the error keeps the first skip reason.
  expect_error 2 "no trace had a replayable mechanism; skipped 1 trace(s): the trace lost 31746 events; re-record with --trace-capacity >= 32770" \
    "$xferlab" validate "$(dirname "$lossy")/../.."
fi
echo PASS
