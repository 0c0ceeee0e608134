"""The single rule under the exact 0/1 error (``error="exact"``, docs/clause.md): the estimator,
what it reports, the command line and the Rule page.  The solver itself is checked against
brute force in tests/test_clause_api.py."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from rulecore import BooleanRuleClassifier, RuleSettings, load_sample
from rulecore.exceptions import ParameterError
from rulecore.report import fit_status


def planted(seed: int = 0, n: int = 300) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=["a", "b", "c", "d"])
    y = ((X.a > 0) & (X.b < 0.5)).astype(int).to_numpy().copy()
    y[rng.random(n) < 0.08] ^= 1
    return X, y


@pytest.mark.parametrize("rule_type", ["and", "or"])
@pytest.mark.parametrize("class_weight", [None, "sqrt"])
def test_objective_is_the_direct_count_of_wrong_rows(rule_type, class_weight):
    X, y = planted()
    m = BooleanRuleClassifier(error="exact", rule_type=rule_type, class_weight=class_weight,
                              lam=0.5).fit(X, y)
    d = m._row_weights(y, m.classes_, None)
    wrong = m.predict(X) != y
    assert m.objective_ == pytest.approx(len(m.rule_) + 0.5 * (d @ wrong))
    assert m.rule_objective(m.rule_, X, y) == pytest.approx(m.objective_)
    assert m.lower_bound_ <= m.objective_ + 1e-9
    assert m.solve_method_ in ("beam", "beam+mip")


def test_exact_is_never_worse_on_its_own_objective_than_the_hamming_rule():
    """The Hamming rule is a candidate of the exact problem, so the exact fit's objective is
    at most the Hamming rule's exact count (when the exact fit is proved optimal)."""
    for seed in range(4):
        X, y = planted(seed)
        ex = BooleanRuleClassifier(error="exact", lam=0.5, class_weight=None).fit(X, y)
        ham = BooleanRuleClassifier(lam=0.5, class_weight=None).fit(X, y)
        if ex.lp_status_ == "optimal":
            assert ex.objective_ <= ex.rule_objective(ham.rule_, X, y) + 1e-9


def test_the_claim_names_the_count_and_what_cannot_be_combined():
    X, y = planted()
    m = BooleanRuleClassifier(error="exact", lam="auto", class_weight=None).fit(X, y)
    text = fit_status(m).text
    assert "false positives + false negatives), each wrong row counted once" in text
    if m.lp_status_ == "optimal" and m.mip_gap_ <= 1e-6:
        assert text.startswith("Certified optimal")
    else:
        assert text.startswith("Not proven optimal")
        # and says what that leaves the analyst to do (a stranger's review)
        assert "judge it by its accuracy on the test rows" in text
    # a MIP stopped by its time limit says the same
    cut = BooleanRuleClassifier(error="exact", lam=0.5, class_weight=None).fit(X, y)
    cut.lp_status_, cut.mip_gap_, cut.solve_method_ = "time_limit", 0.2, "beam+mip"
    said = fit_status(cut).text
    assert said.startswith("Not proven optimal") and "no fault of the rule" in said
    assert "the MIP that would prove it stopped at its time limit" in said
    # any other status is named, not called a time limit (noticed in review)
    cut.lp_status_ = "interrupted"
    said = fit_status(cut).text
    assert "time limit" not in said.split(".")[0]
    assert "the MIP that would prove it ended without a proof (interrupted)" in said
    with pytest.raises(ParameterError, match="exact 0/1"):
        BooleanRuleClassifier(error="exact", require="a").fit(X, y)
    with pytest.raises(ParameterError, match="near-optimal set"):
        m.alternatives(X, y)
    with pytest.raises(ParameterError, match="error"):
        BooleanRuleClassifier(error="zero-one").fit(X, y)
    with pytest.raises(ParameterError, match="single rule only"):
        RuleSettings(model="set covering", error="exact").estimator()


def test_cli_learn_with_exact_errors(tmp_path, monkeypatch, capsys):
    from rulecore.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["learn", "--sample", "iris", "--error", "exact", "--json", "out.json"]) == 0
    out = capsys.readouterr().out
    assert "each wrong row counted once" in out and "solver: beam search" in out
    result = json.loads((tmp_path / "out.json").read_text())
    assert result["options"]["error"] == "exact"


def test_rule_page_counts_errors_once_per_row_when_asked():
    from tests.test_page_rule import open_page

    at = open_page("pages/rule.py")
    assert at.selectbox(key="error").value == "hamming"
    at.selectbox(key="error").set_value("exact").run()
    assert not at.exception, at.exception
    shown = " ".join(b.value for b in [*at.success, *at.info, *at.warning])
    assert "each wrong row counted once" in shown
    # the same fit outside the app (the default sample, split and seed): the page's checklist
    # is the estimator's rule
    from rulecore.fit import fit_on_split
    from rulecore.samples import DEFAULT_SAMPLE
    from tests.test_page_rule import checklist

    ds = load_sample(DEFAULT_SAMPLE)
    fit = fit_on_split(RuleSettings(error="exact", kinds=ds.kinds), ds, 0.25, 0)
    assert checklist(at) == [str(c) for c in fit.model.rule_.conditions]


