"""rulecore.bcs: exact recovery, the LP objective against a direct count, iris, sklearn API."""

import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from rulecore.data import load_sample
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.estimators import (
    BooleanRuleClassifier,
    BoostedRuleClassifier,
    SetCoveringRuleClassifier,
    lambda_path,
)
from rulecore.rules.problem import or_objective
from rulecore.rules.ruleset import RuleSetClassifier
from rulecore.rules.solvers import (
    Conflicts,
    consistent,
    make_consistent,
    small_clause_search,
    solve_clause,
)
from rulecore.rules.terms import Binarizer, Term


def planted(K: int, seed: int, m: int = 300, n: int = 15, p: float = 0.75):
    """Random binary design with a planted K-term AND-rule ``f_k == 1`` (no noise)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((m, n)) < p, columns=[f"f{i}" for i in range(n)]).astype(int)
    chosen = sorted(rng.choice(n, size=K, replace=False))
    y = X.iloc[:, chosen].all(axis=1).astype(int).to_numpy()
    return X, y, {Term(f"f{k}", "==", "1") for k in chosen}


@pytest.mark.parametrize("solver", ["lp", "mip"])
@pytest.mark.parametrize("K", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_exact_recovery_of_planted_rule(solver, K, seed):
    X, y, truth = planted(K, seed)
    assert 0 < y.mean() < 1
    clf = BooleanRuleClassifier(lam=10.0, solver=solver).fit(X, y)
    assert set(clf.rule_.conditions) == truth
    assert clf.objective_ == pytest.approx(K)
    assert (clf.predict(X) == y).all()


def direct_and_objective(X: pd.DataFrame, y: np.ndarray, conditions, lam: float,
                         d=None) -> float:
    """#conditions + λ (false positives + Σ_positives #conditions violated), counted by hand."""
    d = np.ones(len(y)) if d is None else d
    checks = np.column_stack([c.evaluate(X[c.feature]) for c in conditions]) if conditions \
        else np.ones((len(y), 0), dtype=bool)
    fires = checks.all(axis=1)
    violated = (~checks).sum(axis=1)
    fp = d[(y == 0) & fires].sum()
    return len(conditions) + lam * (fp + (d[y == 1] * violated[y == 1]).sum())


@pytest.mark.parametrize("solver", ["mip", "lp", "lp-randomized"])
@pytest.mark.parametrize("lam", [0.2, 1.0, 7.0])
@pytest.mark.parametrize("seed", range(3))
def test_objective_equals_direct_count(solver, lam, seed):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=80), "b": rng.normal(size=80),
                      "c": rng.choice(["u", "v", "w"], size=80)})
    y = ((X.a > 0) & (X.c != "u") | (rng.random(80) < 0.1)).astype(int).to_numpy()
    w = rng.random(80) + 0.5
    clf = BooleanRuleClassifier(lam=lam, solver=solver, n_thresholds=5, random_state=0,
                                 class_weight=None)
    clf.fit(X, y, sample_weight=w)
    assert clf.objective_ == pytest.approx(
        direct_and_objective(X, y, clf.rule_.conditions, lam, w))
    assert clf.lower_bound_ <= clf.objective_ + 1e-6
    if solver == "mip":
        assert clf.lp_status_ == "optimal" and clf.mip_gap_ == pytest.approx(0, abs=1e-6)


def test_mip_beats_or_ties_every_lp_rounding():
    X, y, _ = planted(3, 11)
    rng = np.random.default_rng(0)
    y = np.where(rng.random(len(y)) < 0.1, 1 - y, y)  # noise makes the LP fractional
    objs = {s: BooleanRuleClassifier(lam=2.0, solver=s, random_state=0).fit(X, y).objective_
            for s in ["mip", "lp", "lp-randomized"]}
    assert objs["mip"] <= objs["lp-randomized"] + 1e-9 <= objs["lp"] + 2e-9


def test_or_rule_objective_and_prediction():
    rng = np.random.default_rng(3)
    A = rng.random((60, 8)) < 0.2
    y = (A[:, 1] | A[:, 5]).astype(int)
    sol = solve_clause(A, y, 5.0)
    assert set(np.flatnonzero(sol.w)) == {1, 5}
    assert sol.objective == pytest.approx(or_objective(A, y, sol.w, 5.0)) == 2.0
    X = pd.DataFrame(A.astype(int), columns=[f"t{i}" for i in range(8)])
    clf = BooleanRuleClassifier(rule_type="or", lam=5.0).fit(X, y)
    assert (clf.predict(X) == y).all() and len(clf.rule_) == 2
    assert " OR " in str(clf.rule_)


