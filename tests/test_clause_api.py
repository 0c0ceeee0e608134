"""The public clause layer (rulecore.rules.learn_clause) against brute force.

Every clause over a small term matrix is enumerated and its objective counted directly, in the
rule's own view (docs/clause.md):

- AND: #conditions + λ (Σ_{negatives it fires on} d_i + Σ_{positives} d_i · #conditions they
  fail), over consistent clauses;
- OR:  #terms + λ (Σ_{positives it misses} d_i + Σ_{negatives} d_i · #terms they meet).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import rulecore
from rulecore import Binarizer, learn_clause
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules import clause_problem, problem_of, solve_problem
from rulecore.rules.problem import Constraints


def direct_objective(B, y, chosen, lam, d, rule_type):
    """The objective of the clause ``chosen`` (term indices), counted row by row."""
    total = float(len(chosen))
    for i in range(len(y)):
        meets = [bool(B[i, j]) for j in chosen]
        if rule_type == "and":
            if y[i] == 1:
                total += lam * d[i] * sum(not m for m in meets)
            elif all(meets):
                total += lam * d[i]
        else:
            if y[i] == 1:
                total += lam * d[i] * (not any(meets))
            else:
                total += lam * d[i] * sum(meets)
    return total


def brute_force(B, y, lam, d, rule_type, ok=lambda S: True):
    n = B.shape[1]
    return min(direct_objective(B, y, S, lam, d, rule_type)
               for k in range(n + 1) for S in itertools.combinations(range(n), k) if ok(S))


def random_instance(seed, m=30, n=7):
    rng = np.random.default_rng(seed)
    B = rng.random((m, n)) < rng.uniform(0.3, 0.7, size=n)
    planted = rng.choice(n, size=2, replace=False)
    y = (B[:, planted].all(axis=1) ^ (rng.random(m) < 0.1)).astype(int)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    return B, y, float(rng.choice([0.3, 1.0, 3.0, 10.0]))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("rule_type", ["and", "or"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("screening", ["none", "enhanced"])
def test_learn_clause_matches_brute_force(seed, rule_type, weighted, screening):
    B, y, lam = random_instance(seed)
    d = np.random.default_rng(100 + seed).uniform(0.2, 3.0, len(y)) if weighted else None
    res = learn_clause(B, y, lam=lam, rule_type=rule_type, sample_weight=d,
                       screening=screening)
    dd = np.ones(len(y)) if d is None else d
    best = brute_force(B, y, lam, dd, rule_type)
    assert res.objective == pytest.approx(best, rel=1e-9, abs=1e-9)
    # the reported objective is the chosen clause's direct count, and it is certified
    assert res.objective == pytest.approx(direct_objective(B, y, list(res.terms), lam, dd,
                                                           rule_type))
    assert res.status == "optimal" and res.optimal and res.bound <= res.objective + 1e-9
    assert (res.screening is None) == (screening == "none")
    fires = res.fires(B)
    expected = B[:, res.w].all(axis=1) if rule_type == "and" else B[:, res.w].any(axis=1)
    assert np.array_equal(fires, expected)


def conflicted_instance(seed):
    """A numeric and a categorical column, a planted interval rule with 10 % noise, their
    binarizer, its term matrix, and ``ok(S, cap)``: clause S is consistent (at most one term
    per conflict clique, not all of a cover) and has at most ``cap`` terms."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"x": rng.integers(0, 6, 40), "c": rng.choice(["a", "b", "c"], 40)})
    y = ((X.x >= 2) & (X.x <= 4) & (X.c != "a")).astype(int).to_numpy().copy()
    y[rng.random(40) < 0.1] ^= 1
    b = Binarizer(n_thresholds=4).fit(X)
    cliques, covers = b.conflict_cliques("and"), b.conflict_covers("and")

    def ok(S, cap=None):
        S = set(S)
        return all(len(S & set(q.tolist())) <= 1 for q in cliques) and \
            not any(set(q.tolist()) <= S for q in covers) and (cap is None or len(S) <= cap)

    return X, y, b, b.transform(X), ok


def direct_exact(B, y, chosen, lam, d, rule_type):
    """The exact 0/1 objective of ``chosen``: #conditions + λ × the weight of wrong rows, each
    wrong row once (docs/clause.md, "Exact 0/1 error")."""
    sel = B[:, list(chosen)]
    fires = sel.all(axis=1) if rule_type == "and" else sel.any(axis=1)
    return float(len(chosen) + lam * (d @ (fires != (y == 1))))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("rule_type", ["and", "or"])
