"""The ``rulecore`` command line: the app's rule learning for scripts and scheduled jobs.

Subcommands mirror the app's pages::

    rulecore learn   data.csv --target resigned --positive yes --lam 2 --json result.json
    rulecore screen  --sample "salesforce attrition" --lam 2 --level enhanced
    rulecore compare --sample "breast cancer" --format csv --output compare.csv
    rulecore sweep   --sample "machine failure" --lams 0.5,2,8 --thresholds 5,10 --cv 5 \\
                     --output front.csv --html front.html [--backend dask --scheduler tcp://...]
    rulecore stability data.csv --target resigned --folds 5 [--bootstrap] [--json]

Errors a user can fix (:class:`~rulecore.exceptions.RulecoreError`) print the app's message on
stderr and exit with status 2, without a traceback.  Progress lines go to stderr and only when
it is a terminal, so pipes and log files stay clean.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import shlex
import sys
import time
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

import numpy as np
import pandas as pd

from rulecore import settings as S
from rulecore.exceptions import DataError, ParameterError, RulecoreError
from rulecore.report import lagged_words, restated_words
from rulecore.roles import accuracy_words

EXIT_OK, EXIT_USER_ERROR, EXIT_INTERRUPTED = 0, 2, 130
_EXPORT_BY_SUFFIX = {".txt": "text", ".md": "markdown", ".json": "json", ".sql": "sql",
                     ".py": "python"}


# --------------------------------------------------------------------------- output helpers


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal.

    No dependency (tqdm would be one more package for one line): ``progress(done, total)``
    redraws ``label  done/total [#####.....]  elapsed, eta`` at most ten times a second.
    """

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.active = bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = time.perf_counter()
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not self.active:
            return
        now = time.perf_counter()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        elapsed = now - self.t0
        eta = elapsed / done * (total - done) if done else float("nan")
        width = 24
        filled = int(width * done / max(total, 1))
        line = (f"\r{self.label}  {done}/{total} [{'#' * filled}{'.' * (width - filled)}]  "
                f"{elapsed:5.1f} s" + (f", about {eta:.0f} s left" if done < total else ""))
        self.stream.write(line.ljust(80))
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        if self.active:
            self.stream.write(f"{text}\n")
            self.stream.flush()


def _padded(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns: a Chinese or Japanese character takes
    two, so ``str.ljust`` misaligned the checklist's support column under such names (a
    stranger's table)."""
    wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in text)
    return text + " " * max(width - len(text) - wide, 0)


def _cell(v: Any) -> str:
    if v is None or v is pd.NA:  # no value (a datum-wise model's size): empty, not "None"
        return ""
    if isinstance(v, (float, np.floating)):
        if math.isnan(v):
            return ""
        return f"{v:.4g}"
    return str(v).replace("|", "\\|").replace("\n", " ")


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub Markdown table (no tabulate dependency)."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |",
             "| " + " | ".join("---:" if pd.api.types.is_numeric_dtype(df[c]) or (
                                   len(df) and df[c].astype(str).str.endswith("%").all())
                               else "---" for c in df.columns) + " |"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    except OSError as exc:
        raise DataError(f"Cannot write {path}: {exc.strerror or exc}.") from None


def _number_or_auto(text: str) -> float | str:
    """``--lam``, ``--gamma``: a number (checked where every entry point checks it) or
    ``auto``."""
    if text.strip().lower() == "auto":
        return "auto"
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"give a positive number or 'auto', not {text!r}") from None


def _floats(text: str, what: str) -> list[float]:
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise ParameterError(f"{what} must be numbers separated by commas, not {text!r}.") \
            from None
    if not values:
        raise ParameterError(f"Give at least one value for {what}.")
    return values


def _lam_grid(args: argparse.Namespace) -> list[float]:
    if args.lam_range:
        parts = args.lam_range.split(":")
        try:
            lo, hi, n = float(parts[0]), float(parts[1]), int(parts[2])
        except (ValueError, IndexError):
            raise ParameterError("--lam-range is LOW:HIGH:COUNT, e.g. 0.1:100:7.") from None
        if not (0 < lo <= hi and n >= 1):
            raise ParameterError("--lam-range needs 0 < LOW <= HIGH and COUNT >= 1.")
        return [float(v) for v in np.geomspace(lo, hi, n)]
    return _floats(args.lams, "--lams")


