"""Rule estimators (scikit-learn API): one rule, and rule sets built clause by clause.

- :class:`BooleanRuleClassifier`: one AND- (or OR-) rule, Boolean compressed sensing
  (Malioutov & Varshney, "Exact rule learning via Boolean compressed sensing", ICML 2013).
- :class:`SetCoveringRuleClassifier`: a DNF learned clause by clause (separate and conquer).
- :class:`BoostedRuleClassifier`: the paper's Algorithm 1 (after Cohen & Singer's SLIPPER).

Every estimator builds its terms once (:class:`~rulecore.rules.terms.Binarizer`) and learns
each clause with :func:`~rulecore.rules.clause.learn_clause`.  :meth:`fit_terms` fits on a
term matrix that is already built (the λ path and the sweeps reuse one matrix for many fits).
Math in ``docs/clause.md`` and ``docs/rulesets.md``.
"""

from __future__ import annotations

import numbers
import time
import warnings
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d

from rulecore import progress
from rulecore.data import show
from rulecore.encode import (
    check_memory,
    check_seed,
    checked_array,
    dense_bytes,
    text_names,
    whole_number,
)
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.alternatives import Alternative, alternatives
from rulecore.rules.clause import ClauseResult, learn_clause, problem_of
from rulecore.rules.problem import ClauseProblem, Constraints
from rulecore.rules.rule import Rule, RuleSet
from rulecore.rules.terms import Binarizer, positive_rows
from rulecore.settings import (
    DEFAULT_BOOSTING_LAM,
    DEFAULT_LAM,
    DEFAULT_N_THRESHOLDS,
    DEFAULT_SCREENING,
    DEFAULT_TIME_LIMIT,
    INNER_CV_MAX_ROWS,
    RULE_TYPE_CHOICES,
    check_lam,
    default_lam,
    lam_grid,
    per_row_blockers,
    resolve_class_weight,
    single_rule_defaults,
)


def as_frame(X: Any, feature_names: Any = None,
             fitted_names: np.ndarray | None = None) -> pd.DataFrame:
    """``X`` as a DataFrame with text column names: an array's columns get ``feature_names``,
    else ``fitted_names`` (when the count matches), else ``x0, x1, ...``."""
    if isinstance(X, pd.DataFrame):
        frame = text_names(X)
        dates = [c for c in frame.columns
                 if pd.api.types.is_datetime64_any_dtype(frame[c])
                 or pd.api.types.is_timedelta64_dtype(frame[c])]
        if dates:
            # as numbers they were nanoseconds since 1970 (a rule "signup <= 1610500000000000"
            # that changed with the time unit) and a missing date the earliest one
            raise DataError(f"Column{'s' if len(dates) > 1 else ''} "
                            f"{', '.join(map(repr, dates))} hold{'s' if len(dates) == 1 else ''}"
                            " dates or durations, which a rule cannot compare as they are. "
                            "Turn each into numbers first (df[c].dt.year, df[c].dt.month, or "
                            "days since an origin), or load the table with "
                            "rulecore.data.from_frame, which replaces a date by its year and "
                            "month.")
        return frame
    arr = checked_array(X)
    if feature_names is not None:
        names = [str(c) for c in feature_names]
    elif fitted_names is not None and len(fitted_names) == arr.shape[1]:
        names = list(fitted_names)
    else:
        names = [f"x{i}" for i in range(arr.shape[1])]
    if len(names) != arr.shape[1]:
        raise DataError(f"Got {len(names)} feature names for {arr.shape[1]} columns.")
    # the frame's own check of repeated names, in its words (they reached pandas' own
    # AttributeError from a frame where a name picks two columns: a notebook review)
    return text_names(pd.DataFrame(arr, columns=names))


def check_sample_weight(sample_weight: Any, n: int) -> np.ndarray:
    """Sample weights as floats, shape (n,), checked: finite, non-negative, not all zero."""
    d = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if d.shape != (n,) or np.any(d < 0) or not np.all(np.isfinite(d)):
        raise ParameterError("sample_weight must be finite, non-negative, one per row.")
    if d.sum() <= 0:
        raise ParameterError("The sample weights are all zero: nothing to learn from.")
    return d


def class_sample_weights(y01: np.ndarray, class_weight: Any, classes: np.ndarray,
                         sample_weight: np.ndarray | None) -> np.ndarray:
    """Per-sample weights ``d_i`` = sample weight × class weight.

    ``"balanced"``: a row of class c weighs ``n / (2 n_c)``, so both classes weigh the same in
    total.  ``"sqrt"``: a majority row weighs 1 and a minority row ``√(n_majority /
    n_minority)``, halfway (on a log scale) between counting rows and counting classes
    equally (``docs/data.md``, ``bench/results/rare_positives.md``).  A dict gives each label
    its weight.  Class sizes ``n_c`` are weighted by ``sample_weight``, so integer weights act
    exactly like repeated rows.
    """
    d = check_sample_weight(sample_weight, len(y01))
    if class_weight is None:
        return d
    counts = np.bincount(y01, weights=d, minlength=2).astype(float)
    if isinstance(class_weight, str) and class_weight == "balanced":
        per = d.sum() / (2.0 * np.maximum(counts, 1.0))
    elif isinstance(class_weight, str) and class_weight == "sqrt":
        counts = np.maximum(counts, 1.0)
        per = np.sqrt(counts.max() / counts)
    elif isinstance(class_weight, dict):
        per = dict_class_weights(class_weight, classes)
    else:
        raise ParameterError("class_weight must be None, 'auto', 'balanced', 'sqrt' or a dict "
                             "{label: weight}.")
    return d * per[y01]


def dict_class_weights(class_weight: dict, classes: Any) -> np.ndarray:
    """The weight of each of ``classes`` from a dict ``{label: weight}`` (1 for a label it
    leaves out), shape (K,).  A key that is none of the labels raises: ``{0: 1, 1: 20}`` on
    labels "no" / "yes" was ignored without a word and the rule fitted unweighted (a
    notebook review); scikit-learn refuses it too."""
    labels = [c.item() if isinstance(c, np.generic) else c for c in classes]
    unknown = [k for k in class_weight if k not in labels]
    if unknown:
        raise ParameterError(
            f"class_weight names {', '.join(map(repr, unknown))}, which "
            f"{'is not a label' if len(unknown) == 1 else 'are not labels'} of y; its "
            f"labels are {', '.join(map(repr, labels))}.")
    per = np.array([float(class_weight.get(c, 1.0)) for c in labels])
    if np.any(per < 0) or not np.all(np.isfinite(per)):
        raise ParameterError("class_weight values must be finite and non-negative.")
    return per


def error_costs(est: Any) -> tuple[float, float]:
    """``(fp_cost, fn_cost)`` of an estimator (1, 1 for those without them), checked."""
    costs = (getattr(est, "fp_cost", 1.0), getattr(est, "fn_cost", 1.0))
    for name, c in zip(("fp_cost", "fn_cost"), costs):
        if isinstance(c, bool) or not isinstance(c, (int, float, np.number)) or \
                not np.isfinite(c) or not c > 0:
            raise ParameterError(f"{name} must be a positive number, not {c!r}.")
    return float(costs[0]), float(costs[1])


def checked_labels(y: Any, estimator: str) -> tuple[np.ndarray, str, np.ndarray]:
    """A target checked for any rule estimator: ``(labels, target name, sorted classes)``.

    Raises :class:`DataError` for no target, missing values, or a single class.
    """
    if y is None:
        raise DataError(f"{estimator} requires y to be passed, but the target y is None.")
    name = str(y.name) if isinstance(y, pd.Series) and y.name is not None else "target"
    try:
        y = column_or_1d(np.asarray(y), warn=True)
    except ValueError as exc:  # a table of targets: scikit-learn's raw ValueError (a review)
        raise DataError(f"y must be one column of labels: {exc}") from None
    if pd.isna(y).any():
        raise DataError("The target has missing values; drop those rows first.")
    try:
        check_classification_targets(y)
    except ValueError as exc:  # scikit-learn's own ValueError, outside rulecore's family
        from sklearn.utils.multiclass import type_of_target

        kind = type_of_target(y)
        what = ("holds numbers of a continuous range" if kind.startswith("continuous") else
                "holds values that cannot be read as classes")
        raise DataError(f"Unknown label type: {kind}. {estimator} separates classes, and "
                        f"the target {what} ({show(y[0])!r}, ...): bin it into classes first "
                        "(for example pd.cut), or choose a column of classes as the "
                        "target.") from exc
    classes = np.unique(y)
    if len(classes) == 0:
        raise DataError(f"{estimator} got no rows to learn from.")
    if len(classes) < 2:
        raise DataError(f"The target has only one class ({show(classes[0])!r}); a "
                        "classifier needs two.")
    return y, name, classes


