"""RuleSetClassifier: DNF rule sets by column generation, λ and the class described chosen by
inner cross-validation, several classes as an ordered rule list.

Everything the estimator reports is recounted here directly on the training rows: the
objective, the clause statistics, the choice among the grid points of ``cv_results_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import LeaveOneGroupOut

from rulecore import BooleanRuleClassifier, RuleSetClassifier
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.colgen import ruleset_objective
from rulecore.rules.rule import RuleList, RuleSet
from rulecore.rules.ruleset import THRESHOLD_GRID, lam_grid

# ----------------------------------------------------------------------------- data


def planted(n: int = 300, seed: int = 0, flip: float = 0.0) -> tuple[pd.DataFrame, pd.Series]:
    """y = (a > 0.5 AND b < 0.3) OR (c == "x") on a clean sample: a and b take few values,
    so the binarizer offers every split and the splits at 0.5 and 0.3 exactly."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "a": rng.choice([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9], n),
        "b": rng.choice([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95], n),
        "c": rng.choice(["x", "y", "z", "w"], n),
        "noise": rng.random(n).round(2),
    })
    y = ((X.a > 0.5) & (X.b < 0.3)) | (X.c == "x")
    if flip:
        y ^= rng.random(n) < flip
    return X, pd.Series(np.where(y, "yes", "no"), name="bought")


def four_classes(n: int = 400, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Planted rule list with integer labels 10, 20, 30, 40."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.random(n), "b": rng.random(n),
                      "c": rng.choice(list("xyzw"), n), "d": rng.random(n)})
    y = np.where(X.a > 0.7, 10, np.where(X.b < 0.3, 20, np.where(X.c == "x", 30, 40)))
    return X, y


def seven_classes(n: int = 350, seed: int = 1) -> tuple[pd.DataFrame, np.ndarray]:
    """Seven text classes: the level of ``g``, except that z > 0.8 means c0."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 7, n)
    X = pd.DataFrame({"g": np.array([f"L{i}" for i in range(7)])[g], "z": rng.random(n),
                      "noise": rng.random(n)})
    y = np.where(X.z > 0.8, "c0", np.array([f"c{i}" for i in range(7)])[g])
    return X, y


def iris() -> tuple[pd.DataFrame, pd.Series]:
    data = load_iris(as_frame=True)
    return data.data, pd.Series(data.target_names[data.target], name="species")


MULTI = {"iris": iris, "four": four_classes, "seven": seven_classes}


@pytest.fixture(scope="module")
def multi_fits():
    out = {}
    for name, make in MULTI.items():
        X, y = make()
        out[name] = (RuleSetClassifier(time_limit=60).fit(X, y), X, y)
    return out


@pytest.fixture(scope="module")
def binary_fit():
    X, y = planted(flip=0.08, seed=3)
    return RuleSetClassifier(time_limit=60).fit(X, y), X, y


def term_index(model, clause) -> tuple[int, ...]:
    """The term indices (columns of ``binarizer_.transform(X)``) of a clause's conditions."""
    idx = {t: j for j, t in enumerate(model.binarizer_.terms_)}
    return tuple(idx[t] for t in clause.conditions)


def check_choice(cvr: pd.DataFrame, lam: float) -> pd.Series:
    """One chosen row: the lowest mean error, ties to fewer conditions; λ is its λ."""
    assert cvr["chosen"].sum() == 1
    chosen = cvr[cvr["chosen"]].iloc[0]
    best = cvr["error"].min()
    assert chosen["error"] == pytest.approx(best, abs=1e-12)
    tied = cvr[np.isclose(cvr["error"], best, rtol=0, atol=1e-12)]
    assert chosen["conditions"] == tied["conditions"].min()
    assert lam == chosen["lam"]
    return chosen


# ----------------------------------------------------------------------------- several classes


@pytest.mark.parametrize("name", list(MULTI))
def test_multiclass_gives_a_rule_list_of_the_original_labels(multi_fits, name):
    model, X, y = multi_fits[name]
    y = np.asarray(y)
    labels = np.unique(y)
    np.testing.assert_array_equal(model.classes_, labels)
    assert len(labels) == {"iris": 3, "four": 4, "seven": 7}[name]
    assert model.described_class_ is None
    assert isinstance(model.rules_, RuleList) and model.rule_ is model.rules_
    pred = model.predict(X)
    assert set(pred) <= set(labels)
    assert type(pred[0]) is type(y[0]) or pred.dtype == y.dtype
    if name == "four":
        assert pred.dtype.kind == "i" and set(pred) == {10, 20, 30, 40}
    # the exported list predicts what the model predicts
    np.testing.assert_array_equal(np.asarray(model.rules_.predict(X)), pred)
    assert set(model.rules_.labels) <= set(labels) and model.rules_.default in labels
    # decision_rule indexes rules_: the deciding clause's label is the prediction
    first = model.decision_rule(X)
    by_rule = np.array(model.rules_.labels + [model.rules_.default], dtype=object)[first]
    np.testing.assert_array_equal(by_rule.astype(pred.dtype), pred)
    # probabilities in classes_ order, rows summing to 1, argmax a sensible class
    proba = model.predict_proba(X)
    assert proba.shape == (len(X), len(labels))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (proba >= 0).all()
    assert model.n_rules_ == len(model.rules_)
    assert model.n_conditions_ == model.rules_.n_conditions
    assert model.score(X, y) >= 0.9
    # no rule at the end predicts the default: it would change nothing (a review)
    assert not model.rules_.labels or model.rules_.labels[-1] != model.rules_.default


