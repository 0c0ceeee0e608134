"""How stable is a learned rule?  Refit it on K folds (or bootstraps) and compare the rules.

One fitted rule says which conditions separate the classes on *these* rows; refitting on
perturbed rows says which of them the data really insist on.  :func:`stability` refits a
rule estimator on ``n_splits`` stratified cross-validation folds (or stratified bootstraps,
scored on their out-of-bag rows) and reports

- how often each **condition group** appears: a feature and a direction (``<=``, ``>``, or
  ``== level`` / ``!= level``), its thresholds grouped when they cut the column at nearly the
  same place (:func:`group_conditions`);
- the **held-out error** of every fold, and so its spread;
- one **stability score**: the mean pairwise Jaccard similarity of the folds' sets of
  condition groups (1: every fold uses the same conditions).

Definitions and the reasons for them are in ``docs/stability.md``.  Every fit is an
independent task run by :func:`rulecore.sweep.run_tasks`, so the same call runs in local
processes, threads, on a Dask cluster or on Ray; the folds are drawn here, in the caller's
process, from ``random_state``, and results come back in fold order, so the result does not
depend on the backend (only the ``seconds`` column does).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from rulecore.data import show
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.estimators import as_frame, check_sample_weight, checked_labels
from rulecore.rules.rule import Rule, RuleList, RuleSet
from rulecore.rules.terms import Term, format_value

#: Two thresholds of one feature and direction are "nearby" when the shares of the column's
#: values at or below them differ by at most this much (ten percentage points of the rows).
DEFAULT_TOLERANCE = 0.1
#: Columns of :attr:`StabilityResult.fold_table` that change from run to run.
TIMING_COLUMNS = ("seconds",)


# --------------------------------------------------------------------------- result


@dataclass
class StabilityResult:
    """What :func:`stability` found.

    Attributes
    ----------
    rules : list of Rule, RuleSet or RuleList, length n_splits
        The rule each fold's fit learned, in fold order.
    errors : ndarray of shape (n_splits,)
        Held-out error of each fold's fit: the share of its held-out rows (the fold's test
        rows, or a bootstrap's out-of-bag rows) it misclassifies, weighted by
        ``sample_weight`` when given.  NaN for a bootstrap with no out-of-bag row.
    conditions : DataFrame, one row per condition group
        Columns ``condition`` (label, e.g. ``"torque > 44.5–46"``), ``feature``,
        ``direction`` (``"<="``, ``">"``, or ``"== L"`` / ``"!= L"`` with the level),
        ``thresholds`` (``"44.5–46"``, one value, or ``""`` for a level), ``low``, ``high``
        (the group's smallest and largest threshold; NaN for a level), ``folds`` (in how
        many folds the group appears) and ``frequency`` (``folds / n_splits``); sorted by
        frequency, most frequent first.
    score : float
        Stability score in [0, 1]: the mean over all pairs of folds of the Jaccard similarity
        ``|A ∩ B| / |A ∪ B|`` of their sets of condition groups (two empty sets: 1).
    fold_table : DataFrame, one row per fold
        ``fold`` (0-based), ``rule`` (text), ``predicts`` (the class a Rule or RuleSet
        predicts when it holds; None for a rule list), ``conditions`` (count over all
        clauses), ``train_rows``, ``held_out_rows``, ``error`` (as ``errors``) and
        ``seconds`` (wall time of the fit, the only column that varies between runs).
    presence : bool ndarray of shape (n_groups, n_splits)
        ``presence[g, k]``: condition group ``g`` (row ``g`` of ``conditions``) appears in
        fold ``k``'s rule.
    n_splits : int
    bootstrap : bool
        Bootstraps with out-of-bag errors instead of cross-validation folds.
    tolerance : float
        The quantile distance within which thresholds were grouped.
    """

    rules: list
    errors: np.ndarray
    conditions: pd.DataFrame
    score: float
    fold_table: pd.DataFrame
    presence: np.ndarray = field(repr=False)
    n_splits: int = 0
    bootstrap: bool = False
    tolerance: float = DEFAULT_TOLERANCE

    @property
    def error_mean(self) -> float:
        """Mean held-out error over the folds (NaN folds left out)."""
        return float(np.nanmean(self.errors)) if np.isfinite(self.errors).any() else np.nan

    @property
    def error_std(self) -> float:
        """Standard deviation of the held-out errors over the folds (``ddof=0``, as the
        sweeps' ``cv_error_std``)."""
        return float(np.nanstd(self.errors)) if np.isfinite(self.errors).any() else np.nan

    @property
    def error_min(self) -> float:
        return float(np.nanmin(self.errors)) if np.isfinite(self.errors).any() else np.nan

    @property
    def error_max(self) -> float:
        return float(np.nanmax(self.errors)) if np.isfinite(self.errors).any() else np.nan

    @property
    def method(self) -> str:
        """``"5-fold cross-validation"`` or ``"5 bootstraps"``: how the rows were perturbed."""
        return f"{self.n_splits} bootstraps" if self.bootstrap else \
            f"{self.n_splits}-fold cross-validation"

    def equals(self, other: StabilityResult) -> bool:
        """Whether two results agree in everything but the fits' wall times."""
        if not isinstance(other, StabilityResult):
            return False
        keep = [c for c in self.fold_table.columns if c not in TIMING_COLUMNS]
        try:
            pd.testing.assert_frame_equal(self.conditions, other.conditions, check_exact=True)
            pd.testing.assert_frame_equal(self.fold_table[keep], other.fold_table[keep],
                                          check_exact=True)
        except (AssertionError, KeyError):
            return False
        return (self.rules == other.rules and self.score == other.score
                and np.array_equal(self.errors, other.errors, equal_nan=True)
                and np.array_equal(self.presence, other.presence)
                and (self.n_splits, self.bootstrap, self.tolerance)
                == (other.n_splits, other.bootstrap, other.tolerance))

    def to_dict(self) -> dict:
        """Plain Python (JSON-ready: NaN as None) for the command line's ``--json``."""
        def plain(v: Any) -> Any:
            if isinstance(v, np.generic):
                v = v.item()
            if isinstance(v, float) and not np.isfinite(v):
                return None
            return v

        def records(df: pd.DataFrame) -> list[dict]:
            return [{k: plain(v) for k, v in row.items()} for row in df.to_dict("records")]

        return {"method": self.method, "n_splits": self.n_splits, "bootstrap": self.bootstrap,
                "tolerance": self.tolerance, "score": plain(self.score),
                "error": {"mean": plain(self.error_mean), "std": plain(self.error_std),
                          "min": plain(self.error_min), "max": plain(self.error_max),
                          "per_fold": [plain(e) for e in self.errors]},
                "conditions": records(self.conditions), "folds": records(self.fold_table)}


# --------------------------------------------------------------------------- conditions


def rule_conditions(rule: Rule | RuleSet | RuleList) -> list[Term]:
    """Every condition of a rule, of all clauses of a rule set or rule list, in order.

    Raises
    ------
    ParameterError
        For anything that is not a Rule, RuleSet or RuleList.
    """
    if isinstance(rule, Rule):
        return list(rule.conditions)
    if isinstance(rule, (RuleSet, RuleList)):
        return [t for clause in rule.clauses for t in clause.conditions]
    raise ParameterError(f"Stability needs a rule estimator (its rule_ a Rule, RuleSet or "
                         f"RuleList), not one whose rule_ is {type(rule).__name__}.")


def _n_conditions(rule: Rule | RuleSet | RuleList) -> int:
    return len(rule) if isinstance(rule, Rule) else rule.n_conditions


def _ecdf(column: pd.Series | None) -> Callable[[float], float] | None:
    """``t ↦`` share of the column's non-missing values at or below ``t``; None when the
    column is absent or holds no number.

    The distance between two thresholds in this scale is the share of rows that lie between
    them: invariant to the column's units and to any monotone transform of it, so one
    tolerance serves ages, salaries and log-scaled counts alike.
    """
    values = np.array([]) if column is None else \
        pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
    values = np.sort(values[np.isfinite(values)])
    if not len(values):
        return None
    return lambda t: float(np.searchsorted(values, t, side="right")) / len(values)


def _group_key(t: Term) -> tuple:
    """``(feature, op, level)`` of a condition's group: level ``None`` for a threshold on
    numbers (grouped by nearness), else the level or ``""``."""
    if t.ordinal:  # as the rule shows it: "size == L", not "size > M" (a review)
        return (t.feature, str(t)[len(t.feature) + 1:], "")
    # a missing test is one condition whatever kind the column was read as in a fold ("b is
    # missing numeric" was its label: a review)
    return (t.feature, t.op, None) if t.numeric else \
        (t.feature, t.op, "") if t.missing_test else (t.feature, t.op, str(t.value))


def where_learned(result: StabilityResult, rule: Rule | RuleSet | RuleList, X: Any = None
                  ) -> pd.DataFrame:
    """Where the conditions of ``rule`` (the one learned on the analyst's split) stand among
    the folds' condition groups: a review could not tell whether the learned
    ``MonthlyIncome <= 5300`` counted as the folds' ``<= 4880–5280``, and a learned
    ``petal width <= 1.55`` that no fold found was not shown at all.

    A numeric condition is in a group of its feature and direction when its threshold's
    quantile in ``X`` lies within the result's tolerance of the group's range (as
    :func:`group_conditions` joins thresholds); the nearest such group is taken.

    Returns
    -------
    DataFrame, one row per condition of ``rule``
        ``condition`` (its text), ``group`` (the group's label, or missing), ``folds`` (the
        folds with that group, 0 without one) and ``frequency``.
    """
    frame = None if X is None else as_frame(X)
    table = result.conditions
    rows = []
    for t in rule_conditions(rule):
        feature, op, level = _group_key(t)
        label, folds = None, 0
        if level is None:
            q = _ecdf(frame[feature] if frame is not None and feature in frame.columns
                      else None)
            same = table[(table["feature"] == feature) & (table["direction"] == op)]
            best = np.inf
            for _, g in same.iterrows():
                v = float(t.value)
                if q is None:
                    gap = 0.0 if g["low"] <= v <= g["high"] else np.inf
                else:
                    gap = max(0.0, q(g["low"]) - q(v), q(v) - q(g["high"]))
                if gap <= result.tolerance + 1e-12 and gap < best:
                    best, label, folds = gap, g["condition"], int(g["folds"])
        else:
            direction = f"{op} {level}".rstrip()
            hit = table[(table["feature"] == feature) & (table["direction"] == direction)]
            if len(hit):
                label, folds = hit["condition"].iloc[0], int(hit["folds"].iloc[0])
        rows.append({"condition": str(t), "group": label, "folds": folds,
                     "frequency": folds / result.n_splits if result.n_splits else np.nan})
    return pd.DataFrame(rows, columns=["condition", "group", "folds", "frequency"])


def group_conditions(rules: Sequence[Rule | RuleSet | RuleList], X: Any = None, *,
                     tolerance: float = DEFAULT_TOLERANCE) -> tuple[pd.DataFrame, np.ndarray]:
    """Group the conditions of several rules; which groups each rule uses.

    Two conditions are in one group when they read the same feature in the same direction
    and, for numeric conditions, their thresholds are *nearby*: sort the thresholds of a
    (feature, direction) pair, pooled over all rules, by their empirical quantile
    ``q(t)`` = share of the column's values in ``X`` at or below ``t``; a new group starts
    wherever two consecutive quantiles differ by more than ``tolerance`` (single linkage, so
    thresholds that drift little by little from fold to fold stay one condition).  A
    categorical condition (``==`` / ``!=``) groups only with the same level.

    Parameters
    ----------
    rules : sequence of Rule, RuleSet or RuleList, length n_rules
    X : DataFrame or array of shape (n_samples, n_features), optional
        The table the quantiles are measured on (the rows the rules were learned from).
        Without it, or for a column it lacks, only equal thresholds group.
    tolerance : float, default=0.1
        Largest quantile gap inside a group, in [0, 1).

    Returns
    -------
    conditions : DataFrame of shape (n_groups, 8)
        As :attr:`StabilityResult.conditions`, frequency over ``n_rules``.
    presence : bool ndarray of shape (n_groups, n_rules)
        Whether group ``g`` appears in rule ``k``, rows in the order of ``conditions``.
    """
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float, np.number)) or \
            not 0 <= tolerance < 1:
        raise ParameterError(f"tolerance is a share of rows in [0, 1), not {tolerance!r}.")
    frame = None if X is None else as_frame(X)
    n = len(rules)
    # (feature, op, level or None) -> list of (rule index, threshold)
    pairs: dict[tuple, list[tuple[int, Any]]] = {}
    for k, rule in enumerate(rules):
        for t in rule_conditions(rule):
            pairs.setdefault(_group_key(t), []).append((k, t.value))
    groups = []  # (feature, direction, low, high, set of rule indices)
    for (feature, op, level), hits in pairs.items():
        if level is not None:
            groups.append((feature, f"{op} {level}".rstrip(), np.nan, np.nan,
                           {k for k, _ in hits}))
            continue
        q = _ecdf(frame[feature] if frame is not None and feature in frame.columns else None)
        # no numbers to measure the gap with: only equal thresholds group
        near = (lambda a, b: a[1] == b[1]) if q is None else \
            (lambda a, b: b[0] - a[0] <= tolerance + 1e-12)  # k/n fractions: no rounding split
        pts = sorted((0.0 if q is None else q(float(v)), float(v), k) for k, v in hits)
        start = 0
        for i in range(1, len(pts) + 1):
            if i == len(pts) or not near(pts[i - 1], pts[i]):
                part = pts[start:i]
                ts = [p[1] for p in part]
                groups.append((feature, op, min(ts), max(ts), {p[2] for p in part}))
                start = i
    rows = []
    for feature, direction, lo, hi, members in groups:
        if np.isnan(lo):
            thresholds, label = "", f"{feature} {direction}"
        else:
            thresholds = format_value(lo) if lo == hi else \
                f"{format_value(lo)}–{format_value(hi)}"
            label = f"{feature} {direction} {thresholds}"
        rows.append({"condition": label, "feature": feature, "direction": direction,
                     "thresholds": thresholds, "low": lo, "high": hi, "folds": len(members),
                     "frequency": len(members) / n if n else np.nan,
                     "_members": members})
    columns = ["condition", "feature", "direction", "thresholds", "low", "high", "folds",
               "frequency"]
    if not rows:
        return (pd.DataFrame({c: pd.Series(dtype=object if c in columns[:4] else float)
                              for c in columns}).astype({"folds": np.int64}),
                np.zeros((0, n), dtype=bool))
    table = pd.DataFrame(rows)
    # most frequent first; ties in a fixed order (feature, direction, threshold), so the
    # table never depends on the order the fits came back in
    table = table.sort_values(["frequency", "feature", "direction", "low"],
                              ascending=[False, True, True, True], kind="stable",
                              na_position="last").reset_index(drop=True)
    presence = np.zeros((len(table), n), dtype=bool)
    for g, members in enumerate(table["_members"]):
        presence[g, sorted(members)] = True
    return table[columns], presence


