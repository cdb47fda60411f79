#!/usr/bin/env bash
# `xferlab replay HALO_TRACE --ranks N` on the committed 2x H200 halo traces
# (run 6): every mode predicts 2..1024 ranks, and the predictions keep the
# relations the designs imply (issue 15 items 4 and 6, docs/halo_sim.md):
#   * one row per variant and rank count, iteration > 0, phases >= 0;
#   * strong scaling (paper cube): 1024 ranks faster than 64; --scaling weak
#     keeps the block per rank;
#   * hardware doorbell no slower than the CPU in the send path, a real NIC
#     no slower than the CPU proxy (same components, fewer costs);
#   * the K-model lower bound (Elis et al. Eq. 1-4) below the replay;
#   * the node-symmetric graph equals the fine graph;
#   * the papers' presets exist and name their source;
#   * a preset's on-node MPI step ([mpi_node]) is added, exactly, from 2 to
#     4 ranks per node, never at 2 per node, nothing without a calibration;
#   * an interpolated size (1024 ranks of the 800^3 cube: 50x100x100 blocks,
#     between the 200^3 and 400^3 traces) replays as validate's held-out
#     sizes: XFERLAB_HALO_PAIR_MIX moves stream / stacked only, and only in
#     the measured mode.
set -euo pipefail
xferlab=$1
dir=$(dirname "$2")  # any trace of the run's halo/traces directory
fail() { echo "FAIL: $*"; exit 1; }
paper="$dir/stream_gpus2_800_rank0.xft.zst"
box="$dir/sa_gpus2_box32_rank0.xft.zst"
ranks=2,8,64,512,1024

# check CSV VARIANTS: every variant x rank count once, sane numbers.
check() {
  awk -F, -v variants="$2" -v ranks="$ranks" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { key = $col["variant"] "," $col["ranks"]; seen[key]++
      it = $col["iteration_us"] + 0
      if (!(it > 0) || it > 1e7) { print "bad iteration: " $0; bad = 1 }
      split("pack_us post_us wait_us unpack_us", ph, " ")
      for (p in ph) { x = $col[ph[p]]; if (x != "" && x != "nan" && x + 0 < 0) { print "negative " ph[p] ": " $0; bad = 1 } } }
    END { nv = split(variants, v, " "); nr = split(ranks, r, ",")
          for (i = 1; i <= nv; i++) for (j = 1; j <= nr; j++)
            if (seen[v[i] "," r[j]] != 1) { print "missing or repeated row " v[i] " at " r[j] " ranks"; bad = 1 }
          exit bad }' <<< "$1" || fail "$3"
}
# col CSV NAME: "variant,ranks value" per row.
col() {
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $c["variant"] "," $c["ranks"], $c[name] }' <<< "$1"
}

measured=$("$xferlab" replay "$paper" --ranks "$ranks" --ranks-per-node 4 --variant all --format csv)
check "$measured" "baseline host ki sa stacked stream" "measured mode, paper cube"
doorbell=$("$xferlab" replay "$paper" --ranks "$ranks" --ranks-per-node 4 --variant all \
  --mode hw-doorbell --format csv 2> /dev/null)
check "$doorbell" "baseline host stacked stream" "hw-doorbell mode"
kmodel=$("$xferlab" replay "$paper" --ranks "$ranks" --ranks-per-node 4 --model kmodel --format csv)
check "$kmodel" "stream" "kmodel"
box_measured=$("$xferlab" replay "$box" --ranks "$ranks" --ranks-per-node 4 --variant all --format csv)
check "$box_measured" "host ki sa" "measured mode, boxes"
nic=$("$xferlab" replay "$box" --ranks "$ranks" --ranks-per-node 4 --variant all --mode nic \
  --format csv 2> /dev/null)
check "$nic" "ki sa" "nic mode"

# Strong scaling: the 800^3 cube over 1024 ranks (50x100x100 blocks) beats 64 (200^3).
col "$measured" iteration_us | awk '
  { split($1, k, ","); t[k[1], k[2]] = $2; v[k[1]] = 1 }
  END { for (x in v) if (!(t[x, 1024] < t[x, 64])) { print x ": 1024 ranks " t[x, 1024] " us, 64 ranks " t[x, 64]; bad = 1 }
        exit bad }' || fail "strong scaling"
# no_slower A B WHAT: every row of A (variant,ranks) is <= the same row of B.
no_slower() {
  join <(col "$1" iteration_us | sort) <(col "$2" iteration_us | sort) | awk -v what="$3" '
    { n++; if ($2 > $3 * (1 + 1e-9)) { print what ": " $0; bad = 1 } }
    END { if (n == 0) { print what ": no common rows"; bad = 1 }; exit bad }' || fail "$3"
}
no_slower "$doorbell" "$measured" "hw-doorbell slower than the CPU send path"
no_slower "$nic" "$box_measured" "real NIC slower than the CPU proxy"
no_slower "$(sed 's/^stream,kmodel/stream,replay/' <<< "$kmodel")" \
  "$(grep -E '^(variant|stream),' <<< "$measured")" "K-model lower bound above the replay"

