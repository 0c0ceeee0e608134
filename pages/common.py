"""State and helpers shared by every page (the only page module that is not a page).

Cross-page choices live in plain ``st.session_state`` keys (widget state is dropped when the
user leaves a page, so widgets copy their value into these keys with callbacks):

- ``source``: ``"sample"`` or ``"upload"``; ``sample``: the sample name;
  ``upload``: ``{"name", "data", "digest"}`` of the uploaded file (this session only);
- ``target``, ``positive``, ``kinds``: target column, positive class, column-kind overrides;
- ``threshold``: the cut of a numeric target (``"> 40"``; ``None``: its median);
- ``include``, ``exclude``: columns used although their role leaves them out, and features
  left out (the Data page's roles control);
- ``terms``: the binarizer settings ``{"n_thresholds", "thresholds", "negations"}``,
  shared by the Terms, Rule and Screening pages.

Pages call :func:`require_dataset` and wrap rulecore calls in :func:`user_errors`.
Anything derived from an upload is cached with ``scope="session"`` (its rule fits in the session's
state): never shared across users.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from rulecore import progress
from rulecore.data import (
    Dataset,
    from_frame,
    from_sheets,
    load_sample,
    read_csv_frame,
    sheet_names,
    show,
)
from rulecore.encode import memory_budget
from rulecore.exceptions import RulecoreError
from rulecore.fit import SplitFit, fit_on_split, split_rows
from rulecore.report import for_app
from rulecore.roles import accuracy_words, format_number
from rulecore.rules.terms import Binarizer
from rulecore.samples import DEFAULT_SAMPLE, SAMPLES
from rulecore.scales import level_order
from rulecore.settings import (
    DEFAULT_LAM,
    MAX_N_THRESHOLDS,
    RuleSettings,
    default_lam,
    per_row_blockers,
    per_row_bytes,
    single_rule_defaults,
)

DEFAULTS: dict[str, Any] = {
    "source": "sample",
    "sample": DEFAULT_SAMPLE,
    "upload": None,
    "target": None,
    "positive": None,
    "kinds": {},
    "threshold": None,
    "answer_class": None,  # a "no answer" target value (Unknown, -9) kept as a class
    "ratings": "split",  # a rating-scale target: split at its middle, or each value a class
    "zero_missing": [],  # numeric columns whose 0 is read as "not measured"
    "keep_codes": [],  # numeric columns whose missing-value codes (99999) are values
    "orders": {},  # column -> its levels lowest first, as the user put them
    "include": [],
    "exclude": [],
    # the rule settings' defaults are rulecore.settings.RuleSettings' (one vocabulary)
    "terms": {"n_thresholds": RuleSettings.n_thresholds, "thresholds": RuleSettings.thresholds,
              "negations": RuleSettings.negations},
    "rule": {"model": RuleSettings.model, "lam": DEFAULT_LAM,
             "rule_type": RuleSettings.rule_type, "solver": RuleSettings.solver,
             "time_limit": RuleSettings.time_limit, "screening": RuleSettings.screening,
             "test_size": 0.25, "seed": 0, "max_rules": RuleSettings.max_rules,
             "n_rounds": RuleSettings.n_rounds, "class_weight": RuleSettings.class_weight,
             "require": (), "forbid": (), "max_conditions": None, "fp_cost": 1.0,
             "fn_cost": 1.0, "auto_thresholds": RuleSettings.auto_thresholds,
             "multiclass": RuleSettings.multiclass,
             "error": RuleSettings.error, "lam_auto": False},
}

#: λ values offered by the sliders (log scale).
LAMS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0,
        1000.0]


def init_state() -> None:
    """Fill in the shared session keys the first time a session runs."""
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value.copy() if isinstance(value, dict) else value
        elif isinstance(value, dict):  # a newer version may add settings: fill them in
            for k, v in value.items():
                st.session_state[key].setdefault(k, v)


@st.cache_data(scope="session", max_entries=8, show_spinner=False)
def orderable(digest: str, _ds: Dataset) -> tuple[list[str], list[str]]:
    """``(scales, words)`` of the table (``digest`` covers its kinds): the categorical
    columns whose levels a known scale orders, and the columns of words (categorical or
    ordinal) with 3 to 30 levels a user may put in order.  Cached: each is a pass over a
    column, and the Data page reruns on every widget."""
    scales = [c for c, k in _ds.kinds.items() if k == "categorical"
              and level_order(_ds.X[c]) is not None]
    words = [c for c, k in _ds.kinds.items() if k in ("categorical", "ordinal")
             and 3 <= _ds.X[c].nunique() <= 30]
    return scales, words


@st.cache_data(scope="session", max_entries=8, show_spinner=False)
def class_leaks(digest: str, _ds: Dataset) -> dict[str, tuple]:
    """:attr:`Dataset.class_leaks` (``digest`` covers the positive class), cached: one pass
    over every column per class, 1 s on 200,000 rows of 7 classes, and the Data page reruns
    on every widget (a Dataset from st.cache_data comes back without what it computed)."""
    return _ds.class_leaks


@st.cache_data(scope="session", max_entries=8, show_spinner=False)
def restated(digest: str, _ds: Dataset) -> dict[str, dict]:
    """:attr:`Dataset.restated`, cached as :func:`class_leaks` is: a pass over every
    categorical column, which every rerun of the Data and Rule pages would repeat."""
    return _ds.restated


def remember_widgets(keys: tuple[str, ...]) -> None:
    """Save the values of a form's widgets (on its submit) for :func:`restore_widgets`."""
    ss = st.session_state
    ss["_kept_widgets"] = {**ss.get("_kept_widgets", {}),
                           **{k: ss[k] for k in keys if k in ss}}


