"""Figure builders of rulecore.viz.datumwise, tested as plain functions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from sklearn.datasets import load_wine

from rulecore.datumwise import (
    DatumWiseClassifier,
    accuracy_at_sparsity,
    l1_svm_curve,
    lambda_curve,
)
from rulecore.viz.datumwise import (
    decision_path_figure,
    feature_usage_figure,
    features_used_histogram,
    sparsity_curve_figure,
)


@pytest.fixture(scope="module")
def wine_model():
    X, y = load_wine(return_X_y=True, as_frame=True)
    return DatumWiseClassifier(feature_cost=0.02, n_states=400, n_iterations=4,
                               random_state=0).fit(X, y), X, y.to_numpy()


def test_histogram_counts_split_by_correctness():
    n_used = np.array([1, 1, 2, 3, 3, 3])
    correct = np.array([True, True, False, True, False, False])
    fig = features_used_histogram(n_used, correct, n_features=4)
    assert isinstance(fig, go.Figure) and len(fig.data) == 2
    ok, bad = fig.data
    assert ok.name == "correct" and bad.name == "incorrect"
    assert list(ok.customdata) == [0, 2, 0, 1, 0] and list(bad.customdata) == [0, 0, 1, 2, 0]
    assert np.sum(ok.y) + np.sum(bad.y) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        features_used_histogram([1, 2], [True])


def test_decision_path_and_usage(wine_model):
    model, X, _ = wine_model
    ex = model.explain(X.iloc[[10]])
    fig = decision_path_figure(ex)
    assert len(fig.data) == 2 and len(fig.data[0].x) == len(ex.features) + 1
    # The policy stops at the first step where classifying beats acquiring.
    last = ex.steps[-1]
    assert last["action"] == "classify"
    assert np.isnan(last["best_acquire_score"]) or (
        last["best_classify_score"] >= last["best_acquire_score"] - 1e-5)
    assert all(s["best_acquire_score"] >= s["best_classify_score"] - 1e-5
               for s in ex.steps[:-1])
    frame = ex.to_frame()
    assert list(frame["action"]) == ["acquire"] * len(ex.features) + ["classify"]
    used = model.features_used(X)
    fig = feature_usage_figure(used, list(X.columns))
    assert list(fig.data[0].y) == pytest.approx(list(used.mean(axis=0)))


def test_curves_and_interpolation(wine_model):
    _, X, y = wine_model
    Xv = X.to_numpy()
    tr, te = np.arange(0, len(y), 2), np.arange(1, len(y), 2)
    dw = lambda_curve(Xv[tr], y[tr], Xv[te], y[te], [0.0, 0.5], n_states=300,
                      n_iterations=3, random_state=0)
    assert list(dw["model"]) == ["DWSM-Un"] * 2
    assert dw["mean_features"].iloc[1] == 0  # λ = 0.5: half an error per feature, never worth it
    assert dw["sparsity"].iloc[1] == 1.0
    svm = l1_svm_curve(Xv[tr], y[tr], Xv[te], y[te], Cs=[1e-4, 1.0])
    assert svm["sparsity"].iloc[0] == 1.0 and svm["accuracy"].iloc[1] > 0.85
    fig = sparsity_curve_figure(pd.concat([dw, svm]))
    assert {t.name for t in fig.data} == {"DWSM-Un", "L1-SVM"}
    c = pd.DataFrame({"sparsity": [0.2, 0.6, 1.0], "accuracy": [0.9, 0.7, 0.5]})
    assert accuracy_at_sparsity(c, 0.4) == pytest.approx(0.8)
    assert np.isnan(accuracy_at_sparsity(c, 0.1))
