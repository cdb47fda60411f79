#!/usr/bin/env bash
# Args: RUN_REPEATS_SH — native/halo/run_repeats.sh with a stand-in run_all.sh
# and mpirun: N repeats into OUT/repK; with NAME=BIND protocols, each repeat
# runs every protocol in turn into OUT/NAME/repK with HALO_MPI_BIND=BIND; a
# binding mpirun refuses, a bad protocol argument or a bad N stops it (exit
# 2) before any sweep; a failed sweep makes the exit status 1.
set -euo pipefail
src=$1
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/halo" "$tmp/bin"
cp "$src" "$tmp/halo/run_repeats.sh"
cat > "$tmp/halo/run_all.sh" <<'EOS'
#!/usr/bin/env bash
mkdir -p "$1"; echo "$1|${HALO_MPI_BIND:-}" >> "$CALLS"
[ "${FAIL_ON:-}" != "$1" ]
EOS
cat > "$tmp/bin/mpirun" <<'EOS'
#!/usr/bin/env bash
case " $* " in *" refuse "*) echo "binding refused" >&2; exit 1 ;; esac
exit 0
EOS
chmod +x "$tmp/halo/"*.sh "$tmp/bin/mpirun"
export PATH="$tmp/bin:$PATH" CALLS="$tmp/calls"
rr="$tmp/halo/run_repeats.sh"

: > "$CALLS"
"$rr" "$tmp/o1" 2 > /dev/null || fail "plain repeats exited $?"
[ "$(cat "$CALLS")" = "$tmp/o1/rep1|
$tmp/o1/rep2|" ] || fail "plain repeats: $(cat "$CALLS")"

: > "$CALLS"
"$rr" "$tmp/o2" 2 none="--bind-to none" core="--map-by slot:PE=4 --bind-to core" > /dev/null ||
  fail "protocols exited $?"
[ "$(cat "$CALLS")" = "$tmp/o2/none/rep1|--bind-to none
$tmp/o2/core/rep1|--map-by slot:PE=4 --bind-to core
$tmp/o2/none/rep2|--bind-to none
$tmp/o2/core/rep2|--map-by slot:PE=4 --bind-to core" ] || fail "protocol order: $(cat "$CALLS")"

: > "$CALLS"
set +e
"$rr" "$tmp/o3" 2 ok="--bind-to none" bad="--bind-to refuse" > /dev/null 2> "$tmp/err"; rc=$?
"$rr" "$tmp/o4" 2 nonsense > /dev/null 2>> "$tmp/err"; rc2=$?
"$rr" "$tmp/o5" 0 > /dev/null 2>> "$tmp/err"; rc3=$?
FAIL_ON="$tmp/o6/rep1" "$rr" "$tmp/o6" 2 > /dev/null 2>&1; rc4=$?
set -e
[ "$rc" = 2 ] && grep -q "refuses binding bad=" "$tmp/err" || fail "refused binding: rc $rc, $(cat "$tmp/err")"
[ "$rc2" = 2 ] && grep -q "'nonsense' is not NAME=MPI_BIND_OPTIONS" "$tmp/err" || fail "bad protocol: rc $rc2"
[ "$rc3" = 2 ] && grep -q "N must be at least 1" "$tmp/err" || fail "bad N: rc $rc3"
[ "$(grep -c "$tmp/o[345]" "$CALLS")" = 0 ] || fail "a sweep ran before the arguments were checked"
[ "$rc4" = 1 ] && [ "$(grep -c "$tmp/o6/rep" "$CALLS")" = 2 ] || fail "failed sweep: rc $rc4, $(cat "$CALLS")"
echo PASS
