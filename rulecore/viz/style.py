"""Shared look of every figure: one palette and one layout helper."""

from __future__ import annotations

import plotly.graph_objects as go

#: Class / outcome colours used everywhere (positive, negative, accent, muted).
POSITIVE = "#d62728"
NEGATIVE = "#1f77b4"
ACCENT = "#2ca02c"
MUTED = "#7f7f7f"
#: Streamlit's text colour: marks drawn over the class colours (rings, labels on dark cells).
TEXT = "#262730"
SEQUENCE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
            "#17becf", "#bcbd22", "#7f7f7f"]


def layout(fig: go.Figure, title: str | None = None, height: int = 360, **kw) -> go.Figure:
    """Apply the common layout (title, margins, white template) and return the figure."""
    # Title on top, legend in its own band under it, so they never overlap.
    fig.update_layout(title=dict(text=title, y=0.98, yanchor="top"), height=height,
                      template="plotly_white",
                      margin=dict(l=10, r=10, t=90 if title else 40, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.01, x=0), **kw)
    return fig
