"""How long loading takes on a large table of mixed columns, as analysts' exports have them.

A generated table (seed 0) of identifiers, e-mails, a few categories, free text, amounts with
a currency sign, weights with their unit, counts, dates, scores, multi-select answers and a
yes/no target is written to a temporary CSV and loaded with :func:`rulecore.data.load_csv`
(the defaults: every reading of docs/data.md is tried on every column), ``--repeats`` times;
the table prints the rows, the median and best seconds and the seconds per 100,000 rows.
Run one tree against another by ``PYTHONPATH``:

    OMP_NUM_THREADS=1 taskset -c 1 .venv/bin/python bench/load_mixed.py --rows 300000
    PYTHONPATH=/path/to/other/tree OMP_NUM_THREADS=1 taskset -c 1 \\
        .venv/bin/python bench/load_mixed.py --rows 300000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd


def table(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame({
        "customer_id": [f"C{k:07d}" for k in rng.integers(0, 10**7, n)],
        "email": [f"user{k}@example.com" for k in range(n)],
        "city": rng.choice(["Paris", "London", "Berlin", "Madrid", "Rome", "Oslo"], n),
        "plan": rng.choice(["basic", "pro", "team"], n),
        "note": rng.choice(["called support", "asked refund", "no issue",
                            "late payment, called twice", "upgrade request"], n),
        "spend": [f"${v:,.2f}" for v in rng.uniform(0, 5000, n)],
        "weight": [f"{v:.1f} kg" for v in rng.uniform(1, 90, n)],
        "visits": rng.integers(0, 40, n),
        "signup": pd.to_datetime("2020-01-01") + pd.to_timedelta(rng.integers(0, 1500, n), "D"),
        "score": rng.normal(0, 1, n).round(3),
        "tags": [";".join(rng.choice(["a", "b", "c", "d"], k, replace=False))
                 for k in rng.integers(1, 3, n)],
        "churned": rng.choice(["yes", "no"], n)})


def main() -> None:
    from rulecore.data import load_csv

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=300_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mixed.csv"
        table(args.rows).to_csv(path, index=False)
        seconds = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            ds = load_csv(path)
            seconds.append(time.perf_counter() - start)
    med = statistics.median(seconds)
    print("| rows | columns | median s | best s | s per 100,000 rows |")
    print("|---|---|---|---|---|")
    print(f"| {args.rows:,} | {ds.X.shape[1]} | {med:.2f} | {min(seconds):.2f} | "
          f"{100_000 * med / args.rows:.2f} |")


if __name__ == "__main__":
    main()
