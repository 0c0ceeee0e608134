"""Figure builders of the Data and Terms pages, the coefficient bars and the label rules."""

import numpy as np
import pandas as pd

from rulecore.data import load_sample
from rulecore.rules.terms import Binarizer
from rulecore.viz.data import class_balance
from rulecore.viz.sparse import coefficients
from rulecore.viz.style import LABEL_CHARS, POSITIVE, bar_height, short, short_all, vl_short
from rulecore.viz.terms import term_counts

#: 70-character column names that differ only at the end, as in an analyst's export.
LONG = [f"Average monthly spend on international calls in US dollars, quarter {j:02d}"
        for j in range(100)]


def test_class_balance_highlights_positive():
    ds = load_sample("wine").with_positive("class_1")
    spec = class_balance(ds.y, ds.positive)
    rows = spec["datasets"]["classes"]
    assert [r["class"] for r in rows] == ["class_0", "class_1", "class_2"]
    assert [r["rows"] for r in rows] == [59, 71, 48]
    assert [r["positive"] for r in rows] == [False, True, False]
    assert rows[1]["label"] == "71 (40%)"
    assert abs(sum(r["share"] for r in rows) - 1) < 1e-12
    bars = spec["layer"][0]["encoding"]["color"]
    assert bars["condition"] == {"test": "datum.positive", "value": POSITIVE}
    assert bars["value"] != POSITIVE
    assert spec["title"]["text"] == ["Class balance", "positive class: class_1"]


def test_term_counts_figure_totals():
    ds = load_sample("salesforce attrition")
    counts = Binarizer(n_thresholds=5).fit(ds.X).term_counts()
    fig = term_counts(counts)
    assert sum(sum(tr.x) for tr in fig.data) == counts["terms"].sum()
    assert {tr.name for tr in fig.data} == {"numeric", "categorical"}
    assert f"{counts['terms'].sum():,}" in fig.layout.title.text


def test_short_cuts_in_the_middle_and_keeps_names_apart():
    assert short("petal length (cm)") == "petal length (cm)"
    cut = short(LONG[7])
    assert len(cut) == LABEL_CHARS and cut.endswith("quarter 07") and "…" in cut
    onehot = ["Contract type and payment method of the account holder=One year, card (automatic)",
              "Contract type and payment method of the account holder=Two year, bank (automatic)"]
    assert short(onehot[0]) == short(onehot[1])  # the same cut ...
    assert len(set(short_all(onehot))) == 2  # ... told apart by keeping more of the end
    assert all(len(t) <= LABEL_CHARS for t in short_all(onehot))
    assert str(LABEL_CHARS) in vl_short()  # the Vega version cuts at the same length


def test_term_counts_sixty_long_columns_readable():
    counts = pd.DataFrame({"column": LONG[:60], "kind": "numeric", "terms": 10})
    fig = term_counts(counts)
    axis = fig.layout.yaxis
    assert list(fig.data[0].y) == LONG[:60] == list(axis.tickvals)  # full names: the values
    assert "%{y}" in fig.data[0].hovertemplate  # ... and the hover text
    assert all(len(t) <= LABEL_CHARS and "…" in t for t in axis.ticktext)
    assert len(set(axis.ticktext)) == 60 and axis.tickmode == "array"  # every bar labelled
    assert axis.automargin
    assert fig.layout.height == bar_height(60) >= 22 * 60  # grows with the bars
    assert term_counts(counts.iloc[:10]).layout.height < fig.layout.height
    assert fig.layout.title.subtitle.text is None  # all 60 drawn: nothing to say


def test_term_counts_caps_bars_and_says_so():
    counts = pd.DataFrame({"column": LONG, "kind": ["numeric", "categorical"] * 50,
                           "terms": np.arange(100) % 17 + 1})
    fig = term_counts(counts, max_bars=40)
    shown = [y for tr in fig.data for y in tr.y]
    assert len(shown) == 40
    assert min(counts.set_index("column").loc[shown, "terms"]) >= sorted(counts["terms"])[-40]
    assert list(fig.layout.yaxis.categoryarray) == [c for c in LONG if c in shown]  # table order
    assert "40 columns with the most terms of 100" in fig.layout.title.subtitle.text
    assert f"{counts['terms'].sum():,} terms" in fig.layout.title.text  # every term counted
    # ties at the cut are said: a survey's 70 questions of 8 terms each, 60 shown, read as if
    # the other 10 had fewer (a stranger's review)
    survey = pd.DataFrame({"column": [f"q{i:02d}" for i in range(70)] + ["dept"],
                           "kind": ["ordinal"] * 70 + ["categorical"], "terms": [8] * 71})
    note = term_counts(survey).layout.title.subtitle.text
    assert "the first 60 columns with the most terms of 71; 11 more with 8 terms, as many as " \
           "the fewest shown, are not" in note
    assert "more with" not in fig.layout.title.subtitle.text  # no tie at 40 above


