"""What a fitted rule means, in words: what was optimised, what is certified, what to fix.

The app and the command line say the same things through these functions:

- :func:`fit_status` states the solver's claim.  "Optimal" appears only for a certified
  optimum, and always with the objective it is optimal for; a heuristic or time-limited
  result states how far from the optimum it may be, in words.
- :func:`assess` lists what a user must know before trusting a rule: it never fires (or
  always does), it does no better than the majority class on held-out rows, it leans on a
  possible leak.  Each finding says what to change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from rulecore.exceptions import RulecoreError
from rulecore.roles import BalancedAccuracy, accuracy_words
from rulecore.rules.branch_and_bound import MAX_LEVELS
from rulecore.rules.colgen import (
    REPEATABLE_PRICING_PAIRS,
    REPEATABLE_PRICING_SECONDS,
    SEARCH_SHARE,
)
from rulecore.settings import MAX_N_THRESHOLDS

Level = Literal["success", "info", "warning"]


@dataclass(frozen=True)
class Finding:
    """One statement for the user: ``level`` (success, info, warning), the ``text``, and a
    few words for a table cell (``short``)."""

    level: Level
    text: str
    short: str = ""


def _pct(v: float) -> str:
    return "n/a" if v is None or not np.isfinite(v) else f"{100 * v:.1f}%"


def _num(v: float) -> str:
    """An objective for a sentence: ``12,350`` or ``89.78``, never ``1.235e+04``."""
    if not np.isfinite(v):
        return "unknown"
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}"


def weighting_words(class_weight: Any) -> str:
    """How errors are counted, in words."""
    if class_weight is None:
        return "every row weighing the same"
    if class_weight == "balanced":
        return "errors weighted so that both classes count equally"
    if class_weight == "sqrt":
        return ("errors of the rarer class weighted by √(majority rows / minority rows), "
                "halfway between counting rows and counting classes equally")
    return f"errors weighted by class ({class_weight})"


def objective_words(rule_type: str = "and", fp_cost: float = 1.0, fn_cost: float = 1.0,
                    error: str = "hamming") -> str:
    """The objective the clause solver minimises (docs/clause.md), in the rule's own view,
    with the error costs when they are not both 1."""
    fp = "" if fp_cost == fn_cost == 1.0 else f"{fp_cost:g} × "
    fn = "" if fp_cost == fn_cost == 1.0 else f"{fn_cost:g} × "
    if error == "exact":
        return f"conditions + λ × ({fp}false positives + {fn}false negatives), each wrong " \
               "row counted once however many conditions it fails"
    if rule_type == "and":
        return (f"conditions + λ × ({fp}false positives + {fn}the conditions each positive "
                "row fails)")
    return f"conditions + λ × ({fn}positive rows no condition covers + {fp}the conditions " \
           "each negative row meets)"


def _gap_words(gap: float) -> str:
    """How far the incumbent may be above the optimum, from the relative gap
    g = (objective − bound) / objective: objective − optimum ≤ g × objective, so the
    objective is at most g / (1 − g) above the optimum, and unbounded at g = 1 (a lower
    bound of 0 says nothing; a review read "at most 100.0% above" there)."""
    if not np.isfinite(gap):
        return "how far it is from the optimum is unknown (no lower bound yet)"
    if gap >= 1.0 - 1e-9:
        return ("how far it is from the optimum is unknown (the lower bound proved so far "
                "is 0 or below)")
    return f"its objective is at most {gap / (1.0 - gap):.1%} above the optimum's"


def constraint_words(model: Any) -> str:
    """The user's constraints on a fitted single rule in a phrase (``""`` without any)."""
    constraints = getattr(model, "constraints_", None)
    return constraints.words() if constraints else ""


def _lam_tie_words(model: Any) -> str:
    """What to add after "λ chosen by cross-validation" when every λ of the grid tied (the
    choice then says little about λ: ties go to fewer conditions, then the smaller λ)."""
    words = ""
    cvr = getattr(model, "cv_results_", None) if getattr(model, "lam", None) == "auto" \
        else None
    if cvr is not None and "chosen" in cvr and cvr["lam"].nunique() > 1:
        best = cvr[cvr["chosen"]].iloc[0]
        same = cvr
        for col in ("rule_type", "n_thresholds", "describe", "multiclass"):
            if col in cvr:  # the λ grid of the chosen type, thresholds, class (a rule list
                # describes every class: None, which == never matches)
                same = same[same[col].isna() if pd.isna(best[col]) else same[col] == best[col]]
        if same["lam"].nunique() > 1 and np.allclose(same["error"], best["error"]):
            words = (" (every λ of the grid gave the same error; ties go to fewer conditions, "
                     "then the smaller λ)")
        elif same["lam"].nunique() > 2:
            # at an end of the grid with the error still falling towards it, the best λ may
            # lie beyond: wine, vehicle and segment chose the largest λ so, unsaid (a review)
            curve = same.groupby("lam")["error"].min().sort_index()
            lam = float(best["lam"])
            for end, nxt, word in ((curve.index[-1], curve.iloc[-2], "largest"),
                                   (curve.index[0], curve.iloc[1], "smallest")):
                if np.isclose(lam, end) and curve.loc[end] < nxt - 1e-12:
                    words = (f" (the grid's {word} λ, with the error still falling there: a λ "
                             "beyond the grid may fit better; give λ by hand to try one)")
    return words


#: A class below this share of the training rows is "few rows" in :func:`unpredicted_classes`.
RARE_CLASS_SHARE = 0.05


def cv_timing_words(model: Any, remedy: str = "A longer time limit") -> str:
    """A warning when inner cross-validation fits stopped at their time limit (``""``
    otherwise): those points of ``cv_results_`` depend on the machine's speed, so the same
    settings can give another choice on a rerun (``RuleSetClassifier``'s ``timed_out``)."""
    cvr = getattr(model, "cv_results_", None)
    if cvr is None or "timed_out" not in cvr or not cvr["timed_out"].any():
        return ""
    n = int((cvr["timed_out"] > 0).sum())
    # the rule set's fits along λ start from the last one's clauses; the other models' inner
    # fits each start afresh
    carried = " (or started from one that did)" if hasattr(model, "rules_") else ""
    return (f"At {n} of the {len(cvr)} points of the cross-validation an inner fit stopped at "
            f"its time limit{carried}, so those errors depend on this machine's speed and a "
            f"rerun may differ there. {remedy} avoids it.")


def most_frequent_class(y_train: np.ndarray, y_test: np.ndarray) -> tuple[Any, float, float]:
    """The baseline of a model over several classes: always predicting the most frequent
    class of the training rows.  Returns that class, its share of the training rows and its
    share of the held-out rows (nan without any): the latter is the baseline's held-out
    accuracy, which a rule list must beat (it was compared with the training share, and a
    list that always said one class read 61.5 % against "43.6 % (train)" unwarned: a
    review)."""
    counts = pd.Series(np.asarray(y_train)).value_counts()
    label = counts.index[0]
    test = np.asarray(y_test)
    return (label, float(counts.iloc[0] / counts.sum()),
            float(np.mean(test == label)) if len(test) else float("nan"))


def unpredicted_classes(rules: Any, y_train: np.ndarray) -> Finding | None:
    """What a rule list never predicts: the classes with no rule of their own that are not its
    default, with their training rows (a class of 2 rows among 300 was left out silently; a
    newcomer's review).  None when every class is predicted."""
    counts = pd.Series(np.asarray(y_train)).value_counts()
    said = {str(v) for v in list(rules.labels) + [rules.default]}
    missing = [(c, int(n)) for c, n in counts.items() if str(c) not in said]
    if not missing:
        return None
    names = ", ".join(f"{c} ({n:,} training row{'s' if n != 1 else ''})"
                      for c, n in missing)
    # "so few rows" only of a small class: of a fifth of the rows it read as nonsense (a
    # newcomer's review); there the rules found no clause that pays for its conditions
    small = max(n for _, n in missing) <= RARE_CLASS_SHARE * counts.sum()
    why = ("a rule for so few rows does not pay for its conditions" if small else
           "no clause for it paid for its conditions against the other classes' rules")
    return Finding("warning" if not small else "info",
                   f"No rule predicts {names}: {why}, so these rows are given another class. "
                   "To learn a rule for one of them, choose the single rule with it as the "
                   "positive class (class weights: balanced).", "a class no rule predicts")


def _says_one_class(model: Any) -> bool:
    """Whether a fitted rule model gives every row the same class: a rule without a
    condition, a rule set or list without a clause."""
    from rulecore.rules.rule import RuleSet

    rule = getattr(model, "rule_", None)
    if isinstance(rule, RuleSet) and not rule.weighted:  # a DNF with TRUE among its clauses
        return not rule.clauses or any(not len(c) for c in rule.clauses)
    clauses = getattr(rule, "clauses", None)
    if clauses is not None:
        return not len(clauses)
    return rule is not None and not len(rule)


def fit_status(model: Any) -> Finding:
    """The solver's claim about a fitted rule model, in one paragraph.

    Works for :class:`~rulecore.rules.estimators.BooleanRuleClassifier` and the rule-set
    estimators.  A model that gives every row one class (no condition, no clause) is never
    a "success", however certified: as :func:`shown_claim` does with held-out rows, its
    level is "info" (a rule set that never fires read as good news to a direct caller).
    """
    claim = _fit_status(model)
    rule = getattr(model, "rule_", None)
    fired = getattr(model, "train_fired_", None)
    k = len(getattr(rule, "conditions", ())) if rule is not None else 0
    if fired in (0.0, 1.0) and k and not hasattr(model, "ruleset_"):
        # the optimum where predicting one class is best: an AND of conditions on two
        # columns that never hold together (a code and its description, a flag and its
        # complement), or an OR of conditions that together hold everywhere. It was
        # "Certified optimal: no AND-rule without contradictory ... conditions", in green,
        # of a rule that contradicts itself in the data (a stranger's NHS extract)
        proved = claim.level == "success"
        if fired == 0.0:
            how = ("fires on no training row: " + (
                "its condition holds on none of these rows" if k == 1 else
                f"its {k} conditions are never true together on these rows")
                + ", so it predicts the other class for every row")
        else:
            how = ("fires on every training row: " + (
                "its condition holds on all of these rows" if k == 1 else
                f"one of its {k} conditions holds on each of these rows")
                + ", so it predicts the positive class for every row")
        # (said first: after "Certified optimal: ..." it read as a footnote to a success, a
        # stranger's Mailchimp export)
        claim = replace(claim, level="info" if proved else claim.level, text=(
            f"The rule found {how}, as no rule would. " + claim.text
            + (" Under this objective no rule that separates the rows does better."
               if proved else "")))
    if claim.level == "success" and _says_one_class(model):
        return replace(claim, level="info")
    return claim


