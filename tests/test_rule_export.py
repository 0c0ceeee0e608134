"""Rule and RuleSet: checklist evaluation and every export format, checked by running them."""

import json
import sqlite3

import numpy as np
import pandas as pd
import pytest

from rulecore.data import Reading, load_sample
from rulecore.exceptions import DataError
from rulecore.rules.estimators import (
    BooleanRuleClassifier,
    BoostedRuleClassifier,
    SetCoveringRuleClassifier,
)
from rulecore.rules.rule import Rule, RuleSet, safe_cell, sql_identifier
from rulecore.rules.terms import Term

HOSTILE = 'we"ird; DROP TABLE t; --'


@pytest.fixture(scope="module")
def data():
    ds = load_sample("machine failure")
    X = ds.X.copy()
    X[HOSTILE] = np.where(np.arange(len(X)) % 3 == 0, "O'Brien", "x")  # quotes everywhere
    return X, ds.y_binary


@pytest.fixture(scope="module")
def models(data):
    X, y = data
    rule = BooleanRuleClassifier(lam=1.0).fit(X, y).rule_
    rule = Rule(rule.conditions + (Term(HOSTILE, "!=", "O'Brien"),), "and", "failure", "yes")
    cover = SetCoveringRuleClassifier(lam=2.0, max_rules=3).fit(X, y).ruleset_
    boost = BoostedRuleClassifier(n_rounds=5).fit(X, y).ruleset_
    return {"rule": rule, "cover": cover, "boost": boost}


def run_python(source: str, X: pd.DataFrame) -> np.ndarray:
    ns: dict = {}
    exec(compile(source, "<export>", "exec"), ns)  # noqa: S102 - testing our own export
    rows = X.astype(object).where(X.notna(), None).to_dict("records")
    return np.array([int(ns["predict"](r)) for r in rows])


def run_sql(where: str, X: pd.DataFrame) -> np.ndarray:
    con = sqlite3.connect(":memory:")
    X.assign(_row=np.arange(len(X))).to_sql("t", con, index=False)
    hits = {r[0] for r in con.execute(f"SELECT _row FROM t {where}")}
    return np.array([int(i in hits) for i in range(len(X))])


@pytest.mark.parametrize("name", ["rule", "cover", "boost"])
def test_exports_predict_like_the_model(models, data, name):
    X, _ = data
    model = models[name]
    X = X.copy()
    X.loc[X.index[:40], "torque_nm"] = np.nan  # missing values fail their conditions
    expected = model.predict(X)
    assert 0 < expected.sum() < len(X)
    back = (Rule if name == "rule" else RuleSet).from_json(model.to_json())
    assert back == model
    np.testing.assert_array_equal(back.predict(X), expected)
    np.testing.assert_array_equal(run_python(model.to_python(), X), expected)
    np.testing.assert_array_equal(run_sql(model.to_sql(), X), expected)
    for fmt in ["text", "markdown", "json", "sql", "python"]:
        assert model.export(fmt)


def test_checklist_and_evaluate(data):
    X, y = data
    rule = Rule((Term("torque_nm", ">", 45.5), Term("machine_type", "!=", "L")), "and")
    checks = rule.evaluate(X)
    assert list(checks.columns) == ["torque_nm > 45.5", "machine_type != L"]
    np.testing.assert_array_equal(rule.predict(X), checks.all(axis=1).astype(int))
    table = rule.checklist(X, y)
    assert table["support"].iloc[0] == pytest.approx((X.torque_nm > 45.5).mean())
    assert table["precision"].iloc[1] == pytest.approx(y[(X.machine_type != "L")].mean())
    assert str(rule) == "torque_nm > 45.5 AND machine_type != L"
    assert "IF torque_nm > 45.5" in rule.to_text()
    assert rule.to_markdown().count("- [ ]") == 2


def test_empty_rules():
    X = pd.DataFrame({"a": [1.0, 2.0]})
    assert Rule((), "and").predict(X).tolist() == [1, 1]
    assert Rule((), "or").predict(X).tolist() == [0, 0]
    assert run_sql(Rule((), "and").to_sql(), X).tolist() == [1, 1]
    assert RuleSet().predict(X).tolist() == [0, 0]


def test_safety_of_identifiers_and_cells():
    assert sql_identifier('a"b') == '"a""b"'
    assert safe_cell("=cmd|' /C calc'!A0").startswith("'=")
    assert safe_cell("plain") == "plain"
    evil = Rule((Term("=HYPERLINK(1)", "<=", 1.0),), "and", "=x", "+y")
    assert not evil.to_text().startswith(("=", "+", "-", "@"))
    with pytest.raises(DataError):
        Rule.from_json("{not json")
    with pytest.raises(DataError):
        evil.to_python("not a name")
    with pytest.raises(DataError):
        evil.export("pdf")


def test_safe_csv_neutralises_formulas():
    from rulecore.rules.rule import safe_csv

    df = pd.DataFrame({"=evil": ["=1+1", "ok", "@x"], "n": [-1.5, 2.0, 3.0]})
    text = safe_csv(df, index=False).decode()
    lines = text.splitlines()
    assert lines[0] == "'=evil,n"
    assert lines[1] == "'=1+1,-1.5" and lines[3] == "'@x,3.0"
    # whole numbers read as floats beside a missing cell come out whole (ids join back to
    # the source), the row numbers under a header; duplicate names are kept apart
    ids = pd.DataFrame([[7471.0, 1.5, "a"], [np.nan, 2.0, "b"]], columns=["id", "x", "x"])
    assert safe_csv(ids).decode().splitlines() == ["row,id,x,x", "0,7471,1.5,a", "1,,2.0,b"]
    assert safe_csv(ids.rename(columns={"id": "row"})).decode().splitlines()[0] == \
        "_row,row,x,x"


def test_python_export_survives_quotes_and_backslashes_in_names():
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rule = Rule((Term("x", "<=", 1.0),), "and", target='say """hi"""', positive="C:\\New")
    namespace: dict = {}
    exec(rule.to_python(), namespace)
    assert namespace["predict"]({"x": 0.5}) is True
    assert namespace["predict"]({"x": 2.0}) is False
    assert '"""hi"""' in namespace["predict"].__doc__


def test_exports_say_how_the_rule_columns_were_read():
    """-999 read as missing: the exported SQL run on the raw table would count -999 as the
    lowest income unless it says so."""
    from pathlib import Path

    from rulecore import BooleanRuleClassifier
    from rulecore.data import load_csv

    ds = load_csv(Path(__file__).parent / "data" / "stats_package_missing_codes.csv")
    rule = BooleanRuleClassifier().fit(ds.X, ds.y_binary).rule_
    assert set(rule.features) == {"income", "satisfaction"}
    notes = ds.notes_for(rule.features)
    assert [n.split(":")[0] for n in notes] == ["'income'", "'satisfaction'"]
    assert ds.notes_for(["age"])[0].startswith("'age': ") and ds.notes_for([]) == []
    sql = rule.export("sql", notes)
    lines = sql.splitlines()
    assert lines[0].startswith("/* Selects the rows predicted")
    assert lines[3].startswith("   'income': 73 cells of -999") and lines[-2].endswith("*/")
    assert sql.splitlines()[-1] == rule.to_sql()
    py = rule.export("python", notes)
    ns: dict = {}
    exec(py, ns)  # the comments keep it valid Python
    assert ns["predict"]({"income": 50_000, "satisfaction": 4})
    assert "> - 'satisfaction': 32 cells of 9" in rule.export("markdown", notes)
    text = rule.export("text", notes)
    assert "'income': 73 cells" in text
    # the notes wrap as the code's comments do (the app shows them in a box of fixed width)
    assert max(map(len, text.split("\n\n", 1)[1].splitlines())) <= 88
    assert " ".join(w for line in text.splitlines() for w in line.split()).count(
        " ".join(notes[0].split())) == 1
    assert rule.export("json", notes) == rule.to_json()  # the rule alone, read back
    # without notes the SQL still says what it selects and what it needs of the columns
    plain_sql = rule.export("sql").splitlines()
    assert plain_sql[-1] == rule.to_sql()
    assert plain_sql[0] == "/* Selects the rows predicted target = 1; the others are " \
        "predicted otherwise."
    assert plain_sql[1].startswith("   Columns compared with numbers must be stored as numbers")
    assert plain_sql[1].endswith(" */")


def test_small_and_large_thresholds_export_exactly():
    """A concentration in mol/l: the threshold 6.5e-07 printed as 0.000001 (six decimals),
    and the exported SQL chose 135 of 300 rows where the rule chose 83 (a review of the
    exports).  Every format now carries the value the model uses."""
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 2e-6, 300).round(9)
    X = pd.DataFrame({"conc_mol_l": x, "mass_kg": rng.uniform(1e8, 3e8, 300).round(0)})
    y = ((x > 7.3e-7) & (X.mass_kg > 2e8)).astype(int).to_numpy()
    model = BooleanRuleClassifier(lam=5.0, thresholds="all").fit(X, y)
    expected = model.predict(X)
    assert 0 < expected.sum() < len(X)
    rule = model.rule_
    assert any(c.feature == "conc_mol_l" and abs(c.value) < 1e-6 for c in rule.conditions)
    np.testing.assert_array_equal(run_sql(rule.to_sql(), X), expected)
    np.testing.assert_array_equal(run_python(rule.to_python(), X), expected)
    for c in rule.conditions:  # the checklist shows the value used
        assert float(str(c).rsplit(" ", 1)[1]) == c.value


