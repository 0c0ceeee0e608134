"""RuleSetClassifier and BooleanRuleClassifier(lam="auto") against the anchor rule learners.

One run, one process, the same folds for every method (issue: "Rule sets that beat the
anchors"):

- binary: ILPD, Ionosphere, Liver (bupa), Parkinsons, Pima, Sonar, Transfusion, WDBC;
  y = 1 for the paper's class of interest (``anchors.POSITIVE``);
  ``StratifiedKFold(10, shuffle=True, random_state=0)``; test error;
- multi-class: wine, vehicle, segment, labels 0..K−1, ``StratifiedKFold(5, shuffle=True,
  random_state=0)``; accuracy.

Ours run with their defaults (10 quantile thresholds per numeric column, for several classes
10, 20 or 40 chosen by the inner CV; λ and the class described chosen by inner 3-fold CV);
the single rule with the class of interest positive and with the other class positive.
(Hamming against exact 0/1 errors: ``bench/ruleset_error_formulation.py``.)  The anchors are
those of ``bench/anchors.py`` that import (run this with the venv of
``bench/anchors-requirements.txt``; in the project's own venv only CART runs).

    env OMP_NUM_THREADS=1 taskset -c 1 /tmp/anchors-venv/bin/python \\
        bench/rulesets_vs_anchors.py --out bench/results/rulesets_vs_anchors.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
import anchors  # noqa: E402
from bcs_table1 import machine  # noqa: E402

from rulecore import BooleanRuleClassifier, RuleSetClassifier  # noqa: E402

OURS_BINARY = ("RuleSet", "1Rule auto", "1Rule auto (other class)")
#: Not run by default (ask with --methods): the single rule with ``lam="auto"`` and each
#: pairing of error count, rule type and class weight stated in its name (see
#: :data:`SINGLE_OPTIONS`); ``(hamming, AND, √)`` is what the fixed-λ defaults give.
OURS_EXTRA = tuple(f"1Rule auto ({e}, {t}, {w})" for e in ("hamming", "exact")
                   for t in ("AND", "AND or OR") for w in ("√", "no class weight")) + (
    "1Rule auto (other class, hamming, AND, √)",
    "1Rule auto (other class, hamming, AND, no class weight)")
#: What the options in a single-rule variant's name set on ``BooleanRuleClassifier(lam=
#: "auto")``; the bare ``1Rule auto`` is its defaults (``rulecore.settings.TUNED_SINGLE_RULE``).
SINGLE_OPTIONS = {"hamming": {"error": "hamming"}, "exact": {"error": "exact"},
                  "AND": {"rule_type": "and"}, "AND or OR": {"rule_type": "auto"},
                  "√": {"class_weight": "sqrt"}, "no class weight": {"class_weight": None},
                  "other class": {}}


def single_rule_options(name: str) -> dict:
    """``BooleanRuleClassifier`` parameters a variant's name states, e.g. ``"1Rule auto
    (exact, AND, √)"``; unknown options are refused, so a name never silently means the
    defaults."""
    inside = name.partition("(")[2].rstrip(")")
    params: dict = {}
    for option in filter(None, (o.strip() for o in inside.split(","))):
        if option not in SINGLE_OPTIONS:
            raise SystemExit(f"unknown option {option!r} in {name!r}; known: "
                             f"{', '.join(SINGLE_OPTIONS)}")
        params.update(SINGLE_OPTIONS[option])
    return params
OURS_MULTI = ("RuleSet",)
#: Not run by default: the rule set with more quantile thresholds per numeric column
#: (``n_thresholds``), measured on the multi-class sets (ask with --methods).
OURS_MULTI_EXTRA = ("RuleSet (15 thresholds)", "RuleSet (20 thresholds)")


def run_ours(name: str, Xtr: pd.DataFrame, ytr: np.ndarray, Xte: pd.DataFrame) -> dict:
    t0 = time.perf_counter()
    extra: dict = {}
    if name.startswith("RuleSet"):
        thr = {"n_thresholds": int(name.split("(")[1].split()[0])} if "thresholds" in name \
            else {}
        m = RuleSetClassifier(error="exact" if name.endswith("exact") else "hamming", **thr)
        m.fit(Xtr, ytr)
        pred = m.predict(Xte)
        extra = {"lam": m.lam_, "describes": None if m.described_class_ is None
                 else int(m.described_class_), "certified": bool(m.certified_),
                 "status": m.status_, "n_thresholds": m.n_thresholds_}
        n_rules, n_cond = m.n_rules_, m.n_conditions_
    else:
        flip = "other class" in name
        yy = 1 - ytr if flip else ytr
        m = BooleanRuleClassifier(lam="auto", **single_rule_options(name)).fit(Xtr, yy)
        pred = m.predict(Xte)
        pred = 1 - pred if flip else pred
        extra = {"lam": m.lam_, "status": m.lp_status_, "gap": m.mip_gap_,
                 "rule_type": m.rule_type_, "error": m.error_}
        n_rules, n_cond = 1, len(m.rule_)
    return {"pred": np.asarray(pred), "n_rules": n_rules, "n_conditions": n_cond,
            "seconds": time.perf_counter() - t0, "extra": extra}


def md(df: pd.DataFrame, floatfmt: str = ".3f") -> str:
    """A Markdown table (no tabulate needed): index first, numbers as ``floatfmt``."""
    cols = [df.index.name or ""] + [str(c) for c in df.columns]
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for idx, r in df.iterrows():
        cells = [str(idx)] + ["—" if pd.isna(v) else format(v, floatfmt) for v in r]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def report(rows: list[dict], wall: float, args) -> str:
    df = pd.DataFrame(rows)
    out = ["# Rule sets against the anchors", "",
           f"{date.today()} · {machine()} · `OMP_NUM_THREADS=1 taskset -c 1 "
           f"/tmp/anchors-venv/bin/python bench/rulesets_vs_anchors.py` · {wall / 60:.1f} min "
           "in all, one core, one process."
           + (f" Outer folds with `random_state={args.fold_seed}`, not the protocol's 0."
              if getattr(args, "fold_seed", 0) else ""), "",
           "Ours: `RuleSet` = `RuleSetClassifier()` with its defaults (λ and the class the "
           "clauses describe chosen by inner 3-fold CV, Hamming error, 10 quantile thresholds "
           "per numeric column, for several classes 10, 20 or 40 chosen by the same CV); the "
           "exact 0/1 error is measured apart, in "
           "`ruleset_error_formulation.md`; `1Rule auto` "
           "= `BooleanRuleClassifier(lam=\"auto\")` with its defaults (with `lam=\"auto\"`: "
           "errors counted per row, rule type and λ chosen by inner CV, no class weight; "
           "options in brackets are stated, e.g. `(hamming, AND, √)`) with the class of "
           "interest positive, `(other class)` with the other class positive.  Anchors as "
           "in `bench/anchors.py`.", ""]
    b = df[df.kind == "binary"]
    if not b.empty:
        err = b.pivot_table(index="set", columns="method", values="error", aggfunc="mean")
        cond = b.pivot_table(index="set", columns="method", values="n_conditions",
                             aggfunc="mean")
        sec = b.pivot_table(index="set", columns="method", values="seconds", aggfunc="sum")
        order = [m for m in OURS_BINARY + OURS_EXTRA + tuple(anchors.ANCHORS) if m in err.columns]
        err, cond, sec = err[order], cond[order], sec[order]
        summary = pd.DataFrame({"mean error": err.mean(), "mean conditions": cond.mean(),
                                "seconds (80 folds)": sec.sum()})
        out += ["## Binary sets (10-fold test error)", "", md(summary), "",
                "Per set, mean test error:", "", md(err), "",
                "Per set, mean conditions:", "", md(cond, ".1f"), ""]
    mc = df[df.kind == "multi"]
    if not mc.empty:
        acc = mc.pivot_table(index="set", columns="method", values="accuracy", aggfunc="mean")
        cond = mc.pivot_table(index="set", columns="method", values="n_conditions",
                              aggfunc="mean")
        sec = mc.pivot_table(index="set", columns="method", values="seconds", aggfunc="sum")
        out += ["## Multi-class sets (5-fold accuracy)", "", md(acc), "",
                "Mean conditions:", "", md(cond, ".1f"), "", "Seconds (5 folds):", "",
                md(sec, ".1f"), ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--json", type=Path, default=Path("/tmp/rulesets_vs_anchors.json"))
    ap.add_argument("--sets", nargs="*")
    ap.add_argument("--methods", nargs="*", help="subset of ours and the anchors")
    ap.add_argument("--folds", type=int, help="only the first N folds (smoke test)")
    ap.add_argument("--fold-seed", type=int, default=0,
                    help="random_state of the outer folds (0: the protocol's)")
    args = ap.parse_args()
    # "--sets a,b" ran nothing and ended in a pandas AttributeError on the empty table
    known = anchors.BINARY_SETS + tuple(anchors.MULTI_SETS)
    args.sets = [x for a in args.sets or [] for x in a.split(",") if x] or None
    unknown = sorted(set(args.sets or []) - set(known))
    if unknown:
        ap.error(f"unknown sets {unknown}; the protocol's: {', '.join(known)}")
    warnings.simplefilter("ignore")
    have = anchors.available()
    t_all = time.perf_counter()
    rows: list[dict] = []
    for s, kind, X, y, folds, names in anchors._tasks(args.sets, have, args.fold_seed):
        ours = OURS_BINARY + OURS_EXTRA if kind == "binary" else OURS_MULTI + OURS_MULTI_EXTRA
        for meth in list(ours) + list(names):
            if args.methods and meth not in args.methods:
                continue
            if not args.methods and meth in OURS_EXTRA + OURS_MULTI_EXTRA:
                continue
            t0 = time.perf_counter()
            for k, (tr, te) in enumerate(folds[: args.folds]):
                try:
                    r = (run_ours if meth in ours else anchors.run_anchor)(
                        meth, X.iloc[tr], y[tr], X.iloc[te])
                except Exception as e:  # noqa: BLE001  (report, go on with the others)
                    print(f"  {s} {meth} fold {k}: {type(e).__name__}: {e}", flush=True)
                    continue
                err = float(np.mean(np.asarray(r["pred"]) != y[te]))
                rows.append(dict(set=s, kind=kind, fold=k, method=meth, error=err,
                                 accuracy=1 - err, n_conditions=r["n_conditions"],
                                 n_rules=r["n_rules"], seconds=r["seconds"],
                                 **{f"x_{a}": v for a, v in r.get("extra", {}).items()}))
            done = [r for r in rows if r["set"] == s and r["method"] == meth]
            if done:
                print(f"{s:<12}{meth:<26} error {np.mean([r['error'] for r in done]):.4f}  "
                      f"conds {np.mean([r['n_conditions'] for r in done]):6.1f}  "
                      f"{time.perf_counter() - t0:7.1f} s", flush=True)
            args.json.write_text(json.dumps(rows, indent=1, default=str))
    if not rows:
        ap.error("nothing ran: no method of --methods applies to these sets")
    text = report(rows, time.perf_counter() - t_all, args)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
