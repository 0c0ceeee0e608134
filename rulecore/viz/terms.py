"""Figures for the Terms page."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from rulecore.viz.style import NEGATIVE, POSITIVE, layout


def term_counts(counts: pd.DataFrame) -> go.Figure:
    """Horizontal bars: number of terms per column, coloured by column kind.

    Parameters
    ----------
    counts : DataFrame
        As returned by :meth:`rulecore.binarize.Binarizer.term_counts`
        (columns ``column``, ``kind``, ``terms``).
    """
    fig = go.Figure()
    for kind, color in (("numeric", NEGATIVE), ("categorical", POSITIVE)):
        part = counts[counts["kind"] == kind]
        if len(part):
            fig.add_bar(y=part["column"], x=part["terms"], orientation="h", name=kind,
                        marker_color=color, hovertemplate="%{y}: %{x} terms<extra></extra>")
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(title="terms")
    height = min(900, 120 + 22 * len(counts))
    return layout(fig, f"{int(counts['terms'].sum())} terms in all", height=height)
