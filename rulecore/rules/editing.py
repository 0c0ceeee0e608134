"""Edit a learned rule and score it at once, without refitting; and where each row stands.

An analyst who doubts the optimum changes a threshold, drops a condition or adds one
(:meth:`Rule.without`, :meth:`Rule.with_condition`), and sees what it costs: accuracy,
precision, recall and coverage on the training and held-out rows, the objective the fit
minimised, and how far that is above the certified optimum.  Everything here counts
directly on the table (:meth:`Rule.evaluate`), so an edited threshold that is not among the
binarizer's terms scores exactly too.

Row provenance: for a rule, which rows pass and fail each condition (and which rows a
condition alone rejects); for a rule set, which clauses fire on each row.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from rulecore.exceptions import DataError
from rulecore.metrics import binary_metrics
from rulecore.rules.rule import Rule, RuleSet

#: Rows of :func:`score_rules`, in order; the first :data:`SHARE_ROWS` are shares (formatted
#: as %).  Balanced accuracy beside accuracy, as the Rule page's performance table has it (on
#: an 18 % class the editor's accuracy alone hid what an edit did to the rare class: a review).
SCORE_ROWS = ("train accuracy", "test accuracy", "train balanced accuracy",
              "test balanced accuracy", "train precision", "test precision", "train recall",
              "test recall", "coverage (train)", "conditions", "objective", "above the optimum")
SHARE_ROWS = 9


def _rates(fires: np.ndarray, y01: np.ndarray) -> tuple[float, ...]:
    """accuracy, balanced accuracy, precision, recall, coverage of 0/1 decisions (nan where
    undefined), as :func:`rulecore.metrics.binary_metrics` counts them."""
    if len(y01) == 0:
        return (np.nan,) * 5
    m = binary_metrics(np.asarray(y01) == 1, fires)
    return (m["accuracy"], m["balanced_accuracy"], m["precision"], m["recall"],
            float(np.mean(fires)))


def score_rules(model: Any, rules: dict[str, Rule], X_train: pd.DataFrame, y_train: Any,
                X_test: pd.DataFrame | None = None, y_test: Any = None, *,
                sample_weight: Any = None) -> pd.DataFrame:
    """Score several rules (the learned one, an edited one...) side by side.

    Parameters
    ----------
    model : BooleanRuleClassifier
        The fit whose objective (λ, class weights, error costs) and certificate are used.
    rules : dict of str to Rule
        Column name → rule.
    X_train, y_train : table and labels (the fit's labels) of the training rows
    X_test, y_test : optional, the held-out rows
    sample_weight : array of shape (n_train,), optional
        The fit's training weights: the objectives are counted with them, as the fit's was
        (without them a weighted fit's own rule read 6 below its certified optimum: a
        brute-force review).  The rates (accuracy, precision, recall) count rows.

    Returns
    -------
    DataFrame of shape (len(SCORE_ROWS), len(rules))
        Index :data:`SCORE_ROWS`.  ``objective`` is :meth:`rule_objective` on the training
        rows; ``above the optimum`` is ``objective − model.objective_`` (the certified
        optimum when ``model.mip_gap_`` is 0; see :func:`distance_words`).
    """
    ytr = model._labels01(y_train)
    yte = None if y_test is None else model._labels01(y_test)
    out = {}
    for name, rule in rules.items():
        ftr = rule.predict(X_train).astype(bool)
        acc, bal, prec, rec, cov = _rates(ftr, ytr)
        te = _rates(rule.predict(X_test).astype(bool), yte) if X_test is not None and \
            yte is not None else (np.nan,) * 5
        obj = model.rule_objective(rule, X_train, y_train, sample_weight=sample_weight)
        out[name] = [acc, te[0], bal, te[1], prec, te[2], rec, te[3], cov, float(len(rule)),
                     obj, obj - model.objective_]
    return pd.DataFrame(out, index=list(SCORE_ROWS))


#: A fit whose gap is at most this is a certified optimum (as :func:`rulecore.report.fit_status`
#: says it).
CERTIFIED_GAP = 1e-6


def certified(model: Any) -> bool:
    """Whether a fitted rule model's rule is a certified optimum (its gap within
    :data:`CERTIFIED_GAP`): one test for the editor's words, rows and buttons (the page
    tested ``== 0`` beside this function's 1e-6, and a gap of 1e-7 read two ways)."""
    return getattr(model, "mip_gap_", 1.0) <= CERTIFIED_GAP


