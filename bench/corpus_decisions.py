"""What the defaults decide on the corpus of analysts' tables (``tests/data``), old and new.

For every file: the target and positive class chosen, the columns left out and why, derived
date features, rows dropped for a missing target, possible leaks, and the rule the Rule page
learns with its defaults (single AND rule, λ = 1, 10 quantile thresholds, exact MIP,
enhanced screening, class weights √ ratio, 25 % held out with seed 0), with its held-out
accuracy, balanced accuracy and the warnings the page shows.

Beside it, what the loader and rule of the previous release did with the same file: the
last column as the target, the first class in sorted order as the positive class, every
column but empty / constant / all-distinct text as a feature, unweighted errors.  (Emulated
here with ``include=`` every column and ``class_weight=None``.)

    .venv/bin/python bench/corpus_decisions.py --out bench/results/corpus_decisions.md

The same on the shared benchmark files as they come (UCI ``.data`` files without a header,
LIBSVM files), as a stranger would upload them:

    .venv/bin/python bench/corpus_decisions.py --files '../shared/datasets/*/*' \
        --out bench/results/shared_datasets_decisions.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
from bcs_table1 import emit  # noqa: E402

from rulecore.data import (  # noqa: E402
    _json_objects_flattened,
    load_csv,
    read_csv_frame,
    train_test_indices,
)
from rulecore.exceptions import RulecoreError  # noqa: E402
from rulecore.metrics import binary_metrics  # noqa: E402
from rulecore.report import assess, fit_status  # noqa: E402
from rulecore.rules.estimators import make_rule_model  # noqa: E402

CORPUS = ROOT / "tests" / "data"
RULE = dict(lam=1.0, rule_type="and", n_thresholds=10, thresholds="quantile", negations=True,
            solver="mip", time_limit=30.0, screening="enhanced")


def cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"


def fit(ds, class_weight):
    y = ds.y_binary
    tr, te = train_test_indices(y, 0.25, 0)
    model = make_rule_model("single rule", kinds=ds.kinds, class_weight=class_weight, **RULE)
    model.fit(ds.X.iloc[tr], y[tr])
    pred_tr, pred_te = model.predict(ds.X.iloc[tr]), model.predict(ds.X.iloc[te])
    m = binary_metrics(y[te], pred_te)
    findings = assess(y[tr], pred_tr, y[te], pred_te, positive=ds.positive,
                      class_weight=class_weight, features=model.rule_.features, leaks=ds.leaks)
    return model, m, findings, float(pred_tr.mean())


def old_defaults(path: Path) -> str:
    """The previous release's choices, emulated: last column, first sorted class, no roles."""
    frame, _ = read_csv_frame(path)
    frame = _json_objects_flattened(frame)[0]  # the names a load knows (device.category)
    target = str(frame.columns[-1])
    try:
        ds = load_csv(path, target=target, include=[c for c in frame.columns if c != target],
                      continuous="refuse")
    except RulecoreError as exc:
        # the old loader took any column as classes: a continuous target got one class per
        # value, and the first value was "the positive class"
        # the message's first sentence (a column's name may hold a dot: usage.storageGb)
        first = re.split(r"(?<=[.:])\s", str(exc), maxsplit=1)[0].rstrip(".:")
        return f"target `{target}` as classes (refused now: {first})"
    ds = ds.with_positive(ds.classes[0])
    model, m, findings, fires = fit(ds, None)
    warn = "; ".join(f.short for f in findings if f.level == "warning")
    return (f"target `{target}`, positive `{ds.positive}` ({ds.base_rate:.0%}); rule "
            f"`{model.rule_}`; fires on {fires:.0%} of training rows; test accuracy "
            f"{m['accuracy']:.3f}, balanced {m['balanced_accuracy']:.3f}"
            + (f"; warnings now: {warn}" if warn else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--files", help="a glob of files instead of tests/data (descriptions "
                    "such as *.names are skipped)")
    args = ap.parse_args()
    if args.files:
        import glob

        paths = [Path(p) for p in sorted(glob.glob(args.files))
                 if Path(p).is_file() and not p.endswith((".names", ".md", "DOCUMENTATION"))]
        command = (f"`.venv/bin/python bench/corpus_decisions.py --files '{args.files}' "
                   f"--out {args.out}`")
        source = f"Files: `{args.files}`, as they come."
    else:
        # every file the generator writes (a list of extensions left out a new .json file)
        paths = sorted(p for p in CORPUS.iterdir() if p.is_file() and p.suffix != ".py")
        command = ("`.venv/bin/python bench/corpus_decisions.py --out "
                   "bench/results/corpus_decisions.md`")
        source = "Files: `tests/data/` (written by `tests/data/make_corpus.py`)."
    lines = ["# Default decisions on the corpus of analysts' tables", "",
             f"Machine: {cpu()}. Date: {dt.date.today()}. Command: {command}.", "",
             f"{source} Rule: the Rule "
             "page's defaults (single AND rule, λ = 1, 10 quantile thresholds, exact MIP, "
             "enhanced screening, class weights √ ratio, 25 % held out, seed 0).", "",
             "## Decisions", "",
             "| file | target (positive, base rate) | left out (why) | derived | rows dropped "
             "| possible leaks |", "|---|---|---|---|---:|---|"]
    rules = ["", "## The default rule", "",
             "| file | rule | certified | fires on (train) | test accuracy | majority | "
             "test balanced accuracy | warnings |", "|---|---|---|---:|---:|---:|---:|---|"]
    old = ["", "## The previous defaults on the same files", "",
           "Last column as target, first class in sorted order as positive, every column a "
           "feature (row numbers, identifiers, free text), unweighted errors.", "",
           "| file | previous defaults |", "|---|---|"]
    for path in paths:
        label = f"{path.parent.name}/{path.name}" if args.files else path.name
        try:
            ds = load_csv(path, continuous="median")
        except RulecoreError as exc:
            lines.append(f"| {label} | refused: {exc} | | | | |")
            continue
        left = "; ".join(f"{r.column} ({r.reason})" for r in ds.excluded) or "–"
        derived = ", ".join(r.column for r in ds.roles if r.role == "derived") or "–"
        leaks = ", ".join(f"{c} ({a:.1%})" for c, a in ds.leaks.items()) or "–"
        lines.append(f"| {label} | `{ds.target}` = `{ds.positive}` ({ds.base_rate:.1%}) "
                     f"| {left} | {derived} | {ds.dropped_rows:,} | {leaks} |")
        model, m, findings, fires = fit(ds, "sqrt")
        certified = fit_status(model).level == "success"
        warn = " / ".join(f.short for f in findings if f.level == "warning") or "–"
        rules.append(f"| {label} | `{model.rule_}` | {'yes' if certified else 'no'} | "
                     f"{fires:.0%} | {m['accuracy']:.3f} | {m['majority']:.3f} | "
                     f"{m['balanced_accuracy']:.3f} | {warn} |")
        try:
            old.append(f"| {label} | {old_defaults(path)} |")
        except RulecoreError as exc:
            old.append(f"| {label} | refused: {str(exc)[:200]} |")
    emit(lines + rules + old, args.out)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