def test_every_reading_an_export_depends_on_is_said():
    """A review ran the exports on the raw corpus files: the command line's SQL carried no
    notes; thousands separators, decimal commas and derived columns (a form's options, a
    date's parts) had none anywhere; a label with a backslash broke the Python."""
    from pathlib import Path

    from rulecore.cli import main
    from rulecore.data import load_csv

    data = Path(__file__).parent / "data"
    hand = load_csv(data / "spreadsheet_hand_typed.csv")
    said = " ".join(hand.notes_for(["Balance"]))
    assert "'Balance' ('15,690' is 15690)" in said and "thousands separators" in said
    euro = load_csv(data / "european_decimal_comma_bom.csv")
    assert "'Preis' ('68,68' is 68.68)" in " ".join(euro.notes_for(["Preis"]))
    assert "decimal comma" in " ".join(euro.notes_for(["Preis"]))
    assert euro.notes_for(["Rabatt"]) == []  # whole numbers, written plainly
    forms = load_csv(data / "google_forms_export.csv")
    q = "Which of these features have you used in the last 30 days? (tick all that apply)"
    assert forms.notes_for([f"{q}: Live chat"]) == [
        f"'{q}: Live chat': yes when 'Live chat' is among the answers in '{q}' (joined by "
        "';'), no when not, missing when it has none."]
    assert forms.notes_for(["Timestamp (hour)"]) == [
        "'Timestamp (hour)': the hour (0-23) of the date in 'Timestamp'."]
    # the command line exports with the notes, as the Rule page does
    out = Path(__file__).parent / "artifacts" / "stats.sql"
    out.parent.mkdir(exist_ok=True)
    assert main(["learn", str(data / "stats_package_missing_codes.csv"), "--output",
                 str(out)]) == 0
    sql = out.read_text()
    assert "'income': 73 cells of -999 are read as missing values" in sql
    assert sql.splitlines()[-1].startswith("WHERE (")
    # a label with a backslash: still valid Python
    rule = Rule((Term("x", "<=", 1.5),), "and", "path", "C:\\Users\\x")
    ns: dict = {}
    exec(RuleSet((rule,), None, "path", "C:\\Users\\x").to_python(), ns)
    assert ns["predict"]({"x": 1.0}) and not ns["predict"]({"x": 2.0})


def test_the_exported_python_takes_pandas_missing_values():
    """A record from a nullable column holds pd.NA, whose truth is ambiguous: the exported
    predict() raised TypeError on it (a review); a missing value fails its condition."""
    rule = Rule((Term("plan", "==", "basic"), Term("calls", ">", 3.5)), "and", "churn", "yes")
    ns: dict = {}
    exec(rule.to_python(), ns)
    assert ns["predict"]({"plan": "basic", "calls": 5})
    assert not ns["predict"]({"plan": pd.NA, "calls": 5})
    assert not ns["predict"]({"plan": "basic", "calls": pd.NA})
    assert not ns["predict"]({"plan": None, "calls": float("nan")})


@pytest.mark.parametrize("rule_type", ["and", "or"])
def test_missing_tests_export_like_predict(rule_type):
    """``x is missing`` / ``x is not missing`` in every format: the Python export reads a
    cell as the term does (text in a numeric column is missing there), the SQL says IS NULL."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"calls": rng.integers(0, 9, 60).astype(float),
                      "plan": rng.choice(["basic", "pro", None], 60).astype(object),
                      "age": rng.integers(18, 80, 60).astype(float)})
    X.loc[rng.random(60) < 0.3, "calls"] = np.nan
    terms = (Term("calls", "is missing", "numeric"), Term("plan", "is not missing", "categorical"),
             Term("age", ">", 40.5))
    for conds in [terms, terms[1:], (terms[0].negate(), terms[1].negate())]:
        rule = Rule(conds, rule_type, "churn", "yes")
        expected = rule.predict(X)
        assert 0 < expected.sum() < len(X), str(rule)
        assert Rule.from_json(rule.to_json()) == rule
        np.testing.assert_array_equal(run_python(rule.to_python(), X), expected)
        np.testing.assert_array_equal(run_sql(rule.to_sql(), X), expected)
        assert "calls is missing" in rule.to_text() or "calls is not missing" in \
            rule.to_text() or conds == terms[1:]
    ns: dict = {}
    exec(Rule(terms[:1], "and", "churn", "yes").to_python(), ns)
    assert ns["predict"]({"calls": "n/a"}) and ns["predict"]({"calls": pd.NA})
    assert not ns["predict"]({"calls": 3})


def test_a_level_that_is_not_text_reads_back_equal():
    """A hand-built level True, 3 or 1.0 came back from JSON as "True", "3", "1.0": the same
    predictions, but not an equal rule, against the docstring (a review)."""
    for level in (True, 3, 1.0, "x"):
        rule = Rule((Term("flag", "==", level), Term("v", ">", 2.5)), "and", "t", "yes")
        back = Rule.from_json(rule.to_json())
        assert back == rule and type(back.conditions[0].value) is type(level)


def test_the_exported_python_reads_numbers_as_predict_does():
    """float() reads '1_000' and Arabic-Indic digits, pandas does not: predict called such a
    cell missing and the export a number (a review)."""
    rule = Rule((Term("x", "is missing", "numeric"), Term("y", ">", 5.0)), "or", "t", "yes")
    ns: dict = {}
    exec(rule.to_python(), ns)
    for cell in ["1_000", "٣", "１２", "३", " 3 ", "1e3", "+5", ".5", "inf", "nan", "abc"]:
        X = pd.DataFrame({"x": pd.Series([cell], dtype=object),
                          "y": pd.Series([cell], dtype=object)})
        assert int(rule.predict(X)[0]) == int(ns["predict"]({"x": cell, "y": cell})), cell


def test_an_export_says_which_cells_were_missing_so_the_raw_table_agrees():
    """R's text "NA" is read as missing; the exported SQL's IS NOT NULL on the raw CSV chose
    281 rows where the app's rule chose 86 (a review). The export now says so, and once the
    raw table is read as it says, SQL and Python choose the app's rows."""
    import csv
    from pathlib import Path

    from rulecore.data import load_csv
    from rulecore.rules.estimators import make_rule_model

    path = Path(__file__).parent / "data" / "surgery_r_na_none.csv"
    ds = load_csv(path)
    rule = make_rule_model("single rule", kinds=ds.kinds).fit(ds.X, ds.y_binary).rule_
    assert "prior_complication is not missing" in [str(c) for c in rule.conditions]
    notes = ds.notes_for(rule.features)
    said = next(n for n in notes if n.startswith("'prior_complication': "))
    assert "are missing values (empty, or written NA, N/A" in said and "as NULL (SQL)" in said
    assert said.split(": ", 1)[1] in rule.export("sql", notes).replace("\n     ", " ")
    expected = rule.predict(ds.X)
    with path.open(newline="") as fh:  # R's row names sit under a blank header
        rows = [{k: v for k, v in r.items() if k} for r in csv.DictReader(fh)]
    na = {"NA", "N/A", "NaN", "null", "None", "?", "-", "\\N", ""}
    read = pd.DataFrame([{k: (None if v in na else v) for k, v in r.items()} for r in rows])
    read["op_minutes"] = read["op_minutes"].astype(float)
    np.testing.assert_array_equal(run_sql(rule.to_sql(), read), expected)
    np.testing.assert_array_equal(run_python(rule.to_python(), read), expected)
    # the raw table as it is, "NA" as text, is what the note warns of
    raw = pd.DataFrame(rows).assign(op_minutes=lambda d: d["op_minutes"].astype(float))
    assert run_sql(rule.to_sql(), raw).sum() > expected.sum()


def test_python_export_refuses_a_row_without_the_rules_column():
    """A rule on a derived column ('hired (year)') read the raw row's absent column as
    missing and said no to every row (a review): the row must hold it, or a KeyError says
    which.  Only the readers the conditions use are written."""
    import pytest

    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rule = Rule((Term("hired (year)", ">", 2019.5), Term("dept", "==", "Sales")), "and",
                "left", "yes")
    ns: dict = {}
    exec(rule.to_python(), ns)
    assert ns["predict"]({"hired (year)": 2021, "dept": "Sales"})
    with pytest.raises(KeyError, match="hired"):
        ns["predict"]({"hired": "2021-03-01", "dept": "Sales"})
    numeric = Rule((Term("age", ">", 40.0),), "and", "left", "yes").to_python()
    assert "def num(" in numeric and "def txt(" not in numeric


