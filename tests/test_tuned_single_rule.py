"""The single rule with ``lam="auto"``: tuned for held-out error as a whole
(``rulecore.settings.TUNED_SINGLE_RULE``, docs/rulesets.md, "Choosing λ").  Unless given, the
rule type is chosen by the inner folds, wrong rows are counted once and every row weighs the
same; a number λ keeps the checklist defaults (AND, Hamming count, √ class weight)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold

from rulecore import BooleanRuleClassifier, RuleSettings
from rulecore.settings import FIXED_SINGLE_RULE, TUNED_SINGLE_RULE, single_rule_defaults


def unbalanced(seed: int = 0, n: int = 240) -> tuple[pd.DataFrame, np.ndarray]:
    """A planted AND-rule for a 30 % class, with label noise: √ weights and no weights give
    different objectives, so a clone that took the wrong weights would be seen."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=["a", "b", "c", "d"])
    y = ((X.a > 0.2) & (X.b < 0.3)).astype(int).to_numpy().copy()
    y[rng.random(n) < 0.1] ^= 1
    return X, y


def test_defaults_depend_on_lam_only_where_not_given():
    assert single_rule_defaults("auto") == TUNED_SINGLE_RULE
    assert single_rule_defaults(1.0) == single_rule_defaults(None) == FIXED_SINGLE_RULE
    X, y = unbalanced()
    fixed = BooleanRuleClassifier().fit(X, y)
    assert (fixed.rule_type_, fixed.error_, fixed.class_weight_used_) == ("and", "hamming",
                                                                          "sqrt")
    assert fixed.cv_results_ is None
    tuned = BooleanRuleClassifier(lam="auto").fit(X, y)
    assert tuned.error_ == "exact" and tuned.class_weight_used_ is None
    from rulecore.report import fit_status
    assert "each wrong row counted once" in fit_status(tuned).text  # the count it used
    assert "type was chosen by the same cross-validation" in fit_status(tuned).text
    assert "each wrong row" not in fit_status(fixed).text
    assert set(tuned.cv_results_["rule_type"]) == {"and", "or"}  # the type was chosen
    # given options win over the tuned defaults
    given = BooleanRuleClassifier(lam="auto", rule_type="and", error="hamming",
                                  class_weight="sqrt").fit(X, y)
    assert (given.rule_type_, given.error_, given.class_weight_used_) == ("and", "hamming",
                                                                          "sqrt")
    assert "rule_type" not in given.cv_results_


def test_the_defaults_are_the_stated_configuration():
    """``lam="auto"`` alone fits exactly what the bench measured as
    ``lam="auto", rule_type="auto", error="exact", class_weight=None``."""
    X, y = unbalanced(1)
    a = BooleanRuleClassifier(lam="auto").fit(X, y)
    b = BooleanRuleClassifier(lam="auto", rule_type="auto", error="exact",
                              class_weight=None).fit(X, y)
    assert str(a.rule_) == str(b.rule_) and a.lam_ == b.lam_
    pd.testing.assert_frame_equal(a.cv_results_, b.cv_results_)


@pytest.mark.parametrize("max_rows", [None, 120])
def test_inner_folds_fit_the_tuned_problem(monkeypatch, max_rows):
    """The inner CV's clones get a number λ; they must still count wrong rows once with equal
    weights (not fall back to the fixed-λ defaults).  Recompute one grid point by hand; on a
    table above the cap (here 120 of 240 rows) the folds split a stratified sample."""
    from rulecore.rules.estimators import _cv_rows

    X, y = unbalanced(2)
    rows = np.arange(len(y))
    if max_rows is not None:
        monkeypatch.setattr("rulecore.rules.estimators.INNER_CV_MAX_ROWS", max_rows)
        rows = _cv_rows(y, max_rows, 0)
        assert len(rows) == max_rows
    m = BooleanRuleClassifier(lam="auto", random_state=0).fit(X, y)
    row = m.cv_results_.iloc[1]
    folds = [(rows[tr], rows[va]) for tr, va in
             StratifiedKFold(3, shuffle=True, random_state=0).split(rows, y[rows])]
    errs = []
    for tr, va in folds:
        # on a sample the inner fits' λ is the grid's κ on the sample's weight: λ W / W_sample
        lam = float(row["lam"]) * len(y) / len(rows)
        inner = BooleanRuleClassifier(lam=lam, rule_type=row["rule_type"],
                                      error="exact", class_weight=None, random_state=0)
        inner._inner_fit = True  # the beam search, as the inner fits run it
        # the fit's terms: the binarizer is fitted on all training rows, as in the fit
        inner.fit_terms(m.binarizer_.transform(X)[tr], y[tr], m.binarizer_)
        errs.append(np.mean(inner.predict(X.iloc[va]) != y[va]))
    assert row["error"] == pytest.approx(np.mean(errs))


