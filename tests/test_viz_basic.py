"""Figure builders of the Data and Terms pages."""

import plotly.graph_objects as go

from rulecore.binarize import Binarizer
from rulecore.data import load_sample
from rulecore.viz.data import class_balance
from rulecore.viz.style import POSITIVE
from rulecore.viz.terms import term_counts


def test_class_balance_highlights_positive():
    ds = load_sample("wine").with_positive("class_1")
    fig = class_balance(ds.y, ds.positive)
    assert isinstance(fig, go.Figure)
    bar = fig.data[0]
    assert list(bar.x) == ["class_0", "class_1", "class_2"]
    assert list(bar.y) == [59, 71, 48]
    assert bar.marker.color[1] == POSITIVE and bar.marker.color[0] != POSITIVE


def test_term_counts_figure_totals():
    ds = load_sample("salesforce attrition")
    counts = Binarizer(n_thresholds=5).fit(ds.X).term_counts()
    fig = term_counts(counts)
    assert sum(sum(tr.x) for tr in fig.data) == counts["terms"].sum()
    assert {tr.name for tr in fig.data} == {"numeric", "categorical"}
    assert str(counts["terms"].sum()) in fig.layout.title.text
