"""xferlab for Python: replay, validate, sweep and read traces as pandas DataFrames.

The numbers are the command line's: both call the same C++ functions
(sim/api.h), so ``xferlab.replay(t)`` equals ``xferlab replay t --format csv``
read with ``pandas.read_csv(..., float_precision="round_trip")``.

    import xferlab
    df = xferlab.replay("traces/real/.../micro_g2_polling_c16KiB_t8192.xft.zst")
    v = xferlab.validate()                      # every committed real trace
    s = xferlab.sweep(trace, {"dma_agent.channels": [1, 2, 4]}, mechanism="hardware")
    ev = xferlab.read_trace(trace)              # one row per event

Errors raise ``xferlab.UsageError`` (a ValueError: bad trace, preset, key or
value) or ``xferlab.RunError`` (a RuntimeError: the run itself failed), with
the CLI's one-line message. See docs/python.md.
"""

import os

import numpy as np
import pandas as pd

from . import _native

try:  # an installed package knows where tools/install.sh put the shared files
    from ._installed import SHARE_DIR as _SHARE_DIR
except ImportError:
    _SHARE_DIR = None

__all__ = ["replay", "validate", "sweep", "read_trace", "UsageError", "RunError", "DEFAULT_PRESET"]

UsageError = _native.UsageError
RunError = _native.RunError
DEFAULT_PRESET = _native.default_preset


def _frame(table):
    """A DataFrame from the native {"columns", "values"} table.

    Column types follow the values (float, int, str; an empty text cell is
    NaN, as pandas.read_csv reads the CSV's empty field); a column name used
    twice (a sweep over "gpus" also has replay's "gpus") gets a ".1" suffix
    on its second use, as pandas.read_csv names it.
    """
    seen = {}
    names = []
    for name in table["columns"]:
        n = seen.get(name, 0)
        seen[name] = n + 1
        names.append(name if n == 0 else f"{name}.{n}")
    data = {}
    for name, values in zip(names, table["values"]):
        if values and all(isinstance(v, float) for v in values):
            data[name] = np.array(values, dtype=np.float64)
        elif values and all(isinstance(v, int) for v in values):
            data[name] = np.array(values, dtype=np.int64)
        else:
            data[name] = pd.Series([np.nan if v == "" else v for v in values], dtype=object)
    return pd.DataFrame(data, columns=names)


def _sets(sets):
    """Platform overrides: {"key": value} or ["key=value", ...]."""
    if sets is None:
        return []
    if isinstance(sets, dict):
        return [f"{k}={v}" for k, v in sets.items()]
    if isinstance(sets, str):
        return [sets]
    return list(sets)


def _size(value):
    return "" if value is None else str(value)


def replay(trace, platform=None, mechanism="all", gpus=None, chunk_size=None, sets=None,
           fan_out="aggregate", core=None):
    """Replays ``trace`` on a platform preset: one row per mechanism.

    Columns as ``xferlab replay --format csv`` (docs/sim.md): trace, platform,
    gpus, mechanism, sim_time_us, exposed_us, overlap, link_util, wire_bytes,
    measured_us, error_pct (NaN where the row was not measured).
    ``chunk_size``: bytes (int) or a size string ("64KiB"); ``sets``: platform
    overrides, e.g. {"dma_agent.channels": 4}. ``df.attrs["note"]`` says what
    the measured row is. ``core``: "actors" or "graph" (``--core``; None: the
    CLI's default).
    """
    t = _native.replay(str(trace), platform or "", mechanism, int(gpus or 0), _size(chunk_size),
                       _sets(sets), fan_out, core or "")
    df = _frame(t)
    df.attrs["note"] = t["note"]
    return df


def explain(trace, platform=None, mechanism="all", sets=None):
    """Where the simulated time goes: the critical-path attribution of a replay.

    Columns as ``xferlab explain TRACE --sensitivity none --format csv``
    (mechanism, cause, time_us, share, tail_us; a "total" row per mechanism).
    ``df.attrs["note"]``: why hardware PROACT loses to the best software
    mechanism, or "" when it does not. Sensitivities: the CLI's --sensitivity.
    """
    t = _native.explain(str(trace), platform or "", mechanism, _sets(sets))
    df = _frame(t)
    df.attrs["note"] = t["note"]
    return df