def test_the_exported_python_reads_a_raw_csvs_rows_as_the_model_reads_the_file(tmp_path):
    """README: predict(row) takes rows as csv.DictReader gives them.  An empty text cell is
    '' there (missing to pandas and the model): it passed "city != A" and never "city is
    missing" (a notebook review: 55 of 400 rows wrong).  And '51%', '$1,234.50' and '<0.5'
    are the numbers the reader made of them: every '51%' failed "Open Rate > 39.5", with no
    error (an analyst's review)."""
    import csv

    rng = np.random.default_rng(0)
    n = 400
    frame = pd.DataFrame({"city": rng.choice(["A", "B", "C", None], n),
                          "score": rng.normal(size=n).round(3)})
    path = tmp_path / "city.csv"
    frame.to_csv(path, index=False)
    X = pd.read_csv(path)
    rows = list(csv.DictReader(path.open()))
    assert sum(r["city"] == "" for r in rows) > 50
    for rule in (Rule((Term("city", "!=", "A"), Term("score", ">", 0.04))),
                 Rule((Term("city", "is missing", "categorical"),)),
                 Rule((Term("score", "is not missing", "numeric"),
                       Term("city", "==", "B")), "or")):
        ns: dict = {}
        exec(rule.to_python(), ns)
        np.testing.assert_array_equal([ns["predict"](r) for r in rows],
                                      rule.predict(X).astype(bool))
    ns = {}
    exec(Rule((Term("Open Rate", ">", 39.5),)).to_python(), ns)
    cells = {"51%": True, " 45 % ": True, "9%": False, "$1,234.50": True, "€ 12": False,
             "<0.5": False, ">100": True, "1,234": True, "12,5": False, "NA": False,
             "": False, "n/a": False}
    assert {c: ns["predict"]({"Open Rate": c}) for c in cells} == cells


def test_the_sql_says_an_empty_text_cell_must_be_null():
    said = Rule((Term("city", "!=", "A"),)).export("sql")
    assert "An empty cell must be NULL" in said
    assert "An empty cell must be NULL" not in Rule((Term("x", ">", 1.0),)).export("sql")


def test_the_exported_python_reads_a_decimal_comma_where_the_app_did(tmp_path):
    """A ';'-separated export with '60,6': the app reads 60.6, and the exported predict(row)
    read None, so a rule on the column never held on the raw rows (0 rows of the 31 the app
    and 'rulecore apply' found: a stranger's review).  Now the columns the loader read with a
    decimal comma are read so by the function, in a rule, a rule set and a rule list."""
    import csv

    from rulecore.data import load_csv
    from rulecore.rules.rule import RuleList

    rng = np.random.default_rng(1)
    n = 300
    balance = rng.uniform(0, 3000, n).round(2)
    frame = pd.DataFrame({
        "churned": np.where(balance < 500, "TRUE", "FALSE"),
        "balance_eur": [f"{v:,.2f}".replace(",", " ").replace(".", ",") for v in balance],
        "visits": rng.integers(0, 9, n)})
    frame.loc[::17, "balance_eur"] = "NULL"
    path = tmp_path / "export.csv"
    frame.to_csv(path, sep=";", index=False)
    ds = load_csv(path)
    assert ds.decimal_comma == ("balance_eur",)
    rows = list(csv.DictReader(path.open(encoding="utf-8"), delimiter=";"))
    rule = Rule((Term("balance_eur", "<=", 498.5), Term("visits", ">", 1.5)), "and",
                "churned", "TRUE")
    ruleset = RuleSet((rule, Rule((Term("balance_eur", "is missing", "numeric"),))),
                      target="churned", positive="TRUE")
    rulelist = RuleList((rule,), default="FALSE", target="churned")
    for model, expected in ((rule, rule.predict(ds.X).astype(bool)),
                            (ruleset, ruleset.predict(ds.X).astype(bool)),
                            (rulelist, rulelist.predict(ds.X))):
        ns: dict = {}
        code = model.export("python", ds.notes_for(model.features), ds.reading)
        exec(code, ns)
        got = [ns["predict"](r) for r in rows]
        np.testing.assert_array_equal(got, expected)
        # its comments no longer tell the reader to convert what the function reads itself
        assert "convert these columns" not in code
        assert "'balance_eur': numbers written with a decimal comma" in code
    # the SQL compares numbers, so its note still says to convert the column first
    assert "convert these columns" in rule.export("sql", ds.notes_for(rule.features), ds.reading)
    assert 20 < int(np.sum(rule.predict(ds.X))) < n  # the comparison has something to refute
    ns = {}
    exec(rule.to_python(reading=Reading(decimal_comma=("balance_eur",))), ns)
    read = {"1 234,50": False, "1.234,50": False, "60,6": True, "498,5": True, "12,5 €": True}
    assert {c: ns["predict"]({"balance_eur": c, "visits": "3"}) for c in read} == read


def test_the_exported_python_refuses_a_cell_the_app_read_from_text(tmp_path):
    """'2 days 04:00:00' read as hours when the rule was learned; the exported predict(row)
    read it as missing, so 'time_to_resolve > 47' held on 0 of 700 raw rows where 255 were
    breached (a stranger's review).  Now such a cell raises, naming the column and how to
    read the table; numbers and missing cells are read as before, in a rule, a rule set and
    a rule list."""
    import csv

    from rulecore.data import load_csv
    from rulecore.rules.rule import RuleList

    rng = np.random.default_rng(2)
    n = 200
    hours = rng.uniform(1, 120, n)
    frame = pd.DataFrame({
        "time_to_resolve": [f"{int(h // 24)} days {int(h % 24):02d}:{int(h * 60 % 60):02d}:00"
                            for h in hours],
        "reopened": rng.integers(0, 3, n),
        "sla": np.where(hours > 48, "breached", "met")})
    path = tmp_path / "tickets.csv"
    frame.to_csv(path, index=False)
    ds = load_csv(path)
    assert ds.read_from_text == ("time_to_resolve",) and ds.decimal_comma == ()
    rule = Rule((Term("time_to_resolve", ">", 47.5),), "and", "sla", "breached")
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for model in (rule, RuleSet((rule,), target="sla", positive="breached"),
                  RuleList((rule,), default="met", target="sla")):
        ns: dict = {}
        exec(model.export("python", ds.notes_for(model.features), ds.reading), ns)
        with pytest.raises(ValueError, match=r"'\d+ days [^']*' in 'time_to_resolve' is not a "
                           r"number as this rule compares it.*rulecore apply"):
            [ns["predict"](r) for r in rows]
        # the values as read, and a missing cell, still work
        as_read = [dict(r, time_to_resolve=str(v)) for r, v in zip(rows, ds.X.time_to_resolve)]
        got = [ns["predict"](r) for r in as_read]
        expected = rule.predict(ds.X).astype(bool)
        if isinstance(model, RuleList):
            expected = np.where(expected, "breached", "met")
        np.testing.assert_array_equal(got, expected)
        assert ns["predict"](dict(rows[0], time_to_resolve="")) in (False, "met")
        # what the app reads as missing in a number column is missing here too (a review)
        for cell in ("#VALUE!", "None", "-", " #DIV/0! "):
            assert ns["predict"](dict(rows[0], time_to_resolve=cell)) in (False, "met")
    # a column read as plain numbers keeps reading text as missing (no reading to apply)
    ns = {}
    exec(Rule((Term("reopened", ">", 0.5),), "and", "sla", "breached").to_python(
        reading=Reading(read_from_text=("time_to_resolve",))), ns)
    assert ns["predict"]({"reopened": "n/a"}) is False


def test_the_exported_python_reads_accounting_negatives_as_the_app_did(tmp_path):
    """A ledger writes losses as '(542)' (and SAP as '542.00-'): the app reads −542, the
    exported predict(row) read None, and 'NetIncome <= 30.5' held on 18 of the 189 rows the
    app found (a stranger's ledger).  Now it reads them as the app does."""
    import csv

    from rulecore.data import load_csv

    rng = np.random.default_rng(3)
    n = 300
    income = rng.integers(-900, 900, n)

    def written(v: int, k: int) -> str:
        if v >= 0:
            return f"{v:,}"
        return f"({-v:,})" if k % 3 else f"{-v:,}.00-"

    frame = pd.DataFrame({"Entity": [f"E{k:04d}" for k in range(n)],
                          "NetIncome": [written(int(v), k) for k, v in enumerate(income)],
                          "Distressed": np.where(income <= 30, "Yes", "No")})
    path = tmp_path / "ledger.csv"
    frame.to_csv(path, index=False)
    ds = load_csv(path)
    np.testing.assert_array_equal(ds.X["NetIncome"].to_numpy(), income)
    rule = Rule((Term("NetIncome", "<=", 30.5),), "and", "Distressed", "Yes")
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    ns: dict = {}
    exec(rule.export("python", ds.notes_for(rule.features), ds.reading), ns)
    got = np.array([ns["predict"](r) for r in rows])
    np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
    assert got.sum() > 100
    assert ns["predict"]({"NetIncome": "(1,234.50)"}) and ns["predict"]({"NetIncome": "-"}) \
        is False
    # '(-542)' is no number the app reads (a column with one is text): not +542 either
    above: dict = {}
    exec(Rule((Term("NetIncome", ">", 30.5),), "and", "Distressed", "No").export(
        "python", ds.notes_for(["NetIncome"]), ds.reading), above)
    assert above["predict"]({"NetIncome": "(542)"}) is False
    assert above["predict"]({"NetIncome": "(-542)"}) is False  # missing: fails '> 30.5'
    # a minus before a currency sign, ASCII or typeset, as the app reads it (a review)
    assert [ns["predict"]({"NetIncome": v}) for v in ("-$1,200", "−$1,200", "$1,200")] \
        == [True, True, False]