def test_exact_falls_back_where_it_cannot_run(monkeypatch):
    X, y = unbalanced(3)
    m = BooleanRuleClassifier(lam="auto", require=["a"]).fit(X, y)
    assert m.error_ == "hamming" and "a" in m.rule_.features
    m = BooleanRuleClassifier(lam="auto", solver="lp").fit(X, y)
    assert m.error_ == "hamming"
    # a budget the beam's copy (rows × terms × 5 bytes) exceeds; only the estimator's choice
    # sees it, so the Hamming fit itself is not refused
    n_terms = BooleanRuleClassifier().fit(X, y).n_terms_
    monkeypatch.setattr("rulecore.settings.memory_budget",
                        lambda: len(y) * n_terms * 5 - 1)
    m = BooleanRuleClassifier(lam="auto").fit(X, y)
    assert m.error_ == "hamming" and m.class_weight_used_ is None
    monkeypatch.setattr("rulecore.settings.memory_budget",
                        lambda: len(y) * n_terms * 5)
    assert BooleanRuleClassifier(lam="auto").fit(X, y).error_ == "exact"


def test_alternatives_say_how_to_get_them():
    from rulecore.exceptions import ParameterError

    X, y = unbalanced(4)
    m = BooleanRuleClassifier(lam="auto").fit(X, y)
    with pytest.raises(ParameterError, match="error='hamming'"):
        m.alternatives(X, y)


def test_settings_and_command_line_resolve_the_same_defaults(tmp_path, monkeypatch, capsys):
    est = RuleSettings(lam="auto", rule_type=None, error=None).estimator()
    assert (est.rule_type, est.class_weight) == ("auto", None)
    assert est.error is None  # the estimator decides: exact where it can run
    est = RuleSettings(rule_type=None, error=None).estimator()
    assert (est.rule_type, est.class_weight) == ("and", "sqrt")
    # --lam auto with a required column: the count falls back instead of being refused
    X, y = unbalanced(5)
    fitted = RuleSettings(lam="auto", rule_type=None, error=None,
                          require=("a",)).estimator().fit(X, y)
    assert fitted.error_ == "hamming" and "a" in fitted.rule_.features
    assert RuleSettings(model="set covering", lam="auto", error=None).estimator() \
        .class_weight == "sqrt"  # only the single rule is tuned as a whole

    from rulecore.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["learn", "--sample", "iris", "--lam", "auto", "--json", "out.json"]) == 0
    out = capsys.readouterr().out
    assert "chosen by cross-validation" in out
    options = json.loads((tmp_path / "out.json").read_text())["options"]
    assert options["lam"] == "auto" and options["lam_chosen"] > 0
    assert options["error"] == "exact" and options["class_weight"] is None
    assert options["rule_type"] in ("and", "or")
    with pytest.raises(SystemExit) as exit_:
        main(["learn", "--sample", "iris", "--lam", "often"])
    assert exit_.value.code == 2
    assert "positive number or 'auto'" in capsys.readouterr().err


