#!/usr/bin/env bash
# Args: PACK_RUN_LOGS_SH — a fake run folder with logs/ in two kept folders, a
# repeats/ tree and traces: logs/ and repeats/ become .tar.xz that unpack to the
# same bytes, traces stay; packing twice, a missing folder and no arguments are
# one-line errors with exit 2 (an existing archive before anything is packed);
# two packs of the same tree are byte-identical.
set -euo pipefail
tool=$1
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
make_run() {  # DIR
  mkdir -p "$1/kept_2rank/logs" "$1/kept_2rank/traces" "$1/kept_4rank/logs" "$1/repeats/rep1" "$1/repeats/rep2"
  echo "verified 50 iterations" > "$1/kept_2rank/logs/gpus2_stream_400.log"
  echo "rank 3 ok" > "$1/kept_4rank/logs/gpus4_sa_box16.log"
  echo trace > "$1/kept_2rank/traces/stream_gpus2_400_rank0.xft.zst"
  echo "variant,size" > "$1/repeats/rep1/halo.csv"
  echo "date: x" > "$1/repeats/rep2/provenance.txt"
}
make_run "$tmp/run"
cp -r "$tmp/run" "$tmp/orig"
out=$("$tool" "$tmp/run")
[ "$out" = "pack_run_logs: packed 3 folder(s)" ] || fail "summary: $out"
for f in kept_2rank/logs kept_4rank/logs repeats; do
  [ ! -e "$tmp/run/$f" ] || fail "$f still there"
  [ -f "$tmp/run/$f.tar.xz" ] || fail "$f.tar.xz missing"
  mkdir -p "$tmp/x/$f" && tar -C "$tmp/x/$(dirname "$f")" -xJf "$tmp/run/$f.tar.xz"
  diff -r "$tmp/orig/$f" "$tmp/x/$f" || fail "$f.tar.xz does not unpack to the folder"
done
[ -f "$tmp/run/kept_2rank/traces/stream_gpus2_400_rank0.xft.zst" ] || fail "traces moved"
# Reproducible: the same tree packed again gives the same bytes.
make_run "$tmp/run2"
"$tool" "$tmp/run2" > /dev/null
cmp "$tmp/run/repeats.tar.xz" "$tmp/run2/repeats.tar.xz" || fail "archives differ between packs"
# Errors.
mkdir -p "$tmp/run/repeats"
if "$tool" "$tmp/run" 2> "$tmp/err"; then fail "packing over an archive succeeded"; fi
grep -q "repeats.tar.xz already exists" "$tmp/err" || fail "error: $(cat "$tmp/err")"
# Found before anything is packed: the run's other folders stay as they were.
make_run "$tmp/run3"
touch "$tmp/run3/repeats.tar.xz"
if "$tool" "$tmp/run3" 2> "$tmp/err"; then fail "packing over an archive succeeded"; fi
[ -d "$tmp/run3/kept_2rank/logs" ] && [ ! -e "$tmp/run3/kept_2rank/logs.tar.xz" ] ||
  fail "a folder was packed before the existing archive was found"
set +e
"$tool" "$tmp/missing" 2> "$tmp/err"; rc=$?
set -e
[ $rc = 2 ] && grep -q "missing: not a directory" "$tmp/err" || fail "missing folder: rc $rc, $(cat "$tmp/err")"
set +e
"$tool" 2> /dev/null; rc=$?
set -e
[ $rc = 2 ] || fail "no arguments: rc $rc"
echo PASS
