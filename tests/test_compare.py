"""Tests for rulecore.compare and rulecore.viz.sparse."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from rulecore.compare import (
    REGISTRY,
    ModelSpec,
    available_models,
    coefficients,
    compare_models,
    original_columns,
    table_markdown,
)
from rulecore.exceptions import DataError, ParameterError
from rulecore.viz import sparse as sviz


def _table(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                      "c": rng.normal(size=n),
                      "job": rng.choice(["x", "y", "z"], n)})
    y = ((X["a"] > 0) & (X["job"] != "z")).astype(int).to_numpy()
    return X, y


def test_compare_linear_and_tree_models():
    X, y = _table()
    res = compare_models(X, y, {"Sparse logistic": {"k": 2, "gamma": 0.1},
                                "L1 logistic (sklearn)": {"C": 0.5},
                                "CART (sklearn)": {"max_depth": 2}}, random_state=1)
    t = res.table.set_index("model")
    assert list(t.index) == ["Sparse logistic", "L1 logistic (sklearn)", "CART (sklearn)"]
    assert len(res.train) + len(res.test) == len(y)
    assert np.intersect1d(res.train, res.test).size == 0
    # the depth-2 tree uses at most 3 splits; its features are original columns
    assert t.loc["CART (sklearn)", "size"] <= 3
    assert t.loc["CART (sklearn)", "features_used"] <= 3
    # sparse model: at most k non-zeros, a certified gap, a status
    assert t.loc["Sparse logistic", "size"] <= 2
    assert t.loc["Sparse logistic", "gap"] <= 1e-6
    assert t.loc["Sparse logistic", "status"] == "optimal"
    assert t.loc["L1 logistic (sklearn)", "gap"] is None or np.isnan(
        t.loc["L1 logistic (sklearn)", "gap"])
    # accuracy and AUC recomputed independently from the fitted model
    est = res.models["CART (sklearn)"]
    from rulecore.data import to_numeric
    Xn = to_numeric(X).iloc[res.test]
    acc = float((est.predict(Xn) == y[res.test]).mean())
    assert t.loc["CART (sklearn)", "accuracy"] == pytest.approx(acc)
    assert 0.5 < t.loc["Sparse logistic", "auc"] <= 1.0
    coef = coefficients(res, "Sparse logistic")
    assert 1 <= len(coef) <= 2
    md = table_markdown(res.table)
    assert md.count("\n") == 2 + len(res.table)
    assert "Sparse logistic" in md


def test_one_hot_columns_count_as_their_original_column():
    assert original_columns(["a", "job=x", "job=y", "b"], ["a", "b", "job"]) == ["a", "job", "b"]


def test_rule_models_when_available():
    X, y = _table(120, seed=2)
    names, skipped = available_models()
    want = {"BCS rule": {"lam": 10.0, "time_limit": 10.0}}
    assert "BCS rule" in names, skipped  # every model's module exists now
    res = compare_models(X, y, want)
    row = res.table.iloc[0]
    rule = res.models["BCS rule"].rule_
    assert row["size"] == len(rule.conditions)
    assert row["features_used"] == len({c.feature for c in rule.conditions})
    assert 0 <= row["gap"] <= 1


def test_datumwise_counts_mean_features_per_datum():
    names, skipped = available_models()
    assert "Datum-wise" in names, skipped
    X, y = _table(150, seed=3)
    X = X.drop(columns="job")
    res = compare_models(X, y, {"Datum-wise": {"feature_cost": 0.05, "time_limit": 20.0}})
    est = res.models["Datum-wise"]
    mask = est.features_used(X.iloc[res.test])
    assert res.table.iloc[0]["features_used"] == pytest.approx(mask.sum(1).mean())


def test_missing_module_is_skipped_with_a_note():
    reg = {**REGISTRY, "Ghost": ModelSpec("rulecore.does_not_exist", lambda p: None, True,
                                          size=lambda e: 0, used=lambda e, n: [])}
    X, y = _table(80)
    res = compare_models(X, y, ["Ghost", "CART (sklearn)"], registry=reg)
    assert "Ghost" in res.skipped and list(res.table.model) == ["CART (sklearn)"]


def test_bad_inputs():
    X, y = _table(50)
    with pytest.raises(ParameterError):
        compare_models(X, y, ["No such model"])
    with pytest.raises(DataError):
        compare_models(X, np.arange(50) % 3, ["CART (sklearn)"])
    with pytest.raises(ParameterError):
        compare_models(X, y, [])


def test_figures():
    trace = [dict(iteration=0, lower=1.0, upper=3.0, gap=0.6, cuts=2, seconds=0.1),
             dict(iteration=1, lower=2.5, upper=2.5, gap=0.0, cuts=3, seconds=0.2)]
    fig = sviz.bound_trace(trace)
    assert isinstance(fig, go.Figure) and len(fig.data) == 2
    assert list(fig.data[0].y) == [3.0, 2.5] and list(fig.data[1].y) == [1.0, 2.5]
    fig = sviz.coefficients({"m1": pd.Series({"a": 2.0, "b": -0.5}),
                             "m2": pd.Series({"a": 1.0, "c": 0.1})})
    assert len(fig.data) == 2
    assert list(fig.data[0].y)[-1] == "a"  # biggest on top
    assert dict(zip(fig.data[1].y, fig.data[1].x))["b"] == 0.0
    table = pd.DataFrame({"model": ["x", "y"], "accuracy": [0.9, 0.8], "auc": [0.95, 0.85],
                          "features_used": [2.0, 5.0]})
    fig = sviz.accuracy_vs_features(table)
    assert [d.x[0] for d in fig.data] == [2.0, 5.0]
    fig = sviz.cv_heatmap([dict(k=1, gamma=0.1, auc=0.7), dict(k=2, gamma=0.1, auc=0.8)])
    assert fig.data[0].z.shape == (2, 1)
    assert isinstance(sviz.bound_trace([]), go.Figure)


def test_sparse_cv_through_compare():
    X, y = _table(150, seed=4)
    res = compare_models(X, y, {"Sparse SVM": {"cv": True, "ks": [1, 2], "gammas": [0.01, 0.1],
                                               "time_limit": 5.0}})
    est = res.models["Sparse SVM"]
    assert len(est.cv_results_) == 4 and est.k_ in (1, 2)
    assert res.table.iloc[0]["size"] <= est.k_