@pytest.mark.parametrize("name", list(MULTI))
def test_multiclass_probabilities_are_the_deciding_rules_class_shares(multi_fits, name):
    """predict_proba: the (Laplace-smoothed) class shares of the training rows the same rule
    decides, counted here directly."""
    model, X, y = multi_fits[name]
    y = np.asarray(y)
    first = model.decision_rule(X)
    prior = np.array([(y == c).mean() for c in model.classes_])
    proba = model.predict_proba(X)
    for t in np.unique(first):
        rows = first == t
        counts = np.array([(y[rows] == c).sum() for c in model.classes_])
        np.testing.assert_allclose(proba[rows], np.tile((counts + prior) / (rows.sum() + 1),
                                                        (rows.sum(), 1)))


@pytest.mark.parametrize("name", list(MULTI))
def test_multiclass_objective_is_the_sum_of_the_per_class_counts(multi_fits, name):
    model, X, y = multi_fits[name]
    y = np.asarray(y)
    B = model.binarizer_.transform(X)
    total = 0.0
    for c in model.classes_:
        clauses = [term_index(model, r) for r in model.rules_.clauses if r.positive == c]
        total += ruleset_objective(B, (y == c).astype(int), np.ones(len(y)), clauses,
                                   model.lam_, model.error)
    assert model.objective_ == pytest.approx(total, rel=1e-9)


def test_multiclass_rule_list_recovers_the_planted_rules(multi_fits):
    model, X, y = multi_fits["seven"]
    text = [str(r) for r in model.rules_.clauses]
    assert text[0] == "z > 0.801" and model.rules_.labels[0] == "c0"
    for i in range(1, 7):
        assert any(f"g == L{i}" in t for t, lab in zip(text, model.rules_.labels)
                   if lab == f"c{i}")


def test_multiclass_cv_results(multi_fits):
    """With several classes the inner CV chooses the thresholds per column with λ: one row
    per (count, λ), the chosen count's terms are the model's."""
    model, X, y = multi_fits["four"]
    cvr = model.cv_results_
    assert len(cvr) == len(THRESHOLD_GRID) * len(lam_grid(len(y)))
    for _, g in cvr.groupby("n_thresholds"):
        np.testing.assert_allclose(np.sort(g["lam"]), lam_grid(len(y)))
    assert sorted(cvr["n_thresholds"].unique()) == sorted(THRESHOLD_GRID)
    assert cvr["describe"].isna().all()
    chosen = check_choice(cvr, model.lam_)
    tied = cvr[np.isclose(cvr["error"], chosen["error"], rtol=0, atol=1e-12)
               & (cvr["conditions"] == chosen["conditions"])]
    assert chosen["n_thresholds"] == tied["n_thresholds"].min()
    assert model.n_thresholds_ == chosen["n_thresholds"]
    assert model.binarizer_.n_thresholds == model.n_thresholds_
    assert model.n_terms_ == len(model.binarizer_.terms_)
    # every term the rules use is one of the chosen count's
    terms = set(model.binarizer_.terms_)
    assert all(t in terms for r in model.rules_.clauses for t in r.conditions)


def test_auto_thresholds_measure_each_count_as_a_fixed_count_would():
    """The auto fit's rows for one count are that count's own inner CV: the same folds, the
    same fits (a generous time limit, so that no inner fit is cut short)."""
    X, y = iris()
    auto = RuleSetClassifier(time_limit=600).fit(X, y)
    for n in (10, 40):
        fixed = RuleSetClassifier(n_thresholds=n, time_limit=600).fit(X, y)
        mine = auto.cv_results_[auto.cv_results_["n_thresholds"] == n]
        np.testing.assert_allclose(mine["error"], fixed.cv_results_["error"])
        np.testing.assert_allclose(mine["conditions"], fixed.cv_results_["conditions"])
        assert "n_thresholds" not in fixed.cv_results_ and fixed.n_thresholds_ == n
    if auto.n_thresholds_ == 40:
        np.testing.assert_array_equal(auto.predict(X), fixed.predict(X))


def test_two_classes_keep_ten_thresholds(binary_fit):
    model, X, y = binary_fit
    assert model.n_thresholds_ == 10 == model.binarizer_.n_thresholds
    assert "n_thresholds" not in model.cv_results_


# ----------------------------------------------------------------------------- two classes


def test_binary_rules_describe_the_chosen_class(binary_fit):
    model, X, y = binary_fit
    assert isinstance(model.rules_, RuleSet) and not model.rules_.weighted
    assert model.described_class_ in ("yes", "no")
    assert model.rules_.positive == model.described_class_
    assert all(c.positive == model.described_class_ for c in model.rules_.clauses)
    other = next(c for c in model.classes_ if c != model.described_class_)
    expected = np.where(model.rules_.predict(X) == 1, model.described_class_, other)
    np.testing.assert_array_equal(model.predict(X), expected)
    np.testing.assert_array_equal(model.fires(X), model.rules_.predict(X) == 1)
    assert model.n_rules_ == len(model.rules_.clauses)
    assert model.n_conditions_ == sum(len(c) for c in model.rules_.clauses)
    assert model.n_conditions_ == model.rules_.n_conditions
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # a row the rule set fires on leans to the described class
    k = list(model.classes_).index(model.described_class_)
    assert (proba[model.fires(X), k] > 0.5).all()


