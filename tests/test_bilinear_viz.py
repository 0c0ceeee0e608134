"""Figure builders of the bilinear reduction (rulecore.viz.bilinear)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from sklearn.base import clone

from rulecore.bilinear import BilinearReducer
from rulecore.viz.bilinear import shares_figure, table_heatmap, trace_figure
from rulecore.viz.style import LABEL_CHARS


def reducer_data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 5, size=(90, 6)).astype(float),
                     columns=[f"f{i}" for i in range(6)])
    y = np.repeat(["a", "b", "c"], 30)
    X.loc[y == "b", "f0"] += 4
    return X, y


@pytest.fixture(scope="module")
def reducer():
    X, y = reducer_data()
    return BilinearReducer(t=1.5, k=2, random_state=0, feature_share=0.7, object_share=0.8,
                           max_iter=30, eval_every=2).fit(X, y)


def test_trace_figure(reducer):
    tr = reducer.trace_
    fig = trace_figure(tr, iteration=reducer.best_iteration_,
                       full_accuracy=reducer.full_accuracy_)
    assert isinstance(fig, go.Figure)
    names = [t.name for t in fig.data]
    assert names == ["accuracy", "table share", "F", "full-table accuracy"]
    # the full table's accuracy named in the legend (its label on the line sat on the star)
    assert list(fig.data[3].y) == [reducer.full_accuracy_] * 2
    acc = tr.dropna(subset=["accuracy"])
    np.testing.assert_allclose(fig.data[0].y, acc["accuracy"])
    np.testing.assert_allclose(fig.data[2].y, tr["F"])
    assert fig.data[2].yaxis == "y2"  # F on its own axis
    assert any(s.x0 == reducer.best_iteration_ for s in fig.layout.shapes)


def test_trace_figure_marks_the_chosen_iteration_the_band_and_the_elimination(reducer):
    reducer = clone(reducer).set_params(t=0.3, feature_share=1.0, object_share=1.0)
    reducer.fit(*reducer_data())
    tr = reducer.trace_
    best = reducer.best_iteration_
    assert (tr["phase"] == "eliminate").any()  # the run goes past its local optimum
    fig = trace_figure(tr, full_accuracy=reducer.full_accuracy_, best=best, delta=0.01)
    star = next(t for t in fig.data if t.name == "chosen iteration")
    assert list(star.x) == [best] and list(star.y) == [tr.loc[best, "accuracy"]]
    assert star.marker.symbol == "star"
    assert f"{tr.loc[best, 'table_share']:.1%} of the table" in star.text[0]
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    band = next(s for s in rects if s.xref == "x domain")
    assert (band.y0, band.y1) == pytest.approx((reducer.full_accuracy_ - 0.01,
                                                reducer.full_accuracy_))
    first = tr.loc[tr["phase"] == "eliminate", "iteration"].min()
    assert any(s.x0 == first - 0.5 for s in rects)  # the elimination is shaded
    texts = [a.text for a in fig.layout.annotations]
    assert "feature elimination" in texts
    # a chosen iteration outside the rows shown (the cursor is before it) is not drawn
    early = trace_figure(tr[tr["iteration"] < best], best=best)
    assert "chosen iteration" not in [t.name for t in early.data]


def test_shares_figure(reducer):
    tr = reducer.trace_
    fig = shares_figure(tr, iteration=3)
    np.testing.assert_allclose(fig.data[0].y, tr["feature_share"])
    np.testing.assert_allclose(fig.data[1].y, tr["object_share"])
    assert fig.layout.shapes[0].x0 == 3


def test_table_heatmap_scales_columns_and_groups_classes(reducer):
    X, y = reducer.reduced_table(reducer.n_steps_)
    fig = table_heatmap(X, y)
    z = np.asarray(fig.data[0].z, dtype=float)
    assert z.shape == X.shape
    assert np.nanmin(z) >= 0 and np.nanmax(z) <= 1
    ys = [r.split(": ")[1] for r in fig.data[0].y]
    assert ys == sorted(ys)  # rows grouped by class
    assert list(fig.data[0].x) == list(X.columns)
    raw = np.asarray(fig.data[0].customdata, dtype=float)
    assert sorted(raw[:, 0]) == sorted(X.iloc[:, 0])


def test_table_heatmap_subsamples_rows():
    X = pd.DataFrame(np.arange(300.0).reshape(100, 3), columns=list("abc"))
    y = np.repeat([0, 1], 50)
    fig = table_heatmap(X, y, max_rows=80)
    assert np.asarray(fig.data[0].z).shape == (80, 3)
    assert "every" in fig.layout.title.subtitle.text
    assert list(fig.layout.yaxis.ticktext) == ["0", "1"]  # one tick per class block


def test_table_heatmap_caps_a_wide_long_table_and_says_so():
    rng = np.random.default_rng(0)
    names = [f"Share of evening minutes spent on calls to other networks, region {j:02d}"
             for j in range(40)]
    X = pd.DataFrame(rng.normal(size=(20_000, 40)), columns=names)
    label = "Customer churned within the first ninety days of the contract"
    y = np.where(rng.random(20_000) < 0.3, label, "Customer retained")
    fig = table_heatmap(X, y)
    z = np.asarray(fig.data[0].z)
    assert z.shape == (1500, 40)  # max_rows, and rows × columns <= max_cells
    assert "1,500 of 20,000 rows" in fig.layout.title.subtitle.text
    assert "20,000 objects × 40 features" in fig.layout.title.text
    # long feature names: full ones are the values (hover: %{x}), the ticks cut in the middle
    assert list(fig.data[0].x) == names == list(fig.layout.xaxis.tickvals)
    assert all(len(t) <= 24 for t in fig.layout.xaxis.ticktext)
    assert len(set(fig.layout.xaxis.ticktext)) == 40  # "region 07" and "region 08" stay apart
    assert "%{x}" in fig.data[0].hovertemplate and "%{y}" in fig.data[0].hovertemplate
    assert all(len(t) <= LABEL_CHARS for t in fig.layout.yaxis.ticktext)
    assert any(label in r for r in fig.data[0].y)  # full class label on hover
    # the classes keep their shares in the evenly spaced subset
    shown = np.array([r.split(": ", 1)[1] for r in fig.data[0].y])
    assert abs((shown == label).mean() - (y == label).mean()) < 0.01
    # a wider table gets fewer rows: at most max_cells cells go to the browser
    wide = table_heatmap(pd.concat([X, X.add_suffix(" (copy)")], axis=1).iloc[:5000], y[:5000])
    assert np.asarray(wide.data[0].z).shape == (750, 80)
    assert "750 of 5,000 rows" in wide.layout.title.subtitle.text


def test_table_heatmap_no_note_below_the_cap():
    X = pd.DataFrame(np.arange(300.0).reshape(100, 3), columns=list("abc"))
    fig = table_heatmap(X, np.repeat([0, 1], 50))
    assert np.asarray(fig.data[0].z).shape == (100, 3)
    assert fig.layout.title.subtitle.text is None


def test_long_feature_names_are_slanted_even_when_few():
    """Eight one-hot HR columns upright read 'Department=RDepartment=Sales' (a newcomer's
    review): names that would not fit side by side are slanted; short ones stay upright."""
    import numpy as np
    import pandas as pd

    from rulecore.viz.bilinear import table_heatmap

    y = np.array([0, 1] * 10)
    long = pd.DataFrame(np.random.default_rng(0).random((20, 6)),
                        columns=[f"Department=Research {k}" for k in range(6)])
    assert table_heatmap(long, y).layout.xaxis.tickangle == -45
    short = pd.DataFrame(np.random.default_rng(0).random((20, 4)), columns=list("abcd"))
    assert table_heatmap(short, y).layout.xaxis.tickangle == 0