def initial(key: str, value: Any) -> Any:
    """A widget's starting ``value``, or None when its key holds a value already (given back
    by :func:`restore_widgets`): Streamlit warns of a widget given both."""
    return None if key in st.session_state else value


def restore_widgets(keys: tuple[str, ...]) -> None:
    """Give a form's widgets back the values last submitted, before they are drawn.

    Streamlit drops a widget's value when its page is not shown, so the Compare and
    Datum-wise forms came back on their defaults above results learned with other settings
    (a review); a value kept under another key survives the visit."""
    ss = st.session_state
    for k, v in ss.get("_kept_widgets", {}).items():
        if k in keys and k not in ss:
            ss[k] = v


#: The Data page's widgets that show the choices below (dropped when the choices reset).
CHOICE_WIDGETS = ("w_target", "w_positive", "w_categorical", "w_ordinal", "w_features", "w_thr_op",
                  "w_thr_value", "w_sheet")


def reset_choices(keep_target: bool = False, keep_columns: bool = False) -> None:
    """Forget target / class / kind / column choices (after the data source changes).
    ``keep_columns``: keep the columns left out or included, their kinds and orders (the
    user's choices about the table, which outlive a change of target)."""
    ss = st.session_state
    if not keep_target:
        ss["target"] = None
    ss["positive"] = None
    ss["threshold"] = None
    ss["answer_class"] = None
    ss["ratings"] = "split"
    if not keep_columns:
        ss["kinds"] = {}
        ss["zero_missing"] = []
        ss["keep_codes"] = []
        ss["orders"] = {}
        ss["include"] = []
        ss["exclude"] = []
    # The Data page's widgets show these choices: drop their state so they show the defaults
    # of the new data instead of the old data's values.
    for key in CHOICE_WIDGETS:
        ss.pop(key, None)


def md(text: str) -> str:
    """``text`` for a Markdown element, its ``$`` shown as written: Streamlit typesets
    ``$…$`` as mathematics, and a FAERS file's '$'-separated header, or two columns named
    with '($)', came out in italic math letters (a stranger's review)."""
    return re.sub(r"(?<!\\)\$", r"\\$", str(text))


@contextmanager
def user_errors(stop: bool = True) -> Iterator[None]:
    """Show a :class:`RulecoreError` as ``st.error`` (and stop this page's run).

    The session stays alive: the user fixes the input and the next rerun works.
    """
    try:
        yield
    except RulecoreError as exc:
        st.error(md(for_app(str(exc))), icon=":material/error:")  # the page's words for options
        if stop:
            st.stop()


# Samples are public, identical for every user: a global cache is right for them.
@st.cache_data(max_entries=32, show_spinner="Loading sample...")
def _sample(name: str, choices: tuple) -> Dataset:
    return load_sample(name, **_options(choices))


def _trace(event: str, detail: str) -> None:
    """Append a line to $RULECORE_TRACE when set (tests use it to see cache misses)."""
    path = os.environ.get("RULECORE_TRACE")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{event} {detail}\n")


# Uploads are user data: cached per session only, keyed by a digest of the bytes.  Parsing is
# cached apart from the choices, so trying another target or column set does not re-read.
@st.cache_data(scope="session", max_entries=4, show_spinner="Reading the file...")
def _upload_frame(digest: str, name: str, sheet: str | None, _data: bytes) -> pd.DataFrame:
    _trace("parse-upload", digest)
    return read_csv_frame(io.BytesIO(_data), name=name, sheet=sheet)[0]