def test_binary_rule_stats_are_direct_counts(binary_fit):
    model, X, y = binary_fit
    stats = model.rule_stats_
    assert len(stats) == len(model.rules_.clauses) > 0
    assert list(stats["rule"]) == list(range(1, len(stats) + 1))
    for (_, row), clause in zip(stats.iterrows(), model.rules_.clauses):
        fired = clause.predict(X).astype(bool)
        assert row["class"] == model.described_class_
        assert row["conditions"] == str(clause) and row["size"] == len(clause)
        assert row["coverage"] == pytest.approx(fired.mean())
        assert row["precision"] == pytest.approx((y[fired] == model.described_class_).mean())


def test_binary_cv_results_and_auto_lambda(binary_fit):
    model, X, y = binary_fit
    cvr = model.cv_results_
    grid = lam_grid(len(y))
    # both classes described at every grid point
    assert sorted(cvr["describe"].unique()) == ["no", "yes"]
    for _, part in cvr.groupby("describe"):
        np.testing.assert_allclose(np.sort(part["lam"]), grid)
        np.testing.assert_allclose(part["kappa"] * part["lam"] * len(y), 1.0)
    chosen = check_choice(cvr, model.lam_)
    assert chosen["describe"] == model.described_class_
    assert ((cvr["error"] >= 0) & (cvr["error"] <= 1)).all()


def objective_of(model, X, y, d) -> float:
    B = model.binarizer_.transform(X)
    y01 = (np.asarray(y) == model.described_class_).astype(int)
    clauses = [term_index(model, c) for c in model.rules_.clauses]
    return ruleset_objective(B, y01, d, clauses, model.lam_, model.error)


@pytest.mark.parametrize("params", [{}, {"error": "exact"}, {"describe": "negative"},
                                    {"class_weight": "balanced", "lam": 0.5}])
def test_objective_is_the_direct_count(params):
    X, y = planted(flip=0.1, seed=5, n=200)
    model = RuleSetClassifier(time_limit=60, **params).fit(X, y)
    if params.get("class_weight") == "balanced":
        y01 = (y == model.described_class_).to_numpy()
        d = np.where(y01, len(y) / (2 * y01.sum()), len(y) / (2 * (~y01).sum()))
    else:
        d = np.ones(len(y))
    if params.get("describe") == "negative":
        assert model.described_class_ == "no"
    assert model.objective_ == pytest.approx(objective_of(model, X, y, d), rel=1e-9)
    # the certificate: the LP bound is below the Hamming objective
    if model.certified_:
        ham = ruleset_objective(model.binarizer_.transform(X),
                                (y == model.described_class_).to_numpy().astype(int), d,
                                [term_index(model, c) for c in model.rules_.clauses],
                                model.lam_, "hamming")
        assert model.lp_bound_ <= ham + 1e-6


def test_planted_rules_are_recovered():
    X, y = planted(n=300, seed=0)
    model = RuleSetClassifier(time_limit=60).fit(X, y)
    assert model.described_class_ == "yes"
    clauses = {frozenset(str(t) for t in c.conditions) for c in model.rules_.clauses}
    assert clauses == {frozenset({"a > 0.5", "b <= 0.3"}), frozenset({"c == x"})}
    assert model.score(X, y) == 1.0
    assert model.n_conditions_ == 3
    assert model.objective_ == pytest.approx(5.0)  # (1 + 2) + (1 + 1), no error
    check_choice(model.cv_results_, model.lam_)


def _same_unless_timed_out(a: RuleSetClassifier, b: RuleSetClassifier) -> None:
    """Two fits with one random_state agree on every grid point no inner fit of either was
    cut at by its time limit, and in everything when none was (cv_results_'s promise).
    Inner fits have time limits, so on a loaded machine (three test workers on two cores)
    one was cut and one point's error differed; that is said, not hidden."""
    cut = (a.cv_results_["timed_out"] > 0) | (b.cv_results_["timed_out"] > 0)
    pd.testing.assert_frame_equal(a.cv_results_[~cut], b.cv_results_[~cut])
    if not cut.any():
        pd.testing.assert_frame_equal(a.cv_results_, b.cv_results_)
        assert a.rules_ == b.rules_ and a.lam_ == b.lam_


def test_same_random_state_same_rules():
    X, y = planted(flip=0.1, seed=7, n=150)
    a = RuleSetClassifier(random_state=4, time_limit=60).fit(X, y)
    b = RuleSetClassifier(random_state=4, time_limit=60).fit(X, y)
    _same_unless_timed_out(a, b)
    assert a.described_class_ == b.described_class_
    X4, y4 = four_classes(n=200, seed=2)
    a = RuleSetClassifier(random_state=1, time_limit=60).fit(X4, y4)
    b = RuleSetClassifier(random_state=1, time_limit=60).fit(X4, y4)
    _same_unless_timed_out(a, b)


