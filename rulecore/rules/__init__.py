"""Rules, from terms to estimators (the pipeline of ``docs/architecture.md``).

- :mod:`~rulecore.rules.terms`: a table's Boolean terms (the term matrix B);
- :mod:`~rulecore.rules.problem`: B and the labels as the clause problem (rows merged);
- :mod:`~rulecore.rules.screening`: certified removal of terms in no optimal clause;
- :mod:`~rulecore.rules.solvers`: the exact MIP, the LP with rounding, the small search;
- :mod:`~rulecore.rules.clause`: :func:`learn_clause`, the entry point of all of the above;
- :mod:`~rulecore.rules.estimators`: scikit-learn estimators built on it;
- :mod:`~rulecore.rules.colgen`: DNF rule sets by column generation with exact pricing;
- :mod:`~rulecore.rules.ruleset`: :class:`RuleSetClassifier` (λ and class chosen by CV,
  several classes as a rule list).
"""

from rulecore.rules.clause import (
    ClauseResult,
    learn_clause,
    problem_of,
    screen_problem,
    solve_problem,
)
from rulecore.rules.estimators import (
    BooleanRuleClassifier,
    BoostedRuleClassifier,
    SetCoveringRuleClassifier,
    lambda_path,
)
from rulecore.rules.problem import ClauseProblem, clause_problem
from rulecore.rules.ruleset import RuleSetClassifier
from rulecore.rules.screening import ScreeningReport, screen
from rulecore.rules.terms import Binarizer, Term

__all__ = ["Binarizer", "BooleanRuleClassifier", "BoostedRuleClassifier", "ClauseProblem",
           "ClauseResult", "RuleSetClassifier", "ScreeningReport", "SetCoveringRuleClassifier",
           "Term",
           "clause_problem", "lambda_path", "learn_clause", "problem_of", "screen",
           "screen_problem", "solve_problem"]
