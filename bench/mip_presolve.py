"""Rule MIP with and without HiGHS presolve, back to back in one process.

Two kinds of instance:

- the app's: a whole ``BooleanRuleClassifier`` fit (enhanced screening, then the MIP) on the
  Rule page's default train split of the bundled samples, at settings a user reaches with the
  sliders, including the smallest λ, where screening removes nothing and the MIP is hardest;
- the screening paper's: the full MIP (no screening), λ = 1000, on banknote, ionosphere and
  MAGIC (``../shared/datasets``), as in ``screening_tables.py``.

Only the MIPs change (screening LPs keep presolve).  The objective must be the same both ways.

    .venv/bin/python bench/mip_presolve.py --out bench/results/mip_presolve.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
from bcs_table1 import emit, machine  # noqa: E402
from screening_tables import problem  # noqa: E402

import rulecore.highs  # noqa: E402
from rulecore.data import train_test_indices  # noqa: E402
from rulecore.rules.estimators import BooleanRuleClassifier  # noqa: E402
from rulecore.rules.solvers import solve_clause  # noqa: E402
from rulecore.samples import load_sample  # noqa: E402

APP = [("machine failure", 4, 0.01), ("machine failure", 6, 0.01), ("machine failure", 12, 0.02),
       ("machine failure", 19, 0.02), ("machine failure", 40, 1.0), ("machine failure", 100, 5.0),
       ("breast cancer", 20, 0.05), ("breast cancer", 50, 1.0),
       ("salesforce attrition", 10, 0.02), ("salesforce attrition", 30, 1.0),
       ("wine", 30, 0.1), ("digits", 10, 1.0)]
PAPER = [("banknote", 100), ("ionosphere", 100), ("magic", 10), ("magic", 20), ("magic", 50),
         ("magic", 100)]

_solve = rulecore.highs.solve


def mip_presolve(flag: bool) -> None:
    """Make every MIP solve run with (True) or without (False) presolve."""
    def solve(*args, **kw):
        if kw.get("integer") is not None or len(args) > 6:
            kw["presolve"] = flag
        return _solve(*args, **kw)
    rulecore.highs.solve = solve


def timed(fn, *args, **kw):
    t = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--no-paper", action="store_true", help="skip the paper's data sets")
    args = ap.parse_args()
    rows = []
    for name, nt, lam in APP:
        ds = load_sample(name)
        train, _ = train_test_indices(ds.y_binary, 0.25, 0)  # the Rule page's default split
        res = {}
        for flag in (True, False):
            mip_presolve(flag)
            est = BooleanRuleClassifier(lam=lam, n_thresholds=nt, screening="enhanced",
                                        time_limit=120, kinds=ds.kinds)
            m, s = timed(est.fit, ds.X.iloc[train], ds.y_binary[train])
            res[flag] = (s, m.objective_, m.lp_status_)
        rows.append((f"app: {name}", nt, lam, res))
        print(rows[-1], flush=True)
    for name, D in ([] if args.no_paper else PAPER):
        A, y, _, _ = problem(name, D)
        res = {}
        for flag in (True, False):
            mip_presolve(flag)
            sol, s = timed(solve_clause, A, y, 1000.0, solver="mip", time_limit=300)
            res[flag] = (s, sol.objective, sol.result.status)
        rows.append((f"paper: {name} (full MIP)", D, 1000.0, res))
        print(rows[-1], flush=True)
    mip_presolve(True)
    lines = ["# Rule MIP: HiGHS presolve on vs off", "",
             f"Machine: {machine()}. Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC. "
             "Command: `.venv/bin/python bench/mip_presolve.py`. HiGHS, 1 thread.", "",
             "| instance | thresholds | λ | presolve on (s) | off (s) | off / on | objective "
             "(same both ways) | status |", "|---|---|---|---|---|---|---|---|"]
    for what, nt, lam, res in rows:
        (t_on, o_on, s_on), (t_off, o_off, s_off) = res[True], res[False]
        same = "yes" if np.isclose(o_on, o_off) else f"**no**: {o_on:g} vs {o_off:g}"
        lines.append(f"| {what} | {nt} | {lam:g} | {t_on:.2f} | {t_off:.2f} | "
                     f"{t_off / t_on:.2f} | {o_on:g} ({same}) | {s_on} / {s_off} |")
    on = sum(r[3][True][0] for r in rows)
    off = sum(r[3][False][0] for r in rows)
    lines += ["", f"Total: on {on:.1f} s, off {off:.1f} s ({off / on:.2f})."]
    emit(lines, args.out)


if __name__ == "__main__":
    main()