@pytest.mark.parametrize("multiclass", ["one-vs-rest", "sequential"])
def test_an_inner_fit_cut_by_its_time_limit_is_counted_from_its_point_on(cut_inner_fit,
                                                                          multiclass):
    """cv_results_["timed_out"]: the inner fit at the fourth λ of one path stops on time (as
    column_generation reports it); that point and the later ones of the path (which start
    from its pool) count it, the earlier ones do not."""
    cut_inner_fit(4)
    X, y = (planted(flip=0.1, seed=7, n=150) if multiclass == "one-vs-rest"
            else four_classes(n=200, seed=2))
    m = RuleSetClassifier(random_state=0, multiclass=multiclass, n_thresholds=6,
                          time_limit=60).fit(X, y)
    cvr = m.cv_results_
    first = cvr.iloc[: len(cvr["lam"].unique())]  # the first class described / list kind
    if multiclass == "one-vs-rest":  # one DNF per λ: the fourth fit is the fourth λ
        assert list(first["timed_out"]) == [0, 0, 0] + [1] * (len(first) - 3)
    else:  # three DNFs (K − 1) per λ: the fourth fit is at the second λ
        assert list(first["timed_out"]) == [0] + [1] * (len(first) - 1)
    assert cvr["timed_out"].sum() == first["timed_out"].sum()
    from rulecore.report import cv_timing_words

    assert "its time limit (or started from one that did), so" in cv_timing_words(m)


def test_one_standard_error_rule_picks_fewest_conditions_within_one_se():
    X, y = planted(flip=0.1, seed=5, n=200)
    model = RuleSetClassifier(selection="1se", time_limit=60).fit(X, y)
    cvr = model.cv_results_
    assert cvr["chosen"].sum() == 1
    best = cvr.sort_values(["error", "conditions", "lam"]).iloc[0]
    ok = cvr[cvr["error"] <= best["error"] + best["error_std"] / np.sqrt(3) + 1e-12]
    chosen = cvr[cvr["chosen"]].iloc[0]
    assert chosen["conditions"] == ok["conditions"].min()
    assert model.lam_ == chosen["lam"]


def test_integer_weights_act_like_repeated_rows_given_the_same_folds():
    """With the folds handed over as ``cv`` (as scikit-learn's check does), weights and
    repeated rows give the same grid errors, the same choice and the same rules."""
    X, y = planted(flip=0.1, seed=9, n=60)
    rng = np.random.default_rng(0)
    w = rng.integers(0, 4, len(y))
    group = rng.integers(0, 3, len(y))
    Xr, yr, gr = X.loc[X.index.repeat(w)], y.loc[y.index.repeat(w)], group.repeat(w)
    weighted = RuleSetClassifier(cv=list(LeaveOneGroupOut().split(X, y, group)),
                                 time_limit=60).fit(X, y, sample_weight=w)
    repeated = RuleSetClassifier(cv=list(LeaveOneGroupOut().split(Xr, yr, gr)),
                                 time_limit=60).fit(Xr.reset_index(drop=True),
                                                    yr.reset_index(drop=True))
    assert weighted.rules_ == repeated.rules_
    assert weighted.lam_ == repeated.lam_
    pd.testing.assert_frame_equal(weighted.cv_results_, repeated.cv_results_)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X))


def test_class_weight_dict_weighs_each_label():
    """A label weighing 1000 (an unlisted one weighs 1) costs 1000 per miss: its recall goes
    to 1 on the training rows, at the other class's expense."""
    X, y = planted(flip=0.15, seed=2, n=200)
    plain = RuleSetClassifier(lam=1.0, time_limit=60).fit(X, y).predict(X)
    for heavy, weights in [("no", {"no": 1000.0, "yes": 1e-4}), ("yes", {"yes": 1000.0})]:
        model = RuleSetClassifier(class_weight=weights, lam=1.0, time_limit=60).fit(X, y)
        pred = model.predict(X)
        assert (pred[y == heavy] == heavy).mean() >= 0.98
        assert (pred[y == heavy] == heavy).mean() > (plain[y == heavy] == heavy).mean()
        assert (pred == heavy).sum() > (plain == heavy).sum()
        # the statistics still count rows, not class weights
        for t, clause in enumerate(model.rules_.clauses):
            fired = clause.predict(X).astype(bool)
            assert model.rule_stats_["coverage"].iloc[t] == pytest.approx(fired.mean())
            assert model.rule_stats_["precision"].iloc[t] == pytest.approx(
                (y[fired] == model.described_class_).mean())


def test_predict_proba_before_fit_is_not_fitted():
    X, _ = planted(n=20)
    for method in ("predict", "predict_proba", "decision_rule"):
        with pytest.raises(NotFittedError):
            getattr(RuleSetClassifier(), method)(X)


# ----------------------------------------------------------------------------- BooleanRule λ


@pytest.mark.parametrize("given", [
    {"rule_type": "and", "error": "hamming", "class_weight": "sqrt"},  # λ alone is chosen
    {},  # the defaults with lam="auto": λ and the rule type (tests/test_tuned_single_rule.py)
])
def test_boolean_rule_auto_lambda_is_the_cv_argmin(given):
    X, y = planted(flip=0.1, seed=5, n=200)
    model = BooleanRuleClassifier(lam="auto", **given).fit(X, y)
    cvr = model.cv_results_
    assert len(cvr) == len(lam_grid(1.0)) * (1 if given else 2)
    check_choice(cvr, model.lam_)
    # the final rule is the fit at the chosen λ (and type), with the same options
    again = BooleanRuleClassifier(lam=model.lam_, rule_type=model.rule_type_,
                                  error=model.error_,
                                  class_weight=model.class_weight_used_).fit(X, y)
    assert again.rule_ == model.rule_
    assert BooleanRuleClassifier(lam=1.0).fit(X, y).cv_results_ is None


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("y, exc, match", [
    (["a"] * 10, DataError, "only one class"),
    ([0, 1, np.nan, 1, 0, 1, 0, 1, 0, 1], DataError, "missing values"),
    ([0, 1] * 4, DataError, "rows but y has"),
    (None, DataError, "requires y"),
    # scikit-learn's own ValueError before, outside rulecore's exception family
    (np.linspace(0.05, 0.95, 10), DataError, "Unknown label type: continuous.*bin it"),
])
def test_bad_targets(y, exc, match):
    X = pd.DataFrame({"a": np.arange(10.0)})
    with pytest.raises(exc, match=match):
        RuleSetClassifier().fit(X, y)


