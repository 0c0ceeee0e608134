"""Sweeps of independent fits (λ paths, threshold grids, k-fold CV) through joblib.

Every grid point × fold is one independent fit, so a sweep is an embarrassingly parallel map.
It runs through :class:`joblib.Parallel`, which means the *backend* is a deployment choice, not
code: local processes (joblib's default ``loky``), threads, a Dask cluster
(``backend="dask"``, ``scheduler="tcp://host:8786"``) or Ray (``backend="ray"``).  With
``backend=None`` whatever :func:`joblib.parallel_config` is active is used, so a caller that
already wraps the call in ``with joblib.parallel_config(backend="dask"):`` changes nothing else.

Results do not depend on the backend: folds are drawn in the caller's process from
``random_state``, every fit is deterministic (HiGHS with one thread), and rows are returned in
grid order.  Only the timing column ``seconds`` differs between runs (and a fit stopped by
``time_limit`` may stop at a different incumbent on a slower worker: its ``status`` says so).

What is shipped and what is cached
----------------------------------
Each task is ``(X, y, train rows, test rows, term settings, λ)``.  ``X`` and ``y`` are the same
Python objects in every task, so the Dask backend scatters them to the cluster once
(joblib's auto-scatter) and loky memory-maps large arrays.  The term matrix of a (fold,
thresholds) pair is built on the worker and kept in a small per-process LRU cache
(:data:`CACHE_SIZE` entries), so the λ values of one fold reuse it.  Tasks are ordered fold by
fold for that reason.
"""

from __future__ import annotations

import math
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

import joblib
import numpy as np
import pandas as pd

from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.estimators import as_frame, missing_tests_for
from rulecore.rules.rule import Rule, RuleSet
from rulecore.rules.terms import Binarizer
from rulecore.settings import (
    DEFAULT_SCREENING,
    DEFAULT_TIME_LIMIT,
    RuleSettings,
    check_clause_options,
    model_name,
)
from rulecore.settings import MODELS as SETTINGS_MODELS

MODELS = tuple(SETTINGS_MODELS.values())  # the command line's spellings
BACKENDS = ("loky", "threading", "sequential", "dask", "ray")
#: Term matrices kept per worker process (one per fold × threshold setting).
CACHE_SIZE = 8
#: Columns that change from run to run (wall times); everything else is reproducible.
TIMING_COLUMNS = ("seconds",)


# --------------------------------------------------------------------------- backends


class SweepWarning(UserWarning):
    """Some fits of a sweep stopped at their time limit (results may vary by machine)."""


@contextmanager
def backend_config(backend: str | None = None, scheduler: str | None = None,
                   n_jobs: int | None = None):
    """Context in which :class:`joblib.Parallel` runs on the chosen backend.

    Parameters
    ----------
    backend : {None, "loky", "threading", "sequential", "dask", "ray"}
        ``None`` keeps the active joblib configuration (local processes by default).
    scheduler : str, optional
        Cluster address: a Dask scheduler (``tcp://10.0.0.5:8786``) or a Ray head
        (``ray://10.0.0.5:10001`` or ``auto``).  Without it, Dask uses the running
        ``distributed.Client`` and Ray starts or joins a local instance.
    n_jobs : int, optional
        Parallel workers for local backends; default every core (``-1``).  Cluster backends
        use every worker of the cluster whatever this says.
    """
    if backend is not None and backend not in BACKENDS:
        raise ParameterError(f"Unknown backend {backend!r}; choose from {', '.join(BACKENDS)}.")
    if scheduler is not None and backend not in ("dask", "ray"):
        raise ParameterError("A scheduler address only makes sense with backend 'dask' or 'ray'.")
    with ExitStack() as stack:
        if backend == "dask":
            try:
                import distributed
            except ImportError:
                raise ParameterError("The dask backend needs dask.distributed: "
                                     "pip install 'rulecore[dask]'.") from None
            if scheduler is not None:
                try:
                    client = distributed.Client(scheduler, set_as_default=False, timeout=30)
                except OSError as exc:
                    raise ParameterError(f"Cannot reach the Dask scheduler at {scheduler}: "
                                         f"{exc}") from None
                stack.callback(client.close)
            else:
                try:
                    client = distributed.get_client()
                except ValueError:
                    raise ParameterError("The dask backend needs a scheduler address "
                                         "(--scheduler tcp://host:8786) or a running "
                                         "dask.distributed Client.") from None
            stack.enter_context(joblib.parallel_config(backend="dask", client=client))
        elif backend == "ray":
            try:
                import ray
                from ray.util.joblib import register_ray
            except ImportError:
                raise ParameterError("The ray backend needs ray: pip install 'rulecore[ray]'.") \
                    from None
            register_ray()
            if not ray.is_initialized():
                ray.init(address=scheduler, include_dashboard=False, log_to_driver=False)
                stack.callback(ray.shutdown)
            # n_jobs=-1: every CPU the Ray cluster offers.
            stack.enter_context(joblib.parallel_config(backend="ray", n_jobs=-1))
        elif backend is not None:
            local_default = -1 if backend in ("loky", "threading") else None
            stack.enter_context(joblib.parallel_config(
                backend=backend, n_jobs=local_default if n_jobs is None else n_jobs))
        elif n_jobs is not None:
            stack.enter_context(joblib.parallel_config(n_jobs=n_jobs))
        else:
            # No choice made here or by an enclosing parallel_config: joblib would run one job
            # at a time; the default promised is every local core in worker processes.
            active, active_n_jobs = joblib.parallel.get_active_backend()
            if active_n_jobs is None and type(active).__name__ == "LokyBackend":
                stack.enter_context(joblib.parallel_config(n_jobs=-1))
        yield