@st.cache_data(scope="session", max_entries=8, show_spinner="Preparing the table...")
def _upload(digest: str, name: str, sheet: str | None, choices: tuple, _data: bytes
            ) -> Dataset:
    frame = _upload_frame(digest, name, sheet, _data=_data)
    # the default sheet holding no table: another sheet that does (rulecore.data.from_sheets)
    return from_sheets(frame, lambda other: _upload_frame(digest, name, other, _data=_data),
                       lambda f: from_frame(f, name=name, typed=False, **_options(choices)))


@st.cache_data(scope="session", max_entries=4, show_spinner=False)
def _sheets(digest: str, _data: bytes) -> list[str]:
    return sheet_names(io.BytesIO(_data))


def upload_sheets() -> list[str]:
    """The sheets of the uploaded workbook ([] for any other file, or one that cannot be
    opened: reading it says why)."""
    up = st.session_state["upload"]
    if not up:
        return []
    try:
        return _sheets(up["digest"], _data=up["data"])
    except RulecoreError:
        return []


def upload_sheet() -> str | None:
    """The sheet of the uploaded workbook that is read (the user's, else the reader's
    default), or None when it cannot be read."""
    up = st.session_state["upload"]
    if up.get("sheet"):
        return up["sheet"]
    try:  # the sheet the table came from: another than the largest when that held none
        return current_dataset().sheet
    except RulecoreError:
        pass
    try:
        return _upload_frame(up["digest"], up["name"], None, _data=up["data"]).attrs.get("sheet")
    except RulecoreError:
        return None


def set_sheet(sheet: str) -> None:
    """Read another sheet of the uploaded workbook (its columns differ: choices reset)."""
    st.session_state["upload"]["sheet"] = sheet
    reset_choices()


def _choices() -> tuple:
    """The user's table choices, hashable (a cache key)."""
    ss = st.session_state
    return (ss["target"], ss["threshold"], tuple(sorted(ss["kinds"].items())),
            tuple(sorted(ss["include"])), tuple(sorted(ss["exclude"])), ss["answer_class"],
            ss["ratings"], tuple(sorted(ss["zero_missing"])), tuple(sorted(ss["keep_codes"])),
            tuple(sorted((c, tuple(v)) for c, v in ss["orders"].items())))


def _options(choices: tuple) -> dict:
    (target, threshold, kinds, include, exclude, answer_class, ratings, zero_missing,
     keep_codes, orders) = choices
    # from_frame's positive: a threshold, or a "no answer" value to keep as a class
    positive = threshold if threshold is not None else answer_class
    # a column left out and then looked at as the target is the target, and left out again
    # when another target is chosen: the choice stays in the session, the target is taken
    # out here (a review: a leak came back after a look at it as the target)
    include = tuple(c for c in include if c != target)
    exclude = tuple(c for c in exclude if c != target)
    return {"target": target, "positive": positive,
            "kinds": {c: k for c, k in kinds if c != target}, "include": include,
            "exclude": exclude, "continuous": "median", "ratings": ratings,
            "zero_missing": tuple(c for c in zero_missing if c != target),
            "keep_codes": tuple(c for c in keep_codes if c != target),
            "orders": {c: list(v) for c, v in orders if c != target}}


def set_upload(name: str, data: bytes) -> None:
    """Make an uploaded file the current data source."""
    st.session_state["upload"] = {"name": name, "data": data, "sheet": None,
                                  "digest": hashlib.sha1(data).hexdigest()}
    st.session_state["source"] = "upload"
    reset_choices()


def table_columns() -> list[str]:
    """Every column of the current table as read (the target selector's options), or []
    when the file cannot be read at all."""
    ss = st.session_state
    try:
        if ss["source"] == "upload" and ss["upload"]:
            up = ss["upload"]
            return [str(c) for c in _upload_frame(up["digest"], up["name"], up.get("sheet"),
                                                  _data=up["data"])]
        return _sample_columns(ss["sample"])
    except RulecoreError:
        return []


@st.cache_data(max_entries=16, show_spinner=False)
def _sample_columns(name: str) -> list[str]:
    return [str(c) for c in SAMPLES[name].frame().columns]


