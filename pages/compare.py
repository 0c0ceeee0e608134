"""Compare page: several interpretable models fitted on ONE train/test split of the current data.

Models come from :data:`rulecore.compare.REGISTRY` (rules and rule sets, exact sparse SVM /
logistic regression, datum-wise, and scikit-learn baselines).  Each model's fit is cached per
session on (data digest, model, settings, split), so adding a model to the comparison only fits
that one.  Output: one table (CSV / Markdown export), accuracy against features used, the outer
approximation's bound trace and the coefficients of the sparse models.
"""

import json

import pandas as pd
import streamlit as st

from pages import common
from rulecore.compare import (
    Comparison,
    available_models,
    coefficients,
    compare_models,
    display_table,
    table_markdown,
)
from rulecore.datumwise import RARE_CLASS_SHARE
from rulecore.exceptions import RulecoreError
from rulecore.fit import split_labels
from rulecore.report import chance_words
from rulecore.rules.rule import safe_csv
from rulecore.sparse import GAMMA_AUTO_FACTOR
from rulecore.viz import sparse as sviz

# "auto" (the default): γ = GAMMA_AUTO_FACTOR / (k × training rows) on standardised columns,
# resolved at fit time (rulecore.sparse.auto_gamma); the numbers: weaker ridge to the right
GAMMAS = ["auto", 0.0001, 0.001, 0.01, 0.1, 1.0, 10.0]

common.init_state()
ss = st.session_state
st.title("Compare")
ds = common.require_dataset()
y = ds.y_binary
common.dataset_caption(ds)
common.leak_warnings(ds)  # the Data page's leak warning, here too
st.markdown(
    "Fit several models on **one** train/test split (the Rule page's) and compare test "
    "accuracy, AUC, the number of features each one uses (for the datum-wise classifier: "
    "the mean per test row) and its size (rule conditions, non-zero coefficients or tree "
    "splits).  The exact "
    "methods also report a **certified gap**: 0 means proven optimal for their objective. "
    "Numeric models see each categorical column as one 0/1 column per level (a two-level "
    "column with no gap as one: `smoker=yes`); a column with "
    "more than 20 levels (a name, free text) keeps its 20 most frequent and one *(other)*.")

names, skipped = available_models()
if skipped:
    st.info("Not available yet: " + ", ".join(skipped), icon=":material/info:")


@st.cache_data(scope="session", max_entries=64, show_spinner=False)
def fit_one(digest: str, name: str, params_json: str, test_share: float, seed: int,
            _X: pd.DataFrame, _y, _kinds: dict, _groups=None, _stratify=None) -> Comparison:
    """One model's row of the comparison (cached per model and setting; the digest covers
    the data, its roles and so its groups and classes)."""
    return compare_models(_X, _y, {name: json.loads(params_json)}, test_size=test_share,
                          random_state=seed, kinds=_kinds, groups=_groups, stratify=_stratify)


# ------------------------------------------------------------------ settings
default_pick = [n for n in ("Single rule", "Rule set (auto)", "Sparse logistic",
                            "L1 logistic (sklearn)", "CART (sklearn)") if n in names]
#: the form's widgets, given back their last submitted values after a visit to another page
FORM_KEYS = ("cmp_models", "cmp_test", "cmp_seed", "cmp_time", "cmp_lam", "cmp_thr",
             "cmp_rules", "cmp_rounds", "cmp_k", "cmp_gamma", "cmp_cv", "cmp_dw_cost", "cmp_C",
             "cmp_depth")
