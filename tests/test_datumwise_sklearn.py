"""scikit-learn's estimator checks for DatumWiseClassifier (small n_states to keep them quick)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

from rulecore.datumwise import DatumWiseClassifier


@parametrize_with_checks(
    [DatumWiseClassifier(n_states=150, n_iterations=3, random_state=0)]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("method", ["predict", "run_policy", "features_used",
                                    "mean_features_used", "mean_sparsity", "explain"])
def test_unfitted_raises_not_fitted(method):
    """Every method that needs a fit says so with scikit-learn's NotFittedError."""
    X = np.zeros((2, 3))
    with pytest.raises(NotFittedError):
        getattr(DatumWiseClassifier(), method)(X[0] if method == "explain" else X)