def jaccard_score(presence: np.ndarray) -> float:
    """Mean pairwise Jaccard similarity of the columns of a groups × rules presence matrix.

    ``J(A, B) = |A ∩ B| / |A ∪ B|`` for the sets of groups two rules use, 1 when both are
    empty; averaged over all ``n (n − 1) / 2`` pairs of rules (Kalousis et al. 2007).  One
    rule alone: 1.

    Parameters
    ----------
    presence : bool ndarray of shape (n_groups, n_rules)

    Returns
    -------
    float in [0, 1]
    """
    presence = np.asarray(presence, dtype=bool)
    n = presence.shape[1]
    if n < 2:
        return 1.0
    sims = []
    for a, b in itertools.combinations(range(n), 2):
        union = int((presence[:, a] | presence[:, b]).sum())
        inter = int((presence[:, a] & presence[:, b]).sum())
        sims.append(1.0 if union == 0 else inter / union)
    return float(np.mean(sims))


# --------------------------------------------------------------------------- folds


def draw_folds(y_idx: np.ndarray, n_splits: int, *, bootstrap: bool = False,
               random_state: int = 0, groups: Any = None
               ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Training and held-out rows of every fold, drawn from ``random_state``.

    Parameters
    ----------
    y_idx : int ndarray of shape (n_samples,)
        Class index of each row.
    n_splits : int
        Folds of stratified shuffled k-fold, or number of bootstraps.
    bootstrap : bool
        Stratified bootstraps: each class's rows drawn with replacement, as many as it has
        (so every training sample keeps the class balance and both classes); the held-out
        rows are the out-of-bag ones (about 37 % of the rows).
    groups : array of shape (n_samples,), optional
        A record that comes back on several rows (a ``patient_id`` of a visit table): each
        group's rows on one side of every fold (``StratifiedGroupKFold``; bootstraps draw
        whole groups), so that no held-out row is a copy of a training record.

    Returns
    -------
    list of (train, held_out) int ndarrays
        ``train`` may repeat rows (bootstrap), and is sorted.
    """
    if groups is not None:
        return _group_folds(y_idx, n_splits, bootstrap, random_state, np.asarray(groups))
    if bootstrap:
        rng = np.random.default_rng(random_state)
        by_class = [np.flatnonzero(y_idx == c) for c in np.unique(y_idx)]
        out = []
        for _ in range(n_splits):
            train = np.sort(np.concatenate([rng.choice(rows, size=len(rows), replace=True)
                                            for rows in by_class]))
            held = np.setdiff1d(np.arange(len(y_idx)), train)
            out.append((train, held))
        return out
    from sklearn.model_selection import StratifiedKFold

    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    return [(np.asarray(tr), np.asarray(te)) for tr, te in splitter.split(y_idx, y_idx)]


def _group_folds(y_idx: np.ndarray, n_splits: int, bootstrap: bool, random_state: int,
                 groups: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`draw_folds` by whole groups."""
    _, g = np.unique(groups, return_inverse=True)
    n_groups = int(g.max()) + 1
    if not bootstrap:
        from sklearn.model_selection import StratifiedGroupKFold

        if n_groups < n_splits:
            raise DataError(f"{n_splits}-fold cross-validation by whole groups needs at least "
                            f"{n_splits} groups; there are {n_groups}. Use fewer folds.")
        splitter = StratifiedGroupKFold(n_splits, shuffle=True, random_state=random_state)
        return [(np.asarray(tr), np.asarray(te)) for tr, te in splitter.split(y_idx, y_idx, g)]
    rng = np.random.default_rng(random_state)
    rows_of = np.split(np.argsort(g, kind="stable"), np.cumsum(np.bincount(g))[:-1])
    out = []
    for _ in range(n_splits):
        for _try in range(100):  # a draw whose training rows hold every class
            drawn = rng.choice(n_groups, size=n_groups, replace=True)
            train = np.sort(np.concatenate([rows_of[k] for k in drawn]))
            held = np.flatnonzero(~np.isin(g, drawn))
            if len(np.unique(y_idx[train])) == len(np.unique(y_idx)) and len(held):
                break
        else:
            raise DataError("Bootstraps of whole groups kept missing a class; use k-fold.")
        out.append((train, held))
    return out


