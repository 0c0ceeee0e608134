"""Turning a table into numbers for numeric models, within a memory budget.

Numeric models (sparse SVM / logistic, datum-wise, bilinear reduction, scikit-learn baselines)
need a float matrix.  :func:`to_numeric` makes one: numeric columns as they are (missing values
become the column median), categorical columns one 0/1 column per level.  A categorical column
with many levels (a name, a free-text field) would give one column per distinct value, tens of
thousands of them on a real table, so only its ``max_levels`` most frequent levels get a column
and every other value goes to one ``"<col>=(other)"`` column.

Before a large dense allocation, code estimates its size and calls :func:`check_memory`, which
refuses with a :class:`~rulecore.exceptions.DataError` saying how much, why and what to change,
instead of letting the process die (or swap) on a ``MemoryError``.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from rulecore.exceptions import DataError, ParameterError
from rulecore.scales import level_order, ranks

#: Largest single dense allocation (GB, 10⁹ bytes) a fit may make.  The app serves several
#: sessions from one machine (the load test runs 10 on a 2-core, 23 GB host), and a fit often
#: holds two or three copies of its matrix (input, standardised copy, solver work space), so
#: 2 GB per allocation keeps ten concurrent fits within that host's memory.  The largest
#: table the app accepts (1,000,000 rows) still encodes into 120 float columns (two copies:
#: 1.9 GB).  Override per deployment with the environment variable below.
MEMORY_BUDGET_GB: float = 2.0

#: Environment variable that overrides :data:`MEMORY_BUDGET_GB` (a number of GB, e.g. ``8``).
BUDGET_ENV = "RULECORE_MEMORY_BUDGET_GB"

#: Default number of levels a categorical column keeps as its own 0/1 column.
MAX_LEVELS = 20

OTHER = "(other)"


def memory_budget() -> int:
    """The allocation budget in bytes: ``$RULECORE_MEMORY_BUDGET_GB`` or :data:`MEMORY_BUDGET_GB`.

    Raises
    ------
    ParameterError
        When the environment variable is not a positive number.
    """
    raw = os.environ.get(BUDGET_ENV, "").strip()
    if not raw:
        return int(MEMORY_BUDGET_GB * 1e9)
    try:
        gb = float(raw)
    except ValueError:
        gb = float("nan")
    if not (np.isfinite(gb) and gb > 0):
        raise ParameterError(f"{BUDGET_ENV} must be a positive number of GB, got {raw!r}.")
    return int(gb * 1e9)


def format_bytes(n_bytes: float) -> str:
    """``1.5 GB``, ``240 MB``, ``12 kB`` (decimal units, as the budget is stated)."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n_bytes >= size:
            value = n_bytes / size
            return f"{value:.1f} {unit}" if value < 10 else f"{value:,.0f} {unit}"
    return f"{int(n_bytes)} bytes"


def dense_bytes(*shape: int, itemsize: int = 8, copies: float = 1.0) -> int:
    """Bytes of ``copies`` dense arrays of the given shape (default float64)."""
    return int(np.prod([float(s) for s in shape]) * itemsize * copies)


#: Bytes a HiGHS model takes per nonzero of its constraint matrix, all copies counted (ours in
#: CSC, HiGHS's column- and row-wise copies, its factorisation).  Measured: the rule fit on
#: 100,000 rows × 408 terms where screening removes nothing peaks at 2.85 GiB for two models
#: of ~19 million nonzeros each (bench/results/scale.md, "rare"): about 75 bytes; 64 is used.
BYTES_PER_NONZERO = 64


def solver_bytes(nonzeros: float) -> float:
    """Estimated memory of a HiGHS LP or MIP with ``nonzeros`` matrix entries."""
    return float(nonzeros) * BYTES_PER_NONZERO


