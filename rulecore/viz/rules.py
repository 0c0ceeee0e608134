"""Figures for the Rule page: rule region on a scatter, confusion matrix (Vega-Lite), λ path,
and the sweep's Pareto front."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rulecore.rules.rule import Rule
from rulecore.rules.terms import format_value
from rulecore.sweep import pareto_front
from rulecore.viz.style import (
    ACCENT,
    MUTED,
    NEGATIVE,
    POSITIVE,
    TEXT,
    TITLE_CHARS,
    layout,
    sample_note,
    short,
    vl_lines,
    vl_short,
)

#: Seed of the row sample drawn by rule_region: the same rows on every call.
SAMPLE_SEED = 0


def _interval(rule: Rule, feature: str) -> tuple[float, float]:
    """The (lo, hi] interval an AND-rule allows on one numeric feature."""
    lo, hi = -np.inf, np.inf
    for c in rule.conditions:
        if c.feature == feature and c.op == "is missing":
            return np.inf, -np.inf  # no plotted point (each has the value) satisfies it
        if c.feature == feature and c.numeric:
            if c.op == "<=":
                hi = min(hi, float(c.value))
            else:
                lo = max(lo, float(c.value))
    return lo, hi


def _levels(v: np.ndarray, max_levels: int = 200) -> np.ndarray | None:
    """The distinct values of an axis of whole numbers (counts, codes, a date's year or
    month), or None for any other axis."""
    u = np.unique(v[np.isfinite(v)])
    if 2 <= len(u) <= max_levels and np.all(u == np.round(u)):
        return u
    return None


def _snap(t: float, levels: np.ndarray | None) -> float:
    """Where to draw threshold ``t`` on a jittered axis: halfway between the values it
    separates, so that no jittered point crosses it (``x <= 3`` on whole numbers: at 3.5)."""
    if levels is None or not np.isfinite(t):
        return t
    below, above = levels[levels <= t], levels[levels > t]
    return float((below[-1] + above[0]) / 2) if len(below) and len(above) else t


def rule_region(X: pd.DataFrame, y: np.ndarray, rule: Rule, fx: str, fy: str,
                labels: tuple[str, str] = ("other", "positive"),
                max_points: int = 5000) -> dict:
    """Two features against each other, the rule's region shaded and its thresholds drawn.

    Points are coloured by class; rows the rule gets wrong are ringed.  For an
    AND-rule the shaded box is where the conditions on these two features hold (conditions on
    other features are not drawn; rows that fail them are predicted negative even inside).

    A Vega-Lite spec, not a plotly figure (like :func:`confusion_matrix` and
    ``viz.data.class_balance``): the Rule page redraws this chart on every λ or thresholds
    move, and a browser redraws it for a tenth of the CPU plotly needs (0.03 against 0.22
    CPU-s a move; ``bench/results/load_test.md``).
    Everything that depends on the rule sits in the named ``datasets``, so a new rule changes
    only data and the page updates the chart in place.  Show it with
    ``st.vega_lite_chart(spec)`` or, in a notebook, ``altair.Chart.from_dict(spec)``.

    Parameters
    ----------
    X : DataFrame of shape (n_samples, n_features)
    y : 0/1 array of shape (n_samples,)
    rule : Rule
    fx, fy : str
        Numeric columns of ``X`` for the axes.
        An axis of whole numbers (at most 200 distinct values: counts, codes, a date's year
        or month) would stack many rows on one point: there the points are spread by up to
        ±0.3 of the step between values ("jitter", fixed seed), their true values kept in
        ``value_x`` / ``value_y`` for the tooltip, and each threshold and box edge is drawn
        halfway between the two values it separates, so every point stays on its side.
    labels : (str, str)
        Names of class 0 and class 1.
    max_points : int
        A larger table is drawn from a fixed random subset of this many rows (seed
        :data:`SAMPLE_SEED`), and the subtitle says so: ``"a random 5,000 of 60,000 rows
        shown"``.  Rows missing either coordinate are not drawn; the subtitle counts them.

    Returns
    -------
    dict
        Vega-Lite v5 spec with datasets ``points`` (``x``, ``y``, ``class``, and
        ``value_x`` / ``value_y`` on a jittered axis; at most
        ``max_points`` rows, the same for every rule), ``errors`` (those of them the rule
        gets wrong), ``region`` (one box, or none for an OR-rule) and ``thresholds``
        (``axis``, ``value``, ``condition`` and ``label``, the condition with the column
        name shortened), all JSON-serialisable.
    """
    y = np.asarray(y)
    pred = np.asarray(rule.predict(X))
    idx = np.arange(len(X))
    if len(idx) > max_points:
        idx = np.sort(np.random.default_rng(SAMPLE_SEED).choice(idx, max_points, replace=False))
    xs = pd.to_numeric(X[fx], errors="coerce").to_numpy(dtype=float)[idx]
    ys = pd.to_numeric(X[fy], errors="coerce").to_numpy(dtype=float)[idx]
    keep = np.isfinite(xs) & np.isfinite(ys)  # a point with a missing coordinate has no place
    cls = np.where(y[idx] == 1, labels[1], labels[0])
    lx, ly = _levels(xs[keep]), _levels(ys[keep])
    rng = np.random.default_rng(SAMPLE_SEED)

    def jitter(v: np.ndarray, levels: np.ndarray | None) -> np.ndarray:
        if levels is None:
            return v
        return v + rng.uniform(-0.3, 0.3, len(v)) * float(np.min(np.diff(levels)))

    px, py = jitter(xs, lx), jitter(ys, ly)

    def point(i: int) -> dict:
        p = {"x": float(px[i]), "y": float(py[i]), "class": str(cls[i])}
        if lx is not None:
            p["value_x"] = float(xs[i])
        if ly is not None:
            p["value_y"] = float(ys[i])
        return p

    points = [point(i) for i in np.flatnonzero(keep)]
    # The rows the rule gets wrong are a dataset of their own, drawn as rings over the points:
    # ``points`` then depends only on the data and the axes, so when the rule changes the
    # browser keeps it and redraws only the rings, the box and the lines.  (Marking them
    # inside ``points`` replaced all 2,000 points of the app's sample on every move; see the
    # fifth pass in bench/results/load_test.md.)
    wrong = keep & (pred[idx] != y[idx])
    errors = [point(i) for i in np.flatnonzero(wrong)]

    def domain(v: np.ndarray, levels: np.ndarray | None) -> list[float]:
        v = v[np.isfinite(v)]
        if not len(v):
            return [0.0, 1.0]
        pad = (v.max() - v.min()) * 0.05 or 1.0
        if levels is not None:  # room for the jitter
            pad = max(pad, 0.5 * float(np.min(np.diff(levels))))
        return [float(v.min() - pad), float(v.max() + pad)]

    (dx0, dx1), (dy0, dy1) = domain(xs, lx), domain(ys, ly)
    region = []
    # Shade only where the rule says something about these axes: with every condition on
    # other columns the "region" would be the whole plot, which reads as "all positive".
    on_axes = any(c.feature in (fx, fy) for c in rule.conditions)
    if rule.rule_type == "and" and on_axes:
        (x0, x1), (y0, y1) = _interval(rule, fx), _interval(rule, fy)
        x0, x1, y0, y1 = _snap(x0, lx), _snap(x1, lx), _snap(y0, ly), _snap(y1, ly)
        # an open side of the interval runs to the edge of the plot
        box = {"x0": max(x0, dx0), "x1": min(x1, dx1), "y0": max(y0, dy0), "y1": min(y1, dy1)}
        if box["x0"] < box["x1"] and box["y0"] < box["y1"]:  # else the box is off the plot
            region = [box]
    # ``label`` is the condition with the column name shortened (the line sits on that
    # column's axis anyway); the full ``condition`` is its tooltip.
    thresholds = [{"axis": "x" if c.feature == fx else "y",
                   "value": _snap(float(c.value), lx if c.feature == fx else ly),
                   "condition": str(c),
                   "label": f"{short(c.feature)} {c.op} {format_value(c.value)}"}
                  for c in rule.conditions if c.numeric and c.feature in (fx, fy)]
    # Say in the figure what it leaves out (the rows drawn depend only on the data, never on
    # the rule, so this note does not change when the rule does).
    notes = ["ringed: rows the rule gets wrong"]
    if len(X) > max_points:
        notes.append(sample_note(len(idx), len(X)) + f" (fixed seed {SAMPLE_SEED})")
    if (~keep).any():
        notes.append(f"{int((~keep).sum()):,} rows without a value on an axis not drawn")
    spread = [a for a, lv in (("x", lx), ("y", ly)) if lv is not None]
    if spread:
        notes.append(f"whole numbers on {' and '.join(spread)} spread a little (jitter)")
    # 45 px² circles cover each other past a few thousand points: smaller, lighter marks.
    size, opacity = (45, 0.8) if len(points) <= 2000 else (16, 0.5)

    def scale(dom: list[float]) -> dict:
        return {"domain": dom, "nice": False, "zero": False}

    # Long column names: axis titles cut in the middle (full names in every tooltip).  The
    # upright y title is kept shorter than the plot is high: a longer one pushed the chart's
    # title off the top of the canvas.
    # whole-number axes: ticks on whole numbers, no thousands separator (a year is 2023)
    whole = {"axis": {"format": "d", "tickMinStep": 1}}
    x_enc = {"field": "x", "type": "quantitative", "title": short(fx, TITLE_CHARS),
             "scale": scale([dx0, dx1]), **(whole if lx is not None else {})}
    y_enc = {"field": "y", "type": "quantitative", "title": short(fy),
             "scale": scale([dy0, dy1]), **(whole if ly is not None else {})}
    # One legend (colour, shape and fill share it); long class labels cut in the middle
    # rather than at Vega's default 160 px (full ones in the points' tooltip).
    legend = {"labelExpr": vl_short(), "labelLimit": 0}
    # a jittered point's tooltip gives its true value
    tip_x = {"field": "x" if lx is None else "value_x", "title": fx}
    tip_y = {"field": "y" if ly is None else "value_y", "title": fy}

    def threshold_lines(axis: str, dom: list[float]) -> dict:
        """Dashed lines at this axis's thresholds, each labelled with its condition."""
        other = "y" if axis == "x" else "x"
        return {"data": {"name": "thresholds"},
                "transform": [{"filter": f"datum.axis === '{axis}'"}],
                "encoding": {axis: {"field": "value", "type": "quantitative",
                                    "scale": scale(dom)}},
                "layer": [{"mark": {"type": "rule", "strokeDash": [6, 4], "color": MUTED}},
                          {"mark": {"type": "text", "align": "left", "dx": 4,
                                    "dy": 8 if axis == "x" else -6, "fontSize": 10,
                                    "color": MUTED},
                           "encoding": {other: {"value": 0}, "text": {"field": "label"},
                                        "tooltip": [{"field": "condition"}]}}]}

    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": {"text": f"{short(fy)} against {short(fx)}, rule region shaded",
                  "subtitle": " · ".join(notes)},
        "height": 420,
        "datasets": {"points": points, "errors": errors, "region": region,
                     "thresholds": thresholds},
        "layer": [
            {"data": {"name": "region"},
             "mark": {"type": "rect", "color": ACCENT, "opacity": 0.12, "clip": True},
             "encoding": {"x": {**x_enc, "field": "x0"}, "x2": {"field": "x1"},
                          "y": {**y_enc, "field": "y0"}, "y2": {"field": "y1"}}},
            {"name": "points", "data": {"name": "points"},
             "mark": {"type": "point", "strokeWidth": 1.5, "size": size,
                      "fillOpacity": opacity, "clip": True},
             "encoding": {
                 "x": x_enc, "y": y_enc,
                 "color": {"field": "class", "type": "nominal", "title": "class",
                           "scale": {"domain": list(labels), "range": [NEGATIVE, POSITIVE]},
                           "legend": legend},
                 "shape": {"field": "class", "type": "nominal", "title": "class",
                           "scale": {"domain": list(labels), "range": ["cross", "circle"]},
                           "legend": legend},
                 "fill": {"field": "class", "type": "nominal", "title": "class",
                          "scale": {"domain": list(labels), "range": [NEGATIVE, POSITIVE]},
                          "legend": legend},
                 "tooltip": [tip_x, tip_y, {"field": "class"}]}},
            {"name": "errors", "data": {"name": "errors"},
             "mark": {"type": "point", "shape": "circle", "size": 170, "strokeWidth": 1.5,
                      "color": TEXT, "filled": False, "clip": True},
             "encoding": {"x": x_enc, "y": y_enc,
                          "tooltip": [tip_x, tip_y,
                                      {"field": "class", "title": "class (the rule is wrong)"}]}},
            threshold_lines("x", [dx0, dx1]),
            threshold_lines("y", [dy0, dy1]),
        ],
        "resolve": {"scale": {"x": "shared", "y": "shared"}},
    }