def test_iris_versicolor():
    ds = load_sample("iris").with_positive("versicolor")
    clf = BooleanRuleClassifier(lam=0.3, class_weight=None).fit(ds.X, ds.y_binary)
    assert len(clf.rule_) <= 4
    assert set(clf.rule_.features) <= {"petal length (cm)", "petal width (cm)"}
    assert clf.score(ds.X, ds.y_binary) >= 0.9


def test_planted_sample_rules_are_found():
    ds = load_sample("machine failure")
    clf = BooleanRuleClassifier(lam=1.0, class_weight=None).fit(ds.X, ds.y_binary)
    assert {"machine_type", "torque_nm", "tool_wear_min"} <= set(clf.rule_.features)
    assert clf.score(ds.X, ds.y_binary) > 0.94


def test_predict_proba_and_labels():
    ds = load_sample("breast cancer")
    y = ds.y.to_numpy()  # string labels: classes_[1] = "malignant" is the positive class
    clf = BooleanRuleClassifier(lam=1.0).fit(ds.X, y)
    assert list(clf.classes_) == ["benign", "malignant"]
    proba = clf.predict_proba(ds.X)
    assert proba.shape == (len(y), 2) and np.allclose(proba.sum(axis=1), 1)
    fired = clf.decision_function(ds.X) == 1
    assert (clf.predict(ds.X)[fired] == "malignant").all()
    # the probability on the firing side is the share of positives there
    assert proba[fired, 1].mean() == pytest.approx((y[fired] == "malignant").mean(), abs=0.02)


def test_class_weight_trades_misses_for_false_alarms():
    ds = load_sample("salesforce attrition")
    y = ds.y_binary
    plain = BooleanRuleClassifier(lam=0.5).fit(ds.X, y).predict(ds.X)
    heavy = BooleanRuleClassifier(lam=0.5, class_weight={1: 5.0}).fit(ds.X, y).predict(ds.X)
    # AND-rules: a heavier weight on positives means fewer conditions violated by positives
    assert (heavy[y == 1] == 1).mean() >= (plain[y == 1] == 1).mean()


def test_array_input_with_feature_names():
    X, y, truth = planted(2, 5)
    clf = BooleanRuleClassifier(lam=10.0).fit(X.to_numpy(), y, feature_names=list(X.columns))
    assert set(clf.rule_.conditions) == {Term(t.feature, "==", "1") for t in truth}
    assert (clf.predict(X.to_numpy()) == y).all()


def test_time_limit_reports_status():
    X, y, _ = planted(3, 1, m=400, n=20)
    clf = BooleanRuleClassifier(lam=1.0, time_limit=5).fit(X, y)
    assert clf.lp_status_ in ("optimal", "time_limit")
    assert np.isfinite(clf.objective_) and clf.mip_gap_ >= 0


def test_bad_parameters_and_data():
    X, y, _ = planted(2, 0)
    for bad in [dict(lam=0), dict(lam=-1), dict(solver="cplex"), dict(rule_type="xor"),
                dict(time_limit=0), dict(screening="maybe")]:
        with pytest.raises(ParameterError):
            BooleanRuleClassifier(**bad).fit(X, y)
    with pytest.raises(DataError, match="one class"):
        BooleanRuleClassifier().fit(X, np.zeros(len(y)))
    with pytest.raises(DataError, match="3"):
        BooleanRuleClassifier().fit(X, np.arange(len(y)) % 3)


def test_lambda_path_sizes_grow_with_lambda():
    ds = load_sample("breast cancer")
    lams = np.logspace(-2, 2, 5)
    path = lambda_path(ds.X, ds.y_binary, lams, ds.X, ds.y_binary, lam=1.0)
    assert list(path.columns[:4]) == ["lam", "conditions", "train_error", "test_error"]
    assert path["conditions"].iloc[0] <= path["conditions"].iloc[-1]
    assert path["train_error"].iloc[-1] <= path["train_error"].iloc[0]
    calls = []
    lambda_path(ds.X, ds.y_binary, lams[:2], progress=lambda i, n: calls.append((i, n)))
    assert calls == [(1, 2), (2, 2)]


