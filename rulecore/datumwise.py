"""Datum-wise sparse classification (DWSM-Un and DWSM-Con), docs/datumwise.md.

Dulac-Arnold et al., "Datum-wise classification: a sequential approach to sparsity"
(ECML 2011).  Each datum is classified by a short episode of a deterministic MDP:

* state ``(x, z)``, ``z ∈ {0,1}^d`` the features acquired so far;
* actions: acquire an unseen feature ``j`` (reward ``-λ c_j``, ``c_j = 1`` unless
  ``feature_costs`` is given) or classify as label ``k`` (terminal; reward ``-1[k != y]``).

The undiscounted return is ``-(loss + λ Σ_j c_j z_j)``, so maximising it minimises the
datum-wise L0-regularised risk of the paper's eq. (2).  The policy is greedy on one linear
score per action, ``Q(s, a) = <θ_a, φ(x, z)>`` with ``φ(x, z) = [x∘z ; z ; 1]`` (the
block-vector trick of §3.2 is the same thing as one weight row per action).  Learning is
approximate policy iteration with rollouts (§3.3), mixed with the previous policy.

DWSM-Con (§4, eq. 3-4): the acquisition scores see only ``[z ; 1]``, so from the empty state
every datum walks the same feature order and only the moment it stops differs.

Departures from the paper (its formulas and some constants were lost from our copy):

* Features are standardised on the training set before ``x∘z`` (the paper used LibSVM's
  [-1, 1] scaling); an unseen feature then reads 0 = its training mean.
* Rollout states: the paper draws ``z`` from a "uniform binomial".  We draw the mask *size*
  uniformly in ``{0..d}`` (so the empty start state and short prefixes are not vanishingly
  rare for d = 60), and from the second iteration on draw ``on_policy`` of the states from the
  trajectories of the current policy, which is where its decisions matter.
* The α-mixture mixes the *parameters*: ``θ ← α θ_new + (1-α) θ_old``.  The paper's mixture
  policy picks one of the two policies at random per step; mixing the linear scores is the
  deterministic analogue and keeps a single linear scorer.  The paper's α value was lost.
* The initial policy classifies at once with scorers fitted to the (policy-independent)
  classification returns, so the first rollouts already measure what one more feature buys.
* Scores are fitted by ridge regression (``ridge``) rather than plain least squares, for
  stability when a feature action is available in few sampled states.
* Rollouts keep their scores in float32 (memory-bound loop); ``explain`` follows the same path
  and reports float64 scores along it.
* Classification values are least-squares fits to ``-1[k != y]`` as in the paper; with 3+
  classes least squares "masks" middle classes (iris: 0.80 test accuracy), so there the
  label is picked by multinomial logistic logits on the same φ, while the least-squares
  values still decide when to stop.  Binary problems are exactly the paper's scheme.
* The returned policy is the iterate with the best training objective (a cheap guard against
  the oscillations API can show), recorded in ``history_``.
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_limits

from rulecore.encode import (
    check_memory,
    check_seconds,
    check_seed,
    class_targets,
    dense_bytes,
    numbers_only,
    validated,
)
from rulecore.exceptions import DataError, ParameterError

__all__ = [
    "DatumWiseClassifier",
    "DatumExplanation",
    "PolicyRun",
    "lambda_curve",
    "l1_svm_curve",
    "accuracy_at_sparsity",
]

# Rollouts run in blocks of at most this many (episode × action) score cells, so their
# memory (~30 bytes a cell: float32 scores and inputs, the mask, the acquisition order) stays
# near 100 MB whatever n_states and the feature count; a policy iteration rolls out every
# (state, unseen feature) pair, up to n_states × d episodes.
_ROLLOUT_CELLS = 4_000_000

#: ``class_weight="auto"`` balances the classes when one has under this share of the
#: training rows: unweighted, the first policy on a rare class read no feature and always
#: predicted the majority (a stranger's review); wine's 27-40 % classes stay unweighted.
RARE_CLASS_SHARE = 0.2


def has_rare_class(y: np.ndarray | pd.Series) -> bool:
    """Whether some class of ``y`` (labels, shape (n_samples,)) has under
    :data:`RARE_CLASS_SHARE` of the rows: where ``class_weight="auto"`` balances them (the
    Datum-wise page's default asks the same)."""
    counts = np.unique(np.asarray(y), return_counts=True)[1]
    return bool(len(counts) and counts.min() < RARE_CLASS_SHARE * counts.sum())


def _show(value) -> str:
    """A setting as a person would type it: ``3``, not ``np.int64(3)``."""
    return repr(value.item() if isinstance(value, np.generic) else value)


class _OutOfTime(Exception):
    """The time limit passed during a policy iteration; ``policy`` is the one being rolled out."""

    def __init__(self, policy: np.ndarray) -> None:
        super().__init__("time limit")
        self.policy = policy


@dataclass
class PolicyRun:
    """The outcome of running a policy on a batch of data.

    Attributes
    ----------
    labels : ndarray of shape (n,)
        Predicted class *index* (into ``classes_``).
    used : ndarray of shape (n, d), bool
        Features acquired for each datum.
    order : ndarray of shape (n, d), int
        ``order[i, t]`` is the t-th feature acquired for datum i, -1 after the episode ended.
    cost : ndarray of shape (n,)
        Acquisition cost ``Σ_j c_j z_j`` paid per datum (without λ).
    """

    labels: np.ndarray
    used: np.ndarray
    order: np.ndarray
    cost: np.ndarray


@dataclass
class DatumExplanation:
    """The acquisition sequence of one datum with the action scores at every step.

    Attributes
    ----------
    features : list of int
        Features acquired, in order.
    feature_names : list of str
        Their names.
    values : list of float
        Their raw (unscaled) values.
    prediction : object
        The label chosen at the end.
    steps : list of dict
        One per decision: ``step``, ``action`` ("acquire" / "classify"), ``feature`` (index or
        None), ``name``, ``value``, ``label`` (for "classify"), ``chosen_score``,
        ``best_acquire_score``, ``best_classify_score`` and ``scores`` (ndarray over the
        ``d + K`` actions, NaN for features already acquired).
    """

    features: list[int]
    feature_names: list[str]
    values: list[float]
    prediction: object
    steps: list[dict] = field(default_factory=list)

    def to_frame(self) -> pd.DataFrame:
        """One row per decision, without the full score vector."""
        rows = [{k: v for k, v in s.items() if k != "scores"} for s in self.steps]
        return pd.DataFrame(rows)


class DatumWiseClassifier(ClassifierMixin, BaseEstimator):
    """Datum-wise sparse classifier learned by approximate policy iteration (docs/datumwise.md).

    Parameters
    ----------
    feature_cost : float, default=0.01
        λ, the price of one feature relative to a classification error (which costs 1).
    constrained : bool, default=False
        DWSM-Con: one learned acquisition order shared by all data; only the stop varies.
    n_states : int, default=2000
        Rollout states sampled per policy iteration.
    n_iterations : int, default=10
        Policy iterations.
    mixture : float, default=0.5
        α in ``θ ← α θ_new + (1-α) θ_old``; 1 means plain policy iteration.
    feature_costs : array-like of shape (n_features,), optional
        Per-feature costs ``c_j ≥ 0``; acquiring j then costs ``λ c_j``.
    ridge : float, default=1.0
        Ridge penalty of the per-action regressions.
    on_policy : float, default=0.5
        Share of rollout states drawn from trajectories of the current policy (after the
        first iteration); the rest are random masks.
    time_limit : float, optional
        Seconds.  Checked between blocks of rollouts: an iteration still running at the limit
        is abandoned and the best finished policy kept (the initial classify-at-once policy
        when none has finished), with ``status_ == "time_limit"``.
    random_state : int, RandomState or None, default=None
    class_weight : None, "balanced", "auto" or dict, default=None
        What a wrong answer costs per true class: None, 1 for every class (the paper);
        ``"balanced"``, ``n / (K n_k)``, so each class's errors weigh alike in total (on a
        15 % class the unweighted policy never predicted it, whatever λ: a stranger's
        review); ``"auto"``, balanced when a class has under :data:`RARE_CLASS_SHARE` of the
        training rows, else None (the app's default); a dict ``{label: weight}``.  The
        weights are scaled to average 1 over the training rows, so λ keeps its meaning: the
        price of a feature against an average error.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    class_weight_ : ndarray of shape (K,)
        The cost of a wrong answer per class, in ``classes_`` order (mean 1 over the rows).
    coef_ : ndarray of shape (n_features + K (+ K if K >= 3), 2 * n_features + 1)
        One score row per action (features first, then classes) over ``[x∘z ; z ; 1]``
        (x standardised with ``mean_`` and ``scale_``); with 3+ classes, K more rows of
        class logits that pick the label once the policy stops.
    mean_, scale_ : ndarray of shape (n_features,)
    history_ : list of dict
        Per iteration: ``iteration``, ``objective`` (training ``loss + λ·cost``), ``error``,
        ``mean_features``, ``seconds``.
    n_iter_ : int
        Iterations run.
    status_ : str
        "completed" or "time_limit".
    best_iteration_ : int
        Iteration whose policy was kept.
    """

    def __init__(
        self,
        feature_cost: float = 0.01,
        constrained: bool = False,
        n_states: int = 2000,
        n_iterations: int = 10,
        mixture: float = 0.5,
        feature_costs=None,
        ridge: float = 1.0,
        on_policy: float = 0.5,
        time_limit: float | None = None,
        random_state=None,
        class_weight=None,
    ):
        self.feature_cost = feature_cost
        self.constrained = constrained
        self.n_states = n_states
        self.n_iterations = n_iterations
        self.mixture = mixture
        self.feature_costs = feature_costs
        self.ridge = ridge
        self.on_policy = on_policy
        self.time_limit = time_limit
        self.random_state = random_state
        self.class_weight = class_weight

    # ------------------------------------------------------------------ checks
    def _check_params(self, d: int) -> np.ndarray:
        lam = self.feature_cost
        # "a" reached the user as numpy's TypeError from isfinite (a notebook review)
        if isinstance(lam, bool) or not isinstance(lam, numbers.Real) or \
                not np.isfinite(lam) or lam < 0:
            raise ParameterError(f"feature_cost must be a number >= 0, got {_show(lam)}.")
        for name in ("n_states", "n_iterations"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
                raise ParameterError(f"{name} must be an integer >= 1, got {_show(v)}.")
        if not (0 < self.mixture <= 1):
            raise ParameterError(f"mixture must be in (0, 1], got {_show(self.mixture)}.")
        if not (0 <= self.on_policy <= 1):
            raise ParameterError(
                f"on_policy must be in [0, 1], got {_show(self.on_policy)}.")
        if self.ridge < 0:
            raise ParameterError(f"ridge must be >= 0, got {_show(self.ridge)}.")
        check_seconds(self.time_limit, optional=True)
        check_seed(self.random_state)
        if self.feature_costs is None:
            return np.ones(d)
        try:
            c = np.asarray(self.feature_costs, dtype=float).ravel()
        except (TypeError, ValueError):
            c = np.array([np.nan])  # not numbers: said below
        if c.shape != (d,) or not np.all(np.isfinite(c)) or np.any(c < 0):
            raise ParameterError(
                f"feature_costs must hold {d} finite numbers >= 0 (one per feature)."
            )
        return c

    # ------------------------------------------------------------------ core
    def _phi(self, Xs: np.ndarray, Z: np.ndarray) -> np.ndarray:
        """φ(x, z) = [x∘z ; z ; 1], shape (n, 2d + 1)."""
        return np.hstack([Xs * Z, Z, np.ones((len(Xs), 1))])

    def _run(self, W: np.ndarray, Xs: np.ndarray, Z0: np.ndarray, costs: np.ndarray) -> PolicyRun:
        """Greedy rollouts of the policy W from the states (Xs[i], Z0[i]), in row blocks."""
        step = max(1, _ROLLOUT_CELLS // (W.shape[0] + 1))
        if len(Xs) <= step:
            return self._run_block(W, Xs, Z0, costs)
        runs = [self._run_block(W, Xs[a:a + step], Z0[a:a + step], costs)
                for a in range(0, len(Xs), step)]
        return PolicyRun(labels=np.concatenate([r.labels for r in runs]),
                         used=np.concatenate([r.used for r in runs]),
                         order=np.concatenate([r.order for r in runs]),
                         cost=np.concatenate([r.cost for r in runs]))

    def _run_block(self, W: np.ndarray, Xs: np.ndarray, Z0: np.ndarray,
                   costs: np.ndarray) -> PolicyRun:
        """Greedy rollouts of the policy W from the states (Xs[i], Z0[i]), all at once.

        Scores are updated incrementally (paper §5): acquiring j adds ``x_j θ_a[j] + θ_a[d+j]``
        to every action's score, so a step costs O(d + K) per datum instead of O((d + K) d).
        """
        n, d = Xs.shape
        Z = Z0.copy()
        # float32 scores: the rollouts are memory-bound and this halves the traffic.
        S = (self._phi(Xs, Z) @ W.T).astype(np.float32)  # (n, d + K)
        S[:, :d][Z] = -np.inf  # a feature can be acquired once
        Wx = W[:, :d].T.astype(np.float32)  # (d, A): row j = what acquiring j adds, per x_j
        Wz = W[:, d : 2 * d].T.astype(np.float32)  # (d, A): ... and for z_j = 1
        Xs32 = Xs.astype(np.float32)
        n_act = d + len(self.classes_)  # rows past n_act: class logits (3+ classes only)
        labels = np.empty(n, dtype=int)
        order = np.full((n, d), -1, dtype=int)
        cost = np.zeros(n)
        active = np.arange(n)
        for t in range(d + 1):  # at most d acquisitions, then every feature score is -inf
            a = np.argmax(S[:, :n_act], axis=1)  # S: rows of the still-running episodes only
            stop = a >= d
            # Stop when the best class *value* wins; the label comes from the logits if any.
            labels[active[stop]] = (np.argmax(S[stop, n_act:], axis=1) if S.shape[1] > n_act
                                    else a[stop] - d)
            go = ~stop
            active, j, S = active[go], a[go], S[go]
            if active.size == 0:
                break
            r = np.arange(active.size)
            Z[active, j] = True
            cost[active] += costs[j]
            order[active, t] = j
            S += Xs32[active, j][:, None] * Wx[j] + Wz[j]
            S[r, j] = -np.inf
        return PolicyRun(labels=labels, used=Z, order=order, cost=cost)

    def _ridge_fit(self, Phi: np.ndarray, T: np.ndarray) -> np.ndarray:
        """Least squares of T on Phi with an L2 penalty (bias not penalised); (p, k)."""
        p = Phi.shape[1]
        G = Phi.T @ Phi
        reg = np.full(p, self.ridge)
        reg[-1] = 1e-6  # the last column is the bias
        G[np.diag_indices(p)] += reg
        try:
            return np.linalg.solve(G, Phi.T @ T)
        except np.linalg.LinAlgError:  # ridge = 0 on a rank-deficient design
            return np.linalg.lstsq(G, Phi.T @ T, rcond=None)[0]

    def _sample_states(self, rng, Xs, W, costs, n_states):
        n, d = Xs.shape
        idx = rng.randint(n, size=n_states)
        # Random masks with a uniformly drawn size (see module docstring).
        size = rng.randint(d + 1, size=n_states)
        ranks = np.argsort(rng.rand(n_states, d), axis=1).argsort(axis=1)
        Z = ranks < size[:, None]
        n_on = int(round(self.on_policy * n_states)) if W is not None else 0
        if n_on:
            # States on the current policy's trajectories: a random prefix of the episode.
            run = self._run(W, Xs[idx[:n_on]], np.zeros((n_on, d), bool), costs)
            length = run.used.sum(axis=1)
            t = np.floor(rng.rand(n_on) * (length + 1)).astype(int)
            pos = np.where(run.order >= 0, np.arange(d)[None, :], d)
            Zon = np.zeros((n_on, d), bool)
            rows, cols = np.nonzero((pos < t[:, None]) & (run.order >= 0))
            Zon[rows, run.order[rows, cols]] = True
            Z[:n_on] = Zon
        return idx, Z

    def _class_weights(self, yi: np.ndarray, K: int) -> np.ndarray:
        """Per class index, the cost of a wrong answer, scaled to mean 1 over the rows."""
        cw = self.class_weight
        counts = np.bincount(yi, minlength=K).astype(float)
        if isinstance(cw, str) and cw == "auto":
            cw = "balanced" if has_rare_class(yi) else None
        if cw is None:
            return np.ones(K)
        if isinstance(cw, str) and cw == "balanced":
            w = len(yi) / (K * np.maximum(counts, 1.0))
        elif isinstance(cw, dict):
            unknown = [k for k in cw if k not in set(self.classes_.tolist())]
            if unknown:
                raise ParameterError(f"class_weight names {unknown!r}, not classes of y "
                                     f"({', '.join(map(repr, self.classes_.tolist()))}).")
            w = np.array([float(cw.get(c, 1.0)) for c in self.classes_.tolist()])
            if not np.all(np.isfinite(w)) or np.any(w < 0) or not (w @ counts) > 0:
                raise ParameterError("class_weight values must be finite, non-negative and "
                                     "not all zero.")
        else:
            raise ParameterError(f"class_weight must be None, 'balanced', 'auto' or a dict "
                                 f"{{label: weight}}, not {cw!r}.")
        return w * len(yi) / float(w @ counts)

    def _fit_scores(self, Xs, yi, idx, Z, W, costs, lam, K, deadline=None):
        """One API step: rollout returns for every (state, action) and the regressions.

        Raises _OutOfTime (with the policy rolled out) when ``deadline`` passes between two
        blocks of rollouts.
        """
        n_s, d = Z.shape
        Phi = self._phi(Xs[idx], Z)
        W_new = np.zeros((d + K + (K if K >= 3 else 0), 2 * d + 1))
        # Classify as k: return -w_y 1[k != y] (w = 1 unweighted), the same under every policy.
        wk = self.class_weight_
        T_cls = -((yi[idx][:, None] != np.arange(K)[None, :]) * wk[yi[idx]][:, None])
        W_new[d : d + K] = self._ridge_fit(Phi, T_cls).T
        if K >= 3:
            # Departure: least squares on one-hot targets masks middle classes, so with 3+
            # classes the label is the argmax of multinomial logistic logits on the same φ
            # (docs/datumwise.md allows a cost-sensitive multiclass fit); the LS scores still value
            # stopping.  Falls back to the LS scores if a class is missing from the sample.
            W_new[d + K :] = W_new[d : d + K]
            if len(np.unique(yi[idx])) == K:
                lr = LogisticRegression(C=1.0, max_iter=300).fit(Phi[:, :-1], yi[idx],
                                                                 sample_weight=wk[yi[idx]])
                W_new[d + K :, :-1], W_new[d + K :, -1] = lr.coef_, lr.intercept_
        if W is None:
            # Initial policy: classify at once with these scorers (never acquire).
            W = W_new.copy()
            W[:d, -1] = -10.0
        # Acquire j from (x, z): -λ c_j + return of the policy from (x, z + e_j).
        s, j = np.nonzero(~Z)
        ret = np.empty(len(s))
        step = max(1, _ROLLOUT_CELLS // (W.shape[0] + 1))
        for a in range(0, len(s), step):
            if deadline is not None and time.perf_counter() > deadline:
                raise _OutOfTime(W)
            b = slice(a, a + step)
            Z1 = Z[s[b]]
            Z1[np.arange(len(Z1)), j[b]] = True
            run = self._run_block(W, Xs[idx[s[b]]], Z1, costs)
            y_b = yi[idx[s[b]]]
            ret[b] = -lam * (costs[j[b]] + run.cost) - wk[y_b] * (run.labels != y_b)
        # Constrained (eq. 3-4): acquisition scores see only [z ; 1].
        cols = np.r_[d : 2 * d + 1] if self.constrained else np.arange(2 * d + 1)
        for f in range(d):
            rows = j == f
            if rows.any():
                W_new[f, cols] = self._ridge_fit(Phi[s[rows]][:, cols], ret[rows][:, None])[:, 0]
        return W_new

    def _objective(self, W, Xs, yi, costs, lam):
        run = self._run(W, Xs, np.zeros(Xs.shape, bool), costs)
        wrong = run.labels != yi
        err = float(np.mean(wrong))  # said as is; the objective weighs it by class
        loss = float(np.mean(self.class_weight_[yi] * wrong))
        return loss + lam * float(run.cost.mean()), err, float(run.used.sum(1).mean())

    # ------------------------------------------------------------------ API
    def fit(self, X, y, callback: Callable[[int, int], None] | None = None):
        """Learn the acquisition-and-classification policy.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features.
        y : array-like of shape (n_samples,)
            Class labels (binary or multi-class).
        callback : callable(done, total), optional
            Called after each policy iteration (progress bars).

        Returns
        -------
        self

        Raises
        ------
        DataError
            When the data would exceed the memory budget (the float copies of ``X`` and the
            acquisition order of every row).
        """
        shape = getattr(X, "shape", ())
        if len(shape) == 2:
            # X as float64, its standardised copy, and a rollout's used mask and order (int)
            check_memory(dense_bytes(*shape, itemsize=25),
                         f"The datum-wise classifier on {shape[0]:,} rows × {shape[1]:,} "
                         "features", "Use a sample of the rows or fewer features.")
        X, y = validated(self, numbers_only(X, "The datum-wise classifier"), y,
                         dtype=np.float64)
        class_targets(y, "The datum-wise classifier")
        # Many small BLAS calls: one thread avoids the oversubscription that slows them
        # down badly on a shared 2-core machine.
        with threadpool_limits(1):
            return self._fit(X, y, callback)

    def _fit(self, X, y, callback=None):
        t0 = time.perf_counter()
        n, d = X.shape
        costs = self._check_params(d)
        lam = float(self.feature_cost)
        self.classes_, yi = np.unique(y, return_inverse=True)
        K = len(self.classes_)
        self.class_weight_ = self._class_weights(yi, K)
        self.mean_ = X.mean(axis=0)
        sd = X.std(axis=0)
        self.scale_ = np.where(sd > 1e-12, sd, 1.0)
        Xs = (X - self.mean_) / self.scale_
        self.costs_ = costs
        self.history_ = []
        self.status_ = "completed"
        if K == 1:
            # One class: classify at once, acquire nothing.
            W = np.zeros((d + 1, 2 * d + 1))
            W[:d, -1] = -1.0
            self.coef_, self.n_iter_, self.best_iteration_ = W, 0, 0
            return self
        if n < 2:
            raise DataError("DatumWiseClassifier needs at least 2 samples.")
        rng = check_random_state(self.random_state)
        deadline = None if self.time_limit is None else t0 + self.time_limit
        W, best = None, (np.inf, None, -1)
        for it in range(self.n_iterations):
            idx, Z = self._sample_states(rng, Xs, W, costs, self.n_states)
            try:
                W_new = self._fit_scores(Xs, yi, idx, Z, W, costs, lam, K, deadline)
            except _OutOfTime as out:
                self.status_ = "time_limit"
                if best[1] is not None:
                    break
                W_new = out.policy  # nothing finished: keep the classify-at-once policy
            W = W_new if W is None else self.mixture * W_new + (1 - self.mixture) * W
            obj, err, nf = self._objective(W, Xs, yi, costs, lam)
            elapsed = time.perf_counter() - t0
            self.history_.append(
                {"iteration": it, "objective": obj, "error": err, "mean_features": nf,
                 "seconds": elapsed}
            )
            if obj < best[0] - 1e-12:
                best = (obj, W.copy(), it)
            if callback is not None:
                callback(it + 1, self.n_iterations)
            if self.time_limit is not None and elapsed > self.time_limit:
                self.status_ = "time_limit"
            if self.status_ == "time_limit":
                break
        self.n_iter_ = len(self.history_)
        _, self.coef_, self.best_iteration_ = best
        return self

    def _scaled(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validated(self, numbers_only(X, "The datum-wise classifier"), reset=False,
                          dtype=np.float64)
        return (X - self.mean_) / self.scale_

    def run_policy(self, X) -> PolicyRun:
        """Run the learned policy from the empty state on every row of X (see PolicyRun)."""
        Xs = self._scaled(X)
        return self._run(self.coef_, Xs, np.zeros(Xs.shape, bool), self.costs_)

    def predict(self, X) -> np.ndarray:
        """Predicted labels, shape (n_samples,)."""
        labels = self.run_policy(X).labels  # checks fitted first
        return self.classes_[labels]

    def features_used(self, X) -> np.ndarray:
        """Boolean mask of shape (n_samples, n_features): features the policy acquired."""
        return self.run_policy(X).used

    def mean_features_used(self, X) -> float:
        """Mean number of features acquired per datum."""
        return float(self.features_used(X).sum(axis=1).mean())

    def mean_sparsity(self, X) -> float:
        """Mean share of features NOT used per datum (the paper's DWSM sparsity, §6)."""
        return float(1.0 - self.features_used(X).mean())

    def explain(self, x) -> DatumExplanation:
        """The acquisition sequence of one datum with every action's score at each step.

        Parameters
        ----------
        x : array-like of shape (n_features,) or (1, n_features)
        """
        check_is_fitted(self)  # NotFittedError, not an AttributeError on mean_
        if isinstance(x, pd.Series):
            x = x.to_frame().T
        raw = validated(self, np.atleast_2d(x) if not isinstance(x, pd.DataFrame) else x,
                            reset=False, dtype=np.float64)
        if raw.shape[0] != 1:
            raise DataError(f"explain takes one datum, got {raw.shape[0]} rows.")
        raw = raw[0]
        xs = (raw - self.mean_) / self.scale_
        d, W = len(xs), self.coef_
        names = [str(c) for c in getattr(self, "feature_names_in_", [f"x{j}" for j in range(d)])]
        # The path is the policy's own (the batched run predict uses); the scores along it
        # are recomputed in float64 for display.
        run = self._run(W, xs[None, :], np.zeros((1, d), bool), self.costs_)
        feats = [int(j) for j in run.order[0] if j >= 0]
        z = np.zeros(d, bool)
        steps = []
        n_act = d + len(self.classes_)
        for t, a in enumerate(feats + [d + int(run.labels[0])]):
            sc = (W @ np.r_[xs * z, z, 1.0])[:n_act]
            sc[:d][z] = np.nan
            best_acq = float(np.nanmax(sc[:d])) if not z.all() else float("nan")
            steps.append({"step": t, "action": "acquire" if a < d else "classify",
                          "feature": a if a < d else None, "name": names[a] if a < d else None,
                          "value": float(raw[a]) if a < d else None,
                          "label": None if a < d else self.classes_[a - d],
                          "chosen_score": float(sc[a] if a < d else np.max(sc[d:])),
                          "best_acquire_score": best_acq,
                          "best_classify_score": float(np.max(sc[d:])), "scores": sc})
            if a < d:
                z[a] = True
        return DatumExplanation(features=feats, feature_names=[names[j] for j in feats],
                                values=[float(raw[j]) for j in feats],
                                prediction=steps[-1]["label"], steps=steps)


def lambda_curve(
    X_train,
    y_train,
    X_test,
    y_test,
    lambdas: Sequence[float],
    constrained: bool = False,
    progress: Callable[[int, int], None] | None = None,
    **params,
) -> pd.DataFrame:
    """Test accuracy and mean sparsity of DWSM over a grid of λ (the paper's Fig. 3 curve).

    Parameters
    ----------
    X_train, y_train, X_test, y_test : array-like
    lambdas : sequence of float
        Feature costs λ to fit.
    constrained : bool
        DWSM-Con instead of DWSM-Un.
    progress : callable(done, total), optional
        Called after each fit.
    **params
        Other DatumWiseClassifier parameters.

    Returns
    -------
    DataFrame with columns ``model``, ``param`` (λ), ``sparsity``, ``mean_features``,
    ``accuracy``, ``seconds``, ``status``.
    """
    rows = []
    name = "DWSM-Con" if constrained else "DWSM-Un"
    for k, lam in enumerate(lambdas):
        t = time.perf_counter()
        m = DatumWiseClassifier(feature_cost=float(lam), constrained=constrained, **params)
        m.fit(X_train, y_train)
        secs = time.perf_counter() - t
        run = m.run_policy(X_test)
        rows.append({"model": name, "param": float(lam), "sparsity": 1.0 - run.used.mean(),
                     "mean_features": float(run.used.sum(1).mean()),
                     "accuracy": float(np.mean(m.classes_[run.labels] == np.asarray(y_test))),
                     "seconds": secs, "status": m.status_})
        if progress is not None:
            progress(k + 1, len(lambdas))
    return pd.DataFrame(rows)


def l1_svm_curve(X_train, y_train, X_test, y_test, Cs: Sequence[float] | None = None
                 ) -> pd.DataFrame:
    """The L1-SVM baseline curve: ``LinearSVC(penalty="l1", dual=False)`` over a C grid.

    Features are standardised on the training part.  Sparsity is the share of features with
    a zero weight in every class model (paper §6).  Same columns as :func:`lambda_curve`.
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import LinearSVC

    Cs = np.logspace(-3, 1, 17) if Cs is None else Cs
    sc = StandardScaler().fit(X_train)
    Xtr, Xte = sc.transform(X_train), sc.transform(X_test)
    rows = []
    for C in Cs:
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            m = LinearSVC(penalty="l1", dual=False, C=float(C), max_iter=5000,
                          random_state=0).fit(Xtr, y_train)  # liblinear shuffles
        used = np.any(np.abs(np.atleast_2d(m.coef_)) > 1e-10, axis=0)
        rows.append({"model": "L1-SVM", "param": float(C), "sparsity": 1.0 - used.mean(),
                     "mean_features": float(used.sum()),
                     "accuracy": float(np.mean(m.predict(Xte) == np.asarray(y_test))),
                     "seconds": time.perf_counter() - t, "status": "completed"})
    return pd.DataFrame(rows)


def accuracy_at_sparsity(curve: pd.DataFrame, level: float) -> float:
    """Accuracy read off a curve at one sparsity by linear interpolation (paper Table 2).

    NaN when the curve does not reach that sparsity.  Points sharing a sparsity are averaged.
    """
    sp = np.round(np.asarray(curve["sparsity"], dtype=float), 9)
    acc = np.asarray(curve["accuracy"], dtype=float)
    if sp.size == 0 or level < sp.min() - 1e-9 or level > sp.max() + 1e-9:
        return float("nan")
    u, inv = np.unique(sp, return_inverse=True)
    a = np.bincount(inv, weights=acc) / np.bincount(inv)
    return float(np.interp(level, u, a))