@pytest.mark.parametrize("params, match", [
    ({"lam": -1}, "λ \\(lam\\) must be a positive number or 'auto'"),
    ({"lam": 0}, "must be a positive number or 'auto'"),
    ({"lam": "big"}, "must be a positive number or 'auto'"),
    ({"lam": float("nan")}, "must be a positive number or 'auto'"),
    ({"describe": "bogus"}, "describe must be 'auto', 'positive' or 'negative'"),
    ({"error": "sometimes"}, "error must be"),
    ({"selection": "max"}, "selection must be"),
    ({"cv": 1}, "cv must be an integer of at least 2"),
    ({"time_limit": 0}, "time_limit must be a positive number of seconds"),
    ({"max_conditions": 0}, "max_conditions"),
    ({"class_weight": "bogus"}, "class_weight must be"),
    ({"cv_max_rows": 5}, "cv_max_rows must be None or an integer of at least 10"),
    ({"cv_max_rows": True}, "cv_max_rows must be"),
    ({"n_thresholds": 0}, "n_thresholds must be 'auto' or a whole number of at least 1"),
    ({"n_thresholds": "many"}, "n_thresholds must be"),
    ({"n_thresholds": 2.5}, "n_thresholds must be"),
])
def test_bad_parameters(params, match):
    X, y = planted(n=30)
    with pytest.raises(ParameterError, match=match):
        RuleSetClassifier(**params).fit(X, y)


@pytest.mark.parametrize("certify", [True, False])
def test_max_conditions_holds_for_every_clause_the_exact_pricing_adds_too(certify):
    """A notebook review: with certify=True (the default) the exact pricing MIP was not told
    max_conditions and added a clause of 4 conditions to max_conditions=1."""
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X = X.iloc[:300, :8]
    m = RuleSetClassifier(lam=1.0, describe="negative", max_conditions=1, certify=certify,
                          time_limit=10).fit(X, y[:300])
    assert m.rules_.clauses and all(len(c) <= 1 for c in m.rules_.clauses)


def test_numpy_numbers_are_valid_lambdas():
    X, y = planted(n=60)
    for lam in (np.float64(2.0), np.int64(2), 2):
        assert RuleSetClassifier(lam=lam, time_limit=30).fit(X, y).lam_ == 2.0


def test_cv_sample_is_stratified_sorted_and_seeded():
    from rulecore.rules.ruleset import _cv_rows

    y = np.r_[np.zeros(900, int), np.ones(100, int)]
    rows = _cv_rows(y, 200, 0)
    assert len(rows) == 200 and np.all(np.diff(rows) > 0)
    assert np.bincount(y[rows]).tolist() == [180, 20]  # each class keeps its share
    assert np.array_equal(rows, _cv_rows(y, 200, 0))
    assert not np.array_equal(rows, _cv_rows(y, 200, 1))
    assert np.array_equal(_cv_rows(y, None, 0), np.arange(1000))
    assert np.array_equal(_cv_rows(y, 1000, 0), np.arange(1000))


def test_cv_on_a_sample_is_the_cv_on_those_rows_and_the_final_fit_uses_all():
    """cv_max_rows=m is exactly cross-validation with the stratified folds of the m sampled
    rows (given as explicit splits), followed by the final fit on every row."""
    from sklearn.model_selection import StratifiedKFold

    from rulecore.rules.ruleset import _cv_rows

    X, y = planted(n=400, flip=0.05)
    sampled = RuleSetClassifier(cv_max_rows=150, time_limit=60).fit(X, y)
    yi = np.searchsorted(np.unique(y), y)
    rows = _cv_rows(yi, 150, 0)
    folds = [(rows[tr], rows[va]) for tr, va in
             StratifiedKFold(3, shuffle=True, random_state=0).split(rows, yi[rows])]
    explicit = RuleSetClassifier(cv=folds, cv_max_rows=None, time_limit=60).fit(X, y)
    pd.testing.assert_frame_equal(sampled.cv_results_, explicit.cv_results_)
    assert str(sampled.rules_) == str(explicit.rules_)
    # the final fit is on every row: its objective is the count over all 400, not 150
    assert sampled.objective_ == pytest.approx(objective_of(sampled, X, y, np.ones(400)),
                                               rel=1e-9)
    full = RuleSetClassifier(cv_max_rows=None, time_limit=60).fit(X, y)
    assert not sampled.cv_results_.equals(full.cv_results_)  # the sample did change the CV


def test_rule_type_auto_picks_the_lower_cv_error_and_finds_a_planted_or_rule():
    """``rule_type="auto"``: the type with the lowest inner-CV error is the one fitted, and
    on a planted OR-rule (which no single AND-rule states) that is OR."""


    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.uniform(size=(300, 3)), columns=["a", "b", "c"])
    y = ((X["a"] > 0.7) | (X["b"] > 0.7)).astype(int).to_numpy()
    m = BooleanRuleClassifier(lam="auto", rule_type="auto", class_weight=None).fit(X, y)
    cv = m.cv_results_
    assert set(cv["rule_type"]) == {"and", "or"} and cv["chosen"].sum() == 1
    best = cv[cv["chosen"]].iloc[0]
    assert best["error"] == cv["error"].min()
    assert m.rule_type_ == best["rule_type"] == m.rule_.rule_type == "or"
    assert m.lam_ == best["lam"]
    assert np.mean(m.predict(X) == y) > 0.95
    # a fixed λ compares the two types at that λ only
    m1 = BooleanRuleClassifier(lam=1.0, rule_type="auto").fit(X, y)
    assert list(m1.cv_results_["lam"]) == [1.0, 1.0] and m1.rule_type_ == "or"