def test_a_level_with_a_line_break_is_shown_on_one_line_and_exported_as_it_is():
    """A free-text note as a level printed the checklist's condition over two lines (a
    stranger's help-desk export): it is shown with its break as \\n, and the code exports
    still compare the value itself."""
    level = "Kunde ruft an.\nBitte zurückrufen"
    rule = Rule((Term("note", "!=", level),), "and", "escalated", "y")
    assert str(rule.conditions[0]) == "note != Kunde ruft an.\\nBitte zurückrufen"
    assert "\n" not in rule.conditions[0].__str__()
    ns: dict = {}
    exec(rule.to_python(), ns)
    assert ns["predict"]({"note": level}) is False and ns["predict"]({"note": "ok"}) is True
    assert Rule.from_json(rule.to_json()).conditions[0].value == level
    # an ordered scale's levels are written on one line too, as "<=" and as the "==" of its
    # lowest level (the review's left-alone branch)
    order = ("Low\nrisk", "Medium", "High\r\nrisk")
    assert str(Term("band", "<=", "Medium", order=order)) == "band <= Medium"
    assert str(Term("band", "<=", "Low\nrisk", order=order)) == "band == Low\\nrisk"
    assert str(Term("band", ">", "High\r\nrisk", order=order)) == "band > High\\nrisk"


def test_the_exported_python_reads_german_amounts_percentages_and_thousands(tmp_path):
    """A German claims table: '3.348,00 €' and '45,6 %' read as missing in the exported
    predict(), and '12.606' as 12.606, so its rule held on none of the raw rows where the
    app said 168 of 300 (a stranger's check).  Every column the app read with a decimal
    comma or dots between thousands is read so by the export too."""
    import csv

    from rulecore.data import load_csv

    rng = np.random.default_rng(12)
    n = 300
    amount = np.round(rng.uniform(100, 9000, n), 2)
    rate = np.round(rng.uniform(10, 90, n), 1)
    sessions = rng.integers(100, 40000, n)  # some under a thousand: dots group thousands

    def de(v: float, decimals: int) -> str:
        return f"{v:,.{decimals}f}".replace(",", "X").replace(".", ",").replace("X", ".")

    temp = np.round(rng.uniform(-9, 9, n), 1)
    frame = pd.DataFrame({"Schadenhöhe": [de(v, 2) + " €" for v in amount],
                          # whole negatives with a typeset minus beside '7,0' (a review)
                          "Temperatur": [f"−{-round(t):.0f}" if t < 0 else de(t, 1)
                                         for t in temp],
                          "Absprungrate": [de(v, 1) + " %" for v in rate],
                          "Sitzungen": [de(v, 0) for v in sessions],
                          "Betrug": np.where(amount > 4000, "J", "N")})
    path = tmp_path / "de.csv"
    frame.to_csv(path, index=False, sep=";")
    ds = load_csv(path)
    np.testing.assert_allclose(ds.X["Sitzungen"].to_numpy(dtype=float), sessions)
    assert set(ds.decimal_comma) == {"Schadenhöhe", "Absprungrate", "Sitzungen", "Temperatur"}
    rows = list(csv.DictReader(path.open(encoding="utf-8"), delimiter=";"))
    for col, t in (("Schadenhöhe", 4000.5), ("Absprungrate", 45.05), ("Sitzungen", 12000.5),
                   ("Temperatur", 0.05)):
        rule = Rule((Term(col, ">", t),), "and", "Betrug", "J")
        ns: dict = {}
        exec(rule.export("python", ds.notes_for([col]), ds.reading), ns)
        got = np.array([ns["predict"](r) for r in rows])
        np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
        assert 0 < got.sum() < n


def test_a_tick_or_flag_column_is_read_as_yes_or_no_by_the_export_and_apply(tmp_path):
    """NOAA's WT03 (1 or empty) and a checklist's 'x' (or empty) are yes / no to the app;
    the exported predict() read '' as missing and '1' as '1', so 'WT03 == yes' and '== no'
    never held on the raw rows (a review)."""
    import csv

    from rulecore.data import load_csv, read_csv_frame
    from rulecore.scoring import apply_rule

    rng = np.random.default_rng(13)
    n = 200
    frame = pd.DataFrame({"wind": rng.gamma(3, 4, n).round(1),
                          "WT03": np.where(rng.random(n) < 0.3, "1", ""),
                          "Lockout": np.where(rng.random(n) < 0.6, "x", ""),
                          "storm": rng.choice(["yes", "no"], n)})
    path = tmp_path / "flags.csv"
    frame.to_csv(path, index=False)
    ds = load_csv(path)
    assert set(ds.ticks) == {"WT03", "Lockout"}
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for col in ("WT03", "Lockout"):
        for level in ("yes", "no"):
            rule = Rule((Term(col, "==", level),), "and", "storm", "yes")
            ns: dict = {}
            exec(rule.export("python", ds.notes_for([col]), ds.reading), ns)
            got = np.array([ns["predict"](r) for r in rows])
            np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
            assert 0 < got.sum() < n
    # `rulecore apply` reads a batch with ticked and empty cells as the app did
    rule = Rule((Term("WT03", "==", "yes"),), "and", "storm", "yes")
    raw, _ = read_csv_frame(path)
    scored = apply_rule(rule, raw.drop(columns="storm"), typed=False)
    np.testing.assert_array_equal(scored.fires, rule.predict(ds.X).astype(bool))


def test_a_rule_sets_text_says_the_other_class():
    """A rule set describing class 0 under a header that predicted class 1 read as a
    contradiction, with nothing saying "otherwise 1" (a stranger's rare-fraud table)."""
    from rulecore.rules.rule import RuleSet

    clause = Rule((Term("v1", "<=", 1.3),), "and", "is_fraud", 0)
    rules = RuleSet((clause,), None, "is_fraud", 0, negative=1)
    assert rules.to_text().splitlines()[-1] == "Otherwise is_fraud = 1."
    assert rules.to_markdown().splitlines()[-1] == "Otherwise `is_fraud = 1`."
    assert "Otherwise" not in RuleSet((clause,), None, "is_fraud", 0).to_text()


def test_the_exported_python_reads_amounts_written_with_a_currency_code():
    """A Salesforce report's 'USD 43,000.00': the app reads 43000, the exported predict()
    read None, and its rule held on none of the 137 raw rows it fires on (found at the end
    of a stop); Swiss '4'698.71 CHF' and India's '₹4,80,000' likewise."""
    import csv
    from pathlib import Path

    from rulecore.data import load_csv

    path = Path(__file__).parent / "data" / "crm_opportunities_stages.csv"
    ds = load_csv(path)
    rule = Rule((Term("Amount", "<=", 20000.0),), "and", "Stage", "Closed Won")
    ns: dict = {}
    exec(rule.export("python", ds.notes_for(["Amount"]), ds.reading), ns)
    rows = [r for r in csv.DictReader(path.open(encoding="utf-8"))
            if r["Stage"].startswith("Closed")]
    got = np.array([ns["predict"](r) for r in rows])
    np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
    assert got.sum() > 100
    above = Rule((Term("Amount", ">", 4000.0),), "and", "y", "yes")
    ns = {}
    exec(above.to_python(), ns)
    assert [ns["predict"]({"Amount": v}) for v in (
        "4'698.71 CHF", "CHF 10’690.24", "₹4,80,000", "Rs. 4,80,000", "(USD 5,000)",
        "1,234.50 USD", "EUR 3,999.99")] == [True, True, True, True, False, False, False]


def test_a_german_lab_column_with_codes_is_read_and_exported_with_its_decimal_comma(tmp_path):
    """'0,7' beside 'ND', 'n.a.' or '<0,5' (a German lab's export) was left out as text: the
    codes were looked for beside numbers read with a point only (a review).  The column is
    read, and the exported Python reads its raw cells as the app did."""
    import csv

    from rulecore.data import load_csv, numbers_with_codes

    rng = np.random.default_rng(14)
    n = 200
    crp = np.round(rng.gamma(2, 3, n), 1)
    cells = [f"{v:.1f}".replace(".", ",") for v in crp]
    for k in range(0, n, 20):
        cells[k] = "ND"
    for k in range(7, n, 25):
        cells[k] = "<0,5"
    out = numbers_with_codes(pd.Series(cells))[0]
    assert pd.api.types.is_numeric_dtype(out) and out.iloc[1] == crp[1] and out.iloc[7] == 0.5
    frame = pd.DataFrame({"CRP": cells, "Alter": rng.integers(20, 90, n),
                          "Sepsis": np.where(crp > 8, "ja", "nein")})
    path = tmp_path / "labor.csv"
    frame.to_csv(path, index=False, sep=";")
    ds = load_csv(path)
    assert ds.kinds["CRP"] == "numeric" and "CRP" in ds.decimal_comma
    rule = Rule((Term("CRP", ">", 8.05),), "and", "Sepsis", "ja")
    ns: dict = {}
    exec(rule.export("python", ds.notes_for(["CRP"]), ds.reading),
         ns)
    got = np.array([ns["predict"](r) for r in csv.DictReader(path.open(encoding="utf-8"),
                                                             delimiter=";")])
    np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
    # a column of numbers with a decimal point is read as before
    assert numbers_with_codes(pd.Series(["0.7", "1.2", "ND"] * 10))[0].iloc[0] == 0.7


