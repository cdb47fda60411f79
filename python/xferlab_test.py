"""Tests of the xferlab Python package against the `xferlab` CLI.

Every table must be the CLI's, value for value: the same trace goes through
`xferlab ... --format csv` (read with pandas.read_csv, round-trip float
parsing) and through the Python function, and the frames must be equal
exactly. Arguments: XFERLAB GEN_TRACE REAL_TRACE (a polling trace of the
quick-start run, with its results CSV beside it).
"""

import io
import os
import subprocess
import sys
import unittest

import numpy as np
import pandas as pd
import pandas.testing as pdt

import xferlab

XFERLAB, GEN_TRACE, REAL_TRACE = (os.path.abspath(p) for p in sys.argv[1:4])
TMP = os.environ.get("TEST_TMPDIR", "/tmp")


def cli_csv(*args):
    out = subprocess.run([XFERLAB, *args], check=True, capture_output=True, text=True).stdout
    # round_trip: pandas' default float parser can be off by one ulp.
    return pd.read_csv(io.StringIO(out), float_precision="round_trip", keep_default_na=False,
                       na_values=[""])


def assert_same(py, cli):
    """Equal values (bit for bit), column names and order; text columns as text."""
    assert list(py.columns) == list(cli.columns), (list(py.columns), list(cli.columns))
    assert len(py) == len(cli), (len(py), len(cli))
    for name in py.columns:
        a, b = py[name], cli[name]
        if a.dtype == object or b.dtype == object:
            assert list(a.astype(str)) == list(b.astype(str)), name
        else:
            # Exact values; dtypes may differ where read_csv guesses int for
            # a float column whose values are all whole (exposed_us = 0).
            np.testing.assert_array_equal(a.to_numpy(), b.to_numpy(), err_msg=name)


class XferlabPythonTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.poll = os.path.join(TMP, "poll.xftrace")
        subprocess.run([GEN_TRACE, cls.poll, "polling", "2", "8", "2"], check=True)

    def test_replay_equals_cli(self):
        for extra in ([], ["--gpus", "4", "--platform", "h100_pcie_gen5"]):
            py = xferlab.replay(self.poll, platform="h200x2_nvlink4" if not extra else
                                "h100_pcie_gen5", gpus=4 if extra else None)
            cli = cli_csv("replay", self.poll, "--format", "csv",
                          *(extra or ["--platform", "h200x2_nvlink4"]))
            assert_same(py, cli)
            self.assertEqual(len(py), 6)  # one row per mechanism
            self.assertTrue(py["sim_time_us"].gt(0).all())

    def test_replay_real_trace_has_measured_row(self):
        py = xferlab.replay(REAL_TRACE, mechanism="polling")
        assert_same(py, cli_csv("replay", REAL_TRACE, "--mechanism", "polling", "--format", "csv"))
        self.assertGreater(py["measured_us"].iloc[0], 0)
        self.assertIn("measured row = polling", py.attrs["note"])

    def test_replay_cores_equal_cli_and_agree(self):
        graph = xferlab.replay(self.poll, platform="h200x2_nvlink4", core="graph")
        assert_same(graph, cli_csv("replay", self.poll, "--platform", "h200x2_nvlink4",
                                   "--core", "graph", "--format", "csv"))
        actors = xferlab.replay(self.poll, platform="h200x2_nvlink4", core="actors")
        np.testing.assert_allclose(graph["sim_time_us"], actors["sim_time_us"], rtol=0.005)

    def test_sets_and_chunk_size(self):
        py = xferlab.replay(self.poll, mechanism="hardware", chunk_size="64KiB",
                            sets={"dma_agent.channels": 2})
        cli = cli_csv("replay", self.poll, "--mechanism", "hardware", "--chunk-size", "64KiB",
                      "--set", "dma_agent.channels=2", "--format", "csv")
        assert_same(py, cli)

    def test_explain_equals_cli(self):
        py = xferlab.explain(self.poll, platform="h200x2_nvlink4")
        cli = cli_csv("explain", self.poll, "--platform", "h200x2_nvlink4", "--sensitivity",
                      "none", "--format", "csv")
        assert_same(py, cli)
        # Each mechanism's causes add up to its total row (explain's 1% rule).
        for mech, rows in py.groupby("mechanism"):
            total = rows[rows["cause"] == "total"]["time_us"].iloc[0]
            self.assertAlmostEqual(rows[rows["cause"] != "total"]["time_us"].sum() / total, 1.0,
                                   delta=0.01)

    def test_sweep_equals_cli_and_shards_concatenate(self):
        params = {"dma_agent.channels": [1, 4], "gpus": [2, 4]}
        py = xferlab.sweep(self.poll, params, mechanism="hardware", platform="h200x2_nvlink4")
        cli = cli_csv("sweep", self.poll, "--param", "dma_agent.channels=1,4", "--param",
                      "gpus=2,4", "--mechanism", "hardware", "--platform", "h200x2_nvlink4")
        assert_same(py, cli)
        self.assertEqual(list(py.columns[:3]), ["dma_agent.channels", "gpus", "trace"])
        self.assertIn("gpus.1", py.columns)  # replay's own gpus column, as read_csv names it
        parts = [xferlab.sweep(self.poll, params, mechanism="hardware",
                               platform="h200x2_nvlink4", shard=(i, 3)) for i in range(3)]
        assert_same(pd.concat(parts, ignore_index=True), py)
        done = []
        xferlab.sweep(self.poll, {"gpus": [2, 3]}, mechanism="memcpy", jobs=1,
                      progress=lambda d, t: done.append((d, t)))
        self.assertEqual(done, [(0, 2), (1, 2), (2, 2)])

    def test_validate_equals_cli(self):
        py = xferlab.validate([REAL_TRACE, self.poll], tolerance=50)
        cli = cli_csv("validate", REAL_TRACE, self.poll, "--tolerance", "50", "--format", "csv")
        assert_same(py, cli)
        self.assertEqual(len(py), 2)
        self.assertIn("all: cases 2", py.attrs["summary"])
        self.assertIn(py.attrs["beyond_tolerance"], (0, 1, 2))

    def test_read_trace_equals_trace_dump(self):
        py = xferlab.read_trace(REAL_TRACE)
        cli = cli_csv("trace", "dump", REAL_TRACE, "--csv")
        cli["gpu"] = pd.array([pd.NA if g == "host" else int(g) for g in cli["gpu"].astype(str)],
                              dtype="Int64")
        self.assertEqual(len(py), len(cli))
        self.assertGreater(len(py), 1000)
        for name in ["time_ns", "stream", "id", "aux", "value", "flags"]:
            np.testing.assert_array_equal(py[name].to_numpy().astype(np.uint64),
                                          cli[name].to_numpy().astype(np.uint64), err_msg=name)
        self.assertEqual(list(py["kind"].astype(str)), list(cli["kind"].astype(str)))
        pdt.assert_series_equal(py["gpu"], cli["gpu"])

    def test_errors_are_the_cli_messages(self):
        res = subprocess.run([XFERLAB, "replay", self.poll, "--platform", "no_such_preset"],
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 2)
        with self.assertRaises(xferlab.UsageError) as e:
            xferlab.replay(self.poll, platform="no_such_preset")
        self.assertEqual("xferlab: " + str(e.exception), res.stderr.strip())
        self.assertTrue(issubclass(xferlab.UsageError, ValueError))
        with self.assertRaises(ValueError):
            xferlab.sweep(self.poll, {"gpus": ["x"]})
        with self.assertRaises(ValueError):
            xferlab.read_trace(os.path.join(TMP, "missing.xft"))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
