#!/usr/bin/env python3
"""tools/doc_block.py — puts a script's Markdown output into a page: the text
on stdin replaces what stands between `<!-- begin NAME -->` and
`<!-- end NAME -->` in DOC (each marker alone on its line). With --check, DOC
is left alone and the exit status says whether it already holds that text
(0 yes, 1 no, with a diff on stderr), so a test can catch a stale page.

  python3 docs/validation/heldout_run4.py | tools/doc_block.py docs/validation.md heldout_run4
"""
import argparse
import difflib
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("doc")
    ap.add_argument("name")
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 when stale")
    a = ap.parse_args()
    begin, end = f"<!-- begin {a.name} -->\n", f"<!-- end {a.name} -->\n"
    md = open(a.doc).read()
    if md.count(begin) != 1 or md.count(end) != 1 or md.index(begin) > md.index(end):
        print(f"{a.doc}: want one '{begin.strip()}' before one '{end.strip()}'", file=sys.stderr)
        return 2
    at, stop = md.index(begin) + len(begin), md.index(end)
    text = sys.stdin.read()
    if not text.endswith("\n"):
        text += "\n"
    if a.check:
        if md[at:stop] == text:
            return 0
        sys.stderr.writelines(difflib.unified_diff(md[at:stop].splitlines(True), text.splitlines(True),
                                                   f"{a.doc} ({a.name})", "now"))
        return 1
    with open(a.doc, "w") as f:
        f.write(md[:at] + text + md[stop:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