def missing_tests_for(est: Any) -> str:
    """The Binarizer's ``missing_tests`` for an estimator: ``"each"`` when it forbids or
    requires columns (the earlier of two columns missing alike may be the forbidden one),
    else ``"once"``."""
    return "each" if getattr(est, "require", None) or getattr(est, "forbid", None) else "once"


def fit_terms_of(est: Any, frame: pd.DataFrame, sample_weight: Any, sw: np.ndarray,
                 n_thresholds: int | None = None) -> tuple[Binarizer, np.ndarray]:
    """The estimator's terms fitted on ``frame`` (weighted quantiles when weights are given)
    and the term matrix, after checking it fits in memory.  ``n_thresholds``: instead of the
    estimator's own."""
    n_thr = est.n_thresholds if n_thresholds is None else n_thresholds
    binarizer = Binarizer(n_thresholds=n_thr, thresholds=est.thresholds,
                          negations=est.negations, kinds=est.kinds,
                          missing_tests=missing_tests_for(est)
                          ).fit(frame, sample_weight=None if sample_weight is None else sw)
    # The solve holds the term matrix, its complement and a merged copy: about three
    # bytes per row and term.  Refuse before allocating rather than run out of memory.
    n_terms = len(binarizer.terms_)
    check_memory(dense_bytes(len(frame), n_terms, itemsize=1, copies=3),
                 f"The term matrix of {len(frame):,} rows × {n_terms:,} terms",
                 "Use fewer thresholds per numeric column, leave out columns, or sample rows.")
    return binarizer, binarizer.transform(frame)


def terms_for_fit(est: Any, frame: pd.DataFrame, n_labels: int, sample_weight: Any,
                  n_thresholds: int | None = None) -> tuple[np.ndarray, Binarizer, np.ndarray]:
    """What every rule estimator's ``fit`` does between the target and ``fit_terms``: check
    that ``X`` and ``y`` have as many rows, check the weights, build the terms.  Returns
    ``(sample weights, binarizer, term matrix)``."""
    if len(frame) != n_labels:
        raise DataError(f"X has {len(frame)} rows but y has {n_labels}.")
    sw = check_sample_weight(sample_weight, n_labels)
    progress.say(f"Building candidate terms on {n_labels:,} rows")
    binarizer, B = fit_terms_of(est, frame, sample_weight, sw, n_thresholds)
    progress.say(f"{B.shape[1]:,} candidate terms on {n_labels:,} rows")
    return sw, binarizer, B


def set_feature_names(est: Any, X: Any, frame: pd.DataFrame) -> None:
    """``feature_names_in_`` as scikit-learn sets it: only for a DataFrame input."""
    if isinstance(X, pd.DataFrame):
        est.feature_names_in_ = np.asarray(frame.columns, dtype=object)
    elif hasattr(est, "feature_names_in_"):
        del est.feature_names_in_


def predict_frame(est: Any, X: Any) -> pd.DataFrame:
    """``X`` as the frame a fitted rule estimator predicts on: its columns checked against
    the training ones, an array's columns named by them."""
    names = est.binarizer_.feature_names_in_
    frame = as_frame(X, fitted_names=names)
    # scikit-learn's warnings when names are there on one side only: an array after a
    # DataFrame is matched by position, which reordered columns silently got wrong (a
    # notebook review); a DataFrame after an array is matched by position too, not refused
    named_fit = hasattr(est, "feature_names_in_")
    if not isinstance(X, pd.DataFrame) and named_fit:
        warnings.warn(f"X does not have valid feature names, but {type(est).__name__} was "
                      "fitted with feature names", UserWarning, stacklevel=3)
    elif isinstance(X, pd.DataFrame) and not named_fit and set(frame.columns) != set(names):
        # (the names given to fit(feature_names=) in another order are matched by name
        # below: by position, "income > 0.26" read the ages, a notebook review)
        warnings.warn(f"X has feature names, but {type(est).__name__} was fitted without "
                      "feature names", UserWarning, stacklevel=3)
        if frame.shape[1] == len(names):
            frame = frame.set_axis(list(names), axis=1)
    if isinstance(X, pd.DataFrame):
        # name the columns, not only count them (a notebook review)
        fitted = set(names)
        missing = [str(c) for c in names if c not in frame.columns]
        extra = [str(c) for c in frame.columns if c not in fitted]
        if missing or extra:
            said = ([f"lacks {', '.join(map(repr, missing))}"] if missing else []) + (
                [f"has {', '.join(map(repr, extra))}, which the fit did not see"]
                if extra else [])
            raise DataError(f"X {' and '.join(said)}: {type(est).__name__} was fitted on the "
                            f"columns {', '.join(map(repr, names))}.")
    if frame.shape[1] != est.n_features_in_:
        raise DataError(f"X has {frame.shape[1]} features, but {type(est).__name__} is "
                        f"expecting {est.n_features_in_} features as input.")
    if not isinstance(X, pd.DataFrame):
        frame.columns = list(names)
    # the columns a fitted rule reads: a column it never uses may come as it likes
    rule = getattr(est, "rule_", None) or getattr(est, "rules_", None)
    est.binarizer_.check_like_fit(frame, getattr(rule, "features", None))
    return frame


def _cv_rows(yi: np.ndarray, max_rows: int | None, seed: Any) -> np.ndarray:
    """Sorted row indices the inner cross-validation uses: all rows, or a stratified random
    sample of ``max_rows`` (every class keeps its share, and at least 2 rows where it has
    them, so that the folds can be stratified)."""
    n = len(yi)
    if max_rows is None or n <= int(max_rows):
        return np.arange(n)
    from sklearn.model_selection import train_test_split

    sample, _ = train_test_split(np.arange(n), train_size=int(max_rows), stratify=yi,
                                 random_state=seed if seed is not None else 0)
    return np.sort(sample)


