#!/usr/bin/env bash
# Args: XFERLAB SINGLE_LAUNCH_DIR FOUR_RANK_DIR DIR=GOLDEN_CSV... — issue #15's
# bound block of `xferlab validate` (sim/halo_bound.h) on the committed runs:
#  1. validate SINGLE_LAUNCH_DIR FOUR_RANK_DIR DIR...: the block lists exactly
#     the DIRs (medians of 5: their repeats.csv), each held-out (variant, size)
#     of their golden CSVs with each run's error_pct (to the printed 0.1),
#     median and max |error| and met / not met recomputed from the golden
#     error_pct values, each run's launch spread (to the printed 1) and their
#     median recomputed from its repeats.csv ((max - min) / median of the
#     configuration's iteration_wall_avg_ns), "-" in both per-run columns
#     where a run has no golden row, and "bound: K of M ... over R
#     median-of-5 runs";
#     SINGLE_LAUNCH_DIR (no repeats.csv) is named as left out, FOUR_RANK_DIR
#     (4 ranks) nowhere;
#  2. a copy of the first DIR whose repeats.csv keeps 2 launches per
#     configuration: left out as "median of 2 launches", no bound run;
#  3. the same copy with a malformed kept field on line 4: exit 2, one line
#     naming the file, the line and the field.
set -euo pipefail
xferlab=$1
single=$2
four=$3
shift 3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }
name_of() { echo "$(basename "$(dirname "$1")")/$(basename "$1")"; }

dirs=() goldens=() names=()
for pair in "$@"; do
  dirs+=("${pair%%=*}") goldens+=("${pair#*=}") names+=("$(name_of "${pair%%=*}")")
done

# validate exits 1 when a held-out case of the single-launch run is beyond 10 %.
validate() {
  local rc=0
  "$xferlab" validate "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
  [ "$rc" = 0 ] || { [ "$rc" = 1 ] && grep -q "case(s) beyond" "$tmp/err"; } ||
    fail "validate $* exited $rc: $(cat "$tmp/err")"
  sed -n '/^issue #15 bound/,$p' "$tmp/out" > "$tmp/block"
  [ -s "$tmp/block" ] || fail "no bound block in: $(cat "$tmp/out")"
}

# 1. The committed runs.
validate "$single" "$four" "${dirs[@]}"
cat "$tmp/block"
# The golden rows: NAME,variant,size,error_pct of every held-out case.
for i in "${!dirs[@]}"; do
  awk -F, -v name="${names[$i]}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["set"] == "held-out" { print name "," $c["variant"] "," $c["size"] "," $c["error_pct"] }' \
    "${goldens[$i]}"
done > "$tmp/golden"
[ -s "$tmp/golden" ] || fail "no held-out rows in the golden CSVs"
# The launch spreads: NAME,variant,label,spread_pct of every configuration.
for i in "${!dirs[@]}"; do
  awk -F, -v name="${names[$i]}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { k = $c["variant"] "," $c["label"]; if (!(k in n)) keys[++nk] = k
      v[k, ++n[k]] = $c["iteration_wall_avg_ns"] + 0 }
    END { for (j = 1; j <= nk; j++) { k = keys[j]; m = n[k]; delete w
            for (i = 1; i <= m; i++) w[i] = v[k, i]
            for (i = 2; i <= m; i++) { t = w[i]; for (l = i - 1; l > 0 && w[l] > t; l--) w[l + 1] = w[l]; w[l + 1] = t }
            med = m % 2 ? w[(m + 1) / 2] : (w[m / 2] + w[m / 2 + 1]) / 2
            print name "," k "," 100 * (w[m] - w[1]) / med } }' "${dirs[$i]}/repeats.csv"
