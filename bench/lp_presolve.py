"""Screening LPs (the lp-dual step) with and without HiGHS presolve, back to back in one process.

The same instances as ``mip_presolve.py``:

- the app's: a whole ``BooleanRuleClassifier`` fit (enhanced screening, then the search or
  the MIP) on the Rule page's default train split, at settings a user reaches with the sliders;
- the screening paper's: enhanced screening alone, λ = 1000, on banknote, ionosphere and MAGIC
  (``../shared/datasets``), as in ``screening_tables.py``.

Only the screening LPs change (``rulecore.rules.screening.LP_PRESOLVE``).  The LP's optimal value
(the lower bound) and the rule's objective must be the same both ways.  Which columns go may
differ a little: the LPs are degenerate, and each way may return another optimal dual.

    .venv/bin/python bench/lp_presolve.py --out bench/results/lp_presolve.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
from bcs_table1 import emit, machine  # noqa: E402
from mip_presolve import APP, PAPER, timed  # noqa: E402
from screening_tables import problem  # noqa: E402

import rulecore.rules.screening  # noqa: E402
from rulecore.data import train_test_indices  # noqa: E402
from rulecore.rules.estimators import BooleanRuleClassifier  # noqa: E402
from rulecore.rules.screening import screen  # noqa: E402
from rulecore.samples import load_sample  # noqa: E402


def lp_seconds(report) -> float:
    return sum(s.seconds for s in report.steps if s.test == "lp-dual")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--no-paper", action="store_true", help="skip the paper's data sets")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs each way")
    args = ap.parse_args()
    rows = []  # (what, thresholds, λ, {flag: (seconds, lp-dual seconds, kept, lb, objective)})
    for name, nt, lam in APP:
        ds = load_sample(name)
        train, _ = train_test_indices(ds.y_binary, 0.25, 0)  # the Rule page's default split
        res = {}
        for flag in (True, False):
            rulecore.rules.screening.LP_PRESOLVE = flag
            runs = []
            for _ in range(args.repeat):
                est = BooleanRuleClassifier(lam=lam, n_thresholds=nt, screening="enhanced",
                                            time_limit=120, kinds=ds.kinds)
                m, s = timed(est.fit, ds.X.iloc[train], ds.y_binary[train])
                rep = m.screening_report_
                runs.append((s, lp_seconds(rep), rep.n_kept, rep.lower_bound, m.objective_))
            res[flag] = min(runs)
        rows.append((f"app: {name} (whole fit)", nt, lam, res))
        print(rows[-1], flush=True)
    for name, D in ([] if args.no_paper else PAPER):
        A, y, fo, _ = problem(name, D)
        res = {}
        for flag in (True, False):
            rulecore.rules.screening.LP_PRESOLVE = flag
            rep, s = timed(screen, A, y, 1000.0, level="enhanced", feature_of=fo,
                           diagnostics=False)
            res[flag] = (s, lp_seconds(rep), rep.n_kept, rep.lower_bound, rep.upper_bound)
        rows.append((f"paper: {name} (screening)", D, 1000.0, res))
        print(rows[-1], flush=True)
    rulecore.rules.screening.LP_PRESOLVE = False
    lines = ["# Screening LPs: HiGHS presolve on vs off", "",
             f"Machine: {machine()}. Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC. "
             f"Command: `.venv/bin/python bench/lp_presolve.py`. HiGHS, 1 thread; app rows are "
             f"the best of {args.repeat} fits each way.", "",
             "App rows time the whole fit, paper rows the screening alone; *LP step* is the "
             "lp-dual step inside it.  *Bound* is the LP's lower bound (the same both ways); "
             "*result* is the rule's objective for app rows and the screening's upper bound "
             "for paper rows.", "",
             "| instance | thresholds | λ | on (s) | off (s) | off / on | LP step on / off (s) "
             "| columns kept on / off | bound (same both ways) | result (same both ways) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for what, nt, lam, res in rows:
        (t1, l1, k1, b1, o1), (t0, l0, k0, b0, o0) = res[True], res[False]
        bound = "yes" if np.isclose(b1, b0) else f"**no**: {b1:g} vs {b0:g}"
        result = "yes" if np.isclose(o1, o0) else f"**no**: {o1:g} vs {o0:g}"
        lines.append(f"| {what} | {nt} | {lam:g} | {t1:.3f} | {t0:.3f} | {t0 / t1:.2f} | "
                     f"{l1:.3f} / {l0:.3f} | {k1:,} / {k0:,} | {b1:.6g} ({bound}) | "
                     f"{o1:.6g} ({result}) |")
    for kind in ("app", "paper"):
        on = sum(r[3][True][0] for r in rows if r[0].startswith(kind))
        off = sum(r[3][False][0] for r in rows if r[0].startswith(kind))
        if on:
            lines += ["", f"Total, {kind} rows: on {on:.2f} s, off {off:.2f} s ({off / on:.2f})."]
    emit(lines, args.out)


if __name__ == "__main__":
    main()
