"""Figures for the Data page."""

from __future__ import annotations

from typing import Any

import pandas as pd

from rulecore.viz.style import MUTED, POSITIVE


def class_balance(y: pd.Series, positive: Any = None) -> dict:
    """Bar chart of class counts; the positive class is highlighted (Vega-Lite spec).

    Vega-Lite rather than plotly: the Data page is every session's first page, and plotly.js
    is the largest script the browser would otherwise load and run there.  Without it, opening
    the app and choosing a sample cost about 1 CPU-s less in chromium per session
    (``bench/results/load_test.md``, fourth pass).

    Parameters
    ----------
    y : Series of shape (n_samples,)
        Raw labels.
    positive : optional
        The label drawn in the positive colour.

    Returns
    -------
    dict
        A Vega-Lite spec; its named dataset ``classes`` has one row per class with ``class``,
        ``rows``, ``share``, ``label`` and ``positive``.
    """
    counts = y.value_counts().sort_index()
    total = max(int(counts.sum()), 1)
    classes = [{"class": str(c), "rows": int(n), "share": n / total,
                "label": f"{int(n):,} ({n / total:.0%})", "positive": bool(c == positive)}
               for c, n in counts.items()]
    order = [row["class"] for row in classes]
    return {
        "title": {"text": f"Class balance (positive class: {positive})", "anchor": "start"},
        "height": 260,
        "data": {"name": "classes"},
        "datasets": {"classes": classes},
        "encoding": {
            "x": {"field": "class", "type": "nominal", "sort": order, "title": y.name,
                  "axis": {"labelAngle": 0}},
            "y": {"field": "rows", "type": "quantitative", "title": "rows"},
        },
        "layer": [
            {"mark": {"type": "bar"},
             "encoding": {"color": {"condition": {"test": "datum.positive", "value": POSITIVE},
                                    "value": MUTED},
                          "tooltip": [{"field": "class"},
                                      {"field": "rows", "type": "quantitative", "format": ","},
                                      {"field": "share", "type": "quantitative",
                                       "format": ".1%"}]}},
            {"mark": {"type": "text", "dy": -8},
             "encoding": {"text": {"field": "label"}}},
        ],
    }
