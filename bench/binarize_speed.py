"""Binarizer speed: 20,000 rows x 10 numeric columns at 100 thresholds (issue: foundation).

Prints a Markdown table of fit and transform times against a per-row Python loop baseline on
a 1,000-row slice (the loop is what vectorising replaced), and writes it to
bench/results/binarize_speed.md.

    .venv/bin/python bench/binarize_speed.py
"""

from __future__ import annotations

import os
import time
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from rulecore.compare import table_markdown
from rulecore.rules.terms import Binarizer


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    rng = np.random.default_rng(0)
    rows = []
    for m, n, d in [(20_000, 10, 100), (20_000, 10, 10), (100_000, 10, 100)]:
        X = pd.DataFrame(rng.normal(size=(m, n)), columns=[f"c{i}" for i in range(n)])
        b = Binarizer(n_thresholds=d).fit(X)
        t_fit = best_of(lambda X=X, d=d: Binarizer(n_thresholds=d).fit(X))
        t_tr = best_of(lambda b=b, X=X: b.transform(X))
        small = X.iloc[:1000]
        terms = b.terms_

        def loop(small=small, terms=terms):
            return [[t.evaluate(pd.Series([row[t.feature]]))[0] for t in terms]
                    for _, row in small.iterrows()]
        t_loop = best_of(loop, repeat=1) * (m / 1000)
        rows.append({"rows": m, "columns": n, "thresholds": d, "terms": len(terms),
                     "fit (s)": t_fit, "transform (s)": t_tr,
                     "per-row loop, extrapolated (s)": t_loop, "speed-up": t_loop / t_tr})
    table = pd.DataFrame(rows)
    table = table.astype({"rows": int, "columns": int, "thresholds": int, "terms": int})
    for col in ["fit (s)", "transform (s)"]:
        table[col] = table[col].map(lambda v: f"{v:.4f}")
    for col in ["per-row loop, extrapolated (s)", "speed-up"]:
        table[col] = table[col].map(lambda v: f"{v:,.0f}")
    cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text()
                .splitlines() if ln.startswith("model name")), "unknown CPU")
    text = (f"# Binarizer speed\n\nMachine: {os.cpu_count()}-core {cpu}; date {date.today()}. "
            "Command: `.venv/bin/python bench/binarize_speed.py`. Best of 5 runs; the per-row "
            "loop (one Term.evaluate per cell) is timed on 1,000 rows and scaled.\n\n"
            + table_markdown(table) + "\n")
    print(text)
    (Path(__file__).parent / "results" / "binarize_speed.md").write_text(text)


if __name__ == "__main__":
    main()
