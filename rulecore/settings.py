"""One vocabulary for rule models: names, option values and defaults, defined once.

The estimators, the app's pages, the command line and the sweeps all read their option values
and defaults from here, so "single rule" means the same model with the same λ everywhere.
:class:`RuleSettings` is the one settings object: the page state, the command-line flags and a
sweep's fixed settings all become one, and :meth:`RuleSettings.estimator` makes the estimator
they describe.

Defaults (also stated in the README):

=================  ============  ==========================================================
setting            default       why
=================  ============  ==========================================================
model              single rule   one AND-rule, the checklist a person reads
lam (λ)            1             errors and conditions weigh alike (boosting: 1000, because
                                 its row weights sum to 1; ``docs/rulesets.md``); the rule
                                 set: "auto" (inner cross-validation); the single rule
                                 with "auto" is tuned for held-out error: rule type auto,
                                 error exact, no class weight (:data:`TUNED_SINGLE_RULE`)
rule_type          and           the checklist (single rule with lam="auto": auto)
n_thresholds       10            quantile thresholds per numeric column (``docs/terms.md``)
auto_thresholds    True          the rule set on more than two classes: the inner
                                 cross-validation chooses 10, 20 or 40 thresholds
                                 (``bench/results/rulesets_vs_anchors.md``)
multiclass         one-vs-rest   ... and its rule list is one DNF per class by precision;
                                 "sequential" (class by class) is shorter, "auto" lets
                                 the cross-validation choose
                                 (``bench/results/ruleset_variants.md``)
solver             mip           the exact 0/1 optimum, certified by HiGHS
error              hamming       the BCS paper's count (a positive once per failed
                                 condition), solved and certified; "exact" counts each
                                 wrong row once (``bench/results/single_rule_error.md``;
                                 the single rule's default with lam="auto")
screening          enhanced      certified: never changes the optimum (``docs/screening.md``)
time_limit         30 s          per HiGHS run; a stopped run reports its gap
class_weight       auto          √ class ratio (single rule, set covering), balanced
                                 (boosting): ``bench/results/rare_positives.md``; none
                                 (rule set, single rule with lam="auto": they pick the
                                 class they describe)
=================  ============  ==========================================================
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import numpy as np

from rulecore.encode import check_seconds, memory_budget
from rulecore.exceptions import ParameterError

#: Model names as people read them (the app, the reports) → the command line's spelling.
MODELS: dict[str, str] = {"single rule": "single", "rule set": "rule-set",
                          "set covering": "set-covering", "boosting": "boosting"}
RULE_TYPES = ("and", "or")
#: What the single rule accepts: a type, or "auto" (the one with the lower inner-CV error).
RULE_TYPE_CHOICES = RULE_TYPES + ("auto",)
SOLVERS = ("mip", "lp", "lp-randomized")
#: How a wrong row is counted: the BCS paper's Hamming surrogate or the exact 0/1 error.
ERRORS = ("hamming", "exact")
SCREENING = ("none", "basic", "enhanced")
#: How the rule set builds its rule list over more than two classes
#: (``RuleSetClassifier(multiclass=)``; "auto": its inner cross-validation chooses).
MULTICLASS = ("one-vs-rest", "sequential")
MULTICLASS_CHOICES = MULTICLASS + ("auto",)
THRESHOLDS = ("quantile", "all")
CLASS_WEIGHTS = ("auto", "sqrt", "balanced", "none")

DEFAULT_LAM = 1.0
#: Boosting's row weights sum to 1 (Algorithm 1 of the BCS paper), so its λ lives on a scale
#: n times larger than the other models'; 1000 is the paper's value.
DEFAULT_BOOSTING_LAM = 1000.0
DEFAULT_SCREENING = "enhanced"
DEFAULT_TIME_LIMIT = 30.0
DEFAULT_N_THRESHOLDS = 10
#: The most quantile thresholds per numeric column the Rule page's slider offers (and the
#: most the rare-class advice asks for: rulecore.report.assess).
MAX_N_THRESHOLDS = 100
#: Quantile thresholds per numeric column among which ``RuleSetClassifier(n_thresholds=
#: "auto")`` lets the inner cross-validation choose, with more than two classes
#: (``docs/rulesets.md``, "Several classes"): one-vs-rest clauses for a class holding a K-th
#: of the rows see only about a K-th of the quantile cuts inside its range.  Two classes keep
#: :data:`DEFAULT_N_THRESHOLDS`: on the 8 binary sets of ``bench/rulesets_vs_anchors.py``, 20
#: thresholds gave no gain (mean error 0.201 against 0.199) for twice the time.
THRESHOLD_GRID = (10, 20, 40)

#: What class_weight="auto" means per model.  Measured on 31 rare-positive problems
#: (``bench/rare_positives.py``): unweighted single rules never fired on 23 of them; "sqrt"
#: (a minority row weighs √(n_majority / n_minority)) keeps single rules and set covering
#: firing without losing the planted rules of noisy samples; boosting needs "balanced" to
#: start with equal total weight (never-firing fits: 55 of 155 with √ ratio, 0 balanced).
#: The rule set (``RuleSetClassifier``) chooses λ and the class its clauses describe by
#: cross-validated error, so it counts every row once: describing the rare class or the
#: common one is its own choice.
AUTO_CLASS_WEIGHT: dict[str, Any] = {"single rule": "sqrt", "set covering": "sqrt",
                                     "boosting": "balanced", "rule set": None}


#: Rows the inner cross-validation of ``lam="auto"`` uses at most: a stratified random sample
#: on larger tables (``RuleSetClassifier(cv_max_rows=)``; the single rule, set covering and
#: boosting take this).  On a million rows the rule set's inner fits alone took over nine
#: minutes (``bench/results/scale.md``); the final fit uses every row.
INNER_CV_MAX_ROWS = 50_000

#: The λ grid of ``lam="auto"``, as the share κ of the training weight one condition is
#: worth: λ = 1 / (κ Σ_i d_i), so a condition must remove κ of the (weighted) rows' errors to
#: pay for itself, whatever the table's size (``docs/rulesets.md``).
KAPPAS = (0.02, 0.01, 0.005, 0.0025)
#: With a rare class the grid goes on down, halving κ (at most this many more values), until
#: a clause of three conditions pays for itself by fixing a quarter of that class's weight:
#: cost 1 + 3 against λ W_min / 4, so κ ≤ W_min / (16 W).  At κ = 0.0025 such a clause must
#: fix 1 % of the whole table's weight, more than a class of 0.6 % of the rows has: the rule
#: set on a cleanly planted fraud rule was empty at every λ (a newcomer's review).
RARE_HALVINGS = 4


def lam_grid(total_weight: float, kappas: tuple[float, ...] = KAPPAS,
             smallest_class: float | None = None) -> np.ndarray:
    """λ for each κ, increasing (fewest conditions first).

    Parameters
    ----------
    total_weight : float
        W, the training rows' total weight.
    kappas : tuple of float
        The grid's shares κ (:data:`KAPPAS`).
    smallest_class : float, optional
        W_min, the smaller class's weight (the smallest, with several classes): when a
        clause of three conditions at the smallest κ must fix more than a quarter of it, the
        grid goes on down (:data:`RARE_HALVINGS`).
    """
    ks = sorted(kappas, reverse=True)
    if smallest_class is not None and total_weight > 0:
        enough = float(smallest_class) / (16.0 * float(total_weight))
        while ks[-1] > enough and len(ks) < len(kappas) + RARE_HALVINGS:
            ks.append(ks[-1] / 2)
    return np.array([1.0 / (k * total_weight) for k in ks])


def model_name(model: str) -> str:
    """The readable name of a model given either spelling (``"set-covering"`` or
    ``"set covering"``)."""
    if model in MODELS:
        return model
    for name, slug in MODELS.items():
        if model == slug:
            return name
    raise ParameterError(f"Unknown rule model {model!r}; choose from {', '.join(MODELS)}.")


def default_lam(model: str) -> float | str:
    """λ a model starts from when none is given (:data:`DEFAULT_LAM`, boosting's scale; the
    rule set chooses its own: ``"auto"``)."""
    name = model_name(model)
    if name == "rule set":
        return "auto"
    return DEFAULT_BOOSTING_LAM if name == "boosting" else DEFAULT_LAM


#: The single rule with ``lam="auto"`` is tuned for held-out error, as the rule set is: unless
#: given, it counts each wrong row once (``error="exact"``), chooses the class it describes
#: (``rule_type="auto"``) and weighs every row alike.  On the 8 binary sets of
#: ``bench/rulesets_vs_anchors.py`` that is mean error 0.211 against 0.262 for the fixed-λ
#: defaults (AND, Hamming count, √ ratio) with λ chosen alike
#: (``bench/results/single_rule_error.md``).  A fixed λ keeps those defaults: the checklist
#: of the paper, certified, and still firing on a rare class (``rare_positives.md``).
TUNED_SINGLE_RULE: dict[str, Any] = {"rule_type": "auto", "error": "exact", "class_weight": None}
FIXED_SINGLE_RULE: dict[str, Any] = {"rule_type": "and", "error": "hamming",
                                     "class_weight": AUTO_CLASS_WEIGHT["single rule"]}


def single_rule_defaults(lam: Any) -> dict[str, Any]:
    """What the single rule's ``rule_type``, ``error`` and ``class_weight="auto"`` stand for
    when not given: :data:`TUNED_SINGLE_RULE` with ``lam="auto"``, else
    :data:`FIXED_SINGLE_RULE`."""
    tuned = isinstance(lam, str) and lam == "auto"
    return dict(TUNED_SINGLE_RULE if tuned else FIXED_SINGLE_RULE)


def per_row_blockers(require: Any, solver: str,
                     shape: tuple[int, int] | None = None) -> list[str]:
    """What keeps the exact per-row count from running, for the estimator's default and the
    Rule page alike: the options it cannot take (``"require"``, ``"solver"``: it is solved by
    beam search and the MIP, which cannot enforce a required column; ``docs/clause.md``) and,
    given the term matrix's ``shape`` (rows, terms), ``"memory"`` when the beam's bool and
    float32 copies of the rows (:func:`per_row_bytes`) exceed the memory budget."""
    too_large = shape is not None and per_row_bytes(*shape) > memory_budget()
    return [name for name, on in (("require", bool(require)), ("solver", solver != "mip"),
                                  ("memory", too_large)) if on]


def per_row_bytes(n_rows: int, n_terms: int) -> int:
    """Bytes the exact per-row count's beam search holds for ``n_rows`` × ``n_terms``: one
    bool and one float32 copy of the rows (``rulecore.rules.solvers.solve_clause_exact``)."""
    return int(float(n_rows) * float(n_terms) * 5)


def resolve_class_weight(class_weight: Any, model: str = "single rule", lam: Any = None) -> Any:
    """``"auto"`` as the class weight ``model`` uses (:data:`AUTO_CLASS_WEIGHT`; the single
    rule with ``lam="auto"``: none, :func:`single_rule_defaults`); ``"none"`` as None; anything
    else unchanged."""
    if isinstance(class_weight, str) and class_weight == "auto":
        if model_name(model) == "single rule":
            return single_rule_defaults(lam)["class_weight"]
        return AUTO_CLASS_WEIGHT.get(model_name(model), "sqrt")
    if isinstance(class_weight, str) and class_weight == "none":
        return None
    return class_weight


def _one_of(name: str, value: Any, allowed: tuple) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ParameterError(f"{name} must be one of {', '.join(allowed)}, not {value!r}.")


def check_lam(lam: Any, *, auto: bool = False) -> None:
    """The one test of a λ: a positive finite number (not a bool), or with ``auto`` the word
    ``'auto'``; raises :class:`~rulecore.exceptions.ParameterError` saying what it got
    ("big" ended in numpy's "could not convert string to float": a notebook review)."""
    if auto and isinstance(lam, str) and lam == "auto":
        return
    try:  # an int past float's range reached numpy's own TypeError, and so did a Fraction
        value = float(lam) if isinstance(lam, (int, float, np.integer, np.floating)) else None
    except (OverflowError, TypeError, ValueError):
        value = None
    if isinstance(lam, bool) or value is None or not np.isfinite(value) or not value > 0:
        also = " or 'auto'" if auto else ""
        raise ParameterError(f"λ (lam) must be a positive number{also}, not {lam!r}.")


def check_clause_options(*, lam: Any, rule_type: str, solver: str, screening: str,
                         time_limit: Any, error: str = "hamming") -> None:
    """The one validation of a clause solve's options (:func:`rulecore.rules.learn_clause`);
    raises :class:`~rulecore.exceptions.ParameterError` with what to change."""
    _one_of("rule_type", rule_type, RULE_TYPES)
    _one_of("solver", solver, SOLVERS)
    _one_of("screening", screening, SCREENING)
    _one_of("error", error, ERRORS)
    check_lam(lam)
    check_seconds(time_limit)


@dataclass(frozen=True)
class RuleSettings:
    """Everything that defines one rule fit, with the defaults every entry point shares.

    Frozen and hashable (``kinds`` is a tuple of ``(column, kind)`` pairs), so it can key a
    cache.  ``lam=None`` means the model's default (:func:`default_lam`).
    """

    model: str = "single rule"
    lam: float | None = None
    rule_type: str | None = "and"
    n_thresholds: int = DEFAULT_N_THRESHOLDS
    # the rule set on a target with more than two classes: its inner CV chooses the count
    # among THRESHOLD_GRID instead of taking n_thresholds
    auto_thresholds: bool = True
    # ... and how its rule list is built (RuleSetClassifier(multiclass=))
    multiclass: str = "one-vs-rest"
    thresholds: str = "quantile"
    negations: bool = True
    solver: str = "mip"
    screening: str = DEFAULT_SCREENING
    time_limit: float = DEFAULT_TIME_LIMIT
    class_weight: Any = "auto"
    random_state: int | None = None
    max_rules: int = 5
    n_rounds: int = 5
    kinds: tuple = ()
    # the single rule's constraints and error costs (docs/clause.md, "Constraints")
    require: tuple = ()
    forbid: tuple = ()
    max_conditions: int | None = None
    fp_cost: float = 1.0
    fn_cost: float = 1.0
    # None: the single rule's default for its λ, decided by the estimator at fit time (the
    # exact count where it can run: BooleanRuleClassifier._error_for; its error_ says which)
    error: str | None = "hamming"

    def __post_init__(self) -> None:
        object.__setattr__(self, "model", model_name(self.model))
        # None (the command line when not given): what the single rule takes for this λ;
        # the error count stays None for the estimator to decide (it knows the table's size)
        if self.rule_type is None:
            object.__setattr__(self, "rule_type",
                               single_rule_defaults(self.lam_value)["rule_type"]
                               if self.model == "single rule" else "and")
        if self.error is None and self.model != "single rule":
            object.__setattr__(self, "error", "hamming")
        for name in ("require", "forbid"):
            value = getattr(self, name) or ()
            object.__setattr__(self, name, (value,) if isinstance(value, str) else
                               tuple(value))
        kinds = self.kinds or ()
        if isinstance(kinds, dict):
            kinds = tuple(sorted(kinds.items()))
        object.__setattr__(self, "kinds", tuple(tuple(pair) for pair in kinds))

    @property
    def lam_value(self) -> float | str:
        """λ, the model's default when none was set (``"auto"``: chosen by the fit)."""
        lam = default_lam(self.model) if self.lam is None else self.lam
        return lam if lam == "auto" else float(lam)

    def replace(self, **changes: Any) -> RuleSettings:
        """A copy with some settings changed."""
        return replace(self, **changes)

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> RuleSettings:
        """Settings from a dict that may hold other keys too (they are ignored)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def single_rule_options(self) -> list[str]:
        """The options set away from their defaults that only the single rule takes (its
        constraints, error costs and count of errors)."""
        return [name for name, on in (
            ("require", bool(self.require)), ("forbid", bool(self.forbid)),
            ("max_conditions", self.max_conditions is not None),
            ("fp_cost", float(self.fp_cost) != 1.0), ("fn_cost", float(self.fn_cost) != 1.0),
            ("error", self.error not in (None, "hamming"))) if on]

    def estimator(self, n_classes: int = 2):
        """The unfitted estimator these settings describe, for a target of ``n_classes``
        classes learned together (more than two: the rule set's rule list)."""
        from rulecore.rules.estimators import (
            BooleanRuleClassifier,
            BoostedRuleClassifier,
            SetCoveringRuleClassifier,
        )
        from rulecore.rules.ruleset import RuleSetClassifier

        single_only = self.single_rule_options()
        if single_only and self.model != "single rule":
            raise ParameterError(f"These options apply to the single rule only, not to "
                                 f"{self.model}: {', '.join(single_only)}.")
        if self.model == "rule set":
            auto = self.auto_thresholds and n_classes > 2 and self.thresholds == "quantile"
            return RuleSetClassifier(
                lam=self.lam_value, n_thresholds="auto" if auto else int(self.n_thresholds),
                multiclass=self.multiclass,
                thresholds=self.thresholds, negations=bool(self.negations),
                class_weight=resolve_class_weight(self.class_weight, self.model),
                time_limit=float(self.time_limit), random_state=self.random_state or 0,
                kinds=dict(self.kinds) or None)

        common = dict(lam=self.lam_value, n_thresholds=int(self.n_thresholds),
                      thresholds=self.thresholds, negations=bool(self.negations),
                      solver=self.solver, time_limit=float(self.time_limit),
                      class_weight=resolve_class_weight(self.class_weight, self.model,
                                                        self.lam_value),
                      random_state=self.random_state, screening=self.screening,
                      kinds=dict(self.kinds) or None)
        if self.model == "single rule":
            return BooleanRuleClassifier(
                rule_type=self.rule_type, require=list(self.require) or None,
                forbid=list(self.forbid) or None, max_conditions=self.max_conditions,
                fp_cost=float(self.fp_cost), fn_cost=float(self.fn_cost), error=self.error,
                **common)
        if self.model == "set covering":
            return SetCoveringRuleClassifier(max_rules=int(self.max_rules), **common)
        return BoostedRuleClassifier(n_rounds=int(self.n_rounds), **common)
