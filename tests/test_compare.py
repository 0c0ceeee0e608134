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
    display_table,
    original_columns,
    table_markdown,
)
from rulecore.encode import BUDGET_ENV
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
    from rulecore.encode import to_numeric
    Xn = to_numeric(X).iloc[res.test]
    acc = float((est.predict(Xn) == y[res.test]).mean())
    assert t.loc["CART (sklearn)", "accuracy"] == pytest.approx(acc)
    pred, truth = est.predict(Xn), y[res.test]
    recall = [float((pred[truth == c] == c).mean()) for c in (0, 1)]
    assert t.loc["CART (sklearn)", "balanced_accuracy"] == pytest.approx(np.mean(recall))
    assert 0.5 < t.loc["Sparse logistic", "auc"] <= 1.0
    coef = coefficients(res, "Sparse logistic")
    assert 1 <= len(coef) <= 2
    # per standard deviation of each input on the training rows (the chart's bars)
    per_sd = coefficients(res, "Sparse logistic", X)
    sd = to_numeric(X).iloc[res.train].std(ddof=0)
    assert np.allclose(per_sd.to_numpy(), (coef * sd[coef.index]).to_numpy())
    md = table_markdown(res.table)
    assert md.count("\n") == 2 + len(res.table)
    assert "Sparse logistic" in md


def test_one_hot_columns_count_as_their_original_column():
    assert original_columns(["a", "job=x", "job=y", "b"], ["a", "b", "job"]) == ["a", "job", "b"]


def test_rule_models_when_available():
    X, y = _table(120, seed=2)
    names, skipped = available_models()
    want = {"Single rule": {"lam": 10.0, "time_limit": 10.0}}
    assert "Single rule" in names, skipped  # every model's module exists now
    res = compare_models(X, y, want)
    row = res.table.iloc[0]
    rule = res.models["Single rule"].rule_
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
    # on a rare class the page charts the balanced accuracy: the title and axis say so
    table["balanced_accuracy"] = [0.5, 0.7]
    fig = sviz.accuracy_vs_features(table, metric="balanced_accuracy")
    assert [d.y[0] for d in fig.data] == [0.5, 0.7]
    assert fig.layout.yaxis.title.text == "test balanced accuracy"
    assert "Balanced accuracy against features used" in fig.layout.title.text
    # what always predicting the majority class scores is a dashed line inside the axis
    fig = sviz.accuracy_vs_features(table, baseline=0.657)
    lo, hi = fig.layout.yaxis.range
    assert lo < 0.657 < 0.9 < hi and fig.layout.shapes[0].y0 == 0.657
    assert "always the majority class (0.657)" in fig.layout.annotations[0].text
    # three models on one point are set side by side, centred on it; the hover keeps the truth
    same = pd.DataFrame({"model": ["a", "b", "c", "d"], "accuracy": [0.969, 0.969, 0.969, 0.8],
                         "auc": [0.9] * 4, "features_used": [2.0, 2.0, 2.0, 5.0]})
    fig = sviz.accuracy_vs_features(same)
    xs = [d.x[0] for d in fig.data]
    assert len(set(xs[:3])) == 3 and np.mean(xs[:3]) == pytest.approx(2.0) and xs[3] == 5.0
    assert "features used 2<br>" in fig.data[0].hovertemplate
    # nearly one point (0.993 under 1.000 on an axis from 0.5: a review) is set apart too
    close = pd.DataFrame({"model": ["rule", "CART", "other"], "accuracy": [0.993, 1.0, 0.5],
                          "auc": [0.9] * 3, "features_used": [2.0, 2.0, 2.0]})
    xs = [d.x[0] for d in sviz.accuracy_vs_features(close).data]
    assert xs[0] != xs[1] and xs[2] == 2.0
    fig = sviz.cv_heatmap([dict(k=1, gamma=0.1, auc=0.7), dict(k=2, gamma=0.1, auc=0.8)])
    assert fig.data[0].z.shape == (2, 1) and len(fig.data) == 1
    # the chosen cell starred (a newcomer read the slider's k = 3 where 5 was fitted)
    fig = sviz.cv_heatmap([dict(k=1, gamma=0.1, auc=0.7), dict(k=2, gamma=0.1, auc=0.8)],
                          chosen=(2, 0.1))
    assert fig.data[1].marker.symbol == "star"
    assert (fig.data[1].x[0], fig.data[1].y[0]) == (fig.data[0].x[0], fig.data[0].y[1])
    assert isinstance(sviz.bound_trace([]), go.Figure)