# The node-symmetric graph (default) is the fine graph, at every variant.
for graph in reduced fine; do
  "$xferlab" replay "$paper" --ranks 16 --ranks-per-node 4 --variant all --graph "$graph" \
    --format csv | cut -d, -f1-11 > "$TEST_TMPDIR/$graph.csv"
done
cmp -s "$TEST_TMPDIR/reduced.csv" "$TEST_TMPDIR/fine.csv" || fail "reduced graph != fine graph"

# Weak scaling (--scaling weak, the native --paper runs at any rank count):
# 4 ranks keep the trace's 200^3 block per rank on a 2x2x1 grid.
"$xferlab" replay "$paper" --ranks 4 --scaling weak --format csv |
  awk -F, 'NR == 2 && $6 == "200x200x200" && $7 > 0 { ok = 1 } END { exit !ok }' ||
  fail "--scaling weak does not keep the block per rank"

# The on-node MPI step (docs/halo_sim.md, "2 -> 4 ranks from a machine
# calibration"): h200x4_hgx_nvswitch's [mpi_node] adds step(P) to the
# iteration from this 2-rank trace at 4 ranks per node; the same preset with
# the calibration zeroed (a file) gives the iteration without it; 2 ranks per
# node add nothing.
iter_of() { awk -F, 'NR == 2 { print $7 }'; }
tmp=${TEST_TMPDIR:-$(mktemp -d)}
"$xferlab" platform show h200x4_hgx_nvswitch --set mpi_node.step_at_1MiB=0ns \
  --set mpi_node.step_per_doubling=0ns > "$tmp/none.toml" || fail "platform show --set mpi_node"
with=$("$xferlab" replay "$paper" --ranks 4 --scaling weak --platform h200x4_hgx_nvswitch --format csv)
without=$("$xferlab" replay "$paper" --ranks 4 --scaling weak --platform "$tmp/none.toml" --format csv)
step=$(sed -n 's/.*on-node MPI step +\([0-9.]*\) us.*/\1/p' <<< "$with")
[ -n "$step" ] || fail "no on-node MPI step at 4 ranks per node: $with"
! grep -q 'on-node MPI step' <<< "$without" || fail "a zero calibration added a step"
awk -v a="$(iter_of <<< "$with")" -v b="$(iter_of <<< "$without")" -v s="$step" \
  'BEGIN { d = a - b - s; exit !(s > 10 && d < 0.001 && d > -0.001) }' ||
  fail "iteration with the step is not without + step ($step us)"
two=$("$xferlab" replay "$paper" --ranks 4 --scaling weak --ranks-per-node 2 \
  --platform h200x4_hgx_nvswitch --format csv)
! grep -q 'on-node MPI step' <<< "$two" || fail "the step added at 2 ranks per node"
[ "$(iter_of <<< "$two")" != "$(iter_of <<< "$with")" ] || fail "2 and 4 ranks per node alike"

# An interpolated size: the pair mix (the default) against the components.
for mode in measured hw-doorbell; do
  "$xferlab" replay "$paper" --variant all --ranks 1024 --mode "$mode" --format csv \
    > "$tmp/mix_$mode.csv" 2> /dev/null
  XFERLAB_HALO_PAIR_MIX=components "$xferlab" replay "$paper" --variant all --ranks 1024 \
    --mode "$mode" --format csv > "$tmp/comp_$mode.csv" 2> /dev/null
done
python3 - "$tmp" <<'PY' || fail "the pair mix at an interpolated size"
import csv, sys
def rows(name):
    with open(f"{sys.argv[1]}/{name}.csv") as f:
        return {r["variant"]: r for r in csv.DictReader(f)}
for mode in ("measured", "hw-doorbell"):
    mix, comp = rows("mix_" + mode), rows("comp_" + mode)
    assert mix.keys() == comp.keys() and "stream" in mix, (mode, sorted(mix))
    for v, r in mix.items():
        assert "interpolated 200-400" in r["data"], (mode, v, r["data"])
        moved = abs(float(r["iteration_us"]) - float(comp[v]["iteration_us"])) > 1e-6
        assert moved == (mode == "measured" and v in ("stream", "stacked")), (mode, v)
PY

# The papers' machines: presets exist, cite the paper, and replay at 64 ranks.
for preset in power9_v100_ib icelake_v100_ib; do
  shown=$("$xferlab" platform show "$preset") || fail "platform show $preset"
  grep -q '^source = "Elis et al., HPCAsia 2024' <<< "$shown" || fail "$preset does not cite Elis et al."
done
"$xferlab" replay "$paper" --ranks 64 --ranks-per-node 4 --platform power9_v100_ib --format csv |
  awk -F, 'NR == 2 && $7 > 0 { ok = 1 } END { exit !ok }' || fail "replay on power9_v100_ib"
echo PASS
