# tests/diag_table_checks.sh — sourced by the tests of the halo diagnostic
# scripts (tools/halo_*.py that print a CSV table from the committed traces):
# the scratch folder, fail() and the checks they all make, written once.

tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }

# table PY XFERLAB HEADER ROWS [ARGS...]: PY XFERLAB ARGS prints into
# $tmp/out a table whose first line is HEADER and which has ROWS rows.
table() {
  local py=$1 xferlab=$2 header=$3 rows=$4
  shift 4
  python3 "$py" "$xferlab" "$@" > "$tmp/out" || fail "exited $?"
  [ "$(head -1 "$tmp/out")" = "$header" ] || fail "header: $(head -1 "$tmp/out")"
  [ "$(tail -n +2 "$tmp/out" | wc -l)" = "$rows" ] ||
    fail "expected $rows rows, got $(tail -n +2 "$tmp/out" | wc -l)"
}

# missing_xferlab_is_one_line NAME PY [ARGS...]: PY given an xferlab that is
# not there fails with a one-line error "NAME: <that path>...", no traceback.
missing_xferlab_is_one_line() {
  local name=$1 py=$2
  shift 2
  if python3 "$py" "$tmp/no-such-xferlab" "$@" > /dev/null 2> "$tmp/err"; then
    fail "missing xferlab accepted"
  fi
  grep -q "^$name: $tmp/no-such-xferlab" "$tmp/err" || fail "error: $(cat "$tmp/err")"
  ! grep -q Traceback "$tmp/err" || fail "traceback instead of a one-line error"
}
