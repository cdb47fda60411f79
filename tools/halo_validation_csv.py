"""tools/halo_validation_csv.py — the rows of an `xferlab validate --format
csv` halo table that the diagnostic tools read (halo_bound_oracle.py,
halo_ab_noise.py): one reader, one error text."""
import csv


def read_rows(path, fail):
    """[(variant, size, set, measured_us, error_pct)] of the CSV at path. A file
    that does not open or a row without those fields calls fail(message), the
    caller's one-line error: "PATH: reason" or "PATH:LINE: needs ..."."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    out = []
    for i, r in enumerate(rows, start=2):
        try:
            out.append((r["variant"], r["size"], r["set"], float(r["measured_us"]),
                        float(r["error_pct"])))
        except (KeyError, TypeError, ValueError):
            fail(f"{path}:{i}: needs variant, size, set, measured_us, error_pct")
    return out
