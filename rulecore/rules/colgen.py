"""DNF rule sets by column generation: a restricted master LP over AND-clauses, priced exactly.

Math in ``docs/rulesets.md`` ("Column generation").  After Dash, Günlük & Wei, "Boolean
Decision Rules via Column Generation" (NeurIPS 2018), with two changes: pricing is *exact*
(a MIP on HiGHS, after a certified screening of the terms) whenever the beam search finds no
improving clause, so the LP bound is proved over all clauses; and the final rule set can be
chosen under the exact 0/1 error, not only under the Hamming surrogate.

Notation.  Rows i with weights ``d_i > 0`` (sample × class weights), positives P, negatives Z.
A clause k is a set ``S_k`` of terms; ``a_ik = 1`` when row i meets every term of ``S_k``.  A
rule set fires on a row when any of its clauses does.  Its objective is ::

    Σ_k (1 + |S_k|)  +  λ (Σ_{i∈P} d_i [no clause fires on i]  +  E_Z),

one per clause and one per condition against λ per (weighted) error.  ``E_Z`` counts false
positives: ``Σ_{i∈Z} d_i [some clause fires]`` under the exact 0/1 error, or the Hamming
surrogate ``Σ_{i∈Z} d_i #clauses firing`` (one per clause that fires, BRCG's choice), which is
linear in the clauses and so gives the master LP ::

    min  Σ_{i∈P} λ d_i ξ_i + Σ_k c_k w_k,     c_k = 1 + |S_k| + λ Σ_{i∈Z} d_i a_ik,
    s.t. ξ_i + Σ_k a_ik w_k ≥ 1   (i ∈ P),    ξ, w ≥ 0.                        (M)

With duals ``μ_i ∈ [0, λ d_i]`` of the cover rows, a new clause S improves (M) iff its reduced
cost ::

    r(S) = 1 + |S| + Σ_{i∈Z} ν_i a_i(S) − Σ_{i∈P} μ_i a_i(S),   ν_i = λ d_i,          (R)

is negative.  :func:`best_clauses` minimises (R), the same weighted single-clause problem as
the exact 0/1 error of one rule (``docs/rulesets.md``), by beam search and, to prove that no
clause is left, by the MIP ::

    min 1 + Σ_j z_j + Σ_{i∈Z} ν_i ζ_i − Σ_{i∈P} μ_i δ_i
    s.t. δ_i + Σ_{j∈Q: B_ij=0} z_j ≤ 1   (i ∈ P, Q a conflict clique)  [a positive is covered
         ζ_i + Σ_{j: B_ij=0} z_j ≥ 1   (i ∈ Z)               only if no chosen term fails on it]
         z ∈ {0,1},  δ ∈ [0,1],  ζ ≥ 0,  at most one term per conflict clique.

(The cover rows sum over a clique, of which a clause holds one term: the same 0/1 points as
one row ``δ_i + z_j ≤ 1`` per failing term, with a tighter LP; :func:`_cover_rows`.  The
single rule's exact count uses them; pricing keeps one row per term, :func:`best_clauses`.)

Certified screening of the pricing problem: a clause containing term j covers at most the
positives meeting j, so ``r(S) ≥ 2 − Σ_{i∈P, B_ij=1} μ_i``; when that is ≥ the value to beat,
no clause with j can improve and j is left out of the MIP (it never changes the MIP's answer).

When (M) is solved over all clauses (the last pricing MIP proved min r ≥ 0), its value is a
lower bound on the Hamming objective of every rule set; the rule set returned (a MIP over the
generated clauses) is reported with its gap to that bound.
"""

from __future__ import annotations

import functools
import heapq
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from rulecore import highs, progress
from rulecore.rules import branch_and_bound
from rulecore.rules.problem import group_rows, merge_identical_rows, merge_rows, unique_rows

if TYPE_CHECKING:  # solvers imports this module
    from rulecore.rules.solvers import Conflicts

_TOL = 1e-9


# ----------------------------------------------------------------------------- clause search


@dataclass
class Pricing:
    """A weighted single-clause problem: minimise (R) over consistent AND-clauses.

    ``value(S) = clause_cost + cond_cost |S| + ν · a_Z(S) − μ · a_P(S)``.

    Attributes
    ----------
    BP, BN : bool ndarray of shape (n_pos, n_terms), (n_neg, n_terms)
        Term rows of the positives (reward ``mu`` when covered) and negatives (cost ``nu``).
    mu, nu : float ndarray
        Non-negative weights of those rows.
    clause_cost, cond_cost : float
    conflict : Conflicts or None
        Terms that may not share a clause (:func:`clique_conflicts`): ``conflict.rows(S)``
        marks the terms in conflict with those of ``S``.
    covers : list of int ndarray
        Sets of terms a clause may not contain all of.
    cliques : list of int ndarray
        Conflict cliques (the MIP's rows; ``conflict`` holds the same pairs).
    allowed : bool ndarray of shape (n_terms,) or None
        Terms a clause may use (all when None).
    """

    BP: np.ndarray
    BN: np.ndarray
    mu: np.ndarray
    nu: np.ndarray
    clause_cost: float = 1.0
    cond_cost: float = 1.0
    conflict: Conflicts | None = None
    covers: list = field(default_factory=list)
    allowed: np.ndarray | None = None
    cliques: list = field(default_factory=list)

    @property
    def n_terms(self) -> int:
        return self.BP.shape[1]

    def floats(self) -> tuple[np.ndarray, np.ndarray]:
        """``BP`` and ``BN`` as float32, made once per problem: the beam's weighted counts
        are matrix-vector products on them.  (Converting on every search to float64 took
        3.2 GB and most of the search's time at a million rows.)"""
        if getattr(self, "_floats", None) is None:
            self._floats = (self.BP.astype(np.float32), self.BN.astype(np.float32))
        return self._floats

    def value(self, S, covers: tuple[np.ndarray, np.ndarray] | None = None) -> float:
        """(R) of clause ``S`` (term indices), counted directly; ``covers``: the positives
        and negatives it covers, when the caller has them already."""
        aP, aN = covers if covers is not None else (clause_fires(self.BP, S),
                                                     clause_fires(self.BN, S))
        return float(self.clause_cost + self.cond_cost * len(S) + self.nu @ aN - self.mu @ aP)

    @functools.cached_property
    def _cover_rests(self) -> dict[int, list[frozenset[int]]]:
        """Per term t, each cover holding t without t: built once per pricing problem."""
        rest: dict[int, list[frozenset[int]]] = {}
        for c in self.covers:
            c = frozenset(np.asarray(c).tolist())
            for t in c:
                rest.setdefault(t, []).append(c - {t})
        return rest

    def completes_cover(self, S: tuple[int, ...], j: int) -> bool:
        """Does adding term ``j`` to ``S``, a clause that holds no whole cover, complete one?
        Only a cover with ``j`` in it can be completed, so only those are looked at: testing
        every cover of every extension was a third of the beam search's time (a profile of
        the test suite)."""
        return any(r.issubset(S) for r in self._cover_rests.get(j, ()))

    def consistent(self, S) -> bool:
        S = list(S)
        if self.conflict is not None and len(S) > 1 and self.conflict.pairs(S).any():
            return False
        s = set(S)
        return not any(set(c.tolist()) <= s for c in self.covers)


def clause_fires(B: np.ndarray, S) -> np.ndarray:
    """Where AND-clause ``S`` (term indices) holds on term matrix ``B``: bool, shape
    (n_rows,); the empty clause holds everywhere."""
    S = list(S)
    return B[:, S].all(axis=1) if S else np.ones(len(B), dtype=bool)


def clique_conflicts(cliques: list[np.ndarray], n_terms: int) -> Conflicts | None:
    """Which terms lie in one clique (at most one term of a clique per clause), as
    :class:`~rulecore.rules.solvers.Conflicts`: ``rows(S)`` and ``pairs(S)`` give the
    conflicts of a few terms.  A dense ``MᵀM`` over all terms took 449 s and 5.8 GB on a
    gene table of 30,000 terms (a newcomer's review: the rule set's inner CV rebuilt it for
    every λ of every fold, past its time limit); the interval form is O(n_terms)."""
    from rulecore.rules.solvers import Conflicts

    return Conflicts(cliques, n_terms) if cliques else None