@pytest.mark.parametrize("name", [
    "card_transactions_dst_rare_fraud.csv",  # ISO timestamps, offsets changing with DST
    "db_churn_ids_dates.csv", "hr_attrition_sqlserver.csv", "machine_daily_log.csv",
    "postgres_copy_export.csv", "weather_type_flags.csv",
    "google_forms_export.csv",  # its ';'-joined "tick all that apply" answers
    "postgres_tickets_arrays_intervals.csv",  # PostgreSQL's arrays, {phone,sms}
])
def test_the_exported_python_derives_date_parts_and_options_from_raw_rows(name):
    """A rule on `hired (year)` raised KeyError on every raw row, which has `hired` only (a
    review): predict(row) derives a date's year, month, weekday and hour, and a form's
    option, from the raw column, and gives the app's answer on every raw row, Google Forms'
    `2024/03/26 4:19:40 AM GMT+1` too (it raised ValueError before the export read dates
    with the app's formats)."""
    import csv
    from pathlib import Path

    from rulecore.data import load_csv

    path = Path(__file__).parent / "data" / name
    ds = load_csv(path)
    rows = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    assert ds.derived and len(rows) == ds.n_samples
    checked = 0
    for feature, _source, _part, _ in ds.derived:
        col = ds.X[feature]
        if ds.kinds[feature] == "numeric":
            term = Term(feature, ">", float(np.nanmedian(col.astype(float))))
        else:
            term = Term(feature, "==", col.dropna().astype(str).value_counts().index[0])
        rule = Rule((term,), "and", ds.target, ds.positive)
        ns = {}
        exec(rule.export("python", ds.notes_for(rule.features), ds.reading), ns)
        want = rule.predict(ds.X).astype(bool)
        assert 0 < want.sum() < len(want)  # a condition with something to get wrong
        got = np.array([ns["predict"](r) for r in rows])
        np.testing.assert_array_equal(got, want, err_msg=feature)
        # the row of the frame the rule was learned on has the feature itself
        assert ns["predict"]({feature: ds.X[feature].iloc[0]}) == bool(want[0])
        checked += 1
    assert checked


def test_the_exported_python_reads_a_json_list_of_options(tmp_path):
    """A document store's tags, `["promo", "cart"]` and `[]` (read by the app as options
    ticked, the empty list as "(none)"), are read so by predict(row) too."""
    from rulecore.data import load_csv

    rng = np.random.default_rng(0)
    tags = [[], ["promo"], ["cart"], ["promo", "cart"], ["cart", "gift"], ["gift"]]
    rows = []
    for i in range(300):
        t = tags[rng.integers(len(tags))]
        bought = "yes" if "cart" in t and rng.random() < 0.9 else "no"
        rows.append({"session": f"s{i:04d}", "tags": json.dumps(t), "pages": rng.integers(1, 9),
                     "bought": bought})
    path = tmp_path / "sessions.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    ds = load_csv(path)
    assert ("tags: cart", "tags", "option", ";") in ds.derived
    ns = {}
    rule = Rule((Term("tags: cart", "==", "yes"), Term("tags: (none)", "!=", "yes")), "and",
                ds.target, ds.positive)
    exec(rule.export("python", ds.notes_for(rule.features), ds.reading), ns)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False).to_dict("records")
    np.testing.assert_array_equal([ns["predict"](r) for r in raw],
                                  rule.predict(ds.X).astype(bool))


def _recoded_table() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 300
    member = rng.choice(["Yes", "No"], n)
    bought = (member == "Yes") & (rng.random(n) < 0.9)
    income = rng.normal(50000, 10000, n).round()
    income[::13] = -999
    return pd.DataFrame({
        "member": [v.upper() if i % 7 == 0 else v for i, v in enumerate(member)],
        "sat": rng.choice(["Satisfied (A4)", "Neutral (A3)", "Dissatisfied (A2)"], n),
        "income": income, "bought": np.where(bought, "b", "n")})


@pytest.mark.parametrize("typed", [True, False])
def test_the_exported_python_reads_cells_the_app_read_otherwise(typed):
    """'YES' read as 'Yes', a survey's 'Satisfied (A4)' as 'Satisfied', -999 as missing:
    the exported Python read the raw cells as written and said otherwise than the app on
    19, 99 and 24 of these 300 rows (a check of the exports against `rulecore apply`).  It
    reads them as the app did, from a table of text cells or of typed ones."""
    from rulecore.data import from_frame
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    df = _recoded_table()
    ds = from_frame(df if typed else df.astype(str), "bought", typed=typed)
    recoded = dict(ds.reading.recoded)
    assert dict(recoded["member"]) == {"YES": "Yes", "NO": "No"}
    assert dict(recoded["sat"])["Satisfied (A4)"] == "Satisfied"
    assert list(dict(recoded["income"]).values()) == [None]
    order = ("Dissatisfied", "Neutral", "Satisfied")
    for term in (Term("member", "==", "Yes"), Term("sat", ">", "Neutral", order=order),
                 Term("income", "<=", 40000.0), Term("income", "is missing", "numeric")):
        rule = Rule((term,), "and", "bought", "b")
        ns: dict = {}
        exec(rule.export("python", ds.notes_for(rule.features), ds.reading), ns)
        app = rule.predict(ds.X).astype(bool)
        for rows in (df.astype(str).to_dict("records"), df.to_dict("records")):
            got = np.array([ns["predict"](r) for r in rows])
            assert (got == app).all(), (str(term), int((got != app).sum()))


def test_the_exported_python_reads_a_json_objects_field_and_a_log_lines_pair():
    """A rule on 'device.category' (a BigQuery STRUCT) or '_raw.method' (a log line's
    key=value) raised KeyError on every raw row, which holds 'device' or '_raw': the
    export reads the field from its column, as the app did."""
    from rulecore.data import from_frame
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rng = np.random.default_rng(1)
    n = 200
    cat = rng.choice(["mobile", "desktop", "tablet"], n)
    method = rng.choice(["GET", "POST"], n)
    df = pd.DataFrame({
        "device": [json.dumps({"category": c, "os": {"name": "iOS" if i % 2 else "Android"}})
                   for i, c in enumerate(cat)],
        "_raw": [f"t={i} level=info method={m} path=/v1/{i} status={200 + i % 5}"
                 for i, m in enumerate(method)],
        "churned": np.where((cat == "mobile") & (method == "POST"), "yes", "no")})
    ds = from_frame(df, "churned")
    assert {"device.category", "device.os.name", "_raw.method"} <= set(ds.X.columns)
    rule = Rule((Term("device.category", "==", "mobile"), Term("_raw.method", "==", "POST"),
                 Term("device.os.name", "!=", "Windows")), "and", "churned", "yes")
    ns: dict = {}
    exec(rule.to_python(reading=ds.reading), ns)
    got = np.array([ns["predict"](r) for r in df.to_dict("records")])
    np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
    assert got.sum() == ((cat == "mobile") & (method == "POST")).sum() > 0


def _dates_written(way: str, d: pd.DatetimeIndex):
    return {"German": d.strftime("%d.%m.%Y %H:%M"), "US": d.strftime("%m/%d/%Y %I:%M %p"),
            "ISO with Z": d.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "ISO with offset": d.strftime("%Y-%m-%dT%H:%M:%S+02:00"),
            "Strava": d.strftime("%b %d, %Y, %I:%M:%S %p"),
            "slashes and a zone": d.strftime("%Y/%m/%d %H:%M:%S") + " GMT+1",
            "two formats": [x.strftime("%Y-%m-%d %H:%M") if i % 3 else
                            x.strftime("%m/%d/%Y %H:%M") for i, x in enumerate(d)],
            "ISO weeks": d.strftime("%G-W%V"), "YYYYMMDD": d.strftime("%Y%m%d").astype(int),
            "Excel's day numbers": (d - pd.Timestamp("1899-12-30")).total_seconds() / 86400,
            "Unix seconds": (d - pd.Timestamp("1970-01-01")).total_seconds(),
            "Windows file times": ((d - pd.Timestamp("1970-01-01")).total_seconds()
                                   * 10**7).astype("int64") + 116_444_736_000_000_000}[way]


@pytest.mark.parametrize("way", ["German", "US", "ISO with Z", "ISO with offset", "Strava",
                                 "slashes and a zone", "two formats", "ISO weeks", "YYYYMMDD",
                                 "Excel's day numbers", "Unix seconds",
                                 "Windows file times"])
def test_the_exported_python_reads_the_dates_as_the_app_did(way):
    """A rule on a date's month, hour or weekday raised ValueError on every raw row whose
    date was not ISO 8601 (a German claims table's '01.03.2024', Strava's 'Jan 5, 2023,
    7:00:00 PM', a spreadsheet's day numbers: 25 of the strangers' files).  The export now
    reads them with the formats the app read the column with, typed or as text."""
    from rulecore.data import from_frame
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rng = np.random.default_rng(0)
    n = 200
    d = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 700, n), "D") + \
        pd.to_timedelta(rng.integers(0, 24, n), "h")
    col = {"Unix seconds": "posted_at", "Windows file times": "lastLogon"}.get(way, "posted")
    df = pd.DataFrame({col: _dates_written(way, d), "x": rng.normal(size=n),
                       "y": np.where(d.month > 6, "a", "b")})
    for typed in (True, False):
        ds = from_frame(df if typed else df.astype(str), "y", typed=typed)
        parts = [f for f in ds.X.columns if f.startswith(f"{col} (")]
        assert f"{col} (month)" in parts
        for f in parts:
            cut = {"year": 2022.5, "month": 6.5, "hour": 11.5}.get(f[len(col) + 2:-1])
            term = Term(f, "==", "Sat") if cut is None else Term(f, ">", cut)
            _exported_python_agrees(Rule((term,), "and", "y", "a"), ds, df, col)


