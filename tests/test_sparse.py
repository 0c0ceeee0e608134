"""Tests for rulecore.sparse: dual/primal agreement, brute-force optimality, recovery, limits."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

from rulecore.exceptions import DataError, ParameterError
from rulecore.sparse import SparseClassifier, SparseClassifierCV, support_objective

LOSSES = ["hinge", "logistic"]


def _data(n, p, informative=3, noise=1.0, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    beta = np.zeros(p)
    beta[:informative] = rng.choice([-1.0, 1.0], informative) * rng.uniform(0.5, 1.5, informative)
    y = (X @ beta + noise * rng.normal(size=n) > 0).astype(int)
    return X, y


def _standardise(X):
    return (X - X.mean(0)) / X.std(0)


def _independent_primal(loss, Xs, y, gamma):
    """Primal objective of one support by a different method (scipy), intercept included."""
    n, k = Xs.shape
    if loss == "logistic":
        def f(th):
            u = Xs @ th[:k] + th[k]
            return np.logaddexp(0, -y * u).sum() + th[:k] @ th[:k] / (2 * gamma)
        res = minimize(f, np.zeros(k + 1), method="BFGS", options={"gtol": 1e-10})
        return res.fun
    # hinge: QP in (w, b, ξ) by SLSQP
    def obj(v):
        return v[k + 1:].sum() + v[:k] @ v[:k] / (2 * gamma)

    def jac(v):
        return np.concatenate([v[:k] / gamma, [0.0], np.ones(n)])

    A = np.hstack([Xs * y[:, None], y[:, None], np.eye(n)])
    cons = [{"type": "ineq", "fun": lambda v: A @ v - 1, "jac": lambda v: A},
            {"type": "ineq", "fun": lambda v: v[k + 1:],
             "jac": lambda v: np.hstack([np.zeros((n, k + 1)), np.eye(n)])}]
    v0 = np.concatenate([np.zeros(k + 1), np.ones(n)])
    res = minimize(obj, v0, jac=jac, constraints=cons, method="SLSQP",
                   options={"ftol": 1e-14, "maxiter": 1000})
    return res.fun


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("seed", [0, 1])
def test_dual_value_equals_independent_primal(loss, seed):
    X, y = _data(40, 8, seed=seed)
    Xs, ys = _standardise(X), np.where(y == 1, 1.0, -1.0)
    support = [0, 3, 5]
    primal, dual = support_objective(Xs, ys, support, 0.7, loss=loss)
    ref = _independent_primal(loss, Xs[:, support], ys, 0.7)
    assert dual == pytest.approx(ref, rel=1e-6)
    assert primal == pytest.approx(ref, rel=1e-6)
    assert dual <= primal + 1e-9 * primal


def _brute_force(loss, X, y, k, gamma, fit_intercept=True, sizes=None):
    Xs = _standardise(X) if fit_intercept else X / np.sqrt((X * X).mean(0))
    ys = np.where(y == 1, 1.0, -1.0)
    sizes = range(1, k + 1) if sizes is None else sizes
    return min(support_objective(Xs, ys, s, gamma, loss, fit_intercept)[0]
               for kk in sizes for s in itertools.combinations(range(X.shape[1]), kk))


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("seed,p,k,gamma,kw", [
    (0, 16, 3, 0.3, {}),
    (1, 12, 2, 1.0, {}),
    (2, 14, 3, 0.5, {"warm_start": None}),
    (3, 12, 3, 0.5, {"stochastic_cuts": True, "warm_start": "relaxation"}),
    (4, 12, 2, 0.5, {"fit_intercept": False}),
])
def test_outer_approximation_matches_brute_force(loss, seed, p, k, gamma, kw):
    X, y = _data(60, p, noise=1.0, seed=seed)
    clf = SparseClassifier(k=k, gamma=gamma, loss=loss, time_limit=60, random_state=0, **kw)
    clf.fit(X, y)
    best = _brute_force(loss, X, y, k, gamma, kw.get("fit_intercept", True))
    assert clf.status_ == "optimal"
    assert clf.objective_ == pytest.approx(best, rel=1e-6)
    assert clf.gap_ <= 1e-6
    assert clf.lower_bound_ <= best * (1 + 1e-7)
    assert len(clf.support_) <= k
    assert np.count_nonzero(clf.coef_) <= k
    # trace rows are well formed and the bounds are consistent
    assert all(r["lower"] <= r["upper"] + 1e-9 for r in clf.trace_)
    assert {"lower", "upper", "gap", "cuts", "seconds"} <= set(clf.trace_[-1])


@pytest.mark.parametrize("loss", LOSSES)
def test_support_recovery_strong_signal(loss):
    rng = np.random.default_rng(7)
    n, p, k = 500, 200, 5
    X = rng.normal(size=(n, p))
    true = np.sort(rng.choice(p, k, replace=False))
    beta = np.zeros(p)
    beta[true] = rng.choice([-1.0, 1.0], k)
    y = (X @ beta + 0.1 * rng.normal(size=n) > 0).astype(int)
    clf = SparseClassifier(k=k, gamma=0.01, loss=loss, time_limit=60).fit(X, y)
    assert np.array_equal(np.sort(clf.support_), true)
    assert clf.status_ == "optimal"
    assert clf.score(X, y) > 0.9


class _Clock:
    """A stand-in for ``time`` in rulecore.sparse: each reading is ``step`` seconds after the last.

    The fit then runs out of time after a fixed number of clock readings, the same on an idle
    machine and on a busy one, so the tests below check what happens at a time limit, never how
    long anything took (the speed claims are measured in bench/sparse_timing.py).
    """

    def __init__(self, step):
        self.now, self.step = 0.0, step

    def perf_counter(self):
        self.now += self.step
        return self.now


@pytest.fixture
def master_time_limits(monkeypatch):
    """Records the ``time_limit`` of every HiGHS solve (each one must have its own limit)."""
    from rulecore.highs import Model

    seen, solve = [], Model.solve

    def spy(self, **kw):
        seen.append(kw.get("time_limit"))
        return solve(self, **kw)

    monkeypatch.setattr(Model, "solve", spy)
    return seen


def test_time_limit_returns_incumbent_with_honest_gap(monkeypatch, master_time_limits):
    import rulecore.sparse as sp

    X, y = _data(60, 16, informative=0, noise=1.0, seed=11)  # pure noise: a hard instance
    k, gamma, limit = 4, 20.0, 2.0
    monkeypatch.setattr(sp, "time", _Clock(0.1))  # about 20 readings, a couple of master solves
    clf = SparseClassifier(k=k, gamma=gamma, loss="logistic", time_limit=limit,
                           warm_start=None).fit(X, y)
    assert clf.status_ == "time_limit"
    # every master solve was given the time left, never more than the fit's limit
    assert master_time_limits and all(0 < t <= limit for t in master_time_limits)
    assert master_time_limits == sorted(master_time_limits, reverse=True)
    assert clf.gap_ > 1e-6
    assert clf.gap_ == pytest.approx((clf.objective_ - clf.lower_bound_) / max(clf.objective_, 1))
    assert 0.0 < clf.lower_bound_ < clf.objective_
    last = clf.trace_[-1]
    assert (last["lower"], last["upper"], last["gap"]) == (clf.lower_bound_, clf.objective_,
                                                           clf.gap_)
    # honest: the bound is below the true optimum, the incumbent above it
    # size k only: c is non-increasing in the support (the brute-force test checks all sizes)
    best = _brute_force("logistic", X, y, k, gamma, sizes=[k])
    assert clf.lower_bound_ <= best * (1 + 1e-9) <= clf.objective_ * (1 + 1e-9)
    assert clf.objective_ == pytest.approx(
        support_objective(_standardise(X), np.where(y == 1, 1.0, -1.0), clf.support_, gamma,
                          "logistic")[0], rel=1e-9)


@pytest.mark.parametrize("loss", LOSSES)
def test_out_of_time_after_the_first_support_still_has_a_positive_bound(monkeypatch, loss):
    """The clock runs out during the first inner solve (a busy machine): no relaxation and no
    master solve.  The fit still returns a real model on k features and a positive certified
    lower bound, from the first support's own cut scaled along its ray (it was 0.0 before)."""
    import rulecore.sparse as sp

    rng = np.random.default_rng(0)
    n, p = 20_000, 50
    X = rng.standard_t(2, size=(n, p))  # heavy tails: most rows stay active in SMO
    y = (X[:, :5].sum(1) + 2 * rng.normal(size=n) > 0).astype(int)
    monkeypatch.setattr(sp, "time", _Clock(1.0))
    clf = SparseClassifier(k=8, gamma=1.0, loss=loss, time_limit=2.0).fit(X, y)
    assert clf.status_ == "time_limit"
    assert len(clf.trace_) == 1  # no master solve
    assert 0.0 < clf.lower_bound_ <= clf.objective_
    assert 0.0 < clf.gap_ < 1.0
    assert clf.gap_ == pytest.approx((clf.objective_ - clf.lower_bound_) / max(clf.objective_, 1))
    # the incumbent is a real model, not the all-zero fallback of a failed solve
    assert np.count_nonzero(clf.coef_) == 8
    assert clf.score(X, y) > 0.7


