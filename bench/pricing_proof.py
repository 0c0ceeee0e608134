"""Proving the rule set's last pricing problem (issue 22, part 3): HiGHS's MIP against the
branch and bound over clauses (``rulecore.rules.branch_and_bound``, the exact pricing
column generation runs past ``colgen.REPEATABLE_PRICING_PAIRS``).

The rule set is certified when no clause has a negative reduced cost (R) at the final
duals (``rulecore.rules.colgen``, ``docs/rulesets.md``).  This script fits
``RuleSetClassifier(random_state=0, certify=False)`` on the planted table of
``bench/scale.py``, keeps the last pricing problem the fit posed, and asks each method the
same question: is there a clause with r(S) < −1e-7?  It prints a table (method, answer,
work, seconds, bound or best value found).  The search's correctness is tested against
enumeration in ``tests/test_branch_and_bound.py``.

    OMP_NUM_THREADS=1 .venv/bin/python bench/pricing_proof.py [--rows 10000]
        [--mip-seconds 300]     (0: the search only)
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from rulecore.rules import branch_and_bound, colgen  # noqa: E402


def last_pricing(rows: int) -> colgen.Pricing:
    """The last pricing problem ``RuleSetClassifier()`` poses on the planted table (without
    the exact pricing: the beam finds nothing on it, so it is the problem the search proves)."""
    from scale import planted_table

    from rulecore import RuleSetClassifier

    seen: list = []
    real = colgen.best_clauses

    def spy(pr, **kw):
        seen.append(pr)
        return real(pr, **kw)

    colgen.best_clauses = spy
    try:
        RuleSetClassifier(random_state=0, certify=False).fit(*planted_table(rows))
    finally:
        colgen.best_clauses = real
    return seen[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--mip-seconds", type=float, default=300.0,
                    help="each MIP's time limit (0: no MIP)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    t0 = time.perf_counter()
    pr = last_pricing(args.rows)
    fit = time.perf_counter() - t0
    rows = []
    for rows_kind in (True, False) if args.mip_seconds > 0 else ():
        ex = colgen.exact_clause(pr, upper=-1e-7, time_limit=args.mip_seconds, cutoff=True,
                                 max_conditions=12, clique_rows=rows_kind)
        rows.append((f"HiGHS MIP ({'clique' if rows_kind else 'per-term'} cover rows)",
                     "proved none" if ex.status in ("optimal", "cutoff") and
                     ex.value >= -1e-7 else f"stopped: {ex.status}",
                     f"{ex.pairs:,} row-term pairs", ex.seconds,
                     f"bound {ex.bound:+.4g}, best {ex.value:+.4g}"))
    bb = branch_and_bound.search_clauses(pr, below=-1e-7, max_nodes=10**7, time_limit=3600)
    rows.append(("branch and bound over clauses (`search_clauses`)",
                 {"proved": "proved none", "found": "found one"}.get(bb.status, bb.status),
                 f"{bb.nodes:,} nodes", bb.seconds,
                 f"best {bb.value:+.4g} ({len(bb.terms)} conditions)"))
    from sparse_common import machine

    head = (f"{args.rows:,} rows of `bench/scale.py`'s common planted table; the last pricing "
            f"problem of `RuleSetClassifier(random_state=0, certify=False)` (fit in {fit:.0f} s): "
            f"{pr.BP.shape[0]:,} positives ({int((pr.mu > 0).sum()):,} with μ > 0), "
            f"{pr.BN.shape[0]:,} negatives, {pr.n_terms} terms, Σμ = {pr.mu.sum():.4g}. "
            f"{machine()}, {date.today()}.")
    table = "\n".join(["| method | answer | work | seconds | values |", "|---|---|---|---|---|"]
                      + [f"| {a} | {b} | {c} | {d:.1f} | {e} |" for a, b, c, d, e in rows])
    print(head + "\n\n" + table)
    if args.out:
        args.out.write_text(head + "\n\n" + table + "\n")


if __name__ == "__main__":
    main()
