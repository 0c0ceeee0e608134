"""No solver returns a clause with contradictory or redundant conditions.

Two terms on one column *conflict* in an AND-clause when their conjunction holds for no value
or one implies the other; in an OR-clause when their disjunction holds for every non-missing
value or one implies the other (``Binarizer.conflict_cliques``).  On a categorical column
whose every level has a term, all its ``!=`` terms together (AND) or all its ``==`` terms
(OR) are such a set too (``Binarizer.conflict_covers``).  Everything here decides
consistency by evaluating the terms (``Term.evaluate``) on a grid of values, never from the
cliques, and compares the solvers with enumeration over the consistent clauses.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import rulecore.rules.solvers as bcs
from rulecore.data import load_sample
from rulecore.rules.colgen import clique_conflicts
from rulecore.rules.estimators import BooleanRuleClassifier
from rulecore.rules.problem import or_objective
from rulecore.rules.screening import _dominance_test, _Problem, screen
from rulecore.rules.solvers import consistent, solve_clause
from rulecore.rules.terms import Binarizer

# ----------------------------------------------------------------------------- semantics


def value_grid(b: Binarizer, X: pd.DataFrame, feature: str, unseen: bool = False
               ) -> np.ndarray:
    """Every value that can matter for the terms on ``feature``, plus missing.

    Numeric: each threshold, a point inside every gap between thresholds and beyond both
    ends (every real number behaves like one of these).  Categorical and ordinal: the levels
    seen in training, and with ``unseen`` a level never seen (categorical only: off an ordinal
    scale a level is missing).
    """
    terms = [t for t in b.terms_ if t.feature == feature and not t.missing_test]
    if b.kinds_[feature] == "numeric":
        thr = np.unique([t.value for t in terms])
        if not len(thr):
            return np.array([np.nan])
        gaps = (thr[1:] + thr[:-1]) / 2
        return np.concatenate([thr, gaps, [thr[0] - 1, thr[-1] + 1, np.nan]])
    levels = list(X[feature].dropna().astype(str).unique())
    # a level off an ordered scale reads as missing: no value of its own (None stands for it)
    unseen = unseen and b.kinds_[feature] == "categorical"
    return np.array(levels + ["never seen"] * unseen + [None], dtype=object)


def pair_conflicts(b: Binarizer, X: pd.DataFrame, rule_type: str) -> np.ndarray:
    """n × n bool: two terms conflict for every possible value (unseen levels included)."""
    n = len(b.terms_)
    out = np.zeros((n, n), dtype=bool)
    grids = {f: value_grid(b, X, f, unseen=True) for f in b.feature_names_in_}
    present = {f: ~pd.isna(pd.Series(g)).to_numpy() for f, g in grids.items()}
    # each term's truth on its column's grid once: set_ok on every pair re-evaluated both
    truth = [t.evaluate(grids[t.feature]) for t in b.terms_]
    for j, k in itertools.combinations(range(n), 2):
        f = b.terms_[j].feature
        if f == b.terms_[k].feature:
            out[j, k] = out[k, j] = not truth_ok(np.array([truth[j], truth[k]]), present[f],
                                                  rule_type)
    return out


def set_ok(terms, grid: np.ndarray, rule_type: str) -> bool:
    """Terms of one column form a consistent clause on ``grid``: AND, their conjunction holds
    somewhere and none holds wherever the others all do; OR, their disjunction fails on some
    known value and none holds only where another does."""
    truth = np.array([t.evaluate(grid) for t in terms])
    return truth_ok(truth, ~pd.isna(pd.Series(grid)).to_numpy(), rule_type)


def truth_ok(truth: np.ndarray, present: np.ndarray, rule_type: str) -> bool:
    """:func:`set_ok` from the terms' truth on the grid (one row per term)."""
    if rule_type == "and":
        if not truth.all(axis=0).any():
            return False                                   # a contradiction
        rest = [np.delete(truth, i, axis=0).all(axis=0) for i in range(len(truth))]
        return len(truth) < 2 or not any((r <= t).all() for r, t in zip(rest, truth))
    if truth.any(axis=0)[present].all():
        return False                                       # every known value
    rest = [np.delete(truth, i, axis=0).any(axis=0) for i in range(len(truth))]
    return len(truth) < 2 or not any((t <= r).all() for r, t in zip(rest, truth))


