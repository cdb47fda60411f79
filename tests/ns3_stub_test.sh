#!/usr/bin/env bash
# The ns-3 stand-ins (third_party/system/ns3_stub.sh): xferlab loads them
# instead of Debian's ns-3 libraries, and prints exactly what it prints with
# the real ones (loaded again through LD_LIBRARY_PATH): PROACT replays on both
# cores, a halo replay and validate.
# Args: XFERLAB PROACT_TRACE HALO_TRACE
set -euo pipefail
xferlab=$(readlink -f "$1")
proact=$2
halo=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }

# Where the real libraries are: beside Debian's libsimgrid.
loaded() { LD_TRACE_LOADED_OBJECTS=1 "$xferlab"; }
real_dir=$(dirname "$(loaded | awk '$1 == "libsimgrid.so.3.32" { print $3 }')")
[ -f "$real_dir/libns3-core.so.37" ] || fail "no libns3-core.so.37 beside libsimgrid ($real_dir)"

loaded > "$tmp/stubbed.txt"
grep -q "^[[:space:]]*libns3-core.so.37 => " "$tmp/stubbed.txt" || fail "no ns-3 name loaded at all"
if grep "libns3-" "$tmp/stubbed.txt" | grep -F "=> $real_dir/" > /dev/null; then
  fail "a real ns-3 library is loaded: $(grep "=> $real_dir/libns3" "$tmp/stubbed.txt" | head -1)"
fi
LD_LIBRARY_PATH=$real_dir loaded > "$tmp/real.txt"
grep -q "libns3-wifi.so.37 => $real_dir/" "$tmp/real.txt" ||
  fail "LD_LIBRARY_PATH=$real_dir does not load the real ns-3 libraries"

# A CSV without its wall_s column (halo replays time themselves).
no_wall() { awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "wall_s") w = i }
  { if (w) $w = ""; print }'; }
same() {  # name, xferlab args...: identical stdout and exit status, stand-ins vs real ns-3
  local name=$1 rc=0 rc_real=0
  shift
  "$xferlab" "$@" 2>/dev/null | no_wall > "$tmp/$name.stub" || rc=$?
  LD_LIBRARY_PATH=$real_dir "$xferlab" "$@" 2>/dev/null | no_wall > "$tmp/$name.real" || rc_real=$?
  [ -s "$tmp/$name.stub" ] || fail "$name: no output"
  [ "$rc" = "$rc_real" ] || fail "$name: exit $rc with the stand-ins, $rc_real with ns-3"
  cmp -s "$tmp/$name.stub" "$tmp/$name.real" ||
    fail "$name differs: $(diff "$tmp/$name.real" "$tmp/$name.stub" | head -5)"
}
same proact_all replay "$proact" --mechanism all --format csv
same proact_graph replay "$proact" --mechanism polling --core graph --format csv
same proact_16 replay "$proact" --mechanism hardware --platform dgx2_v100_nvswitch --gpus 16 \
  --format csv
same halo replay "$halo" --format csv
same validate validate "$proact" --format csv
echo "ns3_stub_test: 5 of 5 passed"
