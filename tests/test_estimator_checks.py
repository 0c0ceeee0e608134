"""Every public estimator passes scikit-learn's estimator checks, with no exemption.

The instances get small settings (few thresholds, short time limits) so the checks run
quickly; they are the same classes a user imports from ``rulecore``.  The λ chosen by inner
cross-validation (``lam="auto"``) is checked too: RuleSetClassifier with its defaults (λ and
the class described chosen by CV; five thresholds) and BooleanRuleClassifier(lam="auto").
RuleSetClassifier is multi-class, so the checks also run it on three classes (its rule
list).  Binarizer, the transformer behind them, is checked too.  DatumWiseClassifier is
checked in test_datumwise_sklearn.py, SparseClassifier and SparseClassifierCV in
test_sparse.py.
"""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from rulecore import (
    BilinearReducer,
    Binarizer,
    BooleanRuleClassifier,
    BoostedRuleClassifier,
    CalculationEstimationClassifier,
    RuleSetClassifier,
    SetCoveringRuleClassifier,
)

RULE_ESTIMATORS = [
    BooleanRuleClassifier(n_thresholds=5, time_limit=10),
    BooleanRuleClassifier(n_thresholds=5, time_limit=10, rule_type="or", class_weight=None,
                          screening="none"),
    SetCoveringRuleClassifier(n_thresholds=5, time_limit=10, max_rules=3),
    BoostedRuleClassifier(n_thresholds=5, time_limit=10, n_rounds=3),
    BooleanRuleClassifier(lam="auto"),
    BooleanRuleClassifier(n_thresholds=5, time_limit=5, error="exact"),
]

RULESET_ESTIMATORS = [
    # λ and the class described fixed: no inner CV
    RuleSetClassifier(lam=1.0, describe="positive", certify=False, time_limit=20),
    # the defaults but for the threshold count: λ and (two classes) the class described
    # chosen by inner CV, with the exact pricing MIP.  sample-weight equivalence hands it
    # explicit CV splits (``cv``).  n_thresholds="auto" crossed the inner CV with a count per
    # check (36 s of the checks' 43 s); it is tested in test_ruleset.py
    RuleSetClassifier(n_thresholds=5),
]

BILINEAR_ESTIMATORS = [
    CalculationEstimationClassifier(),
    # a fixed ε and k = 1; reject_label only affects predict_or_reject, never predict
    CalculationEstimationClassifier(k=1, eps=0.3, reject_label=-1),
    BilinearReducer(random_state=0, time_limit=20),
    BilinearReducer(t=2.0, feature_share=0.5, object_share=0.8, eval_every=3, random_state=0,
                    time_limit=20),
]


# the transformer every rule estimator builds its terms with (it was not checked, and failed
# 12 checks the README said it passed: a notebook review)
TERM_TRANSFORMERS = [Binarizer(), Binarizer(n_thresholds=3, negations=False, thresholds="all")]


@parametrize_with_checks(TERM_TRANSFORMERS)
def test_binarizer_passes_sklearn_checks(estimator, check):
    check(estimator)


@parametrize_with_checks(RULE_ESTIMATORS)
def test_rule_estimators_pass_sklearn_checks(estimator, check):
    check(estimator)


@parametrize_with_checks(RULESET_ESTIMATORS)
def test_ruleset_estimators_pass_sklearn_checks(estimator, check):
    check(estimator)


@parametrize_with_checks(BILINEAR_ESTIMATORS)
def test_bilinear_estimators_pass_sklearn_checks(estimator, check):
    check(estimator)