common.restore_widgets(FORM_KEYS)
with st.form("cmp_form"):
    picked = st.multiselect("Models", names, key="cmp_models", wrap=True,
                            default=common.initial("cmp_models", default_pick))
    c = st.columns(4)
    test_share = c[0].slider("Test share", 0.1, 0.5, common.initial("cmp_test", 0.25), 0.05,
                             key="cmp_test")
    seed = c[1].number_input("Split seed", 0, 2**31 - 1, common.initial("cmp_seed", 0), 1,
                             key="cmp_seed")
    time_limit = c[2].number_input("Time limit per fit (s)", 1, 600,
                                   common.initial("cmp_time", 30), 1, key="cmp_time",
                                   help="Each rule, sparse and datum-wise fit stops at this "
                                        "limit and reports its best model and gap so far.")
    with st.expander("Rule models", expanded=False):
        r = st.columns(4)
        # starts at the Rule page's λ (default rulecore.settings.DEFAULT_LAM): one vocabulary
        lam = r[0].select_slider("λ (single rule, set covering)", common.LAMS,
                                 value=common.initial("cmp_lam", common.nearest_lam(
                                     ss["rule"]["lam"])), key="cmp_lam",
                                 help="Boosting keeps its own scale (λ = 1000: its row "
                                      "weights sum to 1). The rule set (auto) chooses its "
                                      "own λ by cross-validation.")
        n_thr = r[1].number_input("Thresholds per column", 2, 100,
                                  common.initial("cmp_thr", 10), 1, key="cmp_thr")
        max_rules = r[2].number_input("Max rules (set covering)", 1, 20,
                                      common.initial("cmp_rules", 5), 1, key="cmp_rules")
        n_rounds = r[3].number_input("Rounds (boosting)", 1, 20,
                                     common.initial("cmp_rounds", 5), 1, key="cmp_rounds")
    with st.expander("Sparse SVM / logistic", expanded=True):
        s = st.columns(3)
        k = s[0].slider("k (non-zeros)", 1, 20, common.initial("cmp_k", 3), key="cmp_k")
        gamma = s[1].select_slider(
            "γ (weaker ridge to the right)", GAMMAS, value=common.initial("cmp_gamma", "auto"),
            key="cmp_gamma",
            format_func=lambda g: "auto" if g == "auto" else f"{g:g}",
            help=f"auto: γ = {GAMMA_AUTO_FACTOR:g} / (k × training rows) on standardised "
                 "columns, small enough for the optimum to be certified quickly and large "
                 "enough not to shrink the model to class means (docs/sparse.md). A larger γ "
                 "regularises less and can take much longer to certify. The γ used is shown "
                 "after the fit.")
        use_cv = s[2].checkbox("Choose k and γ by validation AUC",
                               common.initial("cmp_cv", False), key="cmp_cv",
                               help="Grid k ∈ {1, 2, 3, 5, 8} × 6 values of γ, then a "
                               "refit on the training part, all within the time limit "
                               "(at most 5 s each).")
    with st.expander("Datum-wise and baselines", expanded=False):
        b = st.columns(3)
        feature_cost = b[0].number_input("Datum-wise λ (cost of a feature)", 0.0, 1.0,
                                         common.initial("cmp_dw_cost", 0.01), 0.001,
                                         format="%.4f", key="cmp_dw_cost",
                                         help="Relative to one misclassification. A class "
                                         f"under {RARE_CLASS_SHARE:.0%} of the rows has its "
                                         "errors weighed balanced, as on the Datum-wise page.")
        C = b[1].select_slider("L1 logistic C", [0.001, 0.01, 0.1, 1.0, 10.0],
                               value=common.initial("cmp_C", 0.1), key="cmp_C")
        depth = b[2].slider("CART max depth", 1, 8, common.initial("cmp_depth", 3),
                            key="cmp_depth")
    submitted = st.form_submit_button("Compare", type="primary", key="cmp_submit")

if submitted:
    common.remember_widgets(FORM_KEYS)
    tl = float(time_limit)
    rule = {"lam": float(lam), "n_thresholds": int(n_thr), "time_limit": tl}
    sparse = {"k": int(k), "gamma": gamma if gamma == "auto" else float(gamma),
              "time_limit": tl, "cv": bool(use_cv)}
    params = {"Single rule": rule,
              "Rule set (auto)": {"lam": "auto", "n_thresholds": int(n_thr),
                                  "time_limit": max(tl, 60.0)},
              "Set covering": {**rule, "max_rules": int(max_rules)},
              "Boosting": {"n_thresholds": int(n_thr), "time_limit": tl,
                           "n_rounds": int(n_rounds)},
              "Sparse SVM": sparse, "Sparse logistic": sparse,
              "Datum-wise": {"feature_cost": float(feature_cost), "time_limit": tl},
              "L1 logistic (sklearn)": {"C": float(C)},
              "CART (sklearn)": {"max_depth": int(depth)}}
    ss["cmp_params"] = {"models": {m: params[m] for m in picked},
                        "test_share": float(test_share), "seed": int(seed)}

