#!/usr/bin/env bash
# Args: HALO_MEDIAN_REPEAT_PY — three fake run_all.sh outputs whose iteration
# times put a different repeat in the middle for each configuration: the kept
# CSV rows, traces and logs must be the median repeat's; repeats.csv marks it;
# a repeat without iteration_wall for a configuration and a missing folder
# are one-line errors with a non-zero exit; a folder rep<not a number> is
# ignored; a configuration a repeat skipped (no rows: its sweep ran out of
# budget) takes the median of the repeats that measured it, and one measured
# by fewer than 3 is left out and named on stderr.
set -euo pipefail
tool=$1
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
header=variant,size,ranks,gpus_per_node,iterations,phase,min_ns,avg_ns,max_ns
make_rep() {  # K STREAM_WALL_NS BOX_WALL_NS
  local d=$tmp/in/rep$1
  mkdir -p "$d/traces" "$d/logs"
  { echo $header
    echo "stream,gpus2_400,2,2,50,pack,1,$1,1"
    echo "stream,gpus2_400,2,2,50,iteration_wall,$2,$2,$2"; } > "$d/halo.csv"
  { echo $header
    echo "host,gpus2_box16,2,2,50,iteration_wall,$3,$3,$3"; } > "$d/boxes.csv"
  for r in 0 1; do
    echo "rep$1" > "$d/traces/stream_gpus2_400_rank$r.xft.zst"
    echo "rep$1" > "$d/traces/host_gpus2_box16_rank$r.xft.zst"
  done
  echo "rep$1" > "$d/logs/gpus2_stream_400.log"
  echo "rep$1" > "$d/logs/gpus2_boxes_host_16.log"
  echo "date: rep$1" > "$d/provenance.txt"
}
make_rep 1 300 50
make_rep 2 100 70
make_rep 3 200 60
mkdir -p "$tmp/in/rep_old"  # not a repeat: ignored, not a crash
python3 "$tool" "$tmp/in" "$tmp/out" > "$tmp/log" || fail "exit $? ($(cat "$tmp/log"))"
[ "$(cat "$tmp/out/traces/stream_gpus2_400_rank1.xft.zst")" = rep3 ] || fail "stream trace not from rep3"
[ "$(cat "$tmp/out/traces/host_gpus2_box16_rank0.xft.zst")" = rep3 ] || fail "box trace not from rep3"
[ "$(cat "$tmp/out/logs/gpus2_stream_400.log")" = rep3 ] || fail "stream log not from rep3"
[ "$(cat "$tmp/out/logs/gpus2_boxes_host_16.log")" = rep3 ] || fail "box log not from rep3"
grep -q '^stream,gpus2_400,2,2,50,pack,1,3,1$' "$tmp/out/halo.csv" || fail "halo.csv rows not rep3's: $(cat "$tmp/out/halo.csv")"
[ "$(grep -c ',yes,' "$tmp/out/repeats.csv")" = 2 ] || fail "repeats.csv: $(cat "$tmp/out/repeats.csv")"
grep -q '^stream,gpus2_400,halo.csv,rep3,200.00,yes,2$' "$tmp/out/repeats.csv" || fail "repeats.csv kept row"
grep -q 'median repeat' "$tmp/out/provenance.txt" || fail "provenance lacks the rule"
# Change the box median: rep2 60 -> 55 keeps rep2 (50/55/60 sorted: rep1, rep2, rep3).
sed -i 's/iteration_wall,70,70,70/iteration_wall,55,55,55/' "$tmp/in/rep2/boxes.csv"
rm -rf "$tmp/out" && python3 "$tool" "$tmp/in" "$tmp/out" > /dev/null
[ "$(cat "$tmp/out/traces/host_gpus2_box16_rank0.xft.zst")" = rep2 ] || fail "box median moved to rep2 but was not kept"
# Skipped by a sweep's budget: rep4 has no box rows (median of rep1-3's
# 50/55/60 stays rep2), ki box 32 only in rep1 and rep4 (left out, named).
make_rep 4 250 0
echo $header > "$tmp/in/rep4/boxes.csv"
for k in 1 4; do echo "ki,gpus4_box32,4,4,50,iteration_wall,9,9,9" >> "$tmp/in/rep$k/boxes.csv"; done
rm -rf "$tmp/out" && python3 "$tool" "$tmp/in" "$tmp/out" > /dev/null 2> "$tmp/err" || fail "partial repeats: exit $? ($(cat "$tmp/err"))"
[ "$(cat "$tmp/out/traces/host_gpus2_box16_rank0.xft.zst")" = rep2 ] || fail "box median over rep1-3 not rep2"
[ "$(cat "$tmp/out/traces/stream_gpus2_400_rank0.xft.zst")" = rep3 ] || fail "stream median over 4 (100/200/250/300: lower middle rep3)"
grep -q 'left out, measured by fewer than 3 repeats: ki gpus4_box32 (2 repeats)' "$tmp/err" || fail "dropped not named: $(cat "$tmp/err")"
grep -q 'gpus4_box32' "$tmp/out/boxes.csv" && fail "kept a configuration of 2 repeats"
grep -q 'median over fewer repeats.*host gpus2_box16 (3)' "$tmp/out/provenance.txt" || fail "provenance: $(cat "$tmp/out/provenance.txt")"
[ "$(grep -c '^host,gpus2_box16,' "$tmp/out/repeats.csv")" = 3 ] || fail "repeats.csv box rows: $(cat "$tmp/out/repeats.csv")"
rm -rf "$tmp/in/rep4"
sed -i '/gpus4_box32/d' "$tmp/in/rep1/boxes.csv"
# Malformed: a repeat lacks the configuration's iteration_wall.
sed -i '/iteration_wall/d' "$tmp/in/rep2/halo.csv"
if python3 "$tool" "$tmp/in" "$tmp/bad" 2> "$tmp/err"; then fail "accepted a repeat without iteration_wall"; fi
grep -q 'rep2/halo.csv: 0 iteration_wall rows for stream gpus2_400' "$tmp/err" || fail "message: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
if python3 "$tool" "$tmp/nothing" "$tmp/bad2" 2> "$tmp/err"; then fail "accepted a folder without repeats"; fi
grep -q 'no rep1 ... repN folders' "$tmp/err" || fail "message: $(cat "$tmp/err")"
echo PASS