def test_hinge_inner_solve_is_capped_by_its_seconds(monkeypatch):
    """libsvm has no clock: its iteration cap comes from the seconds the solve is given and the
    pace learnt from earlier solves, and a capped run still gives a valid primal-dual pair."""
    import sklearn.svm

    from rulecore.sparse import _solve_inner, _SvmPace

    caps, SVC = [], sklearn.svm.SVC

    class SpySVC(SVC):
        def fit(self, X, y, sample_weight=None):
            caps.append(self.max_iter)
            return super().fit(X, y, sample_weight)

    monkeypatch.setattr(sklearn.svm, "SVC", SpySVC)
    rng = np.random.default_rng(0)
    n = 20_000
    X = _standardise(rng.standard_t(2, size=(n, 10)))
    y = np.where(X[:, :5].sum(1) + 2 * rng.normal(size=n) > 0, 1.0, -1.0)
    for seconds in (0.01, 0.1):
        pace = _SvmPace(per_row_iter=1e-9)  # as if learnt: 1 ns per row and iteration
        r = _solve_inner("hinge", X, y, range(8), 1.0, True, time_limit=seconds, pace=pace)
        assert caps[-1] == pytest.approx(seconds / (1e-9 * n), abs=1)  # 500, then 5,000
        assert r.dual <= r.primal  # a capped run still gives a valid pair of bounds
    assert caps[0] < caps[1]


