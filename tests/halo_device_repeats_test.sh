#!/usr/bin/env bash
# Args: DEVICE_REPEATS_SH — native/halo/device_repeats.sh with a stand-in
# run_all.sh and nvidia-smi: sweeps FIRST..LAST run in order into WORK/repK,
# each comes back as OUT/repK.tgz holding that sweep, device_FIRST.txt has
# the machine's description; a failed sweep makes the exit status 1 (the other
# sweeps still run and come back); bad arguments or no OUT stop it, exit 2.
set -euo pipefail
src=$1
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/halo" "$tmp/bin" "$tmp/out"
cp "$src" "$tmp/halo/device_repeats.sh"
cat > "$tmp/halo/run_all.sh" <<'EOS'
#!/usr/bin/env bash
mkdir -p "$1"; echo "sweep of $1" > "$1/halo.csv"; echo "$1" >> "$CALLS"
[ "${FAIL_ON:-}" != "$(basename "$1")" ]
EOS
printf '#!/usr/bin/env bash\necho "GPU 0: stand-in $*"\n' > "$tmp/bin/nvidia-smi"
chmod +x "$tmp/halo/"*.sh "$tmp/bin/nvidia-smi"
export PATH="$tmp/bin:$PATH" CALLS="$tmp/calls" WORK="$tmp/work"
dr="$tmp/halo/device_repeats.sh"

: > "$CALLS"
OUT="$tmp/out" "$dr" 4 5 > "$tmp/log" 2>&1 || fail "sweeps 4-5 exited $?: $(cat "$tmp/log")"
[ "$(cat "$CALLS")" = "$tmp/work/rep4
$tmp/work/rep5" ] || fail "sweep order: $(cat "$CALLS")"
for k in 4 5; do
  tar -xzf "$tmp/out/rep$k.tgz" -C "$tmp" && grep -qx "sweep of $tmp/work/rep$k" "$tmp/rep$k/halo.csv" ||
    fail "rep$k.tgz does not hold sweep $k"
done
grep -q "GPU 0: stand-in" "$tmp/out/device_4.txt" || fail "device_4.txt: $(cat "$tmp/out/device_4.txt")"
[ "$(ls "$tmp/out" | wc -l)" = 3 ] || fail "OUT holds $(ls "$tmp/out")"

rc=0
OUT="$tmp/out" FAIL_ON=rep1 "$dr" 1 2 > "$tmp/log" 2>&1 || rc=$?
[ "$rc" = 1 ] && [ -f "$tmp/out/rep2.tgz" ] || fail "failed sweep: exit $rc, $(ls "$tmp/out")"

for args in "0 1" "3 2" "x 2"; do
  rc=0
  # shellcheck disable=SC2086
  OUT="$tmp/out" "$dr" $args > "$tmp/bad" 2>&1 || rc=$?
  [ "$rc" = 2 ] && grep -q "^device_repeats: " "$tmp/bad" || fail "args '$args': exit $rc, $(cat "$tmp/bad")"
done
rc=0
env -u OUT "$dr" 1 1 > "$tmp/bad" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "OUT must name the folder" "$tmp/bad" || fail "no OUT: exit $rc, $(cat "$tmp/bad")"
echo PASS
