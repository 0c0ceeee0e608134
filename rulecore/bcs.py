"""One rule by Boolean compressed sensing (DESIGN.md §2; Malioutov & Varshney, ICML 2013).

The OR-rule LP (their eq. 10), with sample weights ``d`` (DESIGN.md §2)::

    min  Σ_j w_j + λ Σ_{i∈P} d_i ξ_i + λ Σ_{i∈Z} d_i ξ_i
    s.t. A_P w + ξ_P >= 1,   0 <= ξ_P <= 1,   ξ_Z = A_Z w,   0 <= w <= 1.

``ξ_Z`` is substituted out, so column j costs ``1 + λ Σ_{i∈Z} d_i a_ij`` and only the positive
rows remain as constraints.  AND-rules use De Morgan: an OR-rule on ``1 − A`` with labels
``1 − y``.  Read in the AND view the objective is
``#conditions + λ (false positives + Σ_{positives} #conditions they violate)``.

The 0/1 problem is solved exactly as a MIP by HiGHS (``solver="mip"``; when the optimum provably
has only a few conditions, as at small λ, an exhaustive search over those small clauses
proves it first and the MIP is skipped: :func:`small_clause_search`), or relaxed to the LP
and rounded (``"lp"``: every fractional ``w_j`` becomes 1, as in the paper;
``"lp-randomized"``: randomized rounding, best of many draws).

Consistency: the estimators never return two terms of one column that contradict each other
or of which one implies the other (``x <= 6000 AND x > 6000``, ``x <= 3 AND x <= 5``), nor
every level of a categorical column (``c != a AND c != b`` when a and b are all its levels).
On rare positives such a never-firing clause can minimise the objective above, so the 0/1
problem is solved over the consistent clauses only (P': at most one term of each conflict
clique and not all of a cover, :meth:`~rulecore.binarize.Binarizer.conflict_cliques`,
:meth:`~rulecore.binarize.Binarizer.conflict_covers`); the reported bound is a bound of that
constrained optimum.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from rulecore import highs
from rulecore.binarize import Binarizer
from rulecore.data import show
from rulecore.encode import check_memory, dense_bytes
from rulecore.exceptions import DataError, ParameterError, SolverError
from rulecore.rule import Rule

SOLVERS = ("mip", "lp", "lp-randomized")
SCREENING = ("none", "basic", "enhanced")


@dataclass
class ClauseSolution:
    """The result of learning one OR-clause on a term matrix.

    Attributes
    ----------
    w : bool ndarray of shape (n_terms,)
        Chosen columns of the (OR-problem) matrix.
    objective : float
        Objective of ``w`` counted directly (:func:`or_objective`).
    bound : float
        A proven lower bound on the 0/1 optimum (MIP dual bound, or the LP value), over the
        consistent clauses when cliques were given.
    result : highs.SolveResult
        What HiGHS reported for the main solve.
    method : str
        Which solver produced ``w``: ``"mip"``, ``"lp"``, ``"lp-randomized"``, or
        ``"enumeration"`` when :func:`small_clause_search` proved the optimum on its own.
    lp_value : float
        The LP relaxation value when an LP was solved (``nan`` otherwise).
    screening : object
        The screening report when columns were screened, else ``None``.
    """

    w: np.ndarray
    objective: float
    bound: float
    result: highs.SolveResult
    method: str
    lp_value: float = float("nan")
    screening: Any = None

    @property
    def gap(self) -> float:
        return max(0.0, (self.objective - self.bound) / max(abs(self.objective), 1e-9))


def or_objective(A: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float,
                 d: np.ndarray | None = None) -> float:
    """Objective of a 0/1 OR-clause counted directly (not by a solver).

    ``Σ w + λ (Σ_{i∈P} d_i [row i meets no chosen term] + Σ_{i∈Z} d_i #chosen terms it meets)``.
    """
    d = np.ones(len(y)) if d is None else np.asarray(d, dtype=float)
    w = np.asarray(w, dtype=bool)
    hits = np.asarray(A[:, w], dtype=np.int64).sum(axis=1).ravel() if w.any() else \
        np.zeros(len(y), dtype=np.int64)
    pos = np.asarray(y) == 1
    misses = (hits[pos] == 0).astype(float) @ d[pos]
    false_alarms = hits[~pos].astype(float) @ d[~pos]
    return float(w.sum() + lam * (misses + false_alarms))


def merge_identical_rows(rows: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge identical rows of a 0/1 matrix, summing their weights.

    Positives with the same pattern over the candidate columns have the same optimal slack, so
    one constraint ``a w + ξ ≥ 1`` with slack cost ``Σ d_i`` replaces them all: the same
    optimum, and after screening (few columns) often a hundred times fewer rows.
    """
    if len(rows) == 0:
        return rows, weights
    packed = np.packbits(rows, axis=1)
    _, first, inverse = np.unique(packed, axis=0, return_index=True, return_inverse=True)
    return rows[first], np.bincount(inverse.ravel(), weights=weights, minlength=len(first))


def column_costs(A: np.ndarray, y: np.ndarray, lam: float, d: np.ndarray) -> np.ndarray:
    """``c_j = 1 + λ Σ_{i∈Z} d_i a_ij``: a column's cost once ``ξ_Z`` is substituted out."""
    neg = y == 0
    return 1.0 + lam * (d[neg] @ A[neg])


# ----------------------------------------------------------------------------- consistency
# A clause is *consistent* when no two of its terms conflict (contradict each other or one
# implies the other) and it holds no contradictory (AND) or tautological (OR) set of levels
# of a categorical column: at most one column of each conflict clique, not all columns of any
# cover (Binarizer.conflict_cliques, Binarizer.conflict_covers).  The constrained problem P'
# (the OR problem plus these constraints) is down-closed: every subset of a consistent clause
# is consistent.


def consistent(w: np.ndarray, cliques: list[np.ndarray] | None,
               covers: list[np.ndarray] | None = None) -> bool:
    """Whether the 0/1 clause ``w`` holds at most one column of every clique and not all
    columns of any cover."""
    w = np.asarray(w, dtype=bool)
    return (all(int(w[c].sum()) <= 1 for c in cliques or ())
            and all(int(w[c].sum()) < len(c) for c in covers or ()))


class Conflicts:
    """The consistency constraints: cliques (at most one of each) and covers (not all).

    Columns conflict when they share a clique.  The binarizer lists its cliques so that each
    column lies in a run of consecutive ones (numeric: le_i is in C_i..C_D, gt_j in C_1..C_j;
    categorical: eq (or ne) in all of its column's cliques, the other kind in one), so a
    column is an interval ``[lo_j, hi_j]`` of clique indices and two columns conflict iff
    their intervals overlap (an interval graph): O(n) memory where the graph has O(D²) edges
    per numeric column (862 thresholds with ``"all"``).  Cliques without that property fall
    back to the sparse graph ``B Bᵀ`` (B: column-by-clique).  Covers are few (one per closed
    categorical column) and kept as a column-by-cover matrix.
    """

    def __init__(self, cliques: list[np.ndarray] | None, n: int,
                 covers: list[np.ndarray] | None = None) -> None:
        self.n = n
        self.cliques = [np.asarray(c, dtype=np.int64) for c in cliques or () if len(c) >= 2]
        members = np.concatenate(self.cliques) if self.cliques else np.zeros(0, np.int64)
        ids = np.repeat(np.arange(len(self.cliques)), [len(c) for c in self.cliques])
        self.lo, self.hi = np.zeros(n, np.int64), np.full(n, -1, np.int64)  # empty: no clique
        np.maximum.at(self.hi, members, ids)
        self.lo[members] = len(self.cliques)
        np.minimum.at(self.lo, members, ids)
        self.graph = None
        if not np.array_equal(np.bincount(members, minlength=n),
                              np.maximum(self.hi - self.lo + 1, 0)):
            B = sp.csr_matrix((np.ones(len(members)), (members, ids)),
                              shape=(n, len(self.cliques)))
            G = (B @ B.T).tolil()
            G.setdiag(0)
            self.graph = G.tocsr().astype(bool)
            self.graph.eliminate_zeros()
        self.covers = [np.asarray(c, dtype=np.int64) for c in covers or ()]
        self.M = np.zeros((n, len(self.covers)), dtype=bool)     # M[j, k]: j in cover k
        for k, c in enumerate(self.covers):
            self.M[c, k] = True
        self.size = self.M.sum(axis=0)

    def __bool__(self) -> bool:
        return bool(self.cliques or self.covers)

    def rows(self, idx: np.ndarray) -> np.ndarray:
        """Dense bool (len(idx), n): ``out[a, v]`` iff column ``idx[a]`` conflicts with v."""
        idx = np.asarray(idx, dtype=np.int64)
        if self.graph is not None:
            return self.graph[idx].toarray()
        out = (self.lo[idx, None] <= self.hi[None, :]) & (self.lo[None, :] <= self.hi[idx, None])
        out[np.arange(len(idx)), idx] = False
        return out

    def pairs(self, idx: np.ndarray) -> np.ndarray:
        """Dense bool (len(idx), len(idx)): which of the columns ``idx`` conflict."""
        idx = np.asarray(idx, dtype=np.int64)
        if self.graph is not None:
            return self.graph[idx][:, idx].toarray()
        lo, hi = self.lo[idx], self.hi[idx]
        out = (lo[:, None] <= hi[None, :]) & (lo[None, :] <= hi[:, None])
        np.fill_diagonal(out, False)
        return out

    def blocked(self, chosen: np.ndarray) -> np.ndarray:
        """Bool (n,): columns that the consistent clause ``chosen`` cannot take on (the chosen
        columns themselves aside, which may be marked): in conflict with one, or the last of
        a cover."""
        chosen = np.asarray(chosen, dtype=np.int64)
        if self.graph is not None:
            out = self.graph[chosen].toarray().any(axis=0)
        else:  # the intervals that meet a chosen one
            out = ((self.lo[None, :] <= self.hi[chosen, None])
                   & (self.lo[chosen, None] <= self.hi[None, :])).any(axis=0)
        if self.covers:
            full = self.M[chosen].sum(axis=0) >= self.size - 1
            out |= self.M[:, full].any(axis=1)
        return out

    def pair_blocked(self, chosen: np.ndarray, cand: np.ndarray) -> np.ndarray:
        """Dense bool (len(cand), len(cand)): pairs of ``cand`` that cannot join ``chosen``
        together (in conflict, or the last two of a cover)."""
        out = self.pairs(cand)
        if self.covers:
            near = self.M[np.asarray(chosen, dtype=np.int64)].sum(axis=0) == self.size - 2
            Mc = self.M[np.ix_(cand, near)].astype(np.float64)
            out |= Mc @ Mc.T > 0
        return out

    def clashing(self, chosen: np.ndarray) -> np.ndarray:
        """Bool (len(chosen),): which chosen columns take part in a violation."""
        chosen = np.asarray(chosen, dtype=np.int64)
        out = self.pairs(chosen).any(axis=1)
        if self.covers:
            over = self.M[chosen].sum(axis=0) >= self.size
            out |= self.M[np.ix_(chosen, over)].any(axis=1)
        return out


def make_consistent(w: np.ndarray, conflicts: Conflicts, Ap: np.ndarray, slack: np.ndarray,
                    col_cost: np.ndarray) -> np.ndarray:
    """Drop columns from the 0/1 clause ``w`` until it is consistent.

    The objective is ``Σ_j c_j w_j + Σ_i s_i [row i of Ap meets no chosen column]``.  Each
    step drops, among the chosen columns that take part in a violation, the one whose removal
    gives the lowest objective: it saves ``c_j`` and uncovers the rows only it covered.
    Dropping never creates a violation, so this ends with a consistent clause.
    """
    w = np.asarray(w, dtype=bool).copy()
    while conflicts:
        chosen = np.flatnonzero(w)
        bad = conflicts.clashing(chosen)
        if not bad.any():
            break
        sub = Ap[:, chosen]
        alone = sub.sum(axis=1) == 1
        change = slack[alone] @ sub[alone] - col_cost[chosen]   # objective change if dropped
        w[chosen[int(np.argmin(np.where(bad, change, np.inf)))]] = False
    return w


def restrict_constraints(cliques: list[np.ndarray] | None, cols: np.ndarray, n: int,
                     covers: list[np.ndarray] | None = None
                     ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Cliques and covers over the columns ``cols`` (positions into ``cols``).

    A clique keeps its members among ``cols`` (if two or more); a cover only matters if all
    of it is among ``cols`` (else it can never be full).
    """
    pos = np.full(n, -1, dtype=np.int64)
    pos[cols] = np.arange(len(cols))
    local = [pos[np.asarray(c, dtype=np.int64)] for c in cliques or ()]
    whole = [pos[np.asarray(c, dtype=np.int64)] for c in covers or ()]
    return ([c[c >= 0] for c in local if (c >= 0).sum() >= 2],
            [c for c in whole if (c >= 0).all()])


# Work (multiply-adds) the small-clause search may spend before handing over to the MIP.
# numpy's matrix products run ~1e10 of them a second here, so the budget is ~0.1 s; a Python
# step of the search (~10 µs) is charged as NODE_WORK of them.  At 1e8 the search gave up on
# a fit it proves in 0.02 s at 1e9 (machine failure, λ = 0.02, 12 thresholds: MIP 1.8 s).
SMALL_SEARCH_BUDGET = 1e9
SMALL_SEARCH_MAX_SIZE = 5
NODE_WORK = 1e5


def small_clause_search(Ap: np.ndarray, row_w: np.ndarray, col_cost: np.ndarray, lam: float,
                        budget: float = SMALL_SEARCH_BUDGET,
                        max_size: int = SMALL_SEARCH_MAX_SIZE,
                        cliques: list[np.ndarray] | None = None,
                        covers: list[np.ndarray] | None = None,
                        ) -> tuple[np.ndarray, float, bool]:
    """Best clause of a few columns by exhaustive search, and whether it is provably optimal.

    With each ``ξ_i`` at its 0/1 optimum the objective (without the constant of uncoverable
    rows) of a column set ``S`` is ``Σ_{j∈S} c_j + λ Σ_i r_i [row i meets no column of S]``.
    Every ``c_j ≥ 1``, so a set of ``k`` columns costs at least the ``k`` cheapest ``c_j``
    together.  The search tries sizes ``k = 1, 2, ...``, each set built cheapest column first
    and cut off as soon as its cost so far plus the cheapest columns that could complete it
    reaches the incumbent; the last two columns of a set are chosen together by one matrix
    product over the rows the others leave uncovered.  Once the ``k`` cheapest columns alone
    cost as much as the incumbent, no larger clause can win and the incumbent is optimal.

    That happens at small λ, where conditions are dear and errors cheap: screening removes
    little there and the MIP's LP bound is weak (the optimum is often "always negative", two
    complementary terms), so HiGHS needs seconds where this needs milliseconds
    (``bench/results/small_search.md``).

    With ``cliques`` / ``covers`` only consistent clauses count (at most one column per
    clique, not all of a cover): columns blocked by those already in a set are skipped, and
    blocked pairs are excluded from the last-two product.  The bounds stay valid (the
    cheapest columns ignore conflicts, so they can only be cheaper), and so does the proof:
    the consistent clauses are some of all clauses, none of more than ``k`` columns can win.

    Parameters
    ----------
    Ap : bool ndarray of shape (n_rows, n_cols)
        The positive rows of the OR problem (merged), over the candidate columns.
    row_w : ndarray of shape (n_rows,)
        Row weights ``r_i`` (sample weights summed over merged rows).
    col_cost : ndarray of shape (n_cols,)
        ``c_j ≥ 1`` (:func:`column_costs`).
    lam : float
    budget : float
        Multiply-adds allowed; past them the search stops and reports no proof.
    max_size : int
        Largest clause tried; a larger one that might win means no proof.
    cliques, covers : list of int ndarray, optional
        Conflict cliques and covers over the columns of ``Ap``
        (:meth:`Binarizer.conflict_cliques`, :meth:`Binarizer.conflict_covers`).

    Returns
    -------
    w : bool ndarray of shape (n_cols,)
        The best clause found (at most ``max_size`` columns).
    value : float
        Its objective (without the constant).
    proven : bool
        Whether no clause at all, of any size, does better.
    """
    p, n = Ap.shape
    order = np.argsort(col_cost, kind="stable")          # cheapest column first
    c = np.asarray(col_cost, dtype=np.float64)[order]
    miss = ~Ap[:, order]                                 # miss[i, j]: column j leaves row i out
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    conf = Conflicts([rank[q] for q in cliques or ()], n,  # in search positions
                     [rank[q] for q in covers or ()])
    best_set, best = (), lam * float(row_w.sum())        # the empty clause
    work = 0.0

    def cheapest(start: int, count: int) -> float:       # Σ c over positions start..start+count
        return float(c[start:start + count].sum()) if start + count <= n else np.inf

    def finish(prefix: tuple, paid: float, rows: np.ndarray, start: int, left: int) -> None:
        """Complete ``prefix`` (cost ``paid``, rows ``rows`` still uncovered) with ``left``
        columns from positions ``start..`` that the prefix does not block
        (:meth:`Conflicts.blocked`); update the incumbent."""
        nonlocal best_set, best, work
        if paid + cheapest(start, left) >= best - 1e-12 or work > budget:
            return
        work += NODE_WORK
        chosen = np.array(prefix, dtype=np.int64)
        blocked = conf.blocked(chosen) if conf else unblocked
        if left <= 2:
            r = row_w[rows]
        if left == 1:
            # at the top (all rows) a view of miss; deeper, only the rows still uncovered
            sub = miss[:, start:] if len(rows) == p else miss[rows, start:]
            one = paid + c[start:] + lam * (r @ sub)
            one[blocked[start:]] = np.inf
            work += len(rows) * (n - start)
            j = int(np.argmin(one))
            if one[j] < best - 1e-12:
                best_set, best = prefix + (start + j,), float(one[j])
            return
        if left == 2:
            # columns that can be one of the two: with the cheapest other one, under best
            cand = np.arange(start, n)
            cand = cand[(paid + c[cand] + c[start] < best - 1e-12) & ~blocked[cand]]
            if len(cand) < 2:
                return
            work += len(rows) * len(cand) ** 2
            if work > budget:
                return
            mc = miss[np.ix_(rows, cand)].astype(np.float64)
            two = paid + c[cand][:, None] + c[cand][None, :] + lam * ((mc * r[:, None]).T @ mc)
            two[np.tril_indices(len(cand))] = np.inf     # each pair once, no column twice
            if conf:
                two[conf.pair_blocked(chosen, cand)] = np.inf
            a, b = np.unravel_index(int(np.argmin(two)), two.shape)
            if two[a, b] < best - 1e-12:
                best_set, best = prefix + (int(cand[a]), int(cand[b])), float(two[a, b])
            return
        for j in range(start, n - left + 1):
            if paid + cheapest(j, left) >= best - 1e-12:
                break                                    # later j are dearer still
            if not blocked[j]:
                finish(prefix + (j,), paid + c[j], rows[miss[rows, j]], j + 1, left - 1)

    all_rows, unblocked = np.arange(p), np.zeros(n, dtype=bool)
    proven = False
    for k in range(1, n + 2):
        if cheapest(0, k) >= best - 1e-12:               # no k columns (or more) can win
            proven = True
            break
        if k > max_size:
            break
        finish((), 0.0, all_rows, 0, k)
        if work > budget:
            break
    w = np.zeros(n, dtype=bool)
    w[order[list(best_set)]] = True
    return w, best, proven and work <= budget


def solve_clause(
    A: np.ndarray,
    y: np.ndarray,
    lam: float,
    d: np.ndarray | None = None,
    *,
    solver: str = "mip",
    time_limit: float = 30.0,
    random_state: int | np.random.Generator | None = None,
    columns: np.ndarray | None = None,
    mip_start: np.ndarray | None = None,
    n_draws: int = 50,
    cliques: list[np.ndarray] | None = None,
    covers: list[np.ndarray] | None = None,
) -> ClauseSolution:
    """Learn one OR-clause on a Boolean matrix.

    With ``cliques`` / ``covers`` the clause is consistent: it holds at most one column of each
    clique (no two conflicting terms, :meth:`Binarizer.conflict_cliques`) and not all of a
    cover (:meth:`Binarizer.conflict_covers`).  The MIP and the LP get one row
    ``Σ_{j∈clique} w_j ≤ 1`` per clique and ``Σ_{j∈cover} w_j ≤ |cover| − 1`` per cover (over
    the candidate columns), so the MIP's bound and the LP value are lower bounds of the
    consistent optimum; the small-clause search tries consistent clauses only; LP roundings
    are repaired by dropping columns (:func:`make_consistent`).

    Parameters
    ----------
    A : bool ndarray of shape (n_samples, n_terms)
        Term matrix of the OR problem (complemented already for AND-rules).
    y : int ndarray of shape (n_samples,)
        0/1 labels of the OR problem.
    lam : float
        λ, the weight of errors against conditions.
    d : ndarray of shape (n_samples,), optional
        Sample weights (default 1).
    solver : {"mip", "lp", "lp-randomized"}
    time_limit : float
        Seconds for the HiGHS run.
    columns : int ndarray, optional
        Only these columns may be chosen (the survivors of screening).
    mip_start : bool ndarray of shape (n_terms,), optional
        A 0/1 clause to start the MIP from (repaired by dropping columns if inconsistent).
    n_draws : int
        Draws of ``"lp-randomized"``.
    cliques, covers : list of int ndarray, optional
        Conflict cliques and covers (column indices of ``A``); ``None``: every clause is
        allowed.
    """
    if solver not in SOLVERS:
        raise ParameterError(f"solver must be one of {', '.join(SOLVERS)}, not {solver!r}.")
    if not lam > 0:
        raise ParameterError("λ (lam) must be positive.")
    A = np.asarray(A, dtype=bool)
    y = np.asarray(y).astype(np.int64)
    m, n = A.shape
    d = np.ones(m) if d is None else np.asarray(d, dtype=float)
    cols = np.arange(n) if columns is None else np.asarray(columns, dtype=np.int64)

    # Rows: positives with weight.  A positive that no candidate column covers pays λ d_i
    # whatever we choose: a constant, not a constraint.
    pos = np.flatnonzero((y == 1) & (d > 0))
    Ap = A[np.ix_(pos, cols)]
    coverable = Ap.any(axis=1)
    constant = lam * d[pos[~coverable]].sum()
    Ap, row_w = merge_identical_rows(Ap[coverable], d[pos[coverable]])
    k, p = len(cols), len(row_w)

    cost = np.concatenate([column_costs(A[:, cols], y, lam, d), lam * row_w])
    M = sp.hstack([sp.csc_matrix(Ap, dtype=np.float64), sp.identity(p, format="csc")],
                  format="csc")
    lower = np.zeros(k + p)
    upper = np.ones(k + p)
    row_lo, row_hi = np.ones(p), np.full(p, np.inf)
    local, whole = restrict_constraints(cliques, cols, n, covers)  # over the candidates
    conf = Conflicts(local, k, whole)
    # One row Σ_{j∈clique} w_j ≤ 1 per clique, Σ_{j∈cover} w_j ≤ |cover| − 1 per cover (the ξ
    # columns take no part).  With the binarizer's cliques the conflict graph is an interval
    # graph (Conflicts), hence perfect: the clique rows with 0 ≤ w ≤ 1 are exactly the convex
    # hull of the conflict-free 0/1 w.
    groups = local + whole
    if groups:
        sizes = [len(q) for q in groups]
        Q = sp.csc_matrix((np.ones(sum(sizes)), (np.repeat(np.arange(len(groups)), sizes),
                                                 np.concatenate(groups))),
                          shape=(len(groups), k + p))
        M = sp.vstack([M, Q], format="csc")
        row_lo = np.concatenate([row_lo, np.full(len(groups), -np.inf)])
        row_hi = np.concatenate([row_hi, np.ones(len(local)), [len(q) - 1.0 for q in whole]])

    def repair(wk: np.ndarray) -> np.ndarray:  # a consistent subset of wk (DESIGN.md §2)
        return make_consistent(wk, conf, Ap, lam * row_w, cost[:k]) if conf else wk

    def expand(wk: np.ndarray) -> np.ndarray:
        w = np.zeros(n, dtype=bool)
        w[cols[wk]] = True
        return w

    if solver == "mip":
        def point(wk: np.ndarray) -> np.ndarray:  # (w, ξ) with each ξ_i at its 0/1 optimum
            xi = ~(Ap[:, wk].any(axis=1)) if wk.any() else np.ones(p, dtype=bool)
            return np.concatenate([wk, xi]).astype(float)

        t0 = time.perf_counter()
        wk, value, proven = small_clause_search(Ap, row_w, cost[:k], lam, SMALL_SEARCH_BUDGET,
                                                SMALL_SEARCH_MAX_SIZE, local, whole)
        if proven:  # exact: no MIP needed (see small_clause_search)
            res = highs.SolveResult("optimal", point(wk), value + constant, value + constant,
                                    0.0, time.perf_counter() - t0, True)
            w = expand(wk)
            return ClauseSolution(w, or_objective(A, y, w, lam, d), value + constant, res,
                                  "enumeration")
        start = point(wk)  # the best small clause starts the MIP, unless we were given better
        if mip_start is not None:
            given = point(repair(np.asarray(mip_start, dtype=bool)[cols]))
            if cost @ given <= cost @ start:
                start = given
        integer = np.concatenate([np.ones(k, dtype=bool), np.zeros(p, dtype=bool)])
        # No presolve: on the rule MIPs we logged it reduced nothing (each row has its own
        # slack column), yet the hardest solves took up to 3x longer with it: λ = 0.01 on the
        # machine-failure sample, where screening removes nothing, 5.3 s -> 1.6 s; MAGIC at
        # 100 thresholds 17.8 s -> 12.7 s; 0.71x in all (bench/results/mip_presolve.md).
        res = highs.solve(cost, M, row_lo, row_hi, lower, upper, integer,
                          time_limit=time_limit, mip_start=start, presolve=False)
        if not res.has_solution:
            raise SolverError(f"The rule MIP found no solution ({res.status}) within "
                              f"{time_limit:g} s; raise the time limit or use the LP solver.")
        w = expand(res.x[:k] > 0.5)
        bound = res.bound + constant
        return ClauseSolution(w, or_objective(A, y, w, lam, d), min(bound, np.inf), res, "mip")

    res = highs.solve(cost, M, row_lo, row_hi, lower, upper, time_limit=time_limit)
    if not res.has_solution:
        raise SolverError(f"The rule LP stopped without a solution ({res.status}) within "
                          f"{time_limit:g} s; raise the time limit.")
    frac = np.clip(res.x[:k], 0.0, 1.0)
    lp_value = res.objective + constant
    # Paper §3: every w_j > 0 becomes 1 (1e-9 absorbs the solver's round-off); then drop
    # columns until it is consistent (with cliques).
    best = expand(repair(frac > 1e-9))
    best_obj = or_objective(A, y, best, lam, d)
    if solver == "lp-randomized":
        # Randomized rounding: keep j with probability w_j (scaled up, as in the log(m)
        # argument), best of n_draws by the true objective; the deterministic rounding
        # competes too, so this is never worse than "lp".
        rng = np.random.default_rng(random_state)
        for scale in np.linspace(1.0, max(1.0, np.log(max(p, 2))), n_draws):
            cand = expand(repair(rng.random(k) < np.minimum(1.0, scale * frac)))
            obj = or_objective(A, y, cand, lam, d)
            if obj < best_obj:
                best, best_obj = cand, obj
    return ClauseSolution(best, best_obj, lp_value if res.status == "optimal" else -np.inf,
                          res, solver, lp_value=lp_value)


def _as_frame(X: Any, feature_names: Any = None,
              fitted_names: np.ndarray | None = None) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        return X.rename(columns=str)
    arr = check_array(X, dtype=None, ensure_all_finite="allow-nan")
    if feature_names is not None:
        names = [str(c) for c in feature_names]
    elif fitted_names is not None and len(fitted_names) == arr.shape[1]:
        names = list(fitted_names)
    else:
        names = [f"x{i}" for i in range(arr.shape[1])]
    if len(names) != arr.shape[1]:
        raise DataError(f"Got {len(names)} feature names for {arr.shape[1]} columns.")
    return pd.DataFrame(arr, columns=names)


def class_sample_weights(y01: np.ndarray, class_weight: Any, classes: np.ndarray,
                         sample_weight: np.ndarray | None) -> np.ndarray:
    """Per-sample weights ``d_i`` = sample weight × class weight.

    ``"balanced"``: a row of class c weighs ``n / (2 n_c)``, so both classes weigh the same in
    total.  ``"sqrt"``: a majority row weighs 1 and a minority row ``√(n_majority /
    n_minority)``, halfway (on a log scale) between counting rows and counting classes
    equally; the app's default (``docs/data.md``, ``bench/results/rare_positives.md``).  A
    dict gives each label its weight.
    """
    d = np.ones(len(y01)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if d.shape != (len(y01),) or np.any(d < 0) or not np.all(np.isfinite(d)):
        raise ParameterError("sample_weight must be finite, non-negative, one per row.")
    if d.sum() <= 0:
        raise ParameterError("The sample weights are all zero: nothing to learn from.")
    if class_weight is None:
        return d
    if class_weight == "balanced":
        counts = np.bincount(y01, minlength=2).astype(float)
        per = len(y01) / (2.0 * np.maximum(counts, 1.0))
    elif class_weight == "sqrt":
        counts = np.maximum(np.bincount(y01, minlength=2).astype(float), 1.0)
        per = np.sqrt(counts.max() / counts)
    elif isinstance(class_weight, dict):
        per = np.array([float(class_weight.get(classes[0], 1.0)),
                        float(class_weight.get(classes[1], 1.0))])
    else:
        raise ParameterError("class_weight must be None, 'balanced', 'sqrt' or a dict "
                             "{label: weight}.")
    return d * per[y01]


class BooleanRuleClassifier(ClassifierMixin, BaseEstimator):
    """One interpretable AND- (or OR-) rule learned by Boolean compressed sensing.

    Parameters
    ----------
    lam : float, default=1.0
        λ: the weight of training errors against the number of conditions (paper eq. 10).
        Larger λ fits the training data more closely with more conditions.
    rule_type : {"and", "or"}, default="and"
    n_thresholds : int, default=10
        Quantile thresholds per numeric column (see :class:`~rulecore.binarize.Binarizer`).
    thresholds : {"quantile", "all"}, default="quantile"
    negations : bool, default=True
        Offer ``>``/``!=`` terms beside ``<=``/``==``.
    solver : {"mip", "lp", "lp-randomized"}, default="mip"
        Exact 0/1 optimum by HiGHS, or the LP with the paper's rounding, or randomized rounding.
    time_limit : float, default=30.0
        Seconds per HiGHS run.  A MIP stopped by it keeps its incumbent; ``mip_gap_`` says
        how far from optimal it may be.
    class_weight : None, "balanced", "sqrt" or dict, default=None
        Weight of each class's errors (:func:`class_sample_weights`); ``{0: 1, 1: 5}`` makes
        a miss cost five false alarms.  The app and the command line use ``"sqrt"``.
    random_state : int, optional
        Seed for ``"lp-randomized"``.
    screening : {"none", "basic", "enhanced"}, default="none"
        Certified screening (:mod:`rulecore.screening`) removes columns that provably take no
        part in an optimal 0/1 rule before the solve.
    kinds : dict, optional
        Column kinds for the binarizer.

    Attributes
    ----------
    rule_ : Rule
        The learned rule; ``str(rule_)`` reads "a AND b AND c".
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the positive class (the rule's "yes").
    binarizer_ : Binarizer
        The fitted terms.
    n_terms_ : int
        Candidate terms (columns of A).
    objective_ : float
        Objective of the returned rule: #conditions + λ × errors (DESIGN.md §2).  The rule is
        consistent: no two of its conditions contradict each other or are redundant.
    lower_bound_ : float
        A proven lower bound on the 0/1 optimum over consistent rules.
    mip_gap_ : float
        Relative gap between ``objective_`` and ``lower_bound_`` (0 when proven optimal).
    lp_status_ : str
        Solver status (``optimal``, ``time_limit``, ...).
    lp_value_ : float
        The LP relaxation's value (``nan`` for the MIP solver).
    solve_seconds_ : float
        Time of the HiGHS run (or of the small-clause search that replaced it).
    solve_method_ : str
        ``"mip"``, ``"lp"``, ``"lp-randomized"``, or ``"enumeration"`` when the optimum was
        proved by trying every clause that could beat it (:func:`small_clause_search`).
    screening_report_ : ScreeningReport or None
        What screening removed and why.
    """

    def __init__(self, lam: float = 1.0, rule_type: str = "and", n_thresholds: int = 10,
                 thresholds: str = "quantile", negations: bool = True, solver: str = "mip",
                 time_limit: float = 30.0, class_weight: Any = None,
                 random_state: int | None = None, screening: str = "none",
                 kinds: dict | None = None) -> None:
        self.lam = lam
        self.rule_type = rule_type
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.negations = negations
        self.solver = solver
        self.time_limit = time_limit
        self.class_weight = class_weight
        self.random_state = random_state
        self.screening = screening
        self.kinds = kinds

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags

    # ------------------------------------------------------------------ fitting

    def _check_params(self) -> None:
        if self.rule_type not in ("and", "or"):
            raise ParameterError("rule_type must be 'and' or 'or'.")
        if self.solver not in SOLVERS:
            raise ParameterError(f"solver must be one of {', '.join(SOLVERS)}.")
        if self.screening not in SCREENING:
            raise ParameterError(f"screening must be one of {', '.join(SCREENING)}.")
        if not (isinstance(self.lam, (int, float, np.number)) and self.lam > 0):
            raise ParameterError("λ (lam) must be a positive number.")
        if not (isinstance(self.time_limit, (int, float)) and self.time_limit > 0):
            raise ParameterError("time_limit must be a positive number of seconds.")

    def _targets(self, y: Any) -> tuple[np.ndarray, str]:
        if y is None:
            raise DataError(f"{type(self).__name__} requires y to be passed, but the target y "
                            "is None.")
        name = str(y.name) if isinstance(y, pd.Series) and y.name is not None else "target"
        y = column_or_1d(np.asarray(y), warn=True)
        if pd.isna(y).any():
            raise DataError("The target has missing values; drop those rows first.")
        check_classification_targets(y)
        classes = np.unique(y)
        if len(classes) < 2:
            raise DataError(f"The target has only one class ({show(classes[0])!r}); a classifier "
                            "needs two.")
        if len(classes) > 2:
            raise DataError(f"Only binary classification is supported: a rule separates two "
                            f"classes, but the target has {len(classes)}. Pick a positive class "
                            "and pass y == positive (one-vs-rest).")
        self.classes_ = classes
        return (y == classes[1]).astype(np.int64), name

    def fit(self, X: Any, y: Any, sample_weight: Any = None,
            feature_names: Any = None) -> BooleanRuleClassifier:
        """Learn the rule.

        Parameters
        ----------
        X : DataFrame or array of shape (n_samples, n_features)
            Numeric and categorical columns; missing values fail every term on their column.
        y : array of shape (n_samples,)
            Two classes; the larger label (``classes_[1]``) is the positive one.
        sample_weight : array of shape (n_samples,), optional
        feature_names : list of str, optional
            Column names when ``X`` is an array.
        """
        A, y01, d, target = self._prepare(X, y, sample_weight, feature_names)
        self._fit_matrix(A, y01, d, target)
        return self

    def _prepare(self, X: Any, y: Any, sample_weight: Any = None, feature_names: Any = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
        """Validate, set the input attributes, fit the terms: ``(A, y01, d, target)``.

        Shared by every rule learner (single rule, rule sets, λ path).
        """
        self._check_params()
        frame = _as_frame(X, feature_names)
        y01, target = self._targets(y)
        if len(frame) != len(y01):
            raise DataError(f"X has {len(frame)} rows but y has {len(y01)}.")
        if isinstance(X, pd.DataFrame):
            self.feature_names_in_ = np.asarray(frame.columns, dtype=object)
        self._names = np.asarray(frame.columns, dtype=object)
        self.n_features_in_ = frame.shape[1]
        d = class_sample_weights(y01, self.class_weight, self.classes_, sample_weight)
        self.binarizer_ = Binarizer(n_thresholds=self.n_thresholds, thresholds=self.thresholds,
                                    negations=self.negations, kinds=self.kinds).fit(frame)
        # The solve holds the term matrix, its complement and the positives' copies: about
        # three bytes per row and term.  Refuse before allocating rather than run out of memory.
        n_terms = len(self.binarizer_.terms_)
        check_memory(dense_bytes(len(frame), n_terms, itemsize=1, copies=3),
                     f"The term matrix of {len(frame):,} rows × {n_terms:,} terms",
                     "Use fewer thresholds per numeric column, leave out columns, or sample "
                     "rows.")
        return self.binarizer_.transform(frame), y01, d, target

    def _fit_matrix(self, A: np.ndarray, y01: np.ndarray, d: np.ndarray, target: str,
                    mip_start: np.ndarray | None = None) -> ClauseSolution:
        """Fit on a ready term matrix (shared with the rule-set learners and the λ path).

        The clause is always consistent: no two of its terms contradict each other or one
        implies the other, and it holds no contradictory (tautological) set of levels
        (:meth:`Binarizer.conflict_cliques`, :meth:`Binarizer.conflict_covers`; the OR problem
        of an AND-rule runs on ``~A`` with the same column indices, so the AND cliques apply).
        """
        t0 = time.perf_counter()
        A_or, y_or = (~A, 1 - y01) if self.rule_type == "and" else (A, y01)
        cliques = self.binarizer_.conflict_cliques(self.rule_type)
        covers = self.binarizer_.conflict_covers(self.rule_type)
        columns, report = None, None
        if self.screening != "none":
            from rulecore.screening import screen

            feature_of = np.array([t.feature for t in self.binarizer_.terms_], dtype=object)
            report = screen(A_or, y_or, float(self.lam), weights=d, level=self.screening,
                            feature_of=feature_of, time_limit=float(self.time_limit),
                            diagnostics=False, cliques=cliques, covers=covers)
            columns = np.flatnonzero(report.kept)
            if mip_start is None:
                mip_start = report.incumbent
        sol = solve_clause(A_or, y_or, float(self.lam), d, solver=self.solver,
                           time_limit=float(self.time_limit), random_state=self.random_state,
                           columns=columns, mip_start=mip_start, cliques=cliques,
                           covers=covers)
        sol.screening = report
        terms = self.binarizer_.terms_
        positive = self.classes_[1] if hasattr(self, "classes_") else 1
        self.rule_ = Rule(tuple(terms[j] for j in np.flatnonzero(sol.w)), self.rule_type,
                          target=target, positive=positive)
        self.w_ = sol.w
        self.n_terms_ = A.shape[1]
        self.objective_ = sol.objective
        self.lower_bound_ = sol.bound
        self.mip_gap_ = sol.gap
        self.lp_status_ = sol.result.status
        self.lp_value_ = sol.lp_value
        self.solve_seconds_ = sol.result.seconds
        self.solve_method_ = sol.method
        self.fit_seconds_ = time.perf_counter() - t0
        self.screening_report_ = report
        self._set_proba(self._fires(A), y01, d)
        return sol

    def _set_proba(self, fired: np.ndarray, y01: np.ndarray, d: np.ndarray) -> None:
        """predict_proba's two values: the weighted share of positives among training rows the
        rule labels 1 / labels 0, Laplace-smoothed so an empty side gives the prior, not 0/0."""
        prior = float(d @ y01 / max(d.sum(), 1e-12))
        self.proba_fired_ = (d[fired] @ y01[fired] + prior) / (d[fired].sum() + 1.0)
        self.proba_not_fired_ = (d[~fired] @ y01[~fired] + prior) / (d[~fired].sum() + 1.0)

    def _fires(self, A: np.ndarray) -> np.ndarray:
        sel = A[:, self.w_]
        if self.rule_type == "and":
            return sel.all(axis=1)
        return sel.any(axis=1)

    # ------------------------------------------------------------------ prediction

    def _frame_for_predict(self, X: Any) -> pd.DataFrame:
        check_is_fitted(self, "rule_")
        frame = _as_frame(X, fitted_names=self._names)
        if frame.shape[1] != self.n_features_in_:
            raise DataError(f"X has {frame.shape[1]} features, but {type(self).__name__} is "
                            f"expecting {self.n_features_in_} features as input.")
        if not isinstance(X, pd.DataFrame):
            frame.columns = list(self._names)
        return frame

    def decision_function(self, X: Any) -> np.ndarray:
        """1.0 where the rule fires, else 0.0; shape (n_samples,)."""
        frame = self._frame_for_predict(X)
        return self.rule_.predict(frame).astype(float)

    def predict(self, X: Any) -> np.ndarray:
        """Class labels, shape (n_samples,): ``classes_[1]`` where the rule fires."""
        frame = self._frame_for_predict(X)
        return self.classes_[self.rule_.predict(frame)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Shape (n_samples, 2): the training share of positives on the rule's side of a row."""
        frame = self._frame_for_predict(X)
        fired = self.rule_.predict(frame).astype(bool)
        p1 = np.where(fired, self.proba_fired_, self.proba_not_fired_)
        return np.column_stack([1.0 - p1, p1])


def lambda_path(
    X: pd.DataFrame,
    y: np.ndarray,
    lams: np.ndarray,
    X_test: pd.DataFrame | None = None,
    y_test: np.ndarray | None = None,
    progress: Any = None,
    **params: Any,
) -> pd.DataFrame:
    """Fit one rule per λ on the same terms; rule size and train/test error for each.

    The term matrix is built once and reused for every λ.  ``progress(i, n)`` is called after
    each fit (for progress bars).  Returns a frame with columns ``lam``, ``conditions``,
    ``train_error``, ``test_error``, ``objective``, ``status``, ``gap``, ``rule``, ``json``.
    """
    base = BooleanRuleClassifier(**params)
    A, y01, d, target = base._prepare(X, y)  # the terms are built once for every λ
    frame = _as_frame(X)
    rows = []
    for i, lam in enumerate(lams):
        base.lam = float(lam)
        base._fit_matrix(A, y01, d, target)
        row = {"lam": float(lam), "conditions": len(base.rule_),
               "train_error": float(np.mean(base.predict(frame) != np.asarray(y))),
               "test_error": np.nan, "objective": base.objective_, "status": base.lp_status_,
               "gap": base.mip_gap_, "rule": str(base.rule_), "json": base.rule_.to_json(None)}
        if X_test is not None and y_test is not None and len(X_test):
            row["test_error"] = float(np.mean(base.predict(X_test) != np.asarray(y_test)))
        rows.append(row)
        if progress is not None:
            progress(i + 1, len(lams))
    return pd.DataFrame(rows)
