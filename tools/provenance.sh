# tools/provenance.sh — sourced by the GPU run scripts: command lines and
# file names for provenance.txt without host paths (checkout location,
# temporary output directories), as common/command_line.h does for traces:
# inside the repository relative to it, outside only the name after ".../".
# Needs `root` (the repository root) set by the sourcing script.

# portable_path PATH: PATH relative to $root when inside it, else .../NAME.
portable_path() {
  local rel
  rel=$(realpath -ms --relative-to="$root" -- "$1")
  case $rel in
    ..|../*) echo ".../$(basename -- "$1")" ;;
    *) echo "$rel" ;;
  esac
}

# portable_args ARGS...: one line; the first argument, absolute paths and
# --flag=/absolute values made portable, everything else as it is.
portable_args() {
  local out first=1 a
  for a in "$@"; do
    if [ $first = 1 ] && [[ $a == */* ]]; then
      a=$(portable_path "$a")
    elif [[ $a == /* ]]; then
      a=$(portable_path "$a")
    elif [[ $a == --*=/* ]]; then
      a="${a%%=*}=$(portable_path "${a#*=}")"
    fi
    out+="${out:+ }$a"
    first=0
  done
  echo "$out"
}

# portable_sha256 FILES...: sha256sum lines with portable file names.
portable_sha256() {
  local f
  for f in "$@"; do
    if [ -e "$f" ]; then
      echo "$(sha256sum -- "$f" | cut -d' ' -f1)  $(portable_path "$f")"
    else
      echo "missing  $(portable_path "$f")"
    fi
  done
}