def _fit_status(model: Any) -> Finding:
    """:func:`fit_status` before the level is checked against what the model predicts."""
    lam = float(getattr(model, "lam_", getattr(model, "lam", float("nan"))))
    chosen = " chosen by cross-validation" if getattr(model, "lam", None) == "auto" else ""
    # the words on λ's grid next to λ: after the thresholds they read as about them (a
    # stranger's review: "with 40 thresholds per numeric column (the grid's largest λ ...)")
    chosen += _lam_tie_words(model)
    if getattr(model, "n_thresholds", None) == "auto" and getattr(model, "cv_results_", None) \
            is not None and "n_thresholds" in model.cv_results_:
        chosen += f", with {model.n_thresholds_} thresholds per numeric column"
    given = model._rule_type_given() if hasattr(model, "_rule_type_given") else \
        getattr(model, "rule_type", None)  # None: the default for this λ
    typed = (f" The {model.rule_type_.upper()}-rule type was chosen by the same "
             "cross-validation, over AND and OR." if given == "auto" and
             hasattr(model, "rule_type_") else "")
    weights = weighting_words(getattr(model, "class_weight_used_", None))
    n_terms = getattr(model, "n_terms_", None)
    over = f" over these {n_terms:,} terms" if n_terms else ""
    if hasattr(model, "rules_"):  # RuleSetClassifier: column generation (docs/rulesets.md)
        exact = getattr(model, "error", "hamming") == "exact"
        counted = ("once however many clauses fire on it" if exact else
                   "once per clause that fires")
        what = (f"clauses + conditions + λ × errors, a false positive counted {counted}; "
                f"λ = {lam:.3g}{chosen}, {weights}")
        head = f"Rule set by column generation ({what}): objective {_num(model.objective_)}."
        if model.described_class_ is None:
            how = (" Rules learned class by class from the rarest, each on the rows the "
                   "earlier ones leave, the most frequent class the default"
                   if getattr(model, "multiclass_", None) == "sequential" else
                   " One rule set per class, read as an ordered list by precision on the training "
                   "rows, smoothed as (right + 1) / (fired + 2) so that a rule firing on few "
                   "rows does not lead on luck")
            picked = (" (this construction chosen by the same cross-validation)"
                      if getattr(model, "multiclass", None) == "auto" else "")
            return Finding("info", head + how + picked + "; no optimality is claimed for "
                           "the list.")
        fit = model.fits_[next(iter(model.fits_))]
        n_pool = f"{len(fit.pool):,} clause{'s' if len(fit.pool) != 1 else ''} generated"
        if fit.status not in ("optimal", "rounded", "support"):
            choice = (f" The choice among the {n_pool} stopped at its time limit "
                      f"({fit.status}) with the best set found.")
        elif not fit.clauses:
            # "the best choice among the 85 clauses" read as if one had been chosen (a
            # review of a fraud table, where none was)
            choice = (f" None of the {n_pool} is chosen: under this objective no clause "
                      "fixes more errors than its conditions cost, so every row gets the "
                      "other class.")
        elif fit.status in ("rounded", "support"):
            # without a proved bound no MIP over every clause: one cut by its time limit
            # gave another set on a loaded machine (docs/rulesets.md, "Repeatability")
            how = ("the best choice among the clauses that the LP over them uses (a MIP "
                   "solved to the end)" if fit.status == "support" else
                   "the LP's best rounding, improved by swapping clauses in and out")
            choice = (f" Of the {n_pool}, it takes {how}: the same set on a busy machine as "
                      "on an idle one, not proved the best choice among them all.")
        else:
            choice = f" It is the best choice among the {n_pool}."
        if exact:
            # the LP bounds the Hamming count, not this one: a review saw objective 13
            # below a "certified bound" of 13.5, and "Certified optimal" at 217.25 where the
            # exact optimum was 215.25
            return Finding("info", head + " No certificate and no bound: with a false "
                           "positive counted once per row, the LP that column generation "
                           "solves (which counts it once per clause that fires) is no lower "
                           "bound on this objective, so how far this is from the best rule "
                           "set is not known." + choice + " Errors counted per clause that "
                           "fires (error='hamming') can be given a certified bound.")
        if model.certified_:
            gap = model.mip_gap_
            if gap <= 1e-6:
                return Finding("success", head + " Certified optimal: the LP over every "
                               f"possible clause{over} ({_priced_words(fit)}) is reached by "
                               "this rule set.")
            return Finding("info", head + f" Certified bound: no rule set{over} has an "
                           f"objective below {_num(model.lp_bound_)} (the LP over every "
                           f"clause, {_priced_words(fit)}), so {_gap_words(gap)}.")
        return Finding("info", head + " Not certified: the exact pricing, which would "
                       f"prove that no other clause improves the set, {_pricing_words(fit)}, "
                       "so how far this is from the best rule set is not proved." + choice)
    if hasattr(model, "ruleset_"):
        return _clause_by_clause_status(model, lam, chosen, weights)
    objective, bound, gap = model.objective_, model.lower_bound_, model.mip_gap_
    costs = (getattr(model, "fp_cost", 1.0), getattr(model, "fn_cost", 1.0))
    error = getattr(model, "error_", None) or getattr(model, "error", None) or "hamming"
    what = f"{objective_words(model.rule_type_, *costs, error)} = {_num(objective)}, with " \
           f"λ = {lam:.3g}{chosen} and {weights}"
    constraints = getattr(model, "constraints_", None)
    under = f" under your constraints ({constraints.words()})" if constraints else ""
    that = " that meets them" if constraints else ""
    method = getattr(model, "solve_method_", model.solver)
    if method in ("beam", "beam+mip") and not (model.lp_status_ == "optimal" and gap <= 1e-6):
        status = str(model.lp_status_).replace("_", " ")
        why = ("its proof was not attempted (the MIP would not fit in memory)"
               if method != "beam+mip"
               else "the MIP that would prove it stopped at its time limit"
               if status == "time limit"
               else f"the MIP that would prove it ended without a proof ({status})")
        return Finding("warning", f"Not proven optimal{under}: with errors counted once per "
                       f"row the rule is found by beam search, and {why}. Best rule found, "
                       f"objective {what}; lower bound {_num(bound)}, so {_gap_words(gap)}. "
                       "Errors counted per failed condition give a rule the solver proves."
                       + _USABLE + typed)
    if method in ("mip", "enumeration", "beam+mip") and model.lp_status_ == "optimal" and \
            gap <= 1e-6:
        # "proved without the MIP" beside a Solver box reading "MIP (proved 0/1)": a
        # stranger could not tell which was true; both now say how the proof was made
        how = (" (proved by enumeration: every rule short enough to beat it was tried, "
               "which here is quicker than the MIP and proves the same)"
               if method == "enumeration" else "")
        return Finding("success", f"Certified optimal{under}{how}: no "
                       f"{model.rule_type_.upper()}-rule without contradictory or redundant "
                       f"conditions{over}{that} has a lower objective: {what}.{typed}")
    if method == "mip":
        return Finding("warning", f"Not proven optimal{under}: the solver stopped "
                       f"({model.lp_status_.replace('_', ' ')}) before its proof. This is "
                       f"the best rule found, objective {what}; lower bound {_num(bound)}, so "
                       f"{_gap_words(gap)}. Raise the time limit to prove it.{_USABLE}"
                       f"{typed}")
    return Finding("info", f"LP rounding, a heuristic ({method}): objective {what}. The LP "
                   f"relaxation shows the optimum is at least {_num(bound)}, so "
                   f"{_gap_words(gap)}. Choose the exact solver for a certified rule.{typed}")


#: What "not proven optimal" leaves the analyst to do (a stranger's review: "I cannot tell
#: whether the rule is usable or what to change").
_USABLE = (" Not proven is no fault of the rule: judge it by its accuracy on the test rows "
           "against the majority class.")


def _priced_words(fit: Any) -> str:
    """How the certificate's last pricing was proved: by the MIP, or by the branch and bound
    with its node count (``ColumnGenerationResult.pricings``)."""
    runs = list(getattr(fit, "pricings", []))
    if runs and runs[-1].get("method") == "search":
        return (f"priced exactly: a branch and bound over clauses proved in "
                f"{runs[-1]['nodes']:,} nodes that none improves it")
    return "priced exactly"