def test_rule_type_auto_reads_in_the_claim_and_chart():

    from rulecore.report import fit_status
    from rulecore.viz.rules import cv_curve

    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.uniform(size=(200, 2)), columns=["a", "b"])
    y = ((X["a"] > 0.6) & (X["b"] > 0.3)).astype(int).to_numpy()
    m = BooleanRuleClassifier(lam="auto", rule_type="auto").fit(X, y)
    assert m.rule_type_ == "and"
    assert "AND-rule type was chosen by the same cross-validation" in fit_status(m).text
    names = [t.name for t in cv_curve(m.cv_results_).data]
    assert any(n.startswith("AND-rule") for n in names)
    assert any(n.startswith("OR-rule") for n in names)


def test_the_lam_grid_reaches_a_rare_class():
    """κ = 0.0025 asks a clause of three conditions to fix 1 % of the table's weight: on a
    class of 0.6 % of the rows every λ gave the empty rule set (a newcomer's review).  With a
    rare class the grid goes on down until such a clause pays for itself by fixing a quarter
    of the class's weight (at most RARE_HALVINGS more values)."""
    from rulecore.settings import KAPPAS, RARE_HALVINGS

    np.testing.assert_allclose(lam_grid(1000.0, smallest_class=300.0), lam_grid(1000.0))
    grid = lam_grid(30_000.0, smallest_class=168.0)
    assert len(grid) == len(KAPPAS) + 3 and np.all(np.diff(grid) > 0)
    assert (1 + 3) / grid[-1] <= 168.0 / 4 < (1 + 3) / grid[-2]
    assert len(lam_grid(1e6, smallest_class=1.0)) == len(KAPPAS) + RARE_HALVINGS


@pytest.mark.parametrize("make", ["rule set", "single rule"])
def test_auto_lambda_learns_a_clean_rule_for_a_rare_class(make):
    """A planted rule without noise on 0.6 % of the rows: λ chosen by cross-validation gives
    that rule (the rule set predicted the majority class for every row before)."""
    rng = np.random.default_rng(3)
    n = 12_000
    X = pd.DataFrame({"amount": rng.lognormal(4, 1, n).round(2),
                      "hour": rng.integers(0, 24, n),
                      "foreign": rng.choice(["no", "yes"], n, p=[0.78, 0.22])})
    y = ((X.amount > 150) & (X.hour < 4) & (X.foreign == "yes")).astype(int).to_numpy()
    assert 0.003 < y.mean() < 0.01
    model = (RuleSetClassifier(random_state=0) if make == "rule set"
             else BooleanRuleClassifier(lam="auto", random_state=0)).fit(X, y)
    assert len(model.cv_results_["lam"].unique()) > 4
    pred = model.predict(X)
    assert pred.sum() > 0
    assert np.mean(pred == y) > 1 - y.mean() + 0.002  # clearly better than the majority


# ------------------------------------------------------------------- lists built class by class


def test_a_sequential_list_learns_each_class_on_the_rows_the_earlier_ones_leave():
    """multiclass="sequential": the classes from the rarest, each DNF fitted on the rows no
    earlier clause covers (its objective is its direct count there), the most frequent
    class the default; the planted list is recovered with fewer conditions."""
    X, y = four_classes()
    seq = RuleSetClassifier(multiclass="sequential", time_limit=60).fit(X, y)
    ovr = RuleSetClassifier(time_limit=60).fit(X, y)
    assert seq.multiclass_ == "sequential" and ovr.multiclass_ == "one-vs-rest"
    counts = pd.Series(y).value_counts()
    assert seq.rules_.default == counts.index[0]  # 40, the most frequent
    rarest_first = list(counts.index[::-1])
    positions = [rarest_first.index(lab) for lab in seq.rules_.labels]
    assert positions == sorted(positions)
    assert seq.score(X, y) >= 0.95 and seq.n_conditions_ <= ovr.n_conditions_
    B = seq.binarizer_.transform(X)
    yi = np.searchsorted(seq.classes_, y)
    active = np.ones(len(y), dtype=bool)
    for label in [lab for lab in rarest_first if lab in set(seq.rules_.labels)]:
        c = int(np.searchsorted(seq.classes_, label))
        mine = [term_index(seq, r) for r in seq.rules_.clauses if r.positive == label]
        res = seq.fits_[c]
        assert sorted(map(tuple, res.clauses)) == sorted(mine)
        assert res.objective == pytest.approx(ruleset_objective(
            B[active], (yi[active] == c).astype(int), np.ones(active.sum()), mine, seq.lam_,
            seq.error), rel=1e-9)
        for S in mine:
            active &= ~B[:, list(S)].all(axis=1)
    # the exported list predicts what the model predicts
    np.testing.assert_array_equal(np.asarray(seq.rules_.predict(X)), seq.predict(X))


