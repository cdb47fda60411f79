"""Golden tests of the halo replay: a committed CSV is what xferlab prints now.

Each was one hand-written sh_test block per run; the runs differ only in the
CSV, the trace folders and their filegroups.
"""

def halo_validate_golden_test(name, golden, dirs, traces, size = "small", env = None):
    """tests/halo_validate_golden_test.sh: `xferlab validate DIRS --format csv` equals docs/halo_sim/GOLDEN.

    Args:
      name: the test's name.
      golden: the CSV's file name under docs/halo_sim/.
      dirs: the trace folders validated, relative to the repository root.
      traces: the //traces filegroups holding them.
      size: the test's size.
      env: environment of the test (e.g. an opt-in switch of the model).
    """
    csv = "//:docs/halo_sim/" + golden
    native.sh_test(
        name = name,
        size = size,
        srcs = ["halo_validate_golden_test.sh"],
        args = ["$(location //sim:xferlab)", "$(location %s)" % csv] + dirs,
        data = ["csv_close.awk", csv, "//sim:xferlab"] + traces,
        env = env,
    )

def halo_predict_x4_golden_test(name, golden, two, four, platform, traces, size = "small"):
    """tests/halo_predict_x4_golden_test.sh: tools/halo_predict_x4.sh from TWO for FOUR on PLATFORM equals docs/halo_sim/GOLDEN.

    Args:
      name: the test's name.
      golden: the CSV's file name under docs/halo_sim/.
      two: the 2-rank trace folder (the prediction's input).
      four: the 4-rank trace folder (what it is compared with).
      platform: the 4-GPU platform preset.
      traces: the //traces filegroups holding both folders.
      size: the test's size.
    """
    csv = "//:docs/halo_sim/" + golden
    native.sh_test(
        name = name,
        size = size,
        srcs = ["halo_predict_x4_golden_test.sh"],
        args = [
            "$(location //sim:xferlab)",
            "$(location //tools:halo_predict_x4.sh)",
            "$(location %s)" % csv,
            two,
            four,
            platform,
        ],
        data = ["csv_close.awk", csv, "//sim:xferlab", "//tools:halo_predict_x4.sh"] + traces,
    )
