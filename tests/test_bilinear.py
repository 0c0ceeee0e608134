"""Exactness of rulecore.bilinear against brute force (docs/bilinear.md)."""

from __future__ import annotations

import itertools
import types

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

import rulecore.bilinear as bl
from rulecore.bilinear import (
    BilinearReducer,
    CalculationEstimationClassifier,
    best_move,
    criterion_matrix,
    criterion_votes,
    mean_abs_pairwise_diff,
)
from rulecore.exceptions import DataError, ParameterError, SolverError

# ------------------------------------------------------------------------------ brute force


def brute_eps(X):
    m = X.shape[0]
    return np.array([
        sum(abs(X[u, i] - X[v, i]) for u in range(m) for v in range(u)) * 2 / (m * (m - 1))
        for i in range(X.shape[1])
    ])


def brute_gamma(Xtr, ytr, eps, k, x, w, z, exclude=None):
    """Γ_c(z) by enumerating every k-subset Ω: Σ_v w_v Σ_Ω (Σ_{i∈Ω} x_i) B_Ω(z_v, z) / n_c.

    ``exclude`` is a training index left out (leave-one-out), which also shrinks its class.
    """
    n = Xtr.shape[1]
    out = {}
    for c in np.unique(ytr):
        members = [v for v in range(len(ytr)) if ytr[v] == c and v != exclude]
        size = len(members)
        total = 0.0
        for v in members:
            for omega in itertools.combinations(range(n), k):
                if all(abs(Xtr[v, j] - z[j]) <= eps[j] for j in omega):
                    total += w[v] * sum(x[i] for i in omega)
        out[c] = total / size if size else 0.0
    return out


def brute_F(X, y, eps, k, t, x, w):
    """Own-class minus t × other-class votes over the training objects, leave-one-out."""
    F = 0.0
    for tau in range(len(y)):
        g = brute_gamma(X, y, eps, k, x, w, X[tau], exclude=tau)
        for c, val in g.items():
            F += val if c == y[tau] else -t * val
    return F


def small_data(seed, m=9, n=5, classes=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(m, n)).astype(float) + rng.normal(0, 0.3, size=(m, n))
    y = np.arange(m) % classes
    rng.shuffle(y)
    return X, y


# ------------------------------------------------------------------------------ ε and Γ