def merged_pricing(B: np.ndarray, y: np.ndarray, mu: np.ndarray, nu: np.ndarray, **kw
                   ) -> Pricing:
    """A :class:`Pricing` with rows of equal pattern and label merged (weights summed) and
    rows of weight 0 dropped: every clause's value is unchanged."""
    w = np.where(y == 1, mu, nu)
    A, yy, ww = merge_rows(np.asarray(B, dtype=bool), np.asarray(y).astype(np.int64),
                           np.asarray(w, dtype=float))
    pos = yy == 1
    return Pricing(A[pos], A[~pos], ww[pos], ww[~pos], **kw)


def beam_search(pr: Pricing, *, width: int = 20, max_conditions: int = 12, keep: int = 10,
                below: float = np.inf, live_mix: bool = False
                ) -> list[tuple[tuple[int, ...], float]]:
    """Clauses of low value (R) found by beam search, best first.

    Grows clauses one term at a time from the empty clause.  Adding terms only shrinks a
    clause's cover, so every extension of S has ``value ≥ clause_cost + cond_cost (|S|+1) −
    μ · a_P(S)`` (its *bound*); a clause whose bound cannot beat the best value found is not
    grown.  Of the rest, each length keeps ``width / 2`` clauses of lowest value and up to
    ``width`` of lowest ``(value + bound) / 2``: ranking by value alone (BRCG's beam) drops
    the narrow, pure clauses that need several conditions before they pay, which the exact
    MIP then finds (measured on Pima's duals: −0.4 by value, −29.9 by the mixed ranking and
    by the MIP).  With ``live_mix``, the mixed rank picks only among extensions that can
    still pay (bound below the best value): hundreds of terms true on a row or two fill its
    slots otherwise (their bound is near their value), the pruning drops them, and the pair
    that describes a rare class is never grown.  Neither ranking finds every clause the other
    does (on the pricing problems of ``bench/beam_search.py`` the live ranking's best was
    worse in 14 of 387 searches), so :func:`~rulecore.rules.solvers.solve_clause_exact` runs
    both.  Returns up to ``keep`` distinct clauses with value < ``below``, as (sorted term
    tuple, value).
    """
    p = pr.n_terms
    allowed = np.ones(p, bool) if pr.allowed is None else pr.allowed.astype(bool)
    BPf, BNf = pr.floats()
    mu32, nu32 = pr.mu.astype(np.float32), pr.nu.astype(np.float32)  # once, not per product
    found: dict[tuple[int, ...], float] = {}
    v0 = pr.clause_cost + pr.nu.sum() - pr.mu.sum()  # the empty clause fires on every row
    if v0 < below:
        found[()] = float(v0)
    best = min(v0, below)
    # the beam: clauses S (sorted term tuples) and, per clause, the rows it covers
    beam: list[tuple[int, ...]] = [()]
    tops: dict[tuple[int, ...], float] = {}  # the best clauses of each length, whatever sign
    covP, covN = np.ones((1, len(pr.BP)), bool), np.ones((1, len(pr.BN)), bool)
    for depth in range(1, max_conditions + 1):
        # every beam clause extended by every term at once: row b, column j is S_b + {j}
        gain = _covered_sums(mu32, BPf, covP)  # μ of the covered positives each term keeps
        vals = pr.clause_cost + pr.cond_cost * depth + _covered_sums(nu32, BNf, covN) - gain
        bound = pr.clause_cost + pr.cond_cost * (depth + 1) - gain
        ok = np.repeat(allowed[None, :], len(beam), axis=0)
        for b, S in enumerate(beam):
            if S:
                ok[b, list(S)] = False
                if pr.conflict is not None:
                    ok[b] &= ~pr.conflict.rows(list(S)).any(axis=0)
        # only the terms a beam could keep: per clause, the best width + keep by value and
        # the best width by the mixed rank (ties to the lower term index); with `live_mix`
        # the latter among extensions that can still pay (bound below the best value, the
        # `alive` test below).  Hundreds of terms true on a row or two (a card's last four
        # digits) cost a condition and gain nothing: their bound is near their value, so
        # the mixed rank put them all first, the pruning then dropped them, and the beam
        # never grew the pair that describes a rare class (Stripe's `Card Funding ==
        # prepaid AND Amount > 150`, 17.6 against `Card Last4 == 1260`'s 27: a stranger's)
        rows = np.arange(len(beam))[:, None]
        pick = np.zeros_like(ok)
        pick[rows, np.argsort(np.where(ok, vals, np.inf), axis=1,
                              kind="stable")[:, :width + keep]] = True
        pays = ok
        if live_mix:
            best_now = min(best, float(np.where(ok, vals, np.inf).min(initial=np.inf)))
            pays = ok & (bound < best_now - _TOL)
        mixed = np.argsort(np.where(pays, (vals + bound) / 2, np.inf), axis=1,
                           kind="stable")[:, :width]
        pick[rows, mixed] |= np.take_along_axis(pays, mixed, axis=1)
        pick &= ok
        # the extended clauses, each once (the first of beam order, then term order)
        cand: dict[tuple[int, ...], tuple[float, float, int, int]] = {}
        bs, js = np.nonzero(pick)
        for b, j, val, bnd in zip(bs.tolist(), js.tolist(), vals[bs, js].tolist(),
                                  bound[bs, js].tolist()):
            T = tuple(sorted(beam[b] + (j,)))
            if T not in cand:
                cand[T] = (val, bnd, b, j)
        if pr.covers:
            # a beam clause is consistent and j conflicts with none of its terms (``ok``), so
            # S + {j} is consistent unless it completes a cover
            cand = {T: c for T, c in cand.items()
                    if not pr.completes_cover(beam[c[2]], c[3])}
        if not cand:
            break
        keys = list(cand)
        v, bd, parent, term = map(np.array, zip(*cand.values()))
        for i in np.argsort(v, kind="stable")[:keep]:
            if v[i] < below:
                found[keys[i]] = float(v[i])
        best = min(best, float(v.min()))
        for i in np.argsort(v, kind="stable")[:POLISHED]:
            tops[keys[i]] = float(v[i])
        alive = np.flatnonzero(bd < best - _TOL)
        if not len(alive):
            break
        by_value = alive[np.argsort(v[alive], kind="stable")[:max(width // 2, 1)]]
        by_mix = alive[np.argsort((v[alive] + bd[alive]) / 2, kind="stable")[:width]]
        nxt = np.array(list(dict.fromkeys(np.r_[by_value, by_mix].tolist())), dtype=np.int64)
        parent, term = parent[nxt], term[nxt]
        beam = [keys[i] for i in nxt]
        covP = covP[parent] & pr.BP[:, term].T
        covN = covN[parent] & pr.BN[:, term].T
    if not any(v < below for v in found.values()):
        # nothing below the target: the beam's best clauses may be one threshold away from it
        # (it grew `x0 > 1.33` where `x0 > 0.60` pays; docs/rulesets.md, "Polishing")
        for S, _ in sorted(tops.items(), key=lambda t: (t[1], t[0]))[:POLISHED]:
            T, val = polish(pr, S, max_conditions=max_conditions)
            if val < below:
                found[T] = val
    # the ranking above is in float32 sums: the values returned are counted exactly, so that
    # "below" (a negative reduced cost, in pricing) is decided in float64
    exact = ((S, pr.value(S)) for S, _ in sorted(found.items(), key=lambda t: (t[1], t[0])))
    out = sorted(((S, v) for S, v in exact if v < below), key=lambda t: (t[1], t[0]))
    return out[:keep]


#: Clauses :func:`beam_search` polishes when it finds none below its target.
POLISHED = 3


def polish(pr: Pricing, S: tuple[int, ...], *, max_conditions: int = 12, max_moves: int = 10
           ) -> tuple[tuple[int, ...], float]:
    """Improve clause ``S`` by local moves; returns the clause reached and its value (R).

    A move adds a term, drops one, or replaces one by a term it conflicts with: another
    threshold or level of the same column, the alternatives a clause can hold only one of.
    The best move is taken while it lowers (R), at most ``max_moves`` times; no clause grows
    past ``max_conditions``.  Candidates are ranked in float32 like the beam's; the value of
    a move taken is counted exactly, so a clause returned below a target is below it.

    Why: the beam fixes a term once chosen, and stops growing a clause whose extensions
    cannot pay, though a clause beside it can.  On a rare planted clause (`x0 > 0.5 AND x1
    <= −0.2 AND kind == b`, 3.3 % of 100,000 rows, bench/scale.py --table rare) every
    two-term prefix is worse than no clause; the beam stopped at ``x0 > 1.33 AND kind == b``
    (+4.72); adding ``x1 <= −0.11`` gives +1.08, and then ``x0 > 0.60`` for ``x0 > 1.33``
    −5.39.
    """
    S = tuple(sorted(int(t) for t in S))
    val = pr.value(S)
    allowed = np.ones(pr.n_terms, bool) if pr.allowed is None else pr.allowed.astype(bool)
    BPf, BNf = pr.floats()
    mu32, nu32 = pr.mu.astype(np.float32), pr.nu.astype(np.float32)

    def extensions(base: tuple[int, ...], cP: np.ndarray, cN: np.ndarray, among: np.ndarray
                   ) -> tuple[tuple[int, ...], float]:
        """The best consistent ``base + {j}``, j in ``among`` (bool mask), counted exactly;
        ``cP``, ``cN``: the rows ``base`` covers."""
        among = among & allowed
        among[list(base)] = False
        if base and pr.conflict is not None:
            among &= ~pr.conflict.rows(list(base)).any(axis=0)
        cols = np.flatnonzero(among)
        if not len(cols):
            return base, np.inf
        if 2 * len(cols) > pr.n_terms:  # an add: every term, one product per side
            vals = (_covered_sum(nu32, BNf, cN) - _covered_sum(mu32, BPf, cP))[cols]
        else:  # a swap: only the few terms of one clique, not a product over all of them
            iP, iN = np.flatnonzero(cP), np.flatnonzero(cN)
            vals = nu32[iN] @ BNf[np.ix_(iN, cols)] - mu32[iP] @ BPf[np.ix_(iP, cols)]
        for a in np.argsort(vals, kind="stable")[:5]:  # the float32 best few, exactly
            j = int(cols[a])
            if not pr.covers or not pr.completes_cover(base, j):
                T = tuple(sorted(base + (j,)))
                return T, pr.value(T)
        return base, np.inf

    everything = np.ones(pr.n_terms, bool)
    for _ in range(max_moves):
        moves = []
        if len(S) < max_conditions:
            moves.append(extensions(S, clause_fires(pr.BP, S), clause_fires(pr.BN, S),
                                    everything.copy()))
        for t in S:
            base = tuple(u for u in S if u != t)
            cP, cN = clause_fires(pr.BP, base), clause_fires(pr.BN, base)  # once per base
            moves.append((base, pr.value(base, (cP, cN))))  # drop t
            if pr.conflict is not None:
                moves.append(extensions(base, cP, cN, pr.conflict.rows([t])[0].copy()))
        T, v = min(moves, key=lambda m: (m[1], m[0]))
        if v >= val - _TOL:
            break
        S, val = T, v
    return S, val


def _covered_sum(w: np.ndarray, M: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``Σ_{i ∈ rows} w_i M_i``, shape (n_terms,), for float32 ``w``: a product over the
    covered rows only when they are few, else over all rows with the others weighted 0 (no
    copy of ``M``)."""
    if np.count_nonzero(rows) > 0.2 * len(rows):
        return np.where(rows, w, np.float32(0.0)) @ M
    idx = np.flatnonzero(rows)
    return w[idx] @ M[idx]


# a beam's weights as one (clauses × rows) float32 matrix up to this many cells (16 MB)
_BATCH_CELLS = 1 << 22


def _covered_sums(w: np.ndarray, M: np.ndarray, covers: np.ndarray) -> np.ndarray:
    """``_covered_sum`` for each row of ``covers`` (clauses × rows, bool): shape (clauses,
    n_terms).  One matrix product for the whole beam where its weights fit in
    ``_BATCH_CELLS``: on small tables the beam search was per-clause numpy overhead (5 ms a
    search on 40 rows); on large ones, one product per clause over its covered rows."""
    if covers.size > _BATCH_CELLS:
        return np.stack([_covered_sum(w, M, c) for c in covers])
    idx = np.flatnonzero(covers.any(axis=0))  # deep in the beam, clauses cover few rows
    if len(idx) > 0.5 * covers.shape[1]:
        return np.where(covers, w, np.float32(0.0)) @ M
    return np.where(covers[:, idx], w[idx], np.float32(0.0)) @ M[idx]


@dataclass
class ExactClause:
    """The exact minimum of (R) from :func:`exact_clause`."""

    terms: tuple[int, ...]
    value: float
    bound: float
    status: str
    screened_out: int
    seconds: float
    #: failing (row, term) pairs in the MIP after screening: its size (0: no MIP was built)
    pairs: int = 0
    #: the seconds the MIP was given (``exact_clause``'s ``time_limit``)
    time_limit: float = np.nan
    #: ``"mip"`` (:func:`exact_clause`) or ``"search"`` (the branch and bound of
    #: :mod:`rulecore.rules.branch_and_bound`, with the nodes it visited)
    method: str = "mip"
    nodes: int = 0
    node_limit: int = 0

    @property
    def optimal(self) -> bool:
        """The question asked is answered: the minimum was found, or (``"cutoff"``) no clause
        is below ``upper``."""
        return self.status in ("optimal", "cutoff")


def exact_clause(pr: Pricing, *, upper: float = np.inf, start: tuple[int, ...] | None = None,
                 time_limit: float = 30.0, max_conditions: int | None = None,
                 cutoff: bool = False, clique_rows: bool = True) -> ExactClause:
    """Minimise (R) exactly by the MIP of the module docstring.

    ``clique_rows``: the cover rows sum over conflict cliques (:func:`_cover_rows`); False
    gives one row ``δ_i + z_j ≤ 1`` per failing term (the same 0/1 points, a weaker LP).

    ``upper`` is a value already reached (an incumbent, or 0 in pricing: only clauses below it
    matter); terms that certainly cannot beat it are screened out first.  Returns the best
    clause found, its value, the MIP's proven lower bound (over all consistent clauses) and
    the HiGHS status; when screening leaves nothing to choose, the empty clause is compared
    with ``upper`` and the bound is ``min(upper, value of the empty clause)``.

    With ``cutoff=True`` the MIP only looks below ``upper`` (HiGHS's objective bound prunes
    every node that cannot get there).  Pricing needs no more: either a clause below ``upper``
    or the proof that there is none (status ``"cutoff"``, bound ``upper``), which on 10,000
    rows comes in a fraction of the time the full minimum takes.

    HiGHS's presolve is skipped: it does not watch the time limit.  For the
    single rule's exact count over 30,000 rows it alone took 36 s of a 30 s limit, over
    100,000 rows 113 s (the run ended at 150 s with no bound; without presolve it stopped at
    30 s with one).  On 31 folds of the 8 benchmark sets it proved as many rules or more, with
    the same objectives (``solve_clause_exact``).
    """
    t0 = time.perf_counter()
    p = pr.n_terms
    allowed = np.ones(p, bool) if pr.allowed is None else pr.allowed.astype(bool)
    v_empty = pr.clause_cost + pr.nu.sum() - pr.mu.sum()
    target = min(upper, v_empty)
    # certified screening: any clause with term j has value ≥ clause + cond − μ·B_P[:, j]
    lb_j = pr.clause_cost + pr.cond_cost - pr.mu @ pr.BP
    keep = allowed & (lb_j < target - _TOL)
    cols = np.flatnonzero(keep)
    screened = int(allowed.sum() - len(cols))
    if len(cols) == 0:
        S = () if v_empty <= upper else (start or ())
        val = pr.value(S)
        return ExactClause(tuple(S), val, min(val, target), "optimal", screened,
                           time.perf_counter() - t0, 0, time_limit)
    BP, BN = pr.BP[:, cols], pr.BN[:, cols]
    # positives that meet every kept term are covered whatever the clause: constant reward
    zP = ~BP
    varP = zP.any(axis=1) & (pr.mu > 0)
    zN = ~BN
    varN = zN.any(axis=1) & (pr.nu > 0)
    const = (pr.clause_cost - pr.mu[~zP.any(axis=1)].sum()
             + pr.nu[~zN.any(axis=1)].sum())
    k, nP, nN = len(cols), int(varP.sum()), int(varN.sum())
    pairs = int(zP[varP].sum() + zN[varN].sum())
    m = highs.Model()
    m.add_columns(np.full(k, pr.cond_cost), 0.0, 1.0, integer=True)           # z
    m.add_columns(-pr.mu[varP], 0.0, 1.0)                                     # δ
    m.add_columns(pr.nu[varN], 0.0, np.inf)                                   # ζ
    from rulecore.rules.solvers import restrict_constraints

    local, whole = restrict_constraints(pr.cliques, cols, pr.BP.shape[1], pr.covers)
    # δ_i + Σ_{j ∈ Q, i fails j} z_j ≤ 1 per positive i and clique Q of terms it fails (with
    # no cliques each term is its own Q: δ_i + z_j ≤ 1, in the same order)
    m.add_rows(-np.inf, 1.0, _cover_rows(zP[varP], local if clique_rows else [], k, nP + nN))
    # ζ_i + Σ_{j fails on i} z_j ≥ 1
    ZN = sp.csr_matrix(zN[varN].astype(np.float64))
    An = sp.hstack([ZN, sp.csr_matrix((nN, nP)), sp.identity(nN, format="csr")], format="csr")
    m.add_rows(1.0, np.inf, An)
    # consistency rows (cliques ≤ 1, covers not full) over the kept terms, then the cap
    groups = local + whole + ([np.arange(k)] if max_conditions is not None else [])
    if groups:
        m.add_rows(np.full(len(groups), -np.inf),
                   np.r_[np.ones(len(local)), [len(c) - 1.0 for c in whole],
                         [float(max_conditions)] if max_conditions is not None else []],
                   group_rows(groups, k + nP + nN))
    pos = {int(c): i for i, c in enumerate(cols)}
    if start is not None and all(int(t) in pos for t in start):
        x = np.zeros(k + nP + nN)
        zs = np.zeros(k, bool)
        zs[[pos[int(t)] for t in start]] = True
        x[:k] = zs
        x[k:k + nP] = ~(zP[varP][:, zs].any(axis=1))
        x[k + nP:] = ~(zN[varN][:, zs].any(axis=1))
        m.set_start(x)
    res = m.solve(time_limit=time_limit, presolve=False,
                  cutoff=target - const - _TOL if cutoff and np.isfinite(target) else None)
    if res.status == "cutoff":  # no clause below target: the pricing question is answered
        return ExactClause((), max(v_empty, target), target, "cutoff", screened,
                           time.perf_counter() - t0, pairs, time_limit)
    if res.x is None:
        S = tuple(start or ())
        val = pr.value(S) if start is not None else np.inf
        return ExactClause(S, val, res.bound + const, res.status, screened,
                           time.perf_counter() - t0, pairs, time_limit)
    S = tuple(int(c) for c in cols[res.x[:k] > 0.5])
    val = pr.value(S)
    bound = min(res.bound + const, val) if res.status == "optimal" else res.bound + const
    if v_empty < val:
        S, val = (), v_empty
    return ExactClause(S, val, min(bound, target), res.status, screened,
                       time.perf_counter() - t0, pairs, time_limit)


def _cover_rows(fails: np.ndarray, cliques: list[np.ndarray], k: int, n_rest: int
                ) -> sp.csr_matrix:
    """Rows ``δ_i + Σ_{j ∈ Q, i fails j} z_j ≤ 1`` of the pricing MIP: one per positive i and
    group Q of a partition of the k terms into conflict cliques (singletons for terms in
    none) on which i fails some term.  δ_i is column ``k + i``.

    A clause holds at most one term of a clique, so each row is valid; it implies the rows
    ``δ_i + z_j ≤ 1`` of its members, and its LP relaxation is tighter (z spread over a
    clique's terms no longer leaves δ_i near 1), with fewer rows."""
    # greedy: each time the clique with the most terms not yet placed (lazily re-counted).
    # Largest-first by full size is not enough: a numeric column's cliques all have D + 1
    # terms (terms.py, conflict_cliques), and the first, every "x > t" and the lowest
    # "x <= t", would leave each other "x <= t" alone in its own group
    part = np.full(k, -1, dtype=np.int64)
    heap = [(-len(c), i) for i, c in enumerate(cliques)]
    heapq.heapify(heap)
    g = 0
    while heap:
        size, i = heapq.heappop(heap)
        free = cliques[i][part[cliques[i]] < 0]
        if len(free) < -size:  # some were placed since it was counted: count again
            if len(free):
                heapq.heappush(heap, (-len(free), i))
            continue
        part[free] = g
        g += 1
    lone = np.flatnonzero(part < 0)
    part[lone] = part.max(initial=-1) + 1 + np.arange(len(lone))
    n_groups = int(part.max(initial=-1)) + 1
    r_i, c_j = np.nonzero(fails)
    cell = r_i * n_groups + part[c_j]  # (row, group) of each failing pair
    # the (row, group) cells holding a pair, numbered in order: a mark and a running count
    # (np.unique's sort took 1 s of 3.5 s on 100,000 rows × 400 terms)
    has = np.zeros(fails.shape[0] * n_groups, dtype=bool)
    has[cell] = True
    key = np.flatnonzero(has)
    row = (np.cumsum(has) - 1)[cell]
    n_rows = len(key)
    return sp.csr_matrix((np.ones(len(r_i) + n_rows),
                          (np.r_[row, np.arange(n_rows)], np.r_[c_j, k + key // n_groups])),
                         shape=(n_rows, k + n_rest))


def mip_pairs(pr: Pricing, upper: float) -> int:
    """Failing (row, term) pairs of the pricing MIP :func:`exact_clause` would build to get
    below ``upper``: its size, counted before it is built (from the float32 copy the beam
    search made, with room for its rounding, so it may count a term more)."""
    BPf, BNf = pr.floats()
    mu, nu = np.asarray(pr.mu, float), np.asarray(pr.nu, float)
    target = min(upper, pr.clause_cost + nu.sum() - mu.sum())
    reach = mu.astype(np.float32) @ BPf
    keep = reach > pr.clause_cost + pr.cond_cost - target - 1e-5 * (1.0 + mu.sum())
    if pr.allowed is not None:
        keep &= np.asarray(pr.allowed, bool)
    onP, onN = (mu > 0).astype(np.float32), (nu > 0).astype(np.float32)
    # (products over every term, then the kept ones: BPf[:, keep] copied up to GBs at a
    # million rows; counts of 0/1 rows are exact in float32 up to 2^24 rows)
    meets = (onP @ BPf)[keep] + (onN @ BNf)[keep]
    return int(round(float(keep.sum() * (onP.sum() + onN.sum()) - meets.sum(dtype=np.float64))))


def _unanswered(ex: ExactClause) -> str:
    """The stop of an exact pricing that neither found a clause nor proved there is none: its
    time limit (the MIP's ``"time_limit"``, the search's ``"time limit"``), or any other status
    HiGHS ended on, which is not a time-out and must not be reported as one."""
    return "timed out" if ex.status in ("time_limit", "time limit") else "solver stopped"


def best_clauses(pr: Pricing, *, below: float = 0.0, exact: bool = True, width: int = 20,
                 keep: int = 10, max_conditions: int = 12, time_limit: float = 30.0,
                 mip_size: int | None = None, mip_seconds: float = 10.0,
                 search_rows: int = 0, search_nodes: int | None = None,
                 search_time_limit: float = 60.0
                 ) -> tuple[list[tuple[tuple[int, ...], float]], ExactClause | None]:
    """Clauses with value (R) below ``below``: beam search, then (if it finds none and
    ``exact``) an exact method, which either finds one or proves there is none.  Returns the
    clauses (best first) and the exact method's answer (``None`` when none was run).

    The exact method is the MIP (:func:`exact_clause`, ``mip_seconds``) when it has at most
    ``mip_size`` failing (row, term) pairs (None: any size); past that, on ``search_rows``
    rows or more, the branch and bound over clauses
    (:func:`~rulecore.rules.branch_and_bound.search_clauses`, at most ``search_nodes`` nodes
    and ``search_time_limit`` seconds), and on fewer the MIP with ``time_limit``.  Past a
    few thousand pairs the MIP finishes in its time or not depending on the machine's load,
    and on the planted table's 10,000 rows its bound stayed at −4.4 after 300 s, where the
    search proves in 3 s (``docs/rulesets.md``, "The exact pricing")."""
    found = beam_search(pr, width=width, keep=keep, max_conditions=max_conditions, below=below)
    if found or not exact:
        return found, None
    pairs = mip_pairs(pr, below) if mip_size is not None else 0
    large = mip_size is not None and pairs > mip_size
    if large and len(pr.mu) + len(pr.nu) >= search_rows:
        nodes = branch_and_bound.MAX_NODES if search_nodes is None else int(search_nodes)
        progress.say(f"Exact pricing: a branch and bound over clauses, to prove that none "
                     f"improves the set (at most {nodes:,} nodes)")
        # (first=True: its clause is not added, column_generation, so whether one exists is
        # all it needs to know)
        res = branch_and_bound.search_clauses(pr, below=below, max_conditions=max_conditions,
                                              max_nodes=nodes, time_limit=search_time_limit,
                                              first=True)
        # "cutoff" as the MIP says it: no clause below ``below``
        status = "cutoff" if res.proved else res.status
        ex = ExactClause(res.terms, res.value, below if res.proved else -np.inf, status, 0,
                         res.seconds, pairs, search_time_limit, "search", res.nodes, nodes)
        return ([(res.terms, res.value)] if res.status == "found" else []), ex
    progress.say(f"Exact pricing: proving that no clause improves the set (solver time limit "
                 f"{time_limit if large else mip_seconds:.3g} s)")
    # exact_clause skips presolve, which overran this 1 s limit to 11 s on 100,000 rows (7 s
    # without; the rest is HiGHS setting up the 1.7M-row MIP).  On the 8 binary benchmark sets
    # the rule set's mean error was 0.198 without, 0.201 with (bench/results/ruleset_variants.md)
    # (max_conditions: the proof is over the clauses the beam may return; without it the MIP
    # answered a 4-condition clause to max_conditions=1, a notebook review)
    # (clique_rows=False: with the tighter rows this MIP finds more clauses within its second,
    # which the final fit adds though the inner CV, beam only, never measured them; on the 8
    # binary benchmark sets the mean error went 0.2013 -> 0.2062, reproducibly; the single
    # rule keeps them: bench/results/rulesets_vs_anchors.md, "Polishing")
    ex = exact_clause(pr, upper=below, time_limit=time_limit if large else mip_seconds,
                      cutoff=True, max_conditions=max_conditions, clique_rows=False)
    if mip_size is not None:  # the size the route was chosen by (its screening keeps a
        ex.pairs = pairs      # float32 margin): what column_generation judges it by too
    if ex.value < below - _TOL:
        return [(ex.terms, ex.value)], ex
    return [], ex


# ----------------------------------------------------------------------------- master


@dataclass
class MasterLP:
    """One solve of the master LP (M) (:class:`RowMaster`, :class:`PatternMaster`).

    Attributes
    ----------
    status : str
        HiGHS's status.
    objective : float
        (M)'s value over the clauses generated so far (nan when not solved).
    mu : float ndarray of shape (n_positives,) or None
        An optimal dual of the cover rows, one per positive, only when the LP was solved to
        optimality.  A row whose slack ξ_i sits at its bound 1 may have μ_i > λ d_i (the
        bound's own dual takes the excess); ``min(μ, λ d)`` is the dual without it, of the
        same value.
    w : float ndarray of shape (n_clauses,) or None
        The clauses' weights in the LP's solution (the last point, if it stopped early).
    groups : int
        Rows of the LP solved: the positives' distinct cover patterns.
    """

    status: str
    objective: float
    mu: np.ndarray | None
    w: np.ndarray | None
    groups: int


#: Distinct positives above which the master LP has a row per cover pattern
#: (:class:`PatternMaster`) instead of a row per positive (:class:`RowMaster`).  Below it the
#: row-per-positive LP, kept in one HiGHS model and re-solved from its last basis, is cheap,
#: and the pattern master, rebuilt each round (its rows split), is not: on the 8 binary
#: benchmark sets (a few hundred positives per fold) it took 426 s against 307 s for the 80
#: folds.  On a million rows (about 300,000 distinct positives) the row master's LPs took
#: 89 s of a 129 s fit, the pattern master's a fraction of a second
#: (``bench/results/scale.md``).
PATTERN_MASTER_ROWS = 5_000


class RowMaster:
    """The master LP (M) with one row per positive, in one HiGHS model: clauses are added as
    columns and each solve starts from the last basis."""

    def __init__(self, dP: np.ndarray, lam: float) -> None:
        self.dP = np.asarray(dP, dtype=float)
        self.lam = float(lam)
        nP = len(self.dP)
        self.model = highs.Model()
        self.model.add_columns(self.lam * self.dP, 0.0, 1.0)                # ξ
        self.model.add_rows(np.ones(nP), np.inf, sp.identity(nP, format="csr"))

    def add(self, covers: list[np.ndarray], costs) -> None:
        """As :meth:`PatternMaster.add`."""
        if len(covers):
            self.model.add_columns(np.asarray(costs, dtype=float), 0.0, np.inf,
                                   A=sp.csc_matrix(np.column_stack(covers).astype(np.float64)))

    def solve(self, time_limit: float) -> MasterLP:
        """Solve (M) over the clauses added so far, within ``time_limit`` seconds."""
        nP = len(self.dP)
        res = self.model.solve(time_limit=time_limit)
        w = res.x[nP:].copy() if res.x is not None else None
        mu = np.clip(res.row_dual, 0.0, None) if res.row_dual is not None else None
        return MasterLP(res.status, float(res.objective), mu, w, nP)


class PatternMaster:
    """The master LP (M) with one row per *cover pattern* of the positives, not per positive.

    Positives covered by the same generated clauses have the same row of (M) but for their
    weight, and an optimal ξ_i = max(0, 1 − Σ_k a_ik w_k) is the same for all of them.  So one
    row per group g, ``ξ_g + Σ_k a_gk w_k ≥ 1`` with ξ_g ∈ [0, 1] costing ``λ D_g``
    (D_g = Σ_{i∈g} d_i), is the same LP, with the same value.  Its dual y_g gives each
    member ``μ_i = y_g d_i / D_g``: it meets the dual constraint of every clause generated
    (a_ik is the group's), and ξ_i's bound takes the excess over λ d_i as ξ_g's does over
    λ D_g, so it is an optimal dual of the row-per-positive master (``docs/rulesets.md``,
    "The master over cover patterns").  The groups split as clauses are added.  Used above
    :data:`PATTERN_MASTER_ROWS` distinct positives.
    """

    def __init__(self, dP: np.ndarray, lam: float) -> None:
        self.dP = np.asarray(dP, dtype=float)
        self.lam = float(lam)
        self.group = np.zeros(len(self.dP), dtype=np.int64)         # each positive's pattern
        self.first = np.zeros(min(len(self.dP), 1), dtype=np.int64)  # a member of each
        self.cover: list[np.ndarray] = []   # per clause: which groups it covers
        self.cost: list[float] = []         # per clause: c_k

    @property
    def n_groups(self) -> int:
        return len(self.first)

    def add(self, covers: list[np.ndarray], costs) -> None:
        """Add clauses: ``covers[k]`` (bool, shape (n_positives,)) the positives clause k
        covers, ``costs[k]`` its cost c_k in (M)."""
        costs = [float(c) for c in costs]
        if len(covers) != len(costs):
            raise ValueError("one cost per clause")
        self.cost += costs
        if not covers:
            return
        if not len(self.dP):
            self.cover += [np.zeros(0, bool) for _ in covers]
            return
        # a positive's new pattern: its old group, then the new clauses' bits
        old = self.group
        key = np.concatenate([old.astype(">u8").view(np.uint8).reshape(-1, 8),
                              np.packbits(np.column_stack(covers), axis=1)], axis=1)
        self.first, self.group = unique_rows(key)
        self.cover = ([c[old[self.first]] for c in self.cover]
                      + [np.asarray(c, bool)[self.first] for c in covers])

    def solve(self, time_limit: float) -> MasterLP:
        """Solve (M) over the clauses added so far, within ``time_limit`` seconds."""
        G, K = self.n_groups, len(self.cost)
        D = np.bincount(self.group, weights=self.dP, minlength=G)
        m = highs.Model()
        m.add_columns(self.lam * D, 0.0, 1.0)                       # ξ_g
        m.add_rows(np.ones(G), np.inf, sp.identity(G, format="csr"))
        if K:
            m.add_columns(np.array(self.cost), 0.0, np.inf,          # w_k
                          A=sp.csc_matrix(np.column_stack(self.cover).astype(np.float64)))
        res = m.solve(time_limit=time_limit)
        w = res.x[G:G + K].copy() if res.x is not None else None
        if res.row_dual is None:
            return MasterLP(res.status, float(res.objective), None, w, G)
        y = np.clip(res.row_dual, 0.0, None)
        share = np.divide(self.dP, D[self.group], out=np.zeros(len(self.dP)),
                          where=D[self.group] > 0)
        return MasterLP(res.status, float(res.objective), y[self.group] * share, w, G)


@dataclass
class ColumnGenerationResult:
    """A DNF rule set from :func:`column_generation`.

    Attributes
    ----------
    clauses : list of tuple of int
        Term indices of each chosen clause.
    objective : float
        The rule set's objective, counted directly, under the ``error`` chosen.
    hamming_objective : float
        Its objective under the Hamming surrogate (for comparison with ``lp_bound``).
    lp_bound : float
        Value of the master LP (M) at the end.  When ``certified``, a lower bound on the
        Hamming objective of every rule set.
    certified : bool
        The last pricing MIP proved that no clause improves (M).
    gap : float
        ``(hamming_objective − lp_bound) / hamming_objective`` when certified, else ``nan``.
    status : str
        ``optimal`` (master MIP over the generated clauses solved; it runs only when
        ``certified`` by a pricing MIP of at most :data:`REPEATABLE_PRICING_PAIRS` pairs),
        ``time_limit``, ...; otherwise: ``support`` (the MIP over the
        clauses the LP uses, solved to the end) or ``rounded`` (it was cut: the best rounding
        of the master LP, improved by local search; with ``master_time_limit=0`` not
        improved, as in the inner cross-validation's fits).
    pool : list of tuple of int
        Every clause generated (a warm start for the next λ).
    iterations : int
    seconds : float
    error : str
    pricing_stop : str
        Why the pricing loop ended (:data:`PRICING_STOPS`): ``"proved"`` when ``certified``,
        else what happened instead (the report says it).
    pricings : list of dict
        Each exact pricing run, in order: its ``method`` (``"search"``, the branch and
        bound, past :data:`REPEATABLE_PRICING_PAIRS` failing (row, term) ``pairs`` on
        :data:`SEARCH_ROWS` distinct rows or more, with the ``nodes`` it visited of its
        ``node_limit``; else ``"mip"``), ``status``, ``seconds``, the ``time_limit`` it was
        given, and whether it ``found`` an improving clause (one the beam missed).  A run
        cut by its time limit adds nothing, nor does one past REPEATABLE_PRICING_PAIRS.
    """

    clauses: list
    objective: float
    hamming_objective: float
    lp_bound: float
    certified: bool
    gap: float
    status: str
    pool: list
    iterations: int
    seconds: float
    error: str = "hamming"
    # why the pricing loop ended (PRICING_STOPS), and each exact pricing run: its method,
    # status, seconds, the time limit it was given, and whether it found an improving clause
    pricing_stop: str = "proved"
    pricings: list = field(default_factory=list)


#: Why column generation's pricing loop ended (``ColumnGenerationResult.pricing_stop``); only
#: ``"proved"`` certifies the LP bound.
PRICING_STOPS = (
    "proved",            # the exact pricing proved that no clause improves (M)
    "not asked",         # certify=False (the inner cross-validation's fits)
    "timed out",         # the last exact pricing stopped at its time limit (a clause it
    #                      held by then is not added: which one depends on the load)
    "node limit",        # the last search stopped at its node limit with neither answer
    "solver stopped",    # the last exact pricing ended on another HiGHS status (memory
    #                      limit, interrupt, error): no answer, and it is named as such
    "left out",          # an exact pricing past REPEATABLE_PRICING_PAIRS found a clause
    #                      the beam missed: not added
    "too many weights",  # the search was not run: more distinct weights than it packs
    #                      (branch_and_bound.MAX_LEVELS)
    "no round left",     # the beam found nothing, the exact runs allowed had all been run
    #                      (each found a clause the beam missed)
    "out of time",       # the loop's time ran out while clauses still improved (M)
    "iterations",        # max_iterations rounds, clauses still improving (M)
    "master failed",     # the master LP gave no duals
    "no new clause",     # pricing returned only clauses already generated
)


#: Failing (row, term) pairs (``ExactClause.pairs``) up to which the exact pricing is the MIP:
#: it gets :data:`REPEATABLE_PRICING_SECONDS`, and a clause it finds is added.  A larger
#: problem only proves: on :data:`SEARCH_ROWS` distinct rows or more by the branch and bound
#: over clauses, whose work limit is a node count, on fewer by a MIP with a short limit.
#: Whether a MIP finishes within a wall-clock limit depends on the machine's load: on wine
#: (5,200–22,200 pairs) the final fits' MIPs took 0.02–2.8 s against their 1 s, and the same
#: fit added a clause on one run and not on the next, in up to 3 of 5 folds.  Up to this size
#: the MIPs measured took at most 0.5 s (the reviewer's 24 small tables, at most 420 pairs:
#: 0.1 s); just above it, at 2,200 pairs, one took 2.1 s (docs/rulesets.md, "Repeatability").
#: HiGHS also spends the time building a large MIP whatever its limit: 6.9 s at 100,000 rows,
#: about 100 s at 1,000,000 (bench/results/scale.md).
REPEATABLE_PRICING_PAIRS = 2_000

#: The share of column generation's ``time_limit`` that one branch and bound over clauses
#: may take (its work limit is its node count; this only keeps a search that neither proves
#: nor finds from taking the whole fit: on the rare planted table of ``bench/scale.py`` it
#: reached its 50,000 nodes without an answer, in 9 s at 10,000 rows and about 100 s at
#: 1,000,000).  The common table's proof takes 12.8 s at 1,000,000 rows; in the app, whose
#: time limit is 30 s, a 1,000,000-row upload's final fit has about 20 s, and the proof on its
#: 750,000 training rows took 9.5 s: 40 % (8.6 s) stopped it after 6,606 of its 7,693 nodes,
#: a half let it finish (bench/results/app_upload_1m.md).
SEARCH_SHARE = 0.5

#: Distinct rows from which a pricing problem past :data:`REPEATABLE_PRICING_PAIRS` goes to
#: the branch and bound over clauses; below, to a MIP with the short ``pricing_time_limit``
#: that only proves.  On the benchmark sets (a few hundred rows, many terms) the search
#: often reached its node limit with no answer: ilpd's 10 folds took 95 s, where all 8 sets'
#: 80 had taken 258 s, with the same errors; with the faster search and half the fit's time,
#: 122 s against 38 s, none of the 10 certified.  The planted table's 10,000 rows it proves in
#: 1 s.
SEARCH_ROWS = 5_000

#: Seconds for a pricing MIP of at most :data:`REPEATABLE_PRICING_PAIRS` pairs.
REPEATABLE_PRICING_SECONDS = 10.0


def ruleset_objective(B: np.ndarray, y: np.ndarray, d: np.ndarray, clauses, lam: float,
                      error: str = "hamming") -> float:
    """The rule-set objective counted directly: ``Σ_k (1 + |S_k|) + λ errors`` (docstring)."""
    B = np.asarray(B, bool)
    y = np.asarray(y).astype(np.int64)
    hits = np.zeros(len(y))
    for S in clauses:
        hits += clause_fires(B, S)
    pos = y == 1
    miss = d[pos] @ (hits[pos] == 0)
    fp = d[~pos] @ (hits[~pos] if error == "hamming" else hits[~pos] > 0)
    return float(sum(1 + len(S) for S in clauses) + lam * (miss + fp))


def column_generation(B: np.ndarray, y: np.ndarray, d: np.ndarray | None = None, *,
                      lam: float = 1.0, error: str = "hamming",
                      cliques: list | None = None, covers: list | None = None,
                      pool: list | None = None, certify: bool = True,
                      max_iterations: int = 100, max_conditions: int = 12,
                      beam_width: int = 20, columns_per_round: int = 10,
                      time_limit: float = 60.0, pricing_time_limit: float = 10.0,
                      master_time_limit: float = 10.0, max_exact_pricings: int = 3,
                      search_nodes: int | None = None) -> ColumnGenerationResult:
    """Learn a DNF rule set over the term matrix ``B`` (module docstring).

    Parameters
    ----------
    B : bool ndarray of shape (n_samples, n_terms)
    y : ndarray of shape (n_samples,)
        0/1 labels; the rule set says "yes" to 1.
    d : ndarray of shape (n_samples,), optional
        Row weights (sample × class weights).
    lam : float
        λ: the weight of one (weighted) error against one clause or one condition.
    error : {"hamming", "exact"}
        The false-positive count the final rule set is chosen under.
    cliques, covers : list of int ndarray
        Term conflicts (:meth:`Binarizer.conflict_cliques`): clauses are consistent.
    pool : list of tuple of int, optional
        Clauses to start from (e.g. those generated at a nearby λ).
    certify : bool
        Run the exact pricing when the beam finds nothing, to prove the LP bound: the MIP
        up to :data:`REPEATABLE_PRICING_PAIRS` failing (row, term) pairs, else the branch
        and bound over clauses (:mod:`rulecore.rules.branch_and_bound`).
    max_iterations, max_conditions, beam_width, columns_per_round
        Limits of the loop and of the beam search.
    time_limit : float
        Seconds for the whole call; each HiGHS run gets what is left.
    pricing_time_limit : float
        Seconds for one exact pricing MIP, at least :data:`REPEATABLE_PRICING_SECONDS`, at
        most what is left; the search gets :data:`SEARCH_SHARE` of ``time_limit``, at most
        what is left.  When either stops at its limit,
        the LP bound is not proved (``certified`` is False), a clause it holds is not added
        (which one it holds by then depends on the machine's load), and the rule set is
        still returned.
    max_exact_pricings : int
        Exact pricing runs at most: each one that finds a clause the beam missed costs a
        run; after this many the loop stops when the beam finds nothing (not certified).
    search_nodes : int, optional
        The branch and bound's node limit (default
        :data:`~rulecore.rules.branch_and_bound.MAX_NODES`): its work limit, the same on
        any machine.
    master_time_limit : float
        Seconds for the final MIP that chooses among the generated clauses.  Over every
        clause only when the pricing proved the LP bound (its incumbent is kept when the
        proof takes longer; ``status`` says so); otherwise over the clauses the LP uses, and
        used only when solved to the end (a MIP cut by its limit returns whatever incumbent
        it held by then, and the same fit gave another rule set on a loaded machine).
        0: no MIP, the best rounding of the LP (status ``"rounded"``; the inner CV's fits).
    """
    t0 = time.perf_counter()
    deadline = t0 + float(time_limit)
    B = np.asarray(B, dtype=bool)
    y = np.asarray(y).astype(np.int64)
    d = np.ones(len(y)) if d is None else np.asarray(d, dtype=float)
    # said before the first round's work (on 750,000 rows of the app the page read "Final
    # fit at λ = …" for 10 s while rows were merged and the first beam ran)
    progress.say(f"Column generation on {len(y):,} rows: merging identical rows")
    A, yy, ww = merge_rows(B, y, d)
    progress.say(f"Column generation: {len(A):,} distinct rows; a first clause by beam search")
    pos = yy == 1
    BP, BN = A[pos], A[~pos]
    dP, dN = ww[pos], ww[~pos]
    nP, p = BP.shape
    conflict = clique_conflicts(list(cliques or []), p)
    pricing = Pricing(BP, BN, np.zeros(nP), lam * dN, 1.0, 1.0, conflict, list(covers or []),
                      cliques=list(cliques or []))

    def left() -> float:
        return max(deadline - time.perf_counter(), 0.05)

    seen: set[tuple[int, ...]] = set()
    cols: list[tuple[int, ...]] = []
    cov_P: list[np.ndarray] = []  # each column's cover of the positives and negatives,
    cov_N: list[np.ndarray] = []  # computed once (the final MIP reuses them)
    master = (PatternMaster if nP > PATTERN_MASTER_ROWS else RowMaster)(dP, lam)

    def add(clauses) -> int:
        k0 = len(cols)
        for S in clauses:
            S = tuple(sorted(int(t) for t in S))
            if S in seen or not pricing.consistent(S):
                continue
            seen.add(S)
            cols.append(S)
            cov_P.append(clause_fires(BP, S))
            cov_N.append(clause_fires(BN, S))
        if len(cols) > k0:
            master.add(cov_P[k0:], [1 + len(S) + lam * (dN @ c)
                                    for S, c in zip(cols[k0:], cov_N[k0:])])
        return len(cols) - k0

    # start: the pool, and the single best clause of the un-dualled problem (all μ = λ d)
    add(pool or [])
    pricing.mu = lam * dP
    add([S for S, _ in beam_search(pricing, width=beam_width, keep=columns_per_round,
                                   max_conditions=max_conditions)])
    certified, it, lp, stale = False, 0, None, True
    pricings: list[dict] = []  # each exact pricing run (ColumnGenerationResult.pricings)
    stop = "iterations"
    # the master MIP that chooses the clauses keeps its time: the loop stops early enough
    # (on a million rows it ran to the deadline and the choice got 0.05 s)
    loop_end = deadline - min(float(master_time_limit), 0.2 * float(time_limit))
    while it < max_iterations:
        if time.perf_counter() >= loop_end:
            stop = "out of time"
            break
        it += 1
        lp = master.solve(time_limit=left())
        stale = False
        if lp.mu is None:
            stop = "master failed"
            break
        pricing.mu = lp.mu
        # (every exact run but a finished one that found a clause to add ends the loop)
        exact = certify and len(pricings) < max_exact_pricings
        found, ex = best_clauses(pricing, below=-1e-7, exact=exact, width=beam_width,
                                 keep=columns_per_round, max_conditions=max_conditions,
                                 time_limit=min(left(), pricing_time_limit),
                                 mip_size=REPEATABLE_PRICING_PAIRS,
                                 mip_seconds=min(left(), max(REPEATABLE_PRICING_SECONDS,
                                                             pricing_time_limit)),
                                 search_rows=SEARCH_ROWS, search_nodes=search_nodes,
                                 search_time_limit=min(left(), SEARCH_SHARE * time_limit))
        if ex is not None:
            pricings.append({"method": ex.method, "status": ex.status,
                             "seconds": float(ex.seconds), "time_limit": float(ex.time_limit),
                             "found": bool(found), "pairs": ex.pairs, "nodes": ex.nodes,
                             "node_limit": ex.node_limit})
        if not found:
            certified = ex is not None and ex.optimal
            stop = ("proved" if certified
                    else ex.status if ex is not None and ex.status in ("node limit",
                                                                      "too many weights")
                    else _unanswered(ex) if ex is not None
                    else "not asked" if not certify or max_exact_pricings <= 0
                    else "no round left")
            break
        if ex is not None and not (ex.optimal or ex.status == "found"):
            # the run stopped at its time limit holding a clause: which one, if any, it holds
            # by then depends on the machine's speed and load (on a loaded core 3 of 12
            # benchmark fits came out different), so it is not added; the set is not proved
            stop = _unanswered(ex)
            break
        if ex is not None and ex.pairs > REPEATABLE_PRICING_PAIRS:
            # a problem this large only proves.  The MIP finishes around its short limit
            # (wine's: 0.02–2.8 s against 1 s), so whether its clause would be added depends
            # on the load.  The search's answer does not, but the inner cross-validation that
            # chose λ measured fits built from the beam search's clauses; adding the least
            # clause it finds, on ilpd's 10 folds: error 0.2915 against 0.295, in 118 s, where
            # all 8 sets' 80 folds had taken 258 s (docs/rulesets.md, "The exact pricing")
            stop = "left out"
            break
        if add([S for S, _ in found]) == 0:
            stop = "no new clause"
            break
        stale = True
        progress.say(f"Column generation: {len(cols):,} clauses priced, master LP "
                     f"{float(lp.objective):,.4g}")
    if stale:  # clauses were added after the last LP: its value is not the master's
        lp = master.solve(time_limit=left())
    lp_bound = float(lp.objective) if lp.w is not None else np.nan

    # the choice among the clauses gets its own time, past the deadline if need be: one
    # iteration on a million rows can run over it, and the choice then got 0.05 s
    if master_time_limit > 0:
        progress.say(f"Choosing among {len(cols):,} clauses (master MIP, time limit "
                     f"{master_time_limit:.3g} s)")
    # over every clause only where the bound is proved, to close the gap to it; otherwise
    # over the clauses the LP uses, solved to the end or not used: the MIP over every clause
    # stopped at its limit holding whatever incumbent it had by then, and the same fit gave
    # another rule set on a loaded machine (docs/rulesets.md, "Repeatability")
    # (a proof of a problem past REPEATABLE_PRICING_PAIRS comes or not with the load: the
    # MIP's within its short limit, the search's within its share of the time (at the app's
    # 30 s on a million rows it gets 6.5 s of the 25 s it needs; a review).  The choice must
    # not depend on it, so it is the support MIP's as without a proof)
    proved_repeatably = certified and pricings[-1]["pairs"] <= REPEATABLE_PRICING_PAIRS
    chosen, status = _integer_master(cols, cov_P, cov_N, dP, dN, lam, error, lp,
                                     float(master_time_limit), improve=master_time_limit > 0,
                                     support_only=not proved_repeatably)
    ham = ruleset_objective(B, y, d, chosen, lam, "hamming")
    obj = ruleset_objective(B, y, d, chosen, lam, error)
    gap = max(0.0, (ham - lp_bound) / max(ham, 1e-9)) if certified else np.nan
    return ColumnGenerationResult(chosen, obj, ham, lp_bound, certified, gap, status, cols, it,
                                  time.perf_counter() - t0, error, stop, pricings)


def _greedy(CP, CN, dP, dN, size, lam, error) -> np.ndarray:
    """Clauses added one at a time, each the one that lowers the objective most, until none
    does: a start that needs no LP.  On a million rows the last master LP can be cut short
    by the deadline, and its rounding then was the empty rule set (bench/results/scale.md).
    It is :func:`_local_search` from no clause with adds only."""
    return _local_search(np.zeros(CP.shape[1], bool), CP, CN, dP, dN, size, lam, error,
                         adds_only=True)


def _local_search(w, CP, CN, dP, dN, size, lam, error, adds_only: bool = False
                  ) -> np.ndarray:
    """The best single move (add a clause, drop one, or swap one for another; ``adds_only``:
    add) while it lowers the objective: deterministic, where a MIP stopped by its time limit
    is not."""
    w = w.copy()
    fp_add = lam * (dN @ CN)
    for _ in range(4 * CP.shape[1]):
        nP = CP[:, w].sum(axis=1)
        nN = CN[:, w].sum(axis=1)
        unc, onlyP = nP == 0, nP == 1
        # adding k: its size and false positives, less the positives it newly covers (as a
        # gain summed over the open rows, as _greedy always summed it: the same starts)
        gain = lam * (dP[unc] @ CP[unc]) - size
        gain -= fp_add if error == "hamming" else lam * (dN[nN == 0] @ CN[nN == 0])
        add = -gain
        add[w] = np.inf
        if adds_only:
            j = int(np.argmin(add)) if len(add) else 0
            if not len(add) or add[j] >= 0:
                break
            w[j] = True
            continue
        chosen = np.flatnonzero(w)
        # dropping j: minus its size and false positives, plus the positives only it covers
        lossP = lam * ((dP * onlyP) @ CP[:, chosen])
        if error == "hamming":
            drop = -size[chosen] - fp_add[chosen] + lossP
        else:
            drop = -size[chosen] - lam * ((dN * (nN == 1)) @ CN[:, chosen]) + lossP
        # swapping j for k: drop j, then add k with j's own positives (and negatives) open
        swap = drop[:, None] + add[None, :] - lam * ((CP[:, chosen] & onlyP[:, None]).T * dP) @ CP
        if error != "hamming":
            swap += lam * ((CN[:, chosen] & (nN == 1)[:, None]).T * dN) @ CN
        moves = [(add.min() if len(add) else np.inf, "add"),
                 (drop.min() if len(drop) else np.inf, "drop"),
                 (swap.min() if swap.size else np.inf, "swap")]
        best, kind = min(moves)
        if best >= -1e-9:
            break
        if kind == "add":
            w[int(np.argmin(add))] = True
        elif kind == "drop":
            w[chosen[int(np.argmin(drop))]] = False
        else:
            a, b = np.unravel_index(int(np.argmin(swap)), swap.shape)
            w[chosen[a]], w[b] = False, True
    return w


def _integer_master(cols, cov_P, cov_N, dP, dN, lam, error, lp: MasterLP, time_limit,
                    improve: bool = False, support_only: bool = False):
    """Choose among the generated clauses: the master (M) with w ∈ {0,1} (Hamming), or with
    one binary ζ per negative that any clause covers (exact: ζ_i ≥ w_k for k covering i).

    Starts from the best rounding of the LP (clauses with ``w_k ≥ t`` for a few t), with
    ``improve`` improved by :func:`_local_search`.  With ``support_only`` (no proved bound)
    the MIP is over the clauses the LP uses and the start's, and its answer is used only
    when it is solved to the end (status ``"support"``; else the start, ``"rounded"``).  Under the
    Hamming error, (M)'s LP is this MIP's relaxation, so a clause whose reduced cost exceeds
    ``incumbent − LP value`` is in no optimal choice and is left out (reduced-cost fixing: it
    changes no optimum, and on Pima cut the MIP from 5.6 s to a fraction of that).  Rows are
    the cover patterns over the clauses kept, as in :class:`PatternMaster`: positives (and
    negatives) that the same clauses cover have the same row, so one row per pattern with
    the summed weight is the same MIP.
    """
    if not cols:
        return [], "optimal"
    K = len(cols)
    CP, CN = np.column_stack(cov_P), np.column_stack(cov_N)
    size = np.array([1.0 + len(S) for S in cols])
    ham_cost = size + lam * (dN @ CN)

    def objective(w: np.ndarray) -> float:
        miss = dP @ ~CP[:, w].any(axis=1)
        fp = (CN[:, w].sum(axis=1) if error == "hamming" else CN[:, w].any(axis=1)) @ dN
        return float(size[w].sum() + lam * (miss + fp))

    w_lp = lp.w if lp.w is not None and len(lp.w) == K else np.zeros(K)
    starts = [w_lp >= t for t in (0.999, 0.5, 0.25, 1e-6)] + [np.zeros(K, bool),
                                                               _greedy(CP, CN, dP, dN, size, lam,
                                                                       error)]
    w0 = min(starts, key=objective)
    if improve:
        w0 = _local_search(w0, CP, CN, dP, dN, size, lam, error)
    if time_limit <= 0:  # no MIP asked for: the best rounding of the LP
        return [cols[j] for j in np.flatnonzero(w0)], "rounded"
    keep = np.ones(K, bool)
    if support_only:
        # the clauses the LP uses and the start's: a MIP of a few dozen clauses that is
        # usually solved to the end in about a second (7.5 s on one benchmark fold), where
        # the MIP over all (~800 on the benchmark sets) stopped at its 2 s limit holding
        # whatever it had found by then
        keep = (w_lp > 1e-6) | w0
    elif error == "hamming" and lp.mu is not None:
        reduced = ham_cost - lp.mu @ CP
        keep = (reduced <= objective(w0) - lp.objective + 1e-7) | w0
    idx = np.flatnonzero(keep)
    k = len(idx)
    CPg, DP = merge_identical_rows(CP[:, idx], dP)   # a row per cover pattern
    nG = len(DP)
    m = highs.Model()
    m.add_columns(lam * DP, 0.0, 1.0)                                    # ξ_g
    if error == "hamming":
        m.add_columns(ham_cost[idx], 0.0, 1.0, integer=True)             # w
        m.add_rows(np.ones(nG), np.inf,
                   sp.hstack([sp.identity(nG), sp.csr_matrix(CPg.astype(np.float64))]))
        x0 = np.r_[~CPg[:, w0[idx]].any(axis=1), w0[idx]].astype(float)
    else:
        hit = CN[:, idx].any(axis=1)
        CNg, DZ = merge_identical_rows(CN[hit][:, idx], dN[hit])
        nZ = len(DZ)
        m.add_columns(size[idx], 0.0, 1.0, integer=True)                 # w
        m.add_columns(lam * DZ, 0.0, 1.0)                                # ζ_h
        m.add_rows(np.ones(nG), np.inf,
                   sp.hstack([sp.identity(nG), sp.csr_matrix(CPg.astype(np.float64)),
                              sp.csr_matrix((nG, nZ))]))
        # ζ_h − w_k ≥ 0 for every pattern h of negatives that clause k covers
        ri, ck = np.nonzero(CNg)
        r = len(ri)
        A = sp.csr_matrix((np.r_[-np.ones(r), np.ones(r)],
                           (np.r_[np.arange(r), np.arange(r)], np.r_[nG + ck, nG + k + ri])),
                          shape=(r, nG + k + nZ))
        m.add_rows(0.0, np.inf, A)
        x0 = np.r_[~CPg[:, w0[idx]].any(axis=1), w0[idx], CNg[:, w0[idx]].any(axis=1)]
    m.set_start(np.asarray(x0, dtype=float))
    # above a few ten thousand rows HiGHS's presolve overran the time limit (a million-row
    # table's master MIP, one row per distinct positive, ran ten minutes with a 30 s limit)
    res = m.solve(time_limit=time_limit, presolve=nG <= highs.PRESOLVE_MAX_ROWS)
    if support_only and res.status != "optimal":  # not its incumbent: that depends on load
        return [cols[j] for j in np.flatnonzero(w0)], "rounded"
    if res.x is None:
        return [cols[j] for j in np.flatnonzero(w0)], res.status
    w = np.zeros(K, bool)
    w[idx[res.x[nG:nG + k] > 0.5]] = True
    if objective(w0) < objective(w):
        w = w0
    return [cols[j] for j in np.flatnonzero(w)], ("support" if support_only else res.status)
