"""A learned rule: a conjunction (AND) or disjunction (OR) of :class:`~rulecore.rules.terms.Term`.

:class:`Rule` evaluates itself on a table (condition by condition, for the checklist view) and
exports itself as text, Markdown, JSON (which round-trips), an SQL ``WHERE`` clause and a Python
function.  Exports are safe to paste: identifiers are quoted, strings escaped, and no text
export starts a line with a spreadsheet formula character.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from rulecore.data import (
    _APPROXIMATE,
    _CENSORED,
    _CODED,
    _KEY_VALUE,
    _LIMIT_ABOVE,
    _LIMIT_ABOVE_CT,
    _LIMIT_BELOW,
    MAX_UNIT_CELL,
    MISSING_TEXT,
    NAME_FIELDS,
    NO_OPTION,
    SPREADSHEET_ERRORS,
    TYPESET_DASHES,
    UNIT_CELL,
    UNIT_NUMBER,
    Reading,
    limit_above,
)
from rulecore.encode import text_names
from rulecore.exceptions import DataError
from rulecore.roles import (
    _ISO_WEEK,
    _ISO_ZONE,
    _ZONE,
    DATE_YEARS,
    EXCEL_DAYS,
    ISO_WEEKS,
    PARTIAL_DATE,
    PARTIAL_DATES,
    UNIX_MILLISECONDS,
    UNIX_SECONDS,
    WEEKDAYS,
    WINDOWS_FILETIME,
    YYYYMMDD,
)
from rulecore.rules.terms import BOOL_LEVELS, Term, format_value, level_key, positive_rows

RuleType = Literal["and", "or"]
#: The one name of a rule (or clause) without conditions, used by every page and export: an
#: empty AND-rule holds for every row, an empty OR-rule for none.
EMPTY_RULE = {"and": "TRUE (every row)", "or": "FALSE (no row)"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """Neutralise text a spreadsheet would run as a formula (prefix an apostrophe)."""
    # (a negative number written as text runs as nothing but itself: '-91.69 kept its
    # apostrophe in a table written back whole, a review)
    if text.startswith(_FORMULA_START) and not _NUMBER_TEXT.fullmatch(text):
        return "'" + text
    return text


_NUMBER_TEXT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def safe_csv(df: pd.DataFrame, **to_csv: Any) -> bytes:
    """CSV bytes in which no text cell or header would run as a spreadsheet formula."""
    out = df.copy()
    out.columns = [safe_cell(str(c)) for c in out.columns]
    for k in range(out.shape[1]):
        s = out.iloc[:, k]
        if not pd.api.types.is_numeric_dtype(s):
            out.isetitem(k, s.map(lambda v: safe_cell(v) if isinstance(v, str) else v))
        elif pd.api.types.is_float_dtype(s) and s.notna().any() and bool(
                (s.dropna() == s.dropna().round()).all() and s.abs().max() < 2 ** 53):
            # whole numbers read as floats beside a missing cell: 7471, not 7471.0, so the
            # ids join back to the source table (a review)
            out.isetitem(k, s.astype("Int64"))
    # the row numbers the page shows, named (an empty header read as a broken column), never
    # as a column of the table is ('row,row,x': an adversarial review)
    if out.index.name is not None:
        out.index.name = safe_cell(str(out.index.name))
    elif out.index.nlevels == 1:
        name = "row"
        while name in set(map(str, out.columns)):
            name = f"_{name}"
        out.index.name = name
    return out.to_csv(**to_csv).encode("utf-8")


def sql_identifier(name: str) -> str:
    """A double-quoted SQL identifier (embedded quotes doubled)."""
    return '"' + str(name).replace('"', '""') + '"'


_WHOLE = re.compile(r"-?\d{1,15}")


def sql_spellings(level: Any) -> list[str]:
    """The texts a cell of a level may hold in a database, as :func:`level_keys` compares
    them: a True/False level in every spelling of :data:`BOOL_LEVELS` and as 1/0, a whole
    number also as ``1.0``.  A bool column is stored as 0/1 by most tools (pandas' to_sql,
    sqlite) and as text by others; ``= 'True'`` chose no row of a 0/1 column, and
    ``= '1'`` no cell of text ``1.0`` that ``predict`` matched (brute-force reviews)."""
    text = str(level)
    key = level_key(level)
    said = [text] + [s for s, k in BOOL_LEVELS.items() if k == key] + [key]
    if _WHOLE.fullmatch(key):
        said.append(key + ".0")
    return list(dict.fromkeys(said))


def _sql_ordinal(c: Term, recoded: dict | None = None) -> str:
    """An ordinal condition in SQL: the cell is one of the levels it holds for (as written,
    or as a cell the app read as that level: ``recoded``); ``is missing`` is NULL or off the
    scale, as ``predict`` reads it."""
    col = sql_identifier(c.feature)
    levels = c.order if c.missing_test else c.levels_held()
    said = ", ".join(sql_literal(t) for v in levels for t in _sql_cells_of(v, recoded))
    if c.op == "is missing":
        return f"({col} IS NULL OR {col} NOT IN ({said}))"
    return f"{col} IN ({said})" if said else "1 = 0"


def _sql_cells_of(level: Any, recoded: dict | None) -> list[str]:
    """The cells that hold ``level`` to the app: its spellings (:func:`sql_spellings`) and
    the cells it read as that level (``recoded``: :attr:`Reading.recoded`'s table of the
    column, ``'Satisfied (A4)'`` as ``'Satisfied'``)."""
    key = level_key(level)
    return list(dict.fromkeys(sql_spellings(level) + [
        str(cell) for cell, read in (recoded or {}).items()
        if read is not None and level_key(read) == key]))


def _sql_missing_cells(recoded: dict | None, numeric: bool) -> list[Any]:
    """The cells the app read as missing (``-999``, ``'Not completed or Not displayed'``):
    in a column compared with numbers, its numbers only (a text among numbers is no number
    to SQL either)."""
    return [cell for cell, read in (recoded or {}).items() if read is None and (
        not numeric or isinstance(cell, float))]


def sql_literal(value: Any) -> str:
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return format_value(float(value))
    return "'" + str(value).replace("'", "''") + "'"


def plain(v: Any) -> Any:
    """A numpy scalar as the Python value it holds (for JSON and generated code)."""
    return v.item() if isinstance(v, np.generic) else v


#: The export's arguments before :class:`Reading` gathered them (``export(fmt, notes,
#: decimal_comma=...)``, ``to_python(name, decimal_comma=..., ticks=...)``).
_LEGACY_READING = ("decimal_comma", "read_from_text", "ticks")


def _as_reading(reading: Any, legacy: dict[str, Iterable[str]]) -> Reading:
    """``reading``, or one made of the arguments it replaced, with a ``DeprecationWarning``:
    a notebook that passed ``decimal_comma=`` (or the columns in its place) kept working
    when the three lists became one :class:`Reading` (a review: the signature changed with
    no warning)."""
    unknown = set(legacy) - set(_LEGACY_READING)
    if unknown:
        raise TypeError(f"unexpected keyword argument {sorted(unknown)[0]!r}")
    if isinstance(getattr(reading, "reading", None), Reading):
        reading = reading.reading  # a Dataset given for its reading: what was meant
    if reading is not None and not isinstance(reading, Reading):
        # the columns in the old place: any iterable of names (a list, a pandas Index,
        # dict keys, a generator: each worked before, a review)
        try:
            columns = None if isinstance(reading, str) or "decimal_comma" in legacy \
                else list(reading)
        except TypeError:
            columns = None
        if columns is None or not all(isinstance(c, str) for c in columns):
            raise DataError("reading must be a rulecore.data.Reading (Dataset.reading) or, "
                            "deprecated, the names of the columns read with a decimal comma, "
                            f"not {type(reading).__name__}.")
        legacy = {"decimal_comma": columns, **legacy}
        reading = None
    if not legacy:
        return reading or Reading()
    if reading is not None:
        raise DataError("Give reading= or the lists it holds (decimal_comma=, "
                        "read_from_text=, ticks=), not both.")
    import warnings

    warnings.warn("decimal_comma=, read_from_text= and ticks= are deprecated: pass "
                  "reading=Dataset.reading (a rulecore.data.Reading).", DeprecationWarning,
                  stacklevel=3)
    return Reading(**{k: tuple(map(str, v)) for k, v in legacy.items()})


class _Exportable:
    """``export(fmt)`` by format name and ``to_json``, shared by :class:`Rule`,
    :class:`RuleSet` and :class:`RuleList` (each defines ``to_dict`` and ``from_json``)."""

    def to_json(self, indent: int | None = 2) -> str:
        """JSON that ``from_json`` reads back into an equal object."""
        return json.dumps(self.to_dict(), indent=indent, default=str)

    def export(self, fmt: str, notes: Iterable[str] = (), reading: Reading | None = None,
               **legacy: Iterable[str]) -> str:
        """Export by format name: ``text``, ``markdown``, ``json``, ``sql`` or ``python``.

        ``notes`` say how the table's cells were read before the rule compared them
        (:meth:`rulecore.data.Dataset.notes_for`: ``-999`` read as missing, ``72 kg`` as
        72, ``YES`` as ``Yes``).  The code and text formats carry them as comments, so that
        whoever runs the rule on the raw table knows to read it the same way; JSON stays the
        rule alone (``from_json`` reads it back).  ``reading``
        (:attr:`rulecore.data.Dataset.reading`): how the cells were read, which the Python
        function does itself on a raw row (:meth:`Rule.to_python`).  ``decimal_comma=``,
        ``read_from_text=`` and ``ticks=`` (the arguments before :class:`Reading`) still
        work, with a ``DeprecationWarning``."""
        reading = _as_reading(reading, legacy)
        makers = {"text": self.to_text, "markdown": self.to_markdown, "json": self.to_json,
                  "sql": lambda: self.to_sql(reading),
                  "python": lambda: self.to_python(reading=reading)}
        if fmt not in makers:
            raise DataError(f"Unknown export format {fmt!r}; choose from {', '.join(makers)}.")
        out = makers[fmt]()
        notes = list(notes)
        written_with_comma = set(reading.decimal_comma)
        comma = [f for f in self.features if f in written_with_comma]
        if fmt == "python" and comma:
            # predict() reads these columns' decimal commas itself, so the note telling the
            # reader to convert them first was wrong of the Python code (a review); a note that
            # also names a rule column written otherwise ('4 039') still needs saying
            notes = [n for n in notes if not n.startswith("Numbers in ") or any(
                f"{f!r} (" in n for f in self.features if f not in comma)]
            notes.append(f"{', '.join(map(repr, comma))}: numbers written with a decimal "
                         "comma ('60,6' is 60.6); num() below reads them so, as the app did.")
        recoded = [f for f in self.features if f in dict(reading.recoded)]
        if fmt in ("python", "sql") and recoded:
            # the notes ask the reader to read those cells first, which the code now does
            notes.append(f"{', '.join(map(repr, recoded))}: the cells these notes read as "
                         "another value or as missing, " + (
                             "predict() reads so itself (READ below)" if fmt == "python"
                             else "the conditions below read so themselves") + ", as the "
                         "app did.")
        head = "Compared on the values as read; apply the same reading to the raw table:"
        if fmt == "sql":
            # one /* */ block: what the SQL selects and needs, then the notes; never a first
            # character a spreadsheet reads as a formula ("-", "=", "+", "@")
            lines = self._sql_header() + ([head] + [textwrap.fill(
                n, 88, initial_indent="", subsequent_indent="  ", break_long_words=False,
                break_on_hyphens=False) for n in notes] if notes else [])
            body = "\n".join(lines).replace("*/", "* /")  # a name cannot end the comment
            return "/* " + body.replace("\n", "\n   ") + " */\n" + out
        if not notes or fmt == "json":
            return out
        if fmt == "python":
            # wrapped, so the code shows and prints whole (a note runs to 200 characters)
            lines = [f"# {head}"] + [
                textwrap.fill(n, 88, initial_indent="# ", subsequent_indent="#   ",
                              break_long_words=False, break_on_hyphens=False) for n in notes]
            return "\n".join(lines) + "\n" + out
        if fmt == "markdown":
            return out.rstrip("\n") + "\n\n" + "\n".join(
                [f"> {head}"] + [f"> - {n}" for n in notes]) + "\n"
        # wrapped as the code's comments are: a note runs to 200 characters, and the app shows
        # the text in a box of fixed width
        return out.rstrip("\n") + "\n\n" + "\n".join([head] + [textwrap.fill(
            n, 88, initial_indent="  ", subsequent_indent="    ", break_long_words=False,
            break_on_hyphens=False) for n in notes]) + "\n"


    def _sql_header(self) -> list[str]:
        """What the exported SQL selects, and what it needs of the table: a column of text
        compares as text ('11' < '5.5'), as sqlite stores a CSV it imports (a review of the
        exports: 103 of 800 rows wrong on a table read so)."""
        conds = self.conditions if isinstance(self, Rule) else \
            [t for c in self.clauses for t in c.conditions]
        what = (f"The class of {self.target} by the rule list (the first rule that holds)."
                if isinstance(self, RuleList) else f"Selects the rows predicted "
                f"{self._head()}; the others are predicted otherwise.")
        numbers = ["Columns compared with numbers must be stored as numbers: a column of text "
                   "compares as text ('11' < '5.5'), and text such as 'n/a' is not NULL."] if any(
                       t.numeric or (t.missing_test and t.value == "numeric")
                       for t in conds) else []
        # sqlite's .import stores an empty CSV cell as '', which passed "city <> 'A'" where
        # the rule reads a missing value (a review: 55 of 400 rows)
        empty = ["An empty cell must be NULL: an empty text ('') is a value to SQL, and "
                 "importing a CSV often stores one (UPDATE your_table SET col = NULL WHERE "
                 "TRIM(col) = '')."] if any(not t.numeric for t in conds) else []
        return [" ".join(what.split("\n"))] + numbers + empty


#: A date and time in ISO 8601 as pandas' ``format="ISO8601"`` reads them, separators loose
#: (``2024-03-01T10:00``, ``2023/08/19 05:00:00``, ``2024-3-1``, ``20240301``): the
#: exported Python's reader; ``datetime.fromisoformat`` refused the slashes.
_ISO_LOOSE = (r"(\d{4})(?:[-/. ]?(\d{1,2})(?:[-/. ]?(\d{1,2}))?)?"
              r"(?:[T ]\s*(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?(?:[.,]\d+)?)?")
#: The ways :func:`rulecore.roles.read_dates` says dates were written as numbers.
_NUMBER_WAYS = (YYYYMMDD, EXCEL_DAYS, UNIX_SECONDS, UNIX_MILLISECONDS, WINDOWS_FILETIME)


#: The exported Python's reader of a feature made from another column (:class:`Reading`'s
#: ``derived``): the row's own value when it has the feature, else the date part or the
#: option of the raw column, as :func:`rulecore.roles.date_features` and
#: :func:`rulecore.roles.choice_features` make them (a time zone written after the time is
#: kept out of the parts, which are the local time as written, as the app reads them).
_DERIVE = [
    "    def derive(row, key, source, part, way):",
    "        if key in row:  # the table the rule was learned on has it",
    "            return row[key]",
    "        v = row[source]",
    "        try:",
    "            if v is None or v != v or isinstance(v, str) and v.strip() in MISSING:",
    "                return None",
    "        except TypeError:  # pandas' NA",
    "            return None",
    "        how = (' in ' + repr(source) + ' cannot be read here as the rule read it (' + key",
    "               + '): read the table as it was read then (rulecore apply RULE.json TABLE'",
    "               + ' does), or give the row ' + repr(key) + ' itself.')",
    "        if part == 'pair':  # a log line's key=value, 'method=POST path=/v1'",
    "            import re",
    f"            for m in re.finditer({_KEY_VALUE.pattern!r}, str(v)):",
    "                if m.group(1) == key[len(source) + 1:]:  # the key's first value",
    "                    got = next((g for g in m.groups()[1:] if g is not None), '')",
    "                    return got if got != '' else None",
    "            return None",
    "        if part == 'field':  # a JSON object's field, {\"category\": \"mobile\"}",
    "            import json",
    "            try:",
    "                obj = json.loads(v) if isinstance(v, str) else v",
    "            except ValueError:",
    "                if str(v).lstrip().startswith('{'):",
    "                    raise ValueError(repr(v) + how) from None",
    "                return None  # plain text among the objects ('offline'): no field",
    "            def walk(o, path):  # nested objects' keys joined by '.'",
    "                if not isinstance(o, dict):",
    "                    return None",
    "                if path in o:",
    "                    return o[path]",
    "                for k in o:",
    "                    if path.startswith(str(k) + '.'):",
    "                        return walk(o[k], path[len(str(k)) + 1:])",
    "                return None",
    "            got = walk(obj, key[len(source) + 1:])",
    "            if isinstance(got, (list, dict)):",
    "                return json.dumps(got)",
    "            if isinstance(got, bool):",
    "                return 'true' if got else 'false'",
    "            return None if got == '' else got",
    "        if part == 'option':  # a multi-select answer, 'API;Live chat'",
    "            v = str(v).strip()",
    "            if v[:1] == '{' and v[-1:] == '}':  # PostgreSQL's array, {sms,\"live chat\"}",
    "                items = [p.strip().strip('\"') for p in v[1:-1].split(',')]",
    "            elif v[:1] == '[':  # a JSON list, [\"promo\", \"cart\"]; [] ticks none",
    "                import json",
    "                try:",
    "                    items = [str(next((p[k] for k in "
    f"{NAME_FIELDS!r} if isinstance(p.get(k), (str, int, float)) and not "
    "isinstance(p.get(k), bool) and str(p[k]).strip()), p) if isinstance(p, dict) "
    "else p).strip()",
    "                             for p in json.loads(v)] or "
    f"[{NO_OPTION!r}]",
    "                except (ValueError, TypeError):",
    "                    raise ValueError(repr(v) + how) from None",
    "            else:",
    "                items = [p.strip() for p in v.split(way)]",
    "            return 'yes' if key[len(source) + 2:] in items else 'no'",
    "        from datetime import date, datetime, timedelta",
    "        if hasattr(v, 'item') and not isinstance(v, datetime):  # a numpy scalar",
    "            v = v.item()",
    f"        if way == {PARTIAL_DATES!r}:  # 20220314, 202203, 2022; or 2022-03-14, 2022-03",
    "            import re",
    "            t = str(v).strip()",
    "            try:  # a number written 20220314.0",
    "                t = str(int(float(t))) if float(t) == int(float(t)) else t",
    "            except (ValueError, OverflowError):",
    "                pass",
    f"            m = re.fullmatch({PARTIAL_DATE.pattern!r}, t)",
    "            if m is None:",
    "                raise ValueError(repr(v) + how)",
    "            if part == 'year':",
    "                return float(m.group(1))",
    "            if part == 'month':  # none where the year alone is given",
    "                return float(m.group(3)) if m.group(3) else None",
    "            if m.group(4) is None:  # a weekday needs the day",
    "                return None",
    "            v = datetime(int(m.group(1)), int(m.group(3)), int(m.group(4)))",
    f"        if isinstance(v, str) and way in {_NUMBER_WAYS!r}:",
    "            try:  # a date written as a number, '45123'",
    "                v = float(v.strip())",
    "            except ValueError:",
    "                raise ValueError(repr(v) + how) from None",
    "        if isinstance(v, (int, float)) and not isinstance(v, bool):",
    f"            if way == {EXCEL_DAYS!r}:  # days since 1899-12-30, a fraction the time",
    # (to the millisecond, as the app reads them: 45292.7083333333 was 16:59:59.999997,
    # hour 16 where the app said 17, a review)
    "                v = datetime(1899, 12, 30) + timedelta(milliseconds=round(v * 86400000))",
    f"            elif way == {UNIX_SECONDS!r}:",
    "                v = datetime(1970, 1, 1) + timedelta(seconds=v)",
    f"            elif way == {UNIX_MILLISECONDS!r}:",
    "                v = datetime(1970, 1, 1) + timedelta(milliseconds=v)",
    f"            elif way == {WINDOWS_FILETIME!r}:  # 100-ns ticks since 1601; 0: never",
    "                if v <= 0 or v >= 2**63 - 1:",
    "                    return None",
    "                v = datetime(1601, 1, 1) + timedelta(seconds=round(v / 1e7))",
    f"            elif way == {YYYYMMDD!r} and v == int(v):",
    "                v = str(int(v))",
    "        if isinstance(v, str):",
    "            import re",
    "            t = v.strip()",
    "            # the time zone after a time dropped: the parts are the local time as written",
    f"            t = re.sub({_ZONE.pattern!r}, '', t)",
    f"            t = re.sub({_ISO_ZONE.pattern!r}, r'\\1', t)",
    "            got = None",
    f"            if way == {ISO_WEEKS!r}:  # '2024-W07': the week's Monday",
    f"                m = re.fullmatch({_ISO_WEEK.pattern!r}, t)",
    "                if m:",
    "                    got = datetime.strptime(m.group(1) + '-W' + m.group(2) + '-1',",
    "                                            '%G-W%V-%u')",
    "            else:  # the formats the app read the column with, the first that reads it",
    f"                for f in ['%Y%m%d'] if way == {YYYYMMDD!r} else (way or 'ISO8601')"
    ".split('|'):",
    "                    try:",
    "                        if f != 'ISO8601':",
    "                            got = datetime.strptime(t, f)",
    "                            break",
    "                        # ISO 8601 as pandas reads it: 2024-03-01T10:00, 2024/3/1 5:00",
    f"                        m = re.fullmatch({_ISO_LOOSE!r}, t)",
    "                        if m:",
    "                            got = datetime(*[int(g or d) for g, d in zip(",
    "                                m.groups(), (0, 1, 1, 0, 0, 0))])",
    "                            break",
    "                    except ValueError:  # no such day, or not this format",
    "                        continue",
    "            if got is None:",
    "                raise ValueError(repr(v) + how)",
    "            v = got",
    "        elif isinstance(v, date) and not isinstance(v, datetime):",
    "            v = datetime(v.year, v.month, v.day)",
    "        elif not isinstance(v, datetime):  # pandas' Timestamp is a datetime",
    "            raise ValueError(repr(v) + how)",
    "        # a year outside those a date may have is a code (9999-12-31: open-ended), missing",
    f"        if not {DATE_YEARS[0]} <= v.year <= {DATE_YEARS[1]}:",
    "            return None",
    "        if part == 'weekday':",
    f"            return {WEEKDAYS!r}[v.weekday()]",
    "        return float(getattr(v, part))  # year, month (1-12), hour (0-23)",
]


#: The exported Python's reader of a cell the app read as another value (:class:`Reading`'s
#: ``recoded``, written ``READ`` above it): its text with the spaces around it stripped, or
#: its number, looked up in the column's table; any other cell is as written.
_AS_READ = [
    "    def as_read(v, key):",
    "        k = v.strip() if isinstance(v, str) else v",
    "        try:",
    "            if k in READ[key]:",
    "                return READ[key][k]",
    "            if isinstance(k, str) and float(k) in READ[key]:  # '-999' as -999",
    "                return READ[key][float(k)]",
    "        except (TypeError, ValueError):  # no number, or a cell no dict can hold",
    "            pass",
    "        return v",
]


def _ct(column: str) -> bool:
    """Whether the app reads 'Undetermined' in ``column`` above every value (a qPCR's CT)."""
    return limit_above(column) is _LIMIT_ABOVE_CT


def _read_first(column: str) -> str:
    """The ``read=`` argument of the exported ``num()`` for a column whose numbers were read
    from text written otherwise (:meth:`Rule.to_python`): the end of its error message."""
    said = (f" in {column!r} is not a number as this rule compares it: when the rule was "
            "learned, this column's text was read as numbers (the notes above say how). Read "
            "the table as it was read then (rulecore apply RULE.json TABLE does) before "
            "applying the rule.")
    return f", read={said!r}"


@dataclass(frozen=True)
class Rule(_Exportable):
    """A Boolean rule over terms.

    Attributes
    ----------
    conditions : tuple of Term
        The terms of the rule.
    rule_type : {"and", "or"}
        ``"and"``: a row is positive when it meets every condition (an empty AND-rule is
        always true); ``"or"``: when it meets any (an empty OR-rule is always false).
    target, positive : optional
        What the rule predicts, for display and export (``resigned == yes``).
    negative : optional
        What a row the rule does not call ``positive`` is called (``no``); ``None``:
        ``not <positive>``.  Kept in the JSON so that a rule applied to a table without the
        target column predicts "No", not "not Yes" (a stranger's review).  A label, not part
        of the rule: rules equal but for it are equal.
    """

    conditions: tuple[Term, ...] = ()
    rule_type: RuleType = "and"
    target: str = "target"
    positive: Any = 1
    meta: dict = field(default_factory=dict, compare=False, hash=False)
    negative: Any = field(default=None, compare=False, hash=False)

    # ------------------------------------------------------------------ evaluation

    def __len__(self) -> int:
        return len(self.conditions)

    def __str__(self) -> str:
        if not self.conditions:
            return EMPTY_RULE[self.rule_type]
        return f" {self.rule_type.upper()} ".join(str(c) for c in self.conditions)

    @property
    def features(self) -> list[str]:
        """Distinct columns the rule reads, in order of first use."""
        return list(dict.fromkeys(c.feature for c in self.conditions))

    def evaluate(self, X: pd.DataFrame) -> pd.DataFrame:
        """Pass/fail of every condition on every row.

        Returns
        -------
        DataFrame of shape (n_samples, n_conditions) of bool, columns named by condition.
        """
        X = named_columns(X)
        missing = [f for f in self.features if f not in X.columns]
        if missing:
            raise DataError(f"The table lacks the columns {', '.join(map(repr, missing))} "
                            "this rule uses.")
        data = {str(c): c.evaluate(X[c.feature]) for c in self.conditions}
        return pd.DataFrame(data, index=X.index, columns=[str(c) for c in self.conditions])

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """0/1 decision per row, shape (n_samples,)."""
        checks = self.evaluate(X).to_numpy()
        hit = checks.all(axis=1) if self.rule_type == "and" else checks.any(axis=1)
        return hit.astype(np.int64)

    def checklist(self, X: pd.DataFrame, y: np.ndarray | None = None) -> pd.DataFrame:
        """Per condition: support (share of rows meeting it) and precision among them.

        With ``y`` (the labels, of which ``positive`` is the rule's class; or the 0/1 coding
        where ``positive`` is text, as :func:`~rulecore.rules.terms.positive_rows` reads it),
        precision is the share of positives among the rows that meet the condition; ``y``
        absent leaves it out.
        """
        checks = self.evaluate(X)
        if y is not None:
            y = np.asarray(y)
            if len(y) != len(checks):
                raise DataError(f"y has {len(y)} labels for {len(checks)} rows.")
            y = positive_rows(y, self.positive)
        rows = []
        for name in checks.columns:
            met = checks[name].to_numpy()
            row = {"condition": name, "support": met.mean() if len(met) else np.nan}
            if y is not None:
                row["precision"] = float(np.asarray(y)[met].mean()) if met.any() else np.nan
            rows.append(row)
        return pd.DataFrame(rows, columns=["condition", "support"] +
                            (["precision"] if y is not None else []))

    def relabel(self, target: str, positive: Any, negative: Any = None) -> Rule:
        """The same rule predicting ``target = positive`` (a fit on 0/1 says ``target = 1``),
        and ``negative`` where it does not fire (``None``: ``not <positive>``)."""
        return replace(self, target=target, positive=positive, negative=negative)

    # ------------------------------------------------------------------ editing
    # A rule is a value: each edit returns a new rule, scored without refitting
    # (rulecore.rules.editing).

    def without(self, index: int) -> Rule:
        """The rule with condition ``index`` removed."""
        self._check_index(index)
        return replace(self, conditions=self.conditions[:index] + self.conditions[index + 1:])

    def with_condition(self, term: Term, index: int | None = None) -> Rule:
        """The rule with ``term`` added at the end (``index=None``) or in place of condition
        ``index``.  A condition already in the rule is not added twice."""
        if index is None:
            return self if term in self.conditions else \
                replace(self, conditions=self.conditions + (term,))
        self._check_index(index)
        kept = tuple(c for k, c in enumerate(self.conditions) if k == index or c != term)
        at = kept.index(self.conditions[index])
        return replace(self, conditions=kept[:at] + (term,) + kept[at + 1:])

    def _check_index(self, index: int) -> None:
        if not 0 <= index < len(self.conditions):
            raise DataError(f"The rule has {len(self.conditions)} conditions; there is no "
                            f"condition {index + 1}.")

    def explain(self, row: pd.DataFrame | pd.Series) -> pd.DataFrame:
        """The checklist for one row: ``condition``, ``value`` (the row's), ``holds`` (bool).

        Missing values show as ``None`` and fail their condition.
        """
        frame = named_columns(row.to_frame().T if isinstance(row, pd.Series) else row).iloc[:1]
        checks = self.evaluate(frame).iloc[0]
        return pd.DataFrame({
            "condition": [str(c) for c in self.conditions],
            "value": [None if pd.isna(frame[c.feature].iloc[0]) else frame[c.feature].iloc[0]
                      for c in self.conditions],
            "holds": [bool(checks.iloc[k]) for k in range(len(self.conditions))]})

    # ------------------------------------------------------------------ export

    def _head(self) -> str:
        return f"{self.target} = {format_value(self.positive)}"

    def to_text(self) -> str:
        """Plain text: ``IF a AND b THEN target = positive``."""
        joiner = f"\n   {self.rule_type.upper()} "
        body = joiner.join(str(c) for c in self.conditions) if self.conditions else \
            EMPTY_RULE[self.rule_type]
        return safe_cell(f"IF {body}\nTHEN {self._head()}")

    def to_markdown(self) -> str:
        """A Markdown checklist."""
        word = "all" if self.rule_type == "and" else "any"
        lines = [f"**Predict `{self._head()}` when {word} of these hold:**", ""]
        lines += [f"- [ ] `{str(c).replace('`', '')}`" for c in self.conditions] or \
            [f"- {EMPTY_RULE[self.rule_type]}"]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"rule_type": self.rule_type, "target": self.target,
                "positive": plain(self.positive),
                **({} if self.negative is None else {"negative": plain(self.negative)}),
                "conditions": [c.to_dict() for c in self.conditions]}

    @classmethod
    def from_dict(cls, d: dict) -> Rule:
        if d.get("rule_type") not in ("and", "or"):
            raise DataError("A rule needs rule_type 'and' or 'or'.")
        return cls(tuple(Term.from_dict(c) for c in d.get("conditions", [])), d["rule_type"],
                   d.get("target", "target"), d.get("positive", 1),
                   negative=d.get("negative"))

    @classmethod
    def from_json(cls, text: str) -> Rule:
        try:
            return cls.from_dict(json.loads(text))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
            # '[1]' and a threshold 'abc' reached the user as AttributeError / ValueError
            raise DataError(f"This is not a rule in JSON form: {exc}") from None

    def sql_condition(self, reading: Reading | None = None) -> str:
        """The rule as an SQL boolean expression (NULL fails every condition, as here).

        With ``reading`` (:attr:`rulecore.data.Dataset.reading`), a cell the app read as
        another value is that value here too (``'YES'`` is ``'Yes'``, ``'Satisfied (A4)'``
        ``'Satisfied'``), and one it read as missing is missing (``-999``): the SQL run on
        the raw table counted ``-999`` among the lowest incomes."""
        if not self.conditions:
            return "1 = 1" if self.rule_type == "and" else "1 = 0"
        # (a Dataset given for its reading, anything else refused in words: a bare
        # AttributeError before, a review)
        reading = _as_reading(reading, {}) if reading is not None else None
        tables = dict(reading.recoded) if reading is not None else {}
        parts = []
        for c in self.conditions:
            col = sql_identifier(c.feature)
            recoded = dict(tables.get(c.feature, ()))
            numeric = c.numeric or (c.missing_test and c.value == "numeric")
            gone = ", ".join(map(sql_literal, _sql_missing_cells(recoded, numeric)))
            if c.order is not None:
                parts.append(_sql_ordinal(c, recoded))
                continue
            if c.missing_test:
                if c.op == "is missing":
                    parts.append(f"({col} IS NULL OR {col} IN ({gone}))" if gone
                                 else f"{col} IS NULL")
                else:
                    parts.append(f"({col} IS NOT NULL AND {col} NOT IN ({gone}))" if gone
                                 else f"{col} IS NOT NULL")
                continue
            if not c.numeric:
                said = _sql_cells_of(c.value, recoded)
                if c.op == "!=" and gone:  # a cell read as missing fails '!=' too
                    said += [cell for cell in _sql_missing_cells(recoded, False)
                             if cell not in said]
                if len(said) > 1:
                    op = "IN" if c.op == "==" else "NOT IN"
                    parts.append(f"{col} {op} ({', '.join(map(sql_literal, said))})")
                    continue
            op = "<>" if c.op == "!=" else ("=" if c.op == "==" else c.op)
            compared = f"{col} {op} {sql_literal(c.value)}"
            parts.append(f"({compared} AND {col} NOT IN ({gone}))" if c.numeric and gone
                         else compared)
        joined = f" {self.rule_type.upper()} ".join(parts)
        return f"({joined})"

    def to_sql(self, reading: Reading | None = None) -> str:
        """An SQL ``WHERE`` clause selecting the rows the rule calls positive (``reading``:
        :meth:`sql_condition`)."""
        return f"WHERE {self.sql_condition(reading)}"

    def to_python(self, name: str = "predict", reading: Reading | None = None,
                  **legacy: Iterable[str]) -> str:
        """Source of a dependency-free function ``predict(row: dict) -> bool`` that reads a
        raw row as the app read the table (``reading``, :attr:`rulecore.data.Dataset.reading`):

        - the numbers of a column in ``reading.decimal_comma`` with a decimal comma
          (``'60,6'`` is 60.6, ``'1.234,5'`` 1234.5);
        - a cell of a column in ``reading.read_from_text`` that is text but no number
          (``'2 days 04:00:00'``, read as hours when the rule was learned) raises
          ``ValueError``: read as missing, it failed every condition without a word (a
          stranger's review: 0 of 700 rows);
        - a column in ``reading.ticks``: a tick, a flag or an empty cell is yes or no;
        - a feature in ``reading.derived`` that the row lacks is derived from its column: a
          date's year, month, weekday or hour from a ``datetime``, a ``date`` or ISO 8601
          text, an option from a multi-select answer, a field from a JSON object or a
          log line's key=value pairs; a cell it cannot read so raises
          ``ValueError`` naming ``rulecore apply`` (the rule raised ``KeyError`` on every raw
          row that had ``hired`` but no ``hired (year)``: a review);
        - a cell of a column in ``reading.recoded`` is read as the app read it: ``'YES'`` as
          ``'Yes'``, ``'Satisfied (A4)'`` as ``'Satisfied'``, ``-999`` as missing.

        ``decimal_comma=``, ``read_from_text=`` and ``ticks=`` (the arguments before
        :class:`Reading`) still work, with a ``DeprecationWarning``."""
        reading = _as_reading(reading, legacy)
        comma = set(reading.decimal_comma)
        texts = set(reading.read_from_text)
        ticked = set(reading.ticks)  # read as a tick or left empty: an empty cell is "no"
        made = {d[0]: d[1:] for d in reading.derived}
        recoded = {col: dict(pairs) for col, pairs in reading.recoded if col in self.features}
        units = {col: {(a, b, n): f for a, b, n, f in texts_of}
                 for col, texts_of in reading.units if col in self.features}

        def cell(feature: str) -> str:
            """The expression reading ``feature`` of ``row``."""
            if feature in made:
                source, part, way = made[feature]
                got = f"derive(row, {feature!r}, {source!r}, {part!r}, {way!r})"
            else:
                got = f"row[{feature!r}]"
            return f"as_read({got}, {feature!r})" if feature in recoded else got

        if not name.isidentifier():
            raise DataError(f"{name!r} is not a valid Python function name.")
        lines = [f"def {name}(row):",
                 # repr: a valid string literal whatever the target and class names hold
                 "    " + repr(f"{self._head()} when "
                              f"{'all' if self.rule_type == 'and' else 'any'} of the "
                              "conditions hold (a missing value fails its condition, "
                              "but for 'is missing')."),
                 # a frame's columns 0, 1, 2 are the rule's '0', '1', '2' (a notebook
                 # review: to_dict('records') of the frame it was fitted on raised KeyError)
                 # (keys(): a dict, a pandas row and sqlite3.Row have it; items() only
                 # the first two: an adversarial review)
                 "    row = {str(k): row[k] for k in row.keys()}"]
        # a column the file names twice, which rulecore numbers in the file's order
        # ('Distance (1)', 'Distance (2)'): pandas' read_csv names them 'Distance' and
        # 'Distance.1', and a row read so raised KeyError (a review of Strava's export)
        numbered = {f: (m.group(1), int(m.group(2))) for f in self.features
                    if (m := re.fullmatch(r"(.+) \((\d+)\)", f)) and int(m.group(2)) >= 1}
        if numbered:
            lines += [f"    NUMBERED = {numbered!r}  # a name the file has twice, in its order",
                      "    for key, (base, nth) in NUMBERED.items():",
                      "        alt = base if nth == 1 else f'{base}.{nth - 1}'  # pandas' names",
                      "        if key not in row and alt in row:",
                      "            row[key] = row[alt]"]
        # a raw table's cells as csv.DictReader gives them: an empty cell is '' (and 'NA',
        # 'NULL' ... as the reader has them), missing, not a level; '45%', '$1,234.50',
        # '<0.5' and accounting's '(542)' and '1,234.50-' are the numbers the reader made of
        # them (a review: '' passed "city != A", and every '51%' failed "Open Rate > 39.5",
        # with no error; a stranger's ledger: the negatives read as missing, 18 of 189 rows)
        said = ", ".join(map(repr, sorted(set(MISSING_TEXT) | {""})))
        missing = f"    MISSING = {{{said}}}"
        num = ["    def num(v, comma=False, read=None, units=None, ct=False):",
               "        raw, neg = v, False",
               "        if isinstance(v, str):",
               "            v = v.strip()",
               "            if v in MISSING:",
               "                return None",
               "            if units:  # a number with its unit, as the app read it: '72 kg'",
               "                import re",
               f"                m = len(v) <= {MAX_UNIT_CELL} and re.fullmatch({UNIT_CELL!r}, v)",
               "                key = m and unit_key(m.group(1), m.group(3), m.group(2))",
               "                if m and key in units:",
               "                    try:",
               "                        # (to 12 digits: 0:53:22 was 3201.9999999999995 s)",
               "                        got = unit_number(m.group(2), comma) * units[key]",
               "                        return float(f'{got:.12g}')",
               "                    except ValueError:",
               "                        pass",
               f"            for dash in {TYPESET_DASHES!r}:  # '−2.8': Unicode's minus",
               "                v = v.replace(dash, '-')",
               "            import re",
               f"            if re.fullmatch({_LIMIT_BELOW.pattern!r}, v, re.I):",
               "                return float('-inf')  # '<LOD': below every value",
               # (and a qPCR's 'Undetermined' in its CT, ct=True: in any other column it is
               # no number, as the app reads it, a review)
               f"            above = {_LIMIT_ABOVE_CT.pattern!r} if ct else \\",
               f"                {_LIMIT_ABOVE.pattern!r}",
               "            if re.fullmatch(above, v, re.I):",
               "                return float('inf')  # '>ULOQ': above every value",
               f"            approx = re.fullmatch({_APPROXIMATE.pattern!r}, v, re.I)",
               "            if approx:  # 'approx 18', 'c. 40', '15+': the number named",
               "                v = approx.group(1) or approx.group(2)",
               f"            worded = re.fullmatch({_CENSORED.pattern!r}, v, re.I)",
               "            if worded and v[:1].isalpha():  # 'Less than 1 year': the limit",
               "                v = worded.group(1)",
               "            if v[:1] in '<>≤≥':  # a limit, '<0.5', '≥95%': the limit",
               "                v = v[1:].lstrip('=').strip()",
               "            if v[:1] == '(' and v[-1:] == ')':  # accounting's '(542)': -542",
               "                neg, v = True, v[1:-1].strip()",
               "                if v[:1] in '+-':  # '(-542)': no number to the app either",
               "                    v = ''",
               "            elif v[-1:] == '-' and v[:-1].rstrip()[-1:].isdigit():",
               "                neg, v = True, v[:-1].strip()  # SAP's '1,234.50-'",
               f"            coded = re.fullmatch({_CODED.pattern!r}, v)",
               "            if coded:  # a currency code, 'USD 5,000.00', '4'698.71 CHF'",
               "                v = (coded.group(2) or coded.group(3) or '').strip()",
               "            v = v[1:].strip() if v[:1] == '±' else v  # a margin: its size",
               "            sign = v[:1] if v[:1] in '+-' else ''  # '-$1,200': -1200",
               "            v = sign + v[len(sign):].rstrip('€').lstrip('$€£¥₹₩₽₺₪฿₱₫₦').strip()",
               "            if v.endswith('%'):  # '45%': 45",
               "                v = v[:-1].strip()",
               "            if comma:  # a column written with a decimal comma: '1.234,5'",
               "                for mark in ('.', ' ', '\u00a0', '\u202f', \"'\"):",
               "                    v = v.replace(mark, '')",
               "                v = v.replace(',', '.')",
               "            elif ',' in v or \"'\" in v or '’' in v:",
               "                if re.fullmatch(r\"-?\\d{1,3}([,'’]\\d{3})+(\\.\\d+)?\", v) or \\",
               "                        re.fullmatch(r'-?\\d{1,2}(,\\d{2})+,\\d{3}(\\.\\d+)?', v):",
               "                    v = re.sub(\"[,'’]\", '', v)  # '1,234.50', '4'698.71'",
               "            if '_' in v or not v.isascii():",
               "                v = None  # '1_000', '١٢': not numbers to pandas either",
               "        try:",
               "            v = float(v)",
               "        except (TypeError, ValueError):",
               "            if read is not None and isinstance(raw, str) and any(",
               "                    c.isdigit() for c in raw) and raw.strip() "
               f"not in {sorted(set(SPREADSHEET_ERRORS) | {'None', '-', '--'})!r}:",
               "                # a cell written as the app read it otherwise ('2 days",
               "                # 04:00:00' as hours): missing here, it failed every condition",
               "                # (a spreadsheet's error, 'None' or a code with no number,",
               "                # 'POA', '*', is missing there too)",
               "                raise ValueError(repr(raw) + read)",
               "            return None",
               "        if v != v or isinstance(raw, str) and v in (float('inf'), float('-inf')):",
               "            return None  # 'inf', 'Infinity': missing to the app, as 'nan' is",
               "        return -v if neg else v"]
        txt = ["    def txt(v, tick=False):",
               "        if tick:  # a box ticked or left empty ('x' or '', 1 or ''): yes or no",
               "            try:",
               "                t = '' if v is None or v != v else str(v).strip()",
               "            except TypeError:  # pandas' NA",
               "                t = ''",
               "            no = t in MISSING or t.casefold() in ('no', 'n', 'false', '0', '0.0')",
               "            return 'no' if no else 'yes'",
               "        try:",
               "            if v is None or v != v:",
               "                return None",
               "        except TypeError:  # pandas' NA: its truth is ambiguous",
               "            return None",
               "        if isinstance(v, str) and v.strip() in MISSING:",
               "            return None",
               "        if hasattr(v, 'item'):  # a numpy scalar",
               "            v = v.item()",
               "        if isinstance(v, bool):  # True, 1, 1.0, '1' and 'True' are one level",
               "            return '1' if v else '0'",
               "        if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:",
               "            return str(int(v))",
               "        v = str(v)",
               "        w = v.rstrip('0')",
               "        if w.endswith('.') and w[:-1].lstrip('-').isdigit():  # '1.0': level 1",
               "            v = w[:-1]",
               f"        return {BOOL_LEVELS!r}.get(v, v)"]
        checks = ["    checks = ["]
        for c in self.conditions:
            if c.order is not None:  # an ordered scale: the levels it holds for
                op = "not in" if c.op == "is missing" else "in"
                held = list(dict.fromkeys(level_key(v) for v in (
                    c.order if c.missing_test else c.levels_held())))
                checks.append(f"        txt({cell(c.feature)}) {op} {tuple(held)!r},"
                              if held else "        False,")
            elif c.missing_test:
                read = "num" if c.value == "numeric" else "txt"
                op = "is" if c.op == "is missing" else "is not"
                how = (", True" if read == "num" and c.feature in comma else "") + (
                    _read_first(c.feature) if read == "num" and c.feature in texts
                    else "") + (f", units=UNITS[{c.feature!r}]" if read == "num" and
                                c.feature in units else "") + (
                    ", ct=True" if read == "num" and _ct(c.feature) else "")
                checks.append(f"        {read}({cell(c.feature)}{how}) {op} None,")
            elif c.numeric:
                op = "<=" if c.op == "<=" else ">"
                how = (", True" if c.feature in comma else "") + (
                    _read_first(c.feature) if c.feature in texts else "") + (
                    f", units=UNITS[{c.feature!r}]" if c.feature in units else "") + (
                    ", ct=True" if _ct(c.feature) else "")
                checks.append(f"        (lambda v: v is not None and v {op} {float(c.value)!r})"
                              f"(num({cell(c.feature)}{how})),")
            else:
                op = "==" if c.op == "==" else "!="
                tick = ", True" if c.feature in ticked else ""
                checks.append(f"        (lambda v: v is not None and v {op} {level_key(c.value)!r})"
                              f"(txt({cell(c.feature)}{tick})),")
        # only the readers the conditions use (a rule set repeated both in every clause), and
        # row[...]: a column the row lacks raises KeyError, where row.get read it as missing
        # and a rule on a derived column ('hired (year)') said no to every raw row (a review)
        used = "\n".join(checks)
        # cells the app read as another value or as missing, column by column (a label
        # 'YES' as 'Yes', 'Satisfied (A4)' as 'Satisfied', -999 as missing): read as written,
        # they gave 19, 99 and 24 of 300 rows another answer than the app's (a check of the
        # exports against `rulecore apply`)
        as_read = [f"    READ = {recoded!r}", *_AS_READ] if recoded else []
        # numbers written with their unit or a word ('72 kg', '£399,000', '6.00 t/ha'), read
        # as the app read them: each text's factor (Reading.units); raised on every row before
        in_units = [f"    UNITS = {units!r}"] + [
            "    " + line for line in UNIT_NUMBER.splitlines()] if "units=UNITS" in used else []
        readers = in_units + (num if "num(" in used else []) + (
            txt if "txt(" in used else []) + (_DERIVE if "derive(" in used else []) + as_read
        if readers:
            readers = [missing] + readers
        lines += readers + checks
        lines.append("    ]")
        lines.append(f"    return {'all' if self.rule_type == 'and' else 'any'}(checks)")
        return "\n".join(lines) + "\n"