@pytest.mark.parametrize("weighted", [False, True])
def test_exact_error_matches_brute_force(seed, rule_type, weighted):
    """error="exact": the beam search's clause, then the MIP's proof, is the brute-force
    minimum of the exact 0/1 objective, counted row by row, and proved so."""
    B, y, lam = random_instance(seed)
    d = np.random.default_rng(100 + seed).uniform(0.2, 3.0, len(y)) if weighted else \
        np.ones(len(y))
    res = learn_clause(B, y, lam=lam, rule_type=rule_type, sample_weight=d, error="exact")
    n = B.shape[1]
    best = min(direct_exact(B, y, S, lam, d, rule_type)
               for k in range(n + 1) for S in itertools.combinations(range(n), k))
    assert res.objective == pytest.approx(best, rel=1e-9, abs=1e-9)
    assert res.objective == pytest.approx(direct_exact(B, y, res.terms, lam, d, rule_type))
    assert res.status == "optimal" and res.optimal and res.error == "exact"
    # the Hamming count charges a positive once per failed condition: never below the exact
    assert res.problem.objective(res.w) >= res.objective - 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_exact_error_with_conflicts_and_a_cap(seed):
    """Consistent clauses only, and at most ``max_conditions`` of them, under the exact error;
    without the proof (``prove=False``) the status says the rule is not proved."""
    X, y, b, B, ok = conflicted_instance(seed)

    n, d = B.shape[1], np.ones(40)
    for cap in (1, None):
        res = learn_clause(B, y, lam=2.0, terms=b, error="exact",
                           constraints=Constraints(max_conditions=cap))
        best = min(direct_exact(B, y, S, 2.0, d, "and") for k in range(4)
                   for S in itertools.combinations(range(n), k) if ok(S, cap))
        assert ok(res.terms, cap) and res.objective == pytest.approx(best)
    quick = learn_clause(B, y, lam=2.0, terms=b, error="exact", prove=False)
    assert quick.status == "not proved" and not quick.optimal and quick.method == "beam"
    assert quick.objective >= best - 1e-9


def test_exact_error_refuses_what_it_cannot_solve():
    B, y, _ = random_instance(0)
    with pytest.raises(ParameterError, match="error"):
        learn_clause(B, y, error="absolute")
    with pytest.raises(ParameterError, match="exact 0/1"):
        learn_clause(B, y, error="exact", solver="lp")


@pytest.mark.parametrize("seed", range(6))
def test_lp_rounding_is_never_below_the_optimum_and_counts_its_rule(seed):
    B, y, lam = random_instance(seed)
    best = brute_force(B, y, lam, np.ones(len(y)), "and")
    for solver in ("lp", "lp-randomized"):
        res = learn_clause(B, y, lam=lam, solver=solver, random_state=0)
        assert res.objective >= best - 1e-9
        assert res.bound <= best + 1e-9
        assert res.objective == pytest.approx(direct_objective(B, y, list(res.terms), lam,
                                                               np.ones(len(y)), "and"))


@pytest.mark.parametrize("seed", range(6))
def test_consistent_clauses_with_a_binarizer(seed):
    """With the binarizer's conflicts the optimum is over consistent clauses only."""
    X, y, b, B, ok = conflicted_instance(seed)

    res = learn_clause(B, y, lam=2.0, terms=b)
    assert ok(res.terms)
    assert res.objective == pytest.approx(brute_force(B, y, 2.0, np.ones(40), "and", ok))
    rule = res.rule(b.terms_, "y", 1)
    assert np.array_equal(rule.predict(X).astype(bool), res.fires(B))


def test_integer_weights_equal_repeated_rows_exactly():
    B, y, lam = random_instance(3, m=25)
    w = np.random.default_rng(0).integers(0, 4, len(y))
    rep = np.random.default_rng(1).permutation(np.repeat(np.arange(len(y)), w))
    a = learn_clause(B, y, lam=lam, sample_weight=w)
    b = learn_clause(B[rep], y[rep], lam=lam)
    # the merged problems are identical, row for row: the same rule, not only the same value
    assert np.array_equal(a.problem.A, b.problem.A) and np.allclose(a.problem.d, b.problem.d)
    assert np.array_equal(a.w, b.w) and a.objective == pytest.approx(b.objective)


