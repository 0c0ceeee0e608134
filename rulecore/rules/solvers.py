"""Solvers of the clause problem: the exact MIP, the LP with rounding, and the small search.

Math in ``docs/clause.md``.  The 0/1 problem is solved exactly as a MIP by HiGHS
(``solver="mip"``; when the optimum provably has only a few conditions, as at small λ, an
exhaustive search over those small clauses proves it first and the MIP is skipped:
:func:`small_clause_search`), or relaxed to the LP and rounded (``"lp"``: every fractional
``w_j`` becomes 1, as in the BCS paper; ``"lp-randomized"``: randomized rounding, best of
many draws).

Consistency: no two terms of one column that contradict each other or of which one implies the
other (``x <= 6000 AND x > 6000``, ``x <= 3 AND x <= 5``), nor every level of a categorical
column (``c != a AND c != b`` when a and b are all its levels).  On rare positives such a
never-firing clause can minimise the objective, so the 0/1 problem is solved over the
consistent clauses only (P': at most one term of each conflict clique and not all of a cover,
:meth:`~rulecore.rules.terms.Binarizer.conflict_cliques`,
:meth:`~rulecore.rules.terms.Binarizer.conflict_covers`); the reported bound is a bound of that
constrained optimum.

These functions take options already checked by :func:`rulecore.rules.clause.learn_clause`,
the public entry point.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from rulecore import highs, progress
from rulecore.encode import check_memory, memory_budget, solver_bytes
from rulecore.exceptions import SolverError
from rulecore.rules.colgen import Pricing, beam_search, clique_conflicts, exact_clause
from rulecore.rules.problem import (
    column_costs,
    group_rows,
    merge_identical_rows,
    or_objective,
)
from rulecore.settings import per_row_bytes


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
    require: list[np.ndarray] | None = None,
    max_terms: int | None = None,
    cutoff: float | None = None,
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
    require : list of int ndarray, optional
        Groups of columns (indices of ``A``) of which the clause takes at least one each (a
        required feature's terms); MIP only.
    max_terms : int, optional
        At most this many columns; MIP only.
    cutoff : float, optional
        MIP only: only clauses of objective below ``cutoff`` are wanted.  When there is
        none, the status is ``"cutoff"`` (a proof: the optimum is ≥ ``cutoff``) and the
        clause returned is the best one known, or none.
    """
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
    lower = np.zeros(k + p)
    upper = np.ones(k + p)
    local, whole = restrict_constraints(cliques, cols, n, covers)  # over the candidates
    conf = Conflicts(local, k, whole)
    # The analyst's constraints (docs/clause.md, "Constraints"): Σ_{j∈F} w_j ≥ 1 for each
    # required feature F, Σ_j w_j ≤ K for at most K conditions.
    pos_of = np.full(n, -1, dtype=np.int64)
    pos_of[cols] = np.arange(k)
    needed = [pos_of[np.asarray(q, dtype=np.int64)] for q in require or ()]
    needed = [q[q >= 0] for q in needed]
    if any(len(q) == 0 for q in needed):
        raise SolverError("A required feature has no candidate term left, so no rule meets "
                          "the constraints.")
    capped = max_terms is not None

    def model_matrix() -> tuple[sp.csc_matrix, np.ndarray, np.ndarray]:
        """The LP/MIP's rows, built only when HiGHS is needed (the small-clause search may
        prove the optimum without them), after checking they fit in memory: a 1M-row table
        on which screening removes nothing needed 17 GiB (bench/results/scale.md)."""
        nonzeros = int(Ap.sum()) + p
        check_memory(solver_bytes(nonzeros),
                     f"The rule {'MIP' if solver == 'mip' else 'LP'} over {p:,} distinct rows "
                     f"× {k:,} terms ({nonzeros:,} nonzeros)",
                     "Use fewer thresholds per numeric column, leave out columns, or sample "
                     "rows. Certified screening could not remove enough terms here, which "
                     "happens when no rule is clearly better than the others (noisy labels).")
        M = sp.hstack([sp.csc_matrix(Ap, dtype=np.float64), sp.identity(p, format="csc")],
                      format="csc")
        row_lo, row_hi = np.ones(p), np.full(p, np.inf)
        # One row Σ_{j∈clique} w_j ≤ 1 per clique, Σ_{j∈cover} w_j ≤ |cover| − 1 per cover
        # (the ξ columns take no part).  With the binarizer's cliques the conflict graph is an
        # interval graph (Conflicts), hence perfect: the clique rows with 0 ≤ w ≤ 1 are
        # exactly the convex hull of the conflict-free 0/1 w.  Then the analyst's rows.
        groups = local + whole + needed + ([np.arange(k)] if capped else [])
        if groups:
            Q = group_rows(groups, k + p)
            M = sp.vstack([M, Q], format="csc")
            row_lo = np.concatenate([row_lo, np.full(len(local) + len(whole), -np.inf),
                                     np.ones(len(needed)), [-np.inf] * capped])
            row_hi = np.concatenate([row_hi, np.ones(len(local)),
                                     [len(q) - 1.0 for q in whole],
                                     np.full(len(needed), np.inf),
                                     [float(max_terms)] if capped else []])
        return M, row_lo, row_hi

    constrained = bool(needed) or capped
    if solver == "mip" and k == 0 and not needed:
        # no candidate column: the only clause is the empty one (with max_terms set, HiGHS on
        # the empty model said "no solution (optimal)": a review)
        w = np.zeros(n, dtype=bool)
        value = or_objective(A, y, w, lam, d)
        status = "cutoff" if cutoff is not None and value >= cutoff else "optimal"
        res = highs.SolveResult(status, np.zeros(p), value, value, 0.0, 0.0, True)
        return ClauseSolution(w, value, value, res, "enumeration")

    def allowed(wk: np.ndarray) -> bool:  # meets the analyst's constraints
        return all(wk[q].any() for q in needed) and (not capped or wk.sum() <= max_terms)

    def repair(wk: np.ndarray) -> np.ndarray:  # a consistent subset of wk (docs/clause.md)
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
        start = None
        if not constrained:  # the search knows nothing of require / max_terms
            progress.say(f"Trying every small rule over {k:,} terms and {p:,} distinct rows")
            wk, value, proven = small_clause_search(Ap, row_w, cost[:k], lam,
                                                    SMALL_SEARCH_BUDGET, SMALL_SEARCH_MAX_SIZE,
                                                    local, whole)
            if proven:  # exact: no MIP needed (see small_clause_search)
                res = highs.SolveResult("optimal", point(wk), value + constant,
                                        value + constant, 0.0, time.perf_counter() - t0, True)
                w = expand(wk)
                return ClauseSolution(w, or_objective(A, y, w, lam, d), value + constant, res,
                                      "enumeration")
            start = point(wk)  # the best small clause starts the MIP, unless given better
        if mip_start is not None:
            wk = repair(np.asarray(mip_start, dtype=bool)[cols])
            given = point(wk)
            if allowed(wk) and (start is None or cost @ given <= cost @ start):
                start = given
        integer = np.concatenate([np.ones(k, dtype=bool), np.zeros(p, dtype=bool)])
        # No presolve: on the rule MIPs we logged it reduced nothing (each row has its own
        # slack column), yet the hardest solves took up to 3x longer with it: λ = 0.01 on the
        # machine-failure sample, where screening removes nothing, 5.3 s -> 1.6 s; MAGIC at
        # 100 thresholds 17.8 s -> 12.7 s; 0.71x in all (bench/results/mip_presolve.md).
        M, row_lo, row_hi = model_matrix()
        progress.say(f"Solving the exact MIP over {p:,} distinct rows × {k:,} terms "
                     f"(time limit {time_limit:g} s)")
        if cutoff is not None and start is not None and cost @ start + constant >= cutoff:
            start = None  # a start at or above the cutoff is of no use to HiGHS
        res = highs.solve(cost, M, row_lo, row_hi, lower, upper, integer,
                          time_limit=time_limit, mip_start=start, presolve=False,
                          cutoff=None if cutoff is None else cutoff - constant)
        if cutoff is not None and (res.status == "cutoff" or (not res.has_solution
                                                              and res.status != "infeasible")):
            # nothing below the cutoff: proved (status "cutoff"), or not found before the time
            # limit (no proof); the clause returned is the start, or none
            w = np.zeros(n, dtype=bool) if start is None else expand(start[:k] > 0.5)
            bound = float(cutoff) if res.status == "cutoff" else res.bound + constant
            return ClauseSolution(w, or_objective(A, y, w, lam, d), bound, res, "mip")
        if not res.has_solution:
            if res.status == "infeasible":
                raise SolverError("No rule meets these constraints (the MIP is infeasible): "
                                  "require fewer features or allow more conditions.")
            raise SolverError(f"The rule MIP found no solution ({res.status}) within "
                              f"{time_limit:g} s; raise the time limit or use the LP solver.")
        w = expand(res.x[:k] > 0.5)
        bound = res.bound + constant
        return ClauseSolution(w, or_objective(A, y, w, lam, d), min(bound, np.inf), res, "mip")

    M, row_lo, row_hi = model_matrix()
    progress.say(f"Solving the LP over {p:,} distinct rows × {k:,} terms")
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