def check_memory(n_bytes: float, what: str, advice: str, budget: int | None = None) -> None:
    """Refuse an allocation of ``n_bytes`` over the budget with a message for a person.

    Parameters
    ----------
    n_bytes : float
        Estimated size of the allocation.
    what : str
        What needs it and why so much, e.g. ``"Encoding 60,000 rows × 20,012 columns"``.
    advice : str
        What the user can change, e.g. ``"Exclude the column 'name' or sample rows."``.
    budget : int, optional
        Bytes; default :func:`memory_budget`.

    Raises
    ------
    DataError
        When ``n_bytes`` exceeds the budget.
    """
    budget = memory_budget() if budget is None else int(budget)
    if n_bytes > budget:
        raise DataError(
            f"{what} needs about {format_bytes(n_bytes)} of memory, more than the "
            f"{format_bytes(budget)} allowed for one step (set {BUDGET_ENV} to change the "
            f"limit). {advice}")


def _kinds(X: pd.DataFrame, kinds: Mapping[str, str] | None) -> dict[str, str]:
    from rulecore.data import infer_kind  # here: rulecore.data may delegate to this module

    kinds = dict(kinds or {})
    return {c: kinds.get(c) or infer_kind(X[c]) for c in X.columns}


def numeric_widths(X: pd.DataFrame, kinds: Mapping[str, str] | None = None,
                   max_levels: int = MAX_LEVELS) -> dict[str, int]:
    """Number of output columns :func:`to_numeric` makes for each input column."""
    kinds = _kinds(X, kinds)
    out = {}
    for col in X.columns:
        if kinds[col] in ("numeric", "ordinal"):
            out[col] = 1
        else:
            levels = int(X[col].nunique(dropna=True))
            out[col] = (1 if _one_column(X[col], levels)
                        else levels if levels <= max_levels else max_levels + 1)
    return out


def _one_column(s: pd.Series, levels: int) -> bool:
    """A two-level column with no missing value is one 0/1 column (its second level in sorted
    order): "smoker=no" beside "smoker=yes" says nothing more, and counted a sparse model's
    or the datum-wise classifier's one column as two features."""
    return levels == 2 and not s.isna().any()


def _advice(widths: Mapping[str, int]) -> str:
    wide = sorted(((w, str(c)) for c, w in widths.items() if w > 1), reverse=True)[:3]
    cols = ", ".join(f"{c!r} ({w} columns)" for w, c in wide)
    return ("Use a sample of the rows, exclude columns" + (f" (the widest: {cols})" if cols
                                                            else "")
            + ", or keep fewer levels per categorical column.")


def to_numeric(X: pd.DataFrame, kinds: Mapping[str, str] | None = None,
               max_levels: int = MAX_LEVELS) -> pd.DataFrame:
    """A float frame for models that need numbers, encoded from the rows given
    (:class:`NumericEncoder` fitted on ``X`` and applied to it).

    To encode rows the encoding was not learnt on (a test split, new data), fit a
    :class:`NumericEncoder` on the training rows and transform both with it: this function
    learns medians and levels from whatever rows it is given.

    Parameters
    ----------
    X : DataFrame of shape (n_samples, n_columns)
    kinds : mapping column -> {"numeric", "categorical", "ordinal"}, optional
        Inferred with :func:`rulecore.data.infer_kind` for columns not given.  An ordinal
        column becomes its steps 1, 2, … in order (:mod:`rulecore.scales`).
    max_levels : int, default=20
        A categorical column with at most this many levels gets one 0/1 column per level
        (``"job=Rep"``); one with two levels and no missing value gets one, for its second
        level in sorted order (``"smoker=yes"``).  One with more than ``max_levels`` gets a
        column for each of its ``max_levels`` most frequent levels (ties broken by the
        level's text) and ``"job=(other)"`` for the rest.

    Returns
    -------
    DataFrame of float, same index as ``X``
        Missing numeric values become the column median (0 for an all-missing column);
        a missing category is an all-zero row of its block.

    Raises
    ------
    DataError
        When the result would exceed the memory budget (:func:`check_memory`).
    """
    return NumericEncoder(kinds=kinds, max_levels=max_levels).fit_transform(X)