def current_dataset() -> Dataset:
    """The dataset with the user's target, columns, kinds and positive class applied.

    Raises
    ------
    RulecoreError
        When the chosen source cannot be loaded as chosen.
    """
    init_state()
    ss = st.session_state
    if ss["source"] == "upload" and ss["upload"]:
        up = ss["upload"]
        ds = _upload(up["digest"], up["name"], up.get("sheet"), _choices(), _data=up["data"])
    else:
        ds = _sample(ss["sample"], _choices())
    if ss["positive"] is not None and ss["positive"] in ds.classes:
        ds = ds.with_positive(ss["positive"])
    return ds


def require_dataset() -> Dataset:
    """:func:`current_dataset`, or an error box and a stop if it cannot be loaded."""
    with user_errors():
        return current_dataset()
    raise AssertionError("unreachable")  # user_errors stops the run on failure


def row_names(ds: Dataset, row: int) -> str:
    """A row's own identifiers, left out of learning ("patient P-00178"), to find it in the
    user's file; "" when the table has none.  An empty cell is left out ("notes nan" read
    as a value: a stranger's review)."""
    if ds.ids is None:
        return ""
    cells = ds.ids.iloc[row]
    # whole numbers read as floats (an id column with a gap) print as 40002, not 40002.0
    return ", ".join(f"{c} {format_number(v) if isinstance(v, float) and np.isfinite(v) else v}"
                     for c, v in cells.items() if not pd.isna(v))


def row_numbering(ds: Dataset) -> str:
    """How the pages number rows, said the same on every page: from 0 in the table as
    loaded, after the rows without a target were dropped when some were (the Rule page left
    that out, and row 50 was not the file's row 50: a stranger's review)."""
    dropped = (f", after the {ds.dropped_rows:,} rows without a value in {ds.target!r} were "
               "left out, so a row's number can be below its place in the file"
               if ds.dropped_rows else "")
    return f"Rows are numbered from 0 in the table as loaded{dropped}."


def train_rows(ds: Dataset) -> np.ndarray:
    """Row indices of the training split the Rule page fits on (same test share and seed).

    The Terms and Screening pages build their terms on these rows too, so every page counts
    the same terms: the quantile thresholds depend on the rows they are taken from.
    """
    r = st.session_state["rule"]
    return split_rows(ds, float(r["test_size"]), int(r["seed"]))[0]


@st.cache_data(scope="session", max_entries=16)
def fitted_binarizer(digest: str, n_thresholds: int, thresholds: str, negations: bool,
                     split: tuple, _X: pd.DataFrame, _kinds: dict) -> Binarizer:
    """A :class:`Binarizer` fitted on the training rows, cached per session and setting
    (``split`` = test share and seed, part of the key)."""
    return Binarizer(n_thresholds=n_thresholds, thresholds=thresholds, negations=negations,
                     kinds=_kinds).fit(_X)


def binarizer_for(ds: Dataset) -> Binarizer:
    """The binarizer for the current term settings (``st.session_state["terms"]``), fitted on
    the training rows (:func:`train_rows`), as the Rule page's model builds it."""
    t, r = st.session_state["terms"], st.session_state["rule"]
    return fitted_binarizer(ds.digest, int(t["n_thresholds"]), t["thresholds"],
                            bool(t["negations"]), (float(r["test_size"]), int(r["seed"])),
                            _X=ds.X.iloc[train_rows(ds)], _kinds=ds.kinds)


def inline_code(text: str) -> str:
    """``text`` as Markdown inline code, shown as typed (``*``, ``_`` and ``$`` in a column
    name are not formatting); a backtick inside gets a longer fence."""
    fence = "``" if "`" in text else "`"
    return f"{fence} {text} {fence}" if fence == "``" else f"`{text}`"


def share_bar(label: str, help: str | None = None, width: str | None = None):
    """A bar column for a share held in percent (0-100), one decimal as precision has it
    (Streamlit's "percent" format gives two: 36.33 % beside 39.4 %)."""
    return st.column_config.ProgressColumn(label, format="%.1f%%", min_value=0.0,
                                           max_value=100.0, help=help, width=width)


def sync(widget_key: str, state_key: str, field: str | None = None) -> None:
    """Callback: copy a widget's value into a shared (non-widget) state key."""
    value = st.session_state[widget_key]
    if field is None:
        st.session_state[state_key] = value
    else:
        st.session_state[state_key] = {**st.session_state[state_key], field: value}