# ----------------------------------------------------------------------------- exact 0/1 error


@dataclass
class ExactSolution:
    """One clause under the exact 0/1 error (:func:`solve_clause_exact`).

    Attributes
    ----------
    w : bool ndarray of shape (n_terms,)
    objective : float
        ``#conditions + λ × weighted errors``, each wrong row counted once
        (:func:`~rulecore.rules.problem.or_objective_exact`).
    bound : float
        A proven lower bound on that objective over consistent clauses (``-inf`` when no
        proof was attempted).
    status : str
        ``"optimal"`` (the MIP proved it), the MIP's status when it stopped early
        (``"time_limit"``), ``"not proved"`` (beam search only: ``prove=False``, or the MIP
        would not fit in memory).
    seconds : float
    """

    w: np.ndarray
    objective: float
    bound: float
    status: str
    seconds: float

    @property
    def gap(self) -> float:
        return max(0.0, (self.objective - self.bound) / max(abs(self.objective), 1e-9))


def solve_clause_exact(A: np.ndarray, y: np.ndarray, lam: float, d: np.ndarray, *,
                       time_limit: float, cliques: list | None = None,
                       covers: list | None = None, max_terms: int | None = None,
                       prove: bool = True) -> ExactSolution:
    """The clause of least exact 0/1 objective on the OR problem ``(A, y, d)``.

    Every wrong row costs its weight once, however many chosen terms it meets (the paper's
    Hamming count charges a row of Z once per term).  In the AND view over ``C = ~A`` (rows of
    label 0 are the ones a clause should hold on) this is the weighted single-clause problem
    of column generation's pricing (:mod:`rulecore.rules.colgen`, (R) with μ = ν = λ d), so the
    same two solvers apply: a beam search gives the clause, then (``prove``) the exact MIP
    starts from it and either proves it optimal or improves it, within ``time_limit``.  That
    MIP's LP relaxation is weak (a covered row is bounded by each failing term separately), so
    on a clause describing the minority class the proof often does not close; the status and
    bound say so (``docs/clause.md``, "Exact 0/1 error").
    """
    t0 = time.perf_counter()
    # the beam's weighted counts are float32 products over one bool copy of the (merged) rows
    check_memory(per_row_bytes(*np.shape(A)),
                 f"The beam search of the exact 0/1 error over {np.shape(A)[0]:,} distinct rows "
                 f"× {np.shape(A)[1]:,} terms",
                 "Count errors per failed condition (error='hamming'), whose problem is "
                 "screened first, use fewer thresholds per numeric column, or sample rows.")
    A = np.asarray(A, dtype=bool)
    y = np.asarray(y).astype(np.int64)
    d = np.asarray(d, dtype=float)
    on = y == 0                          # rows the AND-clause over C = ~A should hold on
    p = A.shape[1]
    pr = Pricing(~A[on], ~A[~on], lam * d[on], lam * d[~on], clause_cost=0.0, cond_cost=1.0,
                 conflict=clique_conflicts(list(cliques or []), p), covers=list(covers or []),
                 cliques=list(cliques or []))
    shift = float(lam * d[on].sum())     # objective = (R) + λ Σ_{label 0} d
    cap = 12 if max_terms is None else int(max_terms)
    # both rankings of the beam (colgen.beam_search's `live_mix`): neither finds every
    # clause the other does, and a rare class's pair was found by the live one only
    found = sorted((c for live in (False, True) for c in beam_search(
        pr, width=20, keep=1, max_conditions=cap, live_mix=live)),
        key=lambda t: (t[1], t[0])) if cap > 0 else []
    S, v = found[0] if found else ((), pr.value(()))
    status, bound = "not proved", -np.inf
    # rows of the MIP: one per (row that should hold, term failing on it), one per other row
    nonzeros = float((~pr.BP).sum()) * 2 + float((~pr.BN).sum()) + len(pr.BN)
    if prove and solver_bytes(nonzeros) <= memory_budget():
        progress.say(f"Proving the rule optimal under the exact 0/1 error (MIP, time limit "
                     f"{time_limit:.3g} s)")
        # (without HiGHS's presolve, which overran the time limit 4× on 100,000 rows:
        # exact_clause's docstring)
        ex = exact_clause(pr, upper=v, start=S, time_limit=time_limit, max_conditions=max_terms)
        if ex.value < v - 1e-9:
            S, v = ex.terms, ex.value
        status, bound = ex.status, min(ex.bound, v)
        if ex.status == "optimal":
            bound = v
    w = np.zeros(p, dtype=bool)
    w[list(S)] = True
    return ExactSolution(w, float(v + shift), float(bound + shift), status,
                         time.perf_counter() - t0)
