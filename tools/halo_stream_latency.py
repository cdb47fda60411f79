#!/usr/bin/env python3
"""tools/halo_stream_latency.py [XFERLAB] — the MPI latency of stream 200^3
per run, peer and self messages apart, and the replay's latency line
(docs/halo_sim_log.md, "Stream 200^3: the latency line's clamp").

For each median-of-5 run (and run 4) it reads both ranks' stream 200^3 traces
with `xferlab trace dump` and computes each message's latency as
sim/halo_trace.cc does: the receiver's irecv completion minus the later of the
sender's Isend post (the k-th post of that (destination, tag) matched to the
k-th completion; posts before the sender's first `iteration` marker dropped)
and the receiver's last wait_recv begin before the completion. It prints the
medians (us) of the peer messages at 24 / 1200 / 60000 B and of the self
messages at 1200 / 60000 B, the free least-squares line through the per-size
medians of all messages (fit_by_size: free_a_us, free_b_ns_per_byte) and the
line with a, b >= 0 (nonnegative_fit_by_size: line_a_us, line_b_ns_per_byte).
"""
import bisect
import statistics
import sys

from trace_dump_lines import TWO_RANK_RUNS as RUNS
from trace_dump_lines import dump_records
PEER_SIZES = [24, 1200, 60000]
SELF_SIZES = [1200, 60000]


def fail(msg):
    sys.exit("halo_stream_latency: " + msg)


def rank_events(xferlab, path):
    """(timed_from, sends {(dst, tag): [t]}, completes {(src, tag): [t]},
    wait_begins [t], bytes {(dst, tag): B}) of one rank's trace."""
    timed_from = None
    sends, completes, waits, size = {}, {}, [], {}
    for t, kind, d in dump_records(xferlab, path, fail):
        if kind == "iteration" and timed_from is None:
            timed_from = t
        elif kind == "mpi_post" and d.get("op") == "isend":
            key = (int(d["peer"]), int(d["tag"]))
            sends.setdefault(key, []).append(t)
            size[key] = float(d["bytes"])
        elif kind == "mpi_complete" and d.get("op") == "irecv":
            completes.setdefault((int(d["peer"]), int(d["tag"])), []).append(t)
        elif kind == "phase_begin" and d.get("phase") == "wait_recv":
            waits.append(t)
    if timed_from is None:
        fail(f"{path}: no iteration marker")
    if not sends or not completes:
        fail(f"{path}: no Isend posts or irecv completions")
    return timed_from, sends, completes, waits, size


def line_fit(points):
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    b = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return (sy - b * sx) / n, b


def nonnegative(points, a, b):
    if a >= 0 and b >= 0:
        return a, b
    if b < 0:
        return max(0.0, sum(y for _, y in points) / len(points)), 0.0
    sxx = sum(x * x for x, _ in points)
    return 0.0, max(0.0, sum(x * y for x, y in points) / sxx)


def main():
    xferlab = sys.argv[1] if len(sys.argv) > 1 else "bazel-bin/sim/xferlab"
    cols = [f"peer_{b}_us" for b in PEER_SIZES] + [f"self_{b}_us" for b in SELF_SIZES]
    print(",".join(["run"] + cols + ["free_a_us", "free_b_ns_per_byte", "line_a_us",
                                     "line_b_ns_per_byte"]))
    for run, d in RUNS:
        ranks = [rank_events(xferlab, f"{d}/traces/stream_gpus2_200_rank{r}.xft.zst")
                 for r in (0, 1)]
        by = {}
        for r, (_, _, completes, waits, _) in enumerate(ranks):
            for (src, tag), done_list in completes.items():
                timed_from, sends, _, _, size = ranks[src]
                posts = sends.get((r, tag), [])
                for post, done in zip(posts, done_list):
                    if post < timed_from:
                        continue
                    i = bisect.bisect_right(waits, done)
                    start = max(post, waits[i - 1] if i else float("-inf"))
                    if done >= start:
                        by.setdefault((src == r, size[(r, tag)]), []).append((done - start) / 1e3)
        med = {k: statistics.median(v) for k, v in by.items()}
        row = []
        for self_, sizes in ((False, PEER_SIZES), (True, SELF_SIZES)):
            for b in sizes:
                if (self_, b) not in med:
                    fail(f"{d}: no {'self' if self_ else 'peer'} messages of {b} B")
                row.append(med[(self_, b)])
        pooled = {}
        for (_, b), v in by.items():
            pooled.setdefault(b, []).extend(v)
        points = sorted((b, statistics.median(v)) for b, v in pooled.items())
        a, slope = line_fit(points)
        la, lb = nonnegative(points, a, slope)
        print(",".join([run] + [f"{x:.1f}" for x in row + [a]] + [f"{slope * 1e3:.3f}"] +
                       [f"{la:.1f}", f"{lb * 1e3:.3f}"]))


if __name__ == "__main__":
    main()
