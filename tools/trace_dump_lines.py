"""tools/trace_dump_lines.py — what the halo diagnostic scripts beside it
(halo_box32_breakdown.py, halo_self_copy.py, halo_stream_latency.py,
halo_message_classes.py, halo_proxy_loop.py, halo_x4_skew.py, halo_x4_chain.py, halo_jitter.py) share:
`xferlab trace dump PATH` as a list of lines or of parsed records, with their
one-line errors (a missing xferlab or a dump that fails stops the script
through `fail`, never a traceback), and the 2-rank runs they compare."""
import subprocess

# The 2-rank halo runs with the whole size set (box 24^3 among the boxes):
# run 4 and the medians of 5 launches (docs/halo_sim.md, "Validation").
TWO_RANK_RUNS = [
    ("4", "traces/real/2026-11-26_h200x2_run4/halo_detail"),
    ("6", "traces/real/2026-11-27_h200x2_run6/halo_median5"),
    ("9", "traces/real/2026-11-27_h100x2_run9/halo_median5"),
    ("11", "traces/real/2026-11-27_h100x2_run11/halo_median5"),
    ("12 2-rank", "traces/real/2026-11-27_h100x4_run12/halo_median5_2rank"),
]

# Every 2-rank median-of-5 run (the runs issue #15's bound counts; run 13 is
# the 2-rank placement of a 4-GPU lease), in recording order.
MEDIAN_RUNS = [
    ("6", "traces/real/2026-11-27_h200x2_run6/halo_median5"),
    ("9", "traces/real/2026-11-27_h100x2_run9/halo_median5"),
    ("11", "traces/real/2026-11-27_h100x2_run11/halo_median5"),
    ("12", "traces/real/2026-11-27_h100x4_run12/halo_median5_2rank"),
    ("13", "traces/real/2026-11-27_h100x4_run13/halo_median5_2rank"),
    ("14", "traces/real/2026-11-27_h100x2_run14/halo_median5"),
    ("15", "traces/real/2026-11-27_h200x2_run15/halo_median5"),
]


def dump_lines(xferlab, path, fail):
    try:
        run = subprocess.run([xferlab, "trace", "dump", path], capture_output=True, text=True)
    except OSError as e:
        fail(f"{xferlab}: {e.strerror}")
    if run.returncode != 0:
        fail((run.stderr.strip().splitlines() or [f"{path}: trace dump exited {run.returncode}"])[-1])
    return run.stdout.splitlines()


def dump_records(xferlab, path, fail):
    """The dump's events as (t_ns, kind, {key: value}) in order: the fields
    after the fourth column that are key=value (header and short lines out)."""
    for line in dump_lines(xferlab, path, fail)[1:]:
        f = line.split()
        if len(f) < 5:
            continue
        yield int(f[0]), f[1], dict(x.split("=", 1) for x in f[4:] if "=" in x)


def timed_iterations(xferlab, path, fail):
    """{iteration number: {"begin": {phase: t}, "end": {phase: t}, "records":
    [(t, kind, {key: value})]}} of one rank's trace: each timed iteration runs
    from the `total` phase's begin after an `iteration` marker (a repeated
    number is not a new iteration) and is kept if its `total` ended; no such
    iteration stops the script through `fail`."""
    its, cur, number = {}, None, None
    for t, kind, d in dump_records(xferlab, path, fail):
        if kind == "iteration":
            number = int(d["iteration"])
        elif kind == "phase_begin" and d.get("phase") == "total":
            cur = None
            if number is not None and number not in its:
                cur = its[number] = {"begin": {}, "end": {}, "records": []}
        if cur is None:
            continue
        cur["records"].append((t, kind, d))
        if kind == "phase_begin":
            cur["begin"].setdefault(d["phase"], t)
        elif kind == "phase_end":
            cur["end"][d["phase"]] = t
    done = {k: v for k, v in its.items() if "total" in v["end"]}
    if not done:
        fail(f"{path}: no timed iteration")
    return done