def test_sparse_cv_through_compare():
    X, y = _table(150, seed=4)
    res = compare_models(X, y, {"Sparse SVM": {"cv": True, "ks": [1, 2], "gammas": [0.01, 0.1],
                                               "time_limit": 5.0}})
    est = res.models["Sparse SVM"]
    assert len(est.cv_results_) == 4 and est.k_ in (1, 2)
    assert res.table.iloc[0]["size"] <= est.k_


@pytest.mark.parametrize("name", ["Sparse SVM", "Sparse logistic"])
def test_sparse_models_default_to_auto_gamma(name):
    """The registry's default γ is "auto": resolved on the training rows at fit time, recorded
    in ``gamma_``, and certified optimal on this small table."""
    from rulecore.encode import to_numeric
    from rulecore.sparse import auto_gamma

    assert REGISTRY[name].defaults["gamma"] == "auto"
    X, y = _table(160, seed=6)
    res = compare_models(X, y, {name: {"k": 2}}, random_state=0)
    est = res.models[name]
    assert est.gamma == "auto"
    assert est.gamma_ == pytest.approx(auto_gamma(to_numeric(X).iloc[res.train], 2))
    row = res.table.iloc[0]
    assert row["status"] == "optimal" and row["gap"] <= 1e-6
    assert 0 < est.lower_bound_ <= est.objective_


def _no_missing_text(frame: pd.DataFrame) -> None:
    """No cell a person would read as "None", "nan" or blank-for-missing."""
    assert not frame.isna().any().any()
    cells = {str(v).strip().lower() for v in frame.to_numpy().ravel()}
    assert not cells & {"none", "nan", "<na>"}


def test_display_table_has_no_none_cells():
    X, y = _table(150, seed=5)
    res = compare_models(X, y, {"Datum-wise": {"feature_cost": 0.05, "time_limit": 10.0},
                                "Sparse logistic": {"k": 1, "gamma": 0.1},
                                "CART (sklearn)": {"max_depth": 2}})
    assert pd.isna(res.table.set_index("model").loc["CART (sklearn)", "gap"])
    shown = display_table(res.table).set_index("model")
    _no_missing_text(shown.reset_index())
    assert shown.loc["CART (sklearn)", "certified gap"] == "—"
    assert shown.loc["CART (sklearn)", "status"] == "—"
    assert shown.loc["Datum-wise", "size"] == "—"  # no single size: features vary per datum
    assert shown.loc["CART (sklearn)", "size"].endswith(" splits")
    gap = res.table.set_index("model").loc["Sparse logistic", "gap"]
    assert shown.loc["Sparse logistic", "certified gap"] == ("0" if abs(gap) < 1e-9 else
                                                             f"{gap:.1e}")
    assert shown["accuracy"].dtype == float  # complete numeric columns stay sortable numbers
    # a test part with one class has no AUC: the column turns to text, "—" there
    table = res.table.copy()
    table.loc[0, "auc"] = np.nan
    auc = display_table(table)["AUC"]
    assert auc[0] == "—" and auc[1] == f"{res.table.loc[1, 'auc']:.3f}"


def test_many_level_text_column_keeps_inputs_bounded():
    """A name column with 20,000 distinct values: 21 input columns, not 20,000."""
    rng = np.random.default_rng(6)
    n = 24_000
    X = pd.DataFrame({"name": [f"customer {i:05d}" for i in rng.permutation(n) % 20_000],
                      "a": rng.normal(size=n), "plan": rng.choice(["x", "y", "z"], n)})
    assert X["name"].nunique() == 20_000
    y = ((X["a"] > 0.5) & (X["plan"] != "z")).astype(int).to_numpy()
    res = compare_models(X, y, {"L1 logistic (sklearn)": {"C": 0.1},
                                "CART (sklearn)": {"max_depth": 2}},
                         kinds={"name": "categorical", "a": "numeric", "plan": "categorical"})
    names = res.input_names["CART (sklearn)"]
    assert len(names) == 21 + 1 + 3  # name: 20 levels + (other); a; plan: 3 levels
    assert "name=(other)" in names
    assert res.table.set_index("model").loc["CART (sklearn)", "accuracy"] > 0.9


def test_over_budget_table_is_refused_before_any_fit(monkeypatch):
    fitted = []

    class Recorder:
        def fit(self, X, y):
            fitted.append(len(X))
            return self

    reg = {**REGISTRY, "Rule": ModelSpec("rulecore.rules", lambda p: Recorder(), numeric=False,
                                         size=lambda e: 0, used=lambda e, n: [])}
    X, y = _table(400)
    monkeypatch.setenv(BUDGET_ENV, "0.00001")  # 10 kB
    with pytest.raises(DataError, match=r"400 rows into 6 numeric columns needs about 38 kB"):
        compare_models(X, y, ["Rule", "CART (sklearn)"], registry=reg)
    assert fitted == []  # the rule model, first in line, never ran


