"""tools/trace_dump_lines.py — `xferlab trace dump PATH` as a list of lines for
the diagnostic scripts beside it (halo_box32_breakdown.py, halo_self_copy.py),
with their one-line errors: a missing xferlab or a dump that fails stops the
script through `fail`, never a traceback."""
import subprocess


def dump_lines(xferlab, path, fail):
    try:
        run = subprocess.run([xferlab, "trace", "dump", path], capture_output=True, text=True)
    except OSError as e:
        fail(f"{xferlab}: {e.strerror}")
    if run.returncode != 0:
        fail((run.stderr.strip().splitlines() or [f"{path}: trace dump exited {run.returncode}"])[-1])
    return run.stdout.splitlines()
