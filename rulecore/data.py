"""Loading tables into a :class:`Dataset`: CSV files, bundled samples, column kinds.

A :class:`Dataset` is what every page and estimator starts from: the feature frame ``X``,
the raw target ``y``, the inferred column kinds and the chosen positive class (one-vs-rest
for multi-class targets).  Everything a user can get wrong in a file raises
:class:`~rulecore.exceptions.DataError` with a message that says what to fix.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Literal

import numpy as np
import pandas as pd

from rulecore.exceptions import DataError

Kind = Literal["numeric", "categorical"]

#: Limits checked before and after parsing; the app's upload limit matches MAX_BYTES.
MAX_BYTES = 200 * 1024 * 1024
MAX_ROWS = 1_000_000
MAX_COLUMNS = 2_000
#: Integer columns with at most this many distinct values are read as categories
#: (a 0/1 flag reads better as ``smoker == 1`` than as ``smoker > 0.5``).
CATEGORICAL_MAX_INT_LEVELS = 2
#: Text columns in which every value is distinct and there are more of them than this are
#: identifiers (names, ids), which no rule should use.
IDENTIFIER_MIN_LEVELS = 50

_NA_VALUES = ["", "?", "NA", "N/A", "NaN", "nan", "null", "NULL", "None", "-"]


@dataclass(frozen=True)
class Dataset:
    """A table ready for learning.

    Attributes
    ----------
    name : str
        Display name (file name or sample name).
    X : DataFrame of shape (n_samples, n_features)
        The features; numeric columns are float, categorical columns are strings
        (``NaN`` where missing).
    y : Series of shape (n_samples,)
        The raw target labels.
    kinds : dict
        ``column -> "numeric" | "categorical"`` for every column of ``X``.
    positive : object
        The label treated as class 1 in binary (one-vs-rest) views.
    notes : tuple of str
        What loading changed (dropped columns, dropped rows), for the user to read.
    description : str
        What the data is; for synthetic samples, the planted rule.
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    kinds: dict[str, Kind]
    positive: Any = None
    notes: tuple[str, ...] = ()
    description: str = ""
    target: str = "target"
    _digest: list = field(default_factory=list, repr=False, compare=False)

    @property
    def classes(self) -> list:
        """Target labels in sorted order (the first is the default positive class)."""
        return sorted(self.y.unique().tolist(), key=_sort_key)

    @property
    def y_binary(self) -> np.ndarray:
        """0/1 target of shape (n_samples,): 1 where ``y == positive``."""
        return (self.y.to_numpy() == self.positive).astype(np.int64)

    @property
    def n_samples(self) -> int:
        return len(self.X)

    @property
    def digest(self) -> str:
        """Content hash of features, target, kinds and positive class (for cache keys)."""
        if not self._digest:
            h = hashlib.sha1()
            h.update(pd.util.hash_pandas_object(self.X, index=False).to_numpy().tobytes())
            h.update(pd.util.hash_pandas_object(self.y, index=False).to_numpy().tobytes())
            h.update(repr((list(self.X.columns), sorted(self.kinds.items()))).encode())
            self._digest.append(h.hexdigest())
        return self._digest[0] + ":" + repr(self.positive)

    def with_positive(self, label: Any) -> Dataset:
        """The same data with ``label`` as the positive class."""
        if label not in set(self.y.tolist()):
            raise DataError(f"{label!r} is not a class of the target {self.target!r}; "
                            f"the classes are {self.classes}.")
        return replace(self, positive=label, _digest=list(self._digest))

    def with_kinds(self, overrides: Mapping[str, Kind]) -> Dataset:
        """The same data with some column kinds changed (values converted to match)."""
        X = self.X.copy()
        kinds = dict(self.kinds)
        for col, kind in overrides.items():
            if col not in X.columns:
                raise DataError(f"There is no column {col!r} to change.")
            if kind == kinds[col]:
                continue
            if kind == "numeric":
                num = pd.to_numeric(X[col], errors="coerce")
                bad = num.isna() & X[col].notna()
                if bad.any():
                    example = X[col][bad].iloc[0]
                    raise DataError(f"Column {col!r} cannot be numeric: {int(bad.sum())} values "
                                    f"such as {example!r} are not numbers.")
                X[col] = num.astype(float)
            elif kind == "categorical":
                X[col] = _as_text(X[col])
            else:
                raise DataError(f"Unknown column kind {kind!r}; use 'numeric' or 'categorical'.")
            kinds[col] = kind
        return replace(self, X=X, kinds=kinds, _digest=[])


