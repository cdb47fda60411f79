#!/usr/bin/env bash
# `xferlab sweep HALO_TRACE` (docs/halo_sim.md, "Sweeps"): every point equals
# a separate `xferlab replay HALO_TRACE --set ... --ranks ... --format csv`
# row (less wall_s) byte for byte; the swept key changes the result; shards
# concatenate to the serial CSV; PROACT-only options are refused for a halo
# trace (and halo ones for a PROACT trace), --set mistakes on a halo replay
# fail with one line and exit 2.
set -euo pipefail
xferlab=$(readlink -f "$1")
trace=$2  # run 15's stream_gpus2_200 rank-0 trace
gen=$(readlink -f "$3")
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }

sweep=("$xferlab" sweep "$trace" --param notification.doorbell=0.5us,5us --param ranks=2,8
       --mode hw-doorbell)
"${sweep[@]}" --jobs 2 > "$tmp/sweep.csv"
[ "$(wc -l < "$tmp/sweep.csv")" -eq 5 ] || fail "sweep: expected header + 4 rows"
head -1 "$tmp/sweep.csv" | grep -q '^notification.doorbell,ranks,variant,model,mode,ranks,' \
  || fail "sweep header: $(head -1 "$tmp/sweep.csv")"
head -1 "$tmp/sweep.csv" | grep -q wall_s && fail "sweep CSV has wall_s (not reproducible)"

# Each point = a separate replay; wall_s (second to last; measured_source
# after it has no commas) is the replay's host time, not a result.
for d in 0.5us 5us; do
  for r in 2 8; do
    "$xferlab" replay "$trace" --set notification.doorbell=$d --ranks $r --mode hw-doorbell \
      --format csv | tail -n +2 | sed -E "s/,[0-9.e+-]+,([^,]*)\$/,\\1/; s/^/$d,$r,/"
  done
done > "$tmp/replays.csv"
tail -n +2 "$tmp/sweep.csv" | cmp -s - "$tmp/replays.csv" \
  || { diff "$tmp/replays.csv" <(tail -n +2 "$tmp/sweep.csv") >&2; fail "sweep points differ from replays"; }
# The swept key reaches the model: the doorbell changes the iteration.
[ "$(cut -d, -f9 "$tmp/sweep.csv" | tail -n +2 | sort -u | wc -l)" -eq 4 ] \
  || fail "notification.doorbell or ranks does not change iteration_us"

# Serial (--jobs 1) and sharded runs give the same CSV.
"${sweep[@]}" --jobs 1 | cmp -s - "$tmp/sweep.csv" || fail "sweep depends on --jobs"
{ "${sweep[@]}" --shard 0/3; "${sweep[@]}" --shard 1/3 | tail -n +2
  "${sweep[@]}" --shard 2/3 | tail -n +2; } | cmp -s - "$tmp/sweep.csv" \
  || fail "shards do not concatenate to the serial CSV"

# Errors: one line, exit 2.
expect_usage() {  # expected-substring, command...
  local want=$1; shift
  set +e; "$@" > /dev/null 2> "$tmp/err.txt"; local rc=$?; set -e
  [ "$rc" -eq 2 ] || fail "exit $rc (want 2) for: $*"
  [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] || fail "not one line for: $*: $(cat "$tmp/err.txt")"
  grep -q -- "$want" "$tmp/err.txt" || fail "'$want' not in: $(cat "$tmp/err.txt")"
}
expect_usage "did you mean 'notification.doorbell'" \
  "$xferlab" replay "$trace" --set notification.dorbell=2us
expect_usage "'fast' is not a time" "$xferlab" replay "$trace" --set notification.doorbell=fast
expect_usage "expected key=value" "$xferlab" replay "$trace" --set notification.doorbell
expect_usage "did you mean 'notification.doorbell'" \
  "$xferlab" sweep "$trace" --param notification.dorbell=1us,2us
expect_usage "--param gpus: a halo / GDA trace" "$xferlab" sweep "$trace" --param gpus=2,4
expect_usage "--param chunk_size: a halo / GDA trace" \
  "$xferlab" sweep "$trace" --param chunk_size=1MiB
expect_usage "--mechanism: a halo / GDA trace" \
  "$xferlab" sweep "$trace" --param ranks=2 --mechanism hardware
expect_usage "--param ranks '0'" "$xferlab" sweep "$trace" --param ranks=0
"$gen" "$tmp/poll.xftrace" polling 2 8 2
expect_usage "--mode applies to halo / GDA traces only" \
  "$xferlab" sweep "$tmp/poll.xftrace" --param gpus=2 --mode nic
echo PASS
