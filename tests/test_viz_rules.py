"""Figure builders of the Rule and Screening pages."""

import json
import re

import numpy as np
import pandas as pd

from rulecore.data import load_sample
from rulecore.rules.estimators import BooleanRuleClassifier, lambda_path
from rulecore.rules.rule import Rule
from rulecore.rules.screening import screen
from rulecore.rules.terms import Term
from rulecore.viz import rules as rviz
from rulecore.viz.screening import funnel, removed_by_test
from rulecore.viz.style import LABEL_CHARS, TITLE_CHARS, short, vl_short


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
    # the funnel counts terms; the bars say terms too (they said "columns removed")
    assert b.layout.yaxis.title.text == "terms removed"
    feat = np.array([t.feature for t in m.binarizer_.terms_])
    unsafe = screen(~m.binarizer_.transform(ds.X), 1 - ds.y_binary, 5.0, feature_of=feat,
                    unsafe_pairwise=True)
    assert "NOT certified" in funnel(unsafe).layout.title.text
    both = removed_by_test(unsafe)
    assert [tr.name for tr in both.data] == ["alone", "in sequence"]


def _wide_table(n: int, seed: int = 0):
    """``n`` rows, two numeric columns with 70-character names, a rule on the first."""
    rng = np.random.default_rng(seed)
    fx = "Average monthly spend on international calls in US dollars, last quarter"
    fy = "Number of customer service calls in the twelve months before the survey"
    X = pd.DataFrame({fx: rng.normal(size=n), fy: rng.normal(size=n)})
    y = (X[fx] > 0).to_numpy().astype(int) ^ (rng.random(n) < 0.1)
    return X, y, fx, fy


def test_rule_region_samples_a_large_table_and_says_so():
    X, y, fx, fy = _wide_table(60_000)
    rule = Rule((Term(fx, ">", 0.0),), "and")
    spec = rviz.rule_region(X, y, rule, fx, fy)
    points = spec["datasets"]["points"]
    assert len(points) == 5000  # max_points
    assert "a random 5,000 of 60,000 rows" in spec["title"]["subtitle"]
    assert spec["layer"][1]["mark"]["size"] < 45  # smaller marks for a dense cloud
    # deterministic (fixed seed) and drawn from the table's own rows
    again = rviz.rule_region(X, y, Rule((Term(fy, "<=", 1.0),), "and"), fx, fy)
    assert again["datasets"]["points"] == points
    assert {k: v for k, v in again.items() if k != "datasets"} == {
        k: v for k, v in spec.items() if k != "datasets"}  # the note does not follow the rule
    rows = set(zip(X[fx], X[fy]))
    assert all((p["x"], p["y"]) in rows for p in points[:200])
    few = rviz.rule_region(X, y, rule, fx, fy, max_points=300)
    assert len(few["datasets"]["points"]) == 300
    assert "300 of 60,000" in few["title"]["subtitle"]


def test_rule_region_no_sampling_note_below_the_cap_but_missing_values_counted():
    X, y, fx, fy = _wide_table(4000)
    rule = Rule((Term(fx, ">", 0.0),), "and")
    spec = rviz.rule_region(X, y, rule, fx, fy)
    assert len(spec["datasets"]["points"]) == 4000
    assert spec["title"]["subtitle"] == "ringed: rows the rule gets wrong"
    X.iloc[:7, 0] = np.nan
    spec = rviz.rule_region(X, y, rule, fx, fy)
    assert len(spec["datasets"]["points"]) == 3993
    assert "7 rows without a value on an axis not drawn" in spec["title"]["subtitle"]
    assert "random" not in spec["title"]["subtitle"]


def test_rule_region_long_names_shortened_with_full_tooltips():
    X, y, fx, fy = _wide_table(500)
    label = "Customer churned within the first ninety days of the contract"
    rule = Rule((Term(fx, ">", 0.25), Term(fy, "<=", 1.5)), "and")
    spec = rviz.rule_region(X, y, rule, fx, fy, (f"not {label}", label))
    points = spec["layer"][1]["encoding"]
    assert len(points["x"]["title"]) <= TITLE_CHARS and len(points["y"]["title"]) <= LABEL_CHARS
    assert {t["title"] for t in points["tooltip"][:2]} == {fx, fy}  # full names on hover
    assert points["color"]["legend"]["labelExpr"] == vl_short()  # legend cut in the middle
    assert {p["class"] for p in spec["datasets"]["points"]} == {label, f"not {label}"}
    lines = spec["datasets"]["thresholds"]
    assert {t["condition"] for t in lines} == {f"{fx} > 0.25", f"{fy} <= 1.5"}
    assert all(len(t["label"]) <= LABEL_CHARS + 8 for t in lines)
    assert short(fx) in spec["title"]["text"] and fx not in spec["title"]["text"]


