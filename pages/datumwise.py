"""Datum-wise page: a sparse classifier that picks features per datum (docs/datumwise.md).

The settings form fits :class:`rulecore.datumwise.DatumWiseClassifier` on a stratified training
part of the current dataset (raw multi-class labels, numeric features via
``rulecore.encode.to_numeric``) within a time limit, with a progress bar over the policy
iterations; fits are kept per session (the last 16 settings).  Tabs: a per-datum view of one
test row's acquisition sequence, a histogram of the number of features used (correct vs
incorrect), and an accuracy-sparsity curve over a λ grid against L1-SVM on the same split
(each λ point kept on its own).
"""

import json

import numpy as np
import pandas as pd
import streamlit as st
from sklearn.metrics import balanced_accuracy_score

from pages import common
from rulecore.compare import columns_used_per_row
from rulecore.data import train_test_indices
from rulecore.datumwise import (
    RARE_CLASS_SHARE,
    DatumWiseClassifier,
    has_rare_class,
    l1_svm_curve,
)
from rulecore.encode import raw_values, to_numeric
from rulecore.exceptions import ParameterError
from rulecore.viz.datumwise import (
    decision_path_figure,
    feature_usage_figure,
    features_used_histogram,
    sparsity_curve_figure,
)

KEPT_FITS = 16  # fitted policies kept in the session (the λ curve reuses them)
NEARLY_ALL = 0.9  # a policy reading this share of the features per datum is told why

common.init_state()
ss = st.session_state
st.title("Datum-wise")
ds = common.require_dataset()
with common.user_errors():
    X = to_numeric(ds.X, ds.kinds)
y = ds.y.to_numpy()
# whole records held out where one comes back on many rows, as on the Rule page (a review:
# a patient's visits were fitted and held out at once here)
groups = None if ds.groups is None else ds.groups.to_numpy()
m, d = X.shape
st.caption(f"Data: **{ds.name}** · {m:,} rows × {ds.X.shape[1]} features, encoded as {d} "
           f"numeric columns · target `{ds.target}` with its {len(ds.classes)} classes"
           + (" (all of them at once, no one-vs-rest)" if len(ds.classes) > 2 else ""))
common.leak_warnings(ds)  # the policy may read a leak too (a review: only Rule and Compare said)
st.markdown(
    "Classifies each datum by a short sequence of decisions: *acquire one more feature* "
    "(cost λ each) or *classify now* (cost 1 if wrong). The policy is learned by approximate "
    "policy iteration; the dearer a feature, the sooner a row stops, easy rows first. "
    "**Constrained** (DWSM-Con) acquires features in one learned order for every row; only "
    "the stopping point varies.")
if d > 100:
    st.warning(f"{d} features: training time grows with the square of the feature count; "
               "each fit stops at the time limit you set below.", icon=":material/timer:")


def _key(params: dict) -> str:
    return json.dumps(params, sort_keys=True)


def fit_policy(params: dict, bar=None, span: tuple[float, float] = (0.0, 1.0),
               prefix: str = "") -> tuple[DatumWiseClassifier, np.ndarray, np.ndarray]:
    """The fitted classifier and the (train, test) row indices for one setting, kept in the
    session (not st.cache_data: the fit moves ``bar``, a progress bar outside the function,
    over its ``span`` of the bar, each iteration's text after ``prefix``)."""
    fits = ss.setdefault("dw_fits", {})
    key = _key(params)
    if key not in fits:
        tr, te = train_test_indices(y, params["test_share"], params["seed"], groups)

        def progress(done: int, total: int) -> None:
            bar.progress(span[0] + (span[1] - span[0]) * done / total,
                         text=f"{prefix}Policy iteration {done} of {total}")

        model = DatumWiseClassifier(
            feature_cost=params["lam"], constrained=params["constrained"],
            n_states=params["n_states"], n_iterations=params["n_iterations"],
            time_limit=params["time_limit"], random_state=params["seed"],
            class_weight=params.get("class_weight"),
        ).fit(X.iloc[tr], y[tr], callback=progress if bar is not None else None)
        fits[key] = (model, tr, te)
        while len(fits) > KEPT_FITS:  # oldest first
            fits.pop(next(iter(fits)))
    return fits[key]


