#!/usr/bin/env bash
# Every section citation in the repository (docs/<name>.md then `, `, `'s `
# or a space, then the heading in double quotes, and each further heading
# listed after it with `, ` or ` and `; in code, comments, scripts, tests,
# program output strings and docs; a comment may break it over lines, a C++
# string literal split in two ("... \"Two " "words\"") is joined), names a
# section that exists in that file: a markdown heading,
# or a bold run-in label (`**Label.**` opening a paragraph or list item),
# the docs' sub-section marks. A citation may abbreviate: the heading need
# only start with it. ASCII spellings match (`->` for →, `^3` for ³, `-` for
# – and —). Prints each broken one as `FILE:LINE: docs/X.md has no heading
# "..."` and fails. A citation of a file that does not exist fails too.
#
# Usage: doc_refs_test.sh FILE_IN_THE_SOURCE_TREE (Bazel passes a runfile
# symlink of docs/halo_sim.md, which leads back to the tree: tagged
# "external", it scans the files as they are, tracked and new) or
# doc_refs_test.sh --root DIR.
set -euo pipefail
if [ "${1:-}" = --root ]; then
  root=$(cd "$2" && pwd)
else
  root=$(dirname "$(dirname "$(readlink -f "$1")")")
fi
exec python3 - "$root" <<'EOF'
import bisect
import os
import re
import subprocess
import sys

root = sys.argv[1]
os.chdir(root)
if os.path.isdir(".git") or os.path.isfile(".git"):
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"],
                            capture_output=True, text=True, check=True).stdout.split("\n")
else:
    listed = [os.path.relpath(os.path.join(d, f)) for d, _, fs in os.walk(".") for f in fs]
# Text sources only; traces/ holds the recorded data (only its notes are text).
TEXT = (".md", ".h", ".cc", ".cu", ".cuh", ".py", ".sh", ".bzl", ".txt", ".toml", ".awk",
        "BUILD", "MODULE.bazel", ".cmake", ".in")
files = sorted(f for f in listed
               if f and f.endswith(TEXT) and not f.startswith("bazel-") and os.path.isfile(f))

# A comment's marker at the start of a line, so a citation broken over comment
# lines joins up again.
COMMENT = re.compile(r"^\s*(?://+|#+|\*|--|;+|%)?\s?")
# docs/NAME.md then `, ` / `'s ` / a space, then the quoted heading (possibly
# escaped, as in a C++ string: an escaped opening quote closed by a plain one
# is a literal split in two, continued by SPLIT); MORE: a further heading of
# the same file.
CITE = re.compile(r"\b(docs/[\w./-]*?\.md)(?:,\s*|'s\s+|\s+)(\\?)\"([^\"\\\n]{1,300}?)(\\?)\"")
SPLIT = re.compile(r"\s*\"([^\"\\\n]{0,300}?)(\\?)\"")
MORE = re.compile(r"(?:,\s*|,?\s+and\s+)(\\?)\"([^\"\\\n]{1,300}?)(\\?)\"")
HEADING = re.compile(r"#{1,6}\s+(.*)")
RUN_IN = re.compile(r"(?:[-*]\s+)?\*\*([^*]+)")


def norm(text):
    text = text.replace("\u2192", "->").replace("\u00b3", "^3").replace("`", "")
    text = text.replace("\u2013", "-").replace("\u2014", "-").replace("\u2026", "...")
    return " ".join(text.split()).lower()


sections = {}


def sections_of(path):
    if path not in sections:
        found = None
        if os.path.isfile(path):
            found = []
            fence = False
            for line in open(path, encoding="utf-8"):
                if line.startswith("```"):
                    fence = not fence
                    continue
                if fence:
                    continue
                m = HEADING.match(line) or RUN_IN.match(line)
                if m:
                    found.append(norm(m.group(1)))
        sections[path] = found
    return sections[path]


broken = 0
cited = 0
for path in files:
    try:
        text = open(path, encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    if "docs/" not in text:
        continue
    starts, parts, pos = [], [], 0
    for line in text.split("\n"):
        if not path.endswith(".md"):
            line = COMMENT.sub("", line, count=1)
        starts.append(pos)
        parts.append(line)
        pos += len(line) + 1
    joined = " ".join(parts)
    for m in CITE.finditer(joined):
        doc = m.group(1)
        line_no = bisect.bisect_right(starts, m.start())
        headings = []
        opened, heading, closed, end = m.group(2), m.group(3), m.group(4), m.end()
        while True:
            while opened and not closed:
                part = SPLIT.match(joined, end)
                if not part:
                    break
                heading, closed, end = heading + part.group(1), part.group(2), part.end()
            headings.append(heading)
            more = MORE.match(joined, end)
            if not more:
                break
            opened, heading, closed, end = more.group(1), more.group(2), more.group(3), more.end()
        for heading in headings:
            want = norm(heading).rstrip(".").rstrip()
            if not want:
                continue
            cited += 1
            found = sections_of(doc)
            if found is None:
                print(f'{path}:{line_no}: {doc} does not exist (cited with "{heading}")')
                broken += 1
            elif not any(s.startswith(want) for s in found):
                print(f'{path}:{line_no}: {doc} has no heading "{heading}"')
                broken += 1
print(f"{cited} section citations in {len(files)} files, {broken} broken")
sys.exit(1 if broken else 0)
EOF
