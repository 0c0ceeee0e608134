"""Figures for the Data page."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from rulecore.viz.style import MUTED, POSITIVE, layout


def class_balance(y: pd.Series, positive: Any = None) -> go.Figure:
    """Bar chart of class counts; the positive class is highlighted.

    Parameters
    ----------
    y : Series of shape (n_samples,)
        Raw labels.
    positive : optional
        The label drawn in the positive colour.
    """
    counts = y.value_counts().sort_index()
    labels = [str(c) for c in counts.index]
    colors = [POSITIVE if c == positive else MUTED for c in counts.index]
    share = counts / counts.sum()
    fig = go.Figure(go.Bar(x=labels, y=counts.to_numpy(), marker_color=colors,
                           text=[f"{n} ({s:.0%})" for n, s in zip(counts, share)],
                           textposition="auto", hovertemplate="%{x}: %{y}<extra></extra>"))
    fig.update_xaxes(type="category", title=y.name)
    fig.update_yaxes(title="rows")
    return layout(fig, f"Class balance (positive class: {positive})", height=320)