@st.cache_data(scope="session", max_entries=8, show_spinner=False)
def svm_curve(digest: str, test_share: float, seed: int, _X: pd.DataFrame, _y: np.ndarray,
              _groups: np.ndarray | None = None) -> pd.DataFrame:
    """The L1-SVM accuracy-sparsity curve on the same split (the digest covers the
    groups)."""
    tr, te = train_test_indices(_y, test_share, seed, _groups)
    Xv = _X.to_numpy(dtype=float)
    return l1_svm_curve(Xv[tr], _y[tr], Xv[te], _y[te])


# ------------------------------------------------------------------ settings
#: the form's widgets, given back their last submitted values after a visit to another page
FORM_KEYS = ("dw_lambda", "dw_variant", "dw_states", "dw_iters", "dw_test", "dw_seed",
             "dw_time", "dw_weights")
common.restore_widgets(FORM_KEYS)
if "dw_weights" not in ss:
    # a rare class gets a policy that predicts it by default: unweighted, a stranger's first
    # policy read no feature and scored "+0.0 pts vs majority" under a warning to pick
    # balanced (a review; the rules weigh a rare class by default too)
    ss["dw_weights"] = "balanced" if has_rare_class(ds.y) else "none"
with st.form("dw_settings"):
    c = st.columns(7)
    lam = c[0].number_input("λ (cost of a feature)", 0.0, 1.0, common.initial("dw_lambda", 0.01),
                            0.001, format="%.4f", key="dw_lambda",
                            help="Relative to one misclassification (cost 1).")
    variant = c[1].radio("Variant", ["Unconstrained", "Constrained"], key="dw_variant")
    n_states = c[2].number_input("Rollout states", 50, 5000, common.initial("dw_states", 1000),
                                 50, key="dw_states",
                                 help="States sampled per policy iteration (paper: 2,000).")
    n_iter = c[3].number_input("Policy iterations", 1, 30, common.initial("dw_iters", 10), 1,
                               key="dw_iters")
    # the Rule and Compare pages' share, so the pages' held-out accuracies compare (it was
    # 0.3 here: a review)
    test_share = c[4].slider("Test share", 0.1, 0.5, common.initial(
                                 "dw_test", float(common.DEFAULTS["rule"]["test_size"])),
                             0.05, key="dw_test",
                             help="Share of rows held out, stratified; the Rule and Compare "
                                  "pages hold out the same share by default."
                                  + (f" Held out by {ds.held_out_unit}: none also in training."
                                     if ds.held_out_unit else ""))
    seed = c[5].number_input("Seed", 0, 2**31 - 1, common.initial("dw_seed", 0), 1,
                             key="dw_seed")
    limit = c[6].number_input("Time limit (s)", 1, 3600, common.initial("dw_time", 60), 5,
                              key="dw_time",
                              help="Per fit. An iteration still running at the limit is "
                                   "dropped and the best finished policy kept.")
    # a rare class: the unweighted policy minimises wrong answers and can do so by never
    # predicting it, whatever λ (a stranger's 15 % churn target: 0.00 features, all "No")
    weights = st.radio("Class weights", ["none", "balanced"], horizontal=True,
                       key="dw_weights",
                       help="What a wrong answer costs per true class. None: 1 for every row "
                            "(the paper). Balanced: each class's errors weigh alike in total, "
                            "so a rare class is worth predicting; scaled so that λ still "
                            "prices a feature against an average error. Balanced by default "
                            f"when a class has under {RARE_CLASS_SHARE:.0%} of the rows.")
    submitted = st.form_submit_button("Learn the policy", type="primary", key="dw_submit")