def checker(b: Binarizer, X: pd.DataFrame, rule_type: str):
    """``ok(S)``: is the clause of terms S consistent, judged column by column on the values
    seen in training (:func:`set_ok`)."""
    grids = {f: value_grid(b, X, f) for f in b.feature_names_in_}
    present = {f: ~pd.isna(pd.Series(g)).to_numpy() for f, g in grids.items()}
    # each term evaluated once on its column's grid: a clause's truth is a stack of rows
    truth = [t.evaluate(grids[t.feature]) for t in b.terms_]
    cache: dict = {}

    def ok(S) -> bool:
        by_feature: dict = {}
        for j in S:
            by_feature.setdefault(b.terms_[j].feature, []).append(int(j))
        for f, js in by_feature.items():
            key = (f, tuple(sorted(js)))
            if key not in cache:
                cache[key] = truth_ok(np.array([truth[j] for j in js]), present[f],
                                      rule_type)
            if not cache[key]:
                return False
        return True

    return ok


def share_a_clique(cliques, n: int) -> np.ndarray:
    out = np.zeros((n, n), dtype=bool)
    for c in cliques:
        out[np.ix_(c, c)] = True
    np.fill_diagonal(out, False)
    return out


def random_table(rng: np.random.Generator, m: int) -> pd.DataFrame:
    """Numeric and categorical columns with missing values, few distinct values."""
    cols = {}
    for i in range(int(rng.integers(1, 3))):
        v = np.round(rng.normal(size=m) * 3, int(rng.integers(0, 2)))
        v[rng.random(m) < 0.1] = np.nan
        cols[f"x{i}"] = v
    for i in range(int(rng.integers(1, 3))):
        levels = np.array(list("abcdef"))[: int(rng.integers(1, 6))]
        v = rng.choice(levels, size=m).astype(object)
        v[rng.random(m) < 0.1] = None
        cols[f"c{i}"] = v
    if rng.random() < 0.5:  # an ordered scale (rulecore.scales), 3 to 5 of its steps
        steps = ["very low", "low", "medium", "high", "very high"]
        levels = np.array(steps)[np.sort(rng.choice(5, int(rng.integers(3, 6)),
                                                    replace=False))]
        v = rng.choice(levels, size=m).astype(object)
        v[rng.random(m) < 0.1] = None
        cols["o"] = v
    return pd.DataFrame(cols)


def binarizer(rng: np.random.Generator, X: pd.DataFrame, small: bool = False) -> Binarizer:
    return Binarizer(n_thresholds=int(rng.integers(1, 3 if small else 6)),
                     thresholds="all" if not small and rng.random() < 0.2 else "quantile",
                     negations=bool(rng.random() < 0.7),
                     max_levels=int(rng.integers(2, 4)) if small or rng.random() < 0.3
                     else 50).fit(X)


# ----------------------------------------------------------------------------- the cliques


@pytest.mark.parametrize("seed", range(120))
def test_cliques_are_exactly_the_conflicting_pairs(seed):
    rng = np.random.default_rng(seed)
    X = random_table(rng, int(rng.integers(5, 60)))
    b = binarizer(rng, X)
    n = len(b.terms_)
    for rule_type in ("and", "or"):
        cliques = b.conflict_cliques(rule_type)
        for c in cliques:
            assert len(c) >= 2 and len({b.terms_[j].feature for j in c}) == 1
        np.testing.assert_array_equal(share_a_clique(cliques, n),
                                      pair_conflicts(b, X, rule_type),
                                      err_msg=f"{rule_type}: {[str(t) for t in b.terms_]}")
        # the pricing's conflicts: the same pairs
        C = clique_conflicts(list(cliques), n)
        np.testing.assert_array_equal(np.zeros((n, n), bool) if C is None
                                      else C.rows(np.arange(n)), share_a_clique(cliques, n))


