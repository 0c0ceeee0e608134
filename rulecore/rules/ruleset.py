"""RuleSetClassifier: DNF rule sets by column generation, with λ and the class chosen for you.

Math in ``docs/rulesets.md`` ("Column generation", "Choosing λ", "Several classes").

- Two classes: one DNF (an OR of AND-clauses) describing one class; the other class is
  "otherwise".  Which class the clauses describe, and λ, are chosen together by inner
  stratified cross-validation (:func:`choose_by_cv`).
- Several classes: an ordered rule list, built one of two ways (``multiclass``; the inner
  cross-validation chooses with λ): *one-vs-rest*, one DNF per class on all rows, every
  clause sorted by its training precision; or *sequential*, the classes one after another
  from the rarest, each DNF learned on the rows the earlier classes' clauses leave, the most
  frequent class the default.  A row no clause covers gets the most frequent class among the
  training rows no clause covers.  λ is chosen by the inner-CV accuracy of the list.

Each DNF is learned by :func:`~rulecore.rules.colgen.column_generation`: clauses priced by
beam search and, to prove the LP bound, by an exact MIP after certified screening.  Along
the λ grid each fit starts from the clauses the previous one generated (a clause is a set of
terms, valid at any λ), and the final fit starts from every clause the inner folds found.
"""

from __future__ import annotations

import numbers
import time
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils.validation import check_is_fitted

from rulecore import progress
from rulecore.encode import check_seconds, check_seed, require_bool, whole_number
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.colgen import ColumnGenerationResult, clause_fires, column_generation
from rulecore.rules.estimators import (
    _cv_rows,
    as_frame,
    check_sample_weight,
    checked_labels,
    class_sample_weights,
    dict_class_weights,
    predict_frame,
    set_feature_names,
    terms_for_fit,
)
from rulecore.rules.rule import Rule, RuleList, RuleSet
from rulecore.rules.terms import Binarizer
from rulecore.settings import (  # noqa: F401 (re-exported)
    DEFAULT_N_THRESHOLDS,
    INNER_CV_MAX_ROWS,
    KAPPAS,
    MULTICLASS,
    MULTICLASS_CHOICES,
    THRESHOLD_GRID,
    check_lam,
    lam_grid,
)

#: Exact pricing MIP runs of the final fit at most (``column_generation``'s
#: ``max_exact_pricings``).  A run that stops at its time limit is not repeated, so this only
#: lets a run that found a clause the beam search missed be followed by one that proves the
#: set: on the reviewer's 24 small tables (6 binary or 3 numeric columns) 23 fits were
#: certified against 11 with one run, in 8.7 s against 5.4 s in all; on the salesforce,
#: breast-cancer and machine-failure samples the first run stops at its time limit and
#: nothing changes.
FINAL_EXACT_PRICINGS = 3

#: Seconds at most for the final fit's master MIP.  Without a proved bound it is the MIP over
#: the clauses the LP uses (a few dozen), solved to the end in 0.7–1.5 s on most benchmark
#: folds and used only then: the room above that keeps a loaded machine from cutting it, which
#: would change the rule set (``column_generation``'s ``master_time_limit``).  At 10 s one
#: fold of 95 (ilpd's third: 7.5 s idle, 15.4 s beside a busy loop) came out empty when the
#: machine was loaded and with 12 conditions when it was not.
FINAL_MASTER_SECONDS = 30.0

#: Why a column generation ended when its time limit did: the loop's deadline, or a master
#: LP that stopped at it (HiGHS returns no duals then).  Such a fit's result depends on the
#: machine's speed (``cv_results_["timed_out"]``).
TIME_STOPS = ("out of time", "master failed")

#: The share of ``time_limit`` the final fit gets at least, however long the inner
#: cross-validation took (it is planned to take 60 %: ``per_fit``).
FINAL_SHARE = 0.4


@dataclass
class _Path:
    """One inner fold's fits along the λ grid for one class described."""

    label: int          # the class index the DNF describes
    fold: int
    clauses: list       # per λ: list of clauses (term tuples)
    pool: list          # every clause generated on this fold
    timed_out: list     # per λ: whether this fit, or one before it on the path, hit its limit


def _streams_results() -> bool:
    """Whether the active joblib backend can hand results back one by one
    (``return_as="generator"``); Dask's and multiprocessing's cannot."""
    from joblib.parallel import SequentialBackend, get_active_backend

    backend, _ = get_active_backend()
    return isinstance(backend, SequentialBackend) or bool(backend.supports_return_generator)


def _dnf_fires(B: np.ndarray, clauses) -> np.ndarray:
    fired = np.zeros(len(B), dtype=bool)
    for S in clauses:
        fired |= clause_fires(B, S)
    return fired


def _first_rule(B: np.ndarray, order) -> np.ndarray:
    """Index of the first (class, clause) of ``order`` that holds on each row; −1: none."""
    out = np.full(len(B), -1)
    for t, (_, S) in enumerate(order):
        out[clause_fires(B, S) & (out < 0)] = t
    return out


def _shared_limits(per_fit: float, n: int):
    """The time limits of ``n`` fits run one after another: the budget ``n × per_fit`` is
    shared, each fit getting what is left divided by the fits still to run (at least
    0.05 s).  A fit that ends early leaves its time to the later ones, so a fit is cut only
    when the path as a whole runs out, not when one point of it is slower than the average:
    with a fixed ``per_fit`` each, a loaded machine (three test workers on two cores) cut one
    fit of a four-class table at 0.25 s and ``random_state=1`` gave another cross-validation
    error than on an idle machine."""
    end = time.perf_counter() + float(per_fit) * n
    for i in range(n):
        yield max((end - time.perf_counter()) / (n - i), 0.05)