if submitted:
    common.remember_widgets(FORM_KEYS)
    ss["dw_params"] = dict(digest=ds.digest, lam=float(lam),
                           constrained=variant == "Constrained", n_states=int(n_states),
                           n_iterations=int(n_iter), test_share=float(test_share),
                           seed=int(seed), time_limit=float(limit),
                           class_weight=None if weights == "none" else weights)

params = ss.get("dw_params")
if params is None or params["digest"] != ds.digest:
    st.info("Choose the settings and press **Learn the policy**. The paper used 2,000 rollout "
            "states and 10 iterations; λ around 0.001–0.1 spans dense to very sparse.",
            icon=":material/info:")
    st.stop()

fresh = _key(params) not in ss.get("dw_fits", {})  # open the status only while it fits
with common.user_errors(), st.status("Learning the policy…", expanded=fresh) as status:
    bar = st.progress(0.0, text=f"Policy iteration 0 of {params['n_iterations']}")
    model, tr, te = fit_policy(params, bar)
    bar.empty()
    secs = model.history_[-1]["seconds"] if model.history_ else 0.0  # empty for one class
    # the settings it was learned with: the form above may show others not yet submitted
    status.update(label=f"λ = {params['lam']:g}, "
                        f"{'constrained' if params['constrained'] else 'unconstrained'}, "
                        f"test share {params['test_share']:g}, seed {params['seed']}"
                        + (", classes weighted alike" if params.get("class_weight") else "")
                        + " · "
                        f"{model.n_iter_} policy iterations in {secs:.2f} s · "
                        f"{model.status_.replace('_', ' ')} · kept the policy of "
                        f"iteration {model.best_iteration_ + 1} of {model.n_iter_} (the "
                        "lowest training objective)", state="complete", expanded=False)

Xte, yte = X.iloc[te], y[te]
run = model.run_policy(Xte)
pred = model.classes_[run.labels]
correct = pred == yte
n_used = run.used.sum(axis=1)
k = st.columns(4)
# against always the training rows' most frequent class, as the Rule page shows it: 0.915
# alone did not say that 0.83 comes for free (a stranger's review)
counts = pd.Series(y[tr]).value_counts()
top = counts.index[0]
base = float(np.mean(yte == top))
gain = correct.mean() - base
k[0].metric("Test accuracy", f"{correct.mean():.3f}", f"{100 * gain:+.1f} pts vs majority",
            delta_color="normal" if abs(gain) >= 0.0005 else "off",
            help=f"Always predicting the most frequent class, {top}, scores {base:.3f} "
                 "on these test rows.")
k[1].metric("Mean features per datum", f"{n_used.mean():.2f} / {d}",
            help="Encoded inputs read per test datum (a category's one-hot columns each "
                 "count), as the paper counts.")
k[2].metric("Sparsity", f"{1 - run.used.mean():.3f}",
            help="Mean share of features NOT used per test datum (the paper's definition).")
k[3].metric("Test rows", f"{len(te):,}")
if d > ds.X.shape[1]:
    # Compare counts table columns: say that figure too, so the pages agree
    per_row = columns_used_per_row(run.used, list(X.columns), ds.X.columns)
    st.caption(f"In table columns (a category read through any of its one-hot inputs counts "
               f"once, as Compare counts): {per_row.mean():.2f} of {ds.X.shape[1]} per datum.")
# a policy that reads nothing, or does no better than always the most frequent class, is never
# left to look like a result (a newcomer's review: 0.908 with 0.00 features per datum was
# exactly the majority's share, and nothing said so)
# a rare class the policy never predicts: it minimises the error rate, unweighted, and
# lowering λ cannot change that (a review: at λ = 0 it read 4.95 features per row and still
# never predicted fraud, under advice to lower λ)
never = [c for c in counts.index[1:] if not np.any(pred == c)]
# with the classes weighted alike the policy is judged as it was fitted: on balanced accuracy
# (each class's recall, averaged), where any one class for every row scores 0.5
weighted = bool(params.get("class_weight"))
balanced = float(balanced_accuracy_score(yte, pred))
chance = 1 / len(np.unique(yte))  # any one class on every row
if weighted and balanced > chance + 1e-12 and correct.mean() < base:
    st.info(f"With the classes weighted alike, the policy gives up accuracy "
            f"({correct.mean():.3f}, against {base:.3f} for always {top}) to find the rarer "
            f"classes: balanced accuracy {balanced:.3f} ({chance:.2f} for any one class on "
            "every row).", icon=":material/balance:")