def thresholds_slider(prefix: str, where=st) -> None:
    """The thresholds-per-column slider, bound to ``terms["n_thresholds"]``."""
    t = st.session_state["terms"]
    where.slider("Thresholds per numeric column", 1, MAX_N_THRESHOLDS, int(t["n_thresholds"]),
                 key=f"{prefix}n_thresholds", on_change=sync,
                 args=(f"{prefix}n_thresholds", "terms", "n_thresholds"),
                 disabled=t["thresholds"] == "all",
                 help="Quantile thresholds; duplicates are dropped, so columns with few "
                      "distinct values get fewer. One setting for every page: moving it "
                      "moves the other pages' too (and refits the Rule page's rule, dropping "
                      "an edit made there).")


def terms_options(prefix: str, cols) -> None:
    """Quantile/all choice and negations toggle (in two columns), bound to ``terms``."""
    t = st.session_state["terms"]
    cols[0].radio("Thresholds", ["quantile", "all"], index=["quantile", "all"].index(
        t["thresholds"]), key=f"{prefix}thresholds", horizontal=True, on_change=sync,
        args=(f"{prefix}thresholds", "terms", "thresholds"),
        help="'all' uses every midpoint between consecutive distinct values.")
    cols[1].toggle("Negations (> and !=)", value=bool(t["negations"]), key=f"{prefix}negations",
                   on_change=sync, args=(f"{prefix}negations", "terms", "negations"))


def terms_controls(prefix: str) -> None:
    """Thresholds slider, quantile/all choice and negations toggle, bound to ``terms``.

    ``prefix`` keeps widget keys unique per page (``f"{prefix}n_thresholds"`` ...).
    """
    cols = st.columns([3, 2, 2])
    thresholds_slider(prefix, cols[0])
    terms_options(prefix, cols[1:])


def negative_label(ds: Dataset) -> str:
    """What the rule predicts when it does not fire: the other class of a binary target, or
    "not <positive>" (one-vs-rest)."""
    return ds.negative_label


def leave_out(col: str | Sequence[str], whole_page: bool = False) -> None:
    """Callback: leave a table column, or several, out of the features (a leak warning's
    button; several: every possible leak at once, where three refits one leak at a time
    annoyed a stranger).  ``whole_page``: the button is in a fragment (the Rule page's
    results), whose callbacks rerun only the fragment, with the old table: the page is asked
    to rerun whole (in the browser the rule stayed, leak and all, until another widget
    moved: a review)."""
    ss = st.session_state
    cols = {col} if isinstance(col, str) else set(col)
    if whole_page:
        ss["rerun_page"] = True
    ss["exclude"] = sorted(set(ss.get("exclude") or []) | cols)
    ss["include"] = sorted(set(ss.get("include") or []) - cols)
    if ss.get("w_features") is not None:
        ss["w_features"] = [c for c in ss["w_features"] if c not in cols]


def leak_sources(ds: Dataset) -> list[str]:
    """Every table column the Data page warns of as a possible leak, the target in other
    words or the last outcome, for one button that leaves them all out."""
    found = set(leak_groups(ds)) | {ds.source_column(c) for c in restated(ds.digest, ds)}
    found |= {ds.source_column(c) for c in ds.lagged}
    found |= {ds.source_column(c) for c in class_leaks(ds.digest, ds)}
    return sorted(found)


def leak_groups(ds: Dataset) -> dict[str, dict[str, float]]:
    """The possible leaks by the table column they come from, ``{column: {feature:
    accuracy}}``: a date's year and month leak together, one warning for both."""
    # (those restated are said more strongly apart: restated_words)
    return ds.leak_groups(restated(ds.digest, ds))


def leak_words(ds: Dataset, found: dict[str, float]) -> str:
    """``**a** alone predicts y = 1 with 99.6% accuracy`` (or ``**a (year)** and **a
    (month)** each alone predicts ... up to ...``) for the features of one column."""
    named = " and ".join(f"**{c}**" for c in found)
    one = len(found) == 1
    return (f"{named} {'alone predicts' if one else 'each alone predicts'} {ds.target} = "
            f"{show(ds.positive)} with {'' if one else 'up to '}"
            f"{accuracy_words(max(found.values()))}")


def leak_warnings(ds: Dataset) -> None:
    """The Data page's possible-leak warnings, short, on a page whose models may use them."""
    for found in leak_groups(ds).values():
        st.warning(f"{md(leak_words(ds, found))}: a possible leak. Models using it look better "
                   "than they will be; leave it out on the Data page unless it is known "
                   "before the outcome.", icon=":material/warning:")


