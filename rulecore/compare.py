"""Compare interpretable models on one train/test split: a small data-driven model registry.

Each registry entry says how to build the model from a parameter dict, whether it needs numeric
input (:func:`rulecore.encode.to_numeric`: categorical columns with many levels keep their most
frequent ones, so a name column does not become one column per name), and how to count its
*size* (conditions or non-zero coefficients), the *features it uses* (original columns; mean per
datum for the datum-wise classifier) and its *certified gap*.  Adding a model is one
:class:`ModelSpec` in ``REGISTRY``.

Models from modules that are not importable are skipped with a note (the app keeps working
while parts of rulecore are still being written).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, balanced_accuracy_score, roc_auc_score

from rulecore.exceptions import DataError, ParameterError
from rulecore.report import assess, balanced_recall
from rulecore.settings import (
    DEFAULT_BOOSTING_LAM,
    DEFAULT_LAM,
    DEFAULT_N_THRESHOLDS,
    DEFAULT_SCREENING,
    DEFAULT_TIME_LIMIT,
)

# ---------------------------------------------------------------------------------------------
# How to read size / features / gap off each kind of fitted model
# ---------------------------------------------------------------------------------------------


def _rule_features(clauses) -> set:
    return {c.feature for clause in clauses for c in clause.conditions}


def _rule_size(clauses) -> int:
    return int(sum(len(clause.conditions) for clause in clauses))


def _nonzero_columns(coef: np.ndarray, names: list[str]) -> list[str]:
    return [names[j] for j in np.flatnonzero(np.abs(np.ravel(coef)) > 1e-12)]


@dataclass(frozen=True)
class ModelSpec:
    """One comparable model.

    Attributes
    ----------
    module : str
        Module imported lazily; the model is skipped with a note when it is missing.
    make : callable(params: dict) -> estimator
    numeric : bool
        Fit on :func:`rulecore.encode.to_numeric` of the table (else on the raw DataFrame).
    size : callable(est) -> float or None
        Conditions (rules, trees) or non-zero coefficients (linear models).
    used : callable(est, numeric_names) -> list of model-input column names, or None
        Columns the model looks at (mapped to original columns by :func:`compare_models`).
    gap : callable(est) -> float or None
        Certified relative optimality gap, None when the method has none.
    size_kind : str
    defaults : dict
        Default parameters (the page's widgets start from these).
    """

    module: str
    make: Callable[[dict], Any]
    numeric: bool
    size: Callable[[Any], float | None]
    used: Callable[[Any, list[str]], list[str] | None]
    gap: Callable[[Any], float | None] = lambda est: None
    size_kind: str = "conditions"
    defaults: dict = field(default_factory=dict)


# Rule models get the column kinds from compare_models (``p["kinds"]``) and certified screening
# by default, as on the Rule page: same optimum, and on large tables it is what makes the fit
# fast (60,000 rows: 1.3 s instead of 27 s for the MIP alone, bench/compare_wide.py).
def _rule_args(p) -> dict:
    return dict(lam=p["lam"], n_thresholds=p["n_thresholds"], time_limit=p["time_limit"],
                screening=p.get("screening", DEFAULT_SCREENING), kinds=p.get("kinds"),
                class_weight=p.get("class_weight", "auto"))


def _bcs(p):
    from rulecore.rules.estimators import make_rule_model
    return make_rule_model("single rule", rule_type="and", solver="mip", **_rule_args(p))


def _ruleset(p):
    from rulecore.rules.ruleset import RuleSetClassifier
    return RuleSetClassifier(lam=p.get("lam", "auto"), n_thresholds=p["n_thresholds"],
                             time_limit=p["time_limit"], kinds=p.get("kinds"),
                             random_state=p.get("random_state", 0) or 0)


def _setcover(p):
    from rulecore.rules.estimators import make_rule_model
    return make_rule_model("set covering", max_rules=p["max_rules"], **_rule_args(p))


def _boost(p):
    from rulecore.rules.estimators import make_rule_model
    return make_rule_model("boosting", n_rounds=p["n_rounds"], **_rule_args(p))


def _sparse(loss):
    def make(p):
        from rulecore.sparse import SparseClassifier, SparseClassifierCV
        if p.get("cv"):
            # |ks| × |γ| grid fits and a refit share the time limit (at most 5 s each), so
            # the whole search stays within about the limit the user set
            ks = tuple(p.get("ks", (1, 2, 3, 5, 8)))
            n_fits = len(ks) * (len(p["gammas"]) if p.get("gammas") else 6) + 1
            return SparseClassifierCV(ks=ks, loss=loss, gammas=p.get("gammas"),
                                      time_limit=min(float(p["time_limit"]) / n_fits, 5.0),
                                      random_state=p.get("random_state", 0))
        return SparseClassifier(k=p["k"], gamma=p["gamma"], loss=loss,
                                time_limit=p["time_limit"])
    return make


def _sparse_spec(loss: str) -> ModelSpec:
    return ModelSpec(
        "rulecore.sparse", _sparse(loss), numeric=True,
        # the weights that read something, not the support's ~1e-9 (rulecore.sparse.used_)
        size=lambda e: int(e.used_.sum()),
        used=lambda e, names: [names[j] for j in np.flatnonzero(e.used_)],
        gap=lambda e: float(e.gap_), size_kind="non-zeros",
        # γ "auto": scaled to the training rows at fit time (rulecore.sparse.auto_gamma)
        defaults={"k": 3, "gamma": "auto", "time_limit": 30.0, "cv": False})


def _datumwise(p):
    from rulecore.datumwise import DatumWiseClassifier
    # a rare class weighed as on the Datum-wise page (and as the rules weigh it): unweighted,
    # Compare's policy always predicted the majority on a 3 % class (a review)
    return DatumWiseClassifier(feature_cost=p["feature_cost"],
                               random_state=p.get("random_state", 0),
                               time_limit=p.get("time_limit"),
                               class_weight=p.get("class_weight", "auto"))


def _l1(p):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    return make_pipeline(StandardScaler(), LogisticRegression(C=p["C"], l1_ratio=1.0,
                                                              solver="liblinear"))


def _cart(p):
    from sklearn.tree import DecisionTreeClassifier
    return DecisionTreeClassifier(max_depth=p["max_depth"],
                                  random_state=p.get("random_state", 0))


def _tree_used(est, names):
    f = est.tree_.feature
    return [names[j] for j in np.unique(f[f >= 0])]


#: AUC from which a model warned about (no better than chance or the majority) is said to
#: rank the classes well: its scores are good, its 0.5 cut-off is not.
GOOD_RANKING_AUC = 0.75

# Class weights as on the Rule page: with a rare positive class, unweighted errors make the
# cheapest rule one that never fires (docs/data.md, bench/results/rare_positives.md).
# The same defaults as everywhere else (rulecore.settings).
_RULE_DEFAULTS = {"lam": DEFAULT_LAM, "n_thresholds": DEFAULT_N_THRESHOLDS,
                  "time_limit": DEFAULT_TIME_LIMIT, "screening": DEFAULT_SCREENING,
                  "class_weight": "auto"}

REGISTRY: dict[str, ModelSpec] = {
    "Single rule": ModelSpec(
        "rulecore.rules.estimators", _bcs, numeric=False,
        size=lambda e: _rule_size([e.rule_]),
        used=lambda e, names: sorted(_rule_features([e.rule_])),
        gap=lambda e: float(e.mip_gap_), defaults=dict(_RULE_DEFAULTS)),
    "Rule set (auto)": ModelSpec(
        "rulecore.rules.ruleset", _ruleset, numeric=False,
        size=lambda e: float(e.n_conditions_),
        used=lambda e, names: sorted(_rule_features(list(e.rules_.clauses))),
        gap=lambda e: float(e.mip_gap_) if e.certified_ else None,
        defaults={"lam": "auto", "n_thresholds": DEFAULT_N_THRESHOLDS,
                  "time_limit": 120.0}),
    "Set covering": ModelSpec(
        "rulecore.rules.estimators", _setcover, numeric=False,
        size=lambda e: _rule_size(e.clauses_),
        used=lambda e, names: sorted(_rule_features(e.clauses_)),
        defaults={**_RULE_DEFAULTS, "max_rules": 5}),
    "Boosting": ModelSpec(
        "rulecore.rules.estimators", _boost, numeric=False,
        size=lambda e: _rule_size(e.clauses_),
        used=lambda e, names: sorted(_rule_features(e.clauses_)),
        defaults={**_RULE_DEFAULTS, "lam": DEFAULT_BOOSTING_LAM, "n_rounds": 5}),
    "Sparse SVM": _sparse_spec("hinge"),
    "Sparse logistic": _sparse_spec("logistic"),
    "Datum-wise": ModelSpec(
        "rulecore.datumwise", _datumwise, numeric=True,
        size=lambda e: None, used=lambda e, names: None, size_kind="—",
        defaults={"feature_cost": 0.01, "time_limit": 60.0, "class_weight": "auto"}),
    "L1 logistic (sklearn)": ModelSpec(
        "sklearn.linear_model", _l1, numeric=True,
        size=lambda e: int(np.count_nonzero(e[-1].coef_)),
        used=lambda e, names: _nonzero_columns(e[-1].coef_, names),
        size_kind="non-zeros", defaults={"C": 0.1}),
    "CART (sklearn)": ModelSpec(
        "sklearn.tree", _cart, numeric=True,
        size=lambda e: int((e.tree_.feature >= 0).sum()),
        used=_tree_used, size_kind="splits", defaults={"max_depth": 3}),
}


def available_models(registry: Mapping[str, ModelSpec] = REGISTRY) -> tuple[list[str], dict]:
    """Names whose modules import, and ``{name: reason}`` for the ones skipped."""
    ok, skipped = [], {}
    for name, spec in registry.items():
        try:
            importlib.import_module(spec.module)
            ok.append(name)
        except ImportError as exc:
            skipped[name] = f"not available yet ({exc})"
    return ok, skipped


# ---------------------------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------------------------


def original_columns(names: Iterable[str], columns: Iterable[str]) -> list[str]:
    """Map model-input names back to table columns (``"job=Rep"`` → ``"job"``), deduplicated."""
    cols = set(map(str, columns))
    out = []
    for n in map(str, names):
        c = n if n in cols else n.split("=", 1)[0]
        if c not in out:
            out.append(c if c in cols else n)
    return out


def columns_used_per_row(used: np.ndarray, names: Iterable[str],
                         columns: Iterable[str]) -> np.ndarray:
    """How many table columns each row's decisions read, from ``used`` (bool, shape
    (n_rows, n_inputs)) over model inputs ``names`` (one-hot ``"job=Rep"`` counts as ``job``):
    the count Compare reports for the datum-wise classifier, which the Datum-wise page now
    shows beside its own count of encoded inputs (a review found 4.70 of 14 there against
    3.20 of 7 here, each right in its own units)."""
    columns = list(map(str, columns))
    groups = original_columns(list(names), columns)
    col_of = np.array([groups.index(original_columns([c], columns)[0]) for c in names])
    used = np.asarray(used, dtype=bool)
    return np.array([len(set(col_of[row])) for row in used], dtype=float)


def _scores(est, X) -> np.ndarray:
    if hasattr(est, "predict_proba"):
        try:
            return np.asarray(est.predict_proba(X))[:, 1]
        except (AttributeError, NotImplementedError):
            pass
    if hasattr(est, "decision_function"):
        return np.asarray(est.decision_function(X), dtype=float).ravel()
    return np.asarray(est.predict(X), dtype=float)


@dataclass
class Comparison:
    """Result of :func:`compare_models`.

    Attributes
    ----------
    table : DataFrame
        One row per model: ``model, accuracy, balanced_accuracy, auc, features_used, size,
        size_kind, fit_seconds, gap, status, note``.
    models : dict
        Fitted estimators by name.
    input_names : dict
        The column names each model was fitted on (numeric models: one-hot names).
    skipped : dict
        ``{name: reason}`` for models not run.
    train, test : ndarray of int
        The split's row indices.
    """

    table: pd.DataFrame
    models: dict
    input_names: dict
    skipped: dict
    train: np.ndarray
    test: np.ndarray


def compare_models(X: pd.DataFrame, y: np.ndarray, models: Mapping[str, Mapping] | Iterable[str],
                   test_size: float = 0.25, random_state: int = 0,
                   kinds: Mapping[str, str] | None = None,
                   registry: Mapping[str, ModelSpec] = REGISTRY,
                   progress: Callable[[int, int, str], None] | None = None,
                   groups: Any = None, stratify: Any = None) -> Comparison:
    """Fit the chosen models on ONE stratified train/test split and tabulate them.

    Parameters
    ----------
    X : DataFrame of shape (n_samples, n_features)
        Raw table (categorical columns allowed; numeric models get a one-hot version).
    y : array-like of shape (n_samples,)
        0/1 target (1 = positive class).
    models : mapping name -> params, or iterable of names (registry defaults)
        Params are merged over the registry defaults.
    test_size : float, default=0.25
    random_state : int, default=0
    kinds : mapping, optional
        Column kinds, passed to :func:`rulecore.encode.to_numeric` and to the rule models.
    groups : array-like of shape (n_samples,), optional
        A repeated identifier (``Dataset.groups``): each value's rows on one side of the
        split (:func:`rulecore.data.train_test_indices`).
    progress : callable(done, total, name), optional
        Called before each fit and once at the end.
    stratify : array-like of shape (n_samples,), optional
        Labels the split keeps the shares of (default ``y``): every class of a many-class
        target, as the Rule page splits (:func:`rulecore.fit.split_labels`).

    Returns
    -------
    Comparison

    Raises
    ------
    DataError
        Bad target, or the numeric version of the table would not fit the memory budget
        (:func:`rulecore.encode.check_memory`); raised before any model is fitted.
    """
    from rulecore.data import train_test_indices
    from rulecore.encode import to_numeric

    if not isinstance(X, pd.DataFrame):
        X = pd.DataFrame(X, columns=[f"x{j}" for j in range(np.shape(X)[1])])
    y = np.asarray(y)
    if set(np.unique(y)) - {0, 1} or len(np.unique(y)) != 2:
        raise DataError("compare_models needs a 0/1 target with both classes present.")
    if len(X) != len(y):
        raise DataError(f"X has {len(X)} rows but y has {len(y)}.")
    chosen = dict(models) if isinstance(models, Mapping) else {m: {} for m in models}
    unknown = [m for m in chosen if m not in registry]
    if unknown:
        raise ParameterError(f"unknown model(s) {unknown}; choose from {list(registry)}")
    if not chosen:
        raise ParameterError("choose at least one model to compare")
    train, test = train_test_indices(y if stratify is None else np.asarray(stratify),
                                     test_size, random_state, groups=groups)
    _, skipped = available_models({m: registry[m] for m in chosen})
    rows, fitted, names = [], {}, {}
    todo = [m for m in chosen if m not in skipped]
    # Encode once, before any fit: a table too large to encode fails at once, not after
    # minutes of rule fitting.
    numeric = to_numeric(X, kinds) if any(registry[m].numeric for m in todo) else None
    for i, name in enumerate(todo):
        if progress is not None:
            progress(i, len(todo), name)
        spec = registry[name]
        params = {**spec.defaults, **dict(chosen[name])}
        if not spec.numeric and kinds is not None:
            params.setdefault("kinds", dict(kinds))
        data = numeric if spec.numeric else X
        cols = [str(c) for c in data.columns]
        est = spec.make(params)
        t0 = time.perf_counter()
        est.fit(data.iloc[train], y[train])
        seconds = time.perf_counter() - t0
        Xte = data.iloc[test]
        pred = np.asarray(est.predict(Xte)).astype(int)
        scores = _scores(est, Xte)
        auc = roc_auc_score(y[test], scores) if len(np.unique(y[test])) == 2 else np.nan
        note = "" if (hasattr(est, "predict_proba") or hasattr(est, "decision_function")) \
            else "AUC from hard predictions"
        used = spec.used(est, cols)
        if used is not None:
            n_used: float = float(len(original_columns(used, X.columns)))
        else:  # datum-wise: mean number of original columns looked at per test datum
            n_used = float(np.mean(columns_used_per_row(est.features_used(Xte), cols,
                                                        X.columns)))
            note = (note + "; " if note else "") + "features used = mean per test datum"
        status = getattr(est, "status_", getattr(est, "lp_status_", ""))
        # the Rule page's warnings, in a word each: a model that predicts one class, or does
        # no better than the majority class on the test rows, is never shown as a success
        pred_tr = np.asarray(est.predict(data.iloc[train])).astype(int)
        warned = [f.short for f in assess(
            y[train], pred_tr, y[test], pred, positive="the positive class",
            class_weight=getattr(est, "class_weight", None), subject="the model")
            if f.level == "warning"]
        balanced = balanced_recall(y[test], pred)[1]
        # scores that only split the rows as the predictions do (a rule's two values) have
        # the AUC of those predictions: no cut-off to blame (a review saw the note on a rule
        # set whose AUC was its balanced accuracy, 0.90)
        ranks = len(np.unique(scores)) > 2 and auc >= balanced + 0.05
        if warned and not note.startswith("AUC from hard") and auc >= GOOD_RANKING_AUC \
                and ranks:
            # a linear model thresholded at 0.5 on a 1.5 % class ranked well (AUC 0.88) yet
            # read as useless beside the warning (a review): the cut-off is what failed
            warned.append(f"yet its scores rank the classes well (AUC {auc:.2f}): its "
                          "cut-off between them is what fails")
        if warned:
            note = "; ".join(["warning: " + w for w in warned] + ([note] if note else []))
        gap = spec.gap(est)
        if str(status) in ("optimal", "not_proven") and gap is None:
            # a fit that ended normally without a certificate (the rule set's pricing MIP did
            # not finish) is not "optimal": the column says what was proved
            status = "not certified"
        # beside accuracy, which on a rare positive class favours predicting none of it
        balanced = balanced_accuracy_score(y[test], pred) if len(np.unique(y[test])) > 1 \
            else np.nan
        rows.append(dict(model=name, accuracy=accuracy_score(y[test], pred),
                         balanced_accuracy=balanced, auc=auc,
                         features_used=n_used, size=spec.size(est), size_kind=spec.size_kind,
                         fit_seconds=seconds, gap=gap, status=str(status), note=note))
        fitted[name], names[name] = est, cols
    if progress is not None:
        progress(len(todo), len(todo), "")
    table = pd.DataFrame(rows, columns=["model", "accuracy", "balanced_accuracy", "auc",
                                        "features_used", "size", "size_kind", "fit_seconds",
                                        "gap", "status", "note"])
    return Comparison(table, fitted, names, skipped, train, test)


def coefficients(comparison: Comparison, name: str, X: pd.DataFrame | None = None,
                 kinds: Mapping[str, str] | None = None) -> pd.Series:
    """Non-zero coefficients of a fitted linear model, by input column: in original units,
    or with the table ``X`` and its ``kinds`` (as :func:`compare_models` got them) per
    standard deviation of each input on the training rows.

    A pipeline that standardises first (the L1 logistic baseline) has its coefficients on
    standardised features; dividing by each column's scale gives the change of the log-odds
    per unit of the column, the same units as the sparse models' coefficients.  Per unit, a
    salary's coefficient is tiny beside a flag's and its bar vanished from the chart (a
    review); per standard deviation the bars compare what each column moves.
    """
    est = comparison.models[name]
    coef = np.ravel(est[-1].coef_ if hasattr(est, "steps") else est.coef_).astype(float)
    scaler = est[0] if hasattr(est, "steps") and hasattr(est[0], "scale_") else None
    if scaler is not None and scaler.scale_ is not None:
        coef = coef / np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    s = pd.Series(coef, index=comparison.input_names[name])
    if X is not None:
        from rulecore.encode import to_numeric

        numeric = to_numeric(X, kinds).iloc[comparison.train]
        sd = numeric.std(ddof=0).reindex(s.index).fillna(0.0)
        s = s * sd.to_numpy()
    return s[s.abs() > 1e-12]


def _gap_text(gap: Any) -> str:
    if gap is None or pd.isna(gap):
        return "—"  # the method has no optimality certificate
    # a gap below HiGHS's own tolerance is round-off of a proven optimum, not a gap
    return "0" if abs(gap) < 1e-9 else f"{gap:.1e}"


def display_table(table: pd.DataFrame) -> pd.DataFrame:
    """The comparison as shown to a person: every cell filled, none reading "None" or "nan".

    Columns every model fills stay numbers (rounded, sortable); ``size`` reads "3 conditions"
    ("—" for the datum-wise model, which has no single size), ``certified gap`` reads "0",
    "2.1e-03" or "—" (no certificate), and a missing AUC (a test part with one class) "—".

    Parameters
    ----------
    table : DataFrame
        :attr:`Comparison.table` (or several of them concatenated).

    Returns
    -------
    DataFrame with columns ``model, accuracy, balanced accuracy, AUC, features used, size,
    fit (s), certified gap, status, note``.
    """
    auc = table["auc"].astype(float).round(3)
    bal = table["balanced_accuracy"].astype(float).round(3)
    size = [("—" if s is None or pd.isna(s) else
             f"{int(s)} {kind[:-1] if int(s) == 1 and kind.endswith('s') else kind}")
            for s, kind in zip(table["size"], table["size_kind"], strict=True)]
    return pd.DataFrame({
        "model": table["model"].astype(str),
        "accuracy": table["accuracy"].astype(float).round(3),
        "balanced accuracy": bal if bal.notna().all() else
        bal.map(lambda v: "—" if pd.isna(v) else f"{v:.3f}"),
        "AUC": auc if auc.notna().all() else auc.map(lambda v: "—" if pd.isna(v) else f"{v:.3f}"),
        "features used": table["features_used"].astype(float).round(2),
        "size": size,
        "fit (s)": table["fit_seconds"].astype(float).round(2),
        "certified gap": [_gap_text(g) for g in table["gap"]],
        "status": [str(v).replace("_", " ") if v else "—" for v in table["status"]],
        "note": table["note"].fillna("").astype(str),
    })


def table_markdown(table: pd.DataFrame, digits: int = 3) -> str:
    """The comparison table as GitHub Markdown (no extra dependency)."""
    cols = list(table.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, row in table.iterrows():
        cells = []
        for v in row:
            if v is None or (isinstance(v, float) and np.isnan(v)):
                cells.append("")
            elif isinstance(v, (float, np.floating)):
                cells.append(f"{v:.{digits}g}")
            else:
                cells.append(str(v).replace("|", "\\|"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


__all__ = ["REGISTRY", "ModelSpec", "Comparison", "available_models", "compare_models",
           "coefficients", "display_table", "original_columns", "table_markdown"]