def _sort_key(v: Any) -> tuple:
    return (0, v, "") if isinstance(v, (int, float, np.number)) else (1, 0, str(v))


def _as_text(s: pd.Series) -> pd.Series:
    """Categorical values as strings; integral floats lose their '.0' (2.0 -> '2')."""
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


def _decode(data: bytes, name: str) -> str:
    if not data.strip():
        raise DataError(f"{name} is empty.")
    if b"\x00" in data[:65536]:
        raise DataError(f"{name} looks like a binary file, not a CSV text table.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DataError(
            f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}). "
            "Save it as 'CSV UTF-8' in your spreadsheet program and upload it again."
        ) from None


def _sniff(text: str) -> tuple[str, bool]:
    """Delimiter and whether the first row is a header."""
    sample = "\n".join(text.splitlines()[:50])
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        delimiter = ","
    rows = list(csv.reader(io.StringIO(sample), delimiter=delimiter))
    rows = [r for r in rows if any(c.strip() for c in r)]
    if len(rows) < 2:
        return delimiter, True

    def numeric(cell: str) -> bool:
        try:
            float(cell.strip())
            return True
        except ValueError:
            return False

    first, rest = rows[0], rows[1:]
    # A header is a first row with no numbers above rows that have numbers, or the first row
    # Python's sniffer calls a header.  A row of all-text values over all-text values is
    # taken as a header too: files without a header and without numbers are rare.
    if any(numeric(c) for c in first):
        return delimiter, False
    if any(numeric(c) for r in rest for c in r):
        return delimiter, True
    try:
        return delimiter, csv.Sniffer().has_header(sample) or True
    except csv.Error:
        return delimiter, True


def load_csv(
    source: str | os.PathLike | IO,
    target: str | None = None,
    *,
    positive: Any = None,
    kinds: Mapping[str, Kind] | None = None,
    name: str | None = None,
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    max_columns: int = MAX_COLUMNS,
) -> Dataset:
    """Read a CSV table into a :class:`Dataset`.

    Parameters
    ----------
    source : path or file-like
        The CSV (bytes or text).  Delimiter (``, ; tab |``) and header are sniffed.
    target : str, optional
        Target column; default the last column.
    positive : optional
        Positive class; default the first class in sorted order.
    kinds : mapping, optional
        Column kind overrides, ``{"age": "categorical"}``.
    name : str, optional
        Display name; default the file name.
    max_bytes, max_rows, max_columns : int
        Size limits; larger inputs raise :class:`DataError`.

    Raises
    ------
    DataError
        For an empty, binary, non-UTF-8 or unparseable file, duplicate column names, a
        missing target column, a target with one class, or no usable feature.
    """
    data, fname = _read_bytes(source, max_bytes)
    # Old Mac files end lines with a bare CR; the csv module wants \n.
    text = _decode(data, fname).replace("\r\n", "\n").replace("\r", "\n")
    delimiter, header = _sniff(text)
    try:
        first = next(csv.reader(io.StringIO(text), delimiter=delimiter), [])
    except csv.Error as exc:
        raise DataError(f"{fname} could not be read as a table: {exc}.") from None
    n_fields = len(first)
    if n_fields > max_columns:
        raise DataError(f"{fname} has {n_fields} columns; the limit is {max_columns}.")
    if header:
        names = [c.strip() for c in first]
        seen: dict[str, int] = {}
        for c in names:
            seen[c] = seen.get(c, 0) + 1
        dups = [c for c, k in seen.items() if k > 1 and c]
        if dups:
            raise DataError(f"{fname} has duplicate column names: {', '.join(map(repr, dups))}. "
                            "Rename them so every column has its own name.")
        names = [c if c else f"column {i + 1}" for i, c in enumerate(names)]
    else:
        names = [f"x{i + 1}" for i in range(n_fields)]
    try:
        df = pd.read_csv(io.StringIO(text), sep=delimiter, header=None,
                         skiprows=1 if header else 0, names=names, na_values=_NA_VALUES,
                         keep_default_na=True, skipinitialspace=True, dtype=str,
                         skip_blank_lines=True, nrows=max_rows + 1, engine="c")
    except (pd.errors.ParserError, ValueError, csv.Error) as exc:
        raise DataError(f"{fname} could not be read as a table: {_first_line(exc)}. "
                        "Check that every row has the same number of fields.") from None
    except pd.errors.EmptyDataError:
        raise DataError(f"{fname} has no rows.") from None
    if len(df) > max_rows:
        raise DataError(f"{fname} has more than {max_rows:,} rows; sample it and try again.")
    df = df.map(lambda v: v.strip() if isinstance(v, str) else v)
    return from_frame(df, target=target, positive=positive, kinds=kinds,
                      name=name or fname, typed=False)


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