class NumericEncoder(TransformerMixin, BaseEstimator):
    """:func:`to_numeric` as a scikit-learn transformer: the medians, levels and orders are
    learnt in :meth:`fit` and applied by :meth:`transform` to any rows with those columns
    (a test split, new data, a ``Pipeline``'s later steps).

    A function refitted on every call filled a test batch's gaps with its own median and gave
    a five-row batch other columns (``base_salary=62500.0``), so a sparse model fitted on
    its output refused it (a notebook review).

    Parameters
    ----------
    kinds : mapping column -> {"numeric", "categorical", "ordinal"}, optional
        As :func:`to_numeric`'s; inferred for columns not given.
    max_levels : int, default=20
        As :func:`to_numeric`'s.

    Attributes
    ----------
    feature_names_in_ : ndarray of str, shape (n_columns,)
    kinds_ : dict
        The kind each column was read as.
    columns_ : list of str
        The output's columns, in order.
    """

    def __init__(self, kinds: Mapping[str, str] | None = None, max_levels: int = MAX_LEVELS):
        self.kinds = kinds
        self.max_levels = max_levels

    def fit(self, X: pd.DataFrame, y: Any = None) -> NumericEncoder:
        """Learn each column's encoding from ``X`` (a DataFrame, shape (n_samples,
        n_columns))."""
        max_levels = self.max_levels
        if not isinstance(max_levels, (int, np.integer)) or isinstance(max_levels, bool) \
                or max_levels < 1:
            raise ParameterError(f"max_levels must be an integer >= 1, got {max_levels}.")
        text_names(_a_frame(X))  # names that clash as text are refused; its own are kept
        kinds = _kinds(X, self.kinds)
        widths = numeric_widths(X, kinds, max_levels)
        n_cols = sum(widths.values())
        # get_dummies and concat hold the blocks and the joined frame at once: two copies
        check_memory(dense_bytes(len(X), n_cols, copies=2),
                     f"Turning {len(X):,} rows into {n_cols:,} numeric columns",
                     _advice(widths))
        plan: list[tuple[str, str, Any, Any]] = []  # column, how, levels or order, fill
        for col in X.columns:
            s = X[col]
            if kinds[col] in ("numeric", "ordinal"):
                # an ordered scale as its steps 1, 2, … (one weight says "the higher, the more")
                order = level_order(s, min_levels=1) if kinds[col] == "ordinal" else None
                if kinds[col] == "ordinal" and order is None:  # all zeros, silently (a review)
                    raise DataError(f"Column {col!r} is read as ordered, but its levels are "
                                    "not a known scale: pass it as an ordered pandas "
                                    "Categorical.")
                num = _numbers(s, order)
                plan.append((col, "number", order,
                             float(num.median()) if num.notna().any() else 0.0))
            elif widths[col] == 1 and s.nunique() == 2:  # two levels, no gap (_one_column)
                plan.append((col, "flag", sorted(s.unique(), key=str)[1], None))
            elif widths[col] <= max_levels:
                plan.append((col, "levels", list(pd.Categorical(s.dropna()).categories), None))
            else:
                counts = s.value_counts(dropna=True)
                # most frequent first, ties by the level's text, so the columns do not depend
                # on row order
                order = sorted(zip(-counts.to_numpy(), map(str, counts.index), counts.index))
                plan.append((col, "top", [level for _, _, level in order[:max_levels]], None))
        self.feature_names_in_ = np.asarray([str(c) for c in X.columns], dtype=object)
        self.kinds_ = kinds
        self._plan = plan
        self.columns_ = [name for col, how, levels, _ in plan
                         for name in _names(col, how, levels)]
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        """``X`` as floats, shape (n_samples, len(columns_)), same index: numbers (gaps
        filled with the training median), ordered steps, one 0/1 column per training level
        (a level never seen is all zeros, or the ``(other)`` column of a column of many
        levels)."""
        check_is_fitted(self, "_plan")
        _a_frame(X)
        missing = [str(col) for col, *_ in self._plan if col not in X.columns]
        if missing:
            raise DataError(f"X lacks {', '.join(map(repr, missing))}, which the encoder was "
                            "fitted on.")
        parts = []
        for col, how, levels, fill in self._plan:
            s = X[col]
            if how == "number":
                parts.append(_numbers(s, levels).fillna(fill).rename(col))
            elif how == "flag":
                parts.append((s == levels).astype(float).rename(f"{col}={levels}"))
            else:
                codes = pd.Index(levels).get_indexer(s)  # -1: missing or another level
                block = np.zeros((len(s), len(levels) + (how == "top")))
                rows = np.flatnonzero(codes >= 0)
                block[rows, codes[rows]] = 1.0
                if how == "top":
                    block[(codes < 0) & s.notna().to_numpy(), len(levels)] = 1.0
                parts.append(pd.DataFrame(block, index=s.index,
                                          columns=_names(col, how, levels)))
        if not parts:
            return pd.DataFrame(index=X.index)
        return pd.concat(parts, axis=1)

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        check_is_fitted(self, "_plan")
        return np.asarray(self.columns_, dtype=object)


