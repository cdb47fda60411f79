#!/usr/bin/env bash
# Args: CALIBRATION_PY XFERLAB — tools/halo_x4_calibration.py (docs/halo_sim.md,
# "2 -> 4 ranks from a machine calibration") writes the committed
# docs/halo_sim/x4_calibration.csv, its fit on every run of a machine type is
# what the presets ship ([mpi_node] of h200x4_hgx_nvswitch and
# hgx_h100_nvlink4), and its leave-one-run-out cross-validation prints the
# docs' numbers (rule (a) met). A wrong argument count is a usage error (exit 2); a fold the
# model all over-predicts fits to no calibration.
set -euo pipefail
py=$1
xferlab=$2
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$py" "$xferlab" "$tmp/c.csv" > "$tmp/out" 2>&1 || fail "halo_x4_calibration.py: $(tail -3 "$tmp/out")"
paste -d '\n' docs/halo_sim/x4_calibration.csv "$tmp/c.csv" | awk -f "$(dirname "$0")/csv_close.awk" ||
  fail "docs/halo_sim/x4_calibration.csv is stale (tools/halo_x4_calibration.py bazel-bin/sim/xferlab)"
for p in h200x4_hgx_nvswitch:21.35:2.32 hgx_h100_nvlink4:19.19:2.01; do
  IFS=: read -r preset a b <<< "$p"
  grep -q "^  $preset (.*): step_at_1MiB $a us, step_per_doubling $b us$" "$tmp/out" ||
    fail "fit of $preset: $(grep "^  $preset" "$tmp/out")"
  grep -q "^step_at_1MiB = { value = \"${a}us\"" "hw_model/presets/$preset.toml" &&
    grep -q "^step_per_doubling = { value = \"${b}us\"" "hw_model/presets/$preset.toml" ||
    fail "hw_model/presets/$preset.toml does not ship the fit $a / $b us"
done
grep -qx '| pooled | | | 147 | -6.52 → -1.26 | 6.24 → 3.90 | 40 → 17 |' "$tmp/out" ||
  fail "pooled: $(grep '^| pooled' "$tmp/out")"
grep -q '^rule (a): .*: met$' "$tmp/out" || fail "rule (a): $(grep '^rule' "$tmp/out")"
# A fold whose cases the model all over-predicts: no calibration, not a traceback.
python3 -c "import sys; sys.path.insert(0, sys.argv[1]); import halo_x4_calibration as c
assert c.fit([(0.0, -5.0, 100.0), (1.0, -3.0, 120.0)]) == (0.0, 0.0)" "$(dirname "$py")" ||
  fail "fit of over-predicted cases is not (0, 0)"
rc=0
python3 "$py" > "$tmp/usage" 2>&1 || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l < "$tmp/usage")" = 1 ] || fail "usage: exit $rc, $(cat "$tmp/usage")"
echo PASS