EXPORT_FORMATS = {"text": ("txt", "text/plain"), "markdown": ("md", "text/markdown"),
                  "json": ("json", "application/json"), "sql": ("sql", "text/plain"),
                  "python": ("py", "text/x-python")}


def named_columns(X: Any) -> pd.DataFrame:
    """``X`` as a frame whose column names are text, as a rule's conditions name them (a
    frame's columns 0, 1, 2 are '0', '1', '2': fitted on such a frame, the rule's checklist
    said "The table lacks the columns '1'", a notebook review).  An array has no names to
    read: :class:`DataError`."""
    if not isinstance(X, pd.DataFrame):
        raise DataError(f"A rule reads a table by its column names, and a "
                        f"{type(X).__name__} has none: pass a pandas DataFrame "
                        "(pd.DataFrame(X, columns=[...]) names an array's columns).")
    return X if all(isinstance(c, str) for c in X.columns) else text_names(X)


class _Clauses(_Exportable):
    """What :class:`RuleSet` and :class:`RuleList` share: a tuple ``clauses`` of AND-clauses."""

    clauses: tuple

    def __len__(self) -> int:
        return len(self.clauses)

    @property
    def n_conditions(self) -> int:
        """Conditions over all clauses."""
        return sum(len(c) for c in self.clauses)

    @property
    def features(self) -> list[str]:
        """Distinct columns the clauses read, in order of first use."""
        return list(dict.fromkeys(f for c in self.clauses for f in c.features))

    def votes(self, X: pd.DataFrame) -> np.ndarray:
        """Per row and clause: does the clause hold?  Shape (n_samples, n_clauses)."""
        if not self.clauses:
            return np.zeros((len(X), 0), dtype=bool)
        return np.column_stack([c.predict(X).astype(bool) for c in self.clauses])