def test_confusion_matrix_long_labels_wrapped_full_in_tooltip():
    label = "Customer churned within the first ninety days of the contract"
    spec = rviz.confusion_matrix(np.array([[5, 1], [2, 7]]), (f"not {label}", label))
    cells = spec["datasets"]["cells"]
    assert {c["predicted"] for c in cells} == {f"pred not {label}", f"pred {label}"}
    assert [f["field"] for f in spec["layer"][0]["encoding"]["tooltip"][:2]] == [
        "true", "predicted"]
    for axis, word, width in (("x", "pred", 18), ("y", "true", 24)):
        expr = spec["encoding"][axis]["axis"]["labelExpr"]
        # each label the axis shows, over at most three lines of `width` characters
        assert expr.count("datum.value === ") == 2 and f'"{word} {label}"' in expr
        shown = [json.loads(a) for a in re.findall(r"\[[^\]]*\]", expr)]
        assert len(shown) == 2 and all(len(lines) == 3 for lines in shown)
        assert all(len(line) <= width for lines in shown for line in lines)
    # two classes: a column is about 120 px; "pred non-responder" on one line ran into
    # "pred responder" (a review)
    two = rviz.confusion_matrix(np.eye(2), ("non-responder", "responder"))
    shown = [json.loads(a) for a in re.findall(r"\[[^\]]*\]",
                                               two["encoding"]["x"]["axis"]["labelExpr"])]
    assert ["pred non-", "responder"] in shown and all(
        len(line) <= 12 for lines in shown for line in lines)
    short_labels = rviz.confusion_matrix(np.eye(2), ("no", "yes"))
    assert '["pred yes"]' in short_labels["encoding"]["x"]["axis"]["labelExpr"]
    # four classes: every predicted class keeps its label (Vega hid the overlapping ones),
    # slanted on one line (wrapped narrow, "Damaged" ran into "Defective": a review)
    four = rviz.confusion_matrix(np.eye(4), ("Damaged in transit", "Defective",
                                             "Fraud suspected", "Wrong size"))
    x = four["encoding"]["x"]["axis"]
    assert x["labelOverlap"] is False and x["labelAngle"] == -35
    shown = [json.loads(a) for a in re.findall(r"\[[^\]]*\]", x["labelExpr"])]
    assert len(shown) == 4 and all(len(lines) == 1 and len(lines[0]) <= 22 for lines in shown)
    assert ["pred Damaged in…"] in shown or ["pred Damaged in transit"] in shown


def test_screening_labels_wrapped():
    ds = load_sample("breast cancer")
    m = BooleanRuleClassifier(lam=5.0, screening="enhanced", n_thresholds=5).fit(
        ds.X, ds.y_binary)
    feat = np.array([t.feature for t in m.binarizer_.terms_])
    rep = screen(~m.binarizer_.transform(ds.X), 1 - ds.y_binary, 5.0, feature_of=feat,
                 unsafe_pairwise=True)
    for labels in (funnel(rep).data[0].y, removed_by_test(rep).data[0].x):
        assert all(len(line) <= 24 for lab in labels for line in lab.split("<br>"))
        assert any("<br>" in lab for lab in labels)  # the pairwise test's long name


def test_no_region_is_shaded_when_the_rule_says_nothing_about_the_axes():
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term
    from rulecore.samples import load_sample

    ds = load_sample("iris")
    rule = Rule((Term("petal width (cm)", "<=", 1.6),), "and")
    spec = rviz.rule_region(ds.X, ds.y_binary, rule, "sepal length (cm)", "sepal width (cm)",
                            ("other", "versicolor"))
    assert spec["datasets"]["region"] == []
    spec = rviz.rule_region(ds.X, ds.y_binary, rule, "petal width (cm)", "sepal width (cm)",
                            ("other", "versicolor"))
    assert len(spec["datasets"]["region"]) == 1


