"""rulecore.progress: a fit tells its stages to a listener, changes nothing by doing so, and
says nothing when nobody listens (issue 22: a long fit shows progress in the app)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rulecore import (
    BooleanRuleClassifier,
    RuleSetClassifier,
    SetCoveringRuleClassifier,
    progress,
)


def planted(n: int = 1500, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.standard_normal((n, 5)), columns=[f"x{i}" for i in range(5)])
    y = ((X["x0"] > 0) & (X["x1"] <= 0.5)).to_numpy().copy()
    y ^= rng.random(n) < 0.05
    return X, y.astype(int)


def heard(est, X, y) -> list[str]:
    said: list[str] = []
    with progress.listening(said.append):
        est.fit(X, y)
    return said


def test_single_rule_tells_terms_screening_and_solve_in_order():
    X, y = planted()
    said = heard(BooleanRuleClassifier(), X, y)
    first = {key: next(i for i, m in enumerate(said) if key in m)
             for key in ("candidate terms on 1,500", "Merging identical rows",
                         "Certified screening", "small rule")}
    assert list(first.values()) == sorted(first.values()), said
    est = BooleanRuleClassifier().fit(X, y)
    kept = est.screening_report_.n_kept
    last_screen = [m for m in said if m.startswith("Certified screening")][-1]
    assert f"{kept:,} of {est.n_terms_:,} terms left" in last_screen


def test_listening_changes_nothing_and_silence_says_nothing():
    X, y = planted()
    quiet = BooleanRuleClassifier().fit(X, y)
    said = []
    with progress.listening(said.append):
        loud = BooleanRuleClassifier().fit(X, y)
        with progress.listening(None):  # a nested silent block
            before = len(said)
            BooleanRuleClassifier().fit(X, y)
            assert len(said) == before
    assert str(loud.rule_) == str(quiet.rule_) and loud.objective_ == quiet.objective_
    assert not progress.active()
    progress.say("nobody hears this")  # no listener: a no-op, not an error


def test_auto_lambda_counts_grid_points_without_inner_noise():
    X, y = planted(900)
    # λ alone chosen (the Hamming count, screened)
    said = heard(BooleanRuleClassifier(lam="auto", rule_type="and", error="hamming"), X, y)
    grid = [m for m in said if m.startswith("Choosing λ")]
    n = len(grid)
    assert n >= 2 and grid[-1].endswith(f"λ {n} of {n}")
    # the inner fits are silent: screening is told once, for the final fit only
    first_screen = next(i for i, m in enumerate(said) if m.startswith("Certified screening"))
    assert first_screen > said.index(grid[-1])
    # the defaults with lam="auto": λ and the rule type, then the per-row count's proof
    said = heard(BooleanRuleClassifier(lam="auto"), X, y)
    grid = [m for m in said if m.startswith("Choosing λ and the rule type")]
    n = len(grid)
    assert n >= 4 and grid[-1].endswith(f"{n} of {n}")
    proof = [i for i, m in enumerate(said) if m.startswith("Proving the rule optimal")]
    assert len(proof) == 1 and proof[0] > said.index(grid[-1])  # the inner fits skip it


def test_set_covering_tells_each_clause_and_rows_left():
    X, y = planted()
    est = SetCoveringRuleClassifier(max_rules=3)
    said = heard(est, X, y)
    clauses = [m for m in said if m.startswith("Clause ")]
    assert clauses[0] == "Clause 1 of at most 3: 1,500 rows not yet covered"
    rows_left = [int(m.split(": ")[1].split(" ")[0].replace(",", "")) for m in clauses]
    assert rows_left == [f["rows_left"] for f in est.fits_]


@pytest.mark.parametrize("backend", ["sequential", "loky", "threading"])
def test_rule_set_counts_inner_fits_as_they_come_back(backend):
    from joblib import parallel_config

    X, y = planted(600)
    est = RuleSetClassifier(time_limit=30, n_jobs=2)
    with parallel_config(backend=backend):
        said = heard(est, X, y)
    done = [m for m in said if m.endswith("inner fits done")]
    jobs = 3 * 2  # 3 inner folds × both classes described
    assert done == [f"Cross-validation: {i} of {jobs} inner fits done"
                    for i in range(1, jobs + 1)]
    assert any(m.startswith("Final fit at λ") for m in said[said.index(done[-1]):])
    # what was told does not change what was learned
    with parallel_config(backend=backend):
        quiet = RuleSetClassifier(time_limit=30, n_jobs=2).fit(X, y)
    assert str(quiet.rules_) == str(est.rules_)


def test_rule_set_final_fit_says_its_column_generation_stages():
    """The final fit's column generation says that it merges rows and runs its first beam
    before its first round: on a million rows the page otherwise stayed on "Final fit at
    λ = …" for ten seconds.  The inner fits stay silent."""
    from rulecore import RuleSetClassifier

    X, y = planted(600)
    said = heard(RuleSetClassifier(random_state=0, time_limit=20), X, y)
    final = next(i for i, m in enumerate(said) if m.startswith("Final fit at λ"))
    stages = [i for i, m in enumerate(said) if m.startswith("Column generation on ")]
    assert stages == [final + 1], said
    assert said[final + 2].startswith("Column generation: ") and "distinct rows" in \
        said[final + 2], said
