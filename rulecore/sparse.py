"""Exact sparse SVM and sparse logistic regression by outer approximation (docs/sparse.md).

Solves, for labels ``y ∈ {−1, +1}`` and standardised features ``X`` (n × p),

    min_{‖w‖₀ ≤ k, b}  Σ_i ℓ(y_i, wᵀx_i + b) + ‖w‖² / (2γ)

as the binary convex problem ``min_{s ∈ {0,1}^p, Σs ≤ k} c(s)`` of Bertsimas, Pauphilet and
Van Parys (papers/sparse-classification-…, Theorem 2.4), where ``c(s)`` is the regularised
classifier restricted to the support ``s``.

Dual parametrisation used throughout.  Write the dual variable as ``α = −y ∘ t`` with
``t ∈ [0, 1]^n``; for both losses the conjugate term only depends on ``t``:

* hinge ``ℓ(y, u) = max(0, 1 − y u)``:          ``−Σ ℓ̂(y_i, α_i) = Σ t_i``
* logistic ``ℓ(y, u) = log(1 + exp(−y u))``:    ``−Σ ℓ̂(y_i, α_i) = Σ H(t_i)``,
  ``H(t) = −t log t − (1 − t) log(1 − t)`` (entropy in nats)

and with ``z = Xᵀ(y ∘ t)`` (so ``X_jᵀα = −z_j``)

    c(s) = max_t  h(t) − (γ/2) Σ_j s_j z_j²      s.t.  Σ_i y_i t_i = 0  (only with an intercept)

Any feasible ``t`` therefore gives the valid cut ``c(s') ≥ h(t) − (γ/2) Σ_j s'_j z_j²`` for every
support ``s'``, tight at ``s`` when ``t`` is the dual optimum at ``s`` (docs/sparse.md).
Primal from dual: ``w = γ X_Sᵀ(y ∘ t)``; dual from primal: ``t_i = −y_i ∂ℓ/∂u(u_i)``.

The master problem ``min η  s.t. η ≥ cut_t(s), Σ s = k, s binary`` is one HiGHS MIP (a
:class:`rulecore.highs.Model`) re-solved after each batch of new cuts with the incumbent as a MIP
start (multi-tree outer approximation; HiGHS has no usable lazy-constraint callback).  ``c`` is
non-increasing in ``s`` (a larger support can only lower the minimum), so ``Σ s = k`` loses
nothing against ``Σ s ≤ k``.
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sparse
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted, check_random_state

from rulecore.encode import (
    check_memory,
    check_seconds,
    check_seed,
    dense_bytes,
    numbers_only,
    require_bool,
    validated,
)
from rulecore.exceptions import DataError, ParameterError
from rulecore.highs import Model

#: A standardised weight at or below this reads nothing: a change of one standard deviation
#: moves the score by less than it (:attr:`SparseClassifier.used_`).
NONZERO_TOL = 1e-6

LOSSES = ("hinge", "logistic")
WARM_STARTS = ("l1", "relaxation", None)
#: ``gamma="auto"`` is this multiple of ``γ₀ = p / (k n mean_i ‖x_i‖²)`` (:func:`auto_gamma`):
#: 2⁴, the fifth point of :func:`gamma_grid` (bench/results/sparse_timing.md).
GAMMA_AUTO_FACTOR = 16.0
#: γ of the final fit on the chosen support (``refit_gamma``): scikit-learn's C = 1 on the
#: standardised features, the paper's own default.  γ = 16 γ₀ makes the support problem quick
#: to certify, but its coefficients are shrunk: on small tables with a rare class the model
#: never predicted that class (a Google Forms export: accuracy 0.85, the majority's; refit on
#: its 3 features, 0.95; ``bench/results/sparse_uci.md``).
REFIT_GAMMA = 1.0
_EPS_T = 1e-12  # logistic duals live in the open interval (0, 1)


# ---------------------------------------------------------------------------------------------
# Losses, conjugates and dual feasibility
# ---------------------------------------------------------------------------------------------


def _loss_sum(loss: str, margins: np.ndarray) -> float:
    """``Σ ℓ`` as a function of the margins ``y_i u_i``."""
    if loss == "hinge":
        return float(np.maximum(0.0, 1.0 - margins).sum())
    return float(np.logaddexp(0.0, -margins).sum())


def _h(loss: str, t: np.ndarray) -> float:
    """``−Σ ℓ̂(y_i, α_i)`` at ``α = −y ∘ t`` (the conjugate part of the dual objective)."""
    if loss == "hinge":
        return float(t.sum())
    tc = np.clip(t, 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ent = -(np.where(tc > 0, tc * np.log(tc), 0.0)
                + np.where(tc < 1, (1 - tc) * np.log1p(-tc), 0.0))
    return float(ent.sum())


def _t_from_margins(loss: str, margins: np.ndarray) -> np.ndarray:
    """Dual from primal, ``t_i = −y_i ℓ'(u_i)``: σ(−m) for logistic, 1{m < 1} for hinge."""
    if loss == "hinge":
        return np.where(margins < 1.0, 1.0, np.where(margins > 1.0, 0.0, 0.5))
    return expit(-margins)


def _make_feasible(t: np.ndarray, y: np.ndarray, fit_intercept: bool) -> np.ndarray:
    """Return ``t`` clipped to [0, 1] and, with an intercept, satisfying ``Σ y_i t_i = 0``.

    Scaling down the ``t`` of the heavier class keeps every entry in [0, 1] and hits the equality
    exactly, so the cut stays valid however rough ``t`` was (used for stochastic cuts and to clean
    solver round-off from exact duals).
    """
    t = np.clip(t, 0.0, 1.0)
    if not fit_intercept:
        return t
    pos, neg = y > 0, y < 0
    sp, sn = t[pos].sum(), t[neg].sum()
    t = t.copy()
    if sp > sn:
        t[pos] *= sn / sp
    elif sn > sp:
        t[neg] *= sp / sn
    return t


@dataclass
class _Cut:
    """``η ≥ const − Σ_j coef_j s_j`` with ``coef_j = (γ/2) z_j²``, from the dual point ``t``."""

    const: float
    coef: np.ndarray
    t: np.ndarray | None = None  # shared with the cached _Inner, not a copy

    def value(self, support: np.ndarray) -> float:
        return self.const - float(self.coef[support].sum())

    def top_k(self, k: int) -> float:
        """Sum of the k largest coefficients: ``const − top_k`` bounds c on every size-k support."""
        k = min(k, len(self.coef))
        return float(np.partition(self.coef, len(self.coef) - k)[-k:].sum()) if k else 0.0


def _cut_from_t(loss: str, X: np.ndarray, y: np.ndarray, t: np.ndarray, gamma: float) -> _Cut:
    z = X.T @ (y * t)
    return _Cut(_h(loss, t), 0.5 * gamma * z * z, t)


