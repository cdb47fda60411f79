#!/usr/bin/env python3
"""docs/validation/h200x4_heldout.py — held-out tables of the 4x H200 NVSwitch
campaign of 2026-11-26 (issue #26; docs/validation.md, "4x H200 NVSwitch
campaign (2026-11-26): held-out"), made before anything was fitted to it.

  (a) validate.csv   `xferlab validate` of the campaign's 4-GPU traces on
                     h200x4_hgx_nvswitch (the PROACT rows, as validate prints them):
                     held-out, made at 7ed7081, kept as it was (`--run` does not
                     rewrite it);
      validate_revised.csv  the same traces validated with today's model and
                     preset: after the agent-model revision (constants fitted on
                     2x H200 run 1, borrowed by the preset; no parameter fitted on
                     this campaign);
  (b) from_2gpu.csv  2x H200 traces (run 3's proact/, run 4's heldout/ and xray/)
                     replayed with `--platform h200x4_hgx_nvswitch --gpus 4
                     --scaling strong` against the measured 4-GPU medians of the
                     same workload, mechanism, chunk and threads: held-out, made
                     at 7ed7081 with the even-split strong scaling, kept as it was
                     (`--run` does not rewrite it; `git checkout 7ed7081` and
                     `--run` there regenerate it);
      from_2gpu_revised.csv  the same rows replayed with the strong scaling of
                     today's model (cost profile by offset, docs/scaling.md),
                     which was revised after seeing (b): not held-out for that
                     structure, though no parameter was fitted on it; and the
                     agent-model revision (constants fitted on 2x H200 run 1);
  (c) links.csv      link_bench GPU 0 -> peer 1, 2, 3 and -> all peers at once
                     against what the preset gives (`xferlab link` on its GPU link,
                     plus its copy-engine start costs for the copy rows).

Usage (repository root, python3 standard library only):
  docs/validation/h200x4_heldout.py --run    # replays (XFERLAB, default
                                             # bazel-bin/sim/xferlab; ~30 s), writes
                                             # validate_revised, from_2gpu_revised and
                                             # links CSVs and the plot
                                             # (scatter_h200x4_2026-11-26.gp), prints the tables
  docs/validation/h200x4_heldout.py          # prints the tables of the committed CSVs
  docs/validation/h200x4_heldout.py --check  # and checks their rows (//tests:h200x4_heldout_test)
"""
import csv
import functools
import glob
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tomllib

PLATFORM = "h200x4_hgx_nvswitch"
CAMPAIGN = "traces/real/2026-11-26_h200x4_nvswitch"
RUN3 = "traces/real/2026-11-22_h200x2_run3"
RUN4 = "traces/real/2026-11-26_h200x2_run4"
OUT = "docs/validation/h200x4_2026-11-26"
# Row counts of the committed CSVs (--check); change them with the CSVs.
EXPECTED_ROWS = {"validate": 108, "validate_revised": 108, "from_2gpu": 130, "from_2gpu_revised": 130,
                 "links": 86}
AGENT = "after the agent-model revision (constants fitted on 2x H200 run 1)"
REVISED = ("after cost-profile strong scaling (model revised after seeing these data; "
           f"not held-out for this structure; no parameter fitted) and {AGENT}")

# The 4-GPU results CSVs a 2-GPU trace is compared with, per problem: the
# applications' UM runs (xray/, run_xray.sh) and their none/memcpy baselines
# do 2 iterations; every other run uses proact's default problem.
TARGETS = {
    "default": [f"{CAMPAIGN}/proact_validation_g4/proact/*_g4.csv",
                f"{CAMPAIGN}/proact_validation_g4/agent_records/*_g4.csv",
                f"{CAMPAIGN}/proact_g4/*_g4.csv",
                f"{CAMPAIGN}/proact_g4_rest/*_g4.csv",
                f"{CAMPAIGN}/xray/xray_ct*_g4.csv",
                f"{CAMPAIGN}/xray/micro_um_g4.csv"],
    "um_2_iterations": [f"{CAMPAIGN}/xray/{w}_um_g4.csv" for w in ("jacobi", "pagerank", "sssp", "als")],
}
SOURCES = [f"{RUN3}/proact/traces", f"{RUN4}/heldout/*/traces", f"{RUN4}/xray/traces"]
NAME = re.compile(r"^(?P<w>[a-z_]+?)_g2_(?P<m>none|track|memcpy|inline|polling_tma|polling|cdp|um)"
                  r"_c(?P<c>\d+)(?P<u>[KMG]i)B_t(?P<t>\d+)\.xft")
