"""A candidate default measured before making it: thresholds cut at the quantiles of a rare
positive class's own values, beside the 10 quantile thresholds of all rows.

With 0.3 % positives the quantile thresholds of all rows put no cut above 274 where the
positives were above 700 (a review's fraud table: test precision 15 %; 40 thresholds gave
68 %).  The variant adds, on the training rows only, 10 cuts at the quantiles of the
positive rows' values of each numeric column when positives are under 10 % of the rows.
Measured on ``bench/rare_positives.py``'s problems (its data, 5 stratified folds, pooled
held-out predictions), single AND-rule with the app's defaults (class weight √, λ = 1,
10 thresholds, exact MIP, 10 s per solve)::

    env OMP_NUM_THREADS=1 .venv/bin/python bench/rare_class_cuts.py \\
        --sets magic,pima,transfusion,biodeg,banknote,bands,synthetic,samples \\
        --out bench/results/rare_class_cuts.md
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import warnings
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
import rare_positives as rp  # noqa: E402

import rulecore.rules.terms as T  # noqa: E402
from rulecore.cli import markdown_table  # noqa: E402
from rulecore.rules.estimators import BooleanRuleClassifier  # noqa: E402

QUANTILE_CUTS = T.candidate_thresholds
TRAINING_Y: dict[str, np.ndarray | None] = {"y": None}  # the fit's labels, for the variant


def with_rare_class_cuts(values: np.ndarray, n: int | None, weights=None) -> np.ndarray:
    """The quantile thresholds, plus ``n`` cuts at the quantiles of the positive rows'
    values when positives are under 10 % of the (training) rows."""
    base = QUANTILE_CUTS(values, n, weights)
    y = TRAINING_Y["y"]
    if n is None or y is None or len(values) != len(y) or y.mean() >= 0.1:
        return base
    finite = np.isfinite(values)
    u = np.unique(values[finite])
    positives = values[(y == 1) & finite]
    if len(u) < 2 or len(np.unique(positives)) < 2:
        return base
    q = np.quantile(positives, np.arange(1, n + 1) / (n + 1), method="lower")
    lows = np.unique(np.clip(np.searchsorted(u, q), 0, len(u) - 2))
    return np.unique(np.r_[base, [T._short_between(u[i], u[i + 1]) for i in lows]])


def run(prob: dict, variant: str) -> dict:
    X, y = prob["X"], prob["y"]
    folds = StratifiedKFold(5, shuffle=True, random_state=0).split(X, y)
    T.candidate_thresholds = QUANTILE_CUTS if variant == "quantile" else with_rare_class_cuts
    pred, t0 = np.zeros(len(y), int), time.perf_counter()
    try:
        for tr, te in folds:
            TRAINING_Y["y"] = y[tr]
            m = BooleanRuleClassifier(time_limit=10).fit(X.iloc[tr], y[tr])
            pred[te] = m.predict(X.iloc[te])
    finally:
        T.candidate_thresholds, TRAINING_Y["y"] = QUANTILE_CUTS, None
    tp, fp = int(((pred == 1) & (y == 1)).sum()), int(((pred == 1) & (y == 0)).sum())
    recall, specificity = tp / max(int(y.sum()), 1), 1 - fp / max(int((y == 0).sum()), 1)
    return {"set": prob["name"], "rate": prob["rate"], "variant": variant,
            "balanced accuracy": round((recall + specificity) / 2, 3),
            "precision": round(tp / max(tp + fp, 1), 3),
            "accuracy": round(float(np.mean(pred == y)), 3),
            "seconds": round(time.perf_counter() - t0, 1)}


def main() -> None:
    warnings.simplefilter("ignore")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", help="comma-separated rare_positives problems (default all)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    rows = []
    for prob in rp.problems(args.sets.split(",") if args.sets else None, 1000):
        for variant in ("quantile", "with rare-class cuts"):
            rows.append(run(prob, variant))
            print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    wide = df.pivot_table(index=["set", "rate"], columns="variant",
                          values=["balanced accuracy", "precision"]).round(3)
    wide.columns = [f"{m}, {v}" for m, v in wide.columns]
    mean = df.groupby("variant")[["balanced accuracy", "precision", "accuracy",
                                   "seconds"]].mean().round(3).reset_index()
    text = "\n".join([
        "# Rare-class cuts: a candidate default, measured",
        "",
        f"{date.today()} · {platform.processor() or platform.machine()}, 2 cores · "
        f"`env OMP_NUM_THREADS=1 .venv/bin/python bench/rare_class_cuts.py --sets "
        f"{args.sets} --out {args.out}`",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        "## Mean over the problems",
        "",
        markdown_table(mean),
        "",
        "## Per problem (pooled held-out predictions of 5 folds)",
        "",
        markdown_table(wide.reset_index()),
        ""])
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