def test_rule_page_chooses_lam_by_cross_validation():
    from tests.test_page_rule import checklist, open_page

    at = open_page("pages/rule.py")
    assert at.toggle(key="lam_auto").value is False
    at.toggle(key="lam_auto").set_value(True).run()
    assert not at.exception, at.exception
    # the boxes show what the fit now uses, and the slider's λ is not the one used
    assert at.radio(key="rule_type").value == "auto"
    assert at.selectbox(key="error").value == "exact"
    assert at.select_slider(key="lam").disabled
    assert any("chosen by cross-validation" in h.value for h in at.subheader)
    # the same fit outside the app: the page's checklist is the estimator's rule
    from rulecore import load_sample
    from rulecore.fit import fit_on_split
    from rulecore.samples import DEFAULT_SAMPLE

    ds = load_sample(DEFAULT_SAMPLE)
    fit = fit_on_split(RuleSettings(lam="auto", rule_type=None, error=None, kinds=ds.kinds),
                       ds, 0.25, 0)
    assert fit.model.error_ == "exact"
    assert checklist(at) == [str(c) for c in fit.model.rule_.conditions]
    # the alternatives tab says what to change instead of offering a search that fails
    assert any("Errors counted: per condition" in i.value for i in at.info)
    assert not [b for b in at.button if b.key == "alt_go"]
    # and back: the checklist defaults
    at.toggle(key="lam_auto").set_value(False).run()
    assert not at.exception, at.exception
    assert at.radio(key="rule_type").value == "and"
    assert at.selectbox(key="error").value == "hamming"
    assert not at.select_slider(key="lam").disabled
    assert [b for b in at.button if b.key == "alt_go"]


def test_the_claim_says_when_every_lam_tied():
    """λ "chosen by cross-validation" says little when every λ of the grid gave the same
    inner-CV error (a clean one-condition rule): the claim says so."""
    from rulecore.report import fit_status

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.uniform(size=(200, 2)), columns=["a", "b"])
    clean = BooleanRuleClassifier(lam="auto").fit(X, (X.a > 0.5).astype(int))
    assert clean.cv_results_.groupby("rule_type")["error"].nunique().eq(1).all()
    assert "every λ of the grid gave the same error" in fit_status(clean).text
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    noisy = BooleanRuleClassifier(lam="auto").fit(X, y)
    chosen = noisy.cv_results_[noisy.cv_results_.rule_type == noisy.rule_type_]
    assert chosen["error"].nunique() > 1
    assert "every λ of the grid" not in fit_status(noisy).text


def test_library_errors_reach_the_page_in_its_words():
    """A memory refusal of the per-row count (a million rows with λ by cross-validation) says
    'error=...' in the library; the Rule page names its box instead."""
    from streamlit.testing.v1 import AppTest

    def page():
        from pages import common
        from rulecore.exceptions import DataError

        with common.user_errors():
            raise DataError("The beam search needs 2.1 GB. Count errors per failed condition "
                            "(error='hamming'), whose problem is screened first.")

    at = AppTest.from_function(page).run()
    assert not at.exception
    assert "(Errors counted: per condition)" in at.error[0].value
    assert "error='hamming'" not in at.error[0].value


def test_the_toggle_keeps_per_condition_with_the_lp_solver():
    """Turning λ-by-CV on with the LP solver chosen keeps errors per condition (the per-row
    count takes only the MIP), as the estimator's own default does, instead of an error."""
    from tests.test_page_rule import open_page

    at = open_page("pages/rule.py")
    at.selectbox(key="solver").set_value("lp").run()
    at.toggle(key="lam_auto").set_value(True).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="error").value == "hamming"
    assert at.radio(key="rule_type").value == "auto"


