"""Figures for the Screening page: the column funnel and what each test removes."""

from __future__ import annotations

import plotly.graph_objects as go

from rulecore.screening import TEST_LABELS, ScreeningReport
from rulecore.viz.style import ACCENT, MUTED, NEGATIVE, POSITIVE, layout


def funnel(report: ScreeningReport, title: str | None = None) -> go.Figure:
    """Columns left after each test in sequence: all terms → ... → kept.

    The heuristic pairwise step, if present, is drawn in red and the title says the result
    is not certified.
    """
    f = report.funnel()
    colors = [MUTED] + [POSITIVE if "heuristic" in s else NEGATIVE for s in f["stage"][1:]]
    colors[-1] = ACCENT if report.certified else POSITIVE
    text = [f"{c:,}" + ("" if i == 0 else f"  (−{r:,}, {s * 1000:.0f} ms)")
            for i, (c, r, s) in enumerate(zip(f["columns"], f["removed"], f["seconds"]))]
    fig = go.Figure(go.Funnel(y=f["stage"], x=f["columns"], text=text, textinfo="text",
                              marker=dict(color=colors),
                              hovertemplate="%{y}: %{x:,} columns<extra></extra>"))
    default = (f"{report.n_columns:,} terms → {report.n_kept:,} kept "
               f"({report.fraction_screened:.1%} screened"
               + (", certified)" if report.certified else ", NOT certified: heuristic used)"))
    return layout(fig, title or default, height=320)


def removed_by_test(report: ScreeningReport) -> go.Figure:
    """Bars: what each test removes alone (on all columns) and in the sequence."""
    tests = list(report.removed_by)
    fig = go.Figure()
    if all(t in report.alone for t in tests):  # screen(..., diagnostics=False) has none
        fig.add_bar(name="alone", x=[TEST_LABELS.get(t, t) for t in tests],
                    y=[int(report.alone[t].sum()) for t in tests], marker_color=MUTED)
    fig.add_bar(name="in sequence", x=[TEST_LABELS.get(t, t) for t in tests],
                y=[int(report.removed_by[t].sum()) for t in tests], marker_color=NEGATIVE)
    fig.update_layout(barmode="group")
    fig.update_yaxes(title="columns removed")
    return layout(fig, "Columns removed by each test", height=320)