def _exported_python_agrees(rule, ds, df: pd.DataFrame, col: str) -> np.ndarray:
    """The rule's exported Python gives every raw row of ``df`` (typed, and as text) the
    app's answer, and refuses a date in ``col`` written otherwise, never a silent "no"; the
    app's answers."""
    ns: dict = {}
    exec(rule.to_python(reading=ds.reading), ns)
    app = rule.predict(ds.X).astype(bool)
    assert 0 < app.sum() < len(df)
    for rows in (df.to_dict("records"), df.astype(str).to_dict("records")):
        got = np.array([ns["predict"](r) for r in rows])
        assert (got == app).all(), (rule, int((got != app).sum()))
    with pytest.raises(ValueError, match=r"cannot be read here as the rule read it "
                       r".*rulecore apply"):
        ns["predict"]({col: "sometime in May", "x": 0.0})
    return app


@pytest.mark.parametrize("iso", [False, True])
def test_the_exported_python_reads_partial_dates_as_the_app_did(iso):
    """FAERS' 20220314, 202203 and 2022 (or ISO's 2022-03-14, 2022-03, 2022): the year of
    each, the month where given and the weekday of a whole date, as the app reads them; a
    month of a year alone is missing, not January."""
    from rulecore.data import from_frame
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rng = np.random.default_rng(5)
    n = 240
    d = pd.Timestamp("2021-01-01") + pd.to_timedelta(rng.integers(0, 900, n), "D")
    given = rng.choice(["%Y%m%d", "%Y%m", "%Y"], n, p=[0.6, 0.25, 0.15])
    cells = [x.strftime(f.replace("%m", "-%m").replace("%d", "-%d") if iso else f)
             for x, f in zip(d, given)]
    df = pd.DataFrame({"event_dt": cells if iso else [int(c) for c in cells],
                       "x": rng.normal(size=n), "y": np.where(d.month > 6, "a", "b")})
    ds = from_frame(df, "y", include=["event_dt"])
    for term in (Term("event_dt (year)", ">", 2021.5), Term("event_dt (month)", ">", 6.5),
                 Term("event_dt (month)", "<=", 1.5), Term("event_dt (weekday)", "==", "Sat")):
        app = _exported_python_agrees(Rule((term,), "and", "y", "a"), ds, df, "event_dt")
    # no weekday without the day, no January for a year alone
    assert not app[given != "%Y%m%d"].any()
    jan = Rule((Term("event_dt (month)", "<=", 1.5),), "and", "y", "a")
    assert not jan.predict(ds.X).astype(bool)[given == "%Y"].any()


def test_excels_day_numbers_keep_their_hour():
    """7:00 is 0.291666… of a day, which pandas' nanoseconds read as 6:59:59.999999999:
    the app said hour 6 of six rows in 200 written at 7:00 (the exported Python said 7)."""
    from rulecore.roles import parse_dates

    serial = pd.Series([45000 + 7 / 24, 45001 + 13 / 24, 45002.5, 45003 + 23 / 24,
                        45004 + 1 / 24], name="posted")
    assert parse_dates(serial).dt.hour.tolist() == [7, 13, 12, 23, 1]


def test_the_exported_python_reads_numbers_written_with_units_words_and_times():
    """'72 kg' beside '158 lb', '£399,000' beside 'Offers over £450,000', '1.2k', '6.00 t/ha'
    beside '8,091 kg/ha', '52:33' beside '1:02:33', '5:12 /km', the WHO's '23.4 [19.8-28.1]':
    the app reads them as
    numbers, and the exported Python refused every such row (ValueError naming `rulecore
    apply`).  It reads them with each text's factor, as the app did; a cell written
    otherwise ('11 stone') is still refused, never read as missing."""
    from rulecore.data import from_frame
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rng = np.random.default_rng(3)
    n = 300
    kg = rng.uniform(50, 110, n).round(1)
    price = rng.integers(200, 900, n) * 1000
    yld = rng.uniform(2000, 9000, n).round()
    secs = rng.integers(1200, 7000, n)
    pace = rng.integers(240, 400, n)
    df = pd.DataFrame({
        "weight": [f"{w} kg" if i % 3 else f"{w / 0.45359237:.1f} lb" for i, w in enumerate(kg)],
        "price": [f"£{p:,}" if i % 4 else f"Offers over £{p:,}" for i, p in enumerate(price)],
        "followers": [f"{p / 1000:.1f}k" for p in price],
        "yield": [f"{y / 1000:.2f} t/ha" if i % 2 else f"{y:,.0f} kg/ha"
                  for i, y in enumerate(yld)],
        "time": [f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else
                 f"{s // 60}:{s % 60:02d}" for s in secs],
        "pace": [f"{p // 60}:{p % 60:02d} /km" for p in pace],
        "rate": [f"{r:.1f} [{r - 2.1:.1f}-{r + 3.4:.1f}]" for r in kg / 3],
        "y": np.where(kg > 80, "a", "b")})
    ds = from_frame(df, "y", typed=False)  # text cells, as a file gives them
    units = dict(ds.reading.units)
    assert set(units) == {"weight", "price", "followers", "yield", "time", "pace", "rate"}
    assert dict(((a, b), f) for a, b, _, f in units["yield"])[("", "t/ha")] == 1000.0
    rows = df.to_dict("records")
    for col in units:
        x = ds.X[col].astype(float)
        rule = Rule((Term(col, ">", float(x.median())),), "and", "y", "a")
        ns: dict = {}
        exec(rule.export("python", ds.notes_for(rule.features), ds.reading), ns)
        got = np.array([ns["predict"](r) for r in rows])
        np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool), err_msg=col)
    rule = Rule((Term("weight", ">", 80.0),), "and", "y", "a")
    ns = {}
    exec(rule.to_python(reading=ds.reading), ns)
    with pytest.raises(ValueError, match="rulecore apply"):
        ns["predict"]({"weight": "11 stone"})


def test_the_exports_arguments_before_reading_still_work_with_a_warning():
    """export(fmt, notes, decimal_comma=...) and to_python(decimal_comma=...) became one
    Reading with no warning (a review): the old arguments still give the same code, with a
    DeprecationWarning; a wrong one is refused."""
    rule = Rule((Term("Preis", ">", 149.0),), "and", "buy", "yes")
    new = rule.export("python", (), Reading(decimal_comma=("Preis",)))
    with pytest.warns(DeprecationWarning, match="reading=Dataset.reading"):
        assert rule.export("python", (), decimal_comma=["Preis"]) == new
    with pytest.warns(DeprecationWarning):
        assert rule.export("python", (), ["Preis"]) == new  # the columns in its place
    for columns in (pd.Index(["Preis"]), {"Preis": 1}.keys(), (c for c in ["Preis"])):
        with pytest.warns(DeprecationWarning):  # any iterable of names, as before
            assert rule.export("python", (), columns) == new
    with pytest.warns(DeprecationWarning):
        assert rule.to_python(decimal_comma=("Preis",)) == rule.to_python(
            reading=Reading(decimal_comma=("Preis",)))
    with pytest.warns(DeprecationWarning):
        RuleSet((rule,)).to_python(ticks=("Preis",))
    with pytest.raises(TypeError, match="commas"):
        rule.to_python(commas=("Preis",))
    with pytest.raises(DataError, match="not both"):
        rule.to_python(reading=Reading(), ticks=("Preis",))
    # a Dataset given for its reading is what was meant (a bare TypeError, a review); any
    # other object is refused in words
    from rulecore.data import from_frame

    ds = from_frame(pd.DataFrame({"Preis": [f"{k % 9},5" for k in range(40)],
                                  "buy": ["yes", "no"] * 20}), "buy")
    assert rule.to_python(reading=ds) == rule.to_python(reading=ds.reading)
    with pytest.raises(DataError, match="must be a rulecore.data.Reading"):
        rule.export("python", (), reading=42)
    assert rule.to_sql(ds) == rule.to_sql(ds.reading)
    with pytest.raises(DataError, match="must be a rulecore.data.Reading"):
        rule.export("sql", (), reading=42)
    with pytest.raises(DataError, match="must be a rulecore.data.Reading"):
        rule.to_sql(42)


def test_the_exported_sql_reads_cells_the_app_read_otherwise():
    """The SQL run on the raw table counted -999 among the lowest incomes and 'YES' as no
    member (the notes said to read them first): with the table's reading, its conditions
    list the cells the app read as each level, and leave out those it read as missing."""
    from rulecore.data import from_frame

    df = _recoded_table()
    ds = from_frame(df, "bought")
    order = ("Dissatisfied", "Neutral", "Satisfied")
    for term in (Term("member", "==", "Yes"), Term("member", "!=", "No"),
                 Term("sat", ">", "Neutral", order=order),
                 Term("sat", "is missing", "Neutral", order=order),
                 Term("income", "<=", 40000.0), Term("income", ">", 40000.0),
                 Term("income", "is missing", "numeric"),
                 Term("income", "is not missing", "numeric")):
        rule = Rule((term,), "and", "bought", "b")
        app = rule.predict(ds.X)
        sql = rule.export("sql", ds.notes_for(rule.features), ds.reading)
        np.testing.assert_array_equal(run_sql(sql.split("*/\n")[-1], df), app,
                                      err_msg=str(term))
    plain = Rule((Term("income", "<=", 40000.0),), "and", "bought", "b").to_sql()
    assert run_sql(plain, df).sum() > Rule((Term("income", "<=", 40000.0),), "and", "bought",
                                           "b").predict(ds.X).sum()