def _ray_bound(loss: str, t: np.ndarray, q: float) -> tuple[float, float]:
    """``max_{0 < ε ≤ 1} h(εt) − ε² q`` and its ε: a certified lower bound on every size-k ``c``.

    ``q`` is the sum of the k largest cut coefficients at ``t``.  Scaling a feasible ``t`` by
    ε ∈ (0, 1] keeps it feasible (box and ``Σ y_i t_i = 0`` alike) and scales ``z`` by ε, so
    ``h(εt) − ε² q`` is the single-cut bound at ``εt`` (docs/sparse.md, "Bounds").  It is
    positive for every ``t ≠ 0``: ``h(εt)`` grows like ε (hinge) or ε log(1/ε) (logistic) while
    the quadratic term grows like ε², so a cut whose own bound ``h(t) − q`` is negative (weak
    regularisation, a rough dual) still proves ``c > 0``.
    """
    if loss == "hinge":
        H = float(t.sum())
        eps = 1.0 if q <= 0 else min(1.0, H / (2.0 * q))
        return eps * H - eps * eps * q, eps
    tp = t[t > 0]
    if tp.size == 0:
        return _h(loss, t) - q, 1.0

    def slope(eps):  # d/dε [h(εt) − ε² q], decreasing in ε (h is concave along the ray)
        u = np.clip(eps * tp, _EPS_T, 1.0 - _EPS_T)
        return float((tp * (np.log1p(-u) - np.log(u))).sum()) - 2.0 * eps * q

    if slope(1.0) >= 0:
        eps = 1.0
    else:  # bisection on log ε; the slope tends to +∞ as ε → 0
        lo, hi = -30.0, 0.0
        for _ in range(40):
            mid = 0.5 * (lo + hi)
            if slope(math.exp(mid)) > 0:
                lo = mid
            else:
                hi = mid
        eps = math.exp(lo)
    val = _h(loss, eps * t) - eps * eps * q
    one = _h(loss, t) - q
    return (val, eps) if val >= one else (one, 1.0)


# ---------------------------------------------------------------------------------------------
# Inner problem c(s): exact primal solve on the support, dual read off the primal optimum
# ---------------------------------------------------------------------------------------------


@dataclass
class _Inner:
    support: np.ndarray  # sorted feature indices
    w: np.ndarray
    b: float
    primal: float  # objective of (w, b): an upper bound on c(s), equal to it up to solver tolerance
    t: np.ndarray  # feasible dual
    dual: float  # dual objective at t: a lower bound on c(s)


def _primal_value(loss, Xs, y, w, b, gamma) -> float:
    return _loss_sum(loss, y * (Xs @ w + b)) + float(w @ w) / (2.0 * gamma)


def _logistic_newton(Xs, y, gamma, fit_intercept, w0=None, b0=0.0, tol=1e-11, max_iter=100):
    """Damped Newton on the primal ``Σ log(1+e^{−y u}) + ‖w‖²/(2γ)``; b is unpenalised."""
    n, k = Xs.shape
    Z = np.hstack([Xs, np.ones((n, 1))]) if fit_intercept else Xs
    reg = np.full(Z.shape[1], 1.0 / gamma)
    if fit_intercept:
        reg[-1] = 0.0
    theta = np.zeros(Z.shape[1])
    if w0 is not None:
        theta[:k] = w0
        if fit_intercept:
            theta[-1] = b0

    def f(th):
        return float(np.logaddexp(0.0, -y * (Z @ th)).sum() + 0.5 * (reg * th * th).sum())

    fval = f(theta)
    for _ in range(max_iter):
        m = y * (Z @ theta)
        p = expit(-m)  # = t
        grad = -Z.T @ (y * p) + reg * theta
        if np.abs(grad).max() <= tol * max(1.0, n ** 0.5):
            break
        d = p * (1.0 - p)
        H = (Z * d[:, None]).T @ Z + np.diag(reg) + 1e-12 * np.eye(Z.shape[1])
        try:
            step = np.linalg.solve(H, grad)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(H, grad, rcond=None)[0]
        lr = 1.0
        while lr > 1e-10:
            cand = theta - lr * step
            fc = f(cand)
            if fc <= fval - 1e-4 * lr * float(grad @ step) or fc <= fval:
                break
            lr *= 0.5
        if fc >= fval:
            # no decrease left: converged as far as float sums tell.  (Accepting equal
            # values ran on to max_iter, a 34-step line search each time, on small designs
            # whose gradient never reaches the test above: 96 % of the test suite's calls.)
            break
        theta, fval = cand, fc
    w = theta[:k]
    b = float(theta[-1]) if fit_intercept else 0.0
    return w, b


def _smoothed_hinge_newton(Xs, y, gamma, fit_intercept, width=0.2, iters=40):
    """Rough primal for the hinge loss: damped Newton on a quadratically smoothed hinge."""
    n, k = Xs.shape
    Z = np.hstack([Xs, np.ones((n, 1))]) if fit_intercept else Xs
    reg = np.full(Z.shape[1], 1.0 / gamma)
    if fit_intercept:
        reg[-1] = 0.0

    def f(th):
        m = y * (Z @ th)
        loss = np.where(m >= 1, 0.0, np.where(m > 1 - width, (1 - m) ** 2 / (2 * width),
                                              1 - m - width / 2))
        return float(loss.sum() + 0.5 * (reg * th * th).sum())

    # start from the logistic fit: its direction is close and Newton on it is robust
    w0, b0 = _logistic_newton(Xs, y, gamma, fit_intercept, tol=1e-4, max_iter=20)
    theta = np.concatenate([w0, [b0]]) if fit_intercept else w0
    fval = f(theta)
    for _ in range(iters):
        m = y * (Z @ theta)
        slope = np.clip((1 - m) / width, 0.0, 1.0)  # −dℓ/dm
        grad = -Z.T @ (y * slope) + reg * theta
        curv = ((m < 1) & (m > 1 - width)) / width
        H = (Z * curv[:, None]).T @ Z + np.diag(reg) + 1e-6 * n * np.eye(Z.shape[1])
        step = np.linalg.solve(H, grad)
        lr = 1.0
        while lr > 1e-10:
            cand = theta - lr * step
            fc = f(cand)
            if fc < fval:
                break
            lr *= 0.5
        if fc >= fval or fval - fc < 1e-10 * max(1.0, fval):
            break
        theta, fval = cand, fc
    return theta[:k], (float(theta[-1]) if fit_intercept else 0.0)


class _SvmPace:
    """Seconds per libsvm iteration and row, learnt from earlier solves (libsvm has no clock).

    libsvm takes no time limit, only an iteration cap, and its cost per iteration varies about
    tenfold between designs (1–12 ns per row measured: MAGIC vs heavy-tailed data, where most
    rows stay active).  Starting from the slow end and updating after every solve keeps a capped
    run close to the seconds it was given.
    """

    def __init__(self, per_row_iter: float = 1.5e-8):
        self.per_row_iter = per_row_iter

    def max_iter(self, n: int, seconds: float) -> int:
        # libsvm's and liblinear's caps are C ints: a day's limit (or inf, no limit)
        # overflowed them and raised OverflowError (a notebook review)
        cap = seconds / (self.per_row_iter * max(n, 1000))
        return int(max(200, min(cap, 2 ** 31 - 1)))

    def record(self, n: int, n_iter: int, seconds: float) -> None:
        if n_iter > 100:  # short runs are dominated by set-up, not by iterations
            self.per_row_iter = seconds / (n_iter * max(n, 1000))


