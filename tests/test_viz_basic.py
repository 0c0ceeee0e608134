"""Figure builders of the Data and Terms pages."""


from rulecore.binarize import Binarizer
from rulecore.data import load_sample
from rulecore.viz.data import class_balance
from rulecore.viz.style import POSITIVE
from rulecore.viz.terms import term_counts


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
    assert "class_1" in spec["title"]["text"]


def test_term_counts_figure_totals():
    ds = load_sample("salesforce attrition")
    counts = Binarizer(n_thresholds=5).fit(ds.X).term_counts()
    fig = term_counts(counts)
    assert sum(sum(tr.x) for tr in fig.data) == counts["terms"].sum()
    assert {tr.name for tr in fig.data} == {"numeric", "categorical"}
    assert str(counts["terms"].sum()) in fig.layout.title.text