def _a_frame(X: Any) -> pd.DataFrame:
    """``X`` when a DataFrame: :class:`NumericEncoder` reads columns by their names."""
    if not isinstance(X, pd.DataFrame):
        raise DataError("NumericEncoder reads a table by its column names: pass a pandas "
                        "DataFrame.")
    return X


def _numbers(s: pd.Series, order: tuple[str, ...] | None) -> pd.Series:
    """A numeric column as floats, an ordinal one as its steps 1, 2, … (off the scale NaN)."""
    if order is not None:
        return pd.Series(ranks(s, order) + 1.0, index=s.index)
    return pd.to_numeric(s, errors="coerce").astype(float)


def _names(col: str, how: str, levels: Any) -> list[str]:
    """The output columns of one input column."""
    if how == "number":
        return [col]
    if how == "flag":
        return [f"{col}={levels}"]
    return [f"{col}={level}" for level in levels] + ([f"{col}={OTHER}"] if how == "top" else [])


def text_names(X: pd.DataFrame) -> pd.DataFrame:
    """``X`` with its column names as text, refused (:class:`DataError`) where two names are
    one as text: two columns ``a``, or ``7`` and ``"7"``, cannot be told apart in a rule
    (pandas' own error was a TypeError; a notebook review)."""
    if isinstance(X.columns, pd.MultiIndex):
        # a pivot_table's or groupby().agg()'s columns, ('income', 'mean'): one name each,
        # 'income mean' (pandas' KeyError "('m', 'a')" before: a notebook review)
        X = X.set_axis([" ".join(str(p) for p in c if str(p) != "") for c in X.columns],
                       axis=1)
    X = X.rename(columns=str)
    if X.columns.duplicated().any():
        twice = sorted(set(X.columns[X.columns.duplicated()]))
        raise DataError(f"Column names must differ, as text: {', '.join(map(repr, twice))} "
                        f"name{'s' if len(twice) == 1 else ''} more than one column. Rename "
                        "them (e.g. df.columns = [...]).")
    return X


def validated(estimator: Any, *args: Any, **kwargs: Any) -> Any:
    """scikit-learn's ``validate_data`` with its refusals as :class:`DataError` (a
    ``ValueError`` too), in its own words: infinite values, an empty table, NaN in ``y``,
    lengths that differ, columns renamed or missing at predict time reached a notebook user
    as scikit-learn's plain ``ValueError`` from the sparse, datum-wise and bilinear models,
    where the rule models said :class:`DataError` (a notebook review).

    Missing labels (None or NaN among text labels: scikit-learn's sort of the classes raised
    Python's TypeError) are said in words first."""
    y = args[1] if len(args) > 1 else kwargs.get("y")
    if y is not None and not isinstance(y, str):
        missing = pd.isna(pd.Series(np.asarray(y, dtype=object).ravel())).to_numpy()
        if missing.any():
            raise DataError(f"y has {int(missing.sum()):,} missing labels (None or NaN) of "
                            f"{missing.size:,}: drop those rows, or give them a class.")
    try:
        return validate_data(estimator, *args, **kwargs)
    except DataError:
        raise
    except ValueError as exc:
        raise DataError(str(exc)) from None