@pytest.mark.parametrize("seed", range(5))
def test_eps_sorting_formula_matches_pairwise_mean(seed):
    X = np.random.default_rng(seed).normal(size=(13, 4))
    X[:, 0] = np.round(X[:, 0])  # ties in a column
    np.testing.assert_allclose(mean_abs_pairwise_diff(X), brute_eps(X), rtol=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_eps_of_a_column_does_not_depend_on_the_other_columns(seed):
    """Bit for bit: the elimination's accuracies (one column fewer per step) rely on it."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(int(rng.integers(2, 900)), 37)) * 10.0 ** rng.integers(-3, 4)
    keep = np.sort(rng.choice(37, int(rng.integers(1, 37)), replace=False))
    full = mean_abs_pairwise_diff(X)
    np.testing.assert_array_equal(mean_abs_pairwise_diff(X[:, keep]), full[keep])
    np.testing.assert_array_equal(mean_abs_pairwise_diff(np.asfortranarray(X)), full)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_gamma_closed_form_equals_subset_enumeration(seed, k):
    X, y = small_data(seed, m=10, n=5)
    rng = np.random.default_rng(100 + seed)
    x = rng.random(5)
    w = rng.random(10)
    Z = X[:4] + rng.normal(0, 0.5, size=(4, 5))
    clf = CalculationEstimationClassifier(k=k, feature_weights=x, object_weights=w).fit(X, y)
    G = clf.scores(Z)
    eps = mean_abs_pairwise_diff(X)
    for r, z in enumerate(Z):
        g = brute_gamma(X, y, eps, k, x, w, z)
        np.testing.assert_allclose(G[r], [g[c] for c in clf.classes_], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("d", "k"), [(4, 2), (6, 3), (5, 5), (7, 1)])
def test_binomial_counts_subsets_containing_a_feature(d, k):
    """docs/bilinear.md: the weight of feature i is C(d − 1, k − 1); the paper prints
    C(d, k − 1)."""
    from math import comb

    count = sum(0 in omega for omega in itertools.combinations(range(d), k))
    assert bl.binomial_table(d, k)[d] == count == comb(d - 1, k - 1)
    if k > 1:
        assert comb(d, k - 1) != count  # the printed formula is off by one


def test_unit_weights_give_classic_count():
    """With x = 1: Σ_{i∈J} x_i C(d−1, k−1) = k C(d, k), Zhuravlev's count of k-subsets."""
    X, y = small_data(7, m=12, n=6)
    k = 3
    G = CalculationEstimationClassifier(k=k).fit(X, y).scores(X)
    eps = mean_abs_pairwise_diff(X)
    from math import comb

    d = (np.abs(X[:, None, :] - X[None, :, :]) <= eps).sum(axis=2)
    classes = np.unique(y)
    expect = np.array([[k * sum(comb(int(d[a, v]), k) for v in np.flatnonzero(y == c))
                        / np.sum(y == c) for c in classes] for a in range(len(y))])
    np.testing.assert_allclose(G, expect, rtol=1e-12)


def test_tie_is_rejection():
    X = np.array([[0.0], [2.0], [2.0]])
    y = np.array(["a", "b", "b"])
    clf = CalculationEstimationClassifier(k=1, eps=1.0).fit(X, y)
    # z = 1 is close to all three objects (Γ = 1/1 for "a", 2/2 for "b"): a tie;
    # z = 9 is close to none (Γ = 0 for both): a tie; z = -0.5 is close to "a" only.
    Z = np.array([[1.0], [9.0], [-0.5]])
    np.testing.assert_array_equal(clf.scores(Z), [[1.0, 1.0], [0.0, 0.0], [1.0, 0.0]])
    labels, rejected = clf.predict_with_reject(Z)
    assert rejected.tolist() == [True, True, False]
    # predict always gives a class: a tie goes to the tied class with most training objects
    assert labels.tolist() == ["b", "b", "a"] and labels.dtype == clf.classes_.dtype
    np.testing.assert_array_equal(clf.predict(Z), labels)
    # the rejections as before: None (dtype object) or reject_label in the rejected rows
    assert clf.predict_or_reject(Z).tolist() == [None, None, "a"]
    # a rejection counts as an error in the paper's accuracy, even where the fallback is
    # right; score is predict's accuracy, as scikit-learn's tools assume (a notebook review:
    # cross_val_score and scoring="accuracy" gave two figures)
    assert clf.score_with_reject(Z, ["b", "b", "a"]) == pytest.approx(1 / 3)
    assert clf.score(Z, ["b", "b", "a"]) == 1.0
    from sklearn.model_selection import cross_val_score

    rng = np.random.default_rng(0)
    Xr, yr = rng.normal(size=(60, 4)), rng.integers(0, 2, 60)
    np.testing.assert_allclose(
        cross_val_score(CalculationEstimationClassifier(k=2), Xr, yr, cv=3),
        cross_val_score(CalculationEstimationClassifier(k=2), Xr, yr, cv=3, scoring="accuracy"))
    marked = clf.set_params(reject_label="?").predict_or_reject(Z)
    assert marked.tolist() == ["?", "?", "a"]


def test_fallback_prefers_tied_classes_by_size_then_order():
    # classes 0, 1, 2 with 2, 3, 3 objects; z = 50 is close to no object: all tie
    X = np.array([[0.0], [0.1], [10.0], [10.1], [10.2], [20.0], [20.1], [20.2]])
    y = np.array([0, 0, 1, 1, 1, 2, 2, 2])
    clf = CalculationEstimationClassifier(k=1, eps=1.0).fit(X, y)
    # z = 5 is close to nobody either; z = 0 wins for class 0 outright
    Z = np.array([[50.0], [5.0], [0.0]])
    labels, rejected = clf.predict_with_reject(Z)
    assert rejected.tolist() == [True, True, False]
    assert labels.tolist() == [1, 1, 0]  # 1 and 2 are the largest; 1 comes first
    assert clf.predict_or_reject(Z).dtype == object
    marked = clf.set_params(reject_label=-1).predict_or_reject(Z)
    assert marked.tolist() == [-1, -1, 0] and marked.dtype.kind == "i"


def test_reject_label_dtype_does_not_depend_on_the_batch():
    X = np.array([[0.0], [2.0], [2.0]])
    y = np.array([1, 2, 2])
    clf = CalculationEstimationClassifier(k=1, eps=1.0, reject_label="?").fit(X, y)
    with_tie, without = clf.predict_or_reject([[1.0], [-0.5]]), clf.predict_or_reject([[-0.5]])
    assert with_tie.tolist() == ["?", "1"] and without.tolist() == ["1"]
    assert with_tie.dtype == without.dtype
    plain = CalculationEstimationClassifier(k=1, eps=1.0).fit(X, y)
    assert plain.predict_or_reject([[-0.5]]).dtype == object


@pytest.mark.parametrize("weighted", [False, True])
def test_each_row_is_scored_alone(weighted):
    """A row's scores are bit-identical whatever rows come with it, so a tie (an exact
    equality) and the label cannot change with the batch (order or subset)."""
    rng = np.random.default_rng(3)
    X, y = small_data(8, m=120, n=6, classes=3)
    params = dict(feature_weights=rng.random(6), object_weights=rng.random(120)) if weighted \
        else {}
    clf = CalculationEstimationClassifier(k=3, **params).fit(X, y)
    Z = np.vstack([X[:40] + rng.normal(0, 0.4, size=(40, 6)), X[:5]])
    G = clf.scores(Z)
    alone = np.vstack([clf.scores(Z[i:i + 1]) for i in range(len(Z))])
    np.testing.assert_array_equal(G, alone)
    perm = rng.permutation(len(Z))
    np.testing.assert_array_equal(clf.scores(Z[perm]), G[perm])
    np.testing.assert_array_equal(clf.predict(Z[perm]), clf.predict(Z)[perm])


def test_classifier_params_and_errors():
    X, y = small_data(1)
    clf = CalculationEstimationClassifier(k=2)
    assert clone(clf).get_params()["k"] == 2
    with pytest.raises(ParameterError):
        CalculationEstimationClassifier(k=9).fit(X, y)
    with pytest.raises(ParameterError):
        CalculationEstimationClassifier(k=0).fit(X, y)
    with pytest.raises(ParameterError):
        CalculationEstimationClassifier(feature_weights=[1.0]).fit(X, y)
    assert CalculationEstimationClassifier().fit(X, y)._k == 3  # ceil(5 / 2)


def test_classifier_learns_separable_classes():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 1, (30, 4)), rng.normal(6, 1, (30, 4))])
    y = np.repeat(["lo", "hi"], 30)
    clf = CalculationEstimationClassifier(k=2).fit(X, y)
    assert clf.score(X, y) > 0.95
    # binary decision_function follows scikit-learn: Γ(classes_[1]) − Γ(classes_[0])
    G = clf.scores(X)
    np.testing.assert_allclose(clf.decision_function(X), G[:, 1] - G[:, 0])
    pred = clf.predict(X)
    assert np.all(pred[clf.decision_function(X) > 0] == clf.classes_[1])