def _thresholds(text: str) -> list[int | str]:
    out: list[int | str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if part == "all":
            out.append("all")
            continue
        try:
            out.append(int(part))
        except ValueError:
            raise ParameterError(f"--thresholds takes counts or 'all', not {part!r}.") from None
    if not out:
        raise ParameterError("Give at least one threshold setting.")
    return out


# --------------------------------------------------------------------------- data


def _columns(given: str | list[str] | None) -> list[str]:
    """The columns of a COL[,COL...] flag, over every time it is given: a user repeats
    ``--exclude COL`` as each leak warning says it (argparse kept only the last one)."""
    if not given:
        return []
    texts = [given] if isinstance(given, str) else given
    return list(dict.fromkeys(c.strip() for t in texts for c in t.split(",") if c.strip()))


def load_dataset(args: argparse.Namespace):
    """The Dataset named on the command line (CSV path or ``--sample``), positive class set.

    Column roles are detected as in the app (row numbers, identifiers, free text, dates);
    ``--include`` / ``--exclude`` override them.  A numeric target with many values needs a
    threshold as ``--positive '>40'``; without one the command refuses, saying how.
    """
    from rulecore.data import load_csv
    from rulecore.samples import load_sample

    if args.csv and args.sample:
        raise ParameterError("Give either a table file or --sample NAME, not both.")
    if not args.csv and not args.sample:
        raise ParameterError("Give a table file (CSV, Excel, ...) or --sample NAME (see "
                             "'rulecore samples').")
    kinds = {c: "numeric" for c in _columns(getattr(args, "numeric", None))}
    kinds.update({c: "categorical" for c in _columns(getattr(args, "categorical", None))})
    options = dict(target=args.target, positive=args.positive,
                   include=_columns(getattr(args, "include", None)),
                   exclude=_columns(getattr(args, "exclude", None)), kinds=kinds,
                   zero_missing=_columns(getattr(args, "zero_missing", None)),
                   keep_codes=_columns(getattr(args, "keep_codes", None)),
                   orders=_orders(getattr(args, "order", None)))
    if args.csv:
        return load_csv(args.csv, sheet=getattr(args, "sheet", None), **options)
    if getattr(args, "sheet", None):
        raise ParameterError("--sheet names a sheet of an Excel workbook given as the file.")
    return load_sample(args.sample, continuous="refuse", **options)


def describe_data(ds, out: TextIO, all_classes: int = 0) -> None:
    """What loading decided: target, positive class and base rate, left-out columns, notes.
    ``all_classes``: the number of classes when a rule list learns them all (no positive
    class); the rule list said none of this, its leak warnings included (a stranger's
    review)."""
    from rulecore.scoring import source_column

    if all_classes:
        out.write(f"{ds.name}: {ds.n_samples:,} rows; predicting {ds.target} "
                  f"({all_classes} classes)\n")
    else:
        out.write(f"{ds.name}: {ds.n_samples:,} rows; predicting {ds.target} = {ds.positive} "
                  f"({ds.base_rate:.1%} of rows)\n")
    if ds.excluded:
        # (the advice only where it can help: a constant kept is no feature)
        can = any(r.detected not in ("constant", "empty") and r.role not in (
            "constant", "empty") for r in ds.excluded)
        out.write("left out: " + "; ".join(f"{r.column} ({r.reason})" for r in ds.excluded)
                  + (" (use --include COL to keep one)" if can else "") + "\n")
    sources = {r.column: r.role for r in ds.roles if r.role in ("date", "choices")}
    for role, words in (("date", "derived from dates"),
                        ("choices", "one yes/no column per option ticked")):
        derived = [r.column for r in ds.roles if r.role == "derived" and
                   sources.get(source_column(r.column, sources)) == role]
        if derived:
            out.write(f"{words}: " + ", ".join(derived) + "\n")
    def exclude(col: str) -> str:
        """The flag that leaves ``col`` out: a date's or a list's part is left out with its
        column (``--exclude 'Termination Date (month)'`` was "no such column": a stranger),
        quoted for a shell where its name has spaces."""
        return "--exclude " + shlex.quote(str(source_column(col, sources) or col))

    for note in ds.notes:
        out.write(f"{'warning' if note == ds.guess_note else 'note'}: {note}\n")
    for col, mapping in ds.restated.items():
        out.write("warning: " + restated_words(col, mapping, ds.target_column, bold=False,
                                               how=f" ({exclude(col)})") + "\n")
    for col, share in ds.lagged.items():
        out.write(f"warning: {lagged_words(col, share, ds.target)} Leave it out ("
                  f"{exclude(col)}) unless the last outcome is known when the rule is applied.\n")
    # one warning per column of the table, as the app gives: a date's parts leak together
    for found in ds.leak_groups().values():
        col, acc = next(iter(found)), max(found.values())
        named = " and ".join(found)
        up = "each alone" if len(found) > 1 else "alone"
        upto = "up to " if len(found) > 1 else ""
        if all_classes:  # (a class among several, as class_leaks says it below)
            out.write(f"warning: {named} {up} tells {ds.target_column} = {ds.positive} from "
                      f"its other values with {upto}{accuracy_words(acc)}: a possible leak ("
                      f"{exclude(col)} if it is recorded after the outcome)\n")
            continue
        out.write(f"warning: {named} {up} predicts {ds.target} = {ds.positive} with "
                  f"{upto}{accuracy_words(acc)}: a possible leak ({exclude(col)} if it is "
                  "recorded after the outcome)\n")
    for col, (other, acc) in ds.class_leaks.items():
        if col in ds.restated:
            continue
        out.write(f"warning: {col} alone tells {ds.target_column} = {other} from its other "
                  f"values with {accuracy_words(acc)}: a possible leak, whichever class is "
                  f"predicted ({exclude(col)} if it is recorded after the outcome)\n")


def _settings(args: argparse.Namespace, ds=None, model: str | None = None):
    """The rule settings on the command line (column kinds from the loaded data, as the app):
    one :class:`~rulecore.settings.RuleSettings`, defaults and names as everywhere else."""
    from rulecore.settings import DEFAULT_N_THRESHOLDS, RuleSettings

    n_thr = getattr(args, "n_thresholds", None)  # None: not given (the defaults decide)
    return RuleSettings(
        model=model or getattr(args, "model", "single"), lam=getattr(args, "lam", None),
        rule_type=args.rule_type,
        n_thresholds=DEFAULT_N_THRESHOLDS if n_thr is None else n_thr,
        auto_thresholds=n_thr is None,
        thresholds=getattr(args, "thresholds", "quantile"),
        negations=not getattr(args, "no_negations", False),
        solver=getattr(args, "solver", "mip"), time_limit=args.time_limit,
        screening=getattr(args, "screening", "enhanced"),
        class_weight=getattr(args, "class_weight", "auto"),
        random_state=getattr(args, "seed", None),
        max_rules=getattr(args, "max_rules", 5), n_rounds=getattr(args, "n_rounds", 5),
        multiclass=getattr(args, "multiclass", "one-vs-rest"),
        kinds=tuple(sorted(ds.kinds.items())) if ds is not None else (),
        require=_columns(getattr(args, "require", None)),
        forbid=_columns(getattr(args, "forbid", None)),
        max_conditions=getattr(args, "max_conditions", None),
        fp_cost=getattr(args, "fp_cost", 1.0), fn_cost=getattr(args, "fn_cost", 1.0),
        error=getattr(args, "error", None))


def _metrics(y: np.ndarray, pred: np.ndarray) -> dict:
    if not len(y):
        return {}
    tp = int(((pred == 1) & (y == 1)).sum())
    fp = int(((pred == 1) & (y == 0)).sum())
    fn = int(((pred == 0) & (y == 1)).sum())
    acc = float(np.mean(pred == y))
    precision = tp / (tp + fp) if tp + fp else float("nan")
    recall = tp / (tp + fn) if tp + fn else float("nan")
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else float("nan")
    return {"rows": int(len(y)), "accuracy": acc, "error": 1 - acc, "precision": precision,
            "recall": recall, "f1": f1, "true_positives": tp, "false_positives": fp,
            "false_negatives": fn, "majority": float(max(np.mean(y), 1 - np.mean(y)))}


def _orders(given: list[str] | None) -> dict[str, list[str]]:
    """``--order 'grade=F<D<C'`` as ``{"grade": ["F", "D", "C"]}``."""
    out = {}
    for item in given or []:
        col, sep, levels = item.partition("=")
        if not sep or "<" not in levels:
            raise ParameterError(f"--order {item!r}: write the column, '=', and its levels "
                                 "lowest first joined by '<', e.g. --order 'grade=F<D<C<B<A'.")
        out[col.strip()] = [v.strip() for v in levels.split("<")]
    return out


def _pct(v: float) -> str:
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{100 * v:.1f}%"


def _as_shares(table: pd.DataFrame) -> pd.DataFrame:
    """A clause table's coverage and precision as percentages, as every other figure is
    printed (0.08902 and 1 beside "precision 78.2%": a stranger's review)."""
    return table.assign(**{c: table[c].map(_pct) for c in ("coverage", "precision")
                           if c in table})


# --------------------------------------------------------------------------- learn


def _export(args: argparse.Namespace, rule: Any, what: str, out: TextIO, ds: Any) -> None:
    """``--export`` / ``--output``: write the rule (set, list) in the format asked for, or the
    one the output file's suffix names, with the notes on how its columns were read (as the
    Rule page's export: ``-999`` read as missing, ``72 kg`` as 72; a review of the exports
    found the command line's SQL without them)."""
    if not (args.export or args.output):
        return
    fmt = args.export or _EXPORT_BY_SUFFIX.get(Path(args.output).suffix.lower())
    if fmt is None:
        raise ParameterError(f"Cannot tell the export format from {args.output!r}; pass "
                             "--export text|markdown|json|sql|python.")
    text = rule.export(fmt, ds.notes_for(rule.features), ds.reading)
    if args.output:
        _write(args.output, text)
        out.write(f"\nwrote the {what} as {fmt} to {args.output}\n")
    else:
        out.write("\n" + text + ("" if text.endswith("\n") else "\n"))


def _learn_rule_list(args: argparse.Namespace, ds, fit, out: TextIO) -> int:
    """``learn --model rule-set`` on a target with more than two classes: a rule list."""
    from rulecore.report import (
        cv_timing_words,
        fit_status,
        for_command_line,
        most_frequent_class,
        unpredicted_classes,
    )
    from rulecore.settings import THRESHOLD_GRID

    est, tr, te, rules = fit.model, fit.train, fit.test, fit.rule
    y = ds.y.to_numpy()
    describe_data(ds, out, all_classes=len(est.classes_))
    out.write(f"{len(tr):,} rows to learn from" + (f", {len(te):,} held out" if len(te) else "")
              + _kept_together(ds, te)
              + f"; {len(est.classes_)} classes, all learned (no positive class)\n\n")
    out.write(rules.to_text() + "\n\n")
    out.write(markdown_table(_as_shares(est.clause_table(ds.X.iloc[tr], y[tr]))) + "\n\n")
    acc = {"train": float(np.mean(est.predict(ds.X.iloc[tr]) == y[tr]))}
    if len(te):
        acc["test"] = float(np.mean(est.predict(ds.X.iloc[te]) == y[te]))
    most, share_tr, share_te = most_frequent_class(y[tr], y[te])
    for name, a in acc.items():
        out.write(f"{name:>5}: accuracy {_pct(a)}\n")
    out.write(f"always the most frequent class ({most}): {_pct(share_tr)} of the training rows"
              + (f", {_pct(share_te)} of the held-out rows" if len(te) else "") + "\n")
    out.write(f"λ = {est.lam_:.4g}" + (" (chosen by 3-fold cross-validation)"
                                      if est.lam == "auto" else "") + "\n")
    out.write(f"thresholds per numeric column: {est.n_thresholds_}"
              + (" (chosen by the same cross-validation among "
                 f"{', '.join(map(str, THRESHOLD_GRID))})" if est.n_thresholds == "auto"
                 else "") + "\n")
    out.write(fit_status(est).text + "\n")
    if timing := cv_timing_words(est):
        out.write(f"warning: {timing}\n")
    if (never := unpredicted_classes(rules, y[tr])) is not None:
        # its level, as the app shows it (it was always "info": a review)
        out.write(f"{never.level}: {for_command_line(never.text)}\n")
    if "test" in acc and acc["test"] <= share_te:
        out.write("warning: the held-out accuracy is no better than always predicting the most "
                  "frequent class\n")
    _export(args, rules, "rule list", out, ds)
    if args.json:
        payload = {"dataset": ds.name, "model": "rule-set", "classes": [str(c) for c in
                                                                        est.classes_],
                   "lam": est.lam_, "n_thresholds": est.n_thresholds_, "accuracy": acc,
                   "rules": json.loads(rules.to_json())}
        _write(args.json, json.dumps(payload, indent=2, default=str))
        out.write(f"wrote the result to {args.json}\n")
    return 0


def _check_alternatives(args: argparse.Namespace) -> None:
    """``--alternatives K`` asked with settings that cannot give them, said before the fit
    (a review: the fit ran and printed, then the command failed with Python's words)."""
    k = getattr(args, "alternatives", None)
    if k is None:
        return
    if k < 1:
        raise ParameterError(f"--alternatives takes the number of rules to list, 1 or more, "
                             f"not {k}.")
    if args.model != "single":
        raise ParameterError("--alternatives lists single rules: use --model single.")
    if args.error == "exact":
        raise ParameterError("--alternatives needs errors counted per condition, whose MIP "
                             "proves each alternative: use --error hamming.")


def _alternatives(args: argparse.Namespace, est: Any, Xtr: pd.DataFrame, ytr: np.ndarray,
                  Xte: pd.DataFrame, yte: np.ndarray, out: TextIO) -> list | None:
    """``--alternatives K``: print the near-optimal set and return it for ``--json``."""
    if args.alternatives is None:
        return None
    if getattr(est, "error_", "hamming") == "exact":  # chosen by --lam auto
        raise ParameterError("--alternatives needs errors counted per condition, whose MIP "
                             "proves each alternative; with --lam auto each wrong row was "
                             "counted once: add --error hamming.")
    alts = est.alternatives(Xtr, ytr, k=args.alternatives)
    best = alts[0].objective
    out.write(f"\n{len(alts)} best rules with different predictions on the training rows "
              "(each the cheapest rule that predicts as it does):\n")
    rows = []
    for i, a in enumerate(alts):
        held_out = float(np.mean(a.rule.predict(Xte) == yte)) if len(yte) else float("nan")
        out.write(f"{i + 1:>3}. objective {a.objective:.6g} (+{a.objective - best:.4g}), "
                  f"{a.claim}, held-out accuracy "
                  f"{_pct(held_out)}: {a.rule}\n")
        rows.append({"conditions": a.rule.to_dict()["conditions"], "objective": a.objective,
                     "bound": a.bound, "certified": a.certified,
                     "test_accuracy": held_out, "rule": str(a.rule)})
    return rows


def cmd_learn(args: argparse.Namespace, out: TextIO) -> int:
    from rulecore.fit import fit_on_split
    from rulecore.report import (
        all_midpoints_fit,
        assess,
        comparisons,
        constraint_words,
        cv_timing_words,
        fit_status,
        for_command_line,
        gain_over_majority,
        not_a_success_words,
        shown_claim,
        table_facts,
    )

    _check_alternatives(args)  # before the fit: it was refused after the whole fit printed
    ds = load_dataset(args)
    y01 = ds.y_binary
    settings = _settings(args, ds)
    lam = settings.lam_value
    from rulecore import progress as stages

    progress = Progress(f"Learning a {args.model} rule")
    if getattr(args, "progress", False):
        progress.active = True  # asked for: the stages go to stderr even in a batch log
    progress.note(progress.label + " ...")

    def stage(message: str) -> None:  # each stage of the fit, with the seconds so far
        progress.note(f"  {time.perf_counter() - progress.t0:6.1f} s  {message}")

    with stages.listening(stage):
        fit = fit_on_split(settings, ds, args.test_size, args.seed)
    est, tr, te, rule = fit.model, fit.train, fit.test, fit.rule
    records = ds.held_out_records(tr, te) if len(te) else None  # judged record by record
    from rulecore.rules.rule import RuleList

    if isinstance(rule, RuleList):
        return _learn_rule_list(args, ds, fit, out)
    Xtr = ds.X.iloc[tr]
    pred_tr = est.predict(Xtr)
    m_train = _metrics(y01[tr], pred_tr)
    m_test = _metrics(y01[te], est.predict(ds.X.iloc[te])) if len(te) else {}

    word = "all" if getattr(rule, "rule_type", "and") == "and" else "any"
    describe_data(ds, out)
    out.write(f"{len(tr):,} rows to learn from" + (f", {len(te):,} held out" if len(te) else "")
              + _kept_together(ds, te) + "\n\n")
    from rulecore.rules.rule import RuleSet

    if isinstance(rule, RuleSet) and not rule.clauses:
        # as the Rule page says it: "when any clause holds:" over an empty table read as a
        # rule cut off (a review).  The other class is the positive one when the set
        # describes the negative class (RuleSetClassifier's describe)
        other = ds.negative_label if str(rule.positive) == str(ds.positive) else ds.positive
        out.write(f"No clause: the rule set predicts {ds.target} = {other} for every row.\n")
    elif isinstance(rule, RuleSet):
        out.write(rule.to_text() + "\n\n")
        table = est.clause_table(Xtr, y01[tr])
        if "class" in table:  # RuleSetClassifier: the class is the DNF's, said above
            table = table.drop(columns="class")
        out.write(markdown_table(_as_shares(table)) + "\n")
    else:
        out.write(f"Predict {ds.target} = {ds.positive} when {word} of these hold:\n")
        check = rule.checklist(Xtr, ds.y.to_numpy()[tr])  # labels: see Rule.checklist
        if not len(check):
            out.write(f"  {rule}\n")
        for row in check.itertuples(index=False):
            out.write(f"  [ ] {_padded(row.condition, 48)} support {_pct(row.support):>6}  "
                      f"precision {_pct(row.precision):>6}\n")
    meant = ds.labels_for([*rule.features, ds.target_column])
    if meant:  # a rule on 'DP03_0062E' says nothing without the file's labels
        out.write("\nwhat the columns mean (the file's labels):\n")
        for col, label in meant.items():
            out.write(f"  {col}: {label}\n")
    out.write("\n")
    for name, m in (("train", m_train), ("test", m_test)):
        if m:
            out.write(f"{name:>5}: accuracy {_pct(m['accuracy'])}, precision "
                      f"{_pct(m['precision'])}, recall {_pct(m['recall'])} "
                      f"({m['rows']:,} rows)\n")
    pred_te = est.predict(ds.X.iloc[te]) if len(te) else []
    if m_test:
        # as the Rule page's delta: 97.2 % reads as good where 96.0 % is free (a review saw
        # a rule within luck of the majority under "Certified optimal", with no baseline)
        held = y01[te]
        majority = ds.positive if held.mean() > 0.5 else ds.negative_label
        gain, clear = gain_over_majority(held, pred_te, records)
        verdict = "the same" if not gain else f"{gain:+.1f} pts" + ("" if clear else
                                                                   ", within luck")
        out.write(f"       always {majority}: accuracy {_pct(m_test['majority'])} on the test "
                  f"rows; the rule: {verdict}\n")
    method = "column generation" if hasattr(est, "rules_") else args.solver
    if getattr(est, "solve_method_", "").startswith("beam"):  # error="exact"
        method = "beam search + mip" if est.solve_method_ == "beam+mip" else "beam search"
    solver = {"solver": method, "status": est.lp_status_, "gap": float(est.mip_gap_),
              "objective": float(getattr(est, "objective_", float("nan"))),
              "lower_bound": float(getattr(est, "lower_bound_", float("nan"))),
              "lp_value": float(getattr(est, "lp_value_", float("nan"))),
              "solve_seconds": float(getattr(est, "solve_seconds_", float("nan"))),
              "fit_seconds": float(getattr(est, "fit_seconds_", float("nan")))}
    gap = "not certified" if math.isnan(solver["gap"]) else f"gap {100 * solver['gap']:.2f}%"
    # a rule set's status is its final choice among the clauses generated, not a proof over
    # all clauses ("optimal, not certified" read as a contradiction; a review)
    chooser = {"support": "clauses chosen by a MIP over those their LP uses (solved)",
               "rounded": "clauses chosen by rounding their LP and local search"}
    status = ((chooser.get(est.master_status_) or "choice among the generated clauses "
               + est.master_status_.replace("_", " "))
              if hasattr(est, "rules_") else solver["status"])
    if getattr(est, "solve_method_", None) in ("lp", "lp-randomized") and status == "optimal":
        # the LP's status: the rule is a rounding of it ("lp, optimal, gap 54%" read as a
        # proof: a review)
        status = "LP relaxation solved, rule rounded from it (not proved optimal)"
    out.write(f"solver: {method}, {status}, {gap}")
    if not math.isnan(solver["objective"]):
        out.write(f", objective {solver['objective']:.6g}")
        if not math.isnan(solver["lower_bound"]):
            out.write(f" (lower bound {solver['lower_bound']:.6g})")
    out.write("\n")
    claim = fit_status(est)
    compared = comparisons(settings, est.class_weight_used_, y01[te], pred_te, ds.X.iloc[te],
                           lambda **changes: fit_on_split(dataclasses.replace(settings, **changes),
                                                          ds, args.test_size, args.seed).model)
    findings = assess(y01[tr], pred_tr, y01[te], pred_te,
                      positive=ds.positive, class_weight=est.class_weight_used_,
                      features=list(getattr(rule, "features", [])), leaks=ds.leaks,
                      lagged=ds.lagged,
                      restated=ds.restated,
                      negative=next((str(c) for c in ds.classes if c != ds.positive), None)
                      if len(ds.classes) == 2 else None,
                      costs=(getattr(est, "fp_cost", 1.0), getattr(est, "fn_cost", 1.0)),
                      constraints=constraint_words(est),
                      lam_chosen=getattr(est, "lam", None) == "auto",
                      all_midpoints_fit=all_midpoints_fit(ds.X.iloc[tr], ds.kinds),
                      conditions=getattr(rule, "conditions", ()),
                      rule_type=getattr(rule, "rule_type", "and"),
                      single_rule=settings.model == "single rule",
                      n_thresholds=settings.n_thresholds, groups=records,
                      **table_facts(ds, settings.thresholds), **compared)
    shown = shown_claim(claim, findings, y01[te], pred_te,  # the level the app shows
                        groups=records, guessed=ds.target_guessed)
    out.write(f"{claim.text}\n")
    if shown.level != claim.level:
        # the app shows it in blue, not green; here words say it (an analyst read "Certified
        # optimal" as good news beside a rule 10 points below always predicting the majority)
        why = not_a_success_words(findings, y01[te], pred_te, records, ds.target_guessed)
        why = " (see the warnings below)" if why.startswith("see") else f", since {why}"
        out.write("note: optimal for the objective above, which is not held-out accuracy: "
                  f"the rule is not a success{why}.\n")
    claim = shown
    if timing := cv_timing_words(est):
        out.write(f"warning: {timing}\n")
    for f in findings:
        out.write(f"{f.level}: {for_command_line(f.text)}\n")
    report = getattr(est, "screening_report_", None) if args.model == "single" else None
    screening = None
    if report is not None:
        screening = {"level": report.level, "n_columns": report.n_columns,
                     "n_kept": report.n_kept, "fraction_screened": report.fraction_screened,
                     "certified": report.certified, "seconds": report.seconds,
                     "upper_bound": report.upper_bound, "lower_bound": report.lower_bound,
                     "funnel": report.funnel().to_dict(orient="records")}
        out.write(f"screening ({report.level}): {report.n_kept:,} of {report.n_columns:,} terms "
                  f"kept ({_pct(report.fraction_screened)} screened), "
                  f"{'certified' if report.certified else 'NOT certified'}\n")

    alternatives = _alternatives(args, est, ds.X.iloc[tr], y01[tr], ds.X.iloc[te], y01[te],
                                 out)
    _export(args, rule, "rule", out, ds)
    if args.json:
        result = {"dataset": ds.name, "target": ds.target, "positive": ds.positive,
                  "model": args.model, "rule": str(rule), "rule_json": rule.to_dict(),
                  "conditions": getattr(rule, "n_conditions", len(rule)),
                  "options": {"lam": lam, "lam_chosen": getattr(est, "lam_", lam),
                              "rule_type": getattr(est, "rule_type_", settings.rule_type),
                              "error": getattr(est, "error_", settings.error),
                              "n_thresholds": int(est.binarizer_.n_thresholds),
                              "thresholds": args.thresholds,
                              "negations": not args.no_negations, "solver": args.solver,
                              "screening": args.screening, "time_limit": args.time_limit,
                              "class_weight": est.class_weight_used_, "test_size": args.test_size,
                              "seed": args.seed, "max_rules": args.max_rules,
                              "n_rounds": args.n_rounds},
                  "metrics": {"train": m_train, "test": m_test or None},
                  "solver": solver, "screening": screening, "notes": list(ds.notes),
                  "status": {"level": claim.level, "text": claim.text},
                  "findings": [{"level": f.level, "text": for_command_line(f.text)}
                               for f in findings],
                  "columns": [{**r.to_dict(), "kind": ds.kinds.get(r.column)}
                              for r in ds.roles],
                  "dropped_rows": ds.dropped_rows, "possible_leaks": ds.leaks}
        if alternatives is not None:
            result["alternatives"] = alternatives
        if args.model == "single":
            result["options"].update(require=list(settings.require),
                                     forbid=list(settings.forbid),
                                     max_conditions=settings.max_conditions,
                                     fp_cost=settings.fp_cost, fn_cost=settings.fn_cost)
        _write(args.json, json.dumps(_jsonable(result), indent=2, default=str))
        out.write(f"wrote the result to {args.json}\n")
    return EXIT_OK


# --------------------------------------------------------------------------- apply


def cmd_apply(args: argparse.Namespace, out: TextIO) -> int:
    from rulecore.data import read_csv_frame, written_delimiter
    from rulecore.rules.rule import RuleList, safe_csv
    from rulecore.scoring import apply_rule, load_rule

    try:
        text = Path(args.rule).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"Cannot read the rule {args.rule}: "
                        f"{getattr(exc, 'strerror', None) or exc}.") from None
    rule = load_rule(text)
    frame, name = read_csv_frame(args.csv, sheet=args.sheet)
    scored = apply_rule(rule, frame, typed=False, zero_missing=_columns(args.zero_missing),
                        keep_codes=_columns(args.keep_codes), name=name)
    out.write(f"{name}: {len(frame):,} rows\n")
    # the rule's columns' notes come back from the reading of those columns: once each
    for note in dict.fromkeys(list(frame.attrs.get("notes", ())) + scored.notes):
        out.write(f"note: {note}\n")
    out.write("\n" + rule.to_text() + "\n\n")
    what = "rule" if isinstance(rule, RuleList) else \
        "condition" if hasattr(rule, "conditions") else "clause"
    for p in scored.parts.itertuples():
        out.write(f"  {_padded(p.part, 58)} {what} holds for {p.rows:>8,} rows "
                  f"({_pct(p.share)})\n")
    if not isinstance(rule, RuleList):
        out.write(f"\nthe rule holds for {int(scored.fires.sum()):,} of {len(frame):,} rows "
                  f"({_pct(scored.fires.mean())})\n")
    counts = scored.prediction.astype(str).value_counts()
    out.write("predicted: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()) + "\n")
    m = scored.metrics
    if m:
        said = f"accuracy {_pct(m['accuracy'])}"
        if "precision" in m:
            said += f", precision {_pct(m['precision'])}, recall {_pct(m['recall'])}"
        out.write(f"against the table's {rule.target}: {said} ({m['rows']:,} rows with a "
                  f"value); always the most frequent class: {_pct(m['majority'])}\n")
    for w in scored.warnings:
        out.write(f"warning: {w}\n")
    if args.output:
        try:
            Path(args.output).write_bytes(safe_csv(scored.table(frame), index=False,
                                                   sep=written_delimiter(frame)))
        except OSError as exc:
            raise DataError(f"Cannot write {args.output}: {exc.strerror or exc}.") from None
        out.write(f"wrote the table with '{scored.prediction.name}' to {args.output}\n")
    return EXIT_OK


# --------------------------------------------------------------------------- screen


def cmd_screen(args: argparse.Namespace, out: TextIO) -> int:
    from rulecore.rules.clause import screen_problem
    from rulecore.rules.screening import TEST_LABELS
    from rulecore.rules.terms import Binarizer

    ds = load_dataset(args)
    # the single rule's first clause problem, exactly as `learn` would solve it
    settings = _settings(args, ds, model="single")
    binarizer = Binarizer(n_thresholds=settings.n_thresholds, thresholds=settings.thresholds,
                          negations=settings.negations, kinds=ds.kinds).fit(ds.X)
    problem = settings.estimator().problem(binarizer.transform(ds.X), ds.y_binary, binarizer)
    lam = settings.lam_value
    report = screen_problem(problem, args.level, time_limit=args.time_limit)
    funnel = report.funnel()
    alone = pd.DataFrame([{"test": TEST_LABELS.get(k, k), "removes alone": int(v.sum())}
                          for k, v in report.alone.items()])
    if args.format == "csv":
        text = funnel.to_csv(index=False)
    else:
        text = markdown_table(funnel)
    if args.output:
        _write(args.output, text)
    out.write(f"{ds.name}: {problem.n_terms:,} terms on {ds.n_samples:,} rows, λ = {lam:g}, "
              f"{args.rule_type.upper()} rule, level {args.level}\n")
    out.write(f"kept {report.n_kept:,} of {report.n_columns:,} terms "
              f"({_pct(report.fraction_screened)} screened) in {report.seconds:.2f} s; "
              f"{'certified' if report.certified else 'NOT certified'}; 0/1 optimum in "
              f"[{report.lower_bound:.6g}, {report.upper_bound:.6g}]\n\n")
    out.write((markdown_table(funnel) if args.format == "markdown" else text) + "\n")
    if len(alone):
        out.write("\nEach test alone on all terms:\n\n" + markdown_table(alone) + "\n")
    if args.output:
        out.write(f"\nwrote the funnel to {args.output}\n")
    if args.json:
        kept_terms = [str(binarizer.terms_[j]) for j in np.flatnonzero(report.kept)]
        _write(args.json, json.dumps(_jsonable({
            "dataset": ds.name, "lam": lam, "level": report.level,
            "n_columns": report.n_columns, "n_kept": report.n_kept,
            "fraction_screened": report.fraction_screened, "certified": report.certified,
            "upper_bound": report.upper_bound, "lower_bound": report.lower_bound,
            "seconds": report.seconds, "funnel": funnel.to_dict(orient="records"),
            "kept_terms": kept_terms}), indent=2, default=str))
    return EXIT_OK


# --------------------------------------------------------------------------- compare


#: Command-line names of the models in :data:`rulecore.compare.REGISTRY`.
COMPARE_ALIASES = {
    "single": "Single rule", "rule-set": "Rule set (auto)", "set-covering": "Set covering",
    "boosting": "Boosting", "sparse-svm": "Sparse SVM",
    "sparse-logistic": "Sparse logistic", "datumwise": "Datum-wise",
    "l1-logistic": "L1 logistic (sklearn)", "cart": "CART (sklearn)",
}
DEFAULT_COMPARE = ("single", "rule-set", "set-covering", "boosting", "cart", "l1-logistic")


def _kept_together(ds: Any, te: np.ndarray) -> str:
    """How the held-out rows were chosen, where a repeated identifier groups them."""
    if ds.groups is None or not len(te):
        return ""
    return f" (held out by {ds.held_out_unit})"


def _compare_models(args: argparse.Namespace) -> dict[str, dict]:
    """``{registry name: parameter overrides}`` from ``--models`` and the model options."""
    from rulecore.compare import REGISTRY

    names = [n.strip() for n in args.models.split(",") if n.strip()] if args.models else \
        list(DEFAULT_COMPARE)
    chosen: dict[str, dict] = {}
    for n in names:
        full = COMPARE_ALIASES.get(n, n)
        if full not in REGISTRY:
            raise ParameterError(f"Unknown model {n!r}; choose from "
                                 f"{', '.join(COMPARE_ALIASES)}.")
        given = {"lam": args.lam, "n_thresholds": args.n_thresholds,
                 "time_limit": args.time_limit, "max_rules": args.max_rules,
                 "n_rounds": args.n_rounds, "max_depth": args.max_depth, "C": args.C,
                 "k": args.k, "gamma": args.gamma, "random_state": args.seed}
        defaults = REGISTRY[full].defaults
        # Only settings the model has (or takes as an optional seed) and the user gave.
        chosen[full] = {k: v for k, v in given.items() if v is not None and
                        (k in defaults or k == "random_state")}
    return chosen


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    from rulecore.compare import compare_models
    from rulecore.fit import split_labels

    ds = load_dataset(args)
    if not 0 < args.test_size < 1:
        raise ParameterError("compare needs a held-out share: --test-size between 0 and 1.")
    # what loading decided, its leaks and notes, as learn says them: a table of perfect scores
    # from a column that restates the target came with no word of it (a stranger's review).
    # A CSV written to the terminal stays a CSV: the words go to stderr then.
    models = _compare_models(args)  # a bad model name is refused before anything is said
    words = out if args.output or args.format == "markdown" else sys.stderr
    describe_data(ds, words)
    progress = Progress("Comparing models")
    result = compare_models(ds.X, ds.y_binary, models, test_size=args.test_size,
                            random_state=args.seed, kinds=ds.kinds, groups=ds.groups,
                            stratify=split_labels(ds, args.test_size),
                            progress=lambda done, total, name: progress(done, total))
    for name, reason in result.skipped.items():
        sys.stderr.write(f"rulecore compare: skipped {name}: {reason}\n")
    table = result.table
    text = table.to_csv(index=False) if args.format == "csv" else markdown_table(table)
    if args.output:
        _write(args.output, text)
        out.write(f"\n{ds.target} = {ds.positive}, {len(result.train):,} train / "
                  f"{len(result.test):,} test rows\n\n" + markdown_table(table) + "\n")
    else:
        if words is out:
            out.write(f"\n{ds.target} = {ds.positive}, {len(result.train):,} train / "
                      f"{len(result.test):,} test rows\n\n")
        out.write(text + ("" if text.endswith("\n") else "\n"))
    words.write(_compare_baseline(ds, result, table))
    if args.output:
        out.write(f"wrote the comparison to {args.output}\n")
    return EXIT_OK


def _compare_baseline(ds, result, table: pd.DataFrame) -> str:
    """What the Compare page says under its table: the majority class's score on the same
    test rows, which models are within luck of the best, and on a many-class target what
    every model tells apart."""
    from rulecore.report import chance_words

    y_test = np.asarray(ds.y_binary)[result.test]
    n = len(y_test)
    rate = float(y_test.mean()) if n else float("nan")
    other = (next(c for c in ds.classes if c != ds.positive) if len(ds.classes) == 2
             else f"not {ds.positive}")
    majority = ds.positive if rate > 0.5 else other
    lines = [f"always predicting {majority}: accuracy {max(rate, 1 - rate):.3f}, balanced "
             f"accuracy 0.500 on the {n:,} test rows"]
    luck = chance_words(dict(zip(table["model"], table["accuracy"])), n,
                        ds.held_out_records(result.train, result.test) if n else None)
    if luck:
        lines.append(luck[0].lower() + luck[1:].rstrip("."))
    if len(ds.classes) > 2:
        lines.append(f"the target has {len(ds.classes)} classes: every model here tells "
                     f"{ds.positive} from the other {len(ds.classes) - 1} (one-vs-rest)")
    return "".join(f"note: {ln}\n" for ln in lines)


# --------------------------------------------------------------------------- sweep


def cmd_sweep(args: argparse.Namespace, out: TextIO) -> int:
    from rulecore.sweep import pareto_front, sweep
    from rulecore.viz.rules import pareto_figure

    ds = load_dataset(args)
    lams = _lam_grid(args)
    thresholds = _thresholds(args.thresholds_grid)
    progress = Progress(f"Sweep: {len(lams)} λ × {len(thresholds)} thresholds × "
                        f"{args.cv}-fold CV")
    table = sweep(ds.X, ds.y, positive=ds.positive, lams=lams, thresholds=thresholds, cv=args.cv,
                  model=args.model, rule_type=args.rule_type or "and",
                  negations=not args.no_negations,
                  solver=args.solver, time_limit=args.time_limit, screening=args.screening,
                  class_weight=args.class_weight, max_rules=args.max_rules,
                  n_rounds=args.n_rounds, kinds=ds.kinds, random_state=args.seed,
                  backend=args.backend, scheduler=args.scheduler, n_jobs=args.n_jobs,
                  progress=progress)
    front = pareto_front(table)
    show = ["n_thresholds", "lam", "conditions", "cv_error", "cv_error_std", "status", "rule"]
    if args.table:
        _write(args.table, table.to_csv(index=False))
    if args.html:
        fig = pareto_figure(table)
        fig.update_layout(title=f"{ds.name}: {ds.target} = {ds.positive}, "
                          f"{args.cv}-fold CV error against rule size")
        try:
            fig.write_html(args.html, include_plotlyjs="cdn" if args.cdn else True)
        except OSError as exc:
            raise DataError(f"Cannot write {args.html}: {exc.strerror or exc}.") from None
    if args.output:
        _write(args.output, front.to_csv(index=False))
        out.write(f"Pareto front ({len(front)} of {len(table)} grid points), {ds.target} = "
                  f"{ds.positive}:\n\n" + markdown_table(front[show]) + "\n")
        for path, what in ((args.output, "front"), (args.table, "full table"),
                           (args.html, "plot")):
            if path:
                out.write(f"wrote the {what} to {path}\n")
    else:
        out.write(front.to_csv(index=False))
    return EXIT_OK


# --------------------------------------------------------------------------- stability


def cmd_stability(args: argparse.Namespace, out: TextIO) -> int:
    """Refit learn's rule on K folds (or bootstraps): condition frequencies, error spread,
    stability score (:func:`rulecore.rules.stability.stability`)."""
    from rulecore.fit import multiclass, stability_on

    ds = load_dataset(args)
    settings = _settings(args, ds)
    many = multiclass(settings, ds)
    what = "bootstraps" if args.bootstrap else "folds"
    progress = Progress(f"Stability: {args.folds} {what} of a {args.model} rule")
    result = stability_on(settings, ds, n_splits=args.folds, bootstrap=args.bootstrap,
                          random_state=args.seed, backend=args.backend,
                          scheduler=args.scheduler, n_jobs=args.n_jobs, progress=progress)
    # numbered from 1, as the app's Stability tab numbers them (JSON keeps the fold index)
    folds = result.fold_table.drop(columns="seconds")
    folds = folds.assign(fold=folds["fold"] + 1)
    if args.json:
        payload = {"dataset": ds.name, "target": ds.target,
                   "positive": None if many else ds.positive, "model": args.model,
                   "seed": args.seed, **result.to_dict()}
        out.write(json.dumps(_jsonable(payload), indent=2, default=str) + "\n")
        return EXIT_OK
    if many:
        out.write(f"{ds.name}: {ds.n_samples:,} rows; predicting {ds.target} "
                  f"({len(ds.classes)} classes, all learned)\n")
    else:
        describe_data(ds, out)
    out.write(f"{result.method} of a {args.model} rule\n\n")
    out.write(f"stability score: {result.score:.3f} (mean Jaccard similarity of the folds' "
              "condition sets; 1 = the same conditions in every fold)\n")
    out.write(f"held-out error: {_pct(result.error_mean)} ± {_pct(result.error_std)} "
              f"(min {_pct(result.error_min)}, max {_pct(result.error_max)})\n\n")
    table = result.conditions[["condition", "folds", "frequency"]].assign(
        frequency=lambda t: t["frequency"].map(_pct))
    out.write(markdown_table(table) + "\n\n" if len(table) else
              "no fold's rule has a condition\n\n")
    out.write(markdown_table(folds[["fold", "rule", "predicts", "conditions", "error"]]
                             if not many else folds[["fold", "rule", "conditions", "error"]])
              + "\n")
    return EXIT_OK


def cmd_samples(args: argparse.Namespace, out: TextIO) -> int:
    from rulecore.samples import SAMPLES

    for name, s in SAMPLES.items():
        out.write(f"{name:<24} {s.title}\n")
    return EXIT_OK


# --------------------------------------------------------------------------- parser


def _data_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("data")
    g.add_argument("csv", nargs="?", metavar="FILE",
                   help="the table: CSV or other delimited text (delimiter and header are "
                        "detected), an Excel workbook (.xlsx, .xls, .xlsb, XML 2003, or a "
                        "web page saved as .xls), an OpenDocument spreadsheet (.ods), "
                        "Parquet, Feather, Stata, SPSS (.sav) or SAS "
                        "(.sas7bdat, .xpt) file, JSON records, or LIBSVM; also "
                        "gzip-compressed or alone in a .zip")
    g.add_argument("--sheet", metavar="NAME",
                   help="the workbook sheet to read (default: the largest, counting at most "
                        "8 columns a row)")
    g.add_argument("--sample", metavar="NAME", help="a bundled sample instead of a file")
    g.add_argument("--target", help="target column (default: the most plausible class "
                   "column: named like a target, binary, or text with a few levels)")
    g.add_argument("--positive", metavar="LABEL",
                   help="class the rule predicts (default: the minority class), or for a "
                        "numeric target a threshold such as '>40' (rows above are positive)")
    g.add_argument("--include", metavar="COL[,COL...]", action="append",
                   help="use these columns although they look like row numbers, "
                        "identifiers, free text or constants")
    g.add_argument("--exclude", metavar="COL[,COL...]", action="append",
                   help="leave these columns out of the features")
    g.add_argument("--numeric", metavar="COL[,COL...]", action="append",
                   help="read these columns as numbers (thresholds), e.g. a column named "
                        "like a code that holds amounts")
    g.add_argument("--categorical", metavar="COL[,COL...]", action="append",
                   help="read these columns as categories (== terms), e.g. numbered codes")
    g.add_argument("--order", metavar="COL=LOW<...<HIGH", action="append",
                   help="read a column's levels in this order, lowest first, e.g. "
                        "--order 'grade=F<D<C<B<A' (repeat for several columns); scales such "
                        "as Disagree < Neutral < Agree and bands such as 18-24 < 25-34 are "
                        "read in order without it")
    g.add_argument("--zero-missing", metavar="COL[,COL...]", action="append",
                   help="read 0 in these numeric columns as missing (not measured), e.g. a "
                        "glucose of 0; the notes name columns whose zeros look like that")
    g.add_argument("--keep-codes", metavar="COL[,COL...]", action="append",
                   help="keep a missing-value code (-999, 99999) in these numeric columns as a "
                        "number, e.g. a top-code 99999 meaning '99,999 or more'; the notes name "
                        "the columns whose codes were read as missing")


def _term_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("terms")
    g.add_argument("--n-thresholds", type=int, default=None,
                   help="quantile thresholds per numeric column (default 10; the rule set on "
                        "more than two classes: chosen by cross-validation among 10, 20, 40)")
    g.add_argument("--thresholds", choices=S.THRESHOLDS, default="quantile",
                   help="'all' uses every midpoint between distinct values")
    g.add_argument("--no-negations", action="store_true", help="no '>' / '!=' terms")


def _rule_options(p: argparse.ArgumentParser, with_lam: bool = True) -> None:
    g = p.add_argument_group("rule")
    if with_lam:
        g.add_argument("--lam", type=_number_or_auto, default=None,
                       help="λ, weight of errors against conditions (default 1; 1000 for "
                            "boosting; the rule set: auto), or auto: chosen by 3-fold "
                            "cross-validation; the single rule is then tuned for accuracy "
                            "(rule type auto, errors counted per row, no class weight, "
                            "unless given)")
    g.add_argument("--rule-type", choices=S.RULE_TYPE_CHOICES, default=None,
                   help="and, or, or auto: the one with the lower inner-CV error (single rule; "
                        "default and, auto with --lam auto)")
    g.add_argument("--model", choices=tuple(S.MODELS.values()), default="single")
    g.add_argument("--multiclass", choices=S.MULTICLASS_CHOICES, default="one-vs-rest",
                   help="the rule set on more than two classes: one-vs-rest (default; one "
                        "rule set per class, by precision), sequential (class by class from "
                        "the rarest, each on the rows the earlier ones leave: a shorter list) "
                        "or auto (chosen by the inner cross-validation)")
    g.add_argument("--max-rules", type=int, default=5, help="clauses for set covering")
    g.add_argument("--n-rounds", type=int, default=5, help="rounds for boosting")
    g.add_argument("--solver", choices=S.SOLVERS, default="mip")
    g.add_argument("--screening", choices=S.SCREENING,
                   default=S.DEFAULT_SCREENING)
    g.add_argument("--time-limit", type=float, default=S.DEFAULT_TIME_LIMIT,
                   help="seconds per solve")
    g.add_argument("--class-weight", choices=S.CLASS_WEIGHTS,
                   default="auto",
                   help="auto (default): sqrt (none for the single rule with --lam auto), "
                        "or balanced for boosting; sqrt: a minority "
                        "row's error weighs √(majority/minority) rows, so a rare positive "
                        "class still gets a rule; balanced: both classes count equally; "
                        "none: every row counts once")
    g.add_argument("--seed", type=int, default=0, help="random seed (split, folds, rounding)")


def _constraint_options(p: argparse.ArgumentParser) -> None:
    """The single rule's constraints and error costs (docs/clause.md, "Constraints")."""
    g = p.add_argument_group("constraints and costs (single rule)")
    g.add_argument("--require", metavar="COL[,COL...]", action="append",
                   help="columns the rule must use (one condition at least on each)")
    g.add_argument("--forbid", metavar="COL[,COL...]", action="append",
                   help="columns the rule must not use")
    g.add_argument("--max-conditions", type=int, default=None, metavar="N",
                   help="at most N conditions")
    g.add_argument("--fp-cost", type=float, default=1.0,
                   help="what a false positive costs in the objective (default 1)")
    g.add_argument("--fn-cost", type=float, default=1.0,
                   help="what a false negative costs in the objective (default 1)")
    g.add_argument("--error", choices=S.ERRORS, default=None,
                   help="how a wrong row counts: hamming (default, the BCS paper's: a "
                        "positive once per condition it fails; certified) or exact (once; "
                        "beam search, then the MIP tries to prove it; the default with "
                        "--lam auto)")


def _execution_options(p: argparse.ArgumentParser) -> None:
    """Where independent fits run (``sweep``, ``stability``): rulecore.sweep.backend_config."""
    g = p.add_argument_group("execution")
    g.add_argument("--backend", choices=("loky", "threading", "sequential", "dask", "ray"),
                   default=None, help="where the fits run (default: local processes)")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler (tcp://host:8786) or Ray address")
    g.add_argument("--n-jobs", type=int, default=None,
                   help="local workers (default: all cores; -1 all)")


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line and a pointer to ``--help``: the whole
    usage of ``rulecore learn`` (twelve lines) buried the message under it (a newcomer's
    review of ``--lam nonsense``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\nSee '{self.prog} --help'.\n")


def build_parser() -> argparse.ArgumentParser:
    from rulecore import __version__

    parser = _Parser(
        prog="rulecore", description="Interpretable classification rules from the command "
        "line (the Rule Explorer app's engine).")
    parser.add_argument("--version", action="version", version=f"rulecore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("learn", help="learn one rule (or rule set) and export it",
                       description="Learn a rule as on the Rule page; print it as a checklist.")
    _data_options(p)
    _term_options(p)
    _rule_options(p)
    _constraint_options(p)
    p.add_argument("--test-size", type=float, default=0.25,
                   help="held-out share for the test metrics (0: learn on every row)")
    g = p.add_argument_group("output")
    g.add_argument("--alternatives", type=int, default=None, metavar="K",
                   help="also list the K best rules with different predictions (the first "
                        "is the learned rule; single rule only)")
    g.add_argument("--export", choices=("text", "markdown", "json", "sql", "python"),
                   help="export format (default: from the --output suffix)")
    g.add_argument("--output", "-o", metavar="FILE", help="write the export here")
    g.add_argument("--json", metavar="FILE",
                   help="write metrics, solver status, gap and screening summary as JSON")
    g.add_argument("--progress", action="store_true",
                   help="print the fit's stages with the seconds so far to stderr (shown "
                        "anyway when stderr is a terminal)")
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser("apply", help="apply a saved rule to a table: predict every row",
                       description="Apply a rule saved as JSON (learn --export json, or the "
                       "result of learn --json) to a table: its columns are read as they were "
                       "to learn it, every row is predicted, and the table is checked against "
                       "the rule (columns missing, levels never seen, conditions that hold "
                       "for no row). With the target's column present, the accuracy.")
    p.add_argument("rule", metavar="RULE", help="the rule's JSON file")
    p.add_argument("csv", metavar="FILE", help="the table to apply it to (as for learn)")
    p.add_argument("--sheet", metavar="NAME", help="the workbook sheet to read")
    p.add_argument("--zero-missing", metavar="COL[,COL...]", action="append",
                   help="read 0 in these numeric columns as missing, as when the rule was "
                        "learned with --zero-missing")
    p.add_argument("--keep-codes", metavar="COL[,COL...]", action="append",
                   help="keep a missing-value code in these columns as a number, as when the "
                        "rule was learned with --keep-codes")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the table with a 'predicted <target>' column as CSV")
    p.set_defaults(func=cmd_apply)

    p = sub.add_parser("screen", help="the screening report and funnel",
                       description="Certified screening of the rule LP's terms.")
    _data_options(p)
    _term_options(p)
    p.add_argument("--lam", type=float, default=None, help="λ (default 1)")
    p.add_argument("--rule-type", choices=S.RULE_TYPES, default="and")
    p.add_argument("--level", choices=("basic", "enhanced"), default="enhanced")
    p.add_argument("--class-weight", choices=S.CLASS_WEIGHTS,
                   default="auto")
    p.add_argument("--time-limit", type=float, default=S.DEFAULT_TIME_LIMIT)
    p.add_argument("--format", choices=("markdown", "csv"), default="markdown")
    p.add_argument("--output", "-o", metavar="FILE", help="write the funnel table here")
    p.add_argument("--json", metavar="FILE", help="write the report summary as JSON")
    p.set_defaults(func=cmd_screen)

    p = sub.add_parser("compare", help="several models on one train/test split",
                       description="Fit several models on one stratified train/test split; "
                       "table of accuracy, AUC, size and features used (the Compare page's).")
    _data_options(p)
    p.add_argument("--models", help="comma-separated, from " + ", ".join(COMPARE_ALIASES)
                   + " (default: " + ",".join(DEFAULT_COMPARE) + ")")
    g = p.add_argument_group("model settings (each model's own default when not given)")
    g.add_argument("--lam", type=float, help="λ of the rule models")
    g.add_argument("--n-thresholds", type=int, help="thresholds per numeric column (rules)")
    g.add_argument("--time-limit", type=float, help="seconds per solve")
    g.add_argument("--max-rules", type=int, help="clauses for set covering")
    g.add_argument("--n-rounds", type=int, help="rounds for boosting")
    g.add_argument("--max-depth", type=int, help="CART depth")
    g.add_argument("--C", type=float, help="inverse L1 strength of the logistic regression")
    g.add_argument("-k", "--k", type=int, help="non-zeros of the sparse models")
    g.add_argument("--gamma", type=_number_or_auto, metavar="GAMMA|auto",
                   help="γ of the sparse models: a positive number, or 'auto' (the default: "
                   "scaled to k and the training rows, docs/sparse.md)")
    p.add_argument("--test-size", type=float, default=0.25)
    p.add_argument("--seed", type=int, default=0, help="random seed of the split")
    p.add_argument("--format", choices=("markdown", "csv"), default="markdown")
    p.add_argument("--output", "-o", metavar="FILE")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("sweep", help="λ × thresholds grid with k-fold CV; Pareto front",
                       description="Cross-validated grid of rules; the Pareto front of rule "
                       "size against CV error as CSV.")
    _data_options(p)
    _rule_options(p, with_lam=False)
    p.add_argument("--no-negations", action="store_true", help="no '>' / '!=' terms")
    g = p.add_argument_group("grid")
    g.add_argument("--lams", default="0.1,1,10", help="λ values, comma-separated")
    g.add_argument("--lam-range", metavar="LOW:HIGH:COUNT",
                   help="log-spaced λ values instead of --lams")
    g.add_argument("--thresholds", dest="thresholds_grid", default="10",
                   help="thresholds per numeric column, comma-separated counts or 'all'")
    g.add_argument("--cv", type=int, default=5, help="folds (default 5)")
    g = p.add_argument_group("output")
    g.add_argument("--output", "-o", metavar="FILE",
                   help="Pareto front as CSV (default: CSV on stdout)")
    g.add_argument("--table", metavar="FILE", help="every grid point as CSV")
    g.add_argument("--html", metavar="FILE", help="plotly figure of the front as HTML")
    g.add_argument("--cdn", action="store_true",
                   help="load plotly.js from its CDN in --html (smaller file)")
    _execution_options(p)
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("stability", help="refit on K folds or bootstraps: how often each "
                       "condition comes back",
                       description="Refit the rule learn would fit on K cross-validation folds "
                       "(or bootstraps): how often each condition comes back (nearby thresholds "
                       "grouped), the spread of the held-out error, and one stability score "
                       "(docs/stability.md).")
    _data_options(p)
    _term_options(p)
    _rule_options(p)
    _constraint_options(p)
    g = p.add_argument_group("stability")
    g.add_argument("--folds", type=int, default=5,
                   help="cross-validation folds, or bootstraps with --bootstrap (default 5)")
    g.add_argument("--bootstrap", action="store_true",
                   help="stratified bootstraps scored on their out-of-bag rows instead of "
                        "k-fold")
    g.add_argument("--json", action="store_true",
                   help="print the result as JSON instead of tables")
    _execution_options(p)
    p.set_defaults(func=cmd_stability)

    p = sub.add_parser("samples", help="list the bundled samples")
    p.set_defaults(func=cmd_samples, csv=None, sample=None)
    return parser


def _warn_line(message, category, filename, lineno, file=None, line=None) -> None:
    sys.stderr.write(f"rulecore: warning: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input, 130 interrupted)."""
    import warnings

    from rulecore.sweep import SweepWarning

    parser = build_parser()
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.showwarning = _warn_line  # one plain line on stderr, not a source excerpt
        warnings.simplefilter("always", SweepWarning)
        try:
            if hasattr(args, "test_size") and not 0 <= args.test_size < 1:
                raise ParameterError("--test-size must be at least 0 and below 1.")
            return args.func(args, sys.stdout)
        except RulecoreError as exc:
            sys.stderr.write(f"rulecore {args.command}: error: {exc}\n")
            return EXIT_USER_ERROR
        except KeyboardInterrupt:
            sys.stderr.write("\ninterrupted\n")
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            # the output piped into `head`, which has read enough: no traceback (Python's
            # documented way: stdout to devnull, so its flush at exit fails no more)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return EXIT_USER_ERROR


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
