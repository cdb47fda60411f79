#!/usr/bin/env bash
# Args: XFERLAB GOLDEN_CSV DIR... — a validation table (halo / GDA, or any other
# `validate` CSV such as docs/validation/h100x2_validation.csv) committed
# under docs/ is what `xferlab validate DIR... --format csv` prints
# for the committed traces (docs/halo_sim.md): same rows, same text fields,
# numbers within 1e-9 relative. validate exits 1 because held-out cases
# exceed 10 %; anything else is a failure. Regenerate the CSVs (and the
# tables in docs/halo_sim.md) after a model change:
#   (docs/halo_sim/validation.csv, runs 1 and 2, is a record: their traces
#   were retired, docs/gpu.md "Retired traces", which says how to get them
#   back; it was printed by `xferlab validate traces/real/2026-11-22_h200x2_run2/halo
#   traces/real/2026-11-22_h200x2/halo --format csv`.)
#   xferlab validate traces/real/2026-11-26_h200x2_run4/halo_detail \
#     traces/real/2026-11-26_h200x4_nvswitch/halo --format csv \
#     > docs/halo_sim/validation_2026-11-26.csv
#   xferlab validate traces/real/2026-11-27_h200x2_run6/halo_median5 --format csv \
#     > docs/halo_sim/validation_run6.csv
#   xferlab validate traces/real/2026-11-27_h100x2_run9/halo_median5 --format csv \
#     > docs/halo_sim/validation_run9.csv
#   xferlab validate traces/real/2026-11-27_h100x2_run11/halo_median5 --format csv \
#     > docs/halo_sim/validation_run11.csv
#   xferlab validate traces/real/2026-11-27_h100x4_run12/halo_median5_2rank --format csv \
#     > docs/halo_sim/validation_run12_2rank.csv   (and _4rank the same way)
#   xferlab validate traces/real/2026-11-27_h100x4_run13/halo_median5_2rank --format csv \
#     > docs/halo_sim/validation_run13_2rank.csv   (and _4rank the same way)
#   xferlab validate traces/real/2026-11-27_h100x2_run14/halo_median5 --format csv \
#     > docs/halo_sim/validation_run14.csv   (the same with XFERLAB_HALO_PROXY_DRIVERS=surface
#     in front: docs/halo_sim/validation_run14_proxy_surface.csv, the opt-in)
#   xferlab validate traces/real/2026-11-27_h200x2_run15/halo_median5 --format csv \
#     > docs/halo_sim/validation_run15.csv
#     (the same with XFERLAB_HALO_RESIDUAL_PLACEMENT=payload in front:
#     docs/halo_sim/validation_run15_residual_payload.csv, the opt-in; with
#     XFERLAB_HALO_PAIR_MIX=components in front: validation_run15_pair_components.csv,
#     the model before the pair mix became the default; and run 13's
#     2 ranks with XFERLAB_HALO_END_CLASSES=matched in front:
#     docs/halo_sim/validation_run13_2rank_end_classes_matched.csv; the opt-ins'
#     records keep XFERLAB_HALO_PAIR_MIX=components in front too, as they were
#     evaluated)
#   xferlab validate traces/real/2026-11-27_h200x4_run17/halo_median5_2rank --format csv \
#     > docs/halo_sim/validation_run17_2rank.csv   (and _4rank the same way)
#   xferlab validate traces/real/2026-11-27_h200x4_run16/halo_median5_4rank --format csv \
#     > docs/halo_sim/validation_run16_4rank.csv
#   xferlab validate traces/real/2026-11-27_h100x2_validation --format csv \
#     > docs/validation/h100x2_validation.csv
#   xferlab validate traces/real/2026-11-27_h100x4_validation --format csv \
#     > docs/validation/h100x4_validation.csv
set -euo pipefail
xferlab=$1
golden=$2
shift 2
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
rc=0
"$xferlab" validate "$@" --format csv > "$tmp/v.csv" 2> "$tmp/err" || rc=$?
[ "$rc" = 0 ] || { [ "$rc" = 1 ] && grep -q "case(s) beyond" "$tmp/err"; } ||
  fail "validate exited $rc: $(cat "$tmp/err")"
# Split on commas outside quotes, compare field by field.
paste -d '\n' "$golden" "$tmp/v.csv" | awk -f "$(dirname "$0")/csv_close.awk" ||
  fail "$golden is stale (regenerate it, see the header of this test)"
echo PASS