def test_a_unit_factor_is_told_from_present_cells_only():
    """A missing cell's code (-1) indexed the last distinct cell's row: a row filled in from
    its record (a value where the cell was empty) could give that cell's unit its factor."""
    from rulecore.data import _unit_factors

    given = pd.DataFrame({"w": [None, "72 kg", "80 kg", "90 lb"]})
    X = pd.DataFrame({"w": [500.0, 72.0, 80.0, 40.823]})  # the first row filled in
    (col, said), = _unit_factors(given, np.arange(4), X, ["w"], [])
    factors = {(a, b): f for a, b, _, f in said}
    assert col == "w" and factors[("", "kg")] == 1.0
    assert factors[("", "lb")] == pytest.approx(0.45359, rel=1e-4)


def test_a_date_whose_year_no_date_has_is_missing_to_the_export_too():
    """'9999-12-31' (an open-ended record) and '2250-01-01' are read as missing by the app,
    whose dates lie in 1800 to 2200; the exported Python read them as years 9999 and 2250,
    so 'valid_to (year) > 2019' held for them (a review)."""
    from rulecore.data import from_frame

    rng = np.random.default_rng(0)
    d = pd.Timestamp("2015-01-01") + pd.to_timedelta(rng.integers(0, 3000, 200), "D")
    ends = pd.Series(d.strftime("%Y-%m-%d"))
    ends[::40] = "9999-12-31"
    ends[5::100] = "2250-01-01"
    df = pd.DataFrame({"valid_to": ends, "x": rng.normal(size=200).round(3).astype(str),
                       "y": np.where(d.year > 2018, "a", "b")})
    ds = from_frame(df, "y", typed=False)
    for term in (Term("valid_to (year)", ">", 2019.0),
                 Term("valid_to (year)", "is missing", "numeric")):
        rule = Rule((term,), "and", "y", "a")
        ns: dict = {}
        exec(rule.to_python(reading=ds.reading), ns)
        got = np.array([ns["predict"](r) for r in df.to_dict("records")])
        np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool), err_msg=str(term))


def test_a_cell_inf_read_as_missing_writes_no_name_error():
    """'inf' among numbers, read as missing, was written into the export as READ = {inf:
    None}: every row raised NameError (a review)."""
    from rulecore.data import from_frame

    rng = np.random.default_rng(0)
    ratio = rng.normal(size=200).round(3).astype(str)
    ratio[::25] = "inf"
    df = pd.DataFrame({"ratio": ratio, "y": np.where(rng.random(200) < 0.5, "a", "b")})
    ds = from_frame(df, "y", typed=False)
    rule = Rule((Term("ratio", ">", 0.0),), "and", "y", "a")
    ns: dict = {}
    exec(rule.to_python(reading=ds.reading), ns)
    [ns["predict"](r) for r in df.to_dict("records")]  # no NameError
    assert "inf" not in rule.to_sql(ds.reading)


@pytest.mark.parametrize("column", ["CT", "victim_age"])
def test_undetermined_is_read_by_the_export_as_by_the_app(column, tmp_path):
    """'Undetermined' is above every value in a qPCR's CT and missing in a victim's age (a
    review's regression); the exported Python gives each raw row `rulecore apply`'s answer
    in both."""
    from rulecore.data import load_csv, read_csv_frame
    from rulecore.rules.estimators import BooleanRuleClassifier
    from rulecore.scoring import apply_rule, load_rule

    rng = np.random.default_rng(0)
    n = 300
    v = rng.uniform(15, 40, n).round(2)
    cells = [f"{x}" if x < 36 else "Undetermined" for x in v] if column == "CT" else \
        [f"{x}" if k % 20 else "Undetermined" for k, x in enumerate(v)]
    df = pd.DataFrame({column: cells, "batch": rng.choice(["a", "b"], n),
                       "y": np.where(v > 30, "pos", "neg")})
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    ds = load_csv(path, target="y")
    rule = BooleanRuleClassifier(lam=5.0, time_limit=30).fit(ds.X, ds.y_binary).rule_
    rule = rule.relabel(ds.target, ds.positive)
    assert column in rule.features
    frame, _ = read_csv_frame(path)
    scored = apply_rule(load_rule(rule.to_json()), frame, typed=False)
    ns: dict = {}
    exec(rule.export("python", ds.notes_for(rule.features), ds.reading), ns)
    rows = frame.astype(object).where(frame.notna(), None).to_dict("records")
    assert [bool(ns["predict"](r)) for r in rows] == [bool(f) for f in scored.fires]


def _export_against_apply(path, ds, rules) -> list[str]:
    """Each rule's exported Python on the raw rows of ``path`` (csv.DictReader) against
    `rulecore apply`: the rules with rows that differ or are refused."""
    import csv as csv_module

    from rulecore.data import read_csv_frame
    from rulecore.scoring import apply_rule, load_rule

    frame, _ = read_csv_frame(path)
    with open(path, newline="") as f:
        rows = list(csv_module.DictReader(f))
    bad = []
    for rule in rules:
        scored = apply_rule(load_rule(rule.to_json()), frame, typed=False)
        ns: dict = {}
        exec(rule.export("python", ds.notes_for(rule.features), ds.reading), ns)
        got = [bool(ns["predict"](r)) for r in rows]
        if got != [bool(f) for f in scored.fires]:
            bad.append(f"{rule}: {sum(a != b for a, b in zip(got, scored.fires))} rows")
    return bad


def test_the_export_reads_excel_times_race_times_and_inf_as_the_app(tmp_path):
    """A review of the exports, each against `rulecore apply` on the raw rows: Excel's day
    numbers written to 15 digits (45292.7083333333, 17:00) were 16:59:59.999997 to the
    export, hour 16 for 10 of 240 rows; '0:53:22' was 3201.9999999999995 s, so a threshold
    typed at a value disagreed; 'inf' was missing to the app and infinity to the export."""
    from rulecore.data import load_csv

    rng = np.random.default_rng(3)
    n = 240
    hour = rng.integers(7, 22, n)
    serial = rng.integers(45292, 45500, n) + (hour * 60 + rng.choice([0, 30], n)) / 1440
    pd.DataFrame({"booked_at": [f"{s:.15g}" for s in serial],
                  "amount": rng.integers(10, 200, n),
                  "no_show": np.where(hour >= 14, "yes", "no")}).to_csv(
        tmp_path / "bookings.csv", index=False)
    ds = load_csv(tmp_path / "bookings.csv", target="no_show")
    rules = [Rule((Term("booked_at (hour)", ">", h + 0.5),), "and", "no_show", "yes")
             for h in (13, 16, 19)]
    assert _export_against_apply(tmp_path / "bookings.csv", ds, rules) == []

    secs = rng.integers(1500, 4500, n)
    finish = [f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else
              f"{s // 60}:{s % 60:02d}" for s in secs]
    pd.DataFrame({"finish": finish, "age": rng.integers(18, 70, n),
                  "podium": np.where(secs < 2200, "yes", "no")}).to_csv(
        tmp_path / "race.csv", index=False)
    ds = load_csv(tmp_path / "race.csv", target="podium")
    assert dict(ds.reading.units).get("finish")
    rules = [Rule((Term("finish", "<=", float(s)),), "and", "podium", "yes")
             for s in sorted(set(secs))[::7]]
    assert _export_against_apply(tmp_path / "race.csv", ds, rules) == []

    ratio = rng.uniform(0, 10, 400).round(3).astype(str).astype(object)
    ratio[::20] = "inf"
    ratio[1::20] = "-Infinity"
    pd.DataFrame({"ratio": ratio, "y": rng.choice(["a", "b"], 400)}).to_csv(
        tmp_path / "ratio.csv", index=False)
    ds = load_csv(tmp_path / "ratio.csv", target="y")
    rules = [Rule((Term("ratio", ">", 5.5),), "and", "y", "b"),
             Rule((Term("ratio", "<=", 3.0),), "and", "y", "b")]
    assert _export_against_apply(tmp_path / "ratio.csv", ds, rules) == []