# --------------------------------------------------------------------------- frames

_THOUSANDS = r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$"
_DECIMAL_COMMA = r"^[+-]?\d+,\d+$"


def parse_numbers(s: pd.Series) -> pd.Series:
    """Text cells as numbers when *every* present value is one.

    Accepts plain numbers, thousands separators (``1,234,567.5``) and decimal commas
    (``3,14``, common with ``;``-separated files).  A column with any other text stays text.
    """
    present = s.dropna()
    if present.empty or pd.api.types.is_numeric_dtype(s):
        return s
    text = present.astype(str).str.strip()
    num = pd.to_numeric(text, errors="coerce")
    if num.notna().all():
        return pd.to_numeric(s, errors="coerce")
    plain = num.notna()
    thousands = text.str.match(_THOUSANDS)
    decimal = text.str.match(_DECIMAL_COMMA)
    # "1,234" fits both patterns: read it as thousands (three digits after every comma), and
    # "3,14" as a decimal comma.  Mixed with plain numbers either way is fine.
    if (thousands | plain).all() and thousands.any():
        return pd.to_numeric(s.astype(str).str.replace(",", "", regex=False).where(
            s.notna()), errors="coerce")
    if (decimal | plain).all() and decimal.any():
        return pd.to_numeric(s.astype(str).str.replace(",", ".", regex=False).where(
            s.notna()), errors="coerce")
    return s



def infer_kind(s: pd.Series) -> Kind:
    """``numeric`` for numbers (but integer 0/1-like flags are categorical), else categorical."""
    if pd.api.types.is_bool_dtype(s):
        return "categorical"
    num = s if pd.api.types.is_numeric_dtype(s) else pd.to_numeric(s, errors="coerce")
    present = s.notna()
    if present.sum() == 0 or num[present].isna().any():
        return "categorical"
    values = num[present].to_numpy(dtype=float)
    if np.all(np.isfinite(values)) and np.all(values == np.round(values)):
        if len(np.unique(values)) <= CATEGORICAL_MAX_INT_LEVELS:
            return "categorical"
    return "numeric"


