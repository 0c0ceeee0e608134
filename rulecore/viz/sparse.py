"""Figures for sparse classification and the model comparison (pure builders, no Streamlit)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from rulecore.viz.style import (
    ACCENT,
    MUTED,
    NEGATIVE,
    POSITIVE,
    SEQUENCE,
    bar_height,
    category_ticks,
    layout,
)


def bound_trace(trace: Sequence[Mapping], title: str = "Outer approximation: bounds",
                x: str = "seconds") -> go.Figure:
    """Lower and upper bounds of the outer approximation per master iteration.

    Parameters
    ----------
    trace : sequence of dict
        ``SparseClassifier.trace_``: rows with ``lower``, ``upper``, ``gap``, ``cuts``,
        ``seconds``.
    x : {"seconds", "iteration"}
    """
    df = pd.DataFrame(list(trace))
    fig = go.Figure()
    if df.empty:
        return layout(fig, title + " (no iterations)")
    xs = df[x] if x in df else np.arange(len(df))
    hover = [f"gap {g:.2e}<br>{c} cuts" for g, c in zip(df["gap"], df["cuts"])]
    fig.add_trace(go.Scatter(x=xs, y=df["upper"], mode="lines+markers", name="upper bound",
                             line=dict(color=POSITIVE, shape="hv"), hovertext=hover))
    fig.add_trace(go.Scatter(x=xs, y=df["lower"], mode="lines+markers", name="lower bound",
                             line=dict(color=NEGATIVE, shape="hv"), hovertext=hover))
    fig.update_xaxes(title="seconds" if x == "seconds" else "master iteration",
                     rangemode="tozero")
    # one value on the axis (the first iteration proved the optimum: both bounds meet) made
    # plotly zoom to a sliver around it and print it with 17 digits; give it some room
    lo, hi = float(np.nanmin(df[["lower", "upper"]])), float(np.nanmax(df[["lower", "upper"]]))
    span = hi - lo if hi - lo > 1e-9 * max(1.0, abs(hi)) else abs(hi) or 1.0
    pad = 0.05 * span
    # enough digits to tell the ticks apart (about 5 over the span): four printed six ticks
    # "194.2" on a span of 0.1 (a review)
    size = max(abs(lo), abs(hi), 1e-12)
    digits = int(np.clip(np.ceil(np.log10(size / (span / 5))) + 1, 3, 12))
    fig.update_yaxes(title="objective c(s)", range=[lo - pad, hi + pad],
                     tickformat=f".{digits}~g")
    if len(df) == 1:
        title += " (proved at the first iteration)" if df["gap"].iloc[0] < 1e-9 else ""
    return layout(fig, title)


def coefficients(coefs: Mapping[str, pd.Series], title: str = "Coefficients",
                 max_features: int = 25,
                 axis_title: str = "coefficient (original units)") -> go.Figure:
    """Grouped horizontal bars of the non-zero coefficients of one or more linear models.

    Feature names longer than ``viz.style.LABEL_CHARS`` are cut in the middle on the axis
    and shown in full on hover; the figure grows with its bars.

    Parameters
    ----------
    coefs : mapping model name -> Series (index: feature name, values: coefficient)
    title : str
    max_features : int, default=25
        At most this many features, those with the largest |coefficient| in any model; the
        subtitle says how many were left out.
    """
    fig = go.Figure()
    feats: list[str] = []
    for s in coefs.values():
        for f in s.index:
            if f not in feats:
                feats.append(str(f))
    # biggest |coefficient| on top
    size = {f: max((abs(float(s.get(f, 0.0))) for s in coefs.values()), default=0.0)
            for f in feats}
    order = sorted(feats, key=lambda f: size[f])
    # An L1 model on a wide table keeps dozens of columns: 28 px a bar made the figure
    # thousands of px tall, so only the largest ones are drawn, and the figure says so.
    note = None
    if len(order) > max_features:
        note = f"the {max_features} largest of {len(order)} features by |coefficient|"
        order = order[-max_features:]
    for i, (name, s) in enumerate(coefs.items()):
        s = s.copy()
        s.index = s.index.map(str)
        fig.add_trace(go.Bar(y=order, x=[float(s.get(f, 0.0)) for f in order], orientation="h",
                             name=name, marker_color=SEQUENCE[i % len(SEQUENCE)],
                             hovertemplate="%{y}<br>%{x:.4g}<extra>" + str(name) + "</extra>"))
    fig.update_layout(barmode="group", **category_ticks("y", order))
    fig.update_xaxes(title=axis_title, zeroline=True)
    return layout(fig, title, subtitle=note,
                  height=max(300, bar_height(len(order), per_bar=8 + 14 * max(1, len(coefs)))))


#: A class below this share of the test rows makes the Compare page chart the balanced
#: accuracy by default.
RARE_CHART_SHARE = 0.2


def accuracy_vs_features(table: pd.DataFrame, title: str | None = None,
                         metric: str = "accuracy", baseline: float | None = None
                         ) -> go.Figure:
    """One marker per model: features used (x) against a test metric (y).

    ``metric`` is a column of ``table`` (:func:`rulecore.compare.compare_models`):
    ``"accuracy"``, ``"balanced_accuracy"`` or ``"auc"``.
    On a rare positive class plain accuracy puts the models that never predict it on top
    (a review), so the Compare page offers the balanced accuracy there.  ``baseline``, what
    always predicting the majority class scores (0.5 for the balanced accuracy), is drawn as
    a dashed line inside the axis: without it, models 0.73 and 0.713 filled the axis and
    looked far apart next to a majority class at 0.657.
    """
    fig = go.Figure()
    symbols = ["circle", "square", "diamond", "triangle-up", "x", "star", "cross", "hexagon"]
    rows = table.to_dict("records")
    said = {"auc": "AUC"}.get(metric, metric.replace("_", " "))
    # models on nearly the same point (same features, values within 3 % of the axis's span:
    # a marker is about that tall) are set side by side, 0.15 feature apart, or one marker
    # hides the others (a single rule at 0.993 sat under CART's 1.000: a review); the hover
    # gives true values
    ys = [float(r[metric]) for r in rows if pd.notna(r[metric])]
    near = 0.03 * max(max(ys) - min(ys), 0.1) if ys else 0.0
    spot = [(round(float(r["features_used"]), 6), float(r[metric])) for r in rows]
    shift = []
    for i, (x, y) in enumerate(spot):
        same = [j for j, (a, b) in enumerate(spot) if a == x and abs(b - y) <= near]
        shift.append(0.15 * (same.index(i) - (len(same) - 1) / 2))
    for i, row in enumerate(rows):
        # names in the legend, not beside the markers: models often land on nearly the same
        # point (same accuracy, same features) and their labels printed on top of each other
        fig.add_trace(go.Scatter(
            x=[row["features_used"] + shift[i]], y=[row[metric]], mode="markers",
            name=row["model"],
            hovertemplate=f"{row['model']}<br>features used {row['features_used']:.3g}<br>"
                          f"{said} %{{y:.3f}}<extra></extra>",
            marker=dict(size=13, color=SEQUENCE[i % len(SEQUENCE)],
                        symbol=symbols[i % len(symbols)], line=dict(width=1, color="white"))))
    fig.update_xaxes(title="features used (mean per datum for datum-wise)", rangemode="tozero")
    fig.update_yaxes(title=f"test {said}")
    if baseline is not None:
        fig.add_hline(y=baseline, line=dict(color=MUTED, dash="dash", width=1),
                      annotation_text=f"always the majority class ({baseline:.3f})",
                      annotation_position="bottom right",
                      annotation_font=dict(color=MUTED, size=11))
        values = [float(r[metric]) for r in rows if pd.notna(r[metric])] + [baseline]
        lo, hi = min(values), max(values)
        pad = 0.15 * max(hi - lo, 0.02)
        fig.update_yaxes(range=[lo - pad, min(hi + pad, 1.0 + pad)])
    fig.update_layout(showlegend=True, legend=dict(orientation="h", y=-0.25))
    return layout(fig, title or f"{said[0].upper()}{said[1:]} against features used")


def cv_heatmap(cv_results: Sequence[Mapping], title: str = "Validation AUC",
               chosen: tuple[int, float] | None = None) -> go.Figure:
    """Validation AUC over the (k, γ) grid of :class:`~rulecore.sparse.SparseClassifierCV`,
    the ``chosen`` (k, γ) marked with a star."""
    df = pd.DataFrame(list(cv_results))
    piv = df.pivot_table(index="k", columns="gamma", values="auc")
    fig = go.Figure(go.Heatmap(z=piv.to_numpy(), x=[f"{g:.2e}" for g in piv.columns],
                               y=[str(k) for k in piv.index], colorscale="Greens",
                               colorbar=dict(title="AUC")))
    if chosen is not None:
        fig.add_trace(go.Scatter(x=[f"{chosen[1]:.2e}"], y=[str(chosen[0])], mode="markers",
                                 marker=dict(symbol="star", size=16, color="black"),
                                 name="chosen", showlegend=False,
                                 hovertemplate="chosen: k = %{y}, γ = %{x}<extra></extra>"))
    fig.update_xaxes(title="γ")
    fig.update_yaxes(title="k")
    return layout(fig, title)


__all__ = ["bound_trace", "coefficients", "accuracy_vs_features", "cv_heatmap", "ACCENT",
           "RARE_CHART_SHARE"]