def labels_caption(ds: Dataset, columns) -> None:
    """What those of ``columns`` that have a label in the file mean (a Census download's
    label row, SPSS's variable labels: :meth:`rulecore.data.Dataset.labels_for`)."""
    meant = ds.labels_for(columns)
    if meant:
        st.caption("What the columns mean (the file's labels): " + "; ".join(
            f"{inline_code(c)}: {label}" for c, label in meant.items()))


def dataset_caption(ds: Dataset, all_classes: bool = False) -> None:
    """One line under a page title saying which data the page works on: the positive class,
    or (``all_classes``: the Rule page's rule list) every class of a many-class target.  Other
    pages tell the positive class from the rest whatever the Rule page's model: Compare said
    "all learned (no positive class needed)" above "every model here tells fraud from the
    other 3" (a stranger's review)."""
    # a target nothing in the table names is a guess on every page, not only on the Data page
    guess = (" · :orange[**the target is a guess**: nothing in the table names the outcome; "
             "choose it on the Data page]" if ds.target_guessed else "")
    if all_classes and len(ds.classes) > 2:
        st.caption(f"Data: **{md(ds.name)}** · {ds.n_samples:,} rows × {ds.X.shape[1]:,} "
                   f"features · target `{ds.target}` with {len(ds.classes)} classes, all "
                   f"learned (rule set: no positive class needed){guess}")
        return
    rate = ds.y_binary.mean()
    share = f"{rate:.0%}" if rate >= 0.1 else f"{rate:.1%}"  # a rare class is 0.3 %, not 0 %
    st.caption(f"Data: **{md(ds.name)}** · {ds.n_samples:,} rows × {ds.X.shape[1]:,} features"
               f" · target `{ds.target}`, positive class **{md(ds.positive)}** ({share} of rows)"
               f"{guess}")


def nearest_lam(lam: float) -> float:
    """The slider value closest to ``lam``."""
    return min(LAMS, key=lambda v: abs(v - float(lam)))


def lam_slider(key: str = "lam", disabled: bool = False) -> float:
    """The λ slider (log-spaced values), bound to ``rule["lam"]``; returns λ."""
    rule = st.session_state["rule"]
    if key not in st.session_state:  # set through the state so the browser shows it too
        # (a keyed widget's value= reaches a browser that already shows the widget only if
        # the state says so: the λ path's "load this λ" drops the key and reruns)
        st.session_state[key] = nearest_lam(rule["lam"])
    shared = "" if key == "lam" else (
        " One λ for every page: moving it here moves the Rule page's λ too (and refits its "
        "rule, dropping an edit made there).")
    # disabled, the slider still shows its value: say it is not the λ the fit uses (it read
    # 0.5 beside "λ = 0.167 chosen by cross-validation": a newcomer's review)
    label = ("λ: weight of errors against conditions" if not disabled else
             "λ set by hand (not used: the cross-validation chooses λ)")
    st.select_slider(label, LAMS, key=key,
                     on_change=sync, args=(key, "rule", "lam"), disabled=disabled,
                     format_func=lambda v: f"{v:g}",
                     help="Objective: #conditions + λ × errors. Larger λ fits the training "
                          "data more closely with more conditions." + shared)
    return float(st.session_state["rule"]["lam"])


def sync_max_conditions() -> None:
    """Callback of "Max conditions": its 0 ("no limit") is the settings' None."""
    value = int(st.session_state["max_conditions"] or 0)
    st.session_state["rule"] = {**st.session_state["rule"],
                                "max_conditions": value or None}


#: The Rule page's names for the options the per-row count cannot take.
PAGE_NAMES = {"require": "'Must use'", "solver": "the LP solver"}


def _term_shape() -> tuple[int, int] | None:
    """(training rows, terms) of the Rule page's next fit, or None when the table cannot be
    loaded as chosen (the page says why)."""
    try:
        ds = current_dataset()
        return len(train_rows(ds)), len(binarizer_for(ds).terms_)
    except RulecoreError:
        return None


def _per_row_too_large(shape: tuple[int, int]) -> str:
    """Why the per-row count does not fit this table, in the page's words."""
    gb = per_row_bytes(*shape) / 1e9
    return (f"per row would hold two copies of the {shape[0]:,} training rows × {shape[1]:,} "
            f"terms (about {gb:.1f} GB), more than the {memory_budget() / 1e9:.1f} GB one "
            "step may use")


