#!/usr/bin/env bash
# Args: XFERLAB PREDICT_SCRIPT GOLDEN_CSV TWO FOUR PLATFORM — a committed
# 2 -> 4 rank prediction (docs/halo_sim_log.md, "Runs 13, 14 and 15" and "Run 16")
# is what tools/halo_predict_x4.sh prints now from the 2-rank medians TWO for
# the 4-rank medians FOUR on PLATFORM. Its rows are "revised": the presets'
# [mpi_node] calibration is fitted on these 4-rank runs ("2 -> 4 ranks from a
# machine calibration"; run 12: the same with its directories). Regenerate
# after a model change with:
#   SET=revised TWO=traces/real/2026-11-27_h100x4_run13/halo_median5_2rank \
#   FOUR=traces/real/2026-11-27_h100x4_run13/halo_median5_4rank \
#   PLATFORM=hgx_h100_nvlink4 BOXES="box16 box24 box32 box64" \
#   tools/halo_predict_x4.sh docs/halo_sim/x4_h100_run13.csv
#   SET=revised TWO=traces/real/2026-11-27_h200x2_run15/halo_median5 \
#   FOUR=traces/real/2026-11-27_h200x4_run16/halo_median5_4rank \
#   PLATFORM=h200x4_hgx_nvswitch BOXES="box16 box24 box32 box64" \
#   tools/halo_predict_x4.sh docs/halo_sim/x4_h200_run16_from_run15.csv
# (and say in the docs what the rows are in-sample for).
# Also checks that SIZES picks the sizes replayed, and that a bad SET or RANKS
# is refused with a one-line error.
set -euo pipefail
xferlab=$(readlink -f "$1")
script=$2
golden=$3
two=$4
four=$5
platform=$6
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
XFERLAB=$xferlab SET=revised TWO=$two FOUR=$four \
  PLATFORM=$platform BOXES="box16 box24 box32 box64" \
  "$script" "$tmp/x4.csv" > "$tmp/out" 2>&1 || fail "halo_predict_x4.sh failed: $(tail -3 "$tmp/out")"
paste -d '\n' "$golden" "$tmp/x4.csv" | awk -f "$(dirname "$0")/csv_close.awk" ||
  fail "$golden is stale (regenerate it, see the header of this test)"
grep -q '^this table: 30 cases' "$tmp/out" || fail "no 30-case summary: $(tail -2 "$tmp/out")"
# SIZES picks the paper sizes replayed (boxes as before): "200 800" gives their rows only.
XFERLAB=$xferlab SET=revised TWO=$two FOUR=$four PLATFORM=$platform BOXES="box32" SIZES="200 800" \
  "$script" "$tmp/sizes.csv" > "$tmp/sizes" 2>&1 || fail "SIZES: $(tail -3 "$tmp/sizes")"
[ "$(cut -d, -f2 "$tmp/sizes.csv" | tail -n +2 | sort -u | tr '\n' ' ')" = "200 800 box32 " ] ||
  fail "SIZES=\"200 800\": sizes $(cut -d, -f2 "$tmp/sizes.csv" | tail -n +2 | sort -u | tr '\n' ' ')"
rc=0
XFERLAB=$xferlab SET=bogus "$script" "$tmp/bad.csv" > "$tmp/bad" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "SET must be revised or held-out, got 'bogus'" "$tmp/bad" ||
  fail "bad SET: exit $rc, $(cat "$tmp/bad")"
rc=0
XFERLAB=$xferlab RANKS=2 "$script" "$tmp/bad.csv" > "$tmp/bad" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "RANKS must be a rank count of at least 3, got '2'" "$tmp/bad" ||
  fail "bad RANKS: exit $rc, $(cat "$tmp/bad")"
echo PASS
