"""The clause problem: a term matrix and labels as the OR problem the solvers take.

Math in ``docs/clause.md``.  An OR-clause over term columns ``w`` costs, with sample weights
``d`` (the BCS paper's eq. 10, ``ξ_Z`` substituted out)::

    Σ_j c_j w_j + λ Σ_{i∈P} d_i ξ_i,    c_j = 1 + λ Σ_{i∈Z} d_i a_ij,
    s.t.  A_P w + ξ_P ≥ 1,  0 ≤ ξ ≤ 1,  w ∈ {0, 1}.

An AND-rule is the OR-clause of the complemented terms with the labels swapped (De Morgan):
read in the AND view the objective is ``#conditions + λ (false positives + Σ_{positives}
#conditions they violate)``.

:func:`clause_problem` builds that problem once, in a canonical form: rows that are equal in
pattern and label are merged with their weights summed, and rows of weight 0 dropped.  Both
change nothing in the objective of any clause, so the optimum is the same, but a table with
repeated rows and the same table with integer weights give the same problem, row for row,
and so the same rule (scikit-learn's sample-weight equivalence); and large tables with few
distinct term patterns solve on far fewer rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from rulecore import progress
from rulecore.exceptions import ParameterError


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


def or_objective_exact(A: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float,
                       d: np.ndarray | None = None) -> float:
    """The same clause under the exact 0/1 error: a row of Z that the clause covers is one
    error however many chosen terms it meets (``docs/clause.md``, "Exact 0/1 error").

    ``Σ w + λ (Σ_{i∈P} d_i [row i meets no chosen term] + Σ_{i∈Z} d_i [it meets one])``.
    """
    d = np.ones(len(y)) if d is None else np.asarray(d, dtype=float)
    w = np.asarray(w, dtype=bool)
    covered = np.asarray(A[:, w]).any(axis=1) if w.any() else np.zeros(len(y), dtype=bool)
    pos = np.asarray(y) == 1
    return float(w.sum() + lam * (d[pos] @ ~covered[pos] + d[~pos] @ covered[~pos]))


def lex_order(packed: np.ndarray) -> np.ndarray:
    """The stable order that sorts rows of bytes lexicographically (first byte first).

    Parameters
    ----------
    packed : uint8 ndarray of shape (n_rows, n_bytes)
        Rows of bytes (``np.packbits`` of a 0/1 matrix).

    Returns
    -------
    int ndarray of shape (n_rows,)

    Sorting the rows as opaque byte strings (``np.unique(axis=0)``) took 4.8 s for a million
    random rows of 408 columns.  Read as big-endian 64-bit words, the rows compare in the
    same order word by word, and ``np.lexsort`` (stable: equal rows keep their order) sorts
    them in 1.5 s.
    """
    n, width = packed.shape
    words = np.zeros((n, max(1, -(-width // 8)) * 8), dtype=np.uint8)
    words[:, :width] = packed
    words = words.view(">u8").astype(np.uint64)               # big-endian: bytes in order
    return np.lexsort(np.ascontiguousarray(words.T[::-1]))   # first word most significant


def unique_rows(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(packed, axis=0, return_index=True, return_inverse=True)[1:]``, faster,
    for rows of bytes ``packed`` as :func:`lex_order` takes them.

    Returns
    -------
    first : int ndarray of shape (n_distinct,)
        Index of each distinct row's first occurrence, the distinct rows in the order
        ``np.unique`` gives them (:func:`lex_order`).
    inverse : int ndarray of shape (n_rows,)
        Each row's position among the distinct rows.
    """
    n = len(packed)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    order = lex_order(packed)
    ranked = packed[order]
    starts = np.ones(n, dtype=bool)
    starts[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return order[starts], inverse


def merge_identical_rows(rows: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge identical rows of a 0/1 matrix, summing their weights.

    Positives with the same pattern over the candidate columns have the same optimal slack, so
    one constraint ``a w + ξ ≥ 1`` with slack cost ``Σ d_i`` replaces them all: the same
    optimum, and after screening (few columns) often a hundred times fewer rows.
    """
    if len(rows) == 0:
        return rows, weights
    first, inverse = unique_rows(np.packbits(rows, axis=1))
    return rows[first], np.bincount(inverse, weights=weights, minlength=len(first))


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


@dataclass
class ClauseProblem:
    """One clause problem in OR form (``docs/clause.md``), rows merged.

    Attributes
    ----------
    A : bool ndarray of shape (n_rows, n_terms)
        Distinct rows of the OR view's term matrix (``~B`` for an AND-rule).
    y : int ndarray of shape (n_rows,)
        Their 0/1 labels in the OR view (``1 − y`` for an AND-rule).
    d : float ndarray of shape (n_rows,)
        Summed sample weights of the rows each one stands for (all > 0).
    lam : float
        λ, the weight of errors against conditions.
    rule_type : {"and", "or"}
        The rule the clause is read as.
    cliques, covers : list of int ndarray
        Conflict cliques and covers of the term columns (at most one column of a clique, not
        all of a cover: a consistent clause); empty lists allow every clause.
    feature_of : ndarray of shape (n_terms,) or None
        Input column of each term (screening's dominance test compares within a column).
    n_input_rows : int
        Rows before merging.
    """

    A: np.ndarray
    y: np.ndarray
    d: np.ndarray
    lam: float
    rule_type: str = "and"
    cliques: list = field(default_factory=list)
    covers: list = field(default_factory=list)
    feature_of: np.ndarray | None = None
    n_input_rows: int = 0

    @property
    def n_terms(self) -> int:
        return self.A.shape[1]

    def with_lam(self, lam: float) -> ClauseProblem:
        """The same problem at another λ (the rows and weights do not depend on it)."""
        return replace(self, lam=float(lam))

    def objective(self, w: np.ndarray, error: str = "hamming") -> float:
        """The objective of a 0/1 clause ``w`` (bool, shape (n_terms,)), counted directly,
        under the paper's Hamming count or the exact 0/1 error."""
        count = or_objective_exact if error == "exact" else or_objective
        return count(self.A, self.y, w, self.lam, self.d)


def merge_terms(pr: ClauseProblem, w: np.ndarray, error: str = "hamming") -> np.ndarray:
    """Clause ``w`` with each set of its terms that one term says on every row replaced by
    that term, where the clause stays consistent and its objective falls; ``w`` when none.

    A rule found without proof could list ``Card Funding != credit AND != debit AND !=
    unknown`` where ``Card Funding == prepaid`` says the same on the training rows (a
    stranger's Stripe export): one condition for three.  In the OR view a term t replaces
    the clause's terms ``K`` each within it (``A_k ≤ A_t``) when their OR is ``A_t``: the
    clause fires on the same rows with ``|K| − 1`` fewer conditions, and a positive failing
    several of ``K`` fails t once, so neither count grows.  Each replacement is kept only
    if :meth:`ClauseProblem.objective` falls, a direct count."""
    w = np.asarray(w, dtype=bool).copy()
    A = pr.A
    while True:
        S = np.flatnonzero(w)
        if len(S) < 2:
            return w
        # the terms that could say several of the clause's: those of its columns, when the
        # problem knows them (every term otherwise)
        cand = np.flatnonzero(~w if pr.feature_of is None else
                              np.isin(pr.feature_of, pr.feature_of[S]) & ~w)
        # within[k, t]: term k's rows are all rows of term t (A_k ≤ A_t); the candidates'
        # columns taken once, not every column copied per term of the clause
        Ac = A[:, cand]
        within = np.array([Ac[A[:, k]].all(axis=0) for k in S])
        best, best_val = None, pr.objective(w, error)
        for i in np.flatnonzero(within.sum(axis=0) >= 2):
            t = cand[i]
            K = S[within[:, i]]
            if not np.array_equal(A[:, K].any(axis=1), A[:, t]):
                continue
            v = w.copy()
            v[K], v[t] = False, True
            if not _consistent(pr, v):
                continue
            val = pr.objective(v, error)
            if val < best_val - 1e-9:
                best, best_val = v, val
        if best is None:
            return w
        w = best


def _consistent(pr: ClauseProblem, w: np.ndarray) -> bool:
    """At most one term of each conflict clique and not all of a cover."""
    return all(w[c].sum() <= 1 for c in pr.cliques) and \
        not any(w[c].all() for c in pr.covers)


def group_rows(groups: list, n_cols: int) -> sp.csr_matrix:
    """One row per group of columns, 1 on its members: the rows ``Σ_{j∈group} w_j`` of a
    clique (≤ 1), a cover (≤ |cover| − 1), a required feature (≥ 1) or a cap on conditions,
    over a model of ``n_cols`` columns (the ``w`` columns first).  Sparse: dense rows of
    30,000 terms for 15,000 cliques took 4.2 GB (bench/results/wide_table.md)."""
    sizes = [len(g) for g in groups]
    return sp.csr_matrix((np.ones(sum(sizes)), (np.repeat(np.arange(len(groups)), sizes),
                                                np.concatenate(groups))),
                         shape=(len(groups), n_cols))


def merge_rows(A: np.ndarray, y: np.ndarray, d: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge rows equal in pattern and label, summing weights; drop rows of weight 0.

    Returns ``(A, y, d)`` in a canonical order (sorted by label, then by packed pattern), so
    two inputs holding the same weighted rows in any order give identical arrays.
    """
    keep = d > 0
    A, y, d = A[keep], y[keep], d[keep]
    if len(y) == 0:
        return A, y, d
    packed = np.packbits(A, axis=1)
    key = np.concatenate([y.astype(np.uint8)[:, None], packed], axis=1)
    first, inverse = unique_rows(key)
    weights = np.bincount(inverse, weights=d, minlength=len(first))
    return A[first], y[first], weights


def clause_problem(B: np.ndarray, y: np.ndarray, *, lam: float, rule_type: str = "and",
                   sample_weight: np.ndarray | None = None,
                   cliques: list[np.ndarray] | None = None,
                   covers: list[np.ndarray] | None = None,
                   feature_of: np.ndarray | None = None) -> ClauseProblem:
    """The clause problem of term matrix ``B`` and 0/1 labels ``y`` (``docs/clause.md``).

    Parameters
    ----------
    B : bool ndarray of shape (n_samples, n_terms)
        Term matrix (:meth:`rulecore.rules.terms.Binarizer.transform`).
    y : ndarray of shape (n_samples,)
        0/1 labels; 1 is the class the rule says "yes" to.
    lam : float
    rule_type : {"and", "or"}
    sample_weight : ndarray of shape (n_samples,), optional
    cliques, covers, feature_of
        As in :class:`ClauseProblem`.
    """
    from rulecore.settings import check_lam

    check_lam(lam)  # before float(): True, "1" and Decimal passed as 1.0 (an adversarial review)
    B = np.asarray(B, dtype=bool)
    y = np.asarray(y).astype(np.int64)
    d = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    A_or, y_or = (~B, 1 - y) if rule_type == "and" else (B, y)
    A_m, y_m, d_m = merge_rows(A_or, y_or, d)
    progress.say(f"Merging identical rows: {len(y):,} rows, {len(y_m):,} distinct")
    return ClauseProblem(A_m, y_m, d_m, float(lam), rule_type, list(cliques or []),
                         list(covers or []), feature_of, len(y))


# ----------------------------------------------------------------------------- constraints
# What an analyst imposes on the clause (docs/clause.md, "Constraints").  ``forbid`` removes
# columns, so the constrained problem is the same problem on fewer columns and certified
# screening of *that* problem stays exact.  ``require`` (Σ_{j∈F} w_j ≥ 1 for each required
# feature F) and ``max_conditions`` (Σ_j w_j ≤ K) are rows of the MIP; screening's proofs are
# about the unconstrained optimum, so it is not used with them.


def _names(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """Feature names from ``None``, one name, or a sequence of names (order kept, no repeats)."""
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else list(value)
    return tuple(dict.fromkeys(str(v) for v in items))


@dataclass(frozen=True)
class Constraints:
    """Constraints on one clause.

    Attributes
    ----------
    require : tuple of str
        Input columns the clause must use (at least one condition on each).
    forbid : tuple of str
        Input columns it must not use.
    max_conditions : int or None
        At most this many conditions (``None``: no limit).
    """

    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    max_conditions: int | None = None

    @classmethod
    def of(cls, require: str | Sequence[str] | None = None,
           forbid: str | Sequence[str] | None = None,
           max_conditions: int | None = None) -> Constraints:
        """Constraints from an estimator's parameters, checked (:class:`ParameterError`)."""
        req, forb = _names(require), _names(forbid)
        both = [f for f in req if f in forb]
        if both:
            raise ParameterError(f"{', '.join(map(repr, both))} is both required and "
                                 "forbidden; drop it from one of the two lists.")
        if max_conditions is not None:
            if isinstance(max_conditions, bool) or not isinstance(
                    max_conditions, (int, np.integer)) or max_conditions < 0:
                raise ParameterError(f"max_conditions must be a whole number ≥ 0 or None, not "
                                     f"{max_conditions!r}.")
            max_conditions = int(max_conditions)
            if len(req) > max_conditions:
                allowed = f"at most {max_conditions} " + (
                    "is" if max_conditions == 1 else "are")
                raise ParameterError(
                    f"Requiring {len(req)} columns needs at least {len(req)} conditions, but "
                    f"{allowed} allowed: raise the maximum or require fewer columns.")
        return cls(req, forb, max_conditions)

    def __bool__(self) -> bool:
        return bool(self.require or self.forbid or self.max_conditions is not None)

    @property
    def in_solve(self) -> bool:
        """Whether the constraints add rows to the MIP (``require``, ``max_conditions``)."""
        return bool(self.require) or self.max_conditions is not None

    def words(self) -> str:
        """The constraints in a phrase: ``must use a, b; must not use c; at most 3
        conditions`` (empty without constraints)."""
        parts = []
        if self.require:
            parts.append("must use " + ", ".join(self.require))
        if self.forbid:
            parts.append("must not use " + ", ".join(self.forbid))
        if self.max_conditions is not None:
            parts.append(f"at most {self.max_conditions} condition"
                         f"{'' if self.max_conditions == 1 else 's'}")
        return "; ".join(parts)

    def broken_by(self, rule: Any) -> list[str]:
        """How a rule breaks these constraints, in words (empty when it keeps them): an
        edited rule on a forbidden column scored below the certified optimum, and the
        editor said it used "a condition outside its candidate terms" (a review)."""
        used = [c.feature for c in rule.conditions]
        out = [f"uses {f}, which it must not use" for f in self.forbid if f in used]
        out += [f"does not use {f}, which it must use" for f in self.require if f not in used]
        if self.max_conditions is not None and len(used) > self.max_conditions:
            out.append(f"has {len(used)} conditions, more than the {self.max_conditions} "
                       "allowed")
        return out

    def columns(self, feature_of: np.ndarray | None, n_terms: int
                ) -> tuple[np.ndarray, list[np.ndarray]]:
        """The term columns allowed (bool, shape (n_terms,)) and, per required feature, the
        columns of its terms (int arrays).  Raises :class:`ParameterError` for a feature that
        has no candidate term."""
        if not (self.require or self.forbid):
            return np.ones(n_terms, dtype=bool), []
        if feature_of is None:
            raise ParameterError("require / forbid need to know each term's column: pass the "
                                 "binarizer (terms=) or feature_of=.")
        feature_of = np.asarray(feature_of, dtype=object).astype(str)
        known = list(dict.fromkeys(feature_of))
        unknown = [f for f in self.require + self.forbid if f not in known]
        if unknown:
            # a date is turned into columns of its own ('HireDate (year)'): name them (a
            # review's --require HireDate got only the list of columns)
            made = [str(k) for f in unknown for k in known if k.startswith(f"{f} (")]
            if made:
                raise ParameterError(
                    f"No candidate term is on {', '.join(map(repr, unknown))}: its values "
                    f"were turned into {', '.join(map(repr, made))}; name one of those.")
            shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
            raise ParameterError(
                f"No candidate term is on {', '.join(map(repr, unknown))}: it is not a feature "
                f"of this table, or it was left out or has a single value. Columns with "
                f"terms: {shown}.")
        allowed = ~np.isin(feature_of, list(self.forbid))
        if not allowed.any():
            raise ParameterError("Every column with candidate terms is forbidden: no condition "
                                 "is left for a rule. Forbid fewer columns.")
        return allowed, [np.flatnonzero(feature_of == f) for f in self.require]