UNITS = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}
# The replayed mechanism of a trace's (validate's choice, sim/trace_adapter.cc).
REPLAYED = {"none": "infinite", "track": "infinite", "memcpy": "memcpy", "inline": "inline",
            "polling": "polling", "polling_tma": "polling", "cdp": "cdp"}
# Mechanisms whose threads column is 0 in proact's CSV (no agent).
NO_AGENT = {"none", "track", "memcpy", "inline", "um"}
MICRO_NOTE = ("micro: the producer's work is recalibrated per GPU count (docs/proact.md: "
              "3x at 4 GPUs), so end to end is another problem; its transfer (mechanism - none) "
              "is compared where it follows the producer (memcpy, cdp), not where it overlaps it")


def xferlab():
    return os.environ.get("XFERLAB", "bazel-bin/sim/xferlab")


def run(args):
    r = subprocess.run([xferlab()] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"h200x4_heldout: xferlab {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def median(xs):
    return statistics.median(xs) if xs else math.nan


def pct(model, measured):
    return 100.0 * (model - measured) / measured if measured else math.nan


def fmt(x, digits=2):
    return "" if isinstance(x, float) and math.isnan(x) else f"{x:.{digits}f}"


# ------------------------------------------------------------------ (a)
def make_validate(held_out):
    """(a'): the traces of (a) validated now. The campaign folder has gained
    traces since (a) (cta16/), so (a)'s files are named, not the folder."""
    out = run(["validate", *(r["file"] for r in held_out), "--format", "csv", "--tolerance", "1000"])
    lines = out.splitlines()
    # validate appends the halo rows under their own header (docs/halo_sim.md).
    end = next((i for i, l in enumerate(lines) if i and l.startswith("run,")), len(lines))
    rows = list(csv.DictReader(lines[:end]))
    for r in rows:
        r["sample"] = f"{r['sample']} ({AGENT})"
    return rows


# ------------------------------------------------------------------ (b)
def measured_rows():
    """(family, workload, mechanism, chunk, threads) -> [(time_us, csv)]."""
    rows = {}
    for family, patterns in TARGETS.items():
        for pattern in patterns:
            for path in sorted(glob.glob(pattern)):
                for r in csv.DictReader(open(path)):
                    if r["gpus"] != "4":
                        continue
                    key = (family, r["workload"], r["mechanism"], int(r["chunk_bytes"]), int(r["threads"]))
                    rows.setdefault(key, []).append((float(r["time_ms"]) * 1000, os.path.relpath(path, CAMPAIGN)))
    return rows


def sources():
    """The 2-GPU traces: (path, workload, mechanism, chunk, threads, family)."""
    out = []
    for d in SOURCES:
        for path in sorted(glob.glob(f"{d}/*_g2_*.xft*")):
            m = NAME.match(os.path.basename(path))
            if not m or m["m"] == "um":
                continue
            w = m["w"]
            family = "um_2_iterations" if "/xray/" in path and w in ("jacobi", "pagerank", "sssp", "als") else "default"
            out.append((path, w, m["m"], int(m["c"]) * UNITS[m["u"]], int(m["t"]), family))
    return out


@functools.cache
def replay_us(trace, mechanism):
    out = run(["replay", trace, "--platform", PLATFORM, "--gpus", "4", "--scaling", "strong",
               "--mechanism", mechanism, "--format", "csv", "--jobs", "1"])
    return float(next(csv.DictReader(out.splitlines()))["sim_time_us"])


def make_from_2gpu(revised):
    measured = measured_rows()
    cases = []
    for path, w, m, chunk, threads, family in sources():
        t = 0 if m in NO_AGENT else threads
        data = path
        if m == "inline":  # as validate: the compute-only sibling's data generation
            sib = path.replace("_inline_", "_none_")
            data = sib if os.path.exists(sib) else path
        cases.append((path, data, w, m, chunk, t, family))
        # A none trace also predicts inline where its folder has no inline trace.
        if m == "none" and not os.path.exists(path.replace("_none_", "_inline_")):
            cases.append((path, path, w, "inline", chunk, 0, family))
    rows = []
    for path, data, w, m, chunk, t, family in cases:
        target = measured.get((family, w, m, chunk, t))
        if not target:
            continue
        none = measured.get((family, w, "none", chunk, 0), [])
        meas = median([x for x, _ in target])
        meas_none = median([x for x, _ in none])
        sim = replay_us(data, REPLAYED[m])
        sim_none = replay_us(data, "infinite")
        transfer = REPLAYED[m] != "infinite"
        comm_meas = meas - meas_none if transfer else math.nan
        comm_sim = sim - sim_none if transfer else math.nan
        fitted_config = w == "micro" and m == "memcpy"
        # micro's transfer is comparable where it follows the producer
        # (memcpy after the kernel, CDP children behind its last CTA); where it
        # overlaps the producer (inline, agents) it hides behind 3x more work
        # at 4 GPUs than the 2-GPU trace has.
        compared = ("end-to-end" if w != "micro" else
                    "comm-only" if m in ("memcpy", "cdp") else "not comparable")
        rows.append({
            "workload": w, "mechanism": m, "chunk_bytes": chunk, "threads": t, "problem": family,
            "kind": "transfer" if transfer else "compute-only",
            "sample": REVISED if revised else "held-out (fitted config)" if fitted_config else "held-out",
            "compared": compared,
            "measured_us": fmt(meas, 3), "measured_rows": len(target), "predicted_us": fmt(sim, 3),
            "error_pct": fmt(pct(sim, meas)) if compared == "end-to-end" else "",
            "measured_comm_us": fmt(comm_meas, 3), "predicted_comm_us": fmt(comm_sim, 3),
            "comm_error_pct": fmt(pct(comm_sim, comm_meas)) if transfer and compared != "not comparable" else "",
            "source_trace": path, "data_from": os.path.basename(data) if data != path else "self",
            "measured_csvs": " ".join(sorted({c for _, c in target})),
        })
    return rows


# ------------------------------------------------------------------ (c)
def duration_ns(v):
    v = v["value"] if isinstance(v, dict) else v
    for unit, scale in (("ns", 1), ("us", 1e3), ("ms", 1e6)):
        if v.endswith(unit):
            return float(v[: -len(unit)]) * scale
    raise ValueError(f"not a duration: {v}")


def link_goodput(size, count, op):
    """`xferlab link` on the preset's GPU link: (time_ns, goodput) of `count`
    separate writes/reads of `size` bytes each (one packet train each)."""
    out = run(["link", "--platform", PLATFORM, "--sizes", str(int(size)), "--count", str(int(count)),
               "--pattern", "scattered", "--op", op, "--format", "csv"])
    r = next(csv.DictReader(out.splitlines()))
    return float(r["time_ns"]), float(r["goodput_bytes_per_s"])


def link_copy_ns(size, count):
    """`xferlab link` time of `count` copies of `size` in max-payload packets."""
    out = run(["link", "--platform", PLATFORM, "--sizes", str(int(size)), "--count", str(int(count)),
               "--pattern", "contiguous", "--format", "csv"])
    return float(next(csv.DictReader(out.splitlines()))["time_ns"])


def make_links():
    preset = tomllib.load(open(f"hw_model/presets/{PLATFORM}.toml", "rb"))
    ce = preset["copy_engine"]
    host_ns, start_ns = duration_ns(ce["host_initiation"]), duration_ns(ce["engine_start"])
    rows = []
    for part in ("link_0_1", "link_0_2", "link_0_3", "link_fanout"):
        for r in csv.DictReader(open(f"{CAMPAIGN}/{part}/link_bench.csv")):
            test, pattern = r["test"], r["pattern"]
            size, payload = float(r["write_bytes"]), float(r["payload_bytes"])
            accesses, measured_ns = float(r["accesses"]), float(r["time_ns_median"])
            if test in ("sm_write", "sm_read"):
                op = "read" if test == "sm_read" else "write"
                # As the calibration (hw_model::predict_link_bw_bytes_per_s): a
                # warp's contiguous (or fan-out) access is one packet per touched
                # 128-B line; a scattered one a packet per access, loads at least
                # a 32-B sector.
                if pattern in ("contiguous", "fanout"):
                    packet = min(32 * size, 128.0)
                    model_ns, _ = link_goodput(packet, payload / packet, op)
                    how = "xferlab link: 128-B line packets"
                else:
                    packet = max(size, 32.0) if op == "read" else size
                    model_ns, _ = link_goodput(packet, accesses, op)
                    how = f"xferlab link: {int(packet)}-B packets, one per access"
            elif test == "ce_write":
                # The host issues the copies one after another (copy_engine.host_initiation
                # each), the engine starts once (engine_start), the data crosses
                # GPU 0's 18 links in max-payload packets (xferlab link, with the
                # one-way latency through the switch).
                model_ns = accesses * host_ns + start_ns + link_copy_ns(size, accesses)
                how = "n x host_initiation + engine_start + xferlab link (max-payload packets)"
            else:
                continue  # ce_read: the preset has no model of copy-engine reads
            rows.append({
                "part": part, "test": test, "target": r["target"], "pattern": pattern,
                "size_bytes": int(size), "stride_bytes": int(float(r["stride_bytes"])), "count": int(accesses),
                "payload_bytes": int(payload), "sample": "held-out",
                "measured_ns": fmt(measured_ns, 1), "predicted_ns": fmt(model_ns, 1),
                "measured_gbps": fmt(payload / measured_ns, 2), "predicted_gbps": fmt(payload / model_ns, 2),
                "error_pct": fmt(pct(payload / model_ns, payload / measured_ns)), "model": how,
            })
    return rows


# ------------------------------------------------------------------ output
def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def read_csv(path):
    return list(csv.DictReader(open(path)))


def stats(label, errs):
    errs = [abs(float(e)) for e in errs if e != ""]
    if not errs:
        return f"{label}: n=0"
    return f"{label}: n={len(errs)} median |error| {statistics.median(errs):.2f}% max {max(errs):.2f}%"


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    print()


def part_of(path):
    return path[len(CAMPAIGN) + 1:].rsplit("/traces/", 1)[0]


def print_tables(v, v2, b, b2, links):
    print("## (a) xferlab validate, 4-GPU traces of 2026-11-26 on h200x4_hgx_nvswitch\n")
    now = {r["file"]: r for r in v2}
    table(["trace (part)", "sample", "kind", "measured µs", "simulated µs", "error %", "comm-only %",
           "(a') simulated µs", "(a') error %", "(a') comm-only %"],
          [(f"{r['trace']} ({part_of(r['file'])})", r["sample"],
            r["kind"], fmt(float(r["measured_us"]), 1), fmt(float(r["sim_us"]), 1),
            fmt(float(r["error_pct"])), fmt(float(r["comm_error_pct"] or "nan"), 1),
            fmt(float(now[r["file"]]["sim_us"]), 1), fmt(float(now[r["file"]]["error_pct"])),
            fmt(float(now[r["file"]]["comm_error_pct"] or "nan"), 1)) for r in v])
    print(f"((a') columns: the same traces {AGENT}.)\n")
    for kind in ("transfer", "compute-only"):
        print(stats(f"(a) {kind}, held-out", [r["error_pct"] for r in v if r["kind"] == kind and r["sample"] == "held-out"]))
        for part in sorted({part_of(r["file"]) for r in v}):
            print(stats(f"    {part}", [r["error_pct"] for r in v if r["kind"] == kind and part_of(r["file"]) == part]))
    for kind in ("transfer", "compute-only"):
        print(stats(f"(a') {kind}, {AGENT}", [r["error_pct"] for r in v2 if r["kind"] == kind]))
        for part in sorted({part_of(r["file"]) for r in v2}):
            print(stats(f"    {part}", [r["error_pct"] for r in v2 if r["kind"] == kind and part_of(r["file"]) == part]))
    print()
    print("## (b) 2-GPU traces at --gpus 4 --scaling strong on h200x4_hgx_nvswitch\n")
    table(["workload", "mechanism", "chunk", "threads", "source", "sample", "measured µs (rows)",
           "predicted µs", "error %", "comm meas µs", "comm pred µs", "comm error %"],
          [(r["workload"], r["mechanism"], r["chunk_bytes"], r["threads"], source_name(r["source_trace"]),
            r["sample"], f"{float(r['measured_us']):.1f} ({r['measured_rows']})", f"{float(r['predicted_us']):.1f}",
            r["error_pct"] or "¹",
            fmt(float(r["measured_comm_us"] or "nan"), 1), fmt(float(r["predicted_comm_us"] or "nan"), 1),
            r["comm_error_pct"]) for r in b])
    print(f"¹ {MICRO_NOTE}.\n")
    apps = [r for r in b if r["compared"] == "end-to-end"]
    micro = [r for r in b if r["compared"] == "comm-only"]
    print(stats("(b) applications, transfer, end-to-end", [r["error_pct"] for r in apps if r["kind"] == "transfer"]))
    print(stats("(b) applications, transfer, comm-only", [r["comm_error_pct"] for r in apps if r["kind"] == "transfer"]))
    print(stats("(b) applications, compute-only", [r["error_pct"] for r in apps if r["kind"] == "compute-only"]))
    print(stats("(b) micro memcpy and cdp, comm-only", [r["comm_error_pct"] for r in micro]))
    for m in ("memcpy", "cdp"):
        print(stats(f"(b) micro {m}, comm-only", [r["comm_error_pct"] for r in micro if r["mechanism"] == m]))
    print()
    print_revised(b, b2)
    print("## (c) link_bench GPU 0 -> peer(s), measured vs the preset\n")
    table(["part", "test", "pattern", "size B", "stride B", "count", "measured GB/s", "predicted GB/s", "error %"],
          [(r["part"], r["test"], r["pattern"], r["size_bytes"], r["stride_bytes"], r["count"],
            r["measured_gbps"], r["predicted_gbps"], r["error_pct"]) for r in links])
    for part in ("link_0_1", "link_0_2", "link_0_3", "link_fanout"):
        print(stats(f"(c) {part}", [r["error_pct"] for r in links if r["part"] == part]))


APP_MECHANISMS = ("none", "track", "memcpy", "inline", "polling", "polling_tma", "cdp")


def print_revised(b, b2):
    """(b) against (b'): the held-out errors and today's, per application row."""
    print(f"## (b') the rows of (b), {REVISED}\n")
    key = lambda r: (r["workload"], r["mechanism"], r["chunk_bytes"], r["threads"], r["source_trace"])
    before = {key(r): r for r in b}
    apps = [r for r in b2 if r["compared"] == "end-to-end"]
    cells = {}
    for r in apps:
        w = r["workload"] + (", 2 it." if r["problem"] == "um_2_iterations" else "")
        cells[(w, source_name(r["source_trace"]), r["mechanism"])] = (before[key(r)]["error_pct"], r["error_pct"])
    rows = sorted({(w, src) for w, src, _ in cells}, key=lambda x: (x[0].endswith("it."), x[1], x[0]))
    table(["workload", "source"] + list(APP_MECHANISMS),
          [(w, src) + tuple(f"{float(c[0]):+.1f} → {float(c[1]):+.1f}" if (c := cells.get((w, src, m))) else ""
                            for m in APP_MECHANISMS) for w, src in rows])
    print(f"(error %, end to end: held-out (b) → (b') {REVISED}.)\n")
    for label, sel in (("applications, transfer, end-to-end", lambda r: r["kind"] == "transfer"),
                       ("applications, compute-only", lambda r: r["kind"] == "compute-only")):
        print(stats(f"(b) {label}", [r["error_pct"] for r in b if r["compared"] == "end-to-end" and sel(r)]))
        print(stats(f"(b') {label}", [r["error_pct"] for r in apps if sel(r)]))
    print(stats("(b') applications, transfer, comm-only", [r["comm_error_pct"] for r in apps if r["kind"] == "transfer"]))
    micro = [r for r in b2 if r["compared"] == "comm-only"]
    for m in ("memcpy", "cdp"):
        print(stats(f"(b') micro {m}, comm-only", [r["comm_error_pct"] for r in micro if r["mechanism"] == m]))
    print()


def source_name(path):
    if path.startswith(RUN3):
        return "run 3"
    if "/heldout/" in path:
        return "run 4 " + path.split("/heldout/")[1].split("/")[0]
    return "run 4 xray"


def check(v, v2, b, b2, links):
    """The committed CSVs' invariants (//tests:h200x4_heldout_test)."""
    problems = []
    for name, rows in (("validate", v), ("validate_revised", v2), ("from_2gpu", b), ("from_2gpu_revised", b2),
                       ("links", links)):
        if len(rows) != EXPECTED_ROWS[name]:
            problems.append(f"{name}: {len(rows)} rows, want {EXPECTED_ROWS[name]}")
        for r in rows:
            if name == "from_2gpu_revised" and r.get("sample") != REVISED:
                problems.append(f"{name}: a row not labelled '{REVISED}': {r}")
            if name == "validate_revised" and r.get("sample") != f"held-out ({AGENT})":
                problems.append(f"{name}: a row not labelled 'held-out ({AGENT})': {r}")
            if name not in ("from_2gpu_revised", "validate_revised") and r.get("sample") not in (
                    "held-out", "held-out (fitted config)"):
                problems.append(f"{name}: a row not labelled held-out: {r}")
    if sorted((r["file"], r["measured_us"]) for r in v) != sorted((r["file"], r["measured_us"]) for r in v2):
        problems.append("validate_revised: not the rows of validate (same traces, same measurements)")
    same = lambda r: (r["workload"], r["mechanism"], r["chunk_bytes"], r["threads"], r["source_trace"], r["measured_us"])
    if sorted(map(same, b)) != sorted(map(same, b2)):
        problems.append("from_2gpu_revised: not the rows of from_2gpu (same cases, same measurements)")
    for r in v + v2:
        if r["platform"] != PLATFORM or not r["file"].startswith(CAMPAIGN):
            problems.append(f"validate: {r['trace']}: platform {r['platform']}, file {r['file']}")
    for r in b + b2:
        e = pct(float(r["predicted_us"]), float(r["measured_us"]))
        if r["compared"] == "end-to-end" and abs(e - float(r["error_pct"])) > 0.006:
            problems.append(f"from_2gpu: {r['source_trace']} {r['mechanism']}: error {r['error_pct']} != {e:.2f}")
        if (r["workload"] == "micro") == (r["compared"] == "end-to-end"):
            problems.append(f"from_2gpu: {r['source_trace']}: {r['compared']} for {r['workload']}")
    for r in links:
        e = pct(1 / float(r["predicted_ns"]), 1 / float(r["measured_ns"]))  # goodput error
        if abs(e - float(r["error_pct"])) > 0.006:
            problems.append(f"links: {r['part']} {r['test']} {r['size_bytes']}: error {r['error_pct']} != {e:.2f}")
    for p in problems:
        print("FAIL:", p, file=sys.stderr)
    return not problems


def main(argv):
    if "--run" in argv:
        v2 = make_validate(read_csv(f"{OUT}_validate.csv"))
        b2, links = make_from_2gpu(revised=True), make_links()
        write_csv(f"{OUT}_validate_revised.csv", v2)
        write_csv(f"{OUT}_from_2gpu_revised.csv", b2)
        write_csv(f"{OUT}_links.csv", links)
        if shutil.which("gnuplot"):
            subprocess.run(["gnuplot", "docs/validation/scatter_h200x4_2026-11-26.gp"], check=True)
    v, v2, b, b2, links = (read_csv(f"{OUT}_{n}.csv")
                           for n in ("validate", "validate_revised", "from_2gpu", "from_2gpu_revised", "links"))
    print_tables(v, v2, b, b2, links)
    if "--check" in argv and not check(v, v2, b, b2, links):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
