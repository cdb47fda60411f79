#!/usr/bin/env python3
"""docs/proact_xray/xray_um.py — the X-ray CT and Unified Memory tables of
docs/proact.md ("X-ray CT and Unified Memory, 2 and 4 GPUs") from committed
CSVs only (python3, standard library): proact's results CSVs of campaign part
`xray` (native/proact/run_xray.sh) on 2x H200 (run 4) and 4x H200 NVSwitch,
and `xferlab validate` of their traces (docs/proact_xray/validation.csv,
written by docs/proact_xray/regenerate.sh). Run from the repository root;
prints Markdown to stdout.

Every ratio uses baselines measured by the same proact invocation (the same
CSV): its 1-GPU `none` run, its memcpy run and its `none` (infinite
bandwidth) run at the same chunk size."""
import csv
import os
import statistics
import sys

CAPTURES = {  # GPUs -> the part's folder
    2: "traces/real/2026-11-26_h200x2_run4/xray",
    4: "traces/real/2026-11-26_h200x4_nvswitch/xray",
}
VALIDATION = "docs/proact_xray/validation.csv"
WORKLOADS = ["micro", "jacobi", "pagerank", "sssp", "als", "xray_ct"]
# xray_ct_gN.csv has inline/polling/polling_tma (+ none, track, memcpy), the
# cdp and um invocations their own CSVs.
XRAY_ORDER = [("memcpy", ""), ("none", ""), ("track", ""), ("inline", ""), ("polling", ""),
              ("polling_tma", ""), ("cdp", "_cdp"), ("um", "_um")]


def read(gpus, name):
    path = os.path.join(CAPTURES[gpus], name)
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []


def find(rows, gpus, mech, chunk=None):
    for r in rows:
        if int(r["gpus"]) == gpus and r["mechanism"] == mech and (
                chunk is None or int(r["chunk_bytes"]) == chunk):
            return r
    return None


def ms(r):
    return float(r["time_ms"])


def size(b):
    return f"{b // 1048576} MiB" if b >= 1048576 else f"{b // 1024} KiB"


def xray_table():
    print("| GPUs | mechanism | chunk | time ms (p10…p90) | speedup over 1 GPU "
          "| speedup over cudaMemcpy | fraction of infinite-bandwidth (`none`) time | verified |")
    print("|---|---|---|---|---|---|---|---|")
    for gpus in sorted(CAPTURES):
        for mech, suffix in XRAY_ORDER:
            rows = read(gpus, f"xray_ct{suffix}_g{gpus}.csv")
            for r in rows:
                if int(r["gpus"]) != gpus or r["mechanism"] != mech:
                    continue
                chunk = int(r["chunk_bytes"])
                one, memcpy, none = find(rows, 1, "none"), find(rows, gpus, "memcpy"), \
                    find(rows, gpus, "none", chunk)
                t = ms(r)
                print(f"| {gpus} | {mech} | {size(chunk)} | {t:.2f} ({float(r['time_p10_ms']):.2f}…"
                      f"{float(r['time_p90_ms']):.2f}) | {ms(one) / t:.2f}× | {ms(memcpy) / t:.3f}× "
                      f"| {ms(none) / t:.3f} | {r['verified']} |")
    one = [ms(find(read(g, "xray_ct_g1.csv"), 1, m)) for g in CAPTURES for m in ("none", "um")]
    print(f"\n1 GPU (`xray_ct_g1.csv` of both captures): `none` {one[0]:.2f} / {one[2]:.2f} ms, "
          f"`um` {one[1]:.2f} / {one[3]:.2f} ms (2-GPU / 4-GPU machine).")
    for gpus in sorted(CAPTURES):
        rows = read(gpus, f"xray_ct_g{gpus}.csv")
        big = [(m, ms(find(rows, gpus, m, 2097152))) for m in ("none", "track", "inline")]
        print(f"At 2 MiB chunks on {gpus} GPUs: " + ", ".join(f"`{m}` {t:.2f} ms" for m, t in big)
              + f" (the 4 MiB regions hold {4 * 1048576 // 2097152} chunks, whole chunks per GPU).")


def slower(x):
    return f"{x:.0f}×" if x >= 10 else f"{x:.1f}×"


def um_table():
    print("| workload | GPUs | iterations | 1 GPU `none` ms | `none` ms | memcpy ms | UM ms (p10…p90) "
          "| UM vs memcpy | UM speedup over 1 GPU | verified |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for w in WORKLOADS:
        for gpus in sorted(CAPTURES):
            rows = read(gpus, f"{w}_um_g{gpus}.csv")
            um, memcpy, none, one = (find(rows, gpus, "um"), find(rows, gpus, "memcpy"),
                                     find(rows, gpus, "none"), find(rows, 1, "none"))
            its = "10" if w == "xray_ct" else ("–" if w == "micro" else "2")
            one_s = f"{ms(one):.3f}" if one else "–"
            vs1 = f"{ms(one) / ms(um):.4f}×" if one else "–"
            print(f"| {w} | {gpus} | {its} | {one_s} | {ms(none):.3f} | {ms(memcpy):.3f} "
                  f"| {ms(um):.1f} ({float(um['time_p10_ms']):.1f}…{float(um['time_p90_ms']):.1f}) "
                  f"| {slower(ms(um) / ms(memcpy))} slower | {vs1} | {um['verified']} |")


def validation_table():
    rows = list(csv.DictReader(open(VALIDATION).read().split("\nrun,")[0].splitlines()))
    print("| machine | trace | preset | kind | measured µs | traced span µs | simulated µs | error % |")
    print("|---|---|---|---|---|---|---|---|")
    machine = {CAPTURES[g]: f"{g}x H200" for g in CAPTURES}
    for r in rows:
        r["machine"] = next(m for c, m in machine.items() if r["file"].startswith(c))
    for r in sorted(rows, key=lambda r: (r["machine"], r["trace"])):
        print(f"| {r['machine']} | {r['trace']} | {r['platform']} | {r['kind']} | {float(r['measured_us']):.1f} "
              f"| {float(r['traced_span_us']):.1f} | {float(r['sim_us']):.1f} | {float(r['error_pct']):+.2f} |")
    for kind in ("transfer", "compute-only"):
        e = [abs(float(r["error_pct"])) for r in rows if r["kind"] == kind]
        print(f"\n{kind}: {len(e)} cases, median |error| {statistics.median(e):.2f}%, max {max(e):.1f}%.",
              end="")
    print()


def main():
    for title, table in [("X-ray CT (1024², 720 views, 10 SIRT iterations)", xray_table),
                         ("Unified Memory vs cudaMemcpy, every workload", um_table),
                         ("Validation of the part's traces (`xferlab validate`, held-out)", validation_table)]:
        print(f"#### {title}\n")
        table()
        print()


if __name__ == "__main__":
    sys.exit(main())