# ------------------------------------------------------------------------------ F = xᵀCy


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["binary", "fractional"])
def test_bilinear_form_equals_gamma_criterion(seed, kind):
    X, y = small_data(seed, m=9, n=5)
    k, t = 2, 0.7
    rng = np.random.default_rng(50 + seed)
    if kind == "binary":
        x = rng.integers(0, 2, 5).astype(float)
        w = rng.integers(0, 2, 9).astype(float)
    else:
        x, w = rng.random(5), rng.random(9)
    C = criterion_matrix(X, y, t, k)
    expect = brute_F(X, y, mean_abs_pairwise_diff(X), k, t, x, w)
    assert x @ C @ w == pytest.approx(expect, rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("seed", range(3))
def test_criterion_votes_split_own_and_other_class_votes(seed):
    """C(t) = A − t·B with A the own-class and B the other-class votes, both ≥ 0."""
    X, y = small_data(seed, m=9, n=5)
    k = 2
    A, B = criterion_votes(X, y, k)
    assert (A >= 0).all() and (B >= 0).all()
    eps = mean_abs_pairwise_diff(X)
    x, w = np.ones(5), np.ones(9)
    own = brute_F(X, y, eps, k, 0.0, x, w)
    assert x @ A @ w == pytest.approx(own, rel=1e-12)
    assert x @ B @ w == pytest.approx(own - brute_F(X, y, eps, k, 1.0, x, w), rel=1e-12)
    for t in (0.0, 0.7, 4.0):
        np.testing.assert_allclose(criterion_matrix(X, y, t, k), A - t * B, rtol=1e-12,
                                   atol=1e-12 * np.abs(A).max())


def test_criterion_matrix_blocks_do_not_matter(monkeypatch):
    X, y = small_data(3, m=20, n=4)
    full = criterion_matrix(X, y, 1.3, 2)
    monkeypatch.setattr(bl, "_BLOCK", 7)  # one object per block
    np.testing.assert_allclose(criterion_matrix(X, y, 1.3, 2), full, rtol=1e-12)


# ------------------------------------------------------------------------------ local search


def neighbourhood(n, m):
    """All moves of one or two flips: (features, objects)."""
    for i in range(n):
        yield [i], []
    for j in range(m):
        yield [], [j]
    for a, b in itertools.combinations(range(n), 2):
        yield [a, b], []
    for a, b in itertools.combinations(range(m), 2):
        yield [], [a, b]
    for i in range(n):
        for j in range(m):
            yield [i], [j]


def flipped(v, idx):
    v = v.copy()
    v[idx] = 1 - v[idx]
    return v


def allowed(mask, idx):
    """A move may not remove the last kept feature (object)."""
    return not (mask.sum() >= 1 and flipped(mask, idx).sum() == 0)


def random_mask(rng, size, kept):
    mask = np.zeros(size)
    mask[rng.choice(size, kept, replace=False)] = 1.0
    return mask


@pytest.mark.parametrize("seed", range(30))
def test_best_move_gain_is_exact_and_dominates_pure_moves(seed):
    rng = np.random.default_rng(seed)
    n, m = 4, 7
    C = rng.normal(size=(n, m))
    C[rng.integers(n), rng.integers(m)] *= 20  # a large entry makes the mixed move matter
    x = random_mask(rng, n, seed % 4 + 1)  # 1, 2, 3 or 4 kept features
    y = random_mask(rng, m, seed % 3 + 1)  # few kept objects: the "keep one" rule matters
    if seed % 5 == 0:
        C = -np.abs(C)  # every removal pays: the search would empty the table
    u, v = C.T @ x, C @ y
    gain, fi, oj, kind = best_move(C, x, y, u, v, np.abs(C).max(1), np.abs(C).max(0))
    F0 = x @ C @ y
    assert allowed(x, fi) and allowed(y, oj)
    assert flipped(x, fi) @ C @ flipped(y, oj) - F0 == pytest.approx(gain, abs=1e-9)
    gains = {tuple(map(tuple, mv)): flipped(x, mv[0]) @ C @ flipped(y, mv[1]) - F0
             for mv in neighbourhood(n, m) if allowed(x, mv[0]) and allowed(y, mv[1])}
    pure = max(g for (f, o), g in gains.items() if not (f and o))
    assert gain >= pure - 1e-9
    assert gain <= max(gains.values()) + 1e-9
    best_mixed = {}  # exact best partner for each feature
    for (f, o), g in gains.items():
        if f and o:
            best_mixed[f[0]] = max(best_mixed.get(f[0], -np.inf), g)
    a = (C @ y) * (1 - 2 * x)
    if x.sum() <= 1:
        a[x == 1] = -np.inf
    i_star = int(np.argmax(a + np.abs(C).max(1)))
    if i_star in best_mixed:  # the bound-chosen row is searched exactly
        assert gain >= best_mixed[i_star] - 1e-9


def test_search_never_empties_the_table():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 5))
    y = rng.integers(0, 3, 60)  # labels unrelated to X: other-class votes dominate for t large
    r = BilinearReducer(t=5.0, k=2, random_state=0).fit(X, y)
    assert r.trace_["n_features"].min() >= 1 and r.trace_["n_objects"].min() >= 1
    assert r.trace_["F"].iloc[-1] > r.trace_["F"].iloc[0]