def _fit_fold(estimator: Any, X: pd.DataFrame, y: np.ndarray, name: str | None,
              train: np.ndarray, held_out: np.ndarray, sample_weight: np.ndarray | None
              ) -> dict:
    """One task: clone, fit on the training rows, score on the held-out rows."""
    from sklearn.base import clone

    t0 = time.perf_counter()
    est = clone(estimator)
    # a named Series keeps the target's name in the rule's text, as a direct fit would
    ytr = pd.Series(y[train], name=name) if name is not None else y[train]
    if sample_weight is None:
        est.fit(X.iloc[train], ytr)
    else:
        est.fit(X.iloc[train], ytr, sample_weight=sample_weight[train])
    rule = getattr(est, "rule_", None)
    if rule is None:
        raise ParameterError(f"Stability needs a rule estimator (its fit sets rule_ to a Rule, "
                             f"RuleSet or RuleList); {type(est).__name__} sets no rule_.")
    rule_conditions(rule)  # a clear error for a rule_ of another kind
    error = np.nan
    if len(held_out):
        wrong = np.asarray(est.predict(X.iloc[held_out])) != y[held_out]
        w = None if sample_weight is None else sample_weight[held_out]
        if w is None or w.sum() > 0:
            error = float(np.average(wrong, weights=w))
    return {"rule": rule, "error": error, "seconds": time.perf_counter() - t0}