def test_a_model_no_better_than_the_majority_is_flagged():
    """Noise features: whatever each model learns, it is no better than always predicting
    the majority class on held-out rows, and the table says so instead of a bare accuracy."""
    rng = np.random.default_rng(5)
    X = pd.DataFrame({"a": rng.normal(size=400), "b": rng.normal(size=400)})
    y = (rng.random(400) < 0.1).astype(int)
    result = compare_models(X, y, ["CART (sklearn)", "L1 logistic (sklearn)"])
    notes = dict(zip(result.table["model"], result.table["note"]))
    # L1 logistic at C=0.1 on noise predicts the majority class everywhere
    assert "warning: never predicts the positive class" in notes["L1 logistic (sklearn)"]
    for model, note in notes.items():
        acc = float(result.table.set_index("model").loc[model, "accuracy"])
        if acc <= 1 - y[result.test].mean():
            assert "no better than the majority class" in note, (model, note)


def test_l1_logistic_coefficients_are_in_original_units():
    """The chart says 'original units': the standardising pipeline's coefficients are divided
    by the column scales (a column in thousands gets a thousand times smaller coefficient)."""
    from rulecore.compare import coefficients

    rng = np.random.default_rng(2)
    X = pd.DataFrame({"small": rng.normal(size=500), "big": 1000 * rng.normal(size=500)})
    y = ((X["small"] + X["big"] / 1000 + rng.normal(size=500) * 0.5) > 0).astype(int)
    result = compare_models(X, y, {"L1 logistic (sklearn)": {"C": 10.0}})
    coef = coefficients(result, "L1 logistic (sklearn)")
    est = result.models["L1 logistic (sklearn)"]
    assert np.allclose(coef.to_numpy(), est[-1].coef_.ravel() / est[0].scale_)
    assert 500 < coef["small"] / coef["big"] < 2000


def test_an_uncertified_rule_set_is_not_called_optimal():
    """The rule set's column generation ends normally ("optimal" in its own words) without a
    certificate when the exact pricing does not finish: the table says "not certified" with
    no gap, and says "optimal" only beside a gap."""
    X, y = _table(200, seed=3)
    res = compare_models(X, y, {"Rule set (auto)": {"time_limit": 20.0}}, random_state=0)
    row = res.table.iloc[0]
    est = res.models["Rule set (auto)"]
    if est.certified_:
        assert row["status"] == "optimal" and row["gap"] is not None
    else:
        assert row["status"] == "not certified" and row["gap"] is None
    shown = display_table(res.table).iloc[0]
    assert (shown["status"] == "optimal") == (shown["certified gap"] != "—")


def test_a_warned_model_whose_scores_rank_well_is_said_to():
    """A review: on a 1.5 % class, L1 logistic thresholded at 0.5 was 'not clearly better
    than chance' beside an AUC of 0.88, which read as a useless model; the note says the
    scores rank well and the cut-off fails.  On noise (AUC near 0.5) it does not."""
    rng = np.random.default_rng(7)
    n = 4000
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n)})
    y = (X["a"] + 0.6 * rng.normal(size=n) > 2.5).astype(int).to_numpy()  # about 1 %
    result = compare_models(X, y, ["L1 logistic (sklearn)"])
    row = result.table.iloc[0]
    assert row["auc"] >= 0.9 and "warning:" in row["note"]
    assert f"its scores rank the classes well (AUC {row['auc']:.2f})" in row["note"]
    noise = compare_models(X, (rng.random(n) < 0.1).astype(int), ["L1 logistic (sklearn)"])
    assert "rank the classes well" not in noise.table.iloc[0]["note"]


def test_a_rule_whose_auc_is_its_balanced_accuracy_is_not_said_to_rank_well():
    """A rule set's scores take the values its clauses give, so its AUC is its balanced
    accuracy: the note blamed a cut-off it does not have (a review: "yet its scores rank the
    classes well (AUC 0.90)" on a 25-row table)."""
    rng = np.random.default_rng(3)
    n = 40
    X = pd.DataFrame({"sq_m": rng.integers(200, 2000, n), "staff": rng.integers(3, 30, n),
                      "footfall_k": rng.normal(40, 10, n).round(1)})
    y = (X["footfall_k"] + rng.normal(0, 5, n) > 42).astype(int).to_numpy()
    result = compare_models(X, y, {"Single rule": {}, "Rule set (auto)": {"time_limit": 20.0}})
    for _, row in result.table.iterrows():
        assert "rank the classes well" not in row["note"], row.to_dict()
        assert row["auc"] == pytest.approx(row["balanced_accuracy"], abs=1e-9) or \
            row["model"] != "Single rule"


