#!/usr/bin/env bash
# Args: RUN_ALL_SH PROVENANCE_SH — native/halo/run_all.sh with stand-ins for
# nvidia-smi, mpirun and the two programs: HALO_SIZES runs the paper's sizes
# as --paper and any other global edge as --per-rank EDGE/4, labels each run
# PLACE_EDGE, names the sizes in provenance.txt; a size that is no multiple of
# 4 in 8..2000 stops it before any run with a one-line error, exit 2.
set -euo pipefail
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/root/native/halo" "$tmp/root/tools" "$tmp/fake" "$tmp/bin"
cp "$1" "$tmp/root/native/halo/run_all.sh"
cp "$2" "$tmp/root/tools/provenance.sh"
chmod +x "$tmp/root/native/halo/run_all.sh"
printf '#!/usr/bin/env bash\necho "GPU 0: stand-in"; echo "GPU 1: stand-in"\n' > "$tmp/fake/nvidia-smi"
# mpirun: logs the program's arguments (after -np N and the -x pairs).
cat > "$tmp/fake/mpirun" <<'EOS'
#!/usr/bin/env bash
while [ $# -gt 0 ] && [ "${1#/}" = "$1" ]; do shift; done
echo "$*" >> "$CALLS"
EOS
printf '#!/usr/bin/env bash\n' > "$tmp/bin/halo_exchange"
cp "$tmp/bin/halo_exchange" "$tmp/bin/gdasync_bench"
chmod +x "$tmp/fake/"* "$tmp/bin/"*
export PATH="$tmp/fake:$PATH" XFERLAB_BIN="$tmp/bin" CALLS="$tmp/calls"
ra="$tmp/root/native/halo/run_all.sh"

: > "$CALLS"
HALO_RANKS=2 HALO_SIZES="200 300" HALO_BOXES=16 "$ra" "$tmp/out" > "$tmp/log" 2>&1 ||
  fail "run_all exited $?: $(tail -5 "$tmp/log")"
grep -q -- "halo_exchange --variant stacked --paper 200 --label gpus2_200 " "$CALLS" ||
  fail "200 is not --paper 200: $(cat "$CALLS")"
for prog in "halo_exchange --variant baseline" "gdasync_bench --variant ki"; do
  grep -q -- "$prog --per-rank 75 --label gpus2_300 " "$CALLS" || fail "300 is not --per-rank 75 ($prog): $(cat "$CALLS")"
done
[ "$(grep -c -- '--label gpus2_' "$CALLS")" = 15 ] || fail "expected 12 size runs + 3 box runs: $(cat "$CALLS")"
grep -qx "sizes: 200 300 (global cube edges); boxes: 16" "$tmp/out/provenance.txt" ||
  fail "provenance.txt: $(cat "$tmp/out/provenance.txt")"

for bad in 301 4 2004 x20 "200 -8"; do
  rc=0; : > "$CALLS"
  HALO_RANKS=2 HALO_SIZES="$bad" "$ra" "$tmp/bad_out" > "$tmp/bad" 2>&1 || rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l < "$tmp/bad")" = 1 ] && grep -q "^run_all: HALO_SIZES: '" "$tmp/bad" &&
    [ ! -s "$CALLS" ] || fail "HALO_SIZES='$bad': exit $rc, $(cat "$tmp/bad")"
done
echo PASS