def test_coefficients_top_features_long_names():
    coefs = {"Sparse SVM": pd.Series(np.arange(1, 61) / 60, index=LONG[:60]),
             "L1 logistic": pd.Series({LONG[0]: 3.0})}
    fig = coefficients(coefs, max_features=25)
    assert all(len(tr.y) == 25 for tr in fig.data)
    assert LONG[0] in fig.data[0].y and LONG[1] not in fig.data[0].y  # largest |coef| kept
    assert list(fig.data[0].y)[-1] == LONG[0]  # biggest on top
    assert "25 largest of 60 features" in fig.layout.title.subtitle.text
    assert all(len(t) <= LABEL_CHARS for t in fig.layout.yaxis.ticktext)
    assert "%{y}" in fig.data[0].hovertemplate
    assert fig.layout.height < 60 * 25 * 2  # 28 px a bar made 60 long features 3,400 px


def test_class_balance_long_labels_full_in_tooltips():
    labels = ["Customer churned within the first ninety days of the contract",
              "Customer retained beyond the initial contract period and renewed",
              "Account closed by the operator for non-payment of invoices"]
    y = pd.Series(np.repeat(labels, [5, 20, 3]),
                  name="Customer status at the end of the observation window (survey 2024)")
    spec = class_balance(y, labels[0])
    rows = spec["datasets"]["classes"]
    assert sorted(r["class"] for r in rows) == sorted(labels)  # full labels in the data
    bars = spec["layer"][0]["encoding"]
    assert bars["tooltip"][0] == {"field": "class"}  # ... and in the tooltip
    axis = spec["encoding"]["y"]  # horizontal bars: one band per class, labels cut alike
    assert axis["field"] == "class" and axis["axis"]["labelExpr"] == vl_short()
    assert spec["height"] == {"step": 28}  # grows with the classes
    assert short(labels[0], 48) in spec["title"]["text"][1]
    assert spec["title"]["subtitle"] == y.name


def test_bound_trace_proved_at_once_has_a_readable_axis():
    from rulecore.viz.sparse import bound_trace

    fig = bound_trace([{"lower": 127.63982880888907, "upper": 127.63982880888909,
                        "gap": 1e-16, "cuts": 1, "seconds": 0.3}])
    lo, hi = fig.layout.yaxis.range
    assert hi - lo > 1.0 and "proved at the first iteration" in fig.layout.title.text


def test_bound_trace_ticks_are_told_apart_on_a_narrow_span():
    """Bounds 194.15–194.25 printed six ticks "194.2" with four significant digits (a
    review): the format has enough digits for about five ticks over the span."""
    from rulecore.viz.sparse import bound_trace

    fig = bound_trace([{"lower": 194.15, "upper": 194.25, "gap": 5e-4, "cuts": 1,
                        "seconds": 0.3},
                       {"lower": 194.2, "upper": 194.25, "gap": 2e-4, "cuts": 2,
                        "seconds": 0.6}])
    digits = int(fig.layout.yaxis.tickformat.strip(".~g"))
    ticks = [194.15 + 0.02 * k for k in range(6)]
    assert len({f"{t:.{digits}g}" for t in ticks}) == 6
    assert bound_trace([{"lower": 10.0, "upper": 50.0, "gap": 0.8, "cuts": 1,
                         "seconds": 0.1}]).layout.yaxis.tickformat == ".3~g"


def test_class_balance_writes_a_rare_class_share_with_a_decimal():
    """'150 (0%)' under a metric saying 0.3 % (a review of a fraud table)."""
    import pandas as pd

    y = pd.Series(["0"] * 49_850 + ["1"] * 150, name="Class")
    rows = class_balance(y, "1")["datasets"]["classes"]
    assert {r["label"] for r in rows} == {"49,850 (99.7%)", "150 (0.3%)"}
