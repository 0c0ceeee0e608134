"""Shared look of every figure: one palette, one layout helper and the label rules.

Label rules (analysts' tables have long column names and long class labels):

- a tick or legend label longer than :data:`LABEL_CHARS` characters is cut **in the middle**
  by :func:`short` (``"Average monthly spend…(USD) 2019"``): the start and the end of a name
  are what usually tell columns apart, and cutting only the end would merge
  ``"... 2019"`` and ``"... 2020"``.  The full name always stays in the hover tooltip, and
  plotly axes keep the full names as their values (the short text is only ``ticktext``), so
  two names that shorten alike never merge into one bar;
- horizontal bar charts grow with their bars (:func:`bar_height`) and show at most a
  documented number of bars, saying so in the figure;
- a figure that draws a sample of the rows says which, in its title (:func:`sample_note`).
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from collections.abc import Iterable, Mapping

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
#: Longest tick / legend label, in characters; longer ones are cut in the middle by short().
LABEL_CHARS = 32
#: Longest axis title, in characters (a title has a whole axis to itself).
TITLE_CHARS = 48


def short(name: object, n: int = LABEL_CHARS, tail: int | None = None) -> str:
    """``name`` as text of at most ``n`` characters, cut in the middle with an ellipsis.

    Parameters
    ----------
    name : object
        A column name or class label (anything ``str`` accepts).
    n : int, default=LABEL_CHARS
        Longest result.
    tail : int, optional
        Characters kept after the ellipsis; default ``n // 3``.

    Examples
    --------
    >>> short("Average monthly spend on international calls (USD) 2019")
    'Average monthly spend…(USD) 2019'
    """
    text = str(name)
    if len(text) <= n:
        return text
    tail = n // 3 if tail is None else tail
    return text[: n - tail - 1] + "…" + text[len(text) - tail:]


def short_all(names: Iterable[object], n: int = LABEL_CHARS) -> list[str]:
    """:func:`short` of each name; names that would shorten alike keep more of their end.

    One-hot columns ``"<long column>=One year, card (automatic)"`` and ``"...=Two year,
    bank (automatic)"`` differ only after the cut: they keep ``n - 9`` end characters.
    """
    names = [str(v) for v in names]
    out = [short(v, n) for v in names]
    count = Counter(out)
    return [short(v, n, tail=n - 9) if count[o] > 1 else o for v, o in zip(names, out)]


def vl_short(n: int = LABEL_CHARS, text: str = "datum.label") -> str:
    """Vega expression doing to ``text`` (an expression) what :func:`short` does.

    For ``labelExpr`` of Vega-Lite axes and legends, where ``datum.label`` is the label.
    """
    tail = n // 3
    return (f"length({text}) > {n} ? substring({text}, 0, {n - tail - 1}) + '…' + "
            f"substring({text}, length({text}) - {tail}) : {text}")


def vl_lines(labels: Mapping[str, str], width: int = 18, max_lines: int = 3) -> str:
    """Vega ``labelExpr`` writing each known label over lines of ``width`` characters.

    Parameters
    ----------
    labels : mapping axis value -> text to show
        Values missing from it keep their label.
    width, max_lines : int
        A text needing more than ``max_lines`` lines ends in an ellipsis.
    """
    expr = "datum.label"
    for value, text in labels.items():
        lines = textwrap.wrap(str(text), width, max_lines=max_lines, placeholder="…") or [""]
        expr = (f"datum.value === {json.dumps(str(value), ensure_ascii=False)} ? "
                f"{json.dumps(lines, ensure_ascii=False)} : {expr}")
    return expr


def wrap(text: str, width: int = 16) -> str:
    """Fixed labels (test names, stages) over several lines, joined with plotly's ``<br>``."""
    return "<br>".join(textwrap.wrap(str(text), width)) or str(text)


def bar_height(n_bars: int, per_bar: int = 22, base: int = 140) -> int:
    """Height in px of a horizontal bar chart: ``per_bar`` px a bar, so labels never overlap."""
    return base + per_bar * max(n_bars, 1)


def category_ticks(axis: str, names: Iterable[object], n: int = LABEL_CHARS) -> dict:
    """``update_layout`` kwargs: full names as the axis's values, shortened tick text.

    The categories come in the order of ``names``; every name gets its tick
    (``tickmode="array"``: plotly would otherwise skip labels when crowded), and
    ``automargin`` makes room for them instead of cutting them.
    """
    names = [str(v) for v in names]
    return {f"{axis}axis": dict(type="category", categoryorder="array", categoryarray=names,
                                tickmode="array", tickvals=names,
                                ticktext=short_all(names, n), automargin=True)}


def sample_note(shown: int, total: int, how: str = "a random") -> str:
    """Subtitle of a figure that draws only some rows: ``"a random 5,000 of 60,000 rows"``."""
    return f"{how} {shown:,} of {total:,} rows shown"


def layout(fig: go.Figure, title: str | None = None, height: int = 360,
           subtitle: str | None = None, **kw) -> go.Figure:
    """Apply the common layout (title, margins, white template) and return the figure.

    ``subtitle`` goes under the title in smaller type (``title.subtitle``): it says when a
    figure shows only part of the data.
    """
    # Title on top, legend in its own band under it, so they never overlap.  The title sits
    # 10 px under the top whatever the height (0.98 of a 2,000 px bar chart was 40 px down,
    # into the legend's band).
    fig.update_layout(title=dict(text=title, y=1 - 10 / height, yanchor="top",
                                 subtitle=dict(text=subtitle)),
                      height=height, template="plotly_white",
                      margin=dict(l=10, r=10, t=(110 if subtitle else 90) if title else 40, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.01, x=0), **kw)
    return fig
