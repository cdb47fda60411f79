# tests/csv_close.awk — compare a committed CSV with a regenerated one,
# interleaved line by line (paste -d '\n' GOLDEN NEW | awk -f csv_close.awk):
# same rows, same text fields, numbers within 1e-9 relative (replays print
# doubles; the last digits may differ between compilers). With -v skip=NAME
# the column headed NAME is not compared (a run's own wall time). Exit 1 with
# the first differences printed.
  function split_csv(line, out,   n, f, q, i, c) {
    n = 0; f = ""; q = 0
    for (i = 1; i <= length(line); i++) {
      c = substr(line, i, 1)
      if (c == "\"") q = !q
      else if (c == "," && !q) { out[++n] = f; f = ""; continue }
      f = f c
    }
    out[++n] = f
    return n
  }
  NR % 2 == 1 { want = $0; next }
  { row = NR / 2
    na = split_csv(want, a); nb = split_csv($0, b)
    if (na != nb) { print "row " row ": " na " vs " nb " fields"; bad = 1; next }
    for (i = 1; i <= na; i++) {
      if (row == 1 && skip != "" && a[i] == skip) skipped = i
      if (a[i] == b[i] || i == skipped) continue
      if (a[i] ~ /^-?[0-9.e+-]+$/ && b[i] ~ /^-?[0-9.e+-]+$/) {
        # +0: numbers, not strings (mawk compared "2e-14" > 1 as text).
        x = a[i] + 0; y = b[i] + 0; d = x - y; m = (x < 0 ? -x : x); if (d < 0) d = -d
        if (d <= 1e-9 * (m > 1 ? m : 1)) continue
      }
      print "row " row " field " i ": committed \"" a[i] "\", validate \"" b[i] "\""; bad = 1
    } }
  END { if (NR % 2 || NR == 0) { print "row counts differ"; bad = 1 }; exit bad }
