#!/usr/bin/env bash
# Installs what xferlab needs from Debian 12's archive, and only what is
# missing. Idempotent; runs `apt-get update` at most once. Needs root (or sudo).
# The CUDA toolkit is optional and not installed here: without it everything
# but native/ builds and tests (see docs/gpu.md).
set -euo pipefail

packages=(
  bazel-bootstrap     # Bazel 4.2.3, works offline with third_party/ stand-ins
  g++ git zstd
  libsimgrid-dev      # SimGrid 3.32
  libfmt-dev libboost-dev libtomlplusplus-dev nlohmann-json3-dev libzstd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
  clang-format        # style check (tests/format_test)
  clang-14 libclang-rt-14-dev  # libFuzzer + sanitizers for the trace-reader fuzzer
  gnuplot-nox         # plots from `xferlab sweep` and docs scripts
  python3-dev pybind11-dev            # the xferlab Python package (python/)
  python3-pandas python3-matplotlib   # its DataFrames, tests and example plots
  help2man            # man pages from --help (tools/install.sh)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo=sudo; else
    echo "setup: need root to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
install() { $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >>/tmp/xferlab-setup.log 2>&1; }
: >/tmp/xferlab-setup.log
# Package lists are refreshed once, only when the install fails without them.
if ! install; then
  echo "setup: refreshing package lists (apt-get update)"
  $sudo apt-get update -qq >>/tmp/xferlab-setup.log 2>&1 || { echo "setup: apt-get update failed (log: /tmp/xferlab-setup.log)" >&2; exit 1; }
  if ! install; then
    tail -5 /tmp/xferlab-setup.log >&2
    echo "setup: apt-get could not install: ${missing[*]} (log: /tmp/xferlab-setup.log)" >&2
    exit 1
  fi
fi
for p in "${missing[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    echo "setup: package $p is still missing after apt-get install" >&2
    exit 1
  fi
done
echo "setup: installed ${#missing[@]} package(s)"
