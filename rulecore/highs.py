"""One small door to HiGHS for every LP and MIP in rulecore.

:class:`Model` holds one problem,

    minimise ``cost @ x``  s.t.  ``row_lower <= A x <= row_upper``,
                                 ``col_lower <= x <= col_upper``,  ``x_j`` integer where flagged,

built by adding blocks of columns and of rows (sparse matrices, never entry by entry in Python),
and solves it as often as needed, always with a time limit.  Each solve returns a
:class:`SolveResult` saying what happened: status, the incumbent (if any), its objective, the
best bound and the relative gap.  :func:`solve` is the one-shot form for a model given as arrays.

This is the only module that imports ``highspy``: options, status codes and the banner that
HiGHS prints are dealt with here once.
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

from rulecore.encode import check_seconds
from rulecore.exceptions import SolverError

_LIBC = ctypes.CDLL(None)  # the C library, to flush C-level stdout (see new_highs)

#: Rows above which a MIP should be solved without HiGHS's presolve, which does not watch
#: the time limit: on 200,000 table rows it ran four 30 s solves of the alternatives' MIP to
#: 342 s, and the rule set's master MIP on a million rows past ten minutes.  Below it presolve
#: is quick and often helps.
PRESOLVE_MAX_ROWS = 20_000

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
_INTEGER = np.uint8(int(highspy.HighsVarType.kInteger))


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


def _vector(values, size: int, name: str) -> np.ndarray:
    """``values`` as a float64 vector of length ``size`` (a scalar is repeated)."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim == 0:
        return np.full(size, float(v))
    if v.shape != (size,):
        raise ValueError(f"{name} has shape {v.shape}, expected ({size},)")
    return v


def _block(A, shape: tuple[int, int], name: str) -> sp.spmatrix | sp.sparray | None:
    """``A`` as a sparse float64 matrix of ``shape``; ``None`` for no entries at all."""
    if A is None:
        return None
    A = A if sp.issparse(A) else sp.csr_matrix(np.atleast_2d(np.asarray(A, dtype=np.float64)))
    if A.shape != shape:
        raise ValueError(f"{name} has shape {A.shape}, expected {shape}")
    return A


