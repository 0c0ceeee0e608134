"""What the user is told: a certified rule is green only when it is also good news."""

import numpy as np

from rulecore.report import Finding, assess, shown_claim

OK = Finding("success", "Certified optimal ...")


def test_green_only_above_the_majority_class_and_without_warnings():
    y = np.array([0] * 7 + [1] * 3)
    good = y.copy()
    good[0] = 1                                     # 90 % > 70 % majority
    assert shown_claim(OK, [], y, good).level == "success"
    majority_like = np.zeros(10, int)               # 70 %: no better than the majority
    assert shown_claim(OK, [], y, majority_like).level == "info"
    warned = [Finding("warning", "uses a possible leak")]
    assert shown_claim(OK, warned, y, good).level == "info"
    # a claim that is not a success stays what it is
    assert shown_claim(Finding("warning", "Not proven"), [], y, good).level == "warning"


def test_advice_names_the_error_costs_when_they_shaped_the_rule():
    y = np.array([0] * 70 + [1] * 30)
    pred = np.ones(100, int)                        # fires everywhere: 30 % accuracy
    pred[:20] = 0
    plain = assess(y, pred, y, pred, positive="yes", class_weight="sqrt")
    costed = assess(y, pred, y, pred, positive="yes", class_weight="sqrt", costs=(1.0, 4.0))
    assert not any("error costs" in f.text for f in plain)
    assert any("error costs (false positive 1×, false negative 4×)" in f.text for f in costed)


def test_a_class_named_by_a_number_is_not_read_as_a_row_count():
    """"finds 100% of the 2 rows" read as two rows: a numbered class is "rows of class 2"."""
    y = np.array([0] * 70 + [1] * 30)
    pred = np.ones(100, int)
    pred[:20] = 0
    said = " ".join(f.text for f in assess(y, pred, y, pred, positive=2, class_weight="sqrt"))
    assert "of the rows of class 2," in said and "the 2 rows" not in said
    said = " ".join(f.text for f in assess(y, pred, y, pred, positive="yes",
                                           class_weight="sqrt"))
    assert "of the yes rows," in said