@dataclass(frozen=True)
class RuleSet(_Clauses):
    """Several AND-clauses combined: an OR of clauses (DNF, set covering) or a weighted vote
    (boosting: positive iff ``Σ_t C_t · clause_t(x) > 0``; a clause without conditions is a
    constant vote).

    Attributes
    ----------
    clauses : tuple of Rule
    weights : tuple of float or None
        ``None`` for a DNF; the vote weights ``C_t`` for a weighted set.
    """

    clauses: tuple[Rule, ...] = ()
    weights: tuple[float, ...] | None = None
    target: str = "target"
    positive: Any = 1
    negative: Any = field(default=None, compare=False, hash=False)  # as Rule.negative


    @property
    def weighted(self) -> bool:
        return self.weights is not None


    def __str__(self) -> str:
        if not self.clauses:
            return EMPTY_RULE["or"]
        if not self.weighted:
            return " OR ".join(f"({c})" for c in self.clauses)
        return " + ".join(f"{w:+.3g}·[{c}]" for c, w in zip(self.clauses, self.weights)) + " > 0"

    def relabel(self, target: str, positive: Any, negative: Any = None) -> RuleSet:
        """The same rule set predicting ``target = positive`` (``negative`` elsewhere)."""
        return replace(self, clauses=tuple(c.relabel(target, positive, negative)
                                           for c in self.clauses),
                       target=target, positive=positive, negative=negative)


    def score(self, X: pd.DataFrame) -> np.ndarray:
        """Weighted vote Σ_t C_t clause_t(x) (for a DNF: the number of clauses that fire)."""
        v = self.votes(X).astype(float)
        w = np.ones(len(self.clauses)) if not self.weighted else np.asarray(self.weights)
        return v @ w

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        if not self.weighted:
            return self.votes(X).any(axis=1).astype(np.int64)
        return (self.score(X) > 0).astype(np.int64)

    def _head(self) -> str:
        return f"{self.target} = {format_value(self.positive)}"

    def to_text(self) -> str:
        if not self.clauses:  # "when any clause holds:" followed by nothing read as cut off
            return safe_cell(f"Predict {self._head()} for no row: the rule set has no clause.")
        lines = []
        for t, c in enumerate(self.clauses):
            body = " AND ".join(str(x) for x in c.conditions) or EMPTY_RULE["and"]
            vote = f"  [vote {self.weights[t]:+.4g}]" if self.weighted else ""
            lines.append(f"{t + 1}. {body}{vote}")
        rule = ("Predict " + self._head() + (" when the votes of the firing clauses sum to "
                "more than 0:" if self.weighted else " when any clause holds:"))
        # the other class said: a set describing class 0 under a header that predicted
        # class 1 read as contradicting it (a stranger's rare-fraud table)
        other = ([f"Otherwise {self.target} = {format_value(self.negative)}."]
                 if self.negative is not None else [])
        return safe_cell("\n".join([rule] + lines + other))

    def to_markdown(self) -> str:
        if not self.clauses:
            return f"**Predict `{self._head()}` for no row: the rule set has no clause.**"
        out = [f"**Predict `{self._head()}` when "
               + ("the votes of the clauses that hold sum to more than 0:**" if self.weighted
                  else "any of these clauses holds:**"), ""]
        for t, c in enumerate(self.clauses):
            vote = f" (vote {self.weights[t]:+.4g})" if self.weighted else ""
            conds = " AND ".join(f"`{x}`" for x in c.conditions) or EMPTY_RULE["and"]
            out.append(f"{t + 1}. {conds}{vote}")
        if self.negative is not None:
            out += ["", f"Otherwise `{self.target} = {format_value(self.negative)}`."]
        return "\n".join(out)

    def to_dict(self) -> dict:
        return {"rule_set": "weighted" if self.weighted else "dnf", "target": self.target,
                "positive": plain(self.positive),
                **({} if self.negative is None else {"negative": plain(self.negative)}),
                "clauses": [c.to_dict() for c in self.clauses],
                "weights": list(map(float, self.weights)) if self.weighted else None}

    @classmethod
    def from_json(cls, text: str) -> RuleSet:
        try:
            d = json.loads(text)
            clauses = tuple(Rule.from_dict(c) for c in d["clauses"])
            weights = tuple(map(float, d["weights"])) if d.get("weights") is not None else None
            return cls(clauses, weights, d.get("target", "target"), d.get("positive", 1),
                       d.get("negative"))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise DataError(f"This is not a rule set in JSON form: {exc}") from None

    def to_sql(self, reading: Reading | None = None) -> str:
        if not self.clauses:
            return "WHERE 1 = 0"
        if not self.weighted:
            return "WHERE " + " OR ".join(c.sql_condition(reading) for c in self.clauses)
        terms = [f"CASE WHEN {c.sql_condition(reading)} THEN {float(w)!r} ELSE 0 END"
                 for c, w in zip(self.clauses, self.weights)]
        return "WHERE (" + " + ".join(terms) + ") > 0"

    def to_python(self, name: str = "predict", reading: Reading | None = None,
                  **legacy: Iterable[str]) -> str:
        if not name.isidentifier():
            raise DataError(f"{name!r} is not a valid Python function name.")
        reading = _as_reading(reading, legacy)
        parts = [c.to_python(f"_clause_{t}", reading)
                 for t, c in enumerate(self.clauses)]
        # the docstring as a repr, as Rule's and RuleList's: a label with a backslash
        # ('C:\\Users') wrote a SyntaxError (a review of the exports)
        body = [f"def {name}(row):", f"    {f'{self._head()} by the rule set.'!r}"]
        if self.weighted:
            body.append("    score = 0.0")
            for t, w in enumerate(self.weights):
                body.append(f"    if _clause_{t}(row):")
                body.append(f"        score += {float(w)!r}")
            body.append("    return score > 0")
        else:
            calls = " or ".join(f"_clause_{t}(row)" for t in range(len(self.clauses)))
            body.append(f"    return bool({calls or 'False'})")
        return "\n".join(parts + body) + "\n"



