#!/usr/bin/env bash
# docs/cli.md must equal what tools/gen_cli_docs.sh generates from the built
# xferlab (so the documented flags are the declared ones).
# Args: XFERLAB GEN_SCRIPT DOCS_CLI_MD
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$2" "$1" "$tmp/cli.md"
if ! diff -u "$3" "$tmp/cli.md"; then
  echo "FAIL: docs/cli.md is stale; run tools/gen_cli_docs.sh" >&2
  exit 1
fi
echo PASS
