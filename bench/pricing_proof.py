"""Proving the rule set's last pricing problem (issue 22, part 3): HiGHS's MIP against a
combinatorial branch and bound over clauses.

The rule set is certified when no clause has a negative reduced cost (R) at the final
duals (``rulecore.rules.colgen``, ``docs/rulesets.md``).  On the planted table of
``bench/scale.py`` the MIP that should prove it stops at its limit with its LP bound far
below 0.  This script fits ``RuleSetClassifier()`` on that table, keeps the last pricing
problem the fit posed, and asks both methods the same question: is there a clause with
r(S) < −ε?  It prints a table (method, answer, work, seconds, bound or best value found).

The branch and bound (research code, not used by rulecore) enumerates clauses as increasing
term sequences, depth first, and prunes a node S when no extension S ∪ T (T ≠ ∅) can get
below −ε, nor below the best clause seen.  With, at S, n_k the ν-weight of the negatives of
S that term k removes and p_k the μ-weight of the positives it removes, every extension
satisfies

    r(S ∪ T) ≥ r(S) + Σ_{k∈T} (c − n_k) + max_{k∈T} p_k            (c: cost per condition)
             ≥ r(S) + min over |T| = m of Σ_{k∈T} (c − n_k + p_k / m),         (B1)
    r(S ∪ T) ≥ min_k r(S ∪ {k}) + (sum of the |T| − 1 smallest c − n_k),        (B2)

since the negatives T removes from S are at most the sum of those each term removes, the
positives at least the most any one removes, and a term removes no more from a subset of
S's rows than from S's own.  A term whose positives weigh at most 2c + clause cost is
screened out first (no clause holding it gets below 0), as ``colgen.exact_clause`` does.
``--check`` compares its answer with every clause enumerated on small random instances.

    OMP_NUM_THREADS=1 .venv/bin/python bench/pricing_proof.py [--rows 10000] [--seconds 600]
    .venv/bin/python bench/pricing_proof.py --check
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from rulecore.rules import colgen  # noqa: E402


def branch_and_bound(pr: colgen.Pricing, *, eps: float = 1e-6, max_conditions: int = 12,
                     time_limit: float = np.inf) -> dict:
    """Is there a consistent clause with (R) < −eps?  Returns ``done`` (the tree was
    exhausted: the answer is proved), ``nodes``, ``seconds`` and the best clause seen
    (when done and below −eps, the least (R) of all)."""
    BP, BN = pr.BP, pr.BN
    mu, nu = np.asarray(pr.mu, float), np.asarray(pr.nu, float)
    cc, cd = float(pr.clause_cost), float(pr.cond_cost)
    BPf, BNf = BP.astype(np.float32), BN.astype(np.float32)
    t0 = time.perf_counter()
    st = {"nodes": 0, "best": (cc + nu.sum() - mu.sum(), ()), "done": True}

    def b1(r: float, g: np.ndarray, sg: np.ndarray, p_rm: np.ndarray, room: int) -> float:
        best = np.inf  # (sg: g sorted)
        for m in range(1, min(len(g), room) + 1):
            best = min(best, float(np.partition(g + p_rm / m, m - 1)[:m].sum()))
            # past the negative g, Σ of the m smallest g only grows, and bounds every later m
            if m < len(sg) and sg[m] >= 0 and sg[:m].sum() > best:
                break
        return r + best

    def dfs(S: tuple, iP: np.ndarray, iN: np.ndarray, cand: np.ndarray, r: float) -> None:
        st["nodes"] += 1
        if time.perf_counter() - t0 > time_limit:
            st["done"] = False
            return
        if not len(cand) or len(S) >= max_conditions:
            return
        covP = mu[iP] @ BPf[np.ix_(iP, cand)] if len(iP) else np.zeros(len(cand))
        covN = nu[iN] @ BNf[np.ix_(iN, cand)] if len(iN) else np.zeros(len(cand))
        p_rm, n_rm = mu[iP].sum() - covP, nu[iN].sum() - covN
        child = r + cd - n_rm + p_rm                     # r(S ∪ {k}), counted exactly
        i = int(np.argmin(child))
        if child[i] < st["best"][0]:
            st["best"] = (float(child[i]), S + (int(cand[i]),))
        g = cd - n_rm
        sg = np.sort(g)  # sorted once, for both bounds
        room = max_conditions - len(S)
        smallest = np.concatenate([[0.0], np.cumsum(sg)])[:room]
        # below −ε, and below the best clause seen: the search finds the minimum when it
        # is negative, and proves it is not otherwise
        target = min(st["best"][0], -eps)
        if float(child.min()) + float(smallest.min()) >= target or \
                b1(r, g, sg, p_rm, room) >= target:
            return
        for j in np.argsort(child):
            k = int(cand[j])
            if cc + cd * (len(S) + 2) - covP[j] >= min(st["best"][0], -eps):
                continue  # no extension of S ∪ {k} gets below
            later = cand[cand > k]
            if pr.conflict is not None and len(later):
                later = later[~pr.conflict.rows(np.array([k]))[0][later]]
            dfs(S + (k,), iP[BP[iP, k]], iN[BN[iN, k]], later, float(child[j]))
            if not st["done"]:
                return

    cand = np.flatnonzero(mu @ BPf > cc + 2 * cd - eps)
    if pr.allowed is not None:
        cand = cand[np.asarray(pr.allowed, bool)[cand]]
    dfs((), np.arange(len(mu)), np.arange(len(nu)), cand, st["best"][0])
    value, terms = st["best"]
    return {"done": st["done"], "nodes": st["nodes"], "value": value, "terms": terms,
            "seconds": time.perf_counter() - t0}


def last_pricing(rows: int) -> colgen.Pricing:
    """The last pricing problem ``RuleSetClassifier()`` poses on the planted table."""
    from scale import planted_table

    from rulecore import RuleSetClassifier

    seen: list = []
    real = colgen.best_clauses

    def spy(pr, **kw):
        seen.append(pr)
        return real(pr, **kw)

    colgen.best_clauses = spy
    try:
        RuleSetClassifier(random_state=0).fit(*planted_table(rows))
    finally:
        colgen.best_clauses = real
    return seen[-1]


def check(trials: int = 40, seed: int = 0) -> int:
    """Random small instances: the branch and bound's answer (the least (R) when it is
    negative, else that none is) against every consistent clause enumerated.  Returns the
    disagreements."""
    rng = np.random.default_rng(seed)
    wrong = 0
    for _ in range(trials):
        # rows that meet a hidden clause of 3 or 4 terms are mostly positive, so that the
        # least clause is often deep (independent rows put it at 1 or 2 terms, where it is
        # seen before any pruning)
        p = int(rng.integers(8, 13))
        B = rng.random((int(rng.integers(40, 90)), p)) < rng.uniform(0.5, 0.9, p)
        hidden = rng.choice(p, int(rng.integers(3, 5)), replace=False)
        pos = B[:, hidden].all(axis=1) ^ (rng.random(len(B)) < 0.1)
        cliques = [np.arange(a, min(a + 2, p)) for a in range(0, p, 5)]
        pr = colgen.Pricing(B[pos], B[~pos], rng.uniform(0.5, 1, pos.sum()),
                            rng.uniform(0.5, 1, (~pos).sum()), 0.1,
                            float(rng.choice([0.02, 0.1])),
                            colgen.clique_conflicts(cliques, p), cliques=cliques)
        best = pr.value(())
        for k in range(1, p + 1):
            for S in itertools.combinations(range(p), k):
                if not pr.conflict.rows(np.array(S))[:, list(S)].any():
                    best = min(best, pr.value(S))
        got = branch_and_bound(pr, eps=1e-9)
        # the minimum itself when it is negative; otherwise only that none is
        wrong += (abs(got["value"] - best) > 1e-9 if best < -1e-9 else got["value"] < -1e-9) \
            or not got["done"]
    return wrong


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--seconds", type=float, default=600.0, help="each method's time limit")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if args.check:
        print(f"disagreements with enumeration on 40 random instances: {check()}")
        return
    pr = last_pricing(args.rows)
    rows = []
    for rows_kind in (True, False):
        ex = colgen.exact_clause(pr, upper=-1e-7, time_limit=args.seconds, cutoff=True,
                                 max_conditions=12, clique_rows=rows_kind)
        rows.append((f"HiGHS MIP ({'clique' if rows_kind else 'per-term'} cover rows)",
                     "proved none" if ex.status in ("optimal", "cutoff") and
                     ex.value >= -1e-7 else f"stopped: {ex.status}",
                     f"{ex.pairs:,} row-term pairs", ex.seconds,
                     f"bound {ex.bound:+.4g}, best {ex.value:+.4g}"))
    bb = branch_and_bound(pr, time_limit=args.seconds)
    rows.append(("branch and bound (B1, B2)",
                 "found one" if bb["value"] < -1e-6 else "proved none" if bb["done"]
                 else "stopped at its limit", f"{bb['nodes']:,} nodes", bb["seconds"],
                 f"best {bb['value']:+.4g} ({len(bb['terms'])} conditions)"))
    from sparse_common import machine

    head = (f"{args.rows:,} rows of `bench/scale.py`'s common planted table; the last pricing "
            f"problem of `RuleSetClassifier(random_state=0)`: {pr.BP.shape[0]:,} positives, "
            f"{pr.BN.shape[0]:,} negatives, {pr.n_terms} terms, Σμ = {pr.mu.sum():.4g}. "
            f"{machine()}, {date.today()}, each method at most {args.seconds:g} s.")
    table = "\n".join(["| method | answer | work | seconds | values |", "|---|---|---|---|---|"]
                      + [f"| {a} | {b} | {c} | {d:.1f} | {e} |" for a, b, c, d, e in rows])
    print(head + "\n\n" + table)
    if args.out:
        args.out.write_text(head + "\n\n" + table + "\n")


if __name__ == "__main__":
    main()
