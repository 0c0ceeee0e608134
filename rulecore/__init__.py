"""rulecore: interpretable classification rules and sparse classifiers.

Plain Python (no streamlit, no plotly outside :mod:`rulecore.viz`); the estimators follow the
scikit-learn API.  The pipeline, module by module, is drawn in ``docs/architecture.md``:

- :mod:`rulecore.data`, :mod:`rulecore.roles`, :mod:`rulecore.scales`: load a table, pick features,
  target, positive, and the order of ordered scales;
- :mod:`rulecore.rules`: terms → clause problem → screening → solvers → :func:`learn_clause`
  → rule estimators and the :class:`~rulecore.rules.rule.Rule` they return;
- :mod:`rulecore.settings`: the one vocabulary (model names, options, defaults);
- :mod:`rulecore.sparse`, :mod:`rulecore.datumwise`, :mod:`rulecore.bilinear`: the other models;
- :mod:`rulecore.highs`: the one door to HiGHS for every LP and MIP;
- :mod:`rulecore.viz`: plotly figure builders.

Errors a user can fix are :class:`RulecoreError` (see :mod:`rulecore.exceptions`).
"""

from rulecore.bilinear import BilinearReducer, CalculationEstimationClassifier
from rulecore.data import Dataset, list_samples, load_csv, load_sample
from rulecore.datumwise import DatumWiseClassifier
from rulecore.encode import NumericEncoder
from rulecore.exceptions import DataError, ParameterError, RulecoreError, SolverError
from rulecore.rules import (
    Binarizer,
    BooleanRuleClassifier,
    BoostedRuleClassifier,
    SetCoveringRuleClassifier,
    learn_clause,
)
from rulecore.rules.rule import Rule, RuleList, RuleSet
from rulecore.rules.ruleset import RuleSetClassifier
from rulecore.rules.stability import StabilityResult, stability
from rulecore.settings import RuleSettings
from rulecore.sparse import SparseClassifier, SparseClassifierCV

__all__ = ["Binarizer", "BilinearReducer", "BooleanRuleClassifier", "BoostedRuleClassifier",
           "CalculationEstimationClassifier", "DataError", "Dataset", "DatumWiseClassifier",
           "NumericEncoder", "ParameterError", "Rule", "RuleList", "RuleSet",
           "RuleSetClassifier", "RuleSettings", "RulecoreError",
           "SetCoveringRuleClassifier", "SolverError", "SparseClassifier",
           "SparseClassifierCV", "StabilityResult", "learn_clause", "list_samples", "load_csv",
           "load_sample", "stability"]
__version__ = "0.1.0"