def test_auto_multiclass_is_the_inner_cv_argmin_over_both_lists():
    X, y = four_classes(seed=2)
    model = RuleSetClassifier(multiclass="auto", n_thresholds=10, time_limit=60).fit(X, y)
    cvr = model.cv_results_
    assert sorted(cvr["multiclass"].unique()) == ["one-vs-rest", "sequential"]
    for _, g in cvr.groupby("multiclass"):
        np.testing.assert_allclose(np.sort(g["lam"]), lam_grid(len(y)))
    chosen = check_choice(cvr, model.lam_)
    assert model.multiclass_ == chosen["multiclass"]
    with pytest.raises(ParameterError, match="multiclass"):
        RuleSetClassifier(multiclass="tree").fit(X, y)


def test_the_final_fit_keeps_its_share_when_the_cross_validation_overran(monkeypatch):
    """On a loaded machine the inner fits ran over their 60 % of the time limit, the final fit
    got about a second per class, and a class of a fifth of the rows got no rule (a
    newcomer's review).  The final fit gets at least 40 % of the time limit."""
    from rulecore.rules import ruleset

    class SlowClock:  # every reading after the first says the cross-validation took hours
        calls = 0

        def perf_counter(self):
            self.calls += 1
            return 0.0 if self.calls == 1 else 10_000.0 + self.calls

    finals = []
    real = ruleset.column_generation

    def spy(*args, **kw):
        if kw.get("max_exact_pricings") == ruleset.FINAL_EXACT_PRICINGS:  # the final fits
            finals.append(kw["time_limit"])
        return real(*args, **kw)

    monkeypatch.setattr(ruleset, "time", SlowClock())
    monkeypatch.setattr(ruleset, "column_generation", spy)
    X, y = four_classes()
    RuleSetClassifier(time_limit=100, n_thresholds=10).fit(X, y)
    assert finals and all(t == pytest.approx(ruleset.FINAL_SHARE * 100 / 4) for t in finals)


def test_a_large_class_no_rule_predicts_is_not_called_few_rows():
    from rulecore.report import unpredicted_classes

    y = np.array(["A"] * 50 + ["B"] * 30 + ["C"] * 20)
    rules = RuleList((), "A", "t")
    said = unpredicted_classes(rules, y)
    assert said.level == "warning" and "so few rows" not in said.text
    assert said.text.startswith("No rule predicts B (30 training rows), C (20 training rows)")


def test_trailing_rules_of_the_default_class_are_dropped_without_changing_predictions():
    """Wine's list ended 'ash <= 1.985 -> class_1, OTHERWISE class_1' (a review): the rule
    decided nothing the default did not."""
    from rulecore.rules.ruleset import _list_predict, _rule_list

    rng = np.random.default_rng(0)
    for _ in range(200):
        B = rng.random((40, 6)) < 0.4
        y = rng.integers(0, 3, 40)
        d = rng.random(40) + 0.1
        dnfs = {c: [list(rng.choice(6, rng.integers(1, 3), replace=False))
                    for _ in range(rng.integers(0, 3))] for c in range(3)}
        order, default = _rule_list(B, y, d, dnfs, 3)
        assert not order or order[-1][0] != default
        # the full list (every clause, trailing default rules kept) predicts the same
        full = sorted(((c, tuple(S)) for c, Ss in dnfs.items() for S in Ss),
                      key=lambda cs: [k for k, o in enumerate(order) if o == cs] or [99])
        kept = [o for o in full if o in order]
        assert kept == order
        everything = order + [o for o in full if o not in order and o[0] == default]
        np.testing.assert_array_equal(_list_predict(B, order, default),
                                      _list_predict(B, everything, default))


def test_a_class_of_one_training_row_gives_no_warning_of_folds_never_set():
    """A class of two rows keeps one in training: the inner CV's at-least-two folds put it in
    one fold, and scikit-learn's warning named n_splits=2, which no user set (a review)."""
    import warnings

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.random(120), "b": rng.random(120)})
    y = np.where(X["a"] > 0.5, "N", "S").astype(object)
    y[:1] = "P"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RuleSetClassifier(time_limit=20).fit(X, y)


def test_inner_fits_get_their_share_of_a_small_budget():
    """A floor of 0.5 s per inner fit made time_limit=0.5 a 12 s fit over 24 inner fits (a
    notebook review): each gets its share, down to 0.05 s."""
    est = RuleSetClassifier(time_limit=0.5)
    assert est._opts(0.5 * 0.6 / 24)["time_limit"] == 0.05  # 0.0125 s, floored
    assert est._opts(3.0)["time_limit"] == 3.0


