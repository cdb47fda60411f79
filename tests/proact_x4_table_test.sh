#!/usr/bin/env bash
# docs/proact.md "4 GPUs on 4x H200 NVSwitch (2026-11-26)" is what
# docs/proact_x4/campaign_table.py prints from the committed CSVs
# (tools/doc_block.py --check), and that output has a row per workload in each
# table and every run verified. A stale page:
#   python3 docs/proact_x4/campaign_table.py | python3 tools/doc_block.py docs/proact.md proact_x4
set -euo pipefail
doc_block=$1
script=$2
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 "$script" > "$tmp/x4.md" 2> "$tmp/err" || fail "campaign_table.py: $(cat "$tmp/err")"
python3 "$doc_block" docs/proact.md proact_x4 --check < "$tmp/x4.md" ||
  fail "docs/proact.md's 4-GPU campaign tables are stale (see this test's header)"
table() { sed -n "/^#### $1/,/^####/p" "$tmp/x4.md" | grep '^| [a-z]'; }
for w in micro jacobi pagerank sssp als xray_ct; do
  # Best time per mechanism: none, memcpy, inline, polling, polling_tma, cdp, um.
  n=$(table "Best time per mechanism" | grep -c "^| $w | ") || true
  [ "$n" = 7 ] || fail "best-time table: $n rows for $w, want 7"
  n=$(table "Per workload" | grep -c "^| $w | ") || true
  [ "$n" = 1 ] || fail "per-workload table: $n rows for $w, want 1"
  table "Per workload" | grep "^| $w | " | grep -q '| yes ([0-9]*/[0-9]*) |$' ||
    fail "$w: not every run verified"
  n=$(table "Profiler" | grep -c "^| $w | [a-z_]* [0-9]* [KM]iB") || true
  [ "$n" = 1 ] || fail "profiler table: $n rows with a 4-GPU choice for $w, want 1"
done
grep -q '^Geometric mean over the 5 applications' "$tmp/x4.md" || fail "no geometric-mean line"
echo PASS
