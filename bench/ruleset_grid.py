"""Where RuleSetClassifier's binary error is lost: λ's choice, or the fits themselves?

For every outer fold of the protocol's 8 binary sets (``bench/rulesets_vs_anchors.py``'s folds),
fit ``RuleSetClassifier()`` (λ and the class described chosen by inner 3-fold CV) and, beside
it, ``RuleSetClassifier(lam=λ, describe=c)`` at each of the 8 points of its grid (4 values of
λ from ``lam_grid`` × the two classes), each fitted on the whole training fold with no inner
CV.  Printed per set: the test error of the CV's choice, of each fixed grid point over the 10
folds, and of the per-fold best point (an oracle that looks at the test fold: a floor no
selection rule can reach, not a result).

If a fixed point beat the CV's choice by much, the choice would be where error is lost; if
none does, the fits at every point are, and a better λ rule cannot reach a lower error.

    RULECORE_DATASETS=../shared/datasets OMP_NUM_THREADS=1 taskset -c 0 .venv/bin/python \\
        bench/ruleset_grid.py --sets ilpd,ionosphere,bupa,parkinsons --json /tmp/g1.json
    ... --sets pima,sonar,transfusion,wdbc --json /tmp/g2.json     (the other core)
    .venv/bin/python bench/ruleset_grid.py --report /tmp/g1.json /tmp/g2.json \\
        --out bench/results/ruleset_grid.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
import anchors  # noqa: E402
from bcs_table1 import machine  # noqa: E402
from rulesets_vs_anchors import md  # noqa: E402

from rulecore import RuleSetClassifier  # noqa: E402
from rulecore.settings import KAPPAS, lam_grid  # noqa: E402


def run(sets: list[str] | None, out: Path, n_folds: int | None = None) -> list[dict]:
    """Fit the CV's choice and every grid point on each outer fold; rows saved as they come."""
    rows: list[dict] = []
    for s, kind, X, y, folds, _ in anchors._tasks(sets, []):
        if kind != "binary":
            continue
        for k, (tr, te) in enumerate(folds[:n_folds]):
            t0 = time.perf_counter()
            m = RuleSetClassifier().fit(X.iloc[tr], y[tr])
            row = dict(set=s, fold=k, point="CV's choice",
                       error=float(np.mean(m.predict(X.iloc[te]) != y[te])),
                       conditions=int(m.n_conditions_))
            rows.append(row)
            # class weights None: lam_grid's W is the training rows' count, as in the fit
            for describe in ("positive", "negative"):
                for kappa, lam in zip(sorted(KAPPAS, reverse=True), lam_grid(len(tr))):
                    f = RuleSetClassifier(lam=float(lam), describe=describe).fit(X.iloc[tr], y[tr])
                    rows.append(dict(set=s, fold=k, point=f"{describe}, κ={kappa}",
                                     error=float(np.mean(f.predict(X.iloc[te]) != y[te])),
                                     conditions=int(f.n_conditions_)))
            print(f"{s:<12} fold {k}: CV's choice {row['error']:.3f}, best point "
                  f"{min(r['error'] for r in rows[-8:]):.3f} "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)
            out.write_text(json.dumps(rows, indent=1))
    return rows


def report(rows: list[dict]) -> str:
    df = pd.DataFrame(rows)
    grid = df[df.point != "CV's choice"]
    oracle = grid.groupby(["set", "fold"]).error.min().groupby("set").mean()
    err = df.pivot_table(index="set", columns="point", values="error", aggfunc="mean")
    err["per-fold best point (oracle)"] = oracle
    cols = ["CV's choice"] + sorted(c for c in err.columns if "κ" in c) + \
        ["per-fold best point (oracle)"]
    err = err[cols]
    err.loc["**mean**"] = err.mean()
    cond = df.pivot_table(index="set", columns="point", values="conditions", aggfunc="mean")
    cond = cond[cols[:-1]]
    cond.loc["**mean**"] = cond.mean()
    best_fixed = err.loc["**mean**", cols[1:-1]].astype(float)
    lines = [
        "# The rule set's λ grid, point by point, against the CV's choice",
        "",
        f"{date.today().isoformat()} · {machine()} · `bench/ruleset_grid.py` (module "
        "docstring for the commands). The protocol's 8 binary sets and outer folds; every "
        "column but the first is `RuleSetClassifier(lam=λ, describe=class)` at one point of "
        "the grid, fitted without inner CV; the last column takes each fold's best point by its "
        "test error, which no selection rule can do.",
        "",
        "Mean test error:",
        "",
        md(err),
        "",
        "Mean conditions:",
        "",
        md(cond, ".1f"),
        "",
        f"- The CV's choice: {err.loc['**mean**', cols[0]]:.4f}. The best fixed point: "
        f"{best_fixed.min():.4f} ({best_fixed.idxmin()}); the worst "
        f"{best_fixed.max():.4f}.",
        f"- The oracle, {err.loc['**mean**', cols[-1]]:.4f}, measures how much the test "
        "error moves from one grid point to the next on one fold (21 to 75 test rows), not "
        "an error any rule could reach.",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", help="comma-separated binary sets (default: all 8)")
    ap.add_argument("--json", type=Path, default=Path("/tmp/ruleset_grid.json"))
    ap.add_argument("--report", type=Path, nargs="*",
                    help="only write the report from these JSON files of earlier runs")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--folds", type=int, help="only the first N folds (smoke test)")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    if args.report:
        rows = [r for p in args.report for r in json.loads(p.read_text())]
    else:
        sets = [x for x in (args.sets or "").split(",") if x] or None
        unknown = sorted(set(sets or []) - set(anchors.BINARY_SETS))
        if unknown:
            ap.error(f"unknown sets {unknown}; the binary sets: {', '.join(anchors.BINARY_SETS)}")
        rows = run(sets, args.json, args.folds)
    text = report(rows)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
