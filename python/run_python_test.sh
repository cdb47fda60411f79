#!/usr/bin/env bash
# Runs a Python test file with Debian's python3 (the interpreter the
# extension was built for, with Debian's pandas and matplotlib; a pyenv
# python3 earlier on PATH has neither) and the package from the runfiles.
# Usage: run_python_test.sh TEST.py [args...]
set -euo pipefail
py=${XFERLAB_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || { echo "FAIL: $py not found (Debian 12: apt-get install python3)" >&2; exit 1; }
root=${TEST_SRCDIR:?run under bazel test}/xferlab  # the runfiles root
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
export MPLBACKEND=Agg
test=$1
shift
# -P: the test file's own directory (python/ in the source tree, through the
# runfiles symlink) must not shadow the built package.
exec "$py" -P "$test" "$@"
