"""scikit-learn's estimator checks for DatumWiseClassifier (small n_states to keep them quick)."""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from rulecore.datumwise import DatumWiseClassifier


@parametrize_with_checks(
    [DatumWiseClassifier(n_states=150, n_iterations=3, random_state=0)]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
