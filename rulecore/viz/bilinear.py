"""Figures of the bilinear reduction (rulecore.bilinear.BilinearReducer.trace_ and tables)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rulecore.viz.style import (
    ACCENT,
    MUTED,
    NEGATIVE,
    POSITIVE,
    TEXT,
    category_ticks,
    layout,
    sample_note,
    short,
)


def _marker(fig: go.Figure, iteration: int | None) -> None:
    if iteration is not None:
        fig.add_vline(x=iteration, line=dict(color=MUTED, dash="dash", width=1))


def _legend_below(fig: go.Figure) -> go.Figure:
    """Legend under the plot: above it, it would collide with the title in narrow columns."""
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.22, x=0),
                      margin=dict(b=60))
    return fig


def trace_figure(trace: pd.DataFrame, iteration: int | None = None,
                 full_accuracy: float | None = None, best: int | None = None,
                 delta: float | None = None) -> go.Figure:
    """F, held-out accuracy and table share per iteration.

    Parameters
    ----------
    trace : DataFrame
        ``BilinearReducer.trace_`` (columns ``iteration, F, accuracy, table_share``, and
        ``phase`` to shade the elimination).
    iteration : int, optional
        Iteration to mark with a vertical line.
    full_accuracy : float, optional
        Accuracy on the full table, drawn as a horizontal reference.
    best : int, optional
        Iteration to mark with a star on the accuracy curve, its table share and accuracy on
        hover (the chosen iteration, ``best_iteration_``); not drawn when it is not in
        ``trace`` (or not measured).
    delta : float, optional
        With ``full_accuracy``: shade the accuracies within ``delta`` of the full table.

    Returns
    -------
    plotly.graph_objects.Figure
        Accuracy and table share on the left axis (0–1), F on the right axis.
    """
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    acc = trace.dropna(subset=["accuracy"])
    fig.add_trace(go.Scatter(x=acc["iteration"], y=acc["accuracy"], name="accuracy",
                             mode="lines+markers" if len(acc) < 60 else "lines",
                             line=dict(color=POSITIVE)), secondary_y=False)
    fig.add_trace(go.Scatter(x=trace["iteration"], y=trace["table_share"], name="table share",
                             line=dict(color=NEGATIVE)), secondary_y=False)
    fig.add_trace(go.Scatter(x=trace["iteration"], y=trace["F"], name="F",
                             line=dict(color=ACCENT)), secondary_y=True)
    if "phase" in trace and (trace["phase"] == "eliminate").any():
        first = int(trace.loc[trace["phase"] == "eliminate", "iteration"].min())
        fig.add_vrect(x0=first - 0.5, x1=int(trace["iteration"].max()) + 0.5,
                      fillcolor=MUTED, opacity=0.08, line_width=0,
                      # at the band's foot: at its top the label sat on the curves and the
                      # star (a review)
                      annotation_text="feature elimination",
                      annotation_position="bottom left")
    if full_accuracy is not None:
        if delta is not None:
            fig.add_hrect(y0=full_accuracy - delta, y1=full_accuracy, fillcolor=POSITIVE,
                          opacity=0.12, line_width=0)
        # named in the legend, not by a label on the line beside the star (a review)
        its = trace["iteration"]
        fig.add_trace(go.Scatter(x=[its.min(), its.max()], y=[full_accuracy] * 2,
                                 mode="lines", name="full-table accuracy",
                                 line=dict(color=POSITIVE, dash="dot", width=1),
                                 hoverinfo="skip"), secondary_y=False)
    rows = trace[trace["iteration"] == best] if best is not None else trace.iloc[:0]
    if len(rows) and not np.isnan(rows["accuracy"].iloc[0]):
        row = rows.iloc[0]
        text = f"{row['table_share']:.1%} of the table, accuracy {row['accuracy']:.3f}"
        fig.add_trace(go.Scatter(
            x=[best], y=[row["accuracy"]], name="chosen iteration", mode="markers",
            marker=dict(symbol="star", size=16, color=POSITIVE, line=dict(color=TEXT, width=1)),
            text=[text], hovertemplate=f"iteration {best}<br>%{{text}}<extra></extra>"),
            secondary_y=False)
    _marker(fig, iteration)
    fig.update_yaxes(title_text="accuracy / share", range=[0, 1.02], secondary_y=False)
    # ".3~g": "1.07e+16", where exponentformat alone gave ticks such as "0.09e+5" (a review)
    fig.update_yaxes(title_text="F", showgrid=False, tickformat=".3~g", secondary_y=True)
    fig.update_xaxes(title_text="iteration")
    return _legend_below(layout(fig, "Accuracy, F and table share"))


def shares_figure(trace: pd.DataFrame, iteration: int | None = None) -> go.Figure:
    """Feature share and object share per iteration.

    Parameters
    ----------
    trace : DataFrame
        ``BilinearReducer.trace_`` (``iteration, feature_share, object_share``).
    iteration : int, optional
        Iteration to mark.
    """
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=trace["iteration"], y=trace["feature_share"],
                             name="feature share", line=dict(color=ACCENT)))
    fig.add_trace(go.Scatter(x=trace["iteration"], y=trace["object_share"],
                             name="object share", line=dict(color=NEGATIVE)))
    _marker(fig, iteration)
    fig.update_yaxes(title_text="share kept", range=[0, 1.02])
    fig.update_xaxes(title_text="iteration")
    return _legend_below(layout(fig, "Feature share and object share"))


def table_heatmap(X: pd.DataFrame, y: np.ndarray | pd.Series, max_rows: int = 1500,
                  seed: int = 0, max_cells: int = 60_000) -> go.Figure:
    """Heatmap of a (reduced) table: kept objects (rows, grouped by class) × kept features.

    Each column is scaled to [0, 1] by its own min and max so columns with different units
    share one colour scale; hover shows the raw value, the full feature name and class.

    Parameters
    ----------
    X : DataFrame of shape (m, n)
        Numeric table.
    y : array-like of shape (m,)
        Labels; rows are sorted by label (stable), and labels tick the y axis.
    max_rows : int, default=1500
        Larger tables show an evenly spaced subset of rows in class order (deterministic,
        each class keeps its share), and the subtitle says how many.
    seed : int, default=0
        Unused (the subset is evenly spaced); kept for callers that pass it.
    max_cells : int, default=60000
        Also caps the rows at ``max_cells // n`` so a wide table sends at most this many
        cells to the browser (two numbers each: scaled colour and raw value).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    y = np.asarray(y)
    n_rows, n_cols = X.shape
    cap = max(1, min(max_rows, max_cells // max(n_cols, 1)))
    order = np.argsort(y.astype(str), kind="stable")
    if n_rows > cap:
        order = order[np.linspace(0, n_rows - 1, cap).round().astype(int)]
    raw = X.to_numpy(dtype=float)[order]
    lo, hi = np.nanmin(raw, axis=0, initial=np.inf), np.nanmax(raw, axis=0, initial=-np.inf)
    span = np.where(hi > lo, hi - lo, 1.0)
    # float32 halves what goes to the browser (plotly sends arrays as raw bytes): 60,000
    # cells were 1.3 MB of float64, as colours and hover values; 7 digits shown on hover
    scaled = ((raw - lo) / span if raw.size else raw).astype(np.float32)
    labels = y[order].astype(str)
    rows = [f"{i}: {lab}" for i, lab in zip(X.index.to_numpy()[order], labels, strict=True)]
    cols = [str(c) for c in X.columns]
    fig = go.Figure(go.Heatmap(
        z=scaled, x=cols, y=rows, customdata=raw.astype(np.float32),
        colorscale="Viridis", zmin=0, zmax=1, colorbar=dict(title="scaled"),
        hovertemplate="object %{y}<br>feature %{x}<br>value %{customdata:.7~g}<extra></extra>"))
    # y ticks: every row of a short table, else the first row of each class block; long
    # class labels and feature names cut in the middle (full ones on hover)
    ticks = (range(len(rows)) if len(rows) <= 60
             else np.flatnonzero(np.r_[True, labels[1:] != labels[:-1]]))
    fig.update_yaxes(tickmode="array", tickvals=[rows[i] for i in ticks],
                     ticktext=[short(rows[i] if len(rows) <= 60 else labels[i]) for i in ticks],
                     automargin=True, autorange="reversed", title_text="objects (by class)")
    wide = False
    if n_cols <= 80:
        fig.update_layout(**category_ticks("x", cols, n=24))
        # slanted when the names would not fit side by side: eight HR columns read
        # "Department=RDepartment=Sales" upright (a newcomer's review)
        wide = sum(min(len(c), 24) for c in cols) > 70
        fig.update_xaxes(tickangle=-45 if n_cols > 10 or wide else 0)
    fig.update_xaxes(title_text="features", showticklabels=n_cols <= 80)
    note = None  # say in the figure when not every row is drawn
    if n_rows > cap:
        step = n_rows / cap  # "1 in every 2.0" read as a measurement (a review)
        every = f" (1 in every {step:.0f}" if abs(step - round(step)) < 0.05 else \
            f" (about 1 in every {step:.1f}"
        every += ", in class order)"
        note = sample_note(cap, n_rows, "an evenly spaced") + every
    return layout(fig, f"Kept table: {n_rows:,} objects × {n_cols:,} features",
                  height=520 + (100 if n_cols <= 80 and (n_cols > 10 or wide) else 0),
                  subtitle=note)


__all__ = ["shares_figure", "table_heatmap", "trace_figure"]