def test_compare_holds_out_the_rule_pages_rows_on_many_classes():
    """On three classes the Rule page split on every class and Compare on the positive class
    against the rest: under one seed they held out different rows, and 'Single rule' read
    0.900 where the Rule page said 94.0 % (a review)."""
    from rulecore.data import load_sample
    from rulecore.fit import split_labels, split_rows

    ds = load_sample("iris")
    assert len(ds.classes) == 3
    for seed in (0, 1, 2):
        tr, te = split_rows(ds, 0.25, seed)
        res = compare_models(ds.X, ds.y_binary, ["CART (sklearn)"], random_state=seed,
                             kinds=ds.kinds, stratify=split_labels(ds, 0.25))
        assert np.array_equal(np.sort(res.train), tr) and np.array_equal(np.sort(res.test), te)
    # on two classes the same rows whichever class is positive (a stranger's review: the
    # swap moved row 0 from the training rows to the test rows)
    two = load_sample("breast cancer")
    for seed in (0, 1):
        splits = [split_rows(two.with_positive(c), 0.25, seed) for c in two.classes]
        assert all(np.array_equal(a, b) for a, b in zip(splits[0], splits[1], strict=True))
    # ... and stratified: each class's share as near as whole rows allow on both sides
    tr, te = split_rows(two, 0.25, 0)
    assert abs(two.y_binary[te].mean() - two.y_binary.mean()) < 1 / len(te)


def test_a_sparse_model_whose_weights_vanish_uses_no_feature():
    """Compare said '3 non-zeros', 1 feature used, for a Sparse SVM whose weights were all
    about 1e-9 (a constant model; a review): it counts what the model reads."""
    from rulecore.sparse import NONZERO_TOL, SparseClassifier

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 6)), columns=[f"x{j}" for j in range(6)])
    y = (rng.random(200) < 0.08).astype(int)  # no signal, few positives
    est = SparseClassifier(k=3).fit(X, y)
    assert len(est.support_) == 3 and not est.used_.any()
    assert np.abs(est.coef_).max() < 1e-3 and NONZERO_TOL == 1e-6
    from rulecore.compare import REGISTRY

    spec = REGISTRY["Sparse SVM"]
    assert spec.size(est) == 0 and spec.used(est, list(X.columns)) == []


def test_models_within_chance_of_the_best_are_named_ties_included():
    """A tie with the best was never named (an adversarial review); a model below the best
    by less than two standard errors of the pair is, and one far below is not."""
    from rulecore.report import chance_margin, close_to_best

    mid, margin, best, close = close_to_best(
        {"a": 0.80, "b": 0.80, "c": 0.60, "d": float("nan")}, 300)
    assert best == "a" and close == ["b"] and mid == pytest.approx(0.80)
    assert margin == pytest.approx(chance_margin(0.80, 300))
    _, _, best, close = close_to_best({"a": 0.75, "b": 0.79, "c": 0.73}, 52)
    assert best == "b" and close == ["a", "c"]  # 0.06 apart on 52 rows is within chance
    assert close_to_best({}, 10)[2:] == (None, [])
    # the margin said is the one used: "differ by chance by up to about 0.059" named a model
    # 0.070 below the best among those within it (its own pair's margin was 0.074)
    mid, margin, best, close = close_to_best(
        {"rule set": 0.96, "single": 0.96, "sparse": 0.955, "L1": 0.89, "CART": 0.95}, 100)
    assert f"{margin:.3f}" == "0.059" and chance_margin(0.96, 100, 0.89) > 0.07
    assert best == "rule set" and close == ["single", "sparse", "CART"]


def test_datumwise_weighs_a_rare_class_as_its_page_does():
    """Compare fitted the datum-wise policy unweighted: on a rare class it always predicted
    the majority (a review), where the Datum-wise page balances the classes by default.
    With ``class_weight="auto"`` a class under 20 % of the rows is weighed balanced."""
    rng = np.random.default_rng(4)
    n = 400
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n)})
    y = (X["a"] > 1.3).astype(int).to_numpy()  # about 10 % of rows
    res = compare_models(X, y, {"Datum-wise": {"feature_cost": 0.01, "time_limit": 20.0}})
    est = res.models["Datum-wise"]
    assert est.class_weight == "auto" and est.class_weight_[1] > 3 * est.class_weight_[0]
    row = res.table.set_index("model").loc["Datum-wise"]
    assert est.predict(X.iloc[res.test]).any() and float(row["balanced_accuracy"]) > 0.8
    # classes of 40 % and 60 %: every class weighs 1, as in the paper
    X2, y2 = _table(200, seed=3)
    balanced = compare_models(X2.drop(columns="job"), y2, {"Datum-wise": {"time_limit": 20.0}})
    np.testing.assert_allclose(balanced.models["Datum-wise"].class_weight_, 1.0)
