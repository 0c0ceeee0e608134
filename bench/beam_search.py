"""The rule sets' pricing beam search, timed against an earlier revision's, same process.

Collects the pricing problems ``rulecore.rules.colgen.beam_search`` is asked during three fits
(one scikit-learn estimator check of ``RuleSetClassifier()``; ``RuleSetClassifier`` at fixed λ
on Pima and Ionosphere; the first 20 of a fit on 100,000 planted rows, bench/scale.py's table),
then runs every problem through this tree's beam search and through the one of ``--baseline``
(``git show REV:rulecore/rules/colgen.py``, loaded as a module), interleaved, three times, and
prints CPU seconds, their ratio, how many searches return the same clauses, and how many
return a lower (better) or higher best value here.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/beam_search.py --baseline d017889
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))


def collect() -> dict[str, list]:
    from datasets import load
    from scale import planted_table
    from sklearn.utils.estimator_checks import check_dtype_object

    import rulecore.rules.solvers as solvers
    from rulecore import RuleSetClassifier
    from rulecore.rules import colgen

    found: dict[str, list] = {}
    real = colgen.beam_search

    def spy_into(name: str, cap: int | None = None):
        found[name] = []

        def spy(pr, **kw):
            if cap is None or len(found[name]) < cap:
                found[name].append((pr, kw))
            return real(pr, **kw)
        colgen.beam_search = solvers.beam_search = spy

    try:
        spy_into("scikit-learn check_dtype_object")
        check_dtype_object("RuleSetClassifier", RuleSetClassifier())
        spy_into("Pima and Ionosphere, fixed λ")
        for name, lam in (("pima", 5.0), ("ionosphere", 2.0)):
            X, y = load(name)
            y = (y == np.unique(y)[-1]).astype(int)
            RuleSetClassifier(lam=lam, time_limit=30, random_state=0).fit(X, y)
        spy_into("100,000 planted rows, λ = 0.05 (first 20)", cap=20)
        X, y = planted_table(100_000)
        RuleSetClassifier(lam=0.05, time_limit=30, random_state=0).fit(X, y)
    finally:
        colgen.beam_search = solvers.beam_search = real
    return found


def baseline_module(rev: str):
    text = subprocess.run(["git", "show", f"{rev}:rulecore/rules/colgen.py"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "colgen_baseline.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("colgen_baseline", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["colgen_baseline"] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True, help="git revision to compare with")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    from rulecore.rules import colgen

    old = baseline_module(args.baseline)
    rows = []
    for name, probs in collect().items():
        seconds = {"baseline": 0.0, "this tree": 0.0}
        outs = {}
        for _ in range(args.repeats):
            for tag, mod in (("baseline", old), ("this tree", colgen)):
                for pr, _kw in probs:
                    pr._floats = None  # each side converts its own float32 copy
                t = time.process_time()
                outs[tag] = [mod.beam_search(pr, **kw) for pr, kw in probs]
                seconds[tag] += (time.process_time() - t) / args.repeats
        same = sum(a == b for a, b in zip(outs["baseline"], outs["this tree"]))
        # the best value each search returns (none: +inf): lower is a better clause
        best = {tag: [o[0][1] if o else np.inf for o in outs[tag]] for tag in outs}
        lower = sum(b < a - 1e-9 for a, b in zip(best["baseline"], best["this tree"]))
        higher = sum(b > a + 1e-9 for a, b in zip(best["baseline"], best["this tree"]))
        rows.append(f"| {name} | {len(probs):,} | {seconds['baseline']:.2f} | "
                    f"{seconds['this tree']:.2f} | "
                    f"{seconds['this tree'] / seconds['baseline']:.2f} | {same:,} | "
                    f"{lower:,} | {higher:,} |")
    print(f"| problems | searches | CPU s, {args.baseline} | CPU s, this tree | ratio | "
          "same clauses | best value lower here | higher here |\n"
          "|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