def test_sample_weight_equals_repetition():
    """Integer weights act exactly as repeated rows: the same terms (weighted quantiles), the
    same merged clause problem, hence the same rule and objective (scikit-learn's check is
    in tests/test_estimator_checks.py)."""
    rng = np.random.default_rng(7)
    X = pd.DataFrame({"a": rng.normal(size=40), "b": rng.integers(0, 5, size=40),
                      "c": rng.choice(["u", "v", "w"], size=40)})
    y = ((X.a > 0.2) | (rng.random(40) < 0.2)).astype(int).to_numpy()
    w = rng.integers(0, 3, size=40)
    rep = rng.permutation(np.repeat(np.arange(40), w))
    for class_weight in (None, "auto", "balanced"):
        weighted = BooleanRuleClassifier(lam=2.0, class_weight=class_weight).fit(
            X, y, sample_weight=w)
        repeated = BooleanRuleClassifier(lam=2.0, class_weight=class_weight).fit(
            X.iloc[rep], y[rep])
        assert [str(t) for t in weighted.binarizer_.terms_] == \
            [str(t) for t in repeated.binarizer_.terms_]
        assert str(weighted.rule_) == str(repeated.rule_)
        assert weighted.objective_ == pytest.approx(repeated.objective_)
        assert weighted.predict_proba(X) == pytest.approx(repeated.predict_proba(X))


# ---------------------------------------------------------------- small-clause search
def brute_force_clause(Ap, r, c, lam, max_size=None, cliques=(), covers=()):
    """min over column sets S (|S| <= max_size, at most one column of each clique, not all of
    any cover) of Σ_S c + λ Σ_i r_i [row i meets no j in S]."""
    n = Ap.shape[1]
    best = np.inf
    for size in range(0, (n if max_size is None else min(n, max_size)) + 1):
        for S in itertools.combinations(range(n), size):
            if any(len(set(S) & set(q.tolist())) > 1 for q in cliques) or \
                    any(set(q.tolist()) <= set(S) for q in covers):
                continue
            missed = ~Ap[:, list(S)].any(axis=1) if S else np.ones(len(r), dtype=bool)
            best = min(best, c[list(S)].sum() + lam * r[missed].sum())
    return best