def sync_error_count(widget_key: str, field: str) -> None:
    """Callback of "Errors counted", "Must use" and "Solver": the per-row count is solved by
    beam search and the MIP, without required columns (``docs/clause.md``), and holds copies
    of the rows, so a change that meets the other side is settled here, in the page's words,
    instead of by an error in the library's: a new "Must use" or LP solver switches the count
    to per condition; asking for per row while they are set, or on a table too large for its
    copies, is undone, with what to change."""
    sync(widget_key, "rule", field)
    ss = st.session_state
    r = ss["rule"]
    if r["error"] != "exact":
        return
    shape = _term_shape() if field == "error" else None
    blockers = per_row_blockers(r["require"], r["solver"], shape)
    if not blockers:
        return
    ss["rule"] = {**r, "error": "hamming"}
    ss["error"] = "hamming"
    if blockers == ["memory"]:
        ss["rule_notice"] = (f"Errors counted stays **per condition**: {_per_row_too_large(shape)}."
                             " Use fewer thresholds per numeric column or leave out columns "
                             "for per row.")
        return
    what = " and ".join(PAGE_NAMES[b] for b in blockers if b in PAGE_NAMES)
    ss["rule_notice"] = (
        f"Errors per row cannot be combined with {what}: remove {what} first (per row is "
        "found by beam search and the MIP, which cannot enforce a required column)."
        if field == "error" else
        f"Errors counted is now **per condition**: {what} works with that count only.")


def toggle_lam_auto() -> None:
    """Callback of the single rule's "Choose λ by cross-validation": with λ chosen for held-out
    error the rule is tuned for accuracy as a whole (``rulecore.settings.TUNED_SINGLE_RULE``:
    rule type auto, errors counted per row, class weight auto = none), with a fixed λ it is
    the paper's checklist (``FIXED_SINGLE_RULE``).  The rule type and error boxes are set to
    match, so the page shows what the fit uses, and stay the user's to change."""
    ss = st.session_state
    on = bool(ss["lam_auto"])
    defaults = single_rule_defaults("auto" if on else None)
    update = {"lam_auto": on, "rule_type": defaults["rule_type"], "error": defaults["error"]}
    if update["error"] == "exact":  # falls back as the estimator's default does
        shape = _term_shape()
        blockers = per_row_blockers(ss["rule"]["require"], ss["rule"]["solver"], shape)
        if blockers:
            update["error"] = "hamming"
        if "memory" in blockers:
            ss["rule_notice"] = (f"Errors counted stays **per condition** with λ chosen by "
                                 f"cross-validation: {_per_row_too_large(shape)}.")
    ss["rule"] = {**ss["rule"], **update}
    for key in ("rule_type", "error"):  # the boxes show the new values (the browser too)
        ss[key] = update[key]
    # the toggle lives in the results fragment, whose callbacks rerun only the fragment: the
    # fragment asks for the whole page (the boxes above it) once it sees this
    ss["rerun_page"] = True


def switch_model() -> None:
    """Callback of the Rule page's model radio: the model, and λ on the new model's scale.

    Boosting's row weights sum to 1, so its λ lives on another scale (default 1000, the
    paper's): λ = 1 there makes every clause empty (a reviewer found boosting useless with
    the slider at the other models' 1).  Each scale keeps the last λ the user chose on it.
    """
    ss = st.session_state
    rule, new = ss["rule"], ss["model"]
    scale = {"boosting": "boosting"}
    old_scale, new_scale = scale.get(rule["model"], "rules"), scale.get(new, "rules")
    update = {"model": new}
    if old_scale != new_scale:
        kept = ss.setdefault("lam_by_scale", {})
        kept[old_scale] = rule["lam"]
        update["lam"] = kept.get(new_scale, default_lam(new))
        ss.pop("lam", None)  # the slider shows the new value (lam_slider sets it anew)
    ss["rule"] = {**rule, **update}


def drop_stale_constraints(ds: Dataset) -> list[str]:
    """Take out of *Must use* / *Must not use* the columns this table does not have (chosen
    on another table), and return them.  The boxes showed them empty while every fit kept
    refusing "no candidate term is on 'petal width (cm)'" (a newcomer's review)."""
    r = st.session_state["rule"]
    cols = set(map(str, ds.X.columns))
    stale = [f for k in ("require", "forbid") for f in r[k] if f not in cols]
    if stale:
        st.session_state["rule"] = {**r, **{k: tuple(f for f in r[k] if f in cols)
                                             for k in ("require", "forbid")}}
    return stale


