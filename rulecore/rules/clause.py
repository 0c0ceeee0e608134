"""Learn one clause: the public entry point every rule model goes through.

:func:`learn_clause` takes a term matrix and 0/1 labels and returns the chosen terms with what
the solver can prove about them (objective, bound, gap, status) and what screening removed.
The single rule, each clause of a rule set, the λ path, the sweeps, the app and the command
line all call it; nothing else builds a clause problem.  Pipeline (``docs/architecture.md``)::

    terms (rules.terms) → problem (rules.problem) → screening (rules.screening)
        → solvers (rules.solvers, HiGHS through rulecore.highs) → ClauseResult

Math in ``docs/clause.md`` and ``docs/screening.md``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from rulecore import highs
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.problem import ClauseProblem, Constraints, clause_problem, merge_terms
from rulecore.rules.rule import Rule
from rulecore.rules.screening import ScreeningReport, screen
from rulecore.rules.solvers import restrict_constraints, solve_clause, solve_clause_exact
from rulecore.settings import (
    DEFAULT_LAM,
    DEFAULT_SCREENING,
    DEFAULT_TIME_LIMIT,
    check_clause_options,
)


@dataclass
class ClauseResult:
    """One learned clause and its certificate.

    Attributes
    ----------
    w : bool ndarray of shape (n_terms,)
        The chosen term columns.
    rule_type : {"and", "or"}
    objective : float
        The clause's objective counted directly: #conditions + λ (false positives + Σ over
        positives of the conditions they violate), with weights (``docs/clause.md``); under
        ``error="exact"``, #conditions + λ (false positives + false negatives).
    bound : float
        A proven lower bound on the optimum over consistent clauses.
    status : str
        HiGHS status of the main solve (``optimal``, ``time_limit``, ...).
    method : str
        ``"mip"``, ``"lp"``, ``"lp-randomized"`` or ``"enumeration"`` (the small-clause
        search proved the optimum without a MIP); ``"beam+mip"`` or ``"beam"`` under the
        exact 0/1 error.
    seconds : float
        Time of the whole call: problem, screening and solve.
    solve_seconds : float
        Time of the HiGHS run (or of the search that replaced it).
    lp_value : float
        The LP relaxation's value (``nan`` for the MIP).
    screening : ScreeningReport or None
        What certified screening removed, and why.
    problem : ClauseProblem
        The problem that was solved (rows merged).
    constraints : Constraints
        The analyst's constraints it was solved under (``bound`` is then a bound of the
        constrained optimum).
    error : {"hamming", "exact"}
        How errors were counted in ``objective`` and ``bound``.
    """

    w: np.ndarray
    rule_type: str
    objective: float
    bound: float
    status: str
    method: str
    seconds: float
    solve_seconds: float
    lp_value: float
    screening: ScreeningReport | None
    problem: ClauseProblem
    constraints: Constraints = Constraints()
    error: str = "hamming"

    @property
    def terms(self) -> np.ndarray:
        """Indices of the chosen term columns, shape (n_chosen,)."""
        return np.flatnonzero(self.w)

    @property
    def gap(self) -> float:
        """Relative gap ``(objective − bound) / objective`` (0 when proven optimal)."""
        return max(0.0, (self.objective - self.bound) / max(abs(self.objective), 1e-9))

    @property
    def optimal(self) -> bool:
        """Proven optimal over the consistent clauses (gap below 1e-9)."""
        return self.gap < 1e-9

    def fires(self, B: np.ndarray) -> np.ndarray:
        """Where the clause says "yes" on term matrix ``B``: bool, shape (n_samples,)."""
        sel = np.asarray(B, dtype=bool)[:, self.w]
        return sel.all(axis=1) if self.rule_type == "and" else sel.any(axis=1)

    def rule(self, terms: list, target: str = "target", positive: Any = 1) -> Rule:
        """The clause as a :class:`~rulecore.rules.rule.Rule` over ``terms`` (the binarizer's)."""
        return Rule(tuple(terms[j] for j in self.terms), self.rule_type, target=target,
                    positive=positive)


def learn_clause(
    B: np.ndarray,
    y: np.ndarray,
    *,
    lam: float = DEFAULT_LAM,
    rule_type: str = "and",
    sample_weight: np.ndarray | None = None,
    screening: str = DEFAULT_SCREENING,
    solver: str = "mip",
    time_limit: float = DEFAULT_TIME_LIMIT,
    terms: Any = None,
    cliques: list[np.ndarray] | None = None,
    covers: list[np.ndarray] | None = None,
    feature_of: np.ndarray | None = None,
    mip_start: np.ndarray | None = None,
    random_state: int | np.random.Generator | None = None,
    constraints: Constraints | None = None,
    cutoff: float | None = None,
    error: str = "hamming",
    prove: bool = True,
) -> ClauseResult:
    """Learn one AND- (or OR-) clause over the columns of a term matrix.

    Builds the problem (:func:`problem_of`) and solves it (:func:`solve_problem`).

    Parameters
    ----------
    B : bool ndarray of shape (n_samples, n_terms)
        Term matrix: ``B[i, j]`` says whether row i meets term j.
    y : ndarray of shape (n_samples,)
        0/1 labels; the clause says "yes" to class 1.
    lam : float, default=1
        λ, the weight of errors against conditions.
    rule_type : {"and", "or"}, default="and"
    sample_weight : ndarray of shape (n_samples,), optional
        Per-row weights (class weights already folded in); integer weights act exactly like
        repeated rows.
    screening : {"none", "basic", "enhanced"}, default="enhanced"
        Certified screening before the solve: removes only terms in no optimal clause.
    solver : {"mip", "lp", "lp-randomized"}, default="mip"
    time_limit : float, default=30
        Seconds for each HiGHS run; a stopped MIP keeps its incumbent and reports its gap.
    terms : Binarizer, optional
        The fitted binarizer that made ``B``: supplies the conflict cliques and covers (so the
        clause is consistent) and each term's column, unless given explicitly.
    cliques, covers : list of int ndarray, optional
        Conflict cliques and covers over the columns of ``B`` (in the AND or OR view asked
        for); without them and without ``terms`` every clause is allowed.
    feature_of : ndarray of shape (n_terms,), optional
        The input column of each term, for screening's dominance test.
    mip_start : bool ndarray of shape (n_terms,), optional
        A clause to start the MIP from.
    random_state : int, optional
        Seed of ``"lp-randomized"``.
    constraints : Constraints, optional
        Features the clause must use, must not use, and a maximum number of conditions
        (:meth:`Constraints.of`); the result is the certified optimum under them.  Required
        features and the maximum are MIP rows, so they need ``solver="mip"`` and skip
        screening (its proofs are about the unconstrained problem); forbidden features are
        removed before screening, which stays exact (``docs/clause.md``).
    cutoff : float, optional
        Only a clause of objective below ``cutoff`` is wanted (set covering's later clauses:
        the value of adding none).  Screening compares against it and the MIP prunes at it;
        when no clause is below it the status is ``"cutoff"``, a proof.  Unconstrained MIP
        only.
    error : {"hamming", "exact"}, default="hamming"
        How a wrong row is counted.  ``"hamming"``: the BCS paper's surrogate, a positive once
        per condition it fails (a linear MIP with a strong LP relaxation: screened, solved
        and usually proved optimal).  ``"exact"``: once, as accuracy counts it; solved by beam
        search and then the MIP of :func:`~rulecore.rules.solvers.solve_clause_exact`, which
        proves the optimum less often (``status``, ``bound``).  No screening, no ``require``.
    prove : bool, default=True
        Under ``error="exact"``: run the MIP after the beam search (``False``: beam search
        only, as inner cross-validation fits do).

    Returns
    -------
    ClauseResult

    Raises
    ------
    ParameterError
        An option out of range (checked once, in :func:`solve_problem`), or constraints that
        no rule can meet.
    DataError
        No row with a positive weight, or ``B`` and ``y`` of different lengths.
    """
    pr = problem_of(B, y, lam=lam, rule_type=rule_type, sample_weight=sample_weight,
                    terms=terms, cliques=cliques, covers=covers, feature_of=feature_of)
    return solve_problem(pr, screening=screening, solver=solver, time_limit=time_limit,
                         mip_start=mip_start, random_state=random_state,
                         constraints=constraints, cutoff=cutoff, error=error, prove=prove)


def problem_of(B: np.ndarray, y: np.ndarray, *, lam: float = DEFAULT_LAM,
               rule_type: str = "and", sample_weight: np.ndarray | None = None,
               terms: Any = None, cliques: list[np.ndarray] | None = None,
               covers: list[np.ndarray] | None = None,
               feature_of: np.ndarray | None = None) -> ClauseProblem:
    """The clause problem of ``B`` and ``y`` (:func:`~rulecore.rules.problem.clause_problem`),
    with the conflicts and term columns taken from the binarizer ``terms`` when given."""
    if terms is not None:
        cliques = terms.conflict_cliques(rule_type) if cliques is None else cliques
        covers = terms.conflict_covers(rule_type) if covers is None else covers
        if feature_of is None:
            feature_of = np.array([t.feature for t in terms.terms_], dtype=object)
    B = np.asarray(B, dtype=bool)
    if len(y) != B.shape[0]:
        raise DataError(f"The term matrix has {B.shape[0]} rows but y has {len(y)}.")
    return clause_problem(B, y, lam=lam, rule_type=rule_type, sample_weight=sample_weight,
                          cliques=cliques, covers=covers, feature_of=feature_of)


def screen_problem(pr: ClauseProblem, level: str = "enhanced", *,
                   unsafe_pairwise: bool = False, time_limit: float = DEFAULT_TIME_LIMIT,
                   diagnostics: bool = True) -> ScreeningReport:
    """Certified screening of a clause problem (:func:`~rulecore.rules.screening.screen`),
    with the per-test diagnostics the Screening page and ``rulecore screen`` show."""
    check_clause_options(lam=pr.lam, rule_type=pr.rule_type, solver="mip", screening=level,
                         time_limit=time_limit)
    return screen(pr.A, pr.y, pr.lam, weights=pr.d, level=level, feature_of=pr.feature_of,
                  unsafe_pairwise=unsafe_pairwise, time_limit=float(time_limit),
                  diagnostics=diagnostics, cliques=pr.cliques, covers=pr.covers)


def restricted(pr: ClauseProblem, cols: np.ndarray) -> ClauseProblem:
    """The same problem on the term columns ``cols`` only (a forbidden feature's terms
    removed): cliques and covers renumbered, a cover dropped when part of it is gone (it can
    no longer be full)."""
    cliques, covers = restrict_constraints(pr.cliques, cols, pr.n_terms, pr.covers)
    feature_of = None if pr.feature_of is None else np.asarray(pr.feature_of)[cols]
    return ClauseProblem(pr.A[:, cols], pr.y, pr.d, pr.lam, pr.rule_type, cliques, covers,
                         feature_of, pr.n_input_rows)


def solve_problem(pr: ClauseProblem, *, screening: str = DEFAULT_SCREENING,
                  solver: str = "mip", time_limit: float = DEFAULT_TIME_LIMIT,
                  mip_start: np.ndarray | None = None,
                  random_state: int | np.random.Generator | None = None,
                  constraints: Constraints | None = None,
                  cutoff: float | None = None, error: str = "hamming",
                  prove: bool = True) -> ClauseResult:
    """Screen (unless ``screening="none"``) and solve a clause problem; options as in
    :func:`learn_clause`.  This is where every clause option is validated."""
    check_clause_options(lam=pr.lam, rule_type=pr.rule_type, solver=solver,
                         screening=screening, time_limit=time_limit, error=error)
    if len(pr.y) == 0:
        raise DataError("Every row has weight 0: there is nothing to learn from.")
    constraints = constraints or Constraints()
    if cutoff is not None and (constraints or solver != "mip"):
        raise ParameterError("A cutoff is for the unconstrained exact solver (solver='mip').")
    if constraints:
        if constraints.in_solve and solver != "mip":
            raise ParameterError("Required features and a maximum number of conditions are "
                                 "constraints of the exact solver: choose solver='mip'.")
        allowed, needed = constraints.columns(pr.feature_of, pr.n_terms)
        if not allowed.all():  # forbidden features: the same problem on fewer columns
            cols = np.flatnonzero(allowed)
            pos = np.full(pr.n_terms, -1, dtype=np.int64)
            pos[cols] = np.arange(len(cols))
            start = None if mip_start is None else np.asarray(mip_start, dtype=bool)[cols]
            res = solve_problem(restricted(pr, cols), screening=screening, solver=solver,
                                time_limit=time_limit, mip_start=start,
                                random_state=random_state,
                                constraints=Constraints(constraints.require, (),
                                                        constraints.max_conditions),
                                error=error, prove=prove)
            w = np.zeros(pr.n_terms, dtype=bool)
            w[cols] = res.w
            return ClauseResult(w=w, rule_type=res.rule_type,
                                objective=pr.objective(w, error), bound=res.bound,
                                status=res.status, method=res.method, seconds=res.seconds,
                                solve_seconds=res.solve_seconds, lp_value=res.lp_value,
                                screening=res.screening, problem=pr, constraints=constraints,
                                error=error)
        if constraints.in_solve:
            screening = "none"  # its certificates are about the unconstrained optimum
    else:
        needed = []
    if error == "exact":
        if solver != "mip" or cutoff is not None or needed:
            raise ParameterError("Errors counted once per row (the exact 0/1 error, "
                                 "error='exact') are solved by beam search and the MIP "
                                 "(solver='mip'), without required columns or a cutoff. Count "
                                 "errors per failed condition (error='hamming') to use those.")
        sol = solve_clause_exact(pr.A, pr.y, pr.lam, pr.d, time_limit=float(time_limit),
                                 cliques=pr.cliques, covers=pr.covers,
                                 max_terms=constraints.max_conditions, prove=prove)
        w, objective = sol.w, sol.objective
        if sol.status != "optimal":  # (an optimum has no term to spare)
            w = merge_terms(pr, w, error)
            objective = min(objective, pr.objective(w, error))
        return ClauseResult(w=w, rule_type=pr.rule_type, objective=objective,
                            bound=sol.bound, status=sol.status,
                            method="beam" if sol.status == "not proved" else "beam+mip",
                            seconds=sol.seconds, solve_seconds=sol.seconds,
                            lp_value=float("nan"), screening=None, problem=pr,
                            constraints=constraints, error=error)
    t0 = time.perf_counter()
    columns, report = None, None
    if screening != "none":
        report = screen(pr.A, pr.y, pr.lam, weights=pr.d, level=screening,
                        feature_of=pr.feature_of, time_limit=float(time_limit),
                        diagnostics=False, cliques=pr.cliques, covers=pr.covers, upper=cutoff)
        columns = np.flatnonzero(report.kept)
        if mip_start is None:
            mip_start = report.incumbent
    sol = solve_clause(pr.A, pr.y, pr.lam, pr.d, solver=solver, time_limit=float(time_limit),
                       random_state=random_state, columns=columns, mip_start=mip_start,
                       cliques=pr.cliques, covers=pr.covers, require=needed,
                       max_terms=constraints.max_conditions, cutoff=cutoff)
    res: highs.SolveResult = sol.result
    w, objective = sol.w, sol.objective
    if (res.status != "optimal" or solver != "mip") and w is not None and w.sum() >= 2:
        # a clause found without proof, or rounded from an LP: terms one term says
        w = merge_terms(pr, w)
        objective = min(objective, pr.objective(w))
    return ClauseResult(w=w, rule_type=pr.rule_type, objective=objective,
                        bound=sol.bound, status=res.status, method=sol.method,
                        seconds=time.perf_counter() - t0, solve_seconds=res.seconds,
                        lp_value=sol.lp_value, screening=report, problem=pr,
                        constraints=constraints)