class _RuleModel(ClassifierMixin, BaseEstimator):
    """What every rule estimator shares: targets, terms, predict.  Subclasses define
    ``_MODEL`` (the model's name in :mod:`rulecore.settings`) and :meth:`fit_terms`."""

    _MODEL = "single rule"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags

    def _targets(self, y: Any) -> tuple[np.ndarray, str, np.ndarray]:
        """0/1 labels, the target's name and the two classes, checked."""
        y, name, classes = checked_labels(y, type(self).__name__)
        if len(classes) > 2:
            raise DataError(f"Only binary classification is supported: a rule separates two "
                            f"classes, but the target has {len(classes)}. Pick a positive class "
                            "and pass y == positive (one-vs-rest).")
        return (y == classes[1]).astype(np.int64), name, classes

    @property
    def class_weight_used_(self) -> Any:
        """The class weight the fit used (``"auto"`` resolved for this model)."""
        return resolve_class_weight(self.class_weight, self._MODEL, getattr(self, "lam", None))

    def _row_weights(self, y01: np.ndarray, classes: Any, sample_weight: Any) -> np.ndarray:
        """The weight ``d_i`` of each row's errors in the objective: sample weight × class
        weight × the cost of that kind of error (``fp_cost`` for a negative row, whose error
        is a false positive; ``fn_cost`` for a positive one), ``docs/clause.md``."""
        classes = np.array([0, 1]) if classes is None else np.asarray(classes)
        d = class_sample_weights(y01, self.class_weight_used_, classes, sample_weight)
        fp, fn = error_costs(self)
        return d if fp == fn == 1.0 else d * np.where(np.asarray(y01) == 1, fn, fp)

    def fit(self, X: Any, y: Any, sample_weight: Any = None, feature_names: Any = None):
        """Learn the rule.

        Parameters
        ----------
        X : DataFrame or array of shape (n_samples, n_features)
            Numeric and categorical columns; missing values fail every term on their column.
        y : array of shape (n_samples,)
            Two classes; the larger label (``classes_[1]``) is the positive one.
        sample_weight : array of shape (n_samples,), optional
            Integer weights act exactly like repeated rows (terms included).
        feature_names : list of str, optional
            Column names when ``X`` is an array.
        """
        frame = as_frame(X, feature_names)
        y01, target, classes = self._targets(y)
        sw, binarizer, B = terms_for_fit(self, frame, len(y01), sample_weight)
        self.fit_terms(B, y01, binarizer, sample_weight=sw, target=target, classes=classes)
        set_feature_names(self, X, frame)
        return self

    def _start_fit(self, B: np.ndarray, y01: np.ndarray, terms: Binarizer,
                   sample_weight: Any, classes: Any) -> np.ndarray:
        """Set the input attributes for a fit on ready terms; return the row weights d."""
        lam = getattr(self, "lam", 1.0)
        check_lam(lam, auto=True)
        # "xor" was said as "must be 'and' or 'or'" (leaving out 'auto'), and a seed "seed"
        # was taken without a word (a notebook review)
        rule_type = getattr(self, "rule_type", "and")
        if rule_type is not None and rule_type not in RULE_TYPE_CHOICES:
            raise ParameterError(f"rule_type must be one of {', '.join(RULE_TYPE_CHOICES)} "
                                 f"or None, not {rule_type!r}.")
        check_seed(getattr(self, "random_state", None))
        self.classes_ = np.array([0, 1]) if classes is None else np.asarray(classes)
        self.binarizer_ = terms
        self.n_features_in_ = int(terms.n_features_in_)
        self.n_terms_ = B.shape[1]
        return self._row_weights(np.asarray(y01).astype(np.int64), self.classes_, sample_weight)

    def problem(self, B: np.ndarray, y: np.ndarray, terms: Binarizer, *,
                sample_weight: Any = None, classes: Any = None) -> ClauseProblem:
        """The clause problem this estimator's first clause solves on ready terms ``B``
        (its λ, rule type and class weights), for screening it on its own (the Screening page,
        ``rulecore screen``).  Sets nothing on the estimator."""
        y01 = np.asarray(y).astype(np.int64)
        d = self._row_weights(y01, classes, sample_weight)
        return problem_of(B, y01, lam=self._lam_now(), rule_type=self._rule_type_now(),
                          sample_weight=d, terms=terms)

    def _rule_type_given(self) -> str:
        """``rule_type`` as given, its default resolved.  Rule sets are made of AND-clauses."""
        return getattr(self, "rule_type", "and")

    def _inner_params(self) -> dict:
        """Parameters the inner cross-validation's clones take besides λ and the rule type,
        so that a clone with a number λ fits what this estimator fits with ``lam="auto"``."""
        return {}

    def _rule_type_now(self) -> str:
        """The rule type as solved: the fitted ``rule_type_``, else ``rule_type`` (``"auto"``
        before a fit: AND)."""
        given = self._rule_type_given()
        return getattr(self, "rule_type_", "and" if given == "auto" else given)

    def _lam_now(self) -> float:
        """λ as a number: the fitted ``lam_``, else ``lam`` (``"auto"`` before a fit: the
        model's default)."""
        if self.lam != "auto":
            return float(self.lam)
        return float(getattr(self, "lam_", default_lam(self._MODEL)))

    def _choose_lam(self, B: np.ndarray, y01: np.ndarray, terms: Binarizer,
                    sample_weight: Any, classes: Any) -> float:
        """λ for this fit (:meth:`_choose`); sets ``cv_results_``."""
        return self._choose(B, y01, terms, sample_weight, classes)[0]

    def _choose(self, B: np.ndarray, y01: np.ndarray, terms: Binarizer,
                sample_weight: Any, classes: Any) -> tuple[float, str]:
        """λ and rule type for this fit: ``lam`` itself, or for ``lam="auto"`` the grid point
        with the lowest inner-CV error (3 stratified folds on these terms; errors weighted as
        the fit weighs them; ties: fewer conditions).  The grid is
        :func:`rulecore.settings.lam_grid` (one condition worth a share κ of the
        training weight, further down for a rare class); boosting's weights sum to 1, so
        its λ is 1/κ.  With
        ``rule_type="auto"`` (the single rule) the same folds also compare an AND-rule with an
        OR-rule (an AND-rule for the other class over negated terms), at each λ; ties go to
        AND.  Sets ``cv_results_`` (``docs/rulesets.md``)."""
        self.cv_results_ = None
        given = self._rule_type_given()
        types = ["and", "or"] if given == "auto" else [given]
        if self.lam != "auto" and len(types) == 1:
            return float(self.lam), types[0]
        classes = np.array([0, 1]) if classes is None else np.asarray(classes)
        d = self._row_weights(y01, classes, sample_weight)
        # boosting's weights sum to 1, so its λ is 1/κ
        total = 1.0 if self._MODEL == "boosting" else float(d.sum())
        smallest = min(float(d[y01 == c].sum()) for c in (0, 1)) * total / float(d.sum())
        lams = (lam_grid(total, smallest_class=smallest)
                if self.lam == "auto" else np.array([float(self.lam)]))
        sw = np.ones(len(y01)) if sample_weight is None else np.asarray(sample_weight, float)
        n_splits = int(min(3, np.bincount(y01, minlength=2).min()))
        if n_splits < 2:
            return float(lams[len(lams) // 2]), types[0]
        seed = self.random_state if isinstance(self.random_state, (int, np.integer)) else 0
        # on a large table the folds come from a stratified sample, as the rule set's do
        # (docs/rulesets.md): ranking a few λ needs far fewer rows than a million
        sample = _cv_rows(y01, INNER_CV_MAX_ROWS, seed)
        if len(sample) < len(y01):
            progress.say(f"Cross-validation on a stratified sample of {len(sample):,} of the "
                         f"{len(y01):,} rows")
        folds = [(sample[tr], sample[va]) for tr, va in StratifiedKFold(
            n_splits, shuffle=True, random_state=seed).split(sample, y01[sample])]
        rows = []
        grid = [(t, lam) for t in types for lam in lams]
        inner = self._inner_params()
        # λ = 1 / (κ W): on a sample the folds have less weight W to err on, so their fits
        # get λ × W / W_sample, and the sampled cross-validation measures what it would on
        # every row; with the full table's λ the folds of a 50,000-row sample of 150,000 rows
        # fitted as if κ were 3 times larger, and a rare class's rule never paid for itself
        # (a newcomer's review).  Boosting's weights sum to 1 in every fit.
        scale = 1.0 if self._MODEL == "boosting" else float(d.sum()) / float(d[sample].sum())
        for i, (rule_type, lam) in enumerate(grid):
            progress.say(f"Choosing {'λ' if len(types) == 1 else 'λ and the rule type'} by "
                         f"{len(folds)}-fold cross-validation: "
                         f"{'λ ' if len(types) == 1 else ''}{i + 1} of {len(grid)}")
            errs, conds, cut = [], [], 0
            for tr, va in folds:
                m = clone(self).set_params(lam=float(lam) * scale, **inner)
                m._inner_fit = True  # exact 0/1 error: beam search only, no proof
                if hasattr(self, "rule_type"):
                    m.set_params(rule_type=rule_type)
                with progress.listening(None):  # the inner fits' stages would only be noise
                    m.fit_terms(B[tr], y01[tr], terms, sample_weight=sw[tr], classes=classes)
                wrong = m._fires_on_terms(B[va]) != (y01[va] == 1)
                errs.append(float(d[va] @ wrong / d[va].sum()))
                conds.append(m.rule_.n_conditions if hasattr(m.rule_, "n_conditions")
                             else len(m.rule_))
                # a solve stopped by its time limit returns what it had found by then: on a
                # slower or busier machine, maybe another rule (report.cv_timing_words)
                cut += m.lp_status_ == "time_limit"
            row = {"lam": float(lam), "error": round(float(np.mean(errs)), 12),
                   "error_std": float(np.std(errs, ddof=1)),
                   "conditions": float(np.mean(conds)), "timed_out": int(cut)}
            if len(types) > 1:
                row["rule_type"] = rule_type
            rows.append(row)
        cvr = pd.DataFrame(rows)
        order = ["error", "conditions", "lam"] + (["rule_type"] if len(types) > 1 else [])
        best = cvr.sort_values(order).index[0]  # "and" < "or": ties go to the paper's AND
        cvr["chosen"] = cvr.index == best
        self.cv_results_ = cvr
        chosen_type = str(cvr.loc[best, "rule_type"]) if len(types) > 1 else types[0]
        return float(cvr.loc[best, "lam"]), chosen_type

    def _clause(self, B: np.ndarray, y01: np.ndarray, d: np.ndarray, rule_type: str = "and",
                cutoff: float | None = None) -> ClauseResult:
        return learn_clause(B, y01, lam=self.lam_, rule_type=rule_type, sample_weight=d,
                            screening=self.screening, solver=self.solver,
                            time_limit=self.time_limit, terms=self.binarizer_,
                            random_state=self.random_state, cutoff=cutoff)

    def _set_proba(self, fired: np.ndarray, y01: np.ndarray, sample_weight: Any) -> None:
        """predict_proba's two values: the share of positives among training rows the rule
        labels 1 / labels 0 (rows weighted by ``sample_weight`` only: the class weights and
        error costs that chose the rule are not frequencies; with them a rare class's share
        read 0.77 where 52 % of the rows were positive, a notebook review), Laplace-smoothed
        so an empty side gives the prior, not 0/0."""
        d = check_sample_weight(sample_weight, len(y01))
        # over the rows that take part (weight > 0): a row of weight 0 the fit ignored made
        # a rule that fires on no other row look as if it fired (a review)
        counted = np.asarray(fired)[d > 0]
        self.train_fired_ = float(np.mean(counted)) if len(counted) else 0.0
        prior = float(d @ y01 / max(d.sum(), 1e-12))
        self.proba_fired_ = (d[fired] @ y01[fired] + prior) / (d[fired].sum() + 1.0)
        self.proba_not_fired_ = (d[~fired] @ y01[~fired] + prior) / (d[~fired].sum() + 1.0)

    # ------------------------------------------------------------------ prediction

    def _frame_for_predict(self, X: Any) -> pd.DataFrame:
        check_is_fitted(self, "rule_")
        return predict_frame(self, X)

    def fires(self, X: Any) -> np.ndarray:
        """Where the rule (or rule set) says "yes": bool, shape (n_samples,)."""
        frame = self._frame_for_predict(X)
        return self.rule_.predict(frame).astype(bool)

    def decision_function(self, X: Any) -> np.ndarray:
        """1.0 where the rule fires, else 0.0; shape (n_samples,)."""
        return self.fires(X).astype(float)

    def predict(self, X: Any) -> np.ndarray:
        """Class labels, shape (n_samples,): ``classes_[1]`` where the rule fires."""
        fired = self.fires(X)
        return self.classes_[fired.astype(np.int64)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Shape (n_samples, 2): the training share of positives on the rule's side of a row.

        These are frequencies (weighted by ``sample_weight`` only), not the class-weighted
        shares that chose the rule.  With class weights (the default ``"auto"`` on an
        imbalanced table) the rule may call a side positive where positives are under half
        of its rows, so ``predict`` is **not** ``argmax(predict_proba)``: ``predict`` is the
        rule's decision, ``predict_proba`` how often each side is right.  Thresholding these
        at 0.5 is not the rule (a notebook review: 262 of 748 transfusion rows differed).
        """
        fired = self.fires(X)
        p1 = np.where(fired, self.proba_fired_, self.proba_not_fired_)
        return np.column_stack([1.0 - p1, p1])


_COMMON_PARAMS = """    n_thresholds : int, default=10
        Quantile thresholds per numeric column (:class:`~rulecore.rules.terms.Binarizer`).
    thresholds : {"quantile", "all"}, default="quantile"
    negations : bool, default=True
        Offer ``>``/``!=`` terms beside ``<=``/``==``.
    solver : {"mip", "lp", "lp-randomized"}, default="mip"
        Exact 0/1 optimum by HiGHS, or the LP with the paper's rounding, or randomized rounding.
    time_limit : float, default=30.0
        Seconds per HiGHS run (``inf``: no limit).  A MIP stopped by it keeps its incumbent;
        ``mip_gap_`` says how far from optimal it may be.  Not a bound on the whole fit:
        building the terms, screening and, with ``lam="auto"``, every inner fit come on top
        (3,000 rows × 10 columns at every midpoint took 24–40 s with ``time_limit=2``: a
        notebook review).
    class_weight : "auto", None, "balanced", "sqrt" or dict, default="auto"
        Weight of each class's errors (:func:`class_sample_weights`); ``{0: 1, 1: 5}`` on
        labels 0 / 1 makes a miss cost five false alarms (keys are labels of ``y``; another
        key raises :class:`ParameterError`).  ``"auto"`` is the model's measured default
        (:data:`rulecore.settings.AUTO_CLASS_WEIGHT`; the single rule with ``lam="auto"``:
        none); ``None`` counts every row alike.
    random_state : int, optional
        Seed for ``"lp-randomized"``.
    screening : {"none", "basic", "enhanced"}, default="enhanced"
        Certified screening (:mod:`rulecore.rules.screening`) removes terms that provably take
        no part in an optimal rule before the solve; it never changes the optimum.
    kinds : dict, optional
        Column kinds for the binarizer."""

# what every rule model sets, said once (a notebook review: the set covering and boosting
# docstrings left out lam="auto" and what they inherit)
_COMMON_ATTRIBUTES = """    rule_ : Rule or RuleSet
        What the model predicts with, in the fit's words.
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the positive class.
    lam_ : float
        The λ fitted with (``lam``, or the one ``lam="auto"`` chose).
    cv_results_ : DataFrame or None
        With ``lam="auto"``: the inner cross-validation's curve (``lam``, ``error``,
        ``error_std``, ``conditions``, ``chosen``, ``timed_out``); else None.
    binarizer_ : Binarizer
        The fitted terms.
    lp_status_ : str
        Solver status of the last solve (``optimal``, ``time_limit``, ...).
    mip_gap_ : float
        Relative gap of the last MIP (0 when proved optimal)."""

_LAM_AUTO = """``"auto"``: chosen by 3-fold inner cross-validation for the lowest
        held-out error (``lam_``, ``cv_results_``)."""


class BooleanRuleClassifier(_RuleModel):
    __doc__ = f"""One interpretable AND- (or OR-) rule learned by Boolean compressed sensing.

    Parameters
    ----------
    lam : float or "auto", default=1.0
        λ: the weight of training errors against the number of conditions (paper eq. 10).
        Larger λ fits the training data more closely with more conditions.  ``"auto"``:
        chosen by 3-fold inner cross-validation (``cv_results_``) for the lowest held-out
        error; the rule is then tuned for accuracy as a whole, like
        :class:`~rulecore.RuleSetClassifier`: unless given, ``rule_type="auto"``,
        ``error="exact"`` and ``class_weight="auto"`` meaning none
        (:data:`rulecore.settings.TUNED_SINGLE_RULE`; mean error 0.211 against 0.262 with
        the fixed-λ defaults on the 8 binary sets of ``bench/results/single_rule_error.md``).
    rule_type : {{"and", "or", "auto"}} or None, default=None
        An AND-rule ("all of these conditions") or an OR-rule ("any of them").  An OR-rule is
        an AND-rule for the other class over the negated terms, so ``"auto"`` chooses which
        class the rule describes: the type with the lower inner-CV error (3 folds, at each λ
        of the grid when ``lam="auto"``; ``rule_type_``, ``cv_results_``).  None: ``"and"``
        with a number λ, ``"auto"`` with ``lam="auto"``.
{_COMMON_PARAMS}
    require : str or list of str, optional
        Input columns the rule must use (at least one condition on each).
    forbid : str or list of str, optional
        Input columns the rule must not use.
    max_conditions : int, optional
        At most this many conditions.  ``require``, ``forbid`` and ``max_conditions`` are
        constraints of the MIP, so the rule is the certified optimum *under them*
        (``docs/clause.md``, "Constraints").
    fp_cost, fn_cost : float, default=1.0
        What a false positive and a false negative cost in the objective, on top of the class
        weights: ``conditions + λ (fp_cost · false positives + fn_cost · the conditions each
        positive row fails)`` (for an OR-rule, the roles of the two error terms swap).
    error : {{"hamming", "exact"}} or None, default=None
        How a wrong row is counted.  ``"hamming"``: the BCS paper's surrogate, a missed
        positive once per condition it fails (a MIP with a strong LP relaxation, screened and
        usually proved optimal).  ``"exact"``: once, as accuracy counts it; found by beam
        search, then the exact MIP tries to prove it within ``time_limit`` (``lp_status_``
        ``"optimal"`` when it did; the inner cross-validation's fits skip the proof).  It
        does not take ``require`` or the LP solvers.  None: ``"hamming"`` with a number λ;
        with ``lam="auto"``, ``"exact"`` unless ``require`` or an LP solver is given or the
        beam search's copy of the rows would not fit the memory budget
        (``error_`` says which was used).  Measured in
        ``bench/results/single_rule_error.md``.

    Attributes
    ----------
    rule_ : Rule
        The learned rule; ``str(rule_)`` reads "a AND b AND c".
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the positive class (the rule's "yes").
    rule_type_ : {{"and", "or"}}
        The rule type solved (``rule_type``, or the one ``"auto"`` chose).
    lam_ : float
        The λ fitted with (``lam``, or the one ``lam="auto"`` chose).
    error_ : {{"hamming", "exact"}}
        How wrong rows were counted (``error``, its default resolved).
    cv_results_ : DataFrame or None
        The inner cross-validation of ``lam="auto"`` / ``rule_type="auto"``: ``lam``,
        ``rule_type`` (when chosen), ``error``, ``error_std``, ``conditions``, ``chosen``,
        and ``timed_out``: the point's inner fits whose solve stopped at its time limit
        (their rule may differ on a slower or busier machine).
    binarizer_ : Binarizer
        The fitted terms.
    n_terms_ : int
        Candidate terms (columns of the term matrix).
    w_ : bool ndarray of shape (n_terms_,)
        The chosen terms.
    objective_ : float
        Objective of the returned rule: #conditions + λ × errors (``docs/clause.md``).  The
        rule is consistent: no two of its conditions on one column contradict each other or
        are redundant.  Conditions on two columns can still never hold together on the
        data (``train_fired_`` is then 0), where predicting nothing is optimal.
    train_fired_ : float
        Share of the training rows (of positive weight) on which the rule says the positive
        class: 0, it fires on none and predicts the other class everywhere; 1, it fires on
        every row (an OR-rule of conditions that together hold everywhere).
    lower_bound_ : float
        A proven lower bound on the 0/1 optimum over consistent rules.
    mip_gap_ : float
        Relative gap between ``objective_`` and ``lower_bound_`` (0 when proven optimal).
    lp_status_ : str
        Solver status (``optimal``, ``time_limit``, ...).
    lp_value_ : float
        The LP relaxation's value (``nan`` for the MIP solver).
    solve_seconds_ : float
        Time of the HiGHS run (or of the small-clause search that replaced it).
    solve_method_ : str
        ``"mip"``, ``"lp"``, ``"lp-randomized"``, or ``"enumeration"`` when the optimum was
        proved by trying every clause that could beat it.
    screening_report_ : ScreeningReport or None
        What screening removed and why.
    clause_ : ClauseResult
        Everything :func:`~rulecore.rules.clause.learn_clause` returned.
    constraints_ : Constraints
        ``require``, ``forbid`` and ``max_conditions`` as checked and applied.
    """

    def __init__(self, lam: float | str = DEFAULT_LAM, rule_type: str | None = None,
                 n_thresholds: int = DEFAULT_N_THRESHOLDS, thresholds: str = "quantile",
                 negations: bool = True, solver: str = "mip",
                 time_limit: float = DEFAULT_TIME_LIMIT, class_weight: Any = "auto",
                 random_state: int | None = None, screening: str = DEFAULT_SCREENING,
                 kinds: dict | None = None, require: Any = None, forbid: Any = None,
                 max_conditions: int | None = None, fp_cost: float = 1.0,
                 fn_cost: float = 1.0, error: str | None = None) -> None:
        self.lam = lam
        self.rule_type = rule_type
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.negations = negations
        self.solver = solver
        self.time_limit = time_limit
        self.class_weight = class_weight
        self.random_state = random_state
        self.screening = screening
        self.kinds = kinds
        self.require = require
        self.forbid = forbid
        self.max_conditions = max_conditions
        self.fp_cost = fp_cost
        self.fn_cost = fn_cost
        self.error = error

    def _rule_type_given(self) -> str:
        if self.rule_type is None:
            return single_rule_defaults(self.lam)["rule_type"]
        return self.rule_type

    def _error_for(self, shape: tuple[int, int]) -> str:
        """``error``, or its default for this λ on a term matrix of ``shape``: the exact count
        only where it can run (no ``require``, the MIP solver, the beam's float32 and bool
        copies of the rows within the memory budget, ``solve_clause_exact``)."""
        if self.error is not None:
            return self.error
        wanted = single_rule_defaults(self.lam)["error"]
        if wanted == "exact" and per_row_blockers(self.require, self.solver, shape):
            return "hamming"
        return wanted

    def _inner_params(self) -> dict:
        return {"error": self.error_, "class_weight": self.class_weight_used_}

    def fit_terms(self, B: np.ndarray, y: np.ndarray, terms: Binarizer, *,
                  sample_weight: Any = None, target: str = "target",
                  classes: Any = None, mip_start: np.ndarray | None = None
                  ) -> BooleanRuleClassifier:
        """Fit on a term matrix already built by the fitted binarizer ``terms``.

        Parameters
        ----------
        B : bool ndarray of shape (n_samples, n_terms)
            ``terms.transform(X)``.
        y : int ndarray of shape (n_samples,)
            0/1 labels (1: ``classes[1]``).
        terms : Binarizer
            The fitted binarizer that made ``B``.
        sample_weight : ndarray of shape (n_samples,), optional
        target : str
            The target's name, for the rule's text.
        classes : array of shape (2,), optional
            The labels 0 and 1 stand for (default ``[0, 1]``).
        mip_start : bool ndarray of shape (n_terms,), optional
            A rule to start the MIP from.
        """
        t0 = time.perf_counter()
        y01 = np.asarray(y).astype(np.int64)
        self.constraints_ = Constraints.of(self.require, self.forbid, self.max_conditions)
        d = self._start_fit(B, y01, terms, sample_weight, classes)
        self.error_ = self._error_for(np.shape(B))
        self.lam_, self.rule_type_ = self._choose(B, y01, terms, sample_weight, classes)
        res = learn_clause(B, y01, lam=self.lam_, rule_type=self.rule_type_, sample_weight=d,
                           screening=self.screening, solver=self.solver,
                           time_limit=self.time_limit, terms=terms, mip_start=mip_start,
                           random_state=self.random_state, constraints=self.constraints_,
                           error=self.error_, prove=not getattr(self, "_inner_fit", False))
        self.clause_ = res
        self.rule_ = res.rule(terms.terms_, target, self.classes_[1])
        self.w_ = res.w
        self.objective_ = res.objective
        self.lower_bound_ = res.bound
        self.mip_gap_ = res.gap
        self.lp_status_ = res.status
        self.lp_value_ = res.lp_value
        self.solve_seconds_ = res.solve_seconds
        self.solve_method_ = res.method
        self.screening_report_ = res.screening
        self.fit_seconds_ = time.perf_counter() - t0
        self._set_proba(res.fires(B), y01, sample_weight)
        return self

    def _fires_on_terms(self, B: np.ndarray) -> np.ndarray:
        """Where the fitted rule says "yes" on term matrix ``B``."""
        return self.clause_.fires(B)

    # ------------------------------------------------------------------ exploring the optimum

    def _training_problem(self, X: Any, y: Any, sample_weight: Any) -> ClauseProblem:
        """The clause problem of the fit, rebuilt on (the training rows) ``X``, ``y``."""
        check_is_fitted(self, "rule_")
        frame = predict_frame(self, X)
        y01 = self._labels01(y)
        d = self._row_weights(y01, self.classes_, check_sample_weight(sample_weight, len(y01)))
        return problem_of(self.binarizer_.transform(frame), y01, lam=self.lam_,
                          rule_type=self.rule_type_, sample_weight=d, terms=self.binarizer_)

    def _labels01(self, y: Any) -> np.ndarray:
        """``y`` in this fit's 0/1 coding (1: ``classes_[1]``), checked."""
        y = column_or_1d(np.asarray(y))
        unknown = ~np.isin(y, self.classes_)
        if unknown.any():
            raise DataError(f"y holds labels the rule was not fitted on: "
                            f"{show(y[unknown][0])!r}.")
        return (y == self.classes_[1]).astype(np.int64)

    def rule_objective(self, rule: Rule, X: Any, y: Any, sample_weight: Any = None) -> float:
        """The fit's objective of any rule (an edited one, say) on rows ``X``, ``y``, counted
        directly, without refitting: ``#conditions + λ (Σ_{negatives it fires on} d_i +
        Σ_{positives} d_i · #conditions they fail)`` for an AND-rule (under
        ``error="exact"``: ``#conditions + λ Σ_{wrong rows} d_i``), with the fit's λ and
        row weights ``d`` (class weights and error costs).  On the training rows, the fitted
        ``rule_`` gives ``objective_``."""
        check_is_fitted(self, "rule_")
        frame = predict_frame(self, X)
        y01 = self._labels01(y)
        d = self._row_weights(y01, self.classes_, check_sample_weight(sample_weight, len(y01)))
        checks = rule.evaluate(frame).to_numpy()
        meets = checks.sum(axis=1)
        m = checks.shape[1]
        pos = y01 == 1
        if self.error_ == "exact":  # each wrong row once
            fired = meets == m if rule.rule_type == "and" else meets > 0
            return float(m + self.lam_ * (d[~pos] @ fired[~pos] + d[pos] @ ~fired[pos]))
        if rule.rule_type == "and":     # false positives + conditions each positive fails
            errors = d[~pos] @ (meets[~pos] == m) + d[pos] @ (m - meets[pos])
        else:                           # positives it misses + conditions each negative meets
            errors = d[pos] @ (meets[pos] == 0) + d[~pos] @ meets[~pos]
        return float(m + self.lam_ * errors)

    def alternatives(self, X: Any, y: Any, k: int = 5, sample_weight: Any = None,
                     time_limit: float | None = None) -> list[Alternative]:
        """The near-optimal set: the fitted rule, then the cheapest rules whose predictions on
        ``X`` (the training rows) differ from those of every rule before them
        (:mod:`rulecore.rules.alternatives`), under the fit's λ, weights and constraints.
        When the later solves prove the fitted rule's predictions best, and a cheaper rule
        makes them (the fitted one has a condition that changes none of them), that rule
        is listed first instead.

        Returns
        -------
        list of Alternative
            ``k`` entries at most; each has ``rule`` (a :class:`Rule` in the fit's words),
            ``objective``, ``bound`` and ``certified``.
        """
        check_is_fitted(self, "rule_")
        if self.error_ == "exact":
            raise ParameterError("The near-optimal set is computed with errors counted per "
                                 "failed condition (error='hamming'), whose MIP proves each "
                                 "alternative; this rule was fitted with error='exact' "
                                 "(the default with lam='auto'): refit with error='hamming'.")
        pr = self._training_problem(X, y, sample_weight)
        alts = alternatives(pr, k, constraints=self.constraints_, first=self.w_,
                            first_bound=self.lower_bound_,
                            time_limit=self.time_limit if time_limit is None else time_limit)
        for alt in alts:
            alt.rule = Rule(tuple(self.binarizer_.terms_[j] for j in alt.terms),
                            self.rule_type_, self.rule_.target, self.rule_.positive)
        return alts


def _summarise_fits(status: list[str], gaps: list[float]) -> tuple[str, float]:
    """A rule set's status and gap from its clause fits: the first status that is not
    ``"optimal"`` (else ``"optimal"``), and the worst finite gap (a search stopped at its time
    limit without a bound adds its status, and ``nan`` for its gap; ``nan`` when no fit has a
    bound, 0 without fits).  With an LP solver the status is the LP's: ``"optimal"`` there
    proves nothing of the rounded clause, whose gap to the LP bound is what is known."""
    finite = [float(g) for g in gaps if np.isfinite(g)]
    gap = max(finite) if finite else (np.nan if gaps else 0.0)
    return next((s for s in status if s != "optimal"), "optimal"), gap


class _RuleSetModel(_RuleModel):
    """Rule sets: AND-clauses learned one by one on one term matrix."""

    @property
    def clauses_(self) -> list[Rule]:
        check_is_fitted(self, "ruleset_")
        return list(self.ruleset_.clauses)

    def _finish(self, clauses: list, votes: tuple | None, status: list[str],
                gaps: list[float], reports: list, B: np.ndarray, y01: np.ndarray,
                sample_weight: Any, target: str) -> None:
        self.ruleset_ = RuleSet(tuple(clauses), votes, target, self.classes_[1])
        self.rule_ = self.ruleset_
        self.lp_status_, self.mip_gap_ = _summarise_fits(status, gaps)
        # every clause is solved by the same solver: with an LP one, "optimal" is the LP's
        # status and each clause is a rounding, proved nothing (fit_status says so)
        self.solve_method_ = self.solver
        # screening of the last clause fit (each clause is screened on its own problem)
        self.screening_report_ = reports[-1] if reports else None
        self._set_proba(self._fires_on_terms(B), y01, sample_weight)

    def _fires_on_terms(self, B: np.ndarray) -> np.ndarray:
        """Where the fitted rule set says "yes" on term matrix ``B`` (no table needed)."""
        votes = np.zeros(len(B))
        for t, w in enumerate(self._clause_w):
            fired = B[:, w].all(axis=1) if w.any() else np.ones(len(B), dtype=bool)
            if self.ruleset_.weighted:
                votes += self.ruleset_.weights[t] * fired
            else:
                votes = np.maximum(votes, fired)
        return votes > 0 if self.ruleset_.weighted else votes.astype(bool)

    def clause_table(self, X: pd.DataFrame, y: np.ndarray) -> pd.DataFrame:
        """Per clause: conditions, vote weight, coverage (share of rows it fires on) and
        precision (share of positives among them), on the data given."""
        frame = self._frame_for_predict(X)
        y01 = positive_rows(y, self.classes_[1])  # labels, or the 0/1 of a text class
        votes = self.ruleset_.votes(frame)
        rows = []
        for t, clause in enumerate(self.ruleset_.clauses):
            fired = votes[:, t]
            rows.append({"clause": t + 1, "conditions": str(clause), "size": len(clause),
                         "weight": self.ruleset_.weights[t] if self.ruleset_.weighted else 1.0,
                         "coverage": fired.mean(),
                         "precision": y01[fired].mean() if fired.any() else np.nan})
        # the columns even without a clause (an empty set predicts the other class)
        return pd.DataFrame(rows, columns=["clause", "conditions", "size", "weight",
                                           "coverage", "precision"])

    def decision_function(self, X: Any) -> np.ndarray:
        """The rule set's score (boosting: the sum of votes); shape (n_samples,)."""
        frame = self._frame_for_predict(X)
        return self.ruleset_.score(frame)


class SetCoveringRuleClassifier(_RuleSetModel):
    __doc__ = f"""A DNF of AND-clauses learned by set covering (separate and conquer, BCS §4).

    Learn an AND-clause, drop the training rows it labels 1, learn the next on the rest.
    A clause, the first included, is added only if its objective on the rows left is below
    that of adding none (λ × the weight of the positives left, each then one missed row):
    the solve looks below that value only (screening compares against it, the MIP prunes at
    it), so "no further clause lowers the objective" is a certified stop, and on noise
    (only flipped labels left) it comes from screening alone (``docs/rulesets.md``).  When
    not even the first clause beats it, the set has no clause and predicts the negative
    class for every row (``stopped_`` says why).

    Parameters
    ----------
    max_rules : int, default=5
        Stop after this many clauses.
    lam : float or "auto", default=1.0
        λ of each clause fit.  {_LAM_AUTO}
{_COMMON_PARAMS}

    Attributes
    ----------
{_COMMON_ATTRIBUTES}
    ruleset_ : RuleSet
        The OR of the clauses (also ``rule_``).
    clauses_ : list of Rule
    fits_ : list of dict
        Per clause: objective, status, gap, rows left before it.
    stopped_ : str
        Why no further clause was added: ``"max_rules"``, ``"covered"`` (no positive row
        left), ``"no gain"`` (certified: no clause lowers the objective), ``"no gain found"``
        (the time limit ended the search for one first, or with an LP solver the rounded
        clause did not lower it: not proved), ``"too large"`` (the next clause's
        MIP would not fit in the memory budget: the clauses so far are kept, status
        ``"memory"``), ``"fires on no row"``, ``"empty clause"`` (the clause found after
        the first has no condition: not added).  An empty clause as the first (it beats
        adding none: the positives outweigh the negatives and no term helps) holds on every
        row, so the set stops ``"covered"``.
    """

    _MODEL = "set covering"

    def __init__(self, max_rules: int = 5, lam: float = DEFAULT_LAM,
                 n_thresholds: int = DEFAULT_N_THRESHOLDS, thresholds: str = "quantile",
                 negations: bool = True, solver: str = "mip",
                 time_limit: float = DEFAULT_TIME_LIMIT, class_weight: Any = "auto",
                 random_state: int | None = None, screening: str = DEFAULT_SCREENING,
                 kinds: dict | None = None) -> None:
        self.max_rules = max_rules
        self.lam = lam
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.negations = negations
        self.solver = solver
        self.time_limit = time_limit
        self.class_weight = class_weight
        self.random_state = random_state
        self.screening = screening
        self.kinds = kinds

    def fit_terms(self, B: np.ndarray, y: np.ndarray, terms: Binarizer, *,
                  sample_weight: Any = None, target: str = "target",
                  classes: Any = None) -> SetCoveringRuleClassifier:
        """Fit on a ready term matrix (as :meth:`BooleanRuleClassifier.fit_terms`)."""
        if not whole_number(self.max_rules) or self.max_rules < 1:  # 2.5 was cut to 2 unsaid
            raise ParameterError(f"max_rules must be a whole number of at least 1, not "
                                 f"{self.max_rules!r}.")
        y01 = np.asarray(y).astype(np.int64)
        d = self._start_fit(B, y01, terms, sample_weight, classes)
        self.lam_ = self._choose_lam(B, y01, terms, sample_weight, classes)
        active = d > 0
        clauses: list[Rule] = []
        self._clause_w: list[np.ndarray] = []
        self.fits_ = []
        status, gaps, reports = [], [], []
        self.stopped_ = "max_rules"
        while len(clauses) < int(self.max_rules):
            if not y01[active].any():
                self.stopped_ = "covered"
                break
            progress.say(f"Clause {len(clauses) + 1} of at most {int(self.max_rules)}: "
                         f"{int(active.sum()):,} rows not yet covered")
            # every clause, the first too, must beat adding none (v₀: every positive left
            # missed once).  The first was taken whatever it cost: an empty clause (no useful
            # term, or a tiny λ) then predicted the minority class for every row (a review)
            stop = self.lam_ * float(d[active] @ y01[active])
            if len(np.unique(y01[active])) < 2:
                # only positives remain: the empty clause (always true) covers them
                clause_w = np.zeros(B.shape[1], dtype=bool)
                rule, objective = Rule((), "and", target, self.classes_[1]), np.nan
            else:
                try:
                    # the MIP prunes at v₀ (a proof when nothing is below it); the LP solvers
                    # take no cutoff, their clause is compared with v₀ below
                    res = self._clause(B[active], y01[active], d[active],
                                       cutoff=stop if self.solver == "mip" else None)
                except DataError:
                    if not clauses:
                        raise
                    # the next clause's MIP would not fit in memory: keep the clauses so far
                    # and say so (not a proof that no clause helps)
                    self.stopped_ = "too large"
                    status.append("memory")
                    gaps.append(np.nan)
                    self.fits_.append({"rows_left": int(active.sum()), "conditions": 0,
                                       "objective": np.nan, "status": self.stopped_})
                    break
                if res.status == "cutoff" or res.objective >= stop * (1 - 1e-12):
                    # proved (cutoff, or the MIP's optimum itself is no better), or not found:
                    # the MIP stopped at its time limit, or an LP-rounded clause (which proves
                    # nothing of the clauses it did not find)
                    proved = self.solver == "mip" and res.status in ("cutoff", "optimal")
                    self.stopped_ = "no gain" if proved else "no gain found"
                    if not proved and self.solver == "mip":
                        status.append(res.status)
                        gaps.append(np.nan)
                    self.fits_.append({"rows_left": int(active.sum()), "conditions": 0,
                                       "objective": stop, "status": self.stopped_})
                    break
                rule, clause_w, objective = res.rule(terms.terms_, target,
                                                     self.classes_[1]), res.w, res.objective
                status.append(res.status)
                gaps.append(res.gap)
                reports.append(res.screening)
            self.fits_.append({"rows_left": int(active.sum()), "conditions": len(rule),
                               "objective": objective})
            fired = B[:, clause_w].all(axis=1) if clause_w.any() else np.ones(len(y01), bool)
            if not len(rule) and clauses:
                self.stopped_ = "empty clause"
                break  # an empty clause after the first adds nothing a user would want
            if not (fired & active).any():
                self.stopped_ = "fires on no row"
                break  # the clause labels no remaining row 1 ("never"): nothing left to cover
            clauses.append(rule)
            self._clause_w.append(clause_w)
            if not len(rule):
                self.stopped_ = "covered"  # the empty clause holds on every row left
                break
            active &= ~fired
        self._finish(clauses, None, status, gaps, reports, B, y01, sample_weight, target)
        return self


#: A boosting vote within this of 0 is 0: floating noise (½ ln 1 computed on classes of equal
#: weight came out as ±1e-16, and summed rounds as -1.23e-32), not a vote.
VOTE_TOLERANCE = 1e-9


def _vote(c: float) -> float:
    """A boosting vote, 0 when within :data:`VOTE_TOLERANCE` of 0."""
    return 0.0 if abs(c) <= VOTE_TOLERANCE else float(c)


class BoostedRuleClassifier(_RuleSetModel):
    __doc__ = f"""Boosted AND-clauses: Algorithm 1 of the BCS paper, exactly.

    Round t solves the weighted problem (eq. 11) with weights ``d_t`` (``d_1`` ∝ the sample
    weights), then ``s_TP, s_FP`` = weight of rows the clause fires on with y = 1 / y = 0 and
    ``s_T, s_F`` = weight of y = 1 / y = 0.  If ``(√s_TP − √s_FP)² > (√s_T − √s_F)²`` the round
    votes ``C_t = ½ ln((s_TP + ε)/(s_FP + ε))`` where the clause fires, else it is the constant
    ``C_t = ½ ln((s_T + ε)/(s_F + ε))``.  Then
    ``d_{{t+1,i}} = d_{{t,i}} / exp((2y_i − 1) ŷ_t(x_i))``, renormalised.  Predict 1 iff
    ``Σ_t ŷ_t(x) > 0`` (``docs/rulesets.md``): a tie, Σ = 0, predicts the negative class.  A
    vote within :data:`VOTE_TOLERANCE` of 0 is floating noise and counts as 0; a clause
    whose (summed) vote is 0 changes no score and is left out of the set, which may then
    have no clause (every row negative).

    Parameters
    ----------
    n_rounds : int, default=5
        T, the number of rounds.
    epsilon : float, optional
        ε of the vote weights; default ``1 / (2m)`` with m the total sample weight (the
        number of rows when unweighted; Cohen & Singer's choice).
    lam : float or "auto", default=1000.0
        λ of each round.  With ``d`` summing to 1 the paper's λ = 1000 is the matching scale.
        {_LAM_AUTO}
{_COMMON_PARAMS}

    Attributes
    ----------
{_COMMON_ATTRIBUTES}
    ruleset_ : RuleSet
        Weighted clauses (a constant round is a clause without conditions; also ``rule_``).
        A clause chosen in several rounds appears once, its vote the sum of theirs.
    weights_history_ : ndarray of shape (n_rounds + 1, n_samples)
        ``d_t`` for every round (the last row is after the final update).
    rounds_ : list of dict
        Per round: s_TP, s_FP, s_T, s_F, C_t, whether it was a constant round, its clause's
        conditions and text.
    """

    _MODEL = "boosting"

    def __init__(self, n_rounds: int = 5, epsilon: float | None = None,
                 lam: float = DEFAULT_BOOSTING_LAM, n_thresholds: int = DEFAULT_N_THRESHOLDS,
                 thresholds: str = "quantile", negations: bool = True, solver: str = "mip",
                 time_limit: float = DEFAULT_TIME_LIMIT, class_weight: Any = "auto",
                 random_state: int | None = None, screening: str = DEFAULT_SCREENING,
                 kinds: dict | None = None) -> None:
        self.n_rounds = n_rounds
        self.epsilon = epsilon
        self.lam = lam
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.negations = negations
        self.solver = solver
        self.time_limit = time_limit
        self.class_weight = class_weight
        self.random_state = random_state
        self.screening = screening
        self.kinds = kinds

    def fit_terms(self, B: np.ndarray, y: np.ndarray, terms: Binarizer, *,
                  sample_weight: Any = None, target: str = "target",
                  classes: Any = None) -> BoostedRuleClassifier:
        """Fit on a ready term matrix (as :meth:`BooleanRuleClassifier.fit_terms`)."""
        if not whole_number(self.n_rounds) or self.n_rounds < 1:
            raise ParameterError(f"n_rounds must be a whole number of at least 1, not "
                                 f"{self.n_rounds!r}.")
        T = int(self.n_rounds)
        # ε smooths the confidence ½ ln((W+ + ε) / (W− + ε)) of a clause (docs/rulesets.md):
        # a negative one flipped the sign of every vote (a notebook review: epsilon=-1 gave
        # "-2.01·[rule] > 0", accuracy 0.56 against 0.90)
        if self.epsilon is not None and not (isinstance(self.epsilon, numbers.Real)
                                             and 0 < float(self.epsilon) <= 1):
            raise ParameterError(f"epsilon must be None (1 / (2 × rows)) or a number in (0, 1], "
                                 f"not {self.epsilon!r}.")
        y01 = np.asarray(y).astype(np.int64)
        d0 = self._start_fit(B, y01, terms, sample_weight, classes)
        self.lam_ = self._choose_lam(B, y01, terms, sample_weight, classes)
        m = len(y01)
        total = m if sample_weight is None else float(np.sum(sample_weight))
        eps = 1.0 / (2 * total) if self.epsilon is None else float(self.epsilon)
        d = d0 / d0.sum()  # d_1 = 1/m for unit sample weights
        history = [d.copy()]
        clauses, votes, self.rounds_ = [], [], []
        self._clause_w = []
        status, gaps, reports = [], [], []
        sign = 2 * y01 - 1
        for _ in range(T):
            res = self._clause(B, y01, d)
            status.append(res.status)
            gaps.append(res.gap)
            reports.append(res.screening)
            w = res.w
            fired = B[:, w].all(axis=1) if w.any() else np.ones(m, dtype=bool)
            s_tp, s_fp = d[fired & (y01 == 1)].sum(), d[fired & (y01 == 0)].sum()
            s_t, s_f = d[y01 == 1].sum(), d[y01 == 0].sum()
            if (np.sqrt(s_tp) - np.sqrt(s_fp)) ** 2 > (np.sqrt(s_t) - np.sqrt(s_f)) ** 2:
                c = _vote(0.5 * np.log((s_tp + eps) / (s_fp + eps)))
                rule, h = res.rule(terms.terms_, target, self.classes_[1]), c * fired
                constant = False
            else:
                c = _vote(0.5 * np.log((s_t + eps) / (s_f + eps)))
                rule, h = Rule((), "and", target, self.classes_[1]), np.full(m, c)
                w = np.zeros_like(w)
                constant = True
            self.rounds_.append({"s_TP": s_tp, "s_FP": s_fp, "s_T": s_t, "s_F": s_f, "C": c,
                                 "constant": constant, "conditions": len(rule),
                                 "clause": str(rule)})
            clauses.append(rule)
            votes.append(float(c))
            self._clause_w.append(w)
            d = d / np.exp(sign * h)
            d = d / d.sum()
            history.append(d.copy())
        self.weights_history_ = np.asarray(history)
        # Algorithm 1 may pick the same clause again (alternating with constant rounds): it
        # is one clause whose vote is the sum, Σ_t α_t [C_t fires] unchanged, and the set
        # reads as what it is (3 conditions, not the same 3 three times: a newcomer's review).
        # rounds_ keeps every round.
        first: dict[bytes, int] = {}
        kept, kept_votes, kept_w = [], [], []
        for rule, c, w in zip(clauses, votes, self._clause_w):
            key = np.asarray(w, dtype=bool).tobytes()
            if key in first:
                kept_votes[first[key]] += c
                continue
            first[key] = len(kept)
            kept.append(rule)
            kept_votes.append(c)
            kept_w.append(w)
        # a vote within floating noise of 0 is 0 and its clause changes no score: left out
        # (with no usable term, balanced classes gave the set "-1.23e-32·[TRUE] > 0", which
        # decided every row by the sign of rounding noise: a review)
        nonzero = [t for t, c in enumerate(kept_votes) if _vote(c) != 0.0]
        kept = [kept[t] for t in nonzero]
        kept_votes = [kept_votes[t] for t in nonzero]
        self._clause_w = [kept_w[t] for t in nonzero]
        self._finish(kept, tuple(kept_votes), status, gaps, reports, B, y01, sample_weight,
                     target)
        return self


#: The estimator class of each model name (:data:`rulecore.settings.MODELS`).
RULE_MODELS = {"single rule": BooleanRuleClassifier, "set covering": SetCoveringRuleClassifier,
               "boosting": BoostedRuleClassifier}


def lambda_path(
    X: pd.DataFrame,
    y: np.ndarray,
    lams: np.ndarray,
    X_test: pd.DataFrame | None = None,
    y_test: np.ndarray | None = None,
    progress: Any = None,
    **params: Any,
) -> pd.DataFrame:
    """Fit one rule per λ on the same terms; rule size and train/test error for each.

    Each point is the fit ``BooleanRuleClassifier(lam=λ, **params)`` makes on these rows,
    constraints, error count and rule type (``"auto"``: chosen per λ) included, so the rule
    a point shows is the rule loading it gives.  (It solved the bare problem before: with a
    forbidden column or ``max_conditions=1`` the path showed rules breaking them, a review.)
    The terms are built once (:meth:`BooleanRuleClassifier.fit_terms`).
    ``progress(i, n)`` is called after each fit (for progress bars).  Returns a frame with
    columns ``lam``, ``conditions``, ``train_error``, ``test_error``, ``objective``,
    ``status``, ``gap``, ``rule``, ``json``.
    """
    est = BooleanRuleClassifier(**params)
    frame = as_frame(X)
    y01, target, classes = est._targets(y)
    binarizer = Binarizer(n_thresholds=est.n_thresholds, thresholds=est.thresholds,
                          negations=est.negations, kinds=est.kinds,
                          missing_tests=missing_tests_for(est)).fit(frame)
    B = binarizer.transform(frame)
    test = None
    if X_test is not None and y_test is not None and len(X_test):
        test = as_frame(X_test, fitted_names=binarizer.feature_names_in_)
    rows = []
    for i, lam in enumerate(lams):
        fit = clone(est).set_params(lam=float(lam)).fit_terms(B, y01, binarizer, target=target,
                                                              classes=classes)
        rule = fit.rule_
        row = {"lam": float(lam), "conditions": len(rule),
               "train_error": float(np.mean(classes[fit._fires_on_terms(B).astype(np.int64)]
                                            != np.asarray(y))),
               "test_error": np.nan, "objective": fit.objective_,
               "status": _path_status(fit.lp_status_, fit.mip_gap_),
               "gap": fit.mip_gap_, "rule": str(rule), "json": rule.to_json(None)}
        if test is not None:
            row["test_error"] = float(np.mean(classes[rule.predict(test).astype(np.int64)]
                                              != np.asarray(y_test)))
        rows.append(row)
        if progress is not None:
            progress(i + 1, len(lams))
    return pd.DataFrame(rows)


def _path_status(status: str, gap: float) -> str:
    """The solver's status said of the rule: "optimal" only when the bound proves it (gap 0).
    An LP rounded to a rule has the status of its LP, and the λ path read "optimal" on every
    row of an LP-rounded path (a newcomer's review)."""
    if np.isfinite(gap) and gap <= 1e-9:
        return status
    head = "rounded, not proved optimal" if status == "optimal" else status
    return f"{head}, gap {gap:.1%}" if np.isfinite(gap) else f"{head}, no bound"


def make_rule_model(model: str, **params: Any) -> _RuleModel:
    """The estimator a model name means (:data:`rulecore.settings.MODELS`), with ``params``
    as in :class:`~rulecore.settings.RuleSettings` (``class_weight="auto"`` resolved)."""
    from rulecore.settings import RuleSettings

    return RuleSettings.from_dict({**params, "model": model}).estimator()
