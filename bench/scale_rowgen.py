"""Set covering's "no gain" stop on a sample of the rows: does row generation prove it?

Issue 22, part 3: at 1M rows set covering's second clause (the proof that no clause beats
adding none, ``docs/rulesets.md``) does not fit in memory.  Dropping rows a clause must
exclude (the AND-negatives) relaxes the clause problem, so a cutoff proved on a sample is
proved on every row.  This script fits the first clause of ``bench/scale.py``'s table, then
solves the second clause's MIP with the cutoff v₀ on the AND-positives and a sample of the
AND-negatives, adding the negatives the best clause of the sample leaves uncovered, until
the cutoff is proved, a clause below v₀ on every row is found, or the rounds run out.

    OMP_NUM_THREADS=1 .venv/bin/python bench/scale_rowgen.py --rows 100000 --start 5000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale import planted_table  # noqa: E402

from rulecore import SetCoveringRuleClassifier  # noqa: E402
from rulecore.rules.clause import problem_of, solve_problem  # noqa: E402
from rulecore.rules.problem import ClauseProblem  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--start", type=int, default=5_000, help="AND-negatives sampled first")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=30.0)
    args = ap.parse_args()
    X, y = planted_table(args.rows)
    t0 = time.perf_counter()
    first = SetCoveringRuleClassifier(max_rules=1).fit(X, y)
    B = first.binarizer_.transform(X)
    active = ~B[:, first._clause_w[0]].all(axis=1)
    d = np.ones(len(y))
    cutoff = first.lam_ * float(y[active].sum())
    pr = problem_of(B[active], y[active], lam=first.lam_, sample_weight=d[active],
                    terms=first.binarizer_)
    print(f"{args.rows:,} rows: first clause in {time.perf_counter() - t0:.1f} s; second "
          f"clause over {pr.A.shape[0]:,} distinct rows x {pr.A.shape[1]} terms, cutoff "
          f"v0 = {cutoff:g}")
    print("| round | rows in the MIP | status | bound | its clause on every row | seconds |")
    print("|---|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    must = np.flatnonzero(pr.y == 1)      # OR-positives: the AND-negatives a clause excludes
    inset = np.zeros(len(pr.y), dtype=bool)
    inset[rng.choice(must, size=min(args.start, len(must)), replace=False)] = True
    t0 = time.perf_counter()
    for k in range(args.rounds):
        rows = np.flatnonzero(inset | (pr.y == 0))
        sub = ClauseProblem(pr.A[rows], pr.y[rows], pr.d[rows], pr.lam, pr.rule_type,
                            pr.cliques, pr.covers, pr.feature_of, pr.n_input_rows)
        t = time.perf_counter()
        res = solve_problem(sub, cutoff=cutoff, time_limit=args.time_limit)
        full = pr.objective(res.w, "hamming")
        print(f"| {k + 1} | {len(rows):,} | {res.status} | {res.bound:.0f} | {full:.0f} | "
              f"{time.perf_counter() - t:.1f} |", flush=True)
        if res.status == "cutoff":
            print(f"\nproved: no clause beats adding none ({time.perf_counter() - t0:.1f} s)")
            return
        if full < cutoff:
            print("\na clause below v0 on every row: the set goes on")
            return
        left = must[~inset[must]]
        left = left[~pr.A[left][:, res.w].any(axis=1)] if res.w.any() else left
        inset[rng.choice(left, size=min(args.start, len(left)), replace=False)] = True
    print(f"\nnot proved in {args.rounds} rounds ({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
