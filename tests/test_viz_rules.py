"""Figure builders of the Rule and Screening pages."""

import numpy as np
import plotly.graph_objects as go

from rulecore.bcs import BooleanRuleClassifier, lambda_path
from rulecore.binarize import Term
from rulecore.data import load_sample
from rulecore.rule import Rule
from rulecore.screening import screen
from rulecore.viz import rules as rviz
from rulecore.viz.screening import funnel, removed_by_test


def test_rule_scatter_region_and_lines():
    ds = load_sample("iris")
    rule = Rule((Term("petal length (cm)", ">", 2.45), Term("petal width (cm)", "<=", 1.75),
                 Term("sepal width (cm)", "<=", 3.0)), "and")
    fig = rviz.rule_scatter(ds.X, ds.y_binary, rule, "petal length (cm)", "petal width (cm)")
    assert isinstance(fig, go.Figure)
    rect = [s for s in fig.layout.shapes if s.type == "rect"][0]
    assert rect.x0 == 2.45 and rect.y1 == 1.75          # the box is the rule's interval
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(lines) == 2                                # sepal width is not on these axes
    n_points = sum(len(tr.x) for tr in fig.data)
    assert n_points == len(ds.X)
    wrong = sum(len(tr.x) for tr in fig.data if "misclassified" in tr.name)
    assert wrong == int((rule.predict(ds.X) != ds.y_binary).sum())


def test_lambda_path_and_confusion_figures():
    ds = load_sample("breast cancer")
    path = lambda_path(ds.X, ds.y_binary, np.array([0.1, 1.0, 10.0]))
    fig = rviz.lambda_path(path, current=1.0)
    assert [tr.name for tr in fig.data] == ["conditions", "train error"]  # no test split given
    assert list(fig.data[0].y) == list(path["conditions"])
    assert fig.layout.xaxis.type == "log"
    cm = np.array([[5, 1], [2, 7]])
    heat = rviz.confusion_matrix(cm)
    assert heat.data[0].z.tolist() == cm.tolist()


def test_screening_figures_match_report():
    ds = load_sample("breast cancer")
    m = BooleanRuleClassifier(lam=5.0, screening="enhanced", n_thresholds=20).fit(
        ds.X, ds.y_binary)
    rep = m.screening_report_
    f = funnel(rep)
    assert list(f.data[0].x) == list(rep.funnel()["columns"])
    assert "certified" in f.layout.title.text
    b = removed_by_test(rep)  # the estimator screens without diagnostics: one series
    assert [tr.name for tr in b.data] == ["in sequence"]
    assert sum(b.data[0].y) == rep.n_columns - rep.n_kept
    feat = np.array([t.feature for t in m.binarizer_.terms_])
    unsafe = screen(~m.binarizer_.transform(ds.X), 1 - ds.y_binary, 5.0, feature_of=feat,
                    unsafe_pairwise=True)
    assert "NOT certified" in funnel(unsafe).layout.title.text
    both = removed_by_test(unsafe)
    assert [tr.name for tr in both.data] == ["alone", "in sequence"]