def _hinge_svm(Xs, y, gamma, fit_intercept, time_limit=60.0, pace=None):
    """Hinge primal and dual on one support by libsvm / liblinear (scikit-learn).

    ``Σ ξ + ‖w‖²/(2γ) = (1/γ)(½‖w‖² + γ Σ ξ)``: the C-SVM with ``C = γ``, whose dual variables
    are ``α = γ t``.  libsvm's SMO keeps the intercept unpenalised (the ``yᵀt = 0`` row of the
    dual) and copes with the degenerate, heavy-tailed designs on which HiGHS's active-set QP
    stopped with "non-convex" (spambase).  Without an intercept liblinear's dual coordinate
    descent solves the same problem; its duals are read off the KKT conditions.

    The tolerance is 1e-5, not tighter: at 1e-7 SMO cycled for millions of iterations on
    degenerate supports (w ≈ 0), while 1e-5 already leaves a duality gap near 1e-8 relative.
    The iteration cap comes from ``pace`` and ``time_limit``.  A capped run can be poor, so the
    smoothed-hinge Newton point competes with it; either way the caller gets a primal point and
    a feasible dual and reports their gap.
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import SVC, LinearSVC

    n, k = Xs.shape
    if k == 0:
        b = _best_intercept(np.zeros(n), y) if fit_intercept else 0.0
        return np.zeros(0), b, _t_from_margins("hinge", y * b)
    pace = pace or _SvmPace()
    max_iter = pace.max_iter(n, time_limit)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if fit_intercept:
            svm = SVC(kernel="linear", C=gamma, tol=1e-5, max_iter=max_iter).fit(Xs, y)
            w, b = svm.coef_.ravel().copy(), float(svm.intercept_[0])
            t = np.zeros(n)
            t[svm.support_] = np.abs(svm.dual_coef_.ravel()) / gamma
            t = np.clip(t, 0.0, 1.0)
        else:
            svm = LinearSVC(loss="hinge", dual=True, C=gamma, fit_intercept=False, tol=1e-10,
                            max_iter=max_iter).fit(Xs, y)
            w, b = svm.coef_.ravel().copy(), 0.0
            t = _hinge_kkt_dual(Xs, y, w, 0.0, gamma, False)
    n_iter = int(np.max(svm.n_iter_))
    pace.record(n, n_iter, time.perf_counter() - t0)
    if n_iter >= max_iter:  # stopped by the cap: a cheap smooth solve may well be better
        w2, b2 = _smoothed_hinge_newton(Xs, y, gamma, fit_intercept)
        if _primal_value("hinge", Xs, y, w2, b2, gamma) < _primal_value("hinge", Xs, y, w, b,
                                                                         gamma):
            w, b = w2, b2
    return w, b, t


def _hinge_kkt_dual(Xs, y, w, b, gamma, fit_intercept, tol=1e-6):
    """Dual t from a hinge primal optimum by its KKT conditions.

    ``t_i = 1`` inside the margin, ``0`` outside; rows on the margin solve
    ``γ X_Sᵀ(y∘t) = w`` and ``Σ y_i t_i = 0`` (k + 1 equations) by bounded least squares.
    """
    from scipy.optimize import lsq_linear

    m = y * (Xs @ w + b)
    on = np.abs(m - 1) <= tol
    t = (m < 1).astype(float)
    t[on] = 0.0
    if on.any():
        A = gamma * (Xs[on] * y[on, None]).T
        r = w - gamma * Xs.T @ (y * t)
        if fit_intercept:
            A = np.vstack([A, y[on][None, :]])
            r = np.concatenate([r, [-float(y @ t)]])
        t[on] = lsq_linear(A, r, bounds=(0.0, 1.0), tol=1e-12).x
    return t


def _best_intercept(u, y):
    """Exact ``argmin_b Σ max(0, 1 − y_i (u_i + b))``: a weighted-median breakpoint."""
    bp = y - u  # y_i (u_i + b) = 1  <=>  b = y_i − u_i
    order = np.argsort(bp)
    # slope at −∞ is −#positives; passing breakpoint i adds 1 (either class)
    slope = -float((y > 0).sum()) + np.arange(1, len(u) + 1)
    i = int(np.searchsorted(slope, 0.0))
    return float(bp[order[min(i, len(u) - 1)]])


#: Seconds the hinge loss's refit may take at most (libsvm's SMO at C = 1 took 25 s on
#: 60,000 rows; past this cap the better of the capped run and a smoothed-hinge Newton point
#: is kept, as for the support problem's inner solves).
REFIT_HINGE_SECONDS = 5.0


def _refit(loss, Xs, y, gamma, fit_intercept, time_limit) -> tuple[np.ndarray, float]:
    """The model on a fixed support: ``Σ ℓ + ‖w‖²/(2γ)`` over its columns ``Xs``.  Logistic:
    damped Newton to optimality.  Hinge: libsvm's SMO (:func:`_hinge_svm`: a run stopped by
    ``time_limit``, :data:`REFIT_HINGE_SECONDS` at most, competes with a smoothed-hinge
    Newton point)."""
    if loss == "logistic":
        return _logistic_newton(Xs, y, gamma, fit_intercept)
    w, b, _ = _hinge_svm(Xs, y, gamma, fit_intercept, min(time_limit, REFIT_HINGE_SECONDS))
    return w, b


def _solve_inner(loss, X, y, support, gamma, fit_intercept, time_limit=60.0,
                 pace=None) -> _Inner:
    """Exact ``c(s)`` on ``support``: primal (w, b), its objective, and the matching dual t."""
    support = np.asarray(sorted(support), dtype=np.intp)
    Xs = X[:, support]
    if loss == "logistic":
        w, b = _logistic_newton(Xs, y, gamma, fit_intercept)
        t = _t_from_margins(loss, y * (Xs @ w + b))
    else:
        w, b, t = _hinge_svm(Xs, y, gamma, fit_intercept, time_limit, pace)
    t = _make_feasible(t, y, fit_intercept)
    primal = _primal_value(loss, Xs, y, w, b, gamma)
    dual = _dual_value(loss, Xs, y, t, gamma)
    if loss == "hinge" and primal - dual > 1e-10 * max(1.0, primal):
        # SMO stops at a tolerance: rebuild the duals from the KKT conditions of (w, b), and
        # the primal from the duals (w = γ X_Sᵀ(y∘t), best b); keep whichever bound improves
        t2 = _make_feasible(_hinge_kkt_dual(Xs, y, w, b, gamma, fit_intercept), y, fit_intercept)
        dual2 = _dual_value(loss, Xs, y, t2, gamma)
        if dual2 > dual:
            t, dual = t2, dual2
        w2 = gamma * (Xs.T @ (y * t))
        b2 = _best_intercept(Xs @ w2, y) if fit_intercept else 0.0
        primal2 = _primal_value(loss, Xs, y, w2, b2, gamma)
        if primal2 < primal:
            w, b, primal = w2, b2, primal2
    return _Inner(support, w, b, primal, t, dual)


def _dual_value(loss, Xs, y, t, gamma) -> float:
    """Dual objective ``h(t) − (γ/2)‖X_Sᵀ(y∘t)‖²``: a lower bound on c(s) for feasible t."""
    z = Xs.T @ (y * t)
    return _h(loss, t) - 0.5 * gamma * float(z @ z)


def support_objective(X, y, support, gamma, loss="hinge",
                      fit_intercept=True) -> tuple[float, float]:
    """``(primal, dual)`` values of ``c(s)`` for one support on already-prepared data.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), values in {−1, +1}
    support : sequence of int
    gamma : float
    loss : {"hinge", "logistic"}
    fit_intercept : bool

    Returns
    -------
    primal, dual : float
        The primal objective of the fitted model and the dual objective of the matching dual
        point; ``dual <= c(s) <= primal`` and both agree to solver precision.
    """
    r = _solve_inner(loss, np.asarray(X, float), np.asarray(y, float), support, gamma,
                     fit_intercept)
    return r.primal, r.dual


# ---------------------------------------------------------------------------------------------
# Warm starts
# ---------------------------------------------------------------------------------------------


def _project_box_hyperplane(v, y, lo, hi):
    """Euclidean projection of v onto {t ∈ [lo, hi]^n : yᵀt = 0}, exactly.

    The projection is ``clip(v − ν y, lo, hi)`` for the multiplier ν that solves ``g(ν) = 0``,
    where, with ``y ∈ {−1, +1}``, ``g(ν) = Σ_{y=+1} clip(v_i − ν) − Σ_{y=−1} clip(v_i + ν)``.
    g is continuous, non-increasing and linear between its 4n breakpoints (where v_i ∓ ν meets
    lo or hi).  Each g(ν) is read in O(log n) off the sorted values and their prefix sums; a
    binary search over the sorted breakpoints (~log₂ 4n steps) brackets the root in one linear
    piece, where it is solved exactly.  This replaced 60 bisection steps on ν, which were 80 %
    of a small sparse fit (the relaxation projects ~160 times); on 45,000 rows it costs the same.
    """
    pos, neg = np.sort(v[y > 0]), np.sort(v[y < 0])
    cum_pos = np.concatenate([[0.0], np.cumsum(pos)])
    cum_neg = np.concatenate([[0.0], np.cumsum(neg)])

    def clipped_sum(a, cum, shift):  # Σ clip(a_i + shift, lo, hi) for sorted a
        i = np.searchsorted(a, lo - shift, "right")  # these clip to lo
        j = np.searchsorted(a, hi - shift, "left")  # from j on they clip to hi
        return lo * i + hi * (len(a) - j) + (cum[j] - cum[i]) + shift * (j - i)

    def g(nu):
        return clipped_sum(pos, cum_pos, -nu) - clipped_sum(neg, cum_neg, nu)

    # four runs, each already sorted: the stable sort (timsort) merges them in linear time
    bp = np.sort(np.concatenate([pos - hi, pos - lo, lo - neg[::-1], hi - neg[::-1]]),
                 kind="stable")
    left, right = 0, len(bp) - 1
    g_left, g_right = g(bp[left]), g(bp[right])
    if g_left <= 0:  # g ≤ 0 everywhere (it is constant left of the first breakpoint)
        return np.clip(v - (bp[0] - 1.0) * y, lo, hi)
    if g_right > 0:  # g > 0 everywhere: no root; ν past every breakpoint, as bisection gave
        return np.clip(v - (bp[-1] + 1.0) * y, lo, hi)
    while right - left > 1:  # invariant: g(bp[left]) > 0 ≥ g(bp[right])
        mid = (left + right) // 2
        g_mid = g(bp[mid])
        if g_mid > 0:
            left, g_left = mid, g_mid
        else:
            right, g_right = mid, g_mid
    a, b = bp[left], bp[right]  # g is linear on [a, b]
    nu = a + g_left * (b - a) / (g_left - g_right)
    return np.clip(v - nu * y, lo, hi)


def _relaxation(loss, X, y, gamma, k, fit_intercept, n_iter=80):
    """Boolean relaxation of §5 solved in the dual: max_t h(t) − (γ/2)·(sum of the k largest z_j²).

    ``min_{s ∈ [0,1]^p, Σs ≤ k} max_t  =  max_t min_s`` (the objective is linear in s), and the
    inner min picks the k largest ``z_j²``.  Accelerated projected gradient ascent on t; every
    iterate is dual feasible, so the best one gives a valid cut and its top-k a support.
    """
    n = X.shape[0]
    lo, hi = (1e-9, 1 - 1e-9) if loss == "logistic" else (0.0, 1.0)

    def proj(v):
        return _project_box_hyperplane(v, y, lo, hi) if fit_intercept else np.clip(v, lo, hi)

    def value_grad(t):
        z = X.T @ (y * t)
        top = np.argpartition(-(z * z), k - 1)[:k] if k < len(z) else np.arange(len(z))
        val = _h(loss, t) - 0.5 * gamma * float((z[top] ** 2).sum())
        dh = np.ones(n) if loss == "hinge" else np.log((1 - t) / t)
        return val, dh - gamma * y * (X[:, top] @ z[top]), top

    t = proj(np.full(n, 0.5))
    _, _, top = value_grad(t)
    # curvature of the quadratic part on the current top-k block: γ ‖X_T‖₂²
    lip = gamma * float(np.linalg.eigvalsh(X[:, top].T @ X[:, top])[-1])
    lip = max(lip + (4.0 if loss == "logistic" else 0.0), 1e-9)
    best_val, best_t, best_top = -np.inf, t, top
    prev, mom = t, 1.0
    for _ in range(n_iter):
        val, g, top = value_grad(t)
        if val > best_val:
            best_val, best_t, best_top = val, t, top
        nxt = proj(t + g / lip)
        mom_next = 0.5 * (1 + math.sqrt(1 + 4 * mom * mom))
        t, prev = proj(nxt + ((mom - 1) / mom_next) * (nxt - prev)), nxt
        mom = mom_next
    return best_t, np.sort(best_top)


def _l1_supports(X, y, k, fit_intercept, n_path=12, deadline=math.inf):
    """Supports of size k along an L1-logistic path (scikit-learn, liblinear), padded by |Xᵀy|."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import l1_min_c

    p = X.shape[1]
    corr = np.abs(X.T @ y)
    c0 = l1_min_c(X, y, loss="log", fit_intercept=fit_intercept)
    supports = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for c in c0 * np.logspace(0.05, 3, n_path):
            clf = LogisticRegression(C=c, l1_ratio=1.0, solver="liblinear",
                                     fit_intercept=fit_intercept, max_iter=200, tol=1e-4)
            clf.fit(X, y)
            coef = np.abs(clf.coef_.ravel())
            nz = int((coef > 0).sum())
            order = np.lexsort((-corr, -coef))  # by |coef|, ties (zeros) by correlation
            supports.append(np.sort(order[: min(k, p)]))
            if nz >= 2 * k or time.perf_counter() > deadline:
                break
    uniq = {tuple(s) for s in supports}
    return [np.array(s) for s in sorted(uniq)]


