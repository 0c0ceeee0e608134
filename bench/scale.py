"""Rules on a million rows (issue 22, part 3): seconds and peak memory against rows.

One AND rule with the defaults on a table of 20 numeric columns and one categorical column,
with a planted 3-condition rule and 5 % label noise, at 10k, 100k and 1M rows; each size in a
fresh process (peak memory is that process's maximum resident set).  Prints and writes
bench/results/scale.md: rows, seconds, peak GiB, the growth per ×10 rows, certified, and
whether the planted rule was recovered.

    OMP_NUM_THREADS=1 taskset -c 1 .venv/bin/python bench/scale.py [--sizes 10000,100000]
    .venv/bin/python bench/scale.py --one 100000 [--model single]   # one size, JSON line
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

#: The planted rules.  "common": 31 % of rows, so the 5 % of flipped labels are a minority of
#: the positives.  "rare": 3.3 % of rows, so flipped negatives outnumber the rule's own
#: positives more than two to one.
PLANTED = {"common": (("x0", ">", -0.3), ("x1", "<=", 0.4), ("kind", "!=", "a")),
           "rare": (("x0", ">", 0.5), ("x1", "<=", -0.2), ("kind", "==", "b"))}


def planted_table(n: int, seed: int = 0, noise: float = 0.05, kind: str = "common"
                  ) -> tuple[pd.DataFrame, np.ndarray]:
    """20 standard-normal columns x0..x19 and a 4-level column ``kind``; y = the planted
    3-condition rule (:data:`PLANTED`) with ``noise`` of the labels flipped."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.standard_normal((n, 20)).astype(np.float64),
                     columns=[f"x{i}" for i in range(20)])
    X["kind"] = pd.Categorical(rng.choice(list("abcd"), n))
    y = np.ones(n, dtype=bool)
    for f, op, v in PLANTED[kind]:
        col = X[f]
        y &= (col > v if op == ">" else col <= v if op == "<=" else
              col == v if op == "==" else col != v).to_numpy()
    y ^= rng.random(n) < noise
    return X, y.astype(np.int64)


def recovered(rule, kind: str) -> bool:
    """The planted rule: one condition per planted column, in the planted direction."""
    got = {(c.feature, c.op) for c in rule.conditions}
    want = {(f, op) for f, op, _ in PLANTED[kind]}
    return got == want


def one(n: int, model: str, kind: str) -> dict:
    from rulecore import BooleanRuleClassifier, RuleSetClassifier, SetCoveringRuleClassifier

    X, y = planted_table(n, kind=kind)
    est = {"single": BooleanRuleClassifier(), "set-covering": SetCoveringRuleClassifier(),
           "rule-set": RuleSetClassifier(),
           # λ by cross-validation: the single rule tuned for held-out error (exact count
           # where it fits the memory budget, else the Hamming count; error_ says which)
           "single-auto": BooleanRuleClassifier(lam="auto")}[model]
    t0 = time.perf_counter()
    est.fit(X, y)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB → GiB
    rule = est.rule_ if model.startswith("single") else \
        est.rule_.clauses[0] if len(est.rule_) else None
    gap = float(getattr(est, "mip_gap_", np.nan))
    status = str(getattr(est, "lp_status_", getattr(est, "status_", "")))
    # certified: every solve proved (set covering: each clause, and the stop), and for the
    # rule set the column generation's own certificate
    certified = (status == "optimal" and bool(getattr(est, "certified_", gap <= 1e-6))
                 and (not gap > 1e-6))
    return {"rows": n, "model": model, "table": kind, "seconds": round(seconds, 2),
            "peak_gib": round(peak, 2), "status": status, "gap": gap,
            "certified": certified,
            "recovered": bool(rule is not None and recovered(rule, kind)
                              and (model.startswith("single") or len(est.rule_) == 1)),
            "rule": str(est.rule_) + (f" (error {est.error_})" if hasattr(est, "error_")
                                      and model == "single-auto" else "")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one", type=int)
    ap.add_argument("--model", default="single",
                    choices=("single", "single-auto", "set-covering", "rule-set"))
    ap.add_argument("--out", type=Path, help="write the table here (default: results/scale.md)")
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--models", default="single")
    ap.add_argument("--table", default="common", choices=tuple(PLANTED))
    ap.add_argument("--tables", default="common")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.model, args.table)))
        return
    rows = []
    for kind, model in ((k, m) for k in args.tables.split(",") for m in args.models.split(",")):
        prev = None
        for n in (int(s) for s in args.sizes.split(",")):
            res = subprocess.run([sys.executable, __file__, "--one", str(n), "--model", model,
                                  "--table", kind], capture_output=True, text=True)
            if res.returncode != 0:
                row = {"rows": n, "model": model, "table": kind, "seconds": np.nan,
                       "peak_gib": np.nan,
                       "status": "failed: " + res.stderr.strip().splitlines()[-1][:80],
                       "gap": np.nan, "certified": False, "recovered": False, "rule": ""}
            else:
                row = json.loads(res.stdout.strip().splitlines()[-1])
            row["×10 rows: time ×"] = round(row["seconds"] / prev, 1) if prev else ""
            prev = row["seconds"]
            rows.append(row)
            print(row, flush=True)
    table = pd.DataFrame(rows)[["table", "model", "rows", "seconds", "×10 rows: time ×", "peak_gib",
                                "status", "certified", "recovered", "rule"]]
    from sparse_common import machine  # bench/ is on sys.path when a script runs

    from rulecore.compare import table_markdown

    # the command as it was run (a fixed "taskset -c 1" was printed however it ran)
    env = " ".join(f"{k}={os.environ[k]}" for k in ("OMP_NUM_THREADS",) if k in os.environ)
    pinned = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    command = " ".join(filter(None, [env, f"taskset -c {','.join(map(str, pinned))}" if pinned and
                                     len(pinned) < (os.cpu_count() or 0) else "",
                                     ".venv/bin/python bench/scale.py",
                                     shlex.join(sys.argv[1:])]))
    text = (f"# Rules on a million rows\n\nMachine: {machine()}; date {date.today()}. "
            f"`{command}`: each size in a "
            "fresh process; peak = that process's maximum resident set. Table: 20 standard-"
            "normal columns and one 4-level column, 5 % of labels flipped; planted rule "
            "*common*: `x0 > -0.3 AND x1 <= 0.4 AND kind != a` (31 % of rows); *rare*: "
            "`x0 > 0.5 AND x1 <= -0.2 AND kind == b` (3.3 % of rows, fewer than the flipped "
            "negatives). Estimators with their defaults (time limit 30 s per solve).\n\n"
            + table_markdown(table) + "\n")
    out = args.out or Path(__file__).parent / "results" / "scale.md"
    out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
