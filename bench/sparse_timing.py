"""Time to certified optimality with the defaults: n = p = 1000, k = 10, strong signal.

The issue's target: ``SparseClassifier(k=10)`` with nothing else set (``gamma="auto"``,
``time_limit=60``, L1 + relaxation warm starts) certifies the optimum (gap <= 1e-4) in under
30 s, for the hinge and the logistic loss.  Per seed and loss the table gives the seconds, the
status and gap, the certified lower bound, the γ "auto" resolved to, whether the true support
was found, and the accuracy on 2,000 held-out rows of the same model; ratios against two
baselines in this process:

* ``vs_L1_fit``: seconds / one scikit-learn L1-logistic fit (liblinear, C = 0.1) on the same data;
* ``γ = 1.0``: the previous default, same settings otherwise (``--no-baseline`` skips it: it runs
  into the 60 s limit on every seed), with ``speed-up`` = its seconds / the default's.

``--sensitivity`` adds γ = 1, 4, 16, 64 × γ₀ (γ₀ = 1/(k n), the first point of ``gamma_grid``;
"auto" is 16 γ₀): certifying gets slower as γ grows, and at γ₀ the hinge model puts nearly every
row inside its margin, so its intercept is arbitrary and its accuracy near 0.5.

    OMP_NUM_THREADS=1 taskset -c 1 .venv/bin/python bench/sparse_timing.py --sensitivity
    .venv/bin/python bench/sparse_timing.py --quick      # 1 seed, no γ = 1.0 baseline
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sparse_common import header, markdown, write

from rulecore.sparse import GAMMA_AUTO_FACTOR, SparseClassifier, gamma_grid

LOSSES = ("hinge", "logistic")


def make(n, p, k, seed, n_test=0):
    """Strong signal: iid N(0, 1) features, k true ±1 weights, SNR 100 (noise sd 0.1 × signal sd).

    The training rows are the same for any ``n_test``; the held-out rows (same weights, same
    noise scale) come from a second generator.
    """
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    true = np.sort(rng.choice(p, k, replace=False))
    w = np.zeros(p)
    w[true] = rng.choice([-1.0, 1.0], k)
    signal = X @ w
    sd = 0.1 * signal.std()
    y = (signal + sd * rng.normal(size=n) > 0).astype(int)  # SNR = 100
    if not n_test:
        return X, y, true
    rt = np.random.default_rng([seed, 1])
    Xt = rt.normal(size=(n_test, p))
    yt = (Xt @ w + sd * rt.normal(size=n_test) > 0).astype(int)
    return X, y, true, Xt, yt


def fit(X, y, Xt, yt, true, **kw):
    t0 = time.perf_counter()
    m = SparseClassifier(**kw).fit(X, y)
    sec = time.perf_counter() - t0
    found = np.intersect1d(m.support_, true).size
    return dict(status=m.status_, gap=m.gap_, seconds=sec, lower=m.lower_bound_,
                objective=m.objective_, gamma=m.gamma_, iterations=len(m.trace_),
                n_cuts=m.trace_[-1]["cuts"] if m.trace_ else 0,
                true_support=bool(found == len(true) == len(m.support_)),
                true_found=f"{found}/{len(true)}", test_acc=float(m.score(Xt, yt)))


def summary(df, by):
    return (df.groupby(by, sort=False)
              .agg(seconds_mean=("seconds", "mean"), seconds_max=("seconds", "max"),
                   certified=("status", lambda s: f"{(s == 'optimal').sum()}/{len(s)}"),
                   max_gap=("gap", "max"), min_lower=("lower", "min"),
                   true_support=("true_support", lambda s: f"{s.sum()}/{len(s)}"),
                   test_acc=("test_acc", "mean"), iterations=("iterations", "mean"))
              .reset_index())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--p", type=int, default=1000)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--n-test", type=int, default=2000)
    ap.add_argument("--no-baseline", action="store_true", help="skip the γ = 1.0 runs")
    ap.add_argument("--sensitivity", action="store_true", help="also γ = 1, 4, 16, 64 × γ₀")
    ap.add_argument("--quick", action="store_true", help="1 seed, no baseline")
    a = ap.parse_args()
    if a.quick:
        a.seeds, a.no_baseline = 1, True
    from sklearn.linear_model import LogisticRegression

    rows, base_rows, sens_rows = [], [], []
    for seed in range(a.seeds):
        X, y, true, Xt, yt = make(a.n, a.p, a.k, seed, a.n_test)
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            LogisticRegression(C=0.1, l1_ratio=1.0, solver="liblinear").fit(X, y)
        l1 = time.perf_counter() - t0
        for loss in LOSSES:
            r = dict(seed=seed, loss=loss, **fit(X, y, Xt, yt, true, k=a.k, loss=loss))
            r["vs_L1_fit"] = r["seconds"] / l1
            rows.append(r)
            print("default", r, flush=True)
            if not a.no_baseline:
                b = dict(seed=seed, loss=loss,
                         **fit(X, y, Xt, yt, true, k=a.k, loss=loss, gamma=1.0))
                base_rows.append(b)
                print("gamma=1", b, flush=True)
            if a.sensitivity:
                g0 = float(gamma_grid(X, a.k)[0])
                for mult in (1, 4, 16, 64):
                    s = dict(seed=seed, loss=loss, gamma_mult=f"{mult}γ₀",
                             **fit(X, y, Xt, yt, true, k=a.k, loss=loss, gamma=g0 * mult))
                    sens_rows.append(s)
                    print("sensitivity", s, flush=True)

    df = pd.DataFrame(rows)
    agg = summary(df, ["loss"])
    agg["vs_L1_fit"] = df.groupby("loss", sort=False)["vs_L1_fit"].mean().to_numpy()
    cmd = ("OMP_NUM_THREADS=1 taskset -c 1 .venv/bin/python bench/sparse_timing.py"
           + "".join(f" --{o} {v}" for o, v in (("n", a.n), ("p", a.p), ("k", a.k))
                     if v != ap.get_default(o))
           + (" --quick" if a.quick else f" --seeds {a.seeds}")
           + (" --no-baseline" if a.no_baseline and not a.quick else "")
           + (" --sensitivity" if a.sensitivity else ""))
    text = (header(f"Sparse classification with the defaults: time to certified optimality, "
                   f"n = {a.n}, p = {a.p}, k = {a.k}", cmd)
            + f"\n`SparseClassifier(k={a.k}, loss=...)`, every other setting its default: "
            f"γ = \"auto\" ({GAMMA_AUTO_FACTOR:g} / (k n) = {df.gamma.iloc[0]:.3g} here), "
            "time limit 60 s, warm "
            "start = L1 path + Boolean relaxation, tol 1e-6.  Strong signal (SNR 100, iid "
            f"Gaussian features), seeds 0–{a.seeds - 1}; test_acc on {a.n_test:,} held-out "
            "rows of the same model.  Target: gap ≤ 1e-4 in < 30 s for both losses.  "
            "vs_L1_fit = seconds / one liblinear L1-logistic fit on the same data.\n\n"
            "## The defaults\n\n" + markdown(agg) + "\n\nPer run:\n\n"
            + markdown(df.drop(columns=["iterations"])) + "\n")
    if base_rows:
        bdf = pd.DataFrame(base_rows)
        bagg = summary(bdf, ["loss"])
        ratio = (bdf.groupby("loss", sort=False)["seconds"].mean()
                 / df.groupby("loss", sort=False)["seconds"].mean())
        bagg["speed-up"] = [f"≥ {v:.0f}×" if (bdf[bdf.loss == lo].status != "optimal").any()
                            else f"{v:.1f}×" for lo, v in ratio.items()]
        text += ("\n## Baseline: the previous default γ = 1.0\n\n"
                 "Same data and settings, `gamma=1.0`.  speed-up = its mean seconds / the "
                 "default's (a lower bound where it stopped at the time limit).  These runs "
                 "have the current lower bound (the best single cut scaled along its ray); "
                 "before it, the hinge fits ended with lower bound 0 and gap 1.0.\n\n"
                 + markdown(bagg) + "\n\nPer run:\n\n"
                 + markdown(bdf.drop(columns=["iterations"])) + "\n")
    if sens_rows:
        sdf = pd.DataFrame(sens_rows)
        text += ("\n## Sensitivity: γ as a multiple of γ₀ = 1/(k n)\n\n"
                 "\"auto\" is 16 γ₀.  Below it the hinge model keeps nearly every row "
                 "inside its margin, where its intercept is arbitrary: poor test accuracy at "
                 "γ₀ and 4 γ₀ although the support is right.  Above it the test accuracy "
                 "gains a little while certifying gets much slower (hinge), as the paper "
                 "found (§3.2).\n\n"
                 + markdown(summary(sdf, ["gamma_mult", "loss"])) + "\n")
    write("sparse_timing.md", text)


if __name__ == "__main__":
    main()