def from_frame(
    df: pd.DataFrame,
    target: str | None = None,
    *,
    positive: Any = None,
    kinds: Mapping[str, Kind] | None = None,
    name: str = "table",
    description: str = "",
    typed: bool = True,
) -> Dataset:
    """Build a :class:`Dataset` from a DataFrame holding features and target.

    ``typed=False`` means every cell is still text (as read from a CSV): numeric columns are
    parsed here.  Columns that carry no information (all missing, constant, or identifiers)
    are dropped and listed in ``Dataset.notes``.
    """
    if df.shape[1] == 0 or len(df) == 0:
        raise DataError(f"{name} has no rows." if df.shape[1] else f"{name} has no columns.")
    if df.columns.duplicated().any():
        dups = sorted(set(df.columns[df.columns.duplicated()].astype(str)))
        raise DataError(f"{name} has duplicate column names: {', '.join(dups)}.")
    df = df.copy()
    df.columns = [str(c) for c in df.columns]
    target = df.columns[-1] if target is None else str(target)
    if target not in df.columns:
        raise DataError(f"There is no column {target!r} to predict; the columns are "
                        f"{', '.join(map(repr, df.columns[:20]))}"
                        f"{' ...' if df.shape[1] > 20 else ''}.")
    if df.shape[1] < 2:
        raise DataError(f"{name} has only one column ({target!r}); it needs at least one "
                        "feature column beside the target.")
    notes: list[str] = []
    y_raw = df.pop(target)
    if not typed:
        y_num = pd.to_numeric(y_raw, errors="coerce")
        if y_raw.notna().sum() and y_num[y_raw.notna()].notna().all():
            y_raw = y_num
    missing_y = y_raw.isna()
    if missing_y.all():
        raise DataError(f"The target column {target!r} is empty.")
    if missing_y.any():
        notes.append(f"Dropped {int(missing_y.sum())} rows with no value in {target!r}.")
        df, y_raw = df[~missing_y.to_numpy()], y_raw[~missing_y]
    y = y_raw.map(lambda v: int(v) if isinstance(v, (float, np.floating)) and float(v).is_integer()
                  else v).reset_index(drop=True)
    y.name = target
    df = df.reset_index(drop=True)
    labels = y.unique()
    if len(labels) < 2:
        raise DataError(f"The target {target!r} has a single class ({labels[0]!r}); a "
                        "classifier needs at least two.")

    overrides = dict(kinds or {})
    unknown = set(overrides) - set(df.columns)
    if unknown:
        raise DataError(f"Cannot set the kind of unknown columns: {', '.join(sorted(unknown))}.")
    columns: dict[str, pd.Series] = {}
    out_kinds: dict[str, Kind] = {}
    for col in df.columns:
        s = df[col]
        if s.isna().all():
            notes.append(f"Dropped column {col!r}: every value is missing.")
            continue
        if s.nunique(dropna=True) <= 1:
            notes.append(f"Dropped column {col!r}: it has a single value.")
            continue
        if not typed:
            s = parse_numbers(s)
        kind = overrides.get(col) or infer_kind(s)
        if kind == "numeric":
            num = pd.to_numeric(s, errors="coerce").astype(float)
            bad = num.isna() & s.notna()
            if bad.any():
                raise DataError(f"Column {col!r} cannot be numeric: values such as "
                                f"{s[bad].iloc[0]!r} are not numbers.")
            num[~np.isfinite(num)] = np.nan  # inf is not a value any threshold can use
            columns[col] = num
        else:
            text = _as_text(s)
            n_levels = text.nunique(dropna=True)
            if col not in overrides and n_levels >= IDENTIFIER_MIN_LEVELS and \
                    n_levels == text.notna().sum():
                notes.append(f"Dropped column {col!r}: every value is different (an identifier).")
                continue
            columns[col] = text
        out_kinds[col] = kind
    X = pd.DataFrame(columns, index=df.index)
    if X.shape[1] == 0:
        raise DataError(f"{name} has no usable feature column: every column besides "
                        f"{target!r} is empty, constant or an identifier.")
    classes = sorted(labels.tolist(), key=_sort_key)
    if positive is None:
        positive = classes[0]
    ds = Dataset(name=name, X=X, y=y, kinds=out_kinds, positive=classes[0], notes=tuple(notes),
                 description=description, target=target)
    return ds.with_positive(positive) if positive != classes[0] else ds


def to_numeric(X: pd.DataFrame, kinds: Mapping[str, Kind] | None = None) -> pd.DataFrame:
    """A float frame for models that need numbers.

    Categorical columns become one 0/1 column per level (``"job=Rep"``); missing numeric values
    become the column median (missing categories are all-zero rows of their block).
    """
    kinds = dict(kinds or {c: infer_kind(X[c]) for c in X.columns})
    parts = []
    for col in X.columns:
        if kinds.get(col, "numeric") == "numeric":
            s = pd.to_numeric(X[col], errors="coerce").astype(float)
            parts.append(s.fillna(s.median() if s.notna().any() else 0.0).rename(col))
        else:
            dummies = pd.get_dummies(X[col], prefix=col, prefix_sep="=", dtype=float)
            parts.append(dummies)
    if not parts:
        return pd.DataFrame(index=X.index)
    return pd.concat(parts, axis=1)


def train_test_indices(y: np.ndarray, test_size: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Stratified train/test row indices (falls back to a plain split for tiny classes)."""
    from sklearn.model_selection import train_test_split

    idx = np.arange(len(y))
    if not 0.0 < test_size < 1.0:
        raise DataError("The test share must be between 0 and 1.")
    try:
        tr, te = train_test_split(idx, test_size=test_size, random_state=seed, stratify=y)
    except ValueError:
        tr, te = train_test_split(idx, test_size=test_size, random_state=seed)
    return np.sort(tr), np.sort(te)


def list_samples() -> list[str]:
    """Names of the bundled samples (see :mod:`rulecore.samples`), the default first."""
    from rulecore.samples import list_samples as _list

    return _list()


def load_sample(name: str) -> Dataset:
    """Load a bundled sample by name; raises :class:`DataError` for an unknown name."""
    from rulecore.samples import load_sample as _load

    return _load(name)
