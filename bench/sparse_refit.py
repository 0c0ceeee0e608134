"""The sparse models' final coefficients: the certified support problem's (γ auto, shrunk)
against a refit on that support with ``refit_gamma`` (γ = 1, scikit-learn's C = 1 on the
standardised features), on the tables analysts bring and on public sets.

For each table: one stratified 75/25 split (seed 0), columns made numeric as the Compare page
does (``rulecore.data.to_numeric``, median imputation), ``SparseClassifier(k=3)`` (the
Compare page's default size) with both losses, fitted once with ``refit_gamma=None`` (the
γ-auto coefficients) and once with the default refit.  The support, the objective and the
certificate are the same in both (the refit only re-estimates the coefficients on the k
chosen features); the table gives held-out accuracy, balanced accuracy and AUC, and the
majority class's accuracy beside them.

    .venv/bin/python bench/sparse_refit.py --out bench/results/sparse_refit.md
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
from sparse_common import header, markdown  # noqa: E402

CORPUS = ["google_forms_export.csv", "r_credit_rownames.csv", "lab_values_with_codes.csv",
          "clinic_values_with_units.csv", "db_churn_ids_dates.csv", "renewals_typed_yn.csv",
          "stats_package_missing_codes.csv", "diabetes_zero_unmeasured.csv",
          "sap_receivables_footer.csv", "experience_typed_approx.csv"]
SAMPLES = ["iris", "breast cancer", "machine failure", "salesforce attrition"]
PUBLIC = ["pima", "ionosphere", "sonar", "wdbc", "bupa", "transfusion", "ilpd", "banknote"]


def tables():
    from rulecore import load_sample
    from rulecore.data import load_csv

    for name in CORPUS:
        ds = load_csv(ROOT / "tests" / "data" / name, continuous="median")
        yield name, ds.X, ds.kinds, ds.y_binary
    for name in SAMPLES:
        ds = load_sample(name)
        yield f"sample: {name}", ds.X, ds.kinds, ds.y_binary
    import datasets

    for name in PUBLIC:
        X, y = datasets.load(name)
        classes = np.unique(y)
        yield name, X, {}, (y == classes[-1]).astype(int)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    from sklearn.metrics import balanced_accuracy_score, roc_auc_score
    from sklearn.model_selection import train_test_split

    from rulecore.data import to_numeric
    from rulecore.sparse import SparseClassifier

    rows = []
    for name, X, kinds, y in tables():
        Xn = to_numeric(X, kinds) if kinds else X.apply(pd.to_numeric, errors="coerce")
        Xn = Xn.fillna(Xn.median()).fillna(0.0).to_numpy(float)
        tr, te = train_test_split(np.arange(len(y)), test_size=0.25, stratify=y,
                                  random_state=0)
        maj = max(y[te].mean(), 1 - y[te].mean())
        for loss in ("logistic", "hinge"):
            for refit in (None, 1.0):
                m = SparseClassifier(k=3, loss=loss, time_limit=30, refit_gamma=refit).fit(
                    Xn[tr], y[tr])
                pred = m.predict(Xn[te])
                rows.append({"table": name, "loss": loss,
                             "coefficients": "γ auto" if refit is None else "refit γ = 1",
                             "accuracy": float(np.mean(pred == y[te])),
                             "balanced": float(balanced_accuracy_score(y[te], pred)),
                             "auc": float(roc_auc_score(y[te], m.decision_function(Xn[te]))),
                             "majority": float(maj), "status": m.status_,
                             # a hinge model with w = 0 (always the majority class): its AUC
                             # reads the rounding noise of a zero vector
                             "w = 0": bool(np.abs(m.coef_ * Xn[tr].std(axis=0)).max()
                                           < 1e-6)})
        print(name, flush=True)
    df = pd.DataFrame(rows)
    wide = df.pivot_table(index=["table", "loss"], columns="coefficients",
                          values=["accuracy", "balanced", "auc", "w = 0"], sort=False)
    wide.columns = [f"{a} ({b})" for a, b in wide.columns]
    wide = wide.reset_index()
    wide.insert(2, "majority", df.groupby(["table", "loss"], sort=False)["majority"].first()
                .to_numpy())
    mean = df.groupby(["loss", "coefficients"])[["accuracy", "balanced", "auc"]].mean()
    live = df[~df.groupby(["table", "loss"])["w = 0"].transform("any")]
    mean["auc (no w = 0)"] = live.groupby(["loss", "coefficients"])["auc"].mean()
    below = df.assign(at_most_majority=df["accuracy"] <= df["majority"] + 1e-12).groupby(
        ["loss", "coefficients"])["at_most_majority"].sum()
    text = "\n".join([
        header("Sparse models: the γ-auto coefficients against a refit on the certified "
               "support", "bench/sparse_refit.py --out bench/results/sparse_refit.md"),
        __doc__.split("\n\n")[1].replace("\n", " "), "",
        "## Means over the tables", "",
        markdown(mean.assign(**{"accuracy ≤ majority (tables)": below}).reset_index()), "",
        "## Per table", "", markdown(wide), ""])
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
