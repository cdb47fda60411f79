#!/usr/bin/env bash
# tools/provenance.sh (sourced by the GPU run scripts for provenance.txt):
# command lines and file names carry no host paths, as common/command_line.h
# does for traces (issue #21 item 10).
set -euo pipefail
helper=$(readlink -f "$1")
fail() { echo "FAIL: $*"; exit 1; }
root=$(mktemp -d)/checkout
mkdir -p "$root/dist/bin" "$root/native/proact"
echo binary > "$root/dist/bin/proact"
# shellcheck disable=SC1090
. "$helper"

got=$(portable_args "$root/native/proact/../../dist/bin/proact" --csv /tmp/tmp.X1/proact/a.csv \
  --out=/tmp/tmp.X1/proact --chunk 16KiB,1MiB --shard 1/4)
[ "$got" = "dist/bin/proact --csv .../a.csv --out=.../proact --chunk 16KiB,1MiB --shard 1/4" ] \
  || fail "portable_args: $got"
got=$(cd "$root" && portable_args native/proact/run_all.sh /tmp/tmp.X1/proact)
[ "$got" = "native/proact/run_all.sh .../proact" ] || fail "portable_args relative \$0: $got"
[ "$(portable_path "$root")" = . ] || fail "root itself"
[ "$(portable_path /opt/bin/halo_exchange)" = .../halo_exchange ] || fail "outside"
got=$(portable_sha256 "$root/dist/bin/proact" /nowhere/x)
case $got in
  *"  dist/bin/proact"*"missing  .../x") ;;
  *) fail "portable_sha256: $got" ;;
esac
echo "$got" | grep -q "$root" && fail "host path left: $got"
echo PASS