@pytest.mark.parametrize("seed", range(120))
def test_cliques_and_covers_are_exactly_the_inconsistent_sets(seed):
    """Every set of terms on one column: consistent (judged on the training values) iff it
    holds at most one term of each clique and not all of any cover."""
    rng = np.random.default_rng(seed)
    X = random_table(rng, int(rng.integers(5, 60)))
    b = binarizer(rng, X, small=rng.random() < 0.5)
    for rule_type in ("and", "or"):
        cliques, covers = b.conflict_cliques(rule_type), b.conflict_covers(rule_type)
        ok = checker(b, X, rule_type)
        for f in b.feature_names_in_:
            cols = [j for j, t in enumerate(b.terms_) if t.feature == f][:10]
            for size in range(1, len(cols) + 1):
                for S in itertools.combinations(cols, size):
                    w = np.zeros(len(b.terms_), dtype=bool)
                    w[list(S)] = True
                    assert consistent(w, cliques, covers) == ok(S), \
                        (rule_type, [str(b.terms_[j]) for j in S])


def test_the_random_columns_cover_every_case():
    """The random tables above include each case the cliques and covers distinguish."""
    seen = set()
    for seed in range(120):
        rng = np.random.default_rng(seed)
        X = random_table(rng, int(rng.integers(5, 60)))
        b = binarizer(rng, X)
        for col, kind, thr, ops, mops in b._plan:
            levels = b._n_levels.get(col)
            seen.add((kind, tuple(ops), min(len(thr), 3), min(levels, 4) if levels else 0))
            seen.add((kind, tuple(ops), tuple(mops)))
    assert {("numeric", ("<=", ">"), 3, 0), ("numeric", ("<=",), 3, 0),
            ("categorical", ("==", "!="), 3, 3), ("categorical", ("==", "!="), 3, 4),
            ("categorical", ("==",), 2, 2), ("categorical", ("==", "!="), 1, 1),
            ("categorical", ("==",), 3, 3), ("categorical", ("==", "!="), 2, 3)} <= seen
    # the missing tests, with and without negations, beside each kind of term
    assert {("numeric", ("<=", ">"), ("is missing", "is not missing")),
            ("numeric", ("<=",), ("is missing",)),
            ("categorical", ("==", "!="), ("is missing", "is not missing")),
            ("categorical", ("==",), ("is missing", "is not missing")),
            ("categorical", ("==",), ("is missing",)),
            ("numeric", ("<=", ">"), ())} <= seen
    # ordered scales: thresholds on the order, with and without negations and missing tests
    assert {("ordinal", ("<=", ">"), ("is missing", "is not missing")),
            ("ordinal", ("<=",), ("is missing",)), ("ordinal", ("<=", ">"), 3, 0),
            ("ordinal", ("<=",), 2, 0)} <= seen


def test_covers_are_what_unseen_levels_would_allow():
    """Covers hold only on the levels seen: an unseen level satisfies "c != a AND c != b AND
    c != c", and "f == a OR f == b" misses it.  The binarizer takes the seen levels for all
    there are (a two-level column gets no != terms, as "f != a" is "f == b")."""
    X = pd.DataFrame({"f": ["a", "b", "a", None], "c": ["a", "b", "c", "a"]})
    b = Binarizer().fit(X)
    names = [str(t) for t in b.terms_]
    ne = [names.index(f"c != {v}") for v in "abc"]
    eq = [names.index("f == a"), names.index("f == b")]
    assert not set_ok([b.terms_[j] for j in ne], value_grid(b, X, "c"), "and")
    assert set_ok([b.terms_[j] for j in ne], value_grid(b, X, "c", unseen=True), "and")
    assert not set_ok([b.terms_[j] for j in eq], value_grid(b, X, "f"), "or")
    assert set_ok([b.terms_[j] for j in eq], value_grid(b, X, "f", unseen=True), "or")
    assert sorted(map(list, b.conflict_covers("and"))) == [ne]
    # and "f is not missing" alone holds on every present value of f
    assert sorted(map(list, b.conflict_covers("or"))) == sorted(
        [eq, [names.index(f"c == {v}") for v in "abc"], [names.index("f is not missing")]])