def broken_constraints(model: Any, rule: Rule) -> list[str]:
    """How ``rule`` breaks the fit's constraints (``require``, ``forbid``,
    ``max_conditions``), in words; empty when it keeps them or the fit had none."""
    constraints = getattr(model, "constraints_", None)
    return constraints.broken_by(rule) if constraints else []


def distance_words(model: Any, objective: float, rule: Rule | None = None) -> str:
    """How far an objective is from the fit's optimum, said as what is proved; with the
    edited ``rule``, what it breaks of the constraints the optimum was proved under."""
    above = objective - model.objective_
    certified_ = certified(model)
    broken = broken_constraints(model, rule) if rule is not None else []
    if broken:
        said = "; ".join(broken)
        where = (f"{-above:.4g} below" if above < -1e-9 else f"{above:.4g} above"
                 if above > 1e-9 else "the same as")
        return (f"{where} the learned rule ({model.objective_:.4g}), but it breaks your "
                f"constraints ({said}): the optimum was " + ("proved" if certified_ else
                                                             "searched") +
                " under them, so it is no comparison (clear them above to see the optimum "
                "without them)")
    if abs(above) <= 1e-9:
        return "the same objective as the " + ("certified optimum" if certified_ else
                                                "learned rule")
    if above > 0:
        what = "the certified optimum" if certified_ else "the learned rule (not certified)"
        return f"{above:.4g} above {what} ({model.objective_:.4g})"
    # below: only possible when the fit was not certified, or with a threshold off the terms
    return (f"{-above:.4g} below the learned rule: better than the fit found, with a "
            "threshold or condition outside its candidate terms" if certified else
            f"{-above:.4g} below the learned rule, which was not certified optimal")


def term_choices(binarizer: Any, feature: str, current: Any = None) -> list:
    """The binarizer's terms on ``feature`` (the editor's choices for a condition on it),
    with ``current`` kept first when it is not one of them."""
    terms = [t for t in binarizer.terms_ if t.feature == feature]
    if current is not None and current not in terms:
        terms = [current] + terms
    return terms


# ----------------------------------------------------------------------------- provenance

def condition_rows(rule: Rule, X: pd.DataFrame) -> pd.DataFrame:
    """Pass (True) / fail of each condition on each row, and whether the rule fires.

    Returns
    -------
    DataFrame of shape (n_samples, n_conditions + 1), bool
        One column per condition (named by it) and ``"rule fires"``.
    """
    checks = rule.evaluate(X)
    fires = rule.predict(X).astype(bool)
    return checks.assign(**{"rule fires": fires})


def rejected_rows(rule: Rule, X: pd.DataFrame, index: int) -> np.ndarray:
    """Bool (n_samples,): the rows condition ``index`` fails (for an AND-rule, rows that
    condition alone keeps out when the others hold are the ones it decides on)."""
    if not 0 <= index < len(rule):
        raise DataError(f"The rule has {len(rule)} conditions; there is no condition "
                        f"{index + 1}.")
    return ~rule.conditions[index].evaluate(X[rule.conditions[index].feature])


def decisive_rows(rule: Rule, X: pd.DataFrame, index: int) -> np.ndarray:
    """Bool (n_samples,): rows that fail condition ``index`` and meet every other one of an
    AND-rule, so that removing it would flip them to positive."""
    checks = rule.evaluate(X).to_numpy()
    others = np.delete(checks, index, axis=1).all(axis=1)
    return ~checks[:, index] & others


def clause_rows(rules: RuleSet, X: pd.DataFrame) -> pd.DataFrame:
    """Which clauses of a rule set (or list) fire on each row, and the first one.

    Returns
    -------
    DataFrame of shape (n_samples, n_clauses + 1)
        ``clause 1`` ... (bool) and ``first clause`` (1-based; 0 when none fires).
    """
    votes = rules.votes(X)
    first = np.where(votes.any(axis=1), votes.argmax(axis=1) + 1, 0) if votes.size else \
        np.zeros(len(X), dtype=int)
    cols = {f"clause {k + 1}": votes[:, k] for k in range(votes.shape[1])}
    return pd.DataFrame({**cols, "first clause": first}, index=X.index)
