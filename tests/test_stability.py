"""Stability of a rule over refits: planted rules come back in every fold, nearby thresholds
group and far ones do not, errors equal a direct refit, and every backend gives one result."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from sklearn.base import clone
from sklearn.tree import DecisionTreeClassifier

from rulecore import (
    BooleanRuleClassifier,
    RuleSetClassifier,
    SetCoveringRuleClassifier,
    load_sample,
)
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.rule import Rule, RuleList, RuleSet
from rulecore.rules.stability import (
    StabilityResult,
    draw_folds,
    group_conditions,
    jaccard_score,
    stability,
    where_learned,
)
from rulecore.rules.terms import Term
from rulecore.viz.stability import stability_figure


@pytest.fixture(scope="module")
def planted():
    """``yes`` exactly when a > 5 and b <= 30 (no label noise); c is noise."""
    rng = np.random.default_rng(0)
    n = 300
    X = pd.DataFrame({"a": rng.uniform(0, 10, n), "b": rng.uniform(0, 100, n),
                      "c": rng.normal(size=n)})
    y = np.where((X["a"] > 5) & (X["b"] <= 30), "yes", "no")
    return X, y


@pytest.fixture(scope="module")
def planted_result(planted):
    X, y = planted
    return stability(BooleanRuleClassifier(n_thresholds=10), X, y, n_splits=5,
                     backend="sequential")


def _rule(*terms: tuple) -> Rule:
    return Rule(tuple(Term(*t) for t in terms))


# --------------------------------------------------------------------------- what it finds


def test_planted_rule_comes_back_in_every_fold(planted_result):
    res = planted_result
    assert isinstance(res, StabilityResult)
    table = res.conditions
    assert list(table.columns) == ["condition", "feature", "direction", "thresholds", "low",
                                   "high", "folds", "frequency"]
    assert set(zip(table["feature"], table["direction"])) == {("a", ">"), ("b", "<=")}
    assert (table["frequency"] == 1.0).all() and (table["folds"] == 5).all()
    assert res.score == 1.0
    # thresholds drift from fold to fold (each fold's own quantiles) yet stay one group
    a = table.set_index("feature").loc["a"]
    assert 4.5 < a["low"] <= a["high"] < 5.5
    assert a["thresholds"] == (f"{a['low']:g}" if a["low"] == a["high"] else
                               a["thresholds"])
    assert res.presence.shape == (2, 5) and res.presence.all()
    assert res.errors.shape == (5,) and res.error_max < 0.05


def test_the_learned_rules_conditions_are_placed_among_the_groups(planted_result, planted):
    """Where the rule learned on the analyst's split stands: a threshold near a group's is
    in it, a far one or an unseen column in no fold, a level by its level.  The figure
    outlines those groups and says "your rule"."""
    X, _ = planted
    res = planted_result
    a = res.conditions.set_index("feature").loc["a"]
    learned = _rule(("a", ">", float(a["low"]) + 0.01), ("b", "<=", 80.0), ("c", ">", 0.0))
    placed = where_learned(res, learned, X)
    assert list(placed["condition"]) == [str(t) for t in learned.conditions]
    assert placed["group"].iloc[0] == a["condition"] and placed["folds"].iloc[0] == 5
    assert pd.isna(placed["group"].iloc[1]) and placed["folds"].iloc[1] == 0  # 80 is far
    assert pd.isna(placed["group"].iloc[2]) and placed["frequency"].iloc[2] == 0.0
    # the other direction is another condition
    assert where_learned(res, _rule(("a", "<=", float(a["low"]))), X)["folds"].iloc[0] == 0
    fig = stability_figure(res, learned=[a["condition"]])
    bar = fig.data[0]
    k = list(bar.y).index(a["condition"])
    assert bar.text[k].endswith("· your rule") and bar.marker.line.width[k] == 3
    assert sum(t.endswith("your rule") for t in bar.text) == 1
    # a level: by its level
    cat = pd.DataFrame({"g": ["u", "v"] * 50, "x": np.arange(100.0)})
    ycat = np.where(cat["g"] == "u", 1, 0)
    res2 = stability(BooleanRuleClassifier(), cat, ycat, n_splits=3, backend="sequential")
    placed2 = where_learned(res2, _rule(("g", "==", "u")), cat)
    assert placed2["folds"].iloc[0] == 3


def test_the_figure_keeps_the_direction_of_a_long_column_name():
    """'months_since_promotio… 10.5–11.5' lost its '>' (a review): the name is shortened,
    the direction and thresholds kept."""
    long = "months_since_promotion_or_transfer"
    res = stability(BooleanRuleClassifier(n_thresholds=5),
                    pd.DataFrame({long: np.arange(200.0) % 20}),
                    (np.arange(200) % 20 > 10).astype(int), n_splits=3, backend="sequential")
    ticks = stability_figure(res).layout.yaxis.ticktext
    assert all(t.endswith(("> 10.5", "<= 10.5")) or " > " in t or " <= " in t for t in ticks)
    assert all("…" in t for t in ticks)


def test_fold_table_and_summary(planted_result, planted):
    res = planted_result
    ft = res.fold_table
    assert list(ft.columns) == ["fold", "rule", "predicts", "conditions", "train_rows",
                                "held_out_rows", "error", "seconds"]
    assert list(ft["fold"]) == list(range(5))
    assert ft["held_out_rows"].sum() == len(planted[0])  # k-fold: every row held out once
    assert (ft["predicts"] == "yes").all() and (ft["conditions"] == 2).all()
    assert list(ft["rule"]) == [str(r) for r in res.rules]
    assert res.error_mean == pytest.approx(res.errors.mean())
    assert res.error_std == pytest.approx(res.errors.std())
    assert res.method == "5-fold cross-validation"
    payload = json.loads(json.dumps(res.to_dict()))
    assert payload["score"] == 1.0 and len(payload["folds"]) == 5
    assert payload["conditions"][0]["frequency"] == 1.0


def test_errors_match_a_direct_refit_of_one_fold(planted, planted_result):
    X, y = planted
    classes = np.unique(y)
    folds = draw_folds(np.searchsorted(classes, y), 5, random_state=0)
    train, test = folds[3]
    est = clone(BooleanRuleClassifier(n_thresholds=10)).fit(X.iloc[train], y[train])
    assert est.rule_ == planted_result.rules[3]
    assert planted_result.errors[3] == np.mean(est.predict(X.iloc[test]) != y[test])


def test_weighted_errors_match_a_direct_weighted_refit(planted):
    X, y = planted
    w = np.random.default_rng(1).integers(1, 4, len(y)).astype(float)
    res = stability(BooleanRuleClassifier(n_thresholds=6), X, y, n_splits=3,
                    sample_weight=w, backend="sequential")
    train, test = draw_folds(np.searchsorted(np.unique(y), y), 3, random_state=0)[1]
    est = BooleanRuleClassifier(n_thresholds=6).fit(X.iloc[train], y[train],
                                                   sample_weight=w[train])
    wrong = est.predict(X.iloc[test]) != y[test]
    assert res.rules[1] == est.rule_
    assert res.errors[1] == pytest.approx(np.average(wrong, weights=w[test]))


def test_same_seed_same_result_and_seed_changes_folds(planted, planted_result):
    X, y = planted
    again = stability(BooleanRuleClassifier(n_thresholds=10), X, y, n_splits=5,
                      backend="sequential")
    assert again.equals(planted_result)
    other = stability(BooleanRuleClassifier(n_thresholds=10), X, y, n_splits=5,
                      random_state=1, backend="sequential")
    assert not np.array_equal(other.errors, planted_result.errors) or \
        other.rules != planted_result.rules


def test_bootstrap_scores_out_of_bag_rows(planted):
    X, y = planted
    res = stability(BooleanRuleClassifier(n_thresholds=6), X, y, n_splits=4, bootstrap=True,
                    random_state=2, backend="sequential")
    assert res.bootstrap and res.method == "4 bootstraps"
    folds = draw_folds(np.searchsorted(np.unique(y), y), 4, bootstrap=True, random_state=2)
    for (train, held), row in zip(folds, res.fold_table.itertuples()):
        # a bootstrap draws as many rows as there are, with repeats, class by class
        assert row.train_rows == len(y) == len(train)
        assert np.array_equal(np.bincount(np.searchsorted(np.unique(y), y[train])),
                              np.bincount(np.searchsorted(np.unique(y), y)))
        assert row.held_out_rows == len(y) - len(np.unique(train)) == len(held)
        assert not np.isin(held, train).any()
    train, held = folds[0]
    est = BooleanRuleClassifier(n_thresholds=6).fit(X.iloc[train], y[train])
    assert res.errors[0] == np.mean(est.predict(X.iloc[held]) != y[held])
    assert {("a", ">"), ("b", "<=")} <= set(zip(res.conditions["feature"],
                                                res.conditions["direction"]))


# --------------------------------------------------------------------------- grouping


def test_nearby_thresholds_group_far_ones_do_not():
    X = pd.DataFrame({"x": np.arange(100.0), "k": ["u", "v"] * 50})
    rules = [_rule(("x", "<=", 10.5)), _rule(("x", "<=", 14.5)), _rule(("x", "<=", 80.5)),
             _rule(("x", ">", 12.5), ("k", "==", "u")), _rule(("k", "==", "v"))]
    table, presence = group_conditions(rules, X)
    got = {(r.direction, r.thresholds): r.folds for r in table.itertuples()}
    # 10.5 and 14.5: 4 % of the rows apart, one group; 80.5: 66 % away, its own
    assert got == {("<=", "10.5–14.5"): 2, ("<=", "80.5"): 1, (">", "12.5"): 1,
                   ("== u", ""): 1, ("== v", ""): 1}
    assert presence.sum(axis=0).tolist() == [1, 1, 1, 2, 1]
    assert table["frequency"].iloc[0] == pytest.approx(0.4)  # most frequent first


def test_grouping_is_by_quantile_not_by_units():
    """The same cut points on a log-scaled copy of the column group the same way."""
    x = np.arange(1.0, 201.0)
    rules = [_rule(("x", "<=", 20.5)), _rule(("x", "<=", 35.5)), _rule(("x", "<=", 60.5))]
    table, _ = group_conditions(rules, pd.DataFrame({"x": x}), tolerance=0.1)
    # 20.5 → q 0.10, 35.5 → 0.175 (gap 0.075: join), 60.5 → 0.30 (gap 0.125: apart)
    assert sorted(table["folds"]) == [1, 2]
    logged = [_rule(("x", "<=", float(np.exp(t.conditions[0].value / 20)))) for t in rules]
    table2, _ = group_conditions(logged, pd.DataFrame({"x": np.exp(x / 20)}), tolerance=0.1)
    assert sorted(table2["folds"]) == [1, 2]
    # single linkage: a chain of small steps is one group even when its ends are far apart
    chain = [_rule(("x", "<=", v)) for v in (20.5, 35.5, 50.5, 65.5)]
    table3, _ = group_conditions(chain, pd.DataFrame({"x": x}), tolerance=0.1)
    assert len(table3) == 1 and table3["thresholds"].iloc[0] == "20.5–65.5"


def test_without_a_table_only_equal_thresholds_group():
    rules = [_rule(("x", "<=", 1.0)), _rule(("x", "<=", 1.0)), _rule(("x", "<=", 1.01))]
    table, _ = group_conditions(rules)
    assert sorted(table["folds"]) == [1, 2]


def test_jaccard_score_by_hand():
    assert jaccard_score(np.array([[1, 1], [1, 1]], bool)) == 1.0
    assert jaccard_score(np.array([[1, 0], [0, 1]], bool)) == 0.0
    assert jaccard_score(np.array([[1, 1], [1, 0]], bool)) == 0.5
    assert jaccard_score(np.zeros((0, 3), bool)) == 1.0  # the empty rule every time
    # three folds: pairs (0,1)=1/2, (0,2)=1/3, (1,2)=2/3 → mean 1/2
    p = np.array([[1, 1, 1], [1, 0, 1], [0, 0, 1]], bool)
    assert jaccard_score(p) == pytest.approx(0.5)


# --------------------------------------------------------------------------- estimators


def test_rule_sets_pool_the_conditions_of_every_clause(planted):
    X, y = planted
    for est in (SetCoveringRuleClassifier(max_rules=2, n_thresholds=6),
                RuleSetClassifier(n_thresholds=6)):
        res = stability(est, X, y, n_splits=3, backend="sequential")
        assert all(isinstance(r, RuleSet) for r in res.rules)
        for k, rule in enumerate(res.rules):
            used = res.presence[:, k].sum()
            assert 1 <= used <= rule.n_conditions
        assert list(res.fold_table["conditions"]) == [r.n_conditions for r in res.rules]


def test_multiclass_rule_list():
    ds = load_sample("iris")
    y = ds.y.to_numpy()
    res = stability(RuleSetClassifier(n_thresholds=4), ds.X, y, n_splits=3,
                    backend="sequential")
    assert all(isinstance(r, RuleList) for r in res.rules)
    assert res.fold_table["predicts"].isna().all()
    assert 0 <= res.score <= 1 and len(res.conditions) >= 2
    assert (res.errors < 0.2).all()
    train, test = draw_folds(np.searchsorted(np.unique(y), y), 3, random_state=0)[0]
    est = RuleSetClassifier(n_thresholds=4).fit(ds.X.iloc[train], y[train])
    assert res.errors[0] == np.mean(est.predict(ds.X.iloc[test]) != y[test])


def test_local_backends_give_the_same_result(planted):
    X, y = planted
    kw = dict(n_splits=3, random_state=4)
    est = BooleanRuleClassifier(n_thresholds=6, lam=3.0)
    seq = stability(est, X, y, backend="sequential", **kw)
    for backend in ("threading", "loky"):
        assert stability(est, X, y, backend=backend, n_jobs=2, **kw).equals(seq), backend


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(n_splits=1), ParameterError, "at least 2 folds"),
    (dict(n_splits=2.5), ParameterError, "at least 2 folds"),
    (dict(tolerance=1.5), ParameterError, "tolerance"),
    (dict(backend="spark"), ParameterError, "Unknown backend"),
    (dict(backend="sequential", scheduler="tcp://x:1"), ParameterError, "scheduler"),
])
def test_bad_settings_are_parameter_errors(planted, kwargs, error, match):
    X, y = planted
    with pytest.raises(error, match=match):
        stability(BooleanRuleClassifier(), X, y, **kwargs)


def test_more_folds_than_rows_of_a_class_is_a_data_error():
    X = pd.DataFrame({"a": np.arange(20.0)})
    y = np.array(["rare"] * 3 + ["common"] * 17)
    with pytest.raises(DataError, match=r"5-fold cross-validation needs at least 5 rows of "
                                        r"each class; the class 'rare' has 3"):
        stability(BooleanRuleClassifier(), X, y, n_splits=5)
    with pytest.raises(DataError, match="X has 20 rows but y has 10"):
        stability(BooleanRuleClassifier(), X, y[:10], n_splits=2)
    with pytest.raises(DataError, match="only one class"):
        stability(BooleanRuleClassifier(), X, np.zeros(20), n_splits=2)


def test_not_a_rule_estimator_is_a_parameter_error(planted):
    X, y = planted
    with pytest.raises(ParameterError, match="DecisionTreeClassifier sets no rule_"):
        stability(DecisionTreeClassifier(), X, y, n_splits=2, backend="sequential")
    with pytest.raises(ParameterError, match="scikit-learn rule estimator"):
        stability(object(), X, y, n_splits=2)


def test_single_rule_on_three_classes_says_why(planted):
    X, _ = planted
    y3 = np.array(["a", "b", "c"] * 100)
    with pytest.raises(DataError, match="binary"):
        stability(BooleanRuleClassifier(), X, y3, n_splits=2, backend="sequential")


def test_ray_missing_is_a_clear_error(planted):
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed")  # ray is optional: this checks the message without it
    X, y = planted
    with pytest.raises(ParameterError, match="ray backend needs ray"):
        stability(BooleanRuleClassifier(), X, y, n_splits=2, backend="ray")


# --------------------------------------------------------------------------- figure


def test_figure_has_a_bar_per_group_and_a_point_per_fold(planted_result):
    fig = stability_figure(planted_result)
    assert isinstance(fig, go.Figure)
    bars, strip = fig.data
    assert isinstance(bars, go.Bar) and len(bars.y) == len(planted_result.conditions) == 2
    assert list(bars.x) == [1.0, 1.0]
    assert len(strip.x) == 5
    assert "Stability score 1.00" in fig.layout.title.text


def test_figure_caps_the_bars_and_says_so():
    X = pd.DataFrame({"x": np.arange(100.0)})
    rules = [_rule(("x", "<=", 10.5 + 20 * k), ("x", ">", 5.5 + 20 * k)) for k in range(4)]
    table, presence = group_conditions(rules, X)
    res = StabilityResult(rules=rules, errors=np.array([0.1, 0.2, np.nan, 0.1]),
                          conditions=table, score=jaccard_score(presence),
                          fold_table=pd.DataFrame({"rule": [str(r) for r in rules]}),
                          presence=presence, n_splits=4)
    fig = stability_figure(res, max_bars=3)
    assert len(fig.data[0].y) == 3
    assert "3 most frequent of 8" in fig.layout.title.subtitle.text
    empty = StabilityResult(rules=[Rule()] * 2, errors=np.array([0.5, 0.5]),
                            conditions=group_conditions([Rule()] * 2)[0], score=1.0,
                            fold_table=pd.DataFrame({"rule": ["TRUE", "TRUE"]}),
                            presence=np.zeros((0, 2), bool), n_splits=2)
    assert len(stability_figure(empty).data[0].y) == 0


@pytest.mark.parametrize("bootstrap", [False, True])
def test_folds_by_groups_never_split_a_group(bootstrap):
    """Review: on a visit table (a patient on several rows) the folds were drawn row by row,
    so a patient's visits were fitted and held out at once and the error was optimistic."""
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(60), rng.integers(1, 5, 60))
    y_idx = (rng.random(60) < 0.4).astype(int)[groups]
    folds = draw_folds(y_idx, 5, bootstrap=bootstrap, random_state=0, groups=groups)
    assert len(folds) == 5
    for train, held in folds:
        assert not set(groups[train]) & set(groups[held])
        assert len(held) and set(y_idx[train]) == {0, 1}
        if not bootstrap:
            assert len(train) + len(held) == len(y_idx)