def _pricing_words(fit: Any) -> str:
    """Why column generation's exact pricing did not prove the LP bound, as it happened
    (``ColumnGenerationResult.pricing_stop`` and ``pricings``): it said "did not finish in
    the 1 s it gets" of MIPs that had finished in 0.05 s, found a clause the beam search had
    missed and were not run again, and of one given 0.0013 s (a review)."""
    stop = getattr(fit, "pricing_stop", None)
    runs = list(getattr(fit, "pricings", []))
    last = runs[-1] if runs else None
    search = last is not None and last.get("method") == "search"
    # the search is named first: "the exact pricing ... was a branch and bound over clauses
    # (...), which ..." (a parenthesis after the comma read as a stray aside, a review)
    bb = ("was a branch and bound over clauses (the MIP takes problems of up to "
          f"{REPEATABLE_PRICING_PAIRS:,} failing row-condition pairs; this one has "
          f"{last.get('pairs', 0):,}), which " if search else "")
    if stop == "node limit" and last is not None:
        # (its work limit is a node count, so the answer is the same on any machine)
        return (f"{bb}visited its {last['nodes']:,} nodes without finding an improving "
                "clause or proving that there is none")
    if stop == "left out" and last is not None and not search:
        return (f"found a clause that improves the set, which the beam search had missed (in "
                f"{last['seconds']:.2g} s), and it was left out: a MIP of this size "
                f"({last.get('pairs', 0):,} failing row-condition pairs, more than "
                f"{REPEATABLE_PRICING_PAIRS:,}) finishes in its {last['time_limit']:.2g} s or "
                "not depending on how busy the machine is, so the rule set would too")
    if stop == "left out" and last is not None:
        return (f"{bb}found a clause that improves the set, one the beam search had missed; "
                "that clause was left out, since the cross-validation that chose λ measured "
                "fits built from the beam search's clauses alone")
    if stop == "too many weights":
        return (f"was not run: the duals over the merged rows take more than {MAX_LEVELS:,} "
                "distinct values, more than the branch and bound over clauses packs (uneven "
                "sample weights make this likely)")
    if stop == "timed out" and last is not None:
        # a clause it held by then is left out: which one depends on the machine's load
        held = ("; the improving clause it had found by then was left out, since which one "
                "it finds in that time depends on how busy the machine is"
                if last.get("found") else "")
        if search:
            # (its share, or what was left of the fit when that was less)
            return (f"{bb}stopped at its time limit of {last['time_limit']:.2g} s (at most "
                    f"{SEARCH_SHARE:.0%} of the final fit's time) after "
                    f"{last.get('nodes', 0):,} of the {last.get('node_limit', 0):,} nodes it "
                    "may visit; a larger time limit lets it go on")
        if last.get("pairs", 0) <= REPEATABLE_PRICING_PAIRS:
            given = (f"at most {REPEATABLE_PRICING_SECONDS:.0f} s for a MIP this small, and "
                     "what is left of the fit's time limit when that is less")
        else:
            given = ("at most 1 s, and a third of the final fit's share of the time limit when "
                     "that is less")
        # (HiGHS looks at the clock between steps, so the MIP can run past its limit:
        # "after 1.6 s of the 1 s it was given" read as a contradiction, a stranger's review)
        over = (f", and ran {last['seconds']:.2g} s: the solver checks the clock between "
                "steps" if last["seconds"] > 1.05 * last["time_limit"] else "")
        return f"stopped at its time limit of {last['time_limit']:.2g} s ({given}){over}{held}"
    if stop == "solver stopped" and last is not None:
        # (not a time-out: a memory limit, an interrupt or a solver error, said as HiGHS says it)
        return (f"stopped without an answer after {last['seconds']:.3g} s: the solver ended "
                f"with the status \"{str(last['status']).replace('_', ' ')}\", neither finding "
                "an improving clause nor proving that there is none")
    if stop == "no round left":
        n = len(runs)
        times = "once" if n == 1 else f"{n} times"
        return (f"ran {times} and found a clause that improves the set, which the beam "
                f"search had missed (in {sum(r['seconds'] for r in runs):.2g} s); it was "
                f"added, and the exact pricing was not run again to prove the set that "
                f"followed (at most {n} exact pricing run{'s' if n != 1 else ''} per fit)")
    if stop == "out of time":
        return ("was not run to the end: the time for generating clauses ran out while "
                "clauses still improved the set")
    if stop == "iterations":
        return (f"was not run to the end: the loop stopped after its {fit.iterations} "
                "rounds while clauses still improved the set")
    if stop == "not asked":
        return "was not asked for (certify=False)"
    if stop == "master failed":
        return "could not run: the LP over the clauses gave no duals to price with"
    if stop == "no new clause":
        return "could not continue: pricing found only clauses already generated"
    return "did not prove it"


def _clause_by_clause_status(model: Any, lam: float, chosen: str, weights: str) -> Finding:
    """:func:`fit_status` of set covering and boosting: what is proved of each clause
    (docs/rulesets.md).  "Certified optimum" only when every clause fit was the MIP's proved
    optimum; an LP solver's status is its relaxation's, and the clause is a rounding of it
    (a review read "the certified optimum of its own sub-problem" of a clause at J = 36
    whose sub-problem's optimum was 19)."""
    status, gap = model.lp_status_, model.mip_gap_
    method = getattr(model, "solve_method_", "mip")
    kind = "set covering" if hasattr(model, "max_rules") else "boosting"
    problem = f"{objective_words('and')}, λ = {lam:.3g}{chosen}, {weights}"
    whole = ("the set is built one clause after another, so the set as a whole is not "
             "claimed optimal")
    lp = method in ("lp", "lp-randomized")
    if lp:
        bound = ("how far a clause is from its optimum is unknown" if not np.isfinite(gap)
                 else f"the worst clause's LP bound is {gap:.1%} below its objective"
                 + (f", so {_gap_words(gap)}" if gap > 1e-6 else ""))
        head = (f"Rule set by {kind}: each clause is rounded from the LP relaxation of its own "
                f"sub-problem ({problem}; solver {method}), a heuristic: {bound}; {whole}. "
                "Choose the exact solver (MIP) for clauses certified optimal.")
    elif status == "optimal" and np.isfinite(gap) and gap <= 1e-6:
        head = (f"Rule set by {kind}: each clause is the certified optimum of its own "
                f"sub-problem ({problem}); {whole}.")
    else:
        head = (f"Rule set by {kind}: each clause is solved by the exact MIP on its own "
                f"sub-problem ({problem}), not every one to a proof (below); {whole}.")
    stopped = getattr(model, "stopped_", None)
    n = len(model.ruleset_.clauses)
    after = f"{n} clause{'s' if n != 1 else ''}"
    empty = "" if n else (" The set is empty: every row gets the other class." if
                          kind == "set covering" else " No clause has a vote other than 0 "
                          "(within floating noise), so the set is empty: every row scores 0, "
                          "a tie, which gives it the other class.")
    if stopped == "too large":
        return Finding("warning", head + f" Stopped after {after}: the next clause's "
                       "problem would not fit in the memory budget, so whether another "
                       "clause would lower the objective is not known. Use fewer "
                       "thresholds per numeric column or fewer rows to let it search.")
    if not lp and status != "optimal":
        worst = f"worst gap {gap:.1%}" if np.isfinite(gap) else "no bound proved"
        return Finding("warning", head + f" At least one clause fit stopped at its time "
                       f"limit ({status.replace('_', ' ')}): {worst}."
                       + ((f" Stopped after {after}: n" if n else " N") + "o clause below "
                          "the cost of adding none was found in time (not proved)."
                          if stopped == "no gain found" else "") + empty)
    if stopped == "no gain":
        head += (f" Stopped after {after}: no further clause lowers the objective "
                 "(proved: every clause on the rows left costs at least as much as "
                 "adding none)." if n else " No clause lowers the objective (proved: "
                 "every clause costs at least as much as adding none, every positive row "
                 "missed once).")
    elif stopped == "no gain found":
        head += ((f" Stopped after {after}: the clause found for the rows left" if n else
                  " No clause: the clause found") + " costs at least as much as adding none "
                 "(not proved: the LP-rounded clause may miss a cheaper one).")
    return Finding("info", head + empty)


#: A positive class under this share of the training rows, picked by a rule at under
#: :data:`RARE_PRECISION`, gets the advice to try every midpoint (:func:`assess`).
RARE_SHARE = 0.05
RARE_PRECISION = 0.8


def table_facts(ds: Any, thresholds: str) -> dict[str, Any]:
    """What :func:`assess` needs to know of the table (a :class:`rulecore.data.Dataset`) and
    of the thresholds (``"quantile"`` or ``"all"``): said once for the Rule page and
    ``rulecore learn``, which had each worked them out."""
    return {"quantile_cuts": thresholds == "quantile" and "numeric" in ds.kinds.values(),
            "n_columns": ds.X.shape[1],
            "left_out": [r.column for r in ds.excluded if r.role == "text"],
            "n_classes": len(ds.classes)}


