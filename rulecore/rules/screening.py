"""Certified screening of the rule LP's columns (docs/screening.md; Dash, Malioutov &
Varshney 2014).

Everything here acts on the OR problem of :mod:`rulecore.rules.problem` (complemented for AND
rules), in the scale of the screening paper's eq. (4): the objective divided by λ,

    min  Σ_j c_j w_j + Σ_{i∈P} d_i ξ_i   s.t.  A_P w + ξ ≥ 1,  w, ξ ≥ 0,
    c_j = 1/λ + Σ_{i∈Z} d_i a_ij   (the column's cost),   p_j = Σ_{i∈P} d_i a_ij.

A *certified* test removes column j only with a proof that j is in **no** optimal 0/1
solution (or, for the count test, that every solution can drop j without getting worse), so the
0/1 optimum of the reduced problem equals the full one.  The tests run in sequence; each sees
the survivors of the last, which is sound because each reduction keeps the optimum.

Tests, each with its proof beside the code:

``count``      c_j ≥ p_j (the paper's ‖a_Z‖₀ ≥ ‖a_P‖₀, with 1/λ kept: stronger).
``dominance``  supp(a_P^j) ⊆ supp(a_P^{j'}) and c_{j'} ≤ c_j (docs/screening.md's safe rule).
``duality``    LB_j = c_j + Σ_{i∈N(j)} μ_i > UB for a dual-feasible μ and a 0/1 primal UB.
``lp-dual``    (enhanced) the same bound with the optimal dual of the LP on the survivors and
               an upper bound from rounding its solution: reduced-cost fixing, iterated.

With conflict cliques and covers (``cliques=``, ``covers=``, :meth:`Binarizer.conflict_cliques`)
the problem is P': the same problem plus "at most one column per clique, not all of a cover",
a consistent clause (docs/clause.md).
P' is down-closed (every subset of a consistent clause is consistent) and each test stays a
proof for it: the count test only drops columns; dominance swaps j for j' only when that
cannot create a conflict; the duality bounds of the unconstrained LP still bound P' from
below (a smaller feasible set), and every primal heuristic returns a consistent clause, so
``UB`` is the value of a P'-feasible rule.

The paper's pairwise test (§3.1: drop j if p_{j'} − p_j > z_{j'} − z_j for nested j ⊂ j') is
**not** a certificate (docs/screening.md; ``tests/test_screening.py`` exhibits an instance where it
changes the optimum).  It is available only as a labelled heuristic, ``unsafe_pairwise=True``,
and a report that used it says ``certified = False``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
import scipy.sparse as sp

from rulecore import highs, progress
from rulecore.encode import memory_budget, solver_bytes
from rulecore.exceptions import ParameterError
from rulecore.rules.problem import lex_order, unique_rows
from rulecore.rules.solvers import Conflicts, make_consistent

Level = Literal["basic", "enhanced"]
CERTIFIED_TESTS = ("count", "dominance", "duality", "lp-dual")
TEST_LABELS = {
    "count": "Count test",
    "dominance": "Safe dominance",
    "duality": "Duality test",
    "lp-dual": "LP dual (reduced-cost fixing)",
    "pairwise-heuristic": "Paper's pairwise test (heuristic, not certified)",
}
# Bounds are compared with a margin so round-off never removes a column that ties.
_TOL = 1e-9
# HiGHS presolve for the lp-dual step's LPs.  Off, as for the rule MIP (bcs.py): these LPs
# have one row per positive pattern and presolve removes little, yet it was most of the solve.
# Whole app fits 0.56x in all, up to 0.22x; the paper's λ = 1000 screenings 0.88x; the same
# bounds and optima, a few columns more or fewer kept, as the LPs are degenerate and each way
# returns another optimal dual (bench/results/lp_presolve.md).
LP_PRESOLVE = False
#: Distinct rows the reduced LP takes at once (more: row generation, in rounds of this many).
LP_ROWS_AT_ONCE = 20_000
#: Past LP_ROWS_AT_ONCE rows, the aggregated LP first (``_lp_aggregated``): the rows fall into
#: this many groups, regrouped at most AGGREGATE_ROUNDS times (a few seconds each at 1M rows).
AGGREGATE_GROUPS = 2_000
AGGREGATE_ROUNDS = 8


@dataclass
class Step:
    """One test run in the sequence."""

    test: str
    removed: int
    remaining: int
    seconds: float


@dataclass
class ScreeningReport:
    """What screening removed, why, and how long each step took.

    Attributes
    ----------
    n_columns : int
        Columns before screening.
    kept : bool ndarray of shape (n_columns,)
        Columns that survive every test (the reduced problem).
    removed_by : dict of str to bool ndarray
        Per test, the columns *that test* removed in the sequence.
    alone : dict of str to bool ndarray
        Per test, what it removes when run alone on all columns (the paper's tables).
    steps : list of Step
        The sequence: columns removed and remaining after each test, with times.
    certificates : DataFrame
        One row per removed column: ``column``, ``test`` and the numbers that prove it
        (``cost``, ``gain`` for count; ``by`` for dominance; ``lb``, ``ub`` for duality).
        Costs and bounds are in the objective's own scale (#conditions + λ·errors).
    upper_bound : float
        Objective of the best 0/1 rule found while screening (#conditions + λ·errors).
    lower_bound : float
        A proven lower bound on the 0/1 optimum, same scale.
    incumbent : bool ndarray of shape (n_columns,)
        The rule achieving ``upper_bound`` (a MIP start); consistent when cliques were given.
    certified : bool
        False when the paper's heuristic pairwise test took part.
    level : str
    lam : float
    seconds : float
        Total screening time.
    """

    n_columns: int
    kept: np.ndarray
    removed_by: dict[str, np.ndarray] = field(default_factory=dict)
    alone: dict[str, np.ndarray] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    certificates: pd.DataFrame = field(default_factory=pd.DataFrame)
    upper_bound: float = float("inf")
    lower_bound: float = float("-inf")
    incumbent: np.ndarray | None = None
    certified: bool = True
    level: str = "basic"
    lam: float = 1.0
    seconds: float = 0.0

    @property
    def n_kept(self) -> int:
        return int(self.kept.sum())

    @property
    def fraction_screened(self) -> float:
        return 1.0 - self.n_kept / max(self.n_columns, 1)

    @property
    def union(self) -> np.ndarray:
        """Columns removed by any test (the complement of ``kept``)."""
        return ~self.kept

    def certificate_table(self, terms: list[str], feature_of: np.ndarray) -> pd.DataFrame:
        """One row per removed column, for a person: ``term``, ``feature``, ``test`` and
        ``proof`` (the numbers that prove it, in words), with no empty cell.

        Parameters
        ----------
        terms : list of str
            Display text of every column (``str(Term)``).
        feature_of : ndarray of shape (n_columns,)
            The input column of every term.
        """
        rows = []
        for c in self.certificates.to_dict("records") if len(self.certificates) else []:
            j, test = int(c["column"]), c["test"]
            if test == "count":
                proof = (f"costs {c['cost']:.4g}, can gain at most {c['gain']:.4g} "
                         "(c_j ≥ p_j)")
            elif test == "dominance":
                proof = f"dominated by {terms[int(c['by'])]}"
            elif test in ("duality", "lp-dual"):
                proof = (f"any rule with it costs ≥ {c['lb']:.6g} > {c['ub']:.6g}, the "
                         "cost of a rule already found")
            else:
                proof = "heuristic: not a proof"
            rows.append({"term": terms[j], "feature": str(feature_of[j]),
                         "test": TEST_LABELS.get(test, test), "proof": proof})
        return pd.DataFrame(rows, columns=["term", "feature", "test", "proof"])

    def funnel(self) -> pd.DataFrame:
        """Columns remaining after each step: ``stage``, ``columns``, ``removed``, ``seconds``."""
        rows = [{"stage": "All terms", "columns": self.n_columns, "removed": 0, "seconds": 0.0}]
        rows += [{"stage": TEST_LABELS.get(s.test, s.test), "columns": s.remaining,
                  "removed": s.removed, "seconds": s.seconds} for s in self.steps]
        return pd.DataFrame(rows)


def wsum(w: np.ndarray, M: np.ndarray, chunk: int = 2048) -> np.ndarray:
    """``w @ M`` for a bool matrix, in float64 blocks of rows.

    ``w @ M`` on a bool matrix would first copy all of M to float64 (300 MB for MAGIC at 100
    thresholds); blocks keep the copy small and the arithmetic exact in float64.
    """
    out = np.zeros(M.shape[1])
    for i in range(0, M.shape[0], chunk):
        block = M[i:i + chunk]
        if block.size:
            out += w[i:i + chunk] @ block.astype(np.float64)
    return out


def columns(M: np.ndarray, which: np.ndarray) -> np.ndarray:
    """``M[:, which]`` (``which``: a bool mask or indices) by ``np.take``, which copies rows
    whole: fancy indexing took five times as long on a million rows of 408 terms (0.47 s
    against 0.09 s), and screening does it several times per clause."""
    which = np.asarray(which)
    return np.take(M, np.flatnonzero(which) if which.dtype == bool else which, axis=1)


def transposed(M: np.ndarray, block: int = 256) -> np.ndarray:
    """``np.ascontiguousarray(M.T)``, copied a block of rows at a time: the one-go copy
    strides through all of M for every output row, and took 1.55 s against 0.23 s for
    700,000 rows of 408 terms."""
    out = np.empty((M.shape[1], M.shape[0]), dtype=M.dtype)
    for i in range(0, M.shape[0], block):
        out[:, i:i + block] = M[i:i + block].T
    return out


class _Problem:
    """The OR problem in eq. (4) form, restricted to a set of live columns."""

    def __init__(self, A: np.ndarray, y: np.ndarray, lam: float, d: np.ndarray,
                 cliques: list[np.ndarray] | None = None,
                 covers: list[np.ndarray] | None = None) -> None:
        pos = (y == 1) & (d > 0)
        self.lam = lam
        self.AP = np.ascontiguousarray(A[pos], dtype=bool)          # p × n
        self.APT = transposed(self.AP)                               # n × p, for column access
        self.dP = d[pos].astype(float)                               # slack costs d_i
        neg = y == 0
        # Σ_Z d_i a_ij, with the positives' weights zeroed rather than the negatives' rows
        # copied out (700,000 × 408 bytes for set covering's second clause on a million rows)
        self.z = wsum(np.where(neg, d, 0.0).astype(float), A)
        self.c = 1.0 / lam + self.z                                  # column costs c_j
        self.p = wsum(self.dP, self.AP)                              # Σ_P d_i a_ij
        self.n = A.shape[1]
        self.conf = Conflicts(cliques, self.n, covers)               # P' (consistent clauses)

    def value(self, w: np.ndarray) -> float:
        """Objective (4) of a 0/1 ``w``: Σ c_j w_j + weight of positives left uncovered."""
        covered = self.AP[:, w].any(axis=1) if w.any() else np.zeros(len(self.dP), bool)
        return float(self.c[w].sum() + self.dP[~covered].sum())


# ----------------------------------------------------------------------------- primal heuristics
# Each returns a consistent clause when given one (P'-feasible, so its value is a valid UB):
# a column that conflicts with one already chosen is skipped; dropping columns is always safe.


def _blocked(pr: _Problem, w: np.ndarray) -> np.ndarray:
    """Columns the consistent clause ``w`` cannot take on (:meth:`bcs.Conflicts.blocked`)."""
    return pr.conf.blocked(np.flatnonzero(w)) if pr.conf else np.zeros(pr.n, bool)


def _repair(pr: _Problem, w: np.ndarray) -> np.ndarray:
    """A consistent clause from ``w`` by dropping columns (:func:`bcs.make_consistent`)."""
    return make_consistent(w, pr.conf, pr.AP, pr.dP, pr.c) if pr.conf else w


def _greedy_pass(pr: _Problem, live: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Basic primal heuristic (paper §3.3): visit columns by increasing z_j − p_j and keep one
    iff the objective drops, i.e. the weight it newly covers exceeds its cost (and it
    conflicts with no column kept)."""
    w = w.copy()
    covered = pr.AP[:, w].any(axis=1) if w.any() else np.zeros(len(pr.dP), bool)
    blocked = _blocked(pr, w)
    order = np.flatnonzero(live & ~w)
    order = order[np.argsort(pr.z[order] - pr.p[order], kind="stable")]
    for j in order:
        if blocked[j]:
            continue
        gain = pr.dP[~covered & pr.APT[j]].sum()
        if gain > pr.c[j] + _TOL:
            w[j] = True
            covered |= pr.APT[j]
            blocked = _blocked(pr, w)
    return w


def _best_improvement(pr: _Problem, live: np.ndarray, w: np.ndarray,
                      max_adds: int = 50) -> np.ndarray:
    """Enhanced primal heuristic: repeatedly add the column that lowers the objective most
    (the paper stops after three additions; we go on while it helps, capped).

    Gains are kept up to date by subtracting only the rows each addition newly covers.  Columns
    with p_j ≤ c_j are skipped: a column never gains more than p_j.
    """
    w = w.copy()
    covered = pr.AP[:, w].any(axis=1) if w.any() else np.zeros(len(pr.dP), bool)
    cols = np.flatnonzero(live & ~w & ~_blocked(pr, w) & (pr.p > pr.c + _TOL))
    if not len(cols):
        return _drop_redundant(pr, w)
    # sums over every column, then the live ones taken: gathering the live columns first
    # (AP[:, cols], a strided copy) took ten times the sums themselves on a million rows
    gains = (wsum(pr.dP * ~covered, pr.AP) - pr.c)[cols]
    for _ in range(max_adds):
        k = int(np.argmax(gains))
        if gains[k] <= _TOL:
            break
        w[cols[k]] = True
        new = pr.APT[cols[k]] & ~covered
        covered |= new
        gains -= wsum(pr.dP[new], pr.AP[new])[cols]
        gains[k] = -np.inf
        if pr.conf:  # columns the new one blocks are out
            gains[_blocked(pr, w)[cols]] = -np.inf
    return _drop_redundant(pr, w)


def _drop_redundant(pr: _Problem, w: np.ndarray) -> np.ndarray:
    """Remove chosen columns whose removal lowers the objective (a cheap 1-opt)."""
    w = w.copy()
    for j in np.flatnonzero(w)[np.argsort(-pr.c[w])]:
        trial = w.copy()
        trial[j] = False
        if pr.value(trial) < pr.value(w) - _TOL:
            w = trial
    return w


# ----------------------------------------------------------------------------- dual heuristics
_DUAL_BLOCK = 4096  # rows the greedy dual checks against the spent columns at once


def _greedy_dual(pr: _Problem, live: np.ndarray, sort_rows: bool) -> np.ndarray:
    """A feasible dual μ of (5) restricted to the live columns: 0 ≤ μ_i ≤ d_i,
    Σ_i μ_i a_ij ≤ c_j for every live j.

    One pass over the rows (paper §3.3); enhanced sorts rows by increasing nonzeros first.
    Where the paper adds a row only if the whole d_i fits, we give each row the largest value
    that still fits, min(d_i, min_{j∋i} slack_j): still feasible, never smaller.
    """
    AP = columns(pr.AP, live)
    slack = pr.c[live].copy()
    mu = np.zeros(len(pr.dP))
    rows = np.arange(len(pr.dP))
    if sort_rows:
        rows = rows[np.argsort(AP.sum(axis=1), kind="stable")]
    # A row on a column whose slack is used up gets 0, and slack only shrinks: rows are taken
    # in blocks, and those already on such a column are skipped without a Python step (the
    # same μ; most rows meet a spent column early: set covering's two clauses at 1M rows of
    # bench/scale.py spent 22.7 s here, the second now 4.5 s)
    for b in range(0, len(rows), _DUAL_BLOCK):
        block = rows[b:b + _DUAL_BLOCK]
        spent = slack <= 0
        if spent.any():
            block = block[~AP[block][:, spent].any(axis=1)]
        for i in block:
            cols = AP[i]
            room = slack[cols].min() if cols.any() else pr.dP[i]
            v = min(pr.dP[i], max(room, 0.0))
            if v > 0:
                mu[i] = v
                slack[cols] -= v
    return mu


def _within_costs(c: np.ndarray, load: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """μ scaled down, if need be, so that every column's load Σ_i μ_i a_ij is within c_j:
    by min_j c_j / load_j over the overloaded columns, which keeps every constraint."""
    over = load > c
    if over.any():
        mu = mu * np.min(c[over] / load[over]) * (1 - 1e-12)
    return mu


def _feasible_dual(pr: _Problem, live: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """Project a (solver) dual onto dual feasibility for the live columns: μ clipped to
    [0, d], then scaled down by :func:`_within_costs`."""
    mu = np.clip(mu, 0.0, pr.dP)
    return _within_costs(pr.c[live], wsum(mu, pr.AP)[live], mu)


def _duality_bounds(pr: _Problem, mu: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
    """LB_j = c_j + Σ_{i∈N(j)} μ_i (paper eq. 7) for every column.

    Proof sketch (paper §3.2): fixing w_j = 1 leaves problem (6) on the rows N(j) that j does
    not cover; μ restricted to N(j) is feasible for its dual, so Σ_{N(j)} μ_i bounds it below.
    """
    if cols is None:
        return pr.c + mu.sum() - wsum(mu, pr.AP)
    out = np.full(pr.n, -np.inf)  # columns not asked for get no bound (never removed)
    out[cols] = pr.c[cols] + mu.sum() - wsum(mu, pr.AP)[cols]
    return out


# ----------------------------------------------------------------------------- the tests


def _count_test(pr: _Problem, live: np.ndarray) -> np.ndarray:
    """Remove j if c_j ≥ p_j.

    Proof: dropping j from any 0/1 solution saves c_j and uncovers at most the positives only
    j covered, of weight ≤ p_j ≤ c_j.  So every solution can drop all such columns (one at a
    time, never getting worse): an optimal solution without them exists.
    """
    return live & (pr.c >= pr.p - _TOL)


def _groups(feature_of: np.ndarray | None, n: int) -> list[np.ndarray]:
    if feature_of is None:
        return [np.arange(n)]
    keys = pd.factorize(pd.Series(feature_of))[0]
    return [np.flatnonzero(keys == k) for k in range(keys.max() + 1)] if n else []


#: Seconds per unit of work (|group|³: pairs × the conflicts checked per pair) the dominance
#: test is first assumed to take, before it has timed a group itself (2-core machine: 25 s
#: for ten groups of about 4,000 terms).
DOMINANCE_SECONDS_PER_UNIT = 4e-11


def _dominance_test(pr: _Problem, live: np.ndarray, groups: list[np.ndarray],
                    ub: float = np.inf, budget: float = np.inf
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Remove j if some live j' covers every positive j covers (supp a_P^j ⊆ supp a_P^{j'})
    at no greater cost (c_{j'} ≤ c_j); exact ties keep the lower index.

    Proof: in any solution, swapping j for j' covers a superset of positives at no greater
    cost.  The relation "(c, index) smaller and support larger" is acyclic, so every removed
    column is dominated, through a chain, by a kept one.  Pairs are compared within a group
    (one input feature: nested thresholds live there), with packed bit sets.

    With conflict cliques and covers (problem P', consistent clauses only) j' may replace j
    only if every live k ≠ j in conflict with j' but not with j has ``c_j + c_k > UB`` (the
    value of a consistent 0/1 rule), and every cover holding j' holds j.  Then an optimal
    consistent S containing j holds no such k (S would cost at least c_j + c_k > UB ≥ its
    own value), so ``S − j + j'`` has no conflict and fills no cover S did not: it is
    consistent (or, when j' ∈ S already, ``S − j`` is), and optimal again.  The swaps still
    descend the same acyclic order, so repeating them yields an optimal consistent solution
    without removed columns.  (With ``UB = inf`` the condition is ``N(j') − {j} ⊆ N(j)``;
    it stops ``x <= 5`` from standing in for ``x <= 3`` beside ``x > 4`` unless that
    interval is too dear to be optimal anyway, as a positive-free one is when positives
    are not rare.)
    """
    removed = np.zeros(pr.n, dtype=bool)
    by = np.full(pr.n, -1)
    # Within ``budget`` seconds: groups smallest first, each only if its expected time fits
    # what is left (a continuous column with every midpoint as a threshold has one term per
    # distinct value, and 20,000 rows gave groups of 10,000 and 335 s here before a 30 s
    # MIP).  A skipped group removes nothing: fewer terms removed, never a needed one.
    t0, rate = time.perf_counter(), DOMINANCE_SECONDS_PER_UNIT
    for g in sorted((g[live[g]] for g in groups), key=len):
        if len(g) < 2:
            continue
        work = float(len(g)) ** 3
        if time.perf_counter() - t0 + rate * work > budget:
            break  # the rest are larger
        t_group = time.perf_counter()
        safe = None                                               # safe[b, a]: b may replace a
        bits = np.packbits(columns(pr.AP, g), axis=0).T           # |g| × bytes
        # subset[a, b]: supp(a) ⊆ supp(b)  ⟺  no bit of a outside b
        for a_pos, a in enumerate(g):
            outside = np.bitwise_and(bits[a_pos], np.bitwise_not(bits)).any(axis=1)
            cand = ~outside
            cand[a_pos] = False
            cheaper = pr.c[g] < pr.c[a] - _TOL
            tie = np.abs(pr.c[g] - pr.c[a]) <= _TOL
            same_support = cand & ~np.bitwise_and(bits, np.bitwise_not(bits[a_pos])).any(axis=1)
            # strictly cheaper superset, or equal cost superset that is strictly larger, or an
            # identical column (same support and cost) with a lower index
            strict_superset = cand & ~same_support
            dom = cand & (cheaper | (tie & strict_superset) | (tie & same_support & (g < a)))
            if dom.any() and pr.conf:
                if safe is None:
                    safe = _swap_safe(pr, g, live, ub)
                dom &= safe[:, a_pos]
            if dom.any():
                removed[a] = True
                by[a] = g[np.flatnonzero(dom)[0]]
        if work > 1e9:  # timed well enough to correct the estimate for the next groups
            rate = max(rate, (time.perf_counter() - t_group) / work)
    return removed, by


def _swap_safe(pr: _Problem, g: np.ndarray, live: np.ndarray, ub: float) -> np.ndarray:
    """``safe[b, a]``: g_b may replace g_a in an optimal consistent solution
    (:func:`_dominance_test`): no live k in ``F[a] = {k ≠ g_a : k ∉ N(g_a),
    c_{g_a} + c_k ≤ UB}`` conflicts with g_b, and every cover holding g_b holds g_a.

    ``#{k ∈ F[a] : k ∈ N(g_b)} = (R Fᵀ)[b, a]`` with R the conflict rows: one product.
    """
    cols = np.flatnonzero(live)
    R = pr.conf.rows(g)[:, live]
    # only the k in conflict with some member of g can count (R[b, k] = 0 elsewhere): for
    # threshold terms those are the same feature's, so the product shrinks from
    # |g| × all live columns × |g| to |g| × |K| × |g|, with the same counts
    K = np.flatnonzero(R.any(axis=0))
    R, ck = R[:, K], cols[K]
    F = (pr.c[g][:, None] + pr.c[ck][None, :] <= ub + _TOL * max(1.0, abs(ub))) & ~R
    if len(ck):
        at = np.searchsorted(ck, g)
        own = (at < len(ck)) & (ck[np.minimum(at, len(ck) - 1)] == g)    # g_a ∈ K
        F[np.flatnonzero(own), at[own]] = False
    outside = R.astype(np.float32) @ F.T.astype(np.float32)      # exact: counts < 2^24
    Mg = pr.conf.M[g].astype(np.float32)
    return (outside == 0) & (Mg @ (1 - Mg).T == 0)


def _pairwise_heuristic(pr: _Problem, live: np.ndarray, groups: list[np.ndarray],
                        all_pairs: bool) -> np.ndarray:
    """The paper's §3.1 pairwise test, kept only as a labelled heuristic (NOT certified).

    For nested columns supp(j) ⊂ supp(j'), drop j if p_{j'} − p_j > z_{j'} − z_j; consecutive
    thresholds (basic) or all nested pairs (enhanced).  Unsound: the extra positives j' covers
    may already be covered by another chosen column (docs/screening.md).
    """
    removed = np.zeros(pr.n, dtype=bool)
    for g in groups:
        g = g[live[g]]
        if len(g) < 2:
            continue
        P = columns(pr.AP, g)
        # order by support size: nested columns form chains in this order
        order = np.argsort(P.sum(axis=0), kind="stable")
        for ia, a_pos in enumerate(order):
            cands = order[ia + 1: ia + 2] if not all_pairs else order[ia + 1:]
            for b_pos in cands:
                nested = not np.any(P[:, a_pos] & ~P[:, b_pos])
                if nested and (pr.p[g[b_pos]] - pr.p[g[a_pos]] >
                               pr.z[g[b_pos]] - pr.z[g[a_pos]] + _TOL):
                    removed[g[a_pos]] = True
                    break
    return removed


@dataclass
class _Aggregated:
    """The aggregated LP's answer on the merged rows (``_lp_aggregated``)."""

    x: np.ndarray       # w over the live columns
    dual: np.ndarray    # per merged row, feasible for the dual over every row
    bound: float        # Σ dual: the lower bound it proves
    value: float        # the aggregated LP's value (the LP's over every row when converged)
    converged: bool


def _proved(c: np.ndarray, A1: np.ndarray, dsum: np.ndarray, dual: np.ndarray) -> float:
    """The bound Σ μ a merged dual proves once clipped to [0, dsum] and made feasible."""
    dual = np.clip(dual, 0.0, dsum)
    return float(_within_costs(c, wsum(dual, A1), dual).sum())


def _lp_aggregated(c: np.ndarray, A1: np.ndarray, dsum: np.ndarray, time_limit: float,
                   enough: float = np.inf) -> _Aggregated | None:
    """LP (4) with its rows summed in groups: a dual for every row from a small LP.

    The merged rows r (pattern a_r, weight D_r) fall into G groups g; each group's rows are
    replaced by their weighted mean, ā_g = Σ_{r∈g} D_r a_r / D_g (D_g = Σ_{r∈g} D_r):

        min  c w + Σ_g D_g ξ_g   s.t.  ā_g w + ξ_g ≥ 1,  w, ξ ≥ 0.

    *Every dual is a certificate.*  Its dual y_g ∈ [0, D_g] with Σ_g y_g ā_gj ≤ c_j gives
    each row the value μ_r = y_g D_r / D_g, which is feasible for the dual over every row
    (Σ_r μ_r a_rj = Σ_g y_g ā_gj ≤ c_j, 0 ≤ μ_r ≤ D_r): the bounds of eq. (7) hold whatever
    the grouping.  Row generation's duals give the rows left out μ = 0; here none is left out.
    *Exact when it converges.*  Summing constraints relaxes the LP, so its value is at most the
    LP's; when its (w, ξ_g) also meets a_r w + ξ_g ≥ 1 for every row of every group, it is
    feasible for the LP at the same value, hence the LP's optimum.
    *Grouping.*  Rows are sorted lexicographically on the columns and cut into G equal blocks,
    so a block's rows agree on the first columns in that order.  The first order is the
    columns' own; each next puts first the columns the last solution used (largest w first):
    rows that agree there have equal a_r w, which is what the LP needs of a group.  On the
    696,191 rows set covering leaves after the planted clause of ``bench/scale.py`` at 1M rows
    the first grouping proves the LP's own value (from a shuffled column order, the second
    does), where row generation ran out of its 30 s at 80,000 rows (``docs/screening.md``).
    The rounds stop when one proves no more than the best before it, or once the bound is
    above ``enough`` (the caller needs no more).
    """
    t_end = time.perf_counter() + float(time_limit)
    p, k = A1.shape
    if not p:
        return None
    n_groups = min(AGGREGATE_GROUPS, p)
    cuts = np.arange(n_groups + 1) * p // n_groups        # block starts in sorted order
    order = np.arange(k)
    best: _Aggregated | None = None
    alike = bool((dsum == dsum[0]).all())        # rows of one weight: sums in integers
    for _ in range(AGGREGATE_ROUNDS):
        # lexicographic sort of the rows on the columns in ``order``, the first 128 of them
        # (2,000 blocks need a few bits of a row; a longer key only costs time)
        lead = order[:128]
        key = np.empty((p, (len(lead) + 7) // 8), dtype=np.uint8)
        for i in range(0, p, 65_536):
            key[i:i + 65_536] = np.packbits(A1[i:i + 65_536][:, lead], axis=1)
        sorted_rows = lex_order(key)
        del key
        group = np.empty(p, dtype=np.int64)
        group[sorted_rows] = np.repeat(np.arange(n_groups), np.diff(cuts))
        # ā_g in blocks of about 20,000 rows, exact: counts times the one weight, or float64
        abar = np.empty((n_groups, k))
        D = np.add.reduceat(dsum[sorted_rows], cuts[:-1])
        step = max(1, n_groups * 20_000 // p)
        for g0 in range(0, n_groups, step):
            g1 = min(g0 + step, n_groups)
            rows = sorted_rows[cuts[g0]:cuts[g1]]
            starts = cuts[g0:g1] - cuts[g0]
            if alike:
                abar[g0:g1] = np.add.reduceat(A1[rows].view(np.uint8), starts, axis=0,
                                              dtype=np.int64) * dsum[0]
            else:
                abar[g0:g1] = np.add.reduceat(A1[rows].astype(np.float64) * dsum[rows, None],
                                              starts, axis=0)
        abar /= D[:, None]
        left = t_end - time.perf_counter()
        if left <= 0.05:
            break
        m = highs.Model()
        m.add_columns(c, 0.0, np.inf)                 # w
        m.add_columns(D, 0.0, np.inf)                 # ξ_g
        m.add_rows(np.ones(n_groups), np.full(n_groups, np.inf),
                   sp.hstack([sp.csr_matrix(abar), sp.identity(n_groups, format="csr")],
                             format="csr"))
        res = m.solve(time_limit=left, presolve=LP_PRESOLVE)
        if res.row_dual is None:
            break
        y = np.clip(res.row_dual, 0.0, D)
        y = _within_costs(c, y @ abar, y)
        w, xi = res.x[:k], res.x[k:]
        support = np.flatnonzero(w > 1e-12)
        cover = A1[:, support].astype(np.float64) @ w[support] if len(support) else \
            np.zeros(p)
        converged = bool((cover + xi[group] >= 1.0 - 1e-9).all())
        found = _Aggregated(w, y[group] * dsum / D[group], float(y.sum()), res.objective,
                            converged)
        if best is not None and found.bound <= best.bound * (1 + 1e-9) and not converged:
            break                                     # regrouping no longer helps
        best = found
        if converged or best.bound > enough:
            break
        first = support[np.argsort(-w[support], kind="stable")]
        new_order = np.concatenate([first, order[~np.isin(order, first)]])
        if np.array_equal(new_order, order):
            break                                     # the same grouping again
        order = new_order
    return best


def _lp_on(pr: _Problem, live: np.ndarray, time_limit: float, enough: float = np.inf
           ) -> tuple[np.ndarray | None, np.ndarray | None, float]:
    """Solve LP (4) on the live columns: (fractional w over all columns, dual μ, value).

    Up to :data:`LP_ROWS_AT_ONCE` distinct rows the LP is solved whole.  Beyond, first with
    its rows summed in groups (:func:`_lp_aggregated`: a dual for every row, the LP's optimum
    when it converges), then with the time left by row generation: dropping a row i (and its
    ξ_i) relaxes (4), so the LP over some rows has a dual that, with μ_i = 0 on the others,
    is feasible for (5) on all rows; its bounds (eq. 7) are valid at every round.  Each round
    adds the rows the current w leaves most uncovered (largest d_i (1 − a_i w)); when none is
    left uncovered, w with ξ_i = 0 there is feasible at the same value, so it is the LP
    optimum over all rows.  On the rows a clause leaves after set covering's first clause
    (70,000 at 100k rows) the whole LP took 26 s; most rows never enter
    (``bench/results/scale.md``).  Stopped by the time limit or the memory budget before
    that, it returns its last dual (bounds still valid) with value ``-inf``;
    of the two duals, the one that proves more.  A dual proving more than ``enough`` (the
    value screening compares with: every column's bound is then above it) ends the step.
    """
    t_end = time.perf_counter() + float(time_limit)
    cols = np.flatnonzero(live)
    rows = pr.AP @ live                         # rows some live column covers (no copy)
    Ap = pr.AP[np.ix_(rows, cols)]
    # Identical rows merge into one with the summed slack cost (bcs.merge_identical_rows);
    # the merged dual splits back in proportion to d_i, which keeps it feasible.
    first, inverse = unique_rows(np.packbits(Ap, axis=1))
    dsum = np.bincount(inverse, weights=pr.dP[rows], minlength=len(first))
    A1 = Ap[first]
    p, k = len(first), len(cols)
    budget = memory_budget()
    aggregated = None
    if p <= LP_ROWS_AT_ONCE:
        if solver_bytes(int(A1.sum()) + p) > budget:
            # too large to solve here: no bound from this step (the other tests still run,
            # and what they remove stays certified); the solve itself then says what to change
            return None, None, float("-inf")
        chosen = np.arange(p)
    else:
        # the aggregated LP first: its dual covers every row, where row generation's gives the
        # rows left out none.  Exact when it converges; else row generation goes on with the
        # time left, and the stronger of the two duals is kept
        enough_here = enough - pr.dP[~rows].sum()   # rows no live column covers: μ_i = d_i
        aggregated = _lp_aggregated(pr.c[cols], A1, dsum, t_end - time.perf_counter(),
                                    enough_here)
        if aggregated is not None and (aggregated.converged or aggregated.bound > enough_here):
            return _split_back(pr, cols, rows, inverse, dsum, aggregated.x, aggregated.dual,
                               aggregated.value, aggregated.converged)
        # the heaviest rows first, then what the LP leaves uncovered
        chosen = np.sort(np.argsort(-dsum, kind="stable")[:LP_ROWS_AT_ONCE])
    m = highs.Model()
    m.add_columns(pr.c[cols], 0.0, np.inf)      # w (no upper bounds: eq. 4 makes them redundant)
    in_model = np.zeros(p, dtype=bool)
    order: list[np.ndarray] = []                # merged row of each model row, in order
    nonzeros = 0
    res = None
    converged = False
    while True:
        r = len(chosen)
        nonzeros += int(A1[chosen].sum()) + r
        if solver_bytes(nonzeros) > budget:
            break                               # keep the last round's (valid) dual
        n_xi = m.n_cols - k
        m.add_columns(dsum[chosen], 0.0, np.inf)  # ξ of the new rows
        block = sp.hstack([sp.csr_matrix(A1[chosen], dtype=float), sp.csr_matrix((r, n_xi)),
                           sp.identity(r, format="csr")], format="csr")
        m.add_rows(np.ones(r), np.full(r, np.inf), block)  # a_i w + ξ_i ≥ 1
        in_model[chosen] = True
        order.append(chosen)
        left = t_end - time.perf_counter()
        if left <= 0.05:
            break
        new = m.solve(time_limit=left, presolve=LP_PRESOLVE)
        if new.row_dual is None:  # stopped without an optimum: keep the last round's dual
            break
        res = new
        w = res.x[:k]
        support = np.flatnonzero(w > 1e-12)
        cover = A1[:, support].astype(np.float64) @ w[support] if len(support) else np.zeros(p)
        short = np.flatnonzero(~in_model & (cover < 1.0 - 1e-9))
        if not len(short):
            converged = True                    # optimal over every row
            break
        loss = dsum[short] * (1.0 - cover[short])
        chosen = np.sort(short[np.argsort(-loss, kind="stable")[:LP_ROWS_AT_ONCE]])
    if res is not None:
        dual_merged = np.zeros(p)
        dual_merged[np.concatenate(order)[:len(res.row_dual)]] = res.row_dual
        if converged or aggregated is None or \
                _proved(pr.c[cols], A1, dsum, dual_merged) >= aggregated.bound:
            return _split_back(pr, cols, rows, inverse, dsum, res.x[:k], dual_merged,
                               res.objective, converged)
    if aggregated is None:
        return None, None, float("-inf")
    return _split_back(pr, cols, rows, inverse, dsum, aggregated.x, aggregated.dual,
                       aggregated.value, False)


def _split_back(pr: _Problem, cols: np.ndarray, rows: np.ndarray, inverse: np.ndarray,
                dsum: np.ndarray, x: np.ndarray, dual_merged: np.ndarray, value: float,
                converged: bool
                ) -> tuple[np.ndarray, np.ndarray, float]:
    """The merged rows' LP answer on the problem's own rows: w over all columns, μ split back
    in proportion to d_i, and the LP value (``-inf`` unless it is the optimum over every row)."""
    w = np.zeros(pr.n)
    w[cols] = x
    mu = np.zeros(len(pr.dP))
    share = pr.dP[rows] / np.maximum(dsum[inverse], 1e-300)
    mu[rows] = dual_merged[inverse] * share
    # rows no live column covers have ξ_i = 1 forced; μ_i = d_i is feasible for them
    mu[~rows] = pr.dP[~rows]
    return w, mu, (value + pr.dP[~rows].sum()) if converged else float("-inf")


# ----------------------------------------------------------------------------- driver


def screen(
    A: np.ndarray,
    y: np.ndarray,
    lam: float,
    weights: np.ndarray | None = None,
    tests: tuple[str, ...] | None = None,
    level: Level = "basic",
    *,
    feature_of: np.ndarray | None = None,
    unsafe_pairwise: bool = False,
    time_limit: float = 30.0,
    diagnostics: bool = True,
    cliques: list[np.ndarray] | None = None,
    covers: list[np.ndarray] | None = None,
    upper: float | None = None,
) -> ScreeningReport:
    """Screen the columns of the OR problem before solving it.

    Parameters
    ----------
    A : bool ndarray of shape (n_samples, n_columns)
        Term matrix of the OR problem (``~A`` of the terms for AND-rules).
    y : ndarray of shape (n_samples,)
        0/1 labels of the OR problem (``1 − y`` for AND-rules).
    lam : float
        λ of the rule LP.
    weights : ndarray of shape (n_samples,), optional
        Sample weights ``d_i`` (class costs, boosting).
    tests : tuple of str, optional
        Certified tests to run, in order; default all of ``count, dominance, duality`` and,
        for ``level="enhanced"``, ``lp-dual``.
    level : {"basic", "enhanced"}
        Basic: rows in order for the dual, one greedy pass for the primal.  Enhanced: rows
        sorted for the dual, best-improvement primal, and the reduced-LP dual step.
    feature_of : ndarray of shape (n_columns,), optional
        Group label per column (the input feature); dominance compares within groups.
        Default: all columns in one group.
    unsafe_pairwise : bool
        Also run the paper's pairwise test (a heuristic: the report is then not certified).
    time_limit : float
        Seconds for the LP in the ``lp-dual`` step, and at most for the dominance test's
        groups (largest skipped first when they would not fit; none is ever cut short).
    diagnostics : bool
        Also fill ``report.alone`` (each test run alone on all columns, as in the paper's
        tables).  The estimators switch it off: it costs a third of the screening time.
    cliques, covers : list of int ndarray, optional
        Conflict cliques and covers (:meth:`Binarizer.conflict_cliques`,
        :meth:`Binarizer.conflict_covers`): screen for P', the consistent clauses only.  The
        kept columns then hold an optimal consistent clause, and the incumbent is consistent.
    upper : float, optional
        A value (in the objective's units) only clauses below which matter: the duality
        tests compare against it when it is below the best clause found.  Set covering's
        later clauses pass the value of adding no clause; the kept columns then hold every
        clause that beats it (none: no clause does).  The incumbent is still a clause found.

    Returns
    -------
    ScreeningReport
    """
    if level not in ("basic", "enhanced"):
        raise ParameterError("level must be 'basic' or 'enhanced'.")
    A = np.asarray(A, dtype=bool)
    y = np.asarray(y).astype(np.int64)
    d = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    if tests is None:
        tests = ("count", "dominance", "duality") + (("lp-dual",) if level == "enhanced" else ())
    unknown = set(tests) - set(CERTIFIED_TESTS)
    if unknown:
        raise ParameterError(f"Unknown screening tests: {', '.join(sorted(unknown))}.")
    t_start = time.perf_counter()
    pr = _Problem(A, y, float(lam), d, cliques, covers)
    n = pr.n
    groups = _groups(feature_of, n)
    enhanced = level == "enhanced"
    report = ScreeningReport(n_columns=n, kept=np.ones(n, dtype=bool), level=level, lam=lam)
    certs: list[dict] = []

    # A first 0/1 primal: its value is the UB every duality test compares against.
    def primal(live: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
        w0 = np.zeros(n, dtype=bool) if start is None else _repair(pr, start & live)
        w = _drop_redundant(pr, _greedy_pass(pr, live, w0))
        if enhanced:  # compare finished candidates only (each after its 1-opt clean-up)
            w2 = _drop_redundant(pr, _greedy_pass(pr, live, _best_improvement(pr, live, w0)))
            if pr.value(w2) < pr.value(w):
                w = w2
        return w

    all_cols = np.ones(n, dtype=bool)
    best_w = primal(all_cols)
    # what the duality tests compare against: the best clause found, or the caller's value
    # (pr.value is the objective / λ)
    cap = np.inf if upper is None else float(upper) / float(lam)
    ub = min(pr.value(best_w), cap)
    lb = float("-inf")

    def record(test: str, mask: np.ndarray, t0: float, **numbers: np.ndarray) -> None:
        report.removed_by[test] = mask
        report.kept &= ~mask
        for j in np.flatnonzero(mask):
            row = {"column": int(j), "test": test}
            row.update({k: float(v[j]) for k, v in numbers.items()})
            certs.append(row)
        report.steps.append(Step(test, int(mask.sum()), report.n_kept,
                                 time.perf_counter() - t0))
        progress.say(f"Certified screening ({test} test): {report.n_kept:,} of {n:,} terms "
                     "left")

    lam_f = float(lam)
    for test in tests:
        t0 = time.perf_counter()
        live = report.kept.copy()
        if test == "count":
            mask = _count_test(pr, live)
            record(test, mask, t0, cost=lam_f * pr.c, gain=lam_f * pr.p)
            if diagnostics:
                report.alone[test] = _count_test(pr, all_cols)
        elif test == "dominance":
            mask, by = _dominance_test(pr, live, groups, ub, budget=float(time_limit))
            record(test, mask, t0, by=by)
            if diagnostics:
                report.alone[test] = _dominance_test(pr, all_cols, groups, ub)[0]
        elif test == "duality":
            mu = _greedy_dual(pr, live, sort_rows=enhanced)
            lb = max(lb, mu.sum())
            LB = _duality_bounds(pr, mu)
            mask = live & (LB > ub + _TOL * max(1.0, abs(ub)))
            record(test, mask, t0, lb=lam_f * LB, ub=np.full(n, lam_f * ub))
            if diagnostics:
                mu_all = _greedy_dual(pr, all_cols, sort_rows=enhanced)
                report.alone[test] = (_duality_bounds(pr, mu_all)
                                      > ub + _TOL * max(1.0, abs(ub)))
        elif test == "lp-dual":
            # Iterate: LP on the survivors → its optimal dual gives the tightest bounds of this
            # form (reduced-cost fixing), and rounding its solution may lower UB; repeat while
            # it removes columns.  Valid because earlier removals already keep the optimum.
            total = np.zeros(n, dtype=bool)
            LB = np.full(n, -np.inf)
            for _ in range(5):
                live = report.kept & ~total
                w_lp, mu, value = _lp_on(pr, live, time_limit,
                                         enough=ub + _TOL * max(1.0, abs(ub)))
                if w_lp is None:
                    break
                cand = primal(live, start=(w_lp > 1e-9))
                for trial in (cand, _drop_redundant(pr, _repair(pr, (w_lp > 1e-9) & live))):
                    if pr.value(trial) < ub:
                        best_w, ub = trial, pr.value(trial)
                mu = _feasible_dual(pr, live, mu)
                lb = max(lb, mu.sum())
                LB = np.maximum(LB, _duality_bounds(pr, mu, np.flatnonzero(live)))
                new = live & (LB > ub + _TOL * max(1.0, abs(ub)))
                total |= new
                if not new.any() or not np.isfinite(value):
                    break  # nothing removed, or the LP was cut short: another round won't do
            record(test, total, t0, lb=lam_f * LB, ub=np.full(n, lam_f * ub))
            report.alone[test] = total.copy()
    if unsafe_pairwise:
        t0 = time.perf_counter()
        mask = _pairwise_heuristic(pr, report.kept.copy(), groups, all_pairs=enhanced)
        record("pairwise-heuristic", mask, t0)
        if diagnostics:
            report.alone["pairwise-heuristic"] = _pairwise_heuristic(pr, all_cols, groups,
                                                                     enhanced)
        report.certified = False

    # The MIP start must live on the survivors: re-derive the incumbent there and keep the
    # better of it and the best rule found so far (when that one survived intact).
    cand = primal(report.kept, start=best_w & report.kept)
    if not (best_w & ~report.kept).any() and pr.value(best_w) <= pr.value(cand):
        cand = best_w
    report.incumbent = cand
    report.upper_bound = lam_f * pr.value(cand)
    report.lower_bound = lam_f * lb if np.isfinite(lb) else float("-inf")
    report.certificates = pd.DataFrame(certs)
    report.seconds = time.perf_counter() - t_start
    return report
