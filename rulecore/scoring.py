"""Apply a saved rule to a new table: read the columns it uses as they were read to learn it,
predict every row, and say where the table does not look like the one it was learned on.

A rule exported as JSON (``Rule.to_json``, ``rulecore learn --export json``, or the result
``rulecore learn --json`` writes) compares values *as read*: ``72 kg`` as 72, ``-999`` as
missing, ``YES`` as ``Yes``, a date as its month.  Evaluated on the raw cells of next month's
extract, those comparisons are false without a word.  :func:`apply_rule` reads the new table
through the same readers and :func:`rulecore.data.from_frame` (the rule's columns kept,
whatever their role there, with the kinds the rule's conditions give them), so the rule sees
what it saw when it was learned (``docs/data.md``, "Applying a saved rule").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from rulecore.data import (
    _LIMIT_BELOW,
    UNIT_COLUMNS,
    _frequency_column,
    _json_object,
    from_frame,
    limit_above,
)
from rulecore.exceptions import DataError
from rulecore.metrics import binary_metrics
from rulecore.rules.rule import Rule, RuleList, RuleSet
from rulecore.rules.terms import format_value, level_key, level_keys

SavedRule = Rule | RuleSet | RuleList
#: The name of the stand-in target :func:`read_for_rule` gives ``from_frame``, which reads a
#: table to learn from: a name no table has.
_NO_TARGET = "\x00rulecore: no target"
#: Fewer rows than this are read as copies of themselves up to it (:func:`read_for_rule`).
_FEW_ROWS = 20


def load_rule(text: str) -> SavedRule:
    """A rule, rule set or rule list from its JSON export, or from the result ``rulecore
    learn --json`` writes (its ``rule_json``).

    Raises
    ------
    DataError
        When the text is no rule in JSON form, with what it is instead.
    """
    try:
        d = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"This is not a rule in JSON form ({exc}). Save the rule with "
                        "'rulecore learn FILE --export json --output rule.json'.") from None
    if isinstance(d, dict) and isinstance(d.get("rule_json"), dict):
        d = d["rule_json"]  # the whole result of learn --json
    elif isinstance(d, dict) and isinstance(d.get("rules"), dict):
        d = d["rules"]  # ... of a rule list (several classes)
    if not isinstance(d, dict):
        raise DataError("This JSON holds no rule: a saved rule is an object with "
                        "'conditions' (a rule) or 'clauses' (a rule set or list).")
    text = json.dumps(d)
    try:
        if d.get("rule_list"):
            rule = RuleList.from_json(text)
        elif "clauses" in d:
            rule = RuleSet.from_json(text)
        elif "rule_type" in d:
            rule = Rule.from_json(text)
        else:
            rule = None
        if rule is not None:
            # every condition compares as it says: a threshold that is no number, conditions
            # that are no list, ... are refused here, not as a traceback when applied (a
            # review of hand-edited rule files)
            for clause in _clauses(rule):
                for c in clause.conditions:
                    c.evaluate(pd.Series([np.nan], dtype=object))
            return rule
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        raise DataError(f"This rule's JSON is malformed ({exc}). Save the rule again with "
                        "'rulecore learn FILE --export json --output rule.json'.") from None
    raise DataError("This JSON holds no rule: a saved rule is an object with 'conditions' "
                    "(a rule) or 'clauses' (a rule set or list).")


def _clauses(rule: SavedRule) -> list[Rule]:
    return [rule] if isinstance(rule, Rule) else list(rule.clauses)


def rule_kinds(rule: SavedRule) -> tuple[dict[str, str], dict[str, tuple]]:
    """The kind each column the rule reads had when it was learned (``numeric`` for a
    threshold, ``ordinal`` for a position on a scale, else ``categorical``), and the scales'
    orders."""
    kinds: dict[str, str] = {}
    orders: dict[str, tuple] = {}
    for clause in _clauses(rule):
        for c in clause.conditions:
            if c.order is not None:
                kinds[c.feature], orders[c.feature] = "ordinal", tuple(c.order)
            elif c.numeric or (c.missing_test and c.value == "numeric"):
                kinds.setdefault(c.feature, "numeric")
            else:
                kinds.setdefault(c.feature, "categorical")
    return kinds, orders


def _unit_key(unit: str) -> str:
    """A unit as compared: ``KG``, ``Kg`` and ``kgs`` are ``kg`` (a review's false warning);
    ``°C`` stays apart from ``°F``."""
    key = unit.strip().casefold()
    return key[:-1] if len(key) > 2 and key.endswith("s") else key


def _squashed(name: str) -> str:
    """A name without capitals, spaces or punctuation: 'Ship City' is 'ship_city'."""
    return re.sub(r"[\W_]+", "", str(name).casefold())


def source_column(column: str, names: Iterable[str]) -> str | None:
    """The column of the table a rule's column is, or is read from (``shipped (month)``
    from ``shipped``, ``device.category`` from ``device``, ``tags: sms`` from ``tags``)."""
    names = list(names)
    if column in names:
        return column
    return next((n for n in sorted(names, key=len, reverse=True)
                 if column.startswith((f"{n} (", f"{n}.", f"{n}: "))), None)


#: A count of cells or rows in a reading's note ("6 cells of 99999", "3 empty cells").
_COUNTED = re.compile(r"\b(\d[\d,]*)( (?:[a-z-]+ )?)(cell|row)s?\b")


def _counted_once(note: str, copies: int) -> str:
    """A note on a table read as ``copies`` copies of itself, its counts of cells and rows
    those of one copy (3 rows applied to: "6 cells of 99999 are read as missing" for 3)."""
    if copies == 1:
        return note

    def once(m: re.Match) -> str:
        n = int(m.group(1).replace(",", ""))
        if n % copies:  # not a count over the copies (a range's end): as written
            return m.group(0)
        n //= copies
        return f"{n:,}{m.group(2)}{m.group(3)}{'' if n == 1 else 's'}"

    note = _COUNTED.sub(once, note)
    # "1 cell of -999 are read as missing": the verb of a count now one (a review)
    return re.sub(r"\b1( (?:[a-z-]+ )?(?:cell|row)\b[^,;.]*?) are\b", r"1\1 is", note)


def read_for_rule(frame: pd.DataFrame, rule: SavedRule, *, typed: bool = True,
                  zero_missing: Iterable[str] = (), keep_codes: Iterable[str] = (),
                  name: str = "table") -> tuple[pd.DataFrame, list[str]]:
    """The columns ``rule`` reads, from ``frame``, read as a table to learn from is read;
    and the rule's target, when ``frame`` has its column, as its last column (its labels
    read as a target's are: ``YES`` and `` yes`` as ``Yes``).

    Parameters
    ----------
    frame : DataFrame of shape (n_rows, n_columns)
        The new table (``typed=False``: every cell still text, as a file reader gives it).
    rule : Rule, RuleSet or RuleList
    zero_missing : iterable of str
        Columns whose zeros were read as missing when the rule was learned.
    keep_codes : iterable of str
        Columns whose missing-value codes were kept as numbers when the rule was learned.

    Returns
    -------
    X : DataFrame of shape (n_rows, n_rule_columns [+ 1])
        Row-aligned with ``frame``.
    notes : list of str
        What reading did to those columns.

    Raises
    ------
    DataError
        When the table lacks a column the rule reads (the message names it and any column
        spelled alike).
    """
    features = rule.features
    names = [str(c) for c in frame.columns]
    absent = [f for f in features if source_column(f, names) is None]
    if absent:
        # a crosstab with its measures on rows, which learning pivoted ('Profit 2022'): rows
        # are scored as they are here, and "rename the column" was no help (a review)
        measures = next((c for c in frame.columns if str(c).strip().casefold() ==
                         "measure names"), None)
        if measures is not None:
            found = {str(v).strip() for v in frame[measures].dropna().unique()[:50]}
            if all(any(f.startswith(m + " ") for m in found) for f in absent):
                raise DataError(
                    f"{name} is a crosstab with its measures on rows ({measures!r}), and the "
                    f"rule reads its pivoted columns ({', '.join(map(repr, absent[:3]))}"
                    f"{' ...' if len(absent) > 3 else ''}), one row per combination, as "
                    "learning read it. Scoring keeps the rows as they are: pivot the table "
                    "first (in Tableau, put Measure Names on Columns; in pandas, "
                    "pivot on that column) and apply the rule to that table.")
        said = []
        for f in absent:
            alike = [n for n in names if _squashed(n) == _squashed(f)]
            said.append(repr(f) + (f" (the table has {alike[0]!r})" if alike else ""))
        raise DataError(f"{name} lacks {'the column' if len(absent) == 1 else 'the columns'} "
                        f"{', '.join(said)} the rule reads. Rename the column as it was when "
                        "the rule was learned, or learn the rule again on this table.")
    kinds, orders = rule_kinds(rule)
    sources = {f: source_column(f, names) for f in features}
    work = frame.copy()
    work.columns = names
    if _NO_TARGET in work.columns:  # pragma: no cover - no table has this name
        raise DataError(f"{name} has a column named {_NO_TARGET!r}.")
    # a stand-in target of two classes: from_frame reads a table to learn from, and keeps
    # every row that has a target
    if not features and _target_column(rule, names) is None:
        return pd.DataFrame(index=frame.index), []
    copies = -(-_FEW_ROWS // len(work)) if len(work) < _FEW_ROWS else 1
    if copies > 1:
        # the readers tell a column's way of writing from five cells or more ('38.5 °C'):
        # a row or two to score are read as that many copies of them
        work = pd.concat([work] * copies, ignore_index=True)
    # a rule on a JSON object's field ('payload.bat'): the column's other cells (a device's
    # 'offline' among its telemetry) have no field, however many there are in this table;
    # read whole, a batch of more than a tenth of them was no column of objects, and the
    # field missing in every row (a review), where the export read each object's field
    for src in {sources[f] for f in features if sources[f] != f
                and f.startswith(f"{sources[f]}.")}:
        if pd.api.types.is_numeric_dtype(work[src]):
            continue
        objects = work[src].map(lambda v: isinstance(_json_object(v), dict))
        if objects.any() and not objects.all():
            work[src] = work[src].where(objects)
    work[_NO_TARGET] = np.arange(len(work)) % 2
    work.attrs["keep_rows"] = True  # every row scored: a subtotal row is not dropped
    # a lab's limits with no number ('<LOD', '>ULOQ') are below or above every value: read
    # at this table's own edges (as learning reads them), a batch whose highest measured
    # value was 39.9 said no to every '>ULOQ' under 'trop > 44.65' (a review)
    beyond = {}
    for f, k in kinds.items():
        if k != "numeric" or sources[f] != f or pd.api.types.is_numeric_dtype(work[f]):
            continue
        text = work[f].astype(str).str.strip().where(work[f].notna(), "")
        below, above = text.str.match(_LIMIT_BELOW), text.str.match(limit_above(f))
        if below.any() or above.any():
            beyond[f] = (below.to_numpy()[:len(frame)], above.to_numpy()[:len(frame)])
            # (a number in their place, overwritten below: masked, a row of '>ULOQ' alone
            # was a column of nothing, refused, a review)
            work[f] = work[f].mask(below | above, "0")
    # an ordered scale is read as text and placed on the rule's own order by its terms
    # (Term.evaluate): given to from_frame, one response of 'Disagree' was refused as an
    # order naming fewer than three of the column's levels (a review)
    own = {f: ("categorical" if k == "ordinal" else k) for f, k in kinds.items()
           if sources[f] == f}
    target = _target_column(rule, names)
    if target is not None and target not in sources.values():
        own[target] = "categorical"
    used = set(sources.values()) | ({target} if target else set())
    # a frequency table's count column, included, keeps its rows one by one: expanded to a
    # row per record as for learning, the first 96 records were scored as the 96 rows (a
    # rule on 'smoker == yes' held for none, a check of the exports against this command)
    counts = _frequency_column(work, used)
    try:
        ds = from_frame(work, _NO_TARGET, include=sorted(used | ({counts} if counts else set())),
                        kinds=own, zero_missing=[c for c in zero_missing if c in names],
                        keep_codes=[c for c in keep_codes if c in names],
                        name=name, typed=typed)
    except DataError as exc:
        raise DataError(f"{name} could not be read for the rule: {exc}") from None
    if len(ds.X) != len(work):  # a row dropped or made: the rows no longer align
        raise DataError(f"{name} could not be read for the rule row by row: reading it made "
                        f"{len(ds.X):,} rows of its {len(work):,}.")
    X = ds.X.iloc[:len(frame)]
    X.index = frame.index
    out = pd.DataFrame(index=frame.index)
    for f in features + ([target] if target and target not in features else []):
        # a column empty in this table is no feature there: all missing, said below
        out[f] = X[f] if f in X.columns else np.nan
    read = used | set(features)
    notes = [_counted_once(n, copies) for n in ds.notes if _NO_TARGET not in n
             and any(repr(c) in n or f"{c} " in n for c in read)]
    # the units this table's numbers were read in, to hold against the rule's (apply_rule)
    out.attrs[UNIT_COLUMNS] = dict(X.attrs.get(UNIT_COLUMNS) or {})
    for f, (below, above) in beyond.items():
        out[f] = np.where(below, -np.inf, np.where(above, np.inf, out[f].astype(float)))
        notes.append(f"{f!r}: {int(below.sum() + above.sum()):,} cells written as a limit "
                     "with no number ('<LOD', '>ULOQ') are read as below or above every "
                     "value, as the rule's thresholds, learned between measured values, "
                     "read them.")
    return out, notes


@dataclass
class Scored:
    """A saved rule applied to a table (:func:`apply_rule`).

    Attributes
    ----------
    prediction : Series of shape (n_rows,)
        The class each row gets: the rule's class where it holds, else the other class (when
        the table's target column has two, else ``not <class>``); a rule list's class.
    fires : ndarray of bool, shape (n_rows,)
        Where the rule (a rule set: any clause; a rule list: any rule) holds.
    parts : DataFrame
        Per condition (a rule) or per clause (a rule set or list): ``part`` and ``rows``, the
        rows it holds for, and their ``share``.
    X : DataFrame of shape (n_rows, n_rule_columns)
        The rule's columns as read.
    notes, warnings : list of str
        What reading did; where the table differs from the one the rule was learned on.
    metrics : dict or None
        With the target's column in the table: ``rows`` labelled, ``accuracy``,
        ``precision``, ``recall`` and ``majority`` (the accuracy of always predicting the
        most frequent class); None without it.
    """

    prediction: pd.Series
    fires: np.ndarray
    parts: pd.DataFrame
    X: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    metrics: dict[str, Any] | None = None

    def table(self, frame: pd.DataFrame) -> pd.DataFrame:
        """``frame`` with the prediction as its last column, ``predicted <target>``."""
        out = frame.copy()
        name = str(self.prediction.name)
        while name in set(map(str, out.columns)):
            name = f"_{name}"
        out[name] = self.prediction.to_numpy()
        return out


def _target_column(rule: SavedRule, names: list[str]) -> str | None:
    target = str(rule.target)
    return target if target in names else None


def _labels_as_the_rule_writes(labels: pd.Series, rule: SavedRule, notes: list[str]
                               ) -> pd.Series:
    """The target's labels, each written as the rule writes its class where it differs only
    in capitals, spaces or a full stop after it (UCI Adult's test file writes ``>50K.``
    where the training file wrote ``>50K``: applied to it, the rule reported precision 0 %
    and "always the most frequent class: 100 %", a stranger's check).  Said in ``notes``."""
    classes = [c.positive for c in _clauses(rule)] + (
        [rule.default] if isinstance(rule, RuleList) else [])
    if not isinstance(rule, RuleList) and rule.negative is not None:
        classes.append(rule.negative)
    keys = {level_key(c): c for c in classes}

    def fold(k: str) -> str:
        return k.strip().casefold().rstrip(".").strip()

    folded = {fold(k): c for k, c in keys.items()}
    mapping = {}
    for v in labels.dropna().unique():
        k = level_key(v)
        if k not in keys and fold(k) in folded:
            mapping[v] = folded[fold(k)]
    if not mapping:
        return labels
    said = ", ".join(f"{str(v)!r} as {format_value(c)!r}" for v, c in list(mapping.items())[:4])
    notes.append(f"{rule.target!r} is written otherwise here than when the rule was learned: "
                 f"{said}.")
    return labels.map(lambda v: mapping.get(v, v))


def apply_rule(rule: SavedRule, frame: pd.DataFrame, *, typed: bool = True,
               zero_missing: Iterable[str] = (), keep_codes: Iterable[str] = (),
               name: str = "table") -> Scored:
    """Predict every row of ``frame`` with a saved rule, and check the table against it.

    Parameters
    ----------
    rule : Rule, RuleSet or RuleList
        E.g. :func:`load_rule` of a JSON export.
    frame : DataFrame of shape (n_rows, n_columns)
        The new table; ``typed=False`` when its cells are still text (a file reader's).
    zero_missing : iterable of str
        Columns whose zeros were read as missing when the rule was learned.
    keep_codes : iterable of str
        Columns whose missing-value codes were kept as numbers when the rule was learned.

    Returns
    -------
    Scored

    Raises
    ------
    DataError
        When the table lacks a column the rule reads, or has no row.
    """
    if len(frame) == 0:
        raise DataError(f"{name} has no rows to apply the rule to.")
    X, notes = read_for_rule(frame, rule, typed=typed, zero_missing=zero_missing,
                             keep_codes=keep_codes, name=name)
    names = [str(c) for c in frame.columns]
    target = _target_column(rule, names)
    warnings: list[str] = []
    # a threshold in kg against a column written in lb holds for every row (a review)
    units = X.attrs.get(UNIT_COLUMNS) or {}
    for clause in _clauses(rule):
        for c in clause.conditions:
            if c.unit and _unit_key(units.get(c.feature, c.unit)) != _unit_key(c.unit) and \
                    not any(f"{c.feature!r} is written in" in w for w in warnings):
                warnings.append(f"{c.feature!r} is written in {units[c.feature]} here, and the "
                                f"rule compares it in {c.unit} ('{c}'): convert the column to "
                                f"{c.unit} before applying the rule.")
    for f in rule.features:
        if X[f].isna().all():
            warnings.append(f"{f!r} is missing in every row: every condition on it is false "
                            "(except 'is missing').")
    parts = []
    for k, clause in enumerate(_clauses(rule)):
        checks = clause.evaluate(X)
        if isinstance(rule, Rule):
            for c, col in zip(clause.conditions, checks.columns):
                parts.append({"part": col, "rows": int(checks[col].sum())})
                if len(frame) >= _FEW_ROWS:
                    _unseen_level(c, X, warnings)
        else:
            holds = clause.predict(X).astype(bool)
            label = f" → {format_value(clause.positive)}" if isinstance(rule, RuleList) else ""
            parts.append({"part": f"{k + 1}. {clause}{label}", "rows": int(holds.sum())})
            for c in clause.conditions if len(frame) >= _FEW_ROWS else ():
                _unseen_level(c, X, warnings)
    parts = pd.DataFrame(parts, columns=["part", "rows"])
    parts["share"] = parts["rows"] / len(frame)
    few = len(frame) < _FEW_ROWS  # a row or two to score: no condition need hold there
    for p in parts.itertuples():
        if p.rows == 0 and not few:
            what = "condition" if isinstance(rule, Rule) else "clause"
            warnings.append(f"The {what} '{p.part}' holds for no row of {name}.")

    labels = None if target is None else X[target]
    if target is not None and target not in rule.features:
        X = X.drop(columns=target)
    if labels is not None:
        labels = _labels_as_the_rule_writes(labels, rule, notes)
    if isinstance(rule, RuleList):
        fires = rule.first(X) >= 0
        prediction = pd.Series(rule.predict(X), index=frame.index)
        metrics = None
        if labels is not None and labels.notna().any():
            known = labels.notna().to_numpy()
            truth = level_keys(labels[known])
            guess = level_keys(prediction[known])
            counts = pd.Series(truth).value_counts()
            metrics = {"rows": int(known.sum()), "accuracy": float((truth == guess).mean()),
                       "majority": float(counts.iloc[0] / known.sum())}
    else:
        fires = rule.predict(X).astype(bool)
        positive = rule.positive
        others = [] if labels is None else [v for v in dict.fromkeys(labels.dropna())
                                            if level_key(v) != level_key(positive)]
        # without the target column the rule's own word for the other class ("No", not
        # "not Yes": a stranger's review), saved with it since the rules knew their data's
        other = others[0] if len(others) == 1 else \
            rule.negative if rule.negative is not None and len(others) < 2 else \
            f"not {format_value(positive)}"
        number = pd.to_numeric(pd.Series([other]), errors="coerce").iloc[0]
        if isinstance(positive, (int, float)) and not isinstance(positive, bool) and \
                pd.notna(number):
            # the other class as the rule's class is written: 0 beside 1, not the text '0'
            other = int(number) if isinstance(positive, int) and number == int(number) \
                else float(number)
        # (a list, not np.where: an integer class beside the text 'not 1' raised numpy's
        # DTypePromotionError, a traceback for every 0/1 target: a review)
        prediction = pd.Series([positive if f else other for f in fires], index=frame.index,
                               dtype=object)
        metrics = None
        if labels is not None and labels.notna().any():
            known = labels.notna().to_numpy()
            # a target of one value or blank was learned with its blanks as 'not <value>'
            # (rulecore.data): they are that class here too, not rows without a label
            # (counted out, accuracy was the rule's recall, a review)
            if str(rule.negative) == f"not {format_value(positive)}" and \
                    (level_keys(labels[known]) == level_key(positive)).all():
                known = np.ones(len(labels), dtype=bool)
            y = (level_keys(labels[known]) == level_key(positive)).astype(int)
            if not y.any() and not few:
                warnings.append(f"No row of {name} has {rule.target} = "
                                f"{format_value(positive)}: is the class written as it was "
                                "when the rule was learned?")
            m = binary_metrics(y, fires[known].astype(int))
            metrics = {"rows": int(known.sum()), "accuracy": float(m["accuracy"]),
                       "precision": float(m["precision"]), "recall": float(m["recall"]),
                       "majority": float(m["majority"])}
    prediction.name = f"predicted {rule.target}"
    if not isinstance(rule, RuleList) and not few:
        if not fires.any():
            warnings.append(f"The rule holds for no row of {name}: every row is predicted "
                            f"{prediction.iloc[0]}.")
        elif fires.all() and len(fires) > 1:
            warnings.append(f"The rule holds for every row of {name}.")
    return Scored(prediction, fires, parts, X, notes, warnings, metrics)


def _unseen_level(term, X: pd.DataFrame, warnings: list[str]) -> None:
    """A level the rule compares that no row of this table has (``triage == High`` on a
    table that writes ``H``): the condition can only hold for no row or every row."""
    if term.numeric or term.missing_test:
        return
    column = X[term.feature]
    present = column.dropna()
    if term.order is not None:
        # a scale none of whose answers is written as the rule's ('agree' for 'Agree')
        scale = {level_key(v) for v in term.order}
        if len(present) and not any(k in scale for k in level_keys(present)):
            said = f"No answer in {term.feature!r} is on the rule's scale " \
                   f"({', '.join(map(repr, term.order[:4]))} …)"
            if said not in " ".join(warnings):
                warnings.append(said + ": is the column written as it was when the rule was "
                                "learned?")
        return
    if present.empty or (level_keys(present) == level_key(term.value)).any():
        return
    seen = ", ".join(map(repr, list(dict.fromkeys(present.astype(str)))[:4]))
    said = f"{term.feature!r} never holds {format_value(term.value)!r} in this table (it " \
           f"holds {seen}{' …' if present.nunique() > 4 else ''})"
    if said not in " ".join(warnings):
        warnings.append(said + ": is the column written as it was when the rule was "
                        "learned?")