def assess(
    y_train: np.ndarray,
    pred_train: np.ndarray,
    y_test: np.ndarray,
    pred_test: np.ndarray,
    *,
    positive: Any,
    class_weight: Any = None,
    features: list[str] | None = None,
    leaks: dict[str, float] | None = None,
    restated: dict[str, dict] | None = None,
    lagged: dict[str, float] | None = None,
    subject: str = "the rule",
    negative: str | None = None,
    costs: tuple[float, float] = (1.0, 1.0),
    lam_chosen: bool = False,
    all_midpoints_fit: bool = True,
    n_classes: int = 2,
    unweighted_test: tuple[float, float] | None = None,
    other_type_test: tuple[str, np.ndarray] | None = None,
    constraints: str = "",
    quantile_cuts: bool = True,
    n_thresholds: int | None = None,
    n_columns: int | None = None,
    left_out: Sequence[str] = (),
    conditions: Sequence[Any] = (),
    rule_type: str = "and",
    single_rule: bool = False,
    groups: np.ndarray | None = None,
) -> list[Finding]:
    """What a user must know about a fitted rule before trusting it.

    Parameters
    ----------
    y_train, pred_train, y_test, pred_test : 0/1 arrays
        Labels and predictions on the training and held-out rows (held-out may be empty).
    positive : object
        The positive class, for the wording.
    class_weight : None, "balanced", "sqrt" or dict
        How the rule weighed errors: a weighted rule is judged on balanced accuracy, an
        unweighted one on accuracy.
    features : list of str, optional
        Columns the rule reads; ``leaks`` ({column: accuracy}) flags those among them, and
        ``restated`` (:attr:`rulecore.data.Dataset.restated`) those that are the target in
        other words, more strongly.
    subject : str
        What is judged, for the wording ("the rule", "the model").
    negative : str, optional
        The other class's name (binary targets); default ``"not <positive>"``.
    costs : (fp_cost, fn_cost)
        The error costs the fit used; when they are not both 1 the advice names them first,
        since they, not the class weights, may be what traded accuracy away.
    constraints : str
        The single rule's constraints in words (:func:`constraint_words`); the advice then
        names them first: a cap on conditions, say, may be what keeps the rule from firing.
    lam_chosen : bool
        λ was chosen by cross-validation (``lam="auto"``): the advice does not say to raise it.
    conditions : sequence of Term
        A single rule's conditions: five or more ``!=`` on one column get a note on
        ordering its levels (:func:`exclusion_chain`).
    rule_type : {"and", "or"}
        The single rule's type: an OR-rule's chain gets no advice to choose an OR-rule.
    single_rule : bool
        The model is one AND- or OR-rule: below the majority class, the advice names the
        rule set, whose several clauses may describe what one rule cannot.
    groups : array, optional
        The held-out rows' record, where rows were held out by whole records: a gain over
        the majority class is judged record by record (:func:`clearly_above_majority`), as
        the claim is (:func:`shown_claim`).
    left_out : sequence of str
        Columns of many text values left out of the features: named in the advice of a rule
        no better than the majority or chance, as where the signal may be.
    n_columns : int, optional
        Features the rule chose from: more than the training rows (a gene table) gets advice
        on chance patterns.
    quantile_cuts : bool
        Whether the rule's numeric columns were cut at quantiles (some numeric column, and
        ``thresholds="quantile"``): only then is every midpoint advice that can help a rare
        class.
    n_thresholds : int, optional
        The quantile thresholds per numeric column the rule was learned with: where every
        midpoint would not fit, the advice is twice as many (at least 40, at most
        :data:`MAX_N_THRESHOLDS`).
    all_midpoints_fit : bool
        Whether terms at every midpoint (Thresholds: all) would fit in memory for this table
        (:func:`all_midpoints_fit`); the advice offers them only then.
    n_classes : int
        Classes of the target; with more than two, a note says the rule tells one from the
        rest and names the model that predicts them all.
    unweighted_test : (recall, accuracy), optional
        On the held-out rows, the same model fitted without class weights (see
        :func:`needs_unweighted_twin`).  Where the weighted rule costs accuracy, its trade-off
        is described only if it buys recall; a rule the unweighted one matches in recall and
        beats in accuracy gets a warning instead, with both models' figures.
    other_type_test : (rule type, predictions[, rule]), optional
        The held-out predictions of the same single rule fitted as the other rule type (an
        OR-rule beside an AND-rule; see :func:`needs_other_type`), and that rule.  When it
        separates the classes clearly better (by 5 points of balanced accuracy and two
        standard errors of the paired difference), a note says so and how to choose it; a
        rule of one condition is both types, so the note then asks for fewer conditions
        (choosing the other type gave the same rule back: a review).

    Returns
    -------
    list of Finding
        Warnings (never fires, no better than the majority, leak) and notes.
    """
    out: list[Finding] = []
    few_cuts_said = False  # the rare class's few quantile cuts, said once
    y_train, pred_train = np.asarray(y_train).astype(int), np.asarray(pred_train).astype(int)
    y_test, pred_test = np.asarray(y_test).astype(int), np.asarray(pred_test).astype(int)
    pos = str(positive)
    neg = negative if negative is not None else f"not {pos}"
    # "the 2 rows" reads as two rows: a class named by a number is "the rows of class 2"
    pos_rows = f"rows of class {pos}" if re.fullmatch(r"[-+]?\d+(\.\d+)?", pos) \
        else f"{pos} rows"
    # "if the positive class is rare" beside a positive class of 85 % of the rows (after a
    # swap) read as advice that did not apply (a newcomer's review)
    rare = "positive" if len(y_train) == 0 or y_train.mean() <= 0.5 else "other"
    fix = (f"Weight the classes (class weights: balanced) if the {rare} class is rare, "
           + ("" if lam_chosen else "raise λ so that errors cost more, ")
           + "or offer more thresholds per column"
           + (" (or Thresholds: all, every midpoint)." if all_midpoints_fit else "."))
    # the signal may sit in a column left out as text of many values (a SKU of 500 values:
    # the advice said "raise λ or offer more thresholds", a review)
    named = list(left_out)[:3]
    elsewhere = (f" Left out as text of many values: {', '.join(map(repr, named))}"
                 f"{' and more' if len(left_out) > 3 else ''}; include "
                 f"{'it' if len(left_out) == 1 else 'one'} (Data page) if it may carry the "
                 "signal." if named else "")
    fix += elsewhere
    # one AND-rule may not describe a class that several clauses do: a stranger's database
    # dump got a single rule below the majority class, and the rule set (auto) found the
    # planted signal (+1.4 points, all its held-out picks right); nothing pointed there
    other_model = (" One rule may be too little here: try Model: rule set (auto), whose "
                   "clauses each describe part of the class." if single_rule else "")
    fp_cost, fn_cost = (float(c) for c in costs)
    costed = not (fp_cost == fn_cost == 1.0)
    if constraints:  # the user's own limits come first: they may be what holds the rule back
        fix = (f"Your constraints ({constraints}) shape this rule: loosen them (Max "
               "conditions, Must use, Must not use). " + fix)
    if costed:
        fix = (f"Your error costs (false positive {fp_cost:g}×, false negative {fn_cost:g}×) "
               "shape this rule: set them back to 1× to count both errors alike. " + fix)
    who = subject[:1].upper() + subject[1:]
    overfit = _overfit(y_train, pred_train, y_test, pred_test)
    if overfit is not None:
        # more conditions, weights or thresholds would fit the training rows closer still:
        # the advice for every finding below is the overfit's
        fewer = ("Ask for fewer conditions (Max conditions"
                 + ("" if lam_chosen else ", or a smaller λ")
                 + ") or leave out columns that cannot matter.")
        # every midpoint lets a cut sit at the last training row of the class, and held-out
        # rows of it fall just outside: the advice to drop conditions sent a stranger in a
        # loop (quantile cuts, "try every midpoint", then "fewer conditions" for the planted
        # temperature > 84 AND vibration > 6, fitted as > 84.15 AND > 6.105)
        midpoints = not quantile_cuts and any(getattr(c, "numeric", False) for c in conditions)
        n_rare = int(min(y_test.sum(), len(y_test) - y_test.sum()))
        few = (f" The held-out rows hold only {n_rare:,} "
               f"{pos_rows if y_test.mean() <= 0.5 else f'{neg} rows'}, so their figure "
               "moves a lot by chance: try a larger test share, or the Stability tab, which "
               "refits on several splits."
               if n_rare < 30 else "")
        if midpoints:
            fix = ("With every midpoint as a threshold (Thresholds: all) a cut can sit right "
                   "at the edge of the training rows, and held-out rows fall just outside it: "
                   "quantile thresholds (Thresholds: quantile) cut coarser."
                   + (" Or a" + fewer[1:] if len(conditions) > 2 else "") + few)
            why = "its cuts fit the edges of the training rows closely"
        else:
            fix = fewer + few
            why = (f"some of its conditions fit chance patterns of the {len(y_train):,} "
                   "training rows, which is easy when there are many columns to choose from")
        out.append(Finding("warning", f"{who} fits the training rows far better than the "
                           f"held-out rows (balanced accuracy {_pct(overfit[0])} against "
                           f"{_pct(overfit[1])}): {why}. {fix}",
                           "fits the training rows far better than held-out rows"))
    if len(pred_train) and pred_train.min() == pred_train.max():
        what = (f"predicts {pos} for every training row" if pred_train[0] == 1 else
                f"never predicts {pos} on the training rows")
        out.append(Finding("warning", f"{who} {what}: it separates nothing, whatever its "
                           f"objective. {fix}", what))
    if len(y_test) and len(np.unique(y_test)) < 2:
        which = pos if y_test[0] == 0 else neg
        out.append(Finding("warning", f"The held-out rows hold no {which} row, so their "
                           "accuracy says nothing about the rule. The positive class is too "
                           "rare for this split: choose a class with more rows, or a larger "
                           "test share.", "no held-out row of one class"))
    if len(y_test) and len(np.unique(y_test)) == 2:
        acc = float(np.mean(pred_test == y_test))
        rate = float(y_test.mean())
        majority_is_pos = rate > 0.5
        majority = pos if majority_is_pos else neg
        base = max(rate, 1 - rate)
        tpr = float(pred_test[y_test == 1].mean())
        tnr = float(1 - pred_test[y_test == 0].mean())
        balanced = (tpr + tnr) / 2
        luck = chance_balanced_accuracy(y_test, pred_test)
        if class_weight is None and acc <= base + 1e-12:
            out.append(Finding("warning", f"On held-out rows {subject} is right "
                               f"{_pct(acc)} of the time, no better than always predicting "
                               f"{majority} ({_pct(base)}). {fix}{other_model}",
                               "no better than the majority class on held-out rows"))
        elif balanced <= luck:
            n_pos, n_neg = int(y_test.sum()), int((1 - y_test).sum())
            # (a rule right on all 20 held-out rows, one of them positive, read "100.0%, not
            # clearly better than chance (50%; on 1 rows of class 1 …)": a stranger's review)
            held = (f"{n_pos:,} held-out row{'s' if n_pos != 1 else ''} of class {pos} and "
                    f"{n_neg:,} other{'s' if n_neg != 1 else ''}")
            # ("class": "calls 1 of them 1" read as a typo when the class is named 1, a
            # stranger's clinical table)
            by_luck = (f"a rule unrelated to the target that calls "
                       f"{int(pred_test.sum()):,} of them class {pos} reaches up to "
                       f"{_pct(luck)} by luck")
            said = ("no better than always predicting one class (50%)" if balanced <= 0.5
                    else f"which cannot be told from luck on only {held} ({by_luck})"
                    if min(n_pos, n_neg) < 5
                    else f"not clearly better than chance (50%; on {held}, {by_luck})")
            train_bal = _balanced(y_train, pred_train)
            if overfit is not None:  # the overfit warning just above gives the fix
                advice = "The warning above says what to change."
            elif train_bal is None or train_bal <= 0.6:  # poor on the training rows too
                # (λ chosen by cross-validation found a vet table's planted rule where the
                # advice named only λ and thresholds, a stranger's review)
                advice = (("Offer more thresholds per column" if lam_chosen else
                           "Choose λ by cross-validation (or raise λ), or offer more "
                           "thresholds")
                          + "; the features may carry no signal for this target: check that "
                          "it is the column you mean to predict." + elsewhere + other_model)
            else:
                advice = (f"On the training rows it reaches {_pct(train_bal)}: the held-out "
                          "rows may be too few to tell. Try a larger test share, or the "
                          "Stability tab, which refits on several splits.")
            out.append(Finding("warning", f"On held-out rows the balanced accuracy of "
                               f"{subject} is {_pct(balanced)}, {said}. {advice}",
                               "no better than chance on held-out rows" if balanced <= 0.5
                               else "not clearly better than chance on held-out rows"))
        elif acc < base and class_weight is not None and overfit is None and \
                unweighted_test is not None and unweighted_test[0] >= tpr - 0.02 and \
                unweighted_test[1] > max(acc, base + 1e-12):
            # and better than the majority class: advice that led to an always-majority rule
            # was followed by the opposite advice (a newcomer's review)
            r_u, acc_u = unweighted_test
            out.append(Finding("warning", f"The class weights buy nothing here: on the "
                               f"held-out rows the rule fitted without them (class weights: "
                               f"none) finds {_pct(r_u)} of the {pos_rows} (this one: "
                               f"{_pct(tpr)}) and is right {_pct(acc_u)} of the time (this "
                               f"one: {_pct(acc)}; always predicting {majority}: "
                               f"{_pct(base)}). Choose class weights: none.",
                               "class weights buy nothing (unweighted is as good)"))
        elif acc < base and class_weight is not None and overfit is None:
            what_weights = weighting_words(class_weight) + (
                f" and error costs (false positive {fp_cost:g}×, false negative {fn_cost:g}×)"
                if costed else "")
            fired = pred_test == 1
            precision = float(y_test[fired].mean()) if fired.any() else 0.0
            # a rare class's range gets few of the quantile cuts (made over all rows), so
            # the rule cannot cut close to it: 10 thresholds gave amount > 274 where the
            # positives were above 700 (precision 15 %; 40 thresholds: 68 %)
            # (the advice named no setting: the stranger with a 3 % class whose one column
            # alone decides it got a noise condition at the nearest quantile cut, where
            # every midpoint gives the one-condition rule at 100 %: a review)
            # (every midpoint only where it fits: 22,500 rows of 0.3 % fraud were told to
            # take it, and it needed 5.6 GB, a stranger's table)
            rare = (f"The {pos_rows} are {_pct(rate)} of all rows, and the quantile "
                    "thresholds (cut over all rows) put few cuts in their range: it is "
                    f"right on {_pct(precision)} of the rows it picks. "
                    + (f"{closer}. " if (closer := _closer_cuts(all_midpoints_fit,
                                                                n_thresholds)) else "")
                    if quantile_cuts and rate < RARE_SHARE and precision < 0.5 else "")
            few_cuts_said = bool(rare)
            # the weights are for the rarer class: with the positive class the larger one
            # (after a swap) the rule buys the recall of the other class
            rare_rows, rare_found = (f"{neg} rows", tnr) if majority_is_pos else (pos_rows, tpr)
            no_gain = unweighted_test is not None and unweighted_test[1] <= base + 1e-12
            if unweighted_test is None:
                without = ""
            elif no_gain:  # choosing none would give an always-majority rule: keep them
                # ("without them" read as without the held-out rows: a stranger's review)
                without = (f" Fitted without class weights it is right "
                           f"{_pct(unweighted_test[1])} of "
                           f"the time, no better than always predicting {majority}: the "
                           "weights are what make it pick out the rarer class.")
            else:
                without = (f" Fitted without class weights it finds "
                           f"{_pct(unweighted_test[0])} of "
                           f"the {pos_rows} and is right {_pct(unweighted_test[1])} of the "
                           "time.")
            advice = ("" if no_gain else
                      "Set the error costs back to 1× and choose class weights: none to "
                      "maximise accuracy instead." if costed else
                      "Choose class weights: none to maximise accuracy instead.")
            # what the cost is in the rows it picks: 78 % against 98 % read as a fair trade
            # until the precision, 5.4 %, was seen in a table (a stranger's review)
            picks = int(fired.sum()) if not majority_is_pos else int((~fired).sum())
            right = precision if not majority_is_pos else (
                float(1 - y_test[~fired].mean()) if (~fired).any() else 0.0)
            picked = (f" Of the {picks:,} held-out rows it calls "
                      f"{pos if not majority_is_pos else neg}, {_pct(right)} are"
                      + (f" (one in {1 / right:.0f})" if 0 < right < 0.25 else "") + "."
                      if picks and not rare else "")
            # a warning, as the README promises of every rule below the majority class on
            # held-out rows: beside "Certified optimal", blue boxes read as fine print (a
            # stranger's review: -4.7 points with a noise condition, only info boxes)
            out.append(Finding("warning", f"On held-out rows {subject} is right "
                               f"{_pct(acc)} of the time, less than always predicting "
                               f"{majority} ({_pct(base)}), which finds none of the "
                               f"{rare_rows}: with {what_weights}, it finds "
                               f"{_pct(rare_found)} of them.{picked}{without} {rare}{advice}"
                               .rstrip() + other_model,
                               "below the majority class (class-weighted)"))
    # a rare class between two quantile cuts: the rule cannot cut close to it, and nothing
    # above says so when it still beats the majority (a review: 1 % fraud planted on
    # amount > 900 read 'amount > 286', 36 % precise; with every midpoint, 'amount > 950',
    # 100 %).  Class-aware cuts by default were measured and lost balanced accuracy on the
    # rare-positive benchmark (docs/terms.md, "Thresholds"): this is advice, not a default.
    fired_tr = pred_train == 1
    # Where every midpoint would not fit in memory (200,000 rows, 2.3 % failures: 'temp_c >
    # 73.4 AND vibration > 2.58', 54 % precise, under "Certified optimal" and no advice, a
    # stranger's table; 40 thresholds gave 85 %), more quantile cuts are the advice.
    closer = _closer_cuts(all_midpoints_fit, n_thresholds, or_more=False)
    if (quantile_cuts and len(y_train) and y_train.mean() < RARE_SHARE and fired_tr.any()
            and y_train[fired_tr].mean() < RARE_PRECISION and closer
            and not few_cuts_said and overfit is None):
        judge = ("compare the held-out precision before keeping it" if len(y_test) else
                 "judge it on held-out rows (a test share above 0) before keeping it")
        out.append(Finding("info", f"The {pos_rows} are {_pct(y_train.mean())} of the "
                           "training rows, and the quantile thresholds (cut over all rows) "
                           f"put few cuts where they are: {subject} is right on "
                           f"{_pct(y_train[fired_tr].mean())} of the training rows it picks. "
                           f"{closer}; {judge}.", "rare class between the cuts"))
    # more columns than rows: among 1,499 genes for 75 training rows, four conditions on
    # noise genes joined the planted one, each cutting off a few rows (a review); the
    # held-out rows are too few to show it as an overfit above
    if n_columns is not None and n_columns > len(y_train) > 0 and overfit is None \
            and len(pred_train) and 0 < pred_train.mean() < 1:
        fewer = ("Max conditions" if lam_chosen else "a smaller λ, Choose λ by "
                 "cross-validation or Max conditions")
        out.append(Finding("info", f"{n_columns:,} columns for {len(y_train):,} training "
                           f"rows: among so many, some conditions of {subject} may fit "
                           f"chance patterns of these rows. Ask for fewer conditions "
                           f"({fewer}) and see whether the held-out accuracy holds.",
                           "more columns than rows"))
    if other_type_test is not None and len(y_test) and len(np.unique(y_test)) == 2:
        other, pred_other = other_type_test[0], np.asarray(other_type_test[1]).astype(int)
        other_rule = other_type_test[2] if len(other_type_test) > 2 else None
        gain, se = _paired_gain(y_test, pred_test, pred_other)
        if gain >= max(0.05, 2 * se):
            r_o, bal_o = balanced_recall(y_test, pred_other)
            r_t, bal_t = balanced_recall(y_test, pred_test)
            figures = (f"{_pct(r_o)} of the {pos_rows} with balanced accuracy {_pct(bal_o)} "
                       f"(this one: {_pct(r_t)}, {_pct(bal_t)})")
            if other_rule is not None and len(other_rule) == 1:
                out.append(Finding("info", f"A shorter rule does better here: {other_rule} "
                                   f"alone finds {figures} on the held-out rows. Ask for fewer "
                                   "conditions (Max conditions: 1, or a smaller λ; command "
                                   "line: --max-conditions 1).", "a shorter rule does better"))
            else:
                kind = {"and": "AND-rule (all conditions)", "or": "OR-rule (any condition)"}
                out.append(Finding("info", f"An {kind[other]} does better here: on the "
                                   f"held-out rows it finds {figures}. Choose Rule type: "
                                   f"{other.upper()}, or auto to let cross-validation on the "
                                   "training rows choose (command line: --rule-type).",
                                   f"an {other.upper()}-rule does better"))
    if n_classes > 2:
        out.append(Finding("info", f"The target has {n_classes} classes: {subject} tells {pos} "
                           f"from the other {n_classes - 1}. To predict every class, choose "
                           "the model rule set (auto), a rule list (command line: --model "
                           "rule-set)."))
    for col in features or []:
        if restated and col in restated:  # stronger than a leak (restated_words)
            out.append(Finding("warning", f"{who} uses {col}, which is the target in other "
                               "words (each of its values goes with one class): it restates "
                               "the answer instead of predicting it. Leave it out on the "
                               "Data page.", f"uses the target in other words ({col})"))
        elif lagged and col in lagged:
            out.append(Finding("warning", f"{who} uses {lagged_words(col, lagged[col])} "
                               "Leave it out on the Data page unless the last outcome is known "
                               "when the rule is applied, and see what the other columns say.",
                               f"uses the last outcome ({col})"))
        elif leaks and col in leaks:
            # the leak's figure comes from its best cut anywhere; the rule's conditions sit
            # at quantile cuts, and a stranger's rule paired CRP > 40 with "smoking != never"
            # where CRP > 70 alone was right on every row, with no word why (every midpoint
            # gave that one condition)
            rule_acc = max(float(np.mean(pred_train == y_train)) if len(y_train) else 0.0,
                           float(np.mean(pred_test == y_test)) if len(y_test) else 0.0)
            alone = (f" It alone, cut between the quantile thresholds, is as accurate as "
                     f"this {len(set(features))}-column rule: with every midpoint as a "
                     "threshold (Thresholds: all) one condition on it may do."
                     if quantile_cuts and all_midpoints_fit and len(set(features)) > 1
                     and leaks[col] >= rule_acc - 1e-9
                     and not isinstance(leaks[col], BalancedAccuracy) else "")
            out.append(Finding("warning", f"{who} uses {col}, which alone predicts "
                               f"{pos} with {accuracy_words(leaks[col])}: a possible leak, "
                               "if it is recorded after the outcome or made from it. Leave it "
                               "out on the Data page unless it is known before the outcome "
                               "(a measurement that truly decides the class, such as a marker "
                               f"of the diagnosis, stays).{alone}",
                               f"uses a possible leak ({col})"))
    # a fixed λ's single rule above the majority only by what luck gives, with no warning
    # to say what to change: a survey's five conditions at λ = 1 were +1.0 point, and λ
    # chosen by cross-validation, which counts each wrong row once, found its planted
    # two-condition rule at +6.3 (a stranger's KoboToolbox export)
    if single_rule and not lam_chosen and len(y_test) and len(np.unique(y_test)) == 2 \
            and not any(f.level == "warning" for f in out) \
            and float(np.mean(pred_test == y_test)) > max(y_test.mean(), 1 - y_test.mean()) \
            and not clearly_above_majority(y_test, pred_test, groups):
        gain, _ = gain_over_majority(y_test, pred_test, groups)
        out.append(Finding("info", f"On held-out rows {subject} is not clearly more accurate "
                           f"than always predicting the majority class ({gain:+.1f} points, "
                           "within what luck gives). Choose λ by cross-validation: it "
                           "picks λ for held-out error, counts each wrong row once "
                           "and chooses between an AND- and an OR-rule, and may find a "
                           "sharper rule.", "within luck of the majority class (fixed λ)"))
    chain = exclusion_chain(conditions, rule_type)
    return out + [chain] if chain else out