def checked_array(X: Any) -> np.ndarray:
    """``X`` as a 2-D array by scikit-learn's checks, in rulecore's family: a 1-D array, a
    sparse matrix or one row as a Series raised scikit-learn's raw ValueError or TypeError
    (a notebook review).  Infinities are accepted, as in a DataFrame (above every
    threshold); a missing cell is NaN."""
    try:
        return check_array(X, dtype=None, ensure_all_finite=False)
    except (ValueError, TypeError) as exc:
        one_row = (" One row of a frame is df.iloc[[i]] (a frame), not df.iloc[i] (a Series)."
                   if isinstance(X, pd.Series) else "")
        raise DataError(f"X cannot be read as a table of rows and columns: "
                        f"{' '.join(str(exc).split())}{one_row}") from None


def whole_number(v: Any) -> bool:
    """Whether ``v`` is a whole number: an int, not a bool nor 2.5 (which was cut to 2
    without a word: a notebook review)."""
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def check_seconds(value: Any, name: str = "time_limit", *, optional: bool = False) -> None:
    """:class:`ParameterError` unless ``value`` is a positive number of seconds (``inf``:
    no limit; ``None`` too where ``optional``).  ``"5"`` reached notebook users as
    Python's TypeError from a comparison (a review)."""
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
        raise ParameterError(f"{name} must be a positive number of seconds, not {value!r}.")


def check_seed(value: Any) -> None:
    """:class:`ParameterError` unless ``value`` is a seed scikit-learn takes: ``None``, a
    whole number or a ``numpy.random.RandomState``.  ``"seed"`` was accepted by some models
    and, in the rule set's inner CV, read as a grouping problem (a notebook review)."""
    if value is None or isinstance(value, np.random.RandomState) or \
            (whole_number(value) and 0 <= value < 2 ** 32):
        return
    raise ParameterError(f"random_state must be None, a whole number from 0 to 2**32 − 1 or "
                         f"a numpy RandomState, not {value!r}.")


