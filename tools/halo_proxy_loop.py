#!/usr/bin/env python3
"""tools/halo_proxy_loop.py [XFERLAB] — one sa / ki iteration cut at the
proxy's first doorbell, per median-of-5 2-rank run and paper cube
(docs/halo_sim_log.md, "Sa 400^3: where the interpolation misses").

For each run it reads both ranks' sa / ki 200^3 / 400^3 / 800^3 traces with
`xferlab trace dump` and takes, over the timed iterations (recv_all stores
after the first `iteration` marker), the medians of:
  period    recv_all store -> the next one (what validate compares with)
  front     recv_all store -> the first doorbell the proxy sees (the
            replay's proxy front: GPU unpack, boundary, pack, doorbell)
  kernels   sa: the unpack_fused + compute_boundary + pack_fused spans
            inside the front (ki's are inside its one kernel: empty)
  door_lag  sa: pack_fused's end -> the first doorbell seen (the stream
            writes the doorbells one by one after the pack)
  interior_lag  sa: pack_fused's end -> compute_interior's start (enqueued
            after all 26 doorbell writes)
  late_door sa: the index of the first doorbell the proxy sees after
            compute_interior began (from it on every doorbell was written
            before the proxy looked: the pacing of the writes cannot delay it)
  back      period - front (the proxy's loop)
  self, peer  the proxy's Irsend calls (a call = time since the previous
            event of the proxy lane, as sim/halo_trace.cc) to the rank
            itself / to the other rank, summed over the iteration
  other     back - self - peer: MPI_Test progress (the rendezvous copies),
            completions, polling, waiting for the peer
For 400^3 it adds each quantity's chord: the line through 200^3 and 800^3
at 400^3's place in the bytes a rank sends (0.2011 of the way: the
residual's and the latency line's interpolation driver), `*_chord_us`.
"""
import re
import statistics
import sys

from trace_dump_lines import MEDIAN_RUNS, dump_lines

# The median-of-5 runs up to run 14 (this study came before run 15).
RUNS = [r for r in MEDIAN_RUNS if r[0] != "15"]
# Bytes a rank sends per iteration on 2 ranks (2x1x1; 6 faces, 12 edges, 8
# corners of 3 doubles per cell): 50^3 / 100^3 / 200^3 blocks.
SENT = {200: 374592, 400: 1468992, 800: 5817792}
FRONT_KERNELS = ("unpack_fused", "compute_boundary", "pack_fused")
KEYS = ("period", "front", "kernels", "door_lag", "interior_lag", "back", "self", "peer", "other")
CHORD_KEYS = ("period", "front", "kernels", "back", "self", "peer", "other")
SA_ONLY = ("kernels", "door_lag", "interior_lag", "late_door")


def fail(msg):
    sys.exit("halo_proxy_loop: " + msg)


def iterations(xferlab, path, rank):
    """Per timed iteration (recv_all value v -> v + 1): the quantities in KEYS, ns."""
    timed = False
    out = {}
    cur = None  # the iteration being cut: its record
    last_proxy = None
    open_kernels = {}
    for line in dump_lines(xferlab, path, fail):
        p = line.split(None, 4)
        if len(p) < 4 or not p[0].isdigit():
            continue
        ts, kind, lane, detail = int(p[0]), p[1], p[3], p[4] if len(p) > 4 else ""
        timed = timed or kind == "iteration"
        if kind == "flag_set" and "recv_all[" in detail:
            if cur is not None and "door" in cur:
                cur["period"] = ts - cur["start"]
                out[cur["v"]] = cur
            v = int(re.search(r"value=(\d+)", detail).group(1))
            cur = {"v": v, "start": ts, "self": 0, "peer": 0, "kernels": 0} if timed else None
        elif cur is not None:
            if kind == "flag_observed" and "doorbell[" in detail:
                cur.setdefault("door", ts)
                if "interior_ts" in cur and "late_door" not in cur:
                    cur["late_door"] = int(re.search(r"doorbell\[(\d+)\]", detail).group(1))
            elif kind == "mpi_post" and "op=isend" in detail and lane == "1" and last_proxy:
                peer = int(re.search(r"peer=(\d+)", detail).group(1))
                cur["self" if peer == rank else "peer"] += ts - last_proxy
            elif kind in ("kernel_begin", "kernel_end"):
                name = re.search(r"kernel=(\S+)", detail).group(1)
                if kind == "kernel_begin":
                    open_kernels[name] = ts
                    if name == "compute_interior" and "pack_end" in cur and "interior" not in cur:
                        cur["interior"] = ts - cur["pack_end"]
                        cur["interior_ts"] = ts
                elif "door" in cur:
                    pass
                elif name in FRONT_KERNELS and open_kernels.get(name, -1) >= cur["start"]:
                    cur["kernels"] += ts - open_kernels[name]
                    if name == "pack_fused":
                        cur["pack_end"] = ts
        if lane == "1" and kind in ("mpi_post", "mpi_complete", "flag_set", "flag_observed"):
            last_proxy = ts
    if not out:
        fail(f"{path}: no timed recv_all -> recv_all iteration (not an sa / ki trace?)")
    for it in out.values():
        it["front"] = it["door"] - it["start"]
        it["back"] = it["period"] - it["front"]
        it["other"] = it["back"] - it["self"] - it["peer"]
        it["door_lag"] = it["door"] - it["pack_end"] if "pack_end" in it else float("nan")
        it["interior_lag"] = it.get("interior", float("nan"))
        it.setdefault("late_door", float("nan"))
    return list(out.values())


def medians(xferlab, d, variant, size):
    its = []
    for rank in (0, 1):
        its += iterations(xferlab, f"{d}/traces/{variant}_gpus2_{size}_rank{rank}.xft.zst", rank)
    m = {}
    for k in KEYS + ("late_door",):
        v = [it[k] for it in its if it[k] == it[k]]
        scale = 1 if k == "late_door" else 1e3
        m[k] = statistics.median(v) / scale if v and (variant == "sa" or k not in SA_ONLY) else float("nan")
    return m


def fmt(x):
    return "" if x != x else f"{x:.1f}"


def main():
    xferlab = sys.argv[1] if len(sys.argv) > 1 else "bazel-bin/sim/xferlab"
    f = (SENT[400] - SENT[200]) / (SENT[800] - SENT[200])
    print("run,variant,size," + ",".join(k + "_us" for k in KEYS) + ",late_door,"
          + ",".join(k + "_chord_us" for k in CHORD_KEYS))
    for run, d in RUNS:
        for variant in ("sa", "ki"):
            m = {s: medians(xferlab, d, variant, s) for s in (200, 400, 800)}
            for s in (200, 400, 800):
                chord = [m[200][k] + f * (m[800][k] - m[200][k]) if s == 400 else float("nan")
                         for k in CHORD_KEYS]
                print(f"{run},{variant},{s}," + ",".join(fmt(m[s][k]) for k in KEYS) + ","
                      + fmt(m[s]["late_door"]) + "," + ",".join(fmt(c) for c in chord))


if __name__ == "__main__":
    main()