def run_tasks(tasks: Sequence[tuple[Callable, tuple, dict]], *, backend: str | None = None,
              scheduler: str | None = None, n_jobs: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> list:
    """Run ``f(*args, **kwargs)`` for every task, in parallel; results in task order.

    ``progress(done, total)`` is called in this process as results arrive.
    """
    total = len(tasks)
    if total == 0:
        return []
    with backend_config(backend, scheduler, n_jobs):
        parallel = joblib.Parallel(return_as="generator", pre_dispatch="2*n_jobs")
        out = []
        for i, res in enumerate(parallel(joblib.delayed(f)(*a, **k) for f, a, k in tasks)):
            out.append(res)
            if progress is not None:
                progress(i + 1, total)
    return out


# --------------------------------------------------------------------------- rule fits


def _threshold_mode(n_thresholds: int | str) -> tuple[str, int]:
    if isinstance(n_thresholds, str):
        if n_thresholds != "all":
            raise ParameterError(f"A threshold setting is a positive count or 'all', not "
                                 f"{n_thresholds!r}.")
        return "all", 10
    if not (isinstance(n_thresholds, (int, np.integer)) and n_thresholds >= 1):
        raise ParameterError(f"A threshold count must be a positive integer, not "
                             f"{n_thresholds!r}.")
    return "quantile", int(n_thresholds)


_CACHE: OrderedDict = OrderedDict()
_CACHE_LOCK = threading.Lock()


def _fold_terms(key: tuple, X: pd.DataFrame, train: np.ndarray, n_thresholds: int | str,
                negations: bool, kinds: tuple | None, missing_tests: str = "once"
                ) -> tuple[Binarizer, np.ndarray]:
    """Terms fitted on the training rows and their matrix, cached per worker by ``key``
    (and ``missing_tests``: a fit with required or forbidden columns needs each column's)."""
    key = (*key, missing_tests)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    thr, n_thr = _threshold_mode(n_thresholds)
    Xtr = X.iloc[train]
    binarizer = Binarizer(n_thresholds=n_thr, thresholds=thr, negations=negations,
                          kinds=dict(kinds) if kinds else None,
                          missing_tests=missing_tests).fit(Xtr)
    value = (binarizer, binarizer.transform(Xtr))
    with _CACHE_LOCK:
        _CACHE[key] = value
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


def _fit_point(X: pd.DataFrame, y01: np.ndarray, train: np.ndarray, test: np.ndarray | None,
               spec: RuleSettings, n_thresholds: int | str, lam: float, key: tuple,
               keep_rule: bool, labels: tuple = ("target", 1)) -> dict:
    """One fit of the sweep: a rule on the training rows at (thresholds, λ), scored on both."""
    t0 = time.perf_counter()
    binarizer, A = _fold_terms(key, X, train, n_thresholds, spec.negations, spec.kinds,
                               missing_tests_for(spec))
    ytr = y01[train]
    if ytr.min() == ytr.max():
        raise DataError("A training fold holds a single class; use fewer folds.")
    thr, n_thr = _threshold_mode(n_thresholds)
    est = spec.replace(lam=float(lam), thresholds=thr, n_thresholds=n_thr).estimator()
    est.fit_terms(A, ytr, binarizer)
    rule: Rule | RuleSet = est.rule_
    if isinstance(rule, RuleSet):
        size, clauses = rule.n_conditions, len(rule)
    else:
        size, clauses = len(rule), 1
    # the estimator's predict: a rule set may describe the other class (RuleSetClassifier)
    pred_tr = est.predict(X.iloc[train])
    row = {"conditions": size, "clauses": clauses,
           "train_error": float(np.mean(pred_tr != ytr)), "test_error": np.nan,
           "objective": float(getattr(est, "objective_", np.nan)),
           "status": est.lp_status_, "gap": float(est.mip_gap_), "n_terms": A.shape[1]}
    report = getattr(est, "screening_report_", None)
    row["n_kept"] = report.n_kept if report is not None else A.shape[1]
    if test is not None and len(test):
        row["test_error"] = float(np.mean(est.predict(X.iloc[test]) != y01[test]))
    if keep_rule:
        if getattr(est, "described_class_", 1) == 0:  # a rule set describing the other class
            labels = (labels[0], f"not {labels[1]}")
        rule = relabel(rule, *labels)
        row["rule"] = str(rule)
        row["json"] = rule.to_json(None)
    row["seconds"] = time.perf_counter() - t0
    return row


def _status_of(statuses: Iterable[str]) -> str:
    bad = [s for s in statuses if s != "optimal"]
    return bad[0] if bad else "optimal"


def _folds(y01: np.ndarray, cv: Any, random_state: int | None) -> list[tuple[np.ndarray, ...]]:
    from sklearn.model_selection import StratifiedKFold

    if cv is None:
        return []
    if isinstance(cv, (int, np.integer)):
        k = int(cv)
        if k < 2:
            raise ParameterError("cv must be at least 2 folds (or None for no cross-validation).")
        smallest = int(np.bincount(y01, minlength=2).min())
        if smallest < k:
            raise DataError(f"{k}-fold cross-validation needs at least {k} rows of each class; "
                            f"the smaller class has {smallest}.")
        splitter = StratifiedKFold(n_splits=k, shuffle=True, random_state=random_state)
        return [(np.asarray(tr), np.asarray(te)) for tr, te in splitter.split(y01, y01)]
    if hasattr(cv, "split"):
        return [(np.asarray(tr), np.asarray(te)) for tr, te in cv.split(y01, y01)]
    return [(np.asarray(tr), np.asarray(te)) for tr, te in cv]


def _binary_target(y: Any, positive: Any) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1:
        raise DataError("y must be one column of labels.")
    if pd.isna(y).any():
        raise DataError("The target has missing values; drop those rows first.")
    if positive is None:
        classes = np.unique(y)
        if len(classes) != 2:
            raise DataError(f"The target has {len(classes)} classes; pass positive= to pick "
                            "the class the rule predicts (one-vs-rest).")
        positive = classes[1]
    y01 = (y == positive).astype(np.int64)
    if y01.min() == y01.max():
        from rulecore.data import show

        raise DataError(f"{show(positive)!r} is not one of two classes present in the target.")
    return y01


def sweep(
    X: Any,
    y: Any,
    *,
    lams: Sequence[float] = (0.1, 1.0, 10.0),
    thresholds: Sequence[int | str] = (10,),
    cv: Any = 5,
    positive: Any = None,
    model: str = "single",
    rule_type: str = "and",
    negations: bool = True,
    solver: str = "mip",
    time_limit: float = DEFAULT_TIME_LIMIT,
    screening: str = DEFAULT_SCREENING,
    class_weight: Any = "auto",
    max_rules: int = 5,
    n_rounds: int = 5,
    kinds: dict | None = None,
    refit: bool = True,
    X_test: Any = None,
    y_test: Any = None,
    random_state: int | None = 0,
    backend: str | None = None,
    scheduler: str | None = None,
    n_jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    per_fold: bool = False,
) -> pd.DataFrame:
    """Cross-validated λ × thresholds grid of rules; every fit is an independent parallel task.

    Parameters
    ----------
    X : DataFrame or array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
        Labels; ``positive`` (default: the larger of two labels) is the class the rule predicts.
    lams : sequence of float
        λ values (weight of errors against conditions, docs/clause.md).
    thresholds : sequence of int or "all"
        Quantile thresholds per numeric column (``n_thresholds``), or ``"all"`` midpoints.
    cv : int, splitter, list of (train, test) index pairs, or None
        k for stratified shuffled k-fold (seeded by ``random_state``); ``None``: no CV (a
        plain λ path: one fit per grid point on all rows, scored on ``X_test`` if given).
    model : {"single", "rule-set", "set-covering", "boosting"}
        (The Rule page's names "single rule", "set covering" are accepted too.)  The rule set
        at each grid λ still chooses the class it describes by its inner CV.
    rule_type, negations, solver, time_limit, screening, class_weight, max_rules, n_rounds, kinds
        As for :class:`~rulecore.rules.estimators.BooleanRuleClassifier` and the rule-set learners.
    refit : bool
        Also fit every grid point on all rows (the rule a user would take); its size is the
        ``conditions`` column and its text ``rule``.  Forced on when ``cv=None``.
    X_test, y_test : optional
        A held-out set, scored by the refitted rules (``test_error``).
    backend, scheduler, n_jobs
        Where the fits run (see :func:`backend_config`).  The table does not depend on them.
    progress : callable, optional
        ``progress(done, total)`` after each fit, in the calling process.
    per_fold : bool
        Return one row per (grid point, fold) instead of the summary.

    Returns
    -------
    DataFrame
        One row per (``n_thresholds``, ``lam``) in grid order: ``cv_error``, ``cv_error_std``,
        ``cv_train_error``, ``conditions_cv`` (mean size over folds), ``status`` (worst over
        folds), ``max_gap``, and with refit ``conditions``, ``clauses``, ``train_error``,
        ``test_error``, ``objective``, ``gap``, ``rule``, ``json`` (a superset of
        :func:`~rulecore.rules.estimators.lambda_path`'s columns); ``seconds`` is the summed
        fit time.
    """
    model_name(model)
    lams = [float(v) for v in np.atleast_1d(np.asarray(lams, dtype=float))]
    if not lams or not all(math.isfinite(v) and v > 0 for v in lams):
        raise ParameterError("Every λ must be a positive number.")
    thresholds = list(thresholds)
    if not thresholds:
        raise ParameterError("Give at least one threshold setting.")
    for t in thresholds:
        _threshold_mode(t)
    frame = as_frame(X).reset_index(drop=True)
    y01 = _binary_target(y, positive)
    if len(frame) != len(y01):
        raise DataError(f"X has {len(frame)} rows but y has {len(y01)}.")
    spec = RuleSettings(model=model, rule_type=rule_type, negations=negations, solver=solver,
                        time_limit=float(time_limit), screening=screening,
                        class_weight=class_weight, random_state=random_state,
                        max_rules=int(max_rules), n_rounds=int(n_rounds),
                        kinds=tuple(sorted(kinds.items())) if kinds else ())
    # bad settings fail here, once, not in every worker
    # "auto" picks AND or OR inside each fit, by inner CV
    check_clause_options(lam=lams[0], rule_type="and" if rule_type == "auto" else rule_type,
                         solver=solver, screening=screening,
                         time_limit=time_limit)
    folds = _folds(y01, cv, random_state)
    refit = refit or not folds
    if X_test is not None and y_test is not None:
        test_frame = as_frame(X_test, fitted_names=np.asarray(frame.columns, dtype=object))
        y_test01 = (np.asarray(y_test) == _positive_label(y, positive)).astype(np.int64)
        # Score the refit on the test rows by appending them after the training rows.
        data = pd.concat([frame, test_frame.reset_index(drop=True)], ignore_index=True)
        yall = np.concatenate([y01, y_test01])
        all_rows = np.arange(len(frame))
        held_out: np.ndarray | None = np.arange(len(frame), len(data))
    else:
        data, yall, all_rows, held_out = frame, y01, np.arange(len(frame)), None

    labels = (str(y.name) if isinstance(y, pd.Series) and y.name is not None else "target",
              _positive_label(y, positive))
    if isinstance(labels[1], np.generic):
        labels = (labels[0], labels[1].item())
    token = joblib.hash((data, yall))
    tasks, keys = [], []
    # Fold-major order: the λ values of a (fold, thresholds) pair follow each other, so a
    # worker's cached term matrix is reused while it is hot.
    splits = [(f, tr, te) for f, (tr, te) in enumerate(folds)]
    if refit:
        splits.append((-1, all_rows, held_out))
    for f, tr, te in splits:
        for t in thresholds:
            key = (token, f, t, negations, spec.kinds)
            for lam in lams:
                tasks.append((_fit_point, (data, yall, tr, te, spec, t, lam, key, f < 0, labels),
                              {}))
                keys.append({"n_thresholds": t, "lam": lam, "fold": f})
    results = run_tasks(tasks, backend=backend, scheduler=scheduler, n_jobs=n_jobs,
                        progress=progress)
    rows = pd.DataFrame([{**k, **r} for k, r in zip(keys, results)])
    stopped = int((rows["status"] != "optimal").sum())
    if stopped:
        warnings.warn(f"{stopped} of {len(rows)} fits stopped before proving optimality "
                      f"({_status_of(rows['status'])}); their rules depend on machine speed "
                      "and may differ between runs and backends. Raise time_limit, or use "
                      "screening='enhanced', for a reproducible table.", SweepWarning,
                      stacklevel=2)
    rows["n_thresholds"] = rows["n_thresholds"].astype(object)
    if per_fold:
        return rows.sort_values(["n_thresholds", "lam", "fold"], key=_grid_key,
                                kind="stable").reset_index(drop=True)
    return _summarise(rows, thresholds, lams, bool(folds))


def _grid_key(col: pd.Series) -> pd.Series:
    if col.name == "n_thresholds":
        return col.map(lambda t: np.inf if t == "all" else float(t))
    return col


def _positive_label(y: Any, positive: Any) -> Any:
    return np.unique(np.asarray(y))[1] if positive is None else positive


def _summarise(rows: pd.DataFrame, thresholds: list, lams: list, has_cv: bool) -> pd.DataFrame:
    out = []
    for t in thresholds:
        for lam in lams:
            at = rows[(rows["n_thresholds"] == t) & (rows["lam"] == lam)]
            cvr, full = at[at["fold"] >= 0], at[at["fold"] < 0]
            rec: dict[str, Any] = {"n_thresholds": t, "lam": lam}
            if has_cv:
                rec.update(cv_error=cvr["test_error"].mean(),
                           cv_error_std=cvr["test_error"].std(ddof=0),
                           cv_train_error=cvr["train_error"].mean(),
                           conditions_cv=cvr["conditions"].mean(), folds=len(cvr))
            if len(full):
                r = full.iloc[0]
                rec.update(conditions=int(r["conditions"]), clauses=int(r["clauses"]),
                           train_error=r["train_error"], test_error=r["test_error"],
                           objective=r["objective"], gap=r["gap"], n_terms=int(r["n_terms"]),
                           rule=r["rule"], json=r["json"])
            rec.update(status=_status_of(at["status"]), max_gap=at["gap"].max(),
                       seconds=at["seconds"].sum())
            out.append(rec)
    return pd.DataFrame(out)


def pareto_front(df: pd.DataFrame, size: str | None = None,
                 error: str | None = None) -> pd.DataFrame:
    """Grid points no other point beats on both rule size and error.

    Parameters
    ----------
    df : DataFrame
        A :func:`sweep` table.
    size : str, optional
        Size column; default ``conditions`` (refitted rule) if present, else ``conditions_cv``.
    error : str, optional
        Error column; default ``cv_error`` if present, else ``test_error`` then ``train_error``.

    Returns
    -------
    DataFrame
        The non-dominated rows, by increasing size (strictly decreasing error); among equal
        (size, error) the first in grid order is kept.
    """
    size = size or ("conditions" if "conditions" in df else "conditions_cv")
    if error is None:
        error = next((c for c in ("cv_error", "test_error", "train_error")
                      if c in df and df[c].notna().any()), None)
    if size not in df or error is None or error not in df:
        raise ParameterError("The table lacks a size or an error column for a Pareto front.")
    order = df.assign(_i=np.arange(len(df))).sort_values([size, error, "_i"], kind="stable")
    keep, best = [], np.inf
    for i, e in zip(order["_i"], order[error]):
        if e < best - 1e-12:
            keep.append(i)
            best = e
    return df.iloc[keep].reset_index(drop=True)


def same_results(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Whether two sweep tables agree in everything but wall times."""
    cols = [c for c in a.columns if c not in TIMING_COLUMNS]
    if list(cols) != [c for c in b.columns if c not in TIMING_COLUMNS]:
        return False
    try:
        pd.testing.assert_frame_equal(a[cols].reset_index(drop=True),
                                      b[cols].reset_index(drop=True), check_exact=True)
    except AssertionError:
        return False
    return True


# --------------------------------------------------------------------------- any estimator


def _size_of(est: Any) -> float:
    """Model size for the Pareto front: conditions of a rule, support of a sparse model."""
    rule = getattr(est, "rule_", None)
    if isinstance(rule, RuleSet):
        return float(rule.n_conditions)
    if isinstance(rule, Rule):
        return float(len(rule))
    if hasattr(est, "support_"):
        return float(len(est.support_))
    coef = getattr(est, "coef_", None)
    if coef is not None:
        return float(np.count_nonzero(coef))
    if hasattr(est, "tree_"):
        return float(est.tree_.node_count - est.tree_.n_leaves)  # split nodes
    return float("nan")


def _fit_estimator(estimator: Any, params: dict, X: pd.DataFrame, y: np.ndarray,
                   train: np.ndarray, test: np.ndarray,
                   size_of: Callable[[Any], float]) -> dict:
    from sklearn.base import clone

    t0 = time.perf_counter()
    est = clone(estimator).set_params(**params)
    est.fit(X.iloc[train], y[train])
    return {"size": size_of(est),
            "train_error": float(np.mean(est.predict(X.iloc[train]) != y[train])),
            "test_error": float(np.mean(est.predict(X.iloc[test]) != y[test])),
            "status": str(getattr(est, "lp_status_", getattr(est, "status_", "done"))),
            "seconds": time.perf_counter() - t0}


def grid_sweep(estimator: Any, param_grid: dict[str, Sequence], X: Any, y: Any, *,
               cv: Any = 5, random_state: int | None = 0,
               size_of: Callable[[Any], float] = _size_of, backend: str | None = None,
               scheduler: str | None = None, n_jobs: int | None = None,
               progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Cross-validated grid for any scikit-learn classifier (k/γ grids of sparse models...).

    Each (parameter combination, fold) is one task on the chosen backend, as in :func:`sweep`.

    Returns
    -------
    DataFrame
        One row per combination (grid order, first parameter slowest): the parameters,
        ``size`` (mean over folds, by ``size_of``), ``cv_error``, ``cv_error_std``,
        ``cv_train_error``, ``status`` (worst), ``seconds``.
    """
    from sklearn.model_selection import ParameterGrid

    frame = as_frame(X).reset_index(drop=True)
    yy = np.asarray(y)
    classes, y_idx = np.unique(yy, return_inverse=True)
    if len(classes) < 2:
        raise DataError("The target has a single class; a classifier needs two.")
    folds = _folds_multiclass(y_idx, cv, random_state)
    if not folds:
        raise ParameterError("grid_sweep needs cross-validation folds (cv=k).")
    grid = list(ParameterGrid({k: list(v) for k, v in param_grid.items()}))
    names = list(param_grid)
    # ParameterGrid sorts keys; enumerate in the caller's key order instead.
    grid.sort(key=lambda p: [list(param_grid[k]).index(p[k]) for k in names])
    tasks = [(_fit_estimator, (estimator, p, frame, yy, tr, te, size_of), {})
             for p in grid for tr, te in folds]
    res = run_tasks(tasks, backend=backend, scheduler=scheduler, n_jobs=n_jobs,
                    progress=progress)
    out, k = [], len(folds)
    for i, p in enumerate(grid):
        part = pd.DataFrame(res[i * k:(i + 1) * k])
        out.append({**{n: p[n] for n in names}, "size": part["size"].mean(),
                    "cv_error": part["test_error"].mean(),
                    "cv_error_std": part["test_error"].std(ddof=0),
                    "cv_train_error": part["train_error"].mean(),
                    "status": _status_of(part["status"].where(part["status"] != "done",
                                                              "optimal")),
                    "seconds": part["seconds"].sum()})
    return pd.DataFrame(out)


def _folds_multiclass(y_idx: np.ndarray, cv: Any, random_state: int | None) -> list:
    from sklearn.model_selection import StratifiedKFold

    if isinstance(cv, (int, np.integer)):
        splitter = StratifiedKFold(n_splits=int(cv), shuffle=True, random_state=random_state)
        return [(np.asarray(a), np.asarray(b)) for a, b in splitter.split(y_idx, y_idx)]
    return _folds(y_idx, cv, random_state)


def relabel(rule: Rule | RuleSet, target: str, positive: Any) -> Rule | RuleSet:
    """The same rule predicting ``target = positive`` (fits on 0/1 targets say ``target = 1``)."""
    return rule.relabel(target, positive)


__all__ = ["BACKENDS", "MODELS", "SweepWarning", "backend_config", "grid_sweep",
           "pareto_front", "relabel", "run_tasks", "same_results", "sweep"]
