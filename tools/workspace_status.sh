#!/usr/bin/env bash
# Bazel workspace status: the source revision stamped into `xferlab --version`
# and into every trace and result file.
rev=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  rev="${rev}-dirty"
fi
echo "STABLE_XFERLAB_REVISION ${rev}"