@pytest.mark.parametrize("loss", LOSSES)
def test_one_cut_bounds_every_support_after_scaling(loss):
    """A cut's own bound ``h(t) − (k largest coefs)`` is negative under weak regularisation;
    scaled along its ray it is positive and still below the optimum over all supports."""
    from rulecore.sparse import _cut_from_t, _ray_bound, _solve_inner

    X, y = _data(60, 10, noise=0.5, seed=3)
    Xs, ys = _standardise(X), np.where(y == 1, 1.0, -1.0)
    k, gamma = 2, 50.0
    cut = _cut_from_t(loss, Xs, ys, _solve_inner(loss, Xs, ys, [5, 6], gamma, True).t, gamma)
    q = cut.top_k(k)
    assert cut.const - q < 0
    bound, eps = _ray_bound(loss, cut.t, q)
    best = _brute_force(loss, X, y, k, gamma, sizes=[k])
    assert 0 < eps < 1
    assert 0 < bound <= best


def test_bound_from_the_warm_starts_alone_is_reported_as_optimal(master_time_limits):
    """Strong signal: the Boolean relaxation's cut already closes the gap, no master solve."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 40))
    y = (X[:, :3] @ np.array([1.0, -1.0, 1.0]) + 0.1 * rng.normal(size=300) > 0).astype(int)
    clf = SparseClassifier(k=3, loss="logistic").fit(X, y)
    assert clf.status_ == "optimal" and clf.gap_ <= clf.tol
    assert 0 < clf.lower_bound_ <= clf.objective_
    assert np.array_equal(np.sort(clf.support_), [0, 1, 2])
    assert len(clf.trace_) == 1 and master_time_limits == []


def _spambase():
    import pandas as pd

    from tests.conftest import DATASETS

    path = DATASETS / "spambase" / "spambase.data"
    if not path.exists():
        pytest.skip(f"spambase is not in {DATASETS} (set RULECORE_DATASETS)")
    df = pd.read_csv(path, header=None)
    X, y = df.iloc[:, :-1].to_numpy(float), df.iloc[:, -1].to_numpy()
    return _standardise(X), np.where(y == np.unique(y)[-1], 1.0, -1.0)


@pytest.mark.parametrize("k", [5, 20])
def test_hinge_inner_is_exact_on_spambase(k):
    """Spambase (heavy tails, many zeros) stopped HiGHS's active-set QP with "non-convex", and
    the fallback was w = 0, so the CV benchmark scored AUC 0.5.  The inner solve must now close
    its own primal-dual gap there."""
    X, y = _spambase()
    support = np.sort(np.argsort(-np.abs(X.T @ y))[:k])
    primal, dual = support_objective(X, y, support, 9.3e-4, loss="hinge")
    assert dual <= primal
    assert primal - dual <= 1e-7 * primal
    w0 = support_objective(X, y, support, 1e-12, loss="hinge")[0]  # ≈ the w = 0 objective
    assert primal < 0.8 * w0


def test_coefficients_in_original_units():
    X, y = _data(80, 6, seed=3)
    X2 = X * np.array([1.0, 1000.0, 0.001, 1.0, 5.0, 1.0]) + 7.0
    a = SparseClassifier(k=2, gamma=0.5, loss="logistic").fit(X, y)
    b = SparseClassifier(k=2, gamma=0.5, loss="logistic").fit(X2, y)
    assert np.array_equal(a.support_, b.support_)
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-8)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X2), rtol=1e-6,
                               atol=1e-8)
    p = b.predict_proba(X2)
    assert p.shape == (80, 2) and np.allclose(p.sum(1), 1)


def test_predict_proba_only_for_logistic():
    X, y = _data(50, 5)
    assert not hasattr(SparseClassifier(k=2).fit(X, y), "predict_proba")
    assert hasattr(SparseClassifier(k=2, loss="logistic").fit(X, y), "predict_proba")


def test_errors_are_clear():
    X, y = _data(50, 5)
    with pytest.raises(DataError, match="Only binary"):
        SparseClassifier(k=2).fit(X, np.arange(50) % 3)
    with pytest.raises(ParameterError):
        SparseClassifier(k=0).fit(X, y)
    with pytest.raises(ParameterError):
        SparseClassifier(loss="squared").fit(X, y)
    with pytest.raises(ParameterError):
        SparseClassifier(gamma=-1.0).fit(X, y)


def test_gamma_auto_is_the_default_and_resolved_at_fit():
    """gamma="auto" is stored unchanged and resolved in fit to 16 / (k n) on standardised data:
    the same for any units of the features, recorded in ``gamma_``, and a point of the CV grid."""
    from sklearn.base import clone

    from rulecore.sparse import GAMMA_AUTO_FACTOR, auto_gamma, gamma_grid

    X, y = _data(80, 6, seed=3)
    clf = SparseClassifier(k=2, loss="logistic")
    assert clf.gamma == "auto" and clone(clf).get_params()["gamma"] == "auto"
    clf.fit(X, y)
    assert clf.gamma == "auto"  # the parameter is left as given
    assert clf.gamma_ == pytest.approx(GAMMA_AUTO_FACTOR / (2 * 80)) == auto_gamma(X, 2)
    scaled = SparseClassifier(k=2, loss="logistic").fit(X * 1000.0 - 3.0, y)
    assert scaled.gamma_ == pytest.approx(clf.gamma_)
    assert np.array_equal(scaled.support_, clf.support_)
    # a constant column is not a feature: it changes neither γ nor the model
    with_const = SparseClassifier(k=2, loss="logistic").fit(np.hstack([X, np.ones((80, 1))]), y)
    assert with_const.gamma_ == pytest.approx(clf.gamma_)
    # the fit is the fit with that γ given explicitly
    same = SparseClassifier(k=2, gamma=clf.gamma_, loss="logistic").fit(X, y)
    assert same.objective_ == pytest.approx(clf.objective_, rel=1e-12)
    assert same.gamma_ == clf.gamma_
    assert any(g == pytest.approx(clf.gamma_) for g in gamma_grid(X, 2))


def test_gamma_auto_scales_with_rows_and_k():
    from rulecore.sparse import auto_gamma

    X, _ = _data(200, 8, seed=0)
    assert auto_gamma(X, 4) == pytest.approx(auto_gamma(X[:100], 4) / 2)
    assert auto_gamma(X, 4) == pytest.approx(auto_gamma(X, 2) / 2)
    assert auto_gamma(X, 50) == pytest.approx(auto_gamma(X, 8))  # k beyond p: capped at p


@pytest.mark.parametrize("bad", ["automatic", 0.0, -1.0, float("nan"), True, None])
def test_gamma_must_be_positive_or_auto(bad):
    X, y = _data(50, 5)
    with pytest.raises(ParameterError, match='positive number or "auto"'):
        SparseClassifier(k=2, gamma=bad).fit(X, y)
    with pytest.raises(ParameterError, match="gamma must be a positive number"):
        SparseClassifierCV(ks=(1,), gammas=[bad]).fit(X, y)


def test_cv_default_grid_holds_auto():
    from rulecore.sparse import auto_gamma

    X, y = _data(120, 10, informative=2, noise=0.3, seed=5)
    cv = SparseClassifierCV(ks=(1, 2), loss="logistic", time_limit=5,
                            random_state=0).fit(X, y)
    grid = sorted({r["gamma"] for r in cv.cv_results_})
    assert len(grid) == 6
    assert grid[4] == pytest.approx(auto_gamma(X, 2))
    assert cv.gamma_ in grid and cv.gamma == cv.gamma_


def test_cv_picks_from_grid_and_reuses_cuts():
    X, y = _data(120, 10, informative=2, noise=0.3, seed=5)
    seen = []
    cv = SparseClassifierCV(ks=(1, 2, 4), gammas=[0.05, 0.5], loss="logistic", time_limit=10,
                            random_state=0).fit(X, y, progress=lambda d, t, r: seen.append(d))
    assert len(cv.cv_results_) == 6 and seen[-1] == 6
    assert cv.k_ in (1, 2, 4) and cv.gamma_ in (0.05, 0.5)
    assert len(cv.support_) <= cv.k_
    assert cv.score(X, y) > 0.8


@parametrize_with_checks([SparseClassifier(k=2, time_limit=5.0),
                          SparseClassifier(k=2, loss="logistic", time_limit=5.0),
                          SparseClassifierCV(ks=(1, 2), gammas=[0.5], loss="logistic",
                                             time_limit=2.0, random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("cls", [SparseClassifier, SparseClassifierCV])
@pytest.mark.parametrize("method", ["predict", "decision_function", "predict_proba"])
def test_unfitted_raises_not_fitted(cls, method):
    with pytest.raises(NotFittedError):
        getattr(cls(loss="logistic"), method)(np.zeros((2, 3)))


def _bisection_projection(v, y, lo, hi):
    """The plain bisection the sorted version replaces: 60 passes over the rows."""
    a, b = -np.abs(v).max() - hi - 1.0, np.abs(v).max() + hi + 1.0
    for _ in range(60):
        nu = 0.5 * (a + b)
        if float(y @ np.clip(v - nu * y, lo, hi)) > 0:
            a = nu
        else:
            b = nu
    return np.clip(v - 0.5 * (a + b) * y, lo, hi)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("lo, hi", [(0.0, 1.0), (1e-9, 1 - 1e-9)])
def test_projection_onto_box_and_hyperplane(seed, lo, hi):
    from rulecore.sparse import _project_box_hyperplane

    rng = np.random.default_rng(seed)
    n = [7, 100, 3000, 20_000][seed]
    v = rng.normal(scale=2.0, size=n)
    y = np.where(rng.random(n) < 0.3, 1.0, -1.0)
    t = _project_box_hyperplane(v, y, lo, hi)
    np.testing.assert_allclose(t, _bisection_projection(v, y, lo, hi), atol=1e-9)
    assert np.all((t >= lo) & (t <= hi)) and abs(y @ t) < 1e-6 * n


@pytest.mark.parametrize("case", ["one class", "other class", "ties", "two rows"])
@pytest.mark.parametrize("lo, hi", [(0.0, 1.0), (1e-9, 1 - 1e-9)])
def test_projection_edge_cases_agree_with_bisection(case, lo, hi):
    """The breakpoint search finds the root on its linear piece: where there is none (one
    class) or breakpoints coincide (tied values), it gives what bisection on ν gives."""
    from rulecore.sparse import _project_box_hyperplane

    rng = np.random.default_rng(1)
    v = rng.normal(scale=2.0, size=60)
    y = np.where(rng.random(60) < 0.4, 1.0, -1.0)
    if case == "one class":
        y[:] = 1.0
    elif case == "other class":
        y[:] = -1.0
    elif case == "ties":
        v = np.round(v)
    else:
        v, y = v[:2], np.array([1.0, -1.0])
    np.testing.assert_allclose(_project_box_hyperplane(v, y, lo, hi),
                               _bisection_projection(v, y, lo, hi), atol=1e-9)


def test_memory_budget_and_plain_messages(monkeypatch):
    X, y = _data(300, 20)
    with pytest.raises(ParameterError, match=r"got 0$"):
        SparseClassifier(k=np.int64(0)).fit(X, y)
    monkeypatch.setenv("RULECORE_MEMORY_BUDGET_GB", "0.0001")  # 100 kB
    with pytest.raises(DataError, match=r"sparse model on 300 rows × 20 columns needs about "
                                        r"144 kB"):
        SparseClassifier(k=2).fit(X, y)


def test_the_final_model_is_refit_on_the_certified_support():
    """A rare class (15 %) and γ auto: the support problem's shrunk coefficients left every
    score on the majority's side (the Compare page's 'never predicts the positive class' on
    a Google Forms export).  The default refits the same loss on the chosen support with
    γ = 1; support, objective and bounds stay the support problem's."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(7)
    n = 400
    X = rng.normal(size=(n, 8))
    y = ((X[:, 0] > 0.6) & (X[:, 1] > 0.0)).astype(int)
    y ^= rng.random(n) < 0.03
    shrunk = SparseClassifier(k=3, loss="logistic", refit_gamma=None).fit(X, y)
    final = SparseClassifier(k=3, loss="logistic").fit(X, y)
    assert np.array_equal(shrunk.support_, final.support_)
    assert final.objective_ == shrunk.objective_ and final.gap_ == shrunk.gap_
    majority = max(y.mean(), 1 - y.mean())
    # the near-collapse the refit is for: the shrunk model finds few of the positives
    assert (shrunk.predict(X) == y).mean() < majority + 0.02
    assert (final.predict(X) == y).mean() > majority + 0.05
    # the refit is the exact γ = 1 problem on the support: scikit-learn's C = 1 there (its
    # intercept unpenalised too, to its tolerance), on the same standardised columns
    S = final.support_
    Z = (X[:, S] - X[:, S].mean(0)) / X[:, S].std(0)
    ref = LogisticRegression(C=1.0, tol=1e-10, max_iter=10_000).fit(Z, y)
    np.testing.assert_allclose(final.decision_function(X), ref.decision_function(Z),
                               rtol=1e-4, atol=1e-4)
    with pytest.raises(ParameterError, match="refit_gamma"):
        SparseClassifier(k=2, refit_gamma=0).fit(X, y)


def test_logistic_newton_stops_once_the_objective_stops_falling():
    """On this design the gradient test (1e-11 √n) is never met in float sums; Newton kept
    accepting steps that left the objective equal, to max_iter = 100 Hessian solves with a
    34-step line search each.  It stops when no decrease is left, at the same optimum."""
    from unittest import mock

    from rulecore.sparse import _logistic_newton

    rng = np.random.default_rng(12)
    X = rng.standard_normal((60, 3))
    y = np.where(X[:, 0] + rng.standard_normal(60) > 0, 1.0, -1.0)
    with mock.patch.object(np.linalg, "solve", wraps=np.linalg.solve) as solve:
        w, b = _logistic_newton(X, y, 0.3, True)
    assert solve.call_count < 20

    def f(th):
        return np.logaddexp(0.0, -y * (X @ th[:3] + th[3])).sum() + th[:3] @ th[:3] / 0.6

    best = minimize(f, np.zeros(4), method="BFGS", options={"gtol": 1e-10})
    assert f(np.r_[w, b]) <= best.fun + 1e-12
