#!/usr/bin/env python3
"""tools/halo_x4_chain.py XFERLAB [VARIANT:SIZE ...] — why the late pair of a
4-rank host-driven halo run needs longer for the same bytes (docs/halo_sim_log.md,
"The late pair's wait: its early partner leaves MPI with its sends
open").

For runs 12 (4x H100; 2 ranks: the same lease), 16 (4x H200; 2 ranks: run
15, 2x H200) and x4 (4x H200 NVSwitch; 2 ranks: run 4, 2x H200) it reads
every rank's trace with `xferlab trace dump` and, over the 4-rank iterations
out of step (spread >= 20 µs, two ranks in the later half: the late pair),
prints per variant (baseline, host) and size (medians, µs unless named):

  n                   late rank-iterations
  recv_first_us       an early rank's Isend of a face to the late rank minus
                      the late rank's Irecv post of it (> 0: the receive
                      was posted first)
  send_to_entry_us    the late rank's wait_recv begin minus that Isend: how
                      long the request waits for the late rank's wait
  c2_ns_per_b         2 ranks: a rank's tail (wait_recv after its peer's last
                      Isend post) per byte of its rendezvous payload (bytes
                      over the 4 KiB eager part, to and from the peer)
  late_tail_us        4 ranks, late rank: the same tail
  late_ns_per_b       late_tail_us per byte of its rendezvous payload
  late_excess_us      late_tail_us - c2_ns_per_b * that payload: what the
                      late rank takes beyond the 2-rank cost of its bytes
  early_done_us       its early face partner (the early rank that sends it faces;
                      of two, where the late pair is diagonal, the one that
                      returns into MPI last) leaves wait_recv, after the
                      late rank's wait_recv begin
  early_unpack_us     that early rank's unpack phase (outside MPI)
  unpack_kernel_2_4_us  the unpack_ kernel at 2 ranks / of that early rank
                      (it runs while the late rank copies; a kernel that
                      shares host memory with those copies would slow)
  late_after_return_us  the late rank's wait end minus that early rank's
                      wait_send begin (its return into MPI after unpack)
  its_faces_at_c2_us  c2_ns_per_b times the rendezvous payload that early
                      rank sends the late rank: what moving it takes at the
                      2-rank cost once both ranks are inside MPI
  after_return        late rank-iterations whose wait ends after that early
                      rank's return, of all
  slope_r             least-squares slope and correlation, over iterations,
                      of the late wait on the early rank's return (both from
                      the late rank's wait_recv begin)

A host-driven rank records every completion of its wait after its
MPI_Testall loop returns (native/halo/halo_context.cc, wait_requests), so
single messages' completions are not in these traces; everything above uses
posts, phase bounds and kernel spans.
"""
import statistics
import sys

from halo_x4_skew import IN_STEP_US, med
from trace_dump_lines import timed_iterations

RUNS = [
    ("12", "traces/real/2026-11-27_h100x4_run12/halo_median5_2rank",
     "traces/real/2026-11-27_h100x4_run12/halo_median5_4rank"),
    ("16", "traces/real/2026-11-27_h200x2_run15/halo_median5",
     "traces/real/2026-11-27_h200x4_run16/halo_median5_4rank"),
    ("x4", "traces/real/2026-11-26_h200x2_run4/halo_detail",
     "traces/real/2026-11-26_h200x4_nvswitch/halo"),
]
CASES = ["baseline:200", "baseline:400", "baseline:800", "host:200", "host:400", "host:800",
         "host:box64"]
EAGER_BYTES = 4096  # Open MPI vader's eager limit (docs/halo.md)


def fail(msg):
    sys.exit("halo_x4_chain: " + msg)


def iterations(xferlab, path):
    """{iteration: {"begin"/"end": {phase: t_ns}, "isend": [(t_ns, peer, bytes, tag)],
    "irecv": {(peer, tag): t_ns}, "unpack_kernel": ns}}
    of one rank's trace: the timed iterations (trace_dump_lines.timed_iterations)."""
    its = timed_iterations(xferlab, path, fail)
    for it in its.values():
        isend, irecv, unpack, begun = [], {}, 0, None
        for t, kind, d in it.pop("records"):
            if kind == "mpi_post" and d.get("op") == "isend":
                isend.append((t, int(d["peer"]), int(d["bytes"]), int(d["tag"])))
            elif kind == "mpi_post" and d.get("op") == "irecv":
                irecv[(int(d["peer"]), int(d["tag"]))] = t
            elif kind == "kernel_begin" and d.get("kernel", "").startswith("unpack_"):
                begun = t
            elif kind == "kernel_end" and begun is not None:
                unpack += t - begun
                begun = None
        it["isend"], it["irecv"], it["unpack_kernel"] = isend, irecv, unpack
    return its


def load(xferlab, d, variant, size, ranks):
    R = [iterations(xferlab, f"{d}/traces/{variant}_gpus{ranks}_{size}_rank{r}.xft.zst")
         for r in range(ranks)]
    return R, sorted(set.intersection(*(set(x) for x in R)))


def rendezvous(msgs):
    return sum(b - EAGER_BYTES for b in msgs if b > EAGER_BYTES)