def rule_settings(ds: Dataset) -> RuleSettings:
    """The Rule page's settings (the shared ``terms`` and ``rule`` state) as one object."""
    drop_stale_constraints(ds)
    t, r = st.session_state["terms"], st.session_state["rule"]
    if r["model"] == "rule set":  # it chooses λ itself (the slider's λ is the others')
        r = {**r, "lam": None}
    elif r["model"] == "single rule" and r.get("lam_auto"):  # the slider's λ is kept for later
        r = {**r, "lam": "auto"}
    if r["model"] != "single rule":  # constraints and costs are the single rule's (kept for it)
        r = {**r, "require": (), "forbid": (), "max_conditions": None, "fp_cost": 1.0,
             "fn_cost": 1.0, "error": "hamming"}
    return RuleSettings.from_dict({**r, **t, "kinds": ds.kinds})


class Fits:
    """Fitted models by key, at most ``size`` of them (the least recently used goes first).

    The Rule page's fits are kept here rather than in ``st.cache_resource`` because a fit
    reports its stages to a status box (:func:`fit_with_progress`), and Streamlit's caches
    replay the elements a cached function drew, which a box drawn outside it cannot be.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


# Results on a bundled sample are the same for every user, so every session may reuse them:
# under load (bench/load_test.py) sessions exploring the same sample mostly hit this store.
# It holds objects, not pickled copies: pages only read the fitted model.
@st.cache_resource(show_spinner=False)
def _sample_fits() -> Fits:
    return Fits(512)


def _upload_fits() -> Fits:
    """Results on an upload are that user's data: kept in this session only."""
    return st.session_state.setdefault("_upload_fits", Fits(16))


def fit_with_progress(settings: RuleSettings, ds: Dataset, test_size: float, seed: int,
                      title: str = "Learning the rule") -> SplitFit:
    """:func:`rulecore.fit.fit_on_split`, its stages told in a status box as they happen
    (:mod:`rulecore.progress`: terms, screening, the MIP; cross-validation and column
    generation for rule sets), the seconds so far on each line.  The box goes when the fit
    is done; errors propagate to the caller's :func:`user_errors`."""
    slot = st.empty()
    t0 = time.perf_counter()
    lines: list[str] = []
    try:
        # the box's own exit marks it complete, so it is removed after the with block
        with slot.status(f"{title}...", expanded=True) as box:
            log = st.empty()

            def tell(message: str) -> None:
                lines.append(f"`{time.perf_counter() - t0:.1f} s` {message}")
                box.update(label=f"{title}: {message}", expanded=True)
                log.markdown("  \n".join(lines[-14:]))

            with progress.listening(tell):
                fit = fit_on_split(settings, ds, test_size, seed)
    finally:
        slot.empty()
    return fit


#: How the Rule page names a comparison fit's changed settings (:func:`fitted_rule_model`).
COMPARISON_WORDS = {("class_weight", "none"): "without class weights",
                    ("rule_type", "or"): "as an OR-rule", ("rule_type", "and"): "as an AND-rule",
                    ("require", "()"): "without Must use", ("forbid", "()"): "without Must not use",
                    ("max_conditions", "None"): "without Max conditions"}
#: Seconds a comparison fit for the advice gets at most (it only adds advice).
COMPARISON_SECONDS = 10.0
#: Training rows above which the Rule page's comparison fits (the advice's) wait for a click.
ADVICE_ROWS = 20_000


def fitted_rule_model(ds: Dataset, **changes: Any) -> SplitFit:
    """:func:`rulecore.fit.fit_on_split` for the current settings, kept (errors shown by
    the caller): the fitted model and its training and held-out rows.  A new fit shows its
    progress (:func:`fit_with_progress`).  ``changes``: settings that differ from the
    page's (``class_weight="none"`` for the unweighted twin the advice compares with).

    A sample's fits are shared by all sessions; an upload's stay in its session.
    """
    r = st.session_state["rule"]
    upload = st.session_state["source"] == "upload"
    settings, test_size, seed = rule_settings(ds), float(r["test_size"]), int(r["seed"])
    if changes:
        settings = dataclasses.replace(settings, **changes)
    store = _upload_fits() if upload else _sample_fits()
    key = (ds.digest, settings, test_size, seed)
    fit = store.get(key)
    if fit is None:
        if upload:
            _trace("fit-upload", ds.digest)
        # a comparison fit for the advice says so: its stages under "Learning the rule" read
        # as the rule's own, after the rule was shown (a newcomer's review)
        fit = fit_with_progress(settings, ds, test_size, seed, title=(
            "Learning the rule" if not changes else "Checking the advice: the same model "
            + ", ".join(COMPARISON_WORDS.get((k, str(v)), f"{k} {v}")
                        for k, v in changes.items() if k != "time_limit")))
        store.put(key, fit)
    return fit
