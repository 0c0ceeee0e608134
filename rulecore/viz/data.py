"""Figures for the Data page."""

from __future__ import annotations

from typing import Any

import pandas as pd

from rulecore.viz.style import MUTED, POSITIVE, TITLE_CHARS, short, vl_short


def share_text(share: float) -> str:
    """A share in percent, with one decimal below 10 % and above 90 % ('0.3%', not '0%': a
    fraud class of 150 rows read '150 (0%)' under a metric saying 0.3%; a review)."""
    return f"{share:.1%}" if 0 < share < 0.1 or 0.9 < share < 1 else f"{share:.0%}"


def class_balance(y: pd.Series, positive: Any = None) -> dict:
    """Bar chart of class counts; the positive class is highlighted (Vega-Lite spec).

    Vega-Lite rather than plotly: the Data page is every session's first page, and plotly.js
    is the largest script the browser would otherwise load and run there.  Without it, opening
    the app and choosing a sample cost about 1 CPU-s less in chromium per session
    (``bench/results/load_test.md``, fourth pass).

    Horizontal bars, one 28 px band per class: an analyst's class labels can be long
    sentences and many, and side by side under vertical bars they were cut to a dozen
    characters.  Labels longer than ``viz.style.LABEL_CHARS`` are cut in the middle; the
    bar's tooltip has the full label.

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
                "label": f"{int(n):,} ({share_text(n / total)})", "positive": bool(c == positive)}
               for c, n in counts.items()]
    order = [row["class"] for row in classes]
    return {
        # the target's name in the subtitle, not as the axis title: upright beside a few
        # 28 px bars, a long name stretched the chart to its own length
        # the positive class on a line of its own: beside the title it was cut to "Class
        # balance (positive class: ..." in a 900 px window (a newcomer's review)
        "title": {"text": ["Class balance", f"positive class: {short(positive, TITLE_CHARS)}"],
                  "subtitle": "" if y.name is None else short(y.name, 2 * TITLE_CHARS),
                  "anchor": "start"},
        # the height grows with the classes, so their labels never overlap
        "height": {"step": 28},
        "data": {"name": "classes"},
        "datasets": {"classes": classes},
        "encoding": {
            "y": {"field": "class", "type": "nominal", "sort": order,
                  "title": None,
                  "axis": {"labelExpr": vl_short(), "labelLimit": 0}},
            # room on the right for the count written after the longest bar
            "x": {"field": "rows", "type": "quantitative", "title": "rows",
                  "scale": {"domainMax": int(counts.max()) * 1.25 if len(counts) else 1}},
        },
        "layer": [
            {"mark": {"type": "bar"},
             "encoding": {"color": {"condition": {"test": "datum.positive", "value": POSITIVE},
                                    "value": MUTED},
                          "tooltip": [{"field": "class"},
                                      {"field": "rows", "type": "quantitative", "format": ","},
                                      {"field": "share", "type": "quantitative",
                                       "format": ".1%"}]}},
            {"mark": {"type": "text", "align": "left", "dx": 4},
             "encoding": {"text": {"field": "label"}}},
        ],
    }