@pytest.mark.parametrize("start", [(1.0, 1.0), (0.6, 0.5)])
def test_reducer_steps_match_recomputed_F_and_never_decrease(start):
    X, y = small_data(11, m=60, n=8)
    X_val, y_val = small_data(12, m=30, n=8)
    r = BilinearReducer(t=1.5, k=3, feature_share=start[0], object_share=start[1],
                        random_state=0, max_iter=500).fit(X, y, X_val, y_val)
    assert r.n_steps_ > 0
    tr = r.trace_
    Fs = np.array([fm @ r.C_ @ om for fm, om in zip(r.feature_masks_.astype(float),
                                                     r.object_masks_.astype(float), strict=True)])
    scale = np.abs(Fs).max()
    np.testing.assert_allclose(tr["F"], Fs, atol=1e-9 * scale)
    np.testing.assert_allclose(tr["delta_F"].iloc[1:], np.diff(Fs), atol=1e-9 * scale)
    s = r.search_steps_
    assert s > 0 and (tr["phase"].iloc[:s + 1] == "search").all()
    assert np.all(np.diff(Fs[:s + 1]) > 0)  # the search only climbs
    # every step flips one or two coordinates
    flips = (np.abs(np.diff(r.feature_masks_.astype(int), axis=0)).sum(1)
             + np.abs(np.diff(r.object_masks_.astype(int), axis=0)).sum(1))
    assert set(flips) <= {1, 2}
    assert r.status_ in {"eliminated", "max_iter"}
    if r.status_ == "eliminated":  # no single flip improves the end point of the search
        x, w = r.feature_masks_[s].astype(float), r.object_masks_[s].astype(float)
        a, b = (r.C_ @ w) * (1 - 2 * x), (r.C_.T @ x) * (1 - 2 * w)
        a[(x == 1) & (x.sum() == 1)] = -np.inf  # the last kept one may not go
        b[(w == 1) & (w.sum() == 1)] = -np.inf
        assert np.all(a <= 1e-9 * scale) and np.all(b <= 1e-9 * scale)


def test_reducer_trace_masks_transform_and_selection():
    X, y = small_data(5, m=80, n=6)
    df = pd.DataFrame(X, columns=[f"c{i}" for i in range(6)])
    r = BilinearReducer(t=2.0, k=2, random_state=3, feature_share=0.8, object_share=0.7,
                        max_iter=40).fit(df, y)
    tr = r.trace_
    assert list(tr.columns[:10]) == ["iteration", "F", "delta_F", "move", "n_features",
                                     "n_objects", "feature_share", "object_share",
                                     "table_share", "accuracy"]
    assert len(tr) == r.n_steps_ + 1 == len(r.feature_masks_)
    reached = r.status_ in {"local_optimum", "eliminated"}
    assert r.n_iter_ == r.n_steps_ + reached <= r.max_iter
    np.testing.assert_allclose(tr["table_share"], tr["feature_share"] * tr["object_share"])
    assert tr["accuracy"].notna().all()
    # the default rule: smallest table within δ of the best accuracy
    ok = tr[tr["accuracy"] >= tr["accuracy"].max() - r.delta]
    assert tr.loc[r.best_iteration_, "table_share"] == ok["table_share"].min()
    assert r.choose_iteration(rule=lambda t: len(t) - 1) == r.n_steps_
    # accuracy column = classifier refitted on the sub-table
    it = r.n_steps_
    fm, om = r.masks(it)
    assert tr.loc[it, "accuracy"] == r.accuracy_of(fm, om)
    sub, ysub = r.reduced_table(it)
    assert sub.shape == (om.sum(), fm.sum()) and len(ysub) == om.sum()
    assert list(sub.columns) == [c for c, k in zip(df.columns, fm, strict=True) if k]
    np.testing.assert_array_equal(sub.to_numpy(), df.to_numpy()[sub.index][:, fm])
    out = r.transform(df, iteration=it)
    assert list(out.columns) == list(sub.columns) and len(out) == len(df)
    with pytest.raises(ParameterError):
        r.masks(r.n_steps_ + 1)



