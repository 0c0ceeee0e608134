"""Figure of a rule's stability over refits: how often each condition came back, and the
spread of the held-out error (:func:`rulecore.rules.stability.stability`)."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rulecore.rules.stability import StabilityResult
from rulecore.viz.style import (
    ACCENT,
    LABEL_CHARS,
    MUTED,
    NEGATIVE,
    bar_height,
    category_ticks,
    layout,
    short,
)

#: Most condition groups drawn; the rest are counted in the subtitle (style rule: a bar
#: chart shows a documented number of bars at most).
MAX_BARS = 30
#: Height in px of the held-out error strip under the bars.
STRIP_HEIGHT = 130


def stability_figure(result: StabilityResult, title: str | None = None,
                     max_bars: int = MAX_BARS, learned: Collection[str] = ()) -> go.Figure:
    """Condition-group frequency as horizontal bars over a strip of the folds' held-out errors.

    Parameters
    ----------
    result : StabilityResult
    title : str, optional
        Default: the stability score and how the rows were perturbed (the subtitle says
        what the score means, and how many groups were left out).
    max_bars : int
        The most frequent groups drawn (the subtitle says how many were left out).
    learned : collection of str
        Labels of the groups that hold a condition of the rule learned on the analyst's
        split (:func:`~rulecore.rules.stability.where_learned`): outlined, and drawn even
        when they fall past ``max_bars``.

    Returns
    -------
    Figure
        Row 1: one bar per condition group (at most ``max_bars``), its share of folds,
        the most frequent on top, coloured green when it appears in every fold.  Row 2: one
        point per fold at its held-out error, with the mean as a line.
    """
    learned = set(learned)
    shown = result.conditions.index < max_bars
    table = result.conditions[shown | result.conditions["condition"].isin(learned)]
    labels = [str(c) for c in table["condition"]]
    mine = [lab in learned for lab in labels]
    # plotly draws the first category at the bottom: reverse, so the most frequent is on top
    order = labels[::-1]
    n_bars = len(labels)
    bars_px = bar_height(n_bars, base=40)
    gap_px = 70  # room for the strip's subplot title, whatever the number of bars
    spread = (f": mean {result.error_mean:.1%} ± {result.error_std:.1%} (dashed), "
              f"{result.error_min:.1%} to {result.error_max:.1%}"
              if np.isfinite(result.errors).any() else "")
    fig = make_subplots(rows=2, cols=1,
                        vertical_spacing=gap_px / (bars_px + STRIP_HEIGHT + gap_px),
                        row_heights=[bars_px, STRIP_HEIGHT],
                        subplot_titles=("Share of folds with the condition",
                                        "Held-out error of each fold" + spread))
    colors = [ACCENT if f >= 1.0 else NEGATIVE for f in table["frequency"]]
    fig.add_trace(go.Bar(
        x=table["frequency"], y=labels, orientation="h", marker_color=colors,
        marker_line=dict(color=[MUTED if m else "rgba(0,0,0,0)" for m in mine],
                         width=[3 if m else 0 for m in mine]),
        text=[f"{k}/{result.n_splits}" + (" · your rule" if m else "")
              for k, m in zip(table["folds"], mine)], textposition="auto",
        customdata=table["folds"],
        hovertemplate="%{y}<br>in %{customdata} of " + str(result.n_splits)
        + " folds (%{x:.0%})<extra></extra>", showlegend=False), row=1, col=1)
    fig.update_xaxes(range=[0, 1.02], tickformat=".0%", row=1, col=1)
    ticks = category_ticks("y", order)["yaxis"]
    # the column's name is shortened, never the direction and thresholds after it
    # ("months_since_promotio… 10.5–11.5" lost its ">": a review)
    rest = {lab: f"{d} {t}".strip() for lab, d, t in
            zip(labels, table["direction"], table["thresholds"])}
    ticks["ticktext"] = [
        short(f, max(8, LABEL_CHARS - len(rest[lab]) - 1)) + " " + rest[lab]
        for lab, f in zip(order, table["feature"].tolist()[::-1])]
    fig.update_yaxes(**ticks, row=1, col=1)

    errors = np.asarray(result.errors, dtype=float)
    folds = np.arange(len(errors))
    rules = list(result.fold_table["rule"]) if "rule" in result.fold_table else [""] * len(folds)
    fig.add_trace(go.Scatter(
        x=errors, y=np.zeros(len(errors)), mode="markers",
        marker=dict(color=NEGATIVE, size=11, opacity=0.8, line=dict(color="white", width=1)),
        customdata=np.column_stack([folds, rules]) if len(folds) else None,
        hovertemplate="fold %{customdata[0]}: %{x:.1%}<br>%{customdata[1]}<extra></extra>",
        name="fold", showlegend=False), row=2, col=1)
    if np.isfinite(errors).any():
        fig.add_vline(x=result.error_mean, line=dict(color=MUTED, dash="dash"), row=2, col=1)
    fig.update_xaxes(tickformat=".1%", title="held-out error", row=2, col=1)
    fig.update_yaxes(visible=False, range=[-1, 1], row=2, col=1)

    left = len(result.conditions) - n_bars
    subtitle = "1 = the same conditions in every fold" + (
        f"; the {n_bars} most frequent of {len(result.conditions)} condition groups shown"
        if left > 0 else "")
    default = f"Stability score {result.score:.2f}, {result.method}"
    return layout(fig, title or default, height=bars_px + STRIP_HEIGHT + gap_px + 110,
                  subtitle=subtitle)