@dataclass(frozen=True)
class RuleList(_Clauses):
    """An ordered rule list: the first clause that holds gives the class, else ``default``.

    The multi-class model of :class:`~rulecore.rules.ruleset.RuleSetClassifier`: one DNF per
    class, its clauses ordered by training precision (``docs/rulesets.md``).

    Attributes
    ----------
    clauses : tuple of Rule
        AND-clauses, in the order they are tried; ``clause.positive`` is the class it gives.
    default : label
        The class of a row no clause holds for.
    target : str
    """

    clauses: tuple[Rule, ...] = ()
    default: Any = 0
    target: str = "target"



    @property
    def labels(self) -> list:
        """The class each clause gives, in order."""
        return [c.positive for c in self.clauses]

    def __str__(self) -> str:
        parts = [f"IF {c} THEN {format_value(c.positive)}" for c in self.clauses]
        return " ELSE ".join(parts + [f"{format_value(self.default)}"])

    def relabel(self, target: str, labels: dict | None = None) -> RuleList:
        """The same list with the target renamed and classes mapped through ``labels``."""
        m = labels or {}
        return replace(self, clauses=tuple(c.relabel(target, m.get(c.positive, c.positive))
                                           for c in self.clauses),
                       default=m.get(self.default, self.default), target=target)


    def first(self, X: pd.DataFrame) -> np.ndarray:
        """Index of the clause that decides each row (−1: the default), shape (n_samples,)."""
        v = self.votes(X)
        if v.shape[1] == 0:
            return np.full(len(X), -1)
        return np.where(v.any(axis=1), v.argmax(axis=1), -1)

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """The class of each row, shape (n_samples,).

        The labels' common numpy type when every label keeps its value in it (all text, all
        integers, ...), else an object array.
        """
        labels = [plain(v) for v in self.labels + [self.default]]
        table = np.empty(len(labels), dtype=object)
        table[:] = labels
        typed = np.asarray(labels)
        # never the default's type alone: it would cut longer text and round other numbers
        if typed.dtype != object and typed.ndim == 1 and typed.tolist() == labels:
            table = typed
        return table[self.first(X)]

    def to_text(self) -> str:
        lines = [f"Predict {self.target} by the first rule that holds:"]
        for t, c in enumerate(self.clauses):
            body = " AND ".join(str(x) for x in c.conditions) or EMPTY_RULE["and"]
            lines.append(f"{t + 1}. IF {body} THEN {self.target} = {format_value(c.positive)}")
        lines.append(f"{len(self.clauses) + 1}. OTHERWISE {self.target} = "
                     f"{format_value(self.default)}")
        return safe_cell("\n".join(lines))

    def to_markdown(self) -> str:
        out = [f"**Predict `{self.target}` by the first rule that holds:**", ""]
        for t, c in enumerate(self.clauses):
            conds = " AND ".join(f"`{x}`" for x in c.conditions) or EMPTY_RULE["and"]
            out.append(f"{t + 1}. {conds} → **{format_value(c.positive)}**")
        out.append(f"{len(self.clauses) + 1}. otherwise → **{format_value(self.default)}**")
        return "\n".join(out)

    def to_dict(self) -> dict:
        return {"rule_list": True, "target": self.target,
                "default": plain(self.default),
                "clauses": [c.to_dict() for c in self.clauses]}

    @classmethod
    def from_json(cls, text: str) -> RuleList:
        try:
            d = json.loads(text)
            return cls(tuple(Rule.from_dict(c) for c in d["clauses"]), d["default"],
                       d.get("target", "target"))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise DataError(f"This is not a rule list in JSON form: {exc}") from None

    def to_sql(self, reading: Reading | None = None) -> str:
        """An SQL ``CASE`` expression giving the class of a row (a list without clauses: the
        default alone, as SQL allows no ``CASE`` without a ``WHEN``)."""
        if not self.clauses:
            return f"{sql_literal(self.default)} AS {sql_identifier(self.target)}"
        whens = [f"  WHEN {c.sql_condition(reading)} THEN {sql_literal(c.positive)}"
                 for c in self.clauses]
        return "\n".join(["CASE"] + whens + [f"  ELSE {sql_literal(self.default)}",
                                             f"END AS {sql_identifier(self.target)}"])

    def to_python(self, name: str = "predict", reading: Reading | None = None,
                  **legacy: Iterable[str]) -> str:
        if not name.isidentifier():
            raise DataError(f"{name!r} is not a valid Python function name.")
        reading = _as_reading(reading, legacy)
        parts = [c.to_python(f"_rule_{t}", reading)
                 for t, c in enumerate(self.clauses)]
        # the docstring as a repr: a target name with quotes or backslashes stays one string
        body = [f"def {name}(row):", f"    {f'The class of {self.target} by the rule list.'!r}"]
        for t, c in enumerate(self.clauses):
            body.append(f"    if _rule_{t}(row):")
            body.append(f"        return {plain(c.positive)!r}")
        body.append(f"    return {plain(self.default)!r}")
        return "\n".join(parts + body) + "\n"
