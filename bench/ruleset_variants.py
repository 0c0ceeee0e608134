"""RuleSetClassifier variants on the protocol of ``bench/rulesets_vs_anchors.py``, to see
whether a change of default would help before making it.

One variant per run: keyword arguments of :class:`~rulecore.RuleSetClassifier` as JSON, and
optionally another κ grid (``--kappas``), repeated inner folds (``--repeats``) or other outer
folds (``--seed``: ``StratifiedKFold(k, shuffle=True, random_state=seed)``; 0 is the
protocol's own).  Folds run two at a time (joblib, one process per core).  Prints mean test
error, conditions and seconds per set, and for the binary sets their mean.

    env OMP_NUM_THREADS=1 .venv/bin/python bench/ruleset_variants.py '{"n_thresholds": 20}' \\
        --sets wine,vehicle,segment --seed 1

Results: ``bench/results/ruleset_variants.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
import anchors  # noqa: E402

MULTI = ("wine", "vehicle", "segment")


def one(s, X, y, tr, te, kw, kappas, repeats):
    warnings.simplefilter("ignore")
    import rulecore.rules.ruleset as rs
    from rulecore.settings import lam_grid

    if kappas:
        rs.lam_grid = lambda total, **kw: lam_grid(total, tuple(kappas), **kw)
    kw = dict(kw)
    if repeats > 1:
        from sklearn.model_selection import RepeatedStratifiedKFold

        kw["cv"] = RepeatedStratifiedKFold(n_splits=3, n_repeats=repeats, random_state=0)
    t0 = time.perf_counter()
    m = rs.RuleSetClassifier(**kw).fit(X.iloc[tr], y[tr])
    err = float(np.mean(m.predict(X.iloc[te]) != y[te]))
    return s, err, m.n_conditions_, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("params", nargs="?", default="{}", help="RuleSetClassifier kwargs (JSON)")
    ap.add_argument("--sets", help="comma-separated; default all 11 sets")
    ap.add_argument("--kappas", help="comma-separated κ grid instead of settings.KAPPAS")
    ap.add_argument("--repeats", type=int, default=1, help="repeats of the 3 inner folds")
    ap.add_argument("--seed", type=int, default=0, help="seed of the outer folds")
    ap.add_argument("--n-jobs", type=int, default=2)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    kw = json.loads(args.params)
    kappas = [float(v) for v in args.kappas.split(",")] if args.kappas else None
    tasks = []
    for s, kind, X, y, folds, _ in anchors._tasks(args.sets.split(",") if args.sets else None,
                                                  []):
        if args.seed:
            from sklearn.model_selection import StratifiedKFold

            k = 10 if kind == "binary" else 5
            folds = list(StratifiedKFold(k, shuffle=True, random_state=args.seed).split(X, y))
        tasks += [(s, X, y, tr, te) for tr, te in folds]
    t0 = time.perf_counter()
    res = Parallel(n_jobs=args.n_jobs)(delayed(one)(s, X, y, tr, te, kw, kappas, args.repeats)
                                       for s, X, y, tr, te in tasks)
    df = pd.DataFrame(res, columns=["set", "error", "conditions", "seconds"])
    per = df.groupby("set", sort=False).agg(error=("error", "mean"),
                                            conditions=("conditions", "mean"),
                                            seconds=("seconds", "sum"))
    print(f"variant {kw} kappas={kappas} repeats={args.repeats} outer seed={args.seed}")
    print(per.round(3).T.to_string())
    binary = [s for s in per.index if s not in MULTI]
    if binary:
        print(f"binary: mean error {per.loc[binary, 'error'].mean():.4f}, conditions "
              f"{per.loc[binary, 'conditions'].mean():.2f}, {per.loc[binary, 'seconds'].sum():.0f} "
              "s of fits")
    print(f"wall {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