def test_stability_on_a_visit_table_holds_out_whole_patients():
    from pathlib import Path

    from rulecore.data import load_csv
    from rulecore.fit import stability_on
    from rulecore.settings import RuleSettings

    ds = load_csv(Path(__file__).parent / "data" / "ehr_visits_repeated_ids.csv",
                  continuous="median")
    assert ds.groups is not None
    res = stability_on(RuleSettings(), ds, n_splits=3, backend="sequential")
    folds = draw_folds(np.searchsorted([0, 1], ds.y_binary), 3, groups=ds.groups.to_numpy())
    assert res.fold_table["held_out_rows"].tolist() == [len(te) for _, te in folds]
    rowwise = draw_folds(np.searchsorted([0, 1], ds.y_binary), 3)
    assert res.fold_table["held_out_rows"].tolist() != [len(te) for _, te in rowwise]


def test_a_missing_test_is_one_condition_group_whatever_its_columns_kind():
    """Labelled "b is missing numeric", and split in two where a fold read the column as
    another kind (a review)."""
    from rulecore.rules.terms import Term

    rules = [Rule((Term("b", "is missing", kind), Term("a", ">", 2.0)), "and", "t", 1)
             for kind in ("numeric", "categorical")]
    conditions, presence = group_conditions(rules)
    row = conditions[conditions["feature"] == "b"]
    assert list(row["condition"]) == ["b is missing"] and list(row["folds"]) == [2]