def _path(B, y01, d, lams, label, fold, cliques, covers, opts) -> _Path:
    """Fit the DNF of class ``label`` at every λ (increasing), each from the last one's pool."""
    pool: list = []
    out, timed_out, cut = [], [], False
    limits = _shared_limits(opts["time_limit"], len(lams))
    with progress.listening(None):  # an inner fit's own stages would only be noise
        for lam, limit in zip(lams, limits):
            r = column_generation(B, y01, d, lam=float(lam), cliques=cliques, covers=covers,
                                  pool=pool, certify=False, **dict(opts, time_limit=limit))
            pool = r.pool
            out.append(r.clauses)
            # a cut fit's pool starts the next λ: the rest of the path depends on it too
            cut = cut or r.pricing_stop in TIME_STOPS
            timed_out.append(cut)
    return _Path(label, fold, out, pool, timed_out)


def _rule_list(B, y, d, dnfs: dict[int, list], n_classes: int):
    """Order the clauses of one DNF per class by Laplace precision on the training rows.

    Returns ``(order, default)``: a list of (class, clause) and the default class index,
    without the rules at the end that predict the default (they change no prediction).
    """
    items = []
    for c, clauses in dnfs.items():
        for S in clauses:
            f = clause_fires(B, S)
            cov, hit = d[f].sum(), d[f & (y == c)].sum()
            items.append(((hit + 1.0) / (cov + n_classes), -cov, c, tuple(S)))
    items.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    order = [(c, S) for _, _, c, S in items]
    covered = _dnf_fires(B, [S for _, S in order])
    rest = ~covered if (~covered).any() else np.ones(len(B), bool)
    default = int(np.argmax(np.bincount(y[rest], weights=d[rest], minlength=n_classes)))
    # rules at the end that predict the default class change no prediction (a row they
    # decide gets the default without them): wine's list ended "ash <= 1.985 → class_1,
    # OTHERWISE class_1", one rule and its conditions for nothing (a review)
    while order and order[-1][0] == default:
        order.pop()
    return order, default


@dataclass
class _SequentialPath:
    """One inner fold's sequential rule lists along the λ grid."""

    fold: int
    lists: list         # per λ: (order, default)
    pools: dict         # class index -> every clause generated for it on this fold
    timed_out: list     # per λ: whether a fit at this λ or before it hit its time limit


def _sequential(B, yi, sw, class_weight, lam, classes, cliques, covers, pools, opts
                ) -> tuple[list, int, dict]:
    """A rule list learned class by class (``classes`` in order, the last one the default
    unless rows remain): each class's DNF on the rows the earlier classes' clauses leave,
    against every other class still among them (separate and conquer, as RIPPER orders
    its classes).  Returns ``(order, default, results)``: the (class, clause) list, the
    default class index, and each class's column generation."""
    active = np.ones(len(yi), dtype=bool)
    order, results = [], {}
    for c in classes[:-1]:
        idx = np.flatnonzero(active)
        y01 = (yi[idx] == c).astype(np.int64)
        if not y01.any() or y01.all():
            continue
        d = class_sample_weights(y01, class_weight, np.array([0, 1]), sw[idx])
        r = column_generation(B[idx], y01, d, lam=float(lam), cliques=cliques, covers=covers,
                              pool=pools.get(c, []), **opts)
        results[c] = r
        for S in r.clauses:
            order.append((c, tuple(S)))
            active &= ~clause_fires(B, S)
    rest = active if active.any() else np.ones(len(yi), dtype=bool)
    K = int(max(classes)) + 1
    default = int(np.argmax(np.bincount(yi[rest], weights=sw[rest], minlength=K)))
    return order, default, results


def _sequential_path(B, yi, sw, class_weight, lams, classes, fold, cliques, covers, opts
                     ) -> _SequentialPath:
    """:func:`_sequential` at every λ (increasing), each class from its last pool."""
    pools: dict = {}
    lists, timed_out, cut = [], [], False
    # each λ's list is up to K − 1 column generations, each of which had opts' time limit
    limits = _shared_limits(opts["time_limit"] * max(len(classes) - 1, 1), len(lams))
    with progress.listening(None):  # an inner fit's own stages would only be noise
        for lam, limit in zip(lams, limits):
            order, default, results = _sequential(
                B, yi, sw, class_weight, lam, classes, cliques, covers, pools,
                dict(opts, certify=False, time_limit=limit / max(len(classes) - 1, 1)))
            for c, r in results.items():
                pools[c] = r.pool
            lists.append((order, default))
            cut = cut or any(r.pricing_stop in TIME_STOPS for r in results.values())
            timed_out.append(cut)
    return _SequentialPath(fold, lists, pools, timed_out)


def _list_predict(B, order, default) -> np.ndarray:
    """Class index of each row under the rule list ``order`` (``default`` where none holds)."""
    return np.array([c for c, _ in order] + [default], dtype=np.int64)[_first_rule(B, order)]


