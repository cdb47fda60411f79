"""docs/halo_sim/gnuplot.py — run_gnuplot, what the plotting scripts beside it
(bind_study.py, heldout_plot.py) share: feed gnuplot a script that writes a
PNG, and stop with a one-line error naming the PNG if gnuplot is missing or
fails (never a traceback)."""
import subprocess
import sys


def run_gnuplot(prog, png, script):
    try:
        subprocess.run(["gnuplot"], input="\n".join(script), text=True, check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"{prog}: {png}: gnuplot failed: {getattr(e, 'stderr', '') or e}".strip())