def _closer_cuts(all_midpoints_fit: bool, n_thresholds: int | None,
                 or_more: bool = True) -> str:
    """The advice for a rare class between the quantile cuts: every midpoint where it fits
    in memory, else more thresholds (more than those already asked for: "40 or more" beside
    a slider at 40 read as no advice at all, a review), else none ("")."""
    if all_midpoints_fit:
        return "Every midpoint (Thresholds: all) lets its conditions cut closer" + (
            "; or offer more thresholds per column" if or_more else "")
    more = max(40, 2 * int(n_thresholds or 0))
    if more > MAX_N_THRESHOLDS:
        return ""  # nothing more to offer
    return (f"More thresholds per numeric column (Thresholds per numeric column: {more} or "
            "more; every midpoint would not fit in memory at this size) let its conditions "
            "cut closer")


#: The app's controls named in findings, and the command line's flags for them: the findings
#: are written once, in the Rule page's words, and ``rulecore learn`` prints them through
#: :func:`for_command_line` (longest phrases first, so the specific wins).
COMMAND_LINE_WORDS: tuple[tuple[str, str], ...] = (
    ("loosen them (Max conditions, Must use, Must not use)",
     "loosen them (--max-conditions, --require, --forbid)"),
    ("Ask for fewer conditions (Max conditions", "Ask for fewer conditions (--max-conditions"),
    ("Choose class weights: none", "Choose --class-weight none"),
    ("choose class weights: none", "choose --class-weight none"),
    ("(class weights: balanced)", "(--class-weight balanced)"),
    ("(class weights: none)", "(--class-weight none)"),
    ("(or Thresholds: all, every midpoint)", "(or --thresholds all, every midpoint)"),
    ("Every midpoint (Thresholds: all)", "Every midpoint (--thresholds all)"),
    ("(Thresholds per numeric column: ", "(--n-thresholds "),
    ("or offer more thresholds per column. ", "or offer more (--n-thresholds). "),
    ("as a threshold (Thresholds: all)", "as a threshold (--thresholds all)"),
    ("(Thresholds: quantile)", "(--thresholds quantile)"),
    ("(a smaller λ, Choose λ by cross-validation or Max conditions)",
     "(a smaller --lam, --lam auto or --max-conditions)"),
    ("(Max conditions)", "(--max-conditions)"),
    ("Choose λ by cross-validation (or raise λ)", "Choose λ by cross-validation (--lam auto, "
     "or raise --lam)"),
    ("Choose λ by cross-validation: it picks", "Choose λ by cross-validation (--lam auto): it "
     "picks"),
    ("(Data page: Put a column's levels in order yourself)",
     "(--order 'column=lowest<...<highest')"),
    ("else Max conditions keeps", "else --max-conditions keeps"),
    ("an OR-rule (Rule type: OR)", "an OR-rule (--rule-type or)"),
    ("include it (Data page)", "include it (--include)"),
    ("include one (Data page)", "include one (--include)"),
    ("or the Stability tab, which refits on several splits",
     "or `rulecore stability`, which refits on several splits"),
    ("a larger test share", "a larger --test-size"),
    ("(a test share above 0)", "(--test-size above 0)"),
    ("Leave it out on the Data page", "Leave it out (--exclude)"),
    ("set them back to 1×", "set them back to 1 (--fp-cost, --fn-cost)"),
    (" (command line: --rule-type)", ""),  # said already, below
    ("try Model: rule set (auto)", "try --model rule-set"),
    ("choose the single rule with it as the positive class",
     "learn the single rule with it as --positive"),
)


