#!/usr/bin/env bash
# Installs xferlab under PREFIX: the `xferlab` program, the native GPU
# programs (when CUDA is there to build them), presets, the committed real
# traces (the default of `xferlab validate`), man pages generated from
# --help (help2man), bash completion and the Python package.
#
#   tools/install.sh PREFIX              # e.g. /usr/local or ~/.local
#   tools/install.sh --no-build PREFIX   # install what is built already
#
# With --no-build, built files are taken from $XFERLAB_BUILT (default: the
# repository root, which is how Bazel runfiles lay them out; the install test
# uses that) instead of bazel-bin. The installed xferlab needs no repository:
# presets are built into the binary, and validate finds PREFIX/share/xferlab.
set -euo pipefail
cd "$(dirname "$0")/.."
build=1
if [ "${1:-}" = --no-build ]; then build=0; shift; fi
[ $# -eq 1 ] || { echo "usage: tools/install.sh [--no-build] PREFIX" >&2; exit 2; }
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
py=/usr/bin/python3  # Debian's: the extension is built for it (docs/python.md)

have_cuda() { { [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; } || [ -x /usr/local/cuda/bin/nvcc ]; }
native=()
if [ $build -eq 1 ]; then
  tools/setup.sh >/dev/null
  targets=(//sim:xferlab //python:package)
  if have_cuda; then
    mapfile -t native < <(bazel query --noshow_progress 'kind("cc_binary", //native/...)' 2>/dev/null)
    targets+=("${native[@]}")
  fi
  bazel build --noshow_progress "${targets[@]}"
  built=$(bazel info bazel-bin 2>/dev/null)
else
  built=${XFERLAB_BUILT:-$PWD}
fi
[ -x "$built/sim/xferlab" ] || { echo "install: $built/sim/xferlab is not built" >&2; exit 1; }

install -d "$prefix/bin" "$prefix/share/xferlab" "$prefix/share/man/man1" \
  "$prefix/share/bash-completion/completions"
install -m 755 "$built/sim/xferlab" "$prefix/bin/xferlab"
# The ns-3 stand-ins the built xferlab loads (third_party/system/BUILD), in
# PREFIX/lib/xferlab, where the installed one finds them (its RUNPATH
# $ORIGIN/../lib/xferlab); without them it loads the real ns-3 libraries:
# the same results, ~20 ms more CPU per process.
install -d "$prefix/lib/xferlab"
LD_TRACE_LOADED_OBJECTS=1 "$built/sim/xferlab" | awk '$1 ~ /^libns3-/ && $3 ~ /_solib/ { print $3 }' |
  while read -r lib; do install -m 644 "$lib" "$prefix/lib/xferlab/"; done

# Native GPU programs: only with CUDA (they are CUDA builds).
if [ ${#native[@]} -gt 0 ]; then
  install -d "$prefix/libexec/xferlab"
  for t in "${native[@]}"; do
    rel=${t#//}; rel=${rel/://}
    install -m 755 "$built/$rel" "$prefix/libexec/xferlab/"
  done
  echo "install: ${#native[@]} native programs in $prefix/libexec/xferlab"
else
  echo "install: no CUDA toolkit: native GPU programs not built, not installed (docs/gpu.md)"
fi

# Presets (also built into the binary; these are for reading and copying)
# and the committed real traces, the default of `xferlab validate`.
rm -rf "$prefix/share/xferlab/presets" "$prefix/share/xferlab/traces"
cp -rL hw_model/presets "$prefix/share/xferlab/presets"
if [ -d traces/real ]; then
  install -d "$prefix/share/xferlab/traces"
  cp -rL traces/real "$prefix/share/xferlab/traces/real"
fi

# Man pages from --help: xferlab(1) and one per command (xferlab-replay(1)...).
if command -v help2man >/dev/null; then
  xf="$prefix/bin/xferlab"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  version=$("$xf" --version | awk '{print $2}')  # the NAME comes from the file name
  help2man -N --no-discard-stderr --version-string "$version" \
    -n "GPU communication trace replay and hardware exploration" \
    -o "$prefix/share/man/man1/xferlab.1" "$xf"
  "$xf" --help | awk '/^commands:/ {on = 1; next} on && !NF {exit} on {print $1}' | while read -r cmd; do
    [ "$cmd" = version ] && continue
    summary=$("$xf" --help | awk -v c="$cmd" '$1 == c {$1 = ""; sub(/^ +/, ""); print}')
    # help2man runs "PROGRAM --help"; the page is named after PROGRAM.
    printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$xf" "$cmd" > "$tmp/xferlab-$cmd"
    chmod +x "$tmp/xferlab-$cmd"
    help2man -N --no-discard-stderr --version-string "$version" -n "$summary" \
      -o "$prefix/share/man/man1/xferlab-$cmd.1" "$tmp/xferlab-$cmd"
  done
  echo "install: man pages in $prefix/share/man/man1 ($(ls "$prefix/share/man/man1" | wc -l))"
else
  echo "install: help2man not found: no man pages (apt-get install help2man)" >&2
fi

install -m 644 tools/xferlab.bash-completion "$prefix/share/bash-completion/completions/xferlab"

# The Python package, where Debian's python3 looks for PREFIX's packages.
site=$("$py" -c 'import sys; print("lib/python%d.%d/dist-packages" % sys.version_info[:2])')
pkg="$prefix/$site/xferlab"
rm -rf "$pkg"
install -d "$pkg"
install -m 644 python/xferlab/__init__.py "$pkg/"
install -m 755 "$built/python/xferlab/_native.so" "$pkg/"
printf '# Written by tools/install.sh: where the shared files were installed.\nSHARE_DIR = %s\n' \
  "$("$py" -c 'import sys; print(repr(sys.argv[1]))' "$prefix/share/xferlab")" > "$pkg/_installed.py"

echo "install: xferlab $("$prefix/bin/xferlab" --version | cut -d' ' -f2-) in $prefix"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "install: add $prefix/bin to PATH" ;; esac
if ! "$py" -c 'import sys; sys.exit(0 if sys.argv[1] in sys.path else 1)' "$prefix/$site"; then
  echo "install: for Python, export PYTHONPATH=$prefix/$site"
fi