run = ss.get("cmp_params")
if not run or not run["models"]:
    st.info("Pick models and press **Compare**.", icon=":material/play_arrow:")
    st.stop()

results: dict[str, Comparison] = {}
errors: dict[str, list[str]] = {}  # one message for the models that fail the same way
todo = list(run["models"].items())
with st.status(f"Fitting {len(todo)} model(s)…", expanded=False) as status:
    bar = st.progress(0.0)
    for i, (name, p) in enumerate(todo):
        limit = f", stops at {p['time_limit']:g} s" if "time_limit" in p else ""
        bar.progress(i / len(todo), text=f"{name} ({i + 1}/{len(todo)}{limit})")
        # the box stays closed (cached fits would flash it open), so its label says which
        # model runs: on 200,000 rows it read "Fitting 5 model(s)…" for 42 s (a review)
        status.update(label=f"Fitting {name} ({i + 1} of {len(todo)}{limit})…")
        try:
            # the Rule page's rows: a many-class target split on every class
            results[name] = fit_one(ds.digest, name, json.dumps(p, sort_keys=True),
                                    run["test_share"], run["seed"], ds.X, y, ds.kinds,
                                    ds.groups, split_labels(ds, run["test_share"]))
        except RulecoreError as exc:
            errors.setdefault(str(exc), []).append(name)
    bar.progress(1.0, text="done")
    status.update(label=f"Fitted {len(results)} of {len(todo)} model(s)",
                  state="complete" if results else "error")
for message, failed in errors.items():
    st.error(common.md(f"{', '.join(failed)}: {message}"), icon=":material/error:")
if not results:
    st.stop()

table = pd.concat([r.table for r in results.values()], ignore_index=True)
ss["cmp_table"] = table
any_split = next(iter(results.values()))
if len(ds.classes) > 2:
    # "Rule set (auto)" here is not the Rule page's rule list (a newcomer's review)
    st.info(f"The target has {len(ds.classes)} classes: every model here tells "
            f"**{ds.positive}** from the other {len(ds.classes) - 1} (one-vs-rest), the rule "
            "set (auto) included. On the Rule page the rule set (auto) learns a rule list "
            "over all the classes.", icon=":material/info:")
# the split is the Rule page's: by whole identifier when the rows repeat one (it said
# "stratified" of a split by whole Account, a stranger's review)
how = (f"held out by {ds.held_out_unit}, none also in training" if ds.groups is not None
       else "stratified")
st.caption(f"Train {len(any_split.train):,} rows · test {len(any_split.test):,} rows "
           f"({how}, seed {run['seed']}). Certified gap: 0 is proven optimal, — means "
           "the method gives no certificate.")
for model, note in zip(table["model"], table["note"], strict=True):
    if "warning:" in str(note):
        st.warning(f"**{model}**: " + common.md("; ".join(
            p.removeprefix("warning: ") for p in str(note).split("; ")
            if p.startswith("warning"))), icon=":material/warning:")
y_test = ds.y_binary[any_split.test]
# how far apart two accuracies on these few rows must be to differ by more than luck (a
# review: 0.73 to 0.79 on 52 rows, ranked to three decimals with no word of noise)
n_test = len(y_test)
luck = chance_words(dict(zip(table["model"], table["accuracy"])), n_test,
                    ds.held_out_records(any_split.train, any_split.test))
st.caption(f"Always predicting the majority class scores accuracy "
           f"{max(y_test.mean(), 1 - y_test.mean()):.3f} on these test rows, balanced "
           "accuracy 0.5: on a rare positive class, read the balanced accuracy too."
           + (f" {luck}" if luck else ""))