def require_bool(value: Any, name: str) -> None:
    """:class:`ParameterError` unless ``value`` is True or False (``"no"`` and ``-1`` read as
    True: a notebook review)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ParameterError(f"{name} must be True or False, not {value!r}.")


def class_targets(y: Any, who: str) -> None:
    """scikit-learn's ``check_classification_targets`` in rulecore's family: a continuous
    target reached a notebook user as scikit-learn's raw ValueError from the datum-wise and
    bilinear models, where the rule models said :class:`DataError` (a review)."""
    from sklearn.utils.multiclass import check_classification_targets, type_of_target

    try:
        check_classification_targets(y)
    except ValueError:
        raise DataError(f"Unknown label type: {type_of_target(y)}. {who} separates classes, "
                        "and the target holds numbers of a continuous range: bin it into "
                        "classes first (for example pd.cut), or choose a column of classes "
                        "as the target.") from None


def numbers_only(X: Any, who: str) -> Any:
    """``X`` checked for an estimator that needs numbers (sparse models, datum-wise): a
    DataFrame's columns named as text (:func:`text_names`), and a column of text,
    categories or dates, or one with missing values, a :class:`DataError` that names it.

    scikit-learn's own messages named no column ("could not convert string to float:
    'east'"), and mixed int/str column names were its TypeError (a notebook review).
    Arrays pass unchanged (scikit-learn's checks apply); a sparse matrix is refused in words
    (scikit-learn's TypeError, where the rule models said DataError: a notebook review).
    """
    import scipy.sparse as sp

    if sp.issparse(X):
        raise DataError(f"{who} needs a dense table, and X is a scipy sparse matrix: convert "
                        "it with X.toarray() if it fits in memory.")
    if not isinstance(X, pd.DataFrame):
        return X
    X = text_names(X)
    # numbers held as text or objects ('3.5', Decimal) are numbers, as scikit-learn's own
    # conversion read them (refused as text, an adversarial review); dates are not
    for c in X.columns:
        s = X[c]
        if pd.api.types.is_object_dtype(s) or pd.api.types.is_string_dtype(s):
            num = pd.to_numeric(s, errors="coerce")
            if num.notna().sum() == s.notna().sum() and s.notna().any():
                X = X.assign(**{c: num.astype(float)})
    words = [c for c in X.columns if not (pd.api.types.is_numeric_dtype(X[c])
                                          or pd.api.types.is_bool_dtype(X[c]))]
    if words:
        raise DataError(f"{who} needs numbers, and {', '.join(map(repr, words[:8]))}"
                        f"{' ...' if len(words) > 8 else ''} hold{'s' if len(words) == 1 else ''}"
                        " text, categories or dates. Encode them first: "
                        "rulecore.NumericEncoder, fitted on the training rows (in a Pipeline: "
                        "make_pipeline(NumericEncoder(), model)), gives one 0/1 column per "
                        "level (the rule models take such columns as they are).")
    gaps = [c for c in X.columns if X[c].isna().any()]
    if gaps:
        raise DataError(f"{who} cannot take missing values (NaN), and "
                        f"{', '.join(map(repr, gaps[:8]))}{' ...' if len(gaps) > 8 else ''} "
                        f"ha{'s' if len(gaps) == 1 else 've'} some. Fill them first "
                        "(rulecore.NumericEncoder fills a number's with its training "
                        "median).")
    return X.astype(float) if any(pd.api.types.is_bool_dtype(X[c]) or
                                  pd.api.types.is_extension_array_dtype(X[c])
                                  for c in X.columns) else X


def raw_values(X: pd.DataFrame, index: Any, names: Sequence[str], values: Sequence[float]
               ) -> list[str]:
    """How the row ``index`` of ``X`` gave each of its :func:`to_numeric` values, as text.

    A value that :func:`to_numeric` filled in is said to be: a missing measurement reads
    ``"missing (filled with the median, 2023)"``, not 2023 as if the row had it (a review:
    a current employee's termination year showed the median); a missing category reads
    ``"missing (no level)"``; a step of an ordered scale reads ``"Agree (step 4 of 5)"``; a
    level's 0/1 column reads ``"no (OverTime = No)"``.
    Other values are written as they are.
    """
    from rulecore.rules.terms import format_value

    out = []
    for name, v in zip(names, values):
        col = name if name in X.columns else next(
            (c for c in X.columns if str(name).startswith(f"{c}=")), None)
        missing = col is not None and pd.isna(X.at[index, col])
        # loading keeps an ordinal column as an ordered Categorical: its categories, at once
        order = level_order(X[col], min_levels=1) if col == name and isinstance(
            X[col].dtype, pd.CategoricalDtype) else None
        if order is not None:  # an ordered scale's step: its level, not the bare number
            out.append(f"missing (filled with the median step, {format_value(v)} of "
                       f"{len(order)})" if missing else
                       f"{X.at[index, col]} (step {format_value(v)} of {len(order)})")
        elif missing and col == name:
            out.append(f"missing (filled with the median, {format_value(v)})")
        elif missing:
            out.append("missing (no level)")
        elif col is not None and col != name:
            # a level's 0/1 column ("OverTime=Yes"): yes or no, and the row's own level
            # (a review read "OverTime=Yes: 0")
            out.append(f"{'yes' if v else 'no'} ({col} = {X.at[index, col]})")
        else:
            out.append(format_value(v))
    return out


__all__ = ["MAX_LEVELS", "MEMORY_BUDGET_GB", "BUDGET_ENV", "check_memory", "dense_bytes",
           "format_bytes", "memory_budget", "numeric_widths", "to_numeric", "NumericEncoder"]
