"""Boolean terms: the columns of the sensing matrix A (docs/terms.md).

A :class:`Term` is a predicate on one column: ``x <= θ`` / ``x > θ`` for numeric columns,
``x == v`` / ``x != v`` for categorical ones, and ``x is missing`` / ``x is not missing`` for
a column with missing values.  :class:`Binarizer` learns the terms from a table and evaluates
them, vectorised per column (one broadcast comparison for all thresholds of a column; never a
loop over rows).

Missing values make every comparison on that column false, negations included, so a row with
an unknown salary satisfies neither ``salary <= 75000`` nor ``salary > 75000``; only
``salary is missing`` holds there (docs/terms.md, "Missing values").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from rulecore.data import CLOCK_COLUMNS, UNIT_COLUMNS, Kind, infer_kind
from rulecore.encode import checked_array, require_bool, whole_number
from rulecore.exceptions import DataError, ParameterError
from rulecore.scales import level_order, ranks

Op = Literal["<=", ">", "==", "!=", "is missing", "is not missing"]
_NEGATE: dict[str, Op] = {"<=": ">", ">": "<=", "==": "!=", "!=": "==",
                          "is missing": "is not missing", "is not missing": "is missing"}
#: The two tests of presence.  Their term's value is the column's kind: in a numeric column
#: text that is not a number is missing too, as every threshold term reads it.
MISSING_OPS = ("is missing", "is not missing")


def format_value(v: Any) -> str:
    """A threshold or level as a person would write it (no '7e+04'), and exactly: the
    shortest decimal that reads back as the same number.  Thresholds are made short where
    they are chosen (:func:`_short_between`: '1.75', not '1.7500000001'); cutting the print
    to six decimals instead turned a threshold of 6.5e-07 into '0.000001', and the exported
    SQL then chose 135 rows where the rule chose 83 (a review of the exports)."""
    if isinstance(v, (float, np.floating)):
        if float(v).is_integer() and abs(v) < 1e15:
            return str(int(v))
        return np.format_float_positional(float(v), unique=True, trim="-")
    return str(v)


#: How a missing cell may be spelt in a column of numbers (compared without capitals):
#: none of them is a number written another way (:meth:`Binarizer.check_like_fit`).
_NO_VALUE = frozenset({"na", "n/a", "nan", "null", "none", "-", "--", "?", "\\n", "#n/a",
                       "<na>", "missing", "unknown", "n.a.", "."})


def _one_line(text: Any) -> str:
    """A level as written in a rule's text, its line breaks as ``\\n``.

    A free-text level (a help-desk note) printed its break in the checklist, which then
    ran over two lines (a stranger's export); the code exports and JSON keep the value.
    """
    text = str(text)
    return text.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\r")


def clock_time(hours: float) -> str:
    """Hours after midnight as a time of day, to the second: ``17:23``, ``06:05:30``."""
    seconds = int(round(float(hours) * 3600))
    h, rest = divmod(seconds, 3600)
    m, sec = divmod(rest, 60)
    return f"{h:02d}:{m:02d}" + (f":{sec:02d}" if sec else "")


#: Spellings of True/False that compare equal to 1/0 (:func:`level_keys`; the exported
#: Python and SQL use the same table).
BOOL_LEVELS = {"True": "1", "False": "0", "true": "1", "false": "0", "TRUE": "1", "FALSE": "0"}


_WHOLE_FLOAT_TEXT = re.compile(r"-?\d{1,15}\.0+")


def _level_text(v: Any) -> str:
    """One value as a level is written: ``0`` for 0, 0.0 and ``np.int64(0)``, ``True`` for
    a bool, other values as text."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    v = str(v)
    # "1.0": how a float flag's level was written before (rules saved as JSON then still
    # match the flag's rows)
    return v[:v.index(".")] if _WHOLE_FLOAT_TEXT.fullmatch(v) else v


def level_text(column: pd.Series) -> pd.Series:
    """The levels of a column as text, whatever its dtype (:func:`_level_text`): a 0/1
    column reads ``0``/``1`` typed as int, float or Int64."""
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        v = column.to_numpy(dtype=float, na_value=np.nan)
        whole = np.isfinite(v) & (v == np.round(v)) & (np.abs(v) < 1e15)
        out = np.full(len(v), None, dtype=object)
        # whole numbers through their distinct values (a 0/1 flag: two), the rest as pandas
        # writes them
        u, inv = np.unique(v[whole].astype(np.int64), return_inverse=True)
        out[whole] = np.array([str(x) for x in u], dtype=object)[inv]
        rest = ~whole & column.notna().to_numpy()
        if rest.any():
            out[rest] = column[rest].astype(str).to_numpy(dtype=object)
        return pd.Series(out, index=column.index, dtype=object)
    # text, categories, bools, mixed objects: each distinct value written once (a million
    # rows of a few levels cost one hash pass, not a million Python calls)
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    texts = np.array([_level_text(u) for u in uniques] + [None], dtype=object)
    return pd.Series(texts[codes], index=column.index, dtype=object)


def level_keys(column: pd.Series | np.ndarray) -> np.ndarray:
    """What a level compares as: its text (:func:`level_text`) with True/False as 1/0.

    A rule learnt on a 0/1 column typed int matched nothing on a later batch typed float
    (``'0'`` against ``'0.0'``), and one learnt on a bool column nothing on 0/1 (a notebook
    review); the text keeps the level's look for people (``flag == True``), the key makes
    True, 1, 1.0, ``"1"`` and ``"True"`` one value.
    """
    text = level_text(pd.Series(column)).to_numpy(dtype=object)
    flagged = np.isin(text, list(BOOL_LEVELS))
    if flagged.any():
        text = text.copy()
        text[flagged] = [BOOL_LEVELS[t] for t in text[flagged]]
    return text


def level_key(value: Any) -> str:
    """:func:`level_keys` of one level (a term's value)."""
    t = _level_text(value)
    return BOOL_LEVELS.get(t, t)


def positive_rows(y: Any, positive: Any) -> np.ndarray:
    """0/1 of shape (n_samples,): 1 where a label of ``y`` is ``positive`` (compared as
    levels, :func:`level_keys`: 1, 1.0, "1" and True are one).

    ``y`` may also be the 0/1 coding already (1: ``positive``), which is read so only where
    it cannot be labels: ``positive`` is text that is no number ("yes") and ``y`` holds only
    0 and 1.  Reading every 0/1 ``y`` as the coding gave the wrong class's precision for a
    rule of class 0, and for class 2 of labels 1/2 on rows of class 1 only (a notebook
    review)."""
    y = np.asarray(y)
    codes, uniques = pd.factorize(pd.Series(y, dtype=object))  # missing: code -1
    keys = level_keys(pd.Series(uniques, dtype=object))
    pos = level_key(positive)
    coded = (isinstance(positive, str) and pd.isna(pd.to_numeric(positive, errors="coerce"))
             and pos not in set(keys) and set(keys) <= {"0", "1"})
    hit = keys == ("1" if coded else pos)
    return np.where(codes >= 0, hit[np.maximum(codes, 0)] if len(hit) else False,
                    False).astype(np.int64)


@dataclass(frozen=True)
class Term:
    """One Boolean condition ``feature op value``.

    Attributes
    ----------
    feature : str
        Column name.
    op : {"<=", ">", "==", "!=", "is missing", "is not missing"}
        Comparison.
    value : float or str
        Threshold (numeric) or level (categorical, ordinal); for the two missing tests the
        column's kind, ``"numeric"``, ``"categorical"`` or ``"ordinal"`` (how a cell is read
        as missing).
    order : tuple of str, optional
        An ordinal column's levels, lowest first (:mod:`rulecore.scales`): ``x <= v`` then
        holds for ``v`` and the levels below it, and a cell outside the order is missing.
    clock : bool, default=False
        The column is a time of day in hours after midnight (``14:30`` is 14.5): the
        threshold is written as the time it is, ``pickup_time > 17:23``; as ``17.39`` it read
        as 17:39 (an analyst's review).  Only the writing: equal terms compare equal.
    unit : str, default=""
        The unit of a numeric column read from numbers written with one (``72 kg``, an
        interval as hours): the threshold is written with it, ``weight > 80 kg``
        (:data:`rulecore.data.UNIT_COLUMNS`).  Only the writing, as ``clock``.
    """

    feature: str
    op: Op
    value: Any
    order: tuple[str, ...] | None = None
    clock: bool = field(default=False, compare=False)
    unit: str = field(default="", compare=False)

    def __str__(self) -> str:
        if self.op in MISSING_OPS:
            return f"{self.feature} {self.op}"
        if self.ordinal and len(self.levels_held()) == 1:
            # "band <= Low" on the lowest level is "band == Low", and reads so
            return f"{self.feature} == {_one_line(self.levels_held()[0])}"
        if self.clock and self.numeric:
            return f"{self.feature} {self.op} {clock_time(self.value)}"
        shown = format_value(self.value)
        if self.numeric:
            return f"{self.feature} {self.op} {shown}" + (f" {self.unit}" if self.unit else "")
        return f"{self.feature} {self.op} {_one_line(shown)}"

    @property
    def missing_test(self) -> bool:
        """``x is missing`` or ``x is not missing``."""
        return self.op in MISSING_OPS

    @property
    def numeric(self) -> bool:
        """A threshold on numbers (``<=``, ``>`` on a numeric column)."""
        return self.op in ("<=", ">") and self.order is None

    @property
    def ordinal(self) -> bool:
        """A threshold on an ordered scale (``<=``, ``>`` with a level)."""
        return self.op in ("<=", ">") and self.order is not None

    def position(self) -> int:
        """An ordinal term's level: its place in ``order`` (0 = lowest)."""
        return [level_key(v) for v in self.order or ()].index(level_key(self.value))

    def levels_held(self) -> tuple[str, ...]:
        """The levels an ordinal term holds for, in order (``x <= Medium``: Low, Medium;
        ``x is not missing``: all)."""
        if self.missing_test:
            return () if self.op == "is missing" else tuple(self.order or ())
        pos = self.position()
        return self.order[: pos + 1] if self.op == "<=" else self.order[pos + 1:]

    def negate(self) -> Term:
        """The opposite condition (same column, same value)."""
        return Term(self.feature, _NEGATE[self.op], self.value, self.order, self.clock,
                    self.unit)

    def evaluate(self, column: pd.Series | np.ndarray) -> np.ndarray:
        """Boolean array: does each value satisfy the term?  Missing values give False,
        except for ``x is missing``."""
        s = pd.Series(column)
        if self.order is not None:  # an ordered scale: positions, NaN off the scale
            r = ranks(s, self.order)
            if self.missing_test:
                return np.isnan(r) if self.op == "is missing" else ~np.isnan(r)
            with np.errstate(invalid="ignore"):  # NaN fails both ways
                return r <= self.position() if self.op == "<=" else r > self.position()
        if self.missing_test:  # read as the column's other terms read it
            missing = (np.isnan(pd.to_numeric(s, errors="coerce").to_numpy(dtype=float))
                       if self.value == "numeric" else s.isna().to_numpy())
            return missing if self.op == "is missing" else ~missing
        if self.numeric:
            v = pd.to_numeric(s, errors="coerce").to_numpy(dtype=float)
            with np.errstate(invalid="ignore"):
                return v <= self.value if self.op == "<=" else v > self.value
        present = s.notna().to_numpy()
        eq = level_keys(s) == level_key(self.value)
        return eq & present if self.op == "==" else ~eq & present

    def to_dict(self) -> dict:
        value = self.value.item() if isinstance(self.value, np.generic) else self.value
        out = {"feature": self.feature, "op": self.op, "value": value}
        if self.order is not None:
            out["order"] = list(self.order)
        if self.clock:
            out["clock"] = True
        if self.unit and self.numeric:
            out["unit"] = self.unit
        return out

    @classmethod
    def from_dict(cls, d: dict) -> Term:
        if d.get("op") not in _NEGATE:
            raise DataError(f"Unknown operator {d.get('op')!r} in a rule condition.")
        order = d.get("order")
        if order is not None:
            if not isinstance(order, list) or len(order) < 2:
                raise DataError("An ordinal condition's 'order' must list its levels.")
            order = tuple(str(v) for v in order)
            if len({level_key(v) for v in order}) < len(order):
                # "Low" twice, or "1" and "1.0": predict and the exports read such an order
                # apart (a review)
                raise DataError(f"An ordinal condition's 'order' must list each level once "
                                f"(got {list(order)!r}).")
        if d["op"] in MISSING_OPS:
            value = "ordinal" if order is not None else \
                "numeric" if d.get("value") == "numeric" else "categorical"
        elif order is not None:
            if d["op"] not in ("<=", ">") or level_key(d.get("value")) not in \
                    {level_key(v) for v in order}:
                raise DataError(f"An ordinal condition compares with a level of its order, "
                                f"not {d.get('op')} {d.get('value')!r}.")
            value = str(d["value"])
        elif d["op"] in ("<=", ">"):
            value = float(d["value"])
        else:  # a level keeps its JSON type: True came back as "True", unequal (a review)
            value = d["value"] if isinstance(d["value"], (str, bool, int, float)) \
                else str(d["value"])
        numeric = d["op"] in ("<=", ">") and order is None
        return cls(str(d["feature"]), d["op"], value, order,
                   clock=d.get("clock") is True and numeric,
                   unit=str(d["unit"]) if numeric and isinstance(d.get("unit"), str) else "")


def _short_between(lo: float, hi: float) -> float:
    """The midpoint of (lo, hi), rounded to the fewest significant digits that stay inside.

    Thresholds then print short ("1.75", "75000") and the printed value is the value used,
    so a rule read off the screen classifies exactly like the model.
    """
    mid = lo / 2.0 + hi / 2.0  # no overflow near ±1.8e308
    for digits in range(1, 18):
        r = float(f"{mid:.{digits}g}")
        if lo < r < hi:
            return r
    # No float strictly between (adjacent doubles): "x <= lo" splits the same way.
    return lo


def candidate_thresholds(values: np.ndarray, n_thresholds: int | None,
                         weights: np.ndarray | None = None) -> np.ndarray:
    """Thresholds between consecutive distinct values.

    ``n_thresholds=None`` gives every midpoint ("all thresholds"); otherwise the values at the
    ``i/(D+1)`` quantiles (i = 1..D) are each replaced by the split just above them, and
    duplicates dropped (``docs/terms.md``), so at most ``D`` thresholds, fewer for columns with
    few distinct values.  With ``weights`` the quantiles are weighted (numpy's "lower" method
    on the rows repeated by their integer weights) and rows of weight 0 take no part.
    """
    finite = np.isfinite(values)
    if weights is not None:
        finite &= weights > 0
    v = values[finite]
    u = np.unique(v)
    if len(u) < 2:
        return np.empty(0)
    if n_thresholds is None or n_thresholds >= len(u) - 1:
        lows = np.arange(len(u) - 1)
    else:
        probs = np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
        if weights is None:
            q = np.quantile(v, probs, method="lower")
        else:
            # "lower" on repeated rows takes the sorted value at position ⌊p (W − 1)⌋, W the
            # total weight: the first value whose cumulative weight exceeds p (W − 1).
            cw = np.cumsum(np.bincount(np.searchsorted(u, v), weights=weights[finite],
                                       minlength=len(u)))
            q = u[np.minimum(np.searchsorted(cw, probs * (cw[-1] - 1), side="right"),
                             len(u) - 1)]
        lows = np.unique(np.clip(np.searchsorted(u, q), 0, len(u) - 2))
    return np.array([_short_between(u[i], u[i + 1]) for i in lows])


def _level_counts(column: pd.Series, weights: np.ndarray | None) -> pd.Series:
    """Levels (as text) by (weighted) count, most frequent first; ties in first-seen order."""
    present = column.notna().to_numpy()
    text = level_text(column[present])
    if weights is None:
        return text.value_counts(sort=True)
    return pd.Series(weights[present], index=text.to_numpy()).groupby(
        level=0, sort=False).sum().sort_values(ascending=False, kind="stable")


class Binarizer(TransformerMixin, BaseEstimator):
    """Turn a table into Boolean terms.

    Parameters
    ----------
    n_thresholds : int, default=10
        Quantile thresholds per numeric column (deduplicated).  Ignored when
        ``thresholds="all"``.
    thresholds : {"quantile", "all"}, default="quantile"
        ``"all"`` uses every midpoint between consecutive distinct values.
    negations : bool, default=True
        Also emit the opposite of each term (``>`` beside ``<=``, ``!=`` beside ``==``,
        ``is not missing`` beside ``is missing``).
    max_levels : int, default=50
        Categorical columns get terms for their ``max_levels`` most frequent levels only.
    kinds : dict, optional
        Column kinds (``"numeric"``, ``"categorical"``, ``"ordinal"``); inferred with
        :func:`rulecore.data.infer_kind` when missing.  An ordinal column takes its order
        from an ordered pandas ``Categorical`` (all its categories) or from a known scale
        (:func:`rulecore.scales.level_order`).
    missing_tests : {"once", "each"}, default="once"
        ``"once"``: a column whose missing cells are exactly an earlier column's (or, with
        negations, exactly where it has a value) gets no missing tests of its own, the
        earlier column's saying the same of every row (``docs/terms.md``, "Missing values").
        ``"each"``: every column with a missing cell gets its own, as a fit that forbids or
        requires columns needs (forbidding the earlier column took the later one's tests
        away too: a review).

    Attributes
    ----------
    terms_ : list of Term
        The terms, in output-column order (per column: ``<=`` terms by threshold, then ``>``;
        or ``==`` then ``!=`` by level; then ``is missing``, ``is not missing`` when some
        training row misses the column).
    feature_names_in_ : ndarray of str
        Input columns.
    kinds_ : dict
        Column kind used for every input column.
    """

    def __init__(self, n_thresholds: int = 10, thresholds: str = "quantile",
                 negations: bool = True, max_levels: int = 50,
                 kinds: dict[str, Kind] | None = None, missing_tests: str = "once") -> None:
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.negations = negations
        self.max_levels = max_levels
        self.kinds = kinds
        self.missing_tests = missing_tests

    def _frame(self, X: Any, fitting: bool = False) -> pd.DataFrame:
        if isinstance(X, pd.DataFrame):
            # terms name columns by text: pd.DataFrame(array)'s 0, 1, 2 ended in pandas'
            # KeyError '0' (a notebook review)
            if not all(isinstance(c, str) for c in X.columns):
                from rulecore.encode import text_names  # refuses 0 beside "0"

                X = text_names(X)
            return X
        # scikit-learn's checks for an array: 2-D, not complex, not sparse, not empty (NaN is
        # a missing cell, inf lies above every threshold, as in a frame); its messages are the
        # ones scikit-learn users know, as DataError
        arr = checked_array(X)
        names = None if fitting else getattr(self, "feature_names_in_", None)
        if names is not None and len(names) != arr.shape[1]:
            raise DataError(f"X has {arr.shape[1]} features, but {type(self).__name__} is "
                            f"expecting {len(names)} features as input (the terms were built "
                            "on that many columns).")
        cols = list(names) if names is not None else [f"x{i}" for i in range(arr.shape[1])]
        return pd.DataFrame(arr, columns=cols)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # a missing cell fails every comparison
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        tags.transformer_tags.preserves_dtype = []  # terms are booleans
        return tags

    def fit(self, X: pd.DataFrame, y: Any = None, sample_weight: Any = None) -> Binarizer:
        """Learn thresholds and levels from ``X`` of shape (n_samples, n_features).

        With ``sample_weight`` (shape (n_samples,)) the quantiles and level counts are
        weighted, rows of weight 0 take no part, and integer weights act like repeated rows.
        """
        if self.thresholds not in ("quantile", "all"):
            raise ParameterError("thresholds must be 'quantile' or 'all'.")
        if self.missing_tests not in ("once", "each"):
            raise ParameterError("missing_tests must be 'once' or 'each'.")
        if self.thresholds == "quantile" and not (
                whole_number(self.n_thresholds) and self.n_thresholds >= 1):
            # 2.5 was cut to 2 without a word (a notebook review)
            raise ParameterError("n_thresholds must be a whole number of at least 1, not "
                                 f"{self.n_thresholds!r}.")
        require_bool(self.negations, "negations")
        X = self._frame(X, fitting=True)
        # a kind for a column the table lacks, or a kind misspelled, was silently ignored or
        # read as categorical (a notebook review: kinds={"agee": ...}, "catgorical")
        if self.kinds is not None and not isinstance(self.kinds, Mapping):
            # kinds="numeric" reached the user as AttributeError (a notebook review)
            raise ParameterError("kinds must be a dict {column: 'numeric', 'categorical' or "
                                 f"'ordinal'}}, not {self.kinds!r}.")
        wrong = {c: k for c, k in (self.kinds or {}).items()
                 if k not in ("numeric", "categorical", "ordinal")}
        if wrong:
            raise ParameterError(f"Unknown column kind{'s' if len(wrong) > 1 else ''} "
                                 f"{', '.join(f'{c!r}: {k!r}' for c, k in wrong.items())}; a "
                                 "kind is 'numeric', 'categorical' or 'ordinal'.")
        unknown = [str(c) for c in (self.kinds or {}) if str(c) not in map(str, X.columns)]
        if unknown:
            raise ParameterError(f"kinds names {', '.join(map(repr, unknown))}, which X does not "
                                 f"have; its columns are "
                                 f"{', '.join(map(repr, map(str, list(X.columns)[:20])))}"
                                 f"{' ...' if X.shape[1] > 20 else ''}.")
        sw = None
        if sample_weight is not None:
            sw = np.asarray(sample_weight, dtype=float)
            if sw.shape != (len(X),):
                raise DataError(f"Got {sw.size} sample weights for {len(X)} rows.")
            if not np.all(sw > 0):
                if not np.any(sw > 0):
                    raise DataError("Every sample weight is zero: no row takes part.")
                X, sw = X[sw > 0], sw[sw > 0]
        if X.shape[0] == 0 or X.shape[1] == 0:
            raise DataError("Cannot build terms from an empty table.")
        self.feature_names_in_ = np.asarray([str(c) for c in X.columns], dtype=object)
        kinds = dict(self.kinds or {})
        self.kinds_ = {}
        for c in self.feature_names_in_:
            try:
                self.kinds_[c] = kinds.get(c) or infer_kind(X[c])
            except TypeError:  # unhashable cells: pandas' "unhashable type: 'dict'"
                raise DataError(f"Column {c!r} holds structures (lists or dicts), not "
                                "values: flatten it into columns first.") from None
        n_thr = None if self.thresholds == "all" else int(self.n_thresholds)
        # per column: (name, kind, thresholds or levels, their ops, the missing tests)
        self._plan: list[tuple[str, Kind, np.ndarray, list[Op], list[Op]]] = []
        self._n_levels: dict[str, int] = {}  # distinct levels seen, per categorical column
        self._orders: dict[str, tuple[str, ...]] = {}  # levels in order, per ordinal column
        terms: list[Term] = []
        # the missing patterns that have their tests already (and with negations their
        # complements, which "is not missing" says): a date's parts are missing together, a
        # deal's 'Won time' where its 'Lost time' is not, and two tests of one pattern made
        # the rule that fires on no row two conditions away ("d (year) is missing AND d
        # (month) is not missing", docs/terms.md, "Missing values")
        said: set[bytes] = set()
        clocks = set(X.attrs.get(CLOCK_COLUMNS, ()))
        units = dict(X.attrs.get(UNIT_COLUMNS) or {})
        for col in self.feature_names_in_:
            if self.kinds_[col] == "numeric":
                v = pd.to_numeric(X[col], errors="coerce").to_numpy(dtype=float)
                thr = candidate_thresholds(v, n_thr, sw)
                if col in clocks and len(thr):
                    # a time of day splits at the last time below the cut: "x > 17:23" holds
                    # from the next time seen on, as the midpoint did, and reads as a time
                    seen = np.unique(v[np.isfinite(v)])
                    thr = np.unique(seen[np.searchsorted(seen, thr, side="right") - 1])
                ops: list[Op] = ["<=", ">"] if self.negations else ["<="]
                gaps = np.isnan(v)
                # both missing and present cells: on a column with no value every comparison
                # is empty and "x is not missing" would never fire (a review)
                missing = bool(gaps.any() and not gaps.all())
            elif self.kinds_[col] == "ordinal":
                # the whole order an ordered Categorical carries (a fold of the rows may
                # hold two of its levels), else the levels these rows hold
                order = level_order(X[col], min_levels=1)
                if order is None:
                    raise DataError(
                        f"Column {col!r} is read as ordered, but its levels are not a known "
                        "scale (rulecore.scales): pass it as an ordered pandas Categorical, or "
                        "read it as categorical.")
                self._orders[col] = order
                r = ranks(X[col], order)
                # thresholds between the positions present, as for numbers; "x <= v" names
                # the highest level present below the threshold
                seen = np.unique(r[np.isfinite(r)])
                thr = np.array([order[int(seen[np.searchsorted(seen, t) - 1])]
                                for t in candidate_thresholds(r, n_thr, sw)], dtype=object)
                ops = ["<=", ">"] if self.negations else ["<="]
                gaps = np.isnan(r)  # a level off the scale is missing, as text among numbers
                missing = bool(gaps.any() and not gaps.all())
            else:
                gaps = X[col].isna().to_numpy()
                missing = bool(gaps.any() and not gaps.all())
                try:
                    counts = _level_counts(X[col], sw)
                except TypeError:  # unhashable cells: pandas' "unhashable type: 'dict'"
                    raise DataError(f"Column {col!r} holds structures (lists or dicts), not "
                                    "values: flatten it into columns first.") from None
                self._n_levels[col] = len(counts)
                thr = np.asarray(counts.index[: self.max_levels], dtype=object)
                if len(counts) == 2:
                    # For a two-level column "x != a" is "x == b": keep only the == terms.
                    ops = ["=="]
                else:
                    ops = ["==", "!="] if self.negations else ["=="]
            # Missingness can carry the signal ("no complication recorded"), and every
            # comparison fails on a missing cell, so only these terms can say it
            # (docs/terms.md, "Missing values").
            mops: list[Op] = ([] if not missing else list(MISSING_OPS) if self.negations
                              else ["is missing"])
            if mops and self.missing_tests == "once":
                key = np.packbits(gaps).tobytes()
                if key in said:
                    mops = []
                said.add(key)
                if self.negations:
                    said.add(np.packbits(~gaps).tobytes())
            self._plan.append((col, self.kinds_[col], thr, ops, mops))
            order = self._orders.get(col)
            terms += [Term(col, op, t, order, col in clocks, units.get(col, ""))
                      for op in ops for t in thr]
            terms += [Term(col, op, self.kinds_[col], order) for op in mops]
        self.terms_ = terms
        self.n_features_in_ = len(self.feature_names_in_)
        return self

    def check_like_fit(self, X: pd.DataFrame, columns: Any = None) -> None:
        """Raise :class:`DataError` where a column of ``X`` (of ``columns`` only, when given:
        those a fitted rule reads) is not written as it was at fit.

        Evaluated anyway, such a column changes the answers without a word (a notebook
        review): a numeric column arriving as text with decimal commas ('2,5') or as a word
        is missing in every row, so each of its comparisons is false (374 of 569 predictions
        flipped on breast cancer); zip codes learned as text ('02134') arriving as numbers
        (2134, as ``pd.read_csv`` reads them) lose their leading zeros and match no level.
        A zip of 10001 read as a number still matches '10001': only numbers that were a
        level with its zeros are refused (an adversarial review).
        """
        used = None if columns is None else {str(c) for c in columns}
        for col, kind, thr, _ops, _mops in self._plan:
            if used is not None and col not in used:
                continue
            s = X[col]
            if kind == "numeric" and not pd.api.types.is_numeric_dtype(s) and \
                    not pd.api.types.is_bool_dtype(s):
                text = s[s.notna()].astype(str).str.strip()
                text = text[(text != "") & ~text.str.casefold().isin(_NO_VALUE)]
                bad = text[pd.to_numeric(text, errors="coerce").isna()]
                if len(bad) and len(bad) * 2 > len(text):
                    raise DataError(
                        f"Column {col!r} held numbers when the model was fitted, but "
                        f"{len(bad):,} of its {len(text):,} values here are not numbers "
                        f"(such as {bad.iloc[0]!r}), and every comparison on them would be "
                        "false. Convert it to numbers as it was at fit (decimal commas, "
                        "units, thousands separators), or make unknown values missing (NaN).")
            elif kind == "categorical" and pd.api.types.is_numeric_dtype(s) and \
                    not pd.api.types.is_bool_dtype(s):
                padded = {str(t).lstrip("0"): str(t) for t in thr
                          if re.fullmatch(r"0+\d+", str(t))}
                if not padded:
                    continue
                lost = [padded[k] for k in dict.fromkeys(level_text(s).dropna())
                        if k in padded]
                if lost:
                    raise DataError(
                        f"Column {col!r} held text when the model was fitted, with leading "
                        f"zeros ({lost[0]!r}), but numbers here, which lose them "
                        f"({lost[0].lstrip('0')}) and match no level: read it as text "
                        f"(pandas: dtype={{{col!r}: str}}).")

    def transform(self, X: pd.DataFrame, sparse: bool = False) -> np.ndarray | sp.csc_matrix:
        """Evaluate every term: a bool array of shape (n_samples, n_terms).

        With ``sparse=True`` a ``scipy.sparse.csc_matrix`` (column-wise, as the LP wants).
        """
        check_is_fitted(self, "terms_")
        X = self._frame(X)
        missing = [c for c in self.feature_names_in_ if c not in X.columns]
        if missing:
            raise DataError(f"The table lacks the columns {', '.join(map(repr, missing))} the "
                            "terms were built on.")
        # every block is written into its place in A: concatenating the blocks afterwards
        # copied the whole matrix once more (408 MB and 0.7 s on a million rows)
        A = np.empty((len(X), len(self.terms_)), dtype=bool)   # terms_: the same order
        at = 0

        def block(k: int) -> np.ndarray:
            nonlocal at
            at += k
            return A[:, at - k:at]

        for col, kind, thr, ops, mops in self._plan:
            k = len(thr)
            if kind == "numeric":
                v = pd.to_numeric(X[col], errors="coerce").to_numpy(dtype=float)[:, None]
                with np.errstate(invalid="ignore"):   # NaN compares False both ways
                    np.less_equal(v, thr[None, :], out=block(k))
                    if ">" in ops:
                        np.greater(v, thr[None, :], out=block(k))
                present = ~np.isnan(v)
            elif kind == "ordinal":
                order = self._orders[col]
                r = ranks(X[col], order)[:, None]
                pos = np.array([order.index(t) for t in thr], dtype=float)[None, :]
                with np.errstate(invalid="ignore"):  # off the scale: NaN, false both ways
                    np.less_equal(r, pos, out=block(k))
                    if ">" in ops:
                        np.greater(r, pos, out=block(k))
                present = ~np.isnan(r)
            else:
                s = X[col]
                present = s.notna().to_numpy()[:, None]
                keys = np.array([level_key(t) for t in thr], dtype=object)
                eq = block(k)
                np.equal(level_keys(s)[:, None], keys[None, :], out=eq)
                eq &= present
                if "!=" in ops:
                    np.logical_and(present, ~eq, out=block(k))
            for op in mops:
                np.copyto(block(1), ~present if op == "is missing" else present)
        return sp.csc_matrix(A) if sparse else A

    def _blocks(self, rule_type: str) -> Iterator[tuple[str, str, np.ndarray, dict]]:
        """Per input column: (column, kind, thresholds or levels, {op: term indices})."""
        check_is_fitted(self, "terms_")
        if rule_type not in ("and", "or"):
            raise ParameterError("rule_type must be 'and' or 'or'.")
        start = 0
        for col, kind, thr, ops, mops in self._plan:
            k = len(thr)
            idx = {op: start + i * k + np.arange(k) for i, op in enumerate(ops)}
            start += k * len(ops)
            idx.update({op: np.array([start + i]) for i, op in enumerate(mops)})
            start += len(mops)
            yield col, kind, thr, idx

    def conflict_cliques(self, rule_type: str = "and") -> list[np.ndarray]:
        """Groups of terms of which a consistent clause contains at most one.

        Two terms on one column *conflict* in an AND-clause when their conjunction holds for no
        value (a contradiction: ``x <= 3 AND x > 5``) or one implies the other (a redundancy:
        ``x <= 3 AND x <= 5``); in an OR-clause when their disjunction holds for every
        non-missing value (``x <= 5 OR x > 3``) or one implies the other.  "Value" means any
        value, a level never seen included; missing values fail every term (§1), so they
        decide neither.  Every conflicting pair lies in one of the
        returned cliques and no other pair does, so "at most one term of each clique" is
        exactly "no conflicting pair" (docs/terms.md, docs/clause.md).  For the conflicts of
        more than two terms on a categorical column see :meth:`conflict_covers`.

        Numeric column, thresholds θ_1 < ... < θ_D, terms le_i (``x <= θ_i``) and gt_i
        (``x > θ_i``).  le_i and le_j are nested, so are gt_i and gt_j.

        - AND: le_i AND gt_j is ``θ_j < x <= θ_i``, empty iff θ_j ≥ θ_i.  Cliques
          C_k = {le_i : i ≤ k} ∪ {gt_j : j ≥ k}, k = 1..D: le_i and gt_j share one iff
          i ≤ j (C_i), all le lie in C_D, all gt in C_1.
        - OR: le_i OR gt_j is every value iff θ_j ≤ θ_i.  C_k = {le_i : i ≥ k} ∪ {gt_j : j ≤ k}.
        - Without ``>`` terms both reduce to one clique of all le.

        Categorical column, eq_v (``x == v``) for its top levels, ne_v (``x != v``) beside them.

        - AND: eq_a AND eq_b and eq_a AND ne_a are empty, eq_a implies ne_b (b ≠ a); ne_a AND
          ne_b is a legitimate "neither".  Cliques {all eq} ∪ {ne_v} per level v (or {all eq}).
        - OR: ne_a OR ne_b and eq_a OR ne_a are every value, eq_a implies ne_b; eq_a OR eq_b
          is legitimate.  Cliques {all ne} ∪ {eq_v} per level v.

        Missing tests na (``x is missing``) and pr (``x is not missing``), on a column with
        missing training values.  Every other term on the column fails where x is missing.

        - AND: na AND t is empty for every other term t, and t implies pr: both conflict with
          everything on the column.  Each clique above gains na and pr ({na, pr} when the
          column has no other term).
        - OR: pr holds on every present value (a tautology in this sense, excluded by a
          cover of its own, :meth:`conflict_covers`), so it conflicts with every term; na OR t
          is legitimate ("missing or at most 3").  Each clique gains pr, and pr pairs with
          the terms no clique holds and with na.

        Parameters
        ----------
        rule_type : {"and", "or"}
            The clause the terms are joined in.  (For AND-rules the OR problem of
            :mod:`rulecore.rules.problem` complements the matrix, column for column, so these
            indices are its column indices too.)

        Returns
        -------
        list of int ndarray
            Term indices into ``terms_``; each array is a clique of at least two terms, listed
            so that every term lies in a run of consecutive cliques (``bcs.Conflicts``).
        """
        AND = rule_type == "and"
        cliques: list[np.ndarray] = []
        for _, kind, thr, idx in self._blocks(rule_type):
            col: list[np.ndarray] = []
            if kind in ("numeric", "ordinal"):
                # θ ascending (an ordinal column's levels are listed in order already)
                order = np.argsort(np.asarray(thr, dtype=float), kind="stable") \
                    if kind == "numeric" else np.arange(len(thr))
                le = idx["<="][order]
                if ">" not in idx:
                    col.append(le)
                else:
                    gt = idx[">"][order]
                    for i in range(len(thr)):
                        col.append(np.concatenate([le[:i + 1], gt[i:]]) if AND else
                                   np.concatenate([le[i:], gt[:i + 1]]))
            else:
                eq, ne = idx["=="], idx.get("!=")
                if ne is None:
                    if AND:
                        col.append(eq)
                elif AND:
                    col += [np.append(eq, v) for v in ne]
                else:
                    col += [np.append(ne, v) for v in eq]
            na = idx.get("is missing", np.empty(0, dtype=np.int64))
            pr = idx.get("is not missing", np.empty(0, dtype=np.int64))
            if AND and len(na) + len(pr):
                col = [np.concatenate([c, na, pr]) for c in col if len(c)] or \
                    [np.concatenate([na, pr])]
            elif not AND and len(pr):
                # every clique above, then the terms none holds (one clique each, na last):
                # pr lies in a run of consecutive cliques, as bcs.Conflicts needs
                held = set(np.concatenate(col).tolist()) if col else set()
                free = [j for j in np.concatenate([v for v in idx.values()]).tolist()
                        if j not in held and j != int(pr[0])]
                col = [np.append(c, pr) for c in col if len(c)] + \
                    [np.array([j, int(pr[0])]) for j in free]
            cliques += col
        return [c.astype(np.int64) for c in cliques if len(c) >= 2]

    def conflict_covers(self, rule_type: str = "and") -> list[np.ndarray]:
        """Sets of terms that a consistent clause may not contain all of.

        A categorical column whose every level seen in training has a term is *closed*: the
        binarizer already reads it so ("x != a" is "x == b" on a two-level column).  There
        the ne terms of all L levels together are a contradiction in an AND-clause
        (``c != a AND c != b AND c != c`` with levels a, b, c) and the eq terms of all levels
        a tautology in an OR-clause (every known value), so at most L − 1 of them may be
        chosen.  For L = 1 the single term is excluded: ``c != a`` never holds, and
        ``c == a`` alone always does (OR); so is ``x is not missing`` in an OR-clause, which
        holds on every present value; and in an OR-clause with ``c is missing`` the never
        holding ``c != a`` of a one-level column is redundant (a cover of those two).  No
        other set of terms conflicts that :meth:`conflict_cliques` misses: on a numeric
        column an empty conjunction (or a full disjunction) of intervals always has an empty
        (full) pair, on a categorical column a set without a conflicting pair is all ne or
        all eq terms, and a missing test conflicts with every other term of its column but
        for ``x is missing`` in an OR-clause, which conflicts with none but these covers.

        Parameters
        ----------
        rule_type : {"and", "or"}
            The clause the terms are joined in.

        Returns
        -------
        list of int ndarray
            Term indices into ``terms_``; at most ``len(cover) - 1`` of each may be chosen.
        """
        op = "!=" if rule_type == "and" else "=="
        covers: list[np.ndarray] = []
        for col, kind, thr, idx in self._blocks(rule_type):
            # (a column without a level, all missing, has no such set: an empty "cover"
            # made every clause inconsistent, the empty one included: a review)
            closed = kind == "categorical" and len(thr) and \
                getattr(self, "_n_levels", {}).get(col) == len(thr)
            if closed and op in idx:
                covers.append(idx[op].astype(np.int64))
            if rule_type == "or" and "is not missing" in idx:
                # "x is not missing" alone holds on every present value (a tautology, as all
                # levels' == terms are): at most 0 of it
                covers.append(idx["is not missing"].astype(np.int64))
            if rule_type == "or" and closed and len(thr) == 1 and "!=" in idx \
                    and "is missing" in idx:
                # "x != a" holds on no seen value of a one-level column: redundant beside
                # "x is missing" (an unseen level would satisfy it)
                covers.append(np.concatenate([idx["!="], idx["is missing"]]).astype(np.int64))
        return covers

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        check_is_fitted(self, "terms_")
        return np.asarray([str(t) for t in self.terms_], dtype=object)

    def term_counts(self) -> pd.DataFrame:
        """Number of terms per input column, as a frame (column, kind, thresholds or levels,
        terms)."""
        check_is_fitted(self, "terms_")
        rows = [{"column": col, "kind": kind, "thresholds or levels": len(thr),
                 "terms": len(thr) * len(ops) + len(mops)}
                for col, kind, thr, ops, mops in self._plan]
        return pd.DataFrame(rows)

    def term_frame(self, X: pd.DataFrame, rows: int | None = None) -> pd.DataFrame:
        """The term matrix as a DataFrame with readable column names (for display)."""
        X = self._frame(X)
        if rows is not None:
            X = X.head(rows)
        return pd.DataFrame(self.transform(X), columns=self.get_feature_names_out(),
                            index=X.index)