# ----------------------------------------------------------------------------- exact optimum


def consistent_sets(n: int, ok):
    """Every consistent set of columns (depth-first; inconsistency passes to supersets)."""

    def grow(chosen: list[int], start: int):
        yield chosen
        for j in range(start, n):
            if ok(chosen + [j]):
                yield from grow(chosen + [j], j + 1)

    yield from grow([], 0)


def brute_force(A, y, lam, d, ok) -> tuple[float, np.ndarray]:
    """The consistent optimum and a clause achieving it, by enumeration."""
    best, arg = np.inf, None
    for S in consistent_sets(A.shape[1], ok):
        w = np.zeros(A.shape[1], dtype=bool)
        w[S] = True
        v = or_objective(A, y, w, lam, d)
        if v < best - 1e-12:
            best, arg = v, w
    return best, arg


def instance(seed: int):
    """(A_or, y_or, λ, d, constraints, ok, feature per column): ``constraints`` the keywords
    ``cliques``, ``covers``; ``ok`` the semantic check (:func:`checker`)."""
    rng = np.random.default_rng(1000 + seed)
    for _ in range(50):
        m = int(rng.integers(15, 41))
        X = random_table(rng, m)
        b = binarizer(rng, X, small=True)
        if 8 <= len(b.terms_) <= 16:
            break
    rule_type = "and" if seed % 3 else "or"
    A = b.transform(X)
    # labels: a noisy rule, often rare positives (as where contradictions pay)
    score = A[:, rng.choice(len(b.terms_), size=2)].all(axis=1) ^ (rng.random(m) < 0.15)
    y = score.astype(int) if rng.random() < 0.6 else (rng.random(m) < 0.15).astype(int)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    lam = float(rng.choice([0.02, 0.1, 0.3, 1.0, 5.0, 50.0]))
    d = rng.uniform(0.2, 3.0, size=m) if seed % 2 else None
    A_or, y_or = (~A, 1 - y) if rule_type == "and" else (A, y)
    feature_of = np.array([t.feature for t in b.terms_])
    constraints = dict(cliques=b.conflict_cliques(rule_type),
                       covers=b.conflict_covers(rule_type))
    return A_or, y_or, lam, d, constraints, checker(b, X, rule_type), feature_of


def is_consistent(w: np.ndarray, ok) -> bool:
    return ok(np.flatnonzero(w))


N_EXACT = 150


@pytest.mark.parametrize("seed", range(N_EXACT))
def test_exact_solve_is_the_consistent_optimum(seed, monkeypatch):
    A, y, lam, d, cons, ok, _ = instance(seed)
    best, _ = brute_force(A, y, lam, d, ok)
    free = solve_clause(A, y, lam, d)                       # no constraints: as before
    assert free.objective <= best + 1e-9
    for budget in (bcs.SMALL_SEARCH_BUDGET, 0.0):           # search (+ MIP), ~MIP alone
        monkeypatch.setattr(bcs, "SMALL_SEARCH_BUDGET", budget)
        sol = solve_clause(A, y, lam, d, **cons)
        assert is_consistent(sol.w, ok) and consistent(sol.w, **cons)
        assert sol.objective == pytest.approx(best, rel=1e-9, abs=1e-9), (seed, budget)
        assert sol.objective == pytest.approx(or_objective(A, y, sol.w, lam, d))
        assert sol.bound <= best + 1e-6                     # a bound of the consistent optimum
        assert sol.result.status == "optimal" and sol.gap == pytest.approx(0, abs=1e-6)


def test_exact_instances_exercise_both_paths_and_real_conflicts(monkeypatch):
    """Some instances are proved by the search, the others go to the MIP once the search is
    off, in some the free optimum is inconsistent and some have covers, so the comparison
    above has something to refute."""
    methods, inconsistent_free, with_covers = [], 0, 0
    for seed in range(N_EXACT):
        A, y, lam, d, cons, ok, _ = instance(seed)
        methods.append(solve_clause(A, y, lam, d, **cons).method)
        inconsistent_free += not is_consistent(solve_clause(A, y, lam, d).w, ok)
        with_covers += bool(cons["covers"])
    monkeypatch.setattr(bcs, "SMALL_SEARCH_BUDGET", 0.0)
    for seed in range(N_EXACT):
        A, y, lam, d, cons, _, _ = instance(seed)
        methods.append(solve_clause(A, y, lam, d, **cons).method)
    assert methods[:N_EXACT].count("enumeration") > N_EXACT // 2
    assert methods[N_EXACT:].count("mip") > N_EXACT // 2
    assert inconsistent_free >= 5 and with_covers >= N_EXACT // 4