def test_codes_read_as_missing_reach_the_export_in_typed_and_json_columns(tmp_path):
    """A review of the exports against `rulecore apply`: a typed table's survey answers read
    as levels (BRFSS's GENHLTH 1 and 2, 7 and 9 read as missing) gave the export no word of
    the codes, 70 of 400 rows another answer; a JSON field of 160 numbers read as levels
    counted each as recoded ('150' from 150), passed MAX_RECODED, and lost its code 999."""
    import csv as csv_module
    import json as json_module

    from rulecore.data import load_csv, read_csv_frame
    from rulecore.scoring import apply_rule, load_rule

    rng = np.random.default_rng(0)
    n = 400
    q = rng.choice([1, 2, 7, 9], size=n, p=[0.45, 0.41, 0.08, 0.06])
    y = np.where(q == 1, rng.random(n) < 0.85, rng.random(n) < 0.1)
    path = tmp_path / "brfss.parquet"
    pd.DataFrame({"GENHLTH": q, "AGE": rng.integers(18, 80, n),
                  "DIABETE": np.where(y, "Yes", "No")}).to_parquet(path)
    ds = load_csv(path, target="DIABETE")
    assert ds.kinds["GENHLTH"] != "numeric" and ds.X["GENHLTH"].isna().sum() == (q >= 7).sum()
    frame, _ = read_csv_frame(path)
    rows = frame.astype(object).where(frame.notna(), None).to_dict("records")
    for rule in (Rule((Term("GENHLTH", "!=", "2"),), "and", "DIABETE", "Yes"),
                 Rule((Term("GENHLTH", "is missing", "categorical"),), "and", "DIABETE", "Yes")):
        scored = apply_rule(load_rule(rule.to_json()), frame, typed=False)
        ns: dict = {}
        exec(rule.export("python", ds.notes_for(rule.features), ds.reading), ns)
        assert [bool(ns["predict"](r)) for r in rows] == [bool(f) for f in scored.fires]

    zipc = rng.integers(100, 260, 2000).astype(object)
    zipc[rng.random(2000) < 0.1] = 999
    with open(tmp_path / "sessions.csv", "w", newline="") as f:
        w = csv_module.writer(f)
        w.writerow(["session", "converted"])
        for z in zipc:
            w.writerow([json_module.dumps({"device": str(rng.choice(["ios", "web"])), "zip": z}),
                        str(rng.choice(["yes", "no"]))])
    ds = load_csv(tmp_path / "sessions.csv", target="converted")
    assert dict(ds.reading.recoded)["session.zip"] == ((999.0, None),)
    rules = [Rule((Term("session.zip", "!=", "150"),), "and", "converted", "yes"),
             Rule((Term("session.zip", "is missing", "categorical"),), "and", "converted", "yes")]
    assert _export_against_apply(tmp_path / "sessions.csv", ds, rules) == []


def test_a_decimal_comma_inside_a_unit_is_read_as_one(tmp_path):
    """'72,5 kg' beside '158 lb': the number was read 725 and the factor of kg learned as
    0.1, so a later table's '90 kg' was 9.0 to the export (51 of 300 rows another answer
    than `rulecore apply`, a review)."""
    from rulecore.data import load_csv

    rng = np.random.default_rng(1)
    n = 300
    kg = np.round(rng.uniform(50, 110, n), 1)
    lb = rng.random(n) < 0.4
    cells = [f"{round(k / 0.45359237)} lb" if b else f"{k:.1f} kg".replace(".", ",")
             for k, b in zip(kg, lb)]
    pd.DataFrame({"weight": cells, "age": rng.integers(20, 70, n),
                  "sick": np.where(kg > 85, "yes", "no")}).to_csv(tmp_path / "learn.csv",
                                                                  index=False)
    ds = load_csv(tmp_path / "learn.csv", target="sick")
    assert ("", "kg", 1, 1.0) in dict(ds.reading.units)["weight"]
    later = [f"{int(k)} kg" if k % 2 else c for k, c in zip(kg, cells)]
    pd.DataFrame({"weight": later, "age": 30, "sick": "no"}).to_csv(tmp_path / "later.csv",
                                                                    index=False)
    rules = [Rule((Term("weight", ">", 85.0, unit="kg"),), "and", "sick", "yes")]
    assert _export_against_apply(tmp_path / "later.csv", ds, rules) == []


def test_undetermined_in_a_new_table_is_above_every_value_only_in_a_ct():
    """A rule learned without any 'Undetermined' cell, applied to new rows: the export read
    it as above every value in any column (an age of 'Undetermined' held 'age > 60'), the
    app only in a qPCR's CT (a review)."""
    from rulecore.scoring import apply_rule

    for column, held in (("age", False), ("N1 Ct", True)):
        rule = Rule((Term(column, ">", 30.0),), "and", "y", "yes")
        frame = pd.DataFrame({column: ["Undetermined", "70", "20"] * 10})
        ns: dict = {}
        exec(rule.to_python(), ns)
        got = [bool(ns["predict"](r)) for r in frame.to_dict("records")][:3]
        assert got == [held, True, False]
        assert list(apply_rule(rule, frame, typed=False).fires[:3]) == got


def test_json_objects_among_plain_status_messages_are_read_as_fields_in_both():
    """An MQTT log's payload: JSON telemetry, and 4.5 % plain 'online' / 'offline' status
    messages.  The column was left out as an identifier, the signal in 'payload.bat' lost
    (a stranger's Node-RED log); the export reads a plain message as no field, as the app."""
    from rulecore.data import from_frame
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rng = np.random.default_rng(3)
    n = 400
    bat = np.round(rng.uniform(3.2, 4.2, n), 3)
    status = rng.random(n) < 0.05
    df = pd.DataFrame({
        "topic": np.where(status, "gh/dev/status", "gh/dev/telemetry"),
        "payload": [rng.choice(["online", "offline"]) if st else
                    json.dumps({"temp": round(float(rng.normal(20, 2)), 2), "bat": float(b)})
                    for st, b in zip(status, bat)],
        "fault": np.where(~status & (bat < 3.5), "yes", "no")})
    ds = from_frame(df, "fault")
    assert {"payload.temp", "payload.bat"} <= set(ds.X.columns)
    assert ds.X["payload.bat"].isna().sum() == status.sum()
    assert any("that are no JSON object ('" in n for n in ds.notes)
    rule = Rule((Term("payload.bat", "<=", 3.5),), "and", "fault", "yes")
    ns: dict = {}
    exec(rule.to_python(reading=ds.reading), ns)
    got = np.array([ns["predict"](r) for r in df.to_dict("records")])
    np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
    # a column of JSON and other JSON (lists), or of broken objects, stays text
    mixed = df.assign(payload=[p if k % 3 else "[1, 2]" for k, p in enumerate(df.payload)])
    assert "payload.bat" not in from_frame(mixed, "fault").X.columns


def test_a_json_list_of_named_objects_is_options_in_the_app_and_the_export():
    """GitHub's issue labels, [{"name": "bug", "color": ...}], were left out as "a structure
    in each cell" (a stranger's `gh issue list --json` export): options by their names, and
    the exported Python reads them so."""
    from rulecore.data import from_frame
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rng = np.random.default_rng(4)
    n = 300
    names = ["bug", "enhancement", "question", "needs-repro"]
    picked = [list(rng.choice(names, rng.integers(0, 3), replace=False)) for _ in range(n)]
    df = pd.DataFrame({
        "labels": [json.dumps([{"color": "d73a4a", "name": str(p)} for p in ps])
                   for ps in picked],
        "comments": rng.integers(0, 9, n),
        "state": ["OPEN" if "needs-repro" in ps else "CLOSED" for ps in picked]})
    ds = from_frame(df, "state")
    assert {"labels: bug", "labels: needs-repro"} <= set(ds.X.columns)
    rule = Rule((Term("labels: needs-repro", "==", "yes"),), "and", "state", "OPEN")
    ns: dict = {}
    exec(rule.to_python(reading=ds.reading), ns)
    got = np.array([ns["predict"](r) for r in df.to_dict("records")])
    np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
    assert got.sum() == sum("needs-repro" in ps for ps in picked) > 0
    # a user by its login, as gh writes one without a display name ("name": "" or null)
    users = df.assign(labels=[json.dumps([{"login": str(p), "name": "" if k % 2 else None}
                                          for p in ps]) for k, ps in enumerate(picked)])
    by_login = from_frame(users, "state")
    assert "labels: needs-repro" in by_login.X.columns
    ns = {}
    exec(rule.to_python(reading=by_login.reading), ns)
    got = np.array([ns["predict"](r) for r in users.to_dict("records")])
    np.testing.assert_array_equal(got, rule.predict(by_login.X).astype(bool))
    # objects without a name stay a structure
    unnamed = df.assign(labels=[json.dumps([{"color": "d73a4a"}] * len(ps)) for ps in picked])
    assert not any(c.startswith("labels: ") for c in from_frame(unnamed, "state").X.columns)


def test_the_exported_python_reads_a_name_the_file_has_twice_as_pandas_names_it(tmp_path):
    """Strava's 'Distance' twice, read as 'Distance (1)' and 'Distance (2)': a rule on the
    second raised KeyError on rows pandas read from the file, which names them 'Distance'
    and 'Distance.1' (a review)."""
    from rulecore.data import load_csv
    from rulecore.rules.rule import Rule
    from rulecore.rules.terms import Term

    rng = np.random.default_rng(11)
    n = 120
    km = np.round(rng.uniform(3, 40, n), 2)
    path = tmp_path / "activities.csv"
    path.write_text("Activity ID,Distance,Elapsed Time,Distance,Kudos\n" + "".join(
        f"{10_000 + k},{km[k]},{int(km[k] * 300)},{km[k] * 1000:.1f},{k % 30}\n"
        for k in range(n)))
    ds = load_csv(path, target="Kudos", positive="> 15")
    rule = Rule((Term("Distance (2)", ">", 20_000.0), Term("Distance (1)", "<=", 35.0)),
                "and", "Kudos > 15", "yes")
    ns: dict = {}
    exec(rule.to_python(reading=ds.reading), ns)
    rows = pd.read_csv(path).to_dict("records")
    got = np.array([ns["predict"](r) for r in rows])
    np.testing.assert_array_equal(got, rule.predict(ds.X).astype(bool))
    assert 0 < got.sum() < n
