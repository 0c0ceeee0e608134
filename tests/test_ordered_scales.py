"""Ordered scales (rulecore.scales, docs/terms.md "Ordered scales"): words with a known order
get thresholds on the order, read, learnt and exported as such."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from rulecore import BooleanRuleClassifier, RuleSetClassifier
from rulecore.data import from_frame, infer_kind
from rulecore.encode import to_numeric
from rulecore.exceptions import DataError
from rulecore.rules.rule import Rule, RuleSet
from rulecore.rules.terms import Binarizer, Term
from rulecore.scales import level_order, ranks
from tests.test_rule_export import run_python, run_sql

LIKERT = ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"]


@pytest.mark.parametrize("levels, order", [
    (["Agree", "Strongly agree", "Disagree", "Neutral"],
     ("Disagree", "Neutral", "Agree", "Strongly agree")),
    (["HIGH", "low", "Medium "], ("low", "Medium ", "HIGH")),
    (["XL", "S", "M", "L"], ("S", "M", "L", "XL")),
    (["often", "never", "sometimes", "always"], ("never", "sometimes", "often", "always")),
    (["Low", "High", "Critical", "Medium"], ("Low", "Medium", "High", "Critical")),
    (["Agree", "Don't know", "Disagree", "Neutral", "N/A"], ("Disagree", "Neutral", "Agree")),
    (["Very satisfied", "Dissatisfied", "Neither satisfied nor dissatisfied"],
     ("Dissatisfied", "Neither satisfied nor dissatisfied", "Very satisfied")),
    # German, French and Spanish answers (a German HR export's 'Zufriedenheit' gave three
    # '!=' where '<= unzufrieden' was meant: a stranger's table)
    (["zufrieden", "sehr unzufrieden", "neutral", "unzufrieden", "sehr zufrieden"],
     ("sehr unzufrieden", "unzufrieden", "neutral", "zufrieden", "sehr zufrieden")),
    (["Stimme zu", "Stimme eher nicht zu", "Teils/teils", "Stimme voll und ganz zu"],
     ("Stimme eher nicht zu", "Teils/teils", "Stimme zu", "Stimme voll und ganz zu")),
    (["hoch", "niedrig", "mittel"], ("niedrig", "mittel", "hoch")),
    (["Très satisfait", "Insatisfait", "Neutre", "Satisfait"],
     ("Insatisfait", "Neutre", "Satisfait", "Très satisfait")),
    (["satisfecho", "muy insatisfecho", "neutral"],
     ("muy insatisfecho", "neutral", "satisfecho")),
    (["satisfait", "assez satisfait", "insatisfait", "très satisfait"],
     ("insatisfait", "assez satisfait", "satisfait", "très satisfait")),
    (["Plutôt d'accord", "Pas du tout d'accord", "Tout à fait d'accord", "Pas d'accord",
      "Sans opinion"],  # no answer, as "No opinion" (a review)
     ("Pas du tout d'accord", "Pas d'accord", "Plutôt d'accord", "Tout à fait d'accord")),
    (["de acuerdo", "en desacuerdo", "totalmente de acuerdo"],
     ("en desacuerdo", "de acuerdo", "totalmente de acuerdo")),
    # letter grades with a plus or minus are grades, F lowest (a stranger's SIS export);
    # bare letters stay the alphabet (below).  Read as S&P's ratings, single letters with a
    # plus or minus keep the same order (A- above B+, D lowest)
    (["B+", "A-", "F", "C", "A+", "D", "B", "C-"],
     ("F", "D", "C-", "C", "B", "B+", "A-", "A+")),
    (["A+", "A", "A-", "B+", "B", "B-", "C", "D"],
     ("D", "C", "B-", "B", "B+", "A-", "A", "A+")),
    # a calendar's order (a review: a summer rule was 15 "month != ..." conditions), whole:
    # the months and days a column lacks are written in its style
    (["Oct", "Jan", "Sept", "May", "Dec"], ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
                                            "Aug", "Sept", "Oct", "Nov", "Dec")),
    (["July", "June", "May"], ("January", "February", "March", "April", "May", "June",
                               "July", "August", "September", "October", "November",
                               "December")),
    (["SUN", "MON", "THURS", "SAT", "TUE"], ("MON", "TUE", "WED", "THURS", "FRI", "SAT",
                                             "SUN")),
    (["FRIDAY", "monday", "Wednesday"], ("monday", "Tuesday", "Wednesday", "Thursday",
                                         "FRIDAY", "Saturday", "Sunday")),
    # version numbers, part by part (as text 1.10.0 sorts before 1.9.3; unordered a crash
    # rule listed four "app_version != ...": a review)
    (["1.10.0", "1.9.3", "2.0.0", "1.9.12", "v1.8.0"],
     ("v1.8.0", "1.9.3", "1.9.12", "1.10.0", "2.0.0")),
    # places as ordinals, by their numbers (as text 11th sorts before 2nd; unordered, a race's
    # podium rule was 17 "grid != 5th": an analyst's review); a pit-lane start off the scale
    (["11th", "2nd", "1st", "3rd", "21st", "4th", "PL"] + [f"{i}th" for i in range(5, 10)],
     ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "11th", "21st")),
    # the Ames housing data's quality codes (Kaggle's House Prices: HeatingQC, KitchenQual):
    # unordered, 'HeatingQC != Ex AND HeatingQC != Gd' stood for 'HeatingQC <= TA' (a
    # stranger's download)
    (["TA", "Ex", "Gd", "Fa", "Po"], ("Po", "Fa", "TA", "Gd", "Ex")),
    (["Gd", "TA", "Ex"], ("TA", "Gd", "Ex")),
])
def test_known_scales_are_put_in_order(levels, order):
    s = pd.Series(levels * 3 + [None])
    assert level_order(s) == order and infer_kind(s) == "ordinal"


@pytest.mark.parametrize("levels", [
    ["Low", "High"],                        # two levels: one split either way
    ["Low", "Medium", "High", "Banana"],     # a word off the scale
    ["Agree", "Disagree", "Don't know"],     # two steps and no answer
    ["Low", "low", "High"],                 # two spellings of one step
    ["red", "green", "blue"],
    ["A", "B", "C", "D"],                   # grades: the alphabet is not "worse"
    ["M", "F", "M"],
    ["Jan", "January", "Feb"],              # two spellings of one month
    ["Mon", "March", "May"],                # a weekday among months
    ["1.2.0", "v1.2.0", "1.3.0"],           # one version written two ways
    ["1.2.0", "1.3.0", "beta"],             # a word among versions
    ["192.168.0.1", "10.0.0.1", "10.0.0.7"],  # four parts: IP addresses as often
    ["1st", "2nd", "3rd", "DNF", "DNS"],    # two levels off the scale: one "missing"
    [f"{i}th" for i in range(4, 21)] + ["1st", "2nd", "3rd", "DNF", "DSQ"],
    ["1st floor", "2nd floor", "3rd floor"],  # words after the place
    ["A", "B+", "B plus", "C"],             # a grade among words
    ["C++", "C", "C#"],                     # languages, not grades
])
def test_other_columns_are_not_scales(levels):
    s = pd.Series(levels * 2)
    assert level_order(s) is None and infer_kind(s) != "ordinal"


def test_an_ordered_categorical_gives_its_own_order():
    s = pd.Series(pd.Categorical(["gold", "bronze", "silver", "gold"],
                                 categories=["bronze", "silver", "gold", "platinum"],
                                 ordered=True))
    # all its categories, platinum unused: a later row of platinum is above gold
    assert level_order(s) == ("bronze", "silver", "gold", "platinum")
    assert level_order(s.astype(str)) is None                # unordered text: no order
    assert level_order(s[s != "silver"]) is None             # two levels: one split
    assert level_order(s[s != "silver"], min_levels=1) == level_order(s)  # a fold of rows
    b = Binarizer().fit(pd.DataFrame({"tier": s}))
    # at the ends of the order a threshold holds for one level, and reads so
    assert [str(t) for t in b.terms_] == ["tier == bronze", "tier <= silver",
                                          "tier > bronze", "tier > silver"]
    later = pd.Series(["platinum", "gold", "bronze"])
    assert b.terms_[3].evaluate(later).tolist() == [True, True, False]


def test_terms_read_the_order_and_off_scale_cells_as_missing():
    X = pd.DataFrame({"q": ["Agree", "Disagree", None, "Strongly agree", "Neutral", "Maybe"]})
    b = Binarizer().fit(X.iloc[:5])
    assert b.kinds_ == {"q": "ordinal"}
    A = pd.DataFrame(b.transform(X), columns=b.get_feature_names_out())
    np.testing.assert_array_equal(A["q <= Neutral"], [0, 1, 0, 0, 1, 0])
    np.testing.assert_array_equal(A["q > Neutral"], [1, 0, 0, 1, 0, 0])
    np.testing.assert_array_equal(A["q is missing"], [0, 0, 1, 0, 0, 1])  # "Maybe" too
    for t in b.terms_:  # the term alone reads a column as the binarizer does
        np.testing.assert_array_equal(t.evaluate(X["q"]), A[str(t)].to_numpy(bool))
    np.testing.assert_array_equal(ranks(X["q"], b._orders["q"]),
                                  [2, 0, np.nan, 3, 1, np.nan])


def test_thresholds_on_many_steps_follow_n_thresholds():
    cats = [f"L{i:02d}" for i in range(40)]
    s = pd.Series(pd.Categorical(np.repeat(cats, 3), categories=cats, ordered=True))
    b = Binarizer(n_thresholds=5, negations=False).fit(pd.DataFrame({"v": s}))
    assert 1 <= len(b.terms_) <= 5 and all(t.op == "<=" for t in b.terms_)
    assert all(Binarizer(thresholds="all").fit(pd.DataFrame({"v": s})).terms_[i].value == c
               for i, c in enumerate(cats[:-1]))


def test_a_column_forced_ordinal_without_an_order_is_a_clear_error():
    with pytest.raises(DataError, match="not a known scale"):
        Binarizer(kinds={"c": "ordinal"}).fit(pd.DataFrame({"c": ["red", "green", "blue"]}))


def planted(m: int = 400, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Survey answers where "workload >= Agree and support <= Disagree" means leaving."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"workload": rng.choice(LIKERT, m), "support": rng.choice(LIKERT, m),
                      "team": rng.choice(["north", "south", "east"], m),
                      "tenure": rng.integers(1, 30, m).astype(float)})
    rank = {v: i for i, v in enumerate(LIKERT)}
    y = ((X["workload"].map(rank) >= 3) & (X["support"].map(rank) <= 1)).to_numpy(int)
    flip = rng.random(m) < 0.03
    return X, np.where(flip, 1 - y, y)


def test_the_planted_rule_is_two_conditions_on_the_order():
    X, y = planted()
    rule = BooleanRuleClassifier(lam=1.0).fit(X, y).rule_
    assert {str(c) for c in rule.conditions} == {"workload > Neutral", "support <= Disagree"}
    # unordered, the same rule takes four conditions (and the same λ keeps fewer of them)
    flat = BooleanRuleClassifier(lam=1.0, kinds={"workload": "categorical",
                                                  "support": "categorical"}).fit(X, y).rule_
    assert all(c.op in ("==", "!=") for c in flat.conditions)


@pytest.mark.parametrize("rule_type", ["and", "or"])
def test_ordinal_exports_predict_like_the_rule(rule_type):
    """Every ordinal term, alone and in pairs, in every format: JSON round trip, Python and
    SQL select the rows predict selects, off-scale and missing cells included."""
    X, _ = planted(120)
    X = X.astype({"workload": object})
    X.loc[X.index[::7], "workload"] = None
    X.loc[X.index[3::11], "workload"] = "Don't know"  # no step of the scale: missing
    X.loc[X.index[101::5], "support"] = "Sort of"      # never seen: missing
    b = Binarizer().fit(X[["workload", "support"]].iloc[:100])
    terms = [t for t in b.terms_ if t.order is not None]
    assert {t.op for t in terms} == {"<=", ">", "is missing", "is not missing"}
    for conds in itertools.chain(((t,) for t in terms),
                                 itertools.combinations(terms[::3], 2)):
        rule = Rule(conds, rule_type, "leaves", "yes")
        expected = rule.predict(X)
        assert Rule.from_json(rule.to_json()) == rule
        np.testing.assert_array_equal(run_python(rule.to_python(), X), expected,
                                      err_msg=str(rule))
        np.testing.assert_array_equal(run_sql(rule.to_sql(), X), expected, err_msg=str(rule))


def test_a_rule_set_on_scales_exports_like_predict():
    X, y = planted(300, seed=1)
    model = RuleSetClassifier(lam=2.0, random_state=0).fit(X, y)
    rs = model.ruleset_ if hasattr(model, "ruleset_") else model.rules_
    assert any(c.order is not None for cl in rs.clauses for c in cl.conditions)
    expected = rs.predict(X)
    assert isinstance(RuleSet.from_json(rs.to_json()), RuleSet)
    np.testing.assert_array_equal(run_python(rs.to_python(), X), expected)
    np.testing.assert_array_equal(run_sql(rs.to_sql(), X), expected)


def test_json_refuses_an_ordinal_condition_off_its_order():
    good = Term("q", "<=", "Neutral", ("Disagree", "Neutral", "Agree")).to_dict()
    assert Term.from_dict(good) == Term("q", "<=", "Neutral", ("Disagree", "Neutral", "Agree"))
    with pytest.raises(DataError, match="level of its order"):
        Term.from_dict({**good, "value": "Maybe"})
    with pytest.raises(DataError, match="level of its order"):
        Term.from_dict({**good, "op": "=="})
    # an order naming a level twice, or two spellings of one level, is refused: predict and
    # the exports read it apart (a review: 9 of 118 hostile rules)
    for order in (["Low", "Low", "High"], ["1", "1.0", "2"], ["True", "1", "2"]):
        with pytest.raises(DataError, match="each level once"):
            Term.from_dict({"feature": "q", "op": "<=", "value": order[-1], "order": order})
    s = pd.Series(pd.Categorical(["1", "1.0", "2", "3"] * 2, categories=["1", "1.0", "2", "3"],
                                 ordered=True))
    assert level_order(s) is None and infer_kind(s) != "ordinal"


def test_loading_reads_a_scale_in_order_and_says_so():
    X, y = planted(200)
    ds = from_frame(X.assign(left=np.where(y == 1, "yes", "no")), target="left")
    assert ds.kinds["workload"] == ds.kinds["support"] == "ordinal"
    assert any("'workload': read as an ordered scale (Strongly disagree < Disagree < Neutral "
               "< … < Strongly agree)" in n for n in ds.notes)
    flat = ds.with_kinds({"workload": "categorical"})
    assert flat.kinds["workload"] == "categorical"
    assert flat.with_kinds({"workload": "ordinal"}).kinds["workload"] == "ordinal"
    with pytest.raises(DataError, match="cannot be read as ordered"):
        ds.with_kinds({"team": "ordinal"})
    # models that need numbers get the steps 1..5
    num = to_numeric(ds.X, ds.kinds)
    assert sorted(num["workload"].unique()) == [1.0, 2.0, 3.0, 4.0, 5.0]


@pytest.mark.parametrize("levels, order", [
    (["25-34", "18-24", "65+", "35-44", "Under 18"], ("Under 18", "18-24", "25-34", "35-44",
                                                      "65+")),
    (["$50,000-$74,999", "$25,000-$49,999", "Less than $25,000", "$75,000 or more"],
     ("Less than $25,000", "$25,000-$49,999", "$50,000-$74,999", "$75,000 or more")),
    (["10k-20k", "0-10k", "20k+"], ("0-10k", "10k-20k", "20k+")),
    # a statistics package's labels with their codes: the words decide the order
    (["2. 25-34", "1. 18-24", "3. 35+"], ("1. 18-24", "2. 25-34", "3. 35+")),
    (["5 = Strongly agree", "1 = Strongly disagree", "3 = Neutral"],
     ("1 = Strongly disagree", "3 = Neutral", "5 = Strongly agree")),
    # found missing by a review: a coded non-answer, decimals, units, lone numbers by bands
    (["9. Don't know", "1. Low", "3. High", "2. Medium"], ("1. Low", "2. Medium", "3. High")),
    (["2.5-3.0", "2.0-2.5", "3.0-3.5"], ("2.0-2.5", "2.5-3.0", "3.0-3.5")),
    # a ticket system's priorities: the code runs against the words, which decide
    (["1 - Critical", "3 - Moderate", "4 - Low", "2 - High"],
     ("4 - Low", "3 - Moderate", "2 - High", "1 - Critical")),
    (["3-High", "1-Low", "2-Medium"], ("1-Low", "2-Medium", "3-High")),
    (["18 - 24", "25 - 34", "35 - 44"], ("18 - 24", "25 - 34", "35 - 44")),
    (["10+ years", "< 1 year", "2 years", "1 year"],
     ("< 1 year", "1 year", "2 years", "10+ years")),
    (["10-20%", "0-10%", "50%+"], ("0-10%", "10-20%", "50%+")),
    (["Highest", "Low", "Lowest", "Medium"], ("Lowest", "Low", "Medium", "Highest")),
    ([f"{a}-{a + 4}" for a in range(0, 85, 5)] + ["85 and over"],
     tuple(f"{a}-{a + 4}" for a in range(0, 85, 5)) + ("85 and over",)),
])
def test_bands_of_numbers_are_put_in_order(levels, order):
    s = pd.Series(levels * 2)
    assert level_order(s) == order and infer_kind(s) == "ordinal"


@pytest.mark.parametrize("levels", [
    ["18-30", "25-40", "41-50"],             # overlapping bands: not one scale
    ["3-1", "2-2", "0-4"],                   # scores, not bands
    ["2024-01", "2024-02", "2024-03"],       # months
    ["18-24", "25-34", "retired"],
    ["1. White", "2. Black", "3. Asian"],    # coded labels without an order in their words
])
def test_other_text_with_numbers_is_not_a_band_scale(levels):
    assert level_order(pd.Series(levels * 2)) is None


def grades(m: int = 400, seed: int = 0) -> pd.DataFrame:
    """Letter grades (no known scale: 'grade <= C' is no alphabet) and an award planted on
    'math in {A, B}'."""
    rng = np.random.default_rng(seed)
    math = rng.choice(list("ABCDF"), m)
    return pd.DataFrame({"math": math, "hours": rng.integers(0, 40, m),
                         "award": np.where(np.isin(math, ["A", "B"]) ^ (rng.random(m) < 0.03),
                                           "yes", "no")})


def test_an_order_given_by_the_user_makes_a_column_ordinal():
    df = grades()
    df.loc[df.index[::50], "math"] = "I"  # incomplete: not in the order given
    ds = from_frame(df, target="award", orders={"math": ["F", "D", "C", "B", "A"]})
    assert ds.kinds["math"] == "ordinal" and list(ds.X["math"].cat.categories) == list("FDCBA")
    assert ds.X["math"].isna().sum() == 8
    assert "'math': read in the order given (F < D < C < … < A); 8 cells of other levels " \
        "('I') are read as missing." in ds.notes
    rule = BooleanRuleClassifier(lam=2.0, kinds=ds.kinds).fit(ds.X, ds.y_binary).rule_
    assert [str(c) for c in rule.conditions] == ["math > C"]
    # without the order the grades are categories, and asking for ordinal is refused
    assert from_frame(df, target="award").kinds["math"] == "categorical"
    with pytest.raises(DataError, match="give their order"):
        from_frame(df, target="award", kinds={"math": "ordinal"})
    for bad, said in (({"math": ["F", "D", "F"]}, "each once"), ({"math": ["F", "A"]}, "three"),
                      ({"math": ["X", "Y", "Z"]}, "fewer than three of its levels"),
                      ({"maths": ["F", "D", "C"]}, "no such column")):
        with pytest.raises(DataError, match=said):
            from_frame(df, target="award", orders=bad)


def test_the_command_line_takes_an_order(tmp_path):
    from tests.test_cli import run

    grades().to_csv(tmp_path / "g.csv", index=False)
    res = run("learn", "g.csv", "--order", "math=F<D<C<B<A", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "note: 'math': read in the order given (F < D < C < … < A)." in res.stdout
    assert "[ ] math > C " in res.stdout
    res = run("learn", "g.csv", "--order", "math=F,D,C", cwd=tmp_path)
    assert res.returncode != 0 and "joined by '<'" in res.stderr


def test_a_fold_with_two_levels_of_a_scale_keeps_the_tables_order():
    """Low/Medium and one High: a training split or fold without the High row held two
    levels, too few to call a scale, and the fit raised (a review: 3 of 8 seeds of
    'rulecore learn', and stability, sweeps and Compare)."""
    from rulecore.fit import fit_on_split, stability_on
    from rulecore.settings import RuleSettings

    rng = np.random.default_rng(0)
    pr = np.array(rng.choice(["Low", "Medium"], 200), dtype=object)
    pr[17] = "High"
    df = pd.DataFrame({"priority": pr, "x": rng.normal(size=200).round(2),
                       "escalated": np.where((pr == "Low") ^ (rng.random(200) < 0.1), "yes",
                                             "no")})
    ds = from_frame(df, target="escalated")
    assert ds.kinds["priority"] == "ordinal"
    assert list(ds.X["priority"].cat.categories) == ["Low", "Medium", "High"]
    settings = RuleSettings(kinds=ds.kinds)
    for seed in range(8):
        rule = fit_on_split(settings, ds, 0.25, seed).model.rule_
        assert "priority == Low" in [str(c) for c in rule.conditions]
    stability_on(settings, ds, n_splits=5, backend="sequential")
    # text in a fold of two levels, read ordinal as asked
    b = Binarizer(kinds={"q": "ordinal"}).fit(pd.DataFrame({"q": ["Low", "Medium"] * 3}))
    assert [str(t) for t in b.terms_] == ["q == Low", "q == Medium"]


def test_none_is_a_step_of_a_scale_and_missing_elsewhere():
    """pandas reads the word None as a missing value, so the pain scale None < Mild <
    Moderate < Severe lost its lowest step: the rule said 'pain is missing' (86.3 %) where
    the same table as a frame gave 'pain <= Mild' (97.0 %; a review)."""
    import io

    from rulecore.data import load_csv

    rng = np.random.default_rng(0)
    m = 400
    pain = rng.choice(["None", "Mild", "Moderate", "Severe"], size=m, p=[.15, .15, .4, .3])
    city = rng.choice(["Oslo", "Lima", "None"], size=m)
    dose = np.where(rng.random(m) < 0.1, "None", rng.integers(1, 9, m).astype(str))
    y = np.where(np.isin(pain, ["None", "Mild"]) ^ (rng.random(m) < .03), "early", "late")
    csv = pd.DataFrame({"pain": pain, "city": city, "dose": dose, "discharge": y}).to_csv(
        index=False).encode()
    ds = load_csv(io.BytesIO(csv), target="discharge", positive="early")
    assert ds.kinds["pain"] == "ordinal"
    assert list(ds.X["pain"].cat.categories) == ["None", "Mild", "Moderate", "Severe"]
    assert ds.X["pain"].notna().all()
    # elsewhere None is Python's missing value, as before
    assert ds.X["city"].isna().sum() == (city == "None").sum() and ds.kinds["dose"] == "numeric"
    assert ds.X["dose"].isna().sum() == (dose == "None").sum()
    rule = BooleanRuleClassifier(lam=1.0, kinds=ds.kinds).fit(ds.X, ds.y_binary).rule_
    assert [str(c) for c in rule.conditions] == ["pain <= Mild"]


def test_stability_labels_an_ordinal_condition_as_the_rule_shows_it():
    from rulecore.rules.stability import group_conditions

    order = ("S", "M", "L")
    a = Rule((Term("size", ">", "M", order),), "and", "y", 1)       # shown "size == L"
    b = Rule((Term("size", "<=", "M", order), Term("x", ">", 1.5)), "and", "y", 1)
    table, presence = group_conditions([a, a, b])
    labels = list(table["condition"])
    assert "size == L" in labels and "size <= M" in labels
    assert not any(str(v) == "size > M" for v in labels)


def test_models_that_need_numbers_refuse_an_ordinal_column_without_an_order():
    with pytest.raises(DataError, match="not a known scale"):
        to_numeric(pd.DataFrame({"c": ["red", "blue", "green"]}), {"c": "ordinal"})


def test_a_month_the_training_rows_lack_keeps_its_place():
    """No July in the table: the rule read 'month <= Aug AND month > May' and said no to July,
    in predict and in every export (an adversarial review).  The calendar is whole."""
    import sqlite3

    from rulecore import BooleanRuleClassifier

    rng = np.random.default_rng(5)
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Aug", "Sep", "Oct", "Nov", "Dec"]
    m = 440
    month = rng.choice(months, m)
    y = np.where(np.isin(month, ["Jun", "Aug"]), "yes", "no")
    ds = from_frame(pd.DataFrame({"month": month, "noise": rng.random(m), "busy": y}),
                    target="busy")
    assert ds.kinds["month"] == "ordinal" and "Jul" in list(ds.X["month"].cat.categories)
    rule = BooleanRuleClassifier(kinds=ds.kinds).fit(ds.X, ds.y_binary).rule_
    new = pd.DataFrame({"month": ["Jul", "Jun", "Sep"], "noise": [0.5] * 3})
    assert rule.predict(new).tolist() == [1, 1, 0]
    ns: dict = {}
    exec(rule.to_python(), ns)
    assert [ns["predict"](r) for r in new.to_dict("records")] == [True, True, False]
    con = sqlite3.connect(":memory:")
    new.to_sql("t", con, index=False)
    sql = rule.to_sql()
    picked = [r[0] for r in con.execute(f"SELECT month FROM t {sql}")]
    assert picked == ["Jul", "Jun"]


@pytest.mark.parametrize("levels, first, last", [
    (["BB-", "AAA", "CCC", "B+", "NR"], "D", "AAA"),         # S&P / Fitch, NR is no step
    (["Baa1", "Ba2", "Caa1", "Aaa"], "C", "Aaa"),             # Moody's
])
def test_credit_ratings_are_in_rating_order(levels, first, last):
    """An issuer table's S&P ratings were read unordered: a 14-condition rule of '!=' that
    said CCC issuers would not default (a review)."""
    order = level_order(pd.Series(levels * 3))
    assert order[0] == first and order[-1] == last
    held = [v for v in order if v in levels]
    assert held == sorted(held, key=lambda v: order.index(v))
    assert order.index("BB-" if "BB-" in levels else "Ba2") < order.index(
        "AAA" if "AAA" in levels else "Aaa")


@pytest.mark.parametrize("levels", [
    ["A", "B", "C"], ["A", "BB", "Zone"], ["bbb", "aa", "b"],
    ["AAA", "AA", "C", "D"],                           # battery sizes
    ["A1", "A2", "A3", "B1", "B2", "B3"],              # a plate's wells
    ["A1", "A2", "B1", "B2"],                          # language levels (CEFR)
])
def test_letters_that_need_not_be_ratings_are_no_scale(levels):
    assert level_order(pd.Series(levels * 3)) is None


def test_many_columns_on_one_scale_get_one_note():
    """A survey's 70 Likert questions made 70 notes alike, which pushed the Data page's
    column roles thousands of pixels down (a stranger's review): from four columns on one
    scale, one note names a few and counts the rest; fewer keep a note each."""
    rng = np.random.default_rng(0)
    steps = ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"]
    X = pd.DataFrame({f"q{i}": rng.choice(steps, 120) for i in range(1, 7)})
    y = np.where(X["q1"].isin(steps[3:]), "yes", "no")
    ds = from_frame(X.assign(recommend=y), target="recommend")
    said = [n for n in ds.notes if "ordered scale" in n]
    assert said == ["6 columns read as one ordered scale (Strongly disagree < Disagree < "
                    "Neutral < … < Strongly agree): 'q1', 'q2', 'q3', 'q4' and 2 more, so a "
                    "rule can say 'q1 <= Disagree'; make one categorical to read its levels "
                    "unordered."]
    # exactly four: all named, no "and 0 more"
    four = from_frame(X[["q1", "q2", "q3", "q4"]].assign(recommend=y), target="recommend")
    assert [n for n in four.notes if "ordered scale" in n] == [
        "4 columns read as one ordered scale (Strongly disagree < Disagree < Neutral < … < "
        "Strongly agree): 'q1', 'q2', 'q3', 'q4', so a rule can say 'q1 <= Disagree'; make one "
        "categorical to read its levels unordered."]
    few = from_frame(X[["q1", "q2"]].assign(recommend=y), target="recommend")
    assert [n for n in few.notes if "ordered scale" in n] == [
        f"'{c}': read as an ordered scale (Strongly disagree < Disagree < Neutral < … < "
        f"Strongly agree), so a rule can say '{c} <= Disagree'; make it categorical to read "
        "its levels unordered." for c in ("q1", "q2")]


def test_a_loans_sub_grades_are_read_in_order():
    """Lending Club's sub_grade, A1 … G5: read unordered, a rule listed seven
    'sub_grade != E2 AND != E5 AND != G1 ...' (a stranger's export).  Ordered as the letter
    grades and the credit ratings are, best highest: G5 < G4 < … < A2 < A1.  Seats or grid
    cells of one letter, letters without several numbers, and language levels A1 … C2 are no
    such scale."""
    from rulecore.scales import level_order

    rng = np.random.default_rng(3)
    sub = pd.Series(rng.choice([f"{g}{k}" for g in "ABCDEFG" for k in range(1, 6)], 500))
    order = level_order(sub)
    assert order[:3] == ("G5", "G4", "G3") and order[-3:] == ("A3", "A2", "A1")
    assert level_order(pd.Series(["A1", "A2", "A3", "A4"] * 5)) is None  # one letter
    assert level_order(pd.Series(["A1", "B1", "C1", "D1", "E1"] * 5)) is None  # one number
    cefr = ["A1", "A2", "B1", "B2", "C1", "C2"]  # language levels: C2 is the highest
    assert level_order(pd.Series(cefr * 5)) != tuple(reversed(cefr))
    ds = from_frame(pd.DataFrame({"sub_grade": sub, "y": rng.choice(["a", "b"], 500)}),
                    target="y")
    assert ds.kinds["sub_grade"] == "ordinal"