def test_n_iter_counts_the_search_iteration_that_finds_no_move():
    """scikit-learn's n_iter_: the iteration that finds no improving move counts, so a start
    that is already a local optimum has one iteration and no step."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 0.1, (15, 2)), rng.normal(1, 0.1, (15, 2))])
    y = np.repeat([0, 1], 15)  # two tight, distant blobs: the full table is optimal
    r = BilinearReducer(random_state=0, continuation="none").fit(X, y)
    assert r.status_ == "local_optimum"
    assert (r.n_iter_, r.n_steps_, r.search_steps_, len(r.trace_)) == (1, 0, 0, 1)
    assert r.masks(0)[0].all() and r.best_iteration_ == 0
    with pytest.raises(ParameterError):
        r.masks(r.n_iter_)  # no row past the last step
    # no feature casts an other-class vote (the blobs are too far apart), so no price of
    # such a vote makes F drop one: the elimination ends at once
    r = BilinearReducer(random_state=0).fit(X, y)
    assert r.status_ == "eliminated" and (r.n_iter_, r.n_steps_, r.search_steps_) == (1, 0, 0)
    # closer blobs: one feature is dropped, its step is an iteration too
    X[15:] -= 0.75
    r = BilinearReducer(random_state=0).fit(X, y)
    assert r.status_ == "eliminated" and r.trace_["phase"].iloc[-1] == "eliminate"
    assert r.n_iter_ == r.n_steps_ + 1 and r.n_steps_ == r.search_steps_ + 1

def test_reducer_time_limit_and_errors(monkeypatch):
    X, y = small_data(2, m=40, n=5)
    with pytest.raises(SolverError, match="time limit"):  # C itself is not built in time
        BilinearReducer(t=1.0, k=2, time_limit=1e-9, random_state=0).fit(X, y)
    # a fake clock that advances one second per reading: the search stops by the limit
    ticks = itertools.count()
    monkeypatch.setattr(bl, "time", types.SimpleNamespace(perf_counter=lambda: next(ticks)))
    r = BilinearReducer(t=1.0, k=2, time_limit=8, random_state=0).fit(X, y)
    assert r.status_ == "time_limit" and 0 < r.n_steps_ < 8 and len(r.trace_) == r.n_steps_ + 1
    assert r.n_iter_ == r.n_steps_  # stopped before looking for a move
    monkeypatch.undo()
    r = BilinearReducer(t=1.0, k=2, max_iter=1, random_state=0).fit(X, y)
    assert r.status_ in {"max_iter", "local_optimum"} and r.n_steps_ <= r.n_iter_ == 1
    with pytest.raises(ParameterError):
        BilinearReducer(feature_share=0).fit(X, y)
    with pytest.raises(ParameterError):
        BilinearReducer(t=-1).fit(X, y)
    with pytest.raises(DataError):
        BilinearReducer().fit(X, np.zeros(len(y)))


# ------------------------------------------------------------------------------ time, memory


def test_criterion_matrix_deadline_and_progress(monkeypatch):
    X, y = small_data(4, m=60, n=5)
    monkeypatch.setattr(bl, "_BLOCK", 5 * 60 * 10)  # ten objects per block: six blocks
    seen = []
    full = criterion_matrix(X, y, 1.0, 2, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(d, 60) for d in range(10, 61, 10)]
    # a deadline already past: the build stops after its first block, not at the end
    seen.clear()
    with pytest.raises(SolverError, match=r"after 10 of 60 objects; raise the time limit"):
        criterion_matrix(X, y, 1.0, 2, deadline=0.0, progress=lambda d, t: seen.append(d))
    assert seen == [10]
    assert full.shape == (5, 60)


def test_reducer_callback_stages_and_row_sample():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = np.where(np.arange(300) < 60, "rare", "common")  # 20 % rare
    stages = []
    r = BilinearReducer(t=1.0, k=2, max_iter=5, random_state=0, max_objects=100).fit(
        X, y, callback=lambda stage, done, total: stages.append((stage, done, total)))
    assert stages[0][0] == "criterion" and stages[0][2] == 70  # 70 % of the 100 rows sampled
    assert [s for s in stages if s[0] != "criterion"] == \
        [("search", i, 5) for i in range(1, r.search_steps_ + 1)] + \
        [("eliminate", i, 5) for i in range(r.search_steps_ + 1, r.n_steps_ + 1)]
    assert len(r.sample_index_) == 100 and np.all(np.diff(r.sample_index_) > 0)
    assert np.mean(y[r.sample_index_] == "rare") == pytest.approx(0.2)  # stratified
    assert set(r.train_index_) <= set(r.sample_index_) and r.C_.shape == (4, 70)
    sub, ysub = r.reduced_table(0)
    np.testing.assert_array_equal(sub.to_numpy(), X[sub.index])  # rows of the X given to fit
    np.testing.assert_array_equal(ysub, y[sub.index])
    everything = BilinearReducer(t=1.0, k=2, max_iter=0, random_state=0, max_objects=300)
    assert len(everything.fit(X, y).sample_index_) == 300
    assert everything.n_iter_ == everything.n_steps_ == 0  # max_iter=0: no search at all
    with pytest.raises(ParameterError, match="max_objects must be an integer >= 4, got 2"):
        BilinearReducer(max_objects=np.int64(2)).fit(X, y)


def test_time_limit_during_accuracy_keeps_the_steps_done(monkeypatch):
    """Out of time while measuring a step's accuracy: the search stops there, unmeasured."""
    X, y = small_data(5, m=40, n=5)
    real = BilinearReducer.accuracy_of
    calls = itertools.count()

    def accuracy_of(self, fmask, omask, deadline=None):
        if next(calls) >= 3:  # full table (also the start's), steps 1 and 2 measured
            raise SolverError("out of time")
        return real(self, fmask, omask)

    monkeypatch.setattr(BilinearReducer, "accuracy_of", accuracy_of)
    r = BilinearReducer(t=1.0, k=2, max_iter=50, random_state=0).fit(X, y)
    assert r.status_ == "time_limit" and r.n_iter_ == r.n_steps_ == 3
    assert r.trace_["accuracy"].isna().tolist() == [False, False, False, True]
    shown = bl.trace_table(r.trace_)
    assert not shown.isna().any().any()
    assert shown["accuracy"].iloc[-1] == "not measured" and shown["delta_F"].iloc[0] == ""