def lagged_words(column: str, share: float, target: str | None = None) -> str:
    """What the pages, the command line and :func:`assess` say of a feature that is the
    target one row earlier (:func:`rulecore.roles.lagged_target`): a stranger's machine log
    got ``failed_prev_day == 1``, certified, with no word that it repeats the last outcome."""
    what = f"{target}" if target else "class"
    return (f"{column}, which reads the row before's {what} on {_pct(share)} of the rows: "
            "the last outcome (yesterday's, in a daily log). A rule on it repeats that outcome: "
            "it cannot foresee a first one, and hides what else predicts it.")


def restated_words(column: str, mapping: dict, target: str, bold: bool = True,
                   how: str = "") -> str:
    """What the pages and the command line say of a feature that is the target in other
    words (:attr:`rulecore.data.Dataset.restated`): stronger than a leak's "alone predicts",
    which read like a real cause beside one (a stranger's review)."""
    def value(v):
        return "(missing)" if v is None else repr(v) if isinstance(v, str) else str(v)

    pairs = sorted(mapping.items(), key=lambda kv: str(kv[1]))
    shown = ", ".join(f"{value(v)} → {c}" for v, c in pairs[:6]) + (
        f", and {len(pairs) - 6} more" if len(pairs) > 6 else "")
    name = f"**{column}**" if bold else column
    return (f"{name} is {target} in other words: each of its values goes with one class "
            f"({shown}), on at least 99% of the rows. A model on it restates the answer "
            f"instead of predicting it: leave it out of the features{how}.")


def for_command_line(text: str) -> str:
    """A finding in the command line's words (:data:`COMMAND_LINE_WORDS`)."""
    for app, cli in COMMAND_LINE_WORDS:
        text = text.replace(app, cli)
    return re.sub(r"Choose Rule type: (AND|OR), or auto", lambda m: f"Choose --rule-type "
                  f"{m.group(1).lower()}, or auto", text)


#: From this many ``!=`` conditions on one column a rule is said to list levels one by one.
MANY_EXCLUSIONS = 5


def exclusion_chain(conditions: Sequence[Any], rule_type: str = "and") -> Finding | None:
    """A note when a rule excludes one column's levels one by one (``grid != 5th``, ``grid
    != 6th``, ... 17 of them: a race's rule where ``grid <= 4th`` was meant, an analyst's
    review): if the levels have an order, giving it makes them one condition; if not (store
    numbers: five ``store_nbr != …`` where stores 101 and 317 were the signal, a stranger's
    table), an OR-rule names the levels kept; else the column has many levels that each
    matter little.  An OR-rule's chain is not told to be an OR-rule (a review): there,
    ``x != a OR x != b`` holds for every row with a value.  ``None`` below
    :data:`MANY_EXCLUSIONS` on every column."""
    counts: dict[str, int] = {}
    for c in conditions:
        if getattr(c, "op", None) == "!=":
            counts[c.feature] = counts.get(c.feature, 0) + 1
    col, n = max(counts.items(), key=lambda kv: kv[1], default=(None, 0))
    if n < MANY_EXCLUSIONS:
        return None
    unordered = ("an OR-rule (Rule type: OR) names the levels kept instead, one condition "
                 f"each ('{col} == level'); else " if rule_type != "or" else "")
    return Finding("info", f"{n} conditions leave out levels of {col!r} one by one. If its "
                   "levels have an order (sizes, places, grades), give it (Data page: Put a "
                   "column's levels in order yourself), and one condition such as "
                   f"'{col} <= level' can replace them. If they have none (store numbers, "
                   f"codes), {unordered}Max conditions keeps the rule short.",
                   f"{n} × != on {col}")


#: Parameters named in the library's error messages, and the Rule page's boxes for them: the
#: app shows a :class:`~rulecore.exceptions.RulecoreError` through :func:`for_app`.
APP_WORDS: tuple[tuple[str, str], ...] = (
    ("(error='hamming')", "(Errors counted: per condition)"),
    ("refit with error='hamming'", "choose Errors counted: per condition"),
    ("error='exact'", "Errors counted: per row"),
    ("(solver='mip')", "(Solver: MIP)"),
)


#: Letters written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and their forms).
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


def isolated(text: Any) -> str:
    """``text`` between Unicode's first-strong isolate and its pop (U+2068, U+2069) when it
    holds right-to-left letters, so that a name keeps its place in a left-to-right line:
    "Predict متعثر = نعم" showed as "Predict نعم = متعثر", class before target, since the
    two names and the "=" between them made one right-to-left run (an analyst's review)."""
    text = str(text)
    return f"\u2068{text}\u2069" if _RIGHT_TO_LEFT.search(text) else text