# ---------------------------------------------------------------------------------------------
# Outer approximation
# ---------------------------------------------------------------------------------------------


@dataclass
class OAResult:
    support: np.ndarray
    inner: _Inner
    upper: float
    lower: float
    gap: float
    status: str
    trace: list = field(default_factory=list)


class _OuterApproximation:
    """Cut pool and master MIP for one (X, y, γ, loss).

    Reusable across k: a cut depends on γ but not on k.
    """

    def __init__(self, loss, X, y, gamma, fit_intercept, rng):
        self.loss, self.X, self.y, self.gamma = loss, X, y, gamma
        self.fit_intercept, self.rng = fit_intercept, rng
        self.cuts: list[_Cut] = []
        self.cache: dict[tuple, _Inner] = {}
        self.pace = _SvmPace()  # libsvm speed on this data, for its iteration caps

    # --- cuts ----------------------------------------------------------------------------------
    def evaluate(self, support, time_limit=60.0) -> _Inner:
        key = tuple(int(j) for j in sorted(support))
        if key not in self.cache:
            r = _solve_inner(self.loss, self.X, self.y, key, self.gamma, self.fit_intercept,
                             time_limit, self.pace)
            self.cache[key] = r
            self.cuts.append(_cut_from_t(self.loss, self.X, self.y, r.t, self.gamma))
        return self.cache[key]

    def stochastic_cut(self, support, n_batches=10):
        """Algorithm 2: average w over B row subsets, read the dual off the full data.

        Returns ``(cut, primal_upper_bound)``; the cut is valid whatever the estimate's quality.
        """
        X, y = self.X, self.y
        n = X.shape[0]
        m = int(min(n, max(10 * (len(support) + 1), n // 5)))
        Xs = X[:, support]
        ws, bs = [], []
        for _ in range(n_batches):
            idx = self.rng.choice(n, m, replace=False)
            if len(np.unique(y[idx])) < 2:
                continue
            # the sub-sample problem Σ_sub ℓ + ‖w‖²/(2γ m/n) estimates the full one
            g = self.gamma * m / n
            if self.loss == "logistic":
                w, b = _logistic_newton(Xs[idx], y[idx], g, self.fit_intercept, tol=1e-6)
            else:
                w, b = _smoothed_hinge_newton(Xs[idx], y[idx], g, self.fit_intercept)
            ws.append(w)
            bs.append(b)
        if not ws:
            return None, np.inf
        w, b = np.mean(ws, axis=0), float(np.mean(bs))
        margins = y * (Xs @ w + b)
        t = _make_feasible(_t_from_margins(self.loss, margins), y, self.fit_intercept)
        return (_cut_from_t(self.loss, X, y, t, self.gamma),
                _primal_value(self.loss, Xs, y, w, b, self.gamma))

    def _neighbours(self, support, n_swaps):
        if n_swaps <= 0 or len(support) == 0 or len(support) >= self.X.shape[1]:
            return []
        key = tuple(int(j) for j in support)
        if key not in self.cache:
            return []
        coef = _cut_from_t(self.loss, self.X, self.y, self.cache[key].t, self.gamma).coef
        inside = np.zeros(len(coef), bool)
        inside[support] = True
        weakest = support[np.argmin(coef[support])]
        out = np.flatnonzero(~inside)
        best_out = out[np.argsort(-coef[out])[:n_swaps]]
        nbs = []
        for j in best_out:
            s = np.sort(np.append(support[support != weakest], j))
            if tuple(int(i) for i in s) not in self.cache:
                nbs.append(s)
        return nbs

    def _warm_lower_bound(self, k, first_new=0, n_best=20) -> float:
        """Certified lower bound on ``min c`` over size-k supports from the cuts in the pool.

        Any one cut bounds every size-k support: ``c(s) >= const − (its k largest coefs)``;
        scaling its dual point along the ray ``εt`` (:func:`_ray_bound`) can only raise that
        and makes it positive.  The ray is searched for the cuts added since ``first_new`` (the
        warm starts of this solve) and for the ``n_best`` cuts with the best plain bound, so a
        pool reused across k costs no more than a fresh one.
        """
        if not self.cuts:
            return 0.0
        tops = [c.top_k(k) for c in self.cuts]
        plain = np.array([c.const - q for c, q in zip(self.cuts, tops, strict=True)])
        lower = max(0.0, float(plain.max()))
        candidates = set(range(first_new, len(self.cuts)))
        candidates.update(np.argsort(-plain)[:n_best].tolist())
        for i in candidates:
            cut = self.cuts[i]
            if cut.t is not None:
                lower = max(lower, _ray_bound(self.loss, cut.t, tops[i])[0])
        return lower

    # --- master --------------------------------------------------------------------------------
    def _master(self, k, eta_lower=0.0) -> Model:
        """``min η  s.t.  Σ_j s_j = k``, columns ``s_0 … s_{p−1}`` (binary) and ``η`` (last).

        ``η >= eta_lower``: c(s) >= 0 always, and a certified bound on every size-k support (the
        warm starts' cuts) tightens the master from its first solve.
        """
        p = self.X.shape[1]
        master = Model()
        master.add_columns(np.concatenate([np.zeros(p), [1.0]]),
                           np.concatenate([np.zeros(p), [max(0.0, float(eta_lower))]]),
                           np.concatenate([np.ones(p), [np.inf]]),  # η = c(s) >= eta_lower
                           integer=np.arange(p + 1) < p)
        master.add_rows([float(k)], [float(k)],
                        sparse.csr_matrix(np.concatenate([np.ones(p), [0.0]])[None, :]))
        return master

    @staticmethod
    def _add_cuts(master: Model, cuts: list[_Cut]) -> None:
        """One row per cut, ``η + Σ_j coef_j s_j >= const``, in the order given."""
        if not cuts:
            return
        p = len(cuts[0].coef)
        indptr, indices, values = [0], [], []
        for cut in cuts:
            # drop negligible coefficients to keep rows sparse
            keep = np.flatnonzero(cut.coef > 1e-12 * max(1.0, cut.coef.max(initial=0.0)))
            indices += [keep, [p]]
            values += [cut.coef[keep], [1.0]]
            indptr.append(indptr[-1] + len(keep) + 1)
        A = sparse.csr_matrix((np.concatenate(values), np.concatenate(indices), indptr),
                              shape=(len(cuts), p + 1))
        master.add_rows([c.const for c in cuts], np.inf, A)

    def solve(self, k, time_limit, tol=1e-6, warm_start="l1", stochastic=False,
              progress=None, n_swaps=3) -> OAResult:
        start = time.perf_counter()
        deadline = start + time_limit
        p = self.X.shape[1]
        k = min(k, p)
        trace = []
        best: _Inner | None = None

        def consider(r):
            nonlocal best
            if best is None or r.primal < best.primal:
                best = r

        def left():
            # an inner solve past the deadline still returns valid bounds (iteration-capped)
            return max(deadline - time.perf_counter(), 0.05)

        n_cuts_before = len(self.cuts)
        # --- warm starts (their cuts form the "rich root node", docs/sparse.md) ---
        for r in self.cache.values():  # reused across k (and across calls)
            if len(r.support) == k:
                consider(r)
        if best is None:  # a first incumbent: top-k correlation with the labels
            consider(self.evaluate(np.sort(np.argsort(-np.abs(self.X.T @ self.y))[:k]), left()))
        if warm_start in ("l1", "relaxation") and time.perf_counter() < deadline:
            # the relaxation first: it is cheap (gradient steps on t) and its cut alone bounds
            # the optimum from below, so even a fit stopped right after it has a useful gap
            t_rel, s_rel = _relaxation(self.loss, self.X, self.y, self.gamma, k,
                                       self.fit_intercept)
            self.cuts.append(_cut_from_t(self.loss, self.X, self.y, t_rel, self.gamma))
            consider(self.evaluate(s_rel, left()))
        if warm_start == "l1":
            for s in _l1_supports(self.X, self.y, k, self.fit_intercept, deadline=deadline):
                if time.perf_counter() > deadline:
                    break
                consider(self.evaluate(s, left()))

        lower = self._warm_lower_bound(k, n_cuts_before)
        upper = best.primal
        lower = min(lower, upper)
        master = self._master(k, eta_lower=lower)
        n_rows_cuts = 0  # every cut is valid for every support, so all of self.cuts go in

        def gap():
            return max(0.0, upper - lower) / max(abs(upper), 1.0)

        status = "time_limit"
        while True:
            self._add_cuts(master, self.cuts[n_rows_cuts:])
            n_rows_cuts = len(self.cuts)
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or (not trace and gap() <= tol):
                # out of time, or the warm starts' cuts alone prove the incumbent optimal (the
                # relaxation is often tight): report the bounds without a master solve
                if gap() <= tol:
                    status = "optimal"
                if not trace:
                    trace.append(dict(iteration=0, lower=lower, upper=upper, gap=gap(),
                                      cuts=n_rows_cuts, seconds=time.perf_counter() - start))
                    if progress is not None:
                        progress(trace[-1])
                break
            s0 = np.zeros(p + 1)
            s0[best.support] = 1.0
            s0[p] = upper
            master.set_start(s0)
            res = master.solve(time_limit=remaining, mip_rel_gap=1e-9, mip_abs_gap=1e-9)
            if np.isfinite(res.bound):
                lower = max(lower, res.bound)
            lower = min(lower, upper)
            trace.append(dict(iteration=len(trace), lower=lower, upper=upper, gap=gap(),
                              cuts=n_rows_cuts, seconds=time.perf_counter() - start))
            if progress is not None:
                progress(trace[-1])
            if gap() <= tol:
                status = "optimal"
                break
            if res.status != "optimal" or res.x is None:
                break  # time limit inside the master: keep the incumbent and the bound
            sol = res.x
            s_new = np.sort(np.flatnonzero(sol[:p] > 0.5))
            eta = sol[p]
            key = tuple(int(j) for j in s_new)
            if key in self.cache:
                # its exact cut is already in the master, so η* >= c(s*) up to the inner
                # solver's tolerance: no new cut is possible and the gap left is round-off
                consider(self.cache[key])
                upper = best.primal
                status = "optimal" if gap() <= max(tol, 1e-6) else "stalled"
                trace[-1].update(upper=upper, gap=gap())
                break
            if stochastic:
                cut, ub = self.stochastic_cut(s_new)
                if cut is not None and cut.value(s_new) > eta + 1e-9 * max(1.0, abs(eta)):
                    self.cuts.append(cut)  # separates the master point: keep it
                    if ub < upper:
                        # a better support found by an estimate; its exact c is computed later
                        consider(self.evaluate(s_new, left()))
                        upper = best.primal
                    continue
            consider(self.evaluate(s_new, left()))
            # more cuts per (expensive) master solve: evaluate swap neighbours of s* that its
            # own cut rates best (drop the weakest chosen j, add a strong unchosen one)
            for s_nb in self._neighbours(s_new, n_swaps):
                if time.perf_counter() > deadline:
                    break
                consider(self.evaluate(s_nb, left()))
            upper = best.primal
        return OAResult(best.support, best, upper, lower, gap(), status, trace)


# ---------------------------------------------------------------------------------------------
# Estimators
# ---------------------------------------------------------------------------------------------


def _show(value) -> str:
    """A setting as a person would type it: ``3``, not ``np.int64(3)``."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _check_params(est):
    if est.loss not in LOSSES:
        raise ParameterError(f"loss must be one of {LOSSES}, got {_show(est.loss)}")
    if not (isinstance(est.k, (int, np.integer)) and est.k >= 1):
        raise ParameterError(
            f"k (the number of features) must be an integer >= 1, got {_show(est.k)}")
    if est.warm_start not in WARM_STARTS + (True, False):
        raise ParameterError(
            f"warm_start must be one of {WARM_STARTS}, got {_show(est.warm_start)}")
    check_seconds(est.time_limit)
    check_seed(getattr(est, "random_state", None))
    tol = getattr(est, "tol", 0.0)  # -1 was taken: every gap "closed" (a notebook review)
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not 0 <= tol < 1:
        raise ParameterError(f"tol must be a number in [0, 1) (the relative gap that counts "
                             f"as proved), not {_show(tol)}.")
    # -1 reached scikit-learn's InvalidParameterError from inside l1_min_c (a review)
    require_bool(getattr(est, "fit_intercept", True), "fit_intercept")
    refit = getattr(est, "refit_gamma", None)
    if refit is not None and not (isinstance(refit, (int, float, np.integer, np.floating))
                                  and not isinstance(refit, bool) and np.isfinite(refit)
                                  and refit > 0):
        raise ParameterError(f"refit_gamma must be a positive number or None, got "
                             f"{_show(refit)}")


def _warm(value):
    """``True``/``False`` are accepted for "l1"/None (scikit-learn's checks toggle booleans)."""
    return {True: "l1", False: None}.get(value, value) if isinstance(value, bool) else value


def _check_gamma(gamma, allow_auto=True):
    if allow_auto and isinstance(gamma, str) and gamma == "auto":
        return
    if not (isinstance(gamma, (int, float, np.integer, np.floating))
            and not isinstance(gamma, bool) and np.isfinite(gamma) and gamma > 0):
        what = 'a positive number or "auto"' if allow_auto else "a positive number"
        raise ParameterError(f"gamma must be {what}, got {_show(gamma)}")


def _gamma0(Xs: np.ndarray, k: int) -> float:
    """``γ₀ = p / (k · n · mean_i ‖x_i‖²)`` on the features as the model sees them.

    The authors' starting value ``p / (k n max_i ‖x_i‖²)`` (docs/sparse.md, after Chu et al.
    2015) with the mean squared row norm in place of the largest: on standardised features it
    is ``1 / (k n)`` whatever the rows, where one outlying row would make the max-norm value
    arbitrarily small.  Columns that are all zero (constant, once centred) are left out of p.
    """
    n = Xs.shape[0]
    p_used = int(np.count_nonzero(np.any(Xs != 0, axis=0)))
    r2 = float(np.einsum("ij,ij->", Xs, Xs)) / max(n, 1)
    if p_used == 0 or not r2 > 0:
        return 1.0 / (max(k, 1) * max(n, 1))
    return p_used / (min(max(k, 1), p_used) * n * r2)


def auto_gamma(X, k: int, fit_intercept: bool = True) -> float:
    """The γ that ``gamma="auto"`` resolves to: ``GAMMA_AUTO_FACTOR · γ₀`` (docs/sparse.md).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Features in their original units; standardised here as :class:`SparseClassifier` does.
    k : int
        Number of non-zero coefficients.
    fit_intercept : bool, default=True
        Centre the columns (True) or only scale them by their root mean square (False).

    Returns
    -------
    float
        ``GAMMA_AUTO_FACTOR · p / (k · n · mean_i ‖x_i‖²)``, which is
        ``GAMMA_AUTO_FACTOR / (k · n)`` when no column is constant.
    """
    X = np.asarray(X, dtype=np.float64)
    return GAMMA_AUTO_FACTOR * _gamma0(_Standardiser(X, fit_intercept)(X), int(k))


class _Standardiser:
    def __init__(self, X, center):
        self.mean = X.mean(axis=0) if center else np.zeros(X.shape[1])
        sd = X.std(axis=0) if center else np.sqrt((X * X).mean(axis=0))
        self.scale = np.where(sd > 1e-12 * max(1.0, float(np.abs(X).max(initial=0.0))), sd, 1.0)

    def __call__(self, X):
        return (X - self.mean) / self.scale


def _binary_labels(est, y):
    from sklearn.utils.multiclass import type_of_target

    kind = type_of_target(y, input_name="y")
    if kind not in ("binary", "multiclass"):
        raise DataError(f"Unknown label type: labels must be classes, got target type {kind}")
    classes = np.unique(y)
    if len(classes) < 2:
        raise DataError("the target has only 1 class: a classifier needs two classes")
    if len(classes) > 2:
        raise DataError(
            f"Only binary classification is supported. {type(est).__name__} got "
            f"{len(classes)} classes; pick the positive class (one-vs-rest) before fitting")
    return classes, np.where(y == classes[1], 1.0, -1.0)


class SparseClassifier(ClassifierMixin, BaseEstimator):
    """Exact k-sparse SVM / logistic regression by outer approximation (docs/sparse.md).

    Parameters
    ----------
    k : int, default=5
        Maximum number of non-zero coefficients (capped at the number of features).
    gamma : float or "auto", default="auto"
        Ridge weight: the objective is ``Σ ℓ + ‖w‖²/(2γ)`` on standardised features (a larger
        γ means weaker regularisation; γ plays the role of scikit-learn's ``C``).

        "auto" scales γ to the data at fit time (:func:`auto_gamma`, ``GAMMA_AUTO_FACTOR``)::

            γ = 16 · γ₀,    γ₀ = p / (k · n · mean_i ‖x_i‖²)   on the standardised x_i

        which is ``16 / (k n)`` when no column is constant (constant columns are not counted
        in p).  Why this scale: the loss is a sum over the n rows, so the ridge keeps its
        weight against it only if γ shrinks like 1/n, and the features are standardised, so
        their units do not enter.  γ₀ is the paper's starting value for its γ grid (§2.4 of
        Bertsimas, Pauphilet and Van Parys: "a low value, scaling as in Chu et al. 2015", with
        ``max_i ‖x_i‖²``, which one outlying row makes tiny; docs/sparse.md, "γ and k").  At
        γ₀ nearly every row sits inside the hinge margin: the model is the difference of the
        class means on the k most correlated features, with an arbitrary intercept.  Why 16:
        certifying optimality gets harder as γ grows (the paper's §3.2); on n = p = 1000,
        k = 10 with a strong signal, 16 γ₀ certifies in 0.3–2.4 s for both losses (held-out
        accuracy 0.95), γ₀ and 4 γ₀ predict badly (hinge: 0.58, 0.69), 64 γ₀ takes up to 30 s
        (hinge) for 0.96, and the former default γ = 1.0 (10,000 γ₀ there) stopped at its
        60 s limit with gaps of 0.69–0.98 (bench/results/sparse_timing.md).  A starting point,
        not a tuned value: :class:`SparseClassifierCV` chooses γ on :func:`gamma_grid`, which
        holds 16 γ₀.
    loss : {"hinge", "logistic"}, default="hinge"
    fit_intercept : bool, default=True
        Unpenalised intercept (adds ``Σ y_i t_i = 0`` to the dual).
    time_limit : float, default=60.0
        Seconds for the whole fit (warm starts + outer approximation).  On time-out the best
        support found is returned with its certified gap and ``status_ == "time_limit"``.
    warm_start : {"l1", "relaxation", None}, default="l1"
        "l1": cuts at the supports along an L1-logistic path plus the Boolean relaxation;
        "relaxation": Boolean relaxation only; None: a correlation screen only.
    stochastic_cuts : bool, default=False
        Algorithm 2 of the paper: cuts from w averaged over random row subsets, kept only when
        they separate the master point.
    tol : float, default=1e-6
        Relative optimality gap ``(UB − LB) / max(UB, 1)`` at which to stop.
    random_state : int, RandomState or None, default=None
        Seeds the row subsets of the stochastic cuts.
    refit_gamma : float or None, default=1.0
        The final model: the same loss on the k features of the certified support, with
        ``γ = refit_gamma`` (:data:`REFIT_GAMMA`, scikit-learn's ``C = 1``; a convex problem
        on k columns, solved exactly, with nothing left to certify).  γ = 16 γ₀ keeps the
        support problem quick to certify but shrinks the coefficients, and on small tables with
        a rare class that model predicted the majority class for every row (10 of 22 tables
        for the logistic loss, 4 after the refit; bench/results/sparse_refit.md).  None keeps
        the support problem's own coefficients.  The support, ``objective_`` and the bounds are
        the support problem's either way.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    gamma_ : float
        The γ the support was chosen with (``gamma`` itself, or what "auto" resolved to).
    coef_ : ndarray of shape (1, n_features)
        Coefficients in the original units of the features (zero off the support): the refit
        on the support (``refit_gamma``), or the support problem's own.
    intercept_ : ndarray of shape (1,)
    support_ : ndarray of int
        Indices of the selected features.
    used_ : ndarray of bool, shape (n_features,)
        Features whose standardised weight is above :data:`NONZERO_TOL`: what the model
        reads.  A support's weights can all shrink to ~1e-9 (a constant model), which
        "3 non-zeros" misreported (a review).
    objective_ : float
        ``c(support_)`` on standardised features at ``gamma_`` (the certified problem's value;
        with a refit, not the value of ``coef_``).
    lower_bound_ : float
        Certified lower bound on the optimum over all supports of size ≤ k; positive as soon as
        one support has been evaluated (:func:`_ray_bound`), whatever stopped the fit.
    gap_ : float
        ``(objective_ − lower_bound_) / max(objective_, 1)``.
    status_ : {"optimal", "time_limit", "stalled"}
        "stalled" (rare): the master returned a support already evaluated while the gap was
        still above ``tol`` because an inner solve was not accurate enough to give a tight cut;
        the bounds are still valid, ``gap_`` says how far from proven optimal.
    trace_ : list of dict
        Per master iteration: ``iteration, lower, upper, gap, cuts, seconds``; one row with the
        warm starts' bounds when no master solve was needed (or there was no time left for one).
    n_features_in_ : int
    """

    def __init__(self, k: int = 5, gamma: float | str = "auto", loss: str = "hinge",
                 fit_intercept: bool = True, time_limit: float = 60.0,
                 warm_start: str | None = "l1", stochastic_cuts: bool = False,
                 tol: float = 1e-6, random_state=None, refit_gamma: float | None = REFIT_GAMMA):
        self.k = k
        self.gamma = gamma
        self.refit_gamma = refit_gamma
        self.loss = loss
        self.fit_intercept = fit_intercept
        self.time_limit = time_limit
        self.warm_start = warm_start
        self.stochastic_cuts = stochastic_cuts
        self.tol = tol
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _prepare(self, X, y):
        _check_params(self)
        shape = getattr(X, "shape", ())  # (lists and other shapes: validate_data checks them)
        if len(shape) == 2:
            # the float64 input, its standardised copy and liblinear's copy for the L1 warm start
            check_memory(dense_bytes(*shape, copies=3),
                         f"The sparse model on {shape[0]:,} rows × {shape[1]:,} columns",
                         "Use a sample of the rows or fewer columns (each kept level of a "
                         "categorical column is one column).")
        X, y = validated(self, numbers_only(X, "The sparse model"), y, dtype=np.float64,
                             y_numeric=False)
        self.classes_, ys = _binary_labels(self, y)
        self._std = _Standardiser(X, self.fit_intercept)
        return self._std(X), ys

    def fit(self, X, y, progress=None):
        """Fit the k-sparse classifier.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), two classes
        progress : callable, optional
            Called with each trace row (dict) after every master solve.

        Returns
        -------
        self
        """
        _check_gamma(self.gamma)
        Xs, ys = self._prepare(X, y)
        gamma = (GAMMA_AUTO_FACTOR * _gamma0(Xs, int(self.k))
                 if isinstance(self.gamma, str) else float(self.gamma))
        oa = _OuterApproximation(self.loss, Xs, ys, gamma, self.fit_intercept,
                                 check_random_state(self.random_state))
        self.gamma_ = gamma
        res = oa.solve(int(self.k), float(self.time_limit), tol=self.tol,
                       warm_start=_warm(self.warm_start), stochastic=self.stochastic_cuts,
                       progress=progress)
        self._set_result(res, Xs, ys)
        return self

    def _set_result(self, res: OAResult, Xs: np.ndarray, ys: np.ndarray):
        """The fitted attributes: the certified support problem's support, objective and
        bounds, and the model on that support, refit with ``refit_gamma`` unless None."""
        inner = res.inner
        w_s, b = inner.w, inner.b
        if self.refit_gamma is not None and len(inner.support):
            # the convex problem on the k chosen features (no support to choose, so nothing
            # to certify): docs/sparse.md, "The final model"
            w_s, b = _refit(self.loss, Xs[:, inner.support], ys, float(self.refit_gamma),
                            self.fit_intercept, float(self.time_limit))
        w = np.zeros(Xs.shape[1])
        w[inner.support] = w_s
        coef = w / self._std.scale
        self.coef_ = coef[None, :]
        self.intercept_ = np.array([b - float(coef @ self._std.mean)])
        self.support_ = np.asarray(res.inner.support, dtype=np.intp)
        self.used_ = np.abs(w) > NONZERO_TOL
        self.objective_ = float(res.upper)
        self.lower_bound_ = float(res.lower)
        self.gap_ = float(res.gap)
        self.status_ = res.status
        self.trace_ = res.trace

    def decision_function(self, X):
        """Signed score ``Xw + b``; positive means ``classes_[1]``.  Shape (n_samples,)."""
        check_is_fitted(self)
        X = validated(self, numbers_only(X, "The sparse model"), dtype=np.float64,
                          reset=False)
        return X @ self.coef_.ravel() + self.intercept_[0]

    def predict(self, X):
        """Predicted class labels, shape (n_samples,)."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def _is_logistic(self):
        return self.loss == "logistic"

    @available_if(_is_logistic)
    def predict_proba(self, X):
        """Class probabilities (logistic loss only), shape (n_samples, 2)."""
        p1 = expit(self.decision_function(X))
        return np.column_stack([1 - p1, p1])


def gamma_grid(X: np.ndarray, k: int, n_gamma: int = 6,
               fit_intercept: bool = True) -> np.ndarray:
    """The authors' γ grid: γ₀ doubled ``n_gamma − 1`` times; ``gamma="auto"`` is its 5th point.

    ``γ₀ = p / (k n mean_i ‖x_i‖²)`` on standardised features (= ``1 / (k n)``), the authors'
    ``p / (k n max_i ‖x_i‖²)`` with the mean row norm in place of the largest, which outlying
    rows made tiny (heavy regularisation) on real data (:func:`auto_gamma`).
    """
    X = np.asarray(X, dtype=np.float64)
    g0 = _gamma0(_Standardiser(X, fit_intercept)(X), int(k))
    return g0 * 2.0 ** np.arange(n_gamma)


class SparseClassifierCV(SparseClassifier):
    """SparseClassifier with k and γ chosen by validation AUC on a hold-out split.

    For each γ one cut pool is built on the training part and reused for every k (a cut depends
    on γ, not on k), so the supports and cuts found for small k warm-start larger k.

    Parameters
    ----------
    refit_gamma : float or None, default=1.0
        As in :class:`SparseClassifier`: the final model on the chosen support.
    ks : sequence of int, default=(1, 2, 3, 5, 8)
    gammas : sequence of float or None, default=None
        None: :func:`gamma_grid` with 6 values, γ₀ to 32 γ₀ (``gamma="auto"`` of
        :class:`SparseClassifier` is 16 γ₀ for the same k).
    validation_fraction : float, default=0.25
    loss, fit_intercept, warm_start, stochastic_cuts, tol, random_state
        As in :class:`SparseClassifier`.
    time_limit : float, default=10.0
        Seconds per grid point (and for the final refit).

    Attributes
    ----------
    k_, gamma_ : chosen values
    cv_results_ : list of dict (k, gamma, auc, status, gap, seconds)
    and every attribute of :class:`SparseClassifier` for the refit on all data.
    """

    def __init__(self, ks=(1, 2, 3, 5, 8), gammas=None, loss: str = "hinge",
                 fit_intercept: bool = True, time_limit: float = 10.0,
                 warm_start: str | None = "l1", stochastic_cuts: bool = False,
                 validation_fraction: float = 0.25, tol: float = 1e-6, random_state=None,
                 refit_gamma: float | None = REFIT_GAMMA):
        self.ks = ks
        self.refit_gamma = refit_gamma
        self.gammas = gammas
        self.loss = loss
        self.fit_intercept = fit_intercept
        self.time_limit = time_limit
        self.warm_start = warm_start
        self.stochastic_cuts = stochastic_cuts
        self.validation_fraction = validation_fraction
        self.tol = tol
        self.random_state = random_state

    @property
    def k(self):
        return getattr(self, "k_", max(self.ks) if len(self.ks) else 1)

    @property
    def gamma(self):
        return getattr(self, "gamma_", "auto")

    def fit(self, X, y, progress=None):
        """Grid search on a stratified hold-out split, then refit on all data.

        ``progress`` is called with ``(done, total, row)`` after each grid point.
        """
        if not len(self.ks) or any(int(k) < 1 for k in self.ks):
            raise ParameterError("ks must be a non-empty list of integers >= 1")
        if not 0 < self.validation_fraction < 1:
            raise ParameterError("validation_fraction must lie strictly between 0 and 1")
        for attr in ("k_", "gamma_"):
            self.__dict__.pop(attr, None)
        Xs, ys = self._prepare(X, y)
        rng = check_random_state(self.random_state)
        try:
            tr, va = train_test_split(np.arange(len(ys)), test_size=self.validation_fraction,
                                      stratify=ys, random_state=rng)
        except ValueError:
            # in the user's labels, not scikit-learn's message on the internal ±1 coding
            # ("Classes with too few members are: [-1.0, 1.0]": a notebook review)
            counts = ", ".join(f"{self.classes_[int(c > 0)].tolist()!r}: {int(n)}" for c, n in
                               zip(*np.unique(ys, return_counts=True), strict=True))
            raise DataError(
                "Too few rows of a class to hold some out for choosing k and γ (validation "
                f"share {self.validation_fraction:g}): rows per class {counts}. Give more "
                "rows, or fit SparseClassifier with k and γ chosen by hand.") from None
        if self.gammas is None:  # gamma_grid on the standardised rows: holds "auto" (16 γ₀)
            gammas = _gamma0(Xs, max(int(k) for k in self.ks)) * 2.0 ** np.arange(6)
        else:
            for g in self.gammas:
                _check_gamma(g, allow_auto=False)
            gammas = np.asarray(self.gammas, float)
        total, rows = len(gammas) * len(self.ks), []
        for g in gammas:
            oa = _OuterApproximation(self.loss, Xs[tr], ys[tr], float(g), self.fit_intercept, rng)
            for k in sorted(int(k) for k in self.ks):
                t0 = time.perf_counter()
                res = oa.solve(k, float(self.time_limit), tol=self.tol,
                               warm_start=_warm(self.warm_start),
                               stochastic=self.stochastic_cuts)
                score = Xs[va][:, res.inner.support] @ res.inner.w + res.inner.b
                auc = roc_auc_score(ys[va], score) if len(np.unique(ys[va])) > 1 else np.nan
                rows.append(dict(k=k, gamma=float(g), auc=float(auc), status=res.status,
                                 gap=res.gap, seconds=time.perf_counter() - t0))
                if progress is not None:
                    progress(len(rows), total, rows[-1])
        best = max(rows, key=lambda r: (np.nan_to_num(r["auc"], nan=-1.0), -r["k"]))
        self.cv_results_ = rows
        oa = _OuterApproximation(self.loss, Xs, ys, best["gamma"], self.fit_intercept, rng)
        res = oa.solve(best["k"], float(self.time_limit), tol=self.tol,
                       warm_start=_warm(self.warm_start), stochastic=self.stochastic_cuts)
        self._set_result(res, Xs, ys)
        self.k_, self.gamma_ = best["k"], best["gamma"]
        return self


__all__ = ["GAMMA_AUTO_FACTOR", "REFIT_GAMMA", "SparseClassifier", "SparseClassifierCV",
           "auto_gamma", "gamma_grid", "support_objective"]
