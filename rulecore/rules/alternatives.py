"""The near-optimal set: the K best clauses that classify the training rows differently.

Math in ``docs/clause.md`` ("Alternatives").  A clause is judged by the objective every fit
reports (conditions + λ × weighted errors, in the OR form of :mod:`rulecore.rules.problem`).
Many clauses share one prediction pattern (``x > 5`` and ``x > 5.5`` with no row between
them), and listing those would show the same rule K times.  So the k-th alternative is the
cheapest clause whose predictions on the training rows differ from those of the first k − 1:
the clause MIP with one *no-good cut* per pattern already listed.  Each alternative is then
the cheapest clause with its own predictions.  Solved to optimality, every MIP makes the
list ranked by objective, and certified; a MIP stopped at its time limit keeps its incumbent,
which may cost more than the next entry's, so the list is in the order found (each entry's
bound is on the clauses unlike those before it).

Variables, over the allowed term columns ``j`` and the distinct row patterns ``u`` (rows that
meet the same columns get the same prediction from every clause)::

    w_j ∈ {0, 1}   the clause takes column j
    z_u ∈ {0, 1}   the OR-clause fires on pattern u:  z_u = [A_u w ≥ 1]
        z_u ≤ Σ_{j∈J_u} w_j          (fires only if a chosen column meets u)
        z_u ≥ w_j   for j ∈ J_u      (any chosen column that meets u makes it fire)

    min Σ_j c_j w_j + λ Σ_u P_u (1 − z_u)

``c_j = 1 + λ Σ_{i∈Z} d_i a_ij`` and ``P_u`` the weight of the OR-positive rows of pattern u:
at 0/1 points ``1 − z_u`` is the slack ``ξ`` of the clause MIP, so this is the same objective.
The cut for a listed pattern ``z*`` is ``Σ_{u: z*_u = 1} (1 − z_u) + Σ_{u: z*_u = 0} z_u ≥ 1``.
With more than :data:`PAIR_ROWS` pairs ``(u, j)`` the second family is aggregated into
``|J_u| z_u ≥ Σ_{j∈J_u} w_j`` (the same 0/1 points, a weaker LP).

Screening is not used: it removes terms in no *optimal* clause, and the second best may
need them.  The consistency rows (cliques, covers) and the analyst's constraints are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from rulecore import highs, progress
from rulecore.encode import check_memory, solver_bytes
from rulecore.exceptions import ParameterError
from rulecore.rules.problem import ClauseProblem, Constraints, group_rows, unique_rows
from rulecore.rules.solvers import consistent, restrict_constraints

#: Above this many (pattern, column) pairs the linking rows are aggregated (one per pattern).
PAIR_ROWS = 300_000


@dataclass
class Alternative:
    """One clause of the near-optimal set.

    Attributes
    ----------
    w : bool ndarray of shape (n_terms,)
        Its term columns.
    objective : float
        Its objective, counted directly (:meth:`ClauseProblem.objective`).
    bound : float
        A proven lower bound on the cheapest clause whose predictions differ from those of
        the alternatives before it (``objective`` itself for the first entry when it is the
        certified fit).
    status : str
        HiGHS status of the MIP that found it (``"given"`` for a clause passed in).
    rule : Rule or None
        The clause as a rule, when an estimator made the list
        (:meth:`BooleanRuleClassifier.alternatives`).
    """

    w: np.ndarray
    objective: float
    bound: float
    status: str
    rule: Any = None

    @property
    def gap(self) -> float:
        """Relative gap between the objective and the bound (0: certified)."""
        return max(0.0, (self.objective - self.bound) / max(abs(self.objective), 1e-9))

    @property
    def certified(self) -> bool:
        """Proven to be the cheapest clause with predictions unlike the ones before it."""
        return self.gap < 1e-9

    @property
    def claim(self) -> str:
        """The certificate in words: "certified", "gap 3.2%", or "not proved (no bound)" for
        a solve stopped before it had one (it read "gap inf%"; a newcomer's review)."""
        if self.certified:
            return "certified"
        if not np.isfinite(self.gap):
            return "not proved (no bound)"
        return f"gap {self.gap:.1%}"

    @property
    def terms(self) -> np.ndarray:
        return np.flatnonzero(self.w)


def _neighbours(w0: np.ndarray) -> list[np.ndarray]:
    """Clauses one step from ``w0``: one column added, dropped, or swapped for another."""
    out = []
    on, off = np.flatnonzero(w0), np.flatnonzero(~w0)
    for j in range(len(w0)):
        w1 = w0.copy()
        w1[j] = not w1[j]
        out.append(w1)
    for i in on:
        for j in off:
            w1 = w0.copy()
            w1[i], w1[j] = False, True
            out.append(w1)
    return out


def _pattern_key(z: np.ndarray) -> bytes:
    return np.packbits(z).tobytes()


def _near_optimal_columns(A: np.ndarray, y: np.ndarray, d: np.ndarray, lam: float,
                          w0: np.ndarray, k: int, feasible, cliques: list, covers: list,
                          time_limit: float) -> np.ndarray:
    """Columns that can be in one of the ``k`` alternatives (bool over the columns of ``A``).

    An upper bound ``UB`` on the k-th alternative's objective comes from k clauses with
    pairwise different predictions: ``w0`` and its cheapest neighbours (:func:`_neighbours`).
    Every clause that takes column j costs at least ``LB_j`` (the duality bound of
    docs/screening.md, eq. 7, from the LP's dual), so a column with ``LB_j > UB`` is in no
    alternative and is dropped; the rows then merge into far fewer prediction patterns and
    the MIP shrinks.  The fitted rule's own columns always stay (``LB_j`` ≤ its objective).
    """
    from rulecore.rules.screening import _duality_bounds, _feasible_dual, _lp_on, _Problem

    pos, neg = y == 1, y == 0
    c = 1.0 + lam * (d[neg] @ A[neg])
    Af = A.astype(np.float64)

    def value_and_key(w: np.ndarray) -> tuple[float, bytes]:
        z = (Af @ w.astype(np.float64)) >= 0.5
        return float(c @ w + lam * (d[pos] @ ~z[pos])), _pattern_key(z)

    best: dict[bytes, float] = {}
    v0, key0 = value_and_key(w0)
    for w1 in _neighbours(w0):
        if feasible(w1):
            v, key = value_and_key(w1)
            if key != key0 and v < best.get(key, np.inf):
                best[key] = v
    values = sorted(best.values())
    if len(values) < k - 1:
        return np.ones(A.shape[1], dtype=bool)   # too few known: no bound, keep everything
    ub = max([v0, *values[:k - 1]])
    sp_ = _Problem(A, y, lam, d, cliques, covers)   # the screening paper's scale: J / λ
    live = np.ones(A.shape[1], dtype=bool)
    _, mu, _ = _lp_on(sp_, live, time_limit)
    if mu is None:
        return live
    lb = lam * _duality_bounds(sp_, _feasible_dual(sp_, live, mu))
    keep = lb <= ub * (1 + 1e-9) + 1e-9
    return keep | w0


def alternatives(pr: ClauseProblem, k: int = 5, *, constraints: Constraints | None = None,
                 first: np.ndarray | None = None, first_bound: float | None = None,
                 time_limit: float = 30.0) -> list[Alternative]:
    """The ``k`` cheapest clauses with pairwise different predictions on the problem's rows.

    Parameters
    ----------
    pr : ClauseProblem
        The problem (rows merged), as :func:`~rulecore.rules.clause.problem_of` builds it.
    k : int, default=5
        How many alternatives; fewer come back when fewer prediction patterns exist.
    constraints : Constraints, optional
        Required and forbidden features, maximum conditions: every alternative meets them.
    first : bool ndarray of shape (n_terms,), optional
        A clause to list first (the fitted rule), whose pattern is cut off before the search;
        without it the first alternative is the optimum itself.
    first_bound : float, optional
        The bound the fit proved for ``first`` (default: none, ``-inf``).
    time_limit : float, default=30
        Seconds for each MIP; one stopped by it keeps its incumbent and reports its gap.

    Returns
    -------
    list of Alternative
        In the order found: by objective after the first, unless a solve stopped at its time
        limit (its incumbent may cost more than the next entry's); each entry's ``bound`` is
        on the clauses unlike the entries before it, so the order is kept.
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ParameterError(f"The number of alternatives must be a whole number ≥ 1, not {k!r}.")
    constraints = constraints or Constraints()
    allowed, needed = constraints.columns(pr.feature_of, pr.n_terms)
    n, lam = pr.n_terms, pr.lam
    cap = [] if constraints.max_conditions is None else [None]

    def rows_over(cols: np.ndarray) -> tuple[list, list, list]:
        """Cliques, covers and required groups over the columns ``cols`` (positions)."""
        local, whole = restrict_constraints(pr.cliques, cols, n, pr.covers)
        pos_of = np.full(n, -1, dtype=np.int64)
        pos_of[cols] = np.arange(len(cols))
        return local, whole, [pos_of[g][pos_of[g] >= 0] for g in needed]

    def meets(local: list, whole: list, req: list):
        def feasible(wq: np.ndarray) -> bool:  # consistent and meets the constraints
            return (consistent(wq, local, whole) and all(wq[g].any() for g in req)
                    and (not cap or wq.sum() <= constraints.max_conditions))
        return feasible

    cols = np.flatnonzero(allowed)
    if first is not None and k > 1:  # drop the columns no alternative can use
        progress.say("Alternatives: finding the terms a near-optimal clause can use")
        local, whole, req = rows_over(cols)
        keep = _near_optimal_columns(pr.A[:, cols], pr.y, pr.d, lam,
                                     np.asarray(first, dtype=bool)[cols], k,
                                     meets(local, whole, req), local, whole, time_limit)
        cols = cols[keep]
    q = len(cols)
    local, whole, req = rows_over(cols)
    feasible = meets(local, whole, req)

    # distinct patterns over the allowed columns, with the OR-positive weight of each
    A = pr.A[:, cols]
    first_row, inverse = unique_rows(np.packbits(A, axis=1))
    Au = A[first_row]
    U = len(first_row)
    P = np.bincount(inverse, weights=pr.d * (pr.y == 1), minlength=U)
    neg = pr.y == 0
    c = 1.0 + lam * (pr.d[neg] @ A[neg])                    # column costs, ξ_Z substituted

    nnz = int(Au.sum())
    pairs_rows = nnz if nnz <= PAIR_ROWS else U
    check_memory(solver_bytes(nnz + 2 * pairs_rows + U),
                 f"The alternatives MIP over {U:,} row patterns × {q:,} terms",
                 "Use fewer thresholds per numeric column, leave out columns, or sample rows.")
    model = highs.Model()
    model.add_columns(c, 0.0, 1.0, integer=True)             # w: columns 0..q-1
    model.add_columns(-lam * P, 0.0, 1.0, integer=True)      # z: columns q..q+U-1
    constant = lam * float(P.sum())
    Su = sp.csr_matrix(Au, dtype=np.float64)
    I_U = sp.identity(U, format="csr")
    # z_u − Σ_{j∈J_u} w_j ≤ 0
    model.add_rows(-np.inf, np.zeros(U), sp.hstack([-Su, I_U], format="csr"))
    model_rows = U + pairs_rows   # and the constraint rows below, and one cut per entry
    if Su.nnz <= PAIR_ROWS:  # w_j − z_u ≤ 0 for every pair (u, j) with a_uj = 1
        u_idx, j_idx = Su.nonzero()
        pairs = sp.csr_matrix((np.r_[np.ones(len(u_idx)), -np.ones(len(u_idx))],
                               (np.r_[np.arange(len(u_idx)), np.arange(len(u_idx))],
                                np.r_[j_idx, q + u_idx])), shape=(len(u_idx), q + U))
        model.add_rows(-np.inf, np.zeros(len(u_idx)), pairs)
    else:  # Σ_{j∈J_u} w_j − |J_u| z_u ≤ 0
        size = np.asarray(Su.sum(axis=1)).ravel()
        model.add_rows(-np.inf, np.zeros(U), sp.hstack([Su, -sp.diags(size)], format="csr"))
    # consistency, and the analyst's constraints, over the w columns
    groups = local + whole + req + [np.arange(q)] * len(cap)
    G = lo = hi = None
    if groups:
        G = group_rows(groups, q + U)
        lo = np.r_[np.full(len(local) + len(whole), -np.inf), np.ones(len(req)),
                   np.full(len(cap), -np.inf)]
        hi = np.r_[np.ones(len(local)), [len(g) - 1.0 for g in whole],
                   np.full(len(req), np.inf),
                   [float(constraints.max_conditions)] if cap else []]
        model.add_rows(lo, hi, G)
        model_rows += len(groups)

    def pattern(wq: np.ndarray) -> np.ndarray:
        return Au[:, wq].any(axis=1) if wq.any() else np.zeros(U, dtype=bool)

    listed: set[bytes] = set()
    listed_w: list[np.ndarray] = []

    def neighbour_start() -> np.ndarray | None:
        """A MIP start: the cheapest clause one step from a listed one (a term added,
        dropped or swapped) whose predictions are new.  Near-optimal alternatives are often such
        neighbours, and without a start HiGHS may spend its whole time limit looking for a
        first incumbent on a large table (bench/results/rule_editing.md)."""
        best, best_x = np.inf, None
        Af = Au.astype(np.float64)
        for w0 in listed_w:
            for w1 in _neighbours(w0):
                if not feasible(w1):
                    continue
                z = (Af @ w1.astype(np.float64)) >= 0.5
                if np.packbits(z).tobytes() in listed:
                    continue
                obj = float(c @ w1 + lam * (P @ ~z))
                if obj < best:
                    best, best_x = obj, np.concatenate([w1, z]).astype(np.float64)
        return best_x

    def cut(z: np.ndarray) -> None:
        # Σ_{on} (1 − z_u) + Σ_{off} z_u ≥ 1   ⇔   Σ_{off} z_u − Σ_{on} z_u ≥ 1 − |on|
        row = np.zeros(q + U)
        row[q:] = np.where(z, -1.0, 1.0)
        model.add_rows([1.0 - z.sum()], [np.inf], sp.csr_matrix(row))

    out: list[Alternative] = []
    if first is not None:
        w = np.asarray(first, dtype=bool)
        obj = pr.objective(w)
        out.append(Alternative(w.copy(), obj, -np.inf if first_bound is None else
                               min(float(first_bound), obj), "given"))
        cut(pattern(w[cols]))
        listed.add(np.packbits(pattern(w[cols])).tobytes())
        listed_w.append(w[cols].copy())
    while len(out) < k:
        start = neighbour_start() if listed_w else None
        if start is not None:
            model.set_start(start)
        progress.say(f"Alternatives: rule {len(out) + 1} of {k}, the MIP over {U:,} row "
                     f"patterns × {q:,} terms (time limit {time_limit:g} s)")
        # HiGHS's presolve does not watch the time limit: on 200,000 rows four solves of
        # 30 s took 342 s (a newcomer's review); on a large model it is left out, as for the
        # exact count's proof (bench/results/scale.md).  Large is the model's rows, not the
        # table's: on salesforce's 1,500 rows the 67,143 linking rows kept presolve busy 16 s
        # of a 10 s limit, and the alternative came back with no bound; without it the root
        # LP gives one in 2 s.
        res = model.solve(time_limit=float(time_limit),
                          presolve=model_rows + len(out) <= highs.PRESOLVE_MAX_ROWS)
        if not res.has_solution:
            if res.status == "infeasible":
                break  # every prediction pattern a clause can make is listed
            raise ParameterError(f"The alternatives MIP found no clause within {time_limit:g} s "
                                 f"({res.status}); raise the time limit.")
        wq = res.x[:q] > 0.5
        w = np.zeros(n, dtype=bool)
        w[cols] = wq
        obj = pr.objective(w)
        # carried forwards: the clauses unlike entries 0..i−1 are some of those unlike
        # entries 0..i−2, so entry i−1's bound holds for them too (the fit's certified
        # optimum bounded every alternative, where a MIP stopped at its limit had only its
        # root LP's bound, 19 % below: a newcomer's check of the README's example)
        carried = out[-1].bound if out else -np.inf
        out.append(Alternative(w, obj, min(max(res.bound + constant, carried), obj),
                               res.status))
        cut(pattern(wq))
        listed.add(np.packbits(pattern(wq)).tobytes())
        listed_w.append(wq.copy())

    def cheapest(w: np.ndarray) -> tuple[np.ndarray, float] | None:
        """The cheapest clause predicting as ``w`` does, and its objective, proved by a
        small MIP (None when it is not proved): every column it may take fires on none of
        the patterns ``w`` leaves out, and each pattern ``w`` fires on is met."""
        z = pattern(w[cols])
        allowed = ~Au[~z].any(axis=0) if (~z).any() else np.ones(q, dtype=bool)
        sub = highs.Model()
        sub.add_columns(c, 0.0, allowed.astype(float), integer=True)
        on = np.flatnonzero(z)
        if len(on):
            sub.add_rows(np.ones(len(on)), np.inf,
                         sp.csr_matrix(Au[on] & allowed[None, :], dtype=np.float64))
        if groups:
            sub.add_rows(lo, hi, G[:, :q])
        res = sub.solve(time_limit=float(time_limit))
        if res.status != "optimal" or not res.has_solution:
            return None
        best = np.zeros(n, dtype=bool)
        best[cols] = res.x[:q] > 0.5
        return best, pr.objective(best)

    # Bounds carried backwards (docs/clause.md, "Alternatives"): S_i, the clauses unlike
    # entries 0..i−1, is the clauses predicting as entry i does and S_{i+1}, so
    # min(cheapest with entry i's predictions, bound of S_{i+1}) bounds S_i.  The cheapest
    # with those predictions is proved by its own small MIP: the entry's clause need not be
    # it (a fitted rule from LP rounding, a solve stopped at its time limit), and taking its
    # objective for it certified a rule a cheaper twin beat (an adversarial review).  Ranks
    # 2 and 3 read "gap 2%" beside a certified rank 4 that proved them (a review).
    later = -np.inf
    for alt in reversed(out):
        if not alt.certified and later > alt.bound:
            found = cheapest(alt.w)
            if found is not None:
                w_best, m = found
                if m < alt.objective - 1e-9:  # a cheaper clause with the same predictions
                    alt.w, alt.objective = w_best, m
                alt.bound = min(alt.objective, max(alt.bound, min(m, later)))
        later = alt.bound
    for before, alt in zip(out, out[1:]):  # and forwards again, from what that proved
        alt.bound = min(alt.objective, max(alt.bound, before.bound))
    return out
