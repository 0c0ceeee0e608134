"""The near-optimal set: the K best clauses that classify the training rows differently.

Math in ``docs/clause.md`` ("Alternatives").  A clause is judged by the objective every fit
reports (conditions + λ × weighted errors, in the OR form of :mod:`rulecore.rules.problem`).
Many clauses share one prediction pattern (``x > 5`` and ``x > 5.5`` with no row between
them), and listing those would show the same rule K times.  So the k-th alternative is the
cheapest clause whose predictions on the training rows differ from those of the first k − 1:
the clause MIP with one *no-good cut* per pattern already listed.  Each alternative is then
the cheapest clause with its own predictions, the list is ranked by objective, and when every
MIP is solved to optimality the ranking is certified.

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

from rulecore import highs
from rulecore.exceptions import ParameterError
from rulecore.rules.problem import ClauseProblem, Constraints
from rulecore.rules.solvers import restrict_constraints

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
    def terms(self) -> np.ndarray:
        return np.flatnonzero(self.w)


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
        Ranked by objective after the first (ties keep the order they were found in).
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ParameterError(f"The number of alternatives must be a whole number ≥ 1, not {k!r}.")
    constraints = constraints or Constraints()
    allowed, needed = constraints.columns(pr.feature_of, pr.n_terms)
    cols = np.flatnonzero(allowed)
    n, q = pr.n_terms, len(cols)
    lam = pr.lam

    # distinct patterns over the allowed columns, with the OR-positive weight of each
    A = pr.A[:, cols]
    packed = np.packbits(A, axis=1)
    _, first_row, inverse = np.unique(packed, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    Au = A[first_row]
    U = len(first_row)
    P = np.bincount(inverse, weights=pr.d * (pr.y == 1), minlength=U)
    neg = pr.y == 0
    c = 1.0 + lam * (pr.d[neg] @ A[neg])                    # column costs, ξ_Z substituted

    model = highs.Model()
    model.add_columns(c, 0.0, 1.0, integer=True)             # w: columns 0..q-1
    model.add_columns(-lam * P, 0.0, 1.0, integer=True)      # z: columns q..q+U-1
    constant = lam * float(P.sum())
    Su = sp.csr_matrix(Au, dtype=np.float64)
    I_U = sp.identity(U, format="csr")
    # z_u − Σ_{j∈J_u} w_j ≤ 0
    model.add_rows(-np.inf, np.zeros(U), sp.hstack([-Su, I_U], format="csr"))
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
    local, whole = restrict_constraints(pr.cliques, cols, n, pr.covers)
    pos_of = np.full(n, -1, dtype=np.int64)
    pos_of[cols] = np.arange(q)
    req = [pos_of[g][pos_of[g] >= 0] for g in needed]
    cap = [np.arange(q)] if constraints.max_conditions is not None else []
    groups = local + whole + req + cap
    if groups:
        sizes = [len(g) for g in groups]
        G = sp.csr_matrix((np.ones(sum(sizes)), (np.repeat(np.arange(len(groups)), sizes),
                                                 np.concatenate(groups))),
                          shape=(len(groups), q + U))
        lo = np.r_[np.full(len(local) + len(whole), -np.inf), np.ones(len(req)),
                   np.full(len(cap), -np.inf)]
        hi = np.r_[np.ones(len(local)), [len(g) - 1.0 for g in whole],
                   np.full(len(req), np.inf),
                   [float(constraints.max_conditions)] if cap else []]
        model.add_rows(lo, hi, G)

    def pattern(wq: np.ndarray) -> np.ndarray:
        return Au[:, wq].any(axis=1) if wq.any() else np.zeros(U, dtype=bool)

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
    while len(out) < k:
        res = model.solve(time_limit=float(time_limit), presolve=True)
        if not res.has_solution:
            if res.status == "infeasible":
                break  # every prediction pattern a clause can make is listed
            raise ParameterError(f"The alternatives MIP found no clause within {time_limit:g} s "
                                 f"({res.status}); raise the time limit.")
        wq = res.x[:q] > 0.5
        w = np.zeros(n, dtype=bool)
        w[cols] = wq
        obj = pr.objective(w)
        out.append(Alternative(w, obj, min(res.bound + constant, obj), res.status))
        cut(pattern(wq))
    return out