st.dataframe(display_table(table), hide_index=True, key="cmp_table_view", column_config={
    "accuracy": st.column_config.NumberColumn(format="%.3f"),
    "balanced accuracy": st.column_config.NumberColumn(format="%.3f"),
    # whole counts read "4", not "4.00"; the datum-wise model's mean per row keeps its
    # decimals, 3.27 (a stranger's review)
    "features used": st.column_config.NumberColumn(format="%g"),
    "fit (s)": st.column_config.NumberColumn(format="%.2f"),
    # "optimal" beside a model no better than chance read as "best" (a newcomer's review)
    "status": st.column_config.TextColumn(
        "solver status", help="The solver's word on its own objective: optimal means the "
        "objective was proved optimal (gap 0), not that the model is accurate; read the "
        "accuracy columns and the notes for that."),
    # the warnings are said in full above; the widest column keeps most of them readable
    "note": st.column_config.TextColumn(
        width="large", help="Each warning is written out in full above the table.")})
d = st.columns(2)
d[0].download_button("Download table (CSV)", safe_csv(table, index=False), "comparison.csv",
                     "text/csv", key="cmp_csv")
d[1].download_button("Download table (Markdown)", table_markdown(table), "comparison.md",
                     "text/markdown", key="cmp_md")

# on a rare positive class, accuracy ranks highest the models that never predict it (a
# review: three such models sat at the top, the one useful rule at the bottom)
rare = min(y_test.mean(), 1 - y_test.mean()) < sviz.RARE_CHART_SHARE
chart_metric = st.segmented_control(
    "Chart", ["accuracy", "balanced_accuracy"], key="cmp_chart_metric",
    default="balanced_accuracy" if rare else "accuracy",
    format_func=lambda m: m.replace("_", " "),
    help="Balanced accuracy is the mean of the two classes' recalls: always predicting one "
         "class scores 0.5 whatever the class shares. Chosen by default when one class has "
         f"fewer than {sviz.RARE_CHART_SHARE:.0%} of the test rows.") or "accuracy"
majority_score = 0.5 if chart_metric == "balanced_accuracy" else \
    max(y_test.mean(), 1 - y_test.mean())
st.plotly_chart(sviz.accuracy_vs_features(table, metric=chart_metric,
                                          baseline=float(majority_score)),
                width="stretch", key="cmp_fig_acc")

sparse_fitted = [n for n in ("Sparse SVM", "Sparse logistic") if n in results]
if sparse_fitted:
    which = st.radio("Sparse model", sparse_fitted, horizontal=True, key="cmp_which")
    est = results[which].models[which]
    cols = st.container(key="stack_cmp_charts").columns(2)  # stacked under 50 rem
    cols[0].plotly_chart(sviz.bound_trace(est.trace_, f"{which}: lower / upper bound"),
                         width="stretch", key="cmp_fig_trace")
    # per standard deviation: per unit, a salary's bar vanished beside a flag's (a review)
    coefs = {n: coefficients(results[n], n, ds.X, ds.kinds) for n in sparse_fitted}
    if "L1 logistic (sklearn)" in results:
        coefs["L1 logistic (sklearn)"] = coefficients(results["L1 logistic (sklearn)"],
                                                      "L1 logistic (sklearn)", ds.X, ds.kinds)
    cols[1].plotly_chart(sviz.coefficients(
        coefs, "Non-zero coefficients, per standard deviation",
        axis_title="coefficient × the column's standard deviation"),
        width="stretch", key="cmp_fig_coef")
    searched = hasattr(est, "cv_results_")
    if searched:
        st.plotly_chart(sviz.cv_heatmap(est.cv_results_, chosen=(est.k_, est.gamma_)),
                        width="stretch", key="cmp_fig_cv")
    how = ("chosen by validation AUC" if searched
           else "auto" if run["models"][which].get("gamma") == "auto" else "as set")
    # the k the search chose, not the slider's (a newcomer read k = 3 where 5 was fitted)
    k_used = est.k_ if searched else est.k
    st.caption(f"{which}: status **{est.status_.replace('_', ' ')}**, objective "
               f"{est.objective_:.4g}, "
               f"lower bound {est.lower_bound_:.4g}, gap {est.gap_:.1e}, "
               f"{len(est.trace_)} master iteration(s); k = {k_used} and γ = {est.gamma_:.3g} "
               f"({how}).")
