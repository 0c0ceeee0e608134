"""Figures for the Terms page."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from rulecore.viz.style import ACCENT, NEGATIVE, POSITIVE, bar_height, category_ticks, layout


def term_counts(counts: pd.DataFrame, max_bars: int = 60) -> go.Figure:
    """Horizontal bars: number of terms per column, coloured by column kind.

    One 22 px band per column (the figure grows with the table, so names never overlap);
    names longer than ``viz.style.LABEL_CHARS`` are cut in the middle, in full on hover.

    Parameters
    ----------
    counts : DataFrame
        As returned by :meth:`rulecore.rules.terms.Binarizer.term_counts`
        (columns ``column``, ``kind``, ``terms``).
    max_bars : int, default=60
        A wider table shows only the ``max_bars`` columns with the most terms (in table
        order), and the subtitle says so; the title still counts every term.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    total = int(counts["terms"].sum())
    shown = counts
    note = None
    if len(counts) > max_bars:  # a bar per column of a 500-column table would be 11,000 px
        shown = counts.loc[counts["terms"].nlargest(max_bars).index.sort_values()]
        # columns with as many terms as the fewest shown, left out: said, or "the 60 with the
        # most" reads as if the 16 others had fewer (a stranger's survey: 70 questions of 8)
        least = int(shown["terms"].min())
        tied = int((counts.drop(shown.index)["terms"] == least).sum())
        also = (f"; {tied} more with {least} terms, as many as the fewest shown, are not"
                if tied else "")
        note = (f"the first {max_bars} columns with the most terms of {len(counts):,}{also} "
                "(the table lists all)")
    fig = go.Figure()
    for kind, color in (("numeric", NEGATIVE), ("ordinal", ACCENT), ("categorical", POSITIVE)):
        part = shown[shown["kind"] == kind]
        if len(part):
            fig.add_bar(y=part["column"].astype(str), x=part["terms"], orientation="h",
                        name=kind, marker_color=color,
                        hovertemplate="%{y}: %{x} terms<extra></extra>")
    fig.update_layout(**category_ticks("y", shown["column"]))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title="terms")
    return layout(fig, f"{total:,} terms in all", height=bar_height(len(shown)), subtitle=note)