@pytest.mark.parametrize("seed", range(60))
def test_lp_roundings_are_consistent(seed):
    A, y, lam, d, cons, ok, _ = instance(seed)
    best, _ = brute_force(A, y, lam, d, ok)
    for solver in ("lp", "lp-randomized"):
        sol = solve_clause(A, y, lam, d, solver=solver, random_state=seed, **cons)
        assert is_consistent(sol.w, ok), (seed, solver)
        assert sol.objective == pytest.approx(or_objective(A, y, sol.w, lam, d))
        assert sol.bound <= best + 1e-6 <= sol.objective + 2e-6  # LP value with the rows


# ----------------------------------------------------------------------------- screening


@pytest.mark.parametrize("seed", range(N_EXACT))
def test_screening_keeps_the_consistent_optimum(seed):
    A, y, lam, d, cons, ok, feature_of = instance(seed)
    best, _ = brute_force(A, y, lam, d, ok)
    if seed % 4 < 2:  # one group: dominance compares columns of different features too
        feature_of = None
    for level in ("basic", "enhanced"):
        rep = screen(A, y, lam, weights=d, level=level, feature_of=feature_of, **cons)
        kept = np.flatnonzero(rep.kept)
        reduced = solve_clause(A, y, lam, d, columns=kept, mip_start=rep.incumbent, **cons)
        assert reduced.objective == pytest.approx(best, rel=1e-9, abs=1e-9), (seed, level)
        assert is_consistent(rep.incumbent, ok)
        assert not (rep.incumbent & ~rep.kept).any()
        assert rep.upper_bound == pytest.approx(or_objective(A, y, rep.incumbent, lam, d))
        assert rep.upper_bound >= best - 1e-6 and rep.lower_bound <= best + 1e-6


def interval_instance():
    """AND-rule, one numeric column x = 1..10, every midpoint a threshold.  x = 1 and x = 10
    hold ten negatives each, x = 5 one negative, every other value one positive and three
    negatives.  At λ = 1 the consistent optimum is ``x > 4.5 AND x <= 5.5`` (one false
    positive, 2 + 1 + 7 = 10); the contradiction ``x <= 1.5 AND x > 1.5`` costs 2 + 7 = 9."""
    x, y = [1.0] * 10 + [10.0] * 10 + [5.0], [0] * 21
    for v in (2, 3, 4, 6, 7, 8, 9):
        x += [float(v)] * 4
        y += [1, 0, 0, 0]
    X = pd.DataFrame({"x": x})
    b = Binarizer(thresholds="all").fit(X)
    return X, np.array(y), b


def test_unrestricted_dominance_is_not_a_certificate_for_consistent_clauses():
    """No positive lies in (4.5, 5.5], so ``x <= 4.5`` dominates ``x <= 5.5`` and ``x > 5.5``
    dominates ``x > 4.5`` in the free problem; removing them loses the consistent optimum.
    The swap condition N(j') − {j} ⊆ N(j) keeps them."""
    X, y, b = interval_instance()
    A, yo, lam = ~b.transform(X), 1 - y, 1.0
    cliques = b.conflict_cliques("and")
    best, w = brute_force(A, yo, lam, None, checker(b, X, "and"))
    assert best == pytest.approx(10.0)
    assert sorted(str(b.terms_[j]) for j in np.flatnonzero(w)) == ["x <= 5.5", "x > 4.5"]
    assert solve_clause(A, yo, lam).objective == pytest.approx(9.0)
    live, groups, d = np.ones(A.shape[1], dtype=bool), [np.arange(A.shape[1])], np.ones(len(y))
    free = _dominance_test(_Problem(A, yo, lam, d), live, groups)[0]          # as before
    safe = _dominance_test(_Problem(A, yo, lam, d, cliques), live, groups)[0]
    assert not (safe & ~free).any()
    lost = solve_clause(A, yo, lam, columns=np.flatnonzero(~free), cliques=cliques).objective
    assert lost > best + 0.5                                # the free test is wrong for P'
    kept = solve_clause(A, yo, lam, columns=np.flatnonzero(~safe), cliques=cliques).objective
    assert kept == pytest.approx(best)
    for level in ("basic", "enhanced"):
        clf = BooleanRuleClassifier(lam=lam, thresholds="all", screening=level,
                                    class_weight=None).fit(X, y)
        assert clf.objective_ == pytest.approx(best) and str(clf.rule_) == "x <= 5.5 AND x > 4.5"


