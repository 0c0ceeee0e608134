"""rulecore: interpretable classification rules and sparse classifiers.

Plain Python (no streamlit): estimators follow the scikit-learn API.

Modules, one concept each:

- :mod:`rulecore.data`: load CSV files and samples into a :class:`~rulecore.data.Dataset`;
- :mod:`rulecore.binarize`: Boolean terms (the sensing matrix);
- :mod:`rulecore.bcs`: one AND/OR rule by Boolean compressed sensing (LP / exact MIP);
- :mod:`rulecore.rulesets`: set covering and boosting of rules;
- :mod:`rulecore.screening`: certified column screening of the rule LP;
- :mod:`rulecore.sparse`: sparse SVM / logistic regression by outer approximation;
- :mod:`rulecore.datumwise`: datum-wise sparse classification;
- :mod:`rulecore.bilinear`: bilinear object/feature reduction;
- :mod:`rulecore.viz`: plotly figure builders.

Errors a user can fix are :class:`RulecoreError` (see :mod:`rulecore.exceptions`).
"""

from rulecore.data import Dataset, list_samples, load_csv, load_sample
from rulecore.exceptions import DataError, ParameterError, RulecoreError, SolverError

__all__ = ["Dataset", "DataError", "ParameterError", "RulecoreError", "SolverError",
           "list_samples", "load_csv", "load_sample"]
__version__ = "0.1.0"
