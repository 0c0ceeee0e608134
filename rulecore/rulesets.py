"""Rule sets from single clauses (DESIGN.md §3; Malioutov & Varshney 2013, §4).

- :class:`SetCoveringRuleClassifier`: a DNF learned clause by clause (separate and conquer):
  learn an AND-clause, drop the training rows it labels 1, learn the next on the rest.
- :class:`BoostedRuleClassifier`: Algorithm 1 of the paper (after Cohen & Singer's SLIPPER):
  weighted clauses, or a constant vote when the clause is not worth more than the prior.

Both reuse :class:`~rulecore.bcs.BooleanRuleClassifier` on one term matrix built once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from rulecore.bcs import BooleanRuleClassifier, _as_frame
from rulecore.exceptions import ParameterError
from rulecore.rule import Rule, RuleSet


class _RuleSetClassifier(BooleanRuleClassifier):
    """Shared fitting scaffold: terms once, then a loop of weighted single-clause fits."""

    def _clause_learner(self) -> BooleanRuleClassifier:
        return BooleanRuleClassifier(
            lam=self.lam, rule_type="and", n_thresholds=self.n_thresholds,
            thresholds=self.thresholds, negations=self.negations, solver=self.solver,
            time_limit=self.time_limit, random_state=self.random_state,
            screening=self.screening, kinds=self.kinds)

    def fit(self, X: Any, y: Any, sample_weight: Any = None,
            feature_names: Any = None) -> _RuleSetClassifier:
        """Learn the rule set; ``X``, ``y`` as for :class:`BooleanRuleClassifier`."""
        A, y01, d, target = self._prepare(X, y, sample_weight, feature_names)
        frame = _as_frame(X, feature_names)
        self.n_terms_ = A.shape[1]
        learner = self._clause_learner()
        learner.binarizer_ = self.binarizer_
        learner.classes_ = self.classes_
        self._learn(learner, A, y01, d, target)
        self.rule_ = self.ruleset_
        # screening of the last clause fit (each clause is screened on its own problem)
        self.screening_report_ = getattr(learner, "screening_report_", None)
        self._set_proba(self.ruleset_.predict(frame).astype(bool), y01, d)
        return self

    def _summarise_fits(self, status: list[str], gaps: list[float]) -> None:
        """Status and gap of the whole set: the first non-optimal clause fit, the worst gap."""
        self.lp_status_ = next((s for s in status if s != "optimal"), "optimal")
        self.mip_gap_ = max(gaps) if gaps else 0.0

    @property
    def clauses_(self) -> list[Rule]:
        return list(self.ruleset_.clauses)

    def clause_table(self, X: pd.DataFrame, y: np.ndarray) -> pd.DataFrame:
        """Per clause: conditions, vote weight, coverage (share of rows it fires on) and
        precision (share of positives among them), on the data given."""
        frame = self._frame_for_predict(X)
        y01 = (np.asarray(y) == self.classes_[1]).astype(int) if not set(np.unique(y)) <= {
            0, 1} else np.asarray(y).astype(int)
        votes = self.ruleset_.votes(frame)
        rows = []
        for t, clause in enumerate(self.ruleset_.clauses):
            fired = votes[:, t]
            rows.append({"clause": t + 1, "conditions": str(clause), "size": len(clause),
                         "weight": self.ruleset_.weights[t] if self.ruleset_.weighted else 1.0,
                         "coverage": fired.mean(),
                         "precision": y01[fired].mean() if fired.any() else np.nan})
        return pd.DataFrame(rows)

    def predict(self, X: Any) -> np.ndarray:
        return self.classes_[self.ruleset_.predict(self._frame_for_predict(X))]

    def decision_function(self, X: Any) -> np.ndarray:
        return self.ruleset_.score(self._frame_for_predict(X))

    def predict_proba(self, X: Any) -> np.ndarray:
        fired = self.ruleset_.predict(self._frame_for_predict(X)).astype(bool)
        p1 = np.where(fired, self.proba_fired_, self.proba_not_fired_)
        return np.column_stack([1.0 - p1, p1])


class SetCoveringRuleClassifier(_RuleSetClassifier):
    """A DNF of AND-clauses learned by set covering (separate and conquer, paper §4).

    Parameters
    ----------
    max_rules : int, default=5
        Stop after this many clauses.
    lam, n_thresholds, thresholds, negations, solver, time_limit, class_weight,
    random_state, screening, kinds
        As for :class:`~rulecore.bcs.BooleanRuleClassifier` (each clause is one such fit).

    Attributes
    ----------
    ruleset_ : RuleSet
        The OR of the clauses.
    clauses_ : list of Rule
    fits_ : list of dict
        Per clause: objective, status, gap, rows left before it.
    """

    def __init__(self, max_rules: int = 5, lam: float = 1.0, n_thresholds: int = 10,
                 thresholds: str = "quantile", negations: bool = True, solver: str = "mip",
                 time_limit: float = 30.0, class_weight: Any = None,
                 random_state: int | None = None, screening: str = "none",
                 kinds: dict | None = None) -> None:
        self.max_rules = max_rules
        super().__init__(lam=lam, rule_type="and", n_thresholds=n_thresholds,
                         thresholds=thresholds, negations=negations, solver=solver,
                         time_limit=time_limit, class_weight=class_weight,
                         random_state=random_state, screening=screening, kinds=kinds)

    def _learn(self, learner: BooleanRuleClassifier, A: np.ndarray, y01: np.ndarray,
               d: np.ndarray, target: str) -> None:
        if int(self.max_rules) < 1:
            raise ParameterError("max_rules must be at least 1.")
        active = np.ones(len(y01), dtype=bool)
        clauses: list[Rule] = []
        self.fits_ = []
        status, gaps = [], []
        while len(clauses) < int(self.max_rules) and y01[active].any():
            if len(np.unique(y01[active])) < 2:
                # only positives remain: the empty clause (always true) covers them
                clause_w = np.zeros(A.shape[1], dtype=bool)
                rule = Rule((), "and", target, self.classes_[1])
            else:
                learner._fit_matrix(A[active], y01[active], d[active], target)
                rule, clause_w = learner.rule_, learner.w_
                status.append(learner.lp_status_)
                gaps.append(learner.mip_gap_)
            self.fits_.append({"rows_left": int(active.sum()), "conditions": len(rule),
                               "objective": getattr(learner, "objective_", np.nan)})
            fired = A[:, clause_w].all(axis=1) if clause_w.any() else np.ones(len(y01), bool)
            if not len(rule) and clauses:
                break  # an empty clause after the first adds nothing a user would want
            newly = fired & active
            if not newly.any():
                break  # the clause labels no remaining row 1 ("never"): nothing left to cover
            clauses.append(rule)
            if not len(rule):
                break
            active &= ~fired
        self.ruleset_ = RuleSet(tuple(clauses), None, target, self.classes_[1])
        self._summarise_fits(status, gaps)


class BoostedRuleClassifier(_RuleSetClassifier):
    """Boosted AND-clauses: Algorithm 1 of the paper, exactly.

    Round t solves the weighted LP (eq. 11) with weights ``d_t`` (``d_1 = 1/m``), then
    ``s_TP, s_FP`` = weight of rows the clause fires on with y = 1 / y = 0 and
    ``s_T, s_F`` = weight of y = 1 / y = 0.  If ``(√s_TP − √s_FP)² > (√s_T − √s_F)²`` the round
    votes ``C_t = ½ ln((s_TP + ε)/(s_FP + ε))`` where the clause fires, else it is the constant
    ``C_t = ½ ln((s_T + ε)/(s_F + ε))``.  Then ``d_{t+1,i} = d_{t,i} / exp((2y_i − 1) ŷ_t(x_i))``,
    renormalised.  Predict 1 iff ``Σ_t ŷ_t(x) > 0``.

    Parameters
    ----------
    n_rounds : int, default=5
        T, the number of rounds.
    epsilon : float, optional
        ε of the vote weights; default ``1 / (2m)`` (Cohen & Singer's choice).
    lam, ...
        As for :class:`~rulecore.bcs.BooleanRuleClassifier`.  With ``d`` summing to 1 the
        paper's λ = 1000 is the matching scale.

    Attributes
    ----------
    ruleset_ : RuleSet
        Weighted clauses (a constant round is a clause without conditions).
    weights_history_ : ndarray of shape (n_rounds + 1, n_samples)
        ``d_t`` for every round (the last row is after the final update).
    rounds_ : list of dict
        Per round: s_TP, s_FP, s_T, s_F, C_t, whether it was a constant round.
    """

    def __init__(self, n_rounds: int = 5, epsilon: float | None = None, lam: float = 1000.0,
                 n_thresholds: int = 10, thresholds: str = "quantile", negations: bool = True,
                 solver: str = "mip", time_limit: float = 30.0, class_weight: Any = None,
                 random_state: int | None = None, screening: str = "none",
                 kinds: dict | None = None) -> None:
        self.n_rounds = n_rounds
        self.epsilon = epsilon
        super().__init__(lam=lam, rule_type="and", n_thresholds=n_thresholds,
                         thresholds=thresholds, negations=negations, solver=solver,
                         time_limit=time_limit, class_weight=class_weight,
                         random_state=random_state, screening=screening, kinds=kinds)

    def _learn(self, learner: BooleanRuleClassifier, A: np.ndarray, y01: np.ndarray,
               d0: np.ndarray, target: str) -> None:
        T = int(self.n_rounds)
        if T < 1:
            raise ParameterError("n_rounds must be at least 1.")
        m = len(y01)
        eps = 1.0 / (2 * m) if self.epsilon is None else float(self.epsilon)
        d = d0 / d0.sum()  # d_1 = 1/m for unit sample weights
        history = [d.copy()]
        clauses, votes, self.rounds_ = [], [], []
        status, gaps = [], []
        sign = 2 * y01 - 1
        for _ in range(T):
            learner._fit_matrix(A, y01, d, target)
            status.append(learner.lp_status_)
            gaps.append(learner.mip_gap_)
            w = learner.w_
            fired = A[:, w].all(axis=1) if w.any() else np.ones(m, dtype=bool)
            s_tp, s_fp = d[fired & (y01 == 1)].sum(), d[fired & (y01 == 0)].sum()
            s_t, s_f = d[y01 == 1].sum(), d[y01 == 0].sum()
            if (np.sqrt(s_tp) - np.sqrt(s_fp)) ** 2 > (np.sqrt(s_t) - np.sqrt(s_f)) ** 2:
                c = 0.5 * np.log((s_tp + eps) / (s_fp + eps))
                rule, h = learner.rule_, c * fired
                constant = False
            else:
                c = 0.5 * np.log((s_t + eps) / (s_f + eps))
                rule, h = Rule((), "and", target, self.classes_[1]), np.full(m, c)
                constant = True
            self.rounds_.append({"s_TP": s_tp, "s_FP": s_fp, "s_T": s_t, "s_F": s_f, "C": c,
                                 "constant": constant, "conditions": len(rule)})
            clauses.append(rule)
            votes.append(float(c))
            d = d / np.exp(sign * h)
            d = d / d.sum()
            history.append(d.copy())
        self.weights_history_ = np.asarray(history)
        self.ruleset_ = RuleSet(tuple(clauses), tuple(votes), target, self.classes_[1])
        self._summarise_fits(status, gaps)


RULE_MODELS = {"single rule": BooleanRuleClassifier, "set covering": SetCoveringRuleClassifier,
               "boosting": BoostedRuleClassifier}

#: What ``class_weight="auto"`` (the app's and the command line's default) means per model,
#: measured on rare positives (bench/results/rare_positives.md, docs/data.md): √ ratio keeps
#: single rules and set covering firing without losing the planted rules of noisy samples;
#: boosting needs balanced weights, because its constant rounds win whenever the two classes
#: start with unequal total weight (never-firing fits: 55 of 155 with √ ratio, 0 balanced).
AUTO_CLASS_WEIGHT = {"single rule": "sqrt", "set covering": "sqrt", "boosting": "balanced"}


def resolve_class_weight(class_weight: Any, model: str = "single rule") -> Any:
    """``"auto"`` as the class weight ``model`` uses (:data:`AUTO_CLASS_WEIGHT`); ``"none"``
    as None; anything else unchanged."""
    if class_weight == "auto":
        return AUTO_CLASS_WEIGHT.get(model, "sqrt")
    return None if class_weight == "none" else class_weight


def make_rule_model(model: str, *, lam: float, rule_type: str = "and", n_rounds: int = 5,
                    max_rules: int = 5, **params: Any) -> BooleanRuleClassifier:
    """The estimator the Rule page (and the command line) means by a model name.

    ``model`` is ``"single rule"``, ``"set covering"`` or ``"boosting"``; ``params`` are the
    shared settings (thresholds, solver, time limit, screening, class weight, kinds).  A
    class weight ``"auto"`` becomes the model's own default (:data:`AUTO_CLASS_WEIGHT`).
    """
    if "class_weight" in params:
        params["class_weight"] = resolve_class_weight(params["class_weight"], model)
    if model == "single rule":
        return BooleanRuleClassifier(lam=lam, rule_type=rule_type, **params)
    if model == "set covering":
        return SetCoveringRuleClassifier(max_rules=max_rules, lam=lam, **params)
    if model == "boosting":
        return BoostedRuleClassifier(n_rounds=n_rounds, lam=lam, **params)
    raise ParameterError(f"Unknown rule model {model!r}; choose from {', '.join(RULE_MODELS)}.")