def test_rule_page_settles_exact_against_must_use_in_its_own_words():
    """Per-row errors take no 'Must use' and no LP solver: the page switches or undoes the
    count with a notice in its words, and fits, instead of showing the library's error."""
    from tests.test_page_rule import checklist, open_page

    at = open_page("pages/rule.py")
    at.selectbox(key="error").set_value("exact").run()
    at.multiselect(key="require").set_value(["sepal width (cm)"]).run()
    assert not at.exception, at.exception
    assert not at.error
    assert any("now **per condition**: 'Must use'" in i.value for i in at.info)
    assert at.selectbox(key="error").value == "hamming"
    assert any(c.startswith("sepal width") for c in checklist(at))  # the required column
    # asking for per row while 'Must use' is set is undone, saying what to change
    at.selectbox(key="error").set_value("exact").run()
    assert not at.error and at.selectbox(key="error").value == "hamming"
    assert any("remove 'Must use' first" in i.value for i in at.info)
    # the LP solver likewise
    at.multiselect(key="require").set_value([]).run()
    at.selectbox(key="error").set_value("exact").run()
    at.selectbox(key="solver").set_value("lp").run()
    assert not at.error and at.selectbox(key="error").value == "hamming"
    assert any("the LP solver works with that count only" in i.value for i in at.info)


def test_exact_error_over_the_memory_budget_is_refused_with_advice(monkeypatch):
    from rulecore.exceptions import DataError
    from rulecore.rules.clause import learn_clause

    monkeypatch.setenv("RULECORE_MEMORY_BUDGET_GB", "0.00001")
    B = np.random.default_rng(0).random((500, 30)) < 0.5
    with pytest.raises(DataError, match="error='hamming'"):
        learn_clause(B, (B[:, 0] & B[:, 1]).astype(int), error="exact")


def test_the_exact_proof_runs_without_highs_presolve(monkeypatch):
    """HiGHS's presolve does not watch the time limit: on the exact count over 100,000 rows
    it ran 113 s past a 30 s limit (colgen.exact_clause).  The proof must skip it (as the
    rule set's exact pricing does)."""
    from rulecore import highs

    seen = []
    solve = highs.Model.solve

    def spy(self, **kwargs):
        seen.append(kwargs.get("presolve", True))
        return solve(self, **kwargs)

    monkeypatch.setattr(highs.Model, "solve", spy)
    X, y = planted(3)
    BooleanRuleClassifier(error="exact", class_weight=None, lam=0.5).fit(X, y)
    assert seen and not any(seen)


def _levels_problem(rng, n=200, error_rows=0.1):
    """A term matrix of one column of four levels as == and != terms (columns 0-3 and 4-7,
    one clique of the == terms and one cover of the != terms, as the binarizer makes them)
    and a number column's thresholds (8-11), with labels."""
    from rulecore.rules.clause import problem_of

    level = rng.integers(0, 4, n)
    x = rng.normal(size=n)
    eq = np.stack([level == k for k in range(4)], axis=1)
    thr = np.stack([x > t for t in (-1, 0, 0.5, 1)], axis=1)
    B = np.hstack([eq, ~eq, thr])
    y = ((level == 2) & (x > 0)).astype(int)
    y[rng.random(n) < error_rows] ^= 1
    feature_of = np.array([0] * 8 + [1] * 4)
    return problem_of(B, y, lam=1.0, cliques=[np.arange(4)], covers=[np.arange(4, 8)],
                      feature_of=feature_of)


@pytest.mark.parametrize("error", ["hamming", "exact"])
def test_terms_one_term_says_are_that_term(error):
    """A rule found without proof listed 'Card Funding != credit AND != debit AND !=
    unknown', where 'Card Funding == prepaid' says the same (a stranger's Stripe export): the
    three are replaced by the one, the clause firing on the same rows, its objective lower."""
    from rulecore.rules.problem import merge_terms

    pr = _levels_problem(np.random.default_rng(0))
    w = np.zeros(pr.n_terms, bool)
    w[[4, 5, 7, 9]] = True  # != 0, != 1, != 3 and x > 0
    merged = merge_terms(pr, w, error)
    assert set(np.flatnonzero(merged)) == {2, 9}  # == 2 and x > 0
    assert np.array_equal(pr.A[:, merged].any(axis=1), pr.A[:, w].any(axis=1))
    assert pr.objective(merged, error) == pytest.approx(pr.objective(w, error) - 2)


@pytest.mark.parametrize("seed", range(30))
def test_merged_terms_fire_alike_and_never_cost_more(seed):
    """On random clauses: the clause merge_terms returns fires on the same rows, is
    consistent, and its objective (both counts) is never higher."""
    from rulecore.rules.problem import _consistent, merge_terms

    rng = np.random.default_rng(seed)
    pr = _levels_problem(rng, n=int(rng.integers(20, 120)), error_rows=0.2)
    for _ in range(10):
        w = np.zeros(pr.n_terms, bool)
        w[rng.choice(pr.n_terms, int(rng.integers(1, 6)), replace=False)] = True
        if not _consistent(pr, w):
            continue
        for error in ("hamming", "exact"):
            merged = merge_terms(pr, w, error)
            assert _consistent(pr, merged)
            assert np.array_equal(pr.A[:, merged].any(axis=1), pr.A[:, w].any(axis=1))
            assert pr.objective(merged, error) <= pr.objective(w, error) + 1e-9
            assert merged.sum() <= w.sum()