def test_memory_budget_refuses_large_runs(monkeypatch):
    X, y = small_data(6, m=200, n=5)
    monkeypatch.setenv("RULECORE_MEMORY_BUDGET_GB", "0.00005")  # 50 kB
    with pytest.raises(DataError, match=r"The reduction of 140 objects × 5 features .* fewer "
                                        r"iterations"):
        BilinearReducer(k=2, max_iter=1000, random_state=0).fit(X, y)
    with pytest.raises(DataError, match=r"criterion matrix C \(5 features × 2,000 objects\)"):
        criterion_matrix(np.zeros((2000, 5)), np.arange(2000) % 2, 1.0, 2)


def test_messages_show_plain_numbers():
    X, y = small_data(7, m=20, n=4)
    with pytest.raises(ParameterError, match=r"got 0\.$"):
        BilinearReducer(k=np.int64(0)).fit(X, y)
    with pytest.raises(ParameterError, match=r"got -1\.0\.$"):
        BilinearReducer(t=np.float64(-1.0)).fit(X, y)


# ------------------------------------------------------------------------------ elimination


def fit_eliminating(**params):
    X, y = small_data(21, m=70, n=7)
    return BilinearReducer(**{"t": 0.5, "k": 3, "random_state": 0, **params}).fit(X, y)


def test_elimination_follows_the_criterion_as_the_price_of_other_class_votes_rises():
    """Each elimination row keeps exactly the features that maximise F(·, ω; t′) for the
    objects ω of the local optimum, for prices t′ rising from t (checked against all 2⁷
    feature sets); its ``t`` is the breakpoint a_f / b_f of the feature it drops."""
    r = fit_eliminating()
    s = r.search_steps_
    tr = r.trace_
    el = tr.iloc[s + 1:]
    assert r.status_ == "eliminated" and len(el) >= 2 and (el["phase"] == "eliminate").all()
    assert (tr["t"].iloc[:s + 1] == r.t).all()
    A, B = criterion_votes(r.X_train_, r.y_train_, 3)
    omega = r.object_masks_[s]
    a, b = A @ omega, B @ omega
    brk = np.where(b > 0, a / np.where(b > 0, b, 1.0), np.inf)
    opt = r.feature_masks_[s]
    assert np.all(brk[opt] >= r.t - 1e-9)  # at the optimum every kept feature pays at t
    prices = el["t"].to_numpy()
    assert np.all(np.diff(prices) >= 0) and prices[0] >= r.t - 1e-9
    sets = [np.array(bits, bool) for bits in itertools.product([0, 1], repeat=7) if any(bits)]
    for pos, i in enumerate(el.index):
        fm, om = r.masks(i)
        prev = r.feature_masks_[i - 1]
        np.testing.assert_array_equal(om, omega)  # the objects stay
        dropped = np.flatnonzero(prev & ~fm)
        assert len(dropped) == 1 and not (fm & ~prev).any()
        assert brk[dropped[0]] == pytest.approx(tr.loc[i, "t"], rel=1e-12)
        assert tr.loc[i, "move"] == f"drop:f{dropped[0]}"
        assert tr.loc[i, "delta_F"] == pytest.approx(-(r.C_ @ omega)[dropped[0]], rel=1e-9)
        # between this price and the next, the row is the best feature set among the
        # subsets of the optimum's features
        nxt = prices[pos + 1] if pos + 1 < len(prices) else prices[pos] + 1.0
        price = (prices[pos] + nxt) / 2
        value = {tuple(f): (f & opt) @ (a - price * b) for f in sets if (f & opt).any()}
        assert (fm @ (a - price * b)) == pytest.approx(max(value.values()), rel=1e-9, abs=1e-9)
    assert tr["n_features"].iloc[-1] == 1 or not np.isfinite(np.sort(brk[opt])[len(el)])