class RuleSetClassifier(ClassifierMixin, BaseEstimator):
    """The best rule set rulecore can learn, with no settings to choose.

    A DNF of AND-clauses learned by column generation with exact pricing
    (:mod:`rulecore.rules.colgen`); λ and, for two classes, the class the clauses describe
    are chosen by inner cross-validation.  Several classes give an ordered rule list.

    Parameters
    ----------
    lam : "auto" or float, default="auto"
        λ, the weight of one (weighted) training error against one clause or one condition:
        the objective is ``Σ_clauses (1 + conditions) + λ × errors``.  ``"auto"`` chooses it
        from :func:`lam_grid` by inner cross-validation.
    describe : "auto", "positive" or "negative", default="auto"
        Two classes: which class the clauses describe.  ``"auto"`` tries both in the inner
        cross-validation; ``"positive"`` is ``classes_[1]``.
    multiclass : "one-vs-rest", "sequential" or "auto", default="one-vs-rest"
        More than two classes: how the rule list is built.  ``"one-vs-rest"``: one DNF per
        class on all rows, every clause sorted by its training precision.
        ``"sequential"``: the classes one after another from the rarest, each DNF learned on
        the rows the earlier classes' clauses leave, the most frequent class the default: a
        shorter list (wine 4.6 conditions against 9.2, segment 18 against 25), less accurate
        where classes overlap (vehicle 0.67 against 0.70).  ``"auto"`` lets the inner
        cross-validation choose with λ: as accurate as one-vs-rest on the mean of the three
        benchmark sets, with fewer conditions, in about 1.6 times the time
        (``bench/results/ruleset_variants.md``).
    error : {"hamming", "exact"}, default="hamming"
        False positives in the final choice of clauses: once per clause that fires
        (Hamming, the LP's) or once per row (exact 0/1).  Measured in
        ``bench/results/rulesets_vs_anchors.md``; Hamming generalises better there.
    class_weight : None, "balanced", "sqrt" or dict, default=None
        Weight of each class's errors; ``None`` counts every row once (accuracy).  A dict
        gives each label its weight (``{label: weight}``, 1 for labels it leaves out).  The
        inner cross-validation measures errors with the same weights, and the λ grid is
        scaled by their total.
    cv : int, cross-validation splitter or iterable of (train, test) splits, default=3
        Inner folds for ``lam="auto"`` / ``describe="auto"``: an int is that many stratified
        shuffled folds (seeded by ``random_state``); anything else is read as scikit-learn's
        ``cv`` argument (``check_cv``).
    selection : {"min", "1se"}, default="min"
        The grid point with the lowest mean inner-CV error (ties: fewer conditions), or the
        one with fewest conditions within one standard error of it.
    cv_max_rows : int or None, default=50000
        With an int ``cv``, the inner cross-validation runs on a stratified random sample of
        at most this many rows (seeded by ``random_state``); the final fit uses every row.
        Ranking four values of λ needs far fewer rows than a large table has, and the inner
        fits on all of a million rows would take ten times the time limit
        (``bench/results/scale.md``).  ``None``: every row.
    n_thresholds : "auto" or int, default="auto"
        Quantile thresholds per numeric column.  ``"auto"``: with more than two classes the
        inner cross-validation chooses among :data:`THRESHOLD_GRID` (10, 20, 40) together
        with λ; with two classes, 10.
    thresholds, negations, kinds
        Terms, as in :class:`~rulecore.rules.terms.Binarizer`.
    max_conditions : int, default=12
        Conditions per clause at most, for every clause (the exact pricing's too); a
        certificate is then over the rule sets of such clauses.
    certify : bool, default=True
        Run the exact pricing MIP in the final fit, so that ``lp_bound_`` is proved.
    time_limit : float, default=120
        Seconds for the whole fit (cross-validation included); what is left when the
        cross-validation ends goes to the final fit, and never less than 40 % of it
        (:data:`FINAL_SHARE`), so on a loaded machine the whole fit can take longer; each
        inner fit also has fixed costs (its terms, its LP), so a limit of a second or two is
        overrun by them (3,000 rows × 25 columns: 0.5 s took 2.2 s).
    n_jobs : int, optional
        Parallel inner-CV fits (joblib; any joblib backend, Dask and Ray included).
    random_state : int, default=0
        Seed of the inner folds.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    rules_ : RuleSet or RuleList
        Two classes: the DNF (``rules_.positive`` is the class it describes); more: the
        ordered rule list.  Both export as text, Markdown, JSON, SQL and Python.
    rule_ : same as ``rules_``
    n_rules_, n_conditions_ : int
        Clauses, and conditions over all clauses.
    lam_ : float
        The λ used.
    n_thresholds_ : int
        The quantile thresholds per numeric column used (``binarizer_`` holds the terms).
    described_class_ : label or None
        Two classes: the class the clauses describe.
    multiclass_ : str or None
        More than two classes: how the rule list was built (``"one-vs-rest"`` or
        ``"sequential"``).
    rule_stats_ : DataFrame
        Per clause on the training rows: class, conditions, coverage, precision.
    cv_results_ : DataFrame or None
        Per grid point (class described, thresholds per column, λ, κ): mean and std of the
        inner-CV error, mean conditions, and ``timed_out``: how many of the point's inner
        fits stopped at their time limit or started from a fit that did (their result
        depends on the machine's speed).  Where ``timed_out`` is 0 everywhere the fit is
        deterministic for a given ``random_state``.
    lp_bound_, certified_, mip_gap_ : float, bool, float
        Two classes: the column generation's certificate (``docs/rulesets.md``).
        ``lp_bound_`` bounds the Hamming objective only, so with ``error="exact"``
        ``certified_`` is False and ``mip_gap_`` nan: no bound is claimed.
    status_ : str
        ``"optimal"`` only when certified with a zero gap (two classes); ``"not_proven"``
        when the clauses were chosen (by the master MIP, or by rounding its LP) but no
        proof covers every clause; else why the choice stopped (``"time_limit"``, ...).
    master_status_ : str
        The choice among the generated clauses alone: ``"optimal"`` when the master MIP
        over them was solved (no claim about clauses not generated).  When the pricing did
        not prove the bound, no MIP over every clause runs (one cut by its time limit gave
        another rule set on a loaded machine): ``"support"``, the MIP over
        the clauses the LP uses was solved; ``"rounded"``, it was cut, and the LP's best
        rounding improved by local search was taken.
    fit_seconds_, cv_seconds_ : float
    """

    def __init__(self, lam: Any = "auto", describe: str = "auto",
                 multiclass: str = "one-vs-rest",
                 error: str = "hamming",
                 class_weight: Any = None, cv: int = 3, selection: str = "min",
                 n_thresholds: int | str = "auto", thresholds: str = "quantile",
                 negations: bool = True, max_conditions: int = 12, certify: bool = True,
                 time_limit: float = 120.0, n_jobs: int | None = None,
                 random_state: int = 0, kinds: dict | None = None,
                 cv_max_rows: int | None = INNER_CV_MAX_ROWS) -> None:
        self.lam = lam
        self.describe = describe
        self.multiclass = multiclass
        self.error = error
        self.class_weight = class_weight
        self.cv = cv
        self.selection = selection
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.negations = negations
        self.max_conditions = max_conditions
        self.certify = certify
        self.time_limit = time_limit
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.kinds = kinds
        self.cv_max_rows = cv_max_rows

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags

    @property
    def class_weight_used_(self) -> Any:
        """The class weight the fit used."""
        return self.class_weight

    # ------------------------------------------------------------------ checks
    def _check_params(self) -> None:
        check_lam(self.lam, auto=True)
        if self.describe not in ("auto", "positive", "negative"):
            raise ParameterError("describe must be 'auto', 'positive' or 'negative'.")
        if self.multiclass not in MULTICLASS_CHOICES:
            raise ParameterError("multiclass must be 'one-vs-rest', 'sequential' or 'auto'.")
        if self.error not in ("hamming", "exact"):
            raise ParameterError("error must be 'hamming' or 'exact'.")
        if self.selection not in ("min", "1se"):
            raise ParameterError("selection must be 'min' or '1se'.")
        require_bool(self.certify, "certify")
        # "3" and 1.5 reached the user as scikit-learn's ValueError (a notebook review)
        if not ((whole_number(self.cv) and self.cv >= 2) or hasattr(self.cv, "split") or
                hasattr(self.cv, "__iter__")) or isinstance(self.cv, (str, bytes)):
            raise ParameterError("cv must be an integer of at least 2, a cross-validation "
                                 "splitter or an iterable of (train, test) splits, not "
                                 f"{self.cv!r}.")
        if self.n_jobs is not None and not (whole_number(self.n_jobs) and self.n_jobs != 0):
            raise ParameterError(f"n_jobs must be None or a non-zero whole number (-1: every "
                                 f"core), not {self.n_jobs!r}.")
        check_seed(self.random_state)
        if self.class_weight is not None and not isinstance(self.class_weight, dict) and \
                self.class_weight not in ("balanced", "sqrt"):
            raise ParameterError("class_weight must be None, 'balanced', 'sqrt' or a dict "
                                 "{label: weight}.")
        check_seconds(self.time_limit)
        if not (whole_number(self.max_conditions) and self.max_conditions >= 1):
            # 2.5 was cut to 2 and "3" taken without a word (a notebook review)
            raise ParameterError("max_conditions must be a whole number of at least 1, not "
                                 f"{self.max_conditions!r}.")
        if not (self.n_thresholds == "auto" or (
                isinstance(self.n_thresholds, numbers.Integral)
                and not isinstance(self.n_thresholds, bool) and self.n_thresholds >= 1)):
            raise ParameterError("n_thresholds must be 'auto' or a whole number of at least 1.")
        if self.cv_max_rows is not None and (isinstance(self.cv_max_rows, bool)
                                             or int(self.cv_max_rows) < 10):
            raise ParameterError("cv_max_rows must be None or an integer of at least 10.")

    def _threshold_counts(self, n_classes: int) -> list[int]:
        """The threshold counts the fit tries (the inner CV chooses when there are several)."""
        if self.n_thresholds != "auto":
            return [int(self.n_thresholds)]
        if n_classes > 2 and self.thresholds == "quantile":
            return list(THRESHOLD_GRID)
        return [DEFAULT_N_THRESHOLDS]

    def _targets(self, y: Any) -> tuple[np.ndarray, np.ndarray, str]:
        y, name, classes = checked_labels(y, type(self).__name__)
        return np.searchsorted(classes, y).astype(np.int64), classes, name

    # ------------------------------------------------------------------ fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None, feature_names: Any = None
            ) -> RuleSetClassifier:
        """Learn the rule set (and choose λ and the class described).

        Parameters
        ----------
        X : DataFrame or array of shape (n_samples, n_features)
        y : array of shape (n_samples,)
            Two or more classes; predictions are these labels.
        sample_weight : array of shape (n_samples,), optional
        feature_names : list of str, optional
        """
        t0 = time.perf_counter()
        self._check_params()
        frame = as_frame(X, feature_names)
        yi, classes, target = self._targets(y)
        counts = self._threshold_counts(len(classes))
        sw, binarizer, B = terms_for_fit(self, frame, len(yi), sample_weight,
                                         n_thresholds=counts[0])
        # the other counts' terms are built only when the cross-validation reaches them
        terms = [lambda: (binarizer, B)] + [
            (lambda n=n: terms_for_fit(self, frame, len(yi), sample_weight,
                                       n_thresholds=n)[1:]) for n in counts[1:]]
        self._fit(terms, counts, y, sw, target, t0)
        set_feature_names(self, X, frame)
        self.fit_seconds_ = time.perf_counter() - t0
        return self

    def fit_terms(self, B: np.ndarray, y: Any, terms: Binarizer, *, sample_weight: Any = None,
                  target: str = "target", _t0: float | None = None) -> RuleSetClassifier:
        """Fit on a term matrix already built by the fitted binarizer ``terms`` (the sweeps
        reuse one matrix for many fits).

        Parameters
        ----------
        B : bool ndarray of shape (n_samples, n_terms)
            ``terms.transform(X)``.
        y : array of shape (n_samples,)
            The labels.
        terms : Binarizer
        sample_weight : array of shape (n_samples,), optional
        target : str
            The target's name, for the rules' text.
        """
        t0 = time.perf_counter() if _t0 is None else _t0
        self._check_params()
        if B.shape[0] != len(np.asarray(y)):
            raise DataError(f"The term matrix has {B.shape[0]} rows but y has "
                            f"{len(np.asarray(y))}.")
        sw = check_sample_weight(sample_weight, B.shape[0])
        self._fit([lambda: (terms, B)], [terms.n_thresholds], y, sw, target, t0)
        return self

    def _fit(self, terms: list, counts: list, y: Any, sw: np.ndarray, target: str,
             t0: float) -> None:
        """``terms[i]()`` gives (binarizer, term matrix) for ``counts[i]`` thresholds."""
        yi, classes, _ = self._targets(y)
        self.classes_ = classes
        self._fit_terms(terms, counts, yi, sw, target, t0)
        self.n_features_in_ = int(self.binarizer_.n_features_in_)
        self.fit_seconds_ = time.perf_counter() - t0

    def _row_weights(self, yi: np.ndarray, sw: np.ndarray) -> np.ndarray:
        """Sample × class weight of every row over all classes: what the inner CV's errors
        and the λ grid are measured in.  With two classes it equals :meth:`_weights` of
        either class described (balanced and √ weights are symmetric)."""
        cw = self.class_weight
        K = len(self.classes_)
        if cw is None:
            return sw
        if isinstance(cw, dict):
            per = dict_class_weights(cw, self.classes_)
        else:
            counts = np.maximum(np.bincount(yi, weights=sw, minlength=K), 1e-12)
            per = sw.sum() / (K * counts) if cw == "balanced" else np.sqrt(counts.max() / counts)
        d = sw * per[yi]
        if d.sum() <= 0:
            raise ParameterError("The class weights leave no row any weight.")
        return d

    def _weights(self, y01: np.ndarray, sw: np.ndarray) -> np.ndarray:
        """Row weights of one DNF's fit (``y01 == 1``: the class it describes); ``sw``
        already holds a dict's class weights (:meth:`_row_weights`)."""
        cw = None if isinstance(self.class_weight, dict) else self.class_weight
        return class_sample_weights(y01, cw, np.array([0, 1]), sw)

    def _opts(self, time_limit: float) -> dict:
        # inner-CV fits only rank grid points: a narrower beam, fewer rounds, and the best
        # rounding of the master LP instead of its MIP.  Measured on the 8 binary sets of
        # bench/rulesets_vs_anchors.py: the MIP (0.5 s each) gave mean error 0.211 in 613 s,
        # the rounding 0.2015 in 319 s (5 inner folds with rounding: 0.2045 in 445 s).
        # Each fit gets its share of the budget, at least 0.05 s: a floor of 0.5 s made
        # time_limit=0.5 take 12 s over 24 inner fits (a notebook review).
        return {"error": self.error, "max_conditions": int(self.max_conditions),
                "time_limit": max(float(time_limit), 0.05), "master_time_limit": 0.0,
                "beam_width": 10, "max_iterations": 40}

    def _fit_terms(self, makers, counts, yi, sw, target, t0) -> None:
        """Inner CV over (thresholds per column, class described, λ), then the final fit.
        ``makers[i]()`` builds (binarizer, term matrix) for ``counts[i]`` thresholds."""
        K = len(self.classes_)
        budget = float(self.time_limit)
        if K == 2:
            labels = {"auto": [1, 0], "positive": [1], "negative": [0]}[self.describe]
        else:
            labels = list(range(K))
        # a dict's class weights go into the sample weights of every fit; D weighs the
        # inner CV's errors and scales the λ grid (the total weight of the fit's errors)
        D = self._row_weights(yi, sw)
        sw_rows = sw  # rule_stats_ and predict_proba count the rows by sample weight only
        if isinstance(self.class_weight, dict):
            sw = D
        total = float(D.sum())
        # several classes: the list constructions the inner CV compares, and the order in
        # which the sequential one learns them (the rarest first; the most frequent last)
        kinds = [None] if K == 2 else (list(MULTICLASS) if self.multiclass == "auto"
                                       else [self.multiclass])
        class_order = [int(c) for c in np.argsort(np.bincount(yi, weights=D, minlength=K),
                                                  kind="stable")]
        cw = None if isinstance(self.class_weight, dict) else self.class_weight
        # the smaller class (each class of a rule list is one DNF's positives) sets how far
        # down the grid goes (settings.RARE_HALVINGS)
        smallest = min(float(D[yi == c].sum()) for c in range(K))
        lams = (lam_grid(total, smallest_class=smallest) if self.lam == "auto"
                else np.array([float(self.lam)]))
        auto = self.lam == "auto" or (K == 2 and len(labels) > 1) or len(counts) > 1 or \
            len(kinds) > 1
        t_cv = time.perf_counter()
        chosen = 0
        built: dict[int, tuple] = {}
        pools: dict[int, list] = {c: [] for c in labels}
        self.cv_results_ = None
        chosen_lam, chosen_label, chosen_kind = float(lams[0]), labels[0], kinds[0]
        if auto:
            rows = np.arange(len(yi))
            if isinstance(self.cv, (int, np.integer)):
                rows = _cv_rows(yi, self.cv_max_rows, self.random_state)
                # no more folds than the smallest class has rows (at least 2)
                smallest = int(np.bincount(yi[rows]).min())
                if int(np.bincount(yi[rows]).max()) < 2:  # scikit-learn's error otherwise
                    raise DataError("Too few rows to choose λ by cross-validation: every class "
                                    "has one row. Give lam a number, or add rows.")
                splitter = StratifiedKFold(max(2, min(int(self.cv), smallest)), shuffle=True,
                                           random_state=self.random_state)
            else:
                splitter = check_cv(self.cv, yi, classifier=True)
            if len(rows) < len(yi):
                progress.say(f"Cross-validation on a stratified sample of {len(rows):,} of "
                             f"the {len(yi):,} rows")
            # fold indices are rows of the term matrix (the sample's positions mapped back);
            # every threshold count is measured on the same folds
            with warnings.catch_warnings():
                # a class with one training row is in one fold only, by design (at least 2
                # folds); scikit-learn's warning named n_splits the user never set (a review)
                warnings.filterwarnings("ignore", message="The least populated class",
                                        category=UserWarning)
                try:
                    folds = [(rows[np.asarray(tr)], rows[np.asarray(va)]) for tr, va in
                             splitter.split(np.zeros((len(rows), 1)), yi[rows])]
                except ValueError as exc:  # GroupKFold without groups: its raw ValueError
                    raise ParameterError(
                        f"cv could not split the rows: {exc} fit takes no groups; give the "
                        "splits instead, cv=list(GroupKFold(3).split(X, y, groups)).") from None
            if not folds:
                raise ParameterError("cv gave no (train, test) split.")
            # column generations per fold and λ: one per class described, one per class
            # but the last for the sequential list
            fits = len(labels) if K == 2 else (K * ("one-vs-rest" in kinds)
                                               + (K - 1) * ("sequential" in kinds))
            per_fit = budget * 0.6 / max(len(counts) * len(folds) * fits * len(lams), 1)
            # λ = 1 / (κ W): on a sample (or folds that cover part of the rows) the inner fits
            # get λ × W / W_sample, so that the sampled cross-validation measures what it
            # would on every row (with the full
            # table's λ the folds of a 50,000-row sample of 150,000 rows fitted as if κ were
            # 3 times larger, and a rare class got no clause at any λ: a newcomer's review)
            covered = np.unique(np.concatenate([np.r_[tr, va] for tr, va in folds]))
            scales = [total / float(D[covered].sum())] * len(folds)
            jobs = [(f, c) for f in range(len(folds)) for c in labels]
            table, paths_of, seq_of = [], {}, {}
            for i, n_thr in enumerate(counts):
                binarizer, B = makers[i]()
                B = np.asarray(B, dtype=bool)
                # the chosen count's matrix is needed again for the final fit: keep it unless
                # several would not fit comfortably (then it is built a second time)
                built[i] = (binarizer, B if i == 0 or B.nbytes * len(counts) <= 2**28
                            else None)
                shown = n_thr if len(counts) > 1 else None
                paths_of[i] = (self._cv_paths(B, yi, sw, folds, jobs, lams, binarizer,
                                              per_fit, shown, scales)
                               if "one-vs-rest" in kinds or K == 2 else [])
                seq_of[i] = (self._cv_sequential(B, yi, sw, cw, folds, lams, class_order,
                                                 binarizer, per_fit, shown, scales)
                             if "sequential" in kinds else [])
                table += [dict(r, n_thresholds=n_thr, candidate=i)
                          for r in self._cv_table(B, yi, sw, D, folds, paths_of[i], labels,
                                                  lams, total, seq_of[i], kinds)]
                del B
            cvr = pd.DataFrame(table)
            # errors equal up to rounding (the same fold counts summed in another order) tie,
            # and a tie goes to fewer conditions, then fewer thresholds (then one-vs-rest)
            rank = cvr.assign(error=cvr["error"].round(12), kind=cvr["multiclass"].map(
                {k: i for i, k in enumerate(MULTICLASS)}).fillna(0))
            best = rank.sort_values(["error", "conditions", "n_thresholds", "kind",
                                     "lam"]).index[0]
            if self.selection == "1se":
                se = cvr.loc[best, "error_std"] / np.sqrt(len(folds))
                ok = rank[cvr["error"] <= cvr.loc[best, "error"] + se + 1e-12]
                best = ok.sort_values(["conditions", "error", "n_thresholds", "kind",
                                       "lam"]).index[0]
            cvr["chosen"] = cvr.index == best
            chosen = int(cvr.loc[best, "candidate"])
            self.cv_results_ = cvr.drop(columns=["label", "candidate"])
            if len(counts) == 1:
                self.cv_results_ = self.cv_results_.drop(columns="n_thresholds")
            if K == 2:
                self.cv_results_ = self.cv_results_.drop(columns="multiclass")
            chosen_lam = float(cvr.loc[best, "lam"])
            if K == 2:
                chosen_label = int(cvr.loc[best, "label"])
            else:
                chosen_kind = str(cvr.loc[best, "multiclass"])
            for p in paths_of[chosen]:
                pools[p.label].extend(p.pool)
            if chosen_kind == "sequential":
                pools = {c: [] for c in labels}
                for p in seq_of[chosen]:
                    for c, pool in p.pools.items():
                        pools[c].extend(pool)
        self.cv_seconds_ = time.perf_counter() - t_cv
        self.lam_ = chosen_lam
        self.n_thresholds_ = int(counts[chosen])
        binarizer, B = built.get(chosen, (None, None))
        if B is None:
            binarizer, B = makers[chosen]()
        B = np.asarray(B, dtype=bool)
        self.binarizer_ = binarizer
        self.n_terms_ = B.shape[1]
        cliques = binarizer.conflict_cliques("and")
        covers = binarizer.conflict_covers("and")
        terms = binarizer.terms_
        # the final fit gets what the cross-validation left, and never less than its share
        # (FINAL_SHARE): on a loaded machine the inner fits ran over theirs, the final fit
        # had about a second per class, and a class of a fifth of the rows got no rule (a
        # newcomer's review)
        left = max(budget - (time.perf_counter() - t0), FINAL_SHARE * budget)
        self.multiclass_ = chosen_kind
        final_labels = [chosen_label] if K == 2 else labels
        results: dict[int, ColumnGenerationResult] = {}
        if chosen_kind == "sequential":
            progress.say(f"Final fit at λ = {chosen_lam:.4g}, class by class from the rarest"
                         + (f", with {counts[chosen]} thresholds per column"
                            if len(counts) > 1 else ""))
            share = left / max(K - 1, 1)
            order, default, results = _sequential(
                B, yi, sw, cw, chosen_lam, class_order, cliques, covers,
                {c: list(dict.fromkeys(pools.get(c, []))) for c in labels},
                dict(certify=bool(self.certify), error=self.error,
                     max_conditions=int(self.max_conditions), time_limit=share,
                     pricing_time_limit=min(1.0, share / 3),
                     master_time_limit=min(FINAL_MASTER_SECONDS, share / 3), beam_width=10,
                     max_iterations=60,
                     max_exact_pricings=FINAL_EXACT_PRICINGS))
            self.fits_ = results
            self._finish(B, yi, sw_rows, target, results, terms, fit_sw=sw,
                         sequential=(order, default))
            return
        for c in final_labels:
            y01 = (yi == c).astype(np.int64)
            pool = list(dict.fromkeys(pools.get(c, [])))
            progress.say(f"Final fit at λ = {chosen_lam:.4g}"
                         + (f" for class {self.classes_[c]}" if len(final_labels) > 1 else "")
                         + (f" with {counts[chosen]} thresholds per column"
                            if len(counts) > 1 else "")
                         + f", starting from {len(pool):,} clauses the inner fits found")
            results[c] = column_generation(
                B, y01, self._weights(y01, sw), lam=chosen_lam, cliques=cliques,
                covers=covers, pool=pool, certify=bool(self.certify), error=self.error,
                max_conditions=int(self.max_conditions),
                time_limit=left / len(final_labels),
                pricing_time_limit=min(1.0, left / len(final_labels) / 3),
                master_time_limit=min(FINAL_MASTER_SECONDS, left / len(final_labels) / 3),
                beam_width=10, max_iterations=60, max_exact_pricings=FINAL_EXACT_PRICINGS)
        self.fits_ = results
        self._finish(B, yi, sw_rows, target, results, terms, fit_sw=sw)

    def _cv_paths(self, B, yi, sw, folds, jobs, lams, binarizer, per_fit, n_thr,
                  scales) -> list:
        """Every inner fit's λ path on one term matrix (joblib, ``n_jobs``); fold f's λ are
        ``lams × scales[f]``."""
        cliques = binarizer.conflict_cliques("and")
        covers = binarizer.conflict_covers("and")
        what = f" with {n_thr} thresholds per column" if n_thr is not None else ""
        progress.say(f"Cross-validation{what}: {len(jobs)} inner fits along {len(lams)} "
                     "values of λ")
        # with someone listening, take each path as it comes back, to say how far it is
        streamed = progress.active() and _streams_results()
        paths = []
        for path in Parallel(n_jobs=self.n_jobs,
                             return_as="generator" if streamed else "list")(
                delayed(_path)(B[folds[f][0]], (yi[folds[f][0]] == c).astype(np.int64),
                               self._weights((yi[folds[f][0]] == c).astype(np.int64),
                                             sw[folds[f][0]]),
                               np.asarray(lams) * scales[f], c, f, cliques, covers,
                               self._opts(per_fit))
                for f, c in jobs):
            paths.append(path)
            if streamed:
                progress.say(f"Cross-validation{what}: {len(paths)} of {len(jobs)} inner "
                             "fits done")
        return paths

    def _cv_sequential(self, B, yi, sw, cw, folds, lams, class_order, binarizer, per_fit,
                       n_thr, scales) -> list:
        """Every inner fold's sequential rule lists along λ (joblib, ``n_jobs``); fold f's λ
        are ``lams × scales[f]``."""
        cliques = binarizer.conflict_cliques("and")
        covers = binarizer.conflict_covers("and")
        what = f" with {n_thr} thresholds per column" if n_thr is not None else ""
        progress.say(f"Cross-validation{what}: the class-by-class rule list on {len(folds)} "
                     f"inner folds along {len(lams)} values of λ")
        return list(Parallel(n_jobs=self.n_jobs)(
            delayed(_sequential_path)(B[tr], yi[tr], sw[tr], cw, np.asarray(lams) * scales[f],
                                      class_order, f, cliques, covers, self._opts(per_fit))
            for f, (tr, _) in enumerate(folds)))

    def _cv_table(self, B, yi, sw, D, folds, paths, labels, lams, total, seq_paths=(),
                  kinds=(None,)) -> list[dict]:
        """Per (class described or list construction, λ): the mean and std over the folds of
        the weighted validation error, and the mean conditions."""
        K = len(self.classes_)
        rows = []
        for c, kind in ([(c, None) for c in labels] if K == 2 else [(None, k) for k in kinds]):
            for li, lam in enumerate(lams):
                errs, conds, cut = [], [], 0
                for f, (tr, va) in enumerate(folds):
                    mine = [p for p in paths if p.fold == f]
                    if K == 2:
                        p = next(p for p in mine if p.label == c)
                        pred = _dnf_fires(B[va], p.clauses[li])
                        wrong = pred != (yi[va] == c)
                        n_c = sum(len(S) for S in p.clauses[li])
                        cut += p.timed_out[li]
                    else:
                        if kind == "sequential":
                            sp = next(p for p in seq_paths if p.fold == f)
                            order, default = sp.lists[li]
                            cut += sp.timed_out[li]
                        else:
                            dnfs = {p.label: p.clauses[li] for p in mine}
                            order, default = _rule_list(B[tr], yi[tr], sw[tr], dnfs, K)
                            cut += sum(p.timed_out[li] for p in mine)
                        wrong = _list_predict(B[va], order, default) != yi[va]
                        n_c = sum(len(S) for _, S in order)
                    if D[va].sum() > 0:  # a fold of weightless rows measures nothing
                        errs.append(float(D[va] @ wrong / D[va].sum()))
                    conds.append(n_c)
                rows.append({"describe": None if c is None else self.classes_[c],
                             "multiclass": kind, "label": c, "lam": float(lam),
                             "kappa": 1.0 / (float(lam) * total),
                             "error": float(np.mean(errs)) if errs else np.nan,
                             "error_std": float(np.std(errs, ddof=1)) if len(errs) > 1
                             else 0.0, "conditions": float(np.mean(conds)),
                             "timed_out": int(cut)})
        return rows

    def _finish(self, B, yi, sw, target, results, terms, fit_sw=None,
                sequential: tuple | None = None) -> None:
        """Set the fitted attributes.  ``sw``: sample weights (rule_stats_, predict_proba);
        ``fit_sw``: the fits' weights (a dict's class weights included), which order the
        rule list and choose its default as in the inner CV; ``sequential``: the (order,
        default) of a list built class by class, taken as it is."""
        K = len(self.classes_)
        fit_sw = sw if fit_sw is None else fit_sw

        def rule(S, label):
            return Rule(tuple(terms[j] for j in S), "and", target, label)

        rows = []
        if K == 2:
            c = next(iter(results))
            res = results[c]
            self.described_class_ = self.classes_[c]
            self._order = [(c, tuple(S)) for S in res.clauses]
            other = 1 - c
            self._default = other
            self.rules_ = RuleSet(tuple(rule(S, self.classes_[c]) for S in res.clauses), None,
                                  target, self.classes_[c])
            self.lp_bound_ = res.lp_bound
            # the LP bounds the Hamming objective only: under error="exact" it can lie above
            # objective_ (13.5 against 13, a review), so it certifies nothing
            self.certified_ = res.certified and res.error == "hamming"
            self.mip_gap_ = res.gap if self.certified_ else np.nan
            self.status_ = res.status
            self.objective_ = res.objective
        else:
            self.described_class_ = None
            dnfs = {c: r.clauses for c, r in results.items()}
            self._order, self._default = (sequential if sequential is not None else
                                          _rule_list(B, yi, fit_sw, dnfs, K))
            self.rules_ = RuleList(tuple(rule(S, self.classes_[c]) for c, S in self._order),
                                   self.classes_[self._default], target)
            self.lp_bound_ = float(sum(r.lp_bound for r in results.values()))
            self.certified_ = all(r.certified and r.error == "hamming"
                                  for r in results.values())
            self.mip_gap_ = np.nan
            self.status_ = next((r.status for r in results.values() if r.status != "optimal"),
                                "optimal")
            self.objective_ = float(sum(r.objective for r in results.values()))
        self.rule_ = self.rules_
        # status_ says "optimal" only of a certified optimum: the master MIP's "optimal" is
        # the best choice among the clauses generated, which a notebook read as a proof (a
        # review: status_ "optimal" with certified_ False); that choice is master_status_
        self.master_status_ = self.status_
        proved = self.certified_ and len(self.classes_) == 2 and self.mip_gap_ <= 1e-6
        if self.status_ in ("optimal", "rounded", "support"):
            # proved with no gap, the set is optimal however it was chosen (a proof by a
            # large pricing MIP leaves the choice to the support MIP: colgen)
            self.status_ = "optimal" if proved else "not_proven"
        # the names the other rule models' reports read (rulecore.report, the CLI)
        self.lp_status_ = self.status_
        self.lower_bound_ = self.lp_bound_ if self.certified_ else np.nan
        self.screening_report_ = None
        self.n_rules_ = len(self._order)
        self.n_conditions_ = sum(len(S) for _, S in self._order)
        # per-rule statistics, and predict_proba's class shares (Laplace-smoothed) of the rows
        # each rule decides (the first that holds), the default's last
        first = self._first_terms(B)
        prior = np.bincount(yi, weights=sw, minlength=K) / sw.sum()
        self._proba = np.zeros((len(self._order) + 1, K))
        for t in range(-1, len(self._order)):
            sel = first == t
            counts = np.bincount(yi[sel], weights=sw[sel], minlength=K)
            self._proba[t] = (counts + prior) / (counts.sum() + 1.0)
        for t, (c, S) in enumerate(self._order):
            f = clause_fires(B, S)
            rows.append({"rule": t + 1, "class": self.classes_[c],
                         "conditions": str(rule(S, self.classes_[c])), "size": len(S),
                         "coverage": float(sw[f].sum() / sw.sum()),
                         "precision": float(sw[f & (yi == c)].sum() / sw[f].sum())
                         if f.any() else np.nan})
        self.rule_stats_ = pd.DataFrame(rows, columns=["rule", "class", "conditions", "size",
                                                       "coverage", "precision"])

    def _first_terms(self, B: np.ndarray) -> np.ndarray:
        """Index of the deciding rule per row on a term matrix (−1: otherwise)."""
        return _first_rule(B, self._order)

    # ------------------------------------------------------------------ predict
    def _terms_for_predict(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "rules_")
        return self.binarizer_.transform(predict_frame(self, X))

    def decision_rule(self, X: Any) -> np.ndarray:
        """Which rule decides each row (0-based, in ``rules_`` order; −1: none holds)."""
        return self._first_terms(self._terms_for_predict(X))

    def fires(self, X: Any) -> np.ndarray:
        """Two classes: where the DNF holds (bool, shape (n_samples,))."""
        return self.decision_rule(X) >= 0

    def predict(self, X: Any) -> np.ndarray:
        """Class labels, shape (n_samples,)."""
        first = self.decision_rule(X)
        idx = np.array([c for c, _ in self._order] + [self._default], dtype=np.int64)
        return self.classes_[idx[first]]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Shape (n_samples, n_classes): class shares of the training rows the same rule
        decided (Laplace-smoothed towards the class prior).  Frequencies, not the
        class-weighted shares that chose the rules: with ``class_weight`` ``predict`` need not
        be ``argmax(predict_proba)`` (see :meth:`BooleanRuleClassifier.predict_proba`)."""
        first = self.decision_rule(X)  # checks the fit before _proba is read
        return self._proba[first]

    def clause_table(self, X: pd.DataFrame, y: np.ndarray) -> pd.DataFrame:
        """Per rule: conditions, class, coverage and precision on the data given."""
        B = self._terms_for_predict(X)
        y = np.asarray(y)
        rows = []
        for t, (c, S) in enumerate(self._order):
            f = clause_fires(B, S)
            rows.append({"clause": t + 1, "class": self.classes_[c],
                         "conditions": str(self.rules_.clauses[t]), "size": len(S),
                         "coverage": float(f.mean()) if len(f) else np.nan,
                         "precision": float((y[f] == self.classes_[c]).mean())
                         if f.any() else np.nan})
        # the columns even without a clause (an empty set predicts the other class)
        return pd.DataFrame(rows, columns=["clause", "class", "conditions", "size",
                                           "coverage", "precision"])
