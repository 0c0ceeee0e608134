"""RuleList (the multi-class model of RuleSetClassifier): prediction and every export format,
checked by running them: JSON read back, the SQL CASE expression in SQLite, the Python source
executed."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from rulecore import RuleSetClassifier
from rulecore.exceptions import DataError
from rulecore.rules.rule import Rule, RuleList
from rulecore.rules.terms import Term

ODD = 'we"ird col'  # a column name that needs quoting in SQL and in Python


def hand_list(labels=("hi", "mid", "lo"), target="level") -> RuleList:
    """IF x > 1.5 AND g == a THEN hi ELSE IF g != b AND odd <= 0 THEN mid ELSE lo."""
    hi, mid, lo = labels
    return RuleList((
        Rule((Term("x", ">", 1.5), Term("g", "==", "a")), "and", target, hi),
        Rule((Term("g", "!=", "b"), Term(ODD, "<=", 0.0)), "and", target, mid),
    ), lo, target)


@pytest.fixture
def table() -> pd.DataFrame:
    """Rows chosen to reach every branch, with missing values on every column."""
    return pd.DataFrame({
        "x":  [2.0, 2.0, 1.0, 1.0, np.nan, 2.0, 3.0, 1.0],
        "g":  ["a", "a", "c", "b", "a", None, "a", "c"],
        ODD:  [5.0, -1.0, -1.0, -1.0, -1.0, -1.0, np.nan, np.nan],
    })


#                hi    hi    mid    lo (g=b)  mid (x NaN)  lo (g NaN)  hi    lo (odd NaN)
EXPECTED = np.array(["hi", "hi", "mid", "lo", "mid", "lo", "hi", "lo"])


def run_python(source: str, X: pd.DataFrame, *, nan_as_none: bool = True) -> list:
    ns: dict = {}
    exec(compile(source, "<export>", "exec"), ns)  # noqa: S102 - testing our own export
    frame = X.astype(object)
    if nan_as_none:
        frame = frame.where(X.notna(), None)
    return [ns["predict"](r) for r in frame.to_dict("records")]


def run_sql(case: str, X: pd.DataFrame) -> list:
    con = sqlite3.connect(":memory:")
    X.assign(_row=np.arange(len(X))).to_sql("t", con, index=False)
    return [r[0] for r in con.execute(f"SELECT {case} FROM t ORDER BY _row")]


def test_predict_and_first(table):
    rl = hand_list()
    np.testing.assert_array_equal(rl.first(table), [0, 0, 1, -1, 1, -1, 0, -1])
    np.testing.assert_array_equal(rl.predict(table), EXPECTED)
    assert rl.labels == ["hi", "mid"]
    assert len(rl) == 2 and rl.n_conditions == 4
    assert rl.features == ["x", "g", ODD]


@pytest.mark.parametrize("labels", [("versicolor", "setosa", "c0"), (1.5, 2.5, 2),
                                    (10, 20, 30), ("a", "b", 3)])
def test_predict_keeps_every_label_whole(table, labels):
    """Labels come back as they are: never cut to the default's text length ("c0" would cut
    "versicolor" to "ve") nor rounded to its number type (1.5 to 1)."""
    rl = hand_list(labels)
    pred = rl.predict(table)
    want = [labels[{"hi": 0, "mid": 1, "lo": 2}[e]] for e in EXPECTED]
    assert pred.tolist() == want


def test_empty_list_predicts_the_default(table):
    rl = RuleList((), "only", "t")
    assert rl.predict(table).tolist() == ["only"] * len(table)
    assert run_python(rl.to_python(), table) == ["only"] * len(table)
    assert run_sql(rl.to_sql(), table) == ["only"] * len(table)


def test_text_and_markdown():
    rl = hand_list()
    assert rl.to_text() == (
        "Predict level by the first rule that holds:\n"
        "1. IF x > 1.5 AND g == a THEN level = hi\n"
        f"2. IF g != b AND {ODD} <= 0 THEN level = mid\n"
        "3. OTHERWISE level = lo")
    assert rl.to_markdown() == (
        "**Predict `level` by the first rule that holds:**\n\n"
        "1. `x > 1.5` AND `g == a` → **hi**\n"
        f"2. `g != b` AND `{ODD} <= 0` → **mid**\n"
        "3. otherwise → **lo**")
    assert str(rl) == (f"IF x > 1.5 AND g == a THEN hi ELSE IF g != b AND {ODD} <= 0 THEN mid "
                       "ELSE lo")
    for fmt in ["text", "markdown", "json", "sql", "python"]:
        assert rl.export(fmt)
    with pytest.raises(DataError, match="Unknown export format"):
        rl.export("xml")


@pytest.mark.parametrize("labels", [("hi", "mid", "lo"), (10, 20, 30)])
def test_json_round_trip(table, labels):
    rl = hand_list(labels)
    back = RuleList.from_json(rl.to_json())
    assert back == rl
    assert back.default == labels[2] and back.labels == list(labels[:2])
    assert back.predict(table).tolist() == rl.predict(table).tolist()
    assert RuleList.from_json(rl.to_json(indent=None)) == rl


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"clauses": []}',
                                  '{"default": 1, "clauses": [{"rule_type": "xor"}]}'])
def test_from_json_rejects_what_is_not_a_rule_list(text):
    with pytest.raises(DataError, match="not a rule list|rule_type"):
        RuleList.from_json(text)


def test_sql_case_expression(table):
    rl = hand_list()
    assert rl.to_sql() == (
        "CASE\n"
        """  WHEN ("x" > 1.5 AND "g" = 'a') THEN 'hi'\n"""
        """  WHEN ("g" <> 'b' AND "we""ird col" <= 0) THEN 'mid'\n"""
        "  ELSE 'lo'\n"
        'END AS "level"')
    assert run_sql(rl.to_sql(), table) == EXPECTED.tolist()


def test_sql_quotes_labels_and_numbers(table):
    rl = hand_list(("O'Brien", 20, 30))
    assert "THEN 'O''Brien'" in rl.to_sql()
    assert "THEN 20\n" in rl.to_sql() and "ELSE 30\n" in rl.to_sql()
    assert run_sql(rl.to_sql(), table) == rl.predict(table).tolist()


@pytest.mark.parametrize("nan_as_none", [True, False])
def test_python_export_predicts_like_the_list(table, nan_as_none):
    """The default when no clause holds (row 3) and missing values (None or NaN) failing
    their conditions (rows 4-7) included."""
    rl = hand_list()
    assert run_python(rl.to_python(), table, nan_as_none=nan_as_none) == EXPECTED.tolist()
    ints = hand_list((10, 20, 30))
    got = run_python(ints.to_python(), table, nan_as_none=nan_as_none)
    assert got == ints.predict(table).tolist()
    assert all(type(v) is int for v in got)


def test_python_export_survives_odd_names(table):
    rl = hand_list(target='C:\\New "level"')
    assert run_python(rl.to_python(), table) == EXPECTED.tolist()
    assert run_python(rl.to_python("classify").replace("def classify", "def predict"),
                      table) == EXPECTED.tolist()
    with pytest.raises(DataError, match="not a valid Python function name"):
        rl.to_python("not a name")


def test_relabel(table):
    rl = hand_list().relabel("tier", {"hi": 3, "lo": 1})
    assert rl.target == "tier" and rl.default == 1 and rl.labels == [3, "mid"]
    assert rl.predict(table).tolist() == [{"hi": 3, "mid": "mid", "lo": 1}[e] for e in EXPECTED]


@pytest.fixture(scope="module")
def iris_list():
    iris = load_iris(as_frame=True)
    X = iris.data
    y = pd.Series(iris.target_names[iris.target], name="species")
    model = RuleSetClassifier(lam=1.0, time_limit=30).fit(X, y)
    assert isinstance(model.rules_, RuleList)
    return model, X


def test_fitted_list_exports_predict_like_the_model(iris_list):
    model, X = iris_list
    rl = model.rules_
    X = X.copy()
    X.iloc[::7, 2] = np.nan   # missing petal lengths
    X.iloc[::5, 3] = np.nan   # missing petal widths
    expected = model.predict(X)
    assert len(set(expected)) == 3
    assert (model.decision_rule(X) == -1).any()  # some rows fall through to the default
    np.testing.assert_array_equal(rl.predict(X), expected)
    back = RuleList.from_json(rl.to_json())
    assert back == rl
    np.testing.assert_array_equal(back.predict(X), expected)
    assert run_python(rl.to_python(), X) == expected.tolist()
    assert run_python(rl.to_python(), X, nan_as_none=False) == expected.tolist()
    assert run_sql(rl.to_sql(), X) == expected.tolist()
    text = rl.to_text().splitlines()
    assert text[0] == "Predict species by the first rule that holds:"
    assert len(text) == len(rl) + 2 and text[-1].endswith(f"species = {rl.default}")


def test_the_claim_of_a_rule_list_says_every_lam_tied_only_when_it_did():
    """A rule list describes every class (``describe`` is None in ``cv_results_``); the claim
    said "every λ of the grid gave the same error" on every rule list, because None == None
    is False in pandas and an empty selection 'all tied' (a newcomer's review)."""
    from sklearn.datasets import load_wine

    from rulecore import RuleSetClassifier
    from rulecore.report import fit_status

    X, y = load_wine(return_X_y=True, as_frame=True)
    m = RuleSetClassifier(random_state=0).fit(X, y)
    cvr = m.cv_results_
    assert cvr["describe"].isna().all()
    chosen = cvr[cvr["chosen"]].iloc[0]
    grid = cvr[cvr["n_thresholds"] == chosen["n_thresholds"]] if "n_thresholds" in cvr else cvr
    assert grid["error"].nunique() > 1  # this data does not tie
    assert "every λ of the grid" not in fit_status(m).text


def test_a_class_no_rule_predicts_is_said_with_its_rows():
    """A class of 2 rows among 300 got no rule and nothing said so (a newcomer's review)."""
    from streamlit.testing.v1 import AppTest

    from rulecore import RuleSetClassifier
    from rulecore.report import for_command_line, unpredicted_classes
    from tests.conftest import APP, upload

    rng = np.random.default_rng(0)
    n = 300
    X = pd.DataFrame({"income": rng.uniform(20, 200, n), "age": rng.uniform(18, 80, n)})
    seg = np.where(X.income > 120, "Premium", np.where(X.age > 50, "Senior", "Standard"))
    seg = seg.astype(object)
    seg[[5, 77]] = "VIP"
    m = RuleSetClassifier(random_state=0).fit(X, seg)
    assert "VIP" not in m.rules_.labels and m.rules_.default != "VIP"
    said = unpredicted_classes(m.rules_, seg)
    assert said.level == "info" and said.text.startswith("No rule predicts VIP (2 training rows)")
    assert "--positive" in for_command_line(said.text)
    assert unpredicted_classes(m.rules_, seg[seg != "VIP"]) is None
    # the Rule page says it beside the rule list
    at = AppTest.from_file(APP, default_timeout=120).run()
    upload(at, "segments.csv", X.assign(segment=seg).to_csv(index=False).encode())
    at.run()
    at.switch_page("pages/rule.py").run()
    at.radio(key="model").set_value("rule set").run()
    assert not at.exception, at.exception
    assert any(i.value.startswith("No rule predicts VIP") for i in at.info)


def test_the_baseline_of_a_list_is_its_most_frequent_class_on_the_held_out_rows():
    """A list that always said ``a`` read 61.5 % held out against "43.6 % (train)", unwarned,
    though ``a`` was 61.5 % of the held-out rows (a review)."""
    from rulecore.report import most_frequent_class

    y_train = np.array(["a"] * 34 + ["c"] * 25 + ["b"] * 19)
    y_test = np.array(["a"] * 16 + ["b"] * 6 + ["c"] * 4)
    assert most_frequent_class(y_train, y_test) == ("a", 34 / 78, 16 / 26)
    label, _, held_out = most_frequent_class(y_train, y_test[:0])
    assert label == "a" and np.isnan(held_out)


@pytest.mark.parametrize("name", ["iris", "wine"])
def test_the_split_keeps_every_class_share_on_both_sides(name):
    """Stratified on the positive class against the rest only, a class's share differed by
    up to 0.164 between training and held-out rows on iris (a review)."""
    from rulecore.data import load_sample
    from rulecore.fit import split_rows

    ds = load_sample(name)
    y = ds.y.to_numpy()
    for seed in range(20):
        tr, te = split_rows(ds, 0.25, seed)
        for c in ds.classes:
            assert abs(np.mean(y[tr] == c) - np.mean(y[te] == c)) <= 0.03


def test_the_command_line_warns_of_a_list_no_better_than_its_most_frequent_class(tmp_path,
                                                                                 capsys):
    """Noise over three classes: held-out accuracy at or below the held-out share of the most
    frequent class is warned of, and "no rule predicts" keeps the app's level."""
    from rulecore.cli import main

    rng = np.random.default_rng(6)
    n = int(rng.integers(60, 160))
    y = rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])
    path = tmp_path / "noise.csv"
    pd.DataFrame({"x1": rng.normal(size=n).round(2), "x2": rng.normal(size=n).round(2),
                  "label": y}).to_csv(path, index=False)
    assert main(["learn", str(path), "--target", "label", "--model", "rule-set"]) == 0
    text = capsys.readouterr().out
    said = text.split("always the most frequent class (a): ")[1].split("\n")[0]
    test_acc = float(text.split(" test: accuracy ")[1].split("%")[0])
    held_out = float(said.split(", ")[1].split("%")[0])
    assert ("warning: the held-out accuracy is no better" in text) == (test_acc <= held_out)
    assert test_acc <= held_out
    assert "warning: No rule predicts b" in text
