"""Figure builders of the Rule and Screening pages."""

import json

import numpy as np

from rulecore.bcs import BooleanRuleClassifier, lambda_path
from rulecore.binarize import Term
from rulecore.data import load_sample
from rulecore.rule import Rule
from rulecore.screening import screen
from rulecore.viz import rules as rviz
from rulecore.viz.screening import funnel, removed_by_test


def test_rule_region_spec_box_lines_and_points():
    ds = load_sample("iris")
    rule = Rule((Term("petal length (cm)", ">", 2.45), Term("petal width (cm)", "<=", 1.75),
                 Term("sepal width (cm)", "<=", 3.0)), "and")
    spec = rviz.rule_region(ds.X, ds.y_binary, rule, "petal length (cm)", "petal width (cm)",
                            ("other", "versicolor"))
    json.dumps(spec)  # plain JSON: renders in Streamlit, altair or any Vega-Lite viewer
    data = spec["datasets"]
    (box,) = data["region"]
    assert box["x0"] == 2.45 and box["y1"] == 1.75       # the box is the rule's interval
    assert box["x1"] > ds.X["petal length (cm)"].max()   # open side: to the plot's edge
    assert box["y0"] < ds.X["petal width (cm)"].min()
    # sepal width is not on these axes, so two threshold lines, one per axis
    assert sorted((t["axis"], t["value"]) for t in data["thresholds"]) == [("x", 2.45),
                                                                          ("y", 1.75)]
    assert len(data["points"]) == len(ds.X)
    wrong = rule.predict(ds.X) != ds.y_binary
    assert len(data["errors"]) == int(wrong.sum()) > 0
    assert sorted((p["x"], p["y"]) for p in data["errors"]) == sorted(
        zip(ds.X.loc[wrong, "petal length (cm)"], ds.X.loc[wrong, "petal width (cm)"]))
    assert sum(p["class"] == "versicolor" for p in data["points"]) == int(ds.y_binary.sum())
    # the points do not depend on the rule: the browser keeps them when only the rule changes
    other = Rule((Term("petal width (cm)", ">", 1.0),), "and")
    spec2 = rviz.rule_region(ds.X, ds.y_binary, other, "petal length (cm)", "petal width (cm)",
                             ("other", "versicolor"))
    assert spec2["datasets"]["points"] == data["points"]
    assert spec2["datasets"]["errors"] != data["errors"]
    assert {k: v for k, v in spec2.items() if k != "datasets"} == {
        k: v for k, v in spec.items() if k != "datasets"}
    # every layer reads a dataset the spec carries
    names = {layer["data"]["name"] for layer in spec["layer"]}
    assert names == set(data)


def test_rule_region_or_rule_has_no_box_and_subsamples():
    ds = load_sample("iris")
    rule = Rule((Term("petal length (cm)", "<=", 2.45),), "or")
    spec = rviz.rule_region(ds.X, ds.y_binary, rule, "petal length (cm)", "sepal width (cm)",
                            max_points=40)
    assert spec["datasets"]["region"] == []
    assert len(spec["datasets"]["points"]) == 40
    assert [t["axis"] for t in spec["datasets"]["thresholds"]] == ["x"]


def test_lambda_path_and_confusion_figures():
    ds = load_sample("breast cancer")
    path = lambda_path(ds.X, ds.y_binary, np.array([0.1, 1.0, 10.0]))
    fig = rviz.lambda_path(path, current=1.0)
    assert [tr.name for tr in fig.data] == ["conditions", "train error"]  # no test split given
    assert list(fig.data[0].y) == list(path["conditions"])
    assert fig.layout.xaxis.type == "log"
    cm = np.array([[5, 1], [2, 7]])
    heat = rviz.confusion_matrix(cm, ("no", "yes"))
    cells = {(c["true"], c["predicted"]): c["count"] for c in heat["datasets"]["cells"]}
    assert cells == {("true no", "pred no"): 5, ("true no", "pred yes"): 1,
                     ("true yes", "pred no"): 2, ("true yes", "pred yes"): 7}
    assert [c["dark"] for c in heat["datasets"]["cells"]] == [True, False, False, True]
    assert heat["encoding"]["y"]["sort"] == ["true no", "true yes"]


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
