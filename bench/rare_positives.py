"""Rare positives: which default still yields a useful rule, class weights or λ scaled to data?

With unit weights the AND-rule objective is ``#conditions + λ (false positives + Σ_positives
#conditions they violate)`` (``rulecore.bcs``).  When positives are rare, a rule that never
fires (two contradictory conditions ``x <= a AND x > b``, b ≥ a) costs ``2 + λ n₊``, which
beats any rule that has to pay for false alarms among the many negatives, so today's default
(λ = 1, unweighted, AND, 10 quantile thresholds, exact MIP) never predicts the positive class.
This script measures the candidate defaults side by side on the same folds.

Options (n, n₊: rows and positives of the *training* fold, so every λ below is computed from
the data the estimator sees):

- ``default``        unweighted errors, λ = 1 (today's default);
- ``balanced``       ``class_weight="balanced"`` (each class's errors weigh n / (2 n_class),
  so both classes' errors total n/2), λ = 1;
- ``bal λ=0.1``, ``bal λ=10``  balanced, λ = 0.1 and 10: how sensitive balanced is to λ;
- ``λ=n/2n₊``        unweighted, λ = n / (2 n₊): λ scaled by the inverse base rate, so one
  missed positive costs what it costs under ``balanced`` (but a false alarm costs as much);
- ``bal λ=2n₊/n``    balanced, λ = 2 n₊ / n: one missed positive costs exactly one condition
  (as in the default) while a false alarm costs n₊ / n₋ of one; the same optimum as
  ``class_weight={pos: 1, neg: n₊/n₋}`` with λ = 1;
- ``bal λ=100/n``    balanced, λ = 100 / n: the weighted error then reads 100 × (share of the
  weight misclassified), so a condition must buy about one point of balanced accuracy on the
  training fold, whatever n (λ = 0.1 at n = 1000);
- ``√bal``           positives weigh √(n₋/n₊), negatives 1 (``class_weight={0: 1, 1: √(n₋/n₊)}``),
  λ = 1: half-way (geometrically) between unweighted and balanced class ratios, to see
  whether ``balanced`` buys its recall with too many false alarms;
- ``boost``, ``boost bal``   ``BoostedRuleClassifier`` defaults (λ = 1000, 5 rounds), without
  and with ``class_weight="balanced"`` (it sets the round-1 weights d₁);
- ``cover``, ``cover bal``   ``SetCoveringRuleClassifier`` defaults (λ = 1, ≤ 5 clauses),
  without and with ``class_weight="balanced"``.

Every fit uses ``screening="enhanced"`` (same optimum, proven) and a time limit per HiGHS run
(``--time-limit``, 10 s); a MIP stopped by it keeps its incumbent (counted in *t/o*).

Data.  Each public set is made binary with the positive class named in ``SETS``; its negatives
are kept (at most ``--max-neg``, a seeded subsample, to bound the run time) and a seeded
subsample of its positives is added so that positives are 2 %, 5 % and 10 % of the table.  Three
sets are also run at their own (minority-positive) rate, and two synthetic tables have a
planted rule ``x1 > 0.75 AND x2 <= 0.4 AND x3 > 0.7`` (true on 3 % of rows; x1..x8 uniform on
[0, 1], plus a 4-level categorical noise column): ``synth-iid`` flips each label with
probability 3 % (so ≈ 5.8 % of labels are positive and half the positives are noise),
``synth-3%`` flips 3 % of the positive labels and as many negatives (the base rate stays 3 %).

Protocol.  ``StratifiedKFold(5, shuffle=True, random_state=0)``, the same folds for every
option.  Held-out predictions of the five folds are pooled (each row is predicted once) for
balanced accuracy, accuracy, recall, precision (0 when nothing is predicted positive), F1 and
the share of rows labelled positive; *maj* is the accuracy of always predicting the majority
class.  Per fit, on its training rows: *never* (the rule / rule set labels no row positive),
*always* (every row), *contra* (some clause holds two contradictory conditions on one column:
``x <= a`` and ``x > b`` with b ≥ a, or ``c == u`` with ``c == v`` (u ≠ v) or ``c != u``),
*redund* (a clause holds two conditions on one column where one implies the other, e.g.
``x <= a AND x <= b``), counted over the five folds; *conds* is the mean number of
conditions (all clauses of a set); *s/fit* the mean wall time of ``fit``.

    .venv/bin/python bench/rare_positives.py --out bench/results/rare_positives.md

``--sets`` / ``--options`` run a subset; ``--cache FILE`` keeps finished (problem, option)
results in a JSON file and reuses them on the next run (delete it after changing the solver).
The whole run is long on a busy 2-core machine (≈ 50 min of fits, three quarters of it the
unweighted rule sets), so run it a set at a time into one cache, then once more to write the
report from the cache::

    for s in transfusion pima banknote bands biodeg kr-vs-kp magic spambase ilpd \
             parkinsons synthetic; do
        .venv/bin/python bench/rare_positives.py --sets $s --cache /tmp/rare.json; done
    .venv/bin/python bench/rare_positives.py --cache /tmp/rare.json \
        --out bench/results/rare_positives.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
import datasets  # noqa: E402
from bcs_table1 import emit, load_avg  # noqa: E402

from rulecore.rules.estimators import (  # noqa: E402
    BooleanRuleClassifier,  # noqa: E402
    BoostedRuleClassifier,
    SetCoveringRuleClassifier,
)

# data set -> (positive class, what it means)
SETS = {
    "magic": ("g", "gamma (signal)"),
    "spambase": ("1", "spam"),
    "pima": ("1", "diabetes"),
    "transfusion": ("1", "donated in March 2007"),
    "biodeg": ("RB", "ready biodegradable"),
    "kr-vs-kp": ("won", "white can win"),
    "banknote": ("1", "class 1"),
    "bands": ("band", "banding occurred"),
}
NATURAL = {  # minority class positive, at its own rate
    "transfusion": ("1", "donated in March 2007"),
    "ilpd": ("2", "not a liver patient"),
    "parkinsons": ("0", "healthy"),
}
RATES = (0.02, 0.05, 0.10)
SYNTH = ("synth-iid", "synth-3%")


@dataclass(frozen=True)
class Option:
    key: str
    family: str                                  # "rule", "boost", "cover"
    class_weight: Any
    lam: Callable[[int, int], float] | None      # (n, n_pos) of the training fold -> λ
    error: str = "hamming"                       # how a wrong row counts (single rule)
    rule_type: str = "and"

    def weights(self, n: int, n_pos: int) -> Any:
        if str(self.class_weight).startswith("auto"):
            return None  # AutoWeighted decides
        if self.class_weight == "sqrt":
            return {0: 1.0, 1: float(np.sqrt((n - n_pos) / n_pos))}
        return self.class_weight


OPTIONS = [
    Option("default", "rule", None, lambda n, p: 1.0),
    Option("balanced", "rule", "balanced", lambda n, p: 1.0),
    Option("bal λ=0.1", "rule", "balanced", lambda n, p: 0.1),
    Option("bal λ=10", "rule", "balanced", lambda n, p: 10.0),
    Option("λ=n/2n₊", "rule", None, lambda n, p: n / (2.0 * p)),
    Option("bal λ=2n₊/n", "rule", "balanced", lambda n, p: 2.0 * p / n),
    Option("bal λ=100/n", "rule", "balanced", lambda n, p: 100.0 / n),
    Option("√bal", "rule", "sqrt", lambda n, p: 1.0),
    Option("auto-never", "rule", "auto-never", lambda n, p: 1.0),
    Option("auto-majority", "rule", "auto-majority", lambda n, p: 1.0),
    # the exact 0/1 error (each wrong row once), unweighted and √-weighted; and with λ and the
    # AND/OR type chosen by inner cross-validation (bench/results/single_rule_error.md)
    Option("exact", "rule", None, lambda n, p: 1.0, "exact"),
    Option("exact √bal", "rule", "sqrt", lambda n, p: 1.0, "exact"),
    Option("exact auto", "rule", None, lambda n, p: "auto", "exact", "auto"),
    Option("auto λ, AND/OR", "rule", None, lambda n, p: "auto", "hamming", "auto"),
    Option("boost", "boost", None, None),
    Option("boost bal", "boost", "balanced", None),
    Option("boost √bal", "boost", "sqrt", None),
    Option("cover", "cover", None, None),
    Option("cover bal", "cover", "balanced", None),
    Option("cover √bal", "cover", "sqrt", None),
]
BY_KEY = {o.key: o for o in OPTIONS}


# ------------------------------------------------------------------ data

def _seed(*parts: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(p).encode()) for p in parts])


def synthetic(kind: str, n: int = 3000) -> tuple[pd.DataFrame, np.ndarray]:
    rng = _seed("synthetic", kind)
    X = pd.DataFrame(rng.random((n, 8)), columns=[f"x{i + 1}" for i in range(8)])
    X["c"] = rng.choice(np.array(["a", "b", "c", "d"], dtype=object), n)
    y = ((X.x1 > 0.75) & (X.x2 <= 0.4) & (X.x3 > 0.7)).to_numpy().astype(int)
    if kind == "synth-iid":
        flip = rng.random(n) < 0.03
    else:
        pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
        k = max(1, int(round(0.03 * len(pos))))
        flip = np.zeros(n, bool)
        flip[rng.choice(pos, k, replace=False)] = True
        flip[rng.choice(neg, k, replace=False)] = True
    return X, np.where(flip, 1 - y, y)


def problems(names: list[str] | None, max_neg: int) -> list[dict]:
    """Every (table, rate) to run: dicts with name, positive, rate label, X, y (0/1)."""
    out = []

    def want(key: str) -> bool:
        return names is None or key in names

    for name, (pos, meaning) in SETS.items():
        if not want(name):
            continue
        X, y = datasets.load(name)
        y = (y.astype(str) == pos).astype(int)
        P, N = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
        if len(N) > max_neg:
            N = np.sort(_seed(name, "neg").choice(N, max_neg, replace=False))
        for rate in RATES:
            k = int(round(rate / (1 - rate) * len(N)))
            Pk = _seed(name, rate).choice(P, min(k, len(P)), replace=False)
            idx = np.sort(np.r_[N, Pk])
            out.append(dict(name=name, pos=pos, meaning=meaning, rate=f"{rate:.0%}",
                            X=X.iloc[idx].reset_index(drop=True), y=y[idx]))
    for name, (pos, meaning) in NATURAL.items():
        if not want(name) and not want(f"{name}-natural"):
            continue
        X, y = datasets.load(name)
        y = (y.astype(str) == pos).astype(int)
        out.append(dict(name=name, pos=pos, meaning=meaning, rate="natural",
                        X=X.reset_index(drop=True), y=y))
    for kind in SYNTH:
        if want(kind) or want("synthetic"):
            X, y = synthetic(kind)
            out.append(dict(name=kind, pos="1", meaning="planted 3-condition rule",
                            rate="synthetic", X=X, y=y))
    # the app's planted-rule samples (positives 9.7 % and 12 %, label noise 4 % and 3 %):
    # what a weighting does where the unweighted rule already recovers the planted rule
    from rulecore.samples import load_sample
    for sample in ("salesforce attrition", "machine failure"):
        if want(sample) or want("samples"):
            ds = load_sample(sample)
            out.append(dict(name=sample, pos=str(ds.positive), meaning="planted rule",
                            rate="sample", X=ds.X, y=ds.y_binary))
    return out


# ------------------------------------------------------------------ one option on one problem

class AutoWeighted:
    """Unweighted errors, refitted with balanced class weights when the unweighted rule
    fails: it fires on no training row or on all of them ("auto-never"), or, stricter, its
    training accuracy is no better than always predicting the majority class
    ("auto-majority")."""

    def __init__(self, trigger: str, **params) -> None:
        self.trigger, self.params = trigger, params

    def fit(self, X, y):
        est = BooleanRuleClassifier(class_weight=None, **self.params).fit(X, y)
        fired = np.asarray(est.predict(X)) == 1
        y = np.asarray(y)
        bad = fired.all() or not fired.any()
        if self.trigger == "auto-majority":
            bad = bad or np.mean(fired == (y == 1)) <= max(y.mean(), 1 - y.mean())
        if bad:
            est = BooleanRuleClassifier(class_weight="balanced", **self.params).fit(X, y)
        self.est_ = est
        self.rule_, self.lp_status_ = est.rule_, est.lp_status_
        return self

    def predict(self, X):
        return self.est_.predict(X)


def estimator(opt: Option, n: int, n_pos: int, time_limit: float):
    common = dict(screening="enhanced", time_limit=time_limit,
                  class_weight=opt.weights(n, n_pos))
    if str(opt.class_weight).startswith("auto"):
        return AutoWeighted(opt.class_weight, lam=opt.lam(n, n_pos), screening="enhanced",
                            time_limit=time_limit)
    if opt.family == "rule":
        return BooleanRuleClassifier(lam=opt.lam(n, n_pos), error=opt.error,
                                     rule_type=opt.rule_type, **common)
    if opt.family == "boost":
        return BoostedRuleClassifier(**common)
    return SetCoveringRuleClassifier(**common)


def clause_pairs(conditions) -> tuple[bool, bool]:
    """(contradictory pair?, redundant pair?) among the conditions of one AND-clause."""
    contra = redund = False
    conds = list(conditions)
    for i, a in enumerate(conds):
        for b in conds[i + 1:]:
            if a.feature != b.feature:
                continue
            ops = {a.op, b.op}
            if a.numeric and b.numeric:
                if a.op == b.op:
                    redund = True
                else:
                    le, gt = (a, b) if a.op == "<=" else (b, a)
                    contra |= gt.value >= le.value          # x <= a AND x > b, b >= a
            elif ops == {"=="}:
                contra |= a.value != b.value
            elif ops == {"==", "!="}:
                if a.value == b.value:
                    contra = True
                else:
                    redund = True                           # c == u implies c != v
    return contra, redund


def clauses_of(est) -> list:
    rule = est.rule_
    return list(rule.clauses) if hasattr(rule, "clauses") else [rule]


def n_conditions(est) -> int:
    rule = est.rule_
    return int(rule.n_conditions) if hasattr(rule, "n_conditions") else len(rule)


def status_of(est) -> str:
    return str(getattr(est, "lp_status_", "?"))


def run_option(opt: Option, X: pd.DataFrame, y: np.ndarray, folds: list,
               time_limit: float) -> dict:
    pred = np.zeros(len(y), dtype=int)
    never = always = contra = redund = timeouts = 0
    conds, secs = [], []
    t_all = time.perf_counter()
    for tr, te in folds:
        Xtr, ytr = X.iloc[tr], y[tr]
        est = estimator(opt, len(tr), int(ytr.sum()), time_limit)
        t = time.perf_counter()
        est.fit(Xtr, ytr)
        secs.append(time.perf_counter() - t)
        fired = np.asarray(est.predict(Xtr)) == 1
        never += int(not fired.any())
        always += int(fired.all())
        pairs = [clause_pairs(c.conditions) for c in clauses_of(est)]
        contra += int(any(p[0] for p in pairs))
        redund += int(any(p[1] for p in pairs))
        timeouts += int(status_of(est) == "time_limit")
        conds.append(n_conditions(est))
        pred[te] = (np.asarray(est.predict(X.iloc[te])) == 1).astype(int)
    tp = int(((pred == 1) & (y == 1)).sum())
    fp = int(((pred == 1) & (y == 0)).sum())
    fn = int(((pred == 0) & (y == 1)).sum())
    tn = int(((pred == 0) & (y == 0)).sum())
    recall = tp / max(tp + fn, 1)
    spec = tn / max(tn + fp, 1)
    precision = tp / (tp + fp) if tp + fp else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return dict(ba=(recall + spec) / 2, acc=(tp + tn) / len(y),
                maj=max(y.mean(), 1 - y.mean()), recall=recall, precision=precision, f1=f1,
                fires=float(pred.mean()), conds=float(np.mean(conds)), never=never,
                always=always, contra=contra, redund=redund, timeouts=timeouts,
                secs=float(np.mean(secs)), folds=len(folds),
                wall=time.perf_counter() - t_all)


# ------------------------------------------------------------------ report

COLS = ("ba", "acc", "maj", "recall", "precision", "f1", "fires", "conds")
HEAD = ("| BA | acc | maj | recall | prec | F1 | fires | conds | never | always | contra | "
        "redund | t/o | s/fit |")


def row_cells(r: dict) -> str:
    return (f"{r['ba']:.3f} | {r['acc']:.3f} | {r['maj']:.3f} | {r['recall']:.3f} | "
            f"{r['precision']:.3f} | {r['f1']:.3f} | {r['fires']:.3f} | {r['conds']:.1f} | "
            f"{r['never']} | {r['always']} | {r['contra']} | {r['redund']} | {r['timeouts']} | "
            f"{r['secs']:.2f} |")


def machine() -> str:
    try:
        cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text()
                    .splitlines() if ln.startswith("model name")), platform.processor())
    except OSError:
        cpu = platform.processor() or "unknown CPU"
    return f"{cpu}, {os.cpu_count()} cores"


def summary(res: pd.DataFrame, keys: list[str]) -> list[str]:
    """Mean over problems per option, plus balanced accuracy by rate group."""
    groups = [g for g in ("2%", "5%", "10%", "natural", "synthetic", "sample")
              if g in set(res.rate)]
    lines = ["| option | problems | BA | acc | maj | recall | prec | F1 | fires | conds | "
             "never | always | contra | redund | t/o | fits | s/fit | "
             + " | ".join(f"BA {g}" for g in groups) + " |",
             "|---|" + "---|" * (16 + len(groups))]
    for k in keys:
        s = res[res.option == k]
        if s.empty:
            continue
        m = s[list(COLS)].mean()
        cnt = s[["never", "always", "contra", "redund", "timeouts", "folds"]].sum()
        by = [s[s.rate == g].ba.mean() for g in groups]
        lines.append(
            f"| {k} | {len(s)} | {m.ba:.3f} | {m.acc:.3f} | {m.maj:.3f} | {m.recall:.3f} | "
            f"{m.precision:.3f} | {m.f1:.3f} | {m.fires:.3f} | {m.conds:.1f} | {cnt.never} | "
            f"{cnt.always} | {cnt.contra} | {cnt.redund} | {cnt.timeouts} | {cnt.folds} | "
            f"{s.secs.mean():.2f} | " + " | ".join(f"{b:.3f}" for b in by) + " |")
    return lines


def verdict(res: pd.DataFrame) -> list[str]:
    """Plain-words comparison, computed from the numbers (so a rerun rewrites it)."""
    rule_keys = [o.key for o in OPTIONS if o.family == "rule" and o.key in set(res.option)]
    if not rule_keys:
        return []
    mean = res[res.option.isin(rule_keys)].groupby("option")[["ba", "f1", "recall"]].mean()
    best = mean.ba.idxmax()
    piv = res.pivot_table(index=["name", "rate"], columns="option", values="ba")
    out = [f"Best single-rule option by mean balanced accuracy: **{best}** "
           f"(BA {mean.ba[best]:.3f}, F1 {mean.f1[best]:.3f}, recall {mean.recall[best]:.3f})."]
    for other in ("default", "balanced", "λ=n/2n₊", "bal λ=2n₊/n", "bal λ=100/n", "√bal",
                  "auto-never", "auto-majority"):
        if other == best or other not in piv or best not in piv:
            continue
        d = (piv[best] - piv[other]).dropna()
        out.append(f"Against **{other}** (BA {mean.ba[other]:.3f}, F1 {mean.f1[other]:.3f}): "
                   f"{d.mean():+.3f} BA on average, better on {(d > 0.005).sum()}, "
                   f"within ±0.005 on {(d.abs() <= 0.005).sum()}, worse on {(d < -0.005).sum()} "
                   f"of {len(d)} problems.")
    pos_rate = float((res.n_pos / res.n).groupby([res.name, res.rate]).first().mean())
    out.append(f"Its price is precision: it labels {res[res.option == best].fires.mean():.1%} "
               f"of held-out rows positive where {pos_rate:.1%} are (precision "
               f"{res[res.option == best].precision.mean():.3f}).")
    best_f1 = mean.f1.idxmax()
    out.append(f"Best single-rule option by mean F1: **{best_f1}** (F1 {mean.f1[best_f1]:.3f}, "
               f"BA {mean.ba[best_f1]:.3f}, never-firing fits "
               f"{res[res.option == best_f1].never.sum()}).")
    fam = res[res.option.isin(rule_keys)].groupby("option")[["never", "contra", "folds"]].sum()
    weighted = [k for k in rule_keys if BY_KEY[k].class_weight is not None]
    unweighted = [k for k in rule_keys if BY_KEY[k].class_weight is None]
    out.append("Never-firing single-rule fits: "
               + ", ".join(f"{k} {fam.never[k]}/{fam.folds[k]}" for k in unweighted)
               + " without class weights; " + ", ".join(f"{k} {fam.never[k]}" for k in weighted)
               + " with them.")
    dflt = res[res.option == "default"]
    if len(dflt):
        out.append(f"Today's default never fires on the training rows in {dflt.never.sum()} of "
                   f"{dflt.folds.sum()} fits ({dflt.contra.sum()} with a contradictory pair) "
                   f"and labels {dflt.fires.mean():.1%} of held-out rows positive on average.")
    for a, b in (("boost", "boost bal"), ("cover", "cover bal")):
        if {a, b} <= set(res.option):
            sa, sb = res[res.option == a], res[res.option == b]
            out.append(f"{a}: BA {sa.ba.mean():.3f} → {sb.ba.mean():.3f} with "
                       f"class_weight=\"balanced\" (F1 {sa.f1.mean():.3f} → {sb.f1.mean():.3f}; "
                       f"never-firing fits {sa.never.sum()} → {sb.never.sum()}).")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--sets", nargs="*", help="data sets (names as in SETS / NATURAL, "
                    "'<name>-natural', 'synth-iid', 'synth-3%%', 'synthetic')")
    ap.add_argument("--options", nargs="*", choices=list(BY_KEY), metavar="OPTION")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per HiGHS run")
    ap.add_argument("--max-neg", type=int, default=1000, help="negatives kept per public set")
    ap.add_argument("--cache", type=Path, help="JSON file of finished results to reuse")
    ap.add_argument("--note", default="", help="a sentence for the report (e.g. which code)")
    args = ap.parse_args()
    keys = args.options or list(BY_KEY)
    cache = json.loads(args.cache.read_text()) if args.cache and args.cache.exists() else {}
    t_start, load_start = time.perf_counter(), load_avg()
    rows, fresh = [], 0
    probs = problems(args.sets, args.max_neg)
    for p in probs:
        X, y = p["X"], p["y"]
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        for k in keys:
            tag = f"{p['name']}|{p['rate']}|{k}|{args.time_limit}|{args.max_neg}"
            if tag in cache:
                r = cache[tag]
            else:
                r = run_option(BY_KEY[k], X, y, folds, args.time_limit)
                fresh += 1
                if args.cache:
                    cache[tag] = r
                    args.cache.write_text(json.dumps(cache))
            rows.append(dict(name=p["name"], pos=p["pos"], rate=p["rate"], n=len(y),
                             n_pos=int(y.sum()), option=k, **r))
            print(f"{p['name']:12s} {p['rate']:9s} {k:12s} BA {r['ba']:.3f} F1 {r['f1']:.3f} "
                  f"fires {r['fires']:.3f} never {r['never']} contra {r['contra']} "
                  f"{r['secs']:.2f} s/fit", flush=True)
    res = pd.DataFrame(rows)
    wall = time.perf_counter() - t_start

    argv = sys.argv[1:]
    if "--note" in argv:                         # the note is printed on its own below
        i = argv.index("--note")
        argv = argv[:i] + argv[i + 2:]
    cmd = " ".join([".venv/bin/python", "bench/rare_positives.py"] + argv)
    lines = [
        "# Rare positives: class weighting or λ scaled to the data?",
        "",
        f"Machine: {machine()}. Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC. "
        f"Command: `{cmd}`. Wall {wall / 60:.1f} min"
        + (f" ({len(rows) - fresh} of {len(rows)} results reused from the cache; computing "
           f"all of them took {res.wall.sum() / 60:.1f} min)" if fresh < len(rows) else "")
        + f". Load average start / end: {load_start} / {load_avg()} (the 2 cores are shared "
        "with other jobs, so seconds are indicative).",
        *(["", args.note] if args.note else []),
        "",
        "Single AND-rules (`BooleanRuleClassifier`, 10 quantile thresholds, exact MIP, "
        f"`screening=\"enhanced\"`, {args.time_limit:g} s per HiGHS run) and the two rule-set "
        "learners with their defaults, on stratified 5-fold CV (`random_state=0`, same folds "
        "for every option). Options, data and columns are defined in the script's docstring; "
        "in short: n, n₊ are the training fold's rows and positives; *BA* balanced accuracy, "
        "*maj* majority-class accuracy, *fires* share of held-out rows labelled positive, "
        "*conds* mean conditions per fit, *never / always / contra / redund / t/o* counts "
        "over the 5 fits (fires on no / every training row, a contradictory pair, a redundant "
        "pair, stopped by the time limit). Held-out predictions are pooled over the folds; "
        "precision is 0 when nothing is predicted positive.",
        "",
        "Public sets are subsampled to the rate shown (positives: "
        + ", ".join(f"{n} = {pos} ({m})" for n, (pos, m) in SETS.items())
        + f"; at most {args.max_neg} negatives kept); *natural* runs use the whole set with "
        "the minority class positive ("
        + ", ".join(f"{n} = {pos} ({m})" for n, (pos, m) in NATURAL.items())
        + "); *synthetic*: planted `x1 > 0.75 AND x2 <= 0.4 AND x3 > 0.7` (3 % of 3000 rows), "
        "`synth-iid` with each label flipped w.p. 3 %, `synth-3%` with 3 % of positives and as "
        "many negatives flipped.",
        "",
        "## Summary (mean over problems)",
        "",
        *summary(res, keys),
        "",
        "## Verdict",
        "",
        *verdict(res),
        "",
        "## Per problem",
        "",
        "| set | rate | n | n₊ | option " + HEAD,
        "|---|---|---|---|---|" + "---|" * 14,
    ]
    for r in rows:
        lines.append(f"| {r['name']} | {r['rate']} | {r['n']} | {r['n_pos']} | {r['option']} | "
                     + row_cells(r))
    emit(lines, args.out)


if __name__ == "__main__":
    main()