def test_elimination_accuracies_are_those_of_the_reduced_table():
    """The elimination measures its steps incrementally; bit for bit what accuracy_of (and
    so a downloaded reduced table) gives, rejections included (integer data: many ties)."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, size=(120, 8)).astype(float)
    y = rng.integers(0, 3, 120)
    X[y == 1, :3] += 1
    rejected = 0
    for k in (None, 2):
        r = BilinearReducer(t=0.1, k=k, random_state=1).fit(X, y)
        el = r.trace_[r.trace_["phase"] == "eliminate"]
        assert len(el) == 7  # eight features down to one
        for i in el.index:
            fm, om = r.masks(i)
            assert el.loc[i, "accuracy"] == r.accuracy_of(fm, om)
            clf = CalculationEstimationClassifier(k=None if k is None else min(k, fm.sum()))
            clf.fit(r.X_train_[np.ix_(om, fm)], r.y_train_[om])
            rejected += clf.predict_with_reject(r._X_val[:, fm])[1].sum()
    assert rejected > 0  # ties were decided the same way


def test_elimination_stops_at_max_iter_and_time_limit(monkeypatch):
    r = fit_eliminating()
    s = r.search_steps_
    cut = fit_eliminating(max_iter=s + 3)  # the search's s + 1 iterations and two drops
    assert cut.status_ == "max_iter" and cut.n_iter_ == s + 3 and cut.n_steps_ == s + 2
    np.testing.assert_array_equal(cut.feature_masks_, r.feature_masks_[:s + 3])
    # a clock that only moves while an elimination step is measured, 10 s each
    now = [0.0]
    monkeypatch.setattr(bl, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    drop = bl._EliminationScorer.drop

    def slow_drop(self, feature):
        now[0] += 10.0
        return drop(self, feature)

    monkeypatch.setattr(bl._EliminationScorer, "drop", slow_drop)
    late = fit_eliminating(time_limit=25.0)
    assert late.status_ == "time_limit" and late.n_steps_ == s + 3  # drops at 0, 10, 20 s
    assert late.n_iter_ == late.n_steps_ + 1 and late.trace_["accuracy"].notna().all()


def test_continuation_none_is_the_paper_search_alone():
    r, plain = fit_eliminating(), fit_eliminating(continuation="none")
    s = r.search_steps_
    assert plain.status_ == "local_optimum" and plain.n_steps_ == plain.search_steps_ == s
    pd.testing.assert_frame_equal(plain.trace_.drop(columns="seconds"),
                                  r.trace_.iloc[:s + 1].drop(columns="seconds"))
    assert plain.get_params()["continuation"] == "none"
    with pytest.raises(ParameterError, match="continuation must be 'features' or 'none'"):
        fit_eliminating(continuation="objects")


def test_iteration_summary():
    r = fit_eliminating()
    best = r.iteration_summary()
    row = r.trace_.loc[r.best_iteration_]
    assert best["iteration"] == r.best_iteration_ and best["phase"] == row["phase"]
    assert best["table_share"] == row["table_share"] and best["accuracy"] == row["accuracy"]
    assert (best["n_features_total"], best["n_objects_total"]) == r.C_.shape
    assert best["gap"] == pytest.approx(row["accuracy"] - r.full_accuracy_)
    assert best["within_delta"] == (row["accuracy"] >= r.full_accuracy_ - r.delta)
    start = r.iteration_summary(0, delta=0.0)
    assert start["table_share"] == 1.0 and start["within_delta"] and not start["at_most_half"]
    with pytest.raises(ParameterError):
        r.iteration_summary(r.n_steps_ + 1)


@pytest.fixture(scope="module")
def digits():
    from sklearn.datasets import load_digits

    return load_digits(return_X_y=True)


def test_digits_with_the_defaults_keeps_half_the_table_within_001_of_full(digits):
    """Issue 22: digits, the paper's t = 0.23, every other setting the default (full start,
    random_state 0). Some iteration keeps at most half the table with held-out accuracy at
    most 0.01 below the full table's, and the default choice is such an iteration. The
    paper's search alone (the old default) stops next to the full table."""
    X, y = digits
    r = BilinearReducer(t=0.23, random_state=0).fit(X, y)
    tr = r.trace_
    ok = tr[(tr["table_share"] <= 0.5) & (tr["accuracy"] >= r.full_accuracy_ - 0.01)]
    assert len(ok) > 0 and (ok["phase"] == "eliminate").all()
    best = r.iteration_summary()
    assert best["at_most_half"] and best["within_delta"]
    # the search alone, identical to continuation="none" (the old default, see
    # test_continuation_none_is_the_paper_search_alone), ends next to the full table
    assert tr["table_share"].iloc[:r.search_steps_ + 1].min() > 0.95