def test_rule_region_spreads_whole_numbers_and_keeps_each_point_on_its_side():
    """A reviewer could not read the chart on integer and date columns: every row sat on a
    few points.  Whole-number axes are jittered; thresholds sit between the values they
    separate, so a point's side of the line is its condition's answer."""
    rng = np.random.default_rng(3)
    n = 600
    X = pd.DataFrame({"visits": rng.integers(0, 8, n), "year": rng.integers(2015, 2024, n),
                      "score": rng.normal(size=n)})
    y = ((X["visits"] <= 3) & (X["year"] > 2018)).to_numpy().astype(int)
    rule = Rule((Term("visits", "<=", 3.0), Term("year", ">", 2018.0)), "and")
    spec = rviz.rule_region(X, y, rule, "visits", "year")
    pts = pd.DataFrame(spec["datasets"]["points"])
    assert len(pts) == n
    np.testing.assert_array_equal(pts["value_x"], X["visits"])
    np.testing.assert_array_equal(pts["value_y"], X["year"])
    spread_x, spread_y = pts["x"] - pts["value_x"], pts["y"] - pts["value_y"]
    assert spread_x.abs().max() <= 0.3 and spread_y.abs().max() <= 0.3
    assert spread_x.std() > 0.05 and spread_y.std() > 0.05       # really spread
    lines = {t["axis"]: t for t in spec["datasets"]["thresholds"]}
    assert lines["x"]["value"] == 3.5 and lines["y"]["value"] == 2018.5
    assert lines["x"]["label"] == "visits <= 3"                   # the condition as learned
    (box,) = spec["datasets"]["region"]
    assert box["x1"] == 3.5 and box["y0"] == 2018.5
    inside = (pts["x"] <= box["x1"]) & (pts["y"] > box["y0"])
    np.testing.assert_array_equal(inside.to_numpy(), rule.predict(X).astype(bool))
    assert "jitter" in spec["title"]["subtitle"]
    tips = spec["layer"][1]["encoding"]["tooltip"]
    assert [t["field"] for t in tips[:2]] == ["value_x", "value_y"]
    assert spec["layer"][1]["encoding"]["y"]["axis"]["format"] == "d"  # 2023, not 2,023
    # the same points for another rule (the browser keeps them)
    again = rviz.rule_region(X, y, Rule((Term("visits", ">", 5.0),), "and"), "visits", "year")
    assert again["datasets"]["points"] == spec["datasets"]["points"]
    # a continuous axis is not jittered
    cont = rviz.rule_region(X, y, rule, "score", "year")
    assert "value_x" not in cont["datasets"]["points"][0]
    np.testing.assert_array_equal(pd.DataFrame(cont["datasets"]["points"])["x"], X["score"])


def test_cv_curve_star_sits_on_its_own_line_in_its_colour():
    cv = pd.DataFrame({
        "describe": ["yes"] * 3 + ["no"] * 3, "lam": [0.1, 1.0, 10.0] * 2,
        "error": [0.30, 0.20, 0.25, 0.31, 0.20, 0.22], "error_std": [0.01] * 6,
        "conditions": [1.0, 3.0, 6.0, 1.0, 3.0, 7.0],
        "chosen": [False, False, False, False, True, False]})
    fig = rviz.cv_curve(cv)
    lines = {tr.name: tr for tr in fig.data if tr.mode == "lines+markers"}
    (star,) = [tr for tr in fig.data if tr.mode == "markers"]
    # both lines pass through (3, 0.20): the star says whose point it is, by name and colour
    assert star.name == "chosen (clauses describe no)"
    assert star.marker.color == lines["clauses describe no"].line.color
    assert star.marker.color != lines["clauses describe yes"].line.color
    assert (list(star.x), list(star.y)) == ([3.0], [0.20])
    # the page's section is "λ chosen by cross-validation": the figure says what it plots
    assert fig.layout.title.text.startswith("Inner-CV error against rule size")
    # a single line (lam="auto" of one rule): the plain name
    one = rviz.cv_curve(cv.drop(columns="describe").iloc[3:])
    assert [tr.name for tr in one.data] == ["CV error", "chosen"]


