#!/usr/bin/env python3
"""docs/validation/md_tables.py — rewrites the per-case tables of
docs/validation.md from the committed CSVs (run by regenerate.sh after the
CSVs; python3, standard library only). Each table is found by its header
line; the rows below it, up to the next blank line, are replaced."""
import csv
import sys

DOC = "docs/validation.md"


def capture(path):
    if "h200x2_agent_records" in path:
        return "2026-11-26 agent records"
    if "x4_nvswitch/cta16" in path:
        return "4x H200 machine, GPUs 0-1, every 16th CTA"
    if "run4/xray" in path:
        return "run 4, xray"
    if "run4/heldout" in path:
        return "run 4, held-out grid"
    if "agent_records" in path:
        return "run 3, agent records"
    if "run3" in path:
        return "run 3"
    if "run2" in path:
        return "run 2"
    return "?"


def short(v):
    x = float(v)
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def replace_rows(md, header, lines):
    at = md.index(header) + len(header)
    end = md.index("\n\n", at)
    return md[:at] + "\n".join(lines) + md[end:]


def main():
    md = open(DOC).read()
    # Run 4's held-out grid has its own section and tables (heldout_run4.py).
    rows = [r for r in csv.DictReader(open("docs/validation/h200x2_validation.csv"))
            if "run4/heldout" not in r["file"]]
    rows.sort(key=lambda r: (r["trace"], capture(r["file"])))
    md = replace_rows(
        md,
        "| trace | capture | sample | mechanism | measured µs | source | traced span µs "
        "| simulated µs | error % | data from |\n|---|---|---|---|---|---|---|---|---|---|\n",
        [f"| {r['trace']} | {capture(r['file'])} | {r['sample']} | {r['mechanism']} "
         f"| {float(r['measured_us']):.1f} | {r['measured_csv']} | {float(r['traced_span_us']):.1f} "
         f"| {float(r['sim_us']):.1f} | {float(r['error_pct']):+.2f} "
         f"| {r['data_from'].replace('.xft.zst', '')} |" for r in rows])
    rows = [r for r in csv.DictReader(open("docs/validation/h200x4_validation.csv"))
            if r["kind"] == "transfer"]
    rows.sort(key=lambda r: r["trace"])
    md = replace_rows(
        md,
        "| trace | sample | measured µs | simulated µs | error % | comm-only error % |\n"
        "|---|---|---|---|---|---|\n",
        [f"| {r['trace']} | {r['sample']} | {float(r['measured_us']):.2f} "
         f"| {float(r['sim_us']):.2f} | {short(r['error_pct'])} | {short(r['comm_error_pct'])} |"
         for r in rows])
    open(DOC, "w").write(md)


if __name__ == "__main__":
    sys.exit(main())