@pytest.mark.parametrize("how", ["toggle", "box"])
def test_per_row_falls_back_on_a_table_too_large_for_it(monkeypatch, how):
    """On a table whose rows the per-row count's beam cannot copy within the memory budget (a
    million-row upload), turning λ-by-CV on keeps errors per condition, as the estimator's
    default does, and asking for per row is undone; each says why, and the fit runs (before,
    the toggle met the library's memory refusal)."""
    from tests.test_page_rule import open_page

    huge = 10**15  # bytes: over any budget
    monkeypatch.setattr("rulecore.settings.per_row_bytes", lambda *shape: huge)
    monkeypatch.setattr("pages.common.per_row_bytes", lambda *shape: huge)
    at = open_page("pages/rule.py")
    if how == "toggle":
        at.toggle(key="lam_auto").set_value(True).run()
        assert at.radio(key="rule_type").value == "auto"
    else:
        at.selectbox(key="error").set_value("exact").run()
    assert not at.exception and not at.error, (at.exception, at.error)
    assert at.selectbox(key="error").value == "hamming"
    assert at.session_state["rule"]["error"] == "hamming"
    notice = " ".join(i.value for i in at.info)
    assert "stays **per condition**" in notice and "training rows" in notice
    assert any("Certified optimal" in s.value for s in at.success)


def test_inner_fits_on_a_sample_take_the_lam_of_the_same_kappa(monkeypatch):
    """λ = 1 / (κ W): with the whole table's λ, the folds of a 50,000-row sample of 150,000
    rows fitted as if κ were 3 times larger, and the rule set on a 2 % class found no clause
    at any λ (a newcomer's review).  On a sample the inner fits get λ × W / W_sample; on every
    row, the grid's λ as before."""
    from rulecore import RuleSetClassifier
    from rulecore.rules import ruleset

    X, y = unbalanced(4, n=300)
    seen = []
    fit_terms = BooleanRuleClassifier.fit_terms

    def spy(self, B, y01, terms, **kw):
        if getattr(self, "_inner_fit", False):
            seen.append(float(self.lam))
        return fit_terms(self, B, y01, terms, **kw)

    monkeypatch.setattr(BooleanRuleClassifier, "fit_terms", spy)
    paths = []
    real_path = ruleset._path

    def spy_path(B, y01, d, lams, *args, **kw):
        paths.append(np.asarray(lams))
        return real_path(B, y01, d, lams, *args, **kw)

    monkeypatch.setattr(ruleset, "_path", spy_path)
    for cap, scale in ((None, 1.0), (100, 3.0)):
        if cap is not None:
            monkeypatch.setattr("rulecore.rules.estimators.INNER_CV_MAX_ROWS", cap)
        seen.clear()
        paths.clear()
        m = BooleanRuleClassifier(lam="auto", class_weight=None, random_state=0).fit(X, y)
        grid = np.sort(m.cv_results_["lam"].unique())
        assert len(seen) == len(m.cv_results_) * 3
        np.testing.assert_allclose(np.unique(seen), grid * scale)
        rs = RuleSetClassifier(random_state=0, cv_max_rows=cap).fit(X, y)
        grid = np.sort(rs.cv_results_["lam"].unique())
        for lams in paths:
            np.testing.assert_allclose(np.sort(lams), grid * scale)


def test_an_inner_fit_stopped_by_its_time_limit_is_counted_and_said(monkeypatch):
    """The single rule's cross-validation: an inner solve stopped at its time limit (made to
    say so here) is counted at its grid point (``timed_out``), and the report warns that
    the curve may differ on another machine; without one, nothing is said."""
    import dataclasses

    from rulecore.report import cv_timing_words
    from rulecore.rules import estimators

    X, y = unbalanced(2)
    plain = BooleanRuleClassifier(lam="auto", error="hamming", rule_type="and").fit(X, y)
    assert plain.cv_results_["timed_out"].eq(0).all() and cv_timing_words(plain) == ""
    real, calls = estimators.learn_clause, {"n": 0}

    def stopped_fourth(*args, **kwargs):
        calls["n"] += 1
        r = real(*args, **kwargs)
        return dataclasses.replace(r, status="time_limit") if calls["n"] == 4 else r

    monkeypatch.setattr(estimators, "learn_clause", stopped_fourth)
    m = BooleanRuleClassifier(lam="auto", error="hamming", rule_type="and").fit(X, y)
    # three folds per λ: the fourth inner fit is the second λ's first fold
    assert list(m.cv_results_["timed_out"]) == [0, 1] + [0] * (len(m.cv_results_) - 2)
    said = cv_timing_words(m)
    assert said.startswith("At 1 of the ") and "its time limit, so" in said  # nothing carried