elif (balanced <= chance + 1e-12) if weighted else correct.mean() <= base + 1e-12:
    st.warning(f"Test accuracy {correct.mean():.3f} is no better than always predicting the "
               f"most frequent class, {top} ({base:.3f} of these test "
               "rows)" + (": the policy classifies without reading any feature"
                          if n_used.mean() == 0 else "")
               + (". On these test rows it never predicts "
                  + ", ".join(f"{c} ({counts[c] / counts.sum():.1%} of the training rows)"
                              for c in never) + ": the policy "
                  "minimises the share of wrong answers, every row alike, and on a rare "
                  "class that can be lowest by never predicting it, whatever λ. Choose "
                  "Class weights: balanced above, so that its errors weigh as much as the "
                  "other classes' in total."
                  if never else ". Lower λ (each feature read costs less) or check the "
                  "target."),
               icon=":material/warning:")

elif d > 1 and n_used.mean() >= NEARLY_ALL * d:
    # the intro promised that easy rows stop early; at the default λ = 0.01 a feature costs a
    # hundredth of a wrong answer and iris's policy read 3.89 of 4 (a newcomer's review):
    # say why, and what to change
    cost = (f"at λ = {params['lam']:g} a feature costs {params['lam']:g} of a wrong answer, "
            f"so reading one more pays if it saves one error in {1 / params['lam']:,.0f} rows"
            if params["lam"] > 0 else "at λ = 0 a feature costs nothing")
    st.info(f"The policy reads {n_used.mean():.2f} of the {d} features per datum: {cost}. "
            "Raise λ for a policy that stops earlier; the **λ curve** tab shows what each λ "
            "costs in accuracy.", icon=":material/info:")

tab_datum, tab_hist, tab_curve = st.tabs(["Per datum", "Features used", "λ curve"])


# ------------------------------------------------------------------ per-datum view
@st.fragment
def datum_panel() -> None:
    pos = st.number_input(f"Test row (0–{len(te) - 1})", 0, len(te) - 1, 0, 1, key="dw_row")
    row = Xte.iloc[[int(pos)]]
    ex = model.explain(row)
    c1, c2, c3 = st.columns(3)
    c1.metric("Decision", str(ex.prediction))
    c2.metric("True label", str(yte[int(pos)]))
    c3.metric("Features acquired", len(ex.features))
    if ex.features:
        seq = pd.DataFrame({"order": np.arange(1, len(ex.features) + 1),
                            "feature": ex.feature_names,
                            "value": raw_values(ds.X, Xte.index[int(pos)], ex.feature_names,
                                                ex.values)})
        st.dataframe(seq, hide_index=True, width="stretch", key="dw_seq")
    else:
        st.write("Classified without looking at any feature (the class prior decided).")
    st.plotly_chart(decision_path_figure(ex), width="stretch", key="dw_path")
    i = Xte.index[int(pos)]
    names = common.row_names(ds, i)
    st.caption(f"Row {i}{f' ({names})' if names else ''}. " + common.row_numbering(ds))


with tab_datum:
    datum_panel()

with tab_hist:
    st.plotly_chart(features_used_histogram(n_used, correct, n_features=d), width="stretch",
                    key="dw_hist")
    st.plotly_chart(feature_usage_figure(run.used, [str(c) for c in X.columns]),
                    width="stretch", key="dw_usage")