def lambda_path(path: pd.DataFrame, current: float | None = None) -> go.Figure:
    """Rule size and train/test error over λ (log axis); click a point to pick that λ.

    Parameters
    ----------
    path : DataFrame
        As returned by :func:`rulecore.rules.estimators.lambda_path` (``lam``, ``conditions``,
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
    # one label per power of ten: plotly's default also labels 2 and 5 between them, which
    # crowded the axis with "5 0.01 2 5 0.1 2 ..." over the app's 0.01-1000 grid
    fig.update_xaxes(type="log", dtick=1, title="λ (weight of errors)")
    fig.update_yaxes(title="conditions", secondary_y=False, rangemode="tozero")
    fig.update_yaxes(title="error", secondary_y=True, rangemode="tozero")
    return layout(fig, "λ path: rule size and error", height=380)


def confusion_matrix(cm: np.ndarray, labels: tuple[str, ...] = ("negative", "positive"),
                     title: str = "Confusion matrix") -> dict:
    """K×K heatmap with counts, rows = true class, columns = predicted class (Vega-Lite spec;
    ``labels`` in the order of ``cm``'s rows).

    A Vega-Lite spec for the reason given in :func:`rule_region`: the Rule page redraws it on
    most slider moves, and the counts sit in the named dataset ``cells``, which the browser
    updates in place (about 0.04 CPU-s a move less than the plotly heatmap it replaces).
    Axis labels go over at most three lines (the cells' tooltip has them in full): on
    one line, Vega cut long class labels to about 15 characters.
    """
    cm = np.asarray(cm)
    top = max(int(cm.max()), 1)
    cells = [{"true": f"true {labels[i]}", "predicted": f"pred {labels[j]}",
              "count": int(cm[i, j]), "dark": bool(cm[i, j] > top / 2)}
             for i in range(len(labels)) for j in range(len(labels))]
    order = {"true": [f"true {v}" for v in labels], "predicted": [f"pred {v}" for v in labels]}

    def axis(names: list[str], width: int, max_lines: int = 3) -> dict:
        """Labels wrapped over lines of ``width`` characters, not cut at Vega's limit."""
        return {"labelExpr": vl_lines({v: v for v in names}, width, max_lines),
                "labelLimit": 0}

    # more than three classes: the columns are too narrow for level labels ("pred Damaged
    # in…" ran into "pred Defective": a review), so they slant, one line each
    slanted = len(labels) > 3

    return {
        "title": {"text": title, "anchor": "start"},
        "height": max(260, 40 * len(labels)),  # room for three-line or slanted labels
        "data": {"name": "cells"},
        "datasets": {"cells": cells},
        "encoding": {
            "x": {"field": "predicted", "type": "nominal", "sort": order["predicted"],
                  # below the cells: Vega draws a multi-line label's further lines under
                  # the first, which on a top axis ran into the cells
                  # every column named: Vega hid the labels that overlapped (with four
                  # classes only "pred Premium" and "pred VIP" were left), so with more
                  # than three the labels wrap narrower, and none is dropped
                  "title": None, "axis": {"labelAngle": -35 if slanted else 0,
                                          "orient": "bottom", "labelOverlap": False,
                                          # a column is about 120 px wide with two
                                          # classes: 18 characters ran "pred non-responder"
                                          # into "pred responder" (a review)
                                          **axis(order["predicted"], 22 if slanted else
                                                 12 if len(labels) == 2 else 9,
                                                 1 if slanted else 3)}},
            "y": {"field": "true", "type": "nominal", "sort": order["true"], "title": None,
                  "axis": axis(order["true"], 24)},
        },
        "layer": [
            {"mark": {"type": "rect", "stroke": "white", "strokeWidth": 2},
             "encoding": {"color": {"field": "count", "type": "quantitative",
                                    "scale": {"scheme": "blues", "domainMin": 0},
                                    "legend": None},
                          "tooltip": [{"field": "true"}, {"field": "predicted"},
                                      {"field": "count", "type": "quantitative",
                                       "format": ","}]}},
            {"mark": {"type": "text", "fontSize": 18},
             "encoding": {"text": {"field": "count", "type": "quantitative", "format": ","},
                          "color": {"condition": {"test": "datum.dark", "value": "white"},
                                    "value": TEXT}}},
        ],
    }


def cv_curve(cv: pd.DataFrame) -> go.Figure:
    """Inner cross-validation of ``lam="auto"``: mean CV error against mean conditions, one
    line per class described (or rule type, or threshold count), the chosen grid point
    marked (a star).

    Parameters
    ----------
    cv : DataFrame
        ``cv_results_`` of :class:`~rulecore.rules.ruleset.RuleSetClassifier` (or of a rule
        model fitted with ``lam="auto"``): ``lam``, ``error``, ``error_std``, ``conditions``,
        ``chosen`` and, for a rule set, ``describe`` (for a single rule with
        ``rule_type="auto"``, ``rule_type``; for a rule list whose thresholds were chosen too,
        ``n_thresholds``; for a rule list built both ways, ``multiclass``): one line each.
    """
    fig = go.Figure()
    by = "describe" if "describe" in cv and cv["describe"].notna().any() \
        else "rule_type" if "rule_type" in cv \
        else "n_thresholds" if "n_thresholds" in cv else None
    # a rule list's two constructions (one-vs-rest, class by class) compared too: one line
    # per (thresholds, construction), the construction drawn dotted or solid
    lists = "multiclass" in cv and cv["multiclass"].nunique() > 1
    keys = [k for k in (by, "multiclass" if lists else None) if k]
    groups = cv.groupby(keys, dropna=False, sort=False) if keys else [(None, cv)]
    colors = [ACCENT, POSITIVE, NEGATIVE, MUTED]
    firsts = list(dict.fromkeys(cv[by])) if by else [None]
    list_words = {"one-vs-rest": "one-vs-rest list", "sequential": "class-by-class list"}
    chosen_color, chosen_name = TEXT, "chosen"
    for label, g in groups:
        parts = dict(zip(keys, label if isinstance(label, tuple) else (label,)))
        label, kind = parts.get(by), parts.get("multiclass")
        g = g.sort_values("conditions")
        plain = label is None or (isinstance(label, float) and np.isnan(label))
        name = "CV error" if plain else f"{label.upper()}-rule" if by == "rule_type" \
            else f"{label} thresholds per column" if by == "n_thresholds" \
            else f"clauses describe {label}"
        if kind is not None:
            name = list_words[kind] if plain else f"{name}, {list_words[kind]}"
            plain = False
        color = colors[firsts.index(label) % len(colors)] if by else \
            colors[list(list_words).index(kind) % len(colors)] if kind else colors[0]
        # every λ at one point (the same size and error, e.g. no clause at all) draws no
        # line, and the star or the other line can cover that point: say so in the legend,
        # and draw it as a large ring that shows around whatever lies on top
        one_point = len(g) > 1 and len(g[["conditions", "error"]].round(9)
                                       .drop_duplicates()) == 1
        if one_point:
            name += f" (all {len(g)} λ: {g['conditions'].iloc[0]:.3g} conditions)"
        marker = dict(symbol="circle-open", size=22, line=dict(width=3)) if one_point else {}
        fig.add_scatter(x=g["conditions"], y=g["error"], mode="lines+markers", name=name,
                        error_y=dict(type="data", array=g["error_std"], thickness=1),
                        line=dict(color=color, dash="dot" if kind == "sequential" else None),
                        marker=marker, customdata=g["lam"],
                        hovertemplate="λ=%{customdata:.3g}: %{x:.1f} conditions, CV error "
                                      "%{y:.3f}<extra></extra>")
        if g["chosen"].any() and not plain:
            # the star takes its line's colour: two lines can cross at the chosen point (a
            # reviewer read a star on the other class's line)
            chosen_color, chosen_name = color, f"chosen ({name})"
    best = cv[cv["chosen"]]
    fig.add_scatter(x=best["conditions"], y=best["error"], mode="markers", name=chosen_name,
                    marker=dict(symbol="star", size=18, color=chosen_color,
                                line=dict(color=TEXT, width=1.5)),
                    customdata=best["lam"],
                    hovertemplate=f"{chosen_name}: λ=%{{customdata:.3g}}, %{{x:.1f}} "
                                  "conditions, CV error %{y:.3f}<extra></extra>")
    fig.update_xaxes(title="conditions (mean over the inner folds)", rangemode="tozero")
    fig.update_yaxes(title="inner-CV error", rangemode="tozero")
    fig = layout(fig, "Inner-CV error against rule size, per λ", height=360)
    if len(fig.data) > 4:
        # many lines (thresholds × list constructions): a legend above the plot wrapped up
        # into the title (a newcomer's review); under the axis it has the room it needs
        fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.3, x=0),
                          margin=dict(b=130), height=460)
    return fig


def pareto_figure(df: pd.DataFrame, size: str | None = None, error: str | None = None
                  ) -> go.Figure:
    """Plotly figure: every grid point (size against error) with the Pareto front drawn over.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    front = pareto_front(df, size, error)  # the computation stays in rulecore.sweep
    size = size or ("conditions" if "conditions" in df else "conditions_cv")
    error = error or next(c for c in ("cv_error", "test_error", "train_error")
                          if c in df and df[c].notna().any())
    label = df.apply(lambda r: f"λ={r['lam']:g}, thresholds={r['n_thresholds']}", axis=1) \
        if {"lam", "n_thresholds"} <= set(df.columns) else None
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=df[size], y=df[error], mode="markers", name="grid points",
                             text=label, marker={"color": "#9aa5b1", "size": 8}))
    hover = front["rule"] if "rule" in front else None
    fig.add_trace(go.Scatter(x=front[size], y=front[error], mode="lines+markers",
                             name="Pareto front", line={"shape": "hv"}, text=hover,
                             marker={"size": 10}))
    fig.update_layout(xaxis_title="rule size (conditions)", yaxis_title=error.replace("_", " "),
                      template="plotly_white", title="Rule size against error")
    return fig