def levels_instance():
    """AND-rule on one closed categorical column c ∈ {a, b, c} (with != terms): 3 positives
    among 30 rows, one of each level, λ = 0.3.  ``c != a AND c != b AND c != c`` fires on no
    row: 3 + 0.3 · 3 = 3.9, below the empty rule (0.3 · 27 = 8.1) and every consistent one."""
    X = pd.DataFrame({"c": list("abc") * 10})
    y = np.zeros(30, dtype=int)
    y[:3] = 1
    return X, y, 0.3


def test_a_cover_is_needed_for_all_levels_together():
    X, y, lam = levels_instance()
    b = Binarizer().fit(X)
    A, yo = ~b.transform(X), 1 - y
    ok = checker(b, X, "and")
    cliques, covers = b.conflict_cliques("and"), b.conflict_covers("and")
    pairwise = solve_clause(A, yo, lam, cliques=cliques)   # cliques alone: the contradiction
    assert sorted(str(b.terms_[j]) for j in np.flatnonzero(pairwise.w)) == \
        ["c != a", "c != b", "c != c"]
    assert not ok(np.flatnonzero(pairwise.w))
    best, _ = brute_force(A, yo, lam, None, ok)
    for solver in ("mip", "lp", "lp-randomized"):
        for screening in ("none", "enhanced"):
            clf = BooleanRuleClassifier(lam=lam, solver=solver, screening=screening,
                                        random_state=0, class_weight=None).fit(X, y)
            assert ok(np.flatnonzero(clf.w_)) and clf.objective_ >= best - 1e-9
            if solver == "mip":
                assert clf.objective_ == pytest.approx(best)
    assert consistent(solve_clause(A, yo, lam, cliques=cliques, covers=covers).w, cliques, covers)


# ----------------------------------------------------------------------------- estimators


def rare_positive_contradiction():
    """One numeric column (median threshold), 3 positives in 40 rows, λ = 0.1: ``x <= θ AND
    x > θ`` fires on no row and costs 2 + 0.1 · 3, less than every consistent rule."""
    rng = np.random.default_rng(5)
    X = pd.DataFrame({"x": rng.permutation(np.arange(40.0))})
    y = np.zeros(40, dtype=int)
    y[[3, 17, 30]] = 1
    return X, y, 0.1


@pytest.mark.parametrize("screening", ["none", "basic", "enhanced"])
@pytest.mark.parametrize("solver", ["mip", "lp", "lp-randomized"])
def test_rare_positives_get_a_consistent_rule(solver, screening):
    X, y, lam = rare_positive_contradiction()
    clf = BooleanRuleClassifier(lam=lam, n_thresholds=1, solver=solver, screening=screening,
                                random_state=0).fit(X, y)
    b = clf.binarizer_
    A_or, y_or = ~b.transform(X), 1 - y
    ok = checker(b, X, "and")
    free = solve_clause(A_or, y_or, lam)
    assert not is_consistent(free.w, ok)                   # the old answer: a contradiction
    assert free.objective == pytest.approx(2 + lam * 3)
    best, _ = brute_force(A_or, y_or, lam, None, ok)
    assert is_consistent(clf.w_, ok)
    assert clf.objective_ >= free.objective
    if solver == "mip":
        assert clf.objective_ == pytest.approx(best)
        assert clf.lower_bound_ == pytest.approx(best) and clf.mip_gap_ == pytest.approx(0)
    assert clf.rule_.predict(X).any()                      # the rule fires somewhere