def _reviewers_binary_table(seed: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray | None]:
    """brute_colgen.py's tables: three planted clauses over 6 binary columns, some labels
    flipped, and the sample weights it drew (None for most)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 120))
    Xv = rng.integers(0, 2, (n, 6))
    X = pd.DataFrame(Xv, columns=[f"f{i}" for i in range(6)])
    y = ((Xv[:, 0] & Xv[:, 1]) | (Xv[:, 2] & (1 - Xv[:, 3]))
         | (Xv[:, 4] & Xv[:, 5] & Xv[:, 0])).astype(int)
    y = np.where(rng.random(n) < rng.uniform(0, 0.3), 1 - y, y)
    rng.choice(6), rng.choice(3)  # the script's draws of λ and the error count
    return X, y, None if rng.random() < 0.6 else rng.integers(0, 4, n).astype(float)


def test_exact_errors_claim_no_bound_from_the_hamming_lp():
    """With error="exact" the report gave a "certified bound" of 13.5 under an objective of
    13 (the LP bounds the Hamming count, one false positive per clause that fires), and on
    another table "Certified optimal" at 217.25 where the exact optimum is 215.25 (a
    review).  No certificate, bound or gap is claimed, and the claim says why."""
    from rulecore.report import fit_status

    X, y, _ = _reviewers_binary_table(30)
    m = RuleSetClassifier(lam=1.0, error="exact", describe="negative").fit(X, y)
    assert m.objective_ < m.lp_bound_  # the Hamming LP is no bound of this objective
    assert not m.certified_ and np.isnan(m.mip_gap_) and np.isnan(m.lower_bound_)
    said = fit_status(m)
    assert "ertified" not in said.text.replace("can be given a certified bound", "")
    assert "No certificate and no bound" in said.text and said.level == "info"
    assert "counted once however many clauses fire on it" in said.text
    ham = RuleSetClassifier(lam=1.0, describe="negative").fit(X, y)
    assert ham.certified_ and "Certified" in fit_status(ham).text


def test_an_uncertified_rule_set_says_why_as_it_happened(monkeypatch):
    """The claim said the pricing MIP "did not finish in the 1 s it gets" where it had
    finished in 0.05 s, found a clause the beam search missed, and was not run again (a
    review).  It says what happened; and the final fit now runs it again, which proves the
    set."""
    from rulecore.report import fit_status
    from rulecore.rules import ruleset

    X, y, sw = _reviewers_binary_table(2)
    assert sw is not None
    params = dict(lam=20.0, class_weight="balanced", describe="positive", random_state=0)
    monkeypatch.setattr(ruleset, "FINAL_EXACT_PRICINGS", 1)
    once = RuleSetClassifier(**params).fit(X, y, sample_weight=sw)
    fit = once.fits_[next(iter(once.fits_))]
    assert not once.certified_ and fit.pricing_stop == "no round left"
    said = fit_status(once).text
    assert "ran once and found a clause that improves the set, which the beam search had " \
        "missed" in said and "did not finish" not in said
    # status_ says "optimal" of a proof only (a notebook review read "optimal" beside
    # certified_ False); the choice among the generated clauses is master_status_
    # (and without a proved bound no MIP over every clause chooses them: one over the clauses
    # the LP uses, solved to the end, the same on any machine where a cut MIP is not)
    assert once.master_status_ == "support" and once.status_ == "not_proven"
    assert once.lp_status_ == "not_proven"
    monkeypatch.undo()
    again = RuleSetClassifier(**params).fit(X, y, sample_weight=sw)
    assert again.certified_ and len(again.fits_[next(iter(again.fits_))].pricings) > 1
    assert again.status_ == ("optimal" if again.mip_gap_ <= 1e-6 else "not_proven")


@pytest.mark.parametrize("table", [0, 2, 5, 9])
def test_every_pricing_by_the_search_proves_what_the_mip_proves(table, monkeypatch):
    """With every exact pricing a branch and bound over clauses (forced past
    REPEATABLE_PRICING_PAIRS), a certified fit proves the bound a MIP-priced fit proves (the
    LP over every clause has one value), and status_ is "optimal" exactly when the certified
    gap is 0."""
    from rulecore.rules import colgen

    X, y, sw = _reviewers_binary_table(table)
    mip = RuleSetClassifier(random_state=0).fit(X, y, sample_weight=sw)
    monkeypatch.setattr(colgen, "REPEATABLE_PRICING_PAIRS", -1)
    monkeypatch.setattr(colgen, "SEARCH_ROWS", 0)
    m = RuleSetClassifier(random_state=0).fit(X, y, sample_weight=sw)
    fit = m.fits_[next(iter(m.fits_))]
    assert fit.pricings and all(r["method"] == "search" for r in fit.pricings)
    assert fit.pricing_stop in ("proved", "left out")
    if m.certified_ and mip.certified_ and m.lam_ == mip.lam_:
        assert m.lp_bound_ == pytest.approx(mip.lp_bound_, rel=1e-7, abs=1e-7)
    if m.certified_:
        assert m.status_ == ("optimal" if m.mip_gap_ <= 1e-6 else "not_proven")
    else:
        assert m.status_ == "not_proven"


def test_a_tiny_time_limit_is_said_as_it_was_spent():
    """With time_limit=0.01 the pricing MIP got 0.0013 s (or no run), and the claim said
    "the 1 s it gets (a fixed share, not the time-limit setting)"."""
    from rulecore.report import fit_status

    rng = np.random.default_rng(0)
    n = 200
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 5, n),
                      "c": rng.choice(list("xyz"), n)})
    y = np.where((X.a > 0.3) & (X.c != "z"), "yes", "no")
    m = RuleSetClassifier(time_limit=0.01).fit(X, y)
    fit = m.fits_[next(iter(m.fits_))]
    said = fit_status(m).text
    assert "1 s it gets" not in said
    # a pricing MIP this small may take what is left of the fit, at least 0.05 s, and it
    # proves in about 0.04 s: certified or not, the claim says what happened
    assert fit.pricing_stop in ("out of time", "timed out", "proved")
    if fit.pricing_stop == "proved":
        assert m.certified_ and "Certified optimal" in said
        assert fit.pricings[-1]["time_limit"] <= 0.05 + 1e-9
    elif fit.pricing_stop == "out of time":
        assert "the time for generating clauses ran out" in said
    else:
        assert fit.pricings[-1]["time_limit"] <= 0.05 + 1e-9
        assert "stopped at its time limit" in said
