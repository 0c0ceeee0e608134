"""Rule fits with and without the small-clause search, back to back in one process.

``bcs.small_clause_search`` proves the optimum by trying, cheapest first, every clause of a
few conditions that could beat the incumbent, up to the size no clause can reach (every
condition costs at least 1); the MIP is then skipped.  This script fits the same rules both
ways (the search switched off by a zero budget) and checks that the objective is the same:

- the app's: a whole ``BooleanRuleClassifier`` fit (enhanced screening, then the solve) on the
  Rule page's default train split of the bundled samples, over the λ and thresholds a user
  reaches with the sliders, small λ first (there screening removes little and the MIP is
  hardest);
- large λ and the screening paper's full MIP (MAGIC, 100 thresholds, λ = 1000), where the
  search declines: what it costs when it does not help.

    .venv/bin/python bench/small_search.py --out bench/results/small_search.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
from bcs_table1 import emit  # noqa: E402

import rulecore.rules.solvers as bcs  # noqa: E402
from rulecore.data import train_test_indices  # noqa: E402
from rulecore.rules.estimators import BooleanRuleClassifier  # noqa: E402
from rulecore.rules.solvers import solve_clause  # noqa: E402
from rulecore.samples import load_sample  # noqa: E402

APP = ([("machine failure", nt, lam) for lam in (0.01, 0.02, 0.05) for nt in range(2, 21, 2)]
       + [("salesforce attrition", nt, lam) for lam in (0.01, 0.02) for nt in (5, 10, 20)]
       + [("breast cancer", nt, lam) for lam in (0.01, 0.05) for nt in (10, 20)]
       + [("machine failure", 40, 1.0), ("machine failure", 100, 5.0), ("digits", 10, 1.0),
          ("wine", 30, 0.1)])


BUDGET = bcs.SMALL_SEARCH_BUDGET


def search(on: bool) -> None:
    bcs.SMALL_SEARCH_BUDGET = BUDGET if on else 0.0


def timed(fn, *args, **kw):
    t = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t


def app_rows() -> list:
    rows = []
    for name, nt, lam in APP:
        ds = load_sample(name)
        train, _ = train_test_indices(ds.y_binary, 0.25, 0)  # the Rule page's default split
        X, y = ds.X.iloc[train], ds.y_binary[train]
        res = {}
        for on in (False, True):
            search(on)
            est = BooleanRuleClassifier(lam=lam, n_thresholds=nt, screening="enhanced",
                                        kinds=ds.kinds, time_limit=120)
            _, t = timed(est.fit, X, y)
            res[on] = (t, est.objective_, est.lp_status_, est.solve_method_)
        rows.append((name, nt, lam, res))
        print(name, nt, lam, res, flush=True)
    return rows


def paper_row() -> tuple | None:
    try:
        from screening_tables import problem
        A, y = problem("magic", 100)[:2]
    except Exception as exc:  # the data sets are optional (../shared/datasets)
        print(f"MAGIC skipped: {exc}", flush=True)
        return None
    res = {}
    for on in (False, True):
        search(on)
        sol, t = timed(solve_clause, A, y, 1000.0, solver="mip", time_limit=300)
        res[on] = (t, sol.objective, sol.result.status, sol.method)
    print("magic", res, flush=True)
    return ("MAGIC, full MIP (paper)", 100, 1000.0, res)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--no-paper", action="store_true", help="skip MAGIC (../shared/datasets)")
    args = ap.parse_args()
    rows = app_rows()
    if not args.no_paper and (row := paper_row()) is not None:
        rows.append(row)
    search(True)
    lines = [
        "# Small-clause search before the rule MIP",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores; "
        f"date {dt.date.today()}.",
        "",
        "Command: `.venv/bin/python bench/small_search.py --out bench/results/small_search.md`",
        "",
        "Whole fits (enhanced screening, then the solve) on the Rule page's default train "
        "split; *off* is HiGHS alone (`SMALL_SEARCH_BUDGET = 0`), *on* the default. *method* "
        "says which one produced the rule with the search on.",
        "",
        "| data | thresholds | λ | off (s) | on (s) | on / off | method | objective (same?) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for what, nt, lam, res in rows:
        (t_off, o_off, s_off, _), (t_on, o_on, s_on, m_on) = res[False], res[True]
        same = "yes" if np.isclose(o_on, o_off, rtol=1e-9, atol=1e-9) and s_on == s_off \
            else f"**no**: {o_on:g} ({s_on}) vs {o_off:g} ({s_off})"
        lines.append(f"| {what} | {nt} | {lam:g} | {t_off:.2f} | {t_on:.2f} | "
                     f"{t_on / t_off:.2f} | {m_on} | {o_on:g} ({same}) |")
    app = [r for r in rows if r[0] != "MAGIC, full MIP (paper)"]
    small = [r for r in app if r[2] <= 0.02]
    for label, sel in (("all app fits", app), ("app fits at λ ≤ 0.02", small)):
        off = sum(r[3][False][0] for r in sel)
        on = sum(r[3][True][0] for r in sel)
        worst_off = max(r[3][False][0] for r in sel)
        worst_on = max(r[3][True][0] for r in sel)
        lines.append(f"\n{label} ({len(sel)}): total off {off:.1f} s, on {on:.1f} s "
                     f"({on / off:.2f}); slowest fit off {worst_off:.2f} s, on {worst_on:.2f} s.")
    proved = sum(r[3][True][3] == "enumeration" for r in app)
    lines.append(f"\nProved by the search alone: {proved} of {len(app)} app fits.")
    emit(lines, args.out)


if __name__ == "__main__":
    main()