def tail_and_payload(R, i, r):
    """A rank's wait after the last Isend of a message to it by another rank
    (ns), and its rendezvous payload to and from other ranks (bytes)."""
    it = R[r][i]
    incoming = [(t, b) for p in range(len(R)) if p != r for t, q, b, _ in R[p][i]["isend"]
                if q == r]
    w0, w1 = it["begin"]["wait_recv"], it["end"]["wait_recv"]
    tail = w1 - max(w0, max(t for t, _ in incoming))
    out = [b for _, q, b, _ in it["isend"] if q != r]
    return tail, rendezvous(out) + rendezvous(b for _, b in incoming)


def fit(xs, ys):
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    if not sxx or not syy:
        return float("nan"), float("nan")
    return sxy / sxx, sxy / (sxx * syy) ** 0.5


def case(xferlab, two, four, variant, size):
    R2, C2 = load(xferlab, two, variant, size, 2)
    c2 = med([t / p for i in C2 for r in range(2) for t, p in [tail_and_payload(R2, i, r)]])
    kernel2 = med([R2[r][i]["unpack_kernel"] / 1e3 for i in C2 for r in range(2)])
    R, C = load(xferlab, four, variant, size, 4)
    rows = []  # per late rank-iteration
    for i in C:
        starts = [R[r][i]["begin"]["total"] for r in range(4)]
        lo, hi = min(starts), max(starts)
        late = [r for r in range(4) if starts[r] - lo > (hi - lo) / 2]
        if (hi - lo) / 1e3 < IN_STEP_US or len(late) != 2:
            continue
        for r in late:
            tail, payload = tail_and_payload(R, i, r)
            it = R[r][i]
            entry = it["begin"]["wait_recv"]
            # the early ranks that send r rendezvous messages (one; both where
            # the late pair is diagonal); the one that returns into MPI last
            cross = [p for p in range(4) if p not in late
                     if any(q == r and b > EAGER_BYTES for _, q, b, _ in R[p][i]["isend"])]
            faces = [(t, it["irecv"][(p, tag)]) for p in cross
                     for t, q, b, tag in R[p][i]["isend"] if q == r and b > EAGER_BYTES]
            q = max(cross, key=lambda p: R[p][i]["begin"]["wait_send"])
            e = R[q][i]
            from_q = rendezvous(b for _, to, b, _ in e["isend"] if to == r)
            rows.append({
                "recv_first": med([(t - t_recv) / 1e3 for t, t_recv in faces]),
                "send_to_entry": med([(entry - t) / 1e3 for t, _ in faces]),
                "tail": tail / 1e3, "ns_per_b": tail / payload,
                "excess": (tail - c2 * payload) / 1e3,
                "early_done": (e["end"]["wait_recv"] - entry) / 1e3,
                "early_unpack": (e["end"]["unpack"] - e["begin"]["unpack"]) / 1e3,
                "early_kernel": e["unpack_kernel"] / 1e3,
                "after_return": (it["end"]["wait_recv"] - e["begin"]["wait_send"]) / 1e3,
                "from_q": c2 * from_q / 1e3,
                "return": (e["begin"]["wait_send"] - entry) / 1e3,
                "wait": (it["end"]["wait_recv"] - entry) / 1e3,
            })
    if len(rows) < 3:
        fail(f"{four} {variant} {size}: {len(rows)} late rank-iterations")
    slope, r = fit([x["return"] for x in rows], [x["wait"] for x in rows])
    m = {k: med([x[k] for x in rows]) for k in rows[0]}
    return [str(len(rows)), f"{m['recv_first']:.1f}", f"{m['send_to_entry']:.1f}", f"{c2:.3f}", f"{m['tail']:.1f}", f"{m['ns_per_b']:.3f}",
            f"{m['excess']:.1f}", f"{m['early_done']:.1f}", f"{m['early_unpack']:.1f}",
            f"{kernel2:.1f}/{m['early_kernel']:.1f}",
            f"{m['after_return']:.1f}", f"{m['from_q']:.1f}", f"{sum(x['after_return'] > 0 for x in rows)}/{len(rows)}",
            f"{slope:.2f}/{r:.2f}"]


def main():
    if len(sys.argv) < 2:
        fail("usage: halo_x4_chain.py XFERLAB [VARIANT:SIZE ...]")
    xferlab = sys.argv[1]
    cases = sys.argv[2:] or CASES
    for c in cases:
        variant, _, size = c.partition(":")
        if variant not in ("baseline", "host") or not size:
            fail(f"{c}: expected baseline:SIZE or host:SIZE")
    print("run,variant,size,n,recv_first_us,send_to_entry_us,c2_ns_per_b,late_tail_us,late_ns_per_b,late_excess_us,"
          "early_done_us,early_unpack_us,unpack_kernel_2_4_us,late_after_return_us,its_faces_at_c2_us,after_return,slope_r")
    for run, two, four in RUNS:
        for c in cases:
            variant, _, size = c.partition(":")
            print(",".join([run, variant, size] + case(xferlab, two, four, variant, size)))


if __name__ == "__main__":
    main()