def test_problem_merges_rows_and_keeps_every_objective():
    B, y, lam = random_instance(5, m=40, n=5)
    B = np.vstack([B, B[:10]])
    y = np.concatenate([y, y[:10]])
    pr = clause_problem(B, y, lam=lam, rule_type="and")
    assert len(pr.y) < len(y) and pr.n_input_rows == len(y)
    for k in range(4):
        for S in itertools.combinations(range(5), k):
            w = np.zeros(5, dtype=bool)
            w[list(S)] = True
            assert pr.objective(w) == pytest.approx(
                direct_objective(B, y, list(S), lam, np.ones(len(y)), "and"))


def test_solve_problem_with_and_without_screening_agree():
    B, y, lam = random_instance(7, m=60, n=9)
    pr = problem_of(B, y, lam=lam)
    full = solve_problem(pr, screening="none")
    for level in ("basic", "enhanced"):
        red = solve_problem(pr.with_lam(lam), screening=level)
        assert red.objective == pytest.approx(full.objective)
        assert red.screening.n_kept <= B.shape[1]


@pytest.mark.parametrize("kwargs, message", [
    ({"lam": 0.0}, "λ"), ({"lam": -1}, "λ"), ({"lam": float("nan")}, "λ"),
    ({"rule_type": "xor"}, "rule_type"), ({"solver": "cplex"}, "solver"),
    ({"screening": "max"}, "screening"), ({"time_limit": 0}, "time_limit"),
])
def test_bad_options_are_one_clear_error(kwargs, message):
    B, y, _ = random_instance(0)
    with pytest.raises(ParameterError, match=message):
        learn_clause(B, y, **kwargs)


def test_bad_shapes_and_weights():
    B, y, _ = random_instance(0)
    with pytest.raises(DataError):
        learn_clause(B, y[:-1])
    with pytest.raises(DataError):
        learn_clause(B, y, sample_weight=np.zeros(len(y)))


def test_public_names():
    """The estimators and the clause layer are importable from the package itself."""
    for name in ("Binarizer", "BooleanRuleClassifier", "SetCoveringRuleClassifier",
                 "BoostedRuleClassifier", "SparseClassifier", "DatumWiseClassifier",
                 "BilinearReducer", "learn_clause", "RuleSettings"):
        assert hasattr(rulecore, name), name


def test_the_lambda_path_says_optimal_only_of_a_proved_rule():
    """An LP rounded to a rule carries its LP's status: the path read "optimal" on every row
    of an LP-rounded path whose rules were 38 % above their bound (a newcomer's review)."""
    from rulecore.rules.estimators import lambda_path
    from rulecore.samples import load_sample

    ds = load_sample("salesforce attrition")
    rows = np.arange(len(ds.X)) % 4 != 0
    lams = [0.5, 2.0]
    lp = lambda_path(ds.X[rows], ds.y_binary[rows], lams, solver="lp", class_weight=None)
    assert (lp["gap"] > 0.01).all()
    assert lp["status"].str.startswith("rounded, not proved optimal, gap ").all()
    mip = lambda_path(ds.X[rows], ds.y_binary[rows], lams, solver="mip", class_weight=None)
    assert (mip["gap"] <= 1e-9).all() and (mip["status"] == "optimal").all()
    assert (mip["objective"] <= lp["objective"] + 1e-9).all()


@pytest.mark.parametrize("make, message", [
    # epsilon=-1 flipped every vote of boosting (accuracy 0.56 against 0.90)
    (lambda m: m.BoostedRuleClassifier(epsilon=-1, lam=1000), "epsilon"),
    (lambda m: m.BoostedRuleClassifier(epsilon=2, lam=1000), "epsilon"),
    (lambda m: m.BoostedRuleClassifier(n_rounds=2.5, lam=1000), "n_rounds"),
    (lambda m: m.SetCoveringRuleClassifier(max_rules=2.5), "max_rules"),
    (lambda m: m.RuleSetClassifier(certify=-1, lam=1.0), "certify"),
    (lambda m: m.BooleanRuleClassifier(negations="no"), "negations"),
    # a misspelled column was ignored, a misspelled kind read as categorical
    (lambda m: m.BooleanRuleClassifier(kinds={"agee": "categorical"}), "'agee'"),
    (lambda m: m.BooleanRuleClassifier(kinds={"age": "catgorical"}), "'catgorical'"),
])
def test_parameters_that_were_accepted_silently_are_refused(make, message):
    """A notebook review's list: each was accepted, some giving a wrong model."""
    import rulecore

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.integers(20, 70, 120), "city": rng.choice(list("AB"), 120)})
    y = ((X.age > 40) & (X.city == "B")).astype(int)
    with pytest.raises(ParameterError, match=message):
        make(rulecore).fit(X, y)