def test_cv_curve_says_when_every_lambda_gives_one_point():
    """Every λ gave no clause for one class: its "line" was one point under the star."""
    cv = pd.DataFrame({
        "describe": ["yes"] * 3 + ["no"] * 3, "lam": [0.1, 1.0, 10.0] * 2,
        "error": [0.30, 0.30, 0.30, 0.31, 0.20, 0.22], "error_std": [0.01] * 6,
        "conditions": [0.0, 0.0, 0.0, 1.0, 3.0, 7.0],
        "chosen": [False, False, False, False, True, False]})
    fig = rviz.cv_curve(cv)
    lines = {tr.name: tr for tr in fig.data if tr.mode == "lines+markers"}
    assert set(lines) == {"clauses describe yes (all 3 λ: 0 conditions)",
                          "clauses describe no"}
    ring = lines["clauses describe yes (all 3 λ: 0 conditions)"].marker
    assert ring.symbol == "circle-open" and ring.size > 18  # larger than the star
    assert lines["clauses describe no"].marker.symbol is None


def test_cv_curve_of_a_rule_list_draws_one_line_per_threshold_count():
    """A rule list (no class described) whose inner CV chose the thresholds too: one line per
    count, the star on the chosen count's line in its colour."""
    cv = pd.DataFrame({
        "describe": [None] * 4, "n_thresholds": [10, 10, 20, 20], "lam": [0.1, 1.0] * 2,
        "error": [0.30, 0.20, 0.28, 0.15], "error_std": [0.01] * 4,
        "conditions": [2.0, 5.0, 3.0, 6.0], "chosen": [False, False, False, True]})
    fig = rviz.cv_curve(cv)
    lines = {tr.name: tr for tr in fig.data if tr.mode == "lines+markers"}
    assert set(lines) == {"10 thresholds per column", "20 thresholds per column"}
    (star,) = [tr for tr in fig.data if tr.mode == "markers"]
    assert star.name == "chosen (20 thresholds per column)"
    assert star.marker.color == lines["20 thresholds per column"].line.color
    # without the column (a fixed count), one plain line as before
    one = rviz.cv_curve(cv.drop(columns="n_thresholds").iloc[2:])
    assert [tr.name for tr in one.data] == ["CV error", "chosen"]


def test_cv_curve_draws_each_rule_list_construction():
    """A rule list built both ways in the inner CV: one line per (thresholds, construction),
    the class-by-class one dotted, the chosen point's name saying which."""
    rows = [{"lam": lam, "error": 0.1 + 0.01 * i + 0.02 * (kind == "sequential"),
             "error_std": 0.01, "conditions": 5 - i, "n_thresholds": n, "multiclass": kind,
             "describe": None, "chosen": (n, kind, i) == (20, "sequential", 0)}
            for n in (10, 20) for kind in ("one-vs-rest", "sequential")
            for i, lam in enumerate((0.5, 1.0))]
    fig = rviz.cv_curve(pd.DataFrame(rows))
    names = [t.name for t in fig.data]
    assert "10 thresholds per column, one-vs-rest list" in names
    assert "20 thresholds per column, class-by-class list" in names
    assert names[-1] == "chosen (20 thresholds per column, class-by-class list)"
    dotted = {t.name for t in fig.data if t.line and t.line.dash == "dot"}
    assert dotted == {"10 thresholds per column, class-by-class list",
                      "20 thresholds per column, class-by-class list"}
    # one threshold count: the constructions alone name the lines
    one = rviz.cv_curve(pd.DataFrame(rows).query("n_thresholds == 10").drop(
        columns="n_thresholds"))
    assert [t.name for t in one.data][:2] == ["one-vs-rest list", "class-by-class list"]


def test_cv_curve_with_many_lines_puts_its_legend_under_the_axis():
    """Six lines and a star: the legend wrapped up into the title (a newcomer's review)."""
    rows = [{"lam": lam, "error": 0.1, "error_std": 0.0, "conditions": c, "n_thresholds": n,
             "multiclass": kind, "describe": None, "chosen": False}
            for n in (10, 20, 40) for kind in ("one-vs-rest", "sequential")
            for c, lam in enumerate((0.5, 1.0))]
    rows[0]["chosen"] = True
    fig = rviz.cv_curve(pd.DataFrame(rows))
    assert len(fig.data) == 7 and fig.layout.legend.y < 0 and fig.layout.legend.yanchor == "top"
    few = rviz.cv_curve(pd.DataFrame(rows).query("n_thresholds == 10 and multiclass == "
                                                 "'one-vs-rest'"))
    assert few.layout.legend.y > 1  # above the plot, as every figure has it