# ------------------------------------------------------------------ λ curve
with tab_curve:
    grid_text = st.text_input("λ grid (comma-separated)", "0, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1",
                              key="dw_grid")
    go_curve = st.button("Compute the curve", key="dw_curve_go", icon=":material/show_chart:")
    if go_curve:
        with common.user_errors():
            try:
                grid = sorted({float(v) for v in grid_text.replace(";", ",").split(",")
                               if v.strip()})
            except ValueError:
                raise ParameterError("The λ grid must be numbers separated by commas.") from None
            if not grid or min(grid) < 0:
                raise ParameterError("The λ grid needs at least one λ ≥ 0.")
        ss["dw_curve"] = {**params, "grid": grid}
    cp = ss.get("dw_curve")
    if cp is not None and {k: v for k, v in cp.items() if k not in ("grid", "lam")} == {
            k: v for k, v in params.items() if k != "lam"}:
        bar = st.progress(0.0, text="Fitting over the λ grid…")
        rows = []
        n_grid = len(cp["grid"])
        for i, lam_i in enumerate(cp["grid"]):
            # each λ's iterations move the bar too: 40 s of one fit showed nothing (a
            # stranger's review)
            with common.user_errors():
                mi, _, _ = fit_policy({**params, "lam": lam_i}, bar,
                                      span=(i / n_grid, (i + 1) / n_grid),
                                      prefix=f"λ = {lam_i:g} ({i + 1} of {n_grid}): ")
            r = mi.run_policy(Xte)
            rows.append({"model": "DWSM-Con" if params["constrained"] else "DWSM-Un",
                         "param": lam_i, "sparsity": 1 - r.used.mean(),
                         "mean_features": r.used.sum(1).mean(),
                         "accuracy": np.mean(mi.classes_[r.labels] == yte)})
            bar.progress((i + 1) / len(cp["grid"]), text=f"λ = {lam_i:g} done")
        bar.progress(1.0, text="L1-SVM over 17 values of C…")
        with common.user_errors():
            svm = svm_curve(ds.digest, params["test_share"], params["seed"], _X=X, _y=y,
                            _groups=groups)
        bar.empty()
        # an L1-SVM that keeps no feature predicts one class from its intercept alone (the
        # smaller one, at 0.152, with a vertical drop to it: a review): left out, and said
        empty = svm["mean_features"] <= 0
        curve = pd.concat([pd.DataFrame(rows), svm.loc[~empty, list(rows[0])]],
                          ignore_index=True)
        # the metric's baseline: the training rows' most common class, scored on the test
        # rows (the test rows' own read 0.342 beside the metric's 0.316: a review)
        majority = base
        if empty.any():
            st.caption(f"{int(empty.sum())} value{'s' if empty.sum() > 1 else ''} of C at "
                       "which L1-SVM keeps no feature (it then answers from its intercept "
                       "alone) are left out of the curve and the table.")
        st.plotly_chart(sparsity_curve_figure(curve, majority=majority), width="stretch",
                        key="dw_curve_fig")
        # the two models' knobs apart and every header in words (a newcomer read one
        # "param" column mixing λ and C, under "mean_features")
        # each model's knob as text, 3 significant digits, blank for the other model (the
        # grid cut C to "0017782794100389228" and wrote "None": a review)
        dw = curve["model"].str.startswith("DWSM")
        knob = curve["param"].map(lambda v: f"{v:.3g}")
        shown = curve.round(4).assign(**{"λ (datum-wise)": knob.where(dw, ""),
                                         "C (L1-SVM)": knob.where(~dw, "")})
        shown = shown[["model", "λ (datum-wise)", "C (L1-SVM)", "sparsity", "mean_features",
                       "accuracy"]].rename(columns={"mean_features": "mean features used",
                                                    "accuracy": "held-out accuracy"})
        st.dataframe(shown, hide_index=True, width="stretch", key="dw_curve_table")
    else:
        st.info("Press **Compute the curve** to fit the current settings over the λ grid "
                "(each point is cached) and compare with L1-SVM "
                "(`LinearSVC(penalty='l1')`, sparsity = share of zero weights).",
                icon=":material/info:")
