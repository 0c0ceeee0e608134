"""Sensitivity of 1Rule's ten-fold error to λ (companion to ``bcs_table1.py``).

The paper fixes λ = 1000 with unit sample weights.  This sweeps λ for the single AND-rule
(exact MIP, certified screening) on the same stratified folds as ``bcs_table1.py``, for both
classes as the positive one, to see whether a gap to the paper's Table 1 comes from λ.

Run: ``.venv/bin/python bench/bcs_lambda.py [--sets ...] [--lams ...]``.
Writes ``bench/results/bcs_lambda.md``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
import datasets  # noqa: E402
from bcs_table1 import NAMES, PAPER_ERR, SETS, load_avg, machine, md_table  # noqa: E402

from rulecore.rules.estimators import BooleanRuleClassifier  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="+", default=["ionosphere", "bupa", "sonar", "parkinsons"])
    ap.add_argument("--lams", nargs="+", type=float, default=[1, 3, 10, 30, 100, 1000])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "bcs_lambda.md"))
    args = ap.parse_args()
    load0 = load_avg()
    t0 = time.perf_counter()
    rows = []
    for name in args.sets:
        X, yraw = datasets.load(name)
        yraw = yraw.astype(str)
        folds = list(StratifiedKFold(10, shuffle=True, random_state=args.seed).split(X, yraw))
        for pos in SETS[name]:
            y = (yraw == pos).astype(int)
            for lam in args.lams:
                errs, conds, secs = [], [], []
                for tr, te in folds:
                    t1 = time.perf_counter()
                    clf = BooleanRuleClassifier(lam=lam, n_thresholds=10, solver="mip",
                                                time_limit=args.time_limit,
                                                screening="enhanced").fit(X.iloc[tr], y[tr])
                    secs.append(time.perf_counter() - t1)
                    errs.append(np.mean(clf.predict(X.iloc[te]) != y[te]))
                    conds.append(len(clf.rule_))
                rows.append({"set": NAMES[name], "pos": pos, "λ": f"{lam:g}",
                             "error": f"{np.mean(errs):.4f}", "conditions": f"{np.mean(conds):.1f}",
                             "paper 1Rule (λ=1000)": f"{PAPER_ERR[name][0]:.4f}",
                             "s / fold": f"{np.mean(secs):.2f}"})
                print(rows[-1], flush=True)
    wall = time.perf_counter() - t0
    head = ["# 1Rule error against λ", "",
            f"Machine: {machine()}. Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC. "
            f"Command: `.venv/bin/python bench/bcs_lambda.py {' '.join(sys.argv[1:])}`. "
            f"Wall {wall / 60:.1f} min. Load average start / end: {load0} / {load_avg()} (other "
            "jobs shared the 2 cores).", "",
            "Single AND-rule, exact MIP with certified screening, 10 quantile thresholds, the "
            f"stratified 10-fold split of `bcs_table1.py` (seed {args.seed}); unit sample "
            "weights, so λ is the price of one error in conditions.", "", ""]
    Path(args.out).write_text("\n".join(head) + md_table(pd.DataFrame(rows)) + "\n")


if __name__ == "__main__":
    main()
