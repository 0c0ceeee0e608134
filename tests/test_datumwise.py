"""Tests of rulecore.datumwise (DWSM-Un / DWSM-Con, docs/datumwise.md)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine, make_classification
from sklearn.model_selection import train_test_split

from rulecore.datumwise import DatumWiseClassifier
from rulecore.exceptions import DataError, ParameterError


def gated(n: int, seed: int):
    """Feature 0 decides the easy half (x0 = ±2); the hard half has x0 ≈ 0 and its label is
    sign(x1 + x2 + x3).  Features 4, 5 are noise."""
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 6)
    easy = np.arange(n) < n // 2
    X[easy, 0] = 2.0 * rng.choice([-1.0, 1.0], easy.sum())
    X[~easy, 0] = 0.05 * rng.randn((~easy).sum())
    y = np.where(easy, X[:, 0] > 0, X[:, 1] + X[:, 2] + X[:, 3] > 0).astype(int)
    return X, y, easy


@pytest.fixture(scope="module")
def gated_model():
    X, y, _ = gated(600, 0)
    return DatumWiseClassifier(feature_cost=0.01, n_states=1500, random_state=0).fit(X, y)


def test_stops_early_on_easy_half(gated_model):
    X, y, easy = gated(600, 1)
    used = gated_model.features_used(X)
    k = used.sum(axis=1)
    # Easy half: feature 0 alone, then classify.
    assert np.mean((k[easy] == 1) & used[easy, 0]) >= 0.7
    # Hard half: feature 0 is not enough; it goes on to (most of) x1, x2, x3.
    assert np.mean(k[~easy] >= 3) >= 0.7
    assert k[~easy].mean() >= k[easy].mean() + 2
    assert np.mean(gated_model.predict(X) == y) >= 0.85


def reference_walk(model, x):
    """Brute-force greedy episode of one datum, in float64 with full score recomputation."""
    d, W = len(x), model.coef_
    xs = (x - model.mean_) / model.scale_
    z, path = np.zeros(d, bool), []
    while True:
        sc = W @ np.r_[xs * z, z, 1.0]
        sc[:d][z] = -np.inf
        a = int(np.argmax(sc))
        if a >= d:
            return path, model.classes_[a - d]
        z[a] = True
        path.append(a)


def test_vectorised_rollouts_match_step_by_step(gated_model):
    """The batched, incrementally updated policy run equals a per-datum brute-force walk."""
    X, _, _ = gated(80, 2)
    run = gated_model.run_policy(X)
    pred = gated_model.predict(X)
    for i in range(len(X)):
        path, label = reference_walk(gated_model, X[i])
        k = len(path)
        assert list(run.order[i, :k]) == path
        assert np.all(run.order[i, k:] == -1)
        assert set(np.flatnonzero(run.used[i])) == set(path)
        assert label == pred[i]
        ex = gated_model.explain(X[i])
        assert ex.features == path and ex.prediction == label
        assert ex.values == pytest.approx(list(X[i, path]))
        for s in ex.steps:  # the chosen action has the best score among the legal ones
            assert s["chosen_score"] == pytest.approx(np.nanmax(s["scores"]), abs=1e-5)


def test_feature_costs_steer_acquisition():
    X, y, _ = gated(400, 0)
    costs = np.ones(6)
    costs[0] = 200.0  # one acquisition of x0 costs 2 errors
    m = DatumWiseClassifier(feature_cost=0.01, feature_costs=costs, n_states=800,
                            random_state=0).fit(X, y)
    assert m.features_used(X)[:, 0].mean() < 0.05


def test_sparsity_monotone_in_lambda():
    X, y = make_classification(300, 10, n_informative=5, random_state=0)
    lams = [0.0, 0.01, 0.05, 0.2]
    means = np.zeros(len(lams))
    for seed in range(3):
        for k, lam in enumerate(lams):
            m = DatumWiseClassifier(feature_cost=lam, n_states=600, n_iterations=6,
                                    random_state=seed).fit(X, y)
            means[k] += m.mean_features_used(X) / 3
    assert np.all(np.diff(means) <= 0.3), means
    assert means[0] > means[-1] + 1, means


def test_constrained_same_order_for_every_datum():
    X, y = make_classification(300, 12, n_informative=6, random_state=1)
    m = DatumWiseClassifier(feature_cost=0.01, constrained=True, n_states=800,
                            random_state=0).fit(X, y)
    order = m.run_policy(X).order
    k = (order >= 0).sum(axis=1)
    ref = order[np.argmax(k)]
    for i in range(len(X)):
        assert np.array_equal(order[i, : k[i]], ref[: k[i]])
    assert len(np.unique(k)) > 1  # ...but when to stop varies
    # The x-part of the acquisition scorers is exactly zero (eq. 3-4).
    assert np.all(m.coef_[: X.shape[1], : X.shape[1]] == 0)


def test_multiclass_wine():
    X, y = load_wine(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    m = DatumWiseClassifier(feature_cost=0.01, n_states=1000, random_state=0).fit(Xtr, ytr)
    assert list(m.classes_) == [0, 1, 2]
    assert np.mean(m.predict(Xte) == yte) >= 0.85
    assert m.mean_sparsity(Xte) > 0.3
    assert set(np.unique(m.predict(Xte))) == {0, 1, 2}


def test_multiclass_middle_class_not_masked():
    """Iris: least squares on one-hot targets masks versicolor (about 0.8 accuracy); the
    logistic label rows keep all three classes."""
    X, y = load_iris(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    m = DatumWiseClassifier(feature_cost=0.01, n_states=600, random_state=0).fit(Xtr, ytr)
    assert m.coef_.shape == (4 + 3 + 3, 9)
    assert np.mean(m.predict(Xte) == yte) >= 0.9
    # explain follows the same path and label as the batched run
    for i in range(0, len(Xte), 5):
        ex = m.explain(Xte[i])
        assert ex.prediction == m.predict(Xte[i : i + 1])[0]
        assert ex.features == [j for j in m.run_policy(Xte[i : i + 1]).order[0] if j >= 0]


def test_deterministic_and_time_limit():
    X, y = make_classification(200, 8, random_state=0)
    a = DatumWiseClassifier(n_states=300, n_iterations=3, random_state=7).fit(X, y)
    b = DatumWiseClassifier(n_states=300, n_iterations=3, random_state=7).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_)
    assert a.status_ == "completed" and a.n_iter_ == 3
    t = DatumWiseClassifier(n_states=300, n_iterations=50, time_limit=1e-6,
                            random_state=0).fit(X, y)
    assert t.status_ == "time_limit" and t.n_iter_ == 1
    assert len(t.history_) == 1 and {"objective", "error", "mean_features"} <= set(t.history_[0])


@pytest.mark.parametrize(
    "kw",
    [{"feature_cost": -1}, {"n_states": 0}, {"mixture": 0}, {"feature_costs": [1, 2]},
     {"time_limit": 0}, {"n_iterations": 1.5}],
)
def test_bad_parameters(kw):
    X, y = make_classification(50, 4, random_state=0)
    with pytest.raises(ParameterError):
        DatumWiseClassifier(**kw).fit(X, y)


def test_balanced_class_weights_predict_a_rare_class_the_unweighted_policy_never_does():
    """On an 8.5 % class the unweighted policy answers the majority for every row; weighted
    alike (scaled to mean 1 over the rows) it finds the class, and a dict or a bad value is
    read or refused."""
    import numpy as np

    from rulecore import DatumWiseClassifier
    from rulecore.exceptions import ParameterError

    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 6))
    y = ((X[:, 0] > 1.0) & (X[:, 1] > -0.5)).astype(int)
    kw = dict(n_states=400, n_iterations=4, random_state=0, feature_cost=0.05)
    plain = DatumWiseClassifier(**kw).fit(X, y)
    assert plain.predict(X).sum() == 0
    weighted = DatumWiseClassifier(class_weight="balanced", **kw).fit(X, y)
    assert weighted.predict(X)[y == 1].mean() > 0.8
    assert np.average(weighted.class_weight_[y], weights=None) == pytest.approx(1.0)
    assert DatumWiseClassifier(class_weight={1: 5.0}, **kw).fit(X, y).class_weight_[1] > 1
    # "auto": balanced on this 8.5 % class, 1 each on classes of a third and two thirds
    auto = DatumWiseClassifier(class_weight="auto", **kw).fit(X, y)
    np.testing.assert_allclose(auto.class_weight_, weighted.class_weight_)
    third = (X[:, 0] > 0.43).astype(int)
    np.testing.assert_allclose(DatumWiseClassifier(class_weight="auto", **kw).fit(
        X, third).class_weight_, 1.0)
    for bad in ("heavy", {7: 2.0}, {1: -1.0}):
        with pytest.raises(ParameterError, match="class_weight"):
            DatumWiseClassifier(class_weight=bad, **kw).fit(X, y)


def test_defaults_train_1000x60_to_completion():
    """The issue's 1,000 × 60 case with the defaults: every iteration runs (no time limit is
    set, so none can cut it short) and the policy beats a linear fit's accuracy floor.  How long
    it takes is measured in bench/datumwise_table2.py, not asserted here."""
    X, y = make_classification(1000, 60, n_informative=15, random_state=0)
    m = DatumWiseClassifier(feature_cost=0.005, random_state=0).fit(X, y)
    assert m.status_ == "completed"
    assert m.n_iter_ == m.n_iterations == len(m.history_)
    assert 0 <= m.best_iteration_ < m.n_iter_
    assert np.mean(m.predict(X) == y) > 0.7  # a linear logistic fit gets 0.74 here


def test_ridge_zero_with_duplicate_columns_and_one_class():
    X, y = make_classification(120, 4, random_state=0)
    X = np.hstack([X, X[:, :1]])  # a duplicated column: singular normal equations at ridge=0
    m = DatumWiseClassifier(ridge=0.0, n_states=200, n_iterations=2, random_state=0).fit(X, y)
    assert np.all(np.isfinite(m.coef_))
    one = DatumWiseClassifier(n_states=50, n_iterations=1).fit(X, np.full(len(X), "a"))
    assert set(one.predict(X)) == {"a"} and one.mean_features_used(X) == 0


def test_callback_and_chunked_rollouts(monkeypatch):
    """Rollouts in blocks give exactly the same policy; the callback counts iterations."""
    import rulecore.datumwise as dw

    X, y = make_classification(150, 6, random_state=1)
    seen = []
    a = DatumWiseClassifier(n_states=200, n_iterations=3, random_state=0).fit(
        X, y, callback=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    monkeypatch.setattr(dw, "_ROLLOUT_CELLS", 50)  # a handful of episodes per block
    b = DatumWiseClassifier(n_states=200, n_iterations=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.run_policy(X).order, b.run_policy(X).order)


def test_time_limit_inside_an_iteration(monkeypatch):
    """A limit reached during the first iteration's rollouts: the classify-at-once policy."""
    import rulecore.datumwise as dw

    X, y = make_classification(200, 8, random_state=0)
    clock = iter(range(10_000))  # each reading one second later; the limit is 3 s
    monkeypatch.setattr(dw, "time", type("T", (), {"perf_counter": lambda: next(clock)}))
    monkeypatch.setattr(dw, "_ROLLOUT_CELLS", 100)  # many blocks, a clock reading before each
    m = DatumWiseClassifier(n_states=300, n_iterations=20, time_limit=3, random_state=0)
    m.fit(X, y)
    assert m.status_ == "time_limit" and m.n_iter_ == 1
    assert m.mean_features_used(X) == 0  # nothing learnt about acquiring yet


def test_memory_budget_and_plain_messages(monkeypatch):
    X, y = make_classification(400, 10, random_state=0)
    with pytest.raises(ParameterError, match=r"n_states must be an integer >= 1, got 0\.$"):
        DatumWiseClassifier(n_states=np.int64(0)).fit(X, y)
    monkeypatch.setenv("RULECORE_MEMORY_BUDGET_GB", "0.00005")  # 50 kB
    with pytest.raises(DataError, match=r"on 400 rows × 10 features needs about 100 kB"):
        DatumWiseClassifier().fit(X, y)
