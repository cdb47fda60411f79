#!/usr/bin/env python3
"""Example: the validation scatter and a sweep plot from Python (docs/python.md).

    PYTHONPATH=PREFIX/lib/python3.11/dist-packages \
        /usr/bin/python3 python/examples/validation_and_sweep.py --out plots/

1. ``xferlab.validate()`` replays every committed real trace with its own
   mechanism; the scatter puts simulated against measured time, one marker
   per case, colored by mechanism, filled for held-out cases and hollow for
   cases in the preset's fitting set (the ``sample`` column), with the ±10%
   band. Same numbers as ``xferlab validate --format csv``.
2. ``xferlab.sweep()`` replays the quick-start trace over DMA-agent channel
   counts: simulated time per mechanism against the parameter.

Headless (matplotlib's Agg backend); writes validation_scatter.png and
sweep_dma_channels.png (and their CSVs) into --out.
"""

import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import xferlab  # noqa: E402

QUICKSTART_TRACE = ("traces/real/2026-11-22_h200x2_run3/proact/traces/"
                    "micro_g2_polling_c16KiB_t8192.xft.zst")


def validation_scatter(df, path):
    fig, ax = plt.subplots(figsize=(6.5, 5.5))
    lo = min(df["measured_us"].min(), df["sim_us"].min()) * 0.8
    hi = max(df["measured_us"].max(), df["sim_us"].max()) * 1.25
    ax.plot([lo, hi], [lo, hi], color="black", lw=0.8, label="simulated = measured")
    ax.fill_between([lo, hi], [lo * 0.9, hi * 0.9], [lo * 1.1, hi * 1.1], color="0.9",
                    label="±10%")
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (mech, g) in enumerate(df.groupby("mechanism")):
        c = colors[i % len(colors)]
        for sample, filled in (("held-out", True), ("in-sample", False)):
            s = g[g["sample"] == sample] if "sample" in g else (g if filled else g.iloc[:0])
            if len(s):
                ax.scatter(s["measured_us"], s["sim_us"], s=22, edgecolors=c,
                           facecolors=c if filled else "none",
                           label=f"{mech} ({sample})" if "sample" in g else mech)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("measured time (us)")
    ax.set_ylabel("simulated time (us)")
    med = df["error_pct"].abs().median()
    ax.set_title(f"xferlab validate: {len(df)} cases, median |error| {med:.2f}%")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def sweep_plot(df, key, path):
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for mech, g in df.groupby("mechanism", sort=False):
        ax.plot(g[key], g["sim_time_us"], marker="o", label=mech)
    ax.set_xlabel(key)
    ax.set_ylabel("simulated time (us)")
    ax.set_yscale("log")
    ax.set_title(f"xferlab sweep: {df['trace'].iloc[0]} on {df['platform'].iloc[0]}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=".", help="directory for the PNGs and CSVs")
    ap.add_argument("--traces", nargs="*", default=None,
                    help="traces/directories to validate (default: every committed real trace)")
    ap.add_argument("--sweep-trace", default=QUICKSTART_TRACE)
    ap.add_argument("--channels", default="1,2,4,8", help="dma_agent.channels values")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check", action="store_true",
                    help="fail unless both PNGs were written (the test uses it)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    v = xferlab.validate(args.traces, tolerance=100)
    v.to_csv(os.path.join(args.out, "validation.csv"), index=False)
    validation_scatter(v, os.path.join(args.out, "validation_scatter.png"))
    print(v.attrs["summary"], end="")

    key = "dma_agent.channels"
    s = xferlab.sweep(args.sweep_trace, {key: args.channels.split(",")}, jobs=args.jobs)
    s.to_csv(os.path.join(args.out, "sweep_dma_channels.csv"), index=False)
    sweep_plot(s, key, os.path.join(args.out, "sweep_dma_channels.png"))
    print(f"wrote validation_scatter.png and sweep_dma_channels.png to {args.out}")
    if args.check:
        for name in ("validation_scatter.png", "sweep_dma_channels.png"):
            with open(os.path.join(args.out, name), "rb") as f:
                assert f.read(8) == b"\x89PNG\r\n\x1a\n", name
        assert len(s) == 2 * 6 and len(v) == len(args.traces), (len(s), len(v))


if __name__ == "__main__":
    main()
