"""Hamming against exact 0/1 false positives in the final choice of a column-generation rule set.

For each of the 8 binary sets of ``bench/rulesets_vs_anchors.py``, both classes as the class
the clauses describe, the 10 shared folds and every λ of the auto grid (κ = 0.02 … 0.0025),
``rulecore.rules.colgen.column_generation`` is run with ``error="hamming"`` and
``error="exact"`` on the same generated clauses' path (the Hamming pool warm-starts the next
λ), without the certifying pricing MIP.  Prints mean test error and conditions per setting and
the summary; ``--out`` writes it as Markdown.

    OMP_NUM_THREADS=1 .venv/bin/python bench/ruleset_error_formulation.py \\
        --out bench/results/ruleset_error_formulation.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
import datasets  # noqa: E402
from bcs_table1 import SETS, machine  # noqa: E402

from rulecore.rules.colgen import column_generation  # noqa: E402
from rulecore.rules.ruleset import KAPPAS  # noqa: E402
from rulecore.rules.terms import Binarizer  # noqa: E402


def run(json_path: Path | None) -> pd.DataFrame:
    out = []
    for name, classes in SETS.items():
        X, yr = datasets.load(name)
        for pos in classes:
            y = (np.asarray(yr).astype(str) == pos).astype(int)
            for f, (tr, te) in enumerate(StratifiedKFold(10, shuffle=True, random_state=0)
                                         .split(X, y)):
                b = Binarizer(n_thresholds=10).fit(X.iloc[tr])
                B, Bt = b.transform(X.iloc[tr]), b.transform(X.iloc[te])
                pool: list = []
                for k in KAPPAS:
                    for err in ("hamming", "exact"):
                        t = time.perf_counter()
                        r = column_generation(B, y[tr], lam=1 / (k * len(tr)), error=err,
                                              cliques=b.conflict_cliques("and"),
                                              covers=b.conflict_covers("and"), certify=False,
                                              pool=pool, master_time_limit=1.0)
                        sec = time.perf_counter() - t
                        if err == "hamming":
                            pool = r.pool
                        fire = np.zeros(len(te), bool)
                        for S in r.clauses:
                            fire |= Bt[:, list(S)].all(axis=1)
                        out.append(dict(set=name, pos=pos, fold=f, kappa=k, error_kind=err,
                                        error=float(np.mean(fire != y[te])),
                                        conds=sum(len(S) for S in r.clauses), sec=sec))
            if json_path:
                json_path.write_text(json.dumps(out))
            print(name, pos, "done", flush=True)
    return pd.DataFrame(out)


def report(d: pd.DataFrame) -> str:
    g = d.groupby(["set", "pos", "kappa", "error_kind"])[["error", "conds"]].mean()
    err = g["error"].unstack("error_kind")
    best = d.groupby(["set", "pos", "error_kind", "kappa"])["error"].mean() \
        .groupby(["set", "pos", "error_kind"]).min().unstack("error_kind")
    wins = (err["exact"] < err["hamming"] - 1e-12).sum(), (err["hamming"] < err["exact"]
                                                             - 1e-12).sum()
    lines = ["# Hamming or exact 0/1 false positives in the rule set's final choice", "",
             f"{date.today()} · {machine()} · `bench/ruleset_error_formulation.py`", "",
             "| | Hamming | exact 0/1 |", "|---|---|---|",
             f"| mean test error, all (set, class, κ) | {err['hamming'].mean():.4f} | "
             f"{err['exact'].mean():.4f} |",
             f"| mean of the best κ per (set, class) | {best['hamming'].mean():.4f} | "
             f"{best['exact'].mean():.4f} |",
             f"| (set, class, κ) settings won | {wins[1]} | {wins[0]} |",
             f"| mean conditions | {d[d.error_kind == 'hamming'].conds.mean():.1f} | "
             f"{d[d.error_kind == 'exact'].conds.mean():.1f} |",
             f"| mean seconds per fit | {d[d.error_kind == 'hamming'].sec.mean():.2f} | "
             f"{d[d.error_kind == 'exact'].sec.mean():.2f} |", "",
             "Best κ per (set, class described), mean 10-fold test error:", "",
             "| set | class | Hamming | exact |", "|---|---|---|---|"]
    for (s, p), r in best.iterrows():
        lines.append(f"| {s} | {p} | {r['hamming']:.4f} | {r['exact']:.4f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--json", type=Path, default=Path("/tmp/cg_grid.json"))
    ap.add_argument("--from-json", action="store_true", help="report a finished run's JSON")
    args = ap.parse_args()
    d = pd.DataFrame(json.loads(args.json.read_text())) if args.from_json else run(args.json)
    text = report(d)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
