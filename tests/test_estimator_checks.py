"""Every public classifier passes scikit-learn's estimator checks, with no exemption.

The instances get small settings (few thresholds, short time limits) so the checks run
quickly; they are the same classes a user imports from ``rulecore``.
"""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from rulecore import (
    BooleanRuleClassifier,
    BoostedRuleClassifier,
    SetCoveringRuleClassifier,
)

RULE_ESTIMATORS = [
    BooleanRuleClassifier(n_thresholds=5, time_limit=10),
    BooleanRuleClassifier(n_thresholds=5, time_limit=10, rule_type="or", class_weight=None,
                          screening="none"),
    SetCoveringRuleClassifier(n_thresholds=5, time_limit=10, max_rules=3),
    BoostedRuleClassifier(n_thresholds=5, time_limit=10, n_rounds=3),
]


@parametrize_with_checks(RULE_ESTIMATORS)
def test_rule_estimators_pass_sklearn_checks(estimator, check):
    check(estimator)
