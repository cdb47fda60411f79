#!/usr/bin/env bash
# doc_refs_test.sh on a small tree with one broken citation in each form it
# claims to read (and good ones beside them): each broken one is reported,
# once, at its line, and no good one is. Usage: doc_refs_forms_test.sh DOC_REFS_TEST
set -euo pipefail
check=$(readlink -f "$1")
tree=${TEST_TMPDIR:-$(mktemp -d)}/tree
rm -rf "$tree"
mkdir -p "$tree/docs" "$tree/sim" "$tree/tools"
# The citations below spell DOCS/, so the scan of this repository skips them.
put() { sed 's|DOCS/|docs/|g' > "$tree/$1"; }
put docs/a.md <<'EOF'
# A
## Real heading
## Two words
## Runs 1 → 3
**Run-in label.** text
```
## Not a heading (fenced)
```
EOF
put sim/x.cc <<'EOF'
// Good: DOCS/a.md, "Real heading"; DOCS/a.md's "Run-in label"; DOCS/a.md "Real".
// Good: DOCS/a.md, "Runs 1 -> 3", "Two words" and "Real heading".
const char* k = "(DOCS/a.md, \"Two "
                "words\")";
// Broken: DOCS/a.md, "Comma form"
// Broken: DOCS/a.md's "Possessive form"
// Broken: DOCS/a.md "Space form"
// Broken over lines: DOCS/a.md,
// "Next line form"
/* Broken in a block comment: DOCS/a.md, "Block
 * comment form" */
const char* s = "DOCS/a.md, \"Escaped form\"";
const char* t = "(DOCS/a.md, \"Split "
                "literal form\")";
// Broken in a list: DOCS/a.md, "Real heading", "Listed form" and "Anded form".
// Broken: DOCS/a.md, "Not a heading (fenced)"
EOF
put tools/y.py <<'EOF'
# Broken: DOCS/a.md, "Hash
# comment form"
"""Broken in a docstring (DOCS/a.md,
"Docstring form")."""
EOF
put docs/b.md <<'EOF'
Good: DOCS/a.md, "Two words". Broken: DOCS/a.md, "Markdown
form"; DOCS/missing.md, "Any".
EOF
set +e
out=$("$check" --root "$tree")
rc=$?
set -e
want='docs/b.md:1: docs/a.md has no heading "Markdown form"
docs/b.md:2: docs/missing.md does not exist (cited with "Any")
sim/x.cc:5: docs/a.md has no heading "Comma form"
sim/x.cc:6: docs/a.md has no heading "Possessive form"
sim/x.cc:7: docs/a.md has no heading "Space form"
sim/x.cc:8: docs/a.md has no heading "Next line form"
sim/x.cc:10: docs/a.md has no heading "Block comment form"
sim/x.cc:12: docs/a.md has no heading "Escaped form"
sim/x.cc:13: docs/a.md has no heading "Split literal form"
sim/x.cc:15: docs/a.md has no heading "Listed form"
sim/x.cc:15: docs/a.md has no heading "Anded form"
sim/x.cc:16: docs/a.md has no heading "Not a heading (fenced)"
tools/y.py:1: docs/a.md has no heading "Hash comment form"
tools/y.py:3: docs/a.md has no heading "Docstring form"
23 section citations in 4 files, 14 broken'
if [ "$rc" -ne 1 ] || [ "$out" != "$want" ]; then
  echo "FAIL: exit $rc (want 1); output differs from the expected:" >&2
  diff <(echo "$want") <(echo "$out") >&2 || true
  exit 1
fi
echo PASS
