"""Loading tables into a :class:`Dataset`: CSV files, bundled samples, column kinds.

A :class:`Dataset` is what every page and estimator starts from: the feature frame ``X``,
the raw target ``y``, the inferred column kinds and the chosen positive class (one-vs-rest
for multi-class targets).  Everything a user can get wrong in a file raises
:class:`~rulecore.exceptions.DataError` with a message that says what to fix.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import itertools
import json
import os
import re
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import IO, Any, Literal

import numpy as np
import pandas as pd

from rulecore import formats
from rulecore import roles as roles_mod
from rulecore.exceptions import DataError
from rulecore.roles import (
    TRANSPOSED,
    ColumnRole,
    find_leaks,
    lagged_target,
    restated_target,
    zero_padded_codes,
)
from rulecore.scales import describe as describe_order
from rulecore.scales import level_order

Kind = Literal["numeric", "categorical", "ordinal"]

#: Fewest rows a class needs to be the default positive class of a many-class target.
MIN_POSITIVE_ROWS = 10
#: Zeros that look like "not measured": at most this share of a column's values, all of its
#: other values positive, at least 20 distinct, and the smallest at least a quarter of their
#: median (Pima's glucose 0 beside 44 to 199).  Such zeros are pointed out, and read as
#: missing only when asked (``from_frame(zero_missing=)``): a discount of 0 is a value.
ZERO_MISSING_SHARE = 0.05


def zero_suspect(s: pd.Series) -> tuple[int, float, float] | None:
    """``(zeros, lowest other value, highest)`` when the zeros of a numeric column look like
    "not measured" (:data:`ZERO_MISSING_SHARE`), else ``None``."""
    if not pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s):
        return None
    v = s.dropna().to_numpy(dtype=float)
    zeros = int((v == 0).sum())
    if zeros == 0 or zeros > ZERO_MISSING_SHARE * len(v) or (v < 0).any():
        return None
    other = v[v != 0]
    if len(np.unique(other)) < 20 or other.min() < 0.25 * np.median(other):
        return None
    return zeros, float(other.min()), float(other.max())


#: Rows copied whole (every column alike) are pointed out, and kept together on one side of
#: the held-out split, when there are at least MIN_COPIES of them and this share of the rows,
#: and far more than chance gives (:func:`chance_copies`).
DUPLICATE_SHARE = 0.01
MIN_COPIES = 5
#: ... and when no column has more values than this, the note says they may be alike by
#: coincidence (columns that move together), not only copies.
COARSE_VALUES = 100
#: A class whose counts over BURST_BINS periods of time have an index of dispersion above
#: BURST_DISPERSION comes in bursts (:func:`bursts_over_time`): held-out rows are then
#: whole periods, TIME_BLOCKS blocks of consecutive times (:func:`time_periods`).
BURST_BINS = 50
BURST_DISPERSION = 5.0
TIME_BLOCKS = 20
#: A two-class target whose smaller class holds at least this share of rows is balanced: which
#: class is the minority is then an accident of the sample, and the default positive class is
#: the one whose name does not say "no" (``improved``, not ``no change``).
BALANCED_SHARE = 0.4
#: Class names that say no, none or absence (``no``, ``no change``, ``non-smoker``, ``0``).
_NEGATIVE_NAME = re.compile(
    r"^(no|n|not|none|non|false|0|0\.0|negative|neg|absent|normal|nein|nee|nej)([\s_\-:.,]|$)",
    re.IGNORECASE)
#: Limits checked before and after parsing; the app's upload limit matches MAX_BYTES.
MAX_BYTES = 200 * 1024 * 1024
# The csv module refuses a cell over 131,072 characters ("field larger than field limit"),
# a raw traceback on an issue tracker's export with one long description (a review): any
# cell of a file within MAX_BYTES is read.  The limit is the process's, and only raised.
csv.field_size_limit(max(csv.field_size_limit(), MAX_BYTES))
MAX_ROWS = 1_000_000
MAX_COLUMNS = 2_000
#: Integer columns with at most this many distinct values are read as categories
#: (a 0/1 flag reads better as ``smoker == 1`` than as ``smoker > 0.5``).
CATEGORICAL_MAX_INT_LEVELS = 2
#: Text columns in which every value is distinct and there are more of them than this are
#: identifiers (names, ids), which no rule should use.
IDENTIFIER_MIN_LEVELS = 50


def too_wide(name: str, n_columns: int, limit: int) -> str:
    """The message for a table wider than ``limit`` columns, with what to do (a review: it
    said only the limit, and leaving columns out by their role comes after reading)."""
    return (f"{name} has {n_columns:,} columns; the limit is {limit:,}. Keep the target and "
            f"at most {limit - 1:,} other columns: delete the rest in the spreadsheet or "
            "database export, or in Python select them (df[columns]) and pass the frame to "
            "rulecore.from_frame.")


# (\N is how MySQL and PostgreSQL's COPY write a missing value, and MySQL's "zero date" a
# missing date: read as text, a shipping date was left out and its rule lost, a review)
_NA_VALUES = ["", "?", "NA", "N/A", "NaN", "nan", "null", "NULL", "None", "-", "\\N",
              "0000-00-00", "0000-00-00 00:00:00"]
#: The spellings of a missing value an export's note lists (:meth:`Dataset.notes_for`): the
#: reader's, each once whatever its capitals, the words before the marks.
#: (with Excel's "#N/A", which the reader reads as missing too: an export's note on a column
#: of "#N/A" cells listed every spelling but the one the file had, a stranger's review)
_NA_SAID = tuple(sorted((v for v in _NA_VALUES if v and v not in ("nan", "NULL")),
                        key=lambda v: not v[0].isalpha())) + ("#N/A",)
#: What the reader reads as missing: "None" is read as text, as it is the lowest step of a
#: scale (None < Mild < Moderate < Severe) as often as Python's missing value; it is made
#: missing in :func:`from_frame` everywhere else (:func:`_none_as_missing`).  "-" is read as
#: text too, and made missing at once but in a column of signs (:func:`_dash_as_missing`).
_READ_NA = [v for v in _NA_VALUES if v not in ("None", "-")] + [
    # pandas' own missing spellings (it reads "None" as missing too: read with
    # keep_default_na=False and these instead)
    "-1.#IND", "1.#QNAN", "1.#IND", "-1.#QNAN", "#N/A N/A", "#N/A", "n/a", "<NA>", "#NA",
    "-NaN", "-nan",
    # Power BI's and Excel pivot tables' empty member (a level '(Blank)' before: a review)
    "(Blank)", "(blank)",
    # the World Bank's and Statistics Canada's "no data" (a WDI extract's target with 2.5 %
    # '..' was refused as a transposed table, and a feature with 20 % left out as text: a
    # stranger's download)
    "..", "..."]
#: The text cells read as missing, as an exported rule's Python reads them too.
MISSING_TEXT = tuple(_READ_NA)
#: The error values a spreadsheet writes into cells whose formula failed: missing values, but
#: said in a note (a column of them would otherwise read as text and be left out).
SPREADSHEET_ERRORS = ("#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!", "#N/A",
                      "#NA", "#N/A N/A", "#ERROR!", "#SPILL!", "#CALC!")


#: Share of the rows whose identifier comes back on another row from which held-out rows
#: are chosen by whole identifier (:attr:`Dataset.groups`).
MIN_REPEATED_ID_SHARE = 0.02


@dataclass(frozen=True)
class Reading:
    """How a table's cells were read before a rule compared them, as far as a rule's export
    must read a raw row the same way (:attr:`Dataset.reading`; the exported Python's
    ``predict(row)``).

    Attributes
    ----------
    decimal_comma : tuple of str
        Columns whose numbers are written with a decimal comma or dots between thousands
        (``'60,6'``, ``'12.606'``).
    read_from_text : tuple of str
        Columns whose numbers were read from text written otherwise (``2 days 04:00:00`` as
        hours, ``72 kg``, ``1.2k``): the export refuses such a raw cell, never reads it as
        missing.
    ticks : tuple of str
        Columns of a tick or a flag and empty cells, read as yes / no.
    derived : tuple of (feature, source, part, how)
        Features made from another column: a date's ``year``, ``month``, ``weekday`` or
        ``hour`` (``"hired (year)"`` from ``"hired"``; ``how``: the way its dates were
        written, :func:`rulecore.roles.read_dates`, ``""`` for ISO 8601), or a multi-select
        column's ``option`` (``"tools: API"`` from ``"tools"``, its answers joined by the
        separator ``how``), a JSON object's ``field`` (``"device.category"`` from ``"device"``) or
        a log line's key=value ``pair`` (``"_raw.method"`` from ``"_raw"``).  The export
        derives them from the raw column when a row lacks them.
    recoded : tuple of (column, ((cell, read), ...))
        Cells read as another value, column by column: a label spelled otherwise
        (``'YES'`` read as ``'Yes'``), an answer without its survey code (``'Satisfied
        (A4)'`` as ``'Satisfied'``), a code read as missing (``-999``, ``'unknown'``,
        ``'Not completed or Not displayed'``: read ``None``).  A cell is its text with the
        spaces around it stripped, or a number (``-999.0``).  The export reads a raw cell
        so before comparing it.
    units : tuple of (column, ((before, after, parts, factor), ...))
        Columns of :attr:`read_from_text` whose cells are a number with text before or
        after it (``72 kg``, ``8,091 kg/ha`` beside ``6.00 t/ha``, ``£399,000``, ``1.2k``,
        ``+2d``) or a time of ``parts`` parts (``52:33``, ``1:02:33``, ``5:12 /km``), each
        read as the number (:func:`unit_number`; a time in its first part's unit) times the
        factor of that text and number of parts (:data:`UNIT_CELL`): told from the cells
        and held only where it gives the app's value of every such cell.  The export reads
        them so; a cell written otherwise it still refuses.
    """

    decimal_comma: tuple[str, ...] = ()
    read_from_text: tuple[str, ...] = ()
    ticks: tuple[str, ...] = ()
    derived: tuple[tuple[str, str, str, str], ...] = ()
    recoded: tuple[tuple[str, tuple[tuple[Any, Any], ...]], ...] = ()
    units: tuple[tuple[str, tuple[tuple[str, str, int, float], ...]], ...] = ()


@dataclass(frozen=True)
class Dataset:
    """A table ready for learning.

    Attributes
    ----------
    name : str
        Display name (file name or sample name).
    X : DataFrame of shape (n_samples, n_features)
        The features: the columns whose role is included (see :mod:`rulecore.roles`);
        numeric columns are float, categorical columns are strings (``NaN`` where missing).
    y : Series of shape (n_samples,)
        The target labels (``yes``/``no`` for a numeric target split at a threshold).
    kinds : dict
        ``column -> "numeric" | "categorical" | "ordinal"`` for every column of ``X``
        (ordinal: words of an ordered scale, :mod:`rulecore.scales`).
    positive : object
        The label treated as class 1 in binary (one-vs-rest) views.
    notes : tuple of str
        What loading decided or changed (target chosen, rows dropped), for the user to read.
    description : str
        What the data is; for synthetic samples, the planted rule.
    target : str
        The target's name: its column, or ``"hours > 40"`` for a thresholded numeric column.
    roles : tuple of ColumnRole
        Every column of the table as read, in order, with its role, whether it is a feature
        and why (plus the features derived from dates).
    target_column : str
        The column the target comes from.
    threshold : str or None
        ``"> 40"`` when the target is a numeric column split at a threshold.
    rating : bool
        Whether that column is a rating scale read through a threshold (by default, or by
        the one given; ``from_frame(ratings=)``).
    count : bool
        Whether that column is a count (0, 1, 2 ...: :func:`rulecore.roles.whole_counts`)
        read through a threshold: ``> 0`` by default for a count of an outcome's events
        (``defect_count``: :func:`rulecore.roles.is_event_count`), or the one given.
    zero_suspects, zero_missing : tuple of str
        Numeric features whose few zeros look like "not measured" (pointed out), and those
        whose zeros were read as missing as asked (``from_frame(zero_missing=)``).
    missing_codes, codes_kept : tuple of str
        Features with cells of a missing-value code (``-999``, ``99999``:
        :func:`numeric_missing_codes`) read as missing, and those whose codes were kept as
        numbers as asked (``from_frame(keep_codes=)``: a top-code such as adult's
        capital-gain 99999, "99,999 or more").
    labels : dict of str to str
        What code-named columns mean, as the file says it: a Census download's row of labels
        under the names (``DP03_0062E``: "Estimate!!INCOME AND BENEFITS ...!!Median household
        income (dollars)"), SPSS's, Stata's and SAS's variable labels, for the table's
        columns; :meth:`label_of` reads one.
    target_guessed : bool
        Whether the target was chosen by default with nothing in the table saying it is the
        outcome (:func:`rulecore.roles.target_guessed`): one of its notes
        (:attr:`guess_note`) says so and how to choose.
    dropped_rows : int
        Rows dropped because their target is missing.
    ids : DataFrame of shape (n_samples, k) or None
        The row-number and identifier columns left out of ``X`` (R row names, customer ids),
        row-aligned with ``X``: not learned from, but shown beside the rows a rule rejects
        so an analyst can find them in their own table.
    no_answer : tuple of (label, rows)
        Target values read as "no answer" (``Unknown``, a ``-9`` code) and dropped, with
        their row counts; passing one as ``positive`` to :func:`from_frame` keeps it as a
        class.
    sheet : str or None
        The workbook's sheet the table was read from (:func:`from_sheets`), else None.
    copies : Series of shape (n_samples,) or None
        When rows are copied whole (:data:`DUPLICATE_SHARE`): one number per distinct row,
        so that copies share it; held-out rows are then split by it (:attr:`groups`).
    periods : Series of shape (n_samples,) or None
        When the target comes in bursts over a date column (:func:`bursts_over_time`): the
        block of consecutive times each row falls in (:func:`time_periods`); held-out rows
        are then whole blocks (:attr:`groups`).
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    kinds: dict[str, Kind]
    positive: Any = None
    notes: tuple[str, ...] = ()
    description: str = ""
    target: str = "target"
    roles: tuple[ColumnRole, ...] = ()
    target_column: str = ""
    threshold: str | None = None
    rating: bool = False
    count: bool = False
    zero_suspects: tuple[str, ...] = ()
    zero_missing: tuple[str, ...] = ()
    missing_codes: tuple[str, ...] = ()
    codes_kept: tuple[str, ...] = ()
    target_guessed: bool = False
    labels: dict[str, str] = field(default_factory=dict)
    dropped_rows: int = 0
    no_answer: tuple[tuple[Any, int], ...] = ()
    sheet: str | None = None
    decimal_comma: tuple[str, ...] = ()
    #: columns whose numbers were read from text written otherwise (durations, times with
    #: colons, units, magnitudes, scores): an exported Python rule refuses such raw cells
    read_from_text: tuple[str, ...] = ()
    #: columns of a tick or a flag and empty cells read as yes / no (``ticks_with_blanks``):
    #: an exported Python rule reads a raw cell so (an empty cell is "no", not missing)
    ticks: tuple[str, ...] = ()
    #: features made from a date or a multi-select column: ``(feature, source, part,
    #: how)`` (:class:`Reading`)
    derived: tuple[tuple[str, str, str, str], ...] = ()
    #: cells read as another value or as missing, column by column (:class:`Reading`)
    recoded: tuple[tuple[str, tuple[tuple[Any, Any], ...]], ...] = ()
    #: numbers written with text before or after them, as read (:class:`Reading`)
    units: tuple[tuple[str, tuple[tuple[str, str, int, float], ...]], ...] = ()
    ids: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    copies: pd.Series | None = field(default=None, repr=False, compare=False)
    periods: pd.Series | None = field(default=None, repr=False, compare=False)
    _digest: list = field(default_factory=list, repr=False, compare=False)
    _leaks: dict = field(default_factory=dict, repr=False, compare=False)

    def label_of(self, column: str) -> str | None:
        """What ``column`` means (:attr:`labels`), its parts joined by " › " (the Census
        Bureau writes ``Estimate!!INCOME AND BENEFITS!!...``), else None."""
        label = self.labels.get(str(column))
        return None if label is None else " › ".join(
            p.strip() for p in label.split("!!") if p.strip())

    def labels_for(self, columns: Iterable[str]) -> dict[str, str]:
        """``{column: label}`` for those of ``columns`` that have one (:meth:`label_of`), in
        their order, each once."""
        out = {}
        for c in columns:
            if (label := self.label_of(c)) is not None:
                out.setdefault(str(c), label)
        return out

    @property
    def guess_note(self) -> str | None:
        """The note saying the target is a guess (:attr:`target_guessed`), else None: a
        warning rather than a note."""
        if not self.target_guessed:
            return None
        return next((n for n in self.notes
                     if n.startswith(f"The target {self.target_column!r} is a guess")), None)

    @property
    def classes(self) -> list:
        """Target labels in sorted order."""
        return sorted(self.y.unique().tolist(), key=_sort_key)

    @cached_property  # every page rerun and fit asks; a million-row nunique each time
    def groups(self) -> pd.Series | None:
        """The identifier whose records come back on several rows (a ``patient_id`` of a visit
        table), row-aligned with ``X``, or ``None``.  Held-out rows are split by it
        (:func:`train_test_indices`), so that no record is on both sides: a rule could
        otherwise recognise a returning patient by the values that never change (age), and
        the held-out accuracy would be optimistic.  Without such an identifier, rows copied
        whole (:attr:`copies`) are grouped the same way."""
        # beside an identifier distinct on every row, a full name repeated is one person's
        # rows (a patient's visits) only where a measure of the person is the same on them:
        # an HR workbook's 1,000 employees of 120 names were held out "by whole Full Name"
        # (a stranger's), where each row is an employee and the names collide
        one_per_row = self.ids is not None and any(
            r.role == "id" and r.column in self.ids.columns and self.ids[r.column].notna().all()
            and self.ids[r.column].is_unique for r in self.roles)
        for role in self.roles if self.ids is not None else ():
            if role.role == "id" and role.column in self.ids.columns:
                if one_per_row and roles_mod.person_name(str(role.column)) and \
                        not _same_people(self.ids[role.column], self.X):
                    continue
                col = self.ids[role.column]
                # a record on several rows, not a coincidence: one pair of equal balances
                # among 1,000 ('Saldo' read as text) held the rows out "by whole Saldo" (a
                # review), as did one collision of ids Excel had rounded (4.98145E+15)
                # (a column named as the record's key groups on any repeat: 1.5 % of
                # patients coming back still leak across a split, an adversarial review)
                repeats = col.duplicated(keep=False)
                # (a person's first or last name repeats among different people: 'held out
                # by whole First Name' made the luck test count a few names, a stranger's)
                if roles_mod.person_name(str(role.column), part=True):
                    continue
                if col.notna().all() and repeats.any() and (
                        roles_mod.record_key_name(str(role.column))
                        or repeats.mean() >= MIN_REPEATED_ID_SHARE
                        and not _measured_text(col)):
                    return col
        if self.periods is not None:  # a target in bursts over time: whole periods
            return self.periods
        return self.copies  # else rows copied whole: each set of copies on one side

    @property
    def held_out_unit(self) -> str | None:
        """What the held-out rows are chosen by, in words (``"whole patient_id"``, ``"whole
        sets of copied rows"``), or None when rows are held out one by one."""
        groups = self.groups
        if groups is None:
            return None
        if groups.name is None:
            return "whole sets of identical rows"
        if str(groups.name).startswith("period of "):
            return f"whole periods of {str(groups.name)[len('period of '):]}"
        return f"whole {groups.name}"

    def held_out_records(self, train: np.ndarray, test: np.ndarray) -> np.ndarray | None:
        """The record of each held-out row, where the rows were held out by whole records (a
        repeated identifier, copied rows: no record on both sides of ``train`` / ``test``),
        for judging a held-out gain record by record
        (:func:`rulecore.report.clearly_above_majority`); None where rows were held out one
        by one (also when the split fell back to rows: a review) or by periods of time
        (whose rows are no copies of each other)."""
        groups = self.groups
        if groups is None or self.periods is not None and groups is self.periods:
            return None
        # (by integer codes: np.isin on a million string ids ran past two minutes, on every
        # rerun of the Rule page's results, a review)
        codes = pd.factorize(groups)[0]
        seen = np.zeros(codes.max() + 1, dtype=bool)
        seen[codes[train]] = True
        if seen[codes[test]].any():
            return None
        return groups.to_numpy()[test]

    @property
    def class_counts(self) -> dict:
        """Rows per class, in :attr:`classes` order."""
        counts = self.y.value_counts()
        return {c: int(counts[c]) for c in self.classes}

    @property
    def negative_label(self) -> str:
        """What "not positive" is called: the other class of a binary target, or
        ``"not <positive>"`` (one-vs-rest)."""
        others = [c for c in self.classes if c != self.positive]
        return str(others[0]) if len(others) == 1 else f"not {self.positive}"

    @property
    def y_binary(self) -> np.ndarray:
        """0/1 target of shape (n_samples,): 1 where ``y == positive``."""
        return (self.y.to_numpy() == self.positive).astype(np.int64)

    @property
    def n_samples(self) -> int:
        return len(self.X)

    @property
    def base_rate(self) -> float:
        """Share of rows in the positive class."""
        return float(self.y_binary.mean()) if len(self.y) else float("nan")

    @property
    def excluded(self) -> list[ColumnRole]:
        """Columns of the table that are neither features nor the target."""
        return [r for r in self.roles if not r.included and r.role != "target"]

    @property
    def leaks(self) -> dict[str, float]:
        """Features that alone predict the positive class with ≥ 99 % accuracy (possible
        leaks), ``{column: accuracy}``; see :func:`rulecore.roles.find_leaks`."""
        key = repr(self.positive)
        if key not in self._leaks:
            found = find_leaks(self.X, self.y_binary, self.kinds)
            # a column named after the class ('Refunded Amount' for refunded, 'Became a
            # Customer Date' for Customer) is recorded with the outcome more often than not:
            # flagged once it halves the majority's error (Shopify's 'Refunded Amount > 130',
            # 95.6 % held out, was a green success: a stranger's export)
            y = self.y_binary
            base = max(y.mean(), 1 - y.mean()) if len(y) else 1.0
            for col in self.X.columns:
                if col in found or not roles_mod.named_after_class(str(col), self.positive):
                    continue
                acc = roles_mod.single_column_accuracy(
                    self.X[col], y, self.kinds.get(col) == "categorical")
                if acc > base and (1 - acc) <= 0.5 * (1 - base):
                    found[str(col)] = acc
            self._leaks[key] = found
        return self._leaks[key]

    @property
    def restated(self) -> dict[str, dict[Any, Any]]:
        """Features that are the target in other words, ``{column: {value: class}}``: each
        value goes with one class and every class has one (a relabel, a status code beside
        its label); see :func:`rulecore.roles.restated_target`.  They are in :attr:`leaks`
        too; the pages and the command line say this stronger thing of them instead."""
        if "restated" not in self._leaks:
            self._leaks["restated"] = restated_target(self.X, self.y.to_numpy(), self.kinds)
        return self._leaks["restated"]

    @property
    def lagged(self) -> dict[str, float]:
        """Features that read the row before's target (yesterday's outcome in a daily log),
        ``{column: share of rows}``; see :func:`rulecore.roles.lagged_target`."""
        if "lagged" not in self._leaks:
            self._leaks["lagged"] = lagged_target(self.X, self.y.to_numpy())
        return self._leaks["lagged"]

    @property
    def class_leaks(self) -> dict[str, tuple[Any, float]]:
        """Several classes (no threshold): features that alone tell *another* class than the
        positive one from the rest with ≥ 99 % accuracy, ``{column: (class, accuracy)}``
        (:func:`rulecore.roles.find_leaks` one class at a time, up to 10 classes), those of
        :attr:`leaks` aside.  A column recorded after the outcome gives itself away whichever
        class is predicted: ``rework_minutes`` (non-zero only where a defect was found) was
        flagged with positive class ``0`` defects and not with ``2`` (a stranger's review)."""
        classes = self.classes
        if self.threshold is not None or not 3 <= len(classes) <= 10:
            return {}
        key = ("classes", repr(self.positive))
        if key not in self._leaks:
            found: dict[str, tuple[Any, float]] = {}
            y = self.y.to_numpy()
            # (a measurement that sets another class apart is what a rule is for: iris'
            # petal length tells setosa, and the app's first page, predicting versicolor,
            # opened on two "possible leak" warnings; a number given away by its zeros or
            # blanks, rework minutes 0 unless a defect was found, is still one)
            given_away = {col for col in self.X.columns
                          if self.kinds.get(col) == "categorical"
                          or _zero_or_blank_coded(self.X[col])}
            for c in classes:
                if c == self.positive:
                    continue
                for col, acc in find_leaks(self.X[list(given_away)] if given_away else
                                           self.X.iloc[:, :0], (y == c).astype(np.int64),
                                           self.kinds).items():
                    if col not in self.leaks and acc > found.get(col, (None, 0.0))[1]:
                        found[col] = (c, acc)
            self._leaks[key] = found
        return self._leaks[key]

    @property
    def digest(self) -> str:
        """Content hash of features, target, kinds, positive class and the repeated
        identifier that splits the rows (for cache keys)."""
        if not self._digest:
            h = hashlib.sha1()
            h.update(pd.util.hash_pandas_object(self.X, index=False).to_numpy().tobytes())
            h.update(pd.util.hash_pandas_object(self.y, index=False).to_numpy().tobytes())
            h.update(repr((list(self.X.columns), sorted(self.kinds.items()),
                           self.target)).encode())
            groups = self.groups  # they decide the held-out rows
            if groups is not None:
                h.update(pd.util.hash_pandas_object(groups, index=False).to_numpy().tobytes())
            self._digest.append(h.hexdigest())
        return self._digest[0] + ":" + repr(self.positive)

    def leak_groups(self, restated: Mapping[str, Any] | None = None
                    ) -> dict[str, dict[str, float]]:
        """The possible leaks (:attr:`leaks`) by the table column they come from,
        ``{column: {feature: accuracy}}``: a date's year and month leak together, one
        warning for both (the command line gave three lines for one date, the app one).
        Those in ``restated`` (default :attr:`restated`) are left to their stronger
        warning."""
        restated = self.restated if restated is None else restated
        groups: dict[str, dict[str, float]] = {}
        for col, acc in self.leaks.items():
            if col not in restated:
                groups.setdefault(self.source_column(col), {})[col] = acc
        return groups

    def source_column(self, feature: str) -> str:
        """The table column a feature comes from: itself, or for a feature made from a date
        or a multi-select column (``"hired (year)"``, ``"tools: API"``), that column; leaving
        it out of the features leaves out everything made from it."""
        table = [r.column for r in self.roles if r.role != "derived"]
        if feature in table:
            return feature
        made_from = [c for c in table if feature.startswith((f"{c} (", f"{c}: "))]
        return max(made_from, key=len) if made_from else feature

    @property
    def reading(self) -> Reading:
        """How the features' cells were read, for a rule's export (:class:`Reading`)."""
        return Reading(decimal_comma=self.decimal_comma, read_from_text=self.read_from_text,
                       ticks=self.ticks, derived=self.derived, recoded=self.recoded,
                       units=self.units)

    def notes_for(self, columns: Iterable[str]) -> list[str]:
        """The notes on how the cells of ``columns`` were read (codes read as missing,
        units dropped, spellings merged): what a table must go through before an exported
        rule over those columns gives the app's answers on it."""
        columns = list(columns)
        heads = tuple(f"{c!r}:" for c in columns)
        # a note on several columns at once names each, quoted (numbers written with a
        # decimal comma, thousands separators); a derived feature says what it is made of
        shared = [n for n in self.notes if n.startswith("Numbers in ")
                  and any(f"{c!r} (" in n for c in columns)]
        derived = [f"{r.column!r}: {r.reason}." for r in self.roles
                   if r.role == "derived" and r.column in columns]
        # a cell read as missing fails every comparison (but 'is missing'); on the raw table
        # R's text "NA" is no NULL, so the exported SQL's IS NOT NULL chose 281 rows where
        # the app's rule chose 86 (a review)
        said = [n for n in self.notes if heads and n.startswith(heads)]
        gaps = [f"{c!r}: {_cells(int(self.X[c].isna().sum()))} are missing values (empty, or "
                f"written {', '.join(_NA_SAID)}); read them as NULL (SQL) or None (Python) "
                "before applying the rule, as the app did." for c in columns
                if c in self.X.columns and self.X[c].isna().any() and not any(
                    n.startswith(f"{c!r}:") and "missing" in n for n in said)]
        return said + shared + derived + gaps

    def with_positive(self, label: Any) -> Dataset:
        """The same data with ``label`` as the positive class."""
        match = [c for c in self.classes if c == label or str(c) == str(label)]
        if not match:  # "yes" for the class "Yes" (spellings are merged on loading)
            match = [c for c in self.classes if str(c).casefold() == str(label).casefold()]
        if not match:  # "+1" (as the file writes it) for the class 1, "1.0" for 1
            number = pd.to_numeric(pd.Series([str(label).strip()]), errors="coerce").iloc[0]
            match = [c for c in self.classes if isinstance(show(c), (int, float))
                     and not isinstance(show(c), bool) and show(c) == number]
        if not match:
            # (the classes as text: joining numbers raised a TypeError, a traceback for
            # '--positive yes' on a 1/0 target: an analyst's review)
            raise DataError(f"{show(label)!r} is not a class of the target {self.target!r}; "
                            f"the classes are {', '.join(str(show(c)) for c in self.classes)}.")
        return replace(self, positive=match[0], _digest=list(self._digest), _leaks={})

    def with_kinds(self, overrides: Mapping[str, Kind]) -> Dataset:
        """The same data with some column kinds changed (values converted to match)."""
        X = self.X.copy()
        kinds = dict(self.kinds)
        notes = list(self.notes)
        for col, kind in overrides.items():
            if col not in X.columns:
                raise DataError(f"There is no column {col!r} to change.")
            if kind == kinds[col]:
                continue
            if kind == "numeric":
                X[col], note = forced_numbers(X[col], col)
                if note:
                    notes.append(note)
            elif kind == "categorical":
                X[col] = _as_text(X[col])
            elif kind == "ordinal":
                order = level_order(X[col])
                if order is None:
                    raise DataError(
                        f"{col!r} cannot be read as ordered: its levels are not the words of "
                        f"a known scale (such as Low < Medium < High).")
                text = _as_text(X[col])
                X[col] = pd.Categorical(text.where(text.isin(order)), categories=list(order),
                                        ordered=True)
            else:
                raise DataError(f"Unknown column kind {kind!r}; use 'numeric', 'categorical' "
                                "or 'ordinal'.")
            kinds[col] = kind
        return replace(self, X=X, kinds=kinds, notes=tuple(notes), _digest=[], _leaks={})


#: Cells of nothing but a dash: no value (:func:`_dash_as_missing`).
_DASHES = ("-", "--", "---", "\u2014", "\u2013")


def _dash_as_missing(df: pd.DataFrame) -> pd.DataFrame:
    """A text frame's ``-`` cells as missing values, but in a column of signs, ``+`` and
    ``-`` (a test result, an upsell flag; a dipstick's ``-``, ``+``, ``++``, ``+++``): read
    as missing there, the target lost its
    negative class and the table was refused as "a single class ('+')", or another column
    was predicted (a review).  ``--`` and a lone dash of another width (``—``, ``–``) are no
    value too: PLINK's genotype no-call ``--`` was a level, ``rs7903146 != --`` a condition
    (an analyst's review)."""
    for col in df.columns:
        dash = df[col].isin(_DASHES)
        if not dash.any():
            continue
        others = df[col][~dash].dropna()
        # beside a single other value the dash is the other answer (Qualified / —: made
        # missing, the column was "a single class": an adversarial review)
        if others.empty or not others.str.fullmatch(r"\++").all() and \
                others.nunique() > 1:
            df[col] = df[col].mask(dash)
    return df


#: The shorthand the UK's Government Statistical Service writes in a cell with no value
#: (its guidance "Using symbols and shorthand in tables", as ONS spreadsheets follow it).
NO_VALUE_SHORTHAND = {"[x]": "not available", "[z]": "not applicable",
                      "[c]": "confidential", "[w]": "no data"}


def _shorthand_as_missing(s: pd.Series) -> tuple[pd.Series, str]:
    """A column of words' cells written in :data:`NO_VALUE_SHORTHAND` as missing values, and
    a note saying so (``""`` where there are none, or where the column is numbers)."""
    if pd.api.types.is_numeric_dtype(s) or not (
            pd.api.types.is_object_dtype(s) or pd.api.types.is_string_dtype(s)):
        return s, ""
    # (a hash pass over the cells as they are, stripped already: no text copy of every
    # column of a million rows)
    coded = s.isin({v for c in NO_VALUE_SHORTHAND for v in (c, c.upper())})
    if not coded.any():
        return s, ""
    text = s[coded].astype(str).str.lower()
    others = s[~coded].dropna()
    if len(others) and pd.to_numeric(others.astype(str).str.replace(",", ""),
                                     errors="coerce").notna().mean() >= 0.5:
        return s, ""  # numbers: numbers_with_codes reads and says them
    counts = text.value_counts()
    return s.mask(coded), ("the statistical shorthand " + ", ".join(
        f"{c!r} ({NO_VALUE_SHORTHAND[c]}, {k:,} cells)" for c, k in counts.items())
        + " is read as no value, not as a category.")


def _minus_one_yes(s: pd.Series) -> pd.Series | None:
    """A text column whose cells are ``-1`` and ``0`` only, both there (Access's Yes/No
    fields as it exports them), as ``yes`` and ``no``; else ``None``."""
    if pd.api.types.is_numeric_dtype(s):
        return None
    present = s.dropna()
    if len(present) < 5 or not present.iloc[:50].astype(str).str.strip().isin(("-1", "0")).all():
        return None  # (most columns stop at their first cells)
    if set(present.astype(str).str.strip().unique()) != {"-1", "0"}:
        return None
    return s.map({"-1": "yes", "0": "no"}, na_action="ignore").where(s.notna())


def _none_as_missing(s: pd.Series) -> pd.Series:
    """A text column's ``None`` cells as missing values, but where ``None`` is a step of the
    column's scale (``None < Mild < Moderate < Severe``; read as missing, the pain scale's
    rule became "pain is missing": a review)."""
    if pd.api.types.is_numeric_dtype(s):
        return s
    nones = s.isin(["None", "None ", " None"])  # one hash pass: a million rows per column
    if not nones.any():
        return s
    order = level_order(s)
    if order is not None and any(v.strip() == "None" for v in order):
        return s
    return s.mask(nones)


def _in_order(s: pd.Series, order: Sequence[str], col: str) -> tuple[pd.Series, str]:
    """A column put in the order a user gave (lowest first) as an ordered ``Categorical``,
    cells of other levels missing, and a note saying so."""
    from rulecore.rules.terms import level_key

    levels = [str(v).strip() for v in order]
    if len({level_key(v) for v in levels}) < len(levels) or len(levels) < 3:
        raise DataError(f"The order given for {col!r} must list three levels or more, each "
                        f"once (got {', '.join(map(repr, levels))}).")
    text = _as_text(s).map(lambda v: str(v).strip(), na_action="ignore")
    outside = text.notna() & ~text.isin(levels)
    present = set(text[~outside].dropna())
    if len([v for v in levels if v in present]) < 3:
        raise DataError(f"The order given for {col!r} names fewer than three of its levels; "
                        f"its levels are {', '.join(map(repr, sorted(set(text.dropna()))[:12]))}.")
    out = pd.Series(pd.Categorical(text.where(~outside), categories=levels, ordered=True),
                    index=s.index, name=s.name)
    said = f"{col!r}: read in the order given ({describe_order(tuple(levels))})"
    if outside.any():
        others = text[outside].value_counts().index[:3]
        said += (f"; {_cells(int(outside.sum()))} of other levels "
                 f"({', '.join(map(repr, others))}) are read as missing")
    return out, said + "."


def forced_numbers(s: pd.Series, col: str) -> tuple[pd.Series, str | None]:
    """A column the user asked to read as numbers: its numbers (as :func:`parse_numbers`
    reads them), other cells missing, and a note saying how many; refused (a
    :class:`DataError`) when fewer than half of its values are numbers, since it then is not
    a column of numbers at all."""
    parsed = parse_numbers(s)
    if pd.api.types.is_numeric_dtype(parsed):
        return parsed.astype(float), None
    num = pd.to_numeric(s, errors="coerce").astype(float)
    bad = num.isna() & s.notna()
    present = int(s.notna().sum())
    examples = ", ".join(repr(show(v)) for v in s[bad].drop_duplicates().iloc[:3])
    if int(bad.sum()) > present / 2:
        raise DataError(f"Column {col!r} cannot be numeric: {int(bad.sum()):,} of its "
                        f"{present:,} values ({examples}, ...) are not numbers.")
    return num, (f"{col!r}: read as numbers as asked; {_cells(int(bad.sum()))} that are not "
                 f"numbers ({examples}) are read as missing values.")


def _cells(n: int, what: str = "") -> str:
    """``"1 cell"``, ``"12 cells"`` (``what`` before the noun: "3 spreadsheet error cells")."""
    return f"{n:,} {what + ' ' if what else ''}cell{'' if n == 1 else 's'}"


def show(v: Any) -> Any:
    """A value as a person reads it: numpy scalars become Python ones (``3``, not
    ``np.int64(3)``), so messages never show a numpy repr."""
    if isinstance(v, np.generic):
        return v.item()
    return v


def _sort_key(v: Any) -> tuple:
    return (0, v, "") if isinstance(v, (int, float, np.number)) else (1, 0, str(v))


def _as_text(s: pd.Series) -> pd.Series:
    """Categorical values as strings; integral floats lose their '.0' (2.0 -> '2')."""
    if pd.api.types.infer_dtype(s, skipna=True) == "string":
        return s.astype(object)  # already text (a CSV's cells): nothing to format

    def fmt(v: Any) -> Any:
        if pd.isna(v):
            return np.nan
        if isinstance(v, (float, np.floating)) and float(v).is_integer():
            return str(int(v))
        return str(v)
    return s.map(fmt).astype(object)


# --------------------------------------------------------------------------- reading CSV


def _read_bytes(source: str | os.PathLike | IO, max_bytes: int) -> tuple[bytes, str]:
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise DataError(f"File not found: {path}")
        if path.stat().st_size > max_bytes:
            raise DataError(f"{path.name} is {path.stat().st_size / 2**20:.0f} MB; the limit is "
                            f"{max_bytes / 2**20:.0f} MB. Sample the rows and try again.")
        return path.read_bytes(), path.name
    name = getattr(source, "name", "uploaded file")
    data = source.read(max_bytes + 1)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if len(data) > max_bytes:
        raise DataError(f"{name} is larger than the {max_bytes / 2**20:.0f} MB limit. "
                        "Sample the rows and try again.")
    return data, Path(str(name)).name


def _utf16(data: bytes) -> str | None:
    """The codec of UTF-16 text (Excel's "Unicode Text" export), or ``None``: a byte-order
    mark, or without one, a zero in every other byte of the first few hundred (ASCII text
    written in two bytes a character)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    head = data[:512]
    if len(head) >= 16 and len(head) % 2 == 0:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) == len(odd) and even.count(0) == 0:
            return "utf-16-le"
        if even.count(0) == len(even) and odd.count(0) == 0:
            return "utf-16-be"
    return None


def _decode(data: bytes, name: str) -> tuple[str, str | None]:
    """The file's text, and a note when it was not UTF-8.

    Excel on Windows saves "CSV" in Windows-1252 (Western European), not UTF-8: such a file is
    read in that encoding, with a note.  Bytes that are not text in either encoding (control
    characters, bytes Windows-1252 leaves undefined) are refused.
    """
    if not data.strip():
        raise DataError(f"{name} is empty.")
    utf16 = _utf16(data)
    if utf16 is not None:
        # Excel's "Unicode Text" (tab-separated UTF-16): refused as binary before (a review)
        try:
            text = data.decode(utf16)
        except UnicodeDecodeError:
            raise DataError(f"{name} starts like UTF-16 text but does not decode as it. Save "
                            "it as 'CSV UTF-8' and upload it again.") from None
        if not text.strip("\ufeff \t\r\n"):
            raise DataError(f"{name} is empty.")
        if any(ord(ch) < 32 and ch not in "\t\n\r" for ch in text[:65536]):
            # two-byte numbers of a sensor's dump decode, but as control characters
            raise DataError(f"{name} looks like a binary file, not a CSV text table.")
        return text.lstrip("\ufeff"), None
    if b"\x00" in data[:65536]:
        raise DataError(f"{name} looks like a binary file, not a CSV text table.")
    # the BOM off first: a UTF-8 file with a few Windows-1252 bytes kept it as "ï»¿ticket"
    # in its first column's name, and the byte named was 3 bytes early (a stranger's file)
    bom = data.startswith(b"\xef\xbb\xbf")
    body = data[3:] if bom else data
    try:
        return body.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = body[: exc.start].count(b"\n") + 1
        byte = body[exc.start]
    refuse = DataError(
        f"{name} is not UTF-8 text (byte 0x{byte:02x} on line {line}). Save it as 'CSV UTF-8' "
        "in your spreadsheet program and upload it again.")
    japanese = None if bom else _shift_jis(body)
    if japanese is not None:
        return japanese, (f"{name} is not UTF-8 (byte 0x{byte:02x} on line {line}): it is "
                          "read as Shift_JIS (cp932), the encoding Japanese Excel uses for "
                          "'CSV'. If letters look wrong, save it as 'CSV UTF-8' and upload it "
                          "again.")
    # A UTF-8 file with a few Windows-1252 bytes (a name typed in another program, "Renée")
    # is read as UTF-8 where it is and those bytes as Windows-1252, so that its other accents
    # stay ("zurück", not "zurÃ¼ck").  Only when UTF-8 clearly dominates: in Windows-1252
    # text a capital accent or ß before a curly quote or a dash ("Spaß“") is valid UTF-8 too,
    # and a whole Windows-1252 file (Excel's 'CSV') is read as one, as before (a review)
    # (decided on the first 4 MB: the count takes about 1 s per 50 MB; counted in full
    # only for the note of a mixed file, which is rare)
    valid, bad = _utf8_sequences(body[:4 << 20])
    mixed = valid >= MIXED_UTF8_RATIO * bad
    if mixed and len(body) > 4 << 20:
        valid, bad = _utf8_sequences(body)
        mixed = valid >= MIXED_UTF8_RATIO * bad
    try:
        text = body.decode("utf-8", errors=_CP1252_BYTES) if mixed else body.decode("cp1252")
    except UnicodeDecodeError:
        raise refuse from None
    if any(ord(ch) < 32 and ch not in "\t\n\r" for ch in text[:65536]):
        raise refuse
    if mixed:
        return text, (f"{name} is UTF-8 but for {bad:,} byte{'s' if bad != 1 else ''} (the "
                      f"first, 0x{byte:02x}, on line {line}), read as Windows-1252, the encoding "
                      "Excel uses for 'CSV': the file may have been edited in two programs. If "
                      "accented letters look wrong, save it as 'CSV UTF-8' and upload it again.")
    return text, (f"{name} is not UTF-8 (byte 0x{byte:02x} on line {line}): it is read as "
                  "Windows-1252, the encoding Excel uses for 'CSV'. If accented letters look "
                  "wrong, save it as 'CSV UTF-8' and upload it again.")


def _cp1252_error(exc: UnicodeError) -> tuple[str, int]:
    """A decoding error handler: the bytes that are not UTF-8 read as Windows-1252 (one
    that is not text there either, 0x81, raises)."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start:exc.end].decode("cp1252"), exc.end


_CP1252_BYTES = "rulecore-cp1252"
codecs.register_error(_CP1252_BYTES, _cp1252_error)


#: A file is read as UTF-8 with a few Windows-1252 bytes when it holds at least this many
#: valid multi-byte UTF-8 characters per byte that is not UTF-8.
MIXED_UTF8_RATIO = 4
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|"
                            rb"[\xf0-\xf4][\x80-\xbf]{3}")


def _utf8_sequences(data: bytes) -> tuple[int, int]:
    """``(valid, bad)``: the multi-byte UTF-8 characters of ``data``, and its bytes beyond
    ASCII that belong to none (by regular expressions: a 58 MB Windows-1252 file took 8.6 s
    counted character by character, a review)."""
    found = _UTF8_SEQUENCE.findall(data)
    beyond = len(data) - len(data.translate(None, bytes(range(128, 256))))
    return len(found), beyond - sum(map(len, found))


def _is_number(cell: str) -> bool:
    """Whether a CSV cell reads as a plain number."""
    try:
        float(cell.strip())
        return True
    except ValueError:
        return False


#: Lines above a table's header that may be skipped (a title, an export stamp, settings).
MAX_LINES_ABOVE = 30
#: The most lines one record (a quoted cell with line breaks) may take when the layout is
#: read (:func:`_layout`).
LONGEST_RECORD = 200


#: The field separators a text table may use.
SEPARATORS = (",", ";", "\t", "|")


def _separators(text: str) -> tuple[str, ...]:
    """:data:`SEPARATORS`, and ``$`` where the first line is split by ``$`` alone into three
    fields or more (FDA's FAERS files: ``primaryid$caseid$...``).  Tried on every file, ``$``
    split a table of '$' amounts at them (a space-separated file's, a comma file whose rows
    leave a last field off: a review)."""
    first = text.lstrip("\ufeff \t\r\n").partition("\n")[0]
    if first.count("$") >= 2 and not any(d in first for d in SEPARATORS):
        return (*SEPARATORS, "$")
    return SEPARATORS


def _layout(text: str, delimiters: tuple[str, ...] | None = None,
            ragged: bool = False) -> tuple[str | None, int, bool]:
    """How the lines are laid out: ``(delimiter, lines above the header, short header)``.

    The delimiter is the one of ``, ; tab |`` that splits the most of the first 60 lines
    into one same number m ≥ 2 of fields.  Leading lines (at most :data:`MAX_LINES_ABOVE`) with
    fewer fields are
    a report's title or export stamp above the header, unless the last of them has m − 1
    fields and the line under it holds numbers: that is a *short header* over rows of data
    (R's ``write.table`` writes row names without a name for their column).
    ``(None, 0, False)`` when no delimiter splits the lines.  ``ragged``: a workbook sheet
    written with each row's trailing empty cells left off, so the header may be the longest
    line and a line one field short is not R's header.
    """
    from collections import Counter

    delimiters = _separators(text) if delimiters is None else delimiters

    # records, not lines: a quoted header cell with a line break in it ("Annual\nIncome",
    # as Excel writes a wrapped heading) split the header, and its first half was skipped
    # as a title (a review); spans[i] is how many lines record i takes, as the csv module
    # reads them with each delimiter (a quote inside a cell, 15", opens nothing)
    # Records of up to 5 lines, so that a stray opening quote does not swallow the lines
    # after it; or of up to LONGEST_RECORD lines, where that makes more records agree on
    # their number of fields: a Jira export's descriptions run to a dozen lines, and read
    # 5 lines at a time its records agreed on nothing, the header was skipped as a title
    # and the columns named x1 ... x40 (a stranger's export)
    lines = text[:500_000].split("\n")[:2000]
    best = None
    for d in delimiters:
        for longest in (5, LONGEST_RECORD):
            rows, spans = _records(lines, d, 100, longest)
            counts = [len(r) if any(c.strip() for c in r) else 0 for r in rows]
            body = [c for c in counts if c > 1]
            if body:
                m, freq = Counter(body).most_common(1)[0]
                if best is None or freq > best[0]:
                    best = (freq, d, m, counts, rows, spans)
            if sum(spans) <= len(rows):
                break  # every record on one line: the longer reading is the same
    if best is None:
        return None, 0, False
    _, d, m, counts, rows, spans = best
    # the first line with all m fields, after at most 10 shorter ones; a title padded with
    # empty cells to the table's width ("Opportunities by Region,,,,,,", as Salesforce and
    # Excel write a report) is a shorter one: one filled cell (an analyst's review)
    filled = [sum(bool(c.strip()) for c in r) for r in rows]
    k = 0
    # (an instrument's export: a plate reader writes 18 lines of settings above its table)
    while k < min(len(counts), MAX_LINES_ABOVE) and (counts[k] < m or (m > 2 and filled[k] <= 1)):
        k += 1
    if k == 1 and counts[0] == m:
        k = 0  # one padded title: the title line above a header says it (_repeated_headers)
    if k == 0 or k >= len(counts) or (counts[k] < m if ragged else counts[k] != m):
        return d, 0, False
    if ragged:
        return d, sum(spans[:k]), False

    if counts[k - 1] == m - 1 and any(map(_is_number, rows[k])):
        # a line one field short above a row of data: R's header, the rows' names unnamed
        return d, sum(spans[:k - 1]), True
    return d, sum(spans[:k]), False  # shorter lines above a header: a title, an export stamp


def _records(lines: list[str], delimiter: str, n: int, longest: int = 5
             ) -> tuple[list[list[str]], list[int]]:
    """The first ``n`` records of a CSV's ``lines`` as the csv module reads them with
    ``delimiter`` (a quoted cell may hold line breaks), and the lines each takes.  A record
    of more than ``longest`` lines (a stray opening quote) is read line by line instead, so
    it does not swallow the file."""
    rows, spans, i = [], [], 0
    while i < len(lines) and len(rows) < n:
        reader = csv.reader(io.StringIO("\n".join(lines[i:i + longest])), delimiter=delimiter)
        try:
            row = next(reader, [])
            used = max(reader.line_num, 1)
        except csv.Error:
            row, used = [], 1
        if used > 1 and i + used - 1 >= len(lines):
            used = 1  # ran off the lines looked at: not a record that closes
        if used == 1 and "\n" in "".join(row):
            row = next(csv.reader([lines[i]], delimiter=delimiter), [])
        rows.append(row)
        spans.append(used)
        i += used
    return rows, spans


def _names_numbers(first: list[str], rest: list[list[str]], j: int) -> bool:
    """Whether cell ``j`` of the first row is a word (a letter, not a missing-value code)
    above a column whose other present cells are numbers."""
    head = first[j].strip()
    if not re.search(r"[^\W\d_]", head) or head in _NA_VALUES or _is_number(head):
        return False
    below = [r[j].strip() for r in rest if j < len(r) and r[j].strip() not in _NA_VALUES]
    return len(below) >= 2 and all(_is_number(c) for c in below)


def _as_year(cell: str) -> float | None:
    """A cell's whole year from 1900 to 2100 (``2014``, ``2014.0``), else None."""
    try:
        v = float(cell.strip().replace(",", ""))
    except ValueError:
        return None
    return v if np.isfinite(v) and v == round(v) and 1900 <= v <= 2100 else None


def _year_names(first: list[str], rest: list[list[str]]) -> bool:
    """Whether the numbers of the first row are years naming columns (a wide panel:
    ``Firm, Sector, 2014, 2015, ..., Distressed`` over values that are not years): three or
    more whole years from 1900 to 2100, in order and evenly spaced, beside at least one word.
    Read as data, the header became a record and the columns x1 ... x13 (a review)."""
    numbers = [(j, c.strip()) for j, c in enumerate(first) if _is_number(c.strip())]
    words = [c for c in first if re.search(r"[^\W\d_]", c) and not _is_number(c.strip())]
    # three years or more (a headerless record 'Seattle,house,1995,2005,good,yes' holds
    # two: an adversarial review)
    if len(numbers) < 3 or not words:
        return False
    years = []
    for j, c in numbers:
        year = _as_year(c)
        if year is None:
            return False
        years.append(year)
        below = [r[j].strip() for r in rest if j < len(r) and r[j].strip()]
        if below and all(_as_year(b) is not None for b in below):
            return False  # a column of years under a year: data
    # a panel's years, in order and evenly spaced (2014, 2015 ... or 2000, 2005 ...)
    steps = np.diff(years)
    return bool(len(set(years)) == len(years) and (steps > 0).all() and
                (steps == steps[0]).all())


#: Share of a first row of text whose cells are also values below them in their columns,
#: from which it is a record, not a header (:func:`_sniff`).
HEADERLESS_SHARE = 0.8


def _sniff(text: str) -> tuple[str, bool]:
    """Delimiter and whether the first row is a header."""
    sample = "\n".join(text.splitlines()[:50])
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters="".join(_separators(text))).delimiter
    except csv.Error:
        delimiter = ","
    rows = list(csv.reader(io.StringIO(sample), delimiter=delimiter))
    rows = [r for r in rows if any(c.strip() for c in r)]
    if len(rows) < 2:
        return delimiter, True

    first, rest = rows[0], rows[1:]
    # A header is a first row with no numbers above rows that have numbers, or the first row
    # Python's sniffer calls a header.  A row of all-text values over all-text values is
    # taken as a header too: files without a header and without numbers are rare.  A first
    # row with numbers is still a header when it names a column of numbers (years as column
    # names, "2019,2020,grew": a notebook review saw every name become x1, x2, ...).
    if any(_is_number(c) for c in first):
        return delimiter, any(_names_numbers(first, rest, j) for j in range(len(first))) or \
            _year_names(first, rest)
    if any(_is_number(c) for r in rest for c in r):
        return delimiter, True
    # ... but not a first row whose cells are values of their own columns: UCI's mushroom
    # file, one-letter codes throughout, had its first record read as the names ('p', 'x',
    # 's', ... eleven of them twice) and predicted a feature (a stranger's download)
    # (the header repeated inside the table, a paged report's, is no value below it; and a
    # header names its columns once, where the mushroom file's first record repeated eleven
    # of its letters: 'A,B,C' over letter grades is a header, a review)
    names = [c.strip() for c in first]
    below = [r for r in rest if [c.strip() for c in r] != names]
    if len(first) >= 3 and len(set(names)) < len(names):
        seen = [names[j] in {r[j].strip() for r in below if j < len(r)}
                for j in range(len(first))]
        if sum(seen) >= HEADERLESS_SHARE * len(first):
            return delimiter, False
    try:
        return delimiter, csv.Sniffer().has_header(sample) or True
    except csv.Error:
        return delimiter, True


def written_delimiter(frame: pd.DataFrame) -> str:
    """The delimiter to write ``frame`` back with: the one its file was read with when that
    was ``;``, tab or ``|`` (:func:`read_csv_frame` keeps it in ``attrs``), else ``,``.  A
    ``;`` export with decimal commas, scored and written with ``,``, opened as one column in
    a German Excel (a stranger's review)."""
    sep = frame.attrs.get("delimiter")
    return sep if sep in (";", "\t", "|") else ","


def read_csv_frame(
    source: str | os.PathLike | IO,
    *,
    name: str | None = None,
    sheet: str | None = None,
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    max_columns: int = MAX_COLUMNS,
) -> tuple[pd.DataFrame, str]:
    """Parse a table file into a frame of text cells (``NaN`` where missing) and its display
    name.

    The expensive half of :func:`load_csv`, with no decision about targets or roles, so that
    an app can parse an upload once and then try targets and column roles on the result
    (:func:`from_frame` with ``typed=False``).  Besides CSV text and LIBSVM, it reads
    workbooks (``.xlsx``, ``.xls``, ``.xlsb``, ``.ods``; ``sheet``: default the one with the
    most rows), Parquet, Feather, Stata, SPSS and SAS files, and any of them gzip-compressed
    or alone in a ZIP archive
    (:mod:`rulecore.formats`); a workbook's frame has ``attrs["sheets"]`` and
    ``attrs["sheet"]``.

    Raises
    ------
    DataError
        For an empty, binary, non-UTF-8, unparseable, one-column or prose file, duplicate
        column names, a file over the size limits, a damaged workbook or SPSS / SAS file, or
        a format this reader does not open (Apple Numbers, PDF, a password-protected
        workbook: the message says what to do).
    """
    data, fname = _read_bytes(source, max_bytes)
    fname = name or fname
    if not data.strip():
        raise DataError(f"{fname} is empty.")
    data, fmt, unpacked = formats.identify(data, fname, max_bytes)
    notes = [unpacked] if unpacked else []
    if sheet is not None and fmt not in formats.WORKBOOKS:
        raise DataError(f"{fname} is not a spreadsheet workbook, so it has no sheet "
                        f"{sheet!r}.")
    if fmt in formats.TYPED:
        df = formats.typed_frame(data, fmt, fname, max_rows, max_columns)
        if len(df) == 0:
            raise DataError(f"{fname} has no rows.")
        if df.shape[1] < 2:
            raise DataError(f"{fname} has only one column: a table to learn from needs a "
                            "target column and at least one feature column.")
        df.attrs["notes"] = notes + list(df.attrs.get("notes", ()))  # Stata's value labels
        return df, fname
    if fmt in formats.WORKBOOKS:
        text, width, sheets, chosen, said, by_size = formats.workbook_text(
            data, fname, sheet, max_rows, max_columns, fmt)
        df = _frame_from_text(text, fname, notes + said, max_rows, max_columns,
                              sheet_width=width,
                              where=f"{'Table' if fmt == 'html' else 'Sheet'} {chosen!r} of "
                                    f"{fname}")
        df.attrs["sheets"], df.attrs["sheet"] = sheets, chosen
        if sheet is None:  # the default: other sheets to try if it holds no table
            df.attrs["by_size"] = by_size
        return df, fname
    text, encoding_note = _decode(data, fname)
    if encoding_note:
        notes.append(encoding_note)
    # Old Mac files end lines with a bare CR; the csv module wants \n.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _is_svmlight(text):
        return _svmlight_frame(data, text, fname, notes, max_rows, max_columns), fname
    if formats.looks_like_json(text):
        df = formats.json_frame(text, fname, max_rows, max_columns)
        if len(df) == 0 or df.shape[1] < 2:
            raise DataError(f"{fname} has no records with two fields or more: a table to "
                            "learn from needs a target column and a feature column.")
        df.attrs["notes"] = notes + list(df.attrs.get("notes", ()))  # Extended JSON's
        return df, fname
    return _frame_from_text(text, fname, notes, max_rows, max_columns), fname


@contextmanager
def sheet_hint(frame: pd.DataFrame) -> Iterator[None]:
    """Add to a :class:`DataError` raised inside the block which sheet of a workbook was
    read and that another can be chosen: a pivot sheet read as the table was refused with
    "the target 'W52' is a number ..." and no word of sheets."""
    try:
        yield
    except DataError as exc:
        sheets = frame.attrs.get("sheets") or []
        if len(sheets) < 2:
            raise
        others = ", ".join(repr(t) for t in sheets if t != frame.attrs.get("sheet"))
        raise DataError(f"{exc} (Read sheet {frame.attrs.get('sheet')!r} of the workbook; its "
                        f"other sheets: {others}. Choose another with the Sheet selector or "
                        "--sheet.)") from None


def sheet_names(source: str | os.PathLike | IO, max_bytes: int = MAX_BYTES) -> list[str]:
    """The sheets of an Excel workbook, in order (hidden ones left out); ``[]`` for any
    other file.  Quick: the cells are not read."""
    data, fname = _read_bytes(source, max_bytes)
    data, fmt, _ = formats.identify(data, fname, max_bytes)
    if fmt not in formats.WORKBOOKS:
        return []
    return [title for title, _ in formats.workbook_sheets(data, fmt)]


def _first_block(text: str, delimiter: str, notes: list[str]) -> str:
    """The file up to a second table: a line of '#' (Google Analytics' exports separate
    their tables so), then a header of another width ("Day Index,Sessions" under a table of
    twelve columns).  Read as records, the second table's 90 days made a column of text
    and its totals a class (an analyst's review)."""
    if "\n#" not in text:  # (every file passes here: no split of the whole text first)
        return text
    lines = text.split("\n")
    if len(lines) < 3:
        return text
    width = len(next(csv.reader([lines[0]], delimiter=delimiter), []))

    # a line inside a quoted cell is no comment: Jira's descriptions hold numbered lists,
    # '# open page', and the file was cut there and refused ("EOF inside string", a
    # stranger's export).  The lines that start a record, as the csv module reads them: a
    # quote opens a cell only at its start (counting quotes, one inch mark in '12" pipe'
    # put every later line inside a cell, a review)
    outside = [False] * len(lines)
    reader = csv.reader(io.StringIO(text, newline="\n"), delimiter=delimiter)
    start = 0
    try:
        for _ in reader:
            outside[min(start, len(lines) - 1)] = True
            start = reader.line_num
    except csv.Error:  # a cell open to the end, or over the field size limit: as lines
        outside = [True] * len(lines)

    def comment(i: int) -> bool:  # "# ----", "# Day Index": not a record ("#1234,a,b")
        line = lines[i]
        if not outside[i] or not line.startswith("#"):
            return False
        cells = next(csv.reader([line], delimiter=delimiter), [])
        return sum(bool(c.strip()) for c in cells) < 2

    for i in range(1, len(lines)):
        if not comment(i):
            continue
        after = [x for j, x in enumerate(lines[i + 1:], start=i + 1)
                 if x.strip() and not comment(j)]
        if not after:
            return "\n".join(lines[:i])  # comment lines at the end
        fields = len(next(csv.reader([after[0]], delimiter=delimiter), []))
        if fields != width:
            notes.append(f"Left out a second table after the first ({after[0].strip()[:60]!r}"
                         f", {len(after):,} lines), as Google Analytics writes its exports: "
                         "not records of the first.")
            return "\n".join(lines[:i])
    return text


def _printed_list_rows(text: str, notes: list[str]) -> str:
    """A printed list (SAP's ALV lists, ``|Customer |Name |...|``) without the lines that
    hold no ``|``: the rules of dashes around its headers and each page's title line.  Read
    as records they were 41 empty rows of the class "no" and "copies" in a note (a review of
    an FBL5N export)."""
    lines = text.split("\n")
    filled = [ln.strip() for ln in lines if ln.strip()]
    # a printed list's rows begin with '|'; a '|'-separated file's do not, and its quoted
    # text may run over lines without one (an adversarial review: they were dropped)
    if sum(ln.startswith("|") for ln in filled) < 0.8 * len(filled):
        return text
    kept = [ln for ln in lines if "|" in ln or not ln.strip()]
    dropped = [ln.strip() for ln in lines if "|" not in ln and ln.strip()]
    if not dropped or len(kept) < 2 * len(dropped):
        return text
    titles = [t for t in dropped if not re.fullmatch(r"[-=_+\s]+", t)]
    notes.append(f"Left out {len(dropped):,} lines without the table's '|' (the lines of "
                 "dashes of a printed list" + (f" and its page titles, such as "
                 f"{titles[0][:60]!r}" if titles else "") + ").")
    return "\n".join(kept)


#: The label over a block of notes under a table, and the lines such a block may have.
_NOTES_LABELS = {"notes", "note", "footnotes", "footnote", "source", "sources", "legend",
                 "remarks", "definitions", "notes and sources"}
NOTES_BLOCK_ROWS = 20
#: ... and under a line of dashes (CDC WONDER's query, citation and caveats).
DASHED_BLOCK_ROWS = 200
#: Lines of a footer under a table read as notes at most: single cells of words (a report's
#: title, copyright, who generated it, its filters), each under four records at least.
FOOTER_LINES = 12
_PSQL_RULE = re.compile(r"^[-=]+(?:\+[-=]+)+$")
#: A Markdown table's line under its header (Notion, GitHub, pandas' to_markdown):
#: ``|:---|---:|``, colons for the alignment.
_MARKDOWN_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?$")
_PSQL_FOOTER = re.compile(r"^\(\d[\d,]* rows?\)$")


def _psql_frame(text: str, notes: list[str]) -> str:
    """psql's aligned output without its frame: the ``-----+-----`` line under the header and
    the ``(1200 rows)`` footer were two rows, which made an id column "not numbers" and kept
    it as a feature (an analyst's review)."""
    lines = text.split("\n")
    rules = {ln for ln in lines if _PSQL_RULE.match(ln.strip())}
    if not rules:
        return text
    footers = [ln.strip() for ln in lines if _PSQL_FOOTER.match(ln.strip())]
    notes.append("Read as psql's output: the line under the header "
                 + (f"and the footer {footers[0]!r} " if footers else "") + "are no records.")
    return "\n".join(ln for ln in lines if ln not in rules and ln.strip() not in footers)


def _markdown_frame(text: str, notes: list[str]) -> str:
    """A Markdown table (Notion, GitHub, ``df.to_markdown()``) without its alignment line
    and the outer ``|`` of its rows.  The ``|:---|---:|`` line was a record: a third class
    of the target and '$92,000' in a column of text (an analyst's review of a Notion
    export); only the line right under the header is it (a row of dashes for missing values
    further down is a record: an adversarial review)."""
    lines = text.split("\n", 50)
    piped = [i for i, ln in enumerate(lines[:50]) if "|" in ln]
    if len(piped) < 2 or piped[1] != piped[0] + 1 or \
            not _MARKDOWN_RULE.match(lines[piped[1]].strip()):
        return text
    notes.append("Read as a Markdown table: the line of dashes under the header is no record.")
    lines = text.split("\n")
    del lines[piped[1]]
    # its rows' outer '|' frame them: no empty column before the first or after the last
    return "\n".join(re.sub(r"^\s*\|(.*?)\|?\s*$", r"\1", ln) for ln in lines)


def _names_under(text: str, delimiter: str, names: list[str], runs: Mapping[str, int]) -> bool:
    """Whether the line under a header row holds distinct names (no numbers, none empty)
    under every column of the ``runs`` of repeated header names: that row then names the
    columns, and the repeated names are group titles over them."""
    rows = csv.reader(io.StringIO(text), delimiter=delimiter)
    next(rows, None)
    second = next(rows, None)
    if second is None or len(second) != len(names):
        return False
    under = [second[i].strip() for i, n in enumerate(names) if n in runs]
    return all(u and not _is_number(u) for u in under) and len(set(under)) == len(under)


def _adjacent_runs(names: list[str], dups: list[str]) -> dict[str, int] | None:
    """``{name: columns}`` when every repeated name repeats in one run of adjacent columns
    (``Labels, Labels, Labels``), else ``None``."""
    if not dups:
        return None
    runs: dict[str, int] = {}
    for c in dups:
        at = [i for i, n in enumerate(names) if n == c]
        if at[-1] - at[0] + 1 != len(at):
            return None
        runs[c] = len(at)
    return runs


def _numbered_names(names: list[str], dups: Iterable[str], where: str, said: str,
                    spaces: bool = False) -> list[str]:
    """``names`` with each of ``dups`` numbered in order, ``Distance (1)``, ``Distance
    (2)``: refused as duplicate names, Strava's activities export (a distance in km and
    again in metres, both named 'Distance') could not be read at all (a stranger's).
    Refused still where a number would give a name the file already has."""
    dups = set(dups)
    taken = set(names)
    nth: dict[str, int] = {}
    out = []
    for n in names:
        if n in dups:
            nth[n] = nth.get(n, 0) + 1
            n = f"{n} ({nth[n]})"
            if n in taken:
                raise DataError(f"{where} has duplicate column names: {said}"
                                + (" (names that differ only in spaces around them or "
                                   "line breaks are one name here)" if spaces else "")
                                + ". Rename them so every column has its own name.")
        out.append(n)
    return out


def _merge_value_columns(df: pd.DataFrame, runs: Mapping[str, int], notes: list[str],
                         where: str) -> pd.DataFrame:
    """The columns of one repeated name (``Labels\x001``, ``Labels\x002``, ...) as one
    column of their values joined by ``;`` (options ticked, :func:`roles.choice_options`),
    when they hold words, not numbers, and fill up from the first (an issue's second label
    only where it has a first).  The columns of another repeated name of words side by
    side are numbered, ``Comment (1)``, ``Comment (2)``, with a note: refused as duplicate
    names, a Jira export whose comments filled otherwise could not be read at all (a
    stranger's).  So are repeated names of numbers (two measurements of one name: which is
    which is the user's to say)."""
    numbered = {}
    for base, k in runs.items():
        parts = [df[f"{base}\x00{j}"] for j in range(1, k + 1)]
        filled = [int(p.notna().sum()) for p in parts]
        texts = pd.concat([p.dropna() for p in parts])
        numbers = pd.to_numeric(texts, errors="coerce").notna().mean() if len(texts) else 1.0
        # two measurements of one name (which is which is the user's to say), or columns
        # that do not fill up from the first as one field's values do: read apart, numbered
        if numbers > 0.5 or filled != sorted(filled, reverse=True) or filled[-1] == filled[0]:
            numbered[base] = k
    taken = {str(c).split("\x00")[0] for c in df.columns}
    for base, k in numbered.items():
        if any(f"{base} ({j})" in taken for j in range(1, k + 1)):
            raise DataError(f"{where} has duplicate column names: {base!r}. Rename them so "
                            "every column has its own name.")
    runs = {b: k for b, k in runs.items() if b not in numbered}
    out = {}
    for col in df.columns:
        base, _, j = str(col).partition("\x00")
        if base in numbered:
            out[f"{base} ({j})"] = df[col]
        elif base not in runs:
            out[col] = df[col]
        elif base not in out:
            parts = [df[f"{base}\x00{j}"] for j in range(1, runs[base] + 1)]
            # joined column by column (vectorised; a row-wise apply is slow on a long
            # export), empty values dropped
            joined = parts[0].fillna("")
            for p in parts[1:]:
                joined = joined.str.cat(p.fillna(""), sep=";")
            joined = joined.str.replace(r";{2,}", ";", regex=True).str.strip(";")
            out[base] = joined.where(joined != "")
    if runs:
        said = ", ".join(f"{c!r} ({k} columns)" for c, k in list(runs.items())[:4])
        notes.append(f"Columns of one name side by side, {said}, are one field with several "
                     "values, as Jira exports them: read as one column of the values each "
                     "row holds.")
    if numbered:
        said = ", ".join(f"{c!r} ({k} columns)" for c, k in list(numbered.items())[:4])
        first = next(iter(numbered))
        notes.append(f"Columns of one name side by side, {said}, are not one field's values "
                     "(numbers, or not filling up from the first), so they are read apart: "
                     f"{first + ' (1)'!r}, {first + ' (2)'!r} ... Rename them in the file to "
                     "give each its meaning.")
    return pd.DataFrame(out)


#: The line of dashes under a fixed-width listing's header (Oracle's SQL*Plus, SQL Server's
#: sqlcmd, DB2's CLP): one run of dashes per column, a space between runs.
_DASH_RULE = re.compile(r"^ *-+(?: +-+)+ *$")
#: A listing's last line: "620 rows selected.", "(620 rows affected)", "(620 rows)".
_LISTING_FOOTER = re.compile(r"^\(?\d[\d,]* rows?(?: selected| affected)?\.?\)?$|^SQL>",
                             re.IGNORECASE)


def _fixed_width_listing(text: str, notes: list[str]) -> str | None:
    """A query's output printed in fixed-width columns under a line of dashes (SQL*Plus,
    sqlcmd, DB2) as CSV text, or ``None`` when ``text`` is no such listing.

    The dashes give each column's span (a name wider than its values ends where the next
    run begins), so a blank cell (a commission only salespeople have) stays one empty
    cell; splitting on spaces cannot tell it.  The query echoed above the header, the
    header and dashes each page repeats, blank lines and the "620 rows selected." footer are
    no records.  Refused before as "prose, not a table" (an analyst's review of a .lst spool).
    """
    head_lines = text.split("\n", 200)[:200]  # (every file passes here: its head first)
    at = next((i for i, ln in enumerate(head_lines) if _DASH_RULE.match(ln.rstrip())
               and i and head_lines[i - 1].strip()), None)
    if at is None:
        return None
    lines = text.split("\n")
    rule, head = lines[at].rstrip(), lines[at - 1].rstrip()
    starts = [m.start() for m in re.finditer(r"-+", rule)]
    spans = list(zip(starts, starts[1:] + [None]))
    names = [head[a:b].strip() for a, b in spans]
    if sum(bool(n) and not _is_number(n) for n in names) < 0.8 * len(names):
        return None  # no header above the dashes (a row of '-' cells: missing values)
    # the cells keep to their columns: blank between the runs of dashes and before the
    # first (a report underlined word by word, its numbers running left past the dashes,
    # lost their first digits; one-space rows under '-- ----' were cut mid-word: an
    # adversarial review)
    gaps = [i for i in range(len(rule)) if rule[i] == " "]
    run_starts = starts[0]
    rows, repeats, footer, misfits = [], 0, None, 0
    for ln in lines[at + 1:]:
        line = ln.rstrip()
        if not line.strip():
            continue
        if line == head or line == rule:
            repeats += 1
            continue
        if _LISTING_FOOTER.match(line.strip()):
            footer = line.strip()
            break
        if len(line) > len(rule) + 40:
            return None  # text running past the columns: not this listing's rows
        if line[:run_starts].strip() or any(i < len(line) and line[i] != " " for i in gaps):
            misfits += 1
        rows.append([line[a:b].strip() if b is not None else line[a:].strip()
                     for a, b in spans])
    if len(rows) < 2 or misfits > 0.02 * len(rows):
        return None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    writer.writerows(rows)
    above = sum(1 for ln in lines[:at - 1] if ln.strip())
    said = [f"{above} line{'s' if above != 1 else ''} above the header"] if above else []
    said += [f"{repeats // 2 or repeats} repeated page header{'s' if repeats > 2 else ''}"] \
        if repeats else []
    said += [f"the footer {footer!r}"] if footer else []
    notes.append("Read as a listing in fixed-width columns under a line of dashes (as SQL*Plus "
                 "and sqlcmd print a query's rows), each column as wide as its dashes"
                 + (f"; left out {', '.join(said)}" if said else "") + ".")
    return out.getvalue()


_STATA_ROW = re.compile(r"^\s*\d+\.\s+\|(.*)\|\s*$")
_STATA_BOX = re.compile(r"^\s*\|(.*)\|\s*$")


def _stata_list(text: str, notes: list[str]) -> str | None:
    """Stata's ``list`` output (a box of ``|``, numbered rows ``  1. | 1001  79 ... |``, a
    ``|----|`` line every ``sep()`` rows) as CSV text, or ``None``.  Split at ``|`` it was
    three columns, each record in one cell, and the message named a column 'x3' the file
    does not have (an analyst's review).  Inside the box the columns are aligned: read by
    :func:`_aligned_frame`."""
    head_lines = text.split("\n", 60)[:60]
    if sum(bool(_STATA_ROW.match(ln)) for ln in head_lines) < 5:
        return None
    lines = text.split("\n")
    first = next(i for i, ln in enumerate(lines) if _STATA_ROW.match(ln))
    header = next((m.group(1) for ln in reversed(lines[:first])
                   if (m := _STATA_BOX.match(ln)) and not set(m.group(1).strip()) <= {"-"}),
                  None)
    if header is None:
        return None
    rows = [m.group(1) for ln in lines[first:] if (m := _STATA_ROW.match(ln))]
    frame = _aligned_frame("\n".join([header] + rows), len(rows) + 1)
    if frame is None:
        return None
    notes.append("Read as Stata's list output: the box around it and the observation numbers "
                 "are no data.")
    return frame.to_csv(index=False)


def _shift_jis(data: bytes) -> str | None:
    """``data`` decoded as Shift_JIS (cp932, Japanese Excel's 'CSV'), or ``None`` unless it
    decodes so and holds kana: hiragana or full-width katakana (はい, いいえ) make at least 1 %
    of its letters beyond ASCII.  Windows-1252 decoded it into mojibake without an error
    (refused or misread before: an analyst's review); accented Latin text decoded as cp932
    gives kanji and half-width katakana, hardly ever full-width kana."""
    try:
        text = data.decode("cp932")
    except UnicodeDecodeError:
        return None
    wide = [ch for ch in text[:65536] if ord(ch) > 127]
    kana = sum("\u3040" <= ch <= "\u30ff" for ch in wide)
    if not wide or kana < 0.01 * len(wide) or any("\ue000" <= ch <= "\uf8ff" for ch in wide):
        return None
    return text


def _toa5_table(text: str, notes: list[str]) -> str:
    """A Campbell Scientific datalogger's TOA5 file without the lines around its header: the
    logger's line above it (``"TOA5","CR1000X",...``), and the units and the processing
    (``Smp``, ``Avg``) under it, which were read as two records (``Smp`` a third class of a
    0/1 target, and eight "possible leak" warnings: a stranger's vineyard logger).  The
    units are said in a note."""
    if not text.startswith(('"TOA5"', "TOA5,")):
        return text
    lines = text.split("\n", 4)
    if len(lines) < 5:
        return text
    names = next(csv.reader([lines[1]]), [])
    units = next(csv.reader([lines[2]]), [])
    said = [f"{n} in {u}" for n, u in zip(names, units) if u.strip() and u not in ("TS", "RN")]
    notes.append("A Campbell Scientific TOA5 file: the logger's line above the header and "
                 "the units and processing lines under it are left out"
                 + (f" (units: {', '.join(said[:6])}{', ...' if len(said) > 6 else ''})"
                    if said else "") + ".")
    return lines[1] + "\n" + lines[4]


def _frame_from_text(text: str, fname: str, notes: list[str], max_rows: int, max_columns: int,
                     sheet_width: int | None = None, where: str | None = None) -> pd.DataFrame:
    """The text of a CSV as a frame of text cells, with ``notes`` on what reading did in
    ``attrs["notes"]``.  ``sheet_width``: the text is a workbook sheet written as CSV
    (:func:`rulecore.formats.workbook_text`: commas, each row without its trailing empty
    cells, at most this many cells).  ``where`` names the table in messages (default the
    file)."""
    where = where or fname
    ragged = sheet_width is not None
    label_row: dict[str, str] = {}  # a row of labels under the names, by column
    text = _toa5_table(text, notes)
    listing = None if ragged else (_fixed_width_listing(text, notes)
                                   or _stata_list(text, notes))
    if listing is not None:
        text = listing
    split_by, skip, short = _layout(text, (",",) if ragged else None, ragged)
    if skip:
        cut = 0
        for _ in range(skip):
            cut = text.index("\n", cut) + 1
        above = [line.strip().rstrip(",;\t|").strip() for line in text[:cut].split("\n")
                 if line.strip().rstrip(",;\t|").strip()]
        if above:
            notes.append(f"Skipped {len(above)} line{'s' if len(above) > 1 else ''} above the "
                         f"header: {' / '.join(repr(t[:60]) for t in above[:3])}.")
        text = text[cut:]
    delimiter, header = _sniff(text)
    if ragged:
        delimiter = ","
    if split_by is not None and delimiter != split_by and (short or len(
            next(csv.reader([text.split("\n", 1)[0]], delimiter=delimiter), [])) < 2):
        # Python's sniffer wants every line alike: a short header fools it into one column
        delimiter = split_by
    if delimiter == "|":
        text = _printed_list_rows(text, notes)
        text = _psql_frame(text, notes)
        text = _markdown_frame(text, notes)
    text = _first_block(text, delimiter, notes)
    try:
        first = next(csv.reader(io.StringIO(text), delimiter=delimiter), [])
    except csv.Error as exc:
        raise DataError(f"{where} could not be read as a table: {exc}.") from None
    trailing = False
    if header and short:
        # every row ending in an empty field is a delimiter after the last cell, as bank
        # statements write them (Chase's: read as row names, every name shifted one column
        # to the right, 'Amount' held the transaction types, a stranger's export)
        rows = [r for r in itertools.islice(csv.reader(io.StringIO(text[:1_000_000]),
                                                       delimiter=delimiter), 1, 201)
                if any(c.strip() for c in r)]
        # (not over distinct first fields: R's row names, 1 to n, with a last column blank
        # on every row, were read so and every name shifted left, a review)
        trailing = bool(rows) and all(len(r) == len(first) + 1 and not r[-1].strip()
                                      for r in rows) and \
            len({r[0].strip() for r in rows}) < len(rows)
        if trailing:
            first = first + [""]
            notes.append(f"Every row ends with {'a comma' if delimiter == ',' else 'a separator'}"
                         " after its last cell: the empty field it makes is no column.")
        else:
            first = [""] + first
            notes.append("The header names one column fewer than the rows have: the first "
                         "column holds row names (R's write.table writes them without a "
                         "name).")
    if ragged:  # columns with no name in the header row still hold cells below it
        first = first + [""] * (sheet_width - len(first))
    n_fields = len(first)
    if n_fields > max_columns:
        raise DataError(too_wide(where, n_fields, max_columns))
    if header:
        # a wrapped heading ("Annual\nIncome") is one name on one line
        names = [re.sub(r"\s*[\r\n]+\s*", " ", c.strip()) for c in first]
        seen: dict[str, int] = {}
        for c in names:
            seen[c] = seen.get(c, 0) + 1
        dups = [c for c, k in seen.items() if k > 1 and c]
        # (the same name as written: 'Region' and 'Region ' are two columns)
        runs = _adjacent_runs(names, dups) if all(
            len({r for r, n in zip(first, names) if n == c}) == 1 for c in dups) else None
        if runs and "" in names and _names_under(text, delimiter, names, runs):
            # a row of group titles written over each column of its group ('Expected,
            # Expected' over xG and xGA, as FBref exports it), not merged: the title once,
            # as merged cells leave it, for _second_header_row (refused as duplicate names
            # before: a stranger's match log)
            names = [n if n not in runs or n not in names[:i] else ""
                     for i, n in enumerate(names)]
            dups, runs = [], None
        merged_runs = runs or {}
        if runs:
            # Jira writes a field with several values as that many columns of one name
            # (Labels, Labels, Labels): one column of the values ticked, read as options
            # (refused as duplicate names before: an analyst's review)
            nth: dict[str, int] = {}
            for i, c in enumerate(names):
                if c in runs:
                    nth[c] = nth.get(c, 0) + 1
                    names[i] = f"{c}\x00{nth[c]}"
            dups = []
        if dups:
            # as the file writes them: 'Region' and 'Region ' read as one name (spaces
            # around a name are dropped), and "duplicate: 'Region'" hid the space (a review)
            spelt = {c: [r for r, n in zip(first, names) if n == c] for c in dups}
            said = [" and ".join(map(repr, spelt[c])) if len(set(spelt[c])) > 1 else repr(c)
                    for c in dups]
            spaces = any(len(set(v)) > 1 for v in spelt.values())
            names = _numbered_names(names, dups, where, "; ".join(said), spaces)
            shown = ", ".join(f"{w} ({len(spelt[c])} columns)" for c, w in zip(dups[:4], said))
            notes.append(f"Columns named alike, {shown}{' ...' if len(dups) > 4 else ''}"
                         + (" (names that differ only in spaces around them or line breaks "
                            "are one name here)" if spaces else "")
                         + f": numbered in the file's order, {dups[0] + ' (1)'!r}, "
                         f"{dups[0] + ' (2)'!r} ... Rename them in the file to give each "
                         "its meaning.")
        names = [c if c else f"column {i + 1}" for i, c in enumerate(names)]
    else:
        names = [f"x{i + 1}" for i in range(n_fields)]
        # said, with the way out: years as column names made a header look like data (a
        # notebook review saw only "there is no column 'grew'")
        why = ("the first row holds numbers and names no column of numbers"
               if any(_is_number(c) for c in first) else
               "the first row's cells are values of their own columns, as in the rows below")
        notes.append(f"No header row was found ({why}), so the first row is data and the "
                     f"columns are named "
                     f"x1 to x{n_fields}. If the first row holds the names, give one of them as "
                     "the target (--target on the command line, target= in Python; the app's "
                     "Data page lists only x1 to x" + str(n_fields) + "), and it is read as "
                     "the header.")
    body = text
    if header:
        # cut the header's record, all its lines (pandas' skiprows=1 cut one line of a
        # header whose quoted cell holds a line break, and its second half became a row)
        # as many lines as the csv module read the header from (a quote inside a name,
        # screen_in", opens nothing: counting quotes cut the first row of data with it)
        reader = csv.reader(io.StringIO(text), delimiter=delimiter)
        next(reader, None)
        cut = 0
        for _ in range(reader.line_num):
            cut = text.find("\n", cut) + 1 or len(text)
        body = text[cut:]
    try:
        df = pd.read_csv(io.StringIO(body), sep=delimiter, header=None,
                         skiprows=0, names=names, na_values=_READ_NA,
                         keep_default_na=False, skipinitialspace=True, dtype=str,
                         skip_blank_lines=True, nrows=max_rows + 1, engine="c")
    except (pd.errors.ParserError, ValueError, csv.Error) as exc:
        raise DataError(f"{where} could not be read as a table: {_first_line(exc)}. "
                        "Check that every row has the same number of fields; if lines above "
                        "the table (a title, an instrument's settings) or under it are the "
                        "cause, delete them so that the header is the first line.") from None
    except pd.errors.EmptyDataError:
        raise DataError(f"{where} has no rows.") from None
    if len(df) > max_rows:
        raise DataError(f"{where} has more than {max_rows:,} rows; sample it and try again.")
    # an unnamed last column with no cell: a separator after the last name and cell (the
    # Census Bureau's downloads end every line with a comma: the empty column was the
    # default target, refused as empty, and its blank label hid the row of labels, a
    # stranger's ACS table)
    if header and df.shape[1] > 1 and not first[-1].strip() and df.iloc[:, -1].isna().all():
        df = df.iloc[:, :-1]
    df = df.apply(lambda col: col.str.strip())  # every cell is text here (dtype=str)
    # a missing value padded to its column's width (MySQL's client: '| NULL       |') is
    # missing once stripped (a level 'NULL' before: an analyst's review)
    df = df.mask(df.isin(_READ_NA))
    if header and merged_runs:
        df = _merge_value_columns(df, merged_runs, notes, where)
    # a block of notes under a line of dashes, as CDC WONDER writes its query, citation and
    # caveats ('"---"', then up to a hundred lines): its lines were records, its 'Caveats:'
    # a value in the first column (a stranger's download)
    tail = df.iloc[-(DASHED_BLOCK_ROWS + 1):]
    first = tail.iloc[:, 0].astype(str).str.strip()
    alone = tail.notna().sum(axis=1).to_numpy() == 1
    dashes = np.flatnonzero(first.str.fullmatch(r"-{3,}").to_numpy() & alone)
    if len(dashes) and len(df) - len(tail) + dashes[0] > 1 and \
            not (tail.iloc[dashes[0] + 1:].notna().mean(axis=1) > 0.5).any():
        block = len(tail) - dashes[0]
        notes.append(f"Left out the block of {block} lines under the table from its line of "
                     "dashes ('---', as CDC WONDER writes its query and caveats): notes, not "
                     "records.")
        df = df.iloc[:len(df) - block]
    df = _dash_as_missing(df)
    # rows with every field empty (",,,," lines a spreadsheet leaves below its table) are not
    # records: they would count as rows with a missing target
    df = df.dropna(how="all").reset_index(drop=True)
    # a listing whose page titles hold commas ("09:14 Monday, March 4, 2024") was split at
    # them: every record in the first column, the others empty but on title lines (an
    # analyst's review of a SAS PROC PRINT listing, refused as prose)
    lone = df.shape[1] > 1 and not ragged and len(df) >= ALIGNED_MIN_LINES and \
        float(df.iloc[:1000, 1:].isna().all(axis=1).mean()) >= 0.9  # (every upload: a head)
    if (df.shape[1] == 1 or lone) and not ragged:  # a sheet's cells are apart already
        # aligned columns where they split the lines as finely as runs of spaces do: split
        # at spaces, a row with a blank cell or a value of two words shifted its later cells
        # (when every line still had as many fields); but values of one width under short
        # names leave blank positions by chance, and such columns merged two fields (an
        # adversarial review: 16 % of write.table files)
        trailer: list[str] = []
        aligned = _aligned_frame(text, max_rows, trailer)
        spaced = _whitespace_frame(text, max_rows) if df.shape[1] == 1 else None
        said = "Columns separated by spaces (as R's write.table writes them by default)."
        # (and split at spaces where both read and the aligned reading had to leave lines
        # out above the header: a record taken for a title (an adversarial review)
        if aligned is not None and (spaced is None or aligned.shape[1] > spaced.shape[1] or (
                aligned.shape[1] == spaced.shape[1] and not aligned.attrs.get("titles"))):
            spaced = aligned
            said = ("Read as a table printed in aligned columns (pandas' or R's print, a "
                    "fixed-width export): each column spans the characters between positions "
                    "every line leaves blank, so a blank cell is a missing value.")
            notes.extend(trailer)
        if spaced is not None:
            if len(spaced) > max_rows:
                raise DataError(f"{where} has more than {max_rows:,} rows; sample it and try "
                                "again.")
            df = spaced
            notes.append(said)
    if df.shape[1] == 1:
        raise DataError(f"{where} has only one column ({str(df.columns[0])[:60]!r}): a table "
                        "to learn from needs a target column and at least one feature column. "
                        + ("Choose the sheet that holds the table." if ragged else
                           "If it has more, check the separator (comma, semicolon, tab, |, $ "
                           "or spaces) and that every line has the same number of fields."))
    _refuse_prose(df, fname)
    if header:
        df, groups = _second_header_row(df)
        if len(groups) == 1 and _title_line(groups[0]):
            # one phrase over the first column and nothing over the rest: a report's title
            notes.append(f"Left out a title line above the header ({groups[0][:60]!r}).")
        elif groups and (summed := _pivot_sums(df, groups)) is not None:
            df, filled = summed
            notes.append(f"An Excel pivot table ({groups[0]!r}): the names are taken from "
                         "its second header row"
                         + (f", and its empty cells read as 0, no amount summed there "
                            f"({', '.join(f'{c!r}: {k:,}' for c, k in filled[:4])}"
                            f"{' ...' if len(filled) > 4 else ''})" if filled else "") + ".")
        elif groups:
            notes.append(f"Two header rows: the first groups the columns "
                         f"({', '.join(map(repr, groups[:4]))}{' ...' if len(groups) > 4 else ''}"
                         "), the names are taken from the second.")
        elif _label_row(df):
            labels = [str(v) for v in df.iloc[0].dropna()]
            label_row = {str(c): str(v).strip() for c, v in df.iloc[0].items()
                         if pd.notna(v) and str(v).strip() != str(c).strip()}
            # (Qualtrics' row of question texts has its row of import ids under it)
            qualtrics = len(df) > 1 and df.iloc[1].dropna().astype(str).str.strip() \
                .str.startswith('{"ImportId"').mean() >= 0.8
            df = df.iloc[1:].reset_index(drop=True)
            notes.append(f"Left out a row of labels under the header ("
                         f"{', '.join(map(repr, labels[:3]))}{' ...' if len(labels) > 3 else ''}"
                         "), " + ("as Qualtrics writes each question's text" if qualtrics
                                  else "as SPSS and Stata exports write a variable's label")
                         + ": not a record.")
    if header and (units := _units_row(df)) is not None:
        # a row of units under the names (years, mmHg, mmol/L): read as a record it was a
        # "not a number" note per column and a row with no target (an analyst's review of an
        # ICU workbook); the names take their unit, so a rule reads 'Lactate (mmol/L) > 3'
        df = df.iloc[1:].reset_index(drop=True)
        df.columns = [f"{c} ({units[c]})" if c in units else c for c in df.columns]
        example = next(iter(units))
        notes.append(f"Left out a row of units under the header "
                     f"({', '.join(map(repr, list(units.values())[:4]))}"
                     f"{' ...' if len(units) > 4 else ''}): each column's name now says its "
                     f"unit, as in {f'{example} ({units[example]})'!r}.")
    if header and _maxima_row(df):
        # a gradebook's row of each column's maximum (Canvas: '    Points Possible', 10.00
        # under a quiz, '(read only)' under a computed score): read as a student it made
        # '(read only)' a class of the final grade, and its blank ID kept the user ID as a
        # numeric feature (a stranger's export)
        label = str(df.iloc[0].dropna().iloc[0]).strip()
        df = df.iloc[1:].reset_index(drop=True)
        notes.append(f"Left out a row of the points each column is out of under the header "
                     f"({label!r}), as a gradebook writes it: not a record.")
    if header and len(df) > 1:
        # Qualtrics writes a third header row of import ids, '{"ImportId":"QID1"}' under each
        # question: read as a response it was a class of the target and a "not a number"
        # note per column (an analyst's review)
        first = df.iloc[0].dropna().astype(str).str.strip()
        if len(first) >= 2 and first.str.startswith('{"ImportId"').mean() >= 0.8:
            df = df.iloc[1:].reset_index(drop=True)
            notes.append("Left out Qualtrics' row of import ids under the header "
                         f"({first.iloc[0][:40]!r} …): not a response.")
    if header:
        df, repeated, titles = _repeated_headers(df)
        if repeated:
            above = (f", and the title line{'s' if len(titles) > 1 else ''} above "
                     f"{'them' if repeated > 1 else 'it'} "
                     f"({', '.join(repr(t[:60]) for t in titles[:2])})" if titles else "")
            notes.append(f"Left out {repeated:,} row{'s' if repeated > 1 else ''} repeating "
                         f"the header inside the table{above}: exports joined one after "
                         "another, not records.")
    # a block of notes under the table ("Notes:" then numbered lines, some with commas in
    # them): each line was a record, and their words made an id column "not numbers", a
    # feature (an analyst's review)
    tail = df.iloc[-(NOTES_BLOCK_ROWS + 1):]
    for i in range(len(tail)):
        cells = tail.iloc[i].dropna()
        if len(df) - len(tail) + i > 1 and len(cells) == 1 and cells.index[0] == df.columns[0] \
                and str(cells.iloc[0]).strip().rstrip(":").casefold() in _NOTES_LABELS \
                and not (tail.iloc[i + 1:].notna().mean(axis=1) > 0.5).any():
            # (lines under the label that fill most cells are records: a review)
            block = len(tail) - i
            notes.append(f"Left out the block of {block} line{'s' if block > 1 else ''} under "
                         f"the table that starts {str(cells.iloc[0]).strip()!r}: notes, not "
                         "records.")
            df = df.iloc[:len(df) - block]
            break
    # a report's footer under the table ("Generated by SAP on 01.03.2024 by JSMITH"): one
    # cell of words in a row of a wider table.  Read as a record it was a row with a missing
    # target, and a non-number in the invoice numbers, which then were a feature.
    # (up to a dozen lines: a Salesforce report writes its title, copyright, 'Confidential
    # Information', 'Generated By:', the company, 'Filtered By:' and one line per filter;
    # three were left out and five were records, a stranger's report)
    footer = []
    # (past three lines, four records a line at least)
    while len(df) > (1 if len(footer) < 3 else 4 * (len(footer) + 1)) and \
            len(footer) < FOOTER_LINES and df.shape[1] >= 3:
        cells = df.iloc[-1].dropna()
        # (or a trailer record, 'TRL|00000700', under a fixed-width extract of more columns:
        # read as a record, its 'TRL' made the account numbers "not numbers", a feature)
        trailer = 1 <= len(cells) <= 2 and df.shape[1] >= 4 and \
            str(cells.iloc[0]).strip().casefold() in TRAILER_RECORDS
        if not trailer and (len(cells) != 1 or not _title_line(cells.iloc[0])):
            break
        footer.append("|".join(str(c).strip() for c in cells) if trailer
                      else str(cells.iloc[0]).strip())
        df = df.iloc[:-1]
    if footer:
        notes.append(f"Left out {len(footer)} line{'s' if len(footer) > 1 else ''} under the "
                     f"table: {' / '.join(repr(t[:60]) for t in reversed(footer))}: not "
                     "records.")
    # a spreadsheet's summary rows at the bottom ("Total", "Average") are not records: a
    # total in a 0/1 target made it a three-valued number and another column the target
    summary = []
    while len(df) > 1 and len(summary) < 5:
        cells = df.iloc[-1].dropna()
        first = str(cells.iloc[0]).strip().rstrip(":").casefold() if len(cells) else ""
        # 'LSD (0.05)', 'CV (%)', 'Mean (n=60)': the label without its bracket
        first = re.sub(r"\s*\([^()]*\)$", "", first)
        # Google Ads' 'Total: Keywords', 'Total: Search', 'Total: Account' (kept as records,
        # 773,247 impressions a row: a stranger's report): the word before the colon
        first = first.split(":")[0].strip() if first.split(":")[0].strip() in SUMMARY_ROWS \
            else first
        if first not in SUMMARY_ROWS:
            break
        # a label its column also holds higher up is one of its values: Sweden's 'SE' last
        # in a country list, a plan 'Max', a state 'SD' (a review)
        above = df[cells.index[0]].iloc[:-1].dropna().astype(str).str.strip()
        if (above.str.casefold() == str(cells.iloc[0]).strip().casefold()).any() or \
                first in _STATISTIC_CODES and len(above) and \
                above.str.fullmatch(r"[A-Za-z]{1,6}").mean() > 0.5:
            break
        summary.append(str(cells.iloc[0]).strip())
        df = df.iloc[:-1]
    if summary:
        notes.append(f"Left out the summary row{'s' if len(summary) > 1 else ''} at the "
                     f"bottom ({', '.join(map(repr, reversed(summary)))}): not records.")
    at, example = _unlabelled_totals(df)
    if at is not None:
        where = "under the header" if at == 0 else "at the bottom"
        notes.append(f"Left out the totals row {where} (no label; its numbers are the "
                     f"columns' sums: {example}): not a record.")
        df = df.drop(index=df.index[at]).reset_index(drop=True)
    df.attrs["notes"] = notes  # read by from_frame (said with the dataset's other notes)
    df.attrs["delimiter"] = delimiter  # a table written back keeps it (rulecore apply)
    # a field written in several columns of one name (Jira's Sprint, Labels): its values are
    # options ticked, however they come together (roles.choice_options, known)
    df.attrs["multi_valued"] = [c for c in merged_runs if c in df.columns] if header else []
    # what each code-named column means (a Census download's row of labels), to show beside
    # a rule on 'DP03_0062E'
    names_read = set(map(str, df.columns))
    df.attrs["labels"] = {c: v for c, v in label_row.items() if c in names_read}
    return df


def _unlabelled_totals(df: pd.DataFrame) -> tuple[int | None, str]:
    """The position (0 or the last) of a totals row with no label, and an example of its
    sums: every filled cell a number, the first cell empty, and some column's cell the sum
    of that column's other cells, three of them positive at least (Google Analytics 4 writes
    its totals right under the header, the dimensions empty).  A record's cell equal to the
    sum of the rest by chance would need a column of one positive value."""
    if len(df) < 6 or df.shape[1] < 3:
        return None, ""
    for at in (0, len(df) - 1):
        row = df.iloc[at]
        filled = row.dropna()
        if pd.notna(row.iloc[0]) or filled.empty:
            continue
        nums = pd.to_numeric(filled.astype(str).str.replace(",", ""), errors="coerce")
        if nums.isna().any():
            continue
        for col, value in nums.items():
            # (the column alone without the row: no copy of the whole table)
            others = pd.to_numeric(df[col].drop(index=df.index[at]).astype(str)
                                   .str.replace(",", ""), errors="coerce")
            total = float(others.sum())
            if (others > 0).sum() >= 3 and abs(value - total) <= max(0.011,
                                                                     1e-6 * abs(total)):
                return at, f"{col} {filled[col]}"
    return None, ""


# A line of the LIBSVM / svmlight format: a label, then index:value pairs ("+1 3:0.5 7:1").
_SVMLIGHT_LINE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?(\s+qid:\d+)?"
                            r"(\s+\d+:[^\s:]+)*\s*(#.*)?$")
#: Cells (rows × features) a LIBSVM file may expand to (8 bytes each, once dense).
MAX_SVMLIGHT_CELLS = 50_000_000
#: A LIBSVM file's labels are classes, however many, when they are whole numbers with at
#: most this many values (vowel's 11 vowels, letter's 26); more, or fractions, are a
#: regression target (split at a threshold, as any number).
MAX_SVMLIGHT_CLASSES = 100


def _is_svmlight(text: str) -> bool:
    """Whether the first lines are in the LIBSVM / svmlight format (a label, then
    ``index:value`` pairs), which the benchmark sets in ``libsvm/`` use."""
    lines = [ln for ln in text[:20_000].split("\n")[:6] if ln.strip()]
    lines = lines[:-1] if len(lines) > 1 else lines  # the last may be cut mid-line
    return bool(lines) and all(_SVMLIGHT_LINE.match(ln.strip()) for ln in lines) and \
        any(":" in ln for ln in lines)


def _svmlight_frame(data: bytes, text: str, fname: str, notes: list[str], max_rows: int,
                    max_columns: int) -> pd.DataFrame:
    """A LIBSVM / svmlight file as a frame: ``label``, then one column per feature index
    (``f1``, ``f2``, ...; an index a row leaves out is 0, as the format says)."""
    from sklearn.datasets import load_svmlight_file

    zero_based = bool(re.search(r"\s0:", text))
    try:
        X, y = load_svmlight_file(io.BytesIO(data), zero_based=zero_based)
    except (ValueError, RuntimeError) as exc:
        bad = next(((k, ln) for k, ln in enumerate(text.split("\n"), start=1)
                    if ln.strip() and not _SVMLIGHT_LINE.match(ln.strip())), None)
        where = (f"line {bad[0]:,} ({bad[1][:60]!r}) is not a label followed by index:value "
                 "pairs" if bad else _first_line(exc))
        raise DataError(f"{fname} looks like a LIBSVM (svmlight) file, but {where}. Fix that "
                        "line or save the table as a CSV.") from None
    n, p = X.shape
    if n > max_rows:
        raise DataError(f"{fname} has more than {max_rows:,} rows; sample it and try again.")
    if p > max_columns:
        raise DataError(f"{fname} has {p:,} features; the limit is {max_columns:,}. Select "
                        "features before writing the file.")
    if n * p > MAX_SVMLIGHT_CELLS:
        raise DataError(f"{fname} has {n:,} rows × {p:,} features, too many cells to learn "
                        f"rules from here ({MAX_SVMLIGHT_CELLS:,} at most); sample rows or "
                        "keep fewer features.")
    first = 0 if zero_based else 1
    df = pd.DataFrame(X.toarray(), columns=[f"f{j + first}" for j in range(p)])
    df.insert(0, "label", y)
    notes.append(f"Read as a LIBSVM (svmlight) file: {n:,} rows, a label and {p:,} features "
                 f"f{first} to f{p - 1 + first}; a feature a row does not list is 0.")
    df.attrs["notes"] = notes
    if np.all(y == np.round(y)) and len(np.unique(y)) <= MAX_SVMLIGHT_CLASSES:
        df.attrs["class_column"] = "label"  # the format says it holds the classes
    return df


#: Lines an aligned table needs (header included) before its blank columns are trusted as
#: the gaps between its columns: on a few lines words line up by chance.
ALIGNED_MIN_LINES = 6
#: Lines longer than this are no printed table's (a free-text cell of 10,000 characters made
#: the position scan 6 GB: an adversarial review).
ALIGNED_MAX_WIDTH = 1000
#: The line pandas prints under a frame it cut short.
_PRINTOUT_CUT = re.compile(r"^\[\d[\d,]* rows x \d[\d,]* columns\]$")


def _aligned_frame(text: str, max_rows: int, notes: list[str] | None = None
                   ) -> pd.DataFrame | None:
    """A table printed in aligned columns (``print(df)`` / ``df.to_string()`` in pandas,
    ``print(df)`` in R, a mainframe's fixed-width export) as a frame of text cells, or
    ``None`` when the lines are not so aligned.

    The columns are the runs of character positions some line fills, between positions
    every line leaves blank.  So a blank cell (a BMI not measured) stays one empty cell and a
    value of two words (``SAN DIEGO``) one value: splitting at runs of spaces shifted every
    later cell of such a row, or failed, and the file was refused as one column (an analyst's
    mainframe export and a notebook's printed frame).  A run with no name over it is part of
    the column whose name is aligned to reach it (left-aligned text extends right, right-
    aligned numbers extend left), except the first, which holds row names (pandas' index,
    R's row names).  No such table (an adversarial review): a header that is not names (a
    cell starting with a digit: a log line, a first record), quoted cells (R's write.table,
    read by splitting at spaces), lines longer than :data:`ALIGNED_MAX_WIDTH`, a line that
    fills a gap every other line leaves blank (a value running into the next column) except
    up to three lines at the end (a trailer, left out and said in ``notes``), or a run that
    joins no column.  A pandas printout cut short (``...`` rows, ``[120 rows x 6 columns]``)
    is refused: most of its rows are not in it."""
    lines = [ln.rstrip() for ln in text.split("\n", max_rows + 2)[:max_rows + 2]]
    lines = [ln for ln in lines if ln.strip()]
    if len(lines) < ALIGNED_MIN_LINES or "\t" in text[:10_000] or '"' in text[:10_000]:
        return None
    if _PRINTOUT_CUT.match(lines[-1].strip()) or any(
            re.fullmatch(r"(\.\.\.?\s*)+", ln.strip()) for ln in lines[1:200]):
        raise DataError("This is a pandas printout cut short: the rows (or columns) in the "
                        "middle are shown as '...', so most of the table is not in the file. "
                        "Save the table itself (df.to_csv('table.csv')) and upload that.")
    width = max(map(len, lines))
    if width > ALIGNED_MAX_WIDTH:
        return None

    def counts(block: list[str]) -> np.ndarray:  # per position: the lines filling it
        out = np.zeros(width, dtype=np.int64)
        for k in range(0, len(block), 20_000):  # (a chunk's copy: 20,000 × width × 4 bytes)
            codes = np.array(block[k:k + 20_000], dtype=f"<U{width}").view(
                np.uint32).reshape(-1, width)
            out += ((codes != 32) & (codes != 0)).sum(axis=0)  # (padding is code 0)
        return out

    def outside(block: list[str], gaps: np.ndarray) -> np.ndarray:
        """Per line: does it fill a position of ``gaps``?  (Chunked as ``counts``; a
        character loop per line took seconds on a million lines: a review.)"""
        out = []
        for k in range(0, len(block), 20_000):
            codes = np.array(block[k:k + 20_000], dtype=f"<U{width}").view(
                np.uint32).reshape(-1, width)
            out.append((((codes != 32) & (codes != 0)) & gaps).any(axis=1))
        return np.concatenate(out) if out else np.zeros(0, dtype=bool)

    def runs(filled: np.ndarray) -> list[list[int]]:  # [start, end) of each filled run
        edges = np.flatnonzero(np.diff(np.r_[0, filled.astype(np.int8), 0]))
        return [[int(a), int(b)] for a, b in zip(edges[::2], edges[1::2])]

    def read(lines: list[str], said: list[str]) -> pd.DataFrame | None:
        # the head first: a file split by single spaces (R's write.table, a .data file of
        # numbers of every width) has no blank position there, and is not scanned whole
        if len(runs(counts(lines[:200]) > 0)) < 2:
            return None
        filled = counts(lines)
        spans = runs(filled > 0)
        # a few lines alone filling a gap: a trailer under the table ("TOTAL RECORDS WRITTEN:
        # 400") is left out; anywhere else the columns are not what every line keeps to
        # pandas writes the index's names on a line of their own under the header, every other
        # column blank there ('customer segment' over a MultiIndex): names, not a record
        above = [lines[0][a:b].strip() for a, b in spans]
        second = [lines[1][a:b].strip() for a, b in spans]
        index_names = None
        if any(second) and all(not c for c, n in zip(second, above) if n) and \
                all(not n for c, n in zip(second, above) if c):
            index_names = lines.pop(1)
        # (the header's positions are its names': a name wider than its values is no misfit)
        header = counts([lines[0]] + ([index_names] if index_names else [])) > 0
        firm = runs((filled - header > 3) | header)
        rows_firm = runs(filled - header > 3)
        if any(sum(a <= c and d <= b for c, d in rows_firm) > 1 for a, b in firm):
            return None  # a line bridging the rows' columns is no header of names over them
        if len(firm) != len(spans):
            gaps = np.ones(width, dtype=bool)
            for a, b in firm:
                gaps[a:b] = False
            odd = [i for i in np.flatnonzero(outside(lines, gaps)) if i]
            if not odd or odd != list(range(len(lines) - len(odd), len(lines))) or len(odd) > 3:
                return None
            # records whose value grew a digit (an id past 9999 in a sorted file) split into
            # as many words as the others: no trailer (an adversarial review)
            usual = pd.Series([len(ln.split()) for ln in lines[1:200]]).mode()
            if any(len(lines[i].split()) in set(usual) for i in odd):
                return None
            if said is not None:
                said.append(f"Left out {len(odd)} line{'s' if len(odd) > 1 else ''} under the "
                             "table, outside its columns: "
                             + " / ".join(repr(lines[i][:60]) for i in odd) + ".")
            lines = lines[:odd[0]]
            spans = runs(counts(lines) > 0)
        if len(spans) < 2:
            return None
        head = lines[0].ljust(width)
        names = [head[a:b].strip() for a, b in spans]
        if index_names is not None:
            names = [n or index_names.ljust(width)[a:b].strip() for n, (a, b) in zip(names, spans)]

        def aligned(i: int, side: str) -> bool:  # the name touches that edge of its run
            a, b = spans[i]
            return bool(names[i]) and (head[a] != " " if side == "left" else head[b - 1] != " ")

        k = 1
        while k < len(spans):
            if names[k]:
                k += 1
                continue
            left = aligned(k - 1, "left")
            right = k + 1 < len(spans) and aligned(k + 1, "right")
            if left == right:
                return None  # a run no column's alignment reaches, or two that do
            into = k - 1 if left else k + 1
            spans[into] = [min(spans[into][0], spans[k][0]), max(spans[into][1], spans[k][1])]
            del spans[k], names[k]
        body = pd.Series(lines[1:], dtype=object)
        rows = [body.str.slice(a, b).str.strip().tolist() for a, b in spans]  # column by column
        # a name of two words wider than its values ('annual income' over '52000') leaves a
        # blank between its words in every line: the word over no value joins its neighbour
        empty = [not any(column) for column in rows]
        k = 0
        while k + 1 < len(spans):
            if (empty[k] or empty[k + 1]) and names[k] and names[k + 1] and \
                    spans[k + 1][0] - spans[k][1] == 1:
                spans[k] = [spans[k][0], spans[k + 1][1]]
                names[k] = f"{names[k]} {names[k + 1]}"
                rows[k] = rows[k] if empty[k + 1] else rows[k + 1]
                empty[k] = empty[k] and empty[k + 1]
                del spans[k + 1], names[k + 1], empty[k + 1], rows[k + 1]
            else:
                k += 1
        named = names[1:] if not names[0] else names
        if any(empty):
            return None  # names over no value: a title wider than the table, no header
        if any(len(n.split()) >= 3 for n in names):
            # 'plan region churn' as one name: a file split by single spaces whose first
            # column had one width, not a printed table (an adversarial review: it became
            # the target)
            return None
        if len(spans) < 2 or any(not re.search(r"[^\W\d_]", n) or n[0].isdigit() for n in named) \
                or len(set(names)) < len(names):
            return None
        names = [n if n else f"column {i + 1}" for i, n in enumerate(names)]
        df = pd.DataFrame(dict(zip(range(len(names)), rows)), dtype=object)
        df.columns = names
        df = df.mask(df.isin(_READ_NA) | (df == ""))
        return _dash_as_missing(df).dropna(how="all").reset_index(drop=True)

    # a report's pages (SAS's PROC PRINT, a mainframe listing): title lines above the header,
    # and on every page the titles (numbered) and the header again.  The header is the first
    # line, or one of the next three under titles; lines equal to those above it or to it
    # (but for a page number) are the pages' furniture, no records.
    def furniture(line: str) -> str:
        return re.sub(r"\s+\d+$", "", line.strip())

    lines = [ln.replace("\f", "") for ln in lines]
    for h in range(min(4, len(lines) - ALIGNED_MIN_LINES + 1)):
        top = {furniture(ln) for ln in lines[:h + 1]}
        body = [ln for ln in lines[h + 1:] if furniture(ln) not in top] if h else lines[1:]
        # (a page holds 20 lines or more: a record repeated more often is no page's header)
        if len(body) < ALIGNED_MIN_LINES - 1 or (
                len(lines) - h - 1 - len(body)) * 20 > (h + 1) * len(lines):
            continue
        said: list[str] = []
        frame = read([lines[h]] + body, said)
        if frame is None:
            continue
        if h:
            said.insert(0, f"Left out {h} title line{'s' if h > 1 else ''} above the header "
                        f"({' / '.join(repr(' '.join(t.split())[:50]) for t in lines[:h])})" + (
                            f" and {len(lines) - h - 1 - len(body)} lines repeating the "
                            "titles and the header on later pages" if len(body) <
                            len(lines) - h - 1 else "") + ".")
        if notes is not None:
            notes.extend(said)
        frame.attrs["titles"] = h
        return frame
    return None


def _whitespace_frame(text: str, max_rows: int) -> pd.DataFrame | None:
    """A table whose columns are separated by runs of spaces (R's ``write.table`` default,
    fixed-width ``.data`` files), or ``None`` when the lines do not split into the same
    number (at least 2) of fields.  Quoted cells may hold spaces.  The first line is a header
    when it holds no number; one field short, it names every column but the row names."""
    lines = [ln for ln in text.split("\n", 200)[:200] if ln.strip()]
    rows = list(csv.reader(lines, delimiter=" ", skipinitialspace=True))
    widths = [len([c for c in r if c != ""]) for r in rows]
    if len(widths) < 2 or min(widths[1:]) < 2 or len(set(widths[1:])) != 1:
        return None
    n_fields = widths[1]
    head = [c for c in rows[0] if c != ""]
    header = not any(_is_number(c) for c in head) and len(head) in (n_fields, n_fields - 1)
    if not header and widths[0] != n_fields:
        return None
    names = ([""] * (n_fields - len(head)) + head) if header else \
        [f"x{i + 1}" for i in range(n_fields)]
    names = [c if c else f"column {i + 1}" for i, c in enumerate(names)]
    if len(set(names)) < len(names):
        return None
    try:
        df = pd.read_csv(io.StringIO(text), sep=r"\s+", header=None, names=names,
                         skiprows=1 if header else 0, na_values=_READ_NA, dtype=str,
                         keep_default_na=False, nrows=max_rows + 1, engine="c")
    except (pd.errors.ParserError, ValueError, csv.Error, pd.errors.EmptyDataError):
        return None
    return _dash_as_missing(df).dropna(how="all").reset_index(drop=True)


def _numbers_below(df: pd.DataFrame) -> list[bool]:
    """Per column, whether 95 % of the cells under the first row are numbers (a header row
    of names or labels sits over columns of numbers)."""
    below = df.iloc[1:]
    return [bool(pd.to_numeric(below[c], errors="coerce").notna().mean() >= 0.95)
            for c in df.columns]


#: Subheadings that say how a question was answered, not what it asked.
_ANSWER_SUBHEADS = frozenset({"response", "open-ended response", "open ended response",
                              "other (please specify)", "other", "answer", "comment",
                              "comments"})


def _second_header_row(df: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """A header of two rows, as spreadsheets lay out grouped columns: a first row of group
    titles over some columns (``Demographics,,Usage,``, merged cells saved empty), then the
    names.  Read as one header row, the groups were the column names and the names a row of
    data ("age" a missing-value code in a numeric column).  Returns the frame named by its
    second row, and the group titles; or the frame unchanged and ``[]``.

    Both rows must look like headers: the first has empty cells (``column k`` here) beside
    titles; the second has distinct, non-numeric names, in every cell under an empty one of
    the first row (a column named in the first row only, such as ``Patient`` beside
    ``Blood pressure: Systolic, Diastolic``, keeps that name); and some column holds numbers
    below the second row but a name in it.  A name the second row gives twice (``Total``
    under two groups) is prefixed with its group.
    """
    if len(df) < 3:
        return df, []
    blank = [c.startswith("column ") and c[7:].isdigit() for c in df.columns]
    if not any(blank) or all(blank):
        return df, []
    second = df.iloc[0]
    present = second.dropna()
    if present.empty or any(_is_number(str(v)) for v in present) or \
            any(b and pd.isna(v) for b, v in zip(blank, second)):
        return df, []
    below = df.iloc[1:]
    numeric_below = [n and pd.notna(v) for n, v in zip(_numbers_below(df), second)]
    if not any(numeric_below):
        return df, []
    groups = [c for c, b in zip(df.columns, blank) if not b]
    group_of, current = [], ""
    for c, b in zip(df.columns, blank):
        current = current if b else str(c)
        group_of.append(current)
    names = [str(v).strip() if pd.notna(v) else str(c) for c, v in zip(df.columns, second)]
    seen = pd.Series(names).duplicated(keep=False).to_numpy()
    # a survey tool's subheading says only how the question was answered (SurveyMonkey:
    # "Response", "Open-Ended Response" under each question): the question names the column
    # (alone, "Open-Ended Response" was taken for the target: an analyst's review)
    generic = [n.casefold() in _ANSWER_SUBHEADS and g != n for g, n in zip(group_of, names)]
    width = pd.Series(group_of).value_counts()
    names = [g if gen and width[g] == 1 else f"{g} {n}" if dup or gen else n
             for g, n, dup, gen in zip(group_of, names, seen, generic)]
    if len(set(names)) < len(names):  # the same name twice in one group: not a header
        return df, []
    out = below.reset_index(drop=True)
    out.columns = names
    return out, groups


_PIVOT_SUM = re.compile(r"^(sum|count) of (\S.*)$", re.IGNORECASE)
#: Words of a summed field whose empty pivot cell is 0 (nothing sold, spent, ordered); a sum
#: of scores or ages with no record has no value.
_ADDITIVE = re.compile(r"amount|sales|revenue|spend|spent|cost|price|paid|payment|qty|"
                       r"quantity|units|orders|value|total|hours|volume|turnover|umsatz|"
                       r"betrag|count|number|visits|calls|clicks|items", re.IGNORECASE)


def _pivot_sums(df: pd.DataFrame, groups: list[str]
                ) -> tuple[pd.DataFrame, list[tuple[str, int]]] | None:
    """An Excel pivot table (a group title ``Sum of SalesAmount`` or ``Count of Orders``
    over a first column ``Row Labels``): its empty cells are 0 where that means nothing was
    summed, a count's always, a sum's of an amount (:data:`_ADDITIVE`), in the pivot's own
    columns, from the first after ``Row Labels`` to ``Grand Total``.  Read as missing, a
    customer who bought no bikes had an unknown bike spend and the rule said ``Bikes is
    missing``, worse than the majority (a review).  Columns added to the right of the
    pivot (an outcome) are left alone, and so is a pivot without its ``Grand Total``
    column, whose end is unknown (an adversarial review: an added 0/1 target's blanks
    became class 0).  Returns the frame and ``(column, cells filled)``; ``None`` for
    another table."""
    m = _PIVOT_SUM.match(str(groups[0]).strip()) if groups else None
    if m is None or str(df.columns[0]).strip().casefold() != "row labels":
        return None
    names = [str(c).strip().casefold() for c in df.columns]
    if "grand total" not in names[1:]:
        return df, []
    if m.group(1).casefold() == "sum" and not _ADDITIVE.search(m.group(2)):
        return df, []
    filled = []
    for col in df.columns[1:names.index("grand total", 1) + 1]:
        empty = df[col].isna()
        present = df[col].dropna()
        if empty.any() and len(present) and \
                pd.api.types.is_numeric_dtype(parse_numbers(present)):
            df[col] = df[col].where(~empty, "0")
            filled.append((str(col), int(empty.sum())))
    return df, filled


def _title_line(text: str) -> bool:
    """Whether a lone cell reads as a report's title: words, a space, 12 characters or more
    (``Renewals report - Region North``); a footer under a table is read the same way."""
    text = str(text).strip()
    return len(text) >= 12 and bool(re.search(r"[^\W\d_].*\s.*\S", text))


def _repeated_headers(df: pd.DataFrame) -> tuple[pd.DataFrame, int, list[str]]:
    """Rows inside the table that repeat its header (two exports joined one after the other,
    each with its header), and a title line right above one (a single cell of words in a
    row of a wider table).  Read as records, the repeated header was a third class of the
    target (``renewed``, one row), which then counted as a table of many classes, and a
    "not a number" note per numeric column (a review).  Returns the frame without them,
    their count and the titles."""
    if len(df) < 3 or df.shape[1] < 2:
        return df, 0, []
    # rows whose first two cells are their columns' names, then the whole row: casefolding
    # every cell of a 200,000-row table took 5 s (an adversarial review)
    def same_as_name(col: Any) -> pd.Series:
        return df[col].astype("string").str.strip().str.casefold() == \
            str(col).strip().casefold()

    first = same_as_name(df.columns[0]) | same_as_name(df.columns[1])
    if not first.any():
        return df, 0, []
    rows = df[first.fillna(False).to_numpy()]
    names = pd.Series([str(c).strip().casefold() for c in df.columns], index=df.columns)
    cells = rows.apply(lambda col: col.astype("string").str.strip().str.casefold())
    same = cells.eq(names, axis=1).sum(axis=1)
    filled = rows.notna().sum(axis=1)
    # every present cell its column's name (a survey export writes an option's name in its
    # column when ticked: a respondent who ticked all twelve is a record, an adversarial
    # review), and at least half the columns
    found = (same >= 2) & (same == filled) & (same >= 0.5 * df.shape[1])
    header = pd.Series(False, index=df.index)
    header[found[found].index] = True
    if not header.any():
        return df, 0, []
    drop = header.copy()
    titles = []
    positions = np.flatnonzero(header.to_numpy())
    for pos in positions:
        if pos == 0 or df.shape[1] < 3:
            continue
        above = df.iloc[pos - 1].dropna()
        if len(above) == 1 and _title_line(above.iloc[0]):
            drop.iloc[pos - 1] = True
            titles.append(str(above.iloc[0]).strip())
    return df[~drop].reset_index(drop=True), int(header.sum()), titles


#: A unit as a spreadsheet's units row writes it: ``years``, ``mmHg``, ``mmol/L``, ``µmol/L``,
#: ``%``, ``°C``, ``kg/m²``, ``[USD]`` (no digit but ² and ³, at most 10 characters, one word).
_UNIT_CELL = re.compile(r"^[(\[]?(?:%|％|[^\W\d_]{1,8}|°[CF]|[^\W\d_]{1,6}/[^\W\d_]{1,6}[²³]?"
                        r"|[^\W\d_]{1,4}[²³]|[$€£¥])[)\]]?$")
#: The word that may name a row of units in its first cells (e-Stat's ``単位`` over its
#: item column), over a column of no numbers.
_UNITS_LABELS = {"unit", "units", "unit:", "units:", "単位", "einheit", "unité", "unidad",
                 "unidade", "unità", "eenheid"}
#: Words that look like a unit but are values (a row of answers, not of units).
_NOT_UNIT_WORDS = {"yes", "no", "y", "n", "true", "false", "male", "female", "m", "f", "na",
                   "none", "high", "low", "a", "b", "c", "x"}


#: The label of a gradebook's row of maxima under its header (Canvas's ``Points Possible``,
#: Moodle's and Blackboard's ``Max points`` or ``Out of``).
_MAXIMA_LABEL = re.compile(r"(?i)^\s*(points?\s+possible|possible\s+points?|max(imum)?\s+"
                           r"(points?|scores?|marks?)|out\s+of|total\s+points?)\s*:?\s*$")


def _maxima_row(df: pd.DataFrame) -> bool:
    """Whether the first row under the header is a gradebook's maxima: its first cell filled
    says so (:data:`_MAXIMA_LABEL`), and its other cells are numbers (two at least), read-only
    marks or empty."""
    if len(df) < 5 or df.shape[1] < 3:
        return False
    cells = df.iloc[0].dropna().astype(str).str.strip()
    cells = cells[cells != ""]
    if cells.empty or not _MAXIMA_LABEL.match(cells.iloc[0]):
        return False
    rest = cells.iloc[1:]
    numbers = rest.map(_is_number)
    marks = rest.str.casefold().str.strip("()").isin({"read only", "muted", "n/a", "-"})
    return int(numbers.sum()) >= 2 and bool((numbers | marks).all())


def _units_row(df: pd.DataFrame) -> dict[str, str] | None:
    """The units in the first row under the header, by column, when that row is units: at
    least two cells, each a unit (:data:`_UNIT_CELL`) over a column of numbers, every other
    cell empty, and no unit twice unless of different columns' measures.  Else ``None``."""
    if len(df) < 5 or df.shape[1] < 2:
        return None
    first = df.iloc[0]
    cells = first.dropna().astype(str).str.strip()
    cells = cells[cells != ""]
    # (a cell naming the row, e-Stat's '単位' ("unit") over its item column: the row of
    # 人, ％ and 千円 was a record, and broke the reading of the footnote under the table, a
    # stranger's download)
    cells = cells[~cells.str.casefold().isin(_UNITS_LABELS)]
    if len(cells) < 2 or not cells.map(lambda t: bool(_UNIT_CELL.match(t))).all() or \
            cells.str.casefold().isin(_NOT_UNIT_WORDS).any():
        return None
    below = df.iloc[1:]
    # (numbers with thousands separators too, e-Stat's '117,288')
    if not all(pd.to_numeric(below[c].astype(str).str.replace(r"[,\s]", "", regex=True)
                             .where(below[c].notna()), errors="coerce").notna().mean() >= 0.9
               for c in cells.index):
        return None
    return {c: t.strip("()[]") for c, t in cells.items()}


def _label_row(df: pd.DataFrame) -> bool:
    """Whether the first row under the header is a row of labels (an SPSS or Stata export's
    ``"Age in years"`` under ``q1_age``): words in every cell, distinct, and words where at
    least two columns hold numbers in 95 % of the rows below.  Read as a record it was a
    third class of the target and a "not a number" note per column (a review)."""
    if len(df) < 5 or df.shape[1] < 3:
        return False
    first = df.iloc[0]
    if first.isna().any():
        return False
    text = first.astype(str).str.strip()
    missing = {str(v).strip().lower() for v in _NA_VALUES} | set(NO_ANSWER)
    if text.map(_is_number).any() or text.duplicated().any() or \
            not text.str.contains(r"[^\W\d_]").all() or text.str.lower().isin(missing).any():
        return False  # a record of missing-value words is a record
    return sum(_numbers_below(df)) >= 2


#: Median words per cell from which a file reads as prose rather than a table.
PROSE_WORDS = 6


#: Most fields one column of JSON objects is flattened into.
MAX_JSON_FIELDS = 50


def _json_field(v: Any) -> Any:
    """One flattened JSON field as a reader's cell: a list as its JSON text, true/false as
    words, an empty string missing."""
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return "true" if v is True else "false" if v is False else None if v == "" else v


def _fields_joined(df: pd.DataFrame, parts: list[pd.DataFrame], notes: list[str],
                   fields: dict[str, list[str]]
                   ) -> tuple[pd.DataFrame, list[str], dict[str, list[str]]]:
    """The columns of ``df`` with some replaced by their fields (``parts``, in order), the
    notes and the fields; ``df`` unchanged when no column was, or when a field's name is
    another column's (the column's text is kept then)."""
    if not fields:
        return df, [], {}
    out = pd.concat(parts, axis=1)
    out.attrs = df.attrs
    if out.columns.duplicated().any():
        return df, [], {}
    return out, notes, fields


_JSON_START = re.compile(r"\s*\{")
#: A column is read as JSON objects when at least this share of its present cells are
#: (the rest, a device's plain status messages among its telemetry, have no fields).
MIN_JSON_SHARE = 0.9
#: What :func:`_json_object` gives for a cell that looks like JSON and is not an object.
_NOT_AN_OBJECT = object()


def _json_object(v: Any) -> Any:
    """A cell as a JSON object (a dict); None for a missing cell or plain text that is no
    JSON ('offline'); :data:`_NOT_AN_OBJECT` for JSON that is not an object (a list, a
    number) or text that starts as an object and does not parse: then the column is text."""
    if not isinstance(v, str):
        return None
    try:
        o = json.loads(v)
    except ValueError:
        return _NOT_AN_OBJECT if _JSON_START.match(v) else None
    return o if isinstance(o, dict) else _NOT_AN_OBJECT


def _json_objects_flattened(df: pd.DataFrame
                            ) -> tuple[pd.DataFrame, list[str], dict[str, list[str]]]:
    """Columns whose every cell is a JSON object (``{"category": "mobile", ...}``, as
    BigQuery exports a STRUCT to CSV) as one column per field, ``device.category``, in the
    column's place, as JSON Lines records are read; and a note per column.  Left as text, a
    review's GA4 sessions were refused as prose and, with fewer such columns, had "no usable
    feature"; the same data as JSON Lines gave the planted rule.  Also returns each flattened
    column's fields."""
    notes: list[str] = []
    fields: dict[str, list[str]] = {}
    parts: list[pd.DataFrame] = []
    for col in df.columns:
        s = df[col]
        # a look at the first cells only: this runs on every column of every table
        head = s.iloc[:1000].dropna().iloc[:200].tolist()
        # (in plain Python: pandas' string methods parse the pattern again on every call)
        # (most cells, not every one: a device's 'online' / 'offline' status messages, 4.5 %
        # of an MQTT log's payloads, left the whole column out as an identifier, a
        # stranger's Node-RED log)
        if pd.api.types.is_numeric_dtype(s) or len(head) < 5 or \
                np.mean([bool(_JSON_START.match(str(v))) for v in head]) < MIN_JSON_SHARE:
            parts.append(s.to_frame())
            continue
        objs = [_json_object(v) for v in s]
        other = s.notna().to_numpy() & np.array([o is None for o in objs])
        if other.mean() > 1 - MIN_JSON_SHARE or any(o is _NOT_AN_OBJECT for o in objs):
            parts.append(s.to_frame())
            continue
        flat = pd.json_normalize([o or {} for o in objs])
        if not 1 <= flat.shape[1] <= MAX_JSON_FIELDS:
            parts.append(s.to_frame())
            continue
        flat.columns = [f"{col}.{c}" for c in flat.columns]
        flat.index = s.index
        flat = flat.apply(lambda c: c.map(_json_field))
        flat = flat.astype(object)
        flat.loc[s.isna().to_numpy()] = None  # a missing struct: each field missing
        parts.append(flat.where(flat.notna(), None))
        shown = ", ".join(flat.columns[:4]) + (", …" if flat.shape[1] > 4 else "")
        others = pd.unique(s[other].astype(str).str.strip())
        besides = (f"; {_cells(int(other.sum()))} that are no JSON object "
                   f"({', '.join(map(repr, others[:3]))}{', ...' if len(others) > 3 else ''})"
                   " have no value in those fields" if other.any() else "")
        notes.append(f"{col!r}: JSON objects in its cells are read as their {flat.shape[1]} "
                     f"fields ({shown}), as JSON Lines records are{besides}.")
        fields[str(col)] = [str(c) for c in flat.columns]
    return _fields_joined(df, parts, notes, fields)


#: One ``key=value`` pair of a log line (``method=POST``, ``path="/v1/a b"``, ``a=1&b=2``).
_KEY_VALUE = re.compile(r"(?<![\w.\-])([A-Za-z_][\w.\-]{0,40})=(?:\"([^\"]*)\"|'([^']*)'|"
                        r"([^\s,;&\"'()\[\]{}]*))")
#: A field is kept when it is in at least this share of a column's lines.
MIN_KEY_SHARE = 0.2
#: An LDAP distinguished name, ``CN=Lena Kim,OU=Disabled Users,DC=corp,DC=com``: its
#: values hold spaces and its keys repeat, so it is no log line of pairs.
_LDAP_DN = re.compile(r"\s*(?:CN|OU|DC|O|L|ST|C|UID|STREET)=[^,=]+"
                      r"(?:\s*,\s*(?:CN|OU|DC|O|L|ST|C|UID|STREET)=[^,=]+)+\s*",
                      re.IGNORECASE)


def _key_value_flattened(df: pd.DataFrame, keep: Iterable[str] = ()
                         ) -> tuple[pd.DataFrame, list[str], dict[str, list[str]]]:
    """Text columns of log lines with ``key=value`` pairs (Splunk's ``_raw``, logfmt, a
    query string) as one column per key, ``_raw.method``, in the column's place, as
    :func:`_json_objects_flattened` reads JSON objects.  Left as text, a Splunk export's
    signal was all in ``_raw``, free text of a different line per row, and the warning's
    advice to include it gave a rule that matched one log line (an analyst's review).  A
    key kept is in :data:`MIN_KEY_SHARE` of the lines at least; other text of the line is
    dropped (it is different in every row: a timestamp, a level).

    Only a column of many distinct lines is read so, one that would be left out as free
    text (:data:`roles.MAX_TEXT_LEVELS`): a model's settings, ``SVC(max_depth=5, lr=0.1)``,
    a few values each, were a category that carried the signal (an adversarial review).
    Columns named in ``keep`` (the target, a column given a kind or included) stay as
    they are."""
    notes: list[str] = []
    fields: dict[str, list[str]] = {}
    parts: list[pd.DataFrame] = []
    keep = {str(c) for c in keep}
    for col in df.columns:
        s = df[col]
        head = s.iloc[:1000].dropna().iloc[:200].tolist()
        # (not an LDAP name: read as pairs, 'OU=Disabled Users' was 'OU = Disabled' and
        # 'CN=Lena Kim' a copy of the given name, a stranger's Active Directory export)
        if str(col) in keep or pd.api.types.is_numeric_dtype(s) or len(head) < 5 or \
                np.mean([len(_KEY_VALUE.findall(str(v))) < 2 for v in head]) > 0.1 or \
                np.mean([bool(_LDAP_DN.fullmatch(str(v))) for v in head]) > 0.5 or \
                s.nunique() <= roles_mod.MAX_TEXT_LEVELS:
            parts.append(s.to_frame())
            continue
        # one dict per line, by position (a frame's index may repeat after a concat, and
        # rows sharing a label all took the first one's fields: an adversarial review), a
        # key's first value (a loop over finditer: pandas' extractall took 8.6 s on 100,000
        # lines of 20 pairs, this 2 s)
        records = []
        for line in s.to_numpy():
            found: dict[str, str] = {}
            for m in _KEY_VALUE.finditer(line if isinstance(line, str) else ""):
                if m.group(1) not in found:
                    found[m.group(1)] = next((g for g in m.groups()[1:] if g is not None), "")
            records.append(found)
        wide = pd.DataFrame.from_records(records, index=range(len(s)))
        share = wide.notna().sum() / max(int(s.notna().sum()), 1)
        keys = [k for k in wide.columns if share[k] >= MIN_KEY_SHARE][:MAX_JSON_FIELDS]
        if not keys:
            parts.append(s.to_frame())
            continue
        wide = wide[keys]
        wide = wide.where(wide.notna() & (wide != ""), None).astype(object)
        wide.index = s.index
        wide.columns = [f"{col}.{k}" for k in keys]
        parts.append(wide)
        shown = ", ".join(wide.columns[:4]) + (", …" if len(keys) > 4 else "")
        notes.append(f"{col!r}: its lines hold key=value pairs, read as {len(keys)} fields "
                     f"({shown}); the rest of each line is left out.")
        fields[str(col)] = [str(c) for c in wide.columns]
    return _fields_joined(df, parts, notes, fields)


def _refuse_prose(df: pd.DataFrame, fname: str) -> None:
    """A text file of sentences parses as a few columns of words; say so instead of learning.

    Tables with a free-text column still pass: the median is over every cell, and numbers,
    codes and short labels are one or two words.
    """
    cells = df.head(200).stack()
    # JSON in cells is no prose; "[00:01] Hello, ..." is
    cells = cells[~cells.astype(str).str.match(r"^\s*(\{.*\}|\[.*\])\s*$")]
    if not len(cells):
        return
    words = cells.astype(str).str.count(r"\s+") + 1
    if float(words.median()) >= PROSE_WORDS:
        raise DataError(f"{fname} looks like prose, not a table: its cells hold "
                        f"{float(words.median()):.0f} words each on average. Upload a CSV "
                        "with one row per record and one column per field.")


def load_csv(
    source: str | os.PathLike | IO,
    target: str | None = None,
    *,
    positive: Any = None,
    kinds: Mapping[str, Kind] | None = None,
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
    continuous: Literal["refuse", "median"] = "refuse",
    ratings: Literal["split", "classes"] = "split",
    zero_missing: Iterable[str] = (),
    keep_codes: Iterable[str] = (),
    orders: Mapping[str, Sequence[str]] | None = None,
    name: str | None = None,
    sheet: str | None = None,
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    max_columns: int = MAX_COLUMNS,
) -> Dataset:
    """Read a table file into a :class:`Dataset`.

    Parameters
    ----------
    source : path or file-like
        The CSV (bytes or text).  Delimiter (``, ; tab |``) and header are sniffed.
        Workbooks (``.xlsx``, ``.xls``, ``.xlsb``, ``.ods``), Parquet, Feather, Stata, SPSS
        and SAS files are read too, as are files gzip-compressed or alone in a ZIP archive
        (:func:`read_csv_frame`).
    target, positive, kinds, include, exclude, continuous, ratings, zero_missing, keep_codes, orders
        As for :func:`from_frame`: the target (default the most plausible class column),
        the positive class or a threshold such as ``"> 40"`` (default the minority class),
        column kind overrides, and columns to use or leave out beside the detected roles.
    name : str, optional
        Display name; default the file name.
    sheet : str, optional
        A workbook's sheet to read; default the largest (:func:`sheet_names` lists them).
    max_bytes, max_rows, max_columns : int
        Size limits; larger inputs raise :class:`DataError`.

    Raises
    ------
    DataError
        For an empty, binary, non-UTF-8, unparseable, one-column or prose file, duplicate
        column names, an unusable target, no usable feature, or a format it does not read
        (Apple Numbers, PDF, a password-protected workbook: the message says what to do).
    """
    data, fname = _read_bytes(source, max_bytes)  # once: another sheet may be read too
    df, fname = read_csv_frame(io.BytesIO(data), name=name or fname, sheet=sheet,
                               max_bytes=max_bytes, max_rows=max_rows, max_columns=max_columns)

    def read(other: str) -> pd.DataFrame:
        return read_csv_frame(io.BytesIO(data), name=fname, sheet=other, max_bytes=max_bytes,
                              max_rows=max_rows, max_columns=max_columns)[0]

    def prepare(frame: pd.DataFrame) -> Dataset:
        return from_frame(_header_from_target(frame, target), target=target, positive=positive,
                          kinds=kinds, include=include, exclude=exclude,
                          continuous=continuous, ratings=ratings, zero_missing=zero_missing,
                          keep_codes=keep_codes, orders=orders, name=fname, typed=False)

    return from_sheets(df, read, prepare)


def from_sheets(frame: pd.DataFrame, read: Callable[[str], pd.DataFrame],
                prepare: Callable[[pd.DataFrame], Dataset]) -> Dataset:
    """``prepare(frame)``, its sheet in :attr:`Dataset.sheet`; when ``frame`` is a workbook's
    default sheet (the largest) and holds no table to learn from, the first other sheet,
    largest first, that does (``read(sheet)`` gives its frame), said in a note.

    A workbook whose largest sheet was a lookup list of 900 product codes stopped with "no
    usable feature column", the orders on its second sheet (an analyst review)."""
    try:
        with sheet_hint(frame):
            return replace(prepare(frame), sheet=frame.attrs.get("sheet"))
    except DataError as exc:
        first = exc
    for other in frame.attrs.get("by_size") or []:
        if other == frame.attrs.get("sheet"):
            continue
        try:
            ds = prepare(read(other))
        except DataError:
            continue
        why = re.split(r"[:.] ", str(first).split(" (Read sheet ")[0])[0]  # its gist
        said = (f"Sheet {frame.attrs.get('sheet')!r}, the largest, holds no table to learn "
                f"from ({why.rstrip('.')}), so sheet {other!r} is read. Choose another sheet "
                "if the table is on another one.")
        return replace(ds, sheet=other, notes=(said, *[n for n in ds.notes
                                                        if not n.startswith("Read sheet ")]))
    raise first


def _header_from_target(df: pd.DataFrame, target: str | None) -> pd.DataFrame:
    """A file read without a header (columns x1, x2, ...) whose first row names the target
    given: that row is the header after all ("region,2019,2020,grew": the years made it look
    like data)."""
    names = [str(c) for c in df.columns]
    if target is None or target in names or not len(df) or \
            names != [f"x{i + 1}" for i in range(len(names))]:
        return df
    first = [str(v).strip() if pd.notna(v) else "" for v in df.iloc[0]]
    if str(target) not in first or len(set(first)) < len(first):
        return df
    out = df.iloc[1:].reset_index(drop=True)
    out.columns = [c if c else f"column {i + 1}" for i, c in enumerate(first)]
    out.attrs = {**df.attrs, "notes": [n for n in df.attrs.get("notes", [])
                                       if not n.startswith("No header row was found")]}
    return out


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


# --------------------------------------------------------------------------- frames

_THOUSANDS = r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$"
# India's grouping: thousands, then lakhs and crores by twos ("7,01,000", "1,20,50,000")
_LAKHS = r"^[+-]?\d{1,2}(,\d{2})+,\d{3}(\.\d+)?$"
_DECIMAL_COMMA = r"^[+-]?\d+,\d+$"
# A number with one currency sign before or after it, or a percent sign after it.
_SIGN_CHARS = "$€£¥₹₩₽₺₪฿₱₫₦円元"  # (円 and 元 after the number: 4,500,000円)
_SIGNS = rf"[{_SIGN_CHARS}%]"
_DECORATED = rf"^[+-]?\s?[{_SIGN_CHARS}]?\s?[+-]?\d[\d.,\s'’]*\s?[{_SIGN_CHARS}%]?$"
#: Currency codes and the signs they stand for where a sign exists.  Amounts are written
#: ``CHF 3’403.34``, ``Rs. 4,80,000``, ``1,234.50 USD`` as often as with a sign; read as text,
#: such a column of balances was left out as an identifier (a review: Swiss and Indian
#: exports).  One currency per column: amounts in two are not comparable.  (Not "Ft",
#: Hungary's sign: "6 Ft" is feet as often.)
_CURRENCY_CODES = {
    "USD": "$", "US$": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "Rs.": "₹",
    "Rs": "₹", "KRW": "₩", "RUB": "₽", "TRY": "₺", "ILS": "₪", "THB": "฿", "PHP": "₱",
    "VND": "₫", "NGN": "₦", "CHF": "CHF", "SFr.": "CHF", "Fr.": "CHF", "CAD": "CAD",
    "C$": "CAD", "AUD": "AUD", "A$": "AUD", "NZD": "NZD", "NZ$": "NZD", "HKD": "HKD",
    "HK$": "HKD", "SGD": "SGD", "S$": "SGD", "CNY": "CNY", "RMB": "CNY", "SEK": "SEK",
    "NOK": "NOK", "DKK": "DKK", "PLN": "PLN", "zł": "PLN", "CZK": "CZK", "Kč": "CZK",
    "HUF": "HUF", "ZAR": "ZAR", "BRL": "BRL", "R$": "BRL", "MXN": "MXN",
    "AED": "AED", "SAR": "SAR", "IDR": "IDR", "Rp": "IDR", "MYR": "MYR", "RM": "MYR",
}
_CODE_ALTS = "|".join(re.escape(c) for c in sorted(_CURRENCY_CODES, key=len, reverse=True))
# a code then a space or a digit ("CHF 12", "USD -5", "CHF12"), not a hyphen: "RM-1017" and
# "CAD-5530" are a part's and a drawing's numbers (an adversarial review)
_CODED = re.compile(rf"^(?:({_CODE_ALTS})(?:\s(?=[(+\-]?\s?\d)|(?=\d))(.*)|"
                    rf"(.*?\d\)?)\s({_CODE_ALTS}))$")
# Digits grouped by threes with a space, a no-break space or an apostrophe, and a decimal
# point: "12 345.67", "1'234.50"; or grouped by a dot or a space, and a decimal comma:
# "1.234,50", "12 345,67".
_GROUP_MARKS = r"[\s\u00a0\u202f'’]"
_GROUPED_DOT = r"^[+-]?\d{1,3}([ \u00a0\u202f'’]\d{3})+(\.\d+)?$"
_GROUPED_COMMA = r"^[+-]?\d{1,3}([. \u00a0\u202f]\d{3})+(,\d+)?$"
# A number in parentheses, as accounting writes a negative amount: "(1,234.50)", "($12)"
_PARENTHESES = rf"^\(\s*([{_SIGN_CHARS}]?\s?[\d.,]+\s?[{_SIGN_CHARS}%]?)\s*\)$"
# ... or with the minus after it, as SAP writes one: "97,250.94-" (a review: such a column of
# amounts was left out as an identifier)
_TRAILING_MINUS = rf"^([{_SIGN_CHARS}]?\s?\d[\d.,]*)\s?-$"


_MONEY = rf"[{_SIGN_CHARS}]"
_DOTTED_THOUSANDS = r"^[+-]?[1-9]\d{0,2}(\.\d{3})+$"


def _dots_group_thousands(text: pd.Series) -> bool:
    """Whether the dots in amounts (their currency sign dropped) group thousands, as German
    and Dutch write them: every cell a whole number or digits grouped by threes after a dot
    (never a first group of 0: ``$0.250`` is a quarter), and either some whole amount of
    three digits (``€ 798`` beside ``€ 4.727``: amounts just under a thousand, written
    without a dot) or some cell with two dots (``1.234.567``).  Read as decimals, ``€ 4.727``
    was 4.727, below ``€ 798``, and the rule said ``Betrag > 40`` (a review).  Prices with
    three decimals (``€1.977`` of fuel beside ``€2``, a tariff ``€ 0.209``) stay decimals (an
    adversarial review)."""
    dotted = text.str.match(_DOTTED_THOUSANDS)
    whole = text.str.match(r"^[+-]?\d+$")
    if not ((dotted | whole).all() and dotted.any()):
        return False
    wholes = pd.to_numeric(text[whole], errors="coerce").abs()
    return bool((wholes >= 100).any() or text.str.count(r"\.").max() > 1)


def _codes_in_head(text: pd.Series, every: bool = True) -> bool:
    """Whether the first cells (stripped text) with letters are all (or, with ``every``
    false, some) amounts with a currency code: a cheap look before the whole column is
    matched."""
    head = text.iloc[:200]
    lettered = head[head.str.contains(r"[A-Za-z]")]
    coded = lettered.str.match(_CODED)
    return bool(len(lettered)) and bool(coded.all() if every else coded.any())


def _currency_codes_as_signs(text: pd.Series) -> pd.Series | None:
    """``text`` (stripped cells) with each currency code written as its sign (``CHF 3’403``
    as ``$3’403``, ``Rs. 4,80,000`` as ``₹4,80,000``; a code without a sign becomes ``$``, a
    placeholder the sign handling of :func:`parse_numbers` drops), or ``None`` when no cell
    has a code or the column names two currencies (``USD 12`` beside ``EUR 15``)."""
    parts = text.str.extract(_CODED)
    code = parts[0].fillna(parts[3])
    if code.isna().all():
        return None
    signs = code.dropna().map(_CURRENCY_CODES)
    written = text.str.extract(rf"([{_SIGN_CHARS}])")[0].dropna()
    if signs.nunique() > 1 or (len(written) and set(written) - set(signs)):
        return None
    sign = signs.iloc[0] if signs.iloc[0] in _SIGN_CHARS else "$"
    bare = parts[1].fillna(parts[2]).str.strip()
    return text.where(code.isna(), sign + bare.astype(str))


_ONE_DOT_THOUSAND = r"^\s*[+-]?[1-9]\d{0,2}\.\d{3}\s*$"


#: Cells above which :func:`_hits` leaves the regex to pandas.
_PYTHON_REGEX_CELLS = 5_000


def _hits(text: pd.Series, pattern: str | re.Pattern, how: str = "search") -> pd.Series:
    """``text.str.contains(pattern)`` (``how="search"``) or ``text.str.match(pattern)``
    (``"match"``) for cells of text without missing values, as a bool Series on its index.

    For a few thousand cells or fewer the regex runs in Python: pandas' Arrow strings first
    check, on every call, whether the pattern and the cells suit their own engine, which
    costs more than the search itself on a short column, and the checks on a wide table's
    samples made thousands of such calls (a gene table of 72 rows × 1,500 columns spent 57 %
    of its 10 s load in them)."""
    if len(text) > _PYTHON_REGEX_CELLS:
        return (text.str.contains(pattern) if how == "search" else text.str.match(pattern)
                ).astype(bool)
    rx = re.compile(pattern)
    find = rx.search if how == "search" else rx.match
    return pd.Series([find(t) is not None for t in text.astype(object)], index=text.index,
                     dtype=bool)


def _dot_thousands(text: pd.Series) -> bool:
    """Whether plain numbers (no currency) write thousands with a dot, as German and Dutch
    exports do: every cell a whole number under 1000 or one dot followed by three digits
    (``9.226``, ``10.788``), three such cells at least, and some whole number of three
    digits (``812``).  A tool life of 10,788 cycles was read as 10.788, below an 812-cycle
    tool, and the rule's ``Standzeit > 7.66`` took in every new tool (an analyst's review).
    Decimals written with three places keep their point wherever a whole number is 1000 or
    more, or none has three digits (``1.977`` beside ``2``)."""
    t = text.str.strip()
    dotted = _hits(t, _ONE_DOT_THOUSAND, "match")
    whole = _hits(t, r"^[+-]?\d+$", "match")
    if not (dotted | whole).all() or dotted.sum() < 3 or not whole.any():
        return False
    wholes = pd.to_numeric(t[whole], errors="coerce").abs()
    return bool(wholes.max() < 1000 and (wholes >= 100).any())


_SPACES_SHOWN = re.compile("[\u00a0\u202f]")


def number_marks(cell: str, num: float) -> str:
    """How a cell writes the number ``num`` it was read as, in words: ``"a decimal comma"``,
    ``"thousands separators"``, ``"dots between thousands"``, ``"negatives in parentheses"``
    ... (the notes say it, and the Python export reads a decimal comma back)."""
    if re.search(_EASTERN_DIGIT, cell):
        return "Arabic-Indic digits"
    if re.search(_VULGAR, cell):
        return "fractions (½)"
    if re.search(_TYPESET_MINUS, cell):
        return "a typeset minus (−, –)"
    if cell.startswith("("):
        return "negatives in parentheses"
    if cell.rstrip().endswith("-"):
        return "a minus after negative numbers"
    if re.search("[\uff10-\uff19]", cell):
        return "full-width digits"
    try:  # the number the cell gives without its group marks: thousands, not decimals
        grouped = float(re.sub(r"[,\s'’\u00a0\u202f]", "", cell)) == num
    except ValueError:
        grouped = False
    try:  # (each on its own: '4\u202f039' is no float, and was said a decimal comma)
        dotted = "," not in cell and float(cell.replace(".", "")) == num != float(cell)
    except ValueError:
        dotted = False
    return ("dots between thousands" if dotted else "thousands separators" if grouped
            else "a decimal comma")


def _read_with_decimal_comma(cells: pd.Series, values: pd.Series) -> bool:
    """Whether text ``cells`` give the numbers ``values`` they were read as only with a
    decimal comma and dots (or spaces) between thousands (``'3.348,00 €'`` is 3348,
    ``'12.606'`` 12606), and not as plain English numbers: the exported Python code then
    reads the column so (:meth:`rulecore.rules.rule.Rule.to_python`)."""
    def read(cell: str, european: bool) -> float:
        core = re.sub(r"[^\d.,+\-()]", "", cell.replace("\u2212", "-"))
        neg = core.startswith("(") and core.endswith(")") or core.startswith("-")
        core = core.strip("()+-")
        core = core.replace(".", "").replace(",", ".") if european else core.replace(",", "")
        try:
            return -float(core) if neg else float(core)
        except ValueError:
            return np.nan

    want = values.to_numpy(dtype=float)
    text = cells.astype(str).to_numpy()
    eu = np.array([read(c, True) for c in text])
    en = np.array([read(c, False) for c in text])
    close = np.isclose(eu, want, rtol=1e-9, atol=1e-9)
    return bool(close.all() and not np.isclose(en, want, rtol=1e-9, atol=1e-9).all())


def _written_numbers_note(written: list[tuple[str, str, float]]) -> str:
    """One note on the columns whose numbers are written with thousands separators, a decimal
    comma or accounting's parentheses: what a table must go through before an exported
    rule gives the app's answers on it (:meth:`Dataset.notes_for`)."""
    # (a narrow or no-break space shown as a space: repr wrote '4\u202f039')
    spaced = [(col, _SPACES_SHOWN.sub(" ", cell), num) for col, cell, num in written[:6]]
    shown = [f"{col!r} ({cell!r} is {np.format_float_positional(num, trim='-')})"
             for col, cell, num in spaced]
    more = f" and {len(written) - 6} more" if len(written) > 6 else ""
    kinds = sorted({number_marks(cell, num) for _, cell, num in written})
    return (f"Numbers in {', '.join(shown)}{more} are written with {' or '.join(kinds)}, and "
            "read as the numbers they write; a rule exported to SQL or code compares those "
            "numbers, so convert these columns to numbers the same way before applying it.")


# zero_padded_codes and CODE_MIN_WIDTH live in roles (an identifier test needs them too)


#: Unicode's minus sign, the figure dash and the en dash (the reader, its regex and the
#: exported Python code read them alike).
TYPESET_DASHES = "\u2212\u2012\u2013"
#: A minus written as one of them, before a number (its currency sign or a parenthesis):
#: read as "-" (:func:`parse_numbers`).
_TYPESET_MINUS = rf"[{TYPESET_DASHES}](?=\s?[\d.,$€£¥(])"


#: Arabic-Indic (U+0660..) and Persian (U+06F0..) digits, and the Arabic thousands
#: separator and decimal mark, as ASCII (:func:`parse_numbers`).
_EASTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٬٫", "01234567890123456789,.")
_EASTERN_DIGIT = "[\u0660-\u0669\u06f0-\u06f9]"


#: Unicode's fractions as a size or a length is written with them ('9½', '10¼').
_VULGAR_VALUES = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3, "⅛": 0.125,
                  "⅜": 0.375, "⅝": 0.625, "⅞": 0.875}
_VULGAR = f"[{''.join(_VULGAR_VALUES)}]"


def parse_numbers(s: pd.Series, lakhs: bool = False) -> pd.Series:
    """Text cells as numbers when *every* present value is one.

    Accepts plain numbers, thousands separators (``1,234,567.5``; also ``12 345.6``,
    ``1'234.5`` and, with a decimal comma, ``1.234,5`` and ``12 345,6``), decimal commas
    (``3,14``, common with ``;``-separated files), and the decorations spreadsheets add: a currency
    sign (``$1,234.50``, ``12,5 €``) or a percent sign (``15%`` reads 15), and accounting's
    negatives in parentheses (``(1,234.50)`` reads −1234.5) or with the minus after them, as
    SAP writes them (``1,234.50-``).  A column with any other text stays text.  India's
    grouping (``7,01,000``) is read in rupees (``₹``, ``Rs.``, ``INR``) or with ``lakhs``
    (the caller saw rupees around the numbers).
    """
    present = s.dropna()
    if present.empty or pd.api.types.is_numeric_dtype(s):
        return s
    head = present.iloc[:200].astype(str)
    if not _hits(head, r"\d").any():
        return s  # words, not numbers: skip the full conversion (it is the slow part)
    if _hits(head, _VULGAR).any():
        # shoe and clothing sizes, inches: '9½' is 9.5 (read as text, a size gave a chain of
        # 'shoe_size_us != 9½' conditions and refused --numeric: an analyst's review)
        halves = s.astype(object).where(s.isna(), s.astype(str).str.replace(
            rf"^\s*(\d*)\s*({_VULGAR})\s*$",
            lambda m: repr(int(m.group(1) or 0) + _VULGAR_VALUES[m.group(2)]),
            regex=True))
        if halves.dropna().astype(str).str.contains(_VULGAR).any():
            return s  # a fraction among words ('9½ in wide'): text
        out = parse_numbers(halves, lakhs)
        return out if pd.api.types.is_numeric_dtype(out) else s
    if _hits(head, _EASTERN_DIGIT).any():
        # Arabic-Indic and Persian digits with their own marks: '١١٬٣٦٠٫٠٠' is 11360.00
        # (float() reads the digits alone, not the marks: an income column was left out
        # as text, an analyst's review)
        eastern = s.astype(object).where(s.isna(), s.astype(str).str.translate(_EASTERN))
        out = parse_numbers(eastern, lakhs)
        return out if pd.api.types.is_numeric_dtype(out) else s
    try:
        # the fast path (C-level float parsing): every present value a plain number
        plain = s.astype(float)
    except (TypeError, ValueError):
        pass
    else:
        if _hits(head, _ONE_DOT_THOUSAND, "match").any() and \
                _dot_thousands(present.astype(str)):
            # "9.226" cycles beside "812": German thousands, not 9.226 (an analyst's review)
            return pd.to_numeric(s.astype(str).str.replace(".", "", regex=False)
                                 .where(s.notna()), errors="coerce")
        return plain
    # (the dashes looked for in one string first: a regex over a million cells of text
    # cost 0.3 s a column, a review)
    as_text = present.astype(str)
    joined = "".join(as_text.to_numpy())
    if any(d in joined for d in TYPESET_DASHES) and as_text.str.contains(_TYPESET_MINUS).any():
        # Unicode's minus sign, or a dash as typesetting writes one, before a number:
        # '−2.8' (U+2212) left a temperature column as text, and '−3,431' a profit column
        # called an identifier (a stranger's table); a dash in a range ('10–20') stays text
        minus = s.astype(object).where(s.isna(), s.astype(str).str.replace(
            _TYPESET_MINUS, "-", regex=True))
        out = parse_numbers(minus, lakhs)
        return out if pd.api.types.is_numeric_dtype(out) else s
    if "±" in joined and as_text.str.contains("±", regex=False).any() and \
            as_text[as_text.str.contains("±", regex=False)].str.strip().str.startswith(
                "±").all():
        # a margin of error, '±1,046' (the Census Bureau's tables): its size (read as text,
        # a margin column was an identifier that split the held-out rows: a stranger's table)
        margin = s.astype(object).where(s.isna(), s.astype(str).str.strip().str.lstrip("±"))
        out = parse_numbers(margin, lakhs)
        return out if pd.api.types.is_numeric_dtype(out) else s
    original = s  # what a column that turns out not to be numbers is returned as
    text = present.astype(str).str.strip()
    if _codes_in_head(text):
        coded = _currency_codes_as_signs(text)
        if coded is not None:
            text = coded
            s = s.astype(object).where(s.isna(), coded.reindex(s.index))
    for pattern in (_PARENTHESES, _TRAILING_MINUS):
        if text.str.match(pattern).any():
            # accounting's negatives: "(1,234.50)" and "1,234.50-" are -1,234.50
            text = text.str.replace(pattern, r"-\1", regex=True)
            s = s.astype(object).where(s.isna(), s.astype(str).str.strip()
                                       .str.replace(pattern, r"-\1", regex=True))
    rupees = lakhs or bool(text.str.contains("₹", regex=False).any())
    decorated = text.str.match(_DECORATED)
    if decorated.all() and text.str.contains(_SIGNS).any():
        # one currency or percent sign around every number: drop it, parse what is left
        # ("-€ 1.200" leaves "- 1.200": the minus joins its number)
        def bare(t: pd.Series) -> pd.Series:
            return t.str.replace(_SIGNS, "", regex=True).str.strip() \
                .str.replace(r"^([+-])\s+", r"\1", regex=True)

        money = text.str.contains(_MONEY).any()
        text = bare(text)
        s = s.astype(object).where(s.isna(), bare(s.astype(str).str.strip()))
        if money and _dots_group_thousands(text):
            text = text.str.replace(".", "", regex=False)
            s = s.astype(object).where(s.isna(), s.astype(str).str.replace(".", "", regex=False))
    num = pd.to_numeric(text, errors="coerce")
    if num.notna().all():
        return pd.to_numeric(s, errors="coerce")
    plain = num.notna()
    # India's lakh grouping only in amounts in rupees: "22,80,443" is a list of ports as
    # often (an adversarial review)
    thousands = text.str.match(_THOUSANDS) | (text.str.match(_LAKHS) if rupees else False)
    decimal = text.str.match(_DECIMAL_COMMA)
    # "1,234" fits both patterns: read it as thousands (three digits after every comma), and
    # "3,14" as a decimal comma.  Mixed with plain numbers either way is fine.
    if (thousands | plain).all() and thousands.any():
        return pd.to_numeric(s.astype(str).str.replace(",", "", regex=False).where(
            s.notna()), errors="coerce")
    if (decimal | plain).all() and decimal.any():
        return pd.to_numeric(s.astype(str).str.replace(",", ".", regex=False).where(
            s.notna()), errors="coerce")
    # Grouped digits as other locales write them: "12 345.67" (spaces, also the no-break
    # spaces French Excel writes), "1'234.50" (Swiss), or with a decimal comma, "1.234,50"
    # (German) and "12 345,67" (French).  Beside them, plain values must be whole numbers in
    # the comma case ("1.5" would be ambiguous there).
    grouped_dot = text.str.match(_GROUPED_DOT)
    if (grouped_dot | plain).all() and grouped_dot.any():
        return pd.to_numeric(s.astype(str).str.replace(_GROUP_MARKS, "", regex=True).where(
            s.notna()), errors="coerce")
    grouped_comma = text.str.match(_GROUPED_COMMA) | decimal
    whole = text.str.match(r"^[+-]?\d+$")
    if (grouped_comma | whole).all() and grouped_comma.any():
        return pd.to_numeric(s.astype(str).str.replace(r"[.\s\u00a0\u202f]", "", regex=True)
                             .str.replace(",", ".", regex=False).where(s.notna()),
                             errors="coerce")
    return original


# A number followed by one unit: "12 kg", "37.5°C", "120 mg/dL", "3 months"
_WITH_UNIT = r"^([+-]?\d[\d.,'’\s\u00a0]*?)\s?([A-Za-zµμ°Ω][A-Za-zµμ°Ω/²³]{0,7})?$"
# ... but not a day and month ("12 Jan") or a time ("5 PM")
_NOT_UNITS = frozenset({"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept",
                        "oct", "nov", "dec", "am", "pm", "e"})


_CLOCK = r"^(\d{1,3}):([0-5]\d)(?::([0-5]\d(?:\.\d+)?))?$"


def _every_cell_matches(s: pd.Series, pattern: str | re.Pattern,
                        first_group: bool = True) -> pd.DataFrame | None:
    """The groups of ``pattern`` in every present cell of a text column (at least 5), indexed
    like those cells; ``None`` when one cell does not match (or, with ``first_group``, leaves
    the first group empty).  The first 200 cells are looked at first, so a large column of
    other text stops there."""
    if pd.api.types.is_numeric_dtype(s):
        return None
    present = s.dropna()
    if len(present) < 5 or not all(isinstance(v, str) for v in present.iloc[:50]):
        return None
    # the look at the first cells in plain Python: through pandas' string methods it cost
    # 1.5 ms a call on any column (it parses the pattern again each time), and every text
    # column of every table loaded goes through a dozen of these tests
    rx = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern)
    if not all(rx.match(str(v).strip()) for v in present.iloc[:200].tolist()):
        return None
    text = present.astype(str).str.strip()
    # every cell, not only the first 200: where all groups are optional, a cell that does
    # not match extracts as empty groups (text 1,852 rows down a column of ids read as
    # Eurostat's ':', a stranger's loan book)
    if len(present) > 200 and not text.str.match(rx).all():
        return None
    parts = text.str.extract(pattern)
    return None if first_group and parts[0].isna().any() else parts


def _placed(s: pd.Series, values: pd.Series) -> pd.Series:
    """``values`` (indexed like the present cells of ``s``) as a float column like ``s``."""
    out = pd.Series(np.nan, index=s.index, dtype=float)
    out[values.index] = values.to_numpy(dtype=float)
    return out


#: A column named as a time of day ("Time", "pickup_time", "clock_in"), not a duration
#: ("call_duration", "wait_time", "time_spent").
_TIME_OF_DAY_NAME = re.compile(r"(^|[^a-z])(time|clock|hour|o.?clock|tod)([^a-z]|$)|"
                               r"time.?of.?day|_at$|^at_|start|arriv|depart|opened|closed",
                               re.IGNORECASE)
_DURATION_NAME = re.compile(r"durat|length|elapsed|spent|wait|runtime|lap|taken|total|"
                            r"how.?long|hold|talk|handl|queue|idle|delay|travel|turnaround|"
                            r"response|resolution|ring|moving", re.IGNORECASE)


#: How :func:`numbers_from_clock` says a time of day was read.
CLOCK_HOURS = "hours after midnight"
#: The frame attribute naming the columns read as times of day (hours after midnight):
#: :func:`from_frame` sets it on ``Dataset.X``; :class:`rulecore.rules.terms.Binarizer`
#: writes their thresholds as times.
CLOCK_COLUMNS = "clock_columns"
#: The frame attribute giving the unit of each column read from numbers written with one
#: (``72 kg``, ``2 days 04:00:00`` as hours): ``{column: "kg"}``.  A rule's text names it,
#: ``weight > 80 kg``, ``time_to_resolve > 45.81 h``: without it a stranger read the
#: threshold of an interval column as a number of days.  Only the writing, as for clocks.
UNIT_COLUMNS = "unit_columns"


def numbers_from_clock(s: pd.Series, name: str = "") -> tuple[pd.Series, str | None]:
    """A text column of durations or times written with colons (``1:02:03``, ``25:13``,
    ``14:30``) as numbers: ``h:mm:ss`` in seconds; two parts as 60 × the first + the second
    (seconds for ``m:ss``, minutes since midnight for ``h:mm``: the order is the same).  A
    column named as a time of day (``name``: "Time", "pickup_time", not "wait_time") whose
    every value is before 24:00 is read as hours after midnight instead (``13:58:54`` is
    13.98): ``Time > 50334`` seconds was unreadable.

    Read as text, a call duration had a different value in almost every row and was left
    out as an identifier.  Every present value must have the same number of parts.  Returns
    the numbers and what they count (``"seconds"``), or ``(s, None)``.
    """
    # a dash for no value (Garmin's '--' where a walk has no pace), as the file reader's
    # _dash_as_missing reads it, for a frame given directly
    if not pd.api.types.is_numeric_dtype(s) and (dashes := s.isin(_DASHES)).any():
        s = s.mask(dashes)
    per = _per_unit(s)  # a pace, '5:12 /km': the same unit after every time
    if per is not None:
        s = s.astype(object).where(s.isna(), s.dropna().astype(str).str.replace(
            _PER_UNIT, "", regex=True))
    parts = _every_cell_matches(s, _CLOCK)
    if parts is None:
        return s, None
    three = parts[2].notna()
    a, b = parts[0].astype(float), parts[1].astype(float)
    if three.any() and not three.all():
        # an elapsed time whose hours are left out under an hour ('52:33' beside
        # '1:02:33', as Strava and race results write it: a stranger's activity log left
        # it out as text); a two-part cell of an hour or more is no such time, and times of
        # day written both '09:23' and '09:23:00' (every first part under 24) are no elapsed
        # times (a review: 17:02 read as 1022 s).  A name saying time of day does not make
        # '28:16' one: a race's 'Time' was left out as an identifier
        if (a[~three] >= 60).any() or (a[~three] < 24).all():
            return s, None
        values = (a * 3600 + b * 60 + parts[2].astype(float)).where(three, a * 60 + b)
        return _placed(s, values), ("seconds (h:mm:ss, and m:ss under an hour)"
                                    + (f" per {per}" if per else ""))
    if per is not None and not three.any():  # a pace is minutes and seconds per unit
        return _placed(s, a * 60 + b), f"seconds per {per} (m:ss)"
    if _TIME_OF_DAY_NAME.search(name) and not _DURATION_NAME.search(name) and \
            a.max() < 24:
        hours = a + b / 60 + (parts[2].astype(float) / 3600 if three.all() else 0.0)
        first = hours.dropna().index[0]
        return _placed(s, hours.round(4)), (f"{CLOCK_HOURS} ({s[first]!s} is "
                                            f"{hours[first]:.2f})")
    values = a * 3600 + b * 60 + parts[2].astype(float) if three.all() else a * 60 + b
    how = ("seconds (h:mm:ss)" if three.all() else
           "60 × the first part + the second (seconds for m:ss, minutes for h:mm)")
    return _placed(s, values), how + (f" per {per}" if per else "")


#: A unit after a time, ``5:12 /km``, ``1:45/500m``: a pace.
_PER_UNIT = re.compile(r"\s*/\s*([A-Za-z0-9]{1,6})\s*$")


def _per_unit(s: pd.Series) -> str | None:
    """The unit every present cell of a text column writes after a time (``/km`` in ``5:12
    /km``), or None."""
    if pd.api.types.is_numeric_dtype(s):
        return None
    head = s.dropna().iloc[:200]
    if not len(head) or not all(isinstance(v, str) and ":" in v and _PER_UNIT.search(v)
                                for v in head):
        return None  # (a date or a URL has ':' too: no pass over a million of them)
    units = s.dropna().astype(str).str.extract(_PER_UNIT)[0]
    if units.isna().any() or units.nunique() != 1:
        return None
    return str(units.iloc[0])


_NUMBER = r"(\d+(?:\.\d+)?)\s*"
#: A duration written with its units: "1h 5m", "32m", "45 s", "2 hrs 10 mins".
_DURATION_TEXT = re.compile(
    rf"^([+-])?\s*(?:{_NUMBER}(?:days?|d)(?![a-z])\.?\s*)?"
    rf"(?:{_NUMBER}(?:hours?|hrs?|h)(?![a-z])\.?\s*)?(?:{_NUMBER}(?:minutes?|mins?|m)"
    rf"(?![a-z])\.?\s*)?(?:{_NUMBER}(?:seconds?|secs?|s)(?![a-z])\.?)?$", re.IGNORECASE)


_INTERVAL = r"^(?:(\d+)\s+days?)?\s*(?:(\d{1,2}):([0-5]\d):([0-5]\d(?:\.\d+)?))?$"


def numbers_from_interval(s: pd.Series, _name: str = "") -> tuple[pd.Series, str | None]:
    """PostgreSQL's intervals as they are exported (``1 day 02:00:00``, ``3 days``,
    ``01:37:01``; some cell with days, some with a clock) as hours.  Read as text, a
    ticket's resolution time was called an identifier and split the held-out rows (a
    review)."""
    parts = _every_cell_matches(s, _INTERVAL, first_group=False)
    # some cell with days and some with a clock: "3 days" alone is a number of days with
    # its unit (numbers_with_unit), not hours
    if parts is None or parts[0].isna().all() or parts[1].isna().all() or \
            (parts[0].isna() & parts[1].isna()).any():
        return s, None
    p = parts.astype(float).fillna(0)
    hours = (p[0] * 24 + p[1] + p[2] / 60 + p[3] / 3600).round(4)
    first = parts[0].first_valid_index()
    return _placed(s, hours), (f"hours ({str(s[first]).strip()} is "
                               f"{_number(round(hours[first], 2))})")


#: ISO 8601 durations (``P1DT10H45M``, ``PT6H13M``, ``P2W``): years and months have no fixed
#: length, so only weeks, days, hours, minutes and seconds are read.
_ISO_DURATION = re.compile(r"^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?=\d)"
                           r"(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?"
                           r"(?:(\d+(?:\.\d+)?)S)?)?$")


def numbers_from_iso_duration(s: pd.Series, _name: str = "") -> tuple[pd.Series, str | None]:
    """ISO 8601 durations (``P1DT10H45M``, ``PT6H13M``; Jira's, an API's, ``isodate``'s) as
    hours.  Read as text, a ticket's time to resolve had a level per value and was left out
    as "text with 378 distinct values", with the signal in it (an analyst's review)."""
    parts = _every_cell_matches(s, _ISO_DURATION, first_group=False)
    if parts is None or parts.isna().all(axis=1).any():
        return s, None  # ("P" alone, or a cell of no unit, is no duration)
    p = parts.astype(float).fillna(0)
    hours = (p[0] * 168 + p[1] * 24 + p[2] + p[3] / 60 + p[4] / 3600).round(4)
    first = hours.index[0]
    return _placed(s, hours), (f"hours ({str(s[first]).strip()} is "
                               f"{_number(round(hours[first], 2))})")


def numbers_from_duration_text(s: pd.Series, name: str = "") -> tuple[pd.Series, str | None]:
    """A text column of durations written with their units (``1h 5m``, ``32m``, ``45s``) as
    minutes.  Read as text, a call length had a level per value and was left out as free
    text (a review).  Every present cell must be such a duration, the column must use two
    units or more (``32m`` alone may be metres: :func:`numbers_with_unit` reads that), and
    some cell must join two units (``1h 5m``) or the name must say a duration (``wait``,
    ``call_length``, ``time``): a baby's age ``3m``, ``24h`` (months and hours) or a race
    ``100m``, ``1h`` are no minutes (a review).  Returns the minutes and what they are, or
    ``(s, None)``."""
    # a zero needs no unit ('0' beside '+2d' and '-4h': a shipment's delay); the first
    # cells decide, in plain Python, whether the column may be durations at all
    head = s.dropna().iloc[:200]
    if pd.api.types.is_numeric_dtype(s) or not len(head) or not all(
            isinstance(v, str) and (v.strip() in ("0", "+0", "-0") or
                                    _DURATION_TEXT.match(v.strip())) for v in head):
        return s, None
    zero = s.astype(object).where(s.isna(), s.dropna().astype(str).str.strip()) \
        .isin(["0", "+0", "-0"])
    parts = _every_cell_matches(s.mask(zero, "0m"), _DURATION_TEXT, first_group=False)
    if parts is None:
        return s, None
    text = s[parts.index].astype(str).str.strip()
    sign = parts[0].map({"-": -1.0}).fillna(1.0)
    parts = parts.drop(columns=0).astype(float)
    parts.columns = range(4)
    used = parts.notna()
    joined = used.sum(axis=1) >= 2
    if used.sum(axis=1).eq(0).any() or used.any().sum() < 2 or not (
            joined.any() or _DURATION_NAME.search(name) or re.search(r"time", name, re.I)
            or (sign < 0).any()):
        return s, None
    minutes = sign * (parts[0].fillna(0) * 1440 + parts[1].fillna(0) * 60 +
                      parts[2].fillna(0) + parts[3].fillna(0) / 60)
    first = joined.idxmax() if joined.any() else text.index[~zero[text.index].to_numpy()][0]
    if used[0].any():
        # a delay counted in days ('+2d') reads better in hours than in thousands of minutes
        hours = (minutes / 60).round(4)
        return _placed(s, hours), (f"hours ({text[first]} is "
                                   f"{_number(round(hours[first], 2))})")
    return _placed(s, minutes.round(4)), (f"minutes ({text[first]} is "
                                          f"{_number(round(minutes[first], 2))})")


#: A length of time in years and months, as HR systems write tenure: "3y 4m", "2 yrs 1 mo",
#: "11 months", "5 years".
_YEARS_MONTHS = re.compile(
    r"^(?:(\d+)\s*(?:years?|yrs?|y)\.?\s*,?\s*)?(?:(\d+)\s*(?:months?|mos?|m)\.?)?$",
    re.IGNORECASE)


def numbers_from_years_months(s: pd.Series, _name: str = "") -> tuple[pd.Series, str | None]:
    """A text column of lengths of time in years and months (``3y 4m``, ``2 yrs 1 mo``) as
    years (``3y 4m`` is 3.33).  Some cell must join the two, so that ``12m`` alone stays a
    length in metres to :func:`numbers_with_unit`.  A worker's length of service was left
    out as text of 132 values (a stranger's HR export).  Returns the years and what they
    are, or ``(s, None)``."""
    parts = _every_cell_matches(s, _YEARS_MONTHS, first_group=False)
    if parts is None:
        return s, None
    used = parts.notna()
    both = used.all(axis=1)
    if used.sum(axis=1).eq(0).any() or not both.any():
        return s, None
    p = parts.astype(float)
    years = (p[0].fillna(0) + p[1].fillna(0) / 12).round(4)
    first = (both & (p[0] > 0) & (p[1] > 0)).idxmax() if (both & (p[0] > 0) & (
        p[1] > 0)).any() else both.idxmax()  # an example that shows both parts
    return _placed(s, years), (f"years ({str(s[first]).strip()} is "
                               f"{_number(round(years[first], 2))})")


def numbers_with_unit(s: pd.Series) -> tuple[pd.Series, str | None]:
    """A text column whose every present value is a number followed by the same unit
    (``12 kg``, ``37.5 °C``, ``120 mg/dL``; at most half typed without it) as those numbers,
    and the unit.

    Read as text, a weight typed with its unit was a categorical column with a level per
    value, left out as "text, many values".  One unit only: ``12 kg`` beside ``500 g`` stays
    text (the numbers would not be comparable).  Returns ``(s, None)`` when nothing changed.
    """
    s = _square_units_joined(s)
    parts = _every_cell_matches(s, _WITH_UNIT)
    if parts is None:
        return s, None
    units = parts[1].dropna().unique()  # some cells typed without it: "12" beside "13 kg"
    if len(units) == 2 and {units[0].casefold(), units[1].casefold()} in (
            {units[0].casefold(), units[0].casefold() + "s"},
            {units[1].casefold(), units[1].casefold() + "s"}):
        # one unit, singular and plural ('1 day' beside '12 days', '1 bed' and '3 beds':
        # a stranger's listings left days on the market out as text): the plural
        units = np.array([max(units, key=len)])
    if len(units) != 1 or units[0].casefold() in _NOT_UNITS or \
            re.fullmatch(r"[xX*#]+", str(units[0])) or parts[1].isna().mean() > 0.5:
        return s, None  # (a masked code, "636xx", is no number with a unit)
    numbers = parse_numbers(parts[0].str.strip())
    if not pd.api.types.is_numeric_dtype(numbers):
        return s, None
    return _placed(s, numbers), str(units[0])


#: Units of one quantity and their size in the first's, for a column typed in several of
#: them (``850 g``, ``12.5 kg``, ``30.2 lb``).  Written as their symbols are, capitals
#: included: ``M`` (molar) and ``mM`` are no metres and millimetres, ``Mb`` (bits) no ``MB``
#: (an adversarial review); weights are read whatever their capitals (``KG``, ``Lbs``).
_UNIT_FAMILIES = (
    ("weights", {"g": 1.0, "mg": 1e-3, "kg": 1e3, "lb": 453.59237, "lbs": 453.59237,
                 "oz": 28.349523125}, True),
    ("lengths", {"m": 1.0, "mm": 1e-3, "cm": 1e-2, "km": 1e3, "in": 0.0254, "ft": 0.3048,
                 "mi": 1609.344}, False),
    ("volumes", {"l": 1.0, "L": 1.0, "ml": 1e-3, "mL": 1e-3, "cl": 1e-2, "cL": 1e-2,
                 "dl": 0.1, "dL": 0.1}, False),
    ("sizes", {"B": 1.0, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}, False),
    # a listing's floor area or lot, a field's yield (a stranger's property and field-trial
    # exports: '803 sq ft' beside '74 sq m', '0.20 acres' beside '8,712 sqft', '6,007 kg/ha'
    # beside '6.00 t/ha' were text, left out, and the yield the split's "identifier")
    ("areas", {"sqm": 1.0, "m²": 1.0, "m2": 1.0, "sqft": 0.09290304, "ft²": 0.09290304,
               "ft2": 0.09290304, "sqyd": 0.83612736, "acre": 4046.8564224,
               "acres": 4046.8564224, "ac": 4046.8564224, "ha": 1e4}, True),
    ("yields", {"kg/ha": 1.0, "t/ha": 1e3, "q/ha": 100.0, "lb/ac": 1.12085,
                "lb/acre": 1.12085}, True),
)
#: A unit written in two words, "sq ft", "sq. m": read as one, "sqft", "sqm".
_SQUARE = re.compile(r"(?i)\bsq\.?\s*(ft|m|yd)\b\.?")


def _square_units_joined(s: pd.Series) -> pd.Series:
    """``s`` with ``sq ft`` / ``sq. m`` written ``sqft`` / ``sqm`` (a unit of two words is
    no unit to :data:`_WITH_UNIT`), when it is a text column that has them."""
    if pd.api.types.is_numeric_dtype(s):
        return s
    head = s.dropna().iloc[:200]
    if not any(_SQUARE.search(str(v)) for v in head):
        return s
    text = s.dropna().astype(str)
    return s.astype(object).where(s.isna(), text.str.replace(
        _SQUARE, lambda m: "sq" + m.group(1).lower(), regex=True).reindex(s.index))


def numbers_in_units(s: pd.Series) -> tuple[pd.Series, str | None]:
    """A text column of numbers typed with units of one quantity, two or more of them
    (``850 g``, ``12.5 kg``, ``30.2 lb``), as numbers in its most used unit, and a note's
    words (``"weights typed in g, kg and lb are read in kg (850 g is 0.85)"``).

    Left as text, a parcel's weight was "text with 480 distinct values" and the rule lost
    its condition on it (a review).  Every present cell must carry a unit of the same table
    of :data:`_UNIT_FAMILIES` (a cell without one is ambiguous).  Returns ``(s, None)`` for
    any other column."""
    s = _square_units_joined(s)
    parts = _every_cell_matches(s, _WITH_UNIT)
    if parts is None or parts[1].isna().any():
        return s, None
    family = None
    for what, sizes, any_case in _UNIT_FAMILIES:
        units = parts[1].str.casefold() if any_case else parts[1]
        used = list(units.value_counts().index)
        if len(used) >= 2 and all(u in sizes for u in used):
            family = what
            break
    if family is None:
        return s, None
    numbers = parse_numbers(parts[0].str.strip())
    if not pd.api.types.is_numeric_dtype(numbers):
        return s, None
    to = used[0]  # the most used unit
    values = numbers.astype(float) * units.map(sizes) / sizes[to]
    shown = parts[1][units == to].iloc[0]
    other = units.ne(to).idxmax()
    written = sorted({parts[1][units == u].iloc[0] for u in used}, key=lambda u: sizes[
        u.casefold() if any_case else u])
    return _placed(s, values), (
        f"{what} typed in {', '.join(written[:-1])} and {written[-1]} are read in {shown} "
        f"({str(s[other]).strip()} is "
        f"{np.format_float_positional(round(values[other], 6), trim='-')} {shown})")


#: Suffixes that scale a number (``1.2k``, ``45K``, ``3.1M``, ``2bn``), not units of it.
_MAGNITUDES = {"k": 1e3, "K": 1e3, "M": 1e6, "mn": 1e6, "B": 1e9, "bn": 1e9}
#: India's lakh (100,000) and crore (10 million): ``₹ 4.2 L``, ``1.5 Cr``, ``12 lakh``
_INDIAN_MAGNITUDES = {"L": 1e5, "lakh": 1e5, "lakhs": 1e5, "lac": 1e5, "lacs": 1e5,
                      "Cr": 1e7, "cr": 1e7, "crore": 1e7, "crores": 1e7}
_EVERY_MAGNITUDE = {**_MAGNITUDES, **_INDIAN_MAGNITUDES}
#: ... grouped by what they scale to (``k`` and ``K`` are one magnitude)
_MAGNITUDE_OF = {"k": "k", "K": "k", "M": "M", "mn": "M", "B": "B", "bn": "B",
                 **{u: ("L" if v == 1e5 else "Cr") for u, v in _INDIAN_MAGNITUDES.items()}}
_WITH_MAGNITUDE = (r"^([+-]?\d[\d.,]*?)\s?(k|K|M|mn|B|bn|L|lakhs?|lacs?|Cr|cr|crores?)?$")


def numbers_with_magnitude(s: pd.Series) -> tuple[pd.Series, str | None]:
    """A text column of numbers written with magnitudes, ``k`` for thousands, ``M`` for
    millions, ``bn`` for billions (``1.2k``, ``45K``, ``3.1M``), as the numbers they write
    (``1.2k`` is 1200).

    Read with :func:`numbers_with_unit`, ``k`` was a unit and ``162`` beside ``3.4k`` meant
    162 thousand; a column mixing ``k`` and ``M`` stayed text (a review: seat counts and
    follower counts).  Only where the letters can only be magnitudes: two magnitudes in one
    column (``k`` and ``M``), ``k`` beside plain numbers, or the words ``mn`` / ``bn``.
    A letter alone is left to :func:`numbers_with_unit`, which keeps the order (``2700K`` is
    a colour temperature in kelvin, ``12M`` a term in months), and so is ``M`` or ``B``
    beside plain numbers (a shoe's ``9M`` width, an apartment ``3B``) and ``B`` beside
    ``K`` and ``M`` (a file's size in bytes), and ``m`` (metres beside ``5k``): an
    adversarial review.  Returns the numbers and an example (``"1.2k is 1200"``), or
    ``(s, None)``."""
    cells, rupees = s, False
    head = s.dropna().iloc[:200].astype(str).str.strip()
    if not pd.api.types.is_numeric_dtype(s) and len(head) and \
            head.str.match(rf"^[+-]?\s?([{_SIGN_CHARS}]|{_CODE_ALTS})?\s?\d").all():
        # amounts with a currency (one): "$1.2M", "₹ 10.9 L", "Rs. 4,80,000" beside "1.67 L"
        text = s.dropna().astype(str).str.strip()
        coded = _currency_codes_as_signs(text) if _codes_in_head(text, every=False) \
            else None
        text = text if coded is None else coded
        signs = set(text.str.extract(rf"([{_SIGN_CHARS}])")[0].dropna())
        if len(signs) == 1:
            rupees = signs == {"₹"}
            cells = s.astype(object).where(s.isna(), text.str.replace(
                rf"^([+-]?)\s?[{_SIGN_CHARS}]\s?", r"\1", regex=True).reindex(s.index))
    parts = _every_cell_matches(cells, _WITH_MAGNITUDE)
    if parts is None:
        return s, None
    used = set(parts[1].dropna().unique())
    plain = bool(parts[1].isna().any())
    kinds = {_MAGNITUDE_OF[u] for u in used}
    if "B" in used and kinds & {"k", "M"}:
        return s, None  # 275B, 227.0K, 528.2M: bytes, as ls -lh writes sizes
    if kinds & {"L", "Cr"}:
        # lakhs and crores only in rupees or as words: "L" alone is litres (numbers_in_units),
        # and "2,43,828 L" of milk too (an adversarial review)
        if kinds - {"L", "Cr"} or not (rupees or used - {"L"}):
            return s, None
    elif not (len(kinds) >= 2 or (kinds == {"k"} and plain) or used & {"mn", "bn"}):
        return s, None
    numbers = parse_numbers(parts[0].str.strip(), lakhs=rupees)
    if not pd.api.types.is_numeric_dtype(numbers):
        return s, None
    scale = parts[1].map(lambda u: _EVERY_MAGNITUDE.get(u, 1.0) if isinstance(u, str)
                         else 1.0)
    # 528.2 × 1e6 is 528200000.00000006 in binary: rounded to what was written
    values = (numbers.astype(float) * scale).round(6)
    first = parts[1].dropna().index[0]
    return _placed(s, values), (f"{str(s[first]).strip()} is "
                                f"{np.format_float_positional(values[first], trim='-')}")


_OUT_OF = re.compile(r"^(\d{1,3}(?:[.,]\d{1,2})?)\s*(?:/\s*(\d{1,3})|out\s+of\s+(\d{1,3})|"
                     r"(stars?|★+|pts?|points?))$", re.IGNORECASE)


def numbers_out_of(s: pd.Series) -> tuple[pd.Series, str | None]:
    """A column of scores written with their scale, ``4.5/5``, ``4 out of 5``, ``3 stars``
    (one scale: every ``/`` and ``out of`` the same, each score at most it), as the scores.
    Read as text, a review's star rating was 27 categories and its rule 13 ``!=`` conditions
    (a review).  Returns the numbers and the words of a note, or ``(s, None)``."""
    parts = _every_cell_matches(s, _OUT_OF)
    if parts is None:
        return s, None
    scale = pd.to_numeric(parts[1].fillna(parts[2]), errors="coerce")
    scores = pd.to_numeric(parts[0].str.replace(",", ".", regex=False), errors="coerce")
    scales = scale.dropna().unique()
    if len(scales) > 1 or (len(scales) and (scales[0] < 3 or (scores > scales[0]).any()
                                            or scales[0] in (8, 16, 32, 64))) or \
            (not len(scales) and parts[3].isna().any()):
        # "3/5" beside "7/10", a date ("3/5" with "12/7"), or eighths of an inch
        return s, None
    out_of = f" out of {scales[0]:g}" if len(scales) else ""
    return _placed(s, scores), f"scores{out_of}"


#: An estimate written with its interval: "23.4 [19.8-28.1]", "0.52 (0.41, 0.63)".
_WITH_INTERVAL = re.compile(r"^([+-]?\d+(?:\.\d+)?)\s*[\[(]\s*[+-]?\d+(?:\.\d+)?\s*"
                            r"(?:-|–|,|;|to)\s*[+-]?\d+(?:\.\d+)?\s*[\])]$")


def numbers_with_interval(s: pd.Series, _name: str = "") -> tuple[pd.Series, str | None]:
    """Estimates written with their interval, as the WHO's and survey tables publish them
    (``23.4 [19.8-28.1]``), as the estimates.  A stranger's WHO table lost its main
    predictor as text.  Returns the estimates and an example, or ``(s, None)``."""
    parts = _every_cell_matches(s, _WITH_INTERVAL)
    if parts is None:
        return s, None
    values = pd.to_numeric(parts[0], errors="coerce")
    at = values.first_valid_index()
    return _placed(s, values), f"{str(s[at]).strip()!r} is {_number(values[at])}"


#: A coordinate in degrees, minutes and seconds: 41°24'12.2"N, 2°10'26.5"E, 41°24.2'N.
_DMS = re.compile(r"^(\d{1,3})\s*°\s*(\d{1,2}(?:\.\d+)?)\s*['′’]\s*(?:(\d{1,2}(?:\.\d+)?)"
                  r"\s*(?:\"|″|''|”))?\s*([NSEWnsew])$")


def numbers_from_dms(s: pd.Series, _name: str = "") -> tuple[pd.Series, str | None]:
    """Coordinates in degrees, minutes and seconds (``41°24'12.2"N``) as decimal degrees,
    south and west negative.  A stranger's bird survey left its sites' coordinates out as
    identifiers.  Returns the degrees and an example, or ``(s, None)``."""
    parts = _every_cell_matches(s, _DMS, first_group=False)
    if parts is None or parts[0].isna().any():
        return s, None
    p = parts[[0, 1, 2]].astype(float).fillna(0)
    deg = p[0] + p[1] / 60 + p[2] / 3600
    deg = deg.where(~parts[3].str.upper().isin(["S", "W"]), -deg).round(6)
    at = deg.index[0]
    return _placed(s, deg), f"{str(s[at]).strip()} is {_number(round(deg[at], 4))}"


#: A school's grades before grade 1, as US and other school systems write them.
_BEFORE_GRADE_ONE = {"pk": -1.0, "pre-k": -1.0, "prek": -1.0, "pre-kindergarten": -1.0,
                     "k": 0.0, "kg": 0.0, "tk": 0.0, "kindergarten": 0.0, "r": 0.0}


def numbers_from_school_grades(s: pd.Series, name: str = "") -> tuple[pd.Series, str | None]:
    """A school grade column, ``K, 1, 2, ... 12`` (and ``PK``), as numbers in the grades'
    order, ``K`` as 0 and ``PK`` as -1: 'K' was a code read as missing, a tenth of a
    stranger's school table.  The name must say grade (``Grade``, ``grade_level``, ``Gr``);
    every other cell a whole number from 0 to 13."""
    if not ({"grade", "gr", "grades"} & set(roles_mod.name_words(name))):
        return s, None
    if pd.api.types.is_numeric_dtype(s):
        return s, None
    present = s.dropna()
    if len(present) < 5:
        return s, None
    text = present.astype(str).str.strip().str.casefold()
    early = text.map(_BEFORE_GRADE_ONE)
    numbers = pd.to_numeric(text.where(early.isna()), errors="coerce")
    if early.isna().all() or (early.isna() & numbers.isna()).any() or \
            not numbers.dropna().between(0, 13).all() or \
            not (numbers.dropna() == numbers.dropna().round()).all():
        return s, None
    values = early.fillna(numbers)
    said = " and ".join(f"{k.upper()!r} as {_number(v)}" for k, v in
                        sorted({t: _BEFORE_GRADE_ONE[t] for t in text[early.notna()].unique()}
                               .items(), key=lambda kv: kv[1]))
    return _placed(s, values), said


#: Eurostat's flags after a number (``89e``, ``100 p``: b break in series, c confidential,
#: d definition differs, e estimated, f forecast, n not significant, p provisional, r
#: revised, s Eurostat estimate, u low reliability, z not applicable), and ``:`` for no value.
_FLAGGED = re.compile(r"^(?:([+-]?\d+(?:\.\d+)?)\s?([bcdefnprsuz]{1,3})?|"
                      r":\s?([bcdefnprsuz]{0,3}))$")


def numbers_with_flags(s: pd.Series, _name: str = "") -> tuple[pd.Series, str | None]:
    """A column of statistics written as Eurostat writes them: numbers with flag letters
    after them (``89e`` estimated, ``100 p`` provisional, ``66 b`` a break in the series)
    and ``:`` where there is no value, as the numbers with ``:`` missing.  Some cell must
    be ``:`` or two flags must differ (so that ``5 s`` alone stays seconds).  A region
    table's every statistic was text and the table had no usable column (a stranger's
    file).  Returns the numbers and the flags seen, or ``(s, None)``."""
    parts = _every_cell_matches(s, _FLAGGED, first_group=False)
    if parts is None:
        return s, None
    flags = parts[1].dropna()
    empty = parts[0].isna()
    if not (empty.any() or flags.nunique() >= 2):
        return s, None
    numbers = pd.to_numeric(parts[0], errors="coerce")
    if numbers.dropna().empty:
        return s, None
    said = ["':' read as missing"] if empty.any() else []
    if not flags.empty:
        seen = "".join(sorted(set("".join(flags))))
        at = flags.index[0]
        said.insert(0, f"{str(s[at]).strip()!r} is {_number(numbers[at])}; flags "
                       f"{', '.join(seen)} dropped")
    return _placed(s, numbers), ", ".join(said)


#: Words an estate agent or a shop writes before a price: "Offers in excess of £399,000",
#: "Guide Price £370,000", "From $1,299".
_PRICE_WORDS = re.compile(
    r"^(?:offers?\s+(?:in\s+excess\s+of|over|in\s+the\s+region\s+of|around|from)|"
    r"o\.?i\.?e\.?o\.?|o\.?i\.?r\.?o\.?|guide\s+price|asking\s+price|fixed\s+price|"
    r"starting\s+(?:at|from)|from)\s*:?\s*(.*\d.*)$", re.IGNORECASE)


def numbers_with_price_words(s: pd.Series) -> tuple[pd.Series, str | None]:
    """A column of prices some of which carry an estate agent's or a shop's words ("Offers
    in excess of £399,000", "Guide Price £370,000", "From $1,299") as the prices they name,
    and the words of a note (``"Offers in excess of £399,000" is 399000``).

    Half of a stranger's London listings had such words, and the price, the signal, was
    left out as text of 769 values.  Every present cell must be a price as
    :func:`parse_numbers` reads them once its words are taken off.  Returns ``(s, None)``
    for any other column."""
    if pd.api.types.is_numeric_dtype(s):
        return s, None
    present = s.dropna()
    if len(present) < 5 or not all(isinstance(v, str) for v in present.iloc[:50]):
        return s, None
    # decided on the first cells in plain Python: a price's words among the first thousand,
    # and no other cell there with letters but a currency's code
    head = [v.strip() for v in present.iloc[:1000]]
    if not any(_PRICE_WORDS.match(v) for v in head) or any(
            not _PRICE_WORDS.match(v) and re.search(r"[a-z]", v) for v in head):
        return s, None
    text = present.astype(str).str.strip()
    words = text.str.extract(_PRICE_WORDS)[0]
    if words.isna().all():
        return s, None
    numbers = parse_numbers(words.fillna(text))
    if not pd.api.types.is_numeric_dtype(numbers) or numbers.isna().any():
        return s, None
    at = words.first_valid_index()
    ex = np.format_float_positional(float(numbers[at]), trim="-")
    return _placed(s, numbers), f"{text[at]!r} is {ex}"


#: Last words of a column name that say it holds codes (``agent_code``, ``zip``).
_CODE_WORDS = {"code", "codes", "zip", "zipcode", "postcode", "postal", "plz", "fips", "naics",
               "sic", "icd"}


#: Last words that name a thing's number (``store_nbr``, ``StoreNo``, ``branch_id``): a code
#: when the values are not a count from 0 or 1 (:func:`_code_name`).
_NUMBER_WORDS = {"id", "nbr", "no", "nr", "num", "number"}
#: Most distinct values a thing's number may take to be read as categories.
NUMBERED_MAX_LEVELS = 50


#: Units and counts before a name's last word make it a quantity, not a code or a thing's
#: number (``YearsCode``, ``hours_no``, ``count_code``).
_QUANTITY_WORDS = {"years", "yrs", "months", "weeks", "days", "hours", "minutes", "seconds",
                   "count", "counts", "lines"}


def _code_name(name: str, s: pd.Series | None = None) -> bool:
    """``agent_code``, ``ZIP``, ``postal code``, ``AreaCode``: the last word names a code.

    Also a thing's number (``store_nbr``, ``StoreNo``, ``store_number``, ``branch_id``: a
    word, then one of :data:`_NUMBER_WORDS`) of at most :data:`NUMBERED_MAX_LEVELS` whole
    values from 10 up, each on 5 rows or more on average, that are not consecutive: store
    numbers 101, 102, 205, 317 gave ``store_nbr <= 400 AND store_nbr > 300`` where the
    stores 101 and 317 were the signal (a stranger's table), while ``visit_number`` 1, 2, 3
    or ``floor_no`` 0–12 count in an order that means something and stay numbers."""
    words = roles_mod.name_words(name)
    if not words:
        return False
    # ... unless a unit comes first: Stack Overflow's 'YearsCode' counts years of coding
    # (read as categories, 'YearsCode != 6 AND != 4 AND ...' was certified: a stranger)
    if set(words[:-1]) & _QUANTITY_WORDS:
        return False
    if words[-1] in _CODE_WORDS:
        return True
    if len(words) < 2 or words[-1] not in _NUMBER_WORDS or s is None:
        return False
    num = s if pd.api.types.is_numeric_dtype(s) else pd.to_numeric(s, errors="coerce")
    present = num[s.notna()].to_numpy(dtype=float)
    v = np.unique(present)
    # numbers of things: at most NUMBERED_MAX_LEVELS of them, each on several rows, none
    # below 10 (a count from 0 or 1 with gaps, rooms_nbr 1, 2, 3, 4, 6, 8, or likes_num of
    # 208 values, is an amount: a review), with gaps between them
    return bool(0 < len(v) <= NUMBERED_MAX_LEVELS and len(present) >= 5 * len(v)
                and np.all(np.isfinite(v)) and np.all(v == np.round(v)) and v.min() >= 10
                and v.max() - v.min() + 1 > 2 * len(v))


#: Words of a column name that say it holds diagnosis codes (``diag_1``, ``primary_dx``,
#: ``icd9_code``): ICD-9 codes are numbers with decimals (``250.01``), codes all the same.
_DIAGNOSIS_WORDS = {"icd", "diag", "dx", "diagnosis"}


def _diagnosis_codes(name: str, s: pd.Series) -> bool:
    """A column named as diagnoses (:data:`_DIAGNOSIS_WORDS`, with ``code`` or a number:
    ``diag_1``, ``dx2``, ``diagnosis_code``; a bare ``diagnosis`` is an outcome's name) whose
    values look like ICD-9 codes: 3 or more of them, from 1 to 999, at most two decimals."""
    words = roles_mod.name_words(name)  # digits dropped: icd9 is icd, diag_1 is diag
    # a bare "diagnosis" is an outcome; "diagnosis_1" or "diagnosis2" names the first code
    bare = words == ["diagnosis"] and not re.search(r"\d", name)
    named = any(w in _DIAGNOSIS_WORDS for w in words) and not bare
    if not named:
        return False
    num = s if pd.api.types.is_numeric_dtype(s) else pd.to_numeric(s, errors="coerce")
    v = num[s.notna()].to_numpy(dtype=float)
    if len(v) == 0 or not np.all(np.isfinite(v)) or len(np.unique(v)) < 3:
        return False
    return bool(v.min() >= 1 and v.max() < 1000 and np.all(np.round(v, 2) == v))


#: Words of a column name that say it holds a share (``gross_margin_pct``, ``win rate``).
_SHARE_WORDS = {"pct", "percent", "percentage", "rate", "share", "ratio", "margin", "proportion"}


def two_percent_scales(num: pd.Series, name: str) -> tuple[float, float, float] | None:
    """``(share, a fraction, the largest value)`` when a column named as a share
    (:data:`_SHARE_WORDS`, or ``%`` in its name) holds fractions in some rows and
    percentages in others: at least 15 % of its values strictly between 0 and 1 and at least
    15 % above 1.5, each with 10 distinct values or more, none from 1 to 1.5, none above
    100.  Branches reporting 0.23 beside 23 gave ``gross_margin_pct <= 23.8 AND
    gross_margin_pct > 0.5735``, a band that only split the two scales (a stranger's table).
    An interest rate from 0.25 to 15 has values from 1 to 1.5 and is left alone; ``None``
    otherwise."""
    words = set(roles_mod.name_words(name))
    if not (words & _SHARE_WORDS or "%" in name):
        return None
    v = num.dropna().to_numpy(dtype=float)
    if len(v) < 20 or v.min() < 0 or v.max() > 100:
        return None
    frac, big = (v > 0) & (v < 1), v > 1.5
    if frac.mean() < 0.15 or big.mean() < 0.15 or ((v >= 1) & (v <= 1.5)).any():
        return None
    # measured shares, not a few steps of a scale (a policy rate of 0.25, 0.5, 0.75, 2.0,
    # 2.5, 3.0 and 5.25 got the note: a review)
    if len(np.unique(v[frac])) < 10 or len(np.unique(v[big])) < 10:
        return None
    return float(frac.mean()), float(np.median(v[frac])), float(v.max())


def _whole_number_levels(s: pd.Series) -> int:
    """How many distinct whole numbers a column holds (0 when a value is not one)."""
    num = s if pd.api.types.is_numeric_dtype(s) else pd.to_numeric(s, errors="coerce")
    v = num[s.notna()].to_numpy(dtype=float)
    if not len(v) or not np.all(np.isfinite(v)) or not np.all(v == np.round(v)):
        return 0
    return int(len(np.unique(v)))


def infer_kind(s: pd.Series) -> Kind:
    """``numeric`` for numbers (but integer 0/1-like flags are categorical), ``ordinal`` for
    the words of an ordered scale (``Low < Medium < High``, :func:`rulecore.scales.level_order`),
    else categorical."""
    if pd.api.types.is_bool_dtype(s) or zero_padded_codes(s):  # "02134" is a code
        return "categorical"
    if pd.api.types.is_numeric_dtype(s):
        # numbers already: the same test as below, on numpy (a Series per step cost 2.5 ms
        # a column, and this runs for every column of every fit of a cross-validation)
        values = s.to_numpy(dtype=float, na_value=np.nan)
        values = values[~np.isnan(values)]
        if not len(values):
            return "categorical"
        whole = np.all(np.isfinite(values)) and np.all(values == np.round(values))
        few = whole and len(np.unique(values)) <= CATEGORICAL_MAX_INT_LEVELS
        return "categorical" if few else "numeric"
    if level_order(s) is not None:
        return "ordinal"
    # a pandas category is the user's word that the values are levels: store numbers 3, 7,
    # 12, 40 read as numbers gave "store <= 10 AND store > 5" (a notebook review); an
    # ordered one was read in order just above, unless its order names a level twice
    if isinstance(s.dtype, pd.CategoricalDtype):
        return "categorical"
    num = s if pd.api.types.is_numeric_dtype(s) else pd.to_numeric(s, errors="coerce")
    present = s.notna()
    if present.sum() == 0 or num[present].isna().any():
        return "categorical"
    # a code with a leading zero beside the same number without ("01" and "1") is two
    # codes, not one value: read as numbers they merged, and no rule could tell them apart
    # ("428" beside "428.0" is one number written two ways, as Excel does)
    if not pd.api.types.is_numeric_dtype(s):
        text = s[present].astype(str).str.strip()
        if text.str.match(r"^[+-]?0\d").any() and text.nunique() > num[present].nunique():
            return "categorical"
    values = num[present].to_numpy(dtype=float)
    if np.all(np.isfinite(values)) and np.all(values == np.round(values)):
        if len(np.unique(values)) <= CATEGORICAL_MAX_INT_LEVELS:
            return "categorical"
    return "numeric"


#: First cells of a spreadsheet's summary rows below the table (compared without capitals).
SUMMARY_ROWS = frozenset({"total", "totals", "grand total", "grand totals", "sum",
                          "subtotal", "average", "mean", "median", "count", "summe",
                          "gesamt", "total général", "totaal", "totale",
                          # a field trial's statistics under its plots ("LSD (0.05)",
                          # "CV (%)": a stranger's variety trial learned them as plots)
                          "grand mean", "trial mean", "lsd", "cv", "cv%", "se", "sed", "sem",
                          "s.e.", "s.e.d.", "sd", "std", "std dev", "std. dev.",
                          "standard deviation", "standard error", "min", "max", "minimum",
                          "maximum", "range", "p-value", "f-test", "f prob"})
#: Summary labels short enough to be a value of their column too (a state, a country, a
#: plan): no summary under a column of short words (a trial's labels sit under plot numbers
#: or variety codes).
_STATISTIC_CODES = frozenset({"se", "sd", "sed", "sem", "cv", "cv%", "min", "max", "range",
                              "std", "s.e.", "s.e.d."})
#: The first cell of a mainframe extract's trailer record (``TRL|00000700``: the count of
#: records), which closes the file as a header record (``HDR|...``) opens it.
TRAILER_RECORDS = frozenset({"trl", "tlr", "trailer", "eof", "end", "ftr", "footer"})
#: Target labels that are no answer, not a class, and outcomes not known yet: defined in
#: :mod:`rulecore.roles`, which counts a target's classes without them.
NO_ANSWER = roles_mod.NO_ANSWER
UNDECIDED = roles_mod.UNDECIDED


#: A column of numbers may hold at most this many distinct other codes ...
MAX_MISSING_CODES = 5
#: ... in at most this share of its present cells, for the codes to read as missing values.
MAX_MISSING_CODE_SHARE = 0.10
#: ... or, when it is the only one, this share.
MAX_SINGLE_CODE_SHARE = 0.35


#: A number written approximately or open-ended, by hand: "approx 15", "~15", "ca. 15",
#: "about 15", "15+".  Read as the number it names (for "15+", its lower end).
_APPROXIMATE = re.compile(r"^(?:(?:approx\.?|approximately|about|around|ca\.?|circa|c\.|~|≈)"
                          r"\s*"
                          r"([+-]?\d+(?:\.\d+)?)|([+-]?\d+(?:\.\d+)?)\s*\+)$", re.IGNORECASE)
#: A value known only to lie beyond a limit, as laboratories write it: "<5" (below the
#: detection limit), ">100", "<= 0.5", "≥ 2".  Read as the limit itself.
#: In words too, with a unit after it: Stack Overflow's 'Less than 1 year' and 'More than 50
#: years' among the years of coding were read as missing (a stranger's download).
_CENSORED = re.compile(r"^(?:<=?|>=?|≤|≥|(?:less|fewer|more|greater)\s+than|under|over)\s*"
                       r"([+-]?\d+(?:\.\d+)?)\s*(?:%|[a-z]+)?$", re.IGNORECASE)
def _below(limit: str) -> bool:
    """Whether a limit of :data:`_CENSORED` is a lower one ('<5', 'Less than 1 year')."""
    text = limit.strip().casefold()
    return text[0] in "<≤" or text.startswith(("less", "fewer", "under"))


#: A limit written without its number, as laboratories report it: "<LOD", "< LLOQ", "BLQ"
#: (below the limit of detection or quantification) and ">ULOQ", "TNTC" (too numerous to
#: count).  Read as the column's lowest or highest number (:func:`numbers_with_codes`).
_LIMIT_BELOW = re.compile(r"^(?:(?:<=?|≤)\s*[A-Za-z][A-Za-z.]{1,7}|BLQ|BLOQ|BQL|BDL|BLD|"
                          # German labs' 'n.n.' (nicht nachweisbar, not detected): bacteria
                          # counts of 'n.n.' and numbers were categories, 'Coliforme != 5'
                          # (a stranger's LIMS export)
                          r"n\.\s?n\.?|not detected|nicht nachweisbar)$", re.IGNORECASE)
_LIMIT_ABOVE = re.compile(r"^(?:(?:>=?|≥)\s*[A-Za-z][A-Za-z.]{1,7}|AQL|ALQ|AULQ|TNTC|"
                          # a plate reader's overflow (Tecan's 'OVER' in capitals only:
                          # 'Over' is a word, a review)
                          r"OVRFLW|OVERFLOW|(?-i:OVER))$", re.IGNORECASE)
#: ... and, in a qPCR's cycle threshold (a column named ``CT``, ``Cq``, ``N1 Ct``), its
#: 'Undetermined': no amplification by the last cycle, a CT above every one measured.
#: Only there: a victim's age 'Undetermined' read as the oldest age, 89 (a review).
_LIMIT_ABOVE_CT = re.compile(_LIMIT_ABOVE.pattern[:-2] + r"|Undetermined)$",
                             re.IGNORECASE)


def limit_above(name: Any) -> re.Pattern:
    """The cells read as above every measured value in the column ``name``
    (:data:`_LIMIT_ABOVE`, with 'Undetermined' in a qPCR's CT or Cq)."""
    words = roles_mod.name_words(str(name))
    return _LIMIT_ABOVE_CT if {"ct", "cq"} & set(words) else _LIMIT_ABOVE
#: Codes for a test not done, whose share of a column of numbers may be as large as its
#: limits' (:data:`MAX_CENSORED_SHARE`): a procalcitonin column with 20 % "ND" was left out
#: as text (a stranger's lab table).  Compared without capitals.
NOT_MEASURED = frozenset({"nd", "n.d.", "n.d", "not done", "nt", "not tested", "qns",
                          "tnp", "not performed", "test not performed", "hemolyzed",
                          "haemolysed", "haemolyzed", "hemolysed", "clotted", "insufficient",
                          "n.a.", "n/a", "na", "not available", "pending", "cancelled",
                          "canceled",
                          # a count or a rate suppressed for privacy, as education and health
                          # agencies publish them (a stranger's school table: '*' in 44 % of
                          # the percent proficient, which was left out as text)
                          "*", "**", "***", "s", "supp", "suppressed", "dnr", "n<10", "n<5",
                          "<10 students", "ns",
                          # the College Scorecard's earnings, 12 % 'PrivacySuppressed': left
                          # out as text beside the debt, 8 % (a stranger's download)
                          "privacysuppressed", "privacy suppressed"})
#: At most this share of a column's present cells may be limits ("<5"), in at most
#: MAX_MISSING_CODES spellings: a test with a detection limit often reports half its
#: samples below it.
MAX_CENSORED_SHARE = 0.5
#: At least this share of a column's present cells must be plain numbers, for its codes,
#: limits and tests not done to be read around them.
MIN_NUMBER_SHARE = 0.2
#: At most this share of a column's present cells may be approximate numbers (a bird
#: survey writes half its counts 'c. 40': at 0.3 a stranger's counts were left out as text).
MAX_APPROXIMATE_SHARE = 0.6


#: A number written with a decimal comma, dots between thousands if any: '0,5', '1.234,56'.
_COMMA_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+),\d+$")


def _with_decimal_point(text: pd.Series) -> tuple[pd.Series, bool]:
    """A column's distinct cells with a decimal comma written with a point ('0,5' as '0.5',
    '<0,5' as '<0.5', '1.234,5' as '1234.5'), and whether they were: where some cell is such
    a number and none a number with a decimal point.  A German lab column with 'ND' beside
    '0,7' was left out as text, since the codes were looked for beside numbers read with a
    point only (a review)."""
    core = text.str.replace(r"^(?:<=?|>=?|≤|≥|~|ca\.?|approx\.?)\s*", "", regex=True)
    european = core.str.match(_COMMA_NUMBER)
    if not european.any() or core.str.match(r"^[+-]?\d+\.\d+$").any() and \
            not core.str.match(r"^[+-]?\d{1,3}(?:\.\d{3})+$").all():
        return text, False
    swapped = text.where(~european, text.str.replace(".", "", regex=False)
                         .str.replace(",", ".", regex=False))
    return swapped, True


def _digitless_codes(s: pd.Series) -> pd.Series | None:
    """The cells of a text column that hold no digit (``POA``, ``*``, ``TBC``), where they
    are a few codes among cells with digits: at most :data:`MAX_MISSING_CODES` distinct, in
    at most :data:`MAX_MISSING_CODE_SHARE` of the present cells; else None."""
    if pd.api.types.is_numeric_dtype(s):
        return None
    present = s.dropna()
    if len(present) < 20 or not all(isinstance(v, str) for v in present.iloc[:50]):
        return None
    # words, not numbers with a few codes: decided on the first cells, in plain Python (a
    # pass of pandas' string methods over every text column of a large table costs seconds)
    head = present.iloc[:200]
    if sum(any(c.isdigit() for c in v) for v in head) < 0.8 * len(head):
        return None
    text = present.astype(str).str.strip()
    codes = ~text.str.contains(r"\d", regex=True)
    if not codes.any() or codes.mean() > MAX_MISSING_CODE_SHARE or \
            text[codes].nunique() > MAX_MISSING_CODES:
        return None
    return codes.reindex(s.index, fill_value=False)


#: An answer with its code after it, as LimeSurvey exports "full answers": "Female (F)",
#: "Very satisfied (A5)", "18-24 (A1)".
_CODED_ANSWER = re.compile(r"^(.*\S)\s+\(([A-Za-z0-9_-]{1,6})\)$")


def answer_codes_dropped(s: pd.Series) -> tuple[pd.Series, str | None]:
    """A survey tool's answers with their codes after them (``Female (F)``, ``Very
    satisfied (A5)``) as the answers alone, and an example (``'Female (F)' as 'Female'``).
    Every present cell but a no-answer text must carry a code, each answer one code and each
    code one answer (``Portland (OR)`` beside ``Portland (ME)`` is no such column).  Read
    with the codes, LimeSurvey's gender was the target and its satisfaction scale was
    unordered, six conditions where two sufficed (a stranger's survey)."""
    if pd.api.types.is_numeric_dtype(s):
        return s, None
    present = s.dropna()
    if len(present) < 5 or not all(isinstance(v, str) for v in present.iloc[:50]):
        return s, None
    levels = pd.Series(present.unique()).astype(str).str.strip()
    if len(levels) > 60:
        return s, None
    parts = levels.str.extract(_CODED_ANSWER)
    # a word in brackets is part of the answer, not its code: Chicago's 'Risk 1 (High)' was
    # cut to 'Risk 1' (a stranger's table); codes are 'F', 'A5', 'SQ001', 'Y'
    parts = parts.where(~parts[1].fillna("").str.fullmatch(r"[A-Za-z]*[a-z][A-Za-z]*")
                        | (parts[1].str.len() <= 2), np.nan)
    coded = parts[0].notna()
    rest = levels[~coded].str.casefold()
    if coded.sum() < 2 or not rest.isin(NO_ANSWER | {"n/a", "other", ""}).all():
        return s, None
    pairs = parts[coded].drop_duplicates()
    if pairs[0].nunique() != len(pairs) or pairs[1].nunique() != len(pairs):
        return s, None
    to_answer = dict(zip(levels[coded], parts[0][coded]))
    out = s.astype(object).where(s.isna(), s.astype(str).str.strip().map(
        lambda v: to_answer.get(v, v)))
    first = levels[coded].iloc[0]
    return out, f"{first!r} as {to_answer[first]!r}"


#: A cell written as a date or a time ('2024-03-01', '03/01/2024', '09:23').
_DATE_LIKE = re.compile(r"\d[-/.]\d{1,2}[-/.]\d|\d:\d\d")


def numbers_with_codes(s: pd.Series) -> tuple[pd.Series, dict[str, int], dict[str, int]]:
    """A column of numbers with a few codes for "no number" (``unknown``, ``n.a.``,
    ``<0.5``, ``Don't know``), as numbers with those cells missing; numbers typed
    approximately or open-ended (``approx 15``, ``~15``, ``15+``) are the number they name,
    and so are limits (``<5``, ``>100``: a laboratory's detection limits, read as 5 and 100).

    A limit is read as the limit, not as missing: ``>100`` read as missing made the rule
    ``crp is missing AND wbc > 10.55``, which reads as "CRP not measured" where it meant
    the highest values (a review).  Read as 100, every threshold at or below the limit
    (``crp > 50``) classifies such a cell as its true value would; only one beyond it
    cannot tell.

    Read literally, 4 % of such codes made a lab value or a survey score a text column with
    hundreds of levels, which was left out; a years-of-experience column with ``n/a``,
    ``approx 18`` and ``3+`` in 15 % of its cells (40 distinct) was left out as free text.
    At most :data:`MAX_MISSING_CODES` distinct codes in at most
    :data:`MAX_MISSING_CODE_SHARE` of the present cells, approximate numbers in at most
    :data:`MAX_APPROXIMATE_SHARE`; every other value must be a number (as
    :func:`parse_numbers` reads them).

    Returns the column, ``{code: cells}`` and ``{approximate spelling: cells}`` (both empty
    when nothing changed).
    """
    if pd.api.types.is_numeric_dtype(s):
        return s, {}, {}
    present = s.dropna()
    if len(present) < 20:
        return s, {}, {}
    counts = present.value_counts()
    text = pd.Series(counts.index.astype(str), index=counts.index).str.strip()
    text, comma = _with_decimal_point(text)
    plain = pd.to_numeric(text, errors="coerce").notna()
    approx = text.str.extract(_APPROXIMATE)
    approx = approx[0].fillna(approx[1])  # the number named, or NaN
    limit = text.str.extract(_CENSORED)[0]
    # amounts written with a currency sign, a percent sign or thousands ('£301,000' beside
    # 'POA', '85.4%' beside '≥95%' and '*'): numbers as parse_numbers reads them (a
    # stranger's listings and school table: the price and the percent proficient were left
    # out as text); a cell with letters ('n<10') stays a code
    head = text.iloc[:200]  # words mostly (names, e-mails): no numbers to read, skip the pass
    # (or dates and times, '2024-03-01', '09:23': parse_numbers reads none of them)
    worded = sum(any(c.isalpha() for c in v) for v in head) > 0.5 * len(head) or \
        sum(bool(_DATE_LIKE.search(v)) for v in head) > 0.5 * len(head)
    written = pd.Series(False, index=text.index) if worded else \
        ~plain & text.str.contains(r"\d", regex=True) & approx.isna() & limit.isna() & \
        ~text.str.contains(r"[A-Za-z]", regex=True)
    if written.any() and not comma:
        read = parse_numbers(text[written])
        if pd.api.types.is_numeric_dtype(read) and read.notna().all():
            plain = plain | written
    approx = approx.where(~plain)
    limit = limit.where(~plain)
    # a limit with no number ('<LOD', '>ULOQ'): the lowest or highest number measured, so
    # every threshold between them classifies such a cell as its true value would.  Read as
    # missing, '>ULOQ' made 'troponin > 44.65' miss every patient above the assay's range,
    # and with 29 % '<LOD' the column was left out as text (a stranger's lab table).
    # (the edges of the numbers and of the limits with one: '<LOD' below '<0.5', a review)
    below = text.str.match(_LIMIT_BELOW) & ~plain
    above = text.str.match(limit_above(s.name)) & ~plain
    if (below | above).any() and plain.any():
        measured = pd.concat([pd.to_numeric(text[plain]), limit.dropna()]).astype(float)
        limit = limit.where(~below, repr(float(measured.min())))
        limit = limit.where(~above, repr(float(measured.max())))
    approx = approx.fillna(limit)
    codes = counts[~plain & approx.isna()]
    named = counts[approx.notna()]
    limits = counts[limit.notna()]
    # a test not done ('ND') may be as common as a limit, other codes are few; and numbers
    # are a fifth of the cells at least (45 % '<5' beside 8 % 'ND' is a lab column: a review)
    usual = codes[text[codes.index].str.casefold().isin(NOT_MEASURED)]
    # limits counted by the number they name: '<50', '< 50' and '<=50' are one limit
    # spelled three ways (six spellings made a lab column text: a review)
    # one code alone may be common: eBird's 'X' (seen, not counted) in 12 % of a count's
    # cells made it text, left out (a stranger's download)
    share = MAX_SINGLE_CODE_SHARE if len(codes) - len(usual) == 1 else MAX_MISSING_CODE_SHARE
    if len(codes) > MAX_MISSING_CODES or \
            codes.sum() - usual.sum() > share * len(present) or \
            usual.sum() > MAX_CENSORED_SHARE * len(present) or \
            counts[plain].sum() < MIN_NUMBER_SHARE * len(present) \
            or (named.sum() - limits.sum()) > MAX_APPROXIMATE_SHARE * len(present) or \
            limit.dropna().astype(float).nunique() > MAX_MISSING_CODES or \
            limits.sum() > MAX_CENSORED_SHARE * len(present) or (codes.empty and named.empty):
        return s, {}, {}
    cleaned = s.mask(s.isin(list(codes.index)))
    if not named.empty:
        cleaned = cleaned.where(~cleaned.isin(list(named.index)),
                                cleaned.map(approx[approx.notna()].to_dict()))
    if comma:  # the other numbers as written with a point, each cell as its text above
        swap = {k: v for k, v in text.items() if str(k).strip() != v and k not in named.index}
        cleaned = cleaned.where(~cleaned.isin(list(swap)), cleaned.map(swap))
    parsed = parse_numbers(cleaned)
    if not pd.api.types.is_numeric_dtype(parsed):
        return s, {}, {}
    return parsed, {str(k): int(v) for k, v in codes.items()}, \
        {str(k): int(v) for k, v in named.items()}


#: Numbers that exports write where a value is missing: runs of nines (SPSS, Stata, SAS and
#: many databases use −9, −99, −999, 999 or 9999 as missing-value codes), and runs of sevens,
#: which surveys write beside them (BRFSS, NHANES and the ESS: 7, 77, 777 for "don't know" or
#: "refused", next to 9, 99, 999).  Runs of eights are not among them: in BRFSS's counts of
#: days, 88 is the answer "none", the most common one.
MISSING_CODES = tuple(s * d * (10 ** k - 1) // 9 for k in range(1, 7) for d in (7, 9)
                      for s in (-1, 1)) + tuple(
    # the US Census Bureau's API writes its annotations as nine repeated digits, negative
    # (-666666666: no estimate; -999999999, -888888888, -555555555, -333333333, -222222222):
    # read as incomes, a stranger's tracts held 'income <= 56800' for every coded row
    -d * 111111111 for d in range(2, 10))
#: At least this many other present values, for their range to say what is far outside it.
MIN_VALUES_BESIDE_CODE = 10


def numeric_missing_codes(s: pd.Series, *, target: bool = False
                          ) -> tuple[pd.Series, dict[str, int]]:
    """A numeric column whose missing values are written as a run of nines or sevens
    (``-999``, ``9999``, ``77``) with those cells missing.

    Kept as numbers, ``-999`` sat among incomes as the lowest value, and thresholds such as
    "income <= 12,000" held for every row with no income.  A code is read as missing only
    where it cannot be a measurement: it is negative in a column whose other values are not,
    or it lies at least their whole range away from the other values (``999`` among ages 18 to
    90, ``9`` on a 1 to 5 scale, ``7`` beside the 1 and 2 of a yes/no question), and a
    single negative digit not within 2 below negative values (``-7`` is a UTC offset beside
    ``-5`` and ``-4``).  The other
    values are those that are no code: a survey's ``77`` ("don't know") beside its ``99``
    ("refused") hid the ``99`` when each was judged with the other among the values.  In a
    ``target``, ``7`` and ``9`` are not considered: they may be classes.

    Returns the column and ``{code: cells}`` (empty when nothing changed).
    """
    if not pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s):
        return s, {}
    candidates = [v for v in MISSING_CODES if not (target and v in (7, 9))]
    hit = s.isin(candidates).to_numpy()
    if not hit.any():
        return s, {}
    values = s.to_numpy(dtype=float)
    rest = values[~np.isnan(values) & ~hit]
    if len(rest) < MIN_VALUES_BESIDE_CODE:
        return s, {}
    lo, hi = float(rest.min()), float(rest.max())
    # a whole range away, and never the next number after the values: 7 beside the 5s and 6s
    # of a 1-7 scale answered high is its top answer
    away = max(hi - lo, 2.0)
    # (never the value of most rows when it could be a measurement: 99 mg/dL, the upper
    # reference limit of 612 glucose rows among other tests' limits, is data, not a code, a
    # stranger's FHIR extract; a negative or a run of three digits or more in most rows is
    # still a code: -999 "not applicable" in 60 % of the rows was kept as a number, a review)
    present = int((~np.isnan(values)).sum())
    # (a single digit just below values that are negative themselves is one of them: a UTC
    # offset of -7 beside -5 and -4, Mailchimp's DSTOFF, was a code in a quarter of a
    # stranger's rows; -9 under a -3..3 scale is still a code)
    found = sorted(float(v) for v in set(values[hit])
                   if ((v < 0 and lo >= 0) or v <= lo - away or v >= hi + away)
                   and not (-10 < v < 0 and lo < 0 and v >= lo - 2)
                   and ((values == v).sum() <= 0.5 * present or v < 0 or abs(v) >= 999))
    if not found:
        return s, {}
    gone = np.isin(values, found)
    return (s.mask(gone),
            {f"{v:.0f}": int((values == v).sum()) for v in found})


def _number(v: float) -> str:
    """``26018.0`` → ``26,018``, ``26.2`` → ``26.2``."""
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.6g}"


def _target_numbers_with_codes(y: pd.Series, name: str) -> tuple[pd.Series, str | None]:
    """A target of numbers and up to :data:`MAX_MISSING_CODES` codes without a digit
    (``Suppressed``, ``Unreliable``), however many, as the numbers with the codes missing,
    and a note; ``(y, None)`` otherwise.  Asked for by a threshold on the target only: as
    classes the codes are classes."""
    text = y.dropna().astype(str).str.strip()
    # (most targets are labels: a look at the first cells spares the pass over them all)
    head = text.iloc[:200]
    if len(head) == 0 or pd.to_numeric(head, errors="coerce").notna().mean() < 0.2:
        return y, None
    numbers = pd.to_numeric(parse_numbers(text), errors="coerce")
    codes = text[numbers.isna()]
    # (codes, not one word: a 'Tumor' over a column of expression values is a transposed
    # table's class row, refused as such by target_kind)
    if numbers.notna().sum() < 20 or codes.nunique() > MAX_MISSING_CODES or \
            len(codes) < max(3, 0.01 * len(text)) or codes.str.contains(r"\d").any():
        return y, None
    out = pd.Series(np.nan, index=y.index, dtype=float)
    out[numbers.index] = numbers.to_numpy(dtype=float)
    shown = ", ".join(map(repr, codes.value_counts().index[:MAX_MISSING_CODES]))
    return out, (f"{name!r}: {_cells(len(codes))} of {shown} are read as missing values: a "
                 "threshold on the target asks for its numbers.") if len(codes) else None


def _missing_codes_note(col: str, cleaned: pd.Series, codes: dict[str, int], target: bool = False
                ) -> str:
    """What :func:`numeric_missing_codes` did to a column (a target: how to keep the code)."""
    said = " and ".join(codes)
    cells = sum(codes.values())
    # (a SAS transport file's zero is read as 0 later: 'from 5.39761e-79 to 10' read oddly
    # in a stranger's NHANES extract)
    low = cleaned.min()
    low = 0.0 if abs(low) == SAS_ZERO else low
    why = (f"a missing-value code far outside the other values ({_number(low)} to "
           f"{_number(cleaned.max())})")
    if target:
        return (f"{cells:,} rows whose {col!r} is {said} are read as having no value, "
                f"{why}. To learn a rule for them, give it as the positive class (command "
                f"line: --positive {next(iter(codes))}).")
    # (a top-code is a long run of nines above the values: 99999 for "99,999 or more"; a
    # 1-5 scale's 9 is no top-code, and the hint read oddly there)
    lowest = min(map(float, codes))
    keep = (" If it is a value (a top-code such as 99999 for '99,999 or more'), keep it as a "
            if lowest > cleaned.max() and lowest >= 9999 else " If it is a value, keep it as a ")
    return (f"{col!r}: {_cells(cells)} of {said} are read as missing values, {why}.{keep}"
            f"number (Data page; command line: --keep-codes {col!r}).")


#: A text column with at most this many distinct values (ignoring capitals) is a column of
#: labels, whose spellings that differ only in capitals are one label.
CASE_MERGE_LEVELS = 50


#: One-letter answers that abbreviate a word typed out in the same column (``Y`` beside
#: ``Yes``): read as that word.  A column of Y and N alone keeps its letters.
_ABBREVIATED = {"y": ("yes",), "n": ("no",), "t": ("true",), "f": ("false", "female"),
                "m": ("male",), "pos": ("positive",), "neg": ("negative",)}
#: Answers typed as words in a column of 0 and 1: the digit they stand for.
_AS_DIGIT = {"yes": "1", "y": "1", "true": "1", "t": "1", "no": "0", "n": "0", "false": "0",
             "f": "0"}


#: Marks a spreadsheet's tick column holds where ticked (an empty cell where not).
TICK_MARKS = frozenset({"x", "X", "✓", "✔", "☑", "☒", "✅", "*", "•", "yes", "Yes", "YES",
                        "y", "Y", "true", "True", "TRUE",
                        # Airtable's checkbox field (a stranger's grid: 'Delivered Late' was
                        # left out as a constant, and refused as a target)
                        "checked", "Checked"})


def filled_down(s: pd.Series) -> pd.Series | None:
    """A column a spreadsheet leaves blank under each group's name (merged cells, or a
    report that prints ``Engineering`` once above its rows), filled down; None for any
    other column.  Read as it is, ``Department`` was missing in 555 of 560 rows and the
    planted ``Department == Sales`` could not show (a review).

    Text present in the first row and in at most a tenth of the rows; 4 to 50 names, words
    without digits (not codes, numbers or dates: a referral code or a complaint's timestamp
    is a sparse column whose blanks mean "none", an adversarial review); never the same name
    twice in a row (a sparse column of answers repeats its few values by chance); blocks of
    two rows or more, none most of the table (a column sorted with its blanks last)."""
    if pd.api.types.is_numeric_dtype(s) or len(s) < 20 or not isinstance(s.iloc[0], str) \
            or s.notna().mean() > 0.5:  # cheap tests first: this runs on every text column
        return None
    named = s.notna() & (s.astype(str).str.strip() != "")
    present = s[named].astype(str).str.strip()
    if not 4 <= len(present) <= 0.1 * len(s) or present.nunique() > 50:
        return None
    if (present.to_numpy()[1:] == present.to_numpy()[:-1]).any() or \
            present.str.contains(r"\d").any():
        return None
    blocks = np.diff(np.r_[np.flatnonzero(named.to_numpy()), len(s)])
    if blocks.min() < 2 or blocks.max() > 0.8 * len(s):
        return None
    return s.where(named).ffill()


#: What an empty list is read as among a list column's options: the answer "none of them".
NO_OPTION = "(none)"


#: A SAS transport file's zero as pandas reads it (16**-65), written to CSV in NHANES
#: extracts: read as 0.
SAS_ZERO = 16.0 ** -65
#: The field that names an object in a JSON list of them, first found first: a user's
#: login before the display name it may leave blank (``gh``'s ``"name": ""``), then a
#: label's name, a title.
NAME_FIELDS = ("login", "name", "title", "label")


def _named_item(x: Any) -> Any:
    """An item of a JSON list: a plain value as it is, an object by its name
    (:data:`NAME_FIELDS`, the first not blank), None for an object without one."""
    if not isinstance(x, dict):
        return x
    return next((x[k] for k in NAME_FIELDS if isinstance(x.get(k), (str, int, float))
                 and not isinstance(x.get(k), bool) and str(x[k]).strip()), None)


def json_lists(s: pd.Series) -> pd.Series | None:
    """A text column of JSON lists of plain values (``["promo", "cart"]``, ``[]``), as a
    web log or a document store exports tags, or of objects with a name (GitHub's labels,
    ``[{"name": "bug", ...}]``: :func:`_named_item`), joined by ``;`` (an empty list as
    :data:`NO_OPTION`) so that it reads as options ticked; None for any other column.
    Split at its commas, each tag was two or three fragment columns (``tags: ["cart"``,
    ``tags: "cart"]``) (a review)."""
    if pd.api.types.is_numeric_dtype(s):
        return None
    present = s.dropna()
    if len(present) < 5 or not present.iloc[:200].astype(str).str.strip().str.match(
            r"^\[.*\]$").all():  # a sample decides most columns without a full pass
        return None
    present = present.astype(str).str.strip()
    if not present.str.match(r"^\[.*\]$").all():
        return None
    out = {}
    for i, v in present.items():
        try:
            items = json.loads(v)
        except ValueError:
            return None
        if not isinstance(items, list):
            return None
        # a list of objects by their name (GitHub's labels, [{"name": "bug", "color": ...}],
        # and assignees by their login: left out as "a structure in each cell", a stranger's
        # issues export); as the exported Python reads them (rules.rule)
        items = [_named_item(x) for x in items]
        if any(x is None or isinstance(x, (list, dict)) or ";" in str(x) for x in items):
            return None
        out[i] = ";".join(dict.fromkeys(str(x).strip() for x in items)) or NO_OPTION
    return pd.Series(out, dtype=object).reindex(s.index)


def ticks_with_blanks(s: pd.Series) -> tuple[pd.Series, str | None]:
    """A column of one tick mark and empty cells (``x`` or nothing) as ``yes`` / ``no``.

    Read literally it held one value, so it was left out as constant, and the empty cells,
    being missing, failed every term: no rule could say "not ticked" (a review of a safety
    checklist, where an incident needed the lockout tag's box empty).  Returns the column
    and the mark, or the column unchanged and ``None``.

    A numeric flag, ``1`` or nothing (NOAA's weather types ``WT03``, an export's indicator
    columns), is read so too: "every value present is 1.0" left the storm's own flag out as
    constant, and the rule fell to noise, 4.8 points below the majority (a stranger's
    table)."""
    if pd.api.types.is_bool_dtype(s):
        return s, None
    present = s.dropna()
    if present.empty or len(present) == len(s):
        return s, None
    if pd.api.types.is_numeric_dtype(s):
        if not (present == 1).all():
            return s, None
        return pd.Series(np.where(s.isna(), "no", "yes"), index=s.index, name=s.name), "1"
    # the mark: a tick, or the column's own name (a survey export writes an option's name in
    # its column when it is ticked: 12 such columns were left out as constant, a review)
    ticks = TICK_MARKS | {str(s.name).strip()}
    head = present.iloc[:200].astype(str).str.strip()
    if head.iloc[0] not in ticks or (head != head.iloc[0]).any():
        return s, None  # a sample decides most columns without a pass over all the rows
    marks = present.astype(str).str.strip().unique()
    if len(marks) != 1 or marks[0] not in ticks:
        return s, None
    return pd.Series(np.where(s.isna(), "no", "yes"), index=s.index, name=s.name), marks[0]


def merge_case_variants(s: pd.Series, max_levels: int = CASE_MERGE_LEVELS
                        ) -> tuple[pd.Series, dict[str, list[str]]]:
    """Labels that differ only in capitals (``Yes``, ``YES``, ``yes``) or a full stop after
    them (``neg.``), or that abbreviate an answer typed out in the same column (``Y`` beside
    ``Yes``, ``neg`` beside ``negative``), as one label.

    Spreadsheets typed by hand spell one answer several ways; read literally, a yes/no target
    becomes six classes and the "positive class" one spelling of "yes" (or a binary column
    beside it became the target).  Only columns of labels are touched (at most
    ``max_levels`` distinct values once capitals are ignored): identifiers and free text keep
    every spelling.  Each group takes its most frequent spelling (ties: the first in sorted
    order).

    Returns the column and ``{kept spelling: [the spellings merged into it]}``.
    """
    if pd.api.types.is_numeric_dtype(s):
        return s, {}
    counts = s.dropna().value_counts()  # C-level; the checks below are per distinct value
    counts = counts[[isinstance(v, str) for v in counts.index]]
    if counts.empty:
        return s, {}
    # a full stop typed after a label ("neg.") is the same label (a review: "neg." and
    # "negative" beside "neg" made a two-class test result four classes)
    folded = pd.Series([v.strip().casefold().rstrip(".").strip() or v.strip().casefold()
                        for v in counts.index], index=counts.index)
    words = set(folded)
    # an abbreviation beside the word it shortens (Y beside Yes; M and F beside Male and
    # female: a review saw 'Gender != Male AND Gender != M')
    folded = folded.map(lambda k: next((w for w in _ABBREVIATED.get(k, ()) if w in words), k))
    # a 0/1 column with some answers typed as words ("yes" among 1s): the words are digits
    digits = {"1": "1", "1.0": "1", "0": "0", "0.0": "0"}
    if set(folded) <= set(digits) | set(_AS_DIGIT) and set(folded) & set(digits) and \
            set(folded) & set(_AS_DIGIT):
        folded = folded.map(lambda k: digits.get(k) or _AS_DIGIT[k])
    if folded.nunique() == len(counts) or folded.nunique() > max_levels:
        return s, {}
    mapping: dict[str, str] = {}
    merged: dict[str, list[str]] = {}
    for _, spellings in folded.groupby(folded, sort=True):
        if len(spellings) < 2:
            continue
        ranked = sorted(spellings.index, key=lambda v: (-int(counts[v]), v))
        ranked = [v for v in ranked if len(v.strip()) > 1] + [v for v in ranked
                                                               if len(v.strip()) <= 1]
        ranked = [v for v in ranked if v.strip() in digits] + [v for v in ranked
                                                               if v.strip() not in digits]
        merged[ranked[0]] = ranked[1:]
        mapping.update({v: ranked[0] for v in ranked[1:]})
    return s.where(~s.isin(list(mapping)), s.map(mapping)), merged


def _label(v: Any) -> Any:
    """A target cell as a class label: integral floats become ints (``1.0`` → ``1``)."""
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return int(v)
    return show(v)


def _target_values(raw: pd.Series, typed: bool) -> pd.Series:
    """The target column with numbers parsed (a CSV's ``"1"``/``"0"`` become ints)."""
    if typed:
        return raw
    num = pd.to_numeric(raw, errors="coerce")
    if raw.notna().sum() and num[raw.notna()].notna().all():
        return num
    return raw


#: Names of a column that counts the records each row of a frequency table stands for.
_FREQUENCY_NAMES = {"count", "counts", "n", "freq", "frequency", "cnt", "ncases", "cases",
                    "nobs", "records", "npatients", "npersons", "npeople"}
#: Most records a frequency table is expanded to.
MAX_EXPANDED_ROWS = 2_000_000


#: Most levels of a long table's name column (``test_name``) pivoted into columns.
MAX_PIVOT_LEVELS = 50


@dataclass(frozen=True)
class LongFormat:
    """A long table's layout (:func:`long_format`): one row per ``record`` and ``name``, the
    measurement in the ``values`` columns, the ``unit`` column (if any) fixed by the name."""

    record: str
    name: str
    values: tuple[str, ...]
    unit: str | None
    target: str


def long_format(df: pd.DataFrame, target: str, detected: Mapping[str, tuple[str, str]],
                include: Iterable[str] = (),
                numbers: Mapping[str, pd.Series] | None = None) -> LongFormat | None:
    """Whether ``df`` is a long table: a record key (an identifier on several rows), a text
    column naming what each row measures (2 to :data:`MAX_PIVOT_LEVELS` names, most
    records having several of them and (record, name) at most 5 % repeated), a numeric
    column varying within records, and a target that never varies within a record.  Read
    row by row, a lab table (``patient, test_name, value, unit, retinopathy``) gave
    ``test_name != LDL AND value > 6.95``: a rule about rows of tests, mixing an HbA1c of 7
    with an LDL of 150 (a review).  Not when the user included the name column."""
    kept = set(map(str, include))
    numbers = numbers or {}
    n = len(df)
    if n < 20 or target not in df.columns:
        return None
    for record in df.columns:
        if record == target or detected.get(str(record), ("",))[0] != "id":
            continue
        key = df[record]
        if key.isna().any() or key.nunique() > n / 2:
            continue
        # the target is the record's: one class per record
        if (df.groupby(key, sort=False)[target].nunique(dropna=True) > 1).any():
            continue
        within = df.groupby(key, sort=False).nunique(dropna=True)
        times = [c for c in df.columns if detected.get(str(c), ("",))[0] == "date"]
        for name in df.columns:
            if name in (record, target) or str(name) in kept \
                    or detected.get(str(name), ("",))[0] != "feature" \
                    or pd.api.types.is_numeric_dtype(df[name]) \
                    or not 2 <= df[name].nunique() <= MAX_PIVOT_LEVELS \
                    or df[name].isna().any():
                continue
            # (a name repeated within a record is read only as readings over time: a
            # sensor log's device, read row by row, gave a rule on readings, not devices, a
            # stranger's table; the pivot averages them and says so)
            if within[name].median() < 2 or df.duplicated([record, name]).mean() > 0.05 \
                    and not any(_readings_over_time(df, record, name, t) for t in times):
                continue
            # measurements: features (not row numbers or keys: a pandas index saved with a
            # table sorted by outcome became 'column 1 HbA1c (%)', a review), numbers or
            # numbers with a few codes ('<0.5' below a detection limit)
            values = tuple(str(c) for c in df.columns
                           if c not in (record, name, target)
                           and (detected.get(str(c), ("",))[0] == "feature"
                                and pd.api.types.is_numeric_dtype(df[c])
                                and not pd.api.types.is_bool_dtype(df[c])
                                or str(c) in numbers  # still text here, so "many values"
                                and detected.get(str(c), ("",))[0] in ("feature", "text"))
                           and (within[c] > 1).any())
            if not values:
                continue
            by_name = df.groupby(name, sort=False).nunique(dropna=True)
            units = [c for c in df.columns if c not in (record, name, target, *values)
                     and not pd.api.types.is_numeric_dtype(df[c])
                     and (by_name[c] <= 1).all() and (within[c] > 1).any()]
            # a unit belongs to the measurement: said only beside one value column (a day
            # count read "day_of_stay LDL (mg/dL)", a review)
            return LongFormat(str(record), str(name), values,
                              str(units[0]) if len(units) == 1 and len(values) == 1 else None,
                              str(target))
    return None


def _readings_over_time(df: pd.DataFrame, record: Any, name: Any, time: Any) -> bool:
    """Whether a long table's repeated names are readings over time: at each ``time`` a
    record has every one of its names, once (a sensor log's device has its vibration and
    its temperature every hour), on 80 % of its times.  A customer's orders, two or three
    categories on a date, and a patient's visits to a department are no such readings, and
    stay rows (averaged, their amounts lost how often each was bought: a review)."""
    if df.duplicated([record, name, time]).mean() > 0.05:
        return False
    at_time = df.groupby([record, time], sort=False)[name].nunique()
    names = df.groupby(record, sort=False)[name].nunique()
    full = at_time.to_numpy() == names.reindex(at_time.index.get_level_values(0)).to_numpy()
    return bool(full.mean() >= 0.8)


def pivot_long(df: pd.DataFrame, layout: LongFormat,
               numbers: Mapping[str, pd.Series] | None = None) -> tuple[pd.DataFrame, str]:
    """One row per record of a long table (:func:`long_format`), and a note saying so.

    Each (value column, name) becomes a column: ``HbA1c (%)`` for the one value column and
    its unit, ``value HbA1c`` for several value columns; a record measured twice under one
    name gets the mean.  Columns constant within every record (the target, an age) are
    kept; the rest (a lab's site, a visit date), which vary within a record and are not a
    measurement, are left out and named in the note."""
    df = df.assign(**{c: (numbers or {})[c] for c in layout.values if c in (numbers or {})})
    key = df[layout.record]
    grouped = df.groupby(key, sort=False)
    within = grouped.nunique(dropna=True)
    constant = [c for c in df.columns if c not in (layout.record, layout.name, *layout.values)
                and c != layout.unit and (within[c] <= 1).all()]
    out = grouped[constant].first() if constant else pd.DataFrame(index=key.unique())
    unit_of: dict = {}
    if layout.unit is not None:
        unit_of = df.dropna(subset=[layout.unit]).groupby(layout.name)[layout.unit].first() \
            .to_dict()
    levels = list(pd.unique(df[layout.name]))
    wide = df.pivot_table(index=layout.record, columns=layout.name, values=list(layout.values),
                          aggfunc="mean", sort=False, dropna=False)
    taken = set(map(str, out.columns)) | {layout.record}
    for value in layout.values:
        for level in levels:
            col = str(level) if len(layout.values) == 1 else f"{value} {level}"
            if level in unit_of and str(unit_of[level]).strip():
                col = f"{col} ({str(unit_of[level]).strip()})"
            while col in taken:
                col = f"{col} ({value})"
            taken.add(col)
            out[col] = wide[(value, level)].reindex(out.index) if (value, level) in wide \
                else np.nan
    twice = int(df.duplicated([layout.record, layout.name]).sum())
    dropped = [c for c in df.columns if c not in (layout.record, layout.name, *layout.values)
               and c != layout.unit and c not in constant]
    out = out.rename_axis(layout.record).reset_index()
    note = (f"A long table: each row is one {layout.name!r} of a {layout.record!r} "
            f"({len(levels)} names; {layout.target!r} the same on every row of a "
            f"{layout.record!r}), so it is "
            f"pivoted to one row per {layout.record!r}, {len(out):,} rows from {len(df):,}, "
            f"with a column per {layout.name!r} holding its "
            f"{' and '.join(map(repr, layout.values))}"
            + (f" (unit from {layout.unit!r})" if layout.unit else "")
            + (f"; {twice:,} repeated measurements averaged" if twice else "")
            + (f"; left out as they vary within a record: "
               f"{', '.join(map(repr, dropped[:4]))}" if dropped else "")
            + f". Rules then describe records, not rows. Include {layout.name!r} to keep the "
            "rows as they are.")
    return out, note


def _frequency_column(df: pd.DataFrame, include: Iterable[str]) -> str | None:
    """The column of a frequency table that counts records (``count``, ``n``, ``freq``):
    whole numbers of at least 1, three records a row or more on average, at most
    :data:`MAX_EXPANDED_ROWS` in all, at least 6 rows and 3 other columns, each of them with
    at most 20 values, and no combination of them on two rows (each row a cell of a
    cross-table).  Read as a feature, ``count <= 70`` was a rule
    about group sizes, marked optimal (a review: the planted rule came back once the rows
    were expanded).  Not a column the user included."""
    kept = set(map(str, include))
    for col in df.columns:
        if str(col) in kept or roles_mod._plain_name(str(col)) not in _FREQUENCY_NAMES:
            continue
        v = pd.to_numeric(df[col], errors="coerce")
        # a cross-table: several rows, each standing for several records on average, over
        # two features and the target at least (a 4-row table's 'n' was a feature)
        if len(df) < 6 or v.isna().any() or not (v >= 1).all() \
                or not (v == v.round()).all() or v.sum() > MAX_EXPANDED_ROWS \
                or v.sum() < 3 * len(df):
            continue
        others = df.drop(columns=col)
        if others.shape[1] < 3 or (others.nunique() > 20).any():
            continue
        if not others.astype(str).duplicated().any():
            return str(col)
    return None


def from_frame(
    df: pd.DataFrame,
    target: str | None = None,
    *,
    positive: Any = None,
    kinds: Mapping[str, Kind] | None = None,
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
    continuous: Literal["refuse", "median"] = "refuse",
    ratings: Literal["split", "classes"] = "split",
    zero_missing: Iterable[str] = (),
    keep_codes: Iterable[str] = (),
    orders: Mapping[str, Sequence[str]] | None = None,
    name: str = "table",
    description: str = "",
    typed: bool = True,
) -> Dataset:
    """Build a :class:`Dataset` from a DataFrame holding features and target.

    Every column gets a role first (:func:`rulecore.roles.detect_role`): row numbers,
    identifiers, high-cardinality text, constant and empty columns are left out, dates are
    replaced by their year and month (and the weekday and hour of timestamps), and the rest
    are features.

    Parameters
    ----------
    df : DataFrame
        The table.  ``typed=False`` means every cell is still text (as read from a CSV):
        numbers are parsed here.
    target : str, optional
        The column to predict.  Default: the most plausible class column
        (:func:`rulecore.roles.choose_target`), not blindly the last one.
    positive : optional
        The positive class, or for a numeric target a threshold such as ``"> 40"``
        (``>``, ``>=``, ``<``, ``<=``): rows meeting it are the positive class ``yes``.
        Default: the minority class; of two balanced classes (the smaller ≥ 40 % of rows),
        the one whose name does not say "no"; of many classes beside a baseline such as
        ``Normal``, the most frequent of the others (``docs/data.md``).
    kinds : mapping, optional
        Column kind overrides, ``{"age": "categorical"}``.
    include, exclude : iterables of str
        Columns to use although their role leaves them out / to leave out although they
        are features.
    continuous : {"refuse", "median"}
        A numeric target with many distinct values is never taken as classes: without a
        threshold in ``positive`` it is refused with a message saying how to give one
        (``"refuse"``, the command line), or split at its median (``"median"``, the app).
    ratings : {"split", "classes"}
        A rating scale as the target (``satisfaction (1-5)``: :func:`rulecore.roles.is_rating`)
        with no positive class given: split at its middle (``"split"``, ``<= 3``:
        :func:`rulecore.roles.rating_threshold`), or each rating a class (``"classes"``).
        The same for a count of an outcome's events (``defect_count``:
        :func:`rulecore.roles.is_event_count`), split at ``> 0`` ("any defect").
    zero_missing : iterable of str
        Numeric columns whose zeros mean "not measured": read as missing.  Columns whose few
        zeros sit far below every other value are pointed out in a note
        (:func:`zero_suspect`, ``Dataset.zero_suspects``), never changed unasked.
    keep_codes : iterable of str
        Numeric columns whose missing-value codes (a run of nines or sevens far outside the
        other values, :func:`numeric_missing_codes`) are values: kept as numbers.  A top-code
        such as adult's capital-gain ``99999`` ("99,999 or more") is the highest value, not
        a missing one.  Read as missing otherwise, with a note (``Dataset.missing_codes``).
    orders : mapping, optional
        Columns whose levels have an order no known scale gives, with their levels lowest
        first: ``{"grade": ["F", "D", "C", "B", "A"]}``.  Such a column is ordinal
        (``grade <= C``); a cell of another level is read as missing, said in a note.
    name, description : str
        Display name and description.

    Raises
    ------
    DataError
        With a message saying what to change: no rows or columns, duplicate names, a
        missing or unusable target (one class, an identifier, a continuous column without a
        threshold), unknown columns in ``include``/``exclude``/``kinds``, no usable feature.
    """
    if df.shape[1] == 0 or len(df) == 0:
        raise DataError(f"{name} has no rows." if df.shape[1] else f"{name} has no columns.")
    if df.columns.duplicated().any():
        dups = sorted(set(df.columns[df.columns.duplicated()].astype(str)))
        raise DataError(f"{name} has duplicate column names: {', '.join(dups)}.")
    given_labels = {str(k): str(v) for k, v in (df.attrs.get("labels") or {}).items()}
    df = df.copy()
    # what reading said (notes, a class column), taken out of ``attrs``: pandas deep-copies a
    # frame's attrs into every Series made from it, 125,000 copies and a third of the time
    # for a 1,500-column table (72 samples of gene expression: 48 s in all)
    read_attrs, df.attrs = dict(df.attrs), {}
    include, exclude = list(include), list(exclude)  # read more than once
    if typed:
        # lists and dicts in a DataFrame's cells (a notebook's tags) as their JSON text: read
        # as options ticked (json_lists), or as JSON; as objects pandas could not hash them
        for col in [c for c in df.columns if pd.api.types.is_object_dtype(df[c])]:
            # pandas' C-level type scan first: a column of text or numbers ("string",
            # "mixed-integer-float", ...) is passed without a Python call per cell
            if pd.api.types.infer_dtype(df[col], skipna=True) != "mixed":
                continue
            if df[col].map(lambda v: isinstance(v, (list, tuple, dict))).any():
                df[col] = df[col].map(lambda v: json.dumps(list(v) if isinstance(v, tuple)
                                                           else v, default=str)
                                      if isinstance(v, (list, tuple, dict)) else v)
    df.columns = [str(c) for c in df.columns]
    df, flattened, fields = _json_objects_flattened(df)
    df, logged, pairs = _key_value_flattened(
        df, keep={target, *include, *(kinds or {})} - {None})
    # the fields, made from their column (Reading.derived): a rule on 'device.category'
    # exported to Python raised KeyError on every raw row, which has 'device' (a check of the
    # exports against `rulecore apply`)
    made_of = [(f, c, "field", "") for c, fs in fields.items() for f in fs] + [
        (f, c, "pair", "") for c, fs in pairs.items() for f in fs]
    flattened, fields = flattened + logged, {**fields, **pairs}
    # the cells as given and the row each row comes from, to tell which cells were read as
    # another value or as missing (Reading.recoded, _recoded_cells)
    given, origin = df.copy(), np.arange(len(df))
    # (rulecore apply scores every row it is given, a subtotal too: rows stay aligned)
    subtotals = np.zeros(len(df), dtype=bool) if read_attrs.get("keep_rows") \
        else _subtotal_rows(df)
    if subtotals.any():
        # a report's subtotals inside the table ("Total for Amy's Bird Sanctuary" under each
        # customer, QuickBooks): no records.  Kept, they were 30 of a threshold target's
        # rows, and the rule's misses (a stranger's report)
        shown = list(dict.fromkeys(
            next(str(v).strip() for v in row if isinstance(v, str) and _SUBTOTAL.match(
                v.strip())) for row in df[subtotals].head(50).itertuples(index=False)))
        notes_before = [f"Left out {int(subtotals.sum()):,} subtotal row"
                        f"{'s' if subtotals.sum() > 1 else ''} inside the table ("
                        f"{', '.join(map(repr, shown[:3]))}{', ...' if len(shown) > 3 else ''}"
                        "): not records."]
        df, origin = df[~subtotals], origin[~subtotals]
    else:
        notes_before = []
    headings = np.zeros(len(df), dtype=bool) if read_attrs.get("keep_rows") \
        else _heading_rows(df)
    if headings.any():
        # a heading between a table's parts ('Loans that do not meet the credit policy',
        # Lending Club): read as a record, dropped "with no value" in the target, and its text
        # in a column of ids made them text (a stranger's download)
        # (after the last record they are lines under the table: a Salesforce report's
        # title and copyright under its rows were called "heading lines inside", a stranger)
        under = headings & (np.arange(len(df)) > np.flatnonzero(~headings).max())
        inside = headings & ~under
        cells = df.iloc[:, 0].astype(str).str.strip()
        if inside.any():
            shown = ", ".join(map(repr, dict.fromkeys(cells[inside])))
            notes_before.append(f"Left out {int(inside.sum())} heading line"
                                f"{'s' if inside.sum() > 1 else ''} inside the table "
                                f"({shown}): text in the first cell alone, not a record.")
        if under.any():
            shown = " / ".join(map(repr, dict.fromkeys(cells[under])))
            notes_before.append(f"Left out {int(under.sum())} line"
                                f"{'s' if under.sum() > 1 else ''} under the table: {shown}: "
                                "not records.")
        df, origin = df[~headings], origin[~headings]
    previews = np.zeros(len(df), dtype=bool) if read_attrs.get("keep_rows") \
        else _survey_test_responses(df)
    if previews.any():
        # Qualtrics marks the responses its author gave while building the survey, and those
        # it flagged as spam: kept, a Status of 'Survey Preview' was a respondent among the
        # others, unsaid (a stranger's export)
        said = df["Status"][previews].astype(str).str.strip().value_counts()
        spam = said.index.str.lower().str.replace(r"\.0$", "", regex=True).isin(
            SURVEY_SPAM_STATUS)
        what = " and ".join((["tests of the survey"] if not spam.all() else [])
                            + (["spam"] if spam.any() else []))
        notes_before.append(
            f"Left out {int(previews.sum()):,} response{'s' if previews.sum() > 1 else ''} "
            f"that Qualtrics' Status marks as no respondent's ("
            + ", ".join(f"{v!r}: {k:,}" for v, k in said.items())
            + f"): {what}, not answers.")
        df, origin = df[~previews], origin[~previews]
    if fields:
        # a setting that names a flattened column means its fields (exclude=["device"] was
        # "no such column" once 'device' became device.category, ...: an adversarial review)
        def expand(cols: Iterable[Any]) -> list:
            return [f for c in cols for f in fields.get(str(c), [c])]

        include, exclude = expand(include), expand(exclude)
        if kinds:
            kinds = {f: k for c, k in kinds.items() for f in fields.get(str(c), [c])}
    if df.shape[1] < 2:
        raise DataError(f"{name} has only one column ({df.columns[0]!r}); it needs at least "
                        "one feature column beside the target.")
    notes: list[str] = list(read_attrs.get("notes", ())) + flattened + notes_before
    # a column the file's format says holds classes (a LIBSVM label), however many
    class_column = read_attrs.get("class_column")
    cleaning: list[str] = []  # said after the target's note
    if typed:
        # a DataFrame's durations as files' are read (formats._durations_in_units): as
        # timedeltas they were left out as text of many values (a review)
        df, spans = formats._durations_in_units(df)
        cleaning += spans
    coded: dict[str, tuple[pd.Series, str]] = {}  # numbers_with_codes: the numbers, a note
    clocks: list[str] = []  # columns read as times of day
    units: dict[str, str] = {}  # columns read from numbers written with a unit: the unit
    decimal_comma: tuple[str, ...] = ()  # columns whose numbers are written 60,6 (not typed)
    read_from_text: list[str] = []  # columns read by `readings` below (durations, units ...)
    for col in df.columns:
        # the UK statistical service's shorthand for no value in a column of words ('[z]'
        # not applicable): a level, it was a rule's condition and, chosen as the target,
        # its positive class (a stranger's ONS spreadsheet); among numbers numbers_with_codes
        # reads it so already, and says it there
        df[col], said = _shorthand_as_missing(df[col])
        if said:
            cleaning.append(f"{col!r}: {said}")
    if not typed:
        for col in df.columns:
            df[col] = _none_as_missing(df[col])
            # Microsoft Access and Visual Basic write Yes as -1 and No as 0: the target read
            # 'PaidLate = -1' beside 'always 0' (a stranger's export); not a column given a
            # kind (a -1 / 0 sign read as numbers stays numbers)
            if col not in (kinds or {}) and (yes_no := _minus_one_yes(df[col])) is not None:
                df[col] = yes_no
                cleaning.append(f"{col!r}: -1 and 0 only, as Microsoft Access writes Yes and "
                                "No: read as yes and no (give it the kind numeric to keep "
                                "the numbers).")
        codes_kept = [c for c in df.columns if zero_padded_codes(df[c])]
        raw, df = df, df.apply(lambda c: c if c.name in codes_kept else parse_numbers(c))
        for col in codes_kept:
            present = df[col].dropna()
            if len(present) >= roles_mod.ID_MIN_VALUES and \
                    present.nunique() >= roles_mod.ID_DISTINCT_SHARE * len(present):
                continue  # an identifier, left out as one: its reason says enough
            text = df[col].astype(str)
            ex = df[col][text.str.startswith("0") & text.str.fullmatch(r"\d+")].iloc[0]
            cleaning.append(f"{col!r}: codes written with leading zeros ({ex!r}) are read as "
                            f"text, not as the number {int(ex)}; set the column's kind to "
                            "numeric if they are numbers.")
        # only a column that is not numbers yet can hold spreadsheet errors (this order keeps
        # the check off the numeric columns of a large table); before the signs are said, so
        # that a column of '42%' with a '#DIV/0!' among them is said to hold percentages (it
        # was text until here, and its note was missing: a stranger's review)
        for col in df.columns:
            if pd.api.types.is_numeric_dtype(df[col]):
                continue
            errors = df[col].isin(SPREADSHEET_ERRORS)
            if errors.any():
                kinds_seen = ", ".join(sorted(df[col][errors].unique()))
                cleaning.append(f"{col!r}: {_cells(int(errors.sum()), 'spreadsheet error')} "
                                f"({kinds_seen}) are read as missing values.")
                df[col] = parse_numbers(df[col].mask(errors))
        written: list[tuple[str, str, float]] = []  # (column, a cell, its number)
        european: list[str] = []  # ... read with a decimal comma or dots between thousands
        # currency and percent signs are dropped from the numbers: say so, since the rules
        # then read "salary <= 62750" and "discount > 16" with no sign
        # (a sample of each column: the signs decorate a column's values throughout, and a
        # full scan of every numeric column doubled the text work of a large upload)
        for col in df.columns:
            if pd.api.types.is_numeric_dtype(raw[col]) or \
                    not pd.api.types.is_numeric_dtype(df[col]):
                continue
            # object strings: masks and strips of a short sample cost less than on Arrow
            text = raw[col].dropna().iloc[:2000].astype(str).astype(object)
            text = text[~text.str.strip().isin(SPREADSHEET_ERRORS)]  # said above, as missing
            signed = text[_hits(text, _SIGNS) | _hits(text.str.strip(), _CODED, "match")]
            if signed.empty:
                # written otherwise than a plain number ('15,690', '68,68', '(1,234.50)'): an
                # exported rule's SQL or Python sees the text, so the way is said (a review
                # of the exports: the SQL of 'Balance <= 3760' missed 57 rows of 600)
                as_plain = pd.to_numeric(text.str.strip(), errors="coerce")
                # (or a plain number read otherwise: '9.226' cycles are 9226)
                odd = text[as_plain.isna() | (as_plain != df[col][text.index])]
                # (a cell read as missing writes no number: a logger's 'NAN' was said to be
                # written with a decimal comma, a stranger's)
                odd = odd[df[col][odd.index].notna()]
                if not odd.empty:
                    # (decided on every odd cell: '−4' alone reads alike both ways, a review)
                    if _read_with_decimal_comma(odd, df[col][odd.index]):
                        european.append(str(col))
                    # a minus sign '−' said before thousands separators: it is the mark an
                    # SQL cast stumbles on
                    minus = odd[odd.str.contains(_TYPESET_MINUS)]
                    shown = minus if not minus.empty else odd
                    written.append((col, shown.iloc[0].strip(),
                                    float(df[col][shown.index[0]])))
                continue
            # an example that shows how its marks were read ('€ 1.127' is 1127), if any
            for marks in (r"\d[.,]\d", r"[()]"):
                marked = signed.str.contains(marks)
                if marked.any():
                    signed = signed[marked]
                    break
            if _read_with_decimal_comma(signed, df[col][signed.index]):
                european.append(str(col))
            values = df[col][signed.index]
            at = values.ne(0).idxmax() if values.ne(0).any() else signed.index[0]  # not "0%"
            ex = signed[at].strip()
            num = np.format_float_positional(float(values[at]), trim="-")
            what = ("percentages" if "%" in ex else "amounts written with a currency sign"
                    if re.search(_MONEY, ex) else "amounts written with a currency code")
            if what == "percentages" and not re.search(r"%|percent|\bpct\b", str(col),
                                                       re.IGNORECASE):
                # the rule names them, 'Discount > 8 %', as it names any unit (it read
                # 'Discount > 8': a stranger's sales log), unless the name does already
                units[str(col)] = "%"
            cleaning.append(f"{col!r}: {what} ({ex!r}) are read as numbers ({num}); its "
                            "rules compare those numbers.")
        if written:
            cleaning.append(_written_numbers_note(written))
        # the columns an exported Python rule must read with a decimal comma ('60,6' is 60.6:
        # its predict() read None, and a rule on them never held on the raw rows: a review;
        # '3.348,00 €', '45,6 %' and '12.606' too: read as missing or as 12.606, a German
        # claims table's rule held on none of the raw rows, a stranger's check)
        decimal_comma = tuple(european)
        # numbers written as times ("00:56:46") or with a unit ("72 kg")
        # (each with the unit its numbers are in, from what it says it did: UNIT_COLUMNS)
        readings = ((numbers_from_interval, "intervals written in days and hours are read "
                     "as {how}.", lambda how: "h"),
                    (numbers_from_iso_duration, "ISO 8601 durations ({ex!r}) are read as "
                     "{how}.", lambda how: "h"),
                    (numbers_from_clock, "times written with colons ({ex!r}) are read as "
                     "numbers: {how}.", lambda how: (
                         "s/" + how.split(" per ")[1].split()[0] if " per " in how and
                         how.startswith("seconds") else "s" if how.startswith("seconds")
                         else "")),
                    (numbers_from_duration_text, "durations written with their units ({ex!r}) "
                     "are read as {how}.", lambda how: "h" if how.startswith("hours")
                     else "min"),
                    (numbers_from_years_months, "durations written in years and months "
                     "({ex!r}) are read as {how}.", lambda how: "years"),
                    (lambda s, _name: numbers_with_magnitude(s), "numbers written with a "
                     "magnitude (k, M or bn for thousands, millions or billions; L and Cr for "
                     "lakhs and crores) are read as the numbers they write ({how}).",
                     lambda how: ""),
                    (lambda s, _name: numbers_out_of(s), "scores written with their scale "
                     "({ex!r}) are read as the {how}.", lambda how: ""),
                    (numbers_with_interval, "estimates written with their interval are "
                     "read as the estimates ({how}).", lambda how: ""),
                    (numbers_from_dms, "coordinates in degrees, minutes and seconds are read "
                     "as decimal degrees, south and west negative ({how}).",
                     lambda how: "°"),
                    (numbers_from_school_grades, "school grades are read in their order, "
                     "{how}.", lambda how: ""),
                    (numbers_with_flags, "numbers written as Eurostat writes them (flags "
                     "after them, e estimated, p provisional, b a break in the series ...; "
                     "':' for no value) are read as the numbers: {how}.", lambda how: ""),
                    (lambda s, _name: numbers_with_price_words(s), "prices written with "
                     "words before them are read as the price they name ({how}).",
                     lambda how: ""),
                    (lambda s, _name: numbers_with_unit(s), "numbers typed with their unit, "
                     "{how} ({ex!r}), are read as numbers in {how}.", lambda how: how),
                    (lambda s, _name: numbers_in_units(s), "{how}.",
                     lambda how: re.search(r" are read in (\S+) \(", how).group(1)))
        for col in df.columns:
            # a few codes among numbers written with a unit ('*' beside '6,007 kg/ha', 'POA'):
            # each reading is tried on the other cells too, the codes then read as missing
            blank_codes: Any = False  # looked for once, and only if a reading fails
            for read, said, unit in readings:
                converted, how = read(df[col], str(col))
                code_note = ""
                if how is None and blank_codes is False:
                    blank_codes = _digitless_codes(df[col])
                if how is None and blank_codes is not None:
                    converted, how = read(df[col].mask(blank_codes), str(col))
                    if how is not None:
                        shown = list(dict.fromkeys(df[col][blank_codes].astype(str).str.strip()))
                        n_codes = int(blank_codes.sum())
                        code_note = (f" {_cells(n_codes)} with no number "
                                     f"({', '.join(map(repr, shown))}) "
                                     f"{'is' if n_codes == 1 else 'are'} read as missing.")
                if how is not None:
                    ex = df[col].dropna()
                    ex = ex[~blank_codes[ex.index]].iloc[0] if code_note else ex.iloc[0]
                    df[col] = converted
                    read_from_text.append(str(col))
                    cleaning.append(f"{col!r}: " + said.format(ex=ex, how=how) + code_note)
                    if read is numbers_from_clock and how.startswith(CLOCK_HOURS):
                        clocks.append(str(col))  # its rules written as times (Term.clock)
                    elif unit(how):
                        units[str(col)] = unit(how)
                    break
        for col in df.columns:
            converted, codes, named = numbers_with_codes(df[col])
            said = []
            if codes:
                one = sum(codes.values()) == 1
                said.append(f"{_cells(sum(codes.values()))} that {'is' if one else 'are'} "
                            f"not {'a number' if one else 'numbers'} "
                            f"({', '.join(map(repr, codes))}) {'is' if one else 'are'} read "
                            f"as {'a missing value' if one else 'missing values'} in this "
                            "numeric column")
            # limits with no number: their reading said apart (the exported code and
            # `rulecore apply` read them as beyond every value, -inf and inf, which every
            # threshold between the edges reads alike)
            unnumbered = {k: v for k, v in named.items() if _LIMIT_BELOW.match(k.strip())
                          or limit_above(col).match(k.strip())}
            limits = {k: v for k, v in named.items() if _CENSORED.match(k.strip())}
            named = {k: v for k, v in named.items() if k not in limits and k not in unnumbered}
            if unnumbered:
                values = converted.astype(float)  # the edges as read, limits with them
                lo, hi = _number(float(values.min())), _number(float(values.max()))
                low = [k for k in unnumbered if _LIMIT_BELOW.match(k.strip())]
                high = [k for k in unnumbered if k not in low]
                where = ([f"{', '.join(map(repr, low))} as the lowest number measured "
                          f"({lo})"] if low else []) + (
                    [f"{', '.join(map(repr, high))} as the highest ({hi})"] if high else [])
                n_cells = sum(unnumbered.values())
                said.append(f"{_cells(n_cells)} written as a limit with no number "
                            f"{'is' if n_cells == 1 else 'are'} read at the edge of the "
                            "measured values: "
                            f"{' and '.join(where)}, so every threshold between those "
                            "classifies them as their true values would")
            if named:
                shown = sorted(named, key=lambda k: -named[k])[:3]
                said.append(f"{sum(named.values()):,} numbers written approximately or "
                            f"open-ended ({', '.join(map(repr, shown))}"
                            f"{', ...' if len(named) > 3 else ''}) are read as the number they "
                            "name (for '15+', 15)")
            if limits:
                shown = sorted(limits, key=lambda k: -limits[k])[:3]
                first = shown[0].strip()
                at = {k: float(_CENSORED.match(k.strip()).group(1)) for k in limits}
                lows = [v for k, v in at.items() if _below(k)]
                highs = [v for k, v in at.items() if not _below(k)]
                sides = ([f"below {_number(max(lows))}"] if lows else []) + \
                    ([f"above {_number(min(highs))}"] if highs else [])
                said.append(f"{_cells(sum(limits.values()))} written as a limit "
                            f"({', '.join(map(repr, shown))}) "
                            f"{'is' if sum(limits.values()) == 1 else 'are'} read as the limit "
                            f"({first!r} "
                            f"as {_number(at[shown[0]])}; only a threshold "
                            f"{' or '.join(sides)} cannot tell where they lie)")
            if said:
                coded[col] = (converted, f"{col!r}: " + "; ".join(said) + ".")
                # numbers written with a decimal comma beside the codes ('0,7' beside 'ND'):
                # the exported Python reads the column so, as for a column of numbers only
                cells = df[col].dropna().astype(str).str.strip()
                cells = cells[cells.str.match(_COMMA_NUMBER)].iloc[:2000]
                if len(cells) and _read_with_decimal_comma(cells, converted[cells.index]):
                    decimal_comma += (str(col),)
    # runs of nines or sevens that stand for missing values (-999 among incomes, a survey's
    # 77 and 99); a target column's are decided again once the target is known
    coded_missing: dict[str, tuple[pd.Series, dict[str, int]]] = {}
    # columns whose codes are values, as asked, and their exact copies (read alike, or the
    # copy came back as a feature, its codes read as missing: a review)
    keep = set(_identical_copies(df, {str(c) for c in keep_codes}))
    kept_codes: dict[str, dict[str, int]] = {}
    codes_read: list[str] = []  # columns of numbers and text codes whose codes were read so
    for col in df.columns:
        cleaned, codes = numeric_missing_codes(df[col])
        if codes and str(col) in keep:
            kept_codes[str(col)] = codes
        elif codes:
            coded_missing[col] = (df[col], codes)
            df[col] = cleaned
    for col in df.columns:
        bare, example = answer_codes_dropped(df[col])
        if example is not None:
            df[col] = bare
            cleaning.append(f"{col!r}: the answer codes after the answers are dropped "
                            f"({example}), as a survey tool writes them: the answers are "
                            "read by their words, in order where they are a scale.")
    spellings: dict[str, str] = {}  # per column, what merge_case_variants did
    for col in df.columns:
        df[col], merged = merge_case_variants(df[col])
        if merged:
            df[col] = parse_numbers(df[col])  # "yes" among 0/1 became "1": numbers again
            said = "; ".join(f"{', '.join(map(repr, others))} as {kept!r}"
                             for kept, others in list(merged.items())[:4])
            more = f" and {len(merged) - 4} more" if len(merged) > 4 else ""
            spellings[col] = (f"{col!r}: one value spelled several ways is read as "
                              f"one: {said}{more}.")
    for col in df.columns:
        filled = filled_down(df[col])
        if filled is not None:
            groups = int(df[col].notna().sum())
            blank = int(df[col].isna().sum())
            df[col] = filled
            cleaning.append(f"{col!r}: a name on the first row of each group and blank "
                            f"cells under it, as merged cells or a grouped report leave it "
                            f"({groups} names, {_cells(blank, 'blank')}): each blank cell is "
                            "read as the name above it.")
        joined = json_lists(df[col])
        if joined is not None:
            longest = df[col].dropna().astype(str).str.len().idxmax()
            example = str(df[col][longest]).strip()
            df[col] = joined
            cleaning.append(f"{col!r}: JSON lists ({example[:40]!r} ...), read as the options "
                            f"each row lists; an empty list as {NO_OPTION!r}.")
    # a group's name and its fields on the group's first row only, more groups than
    # filled_down takes (an AR-aging report's 60 customers, each with its region and account
    # manager: the names were "an identifier", a stranger's workbook)
    block = None if read_attrs.get("keep_rows") else _group_block_columns(df)
    if block is not None:
        df = df.copy()
        for col in block:
            df[col] = df[col].ffill()
        named = ", ".join(map(repr, block[:6])) + (", …" if len(block) > 6 else "")
        groups = int(df[block[0]].nunique())
        cleaning.append(f"{named}: a group's name and its fields on the group's first row "
                        f"only, blank on its other rows, as a report prints them ({groups} "
                        "groups): each blank cell is read as the value above it.")
    # a crosstab's measures on rows (Tableau's 'Measure Names'): each column mixed dollars,
    # counts and percentages, and 'Measure Names' was the default target (a stranger's)
    measures = None if read_attrs.get("keep_rows") or target is not None and \
        str(target) in map(str, df.columns) and _plain_measure_names(target) else \
        _measures_pivoted(df)
    # (a column the user names as it stands in the file, 'Grand Total', is read as it is:
    # pivoted away it was "no column", an adversarial review)
    named = {str(c) for c in [target, *include, *exclude] if c is not None}
    if measures is not None and named & set(map(str, measures[2])):
        measures = None
    if measures is not None:
        df, said, pivoted = measures
        # the rows are the pivot's now: what reading did to a cell is told from them on
        given, origin = df.copy(), np.arange(len(df))
        # what reading said of the columns pivoted away ('2021': percentages) is said of a
        # column no longer there: once, in the pivot's note
        heads = tuple(f"{str(c)!r}:" for c in pivoted)
        read = [c for c in cleaning if c.startswith(heads)]
        cleaning = [c for c in cleaning if not c.startswith(heads)] + [said + (
            " Their cells were read as numbers (currency signs, thousands separators and "
            "percent signs dropped)." if read else "")]
    # a second table beside the first, after an empty column (a rep lookup of 8 rows beside
    # 600 orders): its columns paired unrelated rows (a stranger's workbook)
    side = None if read_attrs.get("keep_rows") else _side_table(df, target)
    if side is not None:
        gap, right, k = side
        # (the names stay as read, 'Rep (1)': renamed back to 'Rep', the rule could not be
        # applied to the same file, whose reading numbers them: an adversarial review)
        df = df.drop(columns=[gap, *right])
        shown = ", ".join(repr(roles_mod.base_name(c)) for c in right[:4]) + (
            " ..." if len(right) > 4 else "")
        cleaning.append(f"Left out a second table beside this one, after the empty column "
                        f"{str(gap)!r}: {shown}, {k} rows, filled only at the top where this "
                        "table goes on below. Its rows are not this table's records; open it "
                        "on its own (its own sheet or file) to learn from it.")
    # an order's fields on its first line item only (Shopify): the other lines were dropped
    # for no target, and with them the line items where the signal was (a stranger's export)
    lines = None if read_attrs.get("keep_rows") else _first_line_fields(df)
    record_rows_joined = lines is not None  # a record's values brought to its other rows
    record_keys: dict[str, tuple[str, str]] = {}  # roles reading decided, over detect_roles'
    if lines is not None:
        key, fields = lines
        # the key is the record, however written (a number, 1001, was a numeric feature and
        # the rows were not held out by it, as the note said: the review)
        record_keys[str(key)] = ("id", f"{int(df[key].nunique()):,} values, each on a run of "
                                       "rows with its fields on the first: the record each "
                                       "row belongs to (held-out rows are split by it)")
        df = df.copy()
        run = df[key].ne(df[key].shift()).cumsum()
        for col in fields:
            df[col] = df[col].groupby(run).transform("first")
        named = ", ".join(map(repr, fields[:6])) + (", …" if len(fields) > 6 else "")
        cleaning.append(f"{named}: on the first of the rows of each {key!r} only, blank on "
                        "its other rows (an order's line items as Shopify writes them, a "
                        "record's events as REDCap does): each row takes its record's value, "
                        f"and the held-out rows are whole {key!r}s.")
    ticked: list[str] = []  # columns read as ticks or flags (Dataset.ticks)
    for col in df.columns:
        as_yes_no, mark = ticks_with_blanks(df[col])
        if mark is not None:
            blank = int(df[col].isna().sum())
            df[col] = as_yes_no
            ticked.append(str(col))
            what = "a flag, 1" if mark == "1" else f"a tick ({mark!r})"
            cleaning.append(f"{col!r}: {what} or an empty cell, read as yes or no "
                            f"({_cells(blank, 'empty')} read as no, not as missing values).")
    weight_col = _frequency_column(df, include)
    if weight_col is not None:
        counts = df[weight_col].astype(np.int64)
        df = df.loc[df.index.repeat(counts)].drop(columns=weight_col).reset_index(drop=True)
        origin = np.repeat(origin, counts.to_numpy())
        cleaning.append(f"{weight_col!r}: the table counts records (each row a combination of "
                        f"the other columns, {weight_col!r} how many records have it), so it "
                        f"is expanded to one row per record, {len(df):,} rows from "
                        f"{len(counts):,}: rules then count records, not combinations. Include "
                        f"{weight_col!r} to keep the rows as they are.")
    detected = {**roles_mod.detect_roles(df, given_labels), **record_keys}
    chosen_note: int | None = None  # the note saying why the target was chosen
    guessed = False  # chosen by default with nothing in the table saying it is the outcome
    if target is None and class_column in df.columns:
        target = class_column
        notes.append(f"Predicting {target!r}: the file's format says it holds the classes. "
                     "Choose another target if this is not the one.")
    elif target is None:
        # a field of a log line (its status, its level) describes the line, not the
        # outcome: _raw.status was predicted beside an alert flag (an adversarial review)
        logged_fields = [f for fs in pairs.values() for f in fs if f in df.columns]
        rest = [c for c in df.columns if c not in logged_fields]
        followed: list[str] = []  # a follow-up question passed over for what it follows
        target = roles_mod.choose_target(df[rest], {c: detected[c] for c in rest}, followed) \
            if logged_fields and len(rest) >= 2 else roles_mod.choose_target(df, detected,
                                                                            followed)
        notes += followed
        why = {"classes": "the most plausible class column", "continuous": "no column holds "
               "classes, so this numeric column is split at a threshold"
               if not roles_mod.is_outcome_score(target) else "a number named as the "
               "outcome's score, split at a threshold"}
        kind0 = roles_mod.target_kind(df[target])[0]
        guessed = roles_mod.target_guessed(df, target, detected)
        chosen_note = len(notes)  # said again with the threshold, if one is made below
        notes.append(f"Predicting {target!r}: {why.get(kind0, 'the last column')}. Choose "
                     "another target if this is not the one.")
    target = str(target)
    # the target's spellings first: they decide the classes
    notes += [spellings[c] for c in sorted(spellings, key=lambda c: c != target)] + cleaning
    layout = long_format(df, target, detected, include,
                         {c: v[0] for c, v in coded.items() if c != target})
    if layout is not None:
        # a missing-value code is judged per measure once pivoted (99999 among the gains,
        # not among every measure's values), where keep_codes can name the measure: judged
        # on the long values, gain's 99999 went missing without a note, and
        # keep_codes=['gain'] did nothing (a review)
        for col, (original, _) in coded_missing.items():
            df[col] = original
        # the wide table is read afresh, as a table of text cells: its codes, spellings and
        # roles are then counted and applied per record (a review: codes cleaned on the long
        # rows were put back by row number, and records got another record's class)
        wide, note = pivot_long(df, layout, {c: v[0] for c, v in coded.items()})
        cells = wide.apply(lambda c: c.map(lambda v: format(v, ".15g"), na_action="ignore")
                           if pd.api.types.is_numeric_dtype(c) else c).astype(object)
        there = set(map(str, wide.columns))
        ds = from_frame(
            cells, target, positive=positive,
            kinds={c: k for c, k in (kinds or {}).items() if c in there},
            include=[c for c in include if str(c) in there],
            exclude=[c for c in exclude if str(c) in there],
            continuous=continuous, ratings=ratings,
            zero_missing=[c for c in zero_missing if str(c) in there],
            keep_codes=[c for c in keep_codes if str(c) in there],
            orders={c: o for c, o in (orders or {}).items() if c in there},
            name=name, description=description, typed=False)
        said = [n for n in notes if n.startswith("Predicting ")] + [note] + [
            coded[c][1] for c in layout.values if c in coded]  # '<0.5' read as its limit
        return replace(ds, notes=tuple(said) + tuple(
            n for n in ds.notes if not n.startswith("Predicting ")),
            roles=(ColumnRole(layout.name, "long", False, "names what each row measured: "
                              f"the table is pivoted to one row per {layout.record!r}",
                              "long"),) + ds.roles)
    # Numbers with a few codes for "no number" become numbers (a feature, not free text), but
    # only once the target is chosen and never in it: "other" among numbered classes is a
    # class, and a target column chosen as text stays the column the user saw.
    coded = {c: v for c, v in coded.items() if c != target}
    if coded:
        for col, (numbers, note) in coded.items():
            df[col], codes = numeric_missing_codes(numbers)
            notes.append(note)
            if codes and str(col) in keep:
                df[col], kept_codes[str(col)] = numbers, codes
            elif codes:
                notes.append(_missing_codes_note(col, df[col], codes))
                codes_read.append(str(col))
        detected = {**roles_mod.detect_roles(df, given_labels), **record_keys}
    unanswered_rows: list[tuple[Any, int]] = []  # target values read as no answer, rows
    if target in coded_missing:
        # in a target, 9 may be a class, and a code given as the positive class is one
        original, _ = coded_missing.pop(target)
        df[target], codes = numeric_missing_codes(original, target=True)
        if codes and ((positive is not None and str(positive) in codes) or target in keep
                      or df[target].nunique() < 2):  # a code beside one class is a class
            df[target], codes = original, {}
        if codes:
            coded_missing[target] = (original, codes)
            unanswered_rows += [(_label(float(c)), n) for c, n in codes.items()]
    for col, (_, codes) in coded_missing.items():
        notes.append(_missing_codes_note(col, df[col], codes, target=col == target))
    for col, codes in kept_codes.items():
        if col != target:
            said = " and ".join(codes)
            notes.append(f"{col!r}: {_cells(sum(codes.values()))} of {said} kept as a number, "
                         "as asked, not read as a missing-value code.")
    if target not in df.columns:
        raise DataError(f"There is no column {target!r} to predict; the columns are "
                        f"{', '.join(map(repr, df.columns[:20]))}"
                        f"{' ...' if df.shape[1] > 20 else ''}.")
    names = [str(c) for c in df.columns]
    # the year and month of a date column are columns too, for kind overrides
    derived = [d for c in names if detected[c][0] == "date"
               for d in roles_mod.date_feature_names(c)]
    # a field the file wrote in several columns of one name holds options, however they come
    # together: Jira's issues each in two or three Labels, or in a sprint and the next one
    # (as text of 150 combinations, and 'Sprint != PROJ Sprint 50;PROJ Sprint 51', they were
    # no options: a stranger's export)
    for c in read_attrs.get("multi_valued", ()):
        if c in detected and detected[c][0] != "choices" and c != target and \
                (known := roles_mod.choice_options(df[c], known=True)) is not None:
            detected[c] = ("choices", f"the values of the columns named {c!r} side by side: "
                                      f"one or several of {len(known[1])} options")
    # each choices column's options, worked out once (choice_options is slow on long columns)
    choices = {c: roles_mod.choice_options(df[c], known=c in read_attrs.get("multi_valued", ()))
               for c in names if detected[c][0] == "choices"}
    derived += [f"{c}: {o}" for c, (_, options) in choices.items() for o in options]
    for what, cols in (("include", include), ("exclude", exclude), ("set the kind of",
                                                                     (kinds or {})),
                       ("read 0 as missing in", zero_missing),
                       ("keep the codes of", keep_codes),
                       ("put in order", (orders or {}))):
        known = set(names) | (set(derived) if what == "set the kind of" else set())
        unknown = sorted(set(map(str, cols)) - known)
        if unknown:
            raise DataError(f"Cannot {what} {', '.join(map(repr, unknown))}: there is no such "
                            f"column. The columns are {', '.join(map(repr, names[:30]))}.")
    include, exclude = set(map(str, include)), set(map(str, exclude))
    # asking for a column's kind is asking for the column: `--numeric years` on a column left
    # out as free text was silently ignored
    include |= {str(c) for c in [*(kinds or {}), *(orders or {})] if str(c) in names} - exclude
    # a column's exact copy reads its zeros as missing too: reading glucose's zeros so made
    # 'Glucose (mg/dL)' differ (0 against missing), and the copy came back as a feature with
    # its zeros as low values (a review).  It is left out as the copy it still is.
    zeros_asked = {str(c) for c in zero_missing}
    zero_missing = _identical_copies(df, [str(c) for c in zero_missing])
    zeros_read: list[str] = []      # columns whose zeros were read as missing, as asked
    zero_suspects: list[str] = []   # columns whose zeros look like "not measured"

    # ---------------------------------------------------------------- target
    y_raw = _target_values(df[target], typed)
    if not pd.api.types.is_numeric_dtype(y_raw) and (
            positive is None or str(positive) not in set(y_raw.dropna().astype(str))
            and roles_mod.parse_threshold(str(positive)) is not None):
        # numbers with codes for no number (CDC WONDER's rates, 'Suppressed' and
        # 'Unreliable' in half the cells): a threshold asks for the numbers, the codes are
        # rows without a value ('> 30' was refused as "not numeric": a stranger's download);
        # so do many numbers, as any number of many values is split (as classes, the app
        # drew one bar per rate and offered no threshold)
        numbers, said = _target_numbers_with_codes(y_raw, target)
        if said and (positive is not None or
                     numbers.nunique() > roles_mod.MAX_CLASS_LEVELS):
            y_raw = numbers
            notes.append(said)
    kind, why = roles_mod.target_kind(y_raw)
    if detected.get(target, ("",))[0] == "date" and 0 < int(y_raw.isna().sum()) < len(y_raw) \
            and (positive is None or str(positive) in ("has a date", "no date")):
        # a date or a blank ("cancelled_at", "churn_date"): whether the event happened is the
        # outcome; as classes it was "nearly an identifier", a dead end (a review)
        dated = y_raw.notna()
        counted = (f"({int(dated.sum()):,} of {len(y_raw):,} rows have one, {target} = has a "
                   "date)")
        if chosen_note is not None:  # one note says why this column and what is predicted
            notes[chosen_note] = (f"Predicting {target!r}: its name says the date of an "
                                  "outcome, blank where there was none, so whether a row has "
                                  f"a date is predicted {counted}. Choose another target if "
                                  "this is not the one.")
        else:
            notes.append(f"{target!r} holds dates or blanks: predicting whether a row has a "
                         f"date {counted}, not the date itself.")
        y_raw = pd.Series(np.where(dated, "has a date", "no date"), index=y_raw.index,
                          dtype=object)
        if positive is None:
            positive = "has a date"
        kind, why = "classes", ""
    if kind == "continuous" and target == class_column:
        kind, why = "classes", ""  # whole-number labels, however many (_svmlight_frame)
    blank = y_raw.isna()
    if kind == "unusable" and "single class" in why and \
            int(blank.sum()) >= max(MIN_POSITIVE_ROWS, 0.05 * len(y_raw)):
        # one value or a blank ('Price cut' or nothing, 'Escalated' or nothing): the blank is
        # the other state, not a missing outcome; refused as "a single class" it was a dead
        # end (a stranger's listings: a blank priceCut meant no cut)
        value = _label(y_raw.dropna().iloc[0])
        other = f"not {show(value)}"
        notes.append(f"{target!r} holds one value, {show(value)!r}, or nothing: its "
                     f"{int(blank.sum()):,} empty cells are read as the other class, "
                     f"{other!r}, not as rows without a target.")
        y_raw = y_raw.astype(object).where(~blank, other)
        if positive is None:
            positive = value
        kind, why = "classes", ""
    if kind == "unusable":
        if y_raw.notna().sum() == 0:
            raise DataError(f"The target column {target!r} is empty. Choose another target.")
        if "single class" in why:
            raise DataError(f"The target {target!r} has a single class "
                            f"({show(y_raw.dropna().iloc[0])!r}); a classifier needs at least "
                            "two. Choose another target column.")
        if TRANSPOSED in why:  # another column is no better (a newcomer's review)
            raise DataError(f"{target!r} cannot be the target: {why}.")
        raise DataError(f"{target!r} cannot be the target: {why}. Choose another target "
                        "column.")
    threshold = None
    label_name = target
    classes_now = {str(v) for v in y_raw.dropna().unique()}
    thr = None
    if positive is not None and str(positive) not in classes_now:
        thr = roles_mod.parse_threshold(str(positive))
    numeric_target = pd.api.types.is_numeric_dtype(y_raw)
    if thr is not None and not numeric_target:
        raise DataError(f"{positive!r} is a threshold, but the target {target!r} is not "
                        "numeric. Give one of its classes as the positive class.")
    scale = kind == "classes" and roles_mod.is_rating(target, y_raw)
    if thr is None and positive is None and ratings == "split" and scale:
        suggestion = roles_mod.rating_threshold(y_raw)
        thr = roles_mod.parse_threshold(suggestion)
        v = pd.to_numeric(y_raw, errors="coerce")
        span = f"a rating from {roles_mod.format_number(v.min())} to " \
               f"{roles_mod.format_number(v.max())}"
        other = f"{thr[0]} {roles_mod.format_number(thr[1] + 1)}"  # an example threshold
        how = (f" (command line: --positive with another threshold, '{other}', or with one "
               f"rating, {roles_mod.format_number(v.min())})")
        middle = roles_mod.format_number((v.min() + v.max()) / 2)
        said = (f"Predicting {target!r}, {span}, as {target} {suggestion} (split below the "
                f"middle of the scale, {middle}). Choose another target, change the threshold, "
                f"or predict each rating as a class{how}.")
        if chosen_note is not None:  # one note says why this column and where it is cut
            notes[chosen_note] = said
        else:
            notes.append(said)
    # a count of an outcome's events (defect_count: 0, 1, 2) asks "any?" by default, > 0;
    # as classes its default was the rarest count, "exactly 2 defects" (a review)
    # ... and so do grades from a baseline 0 in half the rows or more (UCI's Cleveland
    # diagnosis, 0 none to 4: its default was "x14 = 1", one grade against the rest, where
    # "any disease" is what the file is used for; a stranger's download)
    counts = kind == "classes" and not scale and roles_mod.whole_counts(y_raw)
    numbers = pd.to_numeric(y_raw, errors="coerce") if counts else None
    named = counts and roles_mod.names_event_count(target)
    if thr is None and positive is None and ratings == "split" and counts and (
            named or float((numbers.dropna() == 0).mean()) >= 0.5):
        thr = (">", 0.0)
        top = roles_mod.format_number(numbers.max())
        zero = f"{float((numbers.dropna() == 0).mean()):.0%}"
        said = (f"Predicting {target!r}, a count from 0 to {top}, as {target} > 0 (at least "
                "one). Choose another target, change the threshold, or predict each count as "
                f"a class (command line: --positive with one count, {top})." if named else
                f"Predicting {target!r}, whole numbers from 0 to {top} with 0 in {zero} of "
                f"the rows, as {target} > 0 (any but 0). Choose another target, change the "
                "threshold, or predict each value as a class (command line: --positive with "
                f"one value, {top}).")
        if chosen_note is not None:  # one note says why this column and where it is cut
            notes[chosen_note] = said
        else:
            notes.append(said)
    rating = bool(scale and thr is not None)  # a rating scale read through a threshold
    count = bool(counts and thr is not None)  # a count read through a threshold
    if kind == "continuous" and thr is None:
        suggestion, where = roles_mod.default_threshold(target, y_raw)
        if continuous != "median":
            raise DataError(
                ("No column names an outcome or holds classes, so the target is a guess: the "
                 "rightmost numeric column. " if guessed else "") +
                f"The target {target!r} is a number with {y_raw.nunique():,} distinct values, "
                f"not classes. Give a threshold as the positive class: '{suggestion}' ("
                f"{where.split(',')[0]}) makes rows with {target} {suggestion} the positive "
                f"class (on the command line: --positive '{suggestion}'), or choose another "
                "target column (--target COLUMN).")
        thr = roles_mod.parse_threshold(suggestion)
        if chosen_note is not None:  # one note says both why this column and where it is cut
            why_this = ("its name says it scores the outcome" if roles_mod.is_outcome_score(
                target) else "no column holds classes")
            notes[chosen_note] = (
                f"Predicting {target!r}: {why_this}, so this number is split at {where}, "
                f"{target} {suggestion}. Choose another target, or change the threshold, if "
                "another is meant.")
        else:
            notes.append(f"{target!r} is a number, not classes: it is split at {where}, "
                         f"{target} {suggestion}. Change the threshold if another cut "
                         "matters.")
    if thr is not None:
        op, value = thr
        v = y_raw.astype(float)
        hit = {">": v > value, ">=": v >= value, "<": v < value, "<=": v <= value}[op]
        label_name, yes, no = roles_mod.threshold_labels(target, op, value)
        y_raw = pd.Series(np.where(hit, yes, no), index=v.index, dtype=object).where(v.notna())
        threshold = f"{op} {roles_mod.format_number(value)}"
        positive = yes

    # "Unknown" beside real classes is no answer: as a class it was the minority, so the
    # default positive class, and the rule learned to predict the unknown; an outcome not
    # decided yet ("Pending" beside Approved / Declined) is none either (a review)
    unanswered = roles_mod.no_answers(y_raw.dropna().unique())
    no_answer = y_raw.isin(unanswered)
    if thr is None and no_answer.any() and (positive is None or not no_answer[
            y_raw.astype(str) == str(positive)].any()):
        answered = y_raw[~no_answer & y_raw.notna()]
        if answered.nunique() >= 2:
            values = list(y_raw[no_answer].unique())
            said = " or ".join(repr(v) for v in values[:3])
            if roles_mod.pipeline_stages(y_raw.dropna().unique()):
                notes.append(f"{int(no_answer.sum()):,} rows whose {target!r} is an open "
                             f"stage ({', '.join(map(repr, values[:4]))}"
                             f"{', ...' if len(values) > 4 else ''}) are deals not decided "
                             "yet: they are left out, and the rule tells Closed Won from "
                             "Closed Lost. To learn a rule for a stage, give it as the "
                             f"positive class (command line: --positive {values[0]!r}).")
            elif roles_mod.deal_statuses(y_raw.dropna().unique()):
                notes.append(f"{int(no_answer.sum()):,} rows whose {target!r} is {said} are "
                             "deals not decided yet (or deleted): they are left out, and the "
                             "rule tells Won from Lost. To learn a rule for them, give it as "
                             f"the positive class (command line: --positive {values[0]!r}).")
            else:
                notes.append(f"{int(no_answer.sum()):,} rows whose {target!r} is {said} are "
                             "read as having no value, not as a class. To learn a rule for "
                             "them, give it as the positive class (command line: --positive "
                             f"{values[0]!r}).")
            unanswered_rows += [(show(v), int((y_raw == v).sum())) for v in values]
            y_raw = y_raw.mask(no_answer)
    missing_y = y_raw.isna().to_numpy()
    dropped = int(missing_y.sum())
    if dropped == len(df):
        raise DataError(f"The target column {target!r} is empty.")
    if dropped:
        share = dropped / len(df)
        notes.append(f"Dropped {dropped:,} of {len(df):,} rows ("
                     + (f"{share:.0%}" if share >= 0.01 else f"{share:.1%}")
                     + f") with no value in {target!r}" + _subtotals_said(df[missing_y])
                     + ".")
        before = df
        df, joined = _joined_by_record(df, missing_y, detected, target)
        record_rows_joined = record_rows_joined or bool(joined)
        if joined:
            notes.append(joined)
            # a column filled in is read again, on the rows kept: a grouped report's groups
            # were "row names" (an unnamed first column of names each on its own row) once
            # every record held its customer (a stranger's QuickBooks report)
            kept = df[~missing_y]
            for i, c in enumerate(df.columns):
                if c != target and not df[c].equals(before[c]):
                    detected[c] = roles_mod.detect_role(kept[c], i, len(kept))
        df, y_raw, origin = df[~missing_y], y_raw[~missing_y], origin[~missing_y]
    y = y_raw.map(_label).reset_index(drop=True)
    y.name = label_name
    df = df.reset_index(drop=True)
    labels = y.unique()
    if len(labels) < 2:
        raise DataError(f"The target {label_name!r} has a single class ({show(labels[0])!r}) "
                        "in the rows that have one; a classifier needs at least two.")

    # ---------------------------------------------------------------- features
    overrides = dict(kinds or {})
    when_columns: list[tuple[str, pd.Series]] = []  # the dates used, for bursts over time
    # features made from dates, choices, JSON objects and key=value lines
    derived: list[tuple[str, str, str, str]] = list(made_of)
    columns: dict[str, pd.Series] = {}
    out_kinds: dict[str, Kind] = {}
    on_scale: dict[tuple, list[tuple[str, str]]] = {}  # the scale's columns (_scale_notes)
    roles: list[ColumnRole] = []
    if weight_col is not None:  # listed, so that the Data page can include it back
        roles.append(ColumnRole(weight_col, "frequency", False, "the records each row stands "
                                "for: the table is expanded to one row per record",
                                "frequency"))
    elsewhere: list[str] = []  # columns with values only on rows without a target
    column_names = set(map(str, df.columns))  # (asked of every column: a set, once)
    for col in df.columns:
        role, reason = detected[col]
        if col != target and dropped and role not in ("empty", "constant") and \
                df[col].isna().all():
            # roles are read on every row; this column's values all sit on rows without a
            # target (REDCap's longitudinal export: baseline and follow-up on separate rows
            # of one record), and read as a date it was a traceback (an analyst's review)
            role, reason = "empty", f"no value on the rows that have a {target!r}"
            elsewhere.append(str(col))
        if col == target:
            roles.append(ColumnRole(col, "target", False, "the column to predict", role))
            continue
        if role == "feature" and roles_mod.margin_of(col, column_names) == target:
            # the target's own margin of error grows with the estimate it qualifies: an ACS
            # tract's poverty rate was told by 'DP03_0128PM > 0.85' (a stranger's download)
            role, reason = "margin", (f"the margin of error of the target {target!r}: it "
                                      "comes from the target's own estimate, not its causes")
        if role == "date" and col not in include and roles_mod.last_changed(col):
            # when the record was last edited (Chicago's 'Updated On', Mailchimp's
            # LAST_CHANGED) comes after what the row records, the outcome included: its
            # year and month were features (a stranger's exports)
            role, reason = "changed", ("when the record was last changed: written after "
                                       "what the row records, the outcome included, so a "
                                       "rule on it would read when the row was edited; "
                                       "include it if it is not")
        used = (role in ("feature", "date", "choices") or col in include) and \
            col not in exclude
        if role == "choices" and used and col not in overrides:
            # one yes/no feature per option ticked (roles.choice_options): "used Live chat"
            # is then one condition, not a list of the combinations without it
            sep, options = choices[col]
            parts = []
            for oname, values in roles_mod.choice_features(col, df[col], sep,
                                                           options).items():
                if oname in df.columns:
                    continue
                kind = overrides.get(oname, "categorical")
                values = values.reset_index(drop=True)
                columns[oname] = (values if kind == "categorical" else
                                  (values == "yes").astype(float).where(values.notna()))
                out_kinds[oname] = kind
                derived.append((oname, col, "option", sep))
                parts.append(ColumnRole(oname, "derived", True, (
                    f"yes when {oname[len(col) + 2:]!r} is among the answers in {col!r} "
                    f"(joined by {sep!r}), no when not, missing when it has none"),
                    "derived"))
            roles.append(ColumnRole(col, role, bool(parts), f"{reason}: replaced by one yes/no "
                                    f"column per option, {len(parts)} in all", role))
            roles += parts
            continue
        if role == "date" and used and col not in overrides:
            # (partial dates read once, with each cell's precision)
            partial = roles_mod.partial_dates(df[col])
            dates, written = (partial[0], roles_mod.PARTIAL_DATES) if partial is not None \
                else roles_mod.read_dates(df[col])
            precision = partial[1] if partial is not None else None
            when_columns.append((col, dates.reset_index(drop=True)))
            parts: list[ColumnRole] = []
            for dname, values in roles_mod.date_features(col, dates, col in include,
                                                         precision).items():
                if dname in df.columns:
                    continue
                part = dname.rsplit("(", 1)[1].rstrip(")")
                if values.nunique() <= 1:  # every date in one year: a constant, no feature
                    only = values.dropna()
                    value = "" if only.empty else only.iloc[0]  # a number, or a weekday
                    value = value if isinstance(value, str) else roles_mod.format_number(value)
                    parts.append(ColumnRole(
                        dname, "constant", False, "no date" if only.empty else
                        f"every date is in {part} {value}" if part == "year" else
                        f"every date has {part} {value}", "derived"))
                    continue
                # the weekday in the week's order, as a column of weekday names is: the
                # weekend is one condition, 'weekday > Fri'
                week = level_order(_as_text(values)) if part == "weekday" else None
                kind = overrides.get(dname, "numeric" if part != "weekday" else
                                     "ordinal" if week else "categorical")
                if kind == "ordinal" and not week:
                    kind = "categorical"  # two weekdays in the whole table: no order to use
                values = values.reset_index(drop=True)
                columns[dname] = values if kind == "numeric" else _as_text(values)
                if kind == "ordinal":
                    columns[dname] = pd.Series(pd.Categorical(
                        columns[dname], ordered=True, categories=list(week)))
                out_kinds[dname] = kind
                unit = {"month": " (1-12)", "weekday": " (Mon < ... < Sun)",
                        "hour": " (0-23)"}.get(part, "")
                derived.append((dname, col, part, written))
                parts.append(ColumnRole(dname, "derived", True,
                                        f"the {part}{unit} of the date in {col!r}", "derived"))
            # the date itself is used only through the parts that vary (a one-week log's year
            # and month are constants: it showed as used while nothing was learned from it)
            kept = [r.column.rsplit("(", 1)[1].rstrip(")") for r in parts if r.included]
            roles.append(ColumnRole(col, role, bool(kept), f"{reason}: replaced by its "
                                    f"{' and '.join(kept)}" if kept else f"{reason}: its year "
                                    "and month are constants, so nothing is learned from it",
                                    role))
            roles += parts
            continue
        if not used:
            if role == "feature":
                reason = "left out by choice"
            elif col in exclude:  # a date left out (a leak): say whose choice it was
                reason = f"left out by choice ({reason})" if reason else "left out by choice"
            roles.append(ColumnRole(col, role, False, reason, role))
            continue
        s = df[col]
        if s.isna().all():
            roles.append(ColumnRole(col, role, False, "every value is missing", role))
            continue
        if col in (orders or {}):
            s, said = _in_order(s, orders[col], col)
            notes.append(said)
            overrides[col] = "ordinal"
        kind = overrides.get(col) or infer_kind(s)
        if kind == "numeric" and col not in overrides and _code_name(col, s) and \
                _whole_number_levels(s) >= 3:
            # "agent_code <= 132.5 AND agent_code > 129.5" reads an order that codes do not
            # have (a review: 91.5 % held out, below the majority; agent_code == 117 as a
            # category beat it)
            kind = "categorical"
            notes.append(f"{col!r}: whole numbers named as a code or a thing's number are "
                         "read as categories (a code's order means nothing); set the "
                         "column's kind to numeric if they are quantities.")
        elif kind == "numeric" and col not in overrides and _diagnosis_codes(col, s):
            # 'diag_1 <= 460 AND diag_1 > 427.7' read ICD-9 codes as amounts (a review)
            kind = "categorical"
            notes.append(f"{col!r}: numbers named as diagnoses are read as codes, each a "
                         "category (ICD-9's 428 and 250.01 are kinds of illness, not "
                         "amounts); set the column's kind to numeric if they are quantities.")
        if kind == "numeric":
            num, note = forced_numbers(s, col)
            if note:
                notes.append(note)
            num[~np.isfinite(num)] = np.nan  # inf is not a value any threshold can use
            # SAS transport files' zero as pandas reads it, 5.397605346934028e-79, written to
            # CSV (a stranger's NHANES extract): no measurement is that small
            # (that value only, 16**-65: a GWAS table's p-values below 1e-70 are data, and
            # were tied at 0 by a first reading of any number that small, a review)
            tiny = num.abs() == SAS_ZERO
            if tiny.any():
                num[tiny] = 0.0
                notes.append(f"{col!r}: {_cells(int(tiny.sum()))} of {SAS_ZERO!r} "
                             f"{'is' if int(tiny.sum()) == 1 else 'are'} read as 0, a SAS "
                             "transport file's zero as pandas reads it.")
            if col in zero_missing:
                zeros = int((num == 0).sum())
                if zeros:
                    num = num.mask(num == 0)
                    if col in zeros_asked:
                        zeros_read.append(col)
                    notes.append(f"{col!r}: {_cells(zeros)} of 0 are read as missing values "
                                 + ("(asked for: 0 means not measured)." if col in zeros_asked
                                    else "as in the column it copies (asked for there)."))
            elif (suspect := zero_suspect(num)) is not None:
                zero_suspects.append(col)
                notes.append(
                    f"{col!r}: {suspect[0]:,} rows hold 0, far below its other values "
                    f"({_number(suspect[1])} to {_number(suspect[2])}). If 0 means not "
                    "measured, read it as missing (Data page; command line: --zero-missing "
                    f"{col!r}); kept as a value, a rule may read 0 as a low value.")
            if (mixed := two_percent_scales(num, str(col))) is not None:
                notes.append(
                    f"{col!r}: {mixed[0]:.0%} of its values are fractions between 0 and 1 "
                    f"(such as {_number(mixed[1])}) and the others percentages up to "
                    f"{_number(mixed[2])}, with none between 1 and 1.5: some rows may be written "
                    "as fractions (0.23) and others as percentages (23). If so, put them on "
                    "one scale before learning; as they are, a rule may cut between the two "
                    "scales instead of at a value.")
            columns[col] = num
        else:
            columns[col] = _as_text(s)
            if kind == "ordinal":
                # an ordered Categorical with the table's whole order: a fold of the rows
                # holding two of its levels keeps it (a review: the fit raised), and a
                # Parquet file's order lives in the dtype only
                order = level_order(s)
                if order is None:
                    raise DataError(f"{col!r} cannot be read as ordered: its levels are not "
                                    "the words of a known scale (such as Low < Medium < "
                                    "High); give their order (Data page, or --order "
                                    "'COL=LOW<...<HIGH').")
                text = columns[col].where(columns[col].isin(order))  # off the scale: missing
                columns[col] = pd.Series(pd.Categorical(text, ordered=True,
                                                        categories=list(order)),
                                         index=s.index)
                off = int(columns[col].isna().sum() - s.isna().sum())
            if kind == "ordinal" and col not in overrides:
                others = s[s.notna() & columns[col].isna()].astype(str).value_counts().index
                # the example a level the column holds (a whole scale, as a calendar's or
                # the credit ratings', may start with steps the table lacks: '<= SD')
                present = set(s.dropna().astype(str))  # once: not per level of the scale
                held = [v for v in order if v in present]
                example = f"'{col} <= {(held[1:] or order[1:])[0]}'"
                if off:
                    notes.append(f"{col!r}: read as an ordered scale ({describe_order(order)}), "
                                 f"so a rule can say {example}; {_cells(off)} off the scale "
                                 f"({', '.join(map(repr, others[:3]))}) read as missing; make "
                                 "it categorical to read its levels unordered.")
                else:  # said once per scale below, where many columns share it
                    on_scale.setdefault(tuple(order), []).append((col, example))
        out_kinds[col] = kind
        roles.append(ColumnRole(col, "feature", True,
                                "" if role == "feature" else f"included by choice ({reason})",
                                role))
    X = pd.DataFrame(columns, index=df.index)
    # a column one-to-one with an earlier feature is left out as its copy (one click back,
    # as any column left out); the features the loader found, not those a user included
    # A column left out by choice takes its copies with it: EPA's POC, a leak, had two
    # copies that came back one rerun at a time, each warned of in its turn
    digests: dict = {}  # each column's values hashed once, here and in _twin_columns
    chosen_out = {r.column: df[r.column] for r in roles if r.detected == "feature"
                  and not r.included and r.column in exclude and r.column in df.columns}
    # ... and so does the record each row belongs to, a key that repeats: a county's FIPS
    # code beside its name, the unit of a WONDER panel, was a category of 60 levels and the
    # rule's 'County Code != 54003' named one county (a corpus file of the stranger's export)
    records = {r.column: df[r.column] for r in roles if r.role == "id" and not r.included
               and r.column in df.columns and r.column not in X.columns
               and bool(df[r.column].duplicated().any())}
    pool = {**chosen_out, **records}
    # (the records first: a copy of one is a copy wherever it stands, 'County Code' before
    # 'County' too, the review)
    # (a readable column before the opaque codes it spells out: of eBird's 'TAXON CONCEPT
    # ID' and 'COMMON NAME', the code came first and was kept, and the rule read
    # 'TAXON CONCEPT ID == avibase-7E3A1A0D' for Canada Goose, a stranger's export)
    features = [r.column for r in roles if r.detected == "feature"
                and (r.included or r.column in chosen_out) and r.column not in include]
    features.sort(key=lambda c: c in X.columns and out_kinds.get(c) == "categorical"
                  and _opaque_codes(X[c]))
    copies = _copy_columns(pd.concat([X, pd.DataFrame(pool)], axis=1)
                           if pool else X, out_kinds, list(records) + features, pool, digests,
                           records)
    if copies:
        X = X.drop(columns=list(copies))
        for col in copies:
            out_kinds.pop(col)
        # what reading said of a copy (its zeros, its codes) is said of its original: a
        # copy left out kept its own note and "Read 0 as missing" button (a review)
        heads = tuple(f"{c!r}:" for c in copies)
        notes = [n for n in notes if not n.startswith(heads)]
        zero_suspects = [c for c in zero_suspects if c not in copies]
        roles = [ColumnRole(r.column, "copy", False, copies[r.column], "copy")
                 if r.column in copies else r for r in roles]
    # the target's own field written twice by the export (Strava's 'Commute', true/false
    # and again 1.0/0.0), one-to-one with it in every row: the same answer, left out as the
    # target's copy (it was warned of as a leak, a stranger's export).  Only a column the
    # file names alike: under another name, a yes/no column that matches a two-class target
    # may be a test that decides it, and the leak warning says both (restated_target)
    for col in roles_mod.repeated_name(target, [str(c) for c in df.columns]):
        if col == target or col not in X.columns or col in include or \
                not _one_to_one(X[col], y):
            continue
        X = X.drop(columns=[col])
        out_kinds.pop(col)
        reason = (f"a copy of the target {target!r}: the file names both "
                  f"{roles_mod.base_name(target)!r}, and each of this column's values goes "
                  "with one class in every row, so it is the target written again")
        roles = [ColumnRole(r.column, "copy", False, reason, "copy")
                 if r.column == col else r for r in roles]
    # a multi-select answer written twice, as KoboToolbox and ODK write it: joined by
    # spaces ('boil filter chlorine') and one 0/1 column per option ('q5/boil'): as a
    # category the joined column gave 'q5 != boil filter chlorine' (a stranger's survey)
    for col, options in _option_columns(X, out_kinds).items():
        if col in include:
            continue
        X = X.drop(columns=[col])
        out_kinds.pop(col)
        shown = ", ".join(map(repr, options[:3])) + (" ..." if len(options) > 3 else "")
        reason = (f"a copy of its options' columns ({shown}, one yes/no column per "
                  "option): each answer is the options ticked, joined by spaces, so it says "
                  "nothing those columns do not, one option at a time")
        roles = [ColumnRole(r.column, "copy", False, reason, "copy")
                 if r.column == col else r for r in roles]
    notes += _scale_notes(on_scale)
    notes += _twin_columns(X, digests)
    id_cols = [r.column for r in roles if r.role in ("index", "id") and not r.included
               and r.column in df.columns]
    ids = df[id_cols].reset_index(drop=True) if id_cols else None
    # rows copied whole (every column alike, far more often than coarse columns coincide):
    # a copy in the held-out rows of a row the rule learned from makes the held-out
    # accuracy optimistic.  Chance is counted on the features alone: the target follows
    # them (that is what a rule learns), so two rows alike in the features are alike in
    # the target too, and a temperature to 0.1 °F that decides a failure repeated rows of
    # two columns "far more often than chance" (a review)
    # a target that comes in bursts over time (failures in the hour before a breakdown):
    # rows next to each other in time are alike, and a random split put a held-out row's
    # neighbours among the training rows; hold out whole periods instead
    periods = None
    # (not a date the name says is the last of something, 'okta_lastLogin', 'last_seen':
    # the state of the record when the table was written, not when its row happened; a
    # target decided by it, accounts disabled after 90 idle days, "came in bursts" over it,
    # and the held-out periods held no disabled account, recall 0 %: a stranger's export)
    when_columns = [(c, w) for c, w in when_columns
                    if not {"last", "latest"} & set(roles_mod.name_words(c))]
    for col, when in when_columns:
        dispersion = bursts_over_time(y.to_numpy(), when)
        if dispersion is not None and dispersion > BURST_DISPERSION:
            periods = time_periods(when).rename(f"period of {col!r}")
            notes.append(f"{target!r} comes in bursts over {col!r}: its rows gather in a few "
                         f"periods (index of dispersion {dispersion:.0f}, about 1 when rows "
                         "are independent of time). A random split would put a held-out "
                         "row's neighbours in time among the training rows and overstate "
                         f"accuracy, so the held-out rows are whole periods ({TIME_BLOCKS} "
                         "blocks of consecutive times).")
            break
    for col, when in when_columns if periods is None else ():
        if is_series(when):
            # one row per date at a regular step (a stock's days, a sensor's hours): rows
            # next in time share their lagged and rolling features, and a random split put
            # each held-out day between two training days (an analyst's review: 98.4 %)
            periods = time_periods(when).rename(f"period of {col!r}")
            # ("are alike (lagged and rolling values)" was said of a survey whose columns
            # hold no such values: a stranger's review; it is the risk, not a finding)
            notes.append(f"The rows are a series, one per {col!r} at a regular step: rows "
                         "next to each other in time can be alike (as lagged and rolling "
                         "values make them), "
                         "and a random split would put each held-out row between training "
                         "rows next to it in time and overstate accuracy, so the held-out "
                         f"rows are whole periods ({TIME_BLOCKS} blocks of consecutive "
                         "times).")
            break
    copies = None
    repeated = df.duplicated()
    n_copies = int(repeated.sum())
    # (one feature: its distinct rows are its distinct values, so chance cannot be told
    # from copies; its repeats are a rounded measurement's as often)
    if df.shape[1] > 2 and n_copies >= max(MIN_COPIES, DUPLICATE_SHARE * len(df)) and \
            n_copies > 3 * chance_copies(df[~repeated].drop(columns=[target]), len(df)) + 3:
        copies = pd.Series(pd.factorize(pd.util.hash_pandas_object(df, index=False))[0])
        # where every column has few values, columns that move together (a donation count
        # and the blood given, 250 c.c. each: transfusion.data) repeat rows by coincidence
        # too, and the count of independent columns cannot tell; say both
        few = int(df.nunique().max())
        why = (f"copies, or rows alike by coincidence: every column has at most {few} values, "
               "and columns that move together (a count and a total) repeat rows more often "
               "than independent ones would" if few <= COARSE_VALUES else "copies, most likely")
        notes.append(f"{n_copies:,} rows repeat another row exactly (every column alike), "
                     f"far more often than independent columns would give: {why}. Each set "
                     "of identical rows is kept on one side of the training / held-out "
                     "split, so that no held-out row is a row the rule learned from.")
    if elsewhere:
        named = ", ".join(map(repr, elsewhere[:6])) + (", …" if len(elsewhere) > 6 else "")
        if record_rows_joined:
            # the record's other values were joined already: "join them first" read as
            # contradicting the note that said so (a stranger's REDCap export)
            notes.append(f"{named}: no value on the {len(df):,} rows that have a {target!r}; "
                         f"their values are on the {dropped:,} rows without one, several to "
                         "a record (a repeating form's rows, as REDCap writes them), so they "
                         "cannot be joined to the outcome's row as the record's other values "
                         "were: left out.")
        else:
            notes.append(f"{named}: no value on the {len(df):,} rows that have a {target!r}; "
                         f"their values are on the {dropped:,} rows without one. An export "
                         "with a row per visit or event (REDCap's longitudinal export writes a "
                         "record's baseline and follow-up on separate rows)? Join those rows to "
                         "the others by the record's key first, one row per record, so that "
                         "each row holds both the features and the outcome.")
    if X.shape[1] == 0:
        left_out = [f"{r.column} ({r.reason})" for r in roles
                    if not r.included and r.role != "target"]
        exc = DataError(f"{name} has no usable feature column: every column besides "
                        f"{target!r} is left out: {'; '.join(left_out[:8])}. Include one of "
                        "them (Data page, or --include on the command line) if it is a real "
                        "feature.")
        # the columns to offer back (the Data page lists them under the error: it told the
        # user to include one there, and showed no way to: a stranger's review)
        exc.left_out = [r.column for r in roles if not r.included
                        and r.role not in ("target", "derived")]
        raise exc
    classes = sorted(labels.tolist(), key=_sort_key)
    counts = y.value_counts()
    if positive is None:
        # the minority class: the one a rule is usually wanted for (ties: first in order),
        # unless two balanced classes make that an accident (BALANCED_SHARE); classes of a
        # handful of rows (a stray value) do not make a table of many classes (a review: a
        # header repeated in the middle was a class of one row, and 'Yes' at 81 % became the
        # default as the most frequent beside a baseline)
        real = [c for c in classes if counts[c] >= MIN_POSITIVE_ROWS]
        if len(real) > 3:
            positive = _default_of_many(real, counts)
        elif len(real) == 3:
            # three classes read as a scale or as kinds alike (low / medium / high, three
            # species): the minority, as before, but never a catch-all (an adversarial
            # review: 'medium' at 52 % made 'low' the default of a risk level)
            named = [c for c in real if not _CATCH_ALL.match(str(c).strip())] or real
            positive = min(named, key=lambda c: (counts[c], classes.index(c)))
        else:
            # one or two classes with rows to learn from: the minority of the two largest
            # (no 185 / yes 9 / unsure 6 is yes, not the stray unsure)
            pair = sorted(classes, key=lambda c: (-counts[c], classes.index(c)))[:2]
            positive = min(pair, key=lambda c: (counts[c], classes.index(c)))
        pair = real if len(real) == 2 else classes
        if len(pair) == 2 and counts[positive] >= BALANCED_SHARE * counts[pair].sum():
            other = next(c for c in pair if c != positive)
            if _says_no(positive) and not _says_no(other):
                positive = other
        if counts[positive] < MIN_POSITIVE_ROWS:
            # the Rule page still learns one (and says how little its held-out rows
            # prove): "too few to learn a rule from" above a certified rule read as a
            # contradiction (a review)
            notes.append(f"Only {int(counts[positive])} rows are of the positive class "
                         f"{show(positive)!r}: too few for a reliable rule. A rule is still "
                         "learned, but its held-out figures rest on a handful of rows. "
                         "Choose another class or target, or add rows.")
    if guessed and chosen_note is not None:
        # (a guess called "the most plausible class column" was read as a finding: an EPA
        # download predicted its instruments' Method Code, a stranger's)
        twice = roles_mod.repeated_name(target, [str(c) for c in df.columns])
        why = ("no column is named as an outcome (such as class, label, outcome, churn, "
               "default) or holds outcome values (Churned / Retained), and "
               + (f"though last in the table, where exports put the outcome, "
                  f"{roles_mod.base_name(target)!r} names {len(twice)} columns of the file: "
                  "an app's export repeating a field, not a table laid out around it"
                  if twice else "it is not the table's last column, where exports put the "
                  "outcome"))
        how = "Choose the column to predict (Data page: Target; command line: --target COLUMN)."
        plain = notes[chosen_note].endswith("the most plausible class column. Choose another "
                                            "target if this is not the one.")
        notes[chosen_note] = (
            f"The target {target!r} is a guess: {why}. It is the rightmost column of "
            f"{'two classes' if len(classes) == 2 else 'a few classes'}. {how}" if plain else
            f"The target {target!r} is a guess: {why}. {how} {notes[chosen_note]}")
    X.attrs[CLOCK_COLUMNS] = tuple(c for c in clocks if c in X.columns and
                                   out_kinds.get(c) == "numeric")
    X.attrs[UNIT_COLUMNS] = {c: u for c, u in units.items() if c in X.columns and
                             out_kinds.get(c) == "numeric"}
    ds = Dataset(name=name, X=X, y=y, kinds=out_kinds, positive=classes[0], notes=tuple(notes),
                 description=description, target=label_name, roles=tuple(roles),
                 target_column=target, threshold=threshold, dropped_rows=dropped, ids=ids,
                 rating=rating, count=count, zero_suspects=tuple(zero_suspects),
                 zero_missing=tuple(zeros_read),
                 missing_codes=tuple(c for c in [*map(str, coded_missing), *codes_read]
                                     if c != target and out_kinds.get(c) == "numeric"),
                 codes_kept=tuple(c for c in kept_codes if c != target and c in X.columns),
                 target_guessed=guessed and chosen_note is not None,
                 labels={c: v for c, v in given_labels.items() if c in column_names},
                 no_answer=tuple(unanswered_rows), copies=copies, periods=periods,
                 decimal_comma=tuple(c for c in decimal_comma if c in X.columns),
                 read_from_text=tuple(c for c in read_from_text if c in X.columns),
                 ticks=tuple(c for c in ticked if c in X.columns),
                 derived=tuple(d for d in derived if d[0] in X.columns),
                 recoded=_recoded_cells(given, origin, X, out_kinds, skip=ticked),
                 units=_unit_factors(given, origin, X, read_from_text, decimal_comma))
    return ds.with_positive(positive)


#: At most this many cells read otherwise, per column, for :attr:`Reading.recoded`: more is
#: no code or spelling but a reading the notes describe (and the export refuses, or leaves
#: to the notes).
MAX_RECODED = 100


def _same_cell(cell: Any, read: Any) -> bool:
    """Whether a cell read as ``read`` is read as written: the same value, or a number read
    as its own text (a JSON field's 150 as the level '150': counted as recoded, a column of
    160 such levels passed :data:`MAX_RECODED` and its code 999 read as missing was lost
    with them, a review)."""
    if cell == read or read is None:
        return cell == read
    if isinstance(cell, float) and isinstance(read, str):
        try:
            return float(read) == cell
        except ValueError:
            return False
    return False


def _recoded_cells(given: pd.DataFrame, origin: np.ndarray, X: pd.DataFrame,
                   kinds: Mapping[str, str], skip: Iterable[str] = ()
                   ) -> tuple[tuple[str, tuple[tuple[Any, Any], ...]], ...]:
    """The cells of ``given`` (the table as given, its rows ``origin`` of ``X``'s) that were
    read as another value in ``X`` (:attr:`Reading.recoded`).

    Told from the cells themselves, not from each reader: a label spelled ``'YES'`` read as
    ``'Yes'``, a survey's ``'Satisfied (A4)'`` as ``'Satisfied'``, ``-999`` or
    ``'unknown'`` in a column of numbers read as missing.  The exported Python read those
    raw cells as written, and so gave 19, 99 and 24 of 300 rows another answer than the app
    (a check of the exports against `rulecore apply`).  A cell read as several values (a
    record's value filled in from its other rows) is left out, as are the cells read as
    missing by every table (``NA``, an empty cell) and, in a numeric column, the numbers
    read as numbers however written (``'1,234'``, ``'72 kg'``: the export reads those
    itself, or refuses them)."""
    if len(origin) != len(X):  # a path that made or merged rows: nothing said
        return ()
    skip = set(skip)
    out = []
    for col in X.columns:
        if col in skip or col not in given.columns:
            continue
        raw = given[col].to_numpy()[origin]
        # numbers as levels (a typed table's survey answers, 1 and 2): the export's text of
        # them is the app's, but for codes read as missing, BRFSS's 7 and 9, which it read
        # as levels of their own (70 of 400 rows another answer, a review)
        levels = pd.api.types.is_numeric_dtype(given[col]) and kinds.get(col) != "numeric"
        numeric = kinds.get(col) == "numeric" or levels
        if numeric and not (pd.notna(raw) & X[col].isna().to_numpy()).any():
            continue  # no present cell read as missing: the usual numeric column
        # each distinct cell once, with each value it was read as (pandas' factorize: one
        # pass in C over the rows, then Python over the distinct pairs only)
        cell_code, cells = pd.factorize(raw)
        read_code, reads = pd.factorize(X[col].to_numpy())
        if numeric:
            # only the cells read as missing wherever they stand count here: picked in
            # numpy first, so the Python below sees the few codes, not every distinct number
            # (a 1M-row column of 372k distinct values took 7.6 s here, a review)
            gone = np.unique(cell_code[(read_code < 0) & (cell_code >= 0)])
            gone = np.setdiff1d(gone, cell_code[read_code >= 0])
            pair = gone.astype(np.int64) * (len(reads) + 1)  # each read as missing (-1)
        else:
            pair = np.unique(cell_code.astype(np.int64) * (len(reads) + 1) + read_code + 1)
        found: dict[Any, set] = {}
        for c, r in zip(pair // (len(reads) + 1), pair % (len(reads) + 1) - 1):
            if c < 0:
                continue
            cell = cells[c]
            if isinstance(cell, (float, np.floating)) and not np.isfinite(cell):
                continue  # 'inf' read as missing: no literal in the exports (NameError)
            if isinstance(cell, str):
                cell = cell.strip()
                if cell in MISSING_TEXT or cell == "":
                    continue  # missing in every table, as the export reads it too
                if kinds.get(col) == "numeric":  # '-999' written as text is the number
                    number = pd.to_numeric(cell, errors="coerce")
                    if not pd.isna(number) and not np.isfinite(number):
                        continue  # 'inf', as above
                    cell = cell if pd.isna(number) else float(number)
            read = None if r < 0 else reads[r]
            found.setdefault(_plain_cell(cell), set()).add(
                None if read is None else _plain_cell(read))
        # a cell read as one value wherever it stands, and read otherwise than written: as
        # missing in a numeric column (-999, 'unknown'), as another label in the others
        changed = {c: next(iter(r)) for c, r in found.items() if len(r) == 1 and (
            next(iter(r)) is None if numeric else not _same_cell(c, next(iter(r))))}
        if 0 < len(changed) <= MAX_RECODED:
            out.append((str(col), tuple(sorted(changed.items(), key=repr))))
    return tuple(out)


#: A cell holding a number with text before or after it: ``72 kg``, ``£399,000``, ``Offers
#: in excess of £399,000``, ``-$1,200``, ``1.2k``, ``4 039 kWh``, ``+2d``, or a time,
#: ``1:02:33``, ``5:12 /km`` (groups: the text before, the number, the text after).
#: Written into the exported Python as it is.
UNIT_CELL = (r"([^\d]*?)\s*(\d+(?::\d\d){1,2}(?:[.,]\d+)?|"
             r"(?:\d[\d,.'\u00a0\u202f ]*)?\d(?:[.,]\d+)?|[.,]\d+)\s*(\D.*)?")
#: The number of a :data:`UNIT_CELL`, as the exported Python reads it, and the key of its
#: factor (the texts around it, an estimate's interval as one text, and a time's number of
#: parts): the same source runs here, to tell the factors, and there (``exec``: one text, so
#: the two cannot differ).
UNIT_NUMBER = """def unit_key(before, after, number):
    import re
    after = (after or "").strip()
    if re.fullmatch(r"[\\[(]\\s*[+-]?[\\d.,]+\\s*(?:-|–|,|;|to)\\s*[+-]?[\\d.,]+\\s*[\\])]", after):
        after = "[interval]"  # '23.4 [19.8-28.1]': an estimate and its interval
    return (before.strip(), after, number.count(":") + 1)
def unit_number(t, comma=False):
    import re
    if ":" in t:  # a time, '1:02:33' or '5:12': in its first part's unit
        return sum(float(p.replace(",", ".")) / 60 ** k for k, p in enumerate(t.split(":")))
    for mark in ("\u00a0", "\u202f", " ", "'"):  # thousands: '4 039', '4'039'
        t = t.replace(mark, "")
    # a comma before one or two last digits is a decimal comma, never thousands' ('72,5 kg'
    # beside '158 lb': read 725, the factor of kg was 0.1 and '90 kg' 9.0, a review)
    comma = comma or ("." not in t and re.search(r",\\d{1,2}$", t) is not None)
    t = t.replace(".", "").replace(",", ".") if comma else t.replace(",", "")
    return float(t)
"""
_unit_space: dict[str, Any] = {}
exec(UNIT_NUMBER, _unit_space)  # noqa: S102 - our own source, above
unit_number: Callable[..., float] = _unit_space["unit_number"]
unit_key: Callable[..., tuple[str, str, int]] = _unit_space["unit_key"]
#: The longest cell read as a number with its unit (:data:`UNIT_CELL`), here and in the
#: exported Python.
MAX_UNIT_CELL = 80
#: At most this many texts around the numbers of one column (:func:`_unit_factors`).
MAX_UNIT_TEXTS = 40


def _unit_factors(given: pd.DataFrame, origin: np.ndarray, X: pd.DataFrame,
                  read_from_text: Iterable[str], decimal_comma: Iterable[str]
                  ) -> tuple[tuple[str, tuple[tuple[str, str, int, float], ...]], ...]:
    """Per column read from text (:attr:`Reading.units`), the factor of each text around
    its numbers: the value read divided by the number written (``kg`` 1, ``t/ha`` 1000
    beside ``kg/ha``, ``k`` 1000, ``d`` 24 among hours, ``-$`` −1; ``m:ss`` read as
    seconds 60, ``h:mm:ss`` 3600, each number of a time's parts apart).  A column is kept only
    where one factor per text gives the app's value of every cell it matches, and it has at
    most :data:`MAX_UNIT_TEXTS` texts; a cell no :data:`UNIT_CELL` (``2 days 04:00:00``
    matches, its text different in every row) is left to the export's refusal.  The
    exported Python raised ValueError on every row of 19 strangers' files for a column such
    as ``72 kg`` or ``£399,000``."""
    if len(origin) != len(X):
        return ()
    comma = set(decimal_comma)
    pattern = re.compile(UNIT_CELL)
    out = []
    for col in dict.fromkeys(read_from_text):
        if col not in X.columns or col not in given.columns or \
                not pd.api.types.is_numeric_dtype(X[col]):
            continue
        raw = given[col].to_numpy()[origin]
        read = X[col].to_numpy(dtype=float)
        code, cells = pd.factorize(raw)
        first = np.full(len(cells), -1)
        rows = np.flatnonzero(code >= 0)[::-1]  # (a missing cell's code, -1, is no cell)
        first[code[rows]] = rows  # a row of each distinct cell, its first
        factors: dict[tuple[str, str, int], list[tuple[float, float]]] = {}
        for k, cell in enumerate(cells):
            value = read[first[k]]
            text = str(cell).strip()
            # (a long cell is no number with its unit, and the pattern backtracks on one of
            # 2,000 characters for a quarter of a second: a review's hostile cells)
            m = pattern.fullmatch(text) if len(text) <= MAX_UNIT_CELL else None
            if m is None or not np.isfinite(value):
                continue  # missing (Reading.recoded), a limit, or written otherwise
            try:
                number = unit_number(m.group(2), col in comma)
            except ValueError:
                factors = {}
                break
            factors.setdefault(unit_key(m.group(1), m.group(3), m.group(2)),
                               []).append((number, value))
            if len(factors) > MAX_UNIT_TEXTS:
                break
        if not factors or len(factors) > MAX_UNIT_TEXTS:
            continue
        said = []
        for key, pairs in factors.items():
            numbers, values = np.array(pairs).T
            nonzero = numbers != 0
            factor = float(np.median(values[nonzero] / numbers[nonzero])) if \
                nonzero.any() else 1.0
            factor = float(f"{factor:.12g}")  # 0.0929030400000001 as 0.09290304
            if not np.allclose(numbers * factor, values, rtol=1e-9, atol=1e-12):
                said = []
                break
            said.append((*key, factor))
        # one cell read otherwise than the rest of its column ('3' beside '3 bed'): every
        # distinct cell is checked above, so a kept column reads all its matched cells
        if said and any(k != ("", "", 1) or f != 1.0 for *k, f in said):
            out.append((str(col), tuple(sorted(said))))
    return tuple(out)


def _plain_cell(v: Any) -> Any:
    """A cell as Python writes it back: a number as a float, anything else as text."""
    if isinstance(v, (bool, np.bool_)):
        return str(v)
    if isinstance(v, (int, float, np.number)):
        return float(v)
    return str(v)


#: A cell written as a measurement: a number with decimals or thousands, perhaps a sign or
#: a currency before it and a short unit after it (``8,091 kg/ha``, ``±1,046``, ``12.5%``).
_MEASURED = re.compile(r"^[+\-±]?[£$€¥₹]?\s?\d{1,3}(?:[,.' ]\d{3})*(?:[.,]\d+)?"
                       r"\s?(?:[A-Za-z/%°²]{1,8})?$")


def _measured_text(col: pd.Series) -> bool:
    """Whether an identifier by its distinct values holds measurements written as text
    (a yield ``8,091 kg/ha``, a margin ``±1,046``): most cells numbers with decimals,
    thousands or a unit.  Such a column is no record to hold out whole: its few equal
    values are coincidences (a stranger's tables were held out "by whole Yield" and "by
    whole S1901_C01_012M")."""
    text = col.dropna().astype(str).str.strip().iloc[:2000]
    if text.empty:
        return False
    marked = text.str.contains(r"\d[,.]\d|[A-Za-z%±]", regex=True)
    return bool(text.str.match(_MEASURED).mean() >= 0.9 and marked.mean() >= 0.5)


def bursts_over_time(y: np.ndarray, when: pd.Series) -> float | None:
    """How much a class's rows gather in time: the rows in time order (ties in file order)
    are cut into :data:`BURST_BINS` periods of equal size, and for each class of at least 20
    rows (and 20 others) the index of dispersion of its counts per period (variance / mean)
    is taken; the largest is returned.  Rows independent of time give about 1 (binomial
    counts); a failure flag set in the hour before three breakdowns of a week-long log gives
    about 90.  None below 200 dated rows."""
    present = when.notna().to_numpy()
    n = int(present.sum())
    if n < 200:
        return None
    rank = when[present].rank(method="first").to_numpy() - 1
    period = np.minimum((rank * BURST_BINS) // n, BURST_BINS - 1).astype(int)
    # (labels as codes: a target of 2 or 'not 2', a REDCap form's status with its blanks
    # read as the other class, was a TypeError in np.unique's sort)
    labels = pd.factorize(pd.Series(np.asarray(y)[present], dtype=object))[0]
    values, counts = np.unique(labels, return_counts=True)
    worst = 0.0
    for value, count in zip(values, counts):
        if count < 20 or n - count < 20:
            continue
        per = np.bincount(period[labels == value], minlength=BURST_BINS)
        worst = max(worst, float(per.var() / per.mean()))
    return worst


def is_series(when: pd.Series) -> bool:
    """Whether dated rows are one series: at least 200 dates, each on one row, and the steps
    between them in time order regular (the commonest step in 60 % of them, none over five
    times it: a trading calendar's weekends and holidays pass, an event log's gaps do not)."""
    present = when.dropna()
    if len(present) < 200 or present.duplicated().any():
        return False
    steps = np.diff(np.sort(present.to_numpy(dtype="datetime64[ns]")).astype(np.int64))
    values, counts = np.unique(steps, return_counts=True)
    common = values[np.argmax(counts)]
    return bool(common > 0 and counts.max() >= 0.6 * len(steps) and steps.max() <= 5 * common)


def time_periods(when: pd.Series) -> pd.Series:
    """Each row's block of consecutive times (:data:`TIME_BLOCKS` blocks of equal size, in
    time order, ties in file order); rows without a date form a block of their own (-1)."""
    present = when.notna().to_numpy()
    out = np.full(len(when), -1)
    rank = when[present].rank(method="first").to_numpy() - 1
    out[present] = np.minimum((rank * TIME_BLOCKS) // max(int(present.sum()), 1),
                              TIME_BLOCKS - 1).astype(int)
    return pd.Series(out)


def chance_copies(distinct: pd.DataFrame, n: int) -> float:
    """How many of ``n`` rows would equal another row by chance if the columns were
    independent: C(n, 2) Π_c q_c, q_c the share of pairs of the ``distinct`` rows (the table
    without its repeats) that agree on column c (Σ_v k_v (k_v − 1) / (m (m − 1)), k_v the
    distinct rows with value v among m; a missing value is a value).  Rows copied whole are
    told from coarse columns alike by coincidence (a visit count and a day count) by
    exceeding this several times over; a column whose distinct rows never share a value (an
    amount to the cent) makes chance 0.  Counting the distinct rows keeps the copies from
    raising their own expectation."""
    m = len(distinct)
    if m < 2:
        return n * (n - 1) / 2
    q_all = 1.0
    for col in distinct.columns:
        k = distinct[col].value_counts(dropna=False).to_numpy(dtype=float)
        q_all *= float(np.sum(k * (k - 1))) / (m * (m - 1))
        if q_all == 0.0:
            return 0.0
    return n * (n - 1) / 2 * q_all


#: Correlation from which two numeric columns are called one rescaled (:func:`_rescaled_columns`).
RESCALED_CORRELATION = 0.99995
#: Most numeric columns, and rows sampled, for that check.
RESCALED_MAX_COLUMNS = 200
RESCALED_MAX_ROWS = 20_000


def _step(v: np.ndarray) -> float:
    """The rounding step of a column's values: the smallest gap between distinct values."""
    u = np.unique(v)
    gaps = np.diff(u)
    return float(gaps[gaps > 0].min()) if (gaps > 0).any() else 0.0


def _affine_within_rounding(a: pd.Series, b: pd.Series) -> bool:
    """Whether ``b`` is ``α a + β`` up to the two columns' rounding: a ratio of 0.914 beside
    91 %, but not an odometer's end reading beside its start (their difference, the trip,
    varies far more than a kilometre: an adversarial review)."""
    both = a.notna() & b.notna()
    x, y = a[both].to_numpy(float), b[both].to_numpy(float)
    alpha, beta = np.polyfit(x, y, 1)
    allowed = 1.5 * (_step(y) + abs(alpha) * _step(x))
    return bool(np.max(np.abs(y - (alpha * x + beta))) <= allowed)


def _rescaled_columns(X: pd.DataFrame, said: set) -> list[str]:
    """Notes on numeric columns that are one another rescaled (an ``attainment_ratio`` of
    0.914 beside ``Attainment`` 91 %; kg beside lb): correlation above
    :data:`RESCALED_CORRELATION` on the rows both hold, three values or more.  A rule may use
    either, and the two read as two findings (a review said nothing pointed it out).
    Copies already ``said`` are left to their own note."""
    num = [c for c in X.columns if pd.api.types.is_numeric_dtype(X[c]) and c not in said
           and not pd.api.types.is_bool_dtype(X[c])]
    if not 2 <= len(num) <= RESCALED_MAX_COLUMNS:
        return []
    sample = X[num].iloc[:RESCALED_MAX_ROWS].astype(float)
    sample = sample.loc[:, sample.nunique() >= 3]
    if sample.shape[1] < 2:
        return []
    with np.errstate(invalid="ignore", divide="ignore"):
        r = sample.corr(min_periods=20).to_numpy()
    out, taken = [], set()
    cols = list(sample.columns)
    for i, j in zip(*np.nonzero(np.triu(np.abs(np.nan_to_num(r)) >= RESCALED_CORRELATION, 1))):
        # (on a tenth of the rows at least: Stripe's 'Disputed Amount', the 'Amount' of the
        # 1 % of payments disputed, was said to rise and fall with it "in every row")
        both = int((sample[cols[i]].notna() & sample[cols[j]].notna()).sum())
        if cols[j] in taken or both < 0.1 * len(sample) or \
                not _affine_within_rounding(sample[cols[i]], sample[cols[j]]):
            continue
        taken.add(cols[j])
        a, b = cols[i], cols[j]
        which = "rise and fall together" if r[i, j] > 0 else "move in opposite directions"
        where = "in every row" if both == len(sample) else (
            f"on the {both:,} rows that hold both" if len(X) <= len(sample) else
            f"on the {both / len(sample):.0%} of rows that hold both")
        out.append(f"{b!r} and {a!r} {which} {where} (correlation {r[i, j]:.4f}): one "
                   "is the other rescaled or converted, most likely, and a rule may use "
                   "either. Leave one out if they measure the same thing.")
        if len(out) >= 5:
            break
    return out


_GROUP_COUNT = re.compile(r"\s*\(\s*[\d,]+\s+records?\s*\)\s*$", re.IGNORECASE)


def _group_rows_filled(df: pd.DataFrame, unlabelled: np.ndarray, target: str
                       ) -> tuple[pd.DataFrame, str] | None:
    """A grouped report's first column: the group's name on a row of its own above its
    records ("Central (149 records)" and empty cells, as Salesforce writes a report grouped
    by Region), empty on the records.  Each record takes the group above it, without the
    count.  Left as it was, Region had no value where the target had one (an analyst's
    review).  ``None`` for any other first column."""
    first = df.columns[0]
    if first == target or len(df.columns) < 3:
        return None
    col = df[first]
    labelled = ~unlabelled
    names = col.astype(str).str.replace(_GROUP_COUNT, "", regex=True).where(col.notna())
    names = names.where(~names.fillna("").str.match(_SUBTOTAL))  # 'Subtotal' is no group
    others = df.drop(columns=[first, target]).notna().sum(axis=1).to_numpy()
    heads = names.notna().to_numpy()
    if not labelled.any() or col[labelled].notna().any() or not heads.any() or \
            others[heads].max() > 0.25 * (df.shape[1] - 2) or not heads[0]:
        return None  # group rows hold the name alone, and the first row is one
    out = df.copy()
    out[first] = names.ffill().where(pd.Series(labelled, index=df.index), names)
    shown = ", ".join(repr(v) for v in names.dropna().unique()[:3])
    return out, (f"{first!r}: each record takes the group named on the row above it ({shown}"
                 f"{', …' if names.nunique() > 3 else ''}), as a grouped report writes them; "
                 "the group rows themselves are no records.")


def _group_block_columns(df: pd.DataFrame) -> list[str] | None:
    """A report's group columns, filled on the group's first row only (an AR-aging report's
    customer, region and account manager above each customer's invoices), or ``None``.

    A text column of names without digits, first or second, present on the first row and on
    at most a quarter of the rows, never the same name on two groups in a row, its groups
    two rows or more and none most of the table (as :func:`filled_down`'s, more of them:
    up to 1,000), and at least one other
    column present on exactly the same rows: a sparse column of answers or remarks shares
    its rows with no other column."""
    n = len(df)
    if n < 20 or df.shape[1] < 4:
        return None
    present: np.ndarray | None = None  # every cell's, only once a column could be a group's
    for j, col in enumerate(df.columns[:2]):
        s = df[col]
        if not isinstance(s, pd.Series) or pd.api.types.is_numeric_dtype(s) or \
                not 4 <= int(s.notna().sum()) <= n / 4:
            continue  # (cheap tests first: this runs on every table loaded)
        # names, without digits: a coupon's code and its amount, on the orders that used
        # one, share their rows too (the review)
        if s.dropna().astype(str).str.contains(r"\d").any():
            continue
        if present is None:
            present = df.notna().to_numpy() & (df.astype(str) != "").to_numpy()
        there = present[:, j]
        if not there[0] or not 4 <= there.sum() <= n / 4:
            continue
        names = s[there].astype(str).str.strip()
        if names.nunique() > 1000 or (names.to_numpy()[1:] == names.to_numpy()[:-1]).any():
            continue
        blocks = np.diff(np.r_[np.flatnonzero(there), n])
        if blocks.min() < 2 or blocks.max() > 0.8 * n:
            continue
        same = [str(c) for k, c in enumerate(df.columns)
                if k != j and np.array_equal(present[:, k], there)]
        if same:
            return [str(col)] + same
    return None


def _zero_or_blank_coded(x: pd.Series) -> bool:
    """Whether a column's commonest value or its blanks hold a fifth of the rows: a number
    that says something by being 0 or absent (rework minutes, a closing date), not a
    measurement spread over many values."""
    if len(x) == 0:
        return False
    counts = x.value_counts(dropna=False, normalize=True)
    return bool(counts.iloc[0] >= 0.2)


def _same_people(names: pd.Series, X: pd.DataFrame) -> bool:
    """Whether rows sharing a name are one person's: some feature of five values or more (an
    age, a date of birth) is the same on every row of nine names in ten that repeat."""
    names = names.reset_index(drop=True)
    multi = names.duplicated(keep=False).to_numpy()
    if not multi.any():
        return False
    keys = names[multi].to_numpy()
    for col in list(X.columns)[:50]:
        x = pd.Series(X[col].to_numpy()[multi])
        if x.nunique() < 5:
            continue
        if float((x.groupby(keys).nunique(dropna=False) == 1).mean()) >= 0.9:
            return True
    return False


def _first_line_fields(df: pd.DataFrame) -> tuple[str, list[str]] | None:
    """The key of a document written on several lines and the columns it fills on its first
    line only (Shopify's orders export: 'Name' #1001 on each line item, the order's email,
    status and totals on the first), or ``None``.

    The key is one of the first three columns, filled on every row, each value on one run of
    rows next to each other, a tenth of the rows or more on a run's later lines.  A column is
    the document's when it is blank on every later line and present on first lines often
    enough that so many blanks by chance would be rarer than one in a thousand
    (``(1 - p) ** m`` with ``p`` its share present on first lines, ``m`` the later lines):
    a line's own sparse column is filled on some later line."""
    n = len(df)
    if n < 20 or df.shape[1] < 4:
        return None
    present: np.ndarray | None = None  # every cell's, only once a column could be a key
    for key in df.columns[:3]:
        k = df[key]
        if not isinstance(k, pd.Series) or k.isna().any():
            continue
        first = k.ne(k.shift()).to_numpy()
        runs = int(first.sum())
        if not 5 <= runs <= 0.9 * n or k.nunique() != runs:
            continue
        later = ~first
        if present is None:
            present = df.notna().to_numpy()
        fields = []
        for j, col in enumerate(df.columns):
            if col == key:
                continue
            there = present[:, j]
            if there[later].any():
                # blank text is no value, but a column with text on a later line is no
                # field: its first few such cells decide most columns (the whole frame as
                # text took 4.9 s of a 200,000-row load: a review)
                cells = df[col][later & there]
                if pd.api.types.is_numeric_dtype(cells) or \
                        (cells.iloc[:200].astype(str) != "").any() or \
                        (cells.astype(str) != "").any():
                    continue
                there = there & (df[col].astype(str) != "").to_numpy()
            p = there[first].mean()
            if p > 0 and (1 - p) ** int(later.sum()) < 1e-3:
                fields.append(str(col))
        if len(fields) >= 2:
            return str(key), fields
    return None


def _joined_by_record(df: pd.DataFrame, unlabelled: np.ndarray,
                      detected: Mapping[str, tuple[str, str]], target: str
                      ) -> tuple[pd.DataFrame, str | None]:
    """A record's values written on its other rows, brought to its rows with a target: REDCap's
    longitudinal export puts a record's baseline (age, bmi, ...) and its follow-up (the
    outcome) on separate rows, and every feature was missing where the outcome was (an
    analyst's review).  Only through a column named as the record's key
    (:func:`rulecore.roles.record_key_name`) that repeats, for columns empty on every row
    with a target, and where each record holds one value of the column (two would be
    different visits' measurements).  Returns the frame and a note, or the frame and None."""
    labelled = ~unlabelled
    grouped = _group_rows_filled(df, unlabelled, target)
    if grouped is not None:
        return grouped
    keys = [c for c in df.columns if c != target and detected.get(c, ("",))[0] in ("id",)
            and roles_mod.record_key_name(str(c)) and df[c].notna().all()
            and df[c].duplicated().any()]
    if not keys or not labelled.any():
        return df, None
    key = df[keys[0]]
    # (not a constant: REDCap's 'redcap_repeat_instrument', one form's name, was "joined"
    # and said so beside the note on what could not be)
    cols = [c for c in df.columns if c not in (target, keys[0])
            and detected.get(c, ("",))[0] not in ("constant", "empty")
            and df.loc[labelled, c].isna().all() and df.loc[unlabelled, c].notna().any()]
    if not cols:
        return df, None
    out = df.copy()
    filled = []
    for c in cols:
        per = df.loc[unlabelled, [keys[0], c]].dropna().groupby(keys[0])[c]
        if (per.nunique() > 1).any():
            continue  # two values for one record: which one belongs to the outcome is unsaid
        value = per.first()
        out.loc[labelled, c] = key[labelled].map(value).to_numpy()
        filled.append(str(c))
    if not filled:
        return df, None
    named = ", ".join(map(repr, filled[:6])) + (", …" if len(filled) > 6 else "")
    return out, (f"{named}: no value on the rows with a {target!r}, and one value on another "
                 f"row of the same {keys[0]!r} (a row per visit or event, as REDCap's "
                 "longitudinal export writes baseline and follow-up): each row with a "
                 f"{target!r} takes its record's value.")


#: From this many columns on one scale, one note says it of them all: a survey's 71 Likert
#: questions made 71 notes, the Data page's column roles thousands of pixels down (a review).
SCALE_NOTE_GROUP = 4


def _scale_notes(on_scale: dict[tuple, list[tuple[str, str]]]) -> list[str]:
    """The notes on columns read as an ordered scale: one per column, or one per scale that
    :data:`SCALE_NOTE_GROUP` or more columns share (``{order: [(column, example)]}``)."""
    notes = []
    for order, cols in on_scale.items():
        if len(cols) < SCALE_NOTE_GROUP:
            notes += [f"{col!r}: read as an ordered scale ({describe_order(order)}), so a rule "
                      f"can say {example}; make it categorical to read its levels unordered."
                      for col, example in cols]
            continue
        named = ", ".join(repr(c) for c, _ in cols[:4]) + (
            f" and {len(cols) - 4} more" if len(cols) > 4 else "")  # not "and 0 more"
        notes.append(f"{len(cols)} columns read as one ordered scale ({describe_order(order)}): "
                     f"{named}, so a rule can say {cols[0][1]}; make one categorical to read "
                     "its levels unordered.")
    return notes


#: A column one-to-one with an earlier one is a copy only where its levels repeat: at least
#: this many rows a level on average (two columns of distinct values pair up by any order),
#: and this many rows in each level of a yes/no column (two flags each set in one row of 30
#: can fall on the same row by chance).
COPY_ROWS_PER_LEVEL = 3
COPY_MIN_FLAG_ROWS = 2
#: ... and no column of fewer present values than this is called a copy.
COPY_MIN_ROWS = 20


def _identical_copies(df: pd.DataFrame, cols: Iterable[str]) -> list[str]:
    """``cols`` and, after each of them, every column of ``df`` holding the same cells in
    every row, so that a reading asked for one column (its zeros as missing, its codes kept
    as numbers) is its exact copy's too."""
    out: list[str] = list(cols)
    asked = [c for c in out if c in df.columns and isinstance(df[c], pd.Series)]
    if not asked:
        return [str(c) for c in out]
    # each column hashed once, as the copy check does (a pass per pair before)
    wanted = {_value_digest(df[c]) for c in asked}
    out += [str(d) for d in df.columns if d not in out and isinstance(df[d], pd.Series)
            and _value_digest(df[d]) in wanted]
    return [str(c) for c in out]


def _copy_columns(X: pd.DataFrame, kinds: dict[str, Kind], candidates: Iterable[str],
                  left_out: Collection[str] = (), digests: dict | None = None,
                  records: Collection[str] = ()) -> dict[str, str]:
    """The ``candidates`` that copy an earlier candidate of ``X``, each with its reason: the
    same value in every row, or (a recoding) each value going with one value of the earlier
    column in every row and the other way round, missing cells included: an ICD-10 code and
    its description, a yes/no flag and its 1/0.  Such a column says nothing its original
    does not, and with both a rule could contradict itself ('code != J44.1 AND description
    == COPD with acute exacerbation', a stranger's NHS extract, printed as a rule that
    never fires).  A recoding counts where the original's terms say each of the copy's: two
    columns of categories, two yes/no columns, or two of numbers in the same order.  A
    column in ``left_out`` (by the user's choice) is never a copy itself,
    but a later column copying it is, whatever the two columns' kinds: it holds what the
    user left out; so are ``records``, identifiers of the record each row belongs to,
    left out (a county's code beside its name names the county).  ``digests`` keeps each
    column's :func:`_value_digest` for :func:`_twin_columns`, which looks at the same
    columns next."""
    candidates = [c for c in candidates if c in X.columns]
    if len(candidates) < 2:
        return {}
    by_values: dict[bytes, str] = {}  # the first column of each run of values
    by_rows: dict[bytes, list[str]] = {}  # the columns of each partition of the rows
    out: dict[str, str] = {}
    origins: dict[str, str] = {}  # each copy's original
    for col in candidates:
        s = X[col]
        present = s.notna().to_numpy()
        counts = s[present].value_counts()
        if len(counts) < 2 or present.sum() < COPY_MIN_ROWS or \
                (len(counts) == 2 and counts.min() < COPY_MIN_FLAG_ROWS):
            continue
        values = _value_digest(s, digests)
        if values in by_values and col not in left_out:
            orig = by_values[values]
            out[col] = _copy_reason(orig, f"it holds the same value as {orig!r} in every row",
                                    orig in left_out, origins, orig in records)
            origins[col] = orig
            continue
        by_values.setdefault(values, col)
        if present.sum() < COPY_ROWS_PER_LEVEL * len(counts):
            continue  # distinct values pair up with any column's: no evidence of a recoding
        # factorize numbers levels by first appearance (missing as a level of its own): two
        # columns one-to-one, missing cells alike, get the same codes
        codes, _ = pd.factorize(s, use_na_sentinel=False)
        rows = hashlib.sha1(codes.astype(np.int64).tobytes()).digest()
        alike = by_rows.setdefault(rows, [])
        orig = None if col in left_out else next(
            (o for o in alike if o in left_out or _recodes(X[o], s, kinds.get(o),
                                                           kinds.get(col), present)), None)
        alike.append(col)
        if orig is None:
            continue
        # an example whose two values differ ("such as 0 with 0" said little: a stranger's
        # ticket export, where free tickets paid no fee)
        partner = pd.Series(X[orig][present].to_numpy(), index=s[present].to_numpy())
        partner = partner[~partner.index.duplicated()]
        v = next((v for v in counts.index[:20] if str(partner[v]) != str(v)), counts.index[0])
        u = partner[v]
        out[col] = _copy_reason(orig, "each of its values goes with one of that column's in "
                                f"every row, and the other way round (such as {_said(v)} "
                                f"with {_said(u)})", orig in left_out, origins,
                                orig in records)
        origins[col] = orig
    return out


def _option_columns(X: pd.DataFrame, kinds: Mapping[str, str]) -> dict[str, list[str]]:
    """Categorical columns of ``X`` written again as one 0/1 column per option, each with
    those columns: ``q5`` beside ``q5/boil``, ``q5/filter`` ... (``/``, ``.``, ``-``, ``_``
    or ``:`` after the name), every word of its answers an option with a column, and each
    row's words the options ticked on it (KoboToolbox's and ODK's select_multiple)."""
    out: dict[str, list[str]] = {}
    names = [str(c) for c in X.columns]
    # each name's possible question, the part before its last separator: one pass, not a
    # scan of every name per column
    children: dict[str, dict[str, str]] = {}
    for n in names:
        for i in range(len(n) - 2, 0, -1):
            if n[i] in "/.-_:":
                children.setdefault(n[:i], {})[n[i + 1:]] = n
    for col in names:
        options = children.get(col, {})
        if kinds.get(col) != "categorical" or len(options) < 2:
            continue
        text = X[col].astype("string")
        present = text.notna().to_numpy()
        # each row's words as yes/no columns, to compare with the options' own columns
        said = text[present].str.get_dummies(sep=" ")
        if not present.any() or not set(said.columns) <= set(options):
            continue
        said = said.reindex(columns=list(options), fill_value=0).to_numpy() == 1
        ticked = np.column_stack([pd.to_numeric(X[c], errors="coerce").to_numpy()[present]
                                  == 1 for c in options.values()])
        if np.array_equal(said, ticked):
            out[col] = list(options.values())
    return out


def _side_table(df: pd.DataFrame, target: Any = None
                ) -> tuple[Any, list[Any], int] | None:
    """A second table beside the first: after a column empty in every row (and unnamed,
    ``column 10``), columns filled only on their first ``k`` rows, ``k`` at most a quarter
    of the rows and 2 at least, where the columns before the gap are filled further down.
    Returns ``(the empty column, the columns after it, k)``, else None (also when the target
    is among those columns)."""
    n = len(df)
    if n < 20 or df.shape[1] < 4:
        return None
    filled = df.notna().to_numpy()
    for i in range(1, df.shape[1] - 1):
        gap = df.columns[i]
        if filled[:, i].any() or not re.fullmatch(r"column \d+", str(gap)):
            continue
        right = filled[:, i + 1:]
        rows = right.any(axis=1)
        k = int(rows.sum())
        if not 2 <= k <= 0.25 * n or not rows[:k].all():
            continue  # not a block at the top
        if filled[k:, :i].any(axis=1).sum() < 0.5 * (n - k):
            continue  # the left table ends there too
        cols = list(df.columns[i + 1:])
        if target is not None and str(target) in map(str, cols):
            return None
        return gap, cols, k
    return None


def _plain_measure_names(name: Any) -> bool:
    """Whether a column is named as Tableau names the measures of a crosstab's rows."""
    return str(name).strip().casefold() == "measure names"


def _measures_pivoted(df: pd.DataFrame) -> tuple[pd.DataFrame, str, list] | None:
    """A crosstab with its measures on rows, as Tableau downloads it (``Region, Sub-Category,
    Measure Names, 2021, 2022, Grand Total``: Sales, Profit, Quantity on a row each), as one
    row per combination of the columns before ``Measure Names``, with a column per measure
    and column after it (``Sales 2021``, ``Profit Grand Total``; ``Measure Values`` alone
    gives the measure's name), the note saying so, and the columns pivoted.  None when there
    is no such column, or the combinations are not each on one row per measure."""
    at = next((i for i, c in enumerate(df.columns) if _plain_measure_names(c)), None)
    if at is None or at == 0 or at == df.shape[1] - 1:
        return None
    name = df.columns[at]
    dims, values = list(df.columns[:at]), list(df.columns[at + 1:])
    if df[name].isna().any() or df.duplicated(dims + [name]).any():
        return None
    # every combination with every measure (a crosstab cut short would leave holes)
    if (df.groupby(dims, dropna=False, sort=False)[name].nunique()
            != df[name].nunique()).any():
        return None
    measures = list(dict.fromkeys(df[name].astype(str).str.strip()))
    wide = df.assign(**{name: df[name].astype(str).str.strip()}).set_index(
        dims + [name])[values].unstack(name)
    only = len(values) == 1 and str(values[0]).strip().casefold() == "measure values"
    wide.columns = [str(m) if only else f"{m} {v}" for v, m in wide.columns]
    wide = wide[[str(m) if only else f"{m} {v}" for m in measures for v in values]]
    out = wide.reset_index()
    shown = ", ".join(map(repr, measures[:4])) + (" ..." if len(measures) > 4 else "")
    return out, (f"{name!r} names what each row measures ({shown}), as a crosstab download "
                 f"puts its measures on rows: pivoted to one row per "
                 f"{', '.join(map(repr, map(str, dims)))} ({len(out):,} rows from "
                 f"{len(df):,}), a column per measure and column ({out.columns[len(dims)]!r} "
                 "...), so each column holds one measure."), values


def _one_to_one(a: pd.Series, b: pd.Series) -> bool:
    """Whether each value of ``a`` (missing a value too) goes with one of ``b`` in every
    row, and the other way round."""
    # factorize numbers values by first appearance (missing a value of its own): two columns
    # one-to-one get the same codes, as _copy_columns reads a recoding
    return np.array_equal(pd.factorize(a, use_na_sentinel=False)[0],
                          pd.factorize(b, use_na_sentinel=False)[0])


def _value_digest(s: pd.Series, digests: dict | None = None) -> bytes:
    """A digest of a column's values and dtype (20 bytes, not 8 per row), alike for two
    columns holding the same values; kept in ``digests`` by name, so that the copy check and
    the twin notes hash each column once."""
    if digests is not None and s.name in digests:
        return digests[s.name]
    key = hashlib.sha1(str(s.dtype).encode() + pd.util.hash_pandas_object(
        s, index=False).to_numpy().tobytes()).digest()
    if digests is not None:
        digests[s.name] = key
    return key


def _copy_reason(orig: str, how: str, orig_left_out: bool, origins: dict[str, str],
                 record: bool = False) -> str:
    """Why a column is left out as a copy of ``orig`` (:func:`_copy_columns`), naming the
    column kept where ``orig`` is a copy itself (``origins``: each copy's original)."""
    kept = orig
    while kept in origins:
        kept = origins[kept]
    if kept != orig:
        how += f" ({orig!r} is left out as a copy of {kept!r})"
    if record:
        return (f"a copy of {orig!r}, the record each row belongs to: {how}, so it names "
                "the record rather than describing it, and is left out with it")
    if orig_left_out:
        return (f"a copy of {orig!r}, which is left out by choice: {how}, so it holds what "
                f"that column does and is left out with it; include this column to use it "
                "in its place")
    return (f"a copy of {orig!r}: {how}, so it says nothing that column does not; left out "
            "so that a rule cannot test both and contradict itself")


def _opaque_codes(s: pd.Series) -> bool:
    """Whether a column's values are codes a reader cannot read: nine in ten of its distinct
    values (the first hundred) one word of letters and digits, ``avibase-7E3A1A0D``,
    ``J44.1``, ``L123456``, where a name beside them would say ``Canada Goose``.  (Numbers
    alone are not: a flag's 1 and 0, a station's POC.)"""
    values = [str(v).strip() for v in s.dropna().unique()[:100]]
    coded = sum(1 for v in values if " " not in v and any(ch.isdigit() for ch in v)
                and any(ch.isalpha() for ch in v))
    return bool(values) and coded >= 0.9 * len(values)


def _recodes(a: pd.Series, b: pd.Series, kind_a: str | None, kind_b: str | None,
             present: np.ndarray) -> bool:
    """Whether ``a``'s terms say each of ``b``'s, for two columns one-to-one on their rows:
    two yes/no columns, two of categories, or two of numbers in the same order (a threshold
    on one is then a threshold on the other: °C and °F)."""
    if b[present].nunique() == 2 or kind_a == kind_b == "categorical":
        return True
    if kind_a == kind_b == "numeric":
        # in the same order only: in the opposite one the copy's quantile cuts fall
        # elsewhere, and without negations its '<=' is the original's '>', which is no term
        # (a review: 'rank <= 8.5', exact, became 'score > 23.5'); on the rows both hold (a
        # zero read as missing in one stands for the other's 0)
        both = present & a.notna().to_numpy()
        pairs = pd.DataFrame({"a": a[both], "b": b[both]}).drop_duplicates()
        return bool((np.diff(pairs.sort_values("a")["b"].to_numpy(float)) > 0).all())
    return False


def _said(value: Any) -> str:
    """A level as a reason quotes it: text in quotes, a number as written."""
    if isinstance(value, str):
        return repr(value)
    return (roles_mod.format_number(value) if isinstance(value, (int, float, np.number))
            else repr(value))


def _twin_columns(X: pd.DataFrame, digests: dict | None = None) -> list[str]:
    """Notes on feature columns a reader may take for one another: the same value in every
    row (an export's ``income_usd`` beside ``Annual Income``; a rule may use either), and
    names that differ only in capitals or spaces (``Score`` and ``score``).  A review found
    neither said.  ``digests``: the columns' :func:`_value_digest` already made."""
    out = []
    seen: dict[bytes, str] = {}
    copies: list[tuple[str, str]] = []  # (copy, the column it copies)
    for col in X.columns:
        s = X[col]
        key = _value_digest(s, digests)
        if key in seen and s.nunique(dropna=True) > 1:
            copies.append((str(col), seen[key]))
        else:
            seen.setdefault(key, str(col))
    # the parts of one date copying another's ('start (month)', 'start (weekday)', 'start
    # (hour)' those of 'SubmissionDate': a form's start and submission) said once, not a
    # note a part (six notes on a stranger's ODK export)
    part = re.compile(r"^(.*) \((year|month|weekday|hour)\)$")
    by_pair: dict[tuple[str, str], list[str]] = {}
    for col, first in copies:
        a, b = part.match(col), part.match(first)
        if a and b and a.group(2) == b.group(2):
            by_pair.setdefault((a.group(1), b.group(1)), []).append(a.group(2))
    said: set[tuple[str, str]] = set()
    for col, first in copies:
        a = part.match(col)
        b = part.match(first)
        pair = (a.group(1), b.group(1)) if a and b else None
        if pair in by_pair and len(by_pair[pair]) > 1:
            if pair not in said:
                parts = by_pair[pair]
                out.append(f"The {', '.join(parts[:-1])} and {parts[-1]} of {pair[0]!r} are "
                           f"those of {pair[1]!r} in every row: copies, and a rule may use "
                           "either. Leave one date out if they mean the same.")
                said.add(pair)
            continue
        out.append(f"{col!r} holds the same value as {first!r} in every row: a copy, "
                   "and a rule may use either. Leave one out if they mean the same.")
    out += _rescaled_columns(X, {c for c in X.columns if any(repr(str(c)) in n for n in out)})
    names: dict[str, str] = {}
    for col in map(str, X.columns):
        plain = re.sub(r"\s+", " ", col).strip().casefold()
        if plain in names and names[plain] != col:
            out.append(f"Columns {names[plain]!r} and {col!r} differ only in capitals or "
                       "spaces: they are two columns; a rule names them as written.")
        names.setdefault(plain, col)
    return out


#: A subtotal's label, the whole cell: "East Total", "Subtotal", "Grand Total: Q3"; not a
#: store called "Total Wine & More" (an adversarial review).
_SUBTOTAL = re.compile(r"^(?:.+\s)?(?:sub)?totals?$|^(?:sub|grand)\s?totals?(?::.*)?$|"
                       # QuickBooks' "Total for Amy's Bird Sanctuary" (a stranger's report)
                       r"^(?:sub)?totals?\s+(?:for|of)\s+\S.*$|"
                       # an AR-aging report's "Subtotal Alpen GmbH" (a stranger's workbook);
                       # not "Total ..." alone, a store's name
                       r"^sub[\s-]?totals?[:\s]+\S.*$", re.IGNORECASE)


#: Qualtrics' ``Status`` values (as text, and as the codes of a numeric export) of no
#: respondent's answers: the survey's author trying it, and spam ...
SURVEY_TEST_STATUS = frozenset({"survey preview", "survey test", "offline survey preview",
                                "1", "2", "17"})
SURVEY_SPAM_STATUS = frozenset({"spam", "preview spam", "imported spam", "8", "9", "12"})
#: ... and of a respondent's (through the link, imported, offline, edited).
SURVEY_ANSWER_STATUS = frozenset({"ip address", "imported", "offline", "edited",
                                  "0", "4", "16"})


def _survey_test_responses(df: pd.DataFrame) -> np.ndarray:
    """The rows of a Qualtrics export (``Status`` beside ``ResponseId``) whose Status says
    they are no respondent's (:data:`SURVEY_TEST_STATUS`, :data:`SURVEY_SPAM_STATUS`):
    ``Survey Preview``, ``Survey Test``, ``Spam``, or their codes 1, 2 and 8 (0 is a
    response)."""
    out = np.zeros(len(df), dtype=bool)
    if "Status" not in df.columns or "ResponseId" not in df.columns:
        return out
    status = df["Status"].astype(str).str.strip().str.lower().str.replace(
        r"\.0$", "", regex=True)
    unanswered = SURVEY_TEST_STATUS | SURVEY_SPAM_STATUS
    if status.isin(unanswered | SURVEY_ANSWER_STATUS).mean() < 0.9:
        return out
    tests = status.isin(unanswered).to_numpy()
    # (every row one of them: a table of previews alone is what the user loaded)
    return tests if not tests.all() else out


def _subtotal_rows(df: pd.DataFrame) -> np.ndarray:
    """The rows of a report's subtotals inside a table: a label of :data:`_SUBTOTAL` in one
    of the first three columns ("Total for Cool Cars", "East Total") and at most a third of
    the cells filled (the label and its sums), where records fill most of theirs; or any
    number filled, where the label's column holds only 'Total' and blanks (CDC WONDER's
    'Notes')."""
    hit = np.zeros(len(df), dtype=bool)
    if df.shape[1] < 3 or len(df) < 5:
        return hit
    for col in df.columns[:3]:
        cells = df[col]
        if pd.api.types.is_numeric_dtype(cells):
            continue
        text = cells.dropna().astype(str)
        text = text[text.str.contains("total", case=False, regex=False)].str.strip()  # a sieve
        hit |= cells.index.isin(text[text.str.match(_SUBTOTAL)].index)
    if not hit.any():
        return hit
    sparse = df.notna().sum(axis=1).to_numpy() <= max(2, df.shape[1] // 3)
    # a column that marks them and holds nothing else, blank on the records: CDC WONDER's
    # 'Notes' says 'Total' on each county's and state's total row, its sums filled in (60
    # county totals were learned from as records: a stranger's download)
    for col in df.columns[:3]:
        cells = df[col]
        marked = cells.notna().to_numpy()
        if pd.api.types.is_numeric_dtype(cells) or not 0 < marked.sum() <= 0.5 * len(df):
            continue
        words = cells.dropna().astype(str).str.strip().str.casefold().unique()
        if set(words) <= _TOTAL_WORDS:
            sparse |= marked
    # a crosstab's 'Total' under each group in a column of names, and its 'Grand Total',
    # every sum filled in (Tableau: 172 of 3,028 rows were learned from as records, a
    # stranger's download): the whole cell, on a quarter of the rows at most, among three
    # names or more
    # (each closing its group: the row above holds the same columns before it, the row
    # below another group; a claims table's 'Total' damage, a category of its own on rows
    # anywhere, lost 50 rows: an adversarial review)
    # (in the first column, the table's own total: the rows at its end, Tableau's 'Grand
    # Total' per measure)
    for j, col in enumerate(df.columns[:3]):
        cells = df[col]
        if pd.api.types.is_numeric_dtype(cells):
            continue
        text = cells.astype("string").str.strip().str.casefold()
        exact = text.isin(_TOTAL_WORDS).fillna(False).to_numpy(dtype=bool)
        if not exact.any() or exact.sum() > 0.25 * len(df) or text[~exact].nunique() < 3:
            continue
        at = np.flatnonzero(exact)
        if j == 0:
            closes = at >= len(df) - len(at)
        else:
            left = pd.util.hash_pandas_object(df.iloc[:, :j], index=False).to_numpy()
            # a run of them (one a measure, Tableau's) closes its group as one
            first = at[np.r_[True, np.diff(at) > 1]]
            last = at[np.r_[np.diff(at) > 1, True]]
            closes = (first > 0) & (left[np.maximum(first - 1, 0)] == left[first]) & (
                (last == len(df) - 1) | (left[np.minimum(last + 1, len(df) - 1)]
                                         != left[last]))
        if closes.all():
            sparse |= exact
    return hit & sparse


#: A subtotal row's whole label, alone in its cell.
_TOTAL_WORDS = frozenset({"total", "totals", "subtotal", "sub-total", "grand total"})


def _heading_rows(df: pd.DataFrame) -> np.ndarray:
    """The lines of a heading inside a table: words in the first cell alone, where the
    first column is filled in every other row and records fill three cells or more
    (Lending Club's loan book starts its second part with 'Loans that do not meet the
    credit policy').  At most three such lines and 1% of the rows: a column filled only on
    a group's first row is a group's name (:func:`filled_down`)."""
    hit = np.zeros(len(df), dtype=bool)
    if df.shape[1] < 3 or len(df) < 20:
        return hit
    filled = df.notna().to_numpy()
    first = df.iloc[:, 0]
    alone = filled[:, 0] & (filled.sum(axis=1) == 1)
    if not alone.any() or alone.sum() > min(3, 0.01 * len(df)):
        return hit
    others = ~alone
    if not filled[others, 0].all() or np.median(filled[others].sum(axis=1)) < 3:
        return hit
    text = first[alone].astype(str).str.strip()
    # words, not a value of the column's own kind: a letter and no cell like the records'
    words = text.str.contains(r"[^\W\d_]{3}", regex=True) & ~text.isin(
        set(first[others].astype(str).str.strip()))
    hit[np.flatnonzero(alone)[words.to_numpy()]] = True
    return hit


def _subtotals_said(rows: pd.DataFrame) -> str:
    """What the rows dropped for a missing target are, when some are a spreadsheet's
    subtotals ('East Total' between the regions: a review read only "no value").  Column by
    column, no Python call per row (a row-wise pass took 6 s of a 200,000-row load)."""
    if rows.empty:
        return ""
    named = pd.Series(False, index=rows.index)
    shown: list[str] = []
    for col in rows.columns:
        cells = rows[col]
        if pd.api.types.is_numeric_dtype(cells):
            continue
        text = cells.dropna().astype(str)
        text = text[text.str.contains("total", case=False, regex=False)].str.strip()  # a sieve
        hit = text[text.str.match(_SUBTOTAL)]
        if len(hit):
            named[hit.index] = True
            shown += [v for v in hit.unique()[:4] if v not in shown]
    if not named.any():
        return ""
    many = "all" if named.all() else f"{int(named.sum()):,}"
    return (f", {many} of them subtotals ("
            f"{', '.join(map(repr, shown[:3]))}{', ...' if len(shown) > 3 else ''}), not records")


def _default_of_many(classes: list, counts: pd.Series) -> Any:
    """The default positive class among ``classes``, four or more, each with at least
    :data:`MIN_POSITIVE_ROWS` rows (the caller leaves out the rest).

    Catch-alls (``Other``, ``misc``: not a thing to describe) are passed over while another
    class is left.  When a
    baseline holds at least half the rows, or a class's name says no, none or normal, the
    target reads as "which kind of event, if any" (``Normal`` against seven diagnoses), and
    the default is the most frequent of the other classes: it has the most rows to learn
    from.  The rarest of those (a review: ``Brady``, 57 rows of 3,000) got a rule no better
    than chance, while ``Arrhythmia`` (186 rows) gave the planted rule.  Without a baseline
    it is the minority class, as for two classes; ties go to the first in order.  A CRM's
    lifecycle stages predict Customer."""
    # a CRM's lifecycle stages: Customer, where the funnel ends (its rarest stage, an
    # Opportunity, was the default: a stranger's HubSpot export)
    if roles_mod.lifecycle_stages(classes):
        return next(c for c in classes if roles_mod._letters(str(c)) == "customer")
    share = counts[classes] / counts[classes].sum()
    # a name that says no is a baseline only as a word: class 0 of eleven vowels is a vowel
    baseline = {c for c in classes
                if share[c] >= 0.5 or (_says_no(c) and not _is_number(str(c).strip()))}
    candidates = [c for c in classes
                  if c not in baseline and not _CATCH_ALL.match(str(c).strip())] or classes
    if baseline:
        return max(candidates, key=lambda c: (counts[c], -classes.index(c)))
    return min(candidates, key=lambda c: (counts[c], classes.index(c)))


#: Class names of a catch-all, never the default positive class among many.
_CATCH_ALL = re.compile(r"^(other|others|misc|miscellaneous|rest|sonstige|autre|autres)"
                        r"([\s_\-:.,]|$)", re.IGNORECASE)


def _says_no(label: Any) -> bool:
    """Whether a class's name says no, none or absence (:data:`_NEGATIVE_NAME`)."""
    return bool(_NEGATIVE_NAME.match(str(label).strip()))


def to_numeric(X: pd.DataFrame, kinds: Mapping[str, Kind] | None = None) -> pd.DataFrame:
    """A float frame for models that need numbers: :func:`rulecore.encode.to_numeric`
    (one-hot for categoricals with few levels, top levels plus "other" for the rest)."""
    from rulecore.encode import to_numeric as _to_numeric

    return _to_numeric(X, kinds)


def train_test_indices(y: np.ndarray, test_size: float, seed: int, groups: Any = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Stratified train/test row indices (falls back to a plain split for tiny classes).

    ``groups`` (one value per row, e.g. :attr:`Dataset.groups`): every group's rows fall on
    one side, the held-out share and the classes kept as near as whole groups allow
    (``StratifiedGroupKFold``'s first fold of ``round(1 / test_size)``)."""
    from sklearn.model_selection import StratifiedGroupKFold, train_test_split

    idx = np.arange(len(y))
    if not 0.0 < test_size < 1.0:
        raise DataError("The test share must be between 0 and 1.")
    k = max(2, round(1 / test_size))  # folds whose first is the held-out share
    if groups is not None and pd.Series(groups).nunique() >= k:
        with warnings.catch_warnings():
            # "The least populated class in y has only 2 members, which is less than
            # n_splits=4" reached a stranger's command line, naming a setting they never
            # chose; a class missing from the training side is checked just below
            warnings.filterwarnings("ignore", "The least populated class", UserWarning)
            tr, te = next(StratifiedGroupKFold(k, shuffle=True, random_state=seed)
                          .split(idx, y, np.asarray(groups)))
        if len(np.unique(np.asarray(y)[tr])) == len(np.unique(y)):
            return np.sort(tr), np.sort(te)
    try:
        tr, te = train_test_split(idx, test_size=test_size, random_state=seed, stratify=y)
    except ValueError:
        tr, te = train_test_split(idx, test_size=test_size, random_state=seed)
    return np.sort(tr), np.sort(te)


def list_samples() -> list[str]:
    """Names of the bundled samples (see :mod:`rulecore.samples`), the default first."""
    from rulecore.samples import list_samples as _list

    return _list()


def load_sample(name: str, **options: Any) -> Dataset:
    """Load a bundled sample by name; raises :class:`DataError` for an unknown name.

    ``options`` as for :func:`from_frame` (another target, positive class, columns).
    """
    from rulecore.samples import load_sample as _load

    return _load(name, **options)