def test_the_chosen_iteration_keeps_every_class():
    """On a 2 % class the reduction's default choice was an iteration whose kept objects held
    no row of it: 'accuracy 0.974, +0.144 against the full table', for a classifier that can
    never predict that class (a newcomer's review).  Iterations that lost a class are not
    chosen by the default rule, whatever their accuracy."""
    from rulecore.bilinear import _default_rule

    trace = pd.DataFrame({"iteration": [0, 1, 2, 3], "accuracy": [0.83, 0.90, 0.97, 0.974],
                          "table_share": [1.0, 0.6, 0.2, 0.08]})
    assert _default_rule(trace, 0.01) == 3
    assert _default_rule(trace, 0.01, np.array([True, True, False, False])) == 1
    assert _default_rule(trace, 0.01, np.zeros(4, bool)) == 3  # none keeps all: as before
    rng = np.random.default_rng(5)
    n = 400
    X = pd.DataFrame(rng.normal(size=(n, 6)), columns=[f"f{i}" for i in range(6)])
    y = np.where((X.f0 > 1.6) & (X.f1 > 0.0), "rare", "common")
    r = BilinearReducer(random_state=0).fit(X, y)
    assert set(r.kept_classes()) == {"common", "rare"}


def test_the_trace_in_words_says_which_way_each_move_went():
    """'2o:o40,o96' did not say whether the objects went in or out, and the columns read
    'delta_F', 'n_features' (a newcomer's review)."""
    from rulecore.data import load_sample

    ds = load_sample("iris")
    r = bl.BilinearReducer(random_state=0, max_iter=8, time_limit=20).fit(ds.X, ds.y.to_numpy())
    shown = bl.trace_in_words(r)
    assert list(shown.columns) == [bl.TRACE_WORDS[c] for c in r.trace_.columns]
    assert shown["move"].iloc[0] == "start"
    for i in range(1, len(shown)):
        (f0, o0), (f1, o1) = r.masks(i - 1), r.masks(i)
        said = shown["move"].iloc[i].split(", ")
        expect = [f"feature {c} {'in' if f1[k] else 'out'}"
                  for k, c in enumerate(r.columns_) if f0[k] != f1[k]]
        expect += [f"object {j} {'in' if o1[j] else 'out'}" for j in np.flatnonzero(o0 != o1)]
        assert said == expect
        # the counts agree with the words
        ins = sum(w.endswith(" in") for w in said if w.startswith("object"))
        outs = sum(w.endswith(" out") for w in said if w.startswith("object"))
        assert shown["objects kept"].iloc[i] - shown["objects kept"].iloc[i - 1] == ins - outs


def test_balanced_accuracy_and_kept_objects_by_class_are_direct_counts():
    """The Reduction page's balanced accuracy is the classes' mean held-out recall of the
    classifier on the kept sub-table, and the objects kept by class add up to the mask."""
    from rulecore.bilinear import BilinearReducer, CalculationEstimationClassifier

    rng = np.random.default_rng(3)
    X = rng.normal(size=(160, 5))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=160) > 0.8, "a", "b")
    red = BilinearReducer(random_state=0, time_limit=60).fit(X, y)
    for it in (0, red.best_iteration_, red.n_steps_):
        fm, om = red.masks(it)
        clf = CalculationEstimationClassifier(k=min(red.k or 99, int(fm.sum())) if red.k
                                              else None).fit(red.X_train_[np.ix_(om, fm)],
                                                             red.y_train_[om])
        pred = clf.predict(red._X_val[:, fm])
        want = np.mean([np.mean(pred[red._y_val == c] == c) for c in np.unique(red._y_val)])
        assert red.balanced_accuracy(it) == pytest.approx(want)
        kept = red.kept_by_class(it)
        assert kept["kept"].sum() == om.sum() and kept["total"].sum() == len(red.y_train_)


def test_groups_hold_out_whole_records():
    """A patient's visits on both sides of the held-out split scored C's own objects as
    held out: with ``groups`` no record is on both sides, ``held_out_groups_`` names the
    held-out rows' records, and without them the split (and the run) is the one before."""
    rng = np.random.default_rng(0)
    groups = np.repeat([f"p{i}" for i in range(30)], 4)
    X = rng.normal(size=(120, 5)) + np.repeat(rng.normal(size=(30, 5)), 4, axis=0)
    y = (X[:, 0] > 0).astype(int)
    kw = dict(t=1.0, k=2, max_iter=5, random_state=0, time_limit=30)
    red = BilinearReducer(**kw).fit(X, y, groups=groups)
    train = set(groups[red.train_index_])
    held = np.setdiff1d(np.arange(120), red.train_index_)
    assert not train & set(groups[held])
    assert red.held_out_groups_ is not None and sorted(red.held_out_groups_) == \
        sorted(groups[held])
    plain = BilinearReducer(**kw).fit(X, y)
    assert plain.held_out_groups_ is None
    assert set(groups[plain.train_index_]) & set(groups[np.setdiff1d(np.arange(120),
                                                                     plain.train_index_)])
    with pytest.raises(ParameterError, match="one record per row"):
        BilinearReducer(**kw).fit(X, y, groups=groups[:10])