def search_instance(seed: int):
    """(Ap, r, c, λ) for small_clause_search; every third one has a planted 3-column cover."""
    rng = np.random.default_rng(seed)
    p, n = int(rng.integers(0, 14)), int(rng.integers(1, 10))
    lam = float(rng.choice([0.01, 0.05, 0.2, 0.5, 1.0, 5.0]))
    Ap = rng.random((p, n)) < rng.uniform(0.1, 0.6)
    r = rng.uniform(0.5, 30.0, size=p) if rng.random() < 0.5 else np.ones(p) * 10
    c = 1.0 + lam * rng.integers(0, 40, size=n)
    if seed % 3 == 0 and n >= 3 and p >= 3:
        # three columns split the rows between them, each block worth more than a column
        Ap = rng.random((p, n)) < 0.1
        block = rng.permutation(np.arange(p) % 3)
        Ap[:, :3] = block[:, None] == np.arange(3)[None, :]
        r = np.full(p, 3.0 / (lam * max(1, p // 3)))
        c = 1.0 + lam * rng.uniform(0, 0.1 / lam, size=n)
    return Ap, r, c, lam


@pytest.mark.parametrize("seed", range(150))
def test_small_clause_search_is_exact_when_it_says_so(seed):
    Ap, r, c, lam = search_instance(seed)
    w, value, proven = small_clause_search(Ap, r, c, lam)
    missed = ~Ap[:, w].any(axis=1) if w.any() else np.ones(len(r), dtype=bool)
    assert value == pytest.approx(c[w].sum() + lam * r[missed].sum())   # w is what it says
    assert w.sum() <= 5
    best = brute_force_clause(Ap, r, c, lam)
    if proven:
        assert value == pytest.approx(best)                                # the optimum
    else:  # it declined: at least as good as every single column, never below the optimum
        assert best - 1e-9 <= value <= brute_force_clause(Ap, r, c, lam, 1) + 1e-9


def random_cliques(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """A few random cliques of 2-4 columns (overlapping: not an interval family)."""
    if n < 2:
        return []
    return [rng.choice(n, size=int(rng.integers(2, min(n, 4) + 1)), replace=False)
            for _ in range(int(rng.integers(1, 5)))]


def test_conflicts_agree_with_their_cliques():
    """Conflicts: interval form (binarizer cliques) and graph form (any cliques) alike."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=50), "c": rng.choice(list("pqrs"), size=50)})
    b = Binarizer(n_thresholds=4).fit(X)
    cases = [(b.conflict_cliques(t), len(b.terms_)) for t in ("and", "or")]
    cases += [(random_cliques(rng, n), n) for n in rng.integers(2, 12, size=30)]
    for cliques, n in cases:
        truth = np.zeros((n, n), dtype=bool)
        for q in cliques:
            truth[np.ix_(q, q)] = True
        np.fill_diagonal(truth, False)
        conf = Conflicts(cliques, n)
        idx = rng.permutation(n)[: max(1, n // 2)]
        np.testing.assert_array_equal(conf.rows(idx), truth[idx])
        np.testing.assert_array_equal(conf.pairs(idx), truth[np.ix_(idx, idx)])
        w = rng.random(n) < 0.4
        assert consistent(w, cliques) == (not truth[np.ix_(w, w)].any())
        fixed = make_consistent(w, conf, rng.random((20, n)) < 0.3, np.ones(20), np.ones(n))
        assert consistent(fixed, cliques) and not (fixed & ~w).any()
    assert Conflicts(b.conflict_cliques("and"), len(b.terms_)).graph is None   # intervals


@pytest.mark.parametrize("seed", range(150))
def test_small_clause_search_with_cliques_is_exact_when_it_says_so(seed):
    Ap, r, c, lam = search_instance(seed)
    rng = np.random.default_rng(seed)
    n = Ap.shape[1]
    cliques = random_cliques(rng, n)
    if seed % 3 == 0 and n >= 5:  # the planted cover's columns in conflict
        cliques.append(np.array([0, 3 + seed % (n - 3)]))
    # not all of a cover: of one to four columns, the planted three among them
    covers = [rng.choice(n, size=int(rng.integers(1, min(n, 4) + 1)), replace=False)
              for _ in range(int(rng.integers(0, 3)))]
    if seed % 3 == 1 and n >= 3:
        covers.append(np.arange(3))
    w, value, proven = small_clause_search(Ap, r, c, lam, cliques=cliques, covers=covers)
    assert consistent(w, cliques, covers)
    missed = ~Ap[:, w].any(axis=1) if w.any() else np.ones(len(r), dtype=bool)
    assert value == pytest.approx(c[w].sum() + lam * r[missed].sum())
    best = brute_force_clause(Ap, r, c, lam, cliques=cliques, covers=covers)
    if proven:
        assert value == pytest.approx(best)
    else:
        assert best - 1e-9 <= value


def test_small_clause_search_proves_some_and_declines_others():
    """Both outcomes occur on the instances above, so the test above checks both paths."""
    outcomes = set()
    for seed in range(150):
        w, _, proven = small_clause_search(*search_instance(seed))
        outcomes.add((proven, int(w.sum())))
    assert {True, False} <= {pr for pr, _ in outcomes}
    assert {k for pr, k in outcomes if pr} >= {0, 1, 2, 3}   # proofs at every size


def planted_or_instance(seed: int):
    """(A, y, λ, d): a planted OR of 1-8 columns, 10 % of labels flipped."""
    rng = np.random.default_rng(100 + seed)
    m, n = int(rng.integers(20, 120)), int(rng.integers(4, 30))
    A = rng.random((m, n)) < rng.uniform(0.05, 0.4)
    k = int(rng.integers(1, 9))
    y = (A[:, :k].any(axis=1) ^ (rng.random(m) < 0.1)).astype(int)
    lam = float(rng.choice([0.05, 0.2, 0.5, 1.0, 3.0, 10.0]))
    d = rng.uniform(0.5, 2.0, size=m) if seed % 2 else None
    return A, y, lam, d


@pytest.mark.parametrize("seed", range(40))
def test_small_clause_search_gives_the_mip_optimum(seed, monkeypatch):
    """solve_clause with the search (default) and with HiGHS alone reach the same optimum."""
    import rulecore.rules.solvers as bcs

    A, y, lam, d = planted_or_instance(seed)
    fast = solve_clause(A, y, lam, d)
    monkeypatch.setattr(bcs, "SMALL_SEARCH_BUDGET", 0.0)
    mip = solve_clause(A, y, lam, d)
    assert fast.objective == pytest.approx(mip.objective, rel=1e-9, abs=1e-9)
    assert fast.result.status == "optimal" and fast.gap == pytest.approx(0, abs=1e-9)
    assert fast.bound == pytest.approx(fast.objective)


def test_the_comparison_above_covers_both_paths():
    """On those instances: proofs by search with 0 to 5 conditions, and MIP hand-overs."""
    methods = Counter()
    for seed in range(40):
        sol = solve_clause(*planted_or_instance(seed))
        methods[sol.method, int(sol.w.sum())] += 1
    assert {k for (m, k) in methods if m == "enumeration"} == {0, 1, 2, 3, 4, 5}
    assert any(m == "mip" and k > 5 for (m, k) in methods)


def test_small_lambda_fit_is_proved_without_the_mip():
    """Machine failure at λ = 0.01: the optimum has two conditions (bench/results/...)."""
    ds = load_sample("machine failure")
    clf = BooleanRuleClassifier(lam=0.01, n_thresholds=6, screening="enhanced",
                                kinds=ds.kinds, class_weight=None).fit(ds.X, ds.y_binary)
    assert clf.solve_method_ == "enumeration"
    assert clf.lp_status_ == "optimal" and clf.mip_gap_ == 0
    assert clf.objective_ == pytest.approx(direct_and_objective(
        ds.X, ds.y_binary, clf.rule_.conditions, 0.01, np.ones(ds.n_samples)))


def test_class_weights_sqrt_and_balanced():
    from rulecore.rules.estimators import class_sample_weights

    y = np.array([0] * 90 + [1] * 10)
    d = class_sample_weights(y, "sqrt", np.array([0, 1]), None)
    assert np.allclose(d[y == 0], 1.0) and np.allclose(d[y == 1], 3.0)  # √(90/10)
    d = class_sample_weights(y, "balanced", np.array([0, 1]), None)
    assert np.isclose(d[y == 0].sum(), d[y == 1].sum()) and np.isclose(d.sum(), 100)
    with pytest.raises(ParameterError, match="'sqrt'"):
        class_sample_weights(y, "cubic", np.array([0, 1]), None)


@pytest.mark.parametrize("make", [BooleanRuleClassifier, SetCoveringRuleClassifier,
                                  BoostedRuleClassifier, RuleSetClassifier])
def test_class_weights_naming_no_label_are_refused(make):
    """``{0: 1, 1: 20}`` on labels "no" / "yes" was ignored without a word: the rule fitted
    unweighted (a notebook review).  Keys that are labels, numpy's or Python's, weigh."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=120)})
    y = np.where(X.a > 0.5, "yes", "no")
    with pytest.raises(ParameterError, match=r"names 0, 1, which are not labels of y; its "
                                             r"labels are 'no', 'yes'"):
        make(class_weight={0: 1, 1: 20}).fit(X, y)
    make(class_weight={"yes": 2.0}).fit(X, y)
    make(class_weight={np.int64(1): 2.0}).fit(X, (X.a > 0.5).astype(int))


def test_term_matrix_over_the_memory_budget_is_refused(monkeypatch):
    monkeypatch.setenv("RULECORE_MEMORY_BUDGET_GB", "0.0001")  # 100 kB
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(2000, 5)), columns=list("abcde"))
    y = (X["a"] > 0).astype(int)
    with pytest.raises(DataError, match=r"term matrix of 2,000 rows × \d+ terms needs about"):
        BooleanRuleClassifier(n_thresholds=20).fit(X, y)


@pytest.mark.parametrize("make", [
    lambda: BooleanRuleClassifier(),
    lambda: BooleanRuleClassifier(fn_cost=5.0, class_weight=None),
    lambda: SetCoveringRuleClassifier(),
    lambda: BoostedRuleClassifier(),
])
def test_predict_proba_is_the_training_share_whatever_the_class_weights(make):
    """Class weights and error costs choose the rule; they are not frequencies.  With the
    default √ weights a rare class's probability read 0.767 where 51.6 % of the rows the
    rule picks were positive (a notebook review)."""
    rng = np.random.RandomState(0)
    X = pd.DataFrame({"a": rng.randn(1000), "b": rng.randn(1000)})
    y = ((X.a > 1) & (rng.rand(1000) < 0.7)).astype(int).to_numpy()
    clf = make().fit(X, y)
    p1 = clf.predict_proba(X)[:, 1]
    for value in np.unique(p1):
        side = p1 == value
        # Laplace-smoothed: (positives + prior) / (rows + 1)
        assert value == pytest.approx((y[side].sum() + y.mean()) / (side.sum() + 1), abs=1e-9)
