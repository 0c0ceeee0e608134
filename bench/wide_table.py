"""Rules on a wide table: a gene-expression layout, 72 samples × 1,500 genes (30,000 terms).

A newcomer's review found `RuleSetClassifier` (Compare's "Rule set (auto)") still running
after 10 minutes on such a table, 5.8 GB resident: the pricing's term conflicts were a dense
terms × terms matrix, rebuilt for every λ of every inner fold, and the exact pricing's
consistency rows dense rows of 30,000.  Each model here runs in a fresh process (peak =
its maximum resident set) on the planted table `g17 > 30 AND g404 < 25` with 3 % flipped
labels; the rule set's time limit is Compare's, 60 s.

    OMP_NUM_THREADS=1 .venv/bin/python bench/wide_table.py [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def gene_table(n: int = 72, p: int = 1500, seed: int = 7) -> tuple[pd.DataFrame, np.ndarray]:
    """Log-normal expression values; y = ``g17 > 30 AND g404 < 25`` with 3 % flipped.  (Drawn
    as 3,000 genes and cut to ``p``, as the reviewed file was.)"""
    rng = np.random.default_rng(seed)
    values = rng.lognormal(3, 1, (n, 3000)).round(2)
    y = ((values[:, 17] > 30) & (values[:, 404] < 25)) ^ (rng.random(n) < 0.03)
    X = pd.DataFrame(values[:, :p], columns=[f"g{i}" for i in range(p)])
    return X, y.astype(int)


def one(model: str) -> dict:
    from rulecore import BooleanRuleClassifier, RuleSetClassifier

    X, y = gene_table()
    est = (RuleSetClassifier(time_limit=60) if model == "rule-set"
           else BooleanRuleClassifier())
    t = time.perf_counter()
    est.fit(X, y)
    seconds = time.perf_counter() - t
    rule = est.rules_.to_text() if model == "rule-set" else str(est.rule_)
    return {"model": model, "seconds": round(seconds, 1),
            "peak_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
            "rule": " ".join(rule.split()), "planted": "g17 >" in rule and "g404 <=" in rule}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one")
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one)))
        return
    lines = ["# Rules on a wide table (72 rows × 1,500 numeric columns, 30,000 terms)", "",
             f"{date.today()} · {platform.processor() or platform.machine()}, "
             f"{len(__import__('os').sched_getaffinity(0))} cores · "
             "`OMP_NUM_THREADS=1 .venv/bin/python bench/wide_table.py`", "",
             "| model | seconds | peak GiB | planted rule | rule |", "|---|---|---|---|---|"]
    for model in ("rule-set", "single"):
        out = subprocess.run([sys.executable, __file__, "--one", model], capture_output=True,
                             text=True, check=True).stdout.strip().splitlines()[-1]
        r = json.loads(out)
        lines.append(f"| {r['model']} | {r['seconds']} | {r['peak_gib']} | "
                     f"{'yes' if r['planted'] else 'no'} | `{r['rule'][:120]}` |")
        print(lines[-1], flush=True)
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
