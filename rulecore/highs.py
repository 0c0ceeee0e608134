"""One small door to HiGHS for every LP and MIP in rulecore.

:func:`solve` takes the model as arrays (CSC constraint matrix, bounds, costs), always with
a time limit, and returns a :class:`SolveResult` saying what happened: status, the incumbent
(if any), its objective, the best bound and the relative gap.  Nothing is built row by row in
Python.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time
from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp

from rulecore.exceptions import ParameterError

_LIBC = ctypes.CDLL(None)  # the C library, to flush C-level stdout (see new_highs)

_STATUS = {
    highspy.HighsModelStatus.kOptimal: "optimal",
    highspy.HighsModelStatus.kTimeLimit: "time_limit",
    highspy.HighsModelStatus.kInfeasible: "infeasible",
    highspy.HighsModelStatus.kUnbounded: "unbounded",
    highspy.HighsModelStatus.kUnboundedOrInfeasible: "infeasible",
    highspy.HighsModelStatus.kIterationLimit: "iteration_limit",
    highspy.HighsModelStatus.kInterrupt: "interrupted",
    highspy.HighsModelStatus.kModelEmpty: "optimal",
}


@dataclass
class SolveResult:
    """What a HiGHS run returned.

    Attributes
    ----------
    status : str
        ``optimal``, ``time_limit``, ``infeasible``, ``unbounded``, ... (HiGHS model status).
    x : ndarray of shape (n_cols,) or None
        The incumbent (primal solution); ``None`` when HiGHS found none.
    objective : float
        Objective of ``x`` (``nan`` without one).
    bound : float
        Best proven lower bound (the LP optimum for an LP, the dual bound for a MIP).
    gap : float
        ``(objective - bound) / max(|objective|, 1e-9)``; 0 when proven optimal.
    seconds : float
        Wall time of the run.
    mip : bool
        Whether integrality was imposed.
    row_dual : ndarray of shape (n_rows,) or None
        The LP's optimal row duals (``None`` for a MIP or an LP not solved to optimality);
        screening's lp-dual step turns them into bounds.
    """

    status: str
    x: np.ndarray | None
    objective: float
    bound: float
    gap: float
    seconds: float
    mip: bool
    row_dual: np.ndarray | None = None

    @property
    def has_solution(self) -> bool:
        return self.x is not None

    @property
    def summary(self) -> str:
        """One line for a person: ``optimal (gap 0.0 %, 0.12 s)``."""
        gap = f"gap {100 * self.gap:.2g} %" if np.isfinite(self.gap) else "no incumbent"
        return f"{self.status.replace('_', ' ')} ({gap}, {self.seconds:.2f} s)"


def new_highs() -> highspy.Highs:
    """A silent HiGHS instance.

    HiGHS 1.15+ prints its banner ("Running HiGHS ...") to the process's standard output when
    an instance is constructed, before any option can be set, so the command line's output
    started with it.  The C-level stdout is pointed at /dev/null for the construction only
    (and flushed before it is restored); then logging is switched off as usual.
    """
    sys.stdout.flush()
    saved, devnull = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        h = highspy.Highs()
        _LIBC.fflush(None)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
    h.setOptionValue("output_flag", False)
    return h


def solve(
    cost: np.ndarray,
    A: sp.spmatrix,
    row_lower: np.ndarray,
    row_upper: np.ndarray,
    col_lower: np.ndarray,
    col_upper: np.ndarray,
    integer: np.ndarray | None = None,
    *,
    time_limit: float = 60.0,
    mip_start: np.ndarray | None = None,
    mip_rel_gap: float = 1e-9,
    presolve: bool = True,
) -> SolveResult:
    """Minimise ``cost @ x`` s.t. ``row_lower <= A x <= row_upper``, bounds on ``x``.

    Parameters
    ----------
    cost : ndarray of shape (n,)
    A : sparse matrix of shape (m, n)
        Converted to CSC (HiGHS's column-wise form) if needed.
    row_lower, row_upper : ndarray of shape (m,)
        Use ``±inf`` for one-sided rows.
    col_lower, col_upper : ndarray of shape (n,)
    integer : bool ndarray of shape (n,), optional
        Which columns are integer; none means an LP.
    time_limit : float
        Seconds; the run stops there and reports ``time_limit`` with its incumbent.
    mip_start : ndarray of shape (n,), optional
        A feasible point handed to the MIP solver as its first incumbent.
    mip_rel_gap : float
        Relative gap at which the MIP counts as solved.
    presolve : bool
        Run HiGHS's presolve (its ``presolve`` option).
    """
    if not time_limit or time_limit <= 0:
        raise ParameterError("The time limit must be a positive number of seconds.")
    A = sp.csc_matrix(A, dtype=np.float64)
    A.sort_indices()
    m, n = A.shape
    if m == 0:
        # No constraints (e.g. screening removed every row's last column): each variable
        # sits at the bound its cost prefers; HiGHS would call the model empty.
        cost = np.asarray(cost, dtype=np.float64)
        x = np.where(cost >= 0, col_lower, col_upper).astype(np.float64)
        if not np.all(np.isfinite(x)):
            return SolveResult("unbounded", None, float("nan"), float("-inf"), float("inf"),
                               0.0, integer is not None)
        obj = float(cost @ x)
        return SolveResult("optimal", x, obj, obj, 0.0, 0.0,
                           integer is not None and bool(np.any(integer)), np.zeros(0))
    h = new_highs()
    h.setOptionValue("threads", 1)
    h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("random_seed", 0)
    if not presolve:
        h.setOptionValue("presolve", "off")
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, m
    lp.col_cost_ = np.asarray(cost, dtype=np.float64)
    lp.col_lower_ = np.asarray(col_lower, dtype=np.float64)
    lp.col_upper_ = np.asarray(col_upper, dtype=np.float64)
    lp.row_lower_ = np.asarray(row_lower, dtype=np.float64)
    lp.row_upper_ = np.asarray(row_upper, dtype=np.float64)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = A.indptr.astype(np.int32)
    lp.a_matrix_.index_ = A.indices.astype(np.int32)
    lp.a_matrix_.value_ = A.data
    is_mip = integer is not None and bool(np.any(integer))
    if is_mip:
        lp.integrality_ = [highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous
                           for i in np.asarray(integer, dtype=bool)]
        h.setOptionValue("mip_rel_gap", float(mip_rel_gap))
    h.passModel(lp)
    if is_mip and mip_start is not None:
        sol = highspy.HighsSolution()
        sol.col_value = np.asarray(mip_start, dtype=np.float64)
        sol.value_valid = True
        h.setSolution(sol)
    t0 = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - t0
    model_status = h.getModelStatus()
    status = _STATUS.get(model_status, str(model_status).split(".")[-1].lstrip("k").lower())
    info = h.getInfo()
    has_x = info.primal_solution_status == 2  # kSolutionStatusFeasible
    x = np.asarray(h.getSolution().col_value, dtype=np.float64) if has_x else None
    objective = float(info.objective_function_value) if has_x else float("nan")
    row_dual = None
    if is_mip:
        bound = float(info.mip_dual_bound)
        gap = float(info.mip_gap) if has_x else float("inf")
        if status == "optimal":
            gap = max(0.0, min(gap, (objective - bound) / max(abs(objective), 1e-9)))
    else:
        bound = objective if status == "optimal" else float("-inf")
        gap = 0.0 if status == "optimal" else float("inf")
        if status == "optimal":
            row_dual = np.asarray(h.getSolution().row_dual, dtype=np.float64)
    return SolveResult(status=status, x=x, objective=objective, bound=bound, gap=gap,
                       seconds=seconds, mip=is_mip, row_dual=row_dual)
