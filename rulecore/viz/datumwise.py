"""Figures for the datum-wise sparse classifier (rulecore.datumwise), as plain builders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from rulecore.viz.style import bar_height, category_ticks, layout, short

__all__ = [
    "decision_path_figure",
    "features_used_histogram",
    "feature_usage_figure",
    "sparsity_curve_figure",
]


def decision_path_figure(explanation) -> go.Figure:
    """Best 'acquire' and best 'classify' score at each step of one datum's episode.

    The policy acquires while the acquire line is above the classify line and stops at the
    first step where classifying scores higher.

    Parameters
    ----------
    explanation : rulecore.datumwise.DatumExplanation
    """
    steps = explanation.steps
    x = [s["step"] for s in steps]
    names = (["start"] + [f"+ {n}" for n in explanation.feature_names])[: len(x)]
    # Feature names cut in the middle on the axis (full on hover); upright past 8 steps, when
    # angled names would run into each other, and the figure grows by the labels' length.
    many = len(x) > 8
    ticks = [short(n, 24 if many else 32) for n in names]
    fig = go.Figure()
    fig.add_scatter(x=x, y=[s["best_acquire_score"] for s in steps], mode="lines+markers",
                    name="best acquire", line={"color": "#1f77b4"}, hovertext=names,
                    hovertemplate="%{hovertext}<br>acquire %{y:.3f}<extra></extra>")
    fig.add_scatter(x=x, y=[s["best_classify_score"] for s in steps], mode="lines+markers",
                    name="best classify", line={"color": "#d62728"}, hovertext=names,
                    hovertemplate="%{hovertext}<br>classify %{y:.3f}<extra></extra>")
    longest = max(map(len, ticks), default=0)
    fig.update_layout(
        title=f"Decision path: {len(explanation.features)} feature(s), "
              f"predicted {short(explanation.prediction)}",
        xaxis={"title": "features seen", "tickvals": x, "ticktext": ticks,
               "tickangle": -90 if many else -30, "automargin": True},
        yaxis={"title": "score (estimated return)"},
        # legend above the plot: below it, it sat on the angled feature names
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0},
        margin={"t": 80},
        height=int(360 + 6 * longest * (1 if many else 0.5)),
    )
    return fig


def features_used_histogram(n_used: Sequence[int], correct: Sequence[bool],
                            n_features: int | None = None) -> go.Figure:
    """Share of data classified with exactly k features, correct vs incorrect (paper Fig. 4).

    Parameters
    ----------
    n_used : array-like of shape (n,)
        Features acquired per datum.
    correct : array-like of shape (n,), bool
        Whether the datum was classified correctly.
    n_features : int, optional
        Total number of features (sets the x range).
    """
    n_used = np.asarray(n_used, dtype=int)
    correct = np.asarray(correct, dtype=bool)
    if n_used.shape != correct.shape:
        raise ValueError("n_used and correct must have the same length.")
    kmax = int(n_features if n_features is not None else (n_used.max() if n_used.size else 0))
    ks = np.arange(kmax + 1)
    n = max(len(n_used), 1)
    fig = go.Figure()
    for ok, name, color in ((True, "correct", "#2ca02c"), (False, "incorrect", "#d62728")):
        counts = np.bincount(n_used[correct == ok], minlength=kmax + 1)[: kmax + 1]
        fig.add_bar(x=ks, y=counts / n, name=name, marker_color=color,
                    customdata=counts, hovertemplate="%{x} features: %{customdata} data<extra>"
                    + name + "</extra>")
    # ".1~%": with shares under 5 % the ticks are 0.5 % apart, which ".0%" printed as
    # "1%, 1%, 2%, 2%"
    fig.update_layout(barmode="stack", title="Number of features used per datum",
                      xaxis={"title": "features used", "dtick": 1 if kmax <= 30 else None},
                      yaxis={"title": "share of data", "tickformat": ".1~%"},
                      legend={"orientation": "h", "y": -0.2})
    return fig


def feature_usage_figure(used: np.ndarray, names: Sequence[str] | None = None,
                         max_bars: int = 60) -> go.Figure:
    """Share of data for which each feature was acquired (paper Fig. 4, left).

    Horizontal bars, most acquired on top, one 22 px band per feature: with dozens of long
    column names, vertical bars' names were angled upright and cut.  Names longer than
    ``viz.style.LABEL_CHARS`` are cut in the middle, in full on hover.

    Parameters
    ----------
    used : ndarray of shape (n, d), bool
    names : sequence of d str, optional
    max_bars : int, default=60
        At most this many features, the most acquired; the title says how many are left out.
    """
    used = np.asarray(used, dtype=bool)
    d = used.shape[1]
    names = [str(n) for n in names] if names is not None else [f"x{j}" for j in range(d)]
    share = used.mean(axis=0) if len(used) else np.zeros(d)
    top = np.argsort(-share, kind="stable")[:max_bars]
    note = f"the {max_bars} most acquired of {d} features" if d > max_bars else None
    shown = [names[j] for j in top]
    fig = go.Figure(go.Bar(y=shown, x=share[top], orientation="h", marker_color="#1f77b4",
                           hovertemplate="%{y}: %{x:.1%} of data<extra></extra>"))
    fig.update_layout(**category_ticks("y", shown),
                      xaxis={"title": "share of data", "tickformat": ".0%", "range": [0, 1]})
    fig.update_yaxes(autorange="reversed")
    return layout(fig, "How often each feature is acquired", height=bar_height(len(top)),
                  subtitle=note)


def sparsity_curve_figure(curves: pd.DataFrame | Mapping[str, pd.DataFrame],
                          majority: float | None = None) -> go.Figure:
    """Accuracy against sparsity, one line per model (paper Fig. 3).

    Parameters
    ----------
    curves : DataFrame with columns ``model``, ``sparsity``, ``accuracy`` and optionally
        ``param`` (λ or C, shown on hover); or a mapping model -> DataFrame.
    majority : float, optional
        The test accuracy of always predicting the most common class, drawn as a line: a
        curve flat on it learned nothing (a review read such a curve as a result).
    """
    if isinstance(curves, Mapping):
        curves = pd.concat([df.assign(model=k) for k, df in curves.items()], ignore_index=True)
    fig = go.Figure()
    palette = {"DWSM-Un": "#d62728", "DWSM-Con": "#ff7f0e", "L1-SVM": "#1f77b4"}
    for model, df in curves.groupby("model", sort=False):
        # Along the curve: by sparsity, then by the parameter (several C can share a sparsity).
        df = df.sort_values(["sparsity", "param"] if "param" in df else ["sparsity"])
        param = df["param"] if "param" in df else pd.Series([np.nan] * len(df))
        fig.add_scatter(x=df["sparsity"], y=df["accuracy"], mode="lines+markers", name=str(model),
                        line={"color": palette.get(str(model))},
                        customdata=np.asarray(param, dtype=float),
                        hovertemplate="sparsity %{x:.2f}<br>accuracy %{y:.3f}"
                                      "<br>param %{customdata:.4g}<extra>" + str(model)
                                      + "</extra>")
    if majority is not None:
        fig.add_hline(y=float(majority), line={"dash": "dot", "color": "#7f7f7f"},
                      annotation_text=f"always the most common class ({majority:.3f})",
                      annotation_position="bottom right")
    # accuracy lives in [0, 1]: plotly's autorange ran the axis to 1.5 (a review)
    fig.update_layout(title="Accuracy vs sparsity",
                      xaxis={"title": "sparsity (share of features not used)", "range": [0, 1.02]},
                      yaxis={"title": "test accuracy", "range": [0, 1.02]},
                      legend={"orientation": "h", "y": -0.2})
    return fig
