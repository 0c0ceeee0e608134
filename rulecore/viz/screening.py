"""Figures for the Screening page: the column funnel and what each test removes."""

from __future__ import annotations

import plotly.graph_objects as go

from rulecore.rules.screening import TEST_LABELS, ScreeningReport
from rulecore.viz.style import ACCENT, MUTED, NEGATIVE, POSITIVE, layout, wrap


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
    # stage names over lines of 24 characters: the page draws this in half its width, and
    # "Paper's pairwise test (heuristic, not certified)" took a third of it on one line
    stages = [wrap(s, 24) for s in f["stage"]]
    fig = go.Figure(go.Funnel(y=stages, x=f["columns"], text=text, textinfo="text",
                              marker=dict(color=colors),
                              hovertemplate="%{y}: %{x:,} terms<extra></extra>"))
    default = (f"{report.n_columns:,} terms → {report.n_kept:,} kept "
               f"({report.fraction_screened:.1%} screened"
               + (", certified)" if report.certified else ", NOT certified: heuristic used)"))
    return layout(fig, title or default, height=320)


def removed_by_test(report: ScreeningReport) -> go.Figure:
    """Bars: what each test removes alone (on all terms) and in the sequence.  The LP's
    columns are the terms; the chart says terms, as the funnel and the pages do."""
    tests = list(report.removed_by)
    # test names over lines of 16 characters: on one line they were angled into each other
    names = [wrap(TEST_LABELS.get(t, t), 16) for t in tests]
    fig = go.Figure()
    if all(t in report.alone for t in tests):  # screen(..., diagnostics=False) has none
        fig.add_bar(name="alone", x=names,
                    y=[int(report.alone[t].sum()) for t in tests], marker_color=MUTED)
    fig.add_bar(name="in sequence", x=names,
                y=[int(report.removed_by[t].sum()) for t in tests], marker_color=NEGATIVE)
    fig.update_layout(barmode="group")
    fig.update_xaxes(tickangle=0, automargin=True)
    fig.update_yaxes(title="terms removed")
    return layout(fig, "Terms removed by each test", height=320)