done > "$tmp/spread"
awk -v spreads="$tmp/spread" -v golden="$tmp/golden" -v single="$(name_of "$single")" -v four="$(name_of "$four")" -v runs="${#dirs[@]}" '
  function abs(x) { return x < 0 ? -x : x }
  function near(got, want, tol) { return abs(got - want) <= tol }
  function bad(msg) { print "FAIL: " msg; failed = 1 }
  FILENAME == spreads { split($0, g, ","); spread[g[1], g[2], g[3]] = g[4]; next }
  FILENAME == golden { split($0, g, ","); err[g[1], g[2], g[3]] = g[4]
              if (!((g[2], g[3]) in seen)) { seen[g[2], g[3]] = 1; nkey++ }
              inrun[g[1]] = 1; next }
  /^runs \(error_per_run_pct and launch_spread_per_run_pct in this order\): / {
    sub(/^[^:]*: /, ""); n = split($0, r, ", ")
    if (n != runs) bad("the block has " n " runs, expected " runs ": " $0)
    for (i = 1; i <= n; i++) {
      if (r[i] !~ / \(median of 5\)$/) bad("run " r[i] " is not a median of 5")
      sub(/ \(median of [0-9]+\)$/, "", r[i]); order[i] = r[i]
      if (!(r[i] in inrun)) bad("run " r[i] " in the bound is not one of the DIRs")
    }
    next }
  /^variant +size / { table = 1; next }
  table && /^bound: / { table = 0 }
  table {
    # variant size e1 / e2 / ... s1 / s2 / ... median max spread_median met|not met
    variant = $1; size = $2; rows++
    nf = split($0, f, / +/); k = 3; nrun = 0; delete abse; delete sp; ns = 0
    for (i = 1; i <= runs; i++) {
      e = f[k]; s = f[k + 2 * runs - 1]; k += 2; nrun++
      want = err[order[i], variant, size]
      if (want == "") {
        if (e != "-" || s != "-") bad(variant " " size " " order[i] ": " e ", " s ", no golden row")
        continue
      }
      if (!near(e + 0, want + 0, 0.05 + 1e-9)) bad(variant " " size " " order[i] ": " e " vs golden " want)
      abse[++na[variant, size]] = abs(want + 0)
      want_s = spread[order[i], variant, "gpus2_" size]
      if (want_s == "") bad(variant " " size " " order[i] ": no launches in its repeats.csv")
      if (!near(s + 0, want_s + 0, 0.5 + 1e-9)) bad(variant " " size " " order[i] ": spread " s " vs repeats.csv " want_s)
      sp[++ns] = want_s + 0
    }
    k += 2 * runs - 1
    m = na[variant, size]
    for (i = 2; i <= m; i++) { t = abse[i]; for (j = i - 1; j > 0 && abse[j] > t; j--) abse[j + 1] = abse[j]; abse[j + 1] = t }
    med = m % 2 ? abse[(m + 1) / 2] : (abse[m / 2] + abse[m / 2 + 1]) / 2; mx = abse[m]
    for (i = 2; i <= ns; i++) { t = sp[i]; for (j = i - 1; j > 0 && sp[j] > t; j--) sp[j + 1] = sp[j]; sp[j + 1] = t }
    med_s = ns % 2 ? sp[(ns + 1) / 2] : (sp[ns / 2] + sp[ns / 2 + 1]) / 2
    got_med = f[k - 1]; got_max = f[k]; got_med_s = f[k + 1]
    verdict = f[k + 2] (f[k + 3] != "" ? " " f[k + 3] : "")
    if (!near(got_med_s, med_s, 0.005 * med_s + 0.005)) bad(variant " " size ": spread median " got_med_s " vs " med_s)
    if (!near(got_med, med, 0.005 * med + 0.005)) bad(variant " " size ": median " got_med " vs " med)
    if (!near(got_max, mx, 0.005 * mx + 0.005)) bad(variant " " size ": max " got_max " vs " mx)
    want_verdict = (med <= 5 && mx <= 10) ? "met" : "not met"
    if (verdict != want_verdict) bad(variant " " size ": " verdict ", expected " want_verdict)
    met += want_verdict == "met"
    next }
  /^bound: / {
    want = "bound: " met " of " nkey " variant/sizes met over " runs " median-of-5 runs "
    if (substr($0, 1, length(want)) != want) bad("\"" $0 "\", expected \"" want "...\"")
    if (rows != nkey) bad(rows " rows, expected " nkey)
    bounds++ }
  /^not in the bound / {
    if (index($0, single " (single launch)") == 0) bad("the single-launch run is not named: " $0)
    if (index($0, "docs/halo_sim_log.md, \"Runs 9 and 10\"") == 0) bad("no reason given: " $0)
    leftout++ }
  index($0, four) { bad("the 4-rank run is in the block: " $0) }
  END { if (bounds != 1) bad("no bound line"); if (leftout != 1) bad("no left-out line")
        exit failed }' "$tmp/spread" "$tmp/golden" "$tmp/block" || fail "the bound block disagrees with the golden CSVs"

# 2. Fewer than 3 launches: a copy of the first run keeping its kept repeat
# and the next slower one of each configuration (the kept one stays the lower
# middle).
run=$tmp/two/$(name_of "${dirs[0]}")
mkdir -p "$run/traces"
for f in "${dirs[0]}"/traces/*; do ln -s "$PWD/$f" "$run/traces/"; done
awk -F, 'NR == FNR { if (FNR > 1 && $6 == "yes") kept[$1, $2] = $5; next }
  FNR == 1 { print; next }
  $6 == "yes" || (!(($1, $2) in other) && $5 + 0 > kept[$1, $2] + 0) {
    if ($6 != "yes") other[$1, $2] = 1; print }' \
  "${dirs[0]}/repeats.csv" "${dirs[0]}/repeats.csv" > "$run/repeats.csv"
validate "$run"
cat "$tmp/block"
grep -q "^bound: 0 of 0 variant/sizes met over 0 median-of-N runs" "$tmp/block" ||
  fail "a median of 2 launches is in the bound"
grep -q "^not in the bound .*: $(name_of "$run") (median of 2 launches): fewer than 3" "$tmp/block" ||
  fail "the median of 2 launches is not named as left out"

# 3. A malformed repeats.csv: exit 2, one line naming file, line and field.
awk -F, -v OFS=, 'FNR == 4 { $6 = "maybe" } 1' "${dirs[0]}/repeats.csv" > "$run/repeats.csv"
rc=0
"$xferlab" validate "$run" > "$tmp/out" 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "malformed repeats.csv: exit $rc, expected 2"
[ "$(wc -l < "$tmp/err")" = 1 ] || fail "malformed repeats.csv: not one line: $(cat "$tmp/err")"
grep -qF "$run/repeats.csv:4: column 'kept': 'maybe': expected yes or no" "$tmp/err" ||
  fail "malformed repeats.csv: $(cat "$tmp/err")"
echo PASS
