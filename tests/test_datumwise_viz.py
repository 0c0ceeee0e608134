"""Figure builders of rulecore.viz.datumwise, tested as plain functions."""

from __future__ import annotations

from dataclasses import replace

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
from rulecore.viz.style import LABEL_CHARS, bar_height

#: 80 columns named like an analyst's export: 70 characters, differing only at the end.
LONG_NAMES = [f"Average monthly spend on international calls in US dollars, quarter {j:02d}"
              for j in range(80)]


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
    bars = dict(zip(fig.data[0].y, fig.data[0].x, strict=True))  # horizontal: name -> share
    assert bars == pytest.approx(dict(zip(X.columns, used.mean(axis=0), strict=True)))
    assert list(fig.data[0].x) == sorted(fig.data[0].x, reverse=True)  # most acquired first


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
    assert list(fig.layout.yaxis.range) == [0, 1.02]  # accuracy's own range, not 1.5
    line = sparsity_curve_figure(pd.concat([dw, svm]), majority=0.6).layout.shapes[0]
    assert line.y0 == line.y1 == 0.6
    c = pd.DataFrame({"sparsity": [0.2, 0.6, 1.0], "accuracy": [0.9, 0.7, 0.5]})
    assert accuracy_at_sparsity(c, 0.4) == pytest.approx(0.8)
    assert np.isnan(accuracy_at_sparsity(c, 0.1))


def test_feature_usage_long_names_shortened_full_on_hover_top_bars():
    used = np.arange(500)[:, None] < 10 + 5 * np.arange(80)  # feature j: 10 + 5j rows
    fig = feature_usage_figure(used, LONG_NAMES)
    bar = fig.data[0]
    assert len(bar.y) == 60  # at most max_bars bars, the most acquired, and the title says so
    assert "60 most acquired of 80" in fig.layout.title.subtitle.text
    assert set(bar.y) == set(LONG_NAMES[20:])  # the shares grow with j
    axis = fig.layout.yaxis
    assert list(axis.tickvals) == list(bar.y)  # full names are the values (hover: %{y})
    assert "%{y}" in bar.hovertemplate
    assert all(len(t) <= LABEL_CHARS and "…" in t for t in axis.ticktext)
    assert len(set(axis.ticktext)) == 60  # cut in the middle: "quarter 79" stays readable
    assert axis.automargin
    assert fig.layout.height == bar_height(60) >= 22 * 60
    small = feature_usage_figure(used[:, :10], LONG_NAMES[:10])
    assert small.layout.height < fig.layout.height and small.layout.title.subtitle.text is None


def test_decision_path_long_names_shortened_full_on_hover(wine_model):
    model, X, _ = wine_model
    ex = model.explain(X.iloc[[10]])
    assert ex.features  # acquires something, so the axis has feature names
    ex = replace(ex, feature_names=[f"{n} measured by the laboratory on the day of harvest"
                                    for n in ex.feature_names])
    fig = decision_path_figure(ex)
    ticks = list(fig.layout.xaxis.ticktext)
    assert ticks[0] == "start" and all(len(t) <= LABEL_CHARS for t in ticks)
    assert list(fig.data[0].hovertext)[1:] == [f"+ {n}" for n in ex.feature_names]
    assert fig.layout.xaxis.automargin


def test_histogram_ticks_do_not_repeat():
    n_used = np.r_[np.arange(41), np.full(10, 12)]  # every share under 5 %
    fig = features_used_histogram(n_used, np.ones(len(n_used), bool), n_features=40)
    assert fig.layout.yaxis.tickformat == ".1~%"  # ".0%" printed 0.5 % steps as "1%, 1%, 2%"
