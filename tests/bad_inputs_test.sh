#!/usr/bin/env bash
# Data-driven bad-input suite (docs/reliability.md): every line of each TABLE
# runs PROGRAM with bad input and must exit with the listed code after exactly
# one line on stderr containing the listed text (which names the file, flag or
# field). Usage: bad_inputs_test.sh GEN_TRACE [PROGRAM TABLE]...
set -uo pipefail
gen=$(readlink -f "$1"); shift
tmp=${TEST_TMPDIR:-$(mktemp -d)}
mkdir -p "$tmp/dir" "$tmp/fix"
"$gen" "$tmp/fix/ok.xft" polling 2 8 2 || { echo "FAIL: gen_trace"; exit 1; }
echo "this is not a trace" > "$tmp/fix/garbage.txt"
head -c 3000 "$tmp/fix/ok.xft" > "$tmp/fix/trunc.xft"
: > "$tmp/fix/empty.xft"
# Preset fixtures: each breaks one rule of the loader.
toml() { printf '%s\n' "$2" > "$tmp/fix/$1.toml"; }
toml missing_unit $'name = "x"\n[gpu_link]\nformat = "nvlink4"\nlatency = 700'
toml unknown_key $'name = "x"\n[gpu]\ncuont = 2'
toml bad_syntax $'name = "x"\n[gpu\ncount = 2'
toml wrong_type $'name = "x"\n[gpu]\ncount = "two"'
toml direct_pair $'name = "x"\n[gpu]\ncount = 4\n[topology]\nkind = "direct_pair"'
toml zero_rate $'name = "x"\n[gpu]\nmemory_bw = "0GBps"'
toml unknown_section $'name = "x"\n[gpuu]\ncount = 2'
toml partial $'name = "x"\n[gpu]\ncount = 2'
toml implausible $'name = "x"\n[gpu_link]\nformat = "nvlink4"\nlatency = "1e30s"'
printf 'nonsense,columns\n1,2\n' > "$tmp/fix/header.csv"
printf 'link,variant,op,size_bytes,pattern,count,median_ns\nnvlink,ce,write,abc,contiguous,1,5\n' \
  > "$tmp/fix/number.csv"

pass=0 fail=0
while [ $# -ge 2 ]; do
  prog=$(readlink -f "$1") table=$2; shift 2
  while IFS=$'\t' read -r want_rc want args; do
    case "$want_rc" in ''|'#'*) continue ;; esac
    args=${args//@TRACE@/$tmp/fix/ok.xft}
    args=${args//@DIR@/$tmp/dir}
    args=${args//@GARBAGE@/$tmp/fix/garbage.txt}
    args=${args//@TRUNC@/$tmp/fix/trunc.xft}
    args=${args//@EMPTY@/$tmp/fix/empty.xft}
    args=$(echo "$args" | sed -E "s#@BADTOML_([a-z_]+)@#$tmp/fix/\1.toml#g; s#@BADCSV_([a-z_]+)@#$tmp/fix/\1.csv#g")
    read -r -a argv <<< "$args"
    timeout 60 "$prog" "${argv[@]}" > /dev/null 2> "$tmp/err.txt" < /dev/null
    rc=$?
    lines=$(wc -l < "$tmp/err.txt")
    problem=""
    [ "$rc" -eq "$want_rc" ] || problem="exit $rc, want $want_rc"
    [ "$lines" -eq 1 ] || problem="$problem; $lines stderr lines"
    grep -qF -- "$want" "$tmp/err.txt" || problem="$problem; '$want' missing"
    if [ -n "$problem" ]; then
      fail=$((fail + 1))
      echo "FAIL $(basename "$prog") $args: ${problem#; }: $(head -c 300 "$tmp/err.txt")"
    else
      pass=$((pass + 1))
    fi
  done < "$table"
done
echo "bad inputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
