"""Exact pricing by a branch and bound over AND-clauses, on bit-packed rows.

Column generation (:mod:`rulecore.rules.colgen`) certifies a rule set when no clause S has a
negative reduced cost ::

    r(S) = c₀ + c |S| + Σ_{i∈Z} ν_i a_i(S) − Σ_{i∈P} μ_i a_i(S)                       (R)

at the master LP's final duals.  The pricing MIP proves it on small tables; on the planted
table of ``bench/scale.py`` at 10,000 rows it stopped at 300 s with its bound at −4.4, where
this search proves it (``bench/results/scale.md``, "Proving the last pricing problem").  The
math is in ``docs/rulesets.md`` ("The exact pricing").

The search enumerates clauses as increasing term sequences, depth first, best child first,
and prunes a node S when no extension S ∪ T (T ≠ ∅, consistent) can get below the target
(the least of ``below`` and the best clause seen).  At S, with n_k the ν-weight of the
negatives of S that term k removes and p_k the μ-weight of its positives that k removes,
every extension satisfies ::

    r(S ∪ T) ≥ r(S) + Σ_{k∈T} (c − n_k) + max_{k∈T} p_k
             ≥ r(S) + min over |T| = m of Σ_{k∈T} (c − n_k + p_k / m),                (B1)
    r(S ∪ T) ≥ min_k r(S ∪ {k}) + (the |T| − 1 smallest c − n_k),                      (B2)

since the negatives T removes are at most the sum of what each term removes, the positives
at least the most any one removes, and a term removes no more from a subset of S's rows than
from S's own.  (B1) is also taken at least r(S) + m c − ν·a_Z(S) + min_k p_k: T removes no
more than all of S's negatives (4.4 times fewer nodes on the planted table).  A child
S ∪ {k} is not entered when its positives cannot pay for one more condition:
``c₀ + c (|S| + 2) − μ·a_P(S ∪ {k})`` is a bound on all its extensions; and a term whose
positives under S cannot pay for S's conditions and one more is dropped before its negatives
are counted.

Rows of weight 0 are dropped.  The others are packed 64 to a word, column by column, with
the rows of one weight (a *level*: the duals take few values, ``PatternMaster``) in words of
their own, so that a weighted count is a popcount per level times the level's weight.  A
node whose rows fill under a quarter of its words is packed again over its own rows, so
deep nodes cost what their rows cost.

The work limit is a count of nodes, not seconds: the same problem gives the same answer on a
loaded machine (the MIP's time limit did not: ``docs/rulesets.md``, "Repeatability").  The
time limit is only a safety stop, and an answer cut by it proves nothing and adds nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # colgen imports this module
    from rulecore.rules.colgen import Pricing

#: Nodes a search may visit by default.  The planted table's last pricing problem takes
#: 7,558 at 10,000 rows and 7,726 at 1,000,000 (``bench/results/scale.md``).
MAX_NODES = 50_000

#: Distinct weights (levels) above which the search is not run: each level takes words of
#: its own, so a table of all-different sample weights would take a word per row.
MAX_LEVELS = 4096

# a child is packed again over its own rows when they fill less than this share of its words
_REPACK = 0.25


@dataclass
class ClauseSearch:
    """The answer of :func:`search_clauses`.

    Attributes
    ----------
    status : str
        ``"proved"``: no consistent clause has (R) below ``below`` (the tree was exhausted);
        ``"found"``: ``terms`` is one that has (the least seen; the least of all when the
        tree was exhausted); ``"node limit"`` or ``"time limit"``: stopped with neither;
        ``"too many weights"``: not run (more than :data:`MAX_LEVELS` distinct weights).
    terms : tuple of int
        The best clause seen (``()``: the empty clause).
    value : float
        Its (R), counted directly.
    nodes : int
        Nodes visited.
    seconds : float
    exhausted : bool
        The whole tree was searched (``"proved"``, or ``"found"`` with the least clause).
    """

    status: str
    terms: tuple[int, ...]
    value: float
    nodes: int
    seconds: float
    exhausted: bool

    @property
    def proved(self) -> bool:
        return self.status == "proved"


class _Stop(Exception):
    """The node or time limit was reached."""


def _pack(blocks: list[np.ndarray], levels: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Pack row blocks (bool, shape (n_rows_l, n_terms), one per level) into uint64 words,
    64 rows a word, each block starting a word of its own.  Returns the words, shape
    (n_terms, n_words), and each word's level, shape (n_words,)."""
    parts, word_level = [], []
    for block, lev in zip(blocks, levels):
        if not len(block):
            continue
        pad = -len(block) % 64
        if pad:
            block = np.concatenate([block, np.zeros((pad, block.shape[1]), bool)])
        parts.append(np.packbits(block, axis=0, bitorder="little").T)  # (n_terms, bytes)
        word_level.append(np.full(len(block) // 64, lev))
    if not parts:
        return np.zeros((blocks[0].shape[1] if blocks else 0, 0), np.uint64), \
            np.zeros(0, np.int64)
    return (np.ascontiguousarray(np.concatenate(parts, axis=1)).view(np.uint64),
            np.concatenate(word_level))


def _unpack(words: np.ndarray) -> np.ndarray:
    """The bool rows of uint64 ``words`` (shape (..., n_words) → (..., 64 n_words))."""
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=-1,
                         bitorder="little").astype(bool)


def _level_counts(on: np.ndarray, word_level: np.ndarray, n_levels: int) -> np.ndarray:
    """Set bits of each row of ``on`` (uint64, shape (n_terms, n_words)) per level: int64,
    shape (n_terms, n_levels), a column for every level (0 where it has no word)."""
    out = np.zeros((on.shape[0], n_levels), dtype=np.int64)
    if not on.shape[1]:
        return out
    starts = np.flatnonzero(np.r_[True, word_level[1:] != word_level[:-1]])
    ones = np.bitwise_count(on)
    if len(starts) <= 16:  # a sum per level: reduceat along rows took 10 times as long
        ends = np.r_[starts[1:], ones.shape[1]]
        for a, b in zip(starts, ends):
            out[:, word_level[a]] = ones[:, a:b].sum(axis=1, dtype=np.int64)
    else:
        out[:, word_level[starts]] = np.add.reduceat(ones, starts, axis=1, dtype=np.int64)
    return out


def extension_bound(r: float, child: np.ndarray, n_rm: np.ndarray, p_rm: np.ndarray,
                    cd: float, room: int, neg: float = np.inf) -> float:
    """A lower bound on r(S ∪ T) over every non-empty T of at most ``room`` candidates:
    the larger of (B2) and (B1) of the module docstring.

    ``r``: r(S); per candidate k, ``child`` r(S ∪ {k}), ``n_rm`` the ν-weight of S's
    negatives it removes, ``p_rm`` the μ-weight of S's positives it removes; ``cd``: the cost
    of a condition; ``neg``: the ν-weight of S's negatives, more than which no T removes."""
    g = cd - n_rm
    sg = np.sort(g)  # sorted once, for both bounds
    room = min(room, len(g))
    # (B2): the best child, plus the |T| − 1 smallest c − n_k (none when |T| = 1)
    b2 = float(child.min()) + float(np.concatenate([[0.0], np.cumsum(sg)])[:room].min())
    # (B1): r(S) + min over m of the m smallest g_k + p_k / m, and at least m c − neg +
    # the least p_k (T removes no more negatives than S has)
    b1, least_p = np.inf, float(p_rm.min())
    for m in range(1, room + 1):
        b1 = min(b1, max(float(np.partition(g + p_rm / m, m - 1)[:m].sum()),
                         m * cd - neg + least_p))
        # Σ of the m smallest g grows once they are ≥ 0, and bounds every later m
        if m < len(sg) and sg[m] >= 0 and sg[:m].sum() > b1:
            break
    return max(b2, r + b1)


def search_clauses(pr: Pricing, *, below: float = -1e-7, max_conditions: int = 12,
                   max_nodes: int = MAX_NODES, time_limit: float = 60.0,
                   first: bool = False) -> ClauseSearch:
    """Find a consistent clause with (R) below ``below``, or prove that there is none.

    Parameters
    ----------
    pr : Pricing
        The pricing problem (its conflicts, covers and allowed terms are respected).
    below : float
        The value to get under (column generation asks for a small negative).
    max_conditions : int
        Clauses of at most this many terms.
    max_nodes : int
        The work limit (deterministic).
    time_limit : float
        Seconds; a safety stop (status ``"time limit"``).
    first : bool
        Stop at the first clause below ``below`` (the question is only whether one exists)
        instead of searching on for the least.

    Returns
    -------
    ClauseSearch
    """
    t0 = time.perf_counter()
    cc, cd = float(pr.clause_cost), float(pr.cond_cost)
    mu, nu = np.asarray(pr.mu, dtype=float), np.asarray(pr.nu, dtype=float)
    BP, BN = np.asarray(pr.BP, dtype=bool), np.asarray(pr.BN, dtype=bool)
    p = pr.n_terms
    state = {"nodes": 0, "best": (cc + nu.sum() - mu.sum(), ())}  # the empty clause

    def target() -> float:
        return min(state["best"][0], below)

    # rows of weight 0 change nothing; the others sorted by weight, each weight a level
    P, N = np.flatnonzero(mu > 0), np.flatnonzero(nu > 0)
    wP, lP = np.unique(mu[P], return_inverse=True)
    wN, lN = np.unique(nu[N], return_inverse=True)
    if len(wP) + len(wN) > MAX_LEVELS:
        return ClauseSearch("too many weights", (), float(state["best"][0]), 0,
                            time.perf_counter() - t0, False)
    # each level's weight on the positives (column 0) and on the negatives (column 1)
    level_w = np.zeros((len(wP) + len(wN), 2))
    level_w[:len(wP), 0], level_w[len(wP):, 1] = wP, wN
    n_pos_levels = len(wP)  # levels below it are the positives'
    cand = np.flatnonzero(np.ones(p, bool) if pr.allowed is None else pr.allowed)
    bits, word_level = _pack([BP[np.ix_(P[lP == v], cand)] for v in range(len(wP))]
                             + [BN[np.ix_(N[lN == v], cand)] for v in range(len(wN))],
                             list(range(len(wP) + len(wN))))
    # covers (sets of terms a clause may not hold all of) as a bool matrix
    cover_of = (np.zeros((0, p), bool) if not pr.covers else
                np.stack([np.isin(np.arange(p), np.asarray(c)) for c in pr.covers]))
    cover_size = cover_of.sum(axis=1)

    def blocked(S: tuple[int, ...], later: np.ndarray, clash: np.ndarray | None) -> np.ndarray:
        """Which of ``later`` (terms above S's last) cannot join the consistent clause S:
        in conflict with S's last term (``clash``: its conflict row; those with the others
        are gone already), or the last of a cover."""
        out = clash[later].copy() if clash is not None else np.zeros(len(later), bool)
        if len(cover_of):
            near = cover_of[:, list(S)].sum(axis=1) == cover_size - 1
            if near.any():
                out |= cover_of[near][:, later].any(axis=0)
        return out

    def visit(S: tuple[int, ...], r: float, cand: np.ndarray, bits: np.ndarray,
              cover: np.ndarray | None, word_level: np.ndarray) -> None:
        """Node S of value r: ``bits`` (shape (len(cand), n_words)) the candidates' columns
        over the node's word space, ``cover`` its rows there (None: all of them)."""
        if state["nodes"] >= max_nodes:
            raise _Stop("node limit")
        if time.perf_counter() - t0 > time_limit:
            raise _Stop("time limit")
        state["nodes"] += 1
        if not len(cand) or len(S) >= max_conditions:
            return
        # the positives first (their words come first): a term k whose positives under S
        # cannot pay for S's conditions and one more, c₀ + c (|S| + 1) − μ·a_P(S ∪ {k}) ≥
        # target, is in no improving clause below S, and its negatives need no counting.
        # At the root this is the terms' screening, on exact popcounts: the beam's float32
        # sums fell short by 66 times the margin once allowed them at a million rows, and
        # a term screened out in error voids the proof (a review)
        npw = int(np.searchsorted(word_level, n_pos_levels))
        on = bits[:, :npw] if cover is None else bits[:, :npw] & cover[:npw]
        covP = _level_counts(on, word_level[:npw], len(level_w)) @ level_w[:, 0]
        ok = cc + cd * (len(S) + 1) - covP < target()
        if not ok.any():
            return
        if not ok.all():
            cand, bits, covP = cand[ok], bits[ok], covP[ok]
        on = bits[:, npw:] if cover is None else bits[:, npw:] & cover[npw:]
        covN = _level_counts(on, word_level[npw:], len(level_w)) @ level_w[:, 1]
        totP, totN = node_tot[-1]
        p_rm, n_rm = totP - covP, totN - covN
        child = r + cd - n_rm + p_rm                          # r(S ∪ {k}), exactly
        i = int(np.argmin(child))
        if child[i] < state["best"][0]:
            state["best"] = (float(child[i]), S + (int(cand[i]),))
            if first and child[i] < below:
                raise _Stop("found")
        if extension_bound(r, child, n_rm, p_rm, cd, max_conditions - len(S),
                           totN) >= target():
            return
        # children whose positives cannot pay for one more condition have no extension to
        # look at (the target only falls, so the test is repeated as it does).  Nor can
        # such a term k be in any clause below S with two terms more: its value is at
        # least c₀ + c (|S| + 2) − μ·a_P(S ∪ {k}) too, so only the others are candidates
        # further down
        enter = np.argsort(child, kind="stable")
        enter = enter[cc + cd * (len(S) + 2) - covP[enter] < target()]
        if len(S) + 1 >= max_conditions or not len(enter):
            return
        useful = np.zeros(len(cand), bool)
        useful[enter] = True
        clash = (pr.conflict.rows(cand[enter]) if pr.conflict is not None else
                 [None] * len(enter))
        for j, clash_j in zip(enter, clash):
            if cc + cd * (len(S) + 2) - covP[j] >= target():
                continue
            k = int(cand[j])
            S2 = S + (k,)
            sel = np.flatnonzero(useful & (cand > k))
            sel = sel[~blocked(S2, cand[sel], clash_j)]
            if not len(sel):
                continue
            c2 = bits[j] if cover is None else bits[j] & cover
            node_tot.append((float(covP[j]), float(covN[j])))
            if np.bitwise_count(c2).sum() < _REPACK * 64 * len(c2):
                # pack the child's own rows: its search then costs what they cost
                keep = np.flatnonzero(_unpack(c2))
                lv = np.repeat(word_level, 64)[keep]
                rows = _unpack(bits[sel])[:, keep].T
                cut = np.r_[0, np.flatnonzero(np.diff(lv)) + 1, len(lv)]
                b2, wl2 = _pack([rows[a:b] for a, b in zip(cut[:-1], cut[1:])],
                                [int(lv[a]) for a in cut[:-1]])
                visit(S2, float(child[j]), cand[sel], b2, None, wl2)
            else:
                visit(S2, float(child[j]), cand[sel], bits[sel], c2, word_level)
            node_tot.pop()

    # no term that is a whole cover by itself (the root's visit screens the rest)
    keep = ~blocked((), cand, None)
    cand, bits = cand[keep], bits[keep]
    node_tot = [(float(mu.sum()), float(nu.sum()))]
    status, exhausted = "proved", True
    try:
        visit((), state["best"][0], cand, bits, None, word_level)
    except _Stop as stop:
        status, exhausted = str(stop), False
    value, terms = state["best"]
    if value < below and status != "time limit":
        # (a clause held when the time ran out is not an answer: which one depends on the
        # machine's load; one held at the node limit is the same on any machine)
        status = "found"
    if terms:  # counted directly: the search's sums are over packed words
        value = pr.value(terms)
    return ClauseSearch(status, tuple(int(t) for t in terms), float(value), state["nodes"],
                        time.perf_counter() - t0, exhausted)