def for_app(text: str) -> str:
    """A library message in the Rule page's words (:data:`APP_WORDS`)."""
    for api, app in APP_WORDS:
        text = text.replace(api, app)
    return text


def all_midpoints_fit(X: pd.DataFrame, kinds: dict[str, str]) -> bool:
    """Whether terms at every midpoint of every numeric column (``thresholds="all"``) would
    fit the memory budget for the rows of ``X``, as the fit checks it
    (:func:`rulecore.rules.estimators.fit_terms_of`: three bytes per row and term)."""
    from rulecore.encode import dense_bytes, memory_budget

    n_terms = 0
    for col in X.columns:
        distinct = int(X[col].nunique())
        n_terms += 2 * max(distinct - 1, 0) if kinds.get(col) in ("numeric", "ordinal") \
            else 2 * distinct
    return dense_bytes(len(X), n_terms, itemsize=1, copies=3) <= memory_budget()


def recall_accuracy(y: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    """Recall and accuracy of 0/1 (or bool) predictions ``pred`` of labels ``y``."""
    y, pred = np.asarray(y).astype(int), np.asarray(pred).astype(int)
    recall = float(pred[y == 1].mean()) if (y == 1).any() else 0.0
    return recall, float(np.mean(pred == y))


def needs_unweighted_twin(class_weight: Any, y_test: np.ndarray, pred_test: np.ndarray
                          ) -> bool:
    """Whether :func:`assess` would describe a class-weight trade-off (a weighted rule less
    accurate on held-out rows than the majority class), so that the unweighted fit it
    compares with is worth making.  (The paper's surrogate charges a positive row per
    condition it fails; weighted, it can prefer loose conditions that let in false alarms
    and find no more positives than the unweighted rule.)"""
    y_test, pred_test = np.asarray(y_test).astype(int), np.asarray(pred_test).astype(int)
    if class_weight is None or len(np.unique(y_test)) < 2:
        return False
    base = max(float(y_test.mean()), 1 - float(y_test.mean()))
    return float(np.mean(pred_test == y_test)) < base


def comparisons(settings: Any, class_weight: Any, y_test: np.ndarray, pred_test: np.ndarray,
                X_test: pd.DataFrame, refit: Callable[..., Any]) -> dict[str, Any]:
    """The other fits :func:`assess` compares a rule with, made only when they can change its
    advice (:func:`needs_unweighted_twin`, :func:`needs_other_type`), as its keyword
    arguments ``unweighted_test`` and ``other_type_test``.

    ``settings`` (:class:`~rulecore.settings.RuleSettings`) and ``class_weight`` (resolved)
    are the fit's; ``refit(**changes)`` returns the model fitted on the same split with those
    settings changed (the app's cached fits, or a plain refit on the command line).  A refit
    that fails (a time or memory limit) leaves its comparison out: it only adds advice.
    """
    out: dict[str, Any] = {}
    if not len(y_test):
        return out
    try:
        if needs_unweighted_twin(class_weight, y_test, pred_test):
            out["unweighted_test"] = recall_accuracy(
                y_test, refit(class_weight="none").predict(X_test))
        if needs_other_type(settings.model, settings.rule_type, y_test, pred_test):
            flipped = {"and": "or", "or": "and"}[settings.rule_type]
            other = refit(rule_type=flipped)
            out["other_type_test"] = (flipped, other.predict(X_test),
                                      getattr(other, "rule_", None))
    except RulecoreError:
        pass
    return out


def needs_other_type(model_name: str, rule_type: str, y_test: np.ndarray,
                     pred_test: np.ndarray) -> bool:
    """Whether a single rule of a fixed type leaves room for the other type to do clearly
    better (held-out balanced accuracy under 0.85), so that :func:`assess` can compare: a
    signal of the form "temp > 80 OR pressure > 3.8" got an AND-rule on one of its
    conditions (recall 59 %, 85 % as an OR-rule) with no word that OR exists."""
    if model_name != "single rule" or rule_type not in ("and", "or"):
        return False
    bal = _balanced(np.asarray(y_test).astype(int), np.asarray(pred_test).astype(int))
    return bal is not None and bal < 0.85


def _paired_gain(y: np.ndarray, pred: np.ndarray, other: np.ndarray) -> tuple[float, float]:
    """How much better ``other`` is than ``pred`` in balanced accuracy on the same rows, and
    the standard error of that paired difference (from the rows where they disagree)."""
    pos, neg = y == 1, y == 0
    d_pos = other[pos].astype(float) - pred[pos]          # +1: a positive only other finds
    d_neg = pred[neg].astype(float) - other[neg]          # +1: a false alarm only pred raises
    gain = (d_pos.mean() + d_neg.mean()) / 2
    se = 0.5 * float(np.sqrt(d_pos.var() / max(pos.sum(), 1) + d_neg.var() / max(neg.sum(), 1)))
    return float(gain), se


def balanced_recall(y: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    """Recall and balanced accuracy of 0/1 predictions (0 and 0.5 without both classes)."""
    y, pred = np.asarray(y).astype(int), np.asarray(pred).astype(int)
    recall = float(pred[y == 1].mean()) if (y == 1).any() else 0.0
    bal = _balanced(y, pred)
    return recall, 0.5 if bal is None else bal


#: One-sided level of "by luck": a normal variable exceeds two standard errors this often.
LUCK_LEVEL = 0.02275


def chance_balanced_accuracy(y: np.ndarray, pred: np.ndarray | None = None) -> float:
    """The balanced accuracy a rule unrelated to the target can reach by luck on rows with
    labels ``y`` (0/1).

    Without ``pred``: 0.5 plus two standard errors at worst.  Under "no relation" the rule's
    positive rate q is the same in both classes, so its balanced accuracy has variance
    q(1 − q)(1/n₁ + 1/n₀)/4 ≤ (1/n₁ + 1/n₀)/16.

    With ``pred`` (0/1, the rule's decisions): given the k rows it calls positive, under "no
    relation" its true positives are hypergeometric (k draws from n rows, n₁ of them
    positive); the bound is the balanced accuracy at the count luck reaches with probability
    :data:`LUCK_LEVEL` (an exact one-sided test).  The worst case q = ½ called a model right
    on all 4 rows it picked (of 36 positives among 375) "not clearly better than chance"
    (p = 7·10⁻⁵ by Fisher's test: a review)."""
    y = np.asarray(y).astype(int)
    n1 = int(np.sum(y == 1))
    n0 = len(y) - n1
    if n1 == 0 or n0 == 0:
        return 1.0
    if pred is None:
        return 0.5 + 2 * 0.25 * float(np.sqrt(1 / n1 + 1 / n0))
    from scipy.stats import hypergeom

    k = int(np.sum(np.asarray(pred).astype(int) == 1))
    # the smallest count t with P(TP > t) <= LUCK_LEVEL: luck reaches t, rarely more
    t = float(hypergeom.isf(LUCK_LEVEL, len(y), n1, k))
    return float((t / n1 + (n0 - (k - t)) / n0) / 2)


def _balanced(y: np.ndarray, pred: np.ndarray) -> float | None:
    """Balanced accuracy of 0/1 predictions, or None without both classes."""
    if len(np.unique(y)) < 2:
        return None
    return (float(pred[y == 1].mean()) + float(1 - pred[y == 0].mean())) / 2


def _overfit(y_train: np.ndarray, pred_train: np.ndarray, y_test: np.ndarray,
             pred_test: np.ndarray) -> tuple[float, float] | None:
    """``(train, held-out balanced accuracy)`` when the held-out one falls short by more than
    0.1 and by more than twice its standard error (:func:`chance_balanced_accuracy`'s bound),
    else None."""
    train, test = _balanced(y_train, pred_train), _balanced(y_test, pred_test)
    if train is None or test is None:
        return None
    gap = train - test
    if gap > 0.1 and gap > chance_balanced_accuracy(y_test) - 0.5:
        return train, test
    return None


def clearly_above_majority(y_test: np.ndarray, pred_test: np.ndarray,
                           groups: np.ndarray | None = None) -> bool:
    """Whether 0/1 predictions are more accurate than always predicting the majority class
    of ``y_test`` by more than luck explains: a sign test on the rows where they differ from
    the majority class.  Of those D rows, the predictions are right on R; their accuracy gain
    is (2R − D) / n, and a coin (R ~ Bin(D, ½)) gives a gain of standard error √D / n, so
    the gain must exceed one standard error, √D / n: a gain luck gives about one time in
    six.  (A review saw "+0.5 pts vs majority" in green, with a "certified optimal" success
    box, for a rule right on 11 of its 20 picks; two standard errors would also grey out
    iris's versicolor rule, right on 12 of its 17 picks of 38 held-out rows.)

    With ``groups`` (the held-out rows' record, where rows were held out by whole records):
    a record's rows may be right or wrong together, so the standard error is the records'
    (cluster-robust): with D_g of its rows differing, R_g of them right and S_g = 2R_g − D_g,
    the gain Σ S_g must exceed √(Σ S_g²).  One row per record gives the test above (S_g =
    ±1); copies of one row give √(Σ D_g²), a coin deciding each record's rows together; a
    single record never suffices.  (A join that repeated each account 8–15 times put one
    positive account's 10 rows among the held-out 100, and "+10.0 pts" showed green under
    "Certified optimal": a stranger's table.  A bound of √(Σ D_g²) for every record called
    ten records right on 6 of their 10 rows each luck: a review.)"""
    y_test, pred_test = np.asarray(y_test).astype(int), np.asarray(pred_test).astype(int)
    if not len(y_test):
        return False
    majority = int(y_test.mean() > 0.5)
    differ = pred_test != majority
    right = (pred_test[differ] == y_test[differ]).astype(float)
    if groups is None:
        D = int(differ.sum())
        return 2 * float(right.sum()) - D > np.sqrt(D)
    codes = pd.factorize(np.asarray(groups, dtype=object)[differ])[0]
    S_g = np.bincount(codes, weights=2 * right - 1)  # 2R_g − D_g per record
    return float(S_g.sum()) > float(np.sqrt((S_g ** 2).sum()))


def gain_over_majority(y_test: np.ndarray, pred_test: np.ndarray,
                       groups: np.ndarray | None = None) -> tuple[float, bool]:
    """``(gain, clear)``: the held-out accuracy's gain over always predicting the majority
    class, in points rounded to one decimal, and whether it is clearly more than luck
    (a loss is always clear; :func:`clearly_above_majority`).  The Rule page's delta and
    ``rulecore learn``'s baseline line both say this."""
    y_test, pred_test = np.asarray(y_test).astype(int), np.asarray(pred_test).astype(int)
    majority = max(y_test.mean(), 1 - y_test.mean()) if len(y_test) else 1.0
    gain = round(100 * (float(np.mean(pred_test == y_test)) - majority), 1)
    return gain, gain < 0 or clearly_above_majority(y_test, pred_test, groups)


def shown_claim(claim: Finding, findings: list[Finding], y_test: np.ndarray,
                pred_test: np.ndarray, say_why: bool = False,
                groups: np.ndarray | None = None, guessed: bool = False) -> Finding:
    """The solver's claim as a user should see it: a certified rule is still not shown as a
    success next to a warning, nor when it is not clearly more accurate on held-out rows than
    always predicting the majority class (:func:`clearly_above_majority`; then it is "info":
    true, but not good news), nor when the target is a guess (``guessed``: a stranger's R
    export predicted its smoker column from its LDL, in green, where the LDL was the
    outcome).  With ``say_why`` and no warning to say it, the claim ends with the reason
    (:func:`not_a_success_words`): the Rule page showed it blue with no word why."""
    below = not clearly_above_majority(y_test, pred_test, groups)
    warned = any(f.level == "warning" for f in findings)
    if claim.level == "success" and (below or warned or guessed):
        why = (" Not shown as a success: "
               f"{not_a_success_words(findings, y_test, pred_test, groups, guessed)}."
               if say_why and (guessed or not warned) else "")
        return replace(claim, level="info", text=claim.text + why)
    return claim


def not_a_success_words(findings: list[Finding], y_test: np.ndarray,
                        pred_test: np.ndarray, groups: np.ndarray | None = None,
                        guessed: bool = False) -> str:
    """Why :func:`shown_claim` did not show a certified claim as a success, in words: a
    guessed target, its warnings, or a held-out gain over the majority class that luck can
    explain.  The command line said "see the warnings below" where there were none, and the
    app turned the claim blue with no word why, when only the gain was in doubt (a
    stranger's table: +0.3 points, within luck)."""
    if guessed:
        return ("the target is a guess, nothing in the table names the outcome: choose the "
                "column to predict")
    if any(f.level == "warning" for f in findings):
        return "see the warnings"
    y_test = np.asarray(y_test).astype(int)
    if not len(y_test):
        return "it has no held-out rows to be judged on"
    gain, _ = gain_over_majority(y_test, pred_test)
    records = "" if groups is None else \
        f", on {len(pd.unique(np.asarray(groups, dtype=object))):,} records held out whole"
    said = (f"on the held-out rows it is not clearly more accurate than always predicting "
            f"the majority class ({gain:+.1f} points, within what luck gives{records})")
    pred_test = np.asarray(pred_test).astype(int)
    if y_test.any() and pred_test.any() and 0 < y_test.mean() < 0.5:
        # a rare class's rule can find most of it and still not beat "never" on accuracy (a
        # stranger's 0.5 % fraud: 88 % found, 55 % of its picks right, +0.1 points): the
        # figures let the analyst judge it on the terms that matter to them
        said += (f"; it finds {_pct(pred_test[y_test == 1].mean())} of the rarer class's "
                 f"rows, and {_pct(y_test[pred_test == 1].mean())} of the rows it picks are "
                 "of that class")
    return said


def chance_margin(accuracy: float, n: float, other: float | None = None) -> float:
    """How far apart two held-out accuracies, ``accuracy`` and ``other`` (default the same),
    on the same ``n`` rows can be by chance: two standard errors of their difference,
    2 √((a (1 − a) + b (1 − b)) / n) (unpaired, so cautious).  The Compare page says it:
    0.73 to 0.79 on 52 rows were ranked to three decimals with no word of noise (a review).
    0 without rows."""
    other = accuracy if other is None else other
    if n <= 0 or not (np.isfinite(accuracy) and np.isfinite(other)):
        return 0.0
    return float(2 * np.sqrt((accuracy * (1 - accuracy) + other * (1 - other)) / n))


def close_to_best(accuracies: Mapping[str, float],
                  n: float) -> tuple[float, float, str | None, list[str]]:
    """Models within chance of the best on the same ``n`` held-out rows:
    ``(median accuracy, its margin, best, names)``, the margin :func:`chance_margin` at the
    median accuracy (the figure said), ``best`` the first model of the top accuracy, the
    names those tied with it or below it by at most that margin (a tie was never named: a
    review).  One margin, the one said: each pair's own margin, wider for a less accurate
    model, named one 0.070 below the best "within" a quoted 0.055 (a stranger's review).
    The best is returned apart so that the sentence names it: "A, B are within that of the
    best" left the best unnamed, and with five models tied a stranger read the one missing
    as the one outside the margin.  NaN accuracies are left out."""
    acc = {m: float(a) for m, a in accuracies.items() if np.isfinite(a)}
    if not acc:
        return np.nan, 0.0, None, []
    top, mid = max(acc.values()), float(np.median(list(acc.values())))
    margin = chance_margin(mid, n)
    first = next(m for m, a in acc.items() if a == top)
    close = [m for m, a in acc.items() if m != first and 0 <= top - a <= margin]
    return mid, margin, first, close


def effective_rows(groups: np.ndarray | None, n: int) -> float:
    """How many independent rows ``n`` held-out rows are worth for a standard error, where
    they were held out by whole records (``groups``: each row's record; None: ``n``).

    A record's rows may be right or wrong together, so an accuracy's variance is up to
    Kish's design effect larger: the worst case (each record's rows all right or all wrong)
    is an accuracy over records weighted by their sizes m_g, with effective size
    (Σ m_g)² / Σ m_g²: the number of records when they are of one size, ``n`` with one row
    each.  Cautious, like :func:`chance_margin`: a difference it calls clear is clear.  (The
    Compare and Reduction pages judged 40 accounts repeated 8–15 times as 400 independent
    rows, where the Rule page's own test counted records: a review.)"""
    if groups is None:
        return float(n)
    sizes = pd.Series(np.asarray(groups, dtype=object)).value_counts().to_numpy(float)
    return float(sizes.sum() ** 2 / (sizes ** 2).sum()) if len(sizes) else 0.0


def _rows_words(n: int, groups: np.ndarray | None) -> str:
    """``"1,200 test rows"``, or with records ``"1,200 test rows of 40 records held out
    whole"``."""
    if groups is None:
        return f"{n:,} test rows"
    return (f"{n:,} test rows of {pd.Series(np.asarray(groups, dtype=object)).nunique():,} "
            "records held out whole")


def chance_words(accuracies: Mapping[str, float], n: int,
                 groups: np.ndarray | None = None) -> str:
    """The Compare page's (and ``rulecore compare``'s) sentence on which models are within
    luck of the best on the same ``n`` test rows (:func:`close_to_best`), or "" when the
    margin is under 0.01.  With ``groups`` (each test row's record, where rows were held out
    by whole records) the margin is that of :func:`effective_rows`."""
    mid, noise, best, close = close_to_best(accuracies, effective_rows(groups, n))
    if best is None or noise < 0.01:
        return ""
    return (f"On {_rows_words(n, groups)} two accuracies near {mid:.2f} differ by chance by "
            f"up to about {noise:.3f} (two standard errors"
            + (", a record's rows counted as moving together" if groups is not None else "")
            + f"): {best} scores best; "
            + (f"{', '.join(close)} {'is' if len(close) == 1 else 'are'} within that of it."
               if close else "no other model is that close to it."))


def clear_change(accuracy: float, baseline: float, n: float) -> bool:
    """Whether a held-out accuracy differs from a baseline's on the same ``n`` rows by more
    than one standard error of the difference of two proportions,
    √((a(1 − a) + b(1 − b)) / n): the bar :func:`clearly_above_majority` sets, for two
    classifiers whose per-row answers are not at hand (the Reduction page: a reduced table
    at 0.778 against the full table's 0.756 on 180 rows, +4 rows, read as a green success).
    Unpaired, so it is cautious: a change it calls clear is clear.  Rows held out by whole
    records count as :func:`effective_rows`."""
    if n <= 0:
        return False
    se = chance_margin(accuracy, n, baseline) / 2  # one standard error, not two
    return bool(abs(accuracy - baseline) > max(se, 0.5 / n))


#: Runs both shorter than this are not compared: their ratio is the clock's noise (a review
#: saw "12.9× slower" in red for 0.00 s against 0.01 s).
QUICK_SECONDS = 0.05


def speed_words(baseline_seconds: float, seconds: float) -> str:
    """How a run compares with a baseline run: ``"3.3× faster"``, ``"3.3× slower"`` (never
    ``"0.3× faster"``), ``"about as fast"`` within 5 %, or ``"too fast to compare"`` when
    both took less than :data:`QUICK_SECONDS`, or one did and the other less than ten times
    that."""
    # one run in milliseconds beside another well under a second: the fixed costs (building
    # a model, starting a solver) are the whole difference (a review saw "57.5× slower" in
    # red for 0.00 s against 0.07 s, and "too fast to compare" for the same run an hour before)
    if not (baseline_seconds > 0 and seconds > 0) or \
            max(baseline_seconds, seconds) < QUICK_SECONDS or \
            (min(baseline_seconds, seconds) < QUICK_SECONDS and
             max(baseline_seconds, seconds) < 10 * QUICK_SECONDS):
        return "too fast to compare"
    ratio = baseline_seconds / seconds
    if abs(ratio - 1) < 0.05:
        return "about as fast"
    return f"{ratio:.1f}× faster" if ratio > 1 else f"{1 / ratio:.1f}× slower"
