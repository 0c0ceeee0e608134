"""Figures for the Rule page: rule region on a scatter, λ path, confusion matrix."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rulecore.rule import Rule
from rulecore.viz.style import ACCENT, MUTED, NEGATIVE, POSITIVE, layout


def _interval(rule: Rule, feature: str) -> tuple[float, float]:
    """The (lo, hi] interval an AND-rule allows on one numeric feature."""
    lo, hi = -np.inf, np.inf
    for c in rule.conditions:
        if c.feature == feature and c.numeric:
            if c.op == "<=":
                hi = min(hi, float(c.value))
            else:
                lo = max(lo, float(c.value))
    return lo, hi


def rule_scatter(X: pd.DataFrame, y: np.ndarray, rule: Rule, fx: str, fy: str,
                 labels: tuple[str, str] = ("other", "positive"),
                 max_points: int = 5000) -> go.Figure:
    """Two features against each other, the rule's region shaded and its thresholds drawn.

    Points are coloured by class; hollow markers are rows the rule gets wrong.  For an
    AND-rule the shaded box is where the conditions on these two features hold (conditions on
    other features are not drawn; rows that fail them are predicted negative even inside).

    Parameters
    ----------
    X : DataFrame of shape (n_samples, n_features)
    y : 0/1 array of shape (n_samples,)
    rule : Rule
    fx, fy : str
        Numeric columns of ``X`` for the axes.
    """
    y = np.asarray(y)
    pred = rule.predict(X)
    idx = np.arange(len(X))
    if len(idx) > max_points:
        idx = np.sort(np.random.default_rng(0).choice(idx, max_points, replace=False))
    xs = pd.to_numeric(X[fx], errors="coerce").to_numpy()[idx]
    ys = pd.to_numeric(X[fy], errors="coerce").to_numpy()[idx]
    fig = go.Figure()
    for cls, color, name in ((0, NEGATIVE, labels[0]), (1, POSITIVE, labels[1])):
        for right in (True, False):
            sel = (y[idx] == cls) & ((pred[idx] == y[idx]) == right)
            if not sel.any():
                continue
            fig.add_scatter(
                x=xs[sel], y=ys[sel], mode="markers",
                name=f"{name}{'' if right else ' (misclassified)'}",
                # wrong rows: hollow markers in the class colour (circle / diamond)
                marker=dict(color=color, size=7 if right else 9,
                            symbol=("circle" if cls else "x") if right else
                            ("circle-open" if cls else "diamond-open"),
                            line=dict(color=color, width=1.5)),
                hovertemplate=f"{fx}=%{{x}}<br>{fy}=%{{y}}<extra>{name}</extra>")
    if rule.rule_type == "and":
        (x0, x1), (y0, y1) = _interval(rule, fx), _interval(rule, fy)
        fxs, fys = xs[np.isfinite(xs)], ys[np.isfinite(ys)]
        pad_x = (fxs.max() - fxs.min()) * 0.05 if len(fxs) else 1
        pad_y = (fys.max() - fys.min()) * 0.05 if len(fys) else 1
        bx0 = x0 if np.isfinite(x0) else (fxs.min() - pad_x if len(fxs) else 0)
        bx1 = x1 if np.isfinite(x1) else (fxs.max() + pad_x if len(fxs) else 1)
        by0 = y0 if np.isfinite(y0) else (fys.min() - pad_y if len(fys) else 0)
        by1 = y1 if np.isfinite(y1) else (fys.max() + pad_y if len(fys) else 1)
        fig.add_shape(type="rect", x0=bx0, x1=bx1, y0=by0, y1=by1, line=dict(width=0),
                      fillcolor=ACCENT, opacity=0.12, layer="below")
    for c in rule.conditions:
        if not c.numeric or c.feature not in (fx, fy):
            continue
        kw = dict(line_dash="dash", line_color=MUTED, annotation_text=str(c),
                  annotation_font_size=10)
        if c.feature == fx:
            fig.add_vline(x=float(c.value), **kw)
        else:
            fig.add_hline(y=float(c.value), **kw)
    fig.update_xaxes(title=fx)
    fig.update_yaxes(title=fy)
    return layout(fig, f"{fy} against {fx}, rule region shaded", height=460)


def lambda_path(path: pd.DataFrame, current: float | None = None) -> go.Figure:
    """Rule size and train/test error over λ (log axis); click a point to pick that λ.

    Parameters
    ----------
    path : DataFrame
        As returned by :func:`rulecore.bcs.lambda_path` (``lam``, ``conditions``,
        ``train_error``, ``test_error``).
    current : float, optional
        The λ in use, marked with a vertical line.
    """
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_scatter(x=path["lam"], y=path["conditions"], name="conditions", mode="lines+markers",
                    line=dict(color=ACCENT, shape="hv"), marker=dict(size=9),
                    hovertemplate="λ=%{x:.3g}: %{y} conditions<extra></extra>")
    fig.add_scatter(x=path["lam"], y=path["train_error"], name="train error",
                    mode="lines+markers", line=dict(color=NEGATIVE), secondary_y=True,
                    hovertemplate="λ=%{x:.3g}: train error %{y:.3f}<extra></extra>")
    if path["test_error"].notna().any():
        fig.add_scatter(x=path["lam"], y=path["test_error"], name="test error",
                        mode="lines+markers", line=dict(color=POSITIVE, dash="dot"),
                        secondary_y=True,
                        hovertemplate="λ=%{x:.3g}: test error %{y:.3f}<extra></extra>")
    if current is not None:
        fig.add_vline(x=current, line_dash="dot", line_color=MUTED)
    fig.update_xaxes(type="log", title="λ (weight of errors)")
    fig.update_yaxes(title="conditions", secondary_y=False, rangemode="tozero")
    fig.update_yaxes(title="error", secondary_y=True, rangemode="tozero")
    return layout(fig, "λ path: rule size and error", height=380)


def confusion_matrix(cm: np.ndarray, labels: tuple[str, str] = ("negative", "positive"),
                     title: str = "Confusion matrix") -> go.Figure:
    """2×2 heatmap, rows = true class, columns = predicted class, with counts."""
    cm = np.asarray(cm)
    text = [[str(v) for v in row] for row in cm]
    fig = go.Figure(go.Heatmap(z=cm, x=[f"pred {labels[0]}", f"pred {labels[1]}"],
                               y=[f"true {labels[0]}", f"true {labels[1]}"], text=text,
                               texttemplate="%{text}", colorscale="Blues", showscale=False,
                               hovertemplate="%{y}, %{x}: %{z}<extra></extra>"))
    fig.update_yaxes(autorange="reversed")
    return layout(fig, title, height=300)
