"""Rescoring an edited rule, and the near-optimal set, on 20,000 rows (issue 21).

The Rule page rescores every edit at once (train and held-out accuracy, precision, recall,
coverage, the objective and its distance to the certified optimum): the goal is under 0.5 s
on 20k rows.  Baseline in the same process: refitting the rule (what an analyst had to do
before).  Also times the alternatives (K = 5, no-good cuts) on the same fit.

    OMP_NUM_THREADS=1 taskset -c 1 .venv/bin/python bench/rule_editing.py

Writes bench/results/rule_editing.md.
"""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
from sparse_common import machine  # bench/ is on sys.path when a script runs

from rulecore import BooleanRuleClassifier, RuleSettings
from rulecore.compare import table_markdown
from rulecore.data import from_frame
from rulecore.fit import fit_on_split
from rulecore.rules.editing import score_rules
from rulecore.rules.terms import Term
from rulecore.samples import machine_failure


def best_of(fn, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def measure(n: int) -> dict:
    ds = from_frame(machine_failure(n=n, seed=0), target="failure", positive="yes")
    t0 = time.perf_counter()
    fit = fit_on_split(RuleSettings(kinds=ds.kinds), ds, 0.25, 0)
    t_fit = time.perf_counter() - t0
    model, tr, te = fit.model, fit.train, fit.test
    Xtr, ytr, Xte, yte = ds.X.iloc[tr], ds.y_binary[tr], ds.X.iloc[te], ds.y_binary[te]
    learned = model.rule_
    # an analyst's edit: the first numeric threshold moved, one condition added
    k = next(i for i, c in enumerate(learned.conditions) if c.numeric)
    c = learned.conditions[k]
    edited = learned.with_condition(Term(c.feature, c.op, float(c.value) * 1.1), k) \
        .with_condition(Term("air_temp_k", "<=", 305.0))
    t_score = best_of(lambda: score_rules(model, {"learned": learned, "edited": edited},
                                          Xtr, ytr, Xte, yte))
    t_refit = best_of(lambda: BooleanRuleClassifier(**model.get_params()).fit(Xtr, ytr),
                      repeat=3)
    t0 = time.perf_counter()
    alts = model.alternatives(Xtr, ytr, k=5)
    t_alt = time.perf_counter() - t0
    return {"rows": f"{n:,}", "fit (s)": round(t_fit, 2),
            "rescore learned + edited (s)": round(t_score, 3),
            "refit (s)": round(t_refit, 2), "refit / rescore": round(t_refit / t_score, 1),
            "5 alternatives (s)": round(t_alt, 2),
            "alternatives certified": f"{sum(a.certified for a in alts)}/{len(alts)}"}


def main() -> None:
    rows = []
    for n in (20_000, 100_000):
        rows.append(measure(n))
        print(rows[-1], flush=True)
    table = table_markdown(pd.DataFrame(rows))
    text = (f"# Rescoring an edited rule (Rule page editor)\n\nMachine: {machine()}; date "
            f"{date.today()}; one process pinned to one core "
            "(`OMP_NUM_THREADS=1 taskset -c 1 .venv/bin/python bench/rule_editing.py`).\n\n"
            "*machine failure* generator (planted 3-condition rule, 3 % noise), 75 % of the "
            "rows to learn from, the Rule page's defaults. *Rescore*: `score_rules` on the "
            "learned and an edited rule (a threshold moved, a condition added), train and "
            "held-out rows, median of 7. *Refit*: the same model fitted again, the baseline "
            "an analyst had without the editor. *Alternatives*: `model.alternatives(k=5)`, "
            "the fitted rule then four MIPs with no-good cuts.\n\n" + table + "\n")
    out = Path(__file__).parent / "results" / "rule_editing.md"
    out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