class Model:
    """An LP or MIP built by blocks of columns and rows, solved by HiGHS as often as needed.

    The problem is ``min cost @ x  s.t.  row_lower <= A x <= row_upper`` with bounds on ``x``
    and optional integrality.  Rows and columns can be added between solves: the outer
    approximation of :mod:`rulecore.sparse` adds a batch of cuts, hands over a MIP start and
    solves again.

    Everything added before the first solve is handed to HiGHS in one ``passModel`` (the
    fastest way in for a model built at once, and the call the arrays interface always made);
    after a solve, additions go straight to the HiGHS instance (``addCols`` / ``addRows``),
    which keeps the model, so only the new rows and columns are copied.

    Examples
    --------
    >>> m = Model()
    >>> m.add_columns([-1.0, -1.0], 0.0, 1.0, integer=True)
    array([0, 1])
    >>> m.add_rows([-np.inf], [1.5], [[1.0, 1.0]])
    array([0])
    >>> m.solve(time_limit=5.0).objective
    -1.0
    """

    def __init__(self) -> None:
        self._h: highspy.Highs | None = None  # created (and filled) at the first solve
        # columns, all of them, kept here too: the no-row shortcut and the MIP flag need them
        self._cost: list[np.ndarray] = []
        self._col_lower: list[np.ndarray] = []
        self._col_upper: list[np.ndarray] = []
        self._integer: list[np.ndarray] = []
        self._n = 0
        self._m = 0
        # rows and matrix blocks not yet in HiGHS (only before the first solve)
        self._row_lower: list[np.ndarray] = []
        self._row_upper: list[np.ndarray] = []
        self._blocks: list[tuple[int, int, sp.spmatrix]] = []  # (first row, first col, block)
        self._start: np.ndarray | None = None

    # --- building ---------------------------------------------------------------------------
    @property
    def n_cols(self) -> int:
        return self._n

    @property
    def n_rows(self) -> int:
        return self._m

    @property
    def is_mip(self) -> bool:
        """Whether any column is integer (then :meth:`solve` runs the MIP solver)."""
        return any(bool(i.any()) for i in self._integer)

    def add_columns(self, cost, lower, upper, integer=None, A=None) -> np.ndarray:
        """Append ``k`` columns (variables).

        Parameters
        ----------
        cost : array-like of shape (k,)
        lower, upper : float or array-like of shape (k,)
            Bounds; ``±inf`` for none.
        integer : bool or bool array-like of shape (k,), optional
            Which new columns are integer; none means all continuous.
        A : sparse matrix or array-like of shape (n_rows, k), optional
            Entries of the new columns in the rows already added (CSC is cheapest); none means
            the columns appear in no row yet.

        Returns
        -------
        ndarray of shape (k,)
            Indices of the new columns.
        """
        cost = np.asarray(cost, dtype=np.float64).ravel()
        k = len(cost)
        lower, upper = _vector(lower, k, "lower"), _vector(upper, k, "upper")
        integer = (np.zeros(k, dtype=bool) if integer is None
                   else np.broadcast_to(np.asarray(integer, dtype=bool), (k,)).copy())
        A = _block(A, (self._m, k), "A")
        if self._h is None:
            if A is not None and A.nnz:
                self._blocks.append((0, self._n, A))
        else:
            Ac = sp.csc_matrix(A if A is not None else (self._m, k), dtype=np.float64)
            Ac.sort_indices()
            self._h.addCols(k, cost, lower, upper, Ac.nnz, Ac.indptr[:-1].astype(np.int32),
                            Ac.indices.astype(np.int32), Ac.data)
            if integer.any():
                idx = np.flatnonzero(integer).astype(np.int32)
                self._h.changeColsIntegrality(len(idx), idx + self._n,
                                              np.full(len(idx), _INTEGER))
        self._cost.append(cost)
        self._col_lower.append(lower)
        self._col_upper.append(upper)
        self._integer.append(integer)
        self._n += k
        return np.arange(self._n - k, self._n)

    def add_rows(self, lower, upper, A=None) -> np.ndarray:
        """Append ``r`` rows (constraints ``lower <= A x <= upper``).

        Parameters
        ----------
        lower, upper : float or array-like of shape (r,)
            Row bounds; ``±inf`` for a one-sided row, equal for an equality.
        A : sparse matrix or array-like of shape (r, n_cols), optional
            The rows' entries over the columns already added (CSR is cheapest); none means
            empty rows, to be filled by the ``A`` of columns added later.

        Returns
        -------
        ndarray of shape (r,)
            Indices of the new rows.
        """
        if A is not None and not sp.issparse(A):
            A = np.atleast_2d(np.asarray(A, dtype=np.float64))
        r = A.shape[0] if A is not None else max(np.size(lower), np.size(upper))
        lower, upper = _vector(lower, r, "lower"), _vector(upper, r, "upper")
        A = _block(A, (r, self._n), "A")
        if self._h is None:
            self._row_lower.append(lower)
            self._row_upper.append(upper)
            if A is not None and A.nnz:
                self._blocks.append((self._m, 0, A))
        else:
            Ar = sp.csr_matrix(A if A is not None else (r, self._n), dtype=np.float64)
            Ar.sort_indices()
            self._h.addRows(r, lower, upper, Ar.nnz, Ar.indptr[:-1].astype(np.int32),
                            Ar.indices.astype(np.int32), Ar.data)
        self._m += r
        return np.arange(self._m - r, self._m)

    def set_start(self, x) -> None:
        """Hand ``x`` (shape (n_cols,)) to the next MIP solve as its first incumbent.

        Used by the next :meth:`solve` only (adding rows invalidates a start in HiGHS, so a
        re-solve after new cuts needs a new one); ignored for an LP.
        """
        x = np.asarray(x, dtype=np.float64)
        if x.shape != (self._n,):
            raise ValueError(f"the start has shape {x.shape}, expected ({self._n},)")
        self._start = x.copy()

    def _run(self, start: np.ndarray | None) -> tuple:
        """One ``run`` of HiGHS from ``start`` (MIP only, may be None) with the options set:
        ``(seconds, status, info, x or None, objective or nan)``."""
        h = self._h
        if start is not None:
            sol = highspy.HighsSolution()
            sol.col_value = start
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
        return seconds, status, info, x, objective

    def _value(self, x: np.ndarray) -> float:
        """``cost @ x``: the objective of ``x`` counted here, not as HiGHS reports it."""
        return float(np.concatenate(self._cost) @ x) if self._n else 0.0

    def _is_value_of(self, x: np.ndarray, objective: float) -> bool:
        """Whether ``objective`` is ``x``'s objective (to HiGHS's feasibility tolerances)."""
        return abs(self._value(x) - objective) <= 1e-6 * max(1.0, abs(objective))

    def _pass_model(self) -> None:
        """Create the HiGHS instance and hand it everything added so far in one ``passModel``."""
        m, n = self._m, self._n
        if len(self._blocks) == 1 and self._blocks[0][2].shape == (m, n):
            A = sp.csc_matrix(self._blocks[0][2], dtype=np.float64)  # the arrays interface
        else:
            coo = [(b.tocoo(), r0, c0) for r0, c0, b in self._blocks]
            rows = np.concatenate([c.row + r0 for c, r0, _ in coo] + [np.zeros(0, np.int64)])
            cols = np.concatenate([c.col + c0 for c, _, c0 in coo] + [np.zeros(0, np.int64)])
            vals = np.concatenate([c.data for c, _, _ in coo] + [np.zeros(0)])
            A = sp.csc_matrix((vals.astype(np.float64), (rows, cols)), shape=(m, n))
        A.sort_indices()
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = n, m
        lp.col_cost_ = np.concatenate(self._cost) if n else np.zeros(0)
        lp.col_lower_ = np.concatenate(self._col_lower) if n else np.zeros(0)
        lp.col_upper_ = np.concatenate(self._col_upper) if n else np.zeros(0)
        lp.row_lower_ = np.concatenate(self._row_lower) if m else np.zeros(0)
        lp.row_upper_ = np.concatenate(self._row_upper) if m else np.zeros(0)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = A.indptr.astype(np.int32)
        lp.a_matrix_.index_ = A.indices.astype(np.int32)
        lp.a_matrix_.value_ = A.data
        if self.is_mip:
            lp.integrality_ = [highspy.HighsVarType.kInteger if i
                               else highspy.HighsVarType.kContinuous
                               for i in np.concatenate(self._integer)]
        self._h = new_highs()
        self._h.passModel(lp)
        self._row_lower, self._row_upper, self._blocks = [], [], []  # HiGHS has them now

    # --- solving ----------------------------------------------------------------------------
    def solve(self, *, time_limit: float, mip_rel_gap: float = 1e-9, mip_abs_gap: float = 1e-6,
              presolve: bool = True, cutoff: float | None = None) -> SolveResult:
        """Solve the model as it stands (again, after additions) and say what happened.

        Parameters
        ----------
        time_limit : float
            Seconds, required and positive; the run stops there and reports ``time_limit``
            with its incumbent.
        mip_rel_gap, mip_abs_gap : float
            Relative and absolute gaps at which a MIP counts as solved (HiGHS's defaults are
            1e-4 and 1e-6; rulecore wants proofs, hence the small relative default).
        presolve : bool
            Run HiGHS's presolve (its ``presolve`` option).
        cutoff : float, optional
            MIP only: look for solutions with objective below ``cutoff`` only (HiGHS's
            ``objective_bound``, which prunes every node whose bound reaches it).  When there
            is none the status is ``"cutoff"``: a proof that the optimum is ≥ ``cutoff``,
            usually much faster than finding the optimum.

        Returns
        -------
        SolveResult
            ``x`` has shape (n_cols,); ``row_dual`` shape (n_rows,) for an LP solved to
            optimality.
        """
        check_seconds(time_limit)
        is_mip = self.is_mip
        if self._m == 0:
            # No constraints (e.g. screening removed every row's last column): each variable
            # sits at the bound its cost prefers; HiGHS would call the model empty.
            cost = np.concatenate(self._cost) if self._n else np.zeros(0)
            lower = np.concatenate(self._col_lower) if self._n else np.zeros(0)
            upper = np.concatenate(self._col_upper) if self._n else np.zeros(0)
            x = np.where(cost >= 0, lower, upper).astype(np.float64)
            if not np.all(np.isfinite(x)):
                return SolveResult("unbounded", None, float("nan"), float("-inf"), float("inf"),
                                   0.0, is_mip)
            obj = float(cost @ x)
            return SolveResult("optimal", x, obj, obj, 0.0, 0.0, is_mip, np.zeros(0))
        if self._h is None:
            self._pass_model()
        h = self._h
        # one thread and a fixed seed: the same model gives the same answer on every machine
        h.setOptionValue("threads", 1)
        h.setOptionValue("time_limit", float(time_limit))
        h.setOptionValue("random_seed", 0)
        h.setOptionValue("presolve", "choose" if presolve else "off")
        start, self._start = (self._start if is_mip else None), None
        if is_mip:
            h.setOptionValue("mip_rel_gap", float(mip_rel_gap))
            h.setOptionValue("mip_abs_gap", float(mip_abs_gap))
            h.setOptionValue("objective_bound", float(cutoff) if cutoff is not None
                             else highspy.kHighsInf)
        seconds, status, info, x, objective = self._run(start)
        if is_mip and x is not None and not self._is_value_of(x, objective):
            # HiGHS 1.16 with presolve and a start can return the start as its solution
            # beside another point's objective and bound, and call that optimal (an
            # alternatives MIP of 14 rows ranked a worse rule first: tests/test_highs.py).
            # Without presolve the same model is solved right, so it runs again so.
            left = float(time_limit) - seconds
            if left <= 0:  # no time to run again: the point's own value, nothing proved
                status, objective = "time_limit", self._value(x)
            else:
                h.setOptionValue("presolve", "off")
                h.setOptionValue("time_limit", left)
                more, status, info, x, objective = self._run(start)
                seconds += more
            if x is not None and not self._is_value_of(x, objective):
                raise SolverError(
                    f"HiGHS returned a solution whose objective ({self._value(x):.6g}) is not "
                    f"the one it reported ({objective:.6g}); nothing it says can be trusted.")
        row_dual = None
        if is_mip and cutoff is not None and status == "infeasible":
            # every node pruned by the cutoff: no solution below it (the model itself is
            # feasible for the callers that use a cutoff, e.g. the empty clause in pricing)
            status, bound = "cutoff", float(cutoff)
            gap = float("inf")
        elif is_mip:
            bound = float(info.mip_dual_bound)
            # the documented gap of the point returned (HiGHS's own is the same formula)
            gap = (max(0.0, (objective - bound) / max(abs(objective), 1e-9))
                   if x is not None else float("inf"))
        else:
            bound = objective if status == "optimal" else float("-inf")
            gap = 0.0 if status == "optimal" else float("inf")
            if status == "optimal":
                row_dual = np.asarray(h.getSolution().row_dual, dtype=np.float64)
        return SolveResult(status=status, x=x, objective=objective, bound=bound, gap=gap,
                           seconds=seconds, mip=is_mip, row_dual=row_dual)


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
    cutoff: float | None = None,
) -> SolveResult:
    """Minimise ``cost @ x`` s.t. ``row_lower <= A x <= row_upper``, bounds on ``x``.

    A :class:`Model` built in one go and solved once.

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
    cutoff : float, optional
        MIP only: as in :meth:`Model.solve` (status ``"cutoff"``: nothing below it).
    """
    check_seconds(time_limit)  # before any work, as the model would
    A = sp.csc_matrix(A, dtype=np.float64)
    model = Model()
    model.add_rows(np.asarray(row_lower, dtype=np.float64).reshape(-1),
                   np.asarray(row_upper, dtype=np.float64).reshape(-1))
    model.add_columns(cost, col_lower, col_upper, integer, A)
    if mip_start is not None:
        model.set_start(mip_start)
    return model.solve(time_limit=time_limit, mip_rel_gap=mip_rel_gap, presolve=presolve,
                       cutoff=cutoff)
