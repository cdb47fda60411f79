#!/usr/bin/env python3
"""tools/halo_message_classes.py [XFERLAB] [VARIANT...] — per message size,
what the notification loop of stream / stacked measures on the seven
median-of-5 2-rank runs at 200^3, 400^3 and 800^3 (docs/halo_sim_log.md,
"Stacked 400^3: the 800^3 end's edges are long").

For each run, variant (default: stacked and stream), size and message size
it reads both ranks' traces with `xferlab trace dump` and prints the medians
over the timed iterations (us) of: the MPI latency of peer and of self
messages (as sim/halo_trace.cc: the receiver's irecv completion minus the
later of the sender's Isend post and the receiver's wait_recv start), the
send_ready store after the iteration's start (`ready`) and the store ->
CPU observation (`notify`, paired by message and epoch value). `long` says
whether the size is in stacked's long class (>= the kernel's default
stacked-long 4096 B: packed by the whole grid, flagged after one grid sync).
"""
import bisect
import statistics
import sys

from trace_dump_lines import MEDIAN_RUNS, dump_records

RUNS = MEDIAN_RUNS
SIZES = ["200", "400", "800"]
STACKED_LONG_BYTES = 4096


def fail(msg):
    sys.exit("halo_message_classes: " + msg)


def rank_events(xferlab, path):
    """One rank's timed_from, Isend posts {(dst, tag): [t]} with their bytes,
    irecv completions {(src, tag): [t]}, wait_recv and total begins, and per
    message index its send_ready stores {value: t}, CPU observations
    {value: t} and bytes (the Isend that follows its observation)."""
    e = {"timed_from": None, "sends": {}, "size": {}, "completes": {}, "waits": [],
         "starts": [], "set": {}, "seen": {}, "bytes": {}}
    last_seen = None
    for t, kind, d in dump_records(xferlab, path, fail):
        flag = d.get("flag", "")
        if kind == "iteration" and e["timed_from"] is None:
            e["timed_from"] = t
        elif kind == "mpi_post" and d.get("op") == "isend":
            key = (int(d["peer"]), int(d["tag"]))
            e["sends"].setdefault(key, []).append(t)
            e["size"][key] = float(d["bytes"])
            if last_seen is not None:
                e["bytes"][last_seen] = float(d["bytes"])
                last_seen = None
        elif kind == "mpi_complete" and d.get("op") == "irecv":
            e["completes"].setdefault((int(d["peer"]), int(d["tag"])), []).append(t)
        elif kind == "phase_begin" and d.get("phase") == "wait_recv":
            e["waits"].append(t)
        elif kind == "phase_begin" and d.get("phase") == "total":
            e["starts"].append(t)
        elif kind == "flag_set" and flag.startswith("send_ready"):
            e["set"].setdefault(int(d["message"]), {})[int(d["value"])] = t
        elif kind == "flag_observed" and flag.startswith("send_ready"):
            e["seen"].setdefault(int(d["message"]), {})[int(d["value"])] = t
            last_seen = int(d["message"])
    if e["timed_from"] is None:
        fail(f"{path}: no iteration marker")
    if not e["sends"] or not e["completes"] or not e["set"]:
        fail(f"{path}: no Isend posts, irecv completions or send_ready stores")
    return e


def medians(ranks):
    """{(bytes, what): median us} over both ranks' timed iterations."""
    by = {}
    for r, e in enumerate(ranks):
        for (src, tag), done_list in e["completes"].items():
            s = ranks[src]
            for post, done in zip(s["sends"].get((r, tag), []), done_list):
                if post < s["timed_from"]:
                    continue
                i = bisect.bisect_right(e["waits"], done)
                start = max(post, e["waits"][i - 1] if i else float("-inf"))
                if done >= start:
                    what = "self" if src == r else "peer"
                    by.setdefault((s["size"][(r, tag)], what), []).append((done - start) / 1e3)
        for m, stores in e["set"].items():
            b = e["bytes"].get(m)
            for value, t in stores.items():
                i = bisect.bisect_right(e["starts"], t)
                if b is None or t < e["timed_from"] or not i:
                    continue
                by.setdefault((b, "ready"), []).append((t - e["starts"][i - 1]) / 1e3)
                seen = e["seen"].get(m, {}).get(value)
                if seen is not None and seen >= t:
                    by.setdefault((b, "notify"), []).append((seen - t) / 1e3)
    return {k: statistics.median(v) for k, v in by.items()}


def main():
    xferlab = sys.argv[1] if len(sys.argv) > 1 else "bazel-bin/sim/xferlab"
    variants = sys.argv[2:] or ["stacked", "stream"]
    print("run,variant,size,bytes,long,latency_peer_us,latency_self_us,ready_us,notify_us")
    for run, d in RUNS:
        for v in variants:
            for size in SIZES:
                ranks = [rank_events(xferlab, f"{d}/traces/{v}_gpus2_{size}_rank{r}.xft.zst")
                         for r in (0, 1)]
                med = medians(ranks)
                for b in sorted({b for b, _ in med}):
                    cols = [med.get((b, w)) for w in ("peer", "self", "ready", "notify")]
                    print(",".join([run, v, size, str(int(b)),
                                    "yes" if b >= STACKED_LONG_BYTES else "no"] +
                                   ["" if x is None else f"{x:.1f}" for x in cols]))


if __name__ == "__main__":
    main()
