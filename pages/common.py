"""State and helpers shared by every page (the only page module that is not a page).

Cross-page choices live in plain ``st.session_state`` keys (widget state is dropped when the
user leaves a page, so widgets copy their value into these keys with callbacks):

- ``source``: ``"sample"`` or ``"upload"``; ``sample``: the sample name;
  ``upload``: ``{"name", "data", "digest"}`` of the uploaded file (this session only);
- ``target``, ``positive``, ``kinds``: target column, positive class, column-kind overrides;
- ``terms``: the binarizer settings ``{"n_thresholds", "thresholds", "negations"}``,
  shared by the Terms, Rule and Screening pages.

Pages call :func:`require_dataset` and wrap rulecore calls in :func:`user_errors`.
Anything derived from an upload is cached with ``scope="session"``: never shared across users.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pandas as pd
import streamlit as st

from rulecore.binarize import Binarizer
from rulecore.data import Dataset, from_frame, load_csv
from rulecore.exceptions import RulecoreError
from rulecore.samples import DEFAULT_SAMPLE, load_sample

DEFAULTS: dict[str, Any] = {
    "source": "sample",
    "sample": DEFAULT_SAMPLE,
    "upload": None,
    "target": None,
    "positive": None,
    "kinds": {},
    "terms": {"n_thresholds": 10, "thresholds": "quantile", "negations": True},
    "rule": {"model": "single rule", "lam": 1.0, "rule_type": "and", "solver": "mip",
             "time_limit": 30, "screening": "enhanced", "test_size": 0.25, "seed": 0,
             "max_rules": 5, "n_rounds": 5},
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


def reset_choices() -> None:
    """Forget target / class / kind choices (after the data source changes)."""
    st.session_state["target"] = None
    st.session_state["positive"] = None
    st.session_state["kinds"] = {}
    # The Data page's widgets show these choices: drop their state so they show the defaults
    # of the new data instead of the old data's values.
    for key in ("w_target", "w_positive", "w_categorical"):
        st.session_state.pop(key, None)


@contextmanager
def user_errors(stop: bool = True) -> Iterator[None]:
    """Show a :class:`RulecoreError` as ``st.error`` (and stop this page's run).

    The session stays alive: the user fixes the input and the next rerun works.
    """
    try:
        yield
    except RulecoreError as exc:
        st.error(str(exc), icon=":material/error:")
        if stop:
            st.stop()


# Samples are public, identical for every user: a global cache is right for them.
@st.cache_data(max_entries=32, show_spinner="Loading sample...")
def _sample(name: str, target: str | None, kinds: tuple) -> Dataset:
    ds = load_sample(name)
    if target is None and not kinds:
        return ds
    frame = pd.concat([ds.X, ds.y], axis=1)
    return from_frame(frame, target=target or ds.target, kinds=dict(kinds), name=ds.name,
                      description=ds.description)


def _trace(event: str, detail: str) -> None:
    """Append a line to $RULECORE_TRACE when set (tests use it to see cache misses)."""
    path = os.environ.get("RULECORE_TRACE")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{event} {detail}\n")


# Uploads are user data: cached per session only, keyed by a digest of the bytes.
@st.cache_data(scope="session", max_entries=8, show_spinner="Reading the file...")
def _upload(digest: str, name: str, target: str | None, kinds: tuple, _data: bytes) -> Dataset:
    _trace("parse-upload", digest)
    return load_csv(io.BytesIO(_data), target=target, kinds=dict(kinds), name=name)


def set_upload(name: str, data: bytes) -> None:
    """Make an uploaded file the current data source."""
    st.session_state["upload"] = {"name": name, "data": data,
                                  "digest": hashlib.sha1(data).hexdigest()}
    st.session_state["source"] = "upload"
    reset_choices()


def current_dataset() -> Dataset:
    """The dataset with the user's target, kinds and positive class applied.

    Raises
    ------
    RulecoreError
        When the chosen source cannot be loaded as chosen.
    """
    init_state()
    ss = st.session_state
    kinds = tuple(sorted(ss["kinds"].items()))
    if ss["source"] == "upload" and ss["upload"]:
        up = ss["upload"]
        ds = _upload(up["digest"], up["name"], ss["target"], kinds, _data=up["data"])
    else:
        ds = _sample(ss["sample"], ss["target"], kinds)
    if ss["positive"] is not None and ss["positive"] in ds.classes:
        ds = ds.with_positive(ss["positive"])
    return ds


def require_dataset() -> Dataset:
    """:func:`current_dataset`, or an error box and a stop if it cannot be loaded."""
    with user_errors():
        return current_dataset()
    raise AssertionError("unreachable")  # user_errors stops the run on failure


@st.cache_data(scope="session", max_entries=16)
def fitted_binarizer(digest: str, n_thresholds: int, thresholds: str, negations: bool,
                     _X: pd.DataFrame, _kinds: dict) -> Binarizer:
    """A :class:`Binarizer` fitted on the whole table, cached per session and setting."""
    return Binarizer(n_thresholds=n_thresholds, thresholds=thresholds, negations=negations,
                     kinds=_kinds).fit(_X)


def binarizer_for(ds: Dataset) -> Binarizer:
    """The binarizer for the current term settings (``st.session_state["terms"]``)."""
    t = st.session_state["terms"]
    return fitted_binarizer(ds.digest, int(t["n_thresholds"]), t["thresholds"],
                            bool(t["negations"]), _X=ds.X, _kinds=ds.kinds)


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
    where.slider("Thresholds per numeric column", 1, 100, int(t["n_thresholds"]),
                 key=f"{prefix}n_thresholds", on_change=sync,
                 args=(f"{prefix}n_thresholds", "terms", "n_thresholds"),
                 disabled=t["thresholds"] == "all",
                 help="Quantile thresholds; duplicates are dropped, so columns with few "
                      "distinct values get fewer.")


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


def dataset_caption(ds: Dataset) -> None:
    """One line under a page title saying which data the page works on."""
    st.caption(f"Data: **{ds.name}** · {ds.n_samples:,} rows × {ds.X.shape[1]} features · "
               f"target `{ds.target}`, positive class **{ds.positive}** "
               f"({ds.y_binary.mean():.0%} of rows)")


def lam_slider(key: str = "lam") -> float:
    """The λ slider (log-spaced values), bound to ``rule["lam"]``; returns λ."""
    rule = st.session_state["rule"]
    if key not in st.session_state:  # set through the state so the browser shows it too
        # (a keyed widget's value= reaches a browser that already shows the widget only if
        # the state says so: the λ path's "load this λ" drops the key and reruns)
        st.session_state[key] = min(LAMS, key=lambda v: abs(v - float(rule["lam"])))
    st.select_slider("λ: weight of errors against conditions", LAMS, key=key,
                     on_change=sync, args=(key, "rule", "lam"),
                     format_func=lambda v: f"{v:g}",
                     help="Objective: #conditions + λ × errors. Larger λ fits the training "
                          "data more closely with more conditions.")
    return float(st.session_state["rule"]["lam"])


def model_params(ds: Dataset) -> dict:
    """Estimator settings from the shared ``terms`` and ``rule`` state."""
    t, r = st.session_state["terms"], st.session_state["rule"]
    return dict(model=r["model"], lam=float(r["lam"]), rule_type=r["rule_type"],
                solver=r["solver"], time_limit=float(r["time_limit"]),
                screening=r["screening"], n_thresholds=int(t["n_thresholds"]),
                thresholds=t["thresholds"], negations=bool(t["negations"]),
                max_rules=int(r["max_rules"]), n_rounds=int(r["n_rounds"]), kinds=ds.kinds)


def fit_rule_model(settings: tuple, test_size: float, seed: int, ds: Dataset) -> dict:
    """Fit the Rule page's model on the train split (uncached; see :func:`fitted_rule_model`).

    Returns ``{"model", "train", "test"}`` (the fitted estimator and row indices).
    """
    from rulecore.data import train_test_indices
    from rulecore.rulesets import make_rule_model

    params = dict(settings)
    params["kinds"] = dict(params["kinds"])
    model = make_rule_model(params.pop("model"), **params)
    train, test = train_test_indices(ds.y_binary, test_size, seed)
    model.fit(ds.X.iloc[train], ds.y_binary[train])
    # fitted on 0/1: say what the rule predicts in the data's own words
    model.rule_ = model.rule_.relabel(ds.target, ds.positive)
    if hasattr(model, "ruleset_"):
        model.ruleset_ = model.rule_
    return {"model": model, "train": train, "test": test}


# Results on a bundled sample are the same for every user, so every session may reuse them:
# under load (bench/load_test.py) sessions exploring the same sample mostly hit this cache.
# It holds objects (cache_resource), not pickled copies: pages only read the fitted model.
@st.cache_resource(max_entries=512, show_spinner="Learning the rule...")
def _fit_on_sample(digest: str, settings: tuple, test_size: float, seed: int,
                   _ds: Dataset) -> dict:
    return fit_rule_model(settings, test_size, seed, _ds)  # digest: the cache key


# Results on an upload are that user's data: cached for this session only.
@st.cache_resource(scope="session", max_entries=64, show_spinner="Learning the rule...")
def _fit_on_upload(digest: str, settings: tuple, test_size: float, seed: int,
                   _ds: Dataset) -> dict:
    _trace("fit-upload", digest)
    return fit_rule_model(settings, test_size, seed, _ds)  # digest: the cache key


def fitted_rule_model(ds: Dataset) -> dict:
    """:func:`fit_rule_model` for the current settings, cached (errors shown by the caller).

    A sample's fits are shared by all sessions; an upload's stay in its session.
    """
    params = model_params(ds)
    params["kinds"] = tuple(sorted(params["kinds"].items()))
    r = st.session_state["rule"]
    fit = _fit_on_upload if st.session_state["source"] == "upload" else _fit_on_sample
    return fit(ds.digest, tuple(sorted(params.items())), float(r["test_size"]), int(r["seed"]),
               _ds=ds)
