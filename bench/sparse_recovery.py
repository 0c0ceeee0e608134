"""Support recovery on synthetic Gaussian data (paper §3.1): true / false features against n.

Data as in the paper: rows ~ N(0, Σ) with Σ_ij = ρ^|i−j|, columns standardised, a true w with
exactly k non-zeros (±1), y = sign(Xw + ε) with ε scaled to the signal-to-noise ratio.  Every
method except L1 is told the true k; L1-logistic picks C by 5-fold CV (as a user would), which
is where Lasso's false discoveries show.  Reports means over repetitions.

    .venv/bin/python bench/sparse_recovery.py            # p=100, k=5 (about 5-8 min here)
    .venv/bin/python bench/sparse_recovery.py --quick    # smaller grid
    .venv/bin/python bench/sparse_recovery.py --p 1000 --k 10 --ns 500 1000 2000
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sparse_common import header, markdown, write

from rulecore.sparse import SparseClassifier, gamma_grid


def make(n, p, k, rho=0.2, snr=10.0, seed=0):
    rng = np.random.default_rng(seed)
    L = np.linalg.cholesky(rho ** np.abs(np.subtract.outer(np.arange(p), np.arange(p))))
    X = rng.normal(size=(n, p)) @ L.T
    X = (X - X.mean(0)) / X.std(0)
    true = np.sort(rng.choice(p, k, replace=False))
    w = np.zeros(p)
    w[true] = rng.choice([-1.0, 1.0], k)
    signal = X @ w
    eps = rng.normal(size=n) * np.sqrt(signal.var() / snr)
    y = (signal + eps > 0).astype(int)
    return X, y, true


def l1_support(X, y):
    from sklearn.linear_model import LogisticRegressionCV

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = LogisticRegressionCV(Cs=12, l1_ratios=(1.0,), solver="liblinear", cv=5,
                                 scoring="roc_auc", max_iter=500,
                                 use_legacy_attributes=False).fit(X, y)
    return np.flatnonzero(np.abs(m.coef_.ravel()) > 1e-8)


def abess_support(X, y, k):
    try:
        from abess import LogisticRegression as AbessLR
    except ImportError:
        return None
    m = AbessLR(support_size=[k]).fit(X, y)
    return np.flatnonzero(np.abs(np.asarray(m.coef_).ravel()) > 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--p", type=int, default=100)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--ns", type=int, nargs="+", default=[100, 200, 400, 800, 1600])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.quick:
        a.ns, a.reps = [100, 400, 1600], 2
    rows = []
    for n in a.ns:
        for rep in range(a.reps):
            X, y, true = make(n, a.p, a.k, seed=1000 * rep + n)
            g = float(gamma_grid(X, a.k)[2])  # 4 γ₀ (authors' grid, third value)
            fits = {}
            for loss in ("hinge", "logistic"):
                t0 = time.perf_counter()
                m = SparseClassifier(k=a.k, gamma=g, loss=loss, time_limit=a.time_limit).fit(X, y)
                fits[f"CIO {loss}"] = (m.support_, time.perf_counter() - t0, m.status_)
            t0 = time.perf_counter()
            fits["L1 logistic (CV)"] = (l1_support(X, y), time.perf_counter() - t0, "")
            t0 = time.perf_counter()
            s = abess_support(X, y, a.k)
            if s is not None:
                fits["abess"] = (s, time.perf_counter() - t0, "")
            for name, (s, sec, status) in fits.items():
                found = len(np.intersect1d(s, true))
                rows.append(dict(n=n, rep=rep, method=name, A=found, F=len(s) - found,
                                 exact=float(found == a.k and len(s) == a.k), seconds=sec,
                                 optimal=float(status in ("optimal", ""))))
            print(f"n={n} rep={rep} done", flush=True)
    df = pd.DataFrame(rows)
    agg = (df.groupby(["n", "method"], sort=True)
             .agg(true_found=("A", "mean"), false_found=("F", "mean"),
                  exact_recovery=("exact", "mean"), seconds=("seconds", "mean"),
                  certified=("optimal", "mean"))
             .reset_index())
    base = agg[agg.method == "L1 logistic (CV)"].set_index("n")["seconds"]
    agg["time vs L1"] = agg.seconds / agg.n.map(base)
    cmd = "bench/sparse_recovery.py " + ("--quick" if a.quick else
                                         f"--p {a.p} --k {a.k} --ns {' '.join(map(str, a.ns))}")
    text = (header(f"Sparse classification: support recovery, p = {a.p}, k = {a.k}", cmd)
            + f"\nρ = 0.2, SNR = 10, {a.reps} repetitions per n, γ = 4γ₀ "
            "(γ₀ = p / (k n max‖x_i‖²)); CIO and abess are given the true k, L1 picks C by "
            "5-fold CV AUC.  true_found = A (of k), false_found = F, "
            f"certified = share of fits proven optimal within {a.time_limit:g} s.\n\n"
            + markdown(agg) + "\n")
    write(a.out or f"sparse_recovery_p{a.p}_k{a.k}.md", text)


if __name__ == "__main__":
    main()
