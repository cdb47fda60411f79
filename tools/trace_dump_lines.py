"""tools/trace_dump_lines.py — what the halo diagnostic scripts beside it
(halo_box32_breakdown.py, halo_self_copy.py, halo_stream_latency.py) share:
`xferlab trace dump PATH` as a list of lines, with their one-line errors (a
missing xferlab or a dump that fails stops the script through `fail`, never
a traceback), and the 2-rank runs they compare."""
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


def dump_lines(xferlab, path, fail):
    try:
        run = subprocess.run([xferlab, "trace", "dump", path], capture_output=True, text=True)
    except OSError as e:
        fail(f"{xferlab}: {e.strerror}")
    if run.returncode != 0:
        fail((run.stderr.strip().splitlines() or [f"{path}: trace dump exited {run.returncode}"])[-1])
    return run.stdout.splitlines()