def clause_ok(rule, X: pd.DataFrame) -> bool:
    """A learned rule's conditions are consistent, column by column (:func:`set_ok`), judged
    on the values of ``X``."""
    by_feature: dict = {}
    for t in rule.conditions:
        by_feature.setdefault(t.feature, []).append(t)
    for f, terms in by_feature.items():
        col = X[f]
        if terms[0].numeric:
            v = np.unique(pd.to_numeric(col, errors="coerce").dropna())
            grid = np.concatenate([v, [t.value for t in terms], [v[0] - 1, v[-1] + 1, np.nan]])
        else:
            grid = np.array(list(col.dropna().astype(str).unique()) + [None], dtype=object)
        if not set_ok(terms, grid, rule.rule_type):
            return False
    return True


def test_rule_sets_and_lambda_path_clauses_are_consistent():
    from rulecore.rules.estimators import (
        BoostedRuleClassifier,
        SetCoveringRuleClassifier,
        lambda_path,
    )
    from rulecore.rules.rule import Rule

    ds = load_sample("machine failure")
    X, y = ds.X, ds.y_binary
    sc = SetCoveringRuleClassifier(max_rules=3, lam=0.03, screening="enhanced",
                                   kinds=ds.kinds).fit(X, y)
    boost = BoostedRuleClassifier(n_rounds=3, lam=1000.0, screening="enhanced",
                                  kinds=ds.kinds).fit(X, y)
    for clause in sc.clauses_ + boost.clauses_:
        assert clause_ok(clause, X), str(clause)
    path = lambda_path(X, y, [0.05, 0.1, 0.3], lam=1.0, screening="enhanced", kinds=ds.kinds)
    for text in path["json"]:
        rule = Rule.from_json(text)
        assert clause_ok(rule, X), str(rule)


def test_salesforce_contradiction_is_gone():
    """The issue's kind of case: λ = 0.2, 3 thresholds on the salesforce sample gave
    ``job_role == Sales Engineer AND job_role != Sales Engineer`` (objective 31.2, fires on
    no row); the consistent optimum is the planted rule, 33."""
    ds = load_sample("salesforce attrition")
    clf = BooleanRuleClassifier(lam=0.2, n_thresholds=3, screening="enhanced",
                                kinds=ds.kinds, class_weight=None).fit(ds.X, ds.y_binary)
    assert clause_ok(clf.rule_, ds.X), str(clf.rule_)
    assert clf.objective_ == pytest.approx(33.0) and clf.mip_gap_ == pytest.approx(0, abs=1e-9)
    assert clf.rule_.predict(ds.X).any()


@pytest.mark.parametrize("seed", range(40))
def test_the_beams_cover_check_is_the_full_consistency_check(seed):
    """The beam search asks only whether term j completes a cover of a consistent clause S
    that j conflicts with nowhere (``Pricing.completes_cover``); for every such S up to three
    terms and every j that answer is ``not consistent(S + {j})``, the full check."""
    from rulecore.rules.colgen import Pricing

    A, y, _, _, cons, _, _ = instance(seed)
    p = A.shape[1]
    pr = Pricing(A[y == 1], A[y == 0], np.ones(int(y.sum())), np.ones(int((y == 0).sum())),
                 conflict=clique_conflicts(list(cons["cliques"]), p), covers=cons["covers"])
    checked = 0
    for size in range(4):
        for S in itertools.combinations(range(p), size):
            if not pr.consistent(S):
                continue
            for j in set(range(p)) - set(S):
                if pr.conflict is not None and S and pr.conflict.rows(list(S))[:, j].any():
                    continue
                T = tuple(sorted(S + (j,)))
                assert pr.completes_cover(S, j) == (not pr.consistent(T)), (S, j)
                checked += not pr.consistent(T)
    if cons["covers"]:
        assert checked  # some extension completes a cover: the check has something to say
