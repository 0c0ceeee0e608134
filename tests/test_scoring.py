"""A saved rule applied to a new table (rulecore.scoring, `rulecore apply`): the table's
columns are read as they were to learn the rule, and what differs is said."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rulecore.cli import main
from rulecore.data import load_csv, read_csv_frame
from rulecore.exceptions import DataError
from rulecore.metrics import binary_metrics
from rulecore.rules.estimators import BooleanRuleClassifier
from rulecore.rules.rule import Rule, RuleList
from rulecore.rules.terms import Term
from rulecore.scoring import apply_rule, load_rule

DATA = Path(__file__).resolve().parent / "data"


def _learned(name: str) -> tuple[Rule, object]:
    ds = load_csv(DATA / name)
    est = BooleanRuleClassifier(lam=1.0, time_limit=30).fit(ds.X, ds.y_binary)
    return est.rule_.relabel(ds.target, ds.positive), ds


@pytest.mark.parametrize("name", ["clinic_values_with_units.csv", "spreadsheet_hand_typed.csv",
                                  "pandas_printed_frame.txt", "lab_values_with_codes.csv"])
def test_a_raw_table_is_predicted_as_the_rule_saw_it(name):
    """'72 kg', '$22,591.21', '<0.5', a printed frame: the raw cells, read again through the
    readers, give every row the prediction the rule gives the table it was learned on."""
    rule, ds = _learned(name)
    rule = load_rule(rule.to_json())
    frame, _ = read_csv_frame(DATA / name)
    scored = apply_rule(rule, frame, typed=False)
    assert len(scored.prediction) == len(frame) == ds.n_samples
    learned = rule.predict(ds.X).astype(bool)
    assert np.array_equal(scored.fires, learned)
    # the raw cells alone would not do for a rule on numbers typed with units
    if name == "clinic_values_with_units.csv":
        with pytest.raises(AssertionError):
            assert np.array_equal(rule.predict(frame).astype(bool), learned)
    # the target's column is there: the accuracy, as counted on the labels
    m = binary_metrics((ds.y.astype(str) == str(ds.positive)).astype(int).to_numpy(),
                       learned.astype(int))
    assert scored.metrics["accuracy"] == pytest.approx(m["accuracy"])
    assert scored.metrics["majority"] == pytest.approx(m["majority"])
    assert set(scored.prediction) <= {str(c) for c in ds.classes}


def test_a_row_or_two_are_read_as_their_column_is():
    """One patient typed '38.5 °C': a column's way of writing is told from five cells or
    more, so one row was refused as 'not numbers'."""
    rule = Rule((Term("temperature", ">", 37.95), Term("symptoms_for", ">", 2.5)), "and",
                "admitted", "yes")
    one = pd.DataFrame({"temperature": ["38.5 °C"], "symptoms_for": ["4 days"]})
    scored = apply_rule(rule, one, typed=False)
    assert scored.fires.tolist() == [True] and scored.X.iloc[0].tolist() == [38.5, 4.0]
    assert scored.prediction.tolist() == ["yes"] and scored.warnings == []


def test_a_column_the_rule_reads_must_be_there():
    rule = Rule((Term("ship_city", "==", "Fresno"),), "and", "late", True)
    frame = pd.DataFrame({"Ship City": ["Fresno", "Oakland"] * 10, "x": range(20)})
    with pytest.raises(DataError, match=r"lacks the column 'ship_city' \(the table has "
                                        r"'Ship City'\)"):
        apply_rule(rule, frame)


def test_what_differs_from_the_learning_table_is_said():
    """A level written otherwise ('H' for 'High'), a column empty in this batch, a rule that
    holds for no row: each would give every row the same answer without a word."""
    rule = Rule((Term("triage", "==", "High"), Term("age", ">", 60.0)), "and", "admit", "yes")
    frame = pd.DataFrame({"triage": ["H", "L", "M"] * 10, "age": [70, 50, 80] * 10})
    scored = apply_rule(rule, frame)
    said = " ".join(scored.warnings)
    assert "'triage' never holds 'High' in this table (it holds 'H', 'L', 'M')" in said
    assert "holds for no row" in said and not scored.fires.any()
    frame["age"] = np.nan
    said = " ".join(apply_rule(rule, frame).warnings)
    assert "'age' is missing in every row" in said


def test_the_other_class_and_the_labels_of_a_rule_list():
    rule = Rule((Term("x", ">", 5.0),), "and", "y", "hi")
    frame = pd.DataFrame({"x": np.arange(30), "y": ["lo"] * 6 + ["hi"] * 24})
    scored = apply_rule(rule, frame)
    assert scored.prediction.iloc[0] == "lo" and scored.prediction.iloc[-1] == "hi"
    assert scored.metrics["accuracy"] == 1.0 and scored.metrics["majority"] == 0.8
    assert apply_rule(rule, frame.drop(columns="y")).prediction.iloc[0] == "not hi"
    listed = RuleList((Rule((Term("x", "<=", 9.5),), "and", "y", "low"),
                       Rule((Term("x", "<=", 19.5),), "and", "y", "mid")), "high", "y")
    scored = apply_rule(listed, frame.drop(columns="y"))
    assert scored.prediction.tolist() == ["low"] * 10 + ["mid"] * 10 + ["high"] * 10
    assert scored.parts["rows"].tolist() == [10, 20]


def test_a_class_written_with_a_full_stop_is_the_rules_class():
    """UCI Adult's test file writes '>50K.' where the training file wrote '>50K': applied
    to it, the rule reported precision 0 % and "always the most frequent class: 100 %" (a
    stranger's check).  Labels that differ only so are the rule's, with a note."""
    rule = Rule((Term("x", ">", 5.0),), "and", "income", ">50K", negative="<=50K")
    frame = pd.DataFrame({"x": np.arange(30), "income": ["<=50K."] * 6 + [">50K."] * 24})
    scored = apply_rule(rule, frame)
    assert scored.metrics["accuracy"] == 1.0 and scored.metrics["precision"] == 1.0
    assert scored.metrics["majority"] == 0.8
    assert any("'<=50K.' as '<=50K', '>50K.' as '>50K'" in n for n in scored.notes)
    assert not any("No row of" in w for w in scored.warnings)
    listed = RuleList((Rule((Term("x", "<=", 9.5),), "and", "y", "low"),), "high", "y")
    frame = pd.DataFrame({"x": np.arange(20), "y": ["Low"] * 10 + ["HIGH "] * 10})
    assert apply_rule(listed, frame).metrics["accuracy"] == 1.0
    # labels the rule does not have stay as they are
    other = pd.DataFrame({"x": np.arange(30), "income": ["no"] * 6 + ["yes"] * 24})
    assert not any("written otherwise" in n for n in apply_rule(rule, other).notes)


@pytest.mark.parametrize("model", ["single rule", "set covering"])
def test_a_fitted_rule_applied_without_the_target_names_the_other_class(model):
    """A stranger's review: on a table without the target column the prediction read
    "not Yes" beside "Yes"; the rule learned on Yes/No says "No" (kept in its JSON)."""
    from rulecore import RuleSettings
    from rulecore.data import from_frame
    from rulecore.fit import fit_on_split
    from rulecore.scoring import load_rule

    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    frame = pd.DataFrame({"x": x, "churned": np.where(x > 0.5, "Yes", "No")})
    ds = from_frame(frame, target="churned", positive="Yes")
    rule = fit_on_split(RuleSettings(model=model, lam=5.0), ds, 0.25, 0).model.rule_
    saved = load_rule(rule.to_json())
    assert saved.negative == "No" and saved == rule
    predicted = apply_rule(saved, frame.drop(columns="churned")).prediction
    assert set(predicted) == {"Yes", "No"}
    assert (predicted == frame["churned"]).mean() > 0.9


def test_a_date_features_column_is_read_from_its_date():
    rule = Rule((Term("shipped (month)", ">", 6.0),), "and", "late", True)
    frame = pd.DataFrame({"shipped": [f"2025-{m:02d}-15" for m in range(1, 13)] * 3})
    scored = apply_rule(rule, frame, typed=False)
    assert scored.fires.tolist() == [m > 6 for m in range(1, 13)] * 3


@pytest.mark.parametrize("text,match", [
    ("not json", "not a rule in JSON form"),
    ("[1, 2]", "holds no rule"),
    ('{"a": 1}', "holds no rule"),
])
def test_a_file_that_is_no_rule_is_refused(text, match):
    with pytest.raises(DataError, match=match):
        load_rule(text)


def test_the_command_applies_a_learned_rule_and_writes_the_table(tmp_path, capsys):
    table = DATA / "clinic_values_with_units.csv"
    saved, result = tmp_path / "rule.json", tmp_path / "result.json"
    assert main(["learn", str(table), "--export", "json", "-o", str(saved),
                 "--json", str(result)]) == 0
    capsys.readouterr()
    out = tmp_path / "scored.csv"
    assert main(["apply", str(saved), str(table), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "against the table's admitted: accuracy" in said and "wrote the table" in said
    scored = pd.read_csv(out, dtype=str)
    assert list(scored.columns)[-1] == "predicted admitted"
    assert scored["weight"].iloc[0].endswith("kg")  # the table as it was, cells untouched
    # the whole result of learn --json is read too, with the same predictions
    out2 = tmp_path / "scored2.csv"
    assert main(["apply", str(result), str(table), "-o", str(out2)]) == 0
    assert pd.read_csv(out2, dtype=str).equals(scored)
    assert json.loads(saved.read_text())["target"] == "admitted"
    # a table without a column the rule reads: exit 2 and one line saying which
    missing = tmp_path / "missing.csv"
    pd.read_csv(table, dtype=str).drop(columns="temperature").to_csv(missing, index=False)
    capsys.readouterr()
    assert main(["apply", str(saved), str(missing)]) == 2
    assert "lacks the column 'temperature'" in capsys.readouterr().err


def test_the_command_refuses_a_rule_file_it_cannot_read(tmp_path, capsys):
    assert main(["apply", str(tmp_path / "nope.json"), str(DATA / "fish_continuous_last.csv")
                 ]) == 2
    assert "Cannot read the rule" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_bytes(io.BytesIO(b"\xff\xfe\x00garbage").getvalue())
    assert main(["apply", str(bad), str(DATA / "fish_continuous_last.csv")]) == 2


def test_a_01_target_an_empty_rule_and_a_malformed_file():
    """A review: every 0/1 target raised numpy's DTypePromotionError, an empty rule set a
    KeyError, and a hand-edited threshold 'abc' a ValueError, each a traceback."""
    frame = pd.DataFrame({"x": np.arange(30), "y": [0] * 10 + [1] * 20})
    scored = apply_rule(Rule((Term("x", ">", 9.5),), "and", "y", 1), frame)
    assert scored.prediction.tolist() == [0] * 10 + [1] * 20
    assert scored.metrics["accuracy"] == 1.0
    from rulecore.rules.rule import RuleSet

    empty = apply_rule(RuleSet((), None, "y", 1), frame)
    assert not empty.fires.any() and empty.metrics["rows"] == 30
    bad = Rule((Term("x", ">", 1.0),), "and", "y", 1).to_dict()
    bad["conditions"][0]["value"] = "abc"
    with pytest.raises(DataError, match="malformed"):
        load_rule(json.dumps(bad))


def test_one_survey_response_on_the_rules_scale():
    """One response of 'Disagree' was refused: the rule's order, handed to the reader,
    named fewer than three of the column's levels (a review).  Answers written otherwise
    than the scale ('agree') are pointed out."""
    order = ("Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree")
    rule = Rule((Term("workload", "<=", "Disagree", order=order),), "and", "left", "Yes")
    one = pd.DataFrame({"workload": ["Disagree"]})
    assert apply_rule(rule, one, typed=False).fires.tolist() == [True]
    lower = pd.DataFrame({"workload": ["disagree", "agree", "neutral"] * 10})
    said = " ".join(apply_rule(rule, lower, typed=False).warnings)
    assert "No answer in 'workload' is on the rule's scale" in said


def test_a_rule_learned_on_an_spss_file_applies_to_it_with_each_note_once(tmp_path, capsys):
    """SPSS value labels read the same way for the rule as for learning (smoker == Yes
    fires on the coded file), and a note about a rule column is printed once, not again from
    the rule's own reading of that column."""
    saved, scored = tmp_path / "rule.json", tmp_path / "scored.csv"
    sav = DATA / "health_survey_spss.sav"
    assert main(["learn", str(sav), "--export", "json", "--output", str(saved),
                 "--time-limit", "10"]) == 0
    capsys.readouterr()
    assert main(["apply", str(saved), str(sav), "-o", str(scored)]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("note:")]
    assert len(lines) == len(set(lines)) and any("'smoker': SPSS value labels" in ln
                                                 for ln in lines)
    out = pd.read_csv(scored)
    assert set(out["smoker"]) == {"Yes", "No"} and (out["predicted stroke"] == "Yes").any()
    hits = out["predicted stroke"] == "Yes"
    assert (out.loc[hits, "smoker"] == "Yes").all()


def test_the_command_writes_a_semicolon_table_back_with_semicolons(tmp_path, capsys):
    """A ';'-separated export with decimal commas, scored and written back with ',': a German
    Excel opened it as one column (a stranger's review).  The input's delimiter is kept."""
    rng = np.random.default_rng(2)
    n = 120
    balance = rng.uniform(0, 3000, n)
    frame = pd.DataFrame({"churned": np.where(balance < 500, "TRUE", "FALSE"),
                          "balance_eur": [f"{v:.2f}".replace(".", ",") for v in balance],
                          "region": rng.choice(["Nord", "Süd"], n)})
    table = tmp_path / "export.csv"
    frame.to_csv(table, sep=";", index=False)
    saved = tmp_path / "rule.json"
    assert main(["learn", str(table), "--export", "json", "-o", str(saved)]) == 0
    out = tmp_path / "scored.csv"
    assert main(["apply", str(saved), str(table), "-o", str(out)]) == 0
    capsys.readouterr()
    head = out.read_text(encoding="utf-8").splitlines()[0]
    assert head == "churned;balance_eur;region;predicted churned"
    scored = pd.read_csv(out, sep=";", dtype=str)
    assert scored["balance_eur"].str.contains(",").all()  # the cells as they were


def test_a_threshold_in_one_unit_against_a_column_written_in_another_is_warned_of():
    """'weight > 82.2 kg' applied to weights written in lb held for every row, with no word
    of the unit (a review); in kg it is read as learned."""
    rule = Rule((Term("weight", ">", 82.2, unit="kg"),), "and", "y", "yes")
    lb = pd.DataFrame({"weight": [f"{w} lb" for w in range(120, 260, 5)]})
    said = apply_rule(rule, lb, typed=False).warnings
    assert said[0] == ("'weight' is written in lb here, and the rule compares it in kg "
                       "('weight > 82.2 kg'): convert the column to kg before applying the "
                       "rule.")
    kg = pd.DataFrame({"weight": [f"{w} kg" for w in range(50, 110, 2)]})
    scored = apply_rule(rule, kg, typed=False)
    assert not scored.warnings and scored.fires.sum() == int((np.arange(50, 110, 2) > 82.2).sum())
    # JSON keeps the unit, so a saved rule is checked too
    assert load_rule(rule.to_json()).conditions[0].unit == "kg"
    # the same unit written otherwise is no other unit (a review's false warning)
    capitals = pd.DataFrame({"weight": [f"{w} KG" for w in range(50, 110, 2)]})
    assert not apply_rule(rule, capitals, typed=False).warnings


def test_one_patients_row_above_the_assays_range_is_scored():
    """A row whose only troponin is '>ULOQ' was refused, naming an internal column (a
    review): it is above every value, and fires."""
    rule = Rule((Term("trop", ">", 44.65),), "and", "MI", "yes")
    scored = apply_rule(rule, pd.DataFrame({"trop": [">ULOQ"]}), typed=False)
    assert scored.fires.tolist() == [True]
    assert apply_rule(rule, pd.DataFrame({"trop": ["<LOD"]}), typed=False).fires.tolist() == \
        [False]


def test_a_frequency_tables_rows_are_scored_one_by_one():
    """A frequency table (a 'count' of records per row) is expanded to one row per record
    to learn from; `rulecore apply` expanded it too and scored the first 96 records as the
    96 rows, so 'smoker == yes' 'held for no row' of a table where half the rows say yes."""
    frame, _ = read_csv_frame(DATA / "frequency_table_counts.csv")
    rule = Rule((Term("age_group", ">", "40-59", order=("18-39", "40-59", "60+")),
                 Term("smoker", "==", "yes")), "and", "copd", "yes")
    scored = apply_rule(load_rule(rule.to_json()), frame, typed=False)
    expected = (frame["age_group"] == "60+") & (frame["smoker"] == "yes")
    assert expected.sum() == 16
    np.testing.assert_array_equal(scored.fires, expected.to_numpy())
    assert not any("never holds" in w or "holds for no row" in w for w in scored.warnings)


def test_a_subtotal_row_in_a_table_to_score_is_scored_not_dropped():
    """Learning leaves a report's subtotal rows out; `rulecore apply` scores every row it is
    given, and a table with one ('Total for Cool Cars') was refused as read "51 rows of 52"
    (a review)."""
    rows = pd.DataFrame({"who": [f"c{k}" for k in range(50)] + ["Total for Cool Cars"],
                         "amount": [str(k) for k in range(50)] + ["1225"],
                         "note": ["a"] * 50 + [None], "other": ["b"] * 50 + [None]})
    rule = Rule((Term("amount", ">", 20.5),), "and", "big", "yes")
    scored = apply_rule(load_rule(rule.to_json()), rows, typed=False)
    assert len(scored.prediction) == 51 and scored.fires[-1]


def test_a_target_of_one_value_or_blank_is_scored_on_every_row():
    """A target 'Price cut' or blank was learned with its blanks as 'not Price cut', and
    `apply` counted only the named rows in its metrics: accuracy was the rule's recall (a
    review)."""
    rng = np.random.default_rng(0)
    n = 300
    days = rng.integers(1, 120, n)
    df = pd.DataFrame({"days_listed": days, "rooms": rng.integers(1, 6, n),
                       "status": np.where(days > 60, "Price cut", None)})
    ds = load_csv(io.StringIO(df.to_csv(index=False)), target="status")
    assert sorted(map(str, ds.classes)) == ["Price cut", "not Price cut"]
    rule = BooleanRuleClassifier(lam=10.0, time_limit=30).fit(ds.X, ds.y_binary).rule_
    rule = rule.relabel("status", ds.positive, "not Price cut")
    scored = apply_rule(rule, read_csv_frame(io.StringIO(df.to_csv(index=False)))[0])
    assert scored.metrics["rows"] == n
    truth = df["status"].notna().to_numpy()
    assert scored.metrics["accuracy"] == pytest.approx(float((scored.fires == truth).mean()))


def test_a_code_kept_as_a_number_when_learned_is_kept_when_applied_and_counted_once():
    """A rule learned with capital.gain's top-code 99999 kept as a number: applied to next
    month's rows, 99999 read as missing said no to 'capital.gain > 7950'.  A table of a few
    rows is read as copies of itself: its notes counted every copy (6 cells for 3)."""
    corpus = Path(__file__).resolve().parent / "data" / "census_income_topcoded.csv"
    full = pd.read_csv(corpus, dtype=str)
    rule = Rule.from_json(json.dumps({"rule_type": "and", "target": "income",
                                      "positive": ">50K", "conditions": [
                                          {"feature": "capital.gain", "op": ">",
                                           "value": 7950.0}]}))
    rows = pd.concat([full[full["capital.gain"] == "99999"].head(3),
                      full[full["capital.gain"] == "0"].head(9)], ignore_index=True)
    as_missing = apply_rule(rule, rows, typed=False)
    assert not as_missing.fires[:3].any()
    assert any("3 cells of 99999 are read as missing" in n for n in as_missing.notes), \
        as_missing.notes
    kept = apply_rule(rule, rows, typed=False, keep_codes=["capital.gain"])
    assert kept.fires[:3].all() and not kept.fires[3:].any()
    assert any("3 cells of 99999 kept as a number" in n for n in kept.notes), kept.notes


def test_a_rule_on_a_json_field_applies_to_a_batch_of_many_plain_messages():
    """A rule on 'payload.bat' (learned where 5 % of the payloads were 'offline'), applied to
    a batch where 3 in 10 are 'online': the column was no column of objects there, the field missing
    in every row, every row 'no' (a review); the export read each object's field."""
    rng = np.random.default_rng(5)
    n = 200
    bat = np.round(rng.uniform(3.2, 4.2, n), 3)
    rule = Rule.from_json(json.dumps({"rule_type": "and", "target": "fault", "positive": "yes",
                                      "conditions": [{"feature": "payload.bat", "op": "<=",
                                                      "value": 3.5}]}))
    batch = pd.DataFrame({"payload": [json.dumps({"bat": float(b)}) if k % 10 > 2 else
                                      "online" for k, b in enumerate(bat)]})
    scored = apply_rule(rule, batch.astype(str), typed=False)
    objects = np.arange(n) % 10 > 2
    np.testing.assert_array_equal(scored.fires, objects & (bat <= 3.5))


def test_a_count_of_one_on_a_table_read_as_copies_takes_its_verb():
    from rulecore.scoring import _counted_once

    assert _counted_once("'x': 2 cells of -999 are read as missing values.", 2) == \
        "'x': 1 cell of -999 is read as missing values."
    assert _counted_once("'x': 6 cells of 99999 are read as missing, (0 to 20).", 3) == \
        "'x': 2 cells of 99999 are read as missing, (0 to 20)."


def test_applying_a_rule_learned_on_a_pivoted_crosstab_says_to_pivot_it():
    """A rule learned on a Tableau crosstab reads its pivoted columns ('Profit 2022');
    `rulecore apply` scores rows as they are, and told to "rename the column" the analyst
    had nothing to rename (an adversarial review).  It says the table is a crosstab and how
    to pivot it."""
    from rulecore.scoring import apply_rule, load_rule

    rng = np.random.default_rng(4)
    lines = ["Region\tSub-Category\tMeasure Names\t2021\t2022\t2023\tGrand Total"]
    for region in ["Central", "East", "South", "West"]:
        for k in range(15):
            for m in ("Sales", "Profit"):
                lines.append("\t".join([region, f"Item {k}", m,
                                        *(f"${v:,}" for v in rng.integers(100, 9000, 4))]))
    text = "\n".join(lines) + "\n"
    ds = load_csv(io.StringIO(text), name="crosstab.csv", target="Region",
                  positive="Central")
    rule = BooleanRuleClassifier(lam=5.0).fit(ds.X, ds.y_binary).rule_
    assert rule.conditions
    frame, _ = read_csv_frame(io.StringIO(text), name="crosstab.csv")
    with pytest.raises(DataError, match="measures on rows .*'Measure Names'.* pivot") as err:
        apply_rule(load_rule(rule.relabel(ds.target, ds.positive).to_json()), frame,
                   typed=False)
    assert "Rename the column" not in str(err.value)
