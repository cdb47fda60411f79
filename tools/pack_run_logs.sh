#!/usr/bin/env bash
# tools/pack_run_logs.sh RUN_DIR... — pack the text a GPU run keeps beside its
# traces, that nothing replays: every `logs/` folder (the native programs'
# per-launch output) and every `repeats/` folder (each launch's CSVs and
# provenance, tools/halo_median_repeat.py's inputs) under each RUN_DIR
# becomes logs.tar.xz / repeats.tar.xz next to it. Why: traces/real must stay
# well under 50 MB and these ~1,000 small text files were 3.5 MB of it
# (xz: 0.6 MB). The archives are reproducible (sorted names, fixed owner and
# mtime), checked against the folder before it is removed, and read with
# `tar -xJf`. A folder already packed (its .tar.xz exists) is an error, found
# before anything is packed.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: pack_run_logs.sh RUN_DIR..." >&2; exit 2; }
for run in "$@"; do
  [ -d "$run" ] || { echo "pack_run_logs: $run: not a directory" >&2; exit 2; }
done
dirs=()
for run in "$@"; do
  while IFS= read -r dir; do
    [ ! -e "$dir.tar.xz" ] || { echo "pack_run_logs: $dir.tar.xz already exists" >&2; exit 2; }
    dirs+=("$dir")
  done < <(find "$run" -type d \( -name logs -o -name repeats \) -prune -print | sort)
done
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
for dir in "${dirs[@]}"; do
  parent=$(dirname "$dir") name=$(basename "$dir")
  archive="$parent/$name.tar.xz"
  tar -C "$parent" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
    -cf - "$name" | xz -9 > "$archive"
  # Check: the archive unpacks to the folder's files, byte for byte.
  rm -rf "${check:?}"/* && tar -C "$check" -xJf "$archive"
  diff -r "$dir" "$check/$name" > /dev/null ||
    { rm -f "$archive"; echo "pack_run_logs: $archive does not unpack to $dir" >&2; exit 1; }
  rm -r "$dir"
done
echo "pack_run_logs: packed ${#dirs[@]} folder(s)"
