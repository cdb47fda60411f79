#!/usr/bin/env bash
# tools/install.sh into a temporary prefix, then the installed xferlab, run
# from a directory outside the repository: the program (built-in presets),
# validate's default traces (the installed copy), man pages, bash completion
# and the Python package (Debian's python3).
# Args: INSTALL_SH GEN_TRACE (the built files come from the runfiles root).
set -euo pipefail
install_sh=$1
gen=$(readlink -f "$2")
root=$PWD  # the runfiles root: the repository layout, built files included
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }

prefix="$tmp/prefix"
XFERLAB_BUILT=$root "$install_sh" --no-build "$prefix" > "$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; fail "install.sh failed"; }
grep -q "native GPU programs not built" "$tmp/install.log" || [ -d "$prefix/libexec/xferlab" ] \
  || fail "install.sh said nothing about the native programs"

elsewhere="$tmp/elsewhere"
mkdir -p "$elsewhere"
cd "$elsewhere"
xf="$prefix/bin/xferlab"
"$xf" --version | grep -q '^xferlab ' || fail "--version"
# The installed ns-3 stand-ins, not Debian's ns-3 (third_party/system/BUILD).
loaded=$(LD_TRACE_LOADED_OBJECTS=1 "$xf")
grep -qF "/prefix/bin/../lib/xferlab/libns3-core.so.37" <<<"$loaded" ||
  fail "the installed xferlab does not load the installed ns-3 stand-ins: $(grep libns3-core <<<"$loaded")"
"$xf" platform list | grep -q h200x2_nvlink4 || fail "platform list lacks the built-in presets"
"$gen" poll.xftrace polling 2 8 2
"$xf" replay poll.xftrace --format csv > replay.csv || fail "replay from another directory"
[ "$(wc -l < replay.csv)" -eq 7 ] || fail "replay: expected header + 6 mechanisms"

# validate with no arguments: the installed traces (here: run 3's PROACT set).
[ -d "$prefix/share/xferlab/traces/real" ] || fail "real traces not installed"
"$xf" validate --format csv --tolerance 100 > validate.csv 2> validate.err \
  || { cat validate.err >&2; fail "validate with the installed traces"; }
[ "$(wc -l < validate.csv)" -gt 10 ] || fail "validate: too few cases from the installed traces"

for page in xferlab xferlab-replay xferlab-validate xferlab-sweep xferlab-trace; do
  f="$prefix/share/man/man1/$page.1"
  [ -s "$f" ] || fail "man page $page.1 missing"
  grep -q "^\.TH ${page^^} " "$f" || fail "$page.1 is not a man page for $page"
done
grep -qF -- '\-\-shard' "$prefix/share/man/man1/xferlab-sweep.1" || fail "sweep man page lacks --shard"

comp="$prefix/share/bash-completion/completions/xferlab"
words=$(PATH="$prefix/bin:$PATH" bash -c 'source "$1"; COMP_WORDS=(xferlab va); COMP_CWORD=1
  _xferlab; echo "${COMPREPLY[*]}"; COMP_WORDS=(xferlab replay t --platform h200x2); COMP_CWORD=4
  _xferlab; echo "${COMPREPLY[*]}"' _ "$comp")
[ "$words" = "$(printf 'validate\nh200x2_nvlink4')" ] || fail "bash completion gave: $words"

site=$(echo "$prefix"/lib/python3*/dist-packages)
# An extension built with --config=asan (tools/sanitize.sh) needs the ASan
# runtime loaded first into the uninstrumented interpreter, with libstdc++
# (ASan intercepts __cxa_throw and must find the real one when it starts).
preload=$(find "$site" -name '*.so' -exec ldd {} + 2>/dev/null |
  awk '/libasan/ {a=$3} /libstdc\+\+/ {s=$3} END {if (a) print a " " s}')
PYTHONPATH=$site LD_PRELOAD=$preload ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 /usr/bin/python3 - "$site" poll.xftrace replay.csv <<'PY' || fail "python package"
import sys
import numpy as np, pandas as pd
import xferlab
assert xferlab.__file__.startswith(sys.argv[1]), xferlab.__file__
df = xferlab.replay(sys.argv[2])
print(df.head())
cli = pd.read_csv(sys.argv[3], float_precision="round_trip")
assert list(df.columns) == list(cli.columns)
np.testing.assert_array_equal(df["sim_time_us"].to_numpy(), cli["sim_time_us"].to_numpy())
PY
echo "PASS"