# --------------------------------------------------------------------------- stability


def stability(estimator: Any, X: Any, y: Any, *, n_splits: int = 5, bootstrap: bool = False,
              random_state: int = 0, backend: str | None = None, scheduler: str | None = None,
              n_jobs: int | None = None, sample_weight: Any = None,
              tolerance: float = DEFAULT_TOLERANCE, groups: Any = None,
              progress: Callable[[int, int], None] | None = None) -> StabilityResult:
    """Refit a rule estimator on ``n_splits`` folds (or bootstraps) and measure how stable
    its conditions and its held-out error are.

    Parameters
    ----------
    estimator : rule estimator (unfitted or fitted; it is cloned)
        Any scikit-learn estimator whose fit sets ``rule_`` to a Rule, RuleSet or RuleList:
        :class:`~rulecore.rules.estimators.BooleanRuleClassifier`,
        :class:`~rulecore.rules.estimators.SetCoveringRuleClassifier`,
        :class:`~rulecore.rules.estimators.BoostedRuleClassifier`,
        :class:`~rulecore.rules.ruleset.RuleSetClassifier` (any number of classes).
    X : DataFrame or array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
        Labels as the estimator takes them (two classes for the single-rule models).
    n_splits : int, default=5
        Folds of stratified shuffled k-fold cross-validation, or number of bootstraps.
    bootstrap : bool, default=False
        Stratified bootstraps scored on their out-of-bag rows instead of k-fold.
    random_state : int, default=0
        Seed of the folds (drawn in this process, so every backend fits the same rows).
    backend, scheduler, n_jobs
        Where the fits run (:func:`rulecore.sweep.backend_config`): ``"loky"``,
        ``"threading"``, ``"sequential"``, ``"dask"`` (with a scheduler address or a running
        Client), ``"ray"``; ``None`` keeps the active joblib configuration (every local
        core by default).
    sample_weight : array of shape (n_samples,), optional
        Passed to each fit (its training rows) and weighting each held-out error.
    tolerance : float, default=0.1
        Thresholds of one feature and direction whose empirical quantiles in ``X`` differ by
        at most this (single linkage) count as one condition (:func:`group_conditions`).
    groups : array of shape (n_samples,), optional
        A record that comes back on several rows (:attr:`rulecore.data.Dataset.groups`):
        each fold holds out whole groups (:func:`draw_folds`); otherwise the held-out error
        of a visit table is optimistic, a rule recognising returning patients.
    progress : callable (done, total), optional
        Called in this process as fits finish.

    Returns
    -------
    StabilityResult

    Raises
    ------
    ParameterError
        ``n_splits`` below 2, a bad ``tolerance`` or backend, an estimator that is not a
        rule estimator.
    DataError
        Rows of X and y differ, a missing or single-class target, fewer rows in a class than
        folds.
    """
    if isinstance(n_splits, bool) or not isinstance(n_splits, (int, np.integer)) or \
            n_splits < 2:
        raise ParameterError(f"Stability needs at least 2 folds (n_splits), not {n_splits!r}.")
    n_splits = int(n_splits)
    if not (hasattr(estimator, "fit") and hasattr(estimator, "get_params")):
        raise ParameterError(f"Stability needs a scikit-learn rule estimator, not "
                             f"{type(estimator).__name__}.")
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float, np.number)) or \
            not 0 <= tolerance < 1:
        raise ParameterError(f"tolerance is a share of rows in [0, 1), not {tolerance!r}.")
    frame = as_frame(X).reset_index(drop=True)
    name = str(y.name) if isinstance(y, pd.Series) and y.name is not None else None
    labels, _, classes = checked_labels(y, "Stability")
    labels = np.asarray(labels)
    if len(frame) != len(labels):
        raise DataError(f"X has {len(frame)} rows but y has {len(labels)}.")
    sw = None if sample_weight is None else check_sample_weight(sample_weight, len(labels))
    y_idx = np.searchsorted(classes, labels)
    counts = np.bincount(y_idx, minlength=len(classes))
    smallest = int(counts.min())
    small_label = show(classes[int(counts.argmin())])  # 'rare', not np.str_('rare')
    if bootstrap and smallest < 2:
        raise DataError(f"Bootstraps need at least 2 rows of each class; the class "
                        f"{small_label!r} has {smallest}.")
    if not bootstrap and smallest < n_splits:
        raise DataError(f"{n_splits}-fold cross-validation needs at least {n_splits} rows of "
                        f"each class; the class {small_label!r} has {smallest}. Use fewer "
                        "folds, or bootstraps.")
    if groups is not None and len(groups) != len(labels):
        raise DataError(f"groups has {len(groups)} values but y has {len(labels)}.")
    folds = draw_folds(y_idx, n_splits, bootstrap=bool(bootstrap), random_state=random_state,
                       groups=groups)

    from rulecore.sweep import run_tasks

    # X, y and the weights are the same objects in every task: Dask scatters them once
    tasks = [(_fit_fold, (estimator, frame, labels, name, tr, te, sw), {}) for tr, te in folds]
    results = run_tasks(tasks, backend=backend, scheduler=scheduler, n_jobs=n_jobs,
                        progress=progress)
    rules = [r["rule"] for r in results]
    errors = np.array([r["error"] for r in results], dtype=float)
    # quantiles on every row (not one fold's): the same yardstick for every fold's thresholds
    conditions, presence = group_conditions(rules, frame, tolerance=float(tolerance))
    fold_table = pd.DataFrame({
        "fold": np.arange(n_splits),
        "rule": [str(r) for r in rules],
        "predicts": [None if isinstance(r, RuleList) else r.positive for r in rules],
        "conditions": [_n_conditions(r) for r in rules],
        "train_rows": [len(tr) for tr, _ in folds],
        "held_out_rows": [len(te) for _, te in folds],
        "error": errors,
        "seconds": [r["seconds"] for r in results]})
    return StabilityResult(rules=rules, errors=errors, conditions=conditions,
                           score=jaccard_score(presence), fold_table=fold_table,
                           presence=presence, n_splits=n_splits, bootstrap=bool(bootstrap),
                           tolerance=float(tolerance))


__all__ = ["DEFAULT_TOLERANCE", "StabilityResult", "draw_folds", "group_conditions",
           "jaccard_score", "rule_conditions", "stability"]