def validate(paths=None, dir=None, platform=None, sets=None, tolerance=10.0, captures="current",
             progress=None, core=None):
    """Replays measured traces with their own mechanism: one row per case.

    ``paths``: traces or directories (default: every committed real trace,
    $XFERLAB_REAL_TRACES, traces/real or the installed copy). Columns as ``xferlab validate
    --format csv``. ``df.attrs``: "summary" (median/max |error| lines),
    "skipped" (one line per skipped trace or reason), "beyond_tolerance".
    ``progress``: called as progress(done, total) after each trace.
    ``core``: the PROACT replay core, "actors" or "graph" (None: the CLI's default).
    """
    if captures not in ("current", "all"):
        raise UsageError(f"captures '{captures}': expected current or all")
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    if not paths and not dir and "XFERLAB_REAL_TRACES" not in os.environ \
            and not os.path.isdir("traces/real") and _SHARE_DIR:
        dir = os.path.join(_SHARE_DIR, "traces", "real")  # the installed copy
    t = _native.validate([str(p) for p in (paths or [])], str(dir or ""), platform or "",
                         _sets(sets), float(tolerance), captures == "all", core or "", progress)
    df = _frame(t)
    df.attrs["summary"] = t["summary"]
    df.attrs["skipped"] = list(t["skipped"])
    df.attrs["beyond_tolerance"] = t["beyond_tolerance"]
    return df


def sweep(trace, params, mechanism="all", platform=None, sets=None, jobs=2, shard=None,
          progress=None):
    """Replays ``trace`` over a grid: one row per point and mechanism.

    ``params``: {"key": [values...]} in grid order (first key slowest), keys
    as ``xferlab sweep --param`` (any platform key, "chunk_size", "gpus").
    Columns as ``xferlab sweep`` CSV. ``jobs`` points run at once;
    ``shard=(i, n)`` replays only block i of n of the grid.
    ``df.attrs["failed_points"]`` counts points whose replay failed (no rows).
    """
    grid = [f"{k}=" + ",".join(str(v) for v in (vs if isinstance(vs, (list, tuple)) else [vs]))
            for k, vs in params.items()]
    index, count = shard if shard is not None else (0, 1)
    t = _native.sweep(str(trace), grid, mechanism, platform or "", _sets(sets), int(jobs),
                      int(index), int(count), progress)
    df = _frame(t)
    # Parameter values are the grid's text; numbers become numbers, as
    # pandas.read_csv reads the CLI's CSV.
    for name in df.columns[:len(grid)]:
        try:
            df[name] = pd.to_numeric(df[name])
        except (ValueError, TypeError):
            pass
    df.attrs["failed_points"] = t["failed_points"]
    df.attrs["first_failure"] = t["first_failure"]
    return df


def read_trace(path):
    """Every event of a trace file (traces/FORMAT.md), one row each.

    Columns as ``xferlab trace dump --csv``: time_ns, kind (name), gpu
    (nullable integer; <NA> for host-side records, "host" in the CLI),
    stream, id, aux, value, flags. Reads .xft/.xftrace and .zst files.
    """
    t = _native.read_trace(str(path))
    names = t["kind_names"]
    codes = t["kind"]
    kind = pd.Categorical.from_codes(
        np.searchsorted(sorted(names), codes), categories=[names[k] for k in sorted(names)]
    ) if len(codes) else pd.Categorical([])
    gpu = pd.array(t["gpu"].astype(np.int64), dtype="Int64")
    gpu[t["gpu"] == t["host_gpu"]] = pd.NA
    return pd.DataFrame({
        "time_ns": t["time_ns"],
        "kind": kind,
        "gpu": gpu,
        "stream": t["stream"],
        "id": t["id"],
        "aux": t["aux"],
        "value": t["value"],
        "flags": t["flags"],
    })
